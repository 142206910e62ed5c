"""The output format follows -o, JSON is readable, `line_range` is a range, sweep --probe, files --include-skipped,
settings accepted and noted exactly as the library accepts and warns, and bad outputs fail before any work."""

from __future__ import annotations

import json
import os
import re
import warnings
from pathlib import Path

import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb import engine, frames, sweeps
from tests._shared import run_cli as run


def one_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("clanka-nb: error: ") and "Traceback" not in err
    return lines[0]


# --- 11.4: the format from -o ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "read"),
    [
        ("out.parquet", pd.read_parquet),
        ("out.csv", pd.read_csv),
        ("out.jsonl", lambda p: pd.read_json(p, lines=True)),
        ("OUT.JSON", lambda p: pd.DataFrame(json.loads(Path(p).read_text(encoding="utf-8")))),
    ],
)
def test_the_extension_of_o_picks_the_format(capsys, code: Path, tmp_path: Path, name: str, read) -> None:
    target = tmp_path / name
    assert run(capsys, "chunk", str(code), "-o", str(target))[:2] == (0, "")
    written = read(str(target))
    expected = frames.chunk_codebase(code, workers=1)
    assert written["path"].tolist() == expected["path"].tolist()
    assert written["start_line"].tolist() == expected["start_line"].tolist()
    assert written["content"].tolist() == expected["content"].tolist()


def test_an_unknown_extension_gets_the_table(capsys, code: Path, tmp_path: Path) -> None:
    target = tmp_path / "chunks.txt"
    assert run(capsys, "chunk", str(code), "-o", str(target))[0] == 0
    assert target.read_text(encoding="utf-8").split()[:2] == ["path", "line_range"]


@pytest.mark.parametrize(
    ("fmt", "name"), [("csv", "out.parquet"), ("jsonl", "out.csv"), ("table", "out.json"), ("csv", "o.jsonl")]
)
def test_a_format_that_contradicts_the_extension_is_an_error(capsys, code: Path, tmp_path: Path, fmt, name) -> None:
    status, out, err = run(capsys, "chunk", str(code), "--format", fmt, "-o", str(tmp_path / name))
    assert status == 2 and out == ""
    assert f"--format {fmt} contradicts" in one_error(err)
    assert not (tmp_path / name).exists()


def test_a_format_that_agrees_with_the_extension_is_fine(capsys, code: Path, tmp_path: Path) -> None:
    assert run(capsys, "chunk", str(code), "--format", "csv", "-o", str(tmp_path / "a.csv"))[0] == 0
    assert run(capsys, "chunk", str(code), "--format", "csv", "-o", str(tmp_path / "a.data"))[0] == 0
    assert (tmp_path / "a.data").read_text(encoding="utf-8").startswith("path,start_line,")
    assert run(capsys, "chunk", str(code), "--format", "csv", "-o", str(tmp_path / "a.txt"))[0] == 0
    assert (tmp_path / "a.txt").read_text(encoding="utf-8").startswith("path,start_line,")


# --- every command that writes a table: one rule for -o and --format ----------------------------------


def _git_repo(root: Path) -> Path:
    import shutil
    import subprocess

    if shutil.which("git") is None:
        pytest.skip("needs the git command")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@x"}  # fmt: skip
    subprocess.run(["git", "-C", str(root), "init", "-q", "-b", "main"], check=True, capture_output=True, env=env)
    for i in range(2):
        (root / "src" / "app.ts").write_text(f"export const a = {i};\n", encoding="utf-8")
        for step in (["add", "-A"], ["commit", "-q", "-m", f"c{i}"]):
            subprocess.run(["git", "-C", str(root), *step], check=True, capture_output=True, env=env)
    return root


def _command(name: str, code: Path) -> list[str]:
    return {
        "chunk": ["chunk", str(code)],
        "files": ["files", str(code)],
        "sweep": ["sweep", str(code), "--chunk-size", "10,20"],
        "explain": ["explain", str(code), "src/app.ts"],
        "churn": ["churn", str(code), "--revs", "HEAD~1..HEAD"],
    }[name]


COMMANDS = ["chunk", "files", "sweep", "explain", "churn"]
READERS = {
    "parquet": pd.read_parquet,
    "csv": pd.read_csv,
    "jsonl": lambda p: pd.read_json(p, lines=True),
    "json": lambda p: pd.DataFrame(json.loads(Path(p).read_text(encoding="utf-8"))),
}


