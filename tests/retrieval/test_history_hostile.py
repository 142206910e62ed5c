"""History queries over hostile repositories, with real git: a huge file a commit added is never read into
memory, and a history git cannot read (no commit yet, a damaged commit) leaves the commit-message queries
out with one note instead of breaking the probe."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from clanka_nb import Probe, engine, sweep
from clanka_nb.history import ChurnError
from clanka_nb.retrieval import history_queries
from clanka_nb.retrieval.internals import ProbeSet

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")
IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_CONFIG_GLOBAL": os.devnull}  # fmt: skip
CODE = "export function addOne(value: number) {\n  return value + 1;\n}\n"
MEASURE = """
import resource, sys
from clanka_nb.retrieval import history_queries
frame = history_queries(sys.argv[1], revs=sys.argv[2], progress=False)
print(len(frame), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def run_git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True,
                          env={**os.environ, **IDENTITY}).stdout  # fmt: skip


def _repo(root: Path) -> Path:
    root.mkdir(parents=True)
    run_git(root, "init", "-q", "-b", "main")
    (root / "one.ts").write_text(CODE)
    run_git(root, "add", "-A")
    run_git(root, "commit", "-q", "-m", "Add the function that adds one to a value")
    return root


def _peak_kib(root: Path, revs: str) -> tuple[int, int]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    out = subprocess.run([sys.executable, "-c", MEASURE, str(root), revs], check=True, capture_output=True,
                         text=True, env=env, timeout=300).stdout.split()  # fmt: skip
    return int(out[0]), int(out[1])


def test_a_huge_file_a_commit_added_is_never_read_into_memory(tmp_path):
    root = _repo(tmp_path / "big")
    with (root / "big.txt").open("w") as file:  # 24 MB of short lines, outside the probed tree at HEAD
        file.writelines(f"line {i:08d}\n" for i in range(24 * 1024 * 1024 // 14))
    run_git(root, "add", "-A")
    run_git(root, "commit", "-q", "-m", "Add the big text file of many lines")
    run_git(root, "rm", "-q", "big.txt")
    run_git(root, "commit", "-q", "-m", "Remove the big text file again now")
    queries, floor = _peak_kib(root, "HEAD~2")  # the first commit alone: the same process without the file
    assert queries == 1
    queries, peak = _peak_kib(root, "HEAD~5..HEAD")
    assert queries == 1
    # The quadratic-free but whole read held the diff several times over: 18x the file, 430 MB here.
    assert peak - floor < 48 * 1024, f"{(peak - floor) / 1024:.0f} MB more than the floor"


def test_a_file_over_max_file_size_in_a_commit_is_skipped_like_the_listing_skips_it(tmp_path):
    root = _repo(tmp_path / "limit")
    (root / "one.ts").write_text(CODE + "// " + "x" * 5000 + "\n")
    run_git(root, "add", "-A")
    run_git(root, "commit", "-q", "-m", "Pad the function file with a long comment line")
    (root / "one.ts").write_text(CODE)
    run_git(root, "add", "-A")
    run_git(root, "commit", "-q", "-m", "Drop the long comment line of the file again")
    frame = history_queries(root, revs="HEAD~5..HEAD", progress=False, max_file_size="4K")
    assert frame["commit"].tolist() == [run_git(root, "rev-list", "--max-parents=0", "HEAD").strip()]
    assert frame.attrs["dropped"] == {"no_target": 2}


def _damaged(root: Path) -> Path:
    _repo(root)
    (root / "one.ts").write_text(CODE + "\nexport const two = 2;\n")
    run_git(root, "add", "-A")
    run_git(root, "commit", "-q", "-m", "Add the constant two beside the function")
    head = run_git(root, "rev-parse", "HEAD").strip()
    loose = root / ".git" / "objects" / head[:2] / head[2:]
    loose.chmod(0o644)
    loose.write_bytes(zlib.compress(b"commit 9999\x00garbage"))  # a commit object git cannot parse
    return root


@pytest.mark.parametrize("kind", ["fresh", "damaged"])
def test_a_history_git_cannot_read_leaves_commit_messages_out_with_one_note(tmp_path, kind):
    root = tmp_path / kind
    if kind == "fresh":
        root.mkdir()
        run_git(root, "init", "-q", "-b", "main")
        (root / "one.ts").write_text("/** Adds one to the value it is given. */\n" + CODE)
    else:
        _damaged(root)
        (root / "one.ts").write_text("/** Adds one to the value it is given. */\n" + CODE)
    with pytest.raises(ChurnError, match=r"fsck|no commit"):
        history_queries(root, progress=False)  # asked for by name: an error naming the fix
    probe_set = ProbeSet(engine.Codebase(root))
    assert probe_set.query_sources == {"doc_comments": 1, "test_names": 0}
    assert probe_set.note.count("none from commit messages") == 1
    assert probe_set.history_error is not None and "\n" not in probe_set.history_error
    frame = sweep(root, chunk_size=[10], probe=Probe(reference=False), progress=False)
    assert frame["queries"].tolist() == [1] and "none from commit messages" in frame.attrs["probe_note"]
    done = subprocess.run([sys.executable, "-m", "clanka_nb.cli", "sweep", str(root), "--chunk-size", "10",
                           "--probe"], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("none from commit messages") == 1
