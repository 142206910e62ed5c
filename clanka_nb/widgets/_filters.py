"""Vectorised chunk filters: precomputed codes so a filter change costs a few array operations."""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

import numpy as np
import pandas as pd

NO_TYPE = "(none)"  # the type filter's choice for chunks without a type (line windows, signatures)
TOP_LEVEL = "(top level)"  # the parent filter's choice for chunks without a parent
# A parent filter ending in this matches every parent containing the text before it ("Gson*": GsonBuilder's
# methods too); without it, a value that is one of the parents (picked from the suggestions) matches only that
# parent, and any other text matches as a substring.
SUBSTRING = "*"


class _Coded:
    """A text column as category codes plus lower-cased categories, for substring tests per category."""

    def __init__(self, column: pd.Series) -> None:
        categorical = pd.Categorical(column.array)
        self.codes = np.asarray(categorical.codes)
        self.categories = [str(c) for c in categorical.categories]
        self.lowered = [c.lower() for c in self.categories]

    def contains(self, needle: str) -> np.ndarray:
        """Rows whose value contains `needle`, ignoring case (missing values never match)."""
        hits = np.fromiter((needle in c for c in self.lowered), dtype=bool, count=len(self.lowered))
        return cast("np.ndarray", np.append(hits, False)[self.codes])  # code -1 (missing) reads the appended False

    def equals(self, values: Iterable[str | None]) -> np.ndarray:
        """Rows whose value is one of `values` (None selects missing values)."""
        index = {c: i for i, c in enumerate(self.categories)}
        wanted = [index[v] for v in values if v is not None and v in index]
        wanted += [-1] if None in values else []
        return np.isin(self.codes, wanted)


class ChunkFilter:
    """Masks over a chunk frame by type, parent, name, language and path."""

    def __init__(self, frame: pd.DataFrame) -> None:
        self.size = len(frame)
        self.type = _Coded(frame["type"])
        self.parent = _Coded(frame["parent"]) if "parent" in frame.columns else None
        self.name = _Coded(frame["name"]) if "name" in frame.columns else None
        self.language = _Coded(frame["language"]) if "language" in frame.columns else None
        self.path = _Coded(frame["path"])

    def mask(
        self,
        *,
        types: Iterable[str] = (),
        parent: str = "",
        name: str = "",
        language: str | None = None,
        path: str = "",
    ) -> np.ndarray:
        """Rows passing every given filter; an empty filter passes everything.

        `types`: any of these (NO_TYPE for untyped); `parent`: exactly that parent when it is one of them (as
        picked from the suggestions; `TOP_LEVEL` for chunks without a parent), else, or when it ends in `*`, a
        case-insensitive substring; `name`, `path`: case-insensitive substring; `language`: equal.
        """
        keep = np.ones(self.size, dtype=bool)
        types = tuple(types)
        if types:
            keep &= self.type.equals([None if t == NO_TYPE else t for t in types])
        if parent and self.parent is not None:
            keep &= self._parent(parent)
        if name and self.name is not None:
            keep &= self.name.contains(name.lower())
        if language and self.language is not None:
            keep &= self.language.equals([language])
        if path:
            keep &= self.path.contains(path.lower())
        return keep

    def _parent(self, parent: str) -> np.ndarray:
        coded = self.parent
        assert coded is not None
        if parent == TOP_LEVEL:
            return np.asarray(coded.codes == -1)
        if parent.endswith(SUBSTRING):
            return coded.contains(parent.removesuffix(SUBSTRING).strip().lower())
        if parent in coded.categories:  # one parent by its whole name: "class Gson" is not GsonBuilder's
            return coded.equals([parent])
        return coded.contains(parent.lower())
