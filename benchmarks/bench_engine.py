"""Engine speed as ratios measured in one process, against the bare floor: read + one parse per file.

Usage: python benchmarks/bench_engine.py FOLDER [--rounds N]

FOLDER is a codebase on disk; the script never downloads. The issue's corpus is three.js, rxjs and
@types/node side by side (1,365 files, 14.7 MB):

    mkdir corpus && cd corpus && npm pack three@0.170.0 rxjs@7.8.2 @types/node@22.10.0
    for f in *.tgz; do mkdir "${f%.tgz}" && tar xzf "$f" -C "${f%.tgz}" && rm "$f"; done

The bare floor reads each listed file, decodes it, and parses the ones the engine parses (a JS/TS
grammar, not empty, not minified) once, as read, with one reused tree-sitter parser per grammar (the
language pack's, as the peers in bench_peers.py use): the physical limit of any tree-sitter chunker, the
same floor for every entry. Parsing as the engine must (UTF-16, the reference's grammar versions) is a
second, labelled line. The parse cache stays off (bench_cache.py measures it).

Each round runs every entry once, in an order that turns by one each round, so a busy spell on a
shared machine hits all of them alike; each ratio is taken within a round, and the median over the
rounds is printed with its spread. A last line measures the 1-worker ratio again with the engine's per-file
path and the floor alternating file by file (`file_by_file`): on a shared machine, whose speed drifts
within a round, the steadier figure (it leaves out the listing, about 15 ms here). `--instructions`
counts the instructions of the floor and of the 1-worker run instead, under valgrind: minutes, but the
same count on a busy machine as on a quiet one. Targets (issue 29):
  chunk_codebase, 1 worker   / bare floor       <= 1.10x
  chunk_codebase, 2 workers  / 1 worker         <= 0.65x
  Codebase.chunks at new settings / bare floor  <= 0.15x
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable
from pathlib import Path

from clanka_nb import engine
from clanka_nb.engine._codebase import _local as one_file
from clanka_nb.engine._declarations import GRAMMARS, parse_like_reference, parser_for
from clanka_nb.engine._files import extension
from clanka_nb.engine.settings import ChunkSettings

# These figures measure parsing: the persistent parse cache stays off (bench_cache.py measures it).
os.environ["CLANKA_NB_CACHE"] = "off"

# Where bench_widgets.py and bench_latency.py keep the packages they fetch on request (this script does not).
DATA = Path(__file__).parent / ".data"
PACKAGES = {"three": "three@0.170.0", "rxjs": "rxjs@7.8.1", "effect": "effect@3.10.0"}


def fetch(name: str) -> Path:
    """Download an npm package tarball with `npm pack` and unpack it (for the benchmarks that offer --fetch)."""
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


def floor(root: Path, files: list[str]) -> None:
    """The bare floor: read and decode every listed file, parse the ones the engine parses, once, as read."""
    for rel in files:
        data = (root / rel).read_bytes()
        text = data.decode("utf-8-sig", errors="replace")
        grammar = GRAMMARS.get(extension(rel))
        if grammar and text.strip() and not engine.is_probably_minified(text):
            parser_for(grammar).parse(data)


def floor_as_engine(root: Path, files: list[str]) -> None:
    """The same, parsed as the engine must: as UTF-16, with the reference's grammar versions."""
    for rel in files:
        text = (root / rel).read_bytes().decode("utf-8-sig", errors="replace")
        grammar = GRAMMARS.get(extension(rel))
        if grammar and text.strip() and not engine.is_probably_minified(text):
            parse_like_reference(grammar, text)


def file_by_file(root: Path, files: list[str], count: int) -> list[float]:
    """Per round: the engine's own per-file path (read, parse, chunk: what `chunk_codebase(workers=1)` runs for
    each file) over the bare floor's, the two alternating file by file and taking turns to go first, so a
    busy spell on a shared machine, and the file's bytes warm in the CPU's caches, fall on both alike."""
    settings = ChunkSettings.build()
    out = []
    for _ in range(count):
        spent = {"floor": 0.0, "engine": 0.0}
        for index, rel in enumerate(files):
            order = ("floor", "engine") if index % 2 else ("engine", "floor")
            for name in order:
                start = time.perf_counter()
                if name == "floor":
                    floor(root, [rel])
                else:
                    one_file(root, rel, "clanka", settings)
                spent[name] += time.perf_counter() - start
        out.append(spent["engine"] / spent["floor"])
    return out


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended (the worker processes)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def rounds(count: int, runs: dict[str, Callable[[], object]]) -> tuple[list[dict[str, float]], list[dict[str, float]]]:
    """`count` rounds of every run once, the starting run turning by one each round: wall and CPU seconds."""
    names = list(runs)
    walls, cpus = [], []
    for index in range(count):
        turn = index % len(names)
        wall, cpu = {}, {}
        for name in names[turn:] + names[:turn]:
            start, used = time.perf_counter(), _cpu()
            runs[name]()
            wall[name], cpu[name] = time.perf_counter() - start, _cpu() - used
        walls.append(wall)
        cpus.append(cpu)
    return walls, cpus


