"""`clanka-nb chunk | files | sweep | lab`: what each command prints or writes, run in-process."""

from __future__ import annotations

import io
import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from clanka_nb.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def table_rows(text: str) -> list[list[str]]:
    """Rows of the fixed-width table, cells split on runs of two or more spaces; the footer after a blank line
    (the columns left out to fit the width) is no row."""
    import re

    rows = text.split("\n\n", 1)[0]
    return [re.split(r"\s{2,}", line.strip()) for line in rows.splitlines()]


def test_chunk_table_shows_where_and_what_without_content(capsys, code: Path) -> None:
    status, out, err = run(capsys, "chunk", str(code))
    assert status == 0
    assert err == ""
    rows = table_rows(out)
    assert rows[0] == ["path", "line_range", "type", "name", "parent"]
    assert ["src/app.ts", "1-4", "function", "add"] in rows  # the leading comment belongs to the function
    assert ["src/app.ts", "6-10", "class", "Cart"] in rows
    assert ["src/app.ts", "7-9", "method", "total", "class Cart"] in rows
    assert ["docs/notes.md", "1-3"] in rows  # prose: one line window, no name or type
    assert "return a + b" not in out


def test_chunk_jsonl_has_one_record_per_chunk_with_content(capsys, code: Path) -> None:
    status, out, _ = run(capsys, "chunk", str(code), "--format", "jsonl")
    assert status == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert [(r["path"], r["start_line"], r["end_line"]) for r in records] == [
        ("docs/notes.md", 1, 3), ("src/app.ts", 1, 4), ("src/app.ts", 6, 10), ("src/app.ts", 7, 9),
    ]
    add = records[1]
    assert add["content"].splitlines()[0] == "// Adds two numbers."
    assert add["parent"] is None


def test_chunk_settings_change_the_cut(capsys, code: Path) -> None:
    status, out, _ = run(capsys, "chunk", str(code / "src"), "--chunk-size", "2", "--chunk-overlap", "1",
                         "--format", "jsonl")
    assert status == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert all(r["end_line"] - r["start_line"] < 2 for r in records)
    add = [(r["start_line"], r["end_line"]) for r in records if r["name"] == "add"]
    assert add == [(1, 2), (2, 3), (3, 4)]  # windows of 2 lines that share 1


def test_chunk_max_chars_limits_every_multi_line_chunk(capsys, code: Path) -> None:
    status, out, _ = run(capsys, "chunk", str(code), "--max-chars", "40", "--format", "jsonl")
    assert status == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert records
    assert all(len(r["content"]) <= 40 or r["start_line"] == r["end_line"] for r in records)


def test_chunk_one_file(capsys, code: Path) -> None:
    status, out, _ = run(capsys, "chunk", str(code / "src" / "app.ts"), "--format", "csv")
    assert status == 0
    frame = pd.read_csv(io.StringIO(out))
    assert set(frame["path"]) == {"app.ts"}
    assert list(frame["name"]) == ["add", "Cart", "total"]


def test_chunk_a_file_clanka_never_indexes_says_so(capsys, tmp_path: Path) -> None:
    data = tmp_path / "data.json"
    data.write_text('{"a": 1}\n', encoding="utf-8")
    status, out, err = run(capsys, "chunk", str(data))
    assert status == 0
    assert out == "(no rows)\n"
    assert "never indexes" in err


def test_chunk_writes_parquet_and_csv_files(capsys, code: Path, tmp_path: Path) -> None:
    parquet, csv = tmp_path / "chunks.parquet", tmp_path / "chunks.csv"
    assert run(capsys, "chunk", str(code), "--format", "parquet", "-o", str(parquet))[:2] == (0, "")
    assert run(capsys, "chunk", str(code), "--format", "csv", "-o", str(csv))[:2] == (0, "")
    from_parquet, from_csv = pd.read_parquet(parquet), pd.read_csv(csv)
    assert len(from_parquet) == len(from_csv) == 4
    assert list(from_parquet["content"]) == list(from_csv["content"])


def test_clamped_settings_are_noted_on_stderr(capsys, code: Path) -> None:
    status, _, err = run(capsys, "chunk", str(code), "--chunk-size", "5", "--chunk-overlap", "9")
    assert status == 0
    assert "chunk_size=5 chunk_overlap=9 is used as chunk_size=5 chunk_overlap=4" in err
    assert run(capsys, "chunk", str(code), "--chunk-size", "5", "--chunk-overlap", "9", "-q")[2] == ""


def test_files_lists_every_file_with_its_status(capsys, code: Path) -> None:
    status, out, _ = run(capsys, "files", str(code), "--format", "jsonl")
    assert status == 0
    records = {r["path"]: r for r in map(json.loads, out.splitlines())}
    assert set(records) == {"docs/notes.md", "src/app.ts", "src/empty.ts"}
    assert records["src/app.ts"]["status"] == "chunked"
    assert records["src/app.ts"]["chunks"] == 3
    assert records["src/empty.ts"]["status"] == "empty"
    assert records["src/empty.ts"]["reason"]


def test_files_table_is_readable(capsys, code: Path) -> None:
    status, out, _ = run(capsys, "files", str(code))
    assert status == 0
    header = table_rows(out)[0]
    assert header[:2] == ["path", "language"]
    assert "status" in header
    assert any(row[0] == "src/empty.ts" and "empty" in row for row in table_rows(out))


