"""Frames round-trip through parquet (attrs included) and JSON with their values and dtypes."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb import engine, frames

from .conftest import PY_FIVE_LINES, TS_EXAMPLE

TEXTS = {"e.ts": TS_EXAMPLE, "a.py": PY_FIVE_LINES, "u.md": "# héllo 😀\n", "empty.ts": " \n"}


def all_frames() -> dict[str, pd.DataFrame]:
    codebase = engine.Codebase.from_texts(TEXTS)
    return {
        "chunks": frames.chunk_codebase(codebase, chunk_size=4, chunk_overlap=9, embedding=True),
        "files": frames.files(codebase),
        "coverage": frames.coverage(codebase),
        "line_coverage": frames.line_coverage(codebase),
        "sweep": cn.sweep(codebase, chunk_size=[2, 4], chunk_max_characters=[None, 30]),
    }


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.SettingClampedWarning")  # settings out of range, on purpose
@pytest.mark.parametrize("kind", ["chunks", "files", "coverage", "line_coverage", "sweep"])
def test_parquet_round_trip_keeps_values_dtypes_and_attrs(tmp_path: Path, kind: str) -> None:
    frame = all_frames()[kind]
    frame.to_parquet(tmp_path / "frame.parquet")
    back = pd.read_parquet(tmp_path / "frame.parquet")
    # Parquet keeps a categorical's values and order but not its categories' dtype: pandas reads them back
    # as its default text dtype. Same categories and codes, then the whole frame compared as is.
    categorical = [name for name in frame.columns if isinstance(frame[name].dtype, pd.CategoricalDtype)]
    for name in categorical:
        assert list(back[name].cat.categories) == list(frame[name].cat.categories)
        assert back[name].cat.codes.tolist() == frame[name].cat.codes.tolist()
    back = back.astype({name: frame[name].dtype for name in categorical})
    pd.testing.assert_frame_equal(back, frame)
    assert back.attrs == frame.attrs


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.SettingClampedWarning")  # settings out of range, on purpose
@pytest.mark.parametrize("kind", ["chunks", "files", "coverage", "line_coverage", "sweep"])
def test_json_table_round_trip_keeps_values(kind: str) -> None:
    frame = all_frames()[kind]
    back = pd.read_json(io.StringIO(frame.to_json(orient="table")), orient="table")
    pd.testing.assert_frame_equal(back, frame, check_dtype=False, check_categorical=False)


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.SettingClampedWarning")  # settings out of range, on purpose
def test_records_json_has_nulls_for_missing_values() -> None:
    records = pd.read_json(io.StringIO(all_frames()["chunks"].to_json(orient="records")), orient="records")
    assert records["name"].isna().any()
    assert set(records.columns) >= {"path", "start_line", "type", "chunker", "embedding_input"}
