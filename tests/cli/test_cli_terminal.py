"""What reaches the terminal: no raw control sequences from names or code, every library warning as one
`note:` line, a note for an empty folder and for a file that gives nothing, and each command's own help."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from clanka_nb.cli import main
from tests._shared import run_cli as run

# A file name that sets the window title, writes the clipboard (OSC 52) and clears the screen, and a method
# whose name turns the terminal red, opens a C1 CSI and reverses the text (bidi override).
HOSTILE_FILE = "x\x1b]0;TITLE\x07\x1b]52;c;aGk=\x07\x1b[2J.ts"
HOSTILE_METHOD = '"\x1b[31m\x9b2J\u202eevil"'
HOSTILE_TS = f"export class K {{\n  {HOSTILE_METHOD}() {{\n    return 1;\n  }}\n}}\n"
# Everything a terminal may act on: C0 but tab and newline, DEL, C1, bidi controls.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    root = tmp_path / "hostile"
    root.mkdir()
    (root / HOSTILE_FILE).write_text(HOSTILE_TS, encoding="utf-8")
    return root


@pytest.mark.parametrize("fmt", ["table", "csv", "jsonl", "json"])
@pytest.mark.parametrize("command", ["chunk", "files", "explain"])
def test_no_control_character_from_a_name_reaches_the_terminal(capsys, hostile: Path, command, fmt) -> None:
    argv = [command, str(hostile), *([HOSTILE_FILE] if command == "explain" else []), "--format", fmt]
    status, out, err = run(capsys, *argv)
    assert status == 0, err
    assert RAW.search(out) is None and RAW.search(err) is None, (out, err)
    if command == "chunk" and fmt == "table":  # the path is cut at its start to fit 100 columns; its end shows
        assert "\\x07\\x1b[2J.ts" in out  # shown, escaped
    elif command != "explain":  # explain's rows have no path column
        assert "x\\x1b]0;TITLE\\x07" in out or "x\\u001b]0;TITLE\\u0007" in out  # shown, escaped
    if command != "files":
        assert "\\x9b2J" in out or "\\u009b2J" in out  # the method's name, escaped too


def test_json_output_keeps_the_exact_names(capsys, hostile: Path) -> None:
    import json

    status, out, _ = run(capsys, "chunk", str(hostile), "--format", "jsonl")
    rows = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and {row["path"] for row in rows} == {HOSTILE_FILE}
    assert HOSTILE_METHOD in {row["name"] for row in rows}


def test_errors_and_notes_escape_names_too(capsys, hostile: Path) -> None:
    status, _out, err = run(capsys, "explain", str(hostile), "missing\x1b]0;T\x07.ts")
    assert status == 1 and "error:" in err
    assert RAW.search(err) is None and "missing\\x1b]0;T\\x07.ts" in err


def test_a_file_written_with_o_keeps_its_data(capsys, hostile: Path, tmp_path: Path) -> None:
    target = tmp_path / "chunks.jsonl"
    assert run(capsys, "chunk", str(hostile), "-o", str(target))[0] == 0
    rows = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert HOSTILE_FILE in {row["path"] for row in rows}  # JSON escapes keep the data exact
    # CSV has no escapes: there the controls are written as the table shows them (issue 34, item 14).
    target = tmp_path / "chunks.csv"
    assert run(capsys, "chunk", str(hostile), "-o", str(target))[0] == 0
    written = target.read_text(encoding="utf-8")
    assert RAW.search(written) is None and "x\\x1b]0;TITLE\\x07" in written


def test_the_installed_command_escapes_in_a_real_process(hostile: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "clanka_nb.cli", "chunk", str(hostile)], capture_output=True, timeout=120, check=False
    )
    assert result.returncode == 0
    assert b"\x1b" not in result.stdout + result.stderr and b"\x07" not in result.stdout + result.stderr
    assert b"\\x1b[2J.ts" in result.stdout


# --- warnings are notes; say why a run gives nothing -------------------------------------------------


def test_sweep_of_an_empty_folder_with_probe_says_it_in_notes(capsys, tmp_path: Path) -> None:
    status, _out, err = run(capsys, "sweep", str(tmp_path), "--probe", "--chunk-size", "10,20")
    assert status == 0
    lines = err.strip().splitlines()
    assert lines and all(line.startswith("clanka-nb: note: ") for line in lines), err
    assert "Warning" not in err and ".py:" not in err  # no Python warning with its source line
    assert any("no files" in line for line in lines) and any("no queries" in line for line in lines)
    assert len(lines) == len(set(lines))  # each said once


@pytest.mark.parametrize("command", ["chunk", "files"])
def test_an_empty_folder_says_no_files(capsys, tmp_path: Path, command) -> None:
    status, out, err = run(capsys, command, str(tmp_path))
    assert status == 0 and out == "(no rows)\n"
    assert err.startswith("clanka-nb: note: no files to chunk under ")


def test_quiet_keeps_notes_off(capsys, tmp_path: Path) -> None:
    assert run(capsys, "chunk", str(tmp_path), "-q")[1:] == ("(no rows)\n", "")


def test_a_binary_ts_file_is_chunked_as_the_reference_does_with_a_note(capsys, tmp_path: Path) -> None:
    (tmp_path / "tool.ts").write_bytes(b"\x7fELF\x02\x01\x01\x00" + b"\x00\x01 code\n" * 50)
    status, out, err = run(capsys, "chunk", str(tmp_path))
    assert status == 0 and "tool.ts" in out
    assert err.count("\n") == 1 and "'tool.ts' looks binary" in err and "as the reference does" in err


def test_one_file_that_is_never_indexed_says_why_once(capsys, tmp_path: Path) -> None:
    (tmp_path / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    status, out, err = run(capsys, "chunk", str(tmp_path / "logo.png"))
    assert (status, out) == (0, "(no rows)\n")
    assert err.count("\n") == 1 and "never indexes" in err and "looks binary" in err


# --- help: each command its own examples, the shared rules once ------------------------------------


def help_of(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit):
        main([*argv, "--help"])
    return capsys.readouterr().out


def test_each_command_help_shows_its_own_examples_and_the_rules_once_at_the_top(capsys) -> None:
    top = help_of(capsys)
    assert top.count("exit codes:") == 1
    for command in ("chunk", "files", "sweep", "explain", "churn", "cache", "lab"):
        text = help_of(capsys, command)
        examples = [line.strip() for line in text.split("examples:", 1)[1].splitlines() if line.startswith("  ")]
        assert examples and all(line.split()[:2] == ["clanka-nb", command] for line in examples), text
        assert "exit codes:" not in text and "clanka-nb --help" in text
