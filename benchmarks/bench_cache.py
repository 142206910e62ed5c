"""The persistent parse cache: reopening a checkout against parsing it cold, each run a fresh process.

Usage: python benchmarks/bench_cache.py [FOLDER] [--fetch] [--repeat N]

FOLDER defaults to three.js, rxjs and @types/node from npm (`npm pack`, with --fetch) copied side by
side into benchmarks/.data/cache-checkout. Every figure is `Codebase(root)` then `.chunks()`, timed
inside a new Python process (so nothing is warm in memory), best of N. Targets from the issue:
  reopen, nothing changed           <= 0.20x cold without the cache
  reopen after editing one file     <= 0.25x cold without the cache
  cold, filling the cache           <= 1.10x cold without the cache
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_engine import DATA, PACKAGES, fetch

PACKAGES["types-node"] = "@types/node@22.9.0"
CHECKOUT = DATA / "cache-checkout"

RUN = """
import sys, time
from clanka_nb import engine
root, folder = sys.argv[1], sys.argv[2]
cache = engine.ParseCache(folder) if folder != "-" else False
start = time.perf_counter()
chunks = engine.Codebase(root, cache=cache).chunks()
print(time.perf_counter() - start, len(chunks))
"""


def checkout(do_fetch: bool) -> Path:
    if CHECKOUT.is_dir():
        return CHECKOUT
    if not do_fetch:
        raise SystemExit(f"{CHECKOUT} is missing: pass a folder, or --fetch to download the packages with npm pack")
    for name in ("three", "rxjs", "types-node"):
        shutil.copytree(fetch(name), CHECKOUT / name)
    return CHECKOUT


def timed(root: Path, folder: str) -> tuple[float, int]:
    out = subprocess.run([sys.executable, "-c", RUN, str(root), folder], check=True, capture_output=True, text=True)
    seconds, chunks = out.stdout.split()
    return float(seconds), int(chunks)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", help="codebase to open (default: three.js + rxjs + @types/node)")
    ap.add_argument("--fetch", action="store_true", help="npm pack the default packages if missing")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    root = Path(args.folder) if args.folder else checkout(args.fetch)
    edited = next(p for p in sorted(root.rglob("*.ts")) if p.is_file())
    original = edited.read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        folder = str(Path(tmp) / "cache")
        cold, filling, warm, after_edit = [], [], [], []
        counts = set()
        try:
            for i in range(args.repeat):
                seconds, n = timed(root, "-")
                cold.append(seconds)
                shutil.rmtree(folder, ignore_errors=True)
                filling.append(timed(root, folder)[0])
                seconds, m = timed(root, folder)
                warm.append(seconds)
                counts |= {n, m}
                # A new edit each round, so the edited text is never in the cache already.
                edited.write_bytes(original + f"\n// edit {i}\n".encode())
                after_edit.append(timed(root, folder)[0])
                edited.write_bytes(original)
        finally:
            edited.write_bytes(original)
    assert len(counts) == 1, f"chunk counts differ with and without the cache: {counts}"
    base = min(cold)
    print(f"{root}: {counts.pop():,} chunks; cold without the cache {base:.2f} s (best of {args.repeat})")
    rows = [
        ("reopen, nothing changed", min(warm), 0.20),
        (f"reopen after editing {edited.relative_to(root)}", min(after_edit), 0.25),
        ("cold, filling the cache", min(filling), 1.10),
    ]
    for label, seconds, target in rows:
        ratio = seconds / base
        verdict = "ok" if ratio <= target else "OVER TARGET"
        print(f"  {label:<60} {seconds:6.2f} s  {ratio:5.2f}x  (target <= {target:.2f}x) {verdict}")


if __name__ == "__main__":
    main()
