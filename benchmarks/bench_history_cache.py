"""A probed sweep of a git clone with its history read, and the same sweep again (the history's queries kept).

Usage: python benchmarks/bench_history_cache.py CLONE [--languages extended] [--runs 2]

Each sweep runs in a fresh process (chunk sizes 20 and 40, `probe=True`) with a temporary cache folder whose parse
cache was filled first, so both sides parse from the cache and differ only in the history: "cold" has no
history cache file, "warm" finds the first run's entry. Printed per run: the seconds of the whole call,
`attrs["parse_seconds"]` and `attrs["queries_seconds"]`, and the ratio warm / cold of the medians. Target: the
warm sweep's queries_seconds well under the cold one's (on httpx 0.5-0.8 s against 5.1-5.6 s).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RUN = """
import json, sys, time, warnings
warnings.simplefilter("ignore")
import clanka_nb as cn
started = time.perf_counter()
frame = cn.sweep(sys.argv[1], chunk_size=[20, 40], languages=sys.argv[2], probe=True, progress=False)
print(json.dumps({"total": time.perf_counter() - started, "parse": frame.attrs["parse_seconds"],
                  "queries": frame.attrs["queries_seconds"], "history": frame.attrs["query_sources"].get("history")}))
"""


def _sweep(clone: str, languages: str, cache: Path) -> dict[str, float]:
    env = {**os.environ, "CLANKA_NB_CACHE_DIR": str(cache), "PYTHONPATH": str(REPO)}
    env.pop("CLANKA_NB_CACHE", None)
    done = subprocess.run([sys.executable, "-c", RUN, clone, languages], env=env, capture_output=True, text=True,
                          check=True, timeout=900)  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("clone", help="a folder at the top of a git clone")
    parser.add_argument("--languages", default="extended")
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    if not (Path(args.clone) / ".git").exists():
        parser.error(f"{args.clone!r} is not the top of a git clone; pass one, e.g. a clone of encode/httpx")
    with tempfile.TemporaryDirectory(prefix="bench-history-cache-") as folder:
        cache = Path(folder)
        history = cache / "history-cache.sqlite3"
        _sweep(args.clone, args.languages, cache)  # fills the parse cache
        cold, warm = [], []
        for _ in range(args.runs):
            for path in cache.glob(history.name + "*"):
                path.unlink()
            cold.append(_sweep(args.clone, args.languages, cache))
            warm.append(_sweep(args.clone, args.languages, cache))
    for name, runs in (("cold", cold), ("warm", warm)):
        for run in runs:
            print(f"{name}: {run['total']:.2f} s, parse_seconds {run['parse']:.2f}, queries_seconds "
                  f"{run['queries']:.2f}, {run['history']} history queries")  # fmt: skip
    for key in ("total", "queries"):
        before, after = statistics.median(r[key] for r in cold), statistics.median(r[key] for r in warm)
        print(f"{key}: warm / cold = {after:.2f} / {before:.2f} s = x{after / before:.3f}")
    print(f"load average: {os.getloadavg()[0]:.1f} (the machine may be shared)")


if __name__ == "__main__":
    main()
