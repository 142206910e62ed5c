"""The chunk frame's categorical columns are what its docstring says, and the fill it documents works."""

from __future__ import annotations

import pandas as pd
import pytest

import clanka_nb as cn


def test_type_and_chunker_are_categorical_and_the_documented_fill_works() -> None:
    chunks = cn.chunk_codebase(chunk_size=20, progress=False)
    categorical = [name for name in chunks.columns if isinstance(chunks[name].dtype, pd.CategoricalDtype)]
    assert categorical == ["type", "chunker"]
    assert "`type` and `chunker` are categoricals" in (cn.chunk_codebase.__doc__ or "")
    assert chunks["type"].isna().any()  # line windows have no type: the case a user fills
    with pytest.raises(TypeError, match="new category"):
        chunks["type"].fillna("(none)")
    for filled in (
        chunks["type"].cat.add_categories("(none)").fillna("(none)"),
        chunks["type"].astype("string").fillna("(none)"),
    ):
        assert not filled.isna().any() and (filled == "(none)").sum() == chunks["type"].isna().sum()
