"""Engine speed as ratios measured in one process: chunking against the read + parse floor.

Usage: python benchmarks/bench_engine.py [FOLDER] [--fetch] [--repeat N]

FOLDER defaults to the npm package of three.js in benchmarks/.data (fetched with `npm pack`
when --fetch is given). The floor reads the files and parses them as UTF-8 with the language
pack's grammars, as the engine did before it parsed as the reference does (UTF-16, the
reference's grammar versions); that parse is timed too, to show what fidelity costs.
Targets from the engine issue:
  chunk_codebase, 1 worker        <= 1.25x read + parse of the same files (the floor)
                                  <= 1.10x read + parse the way it parses (UTF-16, reference grammars)
  chunk_codebase, 2 workers       <= 0.75x of 1 worker
  Codebase.chunks, new settings   <= 0.15x read + parse
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tarfile
import time
from collections.abc import Callable
from pathlib import Path

from clanka_nb import engine
from clanka_nb.engine._declarations import GRAMMARS, parse_like_reference, parser_for
from clanka_nb.engine._files import extension

# These figures measure parsing: the persistent parse cache stays off (bench_cache.py measures it).
os.environ.setdefault("CLANKA_NB_CACHE", "off")

DATA = Path(__file__).parent / ".data"
PACKAGES = {"three": "three@0.170.0", "rxjs": "rxjs@7.8.1", "effect": "effect@3.10.0"}


def fetch(name: str) -> Path:
    """Download an npm package tarball with `npm pack` (a registry the machine reaches) and unpack it."""
    spec = PACKAGES[name]
    target = DATA / spec.lstrip("@").replace("/", "-").replace("@", "-")
    if not target.is_dir():
        DATA.mkdir(parents=True, exist_ok=True)
        tarball = subprocess.run(
            ["npm", "pack", spec, "--silent"], cwd=DATA, check=True, capture_output=True, text=True
        ).stdout.strip().splitlines()[-1]
        with tarfile.open(DATA / tarball) as archive:
            archive.extractall(target, filter="data")
    # The tarball's one top folder: "package" for most, the package's name for @types ones.
    return next(p for p in target.iterdir() if p.is_dir())


def best_of(repeat: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def best_of_interleaved(repeat: int, runs: dict[str, Callable[[], object]]) -> dict[str, float]:
    """Best time of each run, taking turns, so a busy spell on a shared machine hits all of them alike."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    return {name: min(values) for name, values in times.items()}


def floor(root: Path, files: list[str], like_reference: bool = False) -> None:
    """Read and decode every listed file, and parse the ones the engine parses.

    As UTF-8 with the language pack (the floor), or `like_reference`: as the engine parses now.
    """
    for rel in files:
        content = (root / rel).read_bytes().decode("utf-8-sig", errors="replace")
        grammar = GRAMMARS.get(extension(rel))
        if grammar and content.strip() and not engine.is_probably_minified(content):
            if like_reference:
                parse_like_reference(grammar, content)
            else:
                parser_for(grammar).parse(content.encode("utf-8", "surrogatepass"))


def parse_cost(root: Path, files: list[str], repeat: int) -> float:
    """Parsing as the reference does / the floor's UTF-8 parse, file by file in turns (robust to load)."""
    texts = []
    for rel in files:
        content = (root / rel).read_bytes().decode("utf-8-sig", errors="replace")
        grammar = GRAMMARS.get(extension(rel))
        if grammar and content.strip() and not engine.is_probably_minified(content):
            texts.append((grammar, content))
    pack = reference = 0.0
    for _ in range(repeat):
        for grammar, content in texts:
            start = time.perf_counter()
            parser_for(grammar).parse(content.encode("utf-8", "surrogatepass"))
            middle = time.perf_counter()
            parse_like_reference(grammar, content)
            pack, reference = pack + middle - start, reference + time.perf_counter() - middle
    return reference / pack


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", help="codebase to chunk (default: three.js from benchmarks/.data)")
    ap.add_argument("--fetch", action="store_true", help="npm pack the default package if missing")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    root = Path(args.folder) if args.folder else (fetch("three") if args.fetch else DATA / "three-0.170.0/package")
    if not root.is_dir():
        raise SystemExit(f"{root} is missing: pass a folder, or --fetch to download three.js with npm pack")

    files = engine.list_files(root)
    parsed = sum(1 for f in files if extension(f) in GRAMMARS)
    print(f"{root}: {len(files)} files listed, {parsed} with a grammar, {os.cpu_count()} cores")
    r = args.repeat
    best = best_of_interleaved(r, {
        "floor": lambda: floor(root, files),
        "reference": lambda: floor(root, files, like_reference=True),
        "one": lambda: list(engine.chunk_codebase(root, workers=1)),
        "two": lambda: list(engine.chunk_codebase(root, workers=2)),
    })
    t_floor, t_reference, t_one, t_two = best["floor"], best["reference"], best["one"], best["two"]
    codebase = engine.Codebase(root)
    codebase.chunks()
    parse_ratio = parse_cost(root, files, r)
    t_rechunk = best_of(r, lambda: codebase.chunks(chunk_size=17, chunk_overlap=4, chunk_max_characters=1500))
    chunks = len(codebase.chunks())

    rows = [
        ("read + parse (floor)", t_floor, "1.00x floor", ""),
        ("read + parse as the reference", t_reference, f"{t_reference / t_floor:.2f}x floor", "reported"),
        ("  parse alone, file by file", None, f"{parse_ratio:.2f}x UTF-8 parse", "reported"),
        ("chunk_codebase, 1 worker", t_one, f"{t_one / t_floor:.2f}x floor", "<= 1.25x"),
        ("  against parsing as it does", None, f"{t_one / t_reference:.2f}x as reference", "<= 1.10x"),
        ("chunk_codebase, 2 workers", t_two, f"{t_two / t_one:.2f}x 1 worker", "<= 0.75x"),
        ("Codebase.chunks, new settings", t_rechunk, f"{t_rechunk / t_floor:.2f}x floor", "<= 0.15x"),
    ]
    print(f"{chunks} chunks; best of {r} runs")
    for label, seconds, ratio, target in rows:
        shown = "" if seconds is None else f"{seconds:7.3f} s"
        print(f"  {label:<32} {shown:>9}  {ratio:<16} {target}")


if __name__ == "__main__":
    main()
