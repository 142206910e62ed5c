"""One batch's share of a sweep row: counts and exact histograms that add up across batches and roots."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import engine, frames
from ..engine.token_counts import TokenCounter, estimated_tokens, remembering
from ..frames.columns import token_stat
from ..frames.lines import LineIndex, span_positions
from ..frames.stats import ast_files as ast_flags
from ..sweeps.internals import ChunkerRun
from ..sweeps.table import head_tokens, input_tokens
from ._histogram import Histogram


@dataclass
class Partial:
    """What a sweep row needs from some files at one setting; `+` merges two disjoint sets of files."""

    lines: list[Histogram] = field(default_factory=list)
    characters: list[Histogram] = field(default_factory=list)
    input_tokens: list[Histogram] = field(default_factory=list)  # only with a token counter (of embedding inputs)
    meaningful: int = 0  # meaningful lines
    held: int = 0  # lines in at least one chunk
    held_meaningful: int = 0
    declarations: int = 0  # declarations of AST-chunked files
    cut: int = 0  # of those, the ones that do not fit in one chunk
    seconds: float = 0.0

    def __add__(self, other: Partial) -> Partial:
        return Partial(
            self.lines + other.lines, self.characters + other.characters, self.input_tokens + other.input_tokens,
            self.meaningful + other.meaningful, self.held + other.held, self.held_meaningful + other.held_meaningful,
            self.declarations + other.declarations, self.cut + other.cut, self.seconds + other.seconds,
        )

    def compacted(self) -> Partial:
        """The same partial with each histogram list merged into one (keeps a long reduction small)."""
        return Partial(
            [Histogram.merged(self.lines, np.int64)], [Histogram.merged(self.characters, np.int64)],
            [Histogram.merged(self.input_tokens, np.float64)] if self.input_tokens else [],
            self.meaningful, self.held, self.held_meaningful, self.declarations, self.cut, self.seconds,
        )


def measure(
    codebase: engine.Codebase,
    settings: list[engine.ChunkSettings],
    counter: TokenCounter | None = None,
    cut: ChunkerRun | None = None,
) -> list[Partial]:
    """One partial per setting for all files of `codebase`, parsed once, then one of `cut` when given.

    A `counter` counts the tokens of each chunk's embedding input, whose `file:` is the path within
    `codebase` (on Dask, a batch of one root: the path clanka embeds when it indexes that root). `cut` is a
    whole chunker's cut of every file (clanka's own in an extended-mode sweep: `reference_cut`); its partial
    counts no declarations (its split_declarations is NA, as the local sweep's: the declarations are another
    mode's) and its seconds are the cut's.
    """
    stats = frames.CodebaseStats(codebase)
    index, declarations = stats.index, stats.declarations
    counter = None if counter is None else remembering(counter)  # inputs shared by settings: counted once
    out = []
    for setting in settings:
        started = time.perf_counter()
        walked = [codebase.file_chunking(path, setting) for path in index.paths]
        starts, ends = span_positions(index, [chunking.spans for chunking in walked])
        ast_files = ast_flags(walked)
        counted = int(ast_files[declarations.file].sum()) if len(declarations.file) else 0
        share = declarations.split_share(setting, ast_files)
        # frames owns the rule for "cut"; its share times the count gives the count back exactly.
        split = round(share * counted) if share is not None else 0
        tokens = None if counter is None else input_tokens(codebase, index.paths, setting, counter)
        partial = _spans_partial(index, starts, ends, tokens, (counted, split), 0.0)
        partial.seconds = time.perf_counter() - started
        out.append(partial)
    if cut is not None:
        starts, ends = span_positions(index, [[(h.start_line, h.end_line) for h in heads] for heads in cut.heads])
        tokens = None if counter is None else head_tokens(codebase, cut.heads, counter)
        out.append(_spans_partial(index, starts, ends, tokens, (0, 0), cut.seconds))
    return out


def _spans_partial(
    index: LineIndex, starts: np.ndarray, ends: np.ndarray, tokens: np.ndarray | None, split: tuple[int, int],
    seconds: float,
) -> Partial:
    """The partial of chunks given as global line positions: `tokens` their inputs' counts (None: not counted),
    `split` the declarations of AST-chunked files and how many of them were cut."""
    held = index.chunk_counts(starts, ends) > 0
    return Partial(
        [Histogram.of(ends - starts + 1)], [Histogram.of(index.characters(starts, ends))],
        [] if tokens is None else [Histogram.of(tokens)],
        int(index.meaningful.sum()), int(held.sum()), int((held & index.meaningful).sum()), *split, seconds,
    )


def row(
    setting: engine.ChunkSettings,
    partial: Partial,
    counter: TokenCounter | None = None,
    limit: int | None = None,
) -> dict[str, Any]:
    """The sweep row of the merged partial, as `cn.sweep` computes it from the whole sample.

    With a `counter` (as measured) the token columns are of embedding inputs; with a `limit` the row
    also has `over_limit`, the share of chunks over that many tokens.
    """
    lines = Histogram.merged(partial.lines, np.int64)
    characters = Histogram.merged(partial.characters, np.int64)
    if counter is not None:
        tokens = Histogram.merged(partial.input_tokens, np.float64)
    else:
        tokens = Histogram(estimated_tokens(characters.values), characters.counts)
    # Named as `cn.sweep` names them: est_tokens_* for the chars/4 estimate, tokens_* (a whole total) for counts.
    estimated = counter is None or counter.estimated
    total = tokens.total()
    values = {
        **setting.effective_columns(),
        "chunks": lines.size,
        "lines_mean": lines.mean(),
        "lines_median": lines.median(),
        "lines_p95": lines.percentile(95),
        "characters_mean": characters.mean(),
        "characters_median": characters.median(),
        "characters_p95": characters.percentile(95),
        token_stat("mean", estimated=estimated): tokens.mean(),
        token_stat("p95", estimated=estimated): tokens.percentile(95),
        token_stat("total", estimated=estimated): total if estimated else round(total),
        "split_declarations": partial.cut / partial.declarations if partial.declarations else None,
        "coverage": partial.held_meaningful / partial.meaningful if partial.meaningful else None,
        "duplication": lines.total() / partial.held if partial.held else None,
        "seconds": partial.seconds,
    }
    if limit is not None:
        # The share as numpy's mean of a boolean array gives it: a count over a count, one division.
        over = int(tokens.counts[tokens.values > limit].sum())
        values["over_limit"] = over / tokens.size if tokens.size else None
    return values
