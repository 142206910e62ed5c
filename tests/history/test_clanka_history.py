"""clanka's history ships in the package and clones anywhere: the tuning notebook needs no clone of this repo."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from clanka_nb.bundled import clanka_history_bundle
from clanka_nb.history import ChurnError, clanka_history


def test_the_bundle_is_package_data_with_its_notice() -> None:
    bundle = clanka_history_bundle()
    assert bundle.parent.name == "data" and bundle.parent.parent.name == "clanka_nb"
    notice = (bundle.parent / "NOTICE.md").read_text(encoding="utf-8")
    assert "MIT License" in notice and "Tim Smart" in notice


def test_a_clone_has_the_whole_history(tmp_path: Path) -> None:
    clone = clanka_history(tmp_path / "a" / "clanka")  # parents made as needed
    count = subprocess.run(["git", "-C", str(clone), "rev-list", "--count", "HEAD"], capture_output=True,
                           text=True, check=True).stdout  # fmt: skip
    assert int(count) == 427
    assert (clone / "package.json").is_file()


def test_an_existing_folder_is_refused_and_left_alone(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(ChurnError, match="exists; pass a folder that does not exist yet"):
        clanka_history(tmp_path)
    assert (tmp_path / "keep.txt").read_text(encoding="utf-8") == "mine"


def test_without_a_folder_each_call_gets_a_new_one() -> None:
    first, second = clanka_history(), clanka_history()
    assert first != second and (first / ".git").is_dir() and (second / ".git").is_dir()


def test_a_temporary_clone_is_removed_when_the_process_exits(tmp_path) -> None:
    # Left behind before: every notebook run and test run that asked for the history kept a clone in /tmp.
    script = "from clanka_nb.history import clanka_history; print(clanka_history())"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120,
                          env={**os.environ, "TMPDIR": str(tmp_path)})
    clone = Path(done.stdout.strip())
    assert clone.parent.parent == tmp_path  # it was made there (TMPDIR/clanka-history-*/clanka)
    assert not clone.exists() and not clone.parent.exists()
