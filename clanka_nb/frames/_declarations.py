"""The declaration ranges of a codebase as arrays: which ones a setting cuts, and which files it leaves alone."""

from __future__ import annotations

import numpy as np

from .. import engine
from .lines import LineIndex


class Declarations:
    """Every declaration range of the codebase (clamped as the engine clamps it): file, lines, characters."""

    def __init__(self, index: LineIndex) -> None:
        files, lines, characters = [], [], []
        for i, text in enumerate(index.texts):
            if text is None or not text.declarations:
                continue
            for start, end, _, _ in text.plan():  # the engine's own clamped ranges
                files.append(i)
                lines.append(end - start + 1)
                characters.append(text.length(start, end))
        self.file = np.asarray(files, dtype=np.int64)
        self.lines = np.asarray(lines, dtype=np.int64)
        self.characters = np.asarray(characters, dtype=np.int64)
        # Per file: its longest declaration, in lines and in characters (-1: no declarations).
        self.max_lines = np.full(len(index.texts), -1, dtype=np.int64)
        self.max_characters = np.full(len(index.texts), -1, dtype=np.int64)
        np.maximum.at(self.max_lines, self.file, self.lines)
        np.maximum.at(self.max_characters, self.file, self.characters)

    def all_whole(self, settings: engine.ChunkSettings) -> np.ndarray:
        """Per file: whether every declaration stays whole, so its chunks are the same at any such setting.

        A range within `chunk_size` lines and `chunk_max_characters` is one segment whatever the
        settings, and segments are the only way the settings reach declaration chunks.
        """
        fits = (self.max_lines >= 0) & (self.max_lines <= settings.effective_size)
        if settings.effective_max_characters is not None:
            fits &= self.max_characters <= settings.effective_max_characters
        return fits

    def split_share(self, settings: engine.ChunkSettings, ast_files: np.ndarray) -> float | None:
        """Share of the declarations of AST-chunked files that do not fit in one chunk.

        The engine cuts a range when it has more lines than `chunk_size`, or more than one line and
        more characters than `chunk_max_characters` (a single over-long line stays one chunk).
        A class cut this way keeps only its first piece when its methods are chunked on their own;
        it counts as cut too: its text is not in one chunk.
        """
        counted = ast_files[self.file] if len(self.file) else np.zeros(0, dtype=bool)
        if not counted.any():
            return None
        cut = self.lines > settings.effective_size
        if settings.effective_max_characters is not None:
            cut |= (self.lines > 1) & (self.characters > settings.effective_max_characters)
        return float(cut[counted].mean())
