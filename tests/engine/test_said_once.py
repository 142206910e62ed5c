"""Input that gives nothing, or gives chunks of something that is not code, says why once (issue 28.3).

The reference reads a binary file with a source extension like any other (SPEC.md, "Reading files": decoded as
TextDecoder('utf-8') does, each bad sequence a U+FFFD), so such a file stays chunked, with one warning.
"""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import pytest

from clanka_nb import engine

ELF = b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 8 + b"\x03\x00>\x00" + b"\x00\x01 some words 1234\n" * 200
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10"


def said(call) -> tuple[object, list[warnings.WarningMessage]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [w for w in caught if issubclass(w.category, UserWarning)]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_binary_ts_file_is_chunked_as_the_reference_does_and_said_once(tmp_path: Path, workers: int) -> None:
    (tmp_path / "tool.ts").write_bytes(ELF)
    (tmp_path / "ok.ts").write_text("export const a = 1;\n")
    chunks, caught = said(lambda: list(engine.chunk_codebase(tmp_path, workers=workers)))
    assert {c.path for c in chunks} == {"ok.ts", "tool.ts"}  # chunked, as the reference does
    assert [w.category for w in caught] == [engine.BinaryFileWarning]
    assert "'tool.ts' looks binary" in str(caught[0].message) and "as the reference does" in str(caught[0].message)


def test_many_binary_files_are_one_warning_naming_a_few(tmp_path: Path) -> None:
    for i in range(8):
        (tmp_path / f"b{i}.ts").write_bytes(ELF)
    codebase, caught = said(lambda: engine.Codebase(tmp_path, workers=1))
    assert len(codebase.files) == 8 and len(caught) == 1
    assert "and 3 more" in str(caught[0].message)


@pytest.mark.parametrize("content", [PNG, None], ids=["png", "ls"])
def test_one_file_whose_name_is_never_indexed_says_so(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "logo.png"
    if content is None:
        ls = shutil.which("ls")
        if ls is None:
            pytest.skip("no ls program")
        path = tmp_path / "ls"
        shutil.copyfile(ls, path)
    else:
        path.write_bytes(content)
    chunks, caught = said(lambda: engine.chunk_file(path))
    assert chunks == []
    assert [w.category for w in caught] == [engine.NothingToChunkWarning]
    message = str(caught[0].message)
    assert f"{path.name!r}: the reference never indexes this file name" in message and "looks binary" in message


def test_an_empty_folder_says_it_holds_no_files(tmp_path: Path) -> None:
    chunks, caught = said(lambda: list(engine.chunk_codebase(tmp_path)))
    assert chunks == [] and [w.category for w in caught] == [engine.NothingToChunkWarning]
    assert "no files to chunk under" in str(caught[0].message)
    _, caught = said(lambda: engine.Codebase(tmp_path))
    assert [w.category for w in caught] == [engine.NothingToChunkWarning]


def test_source_code_says_nothing(tmp_path: Path) -> None:
    (tmp_path / "a.ts").write_text("export const a = 1;\n")
    assert said(lambda: list(engine.chunk_codebase(tmp_path)))[1] == []
    assert said(lambda: engine.chunk_file(tmp_path / "a.ts"))[1] == []
    # The listing alone never warns: churn and the Dask planner list many trees.
    empty = tmp_path / "empty"
    empty.mkdir()
    assert said(lambda: engine.list_files(empty))[1] == []
