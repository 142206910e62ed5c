"""The pandas layer's cost as ratios to the engine, all measured in one process.

Usage: python benchmarks/bench_frames.py [FOLDER] [--fetch] [--repeat N] [--check]

FOLDER defaults to the largest `benchmarks/.data/*/package` (npm packages unpacked there; --fetch
runs `npm pack effect@3.10.0` into benchmarks/.data first). Every timing is the best of N runs
(default 3), taken in turns so load on the machine hits all of them alike; both wall time and CPU
time of this process are kept (all runs use one worker), and the targets are judged on CPU time,
which other work on a busy machine does not inflate. Targets from the issue:
  frames.chunk_codebase, 1 worker      <= 1.2x list(engine.chunk_codebase(root, workers=1))
  sweep, 20 settings, 1 worker  <  2x  one engine.chunk_codebase
  frames.files, 1 worker               <= 1.0x frames.chunk_codebase (issue 17; coverage reported beside it)
Peak memory (peak RSS of a fresh process per run, as bench_reliability.py measures it, so pandas,
Arrow and tree-sitter count) is reported, not judged here. --check exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tarfile
import time
from collections.abc import Callable
from pathlib import Path

from clanka_nb import engine, frames, sweep

# These figures measure parsing: the persistent parse cache stays off (bench_cache.py measures it).
os.environ.setdefault("CLANKA_NB_CACHE", "off")

DATA = Path(__file__).parent / ".data"
FETCH_SPEC = "effect@3.10.0"
SWEEP = {"chunk_size": [10, 20, 30, 40, 60], "chunk_overlap": [0, 2, 5, 10]}  # 20 settings, one clamped


def fetch(spec: str = FETCH_SPEC) -> Path:
    """`npm pack` a package into benchmarks/.data and unpack it (once)."""
    target = DATA / spec.replace("@", "-")
    if not (target / "package").is_dir():
        DATA.mkdir(parents=True, exist_ok=True)
        out = subprocess.run(["npm", "pack", spec, "--silent"], cwd=DATA, check=True, capture_output=True, text=True)
        with tarfile.open(DATA / out.stdout.strip().splitlines()[-1]) as archive:
            archive.extractall(target, filter="data")
    return target / "package"


def folder_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file() and not path.is_symlink())


def default_folder() -> Path | None:
    """The largest unpacked package in benchmarks/.data, by bytes on disk."""
    candidates = [path for path in DATA.glob("*/package") if path.is_dir()]
    return max(candidates, key=folder_bytes, default=None)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", nargs="?", help="a folder of source code (default: largest benchmarks/.data package)")
    ap.add_argument("--fetch", action="store_true", help=f"npm pack {FETCH_SPEC} into benchmarks/.data first")
    ap.add_argument("--repeat", type=int, default=3, help="runs per timing; the best is kept (default 3)")
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = ap.parse_args()
    if args.fetch:
        fetch()
    root = Path(args.folder) if args.folder else default_folder()
    if root is None or not root.is_dir():
        raise SystemExit(f"no folder to measure ({root}): pass one, or --fetch to download {FETCH_SPEC}")

    runs: dict[str, Callable[[], object]] = {
        "engine.chunk_codebase": lambda: list(engine.chunk_codebase(root, workers=1)),
        "frames.chunk_codebase": lambda: frames.chunk_codebase(root, workers=1, progress=False),
        "sweep (20 settings)": lambda: sweep(root, **SWEEP, workers=1, progress=False),
        "frames.files": lambda: frames.files(root, workers=1, progress=False),
        "frames.coverage": lambda: frames.coverage(root, workers=1, progress=False),
    }
    wall = dict.fromkeys(runs, float("inf"))
    cpu = dict.fromkeys(runs, float("inf"))
    for _ in range(args.repeat):
        for name, run in runs.items():
            started, started_cpu = time.perf_counter(), time.process_time()
            run()
            wall[name] = min(wall[name], time.perf_counter() - started)
            cpu[name] = min(cpu[name], time.process_time() - started_cpu)
    from bench_reliability import peak_mb  # imports this module: only when run as a script

    expressions = {
        "engine.chunk_codebase": "list(engine.chunk_codebase(root, workers=1))",
        "frames.chunk_codebase": "frames.chunk_codebase(root, workers=1, progress=False)",
        "sweep (20 settings)": f"sweep(root, **{SWEEP!r}, workers=1, progress=False)",
        "frames.files": "frames.files(root, workers=1, progress=False)",
        "frames.coverage": "frames.coverage(root, workers=1, progress=False)",
    }
    setups = {
        name: "from clanka_nb import engine" if name.startswith("engine") else "from clanka_nb import frames, sweep"
        for name in runs
    }
    memory = {name: peak_mb(setups[name], expressions[name], root)[0] for name in runs}

    chunks = len(frames.chunk_codebase(root, workers=1, progress=False))
    print(f"{root}: {len(engine.list_files(root))} files, {chunks} chunks at chunk_size=30; best of {args.repeat}")
    print(f"{'run':<28} {'wall s':>7} {'x engine':>9} {'cpu s':>7} {'x engine':>9} {'peak MB':>8}  target (cpu)")
    targets = {"frames.chunk_codebase": ("<=", 1.2), "sweep (20 settings)": ("<", 2.0)}
    # files() is judged against the frame of chunks of the same source, which it replaces a count over.
    frame_targets = {"frames.files": ("<=", 1.0), "frames.coverage": ("", None)}
    missed = []
    for name in runs:
        ratio = cpu[name] / cpu["engine.chunk_codebase"]
        verdict = ""
        if name in frame_targets:
            op, target = frame_targets[name]
            versus = cpu[name] / cpu["frames.chunk_codebase"]
            wall_versus = wall[name] / wall["frames.chunk_codebase"]
            verdict = f"{versus:.2f}x frames.chunk_codebase cpu ({wall_versus:.2f}x wall)"
            if target is not None:
                met = versus <= target
                verdict += f", {op} {target}x {'met' if met else 'MISSED'}"
                if not met:
                    missed.append(name)
        if name in targets:
            op, target = targets[name]
            met = ratio <= target if op == "<=" else ratio < target
            verdict = f"{op} {target}x {'met' if met else 'MISSED'}"
            if not met:
                missed.append(name)
        wall_ratio = wall[name] / wall["engine.chunk_codebase"]
        print(
            f"{name:<28} {wall[name]:>7.3f} {wall_ratio:>9.2f} {cpu[name]:>7.3f} {ratio:>9.2f} "
            f"{memory[name]:>8.1f}  {verdict}"
        )
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
