"""A tree with names that are not UTF-8 through every command and output format."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd
import pytest

from clanka_nb._cli._parser import FORMATS
from clanka_nb.cli import main

SHOWN = "bad\\xff\\xfename.ts"


@pytest.fixture
def bad_names(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    root.mkdir()
    with open(os.path.join(os.fsencode(root), b"bad\xff\xfename.ts"), "w", encoding="utf-8") as handle:
        handle.write("export const x = 1\n")
    (root / "good.ts").write_text("export function g() {}\n", encoding="utf-8")
    return root


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("command", ["chunk", "files", "sweep"])
def test_every_command_and_format_writes_a_tree_with_a_non_utf8_name(capsys, tmp_path, bad_names, command, fmt):
    out_file = tmp_path / f"out.{fmt}"
    extra = ["--chunk-size", "10,20"] if command == "sweep" else []
    assert main([command, str(bad_names), "--format", fmt, "-o", str(out_file), "-q", *extra]) == 0
    assert capsys.readouterr().err == ""
    if command == "sweep":
        return  # one row per setting: no paths, but it must not fail either
    if fmt == "parquet":
        paths = pd.read_parquet(out_file)["path"].tolist()
    elif fmt == "json":
        paths = [row["path"] for row in json.loads(out_file.read_text(encoding="utf-8"))]
    elif fmt == "jsonl":
        paths = [json.loads(line)["path"] for line in out_file.read_text(encoding="utf-8").splitlines()]
    elif fmt == "csv":
        paths = pd.read_csv(out_file)["path"].tolist()
    else:
        rows = out_file.read_text(encoding="utf-8").split("\n\n", 1)[0]  # the footer, after a blank line, is no row
        paths = [line.split()[0] for line in rows.splitlines()[1:]]
    assert sorted(paths) == sorted([SHOWN, "good.ts"])


def test_a_file_linking_out_of_its_folder_is_refused_with_a_note(capsys, tmp_path):
    (tmp_path / "secret.ts").write_text("export const secret = 1\n", encoding="utf-8")
    root = tmp_path / "root"
    root.mkdir()
    (root / "outside.ts").symlink_to(tmp_path / "secret.ts")
    assert main(["chunk", str(root / "outside.ts"), "--format", "jsonl"]) == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert "resolves outside the root folder" in err
    assert main(["chunk", str(root), "--format", "jsonl"]) == 0  # a folder never lists the link
    assert "secret" not in capsys.readouterr().out
