"""`clanka-nb churn PATH --revs A..B`: the churn table of a small history, and one-line errors."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from clanka_nb.cli import main

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")


def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@x"}  # fmt: skip
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    for i, text in enumerate(["export const a = 1;\n", "export const a = 2;\nexport const b = 3;\n"]):
        (root / "a.ts").write_text(text)
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "-m", f"c{i}")
    return root


def test_churn_jsonl_has_a_row_per_commit_and_setting(capsys, repo: Path) -> None:
    assert main(["churn", str(repo), "--revs", "HEAD~1..HEAD", "--chunk-size", "30,5", "--format", "jsonl", "-q"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["chunk_size"], r["chunk_max_characters"], r["embedded"], r["deleted"]) for r in rows] == [
        (30, 10000, 2, 1), (5, 10000, 2, 1),
    ]


def test_churn_by_file_names_the_file(capsys, repo: Path) -> None:
    assert main(["churn", str(repo), "--revs", "HEAD~1..HEAD", "--by-file", "-q"]) == 0
    out = capsys.readouterr().out
    assert "a.ts" in out and "modified" in out


def test_churn_of_a_folder_that_is_no_repository_is_one_line(capsys, tmp_path: Path) -> None:
    assert main(["churn", str(tmp_path), "-q"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a git repository" in err


def test_churn_revs_that_look_like_an_option_are_refused_in_one_line(capsys, repo: Path, tmp_path: Path) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("keep\n")
    assert main(["churn", str(repo), f"--revs=--output={target}", "-q"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "never starts with '-'" in err and target.read_text() == "keep\n"


def test_churn_notes_submodules_it_does_not_count(capsys, repo: Path) -> None:
    pointer = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True,
                             check=True).stdout.strip()  # fmt: skip
    _git(repo, "update-index", "--add", "--cacheinfo", f"160000,{pointer},lib")
    _git(repo, "commit", "-q", "-m", "submodule")
    assert main(["churn", str(repo), "--revs", "HEAD~1..HEAD"]) == 0
    err = capsys.readouterr().err
    assert "note: 1 submodule ('lib') not counted" in err


def test_churn_of_a_repository_with_no_commit_says_commit_first(capsys, tmp_path: Path) -> None:
    # Issue 46 item 5: it suggested "pass a range ..., e.g. 'HEAD~20..HEAD'", which cannot work there.
    root = tmp_path / "fresh"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    (root / "a.ts").write_text("export const a = 1;\n")
    code = main(["churn", str(root)])
    err = capsys.readouterr().err
    assert code != 0 and "has no commit yet" in err and "commit first" in err and "HEAD~20" not in err
