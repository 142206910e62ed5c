"""The semantic index's cost, each figure a ratio to a baseline measured in the same run.

Usage: python benchmarks/bench_index.py [FOLDER] [--fetch] [--repeat N] [--check]

FOLDER defaults to three.js 0.170.0 in benchmarks/.data (--fetch runs `npm pack three@0.170.0`
there first). Targets from the issue:
  SemanticIndex.sync() with a trivial embedder      <= 1.5x list(engine.chunk_codebase(...)) at the same settings
  search over 100,000 stored 256-dim vectors (KNN)  <  50 ms (and the numpy brute-force scan, for scale)
  a 20-setting sweep of indexes sharing one vector cache: inputs embedded, against 20 x chunks
Timings are the best of N runs (default 3) of CPU time of this process (one worker everywhere).
--check exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import itertools
import os
import subprocess
import tarfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from clanka_nb import engine
from clanka_nb.index import SemanticIndex, VectorCache
from clanka_nb.index import _db as db

# These figures measure chunking and parsing: the persistent parse cache stays off (bench_cache.py measures it).
os.environ.setdefault("CLANKA_NB_CACHE", "off")

DATA = Path(__file__).parent / ".data"
SPEC = "three@0.170.0"
SWEEP = {"chunk_size": [10, 20, 30, 40, 60], "chunk_overlap": [0, 2, 5, 10]}  # 20 settings
MAX_CHARACTERS = 10_000  # clanka's default


def fetch() -> Path:
    target = DATA / SPEC.replace("@", "-")
    if not (target / "package").is_dir():
        DATA.mkdir(parents=True, exist_ok=True)
        out = subprocess.run(["npm", "pack", SPEC, "--silent"], cwd=DATA, check=True, capture_output=True, text=True)
        with tarfile.open(DATA / out.stdout.strip().splitlines()[-1]) as archive:
            archive.extractall(target, filter="data")
    return target / "package"


def trivial(texts: list[str]) -> np.ndarray:
    """A trivial embedder: what the index costs around the model, with the model's own time left out."""
    out = np.zeros((len(texts), 8), dtype=np.float32)
    out[:, 0] = [len(text) for text in texts]
    return out


trivial.model_id = "bench/trivial"  # type: ignore[attr-defined]


def best(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return min(times)


def sync_ratio(root: Path, repeat: int) -> tuple[float, float, int]:
    chunk = best(lambda: list(engine.chunk_codebase(root, chunk_max_characters=MAX_CHARACTERS, workers=1)), repeat)
    reports = []

    def sync() -> None:
        reports.append(SemanticIndex(root, embed=trivial, cache=VectorCache(), progress=False).sync())

    return best(sync, repeat), chunk, reports[-1].embedded


def search_ms(rows: int = 100_000, dimensions: int = 256, queries: int = 20) -> tuple[float, float]:
    rng = np.random.default_rng(0)
    vectors = rng.standard_normal((rows, dimensions), dtype=np.float32)
    connection = db.connect(":memory:")
    db.create_schema(connection, dimensions)
    with connection:
        connection.executemany(
            "INSERT INTO chunks (path, content, hash, vector, syncId) VALUES (?, ?, ?, ?, 's')",
            ((f"f{i}.ts", f"---\nfile: f{i}.ts\n---\n\n1: x", f"{i:064x}", vectors[i].tobytes()) for i in range(rows)),
        )
    asked = rng.standard_normal((queries, dimensions), dtype=np.float32)

    def knn() -> None:
        for q in asked:
            connection.execute(
                "select chunks.path, chunk_vectors.distance from chunk_vectors JOIN chunks ON chunks.id = "
                "chunk_vectors.rowid WHERE chunk_vectors.vector MATCH ? AND k = 10 ORDER BY chunk_vectors.distance",
                (q.tobytes(),),
            ).fetchall()

    def brute() -> None:
        for q in asked:
            np.argpartition(((vectors - q) ** 2).sum(axis=1), 10)[:10]

    knn_ms = best(knn, 3) / queries * 1000
    brute_ms = best(brute, 3) / queries * 1000
    return knn_ms, brute_ms


def sweep_counts(root: Path) -> tuple[int, int, int]:
    """(inputs embedded, chunks over all settings, distinct inputs) for 20 settings sharing one cache."""
    cache = VectorCache()
    embedded = chunks = 0
    for size, overlap in itertools.product(SWEEP["chunk_size"], SWEEP["chunk_overlap"]):
        report = SemanticIndex(root, embed=trivial, cache=cache, chunk_size=size, chunk_overlap=overlap,
                               progress=False).sync()
        embedded += report.embedded
        chunks += report.chunks
    return embedded, chunks, len(cache)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", nargs="?", help="codebase to index (default: three.js from benchmarks/.data)")
    ap.add_argument("--fetch", action="store_true", help=f"npm pack {SPEC} into benchmarks/.data first")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = ap.parse_args()
    root = Path(args.folder) if args.folder else (fetch() if args.fetch else DATA / "three-0.170.0/package")
    if not root.is_dir():
        raise SystemExit(f"{root} is missing: pass a folder, or --fetch to download three.js with npm pack")
    ok = True

    sync, chunk, embedded = sync_ratio(root, args.repeat)
    ratio = sync / chunk
    ok &= ratio <= 1.5
    print(f"sync ({embedded:,} inputs, trivial embedder): {sync:.2f} s; chunking alone {chunk:.2f} s; "
          f"ratio {ratio:.2f}x (target <= 1.5x)")

    knn_ms, brute_ms = search_ms()
    ok &= knn_ms < 50
    print(f"search, 100,000 x 256 dims, k=10: sqlite-vec KNN {knn_ms:.1f} ms per query (target < 50 ms); "
          f"numpy brute force {brute_ms:.1f} ms ({knn_ms / brute_ms:.2f}x)")

    embedded, chunks, distinct = sweep_counts(root)
    print(f"20-setting sweep: {embedded:,} inputs embedded for {chunks:,} chunks over all settings "
          f"({embedded / chunks:.2f} of 20 x chunks; {distinct:,} distinct vectors cached)")
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    raise SystemExit(main())
