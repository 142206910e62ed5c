"""clanka's own setting as a row of every probed sweep: the reference the answer (`_answer`) is about.

clanka's `SemanticSearch` (Effectful-Tech/clanka at `CLANKA_COMMIT`, src/SemanticSearch.ts `resolveChunkConfig`)
always indexes with chunkSize 30 and chunkOverlap 0, and chunkMaxCharacters 10,000 unless the code building its
layer passes another; it parses TS/JS only (the "clanka" language mode). A sweep in that mode adds this setting to
its grid when the grid lacks it; a sweep in extended mode scores it apart, as the engine cuts in clanka's own mode,
through the same probe set (only the cutting differs).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import engine
from ..chunkers import Chunker
from ..chunkers import clanka as clanka_chunker
from ..defaults import CHUNK_OVERLAP, CHUNK_SIZE, DEFAULT_LANGUAGES, INDEX_MAX_CHARACTERS
from ..frames.lines import span_positions
from ..frames.stats import CodebaseStats
from ..retrieval import Probe
from ..retrieval.internals import Bootstrap, Outcome, ProbeScorer, ProbeSet, heads_scored, scored_row
from ._chunkers import ChunkerRun, run_chunker

CLANKA_REPOSITORY = "Effectful-Tech/clanka"
CLANKA_COMMIT = "805d349"  # the commit whose src/SemanticSearch.ts and src/CodeChunker.ts these facts were read from
CLANKA_MODE = DEFAULT_LANGUAGES  # clanka parses TS/JS only: the "clanka" language mode
REFERENCE_COLUMN = "reference"  # the sweep table's boolean column: True on clanka's own setting's row


def reference_settings() -> engine.ChunkSettings:
    """clanka's index settings: chunk_size 30, chunk_overlap 0, chunk_max_characters 10,000 (`resolveChunkConfig`)."""
    return engine.ChunkSettings.build(int(CHUNK_SIZE), int(CHUNK_OVERLAP), int(INDEX_MAX_CHARACTERS), warn=False)


def reference_named(languages: str) -> dict[str, Any]:
    """How the verdict names the reference row: its settings, and its language mode when the sweep's differs."""
    named: dict[str, Any] = dict(reference_settings().columns())
    if languages != CLANKA_MODE:
        named["languages"] = CLANKA_MODE
    return named


def is_reference(settings: engine.ChunkSettings, languages: str) -> bool:
    """Whether a setting, in the sweep's language mode, is the one clanka indexes with (as the engine cuts)."""
    reference = reference_settings()
    used = (settings.effective_size, settings.effective_overlap, settings.effective_max_characters)
    wanted = (reference.effective_size, reference.effective_overlap, reference.effective_max_characters)
    return languages == CLANKA_MODE and used == wanted


def with_reference(settings: Sequence[engine.ChunkSettings], languages: str) -> list[engine.ChunkSettings]:
    """The grid with clanka's setting after it when the sweep is in clanka's mode and the grid lacks it (in extended
    mode it is scored apart: `reference_row`)."""
    out = list(settings)
    if languages == CLANKA_MODE and not any(is_reference(setting, languages) for setting in out):
        out.append(reference_settings())
    return out


def reference_position(settings: Sequence[engine.ChunkSettings], languages: str) -> int | None:
    """The grid's row of clanka's setting (the first, if several ask for it); None where it is scored apart."""
    return next((number for number, setting in enumerate(settings) if is_reference(setting, languages)), None)


def reference_chunker() -> Chunker:
    """The engine in clanka's mode at clanka's settings, as a chunker (a sweep in extended mode scores it so)."""
    reference = reference_settings()
    return clanka_chunker(reference.effective_size, reference.effective_overlap, reference.effective_max_characters,
                          languages=CLANKA_MODE, label="clanka's setting")  # fmt: skip


def reference_cut(codebase: engine.Codebase, paths: list[str], texts: Mapping[str, str] | None = None) -> ChunkerRun:
    """clanka's own cut of a codebase in another language mode than clanka's: the engine in clanka's mode at
    clanka's settings over `paths` (the codebase's readable files, in order; `texts` as `run_chunker` takes them).
    The local sweep's reference row and Dask's workers' (one root each) cut it here."""
    return run_chunker(codebase, paths, reference_chunker(), reference_settings(), texts)


def reference_row(
    codebase: engine.Codebase, stats: CodebaseStats, scorer: ProbeScorer, run: ChunkerRun,
) -> tuple[dict[str, Any], list[list[Any]]]:
    """The reference row of a sweep in another language mode than clanka's: `run`, the engine's cut in clanka's mode
    at clanka's settings (`reference_cut`), sized and scored through the sweep's probe set; and its chunks' heads
    (for token counts). split_declarations is NA (the sweep's declarations are another mode's)."""
    starts, ends = span_positions(stats.index, [[(h.start_line, h.end_line) for h in heads] for heads in run.heads])
    row: dict[str, Any] = {**reference_settings().effective_columns(), **stats.size_columns(starts, ends)}
    row["split_declarations"] = None
    row["seconds"] = run.seconds
    row.update(scorer.columns_of(run.heads, reference_named(codebase.languages)))
    return row, list(run.heads)


def reference_scored(
    codebase: engine.Codebase, paths: list[str], probe_set: ProbeSet, probe: Probe, bootstrap: Bootstrap,
) -> tuple[dict[str, Any], Outcome, float]:
    """clanka's setting scored through a probe set (the tuning panel's reference): in clanka's mode the engine's
    row at its settings, in another mode clanka's own cut of `paths` (the codebase's readable files, in order);
    its probe columns, per-query outcome and tokens indexed."""
    if codebase.languages == CLANKA_MODE:
        return scored_row(probe_set, reference_settings(), probe, bootstrap)
    run = run_chunker(codebase, paths, reference_chunker(), reference_settings())
    return heads_scored(probe_set, run.heads, probe, bootstrap, reference_named(codebase.languages))