def ratio(times: list[dict[str, float]], top: str, bottom: str) -> str:
    """The median of `top / bottom` over the rounds, with the lowest and highest."""
    values = sorted(t[top] / t[bottom] for t in times)
    return f"{statistics.median(values):.2f}x ({values[0]:.2f}-{values[-1]:.2f})"


# One entry of the instruction count, in its own process: the imports and grammars first, then (unless "base")
# the entry once. The base run's count is taken off the others, which leaves the entry's own instructions.
_COUNTED = """
import os, sys
os.environ["CLANKA_NB_CACHE"] = "off"
sys.path.insert(0, sys.argv[3])
from pathlib import Path
from bench_engine import GRAMMARS, engine, floor, parse_like_reference, parser_for
root, entry = Path(sys.argv[1]), sys.argv[2]
files = engine.list_files(root)
for grammar in set(GRAMMARS.values()):
    parser_for(grammar), parse_like_reference(grammar, "let a = 1")
if entry == "floor":
    floor(root, files)
elif entry == "one":
    list(engine.chunk_codebase(root, workers=1))
"""


def instructions(root: Path) -> None:
    """The 1-worker ratio in instructions executed, counted by valgrind's callgrind: the same count whatever
    else the machine is doing (it leaves out the kernel's time and the memory's: not a time)."""
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (Debian: apt-get install valgrind)")
    here = str(Path(__file__).parent)
    counts = {}
    for entry in ("base", "floor", "one"):
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", _COUNTED,
             str(root), entry, here],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        counts[entry] = int(re.findall(r"Collected : (\d+)", run.stderr)[-1])
        print(f"  {entry:<6} {counts[entry]:>16,} instructions", flush=True)
    floor_count, one_count = counts["floor"] - counts["base"], counts["one"] - counts["base"]
    print(f"chunk_codebase, 1 worker / bare floor, in instructions: {one_count / floor_count:.3f}x "
          f"({one_count:,} / {floor_count:,})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", help="codebase to chunk (see the module docstring for the issue's corpus)")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    ap.add_argument("--instructions", action="store_true", help="count instructions under valgrind instead (minutes)")
    args = ap.parse_args()
    root = Path(args.folder)
    if not root.is_dir():
        raise SystemExit(f"{root} is missing: pass a folder holding a codebase (nothing is downloaded)")
    if args.rounds < 1:
        raise SystemExit("--rounds must be at least 1")
    if args.instructions:
        instructions(root)
        return

    files = engine.list_files(root)
    parsed = sum(1 for f in files if extension(f) in GRAMMARS)
    size = sum((root / f).stat().st_size for f in files)
    print(f"{root}: {len(files):,} files listed ({size / 1e6:.1f} MB), {parsed:,} with a grammar; "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    codebase = engine.Codebase(root, workers=1)
    resettle = lambda: codebase.chunks(chunk_size=17, chunk_overlap=4, chunk_max_characters=1500)  # noqa: E731
    times, cpus = rounds(args.rounds, {
        "floor": lambda: floor(root, files),
        "as engine": lambda: floor_as_engine(root, files),
        "one": lambda: list(engine.chunk_codebase(root, workers=1)),
        "two": lambda: list(engine.chunk_codebase(root, workers=2)),
        "rechunk": resettle,
    })  # fmt: skip
    chunks = len(codebase.chunks())
    median = {name: statistics.median(t[name] for t in times) for name in times[0]}
    rows = [
        ("bare floor: read + one parse per file", "floor", "floor", ""),
        ("  read + parse as the engine parses", "as engine", "floor", "reported"),
        ("chunk_codebase, 1 worker", "one", "floor", "<= 1.10x"),
        ("chunk_codebase, 2 workers", "two", "one", "<= 0.65x"),
        ("Codebase.chunks, new settings", "rechunk", "floor", "<= 0.15x"),
    ]
    print(f"{chunks:,} chunks; {args.rounds} interleaved rounds: median ratio (lowest-highest) of wall-clock time, and")
    print("of CPU time (all processes; on a busy machine the steadier figure, but it cannot show what workers save)")
    print(f"  {'':<40} {'wall':>9}  {'wall ratio':<32} {'CPU ratio':<23} target")
    for label, name, base, target in rows:
        against = "" if name == base else f"/ {'1 worker' if base == 'one' else 'floor'}"
        wall = "1.00x" if name == base else f"{ratio(times, name, base)} {against}"
        cpu = "1.00x" if name == base else f"{ratio(cpus, name, base)}"
        print(f"  {label:<40} {median[name]:7.3f} s  {wall:<32} {cpu:<23} {target}")
    per_file = sorted(file_by_file(root, files, args.rounds))
    print(f"  {'the same, file by file (see file_by_file)':<40} {'':>9}  "
          f"{statistics.median(per_file):.2f}x ({per_file[0]:.2f}-{per_file[-1]:.2f}) / floor, interleaved per file")
    print(f"load at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
