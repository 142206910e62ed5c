"""clanka-nb against the code chunkers people pick instead, on the same files in one run, as ratios to read + parse.

Usage: python benchmarks/bench_peers.py FOLDER [--rounds N] [--size N]

FOLDER is a codebase on disk (the issue's corpus: see bench_engine.py); nothing is downloaded.

The peers come from the `bench` extra (`pip install -e ".[bench]"`); one that is not installed is
reported as such and skipped. The files are the listed files with a JavaScript or TypeScript
grammar, and every chunker gets exactly those. Each peer is set up so that nothing can download at
run time: character counts, not a tokenizer from a hub, and the grammars bundled in
tree-sitter-language-pack. The run also refuses every network connection from Python (an audit
hook) and says whether anything tried.

Every time is divided by the bare floor measured in the same round, the same for every entry: reading
every file and parsing the ones the engine parses once, as read, with one reused tree-sitter parser per
grammar (bench_engine.floor). The tree-sitter peers also parse the few files the engine leaves out as
empty or minified (the script prints how many), so their own floor is at most that little higher.
LangChain's splitter parses nothing (it splits on regular expressions), so its ratio is against a floor
it does not pay. Each round runs every entry once, starting one entry later than the round before, so
that a busy spell on the machine or a garbage collection left by the previous entry does not always
land on the same one; the median ratio over the rounds is printed with its spread.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench_engine import floor

from clanka_nb import chunkers, engine
from clanka_nb.engine._declarations import GRAMMARS
from clanka_nb.engine._files import extension

# chunk(path, text) -> the chunks' texts (the adapters pick the grammar from the path's extension).
Chunk = Callable[[str, str], list[str]]

NETWORK_ATTEMPTS: list[str] = []
FLOOR = "bare floor: read + one parse per file"
LONG = 60.0  # seconds: an entry slower than this in one run is not repeated


def refuse_network(event: str, args: tuple[object, ...]) -> None:
    """An audit hook: record and refuse any connection or name look-up made from Python."""
    if event in ("socket.connect", "socket.getaddrinfo", "urllib.Request"):
        NETWORK_ATTEMPTS.append(f"{event} {args[:2]!r}")
        msg = f"bench_peers refuses network access at run time ({event}); a peer tried to download something"
        raise ConnectionRefusedError(msg)


# label, distribution to report the version of, the adapter's name in clanka_nb.chunkers.PEERS
PEERS: list[tuple[str, str, str]] = [
    ("langchain-text-splitters (from_language)", "langchain-text-splitters", "langchain"),
    ("semantic-text-splitter CodeSplitter", "semantic-text-splitter", "semantic_text_splitter"),
    ("llama-index-core CodeSplitter", "llama-index-core", "llama_index"),
    ("chonkie CodeChunker", "chonkie", "chonkie"),
    ("astchunk ASTChunkBuilder", "astchunk", "astchunk"),
]


def peer(name: str, size: int, ratio: float) -> Chunk:
    """The peer's adapter of clanka_nb.chunkers (configured there, so nothing downloads), as chunk texts."""
    adapter = chunkers.PEERS[name](chunkers.Budget(size, characters_per_non_whitespace=ratio))
    return lambda path, text: adapter.texts(path, text) or []


def run_peer(chunk: Chunk, root: Path, files: list[str], sizes: list[int]) -> None:
    """Read every file and chunk it; `sizes` receives each chunk's length in characters."""
    for rel in files:
        text = (root / rel).read_bytes().decode("utf-8", errors="replace")
        sizes.extend(len(piece) for piece in chunk(rel, text))


def run_clanka(root: Path, files: list[str], cache: bool | engine.ParseCache, sizes: list[int]) -> None:
    sizes.extend(len(c.content) for c in engine.chunk_files(root, files, workers=1, cache=cache))


def _spread(values: list[float]) -> str:
    ordered = sorted(values)
    return f"{statistics.median(ordered):.2f}x ({ordered[0]:.2f}-{ordered[-1]:.2f})"