@pytest.mark.parametrize("fmt", sorted(READERS))
@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_takes_its_format_from_the_extension(capsys, code: Path, tmp_path: Path, command, fmt) -> None:
    if command == "churn":
        _git_repo(code)
    target = tmp_path / f"out.{fmt}"
    status, out, err = run(capsys, *_command(command, code), "-q", "-o", str(target))
    assert (status, out) == (0, ""), err
    written = READERS[fmt](str(target))
    # The same rows as the command's jsonl on stdout: the file holds the frame, not the text table.
    status, out, _ = run(capsys, *_command(command, code), "-q", "--format", "jsonl")
    expected = [json.loads(line) for line in out.splitlines()]
    assert len(written) == len(expected) > 0 and list(written.columns) == list(expected[0])


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_refuses_a_format_that_contradicts_the_extension(capsys, code: Path, tmp_path: Path, command):
    if command == "churn":
        _git_repo(code)
    target = tmp_path / "out.parquet"
    status, out, err = run(capsys, *_command(command, code), "--format", "csv", "-o", str(target))
    assert status == 2 and out == ""
    assert "--format csv contradicts -o" in one_error(err)
    assert not target.exists()


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_writes_the_table_to_a_txt_file(capsys, code: Path, tmp_path: Path, command) -> None:
    if command == "churn":
        _git_repo(code)
    target = tmp_path / "out.txt"
    assert run(capsys, *_command(command, code), "-q", "-o", str(target))[:2] == (0, "")
    status, out, _ = run(capsys, *_command(command, code), "-q")
    assert status == 0 and target.read_text(encoding="utf-8") == out


# --- 11.4: readable JSON and one meaning of lines ---------------------------------------------------


def test_jsonl_keeps_slashes_and_non_ascii_text_readable(capsys, tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "café.ts").write_text("// naïve → 漢字\nexport const x = 1;\n", encoding="utf-8")
    status, out, _ = run(capsys, "chunk", str(tmp_path), "--format", "jsonl")
    assert status == 0
    assert "\\/" not in out and "\\u" not in out
    assert '"path": "src/café.ts"' in out and "naïve → 漢字" in out
    records = [json.loads(line) for line in out.splitlines()]
    assert records[0]["path"] == "src/café.ts" and records[0]["parent"] is None


def test_the_table_calls_a_range_a_range_and_lines_is_a_count_everywhere(capsys, code: Path) -> None:
    _, table, _ = run(capsys, "chunk", str(code))
    header = table.splitlines()[0].split()
    assert "line_range" in header and "lines" not in header
    _, jsonl, _ = run(capsys, "chunk", str(code), "--format", "jsonl")
    records = [json.loads(line) for line in jsonl.splitlines()]
    ranges = [line.split()[1] for line in table.splitlines()[1:]]
    assert ranges == [f"{r['start_line']}-{r['end_line']}" for r in records]
    assert all(r["lines"] == r["end_line"] - r["start_line"] + 1 for r in records)


# --- 11.4 / 11.6: sweep --probe and files --include-skipped -----------------------------------------


def left_out(table: str) -> list[str]:
    """The columns the footer of a terminal table names as left out (none without a footer)."""
    footer = " ".join(table.split("\n\n", 1)[1].split()) if "\n\n" in table else ""
    match = re.search(r"left out to fit \d+ columns: (.*?); -o FILE", footer)
    return match.group(1).split(", ") if match else []


@pytest.mark.filterwarnings("ignore::clanka_nb.retrieval.FlatRecallWarning")  # few queries, each found at every setting
def test_sweep_probe_adds_the_search_measures(capsys, code: Path) -> None:
    status, out, _ = run(capsys, "sweep", str(code), "--chunk-size", "2,30", "--probe", "--k", "1,3",
                         "--format", "jsonl")
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    expected = cn.sweep(code, chunk_size=[2, 30], probe=cn.Probe(k=[1, 3]), workers=1)
    assert [r["recall@3"] for r in rows] == expected["recall@3"].tolist()
    assert [r["queries"] for r in rows] == expected["queries"].tolist() and rows[0]["queries"] > 0
    _, table, _ = run(capsys, "sweep", str(code), "--chunk-size", "30", "--probe")
    # Each measure is a column of the table, or named in its footer as left out to fit 100 columns.
    shown = set(table.splitlines()[0].split())
    assert {"queries", "recall@1", "recall@5", "recall@10", "mrr"} <= shown | set(left_out(table))
    assert "mrr" in shown  # the measure without a budget always fits beside the settings


def test_files_include_skipped(capsys, code: Path) -> None:
    (code / "package.json").write_text("{}\n", encoding="utf-8")
    (code / "node_modules" / "x").mkdir(parents=True)
    (code / "node_modules" / "x" / "i.js").write_text("x\n", encoding="utf-8")
    _, plain, _ = run(capsys, "files", str(code), "--format", "jsonl")
    status, out, _ = run(capsys, "files", str(code), "--include-skipped", "--format", "jsonl")
    assert status == 0
    rows = {r["path"]: r for r in map(json.loads, out.splitlines())}
    assert len(rows) == len(plain.splitlines()) + 2
    assert rows["package.json"]["status"] == "skipped"
    assert rows["node_modules/x/i.js"]["reason"].startswith("inside node_modules/")


