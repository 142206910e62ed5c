"""The persistent parse cache: reopening a checkout against opening it cold, each run a fresh process.

Usage: python benchmarks/bench_cache.py FOLDER [--rounds N]

FOLDER is a codebase on disk (the issue's corpus, three.js + rxjs + @types/node: see bench_engine.py);
nothing is downloaded. Every figure is `Codebase(root)` then `.chunks()` at the default settings and
workers, timed inside a new Python process (so nothing is warm in memory). Each round opens it cold
without the cache, cold filling a new cache, again with nothing changed, and after editing one file
(a new edit each round, put back at the end); the ratios are taken within a round and the median over
the rounds is printed with its spread. Targets (issue 29 for the reopens, issue 18 for filling):
  reopen, nothing changed           <= 0.15x cold without the cache
  reopen after editing one file     <= 0.20x cold without the cache
  cold, filling the cache           <= 1.10x cold without the cache
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from clanka_nb import engine

RUN = """
import sys, time
from clanka_nb import engine
root, folder = sys.argv[1], sys.argv[2]
cache = engine.ParseCache(folder) if folder != "-" else False
start = time.perf_counter()
chunks = engine.Codebase(root, cache=cache).chunks()
print(time.perf_counter() - start, len(chunks))
"""


def timed(root: Path, folder: str) -> tuple[float, int]:
    out = subprocess.run([sys.executable, "-c", RUN, str(root), folder], check=True, capture_output=True, text=True)
    seconds, chunks = out.stdout.split()
    return float(seconds), int(chunks)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", help="codebase to open (the issue's corpus: see bench_engine.py); nothing is downloaded")
    ap.add_argument("--rounds", type=int, default=5, help="rounds of the four opens (default 5)")
    args = ap.parse_args()
    root = Path(args.folder)
    if not root.is_dir():
        raise SystemExit(f"{root} is missing: pass a folder holding a codebase (nothing is downloaded)")
    if args.rounds < 1:
        raise SystemExit("--rounds must be at least 1")
    # A file the engine lists and parses: the first `.ts` of the listing (the first on disk may be ignored, in `dist/`).
    edited = root / next(name for name in engine.list_files(root) if name.endswith(".ts"))
    original = edited.read_bytes()
    print(f"{root}: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; each open in a fresh process")
    names = ("cold", "filling", "warm", "edited")
    times: dict[str, list[float]] = {name: [] for name in names}
    counts = set()
    with tempfile.TemporaryDirectory() as tmp:
        folder = str(Path(tmp) / "cache")
        try:
            for i in range(args.rounds):
                seconds, n = timed(root, "-")
                times["cold"].append(seconds)
                shutil.rmtree(folder, ignore_errors=True)
                times["filling"].append(timed(root, folder)[0])
                seconds, m = timed(root, folder)
                times["warm"].append(seconds)
                counts |= {n, m}
                # A new edit each round, so the edited text is never in the cache already.
                edited.write_bytes(original + f"\n// edit {i}\n".encode())
                times["edited"].append(timed(root, folder)[0])
                edited.write_bytes(original)
        finally:
            edited.write_bytes(original)
    assert len(counts) == 1, f"chunk counts differ with and without the cache: {counts}"
    cold = statistics.median(times["cold"])
    print(f"{counts.pop():,} chunks; cold without the cache {cold:.2f} s (median of {args.rounds} rounds); "
          f"load at the end {os.getloadavg()[0]:.1f}")
    rows = [
        ("reopen, nothing changed", "warm", 0.15),
        (f"reopen after editing {edited.relative_to(root)}", "edited", 0.20),
        ("cold, filling the cache", "filling", 1.10),
    ]
    for label, name, target in rows:
        values = sorted(t / c for t, c in zip(times[name], times["cold"], strict=True))
        middle = statistics.median(values)
        verdict = "ok" if middle <= target else "OVER TARGET"
        print(f"  {label:<60} {statistics.median(times[name]):6.2f} s  {middle:5.2f}x "
              f"({values[0]:.2f}-{values[-1]:.2f})  (target <= {target:.2f}x) {verdict}")


if __name__ == "__main__":
    main()
