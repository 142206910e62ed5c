"""What clanka would do with an index written at other settings than its own (issue 53 item 4).

clanka's `SemanticSearch` (Effectful-Tech/clanka at 805d349, src/SemanticSearch.ts `resolveChunkConfig`) always
chunks with 30 lines, no overlap and 10,000 characters, parsing TS/JS only. An index written at other settings, or
in extended mode, holds inputs clanka's next sync does not produce: it deletes those rows and embeds its own again.
The index is still written where it was asked to be (a `db=` given is the user's choice, and a database written here
is one clanka opens); the sync says, in one line, how many inputs clanka would re-embed there, and `open_index`'s
`clanka_check()` says at which settings an index was built and whether clanka would keep it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .. import engine
from ..defaults import CHUNK_OVERLAP, CHUNK_SIZE, DEFAULT_LANGUAGES, INDEX_MAX_CHARACTERS
from ..engine.embedding import embedding_text, input_hash
from ..engine.settings import Settings, checked_init
from ..warning import ClankaWarning

CLANKA_WORDS = "30 lines, no overlap, 10,000 characters, TS/JS only"


class ClankaRebuildWarning(ClankaWarning, UserWarning):
    """An index was written at settings clanka does not use: clanka's next sync there embeds its inputs again."""


def clanka_settings(max_file_size: str | int | None = None) -> Settings:
    """The settings clanka's index chunks with (`resolveChunkConfig`), in clanka's language mode."""
    chosen = Settings(int(CHUNK_SIZE), int(CHUNK_OVERLAP), int(INDEX_MAX_CHARACTERS), DEFAULT_LANGUAGES)
    return chosen if max_file_size is None else Settings(max_file_size=max_file_size).over(chosen)


def is_clanka(settings: Settings) -> bool:
    """Whether an index at these settings is the one clanka builds (the chunk settings as cut, and the mode)."""
    mine, clanka = settings.chunk, clanka_settings().chunk
    used = (mine.effective_size, mine.effective_overlap, mine.effective_max_characters, settings.mode)
    return used == (clanka.effective_size, clanka.effective_overlap, clanka.effective_max_characters,
                    DEFAULT_LANGUAGES)  # fmt: skip


def described(settings: Settings) -> str:
    """Settings in the words of a note ("chunk_size=60, chunk_overlap=0, ..., languages=extended")."""
    values = {**settings.chunking(), "languages": settings.mode}
    return ", ".join(f"{name}={'none' if value is None else value}" for name, value in values.items())


def hashes_at(root: Path, settings: Settings, paths: list[str] | None = None) -> set[str]:
    """The embedding inputs' hashes the chunker gives at `settings` (what an index at them holds)."""
    chunks = (engine.chunk_files(root, paths, settings=settings) if paths is not None
              else engine.chunk_codebase(root, settings=settings))  # fmt: skip
    return {input_hash(embedding_text(c.path, c.start_line, c.name, c.type, c.parent, c.content)) for c in chunks}


def reembedded(root: Path, stored: Iterable[str], max_file_size: str | int, paths: list[str] | None = None) -> int:
    """How many inputs clanka's next sync of an index holding `stored` would embed (those it lacks)."""
    held = set(stored)
    return sum(digest not in held for digest in hashes_at(root, clanka_settings(max_file_size), paths))


def rebuild_note(where: str, settings: Settings, count: int) -> str:
    """The one line a sync at other settings than clanka's says."""
    return (f"{where} was written at {described(settings)}, not clanka's ({CLANKA_WORDS}): clanka's next sync "
            f"there will re-embed {count:,} inputs and delete the rows written here; write it elsewhere (db=, "
            "--db) to keep clanka's index as it is")


@checked_init
@dataclass(frozen=True)
class ClankaCheck:
    """At which settings an index was built, and whether clanka would keep it (`OpenedIndex.clanka_check()`).

    Attributes:
        rows: The distinct inputs the index holds.
        built_at: The tried settings the most rows are current at (in `described`'s words).
        current: Rows current at those settings.
        clanka_current: Rows clanka's settings give now (clanka's next sync keeps them).
        clanka_embeds: Inputs clanka's next sync would embed (those the index lacks).
        kept: Whether clanka would keep the index as it is (every row current, nothing to embed).
        message: All of it in one sentence.
    """

    rows: int
    built_at: str
    current: int
    clanka_current: int
    clanka_embeds: int
    kept: bool
    message: str


def clanka_check(root: Path, stored: Iterable[str], given: Settings) -> ClankaCheck:
    """Try the settings `given` (open_index's), clanka's, and clanka's sizes in extended mode against the stored
    inputs; say which the index matches best and what clanka's next sync would do to it."""
    held = set(stored)
    clanka = clanka_settings(given.max_file_size)
    tried = [given, clanka, Settings(languages="extended").over(clanka)]
    found = {described(settings): (settings, hashes_at(root, settings)) for settings in tried}
    name, (_, best) = max(found.items(), key=lambda item: len(held & item[1][1]))
    clanka_now = found[described(clanka)][1]
    keeps, embeds = len(held & clanka_now), len(clanka_now - held)
    kept = keeps == len(held) and embeds == 0
    verdict = "clanka keeps it" if kept else (f"clanka's next sync ({CLANKA_WORDS}) would keep {keeps:,} of them, "
                                              f"delete {len(held) - keeps:,} and embed {embeds:,} inputs again")
    message = (f"{len(held & best):,} of its {len(held):,} inputs are current at {name} (the closest of the settings "
               f"tried); {verdict}")
    return ClankaCheck(len(held), name, len(held & best), keeps, embeds, kept, message)
