"""An option given is an option applied: the size limit holds for one file named alone, and `-o` with an
extension no format has is an error, not a text table under a misleading name."""

from __future__ import annotations

from pathlib import Path

import pytest

import clanka_nb as cn
from clanka_nb import engine
from tests._shared import run_cli


def _big(folder: Path, size: int) -> Path:
    path = folder / "huge.ts"
    line = "export const a = 1;\n"
    path.write_text(line * (size // len(line) + 1), encoding="utf-8")
    return path


def test_max_file_size_applies_to_one_file_named_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _big(tmp_path, 300_000)
    code, out, err = run_cli(capsys, "chunk", str(path), "--max-file-size", "100K")
    assert code == 1 and out == ""
    assert "huge.ts is 300,0" in err and "over max_file_size (102,400 bytes, the limit given)" in err
    assert "--max-file-size 1M" in err  # the fix, named
    assert err.count("\n") == 1  # one line, no traceback
    code, out, _ = run_cli(capsys, "chunk", str(path), "--max-file-size", "1M")
    assert code == 0 and "huge.ts" in out


def test_the_library_refuses_one_large_file_as_the_listing_leaves_it_out(tmp_path: Path) -> None:
    path = _big(tmp_path, 2**20 + 10)
    assert engine.list_files(tmp_path) == []  # the listing's rule, at the default limit
    with pytest.raises(engine.FileTooLargeError, match=r"the default.*max_file_size='2M'"):
        cn.chunk_codebase(path)
    assert len(cn.chunk_codebase(path, max_file_size="2M")) > 0


@pytest.mark.parametrize("name", ["x.parquetx", "x.cvs", "x.parquet.bak"])
def test_an_unknown_output_extension_is_an_error_naming_the_known_ones(
    code: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    target = tmp_path / name
    status, out, err = run_cli(capsys, "chunk", str(code), "-o", str(target))
    assert status == 2 and not target.exists() and out == ""
    assert "not an extension of a known format" in err and ".parquet, .pq, .csv" in err and "--format" in err


def test_an_unknown_extension_is_fine_when_the_format_is_said(
    code: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "chunks.data"
    status, _, _ = run_cli(capsys, "chunk", str(code), "-o", str(target), "--format", "csv")
    assert status == 0 and target.read_text(encoding="utf-8").startswith("path,")
