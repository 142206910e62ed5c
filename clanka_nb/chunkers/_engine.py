"""This engine as a chunker: clanka's own chunks, and clanka's line windows alone (its fallback, for every file)."""

from __future__ import annotations

from ..defaults import CHUNK_OVERLAP, CHUNK_SIZE, NO_LIMIT
from ..engine.internals import front, heads_of, prepare, prepared, window_segments
from ..engine.settings import Settings, checked_keywords, setting_docs
from ._adapter import Adapter, Result
from ._spans import Span


def _stated(settings: Settings) -> dict[str, object]:
    chunk = settings.chunk
    return {"chunk_size": chunk.effective_size, "chunk_overlap": chunk.effective_overlap,
            "chunk_max_characters": chunk.effective_max_characters, "unit": "lines (and characters)"}  # fmt: skip


@checked_keywords
@setting_docs
def clanka(
    chunk_size: int = CHUNK_SIZE, chunk_overlap: int = CHUNK_OVERLAP, chunk_max_characters: float | None = NO_LIMIT,
    *,
    languages: str | None = None,
    settings: Settings | None = None,
    label: str = "clanka",
) -> Adapter:
    """The engine as a chunker: for each file exactly the chunks `chunk_file_content` gives at these settings
    (declarations for JS/TS, in `languages="extended"` for more languages; line windows otherwise). Given no
    `languages` (here or in `settings`), a sweep runs it in the mode of the source it sweeps, as its own rows.

    Args:
        label: Its label in tables.

    Returns:
        The engine as a chunker.

    Examples:
        >>> chunkers.chunk_with(chunkers.clanka(40), "my-repo").seconds
    """
    settings = Settings(chunk_size, chunk_overlap, chunk_max_characters, languages).over(settings)
    chunk, mode = settings.chunk, settings.mode

    def in_mode(source_mode: str) -> Adapter:
        return clanka(chunk_size, chunk_overlap, chunk_max_characters, languages=source_mode, settings=settings,
                      label=label)  # fmt: skip

    def split(path: str, text: str) -> Result:
        # Each call parses afresh (no parse cache), so its time is comparable with the peers' that parse too.
        return [Span(head.start_line, head.end_line, head.name, head.type, head.parent)
                for head in heads_of(prepare(path, text, mode), chunk)]  # fmt: skip

    follows = languages is None and (settings.languages is None)
    return Adapter(label, split, {**_stated(settings), "languages": mode}, in_mode=in_mode if follows else None,
                   windows=True)  # fmt: skip


@checked_keywords
@setting_docs
def line_windows(
    chunk_size: int = CHUNK_SIZE, chunk_overlap: int = CHUNK_OVERLAP, chunk_max_characters: float | None = NO_LIMIT,
    *,
    settings: Settings | None = None,
    label: str = "line windows",
) -> Adapter:
    """clanka's fallback for every file, declarations or not: windows of `chunk_size` lines starting at meaningful
    lines, `chunk_overlap` lines shared, cut shorter to `chunk_max_characters` (the engine's own window rule).

    Args:
        label: Its label in tables.

    Returns:
        The line-window chunker.
    """
    settings = Settings(chunk_size, chunk_overlap, chunk_max_characters).over(settings)
    chunk = settings.chunk

    def split(path: str, text: str) -> Result:
        # No parse: the file's lines alone, as the engine windows a file without declarations (an empty or
        # minified file gives none, as there).
        windows = window_segments(prepared(front(path, text), None, []), chunk)
        return [Span(start, end) for start, end in windows]

    return Adapter(label, split, _stated(settings), windows=True)
