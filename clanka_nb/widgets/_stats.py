"""Sweep-style statistics of one chunk frame, fast enough for a slider: the per-codebase work is done once.

The numbers mean what the columns of `frames.sweep` mean (the tests check they are equal); this
module exists because the tuning panel already has the chunk frame of the current setting, and
chunking the codebase a second time through `sweep` would double the cost of every slider move.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .. import engine

CHARACTERS_PER_TOKEN = 4  # the same rough estimate `frames.sweep` uses without a tokenizer


def _summary(values: np.ndarray) -> tuple[float | None, float | None, float | None]:
    if not len(values):
        return None, None, None
    return float(values.mean()), float(np.median(values)), float(np.percentile(values, 95))


class CodebaseLines:
    """Every line of a codebase's files end to end (file i's line k at `offsets[i] + k - 1`), and its
    declaration ranges: what does not depend on the chunk settings.
    """

    def __init__(self, codebase: engine.Codebase) -> None:
        self.paths = list(codebase.files)
        self.file_index = {path: i for i, path in enumerate(self.paths)}
        texts = [codebase.text(path) for path in self.paths]
        sizes = [0 if text is None else text.line_count for text in texts]
        self.offsets = np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)])
        flags = (
            text.is_meaningful(line) for text in texts if text is not None for line in range(1, text.line_count + 1)
        )
        self.meaningful = np.fromiter(flags, dtype=bool, count=int(self.offsets[-1]))
        files, lines, characters = [], [], []
        for i, text in enumerate(texts):
            if text is None:
                continue
            count = text.line_count
            for d in text.declarations:
                # Clamped as the engine clamps ranges before splitting them.
                start, end = max(1, min(count, d.start_line)), max(1, min(count, d.end_line))
                if end >= start:
                    files.append(i)
                    lines.append(end - start + 1)
                    characters.append(text.length(start, end))
        self.declaration_file = np.asarray(files, dtype=np.int64)
        self.declaration_lines = np.asarray(lines, dtype=np.int64)
        self.declaration_characters = np.asarray(characters, dtype=np.int64)

    def stats(self, frame: pd.DataFrame, settings: engine.ChunkSettings) -> dict[str, Any]:
        """The `frames.sweep` row (without `seconds`) of `frame`, the codebase's chunks at `settings`."""
        paths = frame["path"].to_numpy(dtype=object)
        codes, uniques = pd.factorize(paths)
        file_of = np.array([self.file_index[p] for p in uniques], dtype=np.int64)[codes]
        starts = self.offsets[file_of] + frame["start_line"].to_numpy(dtype=np.int64) - 1
        ends = self.offsets[file_of] + frame["end_line"].to_numpy(dtype=np.int64) - 1
        diff = np.zeros(len(self.meaningful) + 1, dtype=np.int64)
        np.add.at(diff, starts, 1)
        np.add.at(diff, ends + 1, -1)
        held = np.cumsum(diff[:-1]) > 0
        lines = frame["lines"].to_numpy(dtype=np.int64)
        characters = frame["characters"].to_numpy(dtype=np.int64)
        tokens = characters / CHARACTERS_PER_TOKEN
        meaningful = int(self.meaningful.sum())
        (lines_mean, lines_median, lines_p95) = _summary(lines)
        (chars_mean, chars_median, chars_p95) = _summary(characters)
        (tokens_mean, _, tokens_p95) = _summary(tokens)
        return {
            "chunk_size": settings.requested_size,
            "chunk_overlap": settings.requested_overlap,
            "chunk_max_characters": settings.chunk_max_characters,
            "effective_size": settings.chunk_size,
            "effective_overlap": settings.chunk_overlap,
            "clamped": settings.clamped,
            "chunks": len(frame),
            "lines_mean": lines_mean,
            "lines_median": lines_median,
            "lines_p95": lines_p95,
            "characters_mean": chars_mean,
            "characters_median": chars_median,
            "characters_p95": chars_p95,
            "tokens_mean": tokens_mean,
            "tokens_p95": tokens_p95,
            "tokens_total": float(tokens.sum()),
            "split_declarations": self._split_share(frame, settings),
            "coverage": int((held & self.meaningful).sum()) / meaningful if meaningful else None,
            "duplication": float(lines.sum()) / int(held.sum()) if held.any() else None,
        }

    def _split_share(self, frame: pd.DataFrame, settings: engine.ChunkSettings) -> float | None:
        """Share of the declarations of AST-chunked files that do not fit in one chunk."""
        ast_paths = frame.loc[frame["chunker"] == "ast", "path"].unique()
        ast_files = np.zeros(len(self.paths), dtype=bool)
        ast_files[[self.file_index[p] for p in ast_paths]] = True
        counted = ast_files[self.declaration_file] if len(self.declaration_file) else np.zeros(0, dtype=bool)
        if not counted.any():
            return None
        cut = self.declaration_lines > settings.chunk_size
        if settings.chunk_max_characters is not None:
            cut |= (self.declaration_lines > 1) & (self.declaration_characters > settings.chunk_max_characters)
        return float(cut[counted].mean())
