"""Every expected failure of `clanka-nb` is one line on stderr naming the fix, with a documented exit code."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from clanka_nb.cli import main

USAGE, PATH = 2, 1


def fails(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """Run, expecting failure: the exit code and the single error line (nothing on stdout, no traceback)."""
    try:
        code = main(list(argv))
    except SystemExit as stop:  # argparse exits for usage errors
        code = stop.code
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("clanka-nb: error: ")
    assert "Traceback" not in err
    return code, lines[0]


@pytest.mark.parametrize("command", ["chunk", "files", "sweep"])
def test_missing_path(capsys, tmp_path: Path, command: str) -> None:
    code, message = fails(capsys, command, str(tmp_path / "nowhere"))
    assert code == PATH
    assert "nowhere" in message and "does not exist" in message


@pytest.mark.parametrize("command", ["files", "sweep"])
def test_one_file_is_taken_alone_not_refused(capsys, code: Path, command: str) -> None:
    # Issue 46 item 6: `files FILE` and `sweep FILE` refused one file that `cn.files` and `cn.sweep` take.
    assert main([command, str(code / "src" / "app.ts"), "-q"]) == 0
    out = capsys.readouterr().out
    assert "app.ts" in out if command == "files" else out.strip()


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["chunk", "{code}", "--chunk-size", "abc"], "'abc' is not a whole number of lines"),
        (["chunk", "{code}", "--chunk-overlap", "1.5"], "'1.5' is not a whole number of lines"),
        (["chunk", "{code}", "--max-chars", "nan"], "'nan' is not a number of characters"),
        (["chunk", "{code}", "--max-chars", "lots"], "'lots' is not a number of characters"),
        (["sweep", "{code}", "--chunk-size", "10,x"], "'x' is not a whole number of lines"),
        (["sweep", "{code}", "--chunk-size", ","], "holds no values"),
        (["sweep", "{code}", "--max-chars", "none,nan"], "'nan' is not a number of characters"),
        (["chunk", "{code}", "--format", "xml"], "invalid choice: 'xml'"),
        (["chunk", "{code}", "--workers", "0"], "'0' is not a number of processes"),
        (["chunk", "{code}", "--max-file-size", "big"], "'big' is not a size"),
        (["chunk", "{code}", "--languages", "klingon"], "'klingon' is not a language mode"),
        (["chunk", "{code}", "--format", "parquet"], "add -o FILE.parquet"),
        (["chunk"], "required: PATH"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        ([], "required: COMMAND"),
    ],
)
def test_bad_usage_or_settings(capsys, code: Path, argv: list[str], fragment: str) -> None:
    exit_code, message = fails(capsys, *[a.replace("{code}", str(code)) for a in argv])
    assert exit_code == USAGE
    assert fragment in message
    assert "; " in message  # every message carries its fix after the problem


def test_explain_of_a_folder_alone_names_the_command_to_type(capsys, code: Path) -> None:
    exit_code, message = fails(capsys, "explain", str(code))
    assert exit_code == PATH
    assert f"is a folder; name the file too, e.g. clanka-nb explain {code} src/app.ts" in message
    assert "(" not in message.split("e.g.")[1]  # no Python call syntax in a shell error


def test_output_into_a_missing_folder(capsys, code: Path, tmp_path: Path) -> None:
    exit_code, message = fails(capsys, "chunk", str(code), "-o", str(tmp_path / "no" / "such" / "out.csv"))
    assert exit_code == PATH
    assert "does not exist" in message


def test_output_onto_a_folder(capsys, code: Path, tmp_path: Path) -> None:
    exit_code, message = fails(capsys, "chunk", str(code), "-o", str(tmp_path))
    assert exit_code == PATH
    assert "is a folder" in message


def test_output_without_permission(capsys, code: Path, tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "out.csv"

    def refuse(source: object, destination: object) -> None:
        raise PermissionError(13, "Permission denied", str(destination))

    # As root, a read-only folder would not stop us: the rename of the finished file into place is refused.
    monkeypatch.setattr(os, "replace", refuse)
    exit_code, message = fails(capsys, "chunk", str(code), "--format", "csv", "-o", str(target))
    assert exit_code == PATH
    assert "permission denied" in message.lower() and "out.csv" in message
    assert list(tmp_path.iterdir()) == [tmp_path / "code"]  # no file, and no temporary one left behind


def test_lab_with_a_missing_notebooks_folder(capsys, tmp_path: Path) -> None:
    exit_code, message = fails(capsys, "lab", "--notebooks", str(tmp_path / "gone"), "--dry-run")
    assert exit_code == PATH
    assert "gone" in message


def test_lab_without_jupyterlab_says_how_to_install_it(capsys, tmp_path: Path, monkeypatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "jupyterlab" else real(name, *a))
    exit_code, message = fails(capsys, "lab", "--notebooks", str(tmp_path), "--dry-run")
    assert exit_code == PATH
    assert "clanka-nb[lab]" in message