def version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog='The peers come from the bench extra: pip install -e ".[bench]" (more in the module docstring).',
    )
    ap.add_argument("folder", help="codebase to chunk (the issue's corpus: see bench_engine.py); nothing is downloaded")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    ap.add_argument("--size", type=int, default=1500, help="the peers' chunk size in characters (default 1500)")
    args = ap.parse_args()
    if args.rounds < 1 or args.size < 1:
        raise SystemExit("--rounds and --size must be at least 1")
    root = Path(args.folder)
    if not root.is_dir():
        raise SystemExit(f"{root} is missing: pass a folder holding a codebase (nothing is downloaded)")

    sys.addaudithook(refuse_network)  # from here on, nothing may touch the network
    listed = engine.list_files(root)
    files = [f for f in listed if extension(f) in GRAMMARS]
    texts = {f: (root / f).read_bytes().decode("utf-8-sig", errors="replace") for f in files}
    skipped = sum(1 for text in texts.values() if not text.strip() or engine.is_probably_minified(text))  # as floor()
    # astchunk counts non-whitespace characters: its size is the same budget at these files' own ratio.
    spaced = any(not text.isspace() for text in texts.values() if text)
    ratio = chunkers.Budget(args.size).measured_on(texts).characters_per_non_whitespace if spaced else 1.0
    print(f"{root}: {len(listed)} files listed, {len(files)} with a JS/TS grammar (the files every chunker gets)")
    print(f"{skipped} of them empty or minified: the engine does not parse them, the tree-sitter peers do")
    load = os.getloadavg()[0]
    print(f"{os.cpu_count()} cores, load {load:.1f}; {args.rounds} interleaved rounds; one worker throughout")
    print(f"clanka-nb at its defaults (30-line windows, declarations); peers at {args.size} characters, no overlap")
    print(f"astchunk at {args.size / ratio:.0f} non-whitespace characters (these files: {ratio:.2f} characters each)")

    sizes: dict[str, list[int]] = {}
    # label -> (version, run, note); None for run when the peer is not installed
    entries: dict[str, tuple[str, Callable[[list[int]], None] | None, str]] = {
        FLOOR: ("", lambda out: floor(root, files), "read + one parse per file, reused parser"),
    }
    cold = lambda out: run_clanka(root, files, False, out)  # noqa: E731
    entries["clanka-nb, cache=False"] = ("checkout", cold, "")
    folder = tempfile.TemporaryDirectory()
    cache = engine.ParseCache(folder.name)
    run_clanka(root, files, cache, [])  # fills the cache
    warm = lambda out: run_clanka(root, files, cache, out)  # noqa: E731
    entries["clanka-nb, warm parse cache"] = ("checkout", warm, "")
    for label, distribution, name in PEERS:
        installed = version(distribution)
        if installed is None:
            entries[label] = ("-", None, 'not installed: pip install -e ".[bench]"')
            continue
        chunk = peer(name, args.size, ratio)
        note = "parses nothing: splits on regular expressions" if distribution == "langchain-text-splitters" else ""
        run = lambda out, chunk=chunk: run_peer(chunk, root, files, out)  # noqa: E731
        entries[label] = (installed, run, note)

    # Rounds interleave every entry so that a busy spell on the machine hits all of them alike.
    times: dict[str, list[float]] = {}
    ratios: dict[str, list[float]] = {}
    cpu_ratios: dict[str, list[float]] = {}
    labels = list(entries)
    for round_ in range(args.rounds):
        this: dict[str, float] = {}
        cpu: dict[str, float] = {}
        for label in labels[round_ % len(labels) :] + labels[: round_ % len(labels)]:
            run = entries[label][1]
            if run is None or min(times.get(label, [0.0])) > LONG:
                continue  # not installed, or one run already took minutes: its one run stands
            out: list[int] = []
            start, used = time.perf_counter(), time.process_time()
            run(out)
            this[label], cpu[label] = time.perf_counter() - start, time.process_time() - used
            sizes[label] = out
        for label, seconds in this.items():
            times.setdefault(label, []).append(seconds)
            ratios.setdefault(label, []).append(seconds / this[FLOOR])
            cpu_ratios.setdefault(label, []).append(cpu[label] / cpu[FLOOR])
    folder.cleanup()

    print("\nmedian over the rounds of each time / the bare floor's in the same round (lowest-highest), wall-clock")
    print("and CPU time (one process throughout: on a busy machine CPU is the steadier figure)")
    header = f"{'wall / floor':<20} {'CPU / floor':<20} {'chunks':>7}  {'mean chars':>10}"
    print(f"  {'chunker':<42} {'version':<9} {'time':>9}  {header}")
    for label, (installed, run, note) in entries.items():
        if run is None:
            print(f"  {label:<42} {installed:<9} {note}")
            continue
        seconds, lengths = statistics.median(times[label]), sizes[label]
        shown = [_spread(ratios[label]), _spread(cpu_ratios[label])]
        mean = f"{len(lengths):7d}  {sum(lengths) / len(lengths):10.0f}" if lengths else f"{'':>7}  {'':>10}"
        if len(ratios[label]) < args.rounds:
            note = "; ".join(filter(None, [note, f"over {LONG:.0f} s, so run once"]))
        line = f"  {label:<42} {installed:<9} {seconds:7.3f} s  {shown[0]:<20} {shown[1]:<20} {mean}"
        print(line + (f"  ({note})" if note else ""))
    if NETWORK_ATTEMPTS:
        print("\nnetwork access was attempted and refused: " + "; ".join(NETWORK_ATTEMPTS))
    else:
        print("\nno network access was attempted from Python during the run")


if __name__ == "__main__":
    main()
