"""sweep(): one row per setting, each equal to what separate chunk_codebase calls at that setting give."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb import engine, frames
from tests.frames.conftest import PY_FIVE_LINES, TS_EXAMPLE

SAMPLE = Path(engine.__file__).resolve().parents[1] / "sample"

SWEEP_DTYPES = {
    "chunk_size": "Int64", "chunk_overlap": "Int64", "chunk_max_characters": "Int64", "effective_size": "Int64",
    "effective_overlap": "Int64", "clamped": "boolean", "chunks": "Int64", "lines_mean": "Float64",
    "lines_median": "Float64", "lines_p95": "Float64", "characters_mean": "Float64",
    "characters_median": "Float64", "characters_p95": "Float64", "est_tokens_mean": "Float64",
    "est_tokens_p95": "Float64", "est_tokens_total": "Float64", "split_declarations": "Float64",
    "coverage": "Float64", "duplication": "Float64", "seconds": "Float64",
}


def expected_row(codebase: engine.Codebase, size: int, overlap: int, limit: int | None) -> dict[str, float]:
    """The sweep numbers recomputed from a separate chunk_codebase call and the coverage table."""
    chunks = frames.chunk_codebase(codebase, chunk_size=size, chunk_overlap=overlap, chunk_max_characters=limit)
    cover = frames.coverage(codebase, chunk_size=size, chunk_overlap=overlap, chunk_max_characters=limit)
    lines, characters = chunks["lines"].astype(float), chunks["characters"].astype(float)
    held = {(row.path, n) for row in chunks.itertuples() for n in range(row.start_line, row.end_line + 1)}
    return {
        "chunks": len(chunks),
        "lines_mean": lines.mean(), "lines_median": lines.median(), "lines_p95": lines.quantile(0.95),
        "characters_mean": characters.mean(), "characters_median": characters.median(),
        "characters_p95": characters.quantile(0.95),
        "est_tokens_mean": characters.mean() / 4, "est_tokens_p95": characters.quantile(0.95) / 4,
        "est_tokens_total": characters.sum() / 4,
        "coverage": cover["covered_lines"].sum() / cover["meaningful_lines"].sum(),
        "duplication": lines.sum() / len(held),
    }


def test_rows_equal_separate_chunk_codebase_calls() -> None:
    codebase = engine.Codebase(SAMPLE, workers=1)
    # 30 and 60 after 5: files whose declarations all stay whole are chunked once and reused.
    sizes, overlaps, limits = [5, 30, 60], [0, 2], [None, 400]
    frame = cn.sweep(codebase, chunk_size=sizes, chunk_overlap=overlaps, chunk_max_characters=limits)
    assert {name: str(dtype) for name, dtype in frame.dtypes.items()} == SWEEP_DTYPES
    assert len(frame) == 12
    for row, (size, overlap, limit) in zip(
        frame.to_dict("records"), [(s, o, m) for s in sizes for o in overlaps for m in limits], strict=True
    ):
        assert (row["chunk_size"], row["chunk_overlap"]) == (size, overlap)
        assert (limit is None and row["chunk_max_characters"] is pd.NA) or row["chunk_max_characters"] == limit
        expected = expected_row(codebase, size, overlap, limit)
        assert {key: row[key] for key in expected} == pytest.approx(expected)
        assert row["seconds"] >= 0


def test_split_declarations_hand_counted() -> None:
    long_body = "".join(f"  const v{i} = {i}\n" for i in range(8))
    text = (
        f"function long() {{\n{long_body}}}\n"  # lines 1-10
        "function short() {\n  return 2\n}\n"  # lines 11-13: 31 characters
        'const single = "' + "a" * 40 + '"\n'  # line 14: one line of 57 characters
    )
    codebase = engine.Codebase.from_texts({"d.ts": text})
    frame = cn.sweep(codebase, chunk_size=[5, 30], chunk_max_characters=[None, 20])
    keys = zip(frame["chunk_size"], frame["chunk_max_characters"].fillna(0), strict=True)
    split = dict(zip(keys, frame["split_declarations"], strict=True))
    assert split[(5, 0)] == pytest.approx(1 / 3)  # long (10 lines) only
    assert split[(30, 0)] == 0.0
    assert split[(30, 20)] == pytest.approx(2 / 3)  # long and short exceed 20 characters; one line is never cut
    # Cross-check with the chunks: a cut declaration's name is on more than one chunk.
    chunks = frames.chunk_codebase(codebase, chunk_size=30, chunk_max_characters=20)
    assert sorted(chunks["name"].value_counts().loc[lambda n: n > 1].index) == ["long", "short"]


def test_split_declarations_is_na_without_ast_files() -> None:
    frame = cn.sweep(engine.Codebase.from_texts({"a.py": PY_FIVE_LINES}), chunk_size=[2])
    assert frame["split_declarations"].isna().all()


def test_impossible_settings_are_clamped_and_marked_not_merged() -> None:
    codebase = engine.Codebase.from_texts({"a.py": PY_FIVE_LINES})
    with pytest.warns(engine.SettingClampedWarning, match="chunk_overlap"):
        frame = cn.sweep(codebase, chunk_size=[3], chunk_overlap=[0, 5, 7])
    assert frame["chunk_overlap"].tolist() == [0, 5, 7]
    assert frame["effective_overlap"].tolist() == [0, 2, 2]
    assert frame["clamped"].tolist() == [False, True, True]
    clamped = frames.chunk_text(PY_FIVE_LINES, "a.py", chunk_size=3, chunk_overlap=2)  # in range: no warning
    assert frame.loc[1, "chunks"] == frame.loc[2, "chunks"] == len(clamped)
    with pytest.warns(engine.SettingClampedWarning, match="chunk_size"):
        zero = cn.sweep(codebase, chunk_size=[0, -4])
    assert zero["effective_size"].tolist() == [1, 1]
    assert zero["clamped"].all()


def test_parses_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.ts").write_text(TS_EXAMPLE)
    parses = []
    original = engine.Codebase.__init__

    def counting(self: engine.Codebase, *args: object, **kwargs: object) -> None:
        parses.append(args)
        original(self, *args, **kwargs)

    monkeypatch.setattr(engine.Codebase, "__init__", counting)
    frame = cn.sweep(tmp_path, chunk_size=[5, 10, 20], chunk_overlap=[0, 1], workers=1, progress=False)
    assert len(frame) == 6
    assert len(parses) == 1
    assert frame.attrs["root"] == str(tmp_path.resolve())
    assert frame.attrs["parse_seconds"] >= 0


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.NothingToChunkWarning")  # a file or folder that gives no chunks
def test_empty_codebase_gives_one_row_per_setting_with_na_statistics(tmp_path: Path) -> None:
    frame = cn.sweep(tmp_path, chunk_size=[10, 20], workers=1, progress=False)
    assert {name: str(dtype) for name, dtype in frame.dtypes.items()} == SWEEP_DTYPES
    assert frame["chunks"].tolist() == [0, 0]
    assert frame[["lines_mean", "coverage", "duplication", "split_declarations"]].isna().all().all()
    assert frame["est_tokens_total"].tolist() == [0.0, 0.0]


@pytest.mark.parametrize(
    ("settings", "error", "words"),
    [
        ({"chunk_size": ["30"]}, TypeError, "chunk_size must be an int"),
        ({"chunk_overlap": [0, None]}, TypeError, "chunk_overlap must be an int"),
        ({"chunk_max_characters": [float("nan")]}, ValueError, "chunk_max_characters is NaN"),
        ({"chunk_size": []}, ValueError, "chunk_size is empty"),
    ],
)
def test_bad_settings_fail_before_parsing(tmp_path: Path, settings: dict, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        cn.sweep(tmp_path / "not there", **settings)


def test_single_values_are_one_setting() -> None:
    frame = cn.sweep(engine.Codebase.from_texts({"a.py": PY_FIVE_LINES}), chunk_size=2, chunk_overlap=1)
    assert frame[["chunk_size", "chunk_overlap"]].values.tolist() == [[2, 1]]
