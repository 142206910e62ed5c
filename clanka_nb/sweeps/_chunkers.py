"""Whole chunkers as rows of a sweep: each chunker's spans of every file the engine lists, as the probe's chunks.

A chunker of `clanka_nb.chunkers` (or any callable `(path, text) -> spans`) cuts the same texts the engine read;
its spans become `ChunkHead`s in the codebase's file order, so the probe indexes them exactly as it indexes the
engine's chunks (path header and numbered lines, doc comments masked): only the cutting differs. A file the
chunker does not handle (no grammar for its language) is cut into clanka's own line windows instead, as clanka
itself does with every file it cannot parse, and counted in `fallback_files`: every chunker is then scored on
the same files, and none loses queries only because it skipped a language. A file the chunker could not cut in
time (its time limit per file, or its budget per sweep) is counted in `timed_out_files` as well.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import engine
from ..chunkers import FILE_SECONDS, TOTAL_SECONDS, Chunker, as_chunker, chunk_with, read_source
from ..engine.internals import ChunkHead, heads_of
from ..engine.progress import ProgressBar, bar
from ..engine.settings import checked_keywords
from ..frames import columns as _columns
from ..frames.lines import span_positions
from ..frames.stats import CodebaseStats

CHUNKER_COLUMNS: _columns.Schema = {
    "chunker_label": _columns.STRING,
    "chunker_parameters": _columns.STRING,  # the chunker's own size parameters, as JSON
    "fallback_files": _columns.INT,
    "timed_out_files": _columns.INT,  # of those, the files it could not cut in time (time limit or budget)
    # The languages a chunker cut no file of (its fallback, clanka's own cut, holds every one): its row is
    # clanka's own cut there, so it is not ranked on those languages' queries ("" when none).
    "uncut_languages": _columns.STRING,
}
# The languages extended mode's grammars parse (engine.language_of's names), as named in a sentence ("astchunk: no Go
# grammar, clanka's cut there"): a chunker is judged on these; the others (Markdown, text) every chunker cuts in
# windows.
_SHOWN = {"go": "Go", "rust": "Rust", "java": "Java", "csharp": "C#", "kotlin": "Kotlin", "python": "Python",
          "typescript": "TypeScript", "tsx": "TSX", "javascript": "JavaScript", "ruby": "Ruby", "php": "PHP",
          "swift": "Swift", "scala": "Scala", "c": "C", "cpp": "C++", "lua": "Lua", "bash": "Bash"}  # fmt: skip


ENGINE_LABEL = "clanka"  # the chunker_label of the engine's own rows (one per setting of the grid)


def engine_chunker_columns(settings: engine.ChunkSettings) -> dict[str, Any]:
    """The chunker columns of one of the engine's rows: clanka, at this setting, with no fallback (its line
    windows for files it cannot parse are its own cut, not a fallback)."""
    return {"chunker_label": ENGINE_LABEL, "chunker_parameters": json.dumps(settings.columns(), sort_keys=True),
            "fallback_files": 0, "timed_out_files": 0, "uncut_languages": ""}  # fmt: skip


@dataclass(frozen=True)
class ChunkerRun:
    """One chunker's cut of a codebase: its chunks per file (in the codebase's file order) and what it cost.

    Attributes:
        label: The chunker's label.
        parameters: Its own size parameters.
        heads: Per file (in the codebase's order), its chunks' heads.
        seconds: Time in the chunker's own calls (and the fallback windows'), not reading the files.
        fallback_files: How many files were cut into clanka's line windows instead.
        fallen: Those files.
        timed_out_files: How many of them it could not cut in time (its time limit per file, or its budget).
    """

    label: str
    parameters: Mapping[str, Any]
    heads: list[list[ChunkHead]]
    seconds: float  # in the chunker's own calls (and the fallback windows'), not reading the files
    fallback_files: int
    fallen: frozenset[str] = frozenset()  # the files cut into clanka's line windows instead (not handled)
    timed_out_files: int = 0

    def handled(self, path: str) -> bool:
        """Whether the chunker cut this file itself (not clanka's fallback windows)."""
        return path not in self.fallen

    def uncut(self, paths: list[str]) -> list[str]:
        """The languages (`engine.language_of`) of `paths` whose every file fell back to clanka's line windows:
        the chunker cut nothing of them (only languages a grammar parses: every chunker windows Markdown or text)."""
        languages: dict[str, bool] = {}
        for path in paths:
            language = engine.language_of(path)
            if language in _SHOWN:
                languages[language] = languages.get(language, True) and path in self.fallen
        return sorted(language for language, fell in languages.items() if fell)


def uncut_reason(label: str, languages: list[str]) -> str:
    """Why a chunker's row is not ranked on some languages, in words: "astchunk: no Go grammar, clanka's cut there"
    (its fallback: clanka's line windows in clanka mode, the engine's declaration chunks in extended mode)."""
    shown = " or ".join(_SHOWN.get(language, language) for language in languages)
    return f"{label}: no {shown} grammar, clanka's cut there"


def check_chunkers(chunkers: object) -> dict[str, Chunker]:
    """`chunkers=` as label -> chunker: a mapping of labels to chunkers or callables (None: no chunker rows)."""
    if chunkers is None:
        return {}
    if not isinstance(chunkers, Mapping) or not chunkers:
        msg = ("chunkers must be a dict of label -> chunker, e.g. {'astchunk': cn.chunkers.astchunk(), 'windows': "
               f"cn.chunkers.line_windows()}} (clanka_nb.chunkers has the adapters), got {chunkers!r:.80}")  # fmt: skip
        raise TypeError(msg)
    out: dict[str, Chunker] = {}
    for label, chunker in chunkers.items():
        if not isinstance(label, str) or not label.strip():
            msg = f"each chunker's label must be a non-empty string (a column value), got {label!r:.80}"
            raise ValueError(msg)
        if label == ENGINE_LABEL:  # the engine's own rows are labelled so: a chunker's row must be told apart
            msg = (f"the label {label!r} names the engine's own rows of the sweep; give this chunker another, e.g. "
                   "{'clanka at 40': cn.chunkers.clanka(40)}")
            raise ValueError(msg)
        if not callable(chunker):
            msg = f"chunker {label!r} is not callable: pass an adapter of clanka_nb.chunkers or (path, text) -> spans"
            raise TypeError(msg)
        out[label] = as_chunker(chunker, label)
    return out


@checked_keywords
def run_chunker(codebase: engine.Codebase, paths: list[str], chunker: Chunker, fallback: engine.ChunkSettings,
                texts: Mapping[str, str] | None = None) -> ChunkerRun:  # fmt: skip
    """`chunker` over every file of `paths` (the codebase's readable files, in order), as the probe's chunks.
    `texts`: the files as every chunker gets them (`read_source(codebase).texts`), read once for several
    chunkers; None reads them here. A chunker that follows its source's language mode (clanka's, given no
    `languages=`) runs in the codebase's.

    Args:
        codebase: The parsed codebase.
        paths: Its readable files, in order.
        chunker: The chunker.
        fallback: The settings of the line windows a file the chunker does not handle is cut into.
        texts: The files as every chunker gets them (`read_source(codebase).texts`); None reads them here.

    Returns:
        The chunker's cut of every file, and what it cost.
    """
    in_mode = getattr(chunker, "in_mode", None)
    if in_mode is not None:  # the same chunker under its own label, in the swept codebase's mode
        chunker = dataclasses.replace(in_mode(codebase.languages), label=chunker.label,
                                      file_seconds=getattr(chunker, "file_seconds", FILE_SECONDS),
                                      total_seconds=getattr(chunker, "total_seconds", TOTAL_SECONDS))  # fmt: skip
    result = chunk_with(chunker, codebase if texts is None else texts)
    heads: list[list[ChunkHead]] = []
    fallen: list[str] = []
    seconds = result.seconds
    for path in paths:
        spans = result.spans.get(path)
        if spans is None:
            text = codebase.text(path)
            if text is None:
                heads.append([])
                continue
            fallen.append(path)
            started = time.perf_counter()
            heads.append([ChunkHead(path, head.start_line, head.end_line, None, None, None)
                          for head in heads_of(text, fallback)])  # fmt: skip
            seconds += time.perf_counter() - started
            continue
        heads.append([ChunkHead(path, span.start_line, span.end_line, span.name, span.type, span.parent)
                      for span in spans])  # fmt: skip
    timed_out = sum(path in result.timed_out for path in fallen)
    return ChunkerRun(result.label, dict(result.parameters), heads, seconds, len(fallen), frozenset(fallen), timed_out)


@dataclass(frozen=True)
class WholeCuts:
    """The whole chunkers' cuts of a sweep's codebase, made once before its rows (and before its inputs are embedded
    ahead: theirs are the sweep's inputs too).

    Attributes:
        peers: Each compared chunker's run, by label, in the order given.
        reference: clanka's own setting cut in clanka's mode, for a probed sweep in another mode (None otherwise).
    """

    peers: dict[str, ChunkerRun]
    reference: ChunkerRun | None = None

    def heads(self) -> list[list[list[ChunkHead]]]:
        """Every run's heads, in the rows' order (clanka's setting first, then the chunkers)."""
        runs = ([] if self.reference is None else [self.reference]) + list(self.peers.values())
        return [run.heads for run in runs]


def whole_cuts(codebase: engine.Codebase, paths: list[str], peers: Mapping[str, Chunker],
               reference: tuple[Chunker, engine.ChunkSettings] | None, progress: ProgressBar) -> WholeCuts:  # fmt: skip
    """Each chunker of `peers` run over `paths` (the codebase's readable files, in order), the files read once for
    all; with `reference`, clanka's cut too (its chunker and the settings of its line windows).

    Args:
        codebase: The parsed codebase.
        paths: Its readable files, in order.
        peers: The chunkers to compare, by label.
        reference: clanka's own setting's chunker and settings, when it is scored apart; None: not.
        progress: None shows a bar only for work over a second, False never, True always.

    Returns:
        The runs.
    """
    if not peers and reference is None:
        return WholeCuts({})
    texts = read_source(codebase).texts  # every chunker gets the same texts, read once
    runs: dict[str, ChunkerRun] = {}
    with bar(progress, len(peers) + (reference is not None), "cutting with chunkers", unit="chunker") as handle:
        cut = None if reference is None else run_chunker(codebase, paths, reference[0], reference[1], texts)
        if handle is not None and cut is not None:
            handle.update(1)
        for label, chunker in peers.items():
            runs[label] = run_chunker(codebase, paths, chunker, engine.ChunkSettings.build(warn=False), texts)
            if handle is not None:
                handle.update(1)
    return WholeCuts(runs, cut)


def chunker_row(stats: CodebaseStats, run: ChunkerRun) -> dict[str, Any]:
    """The sweep row of one chunker: its label and parameters, the size columns, coverage, its seconds."""
    starts, ends = span_positions(stats.index, [[(h.start_line, h.end_line) for h in heads] for heads in run.heads])
    return {
        "chunker_label": run.label,
        "chunker_parameters": json.dumps(dict(run.parameters), sort_keys=True, default=str),
        "fallback_files": run.fallback_files,
        "timed_out_files": run.timed_out_files,
        "uncut_languages": ",".join(run.uncut([path for path, heads in zip(stats.index.paths, run.heads, strict=True)
                                               if heads])),
        **stats.size_columns(starts, ends),
        "seconds": run.seconds,
    }
