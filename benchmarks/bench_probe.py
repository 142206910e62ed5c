"""Retrieval probe speed: a 20-setting BM25 probe of a ~1,000-file codebase, parsed once (target: under 60 s).

Usage: python benchmarks/bench_probe.py [FOLDER] [--languages clanka|extended] [--workers N]

FOLDER defaults to the npm package of three.js in benchmarks/.data (1,044 files; fetch it with
`python benchmarks/bench_engine.py --fetch`). Prints the seconds of each step, the total, the
number of queries, and recall@5 / mrr / precision per setting.
"""

from __future__ import annotations

import argparse
import itertools
import os
import time
from pathlib import Path

from clanka_nb import engine
from clanka_nb.retrieval import Probe
from clanka_nb.retrieval.scoring._probe import ProbeSet, probe_columns
from clanka_nb.retrieval.search._search import BM25Searcher

# These figures measure parsing: the persistent parse cache stays off (bench_cache.py measures it).
os.environ.setdefault("CLANKA_NB_CACHE", "off")

DATA = Path(__file__).parent / ".data"
TARGET_SECONDS = 60.0
# 5 sizes x 2 overlaps x 2 character limits = 20 settings.
SETTINGS = list(itertools.product((10, 20, 30, 40, 60), (0, 5), (None, 2000)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", help="codebase to probe (default: three.js from benchmarks/.data)")
    ap.add_argument("--languages", default="clanka", choices=engine.LANGUAGE_MODES)
    ap.add_argument("--workers", type=int, default=None, help="processes for parsing (default: one per core)")
    args = ap.parse_args()
    root = Path(args.folder) if args.folder else DATA / "three-0.170.0/package"
    if not root.is_dir():
        raise SystemExit(f"{root} is missing: pass a folder, or run benchmarks/bench_engine.py --fetch")

    started = time.perf_counter()
    codebase = engine.Codebase(root, workers=args.workers, languages=args.languages)
    parsed = time.perf_counter()
    prepared = ProbeSet(codebase)
    prepared_at = time.perf_counter()
    options = Probe(searcher=BM25Searcher())
    rows = []
    for size, overlap, limit in SETTINGS:
        before = time.perf_counter()
        columns = probe_columns(prepared, engine.ChunkSettings.build(size, overlap, limit), options)
        rows.append((size, overlap, limit, columns, time.perf_counter() - before))
    total = time.perf_counter() - started

    print(f"{root}: {len(codebase.files)} files, {len(prepared.queries)} queries, languages={args.languages}")
    print(f"{'size':>5} {'overlap':>7} {'max chars':>9} {'recall@5':>8} {'mrr':>6} {'precision':>9} {'seconds':>7}")
    for size, overlap, limit, columns, seconds in rows:
        limit_text = "-" if limit is None else str(limit)
        print(
            f"{size:>5} {overlap:>7} {limit_text:>9} {columns['recall@5']:>8.3f} {columns['mrr']:>6.3f} "
            f"{columns['precision']:>9.3f} {seconds:>7.2f}"
        )
    probing = total - (parsed - started)
    print(f"parse {parsed - started:.2f} s, queries + masks {prepared_at - parsed:.2f} s, "
          f"{len(SETTINGS)} settings {time.perf_counter() - prepared_at:.2f} s (first one tokenizes every line)")
    verdict = "ok" if total < TARGET_SECONDS else "TOO SLOW"
    print(f"total {total:.1f} s (probe without parsing {probing:.1f} s); target < {TARGET_SECONDS:.0f} s: {verdict}")


if __name__ == "__main__":
    main()
