"""Hostile inputs for the probe's queries, built in a temporary folder: each figure against its floor.

Usage: python benchmarks/bench_hostile.py [--megabytes N]

  history memory  peak RSS (ru_maxrss) of a fresh process running `history_queries` over a repository
                  whose second commit adds an N MB text file (default 40) that the third removes, against
                  the floor: the same process over the first commit alone (imports, git, the codebase).
                  Target: under 400 MB (the whole diff read into memory: 2.9 GB)
  subject         seconds of the version test and the query of a 64 KB subject '1.' + '1' * N + ' x'
                  (the backtracking pattern: 44-61 s). Target: under 5 s
  extraction      seconds of the doc-comment and test-name queries of each planted file, parsed first
                  (the quadratic patterns and walks: 9-37 s). Target: each under 5 s
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from clanka_nb import engine
from clanka_nb.retrieval.queries._history import _Commit, _reason, message_query
from clanka_nb.retrieval.queries._queries import scan
from clanka_nb.retrieval.queries._test_names import scan_test_names

REPO = Path(__file__).resolve().parents[1]
IDENTITY = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.org", "GIT_COMMITTER_NAME": "b",
            "GIT_COMMITTER_EMAIL": "b@example.org", "GIT_CONFIG_GLOBAL": os.devnull}  # fmt: skip
PEAK = """
import resource, sys
from clanka_nb.retrieval import history_queries
frame = history_queries(sys.argv[1], revs=sys.argv[2], progress=False)
print(len(frame), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env={**os.environ, **IDENTITY})


def _peak_mb(repo: Path, revs: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", PEAK, str(repo), revs], check=True, capture_output=True, text=True,
                         env=env).stdout.split()  # fmt: skip
    return int(out[1]) / 1024


def history_memory(folder: Path, megabytes: int) -> None:
    repo = folder / "big"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    (repo / "one.ts").write_text("export function addOne(v: number) {\n  return v + 1;\n}\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "Add the function that adds one to a value")
    with (repo / "big.txt").open("w") as file:  # short lines: the most lines, so the most patch lines
        file.writelines(f"{i:09d}\n" for i in range(megabytes * 1024 * 1024 // 10))
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "Add the big text file of many short lines")
    _git(repo, "rm", "-q", "big.txt")
    _git(repo, "commit", "-q", "-m", "Remove the big text file again")
    floor, peak = _peak_mb(repo, "HEAD~2"), _peak_mb(repo, "HEAD~5..HEAD")
    print(f"history memory  {megabytes} MB file: peak {peak:.0f} MB, floor {floor:.0f} MB "
          f"(+{peak - floor:.0f} MB, {peak / floor:.2f}x)  target < 400 MB")  # fmt: skip


def _timed(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def subject() -> None:
    text = "1." + "1" * 65_536 + " x"
    commit = _Commit("0" * 40, ["1" * 40], "b <b@example.org>", text)
    seconds = _timed(lambda: _reason(commit, message_query(text), 8))
    print(f"subject         64 KB: {seconds * 1000:.1f} ms  target < 5 s")


def extraction() -> None:
    depth = 1_000
    nested = ('import { f } from "./f"\n' + "".join(f'it("case number {i} of many", () => {{\n' for i in range(depth))
              + "f()\n" + "})\n" * depth)  # fmt: skip
    files = {
        "{@a  x32,000 (125 KiB)": {"tag.ts": "/**\n * " + "{@a " * 32_000 + "\n */\nexport function f() {}\n"},
        "a.a.a... (63 KiB)": {"word.ts": "/** " + "a." * 32_000 + "a */\nexport function f() {}\n"},
        "def line ' # # ... ' (63 KiB)": {"hashes.py": "def f(" + " #" * 32_000 + " '\n    return 1\n"},
        f"{depth:,} nested it() ({len(nested) / 1024:.0f} KiB)": {"f.ts": "export function f() {\n  return 1;\n}\n",
                                                                 "a.test.ts": nested},
    }
    for name, texts in files.items():
        codebase = engine.Codebase.from_texts(texts, languages="extended")
        for path in texts:
            codebase.text(path)  # parsed first: the figure is the extraction's
        seconds = _timed(lambda codebase=codebase: (scan(codebase), scan_test_names(codebase)))
        print(f"extraction      {name}: {seconds * 1000:.0f} ms  target < 5 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-hostile-") as folder:
        history_memory(Path(folder), args.megabytes)
    subject()
    extraction()


if __name__ == "__main__":
    main()
