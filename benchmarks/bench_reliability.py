"""Reliability figures, each a ratio against a baseline measured in the same run.

Usage: python benchmarks/bench_reliability.py [FOLDER] [--classes N]

FOLDER defaults to the largest `benchmarks/.data/*/package` (see bench_frames.py --fetch). Three parts:
  plan_ranges   N classes with one name in one file, against N/10: time per class (linear: about 1x;
                the quadratic scan it replaced: about 10x)
  unread        a chunk_codebase(workers=2) iterator after one next() and 3 s unread: the parent's
                memory growth against reading it all (bounded window: far below 1x)
  peak memory   peak RSS of a fresh process per measurement (VmHWM, so Arrow, tree-sitter and pandas
                count, unlike tracemalloc), against the engine's chunk_codebase in its own fresh
                process; the largest worker's peak is shown apart (Linux only: /proc).
                Target: the chunk frame <= 1.5x the engine.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from bench_frames import default_folder

from clanka_nb.engine._chunker import PreparedText, plan_ranges, prepare

REPO = Path(__file__).resolve().parents[1]

PEAK = """
import resource, sys
root = sys.argv[1]
{setup}
result = {run}
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the process that started this one.
with open("/proc/self/status") as handle:
    me = next(int(line.split()[1]) for line in handle if line.startswith("VmHWM:"))
workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(me, workers)
"""
PEAK_RUNS = {
    "engine chunk_codebase, 1 worker (baseline)": (
        "from clanka_nb import engine", "list(engine.chunk_codebase(root, workers=1))"
    ),
    "engine Codebase, 1 worker": ("from clanka_nb import engine", "engine.Codebase(root, workers=1)"),
    "engine chunk_codebase, 2 workers": (
        "from clanka_nb import engine", "list(engine.chunk_codebase(root, workers=2))"
    ),
    "import pandas + frames only": ("from clanka_nb import frames", "None"),
    "frames.chunk_codebase, 1 worker": (
        "from clanka_nb import frames", "frames.chunk_codebase(root, workers=1, progress=False)"
    ),
    "frames.chunk_codebase, default workers": (
        "from clanka_nb import frames", "frames.chunk_codebase(root, progress=False)"
    ),
}

UNREAD = """
import sys, time
from clanka_nb import engine

# These figures measure chunking and parsing: the persistent parse cache stays off (bench_cache.py measures it).
os.environ.setdefault("CLANKA_NB_CACHE", "off")

def rss():
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * 4096

root = sys.argv[1]
start = rss()
chunks = engine.chunk_codebase(root, workers=2)
next(chunks)
time.sleep(3)
held = rss()
rest = list(chunks)
print(start, held, rss(), len(rest) + 1)
"""


def _python(code: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=True,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )
    return done.stdout.split("\n")[-2]


def bench_plan(classes: int) -> None:
    def per_class(n: int) -> float:
        text = prepare("many.ts", "".join(f"class A {{\n  m() {{ return {i}; }}\n}}\n" for i in range(n)))
        best = float("inf")
        for _ in range(5):
            started = time.perf_counter()
            plan_ranges(text)
            best = min(best, time.perf_counter() - started)
        return best / n

    small, large = per_class(classes // 10), per_class(classes)
    print(f"plan_ranges: {classes:,} same-named classes {large * classes:.3f} s; per class vs {classes // 10:,}: "
          f"{large / small:.2f}x (linear ~1x, quadratic ~10x)")
    text = prepare("many.ts", "".join(f"class A {{\n  m() {{ return {i}; }}\n}}\n" for i in range(classes)))
    started = time.perf_counter()
    _scan_every_method(text)
    scan = time.perf_counter() - started
    print(f"  the scan it replaced (each class against every method of its name): {scan:.2f} s, "
          f"{scan / (large * classes):.0f}x slower")


def _scan_every_method(text: PreparedText) -> list[bool]:
    """The former truncation test, kept here only as the baseline: quadratic in same-named classes."""
    methods: dict = {}
    for d in text.declarations:
        if d.type == "method":
            methods.setdefault(d.parent, []).append(d)
    return [
        d.type == "class" and any(
            m.start_line >= d.start_line and m.end_line <= d.end_line for m in methods.get(f"class {d.name}", ())
        )
        for d in text.declarations
    ]


def bench_unread(root: Path) -> None:
    start, held, done, chunks = map(int, _python(UNREAD, str(root)).split())
    grew, full = (held - start) / 2**20, (done - start) / 2**20
    print(f"unread iterator (workers=2, {chunks:,} chunks): parent grew {grew:.1f} MB held unread for 3 s "
          f"vs {full:.1f} MB after reading all: {grew / full:.2f}x")


def peak_mb(setup: str, run: str, root: Path) -> tuple[float, float]:
    """Peak RSS in MB of a fresh process that runs `setup` then `run` (with `root` bound), and of its largest child."""
    me, workers = map(int, _python(PEAK.format(setup=setup, run=run), str(root)).split())
    return me / 1024, workers / 1024


def bench_peaks(root: Path) -> bool:
    peaks = {name: peak_mb(setup, run, root) for name, (setup, run) in PEAK_RUNS.items()}
    base = peaks["engine chunk_codebase, 1 worker (baseline)"][0]
    print(f"{'peak RSS, fresh process each':<44} {'MB':>6} {'x engine':>9} {'workers MB':>11}")
    for name, (me, workers) in peaks.items():
        print(f"{name:<44} {me:>6.0f} {me / base:>9.2f} {workers:>11.0f}")
    frame = peaks["frames.chunk_codebase, default workers"][0] / base
    print(f"target: frames.chunk_codebase (default workers) <= 1.5x engine: {frame:.2f}x "
          f"{'met' if frame <= 1.5 else 'MISSED'}")
    return frame <= 1.5


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", nargs="?", help="a folder of source code (default: largest benchmarks/.data package)")
    ap.add_argument("--classes", type=int, default=20_000, help="same-named classes for plan_ranges (default 20,000)")
    args = ap.parse_args()
    root = Path(args.folder) if args.folder else default_folder()
    if root is None or not root.is_dir():
        raise SystemExit(f"no folder to measure ({root}): pass one, or run bench_frames.py --fetch")
    print(f"{root}")
    bench_plan(args.classes)
    bench_unread(root)
    bench_peaks(root)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
