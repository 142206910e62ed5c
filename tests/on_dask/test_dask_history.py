"""The probe on Dask over roots whose history git cannot read: each such root is named in `attrs["failed"]`
(its commit messages left out, its other queries probed), and the other roots finish."""

from __future__ import annotations

import os
import shutil
import subprocess
import zlib
from pathlib import Path

import pytest

from clanka_nb.dask import sweep

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")
IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_CONFIG_GLOBAL": os.devnull}  # fmt: skip


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True,
                          env={**os.environ, **IDENTITY}).stdout  # fmt: skip


def _root(folder: Path, name: str, *, commit: bool = True) -> Path:
    folder.mkdir()
    _git(folder, "init", "-q", "-b", "main")
    (folder / f"{name}.ts").write_text(f"/** Adds one to the {name} value given. */\n"
                                       f"export function {name}(v: number) {{\n  return v + 1;\n}}\n")  # fmt: skip
    if commit:
        _git(folder, "add", "-A")
        _git(folder, "commit", "-q", "-m", f"Add the {name} function that adds one")
    return folder


def test_one_root_without_a_readable_history_is_reported_and_the_others_finish(tmp_path, client):
    good = [_root(tmp_path / f"good{i}", f"good{i}") for i in range(3)]
    fresh = _root(tmp_path / "fresh", "fresh", commit=False)
    damaged = _root(tmp_path / "damaged", "damaged")
    head = _git(damaged, "rev-parse", "HEAD").strip()
    loose = damaged / ".git" / "objects" / head[:2] / head[2:]
    loose.chmod(0o644)
    loose.write_bytes(zlib.compress(b"commit 9999\x00garbage"))
    frame = sweep([*good, fresh, damaged], client=client, probe=True, chunk_size=[10])
    assert frame["queries"].tolist() == [8, 8]  # every root's doc comment, and the good roots' commits (both rows)
    assert frame["reference"].tolist() == [False, True]  # the grid's, then clanka's own setting
    failed = frame.attrs["failed"]
    assert len(failed) == 2 and all("commit messages left out" in line for line in failed)
    assert any(line.startswith(str(fresh.resolve())) and "no commit yet" in line for line in failed)
    assert any(line.startswith(str(damaged.resolve())) and "git fsck" in line for line in failed)
