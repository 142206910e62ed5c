"""`clanka-nb index` on one repository: in the command's own process against a LocalCluster (issue 56 item 3).

Usage: python benchmarks/bench_index_cli.py [--rounds N] [--root FOLDER]

Each round copies ROOT (default: the sample codebase) twice and times the whole command, `clanka-nb index COPY
--stand-in -q -o run.csv`, as a user waits for it: a first sync and a second one ("unchanged"), in this process
(the default for one root since issue 56) and with `--cluster` (what one root cost before: a LocalCluster started
for the command), interleaved so that the machine's load falls on both alike; each run has its own empty vector
cache. Prints every run, then the medians and their ratio (cluster / in process).
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import clanka_nb

WAYS = {"in process": [], "cluster": ["--cluster"]}


def timed(root: Path, extra: list[str], cache: Path) -> tuple[float, str]:
    """The command's wall time and the repository's status."""
    out = root.parent / f"{root.name}.csv"
    env = {**os.environ, "CLANKA_NB_CACHE_DIR": str(cache)}
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "clanka_nb.cli", "index", str(root), "--stand-in", "-q", "-o", str(out),
                    *extra], check=True, env=env)  # fmt: skip
    seconds = time.perf_counter() - started
    with out.open(encoding="utf-8") as handle:
        return seconds, next(csv.DictReader(handle))["status"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--root", type=Path, default=Path(clanka_nb.sample_codebase()))
    args = parser.parse_args()
    seconds: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for number in range(args.rounds):
            for way, extra in WAYS.items():
                root = Path(folder) / f"{number}-{way.replace(' ', '-')}"
                shutil.copytree(args.root, root)
                for run in ("first", "again"):
                    took, status = timed(root, extra, Path(folder) / f"cache-{number}-{way}")
                    seconds.setdefault((way, run), []).append(took)
                    load = os.getloadavg()[0]
                    print(f"round {number + 1} {way:<10} {run:<5} {status:<9} {took:6.2f} s  (load {load:.1f})")
    for run in ("first", "again"):
        local, cluster = (statistics.median(seconds[(way, run)]) for way in WAYS)
        print(f"{run}: in process {local:.2f} s, cluster {cluster:.2f} s: the cluster takes {cluster / local:.1f}x")


if __name__ == "__main__":
    main()
