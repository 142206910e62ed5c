"""Every declaration range of a codebase cut into the engine's segments at once, in numpy, for any line setting."""

from __future__ import annotations

import numpy as np

from .. import engine
from .lines import LineIndex


class SegmentPlan:
    """The engine's declaration plan of every file laid end to end, in global positions (see `LineIndex`).

    `spans(settings)` gives the spans of the engine's declaration chunks (`engine._chunker.declaration_segments`,
    which splits with `_segments`) for all these files together, without a Python loop per declaration.
    It is the numpy twin of the engine's *splitting rule*: a range longer than `chunk_size` lines is cut
    into `chunk_size`-line pieces `chunk_size - chunk_overlap` apart, the last one ending at the range's
    end; a class whose methods are chunks keeps only its first piece; a piece with no meaningful line is
    dropped, and so is one equal to an earlier one in lines, name, type and parent. That is arithmetic
    when no character limit moves the cuts. `tests/frames/test_frame_segments.py` pins the two to each
    other. Files without declarations, and files whose every segment is dropped (the engine falls back
    to line windows there), are left to the engine.
    """

    def __init__(self, index: LineIndex) -> None:
        files: list[int] = []
        starts: list[int] = []
        ends: list[int] = []
        truncates: list[bool] = []
        owns: list[int] = []  # extended mode: the declaration's own first line (its range's start elsewhere)
        keys: list[int] = []
        names: dict[tuple[str | None, str | None, str | None], int] = {}
        for i, text in enumerate(index.texts):
            if text is None or text.status is not engine.FileStatus.CHUNKED or not text.declarations:
                continue
            for start, end, declaration, cut in text.plan():  # the engine's own clamped ranges
                files.append(i)
                starts.append(start)
                ends.append(end)
                truncates.append(cut)
                own = declaration.body_start
                owns.append(own if own is not None and text.mode == "extended" else start)
                # The engine drops a segment equal to an earlier one in lines, name, type and parent.
                label = (declaration.name, declaration.type, declaration.parent)
                keys.append(names.setdefault(label, len(names)))
        self.index = index
        self.file = np.asarray(files, dtype=np.int64)
        shift = index.offsets[self.file] - 1 if len(files) else np.zeros(0, dtype=np.int64)
        self.start = np.asarray(starts, dtype=np.int64) + shift
        self.end = np.asarray(ends, dtype=np.int64) + shift
        self.truncates = np.asarray(truncates, dtype=bool)
        self.own = np.asarray(owns, dtype=np.int64) + shift
        self.key = np.asarray(keys, dtype=np.int64)
        self.planned = np.zeros(len(index.paths), dtype=bool)  # files whose ranges are here
        self.planned[self.file] = True
        # Meaningful lines before each position: a segment with none is dropped.
        self._meaningful_before = np.concatenate([[0], np.cumsum(index.meaningful, dtype=np.int64)])

    def spans(self, settings: engine.ChunkSettings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Global starts and ends of the declaration chunks at `settings` (unordered), and their count per file.

        Only for settings without `chunk_max_characters` (a character limit cuts where the text
        says): ValueError otherwise.
        """
        if settings.effective_max_characters is not None:
            msg = "SegmentPlan.spans cuts by lines only; the engine cuts a chunk_max_characters setting, file by file"
            raise ValueError(msg)
        size = settings.effective_size
        step = size - settings.effective_overlap  # the engine keeps the overlap below the size
        start, end = self.start, self.end
        # Extended mode's head rule (the engine's `head_start`): leading comments that fill the first piece move
        # the pieces' start to half a chunk above the declaration's own first line.
        start = np.where(self.own - start >= size, self.own - size // 2, start)
        # The splitting rule, as the engine's `_segments`: pieces start `step` apart until one reaches the end.
        fits = end - start < size
        pieces = np.where(fits, 1, 1 - ((start - end + size - 1) // step))
        pieces = np.where(self.truncates, np.minimum(pieces, 1), pieces)
        rows = np.repeat(np.arange(len(start)), pieces)
        first = np.repeat(np.cumsum(pieces) - pieces, pieces)
        seg_start = start[rows] + (np.arange(len(rows)) - first) * step
        seg_end = np.minimum(end[rows], seg_start + size - 1)
        before = self._meaningful_before
        kept = before[seg_end + 1] != before[seg_start]
        rows, seg_start, seg_end = rows[kept], seg_start[kept], seg_end[kept]
        if len(rows):
            # Equal lines, name, type and parent: one chunk (global lines imply the file).
            key = self.key[rows]
            order = np.lexsort((key, seg_end, seg_start))
            s, e, k = seg_start[order], seg_end[order], key[order]
            new = np.ones(len(order), dtype=bool)
            new[1:] = (s[1:] != s[:-1]) | (e[1:] != e[:-1]) | (k[1:] != k[:-1])
            rows, seg_start, seg_end = rows[order][new], s[new], e[new]
        counts = np.bincount(self.file[rows], minlength=len(self.index.paths))
        return seg_start, seg_end, counts
