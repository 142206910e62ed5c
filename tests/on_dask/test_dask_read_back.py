"""A chunk frame written to Parquet by Dask and read back with pandas stands for its whole root (issue 46).

Parquet keeps one part's attrs for a whole folder: when each part named its own batch of files in
`attrs["files"]`, a folder read back stood for its first batch alone, and `cn.files`, `cn.sweep` and
`cn.tune` of it saw a few files without a word. Here every part is one small batch, so the folder has
many parts, and what is read back must give what the root itself gives, or be refused in one line.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb import dask as cd

from .conftest import STDLIB

PER_PART = 2  # files per partition: the sample's 13 files make 7 parts


@pytest.fixture(scope="module")
def thread_client() -> Iterator:
    """A real LocalCluster with one in-process worker (threads: no process to start, the same Dask path)."""
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None)
    client = Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.fixture(scope="module")
def two_roots() -> list[str]:
    return [str(cn.sample_codebase()), str(STDLIB / "json")]


@pytest.fixture(scope="module")
def folder(thread_client, two_roots, tmp_path_factory) -> Path:
    """The chunks of both roots written by Dask to a Parquet folder of many parts."""
    out = tmp_path_factory.mktemp("parquet") / "chunks"
    with thread_client.as_current():
        cd.chunk_codebases(two_roots, client=thread_client, files_per_partition=PER_PART).to_parquet(out)
    return out


def _sample_parts(folder: Path, root: str) -> list[Path]:
    parts = sorted(folder.glob("*.parquet"))
    return [part for part in parts if set(pd.read_parquet(part, columns=["root"])["root"]) == {root}]


def _assert_stands_for_root(back: pd.DataFrame, root: str) -> None:
    """`cn.files`, `cn.sweep` and `cn.tune` of `back` give what they give of `root` itself."""
    whole = cn.files(root, progress=False)
    assert len(whole) > PER_PART * 3  # the sample is many batches, not one
    got = cn.files(back, progress=False)
    assert got["path"].tolist() == whole["path"].tolist()
    pd.testing.assert_frame_equal(got, whole, check_exact=True)
    swept = cn.sweep(back, chunk_size=[30], progress=False).drop(columns="seconds")
    expected = cn.sweep(root, chunk_size=[30], progress=False).drop(columns="seconds")
    pd.testing.assert_frame_equal(swept, expected, check_exact=True)
    assert int(swept["chunks"].iat[0]) == len(cn.chunk_codebase(root, progress=False))
    tuner = cn.tune(back)
    assert list(tuner.model.codebase.files) == whole["path"].tolist()
    assert tuner.model.frame["path"].nunique() == cn.chunk_codebase(root, progress=False)["path"].nunique()


def test_a_folder_of_many_parts_read_back_for_one_root_stands_for_the_whole_root(folder, two_roots) -> None:
    sample = two_roots[0]
    assert len(_sample_parts(folder, sample)) >= len(cn.list_files(sample)) // PER_PART  # many parts
    back = pd.read_parquet(folder, filters=[("root", "==", sample)])  # as docs/dask.md reads it back
    assert len(cn.files(back, progress=False)) == len(cn.files(sample, progress=False))
    _assert_stands_for_root(back, sample)
    assert "files" not in back.attrs and "root" not in back.attrs
    assert back.attrs["chunk_size"] == 30 and back.attrs["languages"] == "clanka"  # the settings stay


def test_one_part_file_read_back_stands_for_its_whole_root_too(folder, two_roots) -> None:
    sample = two_roots[0]
    part = _sample_parts(folder, sample)[1]
    back = pd.read_parquet(part)
    assert back["path"].nunique() <= PER_PART  # one batch's rows...
    _assert_stands_for_root(back, sample)  # ...standing for the root its batch was cut from


def test_the_computed_frame_keeps_the_settings_every_part_shares(thread_client, two_roots) -> None:
    # The parts' attrs were all different (each its own batch), so pandas' concat dropped them all.
    with thread_client.as_current():
        got = cd.chunk_codebases(two_roots[0], client=thread_client, files_per_partition=PER_PART).compute()
    assert got.attrs == {key: value for key, value in cn.chunk_codebase(two_roots[0]).attrs.items() if key != "root"}


def _old_folder(root: str, out: Path) -> Path:
    """A folder as Dask wrote it before issue 46: each part's attrs naming its own batch in `files`."""
    out.mkdir()
    listed = cn.list_files(root)
    for number, first in enumerate(range(0, len(listed), PER_PART)):
        part = cn.chunk_codebase(cn.Codebase(root, paths=listed[first : first + PER_PART]), progress=False)
        assert part.attrs["files"] == listed[first : first + PER_PART]
        part["root"] = pd.array([root] * len(part), dtype=pd.StringDtype())
        part.to_parquet(out / f"part.{number}.parquet", index=False)
    return out


