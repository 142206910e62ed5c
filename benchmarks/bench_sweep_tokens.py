"""A sweep's token counting with a real tokenizer: each distinct embedding input counted once, against every one.

Usage: python benchmarks/bench_sweep_tokens.py [FOLDER] [--settings N]

FOLDER defaults to the largest `benchmarks/.data/*/package` (as bench_frames.py). For two grids of N
settings (default 5): chunk sizes 10, 20, ... (overlap 0), and overlaps 0, 2, 4, ... at chunk size 30
(how much is shared depends on the grid), three runs of `cn.sweep(..., token_counter=...)`,
one worker, in one process:
  cached      token_counter="cl100k_base" as shipped (counts kept by each input's SHA-256 for the sweep)
  uncached    the same with that cache turned off: every chunk of every setting counted (the baseline)
  trivial     token_counter=len, the floor: chunking and the sweep's other figures without a tokenizer
It prints wall seconds and cached / uncached; the token columns of cached and uncached must be equal.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import pandas as pd
from bench_frames import default_folder

from clanka_nb import sweep
from clanka_nb.sweeps import table

os.environ.setdefault("CLANKA_NB_CACHE", "off")  # parse every run alike (bench_cache.py measures the cache)


def timed(root: Path, grid: dict[str, list[int]], counter: object) -> tuple[float, pd.DataFrame]:
    started = time.perf_counter()
    frame = sweep(root, **grid, token_counter=counter, workers=1, progress=False)
    return time.perf_counter() - started, frame


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", nargs="?", help="a folder of source code (default: largest benchmarks/.data package)")
    ap.add_argument("--settings", type=int, default=5, help="how many chunk sizes (default 5)")
    args = ap.parse_args()
    root = Path(args.folder) if args.folder else default_folder()
    if root is None or not root.is_dir():
        raise SystemExit(f"no folder to measure ({root}): pass one")
    grids = {
        "chunk sizes": {"chunk_size": [10 + 10 * i for i in range(args.settings)], "chunk_overlap": [0]},
        "overlaps": {"chunk_size": [30], "chunk_overlap": [2 * i for i in range(args.settings)]},
    }
    print(f"{root}: {args.settings} settings per grid, cl100k_base, 1 worker")
    for label, grid in grids.items():
        cached_s, cached = timed(root, grid, "cl100k_base")
        remembering = table.remembering
        table.remembering = lambda counter: counter  # the baseline: no cache, every input counted
        try:
            uncached_s, uncached = timed(root, grid, "cl100k_base")
        finally:
            table.remembering = remembering
        trivial_s, _ = timed(root, grid, len)
        columns = ["tokens_mean", "tokens_p95", "tokens_total"]
        pd.testing.assert_frame_equal(cached[columns], uncached[columns])
        print(f"{label:<12} {grid}: uncached {uncached_s:.1f} s, cached {cached_s:.1f} s "
              f"({cached_s / uncached_s:.2f}x), trivial counter {trivial_s:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
