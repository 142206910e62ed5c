"""Where worker processes start to pay off: `Codebase(workers=2)` / `workers=1` by number of files (cache off).

Prints, for each count of real JS/TS files (the conformance set's), the time with two worker processes
forced (the threshold set to 0) over the time in this process, best of three. The engine's
`MIN_FILES_FOR_PROCESSES` should sit where the ratio drops below 1.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import tempfile
import time
from pathlib import Path

from clanka_nb.engine import Codebase, _codebase

CASES = Path(__file__).resolve().parents[1] / ".." / "shared" / "conformance" / "real_files.jsonl.gz"


def _write(folder: Path, count: int) -> list[str]:
    names = []
    with gzip.open(CASES, "rt") as lines:
        for line in lines:
            record = json.loads(line)
            if not record["is_meaningful_file"] or record["is_probably_minified"]:
                continue
            name = f"f{len(names):04d}{Path(record['path']).suffix}"
            (folder / name).write_text(record["content"], encoding="utf-8")
            names.append(name)
            if len(names) == count:
                break
    return names


def _best(root: Path, names: list[str], workers: int, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        Codebase(root, paths=names, workers=workers, cache=False)
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--counts", default="4,8,16,32,64,128")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    os.environ["CLANKA_NB_CACHE"] = "off"
    _codebase.MIN_FILES_FOR_PROCESSES = 0  # measure the pool even where the engine would not start one
    counts = [int(c) for c in args.counts.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        names = _write(root, max(counts))
        print(f"cores: {os.cpu_count()}, load: {os.getloadavg()[0]:.1f}")
        for count in counts:
            one = _best(root, names[:count], 1, args.rounds)
            two = _best(root, names[:count], 2, args.rounds)
            print(f"{count:5d} files: 1 worker {one * 1000:7.1f} ms, 2 workers {two * 1000:7.1f} ms, "
                  f"ratio {two / one:.2f}x")


if __name__ == "__main__":
    main()