def test_a_frame_whose_rows_its_attrs_files_do_not_name_is_refused_in_one_line(tmp_path, two_roots) -> None:
    sample = two_roots[0]
    back = pd.read_parquet(_old_folder(sample, tmp_path / "old"), filters=[("root", "==", sample)])
    assert len(back.attrs["files"]) == PER_PART and back["path"].nunique() > PER_PART  # the stale attrs
    for call in (
        lambda: cn.files(back, progress=False),
        lambda: cn.sweep(back, chunk_size=[30], progress=False),
        lambda: cn.tune(back),
    ):
        with pytest.raises(ValueError, match=r"attrs\['files'\] does not name") as caught:
            call()
        line = str(caught.value)
        assert "\n" not in line and "del frame.attrs['files']" in line
    # The fix the line names works: the frame then stands for every file its root lists.
    del back.attrs["files"]
    assert cn.files(back, progress=False)["path"].tolist() == cn.files(sample, progress=False)["path"].tolist()


def test_one_old_part_agrees_with_its_rows_and_stands_for_its_batch(tmp_path, two_roots) -> None:
    sample = two_roots[0]
    part = pd.read_parquet(_old_folder(sample, tmp_path / "old") / "part.1.parquet")
    # Its attrs name exactly its rows' files: nothing disagrees, so it stands for them as it says.
    assert set(part["path"]) <= set(part.attrs["files"])
    assert cn.files(part, progress=False)["path"].tolist() == part.attrs["files"]


def test_a_chosen_file_with_no_chunks_is_no_conflict(tmp_path) -> None:
    # A file with no chunks leaves no row: the files a frame names may be more than its rows', never fewer.
    (tmp_path / "a.ts").write_text("export function f(): number {\n  return 1;\n}\n")
    (tmp_path / "empty.ts").write_text("")
    (tmp_path / "other.ts").write_text("export const x = 2;\n")
    frame = cn.chunk_files(tmp_path, ["a.ts", "empty.ts"], progress=False)
    assert set(frame["path"]) == {"a.ts"} and frame.attrs["files"] == ["a.ts", "empty.ts"]
    assert cn.files(frame, progress=False)["path"].tolist() == ["a.ts", "empty.ts"]
    # Filtered to no rows at all, it still stands for its chosen files.
    assert cn.files(frame.iloc[:0], progress=False)["path"].tolist() == ["a.ts", "empty.ts"]


def test_the_files_table_read_back_stands_for_its_whole_root_too(thread_client, two_roots, tmp_path) -> None:
    sample = two_roots[0]
    with thread_client.as_current():
        cd.files(two_roots, client=thread_client, files_per_partition=PER_PART).to_parquet(tmp_path / "files")
    back = pd.read_parquet(tmp_path / "files", filters=[("root", "==", sample)])
    assert "files" not in back.attrs
    assert cn.files(back, progress=False)["path"].tolist() == cn.files(sample, progress=False)["path"].tolist()
