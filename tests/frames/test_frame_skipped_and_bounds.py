"""The files table with skipped files and binary flags; bounded and checked sweep arguments; one-file calls."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb import engine
from clanka_nb.retrieval.scoring._options import MAX_CUTOFFS

TS = "/** Adds two numbers. */\nexport function add(a: number, b: number) {\n  return a + b;\n}\n"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "add.ts").write_text(TS, encoding="utf-8")
    (tmp_path / "src" / "blob.py").write_bytes(b"x = 1\x00\x00\n")
    (tmp_path / "dist").mkdir()
    (tmp_path / "dist" / "add.js").write_text("module.exports = 1\n", encoding="utf-8")
    (tmp_path / "package.json").write_text("{}\n", encoding="utf-8")
    (tmp_path / ".ignore").write_text("*.gen.ts\n", encoding="utf-8")
    (tmp_path / "src" / "api.gen.ts").write_text("export const a = 1\n", encoding="utf-8")
    return tmp_path


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.BinaryFileWarning")  # binary-looking content, on purpose
def test_the_default_table_is_exactly_what_the_reference_lists(tree: Path) -> None:
    frame = cn.files(tree, workers=1)
    assert frame["path"].tolist() == engine.list_files(tree)
    assert "skipped" not in set(frame["status"].astype(str))


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.BinaryFileWarning")  # binary-looking content, on purpose
def test_include_skipped_adds_a_row_with_the_reason_for_every_other_file(tree: Path) -> None:
    frame = cn.files(tree, workers=1, include_skipped=True)
    listed = cn.files(tree, workers=1)
    assert len(frame) == len(listed) + len(engine.skipped_files(tree))
    rows = frame.set_index("path")
    assert rows.loc["dist/add.js", "status"] == "skipped"
    assert rows.loc["dist/add.js", "reason"] == "inside dist/, a folder the reference never indexes (dist)"
    assert rows.loc["src/api.gen.ts", "reason"] == "ignored by .ignore (pattern '*.gen.ts')"
    assert rows.loc["package.json", "reason"] == "extension .json is not one the reference indexes"
    assert rows.loc["package.json", "bytes"] == 3
    assert rows.loc["package.json", "chunks"] == 0
    assert pd.isna(rows.loc["package.json", "lines"]) and pd.isna(rows.loc["package.json", "binary"])
    # the listed rows are unchanged, in listing order among the others
    pd.testing.assert_frame_equal(
        frame[frame["status"] != "skipped"].reset_index(drop=True), listed, check_categorical=False
    )
    assert frame["path"].tolist() == engine._collation.sorted_like_js(frame["path"].tolist())


def test_include_skipped_on_a_codebase_of_chosen_paths(tree: Path) -> None:
    codebase = cn.Codebase(tree, paths=["src/add.ts"])
    frame = cn.files(codebase, include_skipped=True).set_index("path")
    assert frame.loc["src/add.ts", "status"] == "chunked"
    assert frame.loc["src/blob.py", "reason"] == "not among the paths this Codebase was built from"
    assert frame.loc["dist/add.js", "status"] == "skipped"


def test_include_skipped_must_be_a_bool(tree: Path) -> None:
    with pytest.raises(TypeError, match="include_skipped must be True or False"):
        cn.files(tree, include_skipped="yes")


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.BinaryFileWarning")  # binary-looking content, on purpose
def test_binary_content_is_flagged_and_still_chunked(tree: Path) -> None:
    rows = cn.files(tree, workers=1).set_index("path")
    assert rows.loc["src/blob.py", "binary"]
    assert not rows.loc["src/add.ts", "binary"]
    assert rows.loc["src/blob.py", "status"] == "chunked" and rows.loc["src/blob.py", "chunks"] == 1


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.BinaryFileWarning")  # binary-looking content, on purpose
def test_a_token_counter_that_returns_no_count_is_a_clear_error(tree: Path) -> None:
    bads = (lambda s: None, lambda s: "3", lambda s: -1, lambda s: float("nan"))
    for bad in bads:
        with pytest.raises(ValueError, match=r"token_counter returned .* must return a non-negative int"):
            cn.sweep(tree, chunk_size=[30], token_counter=bad, workers=1)
    good = cn.sweep(tree, chunk_size=[30], token_counter=len, workers=1)
    assert good["tokens_total"].notna().all()


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.BinaryFileWarning")  # binary-looking content, on purpose
@pytest.mark.filterwarnings("ignore::clanka_nb.retrieval.FlatRecallWarning")  # few queries, each found at every setting
def test_a_huge_k_asks_for_no_more_than_every_chunk(tree: Path) -> None:
    """k=10**9 once asked for 663 GiB: the search depth is now the number of chunks."""
    chunks = len(cn.chunk_codebase(tree, workers=1))
    huge = cn.sweep(tree, chunk_size=[30], probe=cn.Probe(k=[1, 10**9]), workers=1)
    deep = cn.sweep(tree, chunk_size=[30], probe=cn.Probe(k=[1, chunks]), workers=1)
    assert huge["queries"].iloc[0] > 0
    assert huge[f"recall@{10**9}"].tolist() == deep[f"recall@{chunks}"].tolist()
    assert huge["mrr"].tolist() == deep["mrr"].tolist()


def test_too_many_cut_offs_is_an_error_naming_the_limit(tree: Path) -> None:
    with pytest.raises(ValueError, match=f"at most {MAX_CUTOFFS}"):
        cn.sweep(tree, chunk_size=[30], probe=cn.Probe(k=range(1, MAX_CUTOFFS + 2)), workers=1)


def test_workers_bound_in_frames(tree: Path) -> None:
    with pytest.raises(ValueError, match="per core"):
        cn.chunk_codebase(tree, workers=10_000)


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.BinaryFileWarning")  # binary-looking content, on purpose
def test_one_file_and_absolute_paths_in_frames(tree: Path) -> None:
    by_root = cn.chunk_file(tree, "src/add.ts")
    alone = cn.chunk_file(tree / "src" / "add.ts")
    assert alone["start_line"].tolist() == by_root["start_line"].tolist()
    assert alone["path"].tolist() == ["add.ts"] * len(alone)
    absolute = cn.chunk_files(tree, [str(tree / "src" / "add.ts")])
    pd.testing.assert_frame_equal(absolute, cn.chunk_files(tree, "src/add.ts"))
    with pytest.raises(TypeError, match="needs the path of one of its files"):
        cn.chunk_file(cn.Codebase(tree))
