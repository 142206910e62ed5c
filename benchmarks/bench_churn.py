"""Churn over git history: time per commit against what the commit changed, not the repository's size.

Usage: python benchmarks/bench_churn.py [--bundle PATH] [--only-big]

1. clanka's own history (../shared/data/clanka-history.bundle, 427 commits) at four settings: per-commit
   time by the number of files a commit changed.
2. Synthetic repositories of 500 and 5,000 TypeScript files, each followed by 200 one-file commits
   (built with `git fast-import`): the median time per commit must not grow with the repository
   (5,000 / 500 close to 1) nor along the history (last 50 / first 50 close to 1).
3. A repository whose last commit adds a 512 MiB blob (zeros) above `max_file_size`: peak resident
   memory (ru_maxrss from wait4: the churn process and the git processes it ran) must stay under
   450 MB, against the same run over the same repository with a 2 MiB blob in its place.
Figures are ratios measured in this run; the parse cache is off so every changed file is parsed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from clanka_nb.history import churn

BUNDLE = Path(__file__).resolve().parents[2] / "shared" / "data" / "clanka-history.bundle"
LIMIT = 450e6  # bytes of peak RSS allowed for churn over the 512 MiB blob (issue 24)
SETTINGS = {"chunk_size": [30, 20], "chunk_overlap": [0, 5], "chunk_max_characters": 10_000}


def source(i: int, version: int) -> bytes:
    body = "".join(f"export function f{i}_{k}(x: number): number {{\n  return x * {k + version};\n}}\n\n"
                   for k in range(8))  # fmt: skip
    return f"// module {i}, version {version}\n{body}".encode()


def synthetic(folder: Path, files: int, commits: int) -> Path:
    """A repository of `files` files, then `commits` commits that each edit one file."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(folder)], check=True)
    stream = bytearray()
    when = 1_700_000_000

    def commit(mark: int, message: str, changes: list[tuple[str, bytes]]) -> None:
        nonlocal when
        when += 60
        stream.extend(f"commit refs/heads/main\nmark :{mark}\ncommitter b <b@x> {when} +0000\n".encode())
        stream.extend(f"data {len(message)}\n{message}\n".encode())
        for path, data in changes:
            stream.extend(f"M 100644 inline {path}\ndata {len(data)}\n".encode() + data + b"\n")

    commit(1, "start", [(f"src/m{i // 100}/file{i}.ts", source(i, 0)) for i in range(files)])
    for c in range(commits):
        i = (c * 37) % files
        commit(c + 2, f"edit {i}", [(f"src/m{i // 100}/file{i}.ts", source(i, c + 1))])
    subprocess.run(["git", "-C", str(folder), "fast-import", "--quiet"], input=bytes(stream), check=True)
    subprocess.run(["git", "-C", str(folder), "checkout", "-q", "main"], check=True)
    return folder


def per_commit_seconds(repo: Path, revs: str, **settings: object) -> tuple[np.ndarray, np.ndarray]:
    frame = churn(repo, revs=revs, cache=False, progress=False, **settings)
    first = frame.drop_duplicates("commit")
    return first["seconds"].to_numpy(float), first["files_changed"].to_numpy(int)