def test_sweep_has_one_row_per_combination(capsys, code: Path) -> None:
    status, out, _ = run(capsys, "sweep", str(code), "--chunk-size", "2,4,30", "--chunk-overlap", "0,1",
                         "--max-chars", "none,50", "--format", "jsonl")
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    combos = {(r["chunk_size"], r["chunk_overlap"], r["chunk_max_characters"]) for r in rows}
    assert combos == {(s, o, m) for s in (2, 4, 30) for o in (0, 1) for m in (None, 50)}
    by = {(r["chunk_size"], r["chunk_overlap"], r["chunk_max_characters"]): r for r in rows}
    assert by[(2, 0, None)]["chunks"] > by[(30, 0, None)]["chunks"]  # smaller chunks, more of them


def test_sweep_table_prints_the_settings_columns(capsys, code: Path) -> None:
    status, out, _ = run(capsys, "sweep", str(code), "--chunk-size", "10,20")
    assert status == 0
    rows = table_rows(out)
    assert rows[0][:3] == ["chunk_size", "chunk_overlap", "chunk_max_characters"]
    assert [row[0] for row in rows[1:]] == ["10", "20"]


def test_lab_dry_run_opens_the_given_folder(capsys, tmp_path: Path) -> None:
    for name in ("b.ipynb", "a.ipynb"):
        (tmp_path / name).write_text("{}", encoding="utf-8")
    status, out, _ = run(capsys, "lab", "--notebooks", str(tmp_path), "--dry-run", "--", "--no-browser")
    assert status == 0
    command = shlex.split(out)
    assert command[:3] == [sys.executable, "-m", "jupyterlab"]
    assert f"--ServerApp.root_dir={tmp_path.resolve()}" in command
    assert str(tmp_path.resolve() / "a.ipynb") in command  # the first notebook opens
    assert str(tmp_path.resolve() / "b.ipynb") not in command
    assert command[-1] == "--no-browser"


def test_lab_dry_run_finds_the_repository_notebooks(capsys) -> None:
    status, out, _ = run(capsys, "lab", "--dry-run")
    assert status == 0
    notebooks = Path(__file__).resolve().parents[2] / "notebooks"
    command = shlex.split(out)
    assert f"--ServerApp.root_dir={notebooks}" in command
    assert str(notebooks / "01-quickstart.ipynb") in command  # the quickstart opens first


def test_installed_entry_point_prints_help() -> None:
    script = shutil.which("clanka-nb")
    if script is None:
        pytest.skip("clanka-nb is not on PATH: install the package (pip install -e .)")
    result = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0
    for command in ("chunk", "files", "sweep", "lab"):
        assert command in result.stdout
    assert "exit codes" in result.stdout


def test_sweep_defaults_try_five_sizes(capsys, code: Path) -> None:
    status, out, _ = run(capsys, "sweep", str(code), "--format", "jsonl")
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["chunk_size"] for r in rows] == [10, 20, 30, 40, 60]
    assert {r["chunk_overlap"] for r in rows} == {0}


def test_version(capsys) -> None:
    from importlib.metadata import version

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"clanka-nb {version('clanka-nb')}"


def test_help_loads_no_heavy_module() -> None:
    probe = (
        "import sys, contextlib, io\n"
        "from clanka_nb.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['chunk', '--help'])\n"
        "print(sorted(m for m in ('pandas', 'tree_sitter', 'ipywidgets', 'clanka_nb.engine') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout.strip() == "[]"


def test_flat_recall_note_speaks_of_the_verdict_not_of_attrs(capsys, tmp_path: Path) -> None:
    # A terminal has no DataFrame: the note points at the verdict line printed after it.
    for number in range(6):
        (tmp_path / f"m{number}.ts").write_text(
            f"/** Parse the {number} header fields of a request. */\nexport function parse{number}(x: string) {{\n"
            f"  return x.split(':')[{number}];\n}}\n"
        )
    status, _, err = run(capsys, "sweep", str(tmp_path), "--chunk-size", "10,30", "--probe")
    assert status == 0
    flat = next(line for line in err.splitlines() if "recall is the same" in line)
    assert "attrs" not in flat and "the verdict" in flat
    assert err.splitlines()[-1].startswith("clanka-nb: note: verdict: ")


def test_one_file_is_listed_and_swept_alone_by_the_cli_and_the_library(capsys):
    # Issue 46 item 6: `files FILE` and `sweep FILE` refused; `cn.files(FILE, include_skipped=True)` listed the folder.
    import clanka_nb as cn

    one = str(cn.sample_codebase() / "src" / "pricing.ts")
    assert main(["files", one, "--include-skipped", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["path"] for row in rows] == ["pricing.ts"]
    assert cn.files(one, include_skipped=True)["path"].tolist() == ["pricing.ts"]
    assert main(["sweep", one, "--chunk-size", "10,20", "--format", "json"]) == 0
    swept = json.loads(capsys.readouterr().out)
    assert [row["chunks"] for row in swept] == cn.sweep(one, chunk_size=[10, 20], progress=False)["chunks"].tolist()
