"""Hostile trees through the frames: names that are not UTF-8, lone surrogates, links out of the root,
two files with one reported path."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb import engine
from clanka_nb.frames.columns import readable

BAD_NAME = b"bad\xff\xfename.ts"
SHOWN = "bad\\xff\\xfename.ts"


@pytest.fixture
def bad_names(tmp_path: Path) -> Path:
    """good.ts, and a file and a folder whose names are not UTF-8."""
    root = tmp_path / "tree"
    root.mkdir()
    base = os.fsencode(root)
    with open(os.path.join(base, BAD_NAME), "w", encoding="utf-8") as handle:
        handle.write("export const x = 1\n")
    os.mkdir(os.path.join(base, b"dir\xe9"))
    with open(os.path.join(base, b"dir\xe9", b"inner.ts"), "w", encoding="utf-8") as handle:
        handle.write("export function inner() {}\n")
    (root / "good.ts").write_text("export function g() {}\n", encoding="utf-8")
    return root


def test_readable_escapes_only_what_utf8_cannot_hold():
    assert readable("plain é ✓") == "plain é ✓"
    assert readable(os.fsdecode(BAD_NAME)) == SHOWN
    assert readable("const f\ud800 = 1") == "const f\\ud800 = 1"


def test_files_chunks_and_coverage_show_a_name_that_is_not_utf8(bad_names):
    files = cn.files(bad_names)
    assert sorted(files["path"]) == sorted([SHOWN, "dir\\xe9/inner.ts", "good.ts"])
    assert set(files["status"]) == {"chunked"}
    chunks = cn.chunk_codebase(bad_names, workers=1)
    assert sorted(zip(chunks["path"], chunks["name"], strict=True)) == [
        (SHOWN, "x"), ("dir\\xe9/inner.ts", "inner"), ("good.ts", "g")
    ]
    coverage = cn.coverage(bad_names)
    assert set(coverage["path"]) == set(files["path"])
    # The engine still has the exact names: the reference's chunks are unchanged.
    assert sorted(c.path for c in engine.chunk_codebase(bad_names)) == sorted(
        [os.fsdecode(BAD_NAME), os.fsdecode(b"dir\xe9/inner.ts"), "good.ts"]
    )


def test_text_with_a_lone_surrogate_is_shown_escaped(tmp_path):
    frame = cn.chunk_text("const f\ud800 = 1")
    assert frame["content"].tolist() == ["const f\\ud800 = 1"]
    # The name is whatever the parser reads (parsing UTF-16 as the reference does, the surrogate is in
    # the identifier), shown escaped like the content.
    (chunk,) = engine.chunk_file_content("snippet.ts", "const f\ud800 = 1")
    assert frame["name"].tolist() == [chunk.name.encode("utf-8", "backslashreplace").decode("ascii")]
    assert frame["characters"].tolist() == [len("const f\ud800 = 1")]  # measured on the real text
    cn.preview_text("const f\ud800 = 1")  # renders without raising
    frame.to_parquet(tmp_path / "c.parquet")


def test_a_non_utf8_root_survives_parquet(tmp_path):
    root = os.path.join(os.fsencode(tmp_path), b"r\xff")
    os.mkdir(root)
    with open(os.path.join(root, b"a.ts"), "w", encoding="utf-8") as handle:
        handle.write("export const a = 1\n")
    frame = cn.chunk_codebase(os.fsdecode(root))
    frame.to_parquet(tmp_path / "c.parquet")
    assert frame.attrs["root"].endswith("r\\xff")


@pytest.fixture
def linked(tmp_path: Path) -> Path:
    (tmp_path / "secret.ts").write_text("export const secret = 1\n", encoding="utf-8")
    root = tmp_path / "root"
    root.mkdir()
    (root / "own.ts").write_text("export const own = 1\n", encoding="utf-8")
    (root / "outside.ts").symlink_to(tmp_path / "secret.ts")
    return root


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.UnreadableFileWarning")  # a file that cannot be read, on purpose
def test_frames_refuse_a_link_out_of_the_root(linked):
    assert cn.chunk_file(linked, "outside.ts").empty
    assert cn.chunk_files(linked, ["outside.ts", "own.ts"])["path"].tolist() == ["own.ts"]
    files = cn.files(engine.Codebase(linked, paths=["outside.ts", "own.ts"]))
    refused = files.set_index("path").loc["outside.ts"]
    assert refused["status"] == "not indexed"
    assert "resolves outside the root folder" in refused["reason"]
    assert "secret" not in "".join(cn.chunk_codebase(linked)["content"])


def test_the_files_table_flags_two_files_with_one_reported_path(tmp_path):
    (tmp_path / "back").mkdir()
    (tmp_path / "back" / "slash.ts").write_text("export const real = 1\n", encoding="utf-8")
    (tmp_path / "back\\slash.ts").write_text("export const backslash = 2\n", encoding="utf-8")
    files = cn.files(tmp_path)
    assert files["path"].tolist() == ["back/slash.ts", "back\\slash.ts"]
    assert files["chunks"].tolist() == [1, 1]
    assert all("are all reported as 'back/slash.ts'" in reason for reason in files["reason"])
    chunks = cn.chunk_codebase(tmp_path)
    assert chunks["name"].tolist() == ["real", "backslash"]
    assert chunks["path"].tolist() == ["back/slash.ts", "back/slash.ts"]


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("embedding", [False, True])
def test_a_folder_streamed_file_by_file_gives_the_frame_of_its_codebase(workers, embedding):
    root = cn.sample_codebase()
    streamed = cn.chunk_codebase(root, workers=workers, embedding=embedding, progress=False)
    parsed = cn.chunk_codebase(engine.Codebase(root), embedding=embedding)
    pd.testing.assert_frame_equal(streamed, parsed)
    assert streamed.attrs == parsed.attrs