def with_big_blob(folder: Path, size: int) -> Path:
    """A small first commit, then one adding `size` bytes of zeros as `huge.ts` and a small file; the blob
    is streamed into `git fast-import` a MiB at a time (this process never holds it)."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(folder)], check=True)
    process = subprocess.Popen(["git", "-C", str(folder), "fast-import", "--quiet"], stdin=subprocess.PIPE)
    assert process.stdin is not None
    small = source(0, 0)
    process.stdin.write(b"commit refs/heads/main\ncommitter b <b@x> 1700000000 +0000\ndata 5\nfirst\n"
                        b"M 100644 inline a.ts\ndata %d\n%s\n" % (len(small), small))  # fmt: skip
    process.stdin.write(b"commit refs/heads/main\ncommitter b <b@x> 1700000060 +0000\ndata 3\nbig\n"
                        b"M 100644 inline b.ts\ndata %d\n%s\nM 100644 inline huge.ts\ndata %d\n"
                        % (len(small), source(1, 0), size))  # fmt: skip
    zeros = bytes(1 << 20)
    for _ in range(size >> 20):
        process.stdin.write(zeros)
    process.stdin.write(b"\n")
    process.stdin.close()
    if process.wait() != 0:
        raise SystemExit("git fast-import failed")
    return folder


def churn_peak_rss(repo: Path) -> tuple[int, float]:
    """Peak RSS in bytes of a fresh process running churn over the last commit (wait4: the process and the
    git processes it waited for), and its seconds."""
    code = ("import sys\nfrom clanka_nb.history import churn\n"
            "churn(sys.argv[1], revs='HEAD', cache=False, progress=False)\n")
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", code, str(repo)])
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"churn failed over {repo}")
    return usage.ru_maxrss * 1024, time.perf_counter() - started


def big_blob(tmp: Path) -> None:
    size = 512 << 20
    big = with_big_blob(tmp / "big-blob", size)
    small = with_big_blob(tmp / "small-blob", 2 << 20)  # above the 1M limit too: the same listing
    objects = sum(f.stat().st_size for f in (big / ".git").rglob("*") if f.is_file())
    peak, seconds = churn_peak_rss(big)
    base, base_seconds = churn_peak_rss(small)
    print(f"a commit adding a {size >> 20} MiB blob above max_file_size (.git {objects / 2**20:.1f} MiB): "
          f"peak RSS {peak / 1e6:.0f} MB (limit {LIMIT / 1e6:.0f} MB) in {seconds:.1f} s; with a 2 MiB blob instead "
          f"{base / 1e6:.0f} MB in {base_seconds:.1f} s: {peak / base:.2f}x")  # fmt: skip
    if peak >= LIMIT:
        raise SystemExit(f"peak RSS {peak / 1e6:.0f} MB is over the {LIMIT / 1e6:.0f} MB limit")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bundle", type=Path, default=BUNDLE)
    ap.add_argument("--only-big", action="store_true", help="only the big-blob memory run (3.)")
    args = ap.parse_args()
    if args.only_big:
        with tempfile.TemporaryDirectory() as tmp:
            big_blob(Path(tmp))
        return
    with tempfile.TemporaryDirectory() as tmp:
        big_blob(Path(tmp))
        if args.bundle.exists():
            history = Path(tmp) / "clanka"
            subprocess.run(["git", "clone", "-q", str(args.bundle), str(history)], check=True)
            count = int(subprocess.run(["git", "-C", str(history), "rev-list", "--first-parent", "--count", "HEAD"],
                                       check=True, capture_output=True, text=True).stdout)  # fmt: skip
            started = time.perf_counter()
            seconds, changed = per_commit_seconds(history, f"HEAD~{count - 1}..HEAD", **SETTINGS)
            total = time.perf_counter() - started
            print(f"clanka history: {len(seconds)} commits at 4 settings in {total:.1f} s (baseline included)")
            for low, high in ((1, 1), (2, 5), (6, 20), (21, 10**9)):
                chosen = seconds[(changed >= low) & (changed <= high)]
                label = f"{low}" if low == high else f"{low}-{high}" if high < 10**9 else f">{low - 1}"
                if len(chosen):
                    median = np.median(chosen) * 1000
                    print(f"  {label:>6} files changed: {len(chosen):4d} commits, median {median:7.1f} ms")
        else:
            print(f"{args.bundle} is missing: skipping the clanka history")
        medians = {}
        for files in (500, 5_000):
            repo = synthetic(Path(tmp) / f"synthetic-{files}", files, 200)
            seconds, _ = per_commit_seconds(repo, "HEAD~200..HEAD", chunk_size=30)
            medians[files] = np.median(seconds)
            drift = np.median(seconds[-50:]) / np.median(seconds[:50])
            print(f"synthetic {files:,} files, 200 one-file commits: median {medians[files] * 1000:.1f} ms per commit; "
                  f"last 50 / first 50 = {drift:.2f}x")  # fmt: skip
        print(f"per-commit time, 5,000-file repository / 500-file repository: {medians[5_000] / medians[500]:.2f}x "
              "(flat: close to 1)")  # fmt: skip


if __name__ == "__main__":
    main()
