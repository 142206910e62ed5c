"""All lines of a codebase laid end to end, so coverage is a few numpy operations per setting."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import cast

import numpy as np

from .. import engine


class LineIndex:
    """Line `k` of file `i` is global position `offsets[i] + k - 1`; `meaningful` is a mask over positions.

    Files that could not be read, are empty or minified have no lines here: the engine never
    split them into lines, so no line of theirs can be meaningful or covered.
    """

    def __init__(self, codebase: engine.Codebase, paths: Sequence[str]) -> None:
        self.paths = list(paths)
        self.texts = [codebase.text(path) for path in self.paths]
        sizes = [0 if text is None else text.line_count for text in self.texts]
        self.offsets = np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)])
        # Per-line values are the differences of the engine's prefix sums: no line is read again.
        read = [text for text in self.texts if text is not None]
        self.meaningful = np.diff(_concat_prefixes([text.meaningful_prefix for text in read])).astype(bool)
        self._char_ends: np.ndarray | None = None

    def characters(self, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """JavaScript length of each chunk (its lines joined with LF), from prefix sums: no text is touched."""
        if self._char_ends is None:
            read = [text for text in self.texts if text is not None]
            self._char_ends = _concat_prefixes([text.length_prefix for text in read])
        return cast("np.ndarray", self._char_ends[ends + 1] - self._char_ends[starts] - 1)

    def positions(self, files: np.ndarray, lines: np.ndarray) -> np.ndarray:
        """Global position of 1-based line `lines[j]` of file `files[j]` (an index into `paths`).

        The one place line numbers become positions: spans, chunk frames and the probe all go through it.
        """
        return cast("np.ndarray", self.offsets[files] + lines - 1)

    @property
    def size(self) -> int:
        return int(self.offsets[-1])

    def chunk_counts(self, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """How many chunks hold each position, given chunks as global start and end positions (inclusive)."""
        diff = np.zeros(self.size + 1, dtype=np.int64)
        np.add.at(diff, starts, 1)
        np.add.at(diff, ends + 1, -1)
        return np.cumsum(diff[:-1])

    def per_file(self, values: np.ndarray) -> np.ndarray:
        """Sum of a per-position array over each file's positions."""
        running = np.concatenate([[0], np.cumsum(values, dtype=np.int64)])
        return cast("np.ndarray", running[self.offsets[1:]] - running[self.offsets[:-1]])

    def file_of(self, positions: np.ndarray) -> np.ndarray:
        """Index (into `paths`) of the file holding each position."""
        return np.searchsorted(self.offsets, positions, side="right") - 1


def _concat_prefixes(prefixes: Sequence[Sequence[int]]) -> np.ndarray:
    """Per-file prefix sums (each starting at 0) joined into one prefix sum over all files' lines."""
    if not prefixes:
        return np.zeros(1, dtype=np.int64)
    steps = [np.diff(np.asarray(prefix, dtype=np.int64)) for prefix in prefixes]
    return np.concatenate([[0], np.cumsum(np.concatenate(steps))])


def span_positions(index: LineIndex, per_file: Sequence[Sequence[tuple[int, int]]]) -> tuple[np.ndarray, np.ndarray]:
    """Global start and end positions of chunks given as (start_line, end_line) per file, in `index.paths` order."""
    sizes = [len(spans) for spans in per_file]
    flat = np.fromiter(chain.from_iterable(chain.from_iterable(per_file)), np.int64, 2 * sum(sizes)).reshape(-1, 2)
    files = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
    return index.positions(files, flat[:, 0]), index.positions(files, flat[:, 1])
