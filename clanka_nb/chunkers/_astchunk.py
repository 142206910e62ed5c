"""astchunk (the cAST paper's own implementation) as a peer chunker: the one place it is imported and described."""

from __future__ import annotations

import functools
from typing import Any

from ..engine import language_of
from ..engine.settings import checked_keywords
from ..extras import require
from ._adapter import Adapter, Result
from ._budget import Budget, as_budget
from ._peer import EXTRA, Peer, peer, per_language, version
from ._spans import spans_at_lines

# The engine's language names (engine.language_of) -> astchunk's: it parses Python, Java, C# and TypeScript, the
# last with the TSX grammar, which reads JavaScript (and JSX) too.
_ASTCHUNK_LANGUAGES = {"python": "python", "java": "java", "csharp": "csharp", "typescript": "typescript",
                       "tsx": "typescript", "javascript": "typescript"}  # fmt: skip


# Its own size parameters for a budget: what the factory passes, and what `peer_parameters` states.
def sizes(budget: Budget) -> dict[str, Any]:
    return {"max_chunk_size": budget.non_whitespace, "unit": "non-whitespace characters"}


@checked_keywords
def astchunk(budget: Budget | int | None = None, *, label: str = "astchunk") -> Adapter:
    """astchunk's `ASTChunkBuilder`, the cAST paper's own implementation: syntax-tree nodes merged up to
    `max_chunk_size` non-whitespace characters. Python, Java, C#, TypeScript (and JS/TSX through its TSX grammar).

    Args:
        budget: The size of a chunk: a `Budget`, or characters; None: `CHUNKER_BUDGET` characters.
        label: Its label in tables.

    Returns:
        The chunker (needs the `chunkers` extra when it runs).

    Examples:
        >>> cn.sweep("my-repo", chunkers={"astchunk": chunkers.astchunk(1500)})
    """
    require(f"chunkers.astchunk ({label!r})", EXTRA, "astchunk")
    from astchunk import ASTChunkBuilder

    parameters = sizes(as_budget(budget))
    builder = per_language(lambda language: ASTChunkBuilder(
        max_chunk_size=parameters["max_chunk_size"], language=language, metadata_template="default"))  # fmt: skip

    def run(path: str, text: str) -> list[dict[str, Any]] | None:
        language = _ASTCHUNK_LANGUAGES.get(language_of(path))
        if language is None:
            return None
        return builder(language).chunkify(text) if text.strip() else []

    def spans(path: str, text: str, chunks: list[dict[str, Any]]) -> Result:
        # Its metadata names each chunk's lines, 0-based and inclusive, counted as the file's LF lines.
        lines = ((c["metadata"]["start_line_no"] + 1, c["metadata"]["end_line_no"] + 1) for c in chunks)
        return spans_at_lines(text, lines)

    return peer(label, run, spans, lambda chunk: chunk["content"], {**parameters, "version": version("astchunk")},
                functools.partial(astchunk, as_budget(budget), label=label))


PEER = Peer(astchunk, sizes)