# --- 11.5: the same values as the library, noted in the library's words --------------------------


@pytest.mark.parametrize(
    ("flags", "kwargs"),
    [
        (["--chunk-size", "0"], {"chunk_size": 0}),
        (["--chunk-size", "-3", "--chunk-overlap", "7"], {"chunk_size": -3, "chunk_overlap": 7}),
        (["--chunk-size", "4", "--chunk-overlap", "4"], {"chunk_size": 4, "chunk_overlap": 4}),
        (["--max-chars", "-1"], {"chunk_max_characters": -1}),
        (["--max-chars", "0"], {"chunk_max_characters": 0}),
    ],
)
def test_clamped_values_are_accepted_and_noted_as_the_library_warns(capsys, code: Path, flags, kwargs) -> None:
    status, out, err = run(capsys, "chunk", str(code), "--format", "jsonl", *flags)
    assert status == 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        expected = frames.chunk_codebase(code, workers=1, **kwargs)
    words = [str(w.message) for w in caught if w.category is engine.SettingClampedWarning]
    assert len(words) == 1
    assert err == f"clanka-nb: note: {words[0]}\n"
    assert [json.loads(line)["content"] for line in out.splitlines()] == expected["content"].tolist()


@pytest.mark.parametrize("value", ["1e400", "inf", "none"])
def test_an_endless_character_limit_is_no_limit(capsys, code: Path, value: str) -> None:
    status, out, _ = run(capsys, "chunk", str(code), "--max-chars", value, "--format", "jsonl")
    assert status == 0
    assert len(out.splitlines()) == len(frames.chunk_codebase(code, workers=1))


# --- 13.10: one-line errors for bad values and outputs, checked before any work ------------------


@pytest.mark.parametrize(
    ("flags", "fragment"),
    [
        (["--max-file-size", "²"], "'²' is not a size"),
        (["--max-file-size", "١٢"], "'١٢' is not a size"),
        (["--max-file-size", "-1"], "'-1' is not a size"),
        (["--chunk-size", "١٢"], "'١٢' is not a whole number of lines"),
        (["--max-chars", "١٢"], "'١٢' is not a number of characters"),
        (["--workers", "100000"], "pass "),
        (["--workers", "٢"], "'٢' is not a number of processes"),
    ],
)
def test_bad_values_are_one_line(capsys, code: Path, flags, fragment) -> None:
    status, out, err = run(capsys, "chunk", str(code), *flags)
    assert status == 2 and out == ""
    assert fragment in one_error(err)


def test_sweep_k_must_be_cut_offs_for_a_probe(capsys, code: Path) -> None:
    status, _, err = run(capsys, "sweep", str(code), "--probe", "--k", "0,5")
    assert status == 2 and "'0' is not a cut-off" in one_error(err)
    status, _, err = run(capsys, "sweep", str(code), "--k", "5")
    assert status == 2 and "add --probe" in one_error(err)


def test_sweep_probe_without_bm25s_says_what_to_install(capsys, code: Path, monkeypatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "bm25s" else real(name, *a))
    status, _, err = run(capsys, "sweep", str(code), "--probe")
    assert status == 1 and "clanka-nb[probe]" in one_error(err)


@pytest.fixture
def no_work(monkeypatch):
    """Fail the test if any chunking starts: an unusable output must be refused first."""

    def refuse(*args, **kwargs):
        raise AssertionError("work started before the output was checked")

    for name in ("chunk_codebase", "files"):
        monkeypatch.setattr(frames, name, refuse)
    monkeypatch.setattr(sweeps, "sweep", refuse)


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc")
@pytest.mark.parametrize("command", ["chunk", "files", "sweep"])
def test_an_output_in_a_folder_that_takes_no_files_fails_before_work(capsys, code: Path, no_work, command) -> None:
    status, out, err = run(capsys, command, str(code), "-o", "/proc/x.jsonl")
    assert status == 1 and out == ""
    assert "cannot write '/proc/x.jsonl'" in one_error(err)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_device_is_one_line(capsys, code: Path) -> None:
    status, out, err = run(capsys, "chunk", str(code), "--format", "jsonl", "-o", "/dev/full")
    assert status == 1 and out == ""
    assert "cannot write '/dev/full'" in one_error(err)


def test_checking_an_existing_output_leaves_it_intact_when_the_run_fails(capsys, code: Path, tmp_path: Path) -> None:
    target = tmp_path / "keep.csv"
    target.write_text("old\n", encoding="utf-8")
    status, _, err = run(capsys, "chunk", str(code), "-o", str(target), "--languages", "klingon")
    assert status == 2 and "'klingon' is not a language mode" in one_error(err)
    assert target.read_text(encoding="utf-8") == "old\n"
    assert not list(tmp_path.glob("*.jsonl"))
