"""Sweep-style statistics of one setting's chunks, with the per-codebase work (lines, declarations) done once."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .. import engine
from ..engine.token_counts import estimated_tokens
from . import columns as _columns
from ._declarations import Declarations
from ._segments import SegmentPlan
from .lines import LineIndex, span_positions


def chunkings_reusing(
    codebase: engine.Codebase,
    index: LineIndex,
    declarations: Declarations,
    settings: engine.ChunkSettings,
    whole: dict[int, engine.FileChunking],
) -> list[engine.FileChunking]:
    """The engine's record (chunker and spans) of each file; files whose declarations all stay whole are
    chunked once."""
    walked = []
    for i, (path, stays_whole) in enumerate(zip(index.paths, declarations.all_whole(settings).tolist(), strict=True)):
        done = whole.get(i) if stays_whole else None
        if done is None:
            done = codebase.file_chunking(path, settings)
            # Only declaration chunks are settings-free here; a fall-back to windows is not.
            if stays_whole and done.chunker == "ast":
                whole[i] = done
        walked.append(done)
    return walked


def ast_files(walked: list[engine.FileChunking]) -> np.ndarray:
    """Per file: whether the engine chunked it by its declarations."""
    return np.array([chunking.chunker == "ast" for chunking in walked], dtype=bool)


def summary(values: np.ndarray) -> tuple[float | None, float | None, float | None]:
    if not len(values):
        return None, None, None
    return float(values.mean()), float(np.median(values)), float(np.percentile(values, 95))


def token_stats(tokens: np.ndarray, *, estimated: bool) -> dict[str, Any]:
    """Mean, p95 and total of the tokens of each chunk, under the names that say whether they are the chars/4
    estimate (`est_tokens_*`) or a tokenizer's counts (`tokens_*`, the total a whole number)."""
    mean, _, p95 = summary(tokens)
    total = float(tokens.sum())
    return {
        _columns.token_stat("mean", estimated=estimated): mean,
        _columns.token_stat("p95", estimated=estimated): p95,
        # A tokenizer gives whole counts per chunk, so their sum is one too: shown as the count it is.
        _columns.token_stat("total", estimated=estimated): total if estimated else round(total),
    }


class CodebaseStats:
    """A codebase's lines and declaration ranges as arrays: what every setting's statistics share.

    `sweep` builds one per call; the tuning panel keeps one for its whole life, so a slider move
    only costs the chunking and a few numpy operations.

    Args:
        codebase: The parsed codebase.
    """

    def __init__(self, codebase: engine.Codebase) -> None:
        self.index = LineIndex(codebase, codebase.files)
        self.declarations = Declarations(self.index)
        self._file_index = {path: i for i, path in enumerate(self.index.paths)}
        self._plan: SegmentPlan | None = None  # built on the first update that can use it

    def row(
        self,
        settings: engine.ChunkSettings,
        starts: np.ndarray,
        ends: np.ndarray,
        ast_files: np.ndarray,
    ) -> dict[str, Any]:
        """The sweep row (without `seconds`) of chunks given as global line positions (see `LineIndex`).

        `ast_files` flags the files chunked by declarations; tokens are the chars/4 estimate of each chunk's
        content, as `est_tokens_mean`, `est_tokens_p95` and `est_tokens_total` (a sweep with a token counter
        replaces them with `token_stats` of its counts).
        """
        sizes = self.size_columns(starts, ends)
        coverage = {name: sizes.pop(name) for name in ("coverage", "duplication")}
        return {
            **settings.effective_columns(),
            **sizes,
            "split_declarations": self.declarations.split_share(settings, ast_files),
            **coverage,
        }

    def size_columns(self, starts: np.ndarray, ends: np.ndarray) -> dict[str, Any]:
        """The columns of a row that only the chunks' lines decide, whoever cut them: chunks; mean, median and
        p95 of lines and characters; the chars/4 token estimate; coverage and duplication."""
        index = self.index
        lines = ends - starts + 1
        characters = index.characters(starts, ends)
        held = index.chunk_counts(starts, ends) > 0
        meaningful = int(index.meaningful.sum())
        lines_mean, lines_median, lines_p95 = summary(lines)
        characters_mean, characters_median, characters_p95 = summary(characters)
        return {
            "chunks": len(starts),
            "lines_mean": lines_mean,
            "lines_median": lines_median,
            "lines_p95": lines_p95,
            "characters_mean": characters_mean,
            "characters_median": characters_median,
            "characters_p95": characters_p95,
            **token_stats(estimated_tokens(characters), estimated=True),
            "coverage": int((held & index.meaningful).sum()) / meaningful if meaningful else None,
            "duplication": float(lines.sum()) / int(held.sum()) if held.any() else None,
        }

    def spans_row(
        self, codebase: engine.Codebase, settings: engine.ChunkSettings, whole: dict[int, engine.FileChunking]
    ) -> tuple[dict[str, Any], np.ndarray]:
        """The row of `codebase` (the one this was built from) at `settings`, and every chunk's lines.

        No chunk text is joined: without a character limit, every file's declaration chunks are cut
        at once from the plan's arrays (`SegmentPlan`) and only window files go to the engine; with
        one, the engine's spans file by file, `whole` keeping those of files whose declarations no
        setting splits (pass the same dict on every call to reuse them).
        """
        if settings.effective_max_characters is not None:  # cuts depend on the text: the engine, file by file
            walked = chunkings_reusing(codebase, self.index, self.declarations, settings, whole)
            starts, ends = span_positions(self.index, [chunking.spans for chunking in walked])
            return self.row(settings, starts, ends, ast_files(walked)), ends - starts + 1
        if self._plan is None:
            self._plan = SegmentPlan(self.index)
        starts, ends, counts = self._plan.spans(settings)
        cut = counts > 0
        # Files with no declaration chunk: line windows (or nothing), as the engine makes them.
        rest = np.flatnonzero(~cut).tolist()
        walked = [codebase.file_chunking(self.index.paths[i], settings) for i in rest]
        if rest:
            shift = np.repeat(self.index.offsets[rest] - 1, [len(chunking.spans) for chunking in walked])
            flat = np.array([span for chunking in walked for span in chunking.spans], dtype=np.int64).reshape(-1, 2)
            starts = np.concatenate([starts, flat[:, 0] + shift])
            ends = np.concatenate([ends, flat[:, 1] + shift])
            cut[rest] = ast_files(walked)
        return self.row(settings, starts, ends, cut), ends - starts + 1

    def frame_row(self, frame: pd.DataFrame, settings: engine.ChunkSettings) -> dict[str, Any]:
        """The same row from a chunk frame of this codebase at `settings` (as `chunk_codebase` gives)."""
        codes, uniques = pd.factorize(frame["path"].to_numpy(dtype=object))
        files = np.array([self._file_index[p] for p in uniques], dtype=np.int64)[codes]
        starts = self.index.positions(files, frame["start_line"].to_numpy(dtype=np.int64))
        ends = self.index.positions(files, frame["end_line"].to_numpy(dtype=np.int64))
        ast_files = np.zeros(len(self.index.paths), dtype=bool)
        ast_paths = frame.loc[(frame["chunker"] == "ast").to_numpy(dtype=bool), "path"].unique()
        ast_files[[self._file_index[p] for p in ast_paths]] = True
        return self.row(settings, starts, ends, ast_files)
