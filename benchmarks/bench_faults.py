"""Faults of issues 42 and 50, each measured against its own baseline in one run.

Usage: python benchmarks/bench_faults.py [--files N] [--delay SECONDS] [--seconds SECONDS]

  bake-off     a sweep with every installed chunker (clanka, line windows and the peers of the `chunkers` extra)
               over N ordinary files (default 30, taken from this package's own source) and the same with one
               20 KB file of 10,000 nested brackets added: seconds of each, their ratio, and the rows.
               Target: under 30 s with a row per chunker (without the guards: RecursionError, or minutes).
  else-if      the command line's bake-off (`--chunkers` with every installed chunker, `--probe`) over a copy of the
               sample codebase, and the same with two 32 KB JavaScript files of 1,000 `else if` links each added (one
               bracket deep, a syntax tree about 2,000 levels deep): seconds of each, their ratio, the rows and the
               files each chunker could not cut. Target: under 30 s with a row per chunker (issue 50: 135 s against
               4 s, semantic-text-splitter in Rust for minutes). On the sample alone it also times the peers in this
               process (as before issue 50) against each in a process of its own: the cost of the isolation.
  ctrl-c       a child process embedding with 8 requests held open by a loopback server at the default timeout
               and retries; SIGINT once all 8 are in flight: seconds until the process is gone. Target: < 2 s.
  index        SemanticIndex.sync of clanka's own source (the git bundle of its history, HEAD) against a
               loopback server that answers each request after DELAY (default 0.1 s), batches of BATCH_SIZE
               inputs (default 32), with the embedder's concurrency=4 against concurrency=1, after one warm
               build (parse cache, imports): the ratio of their times. Target: at most 0.4x.
  linked       (issue 50) a clone whose `.clanka` links to another repository's `.clanka`, synced as
               `sync_indexes` syncs each repository (its task, in this process): seconds until it is refused,
               against the honest sync of the same clone, and whether the other index kept every byte.
  model switch (issue 50) clanka's own source indexed with one stand-in model, then with another of the same
               width: the rows holding the new model's vectors (target: all of them), the switch's seconds
               against the first build's, and a third sync (target: nothing embedded).
  planted      (issue 50) a built index given an index on an expression costing SECONDS per row (about 2 s
               here): seconds until `SemanticIndex(...).sync()` refuses it (target: under 1 s) against what
               inserting the new rows would cost through it.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import warnings
from pathlib import Path

import numpy as np

import clanka_nb as cn
from clanka_nb import chunkers
from clanka_nb.dask._indexes import IndexTask
from clanka_nb.dask._limit import EmbedLimit
from clanka_nb.defaults import CHUNKER_BUDGET
from clanka_nb.engine.settings import Settings
from clanka_nb.extras import MissingExtraError
from clanka_nb.index import IndexDatabaseError, SemanticIndex, VectorCache, embedders

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the tests' loopback server
BUNDLE = REPO / "clanka_nb" / "data" / "clanka-history.bundle"
NESTED = "x = " + "[" * 10_000 + "]" * 10_000 + "\n"
MODEL = embedders.hashed_words(64)

from tests.index._loopback import Server  # noqa: E402  (after the path above)


def _chunkers() -> dict[str, chunkers.Adapter]:
    budget = chunkers.Budget(1500, characters_per_non_whitespace=1.4)
    named = {"line windows": chunkers.line_windows(30)}
    for name, factory in chunkers.PEERS.items():
        try:
            named[name] = factory(budget)
        except ImportError:
            print(f"  ({name} not installed: pip install -e '.[chunkers]')")
    return named


def bake_off(files: int) -> None:
    sources = sorted((REPO / "clanka_nb").rglob("*.py"))[:files]
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary) / "code"
        for source in sources:
            target = folder / source.relative_to(REPO)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
        seconds = []
        cn.sweep(folder, chunk_size=[30], probe=True, progress=False, chunkers=_chunkers())  # warm: imports, grammars
        for label in ("ordinary", "with the nested file"):
            if label != "ordinary":
                (folder / "nested.py").write_text(NESTED)
            started = time.perf_counter()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                table = cn.sweep(folder, chunk_size=[30], probe=True, progress=False, chunkers=_chunkers())
            seconds.append(time.perf_counter() - started)
            fallbacks = sum(issubclass(w.category, chunkers.ChunkerFallbackWarning) for w in caught)
            print(f"  {label:22} {len(sources) + (label != 'ordinary')} files, {len(table)} rows, "
                  f"{seconds[-1]:6.2f} s, fallback_files {table['fallback_files'].tolist()}, "
                  f"{fallbacks} fallback warnings")
    print(f"  ratio with / without the nested file: x{seconds[1] / seconds[0]:.2f} (target: under 30 s in all)")


ELSE_IF_LINKS = 1_000  # 32 KB of JavaScript


def else_if_chain(links: int) -> str:
    """One function of `links` `else if` links: one bracket deep, its syntax tree about twice `links` deep."""
    body = "".join(f"  else if (x === {i}) {{ a({i}); }}\n" for i in range(1, links))
    return f"function f(x) {{\n  if (x === 0) {{ a(0); }}\n{body}}}\n"


def _every_named(folder: Path, *, in_process: bool) -> dict[str, chunkers.Adapter]:
    """What `--chunkers` with every name gives (the peers installed), optionally every peer run in this process."""
    budget = chunkers.Budget(CHUNKER_BUDGET).measured_on(folder)
    named: dict[str, chunkers.Adapter] = {}
    for name in chunkers.NAMED:
        try:
            named.update(chunkers.named_chunkers([name], budget))
        except MissingExtraError:
            print(f"  ({name} not installed: pip install -e '.[chunkers]')")
    if in_process:  # as before issue 50: no process of its own
        named = {label: dataclasses.replace(adapter, isolated=None) for label, adapter in named.items()}
    return named


def _timed_sweep(folder: Path, named: dict[str, chunkers.Adapter]) -> tuple[float, object]:
    started = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = cn.sweep(folder, chunk_size=[30], probe=True, progress=False, chunkers=named)
    return time.perf_counter() - started, table


def _isolation_cost(folder: Path, repeats: int) -> None:
    """Each peer's `chunk_with` over the folder in this process and in a process of its own, best of `repeats`."""
    texts = chunkers.read_source(folder).texts
    for label, adapter in _every_named(folder, in_process=False).items():
        if adapter.isolated is None:
            continue
        best: dict[bool, float] = {}
        for isolated in (False, True) * repeats:
            started = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                chunkers.chunk_with(adapter if isolated else dataclasses.replace(adapter, isolated=None), texts)
            best[isolated] = min(time.perf_counter() - started, best.get(isolated, math.inf))
        print(f"    {label:40} {best[False] * 1000:5.0f} ms in this process, {best[True] * 1000:5.0f} ms in its own "
              f"(+{(best[True] - best[False]) * 1000:.0f} ms per run)")


def else_if_bake_off(repeats: int = 5) -> None:
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary) / "sample"
        shutil.copytree(cn.sample_codebase(), folder)
        _timed_sweep(folder, _every_named(folder, in_process=False))  # warm: imports, grammars
        best = {}
        for in_process in (True, False) * repeats:  # alternated, the best of each: the machine is shared
            seconds, table = _timed_sweep(folder, _every_named(folder, in_process=in_process))
            best[in_process] = min(seconds, best.get(in_process, seconds))
        print(f"  sample, {len(table)} rows: peers in this process {best[True]:.2f} s, each in a process of its own "
              f"{best[False]:.2f} s (x{best[False] / best[True]:.2f}; best of {repeats})")
        _isolation_cost(folder, repeats)
        for number in (1, 2):
            (folder / f"chain{number}.js").write_text(else_if_chain(ELSE_IF_LINKS), encoding="utf-8")
        size = (folder / "chain1.js").stat().st_size
        seconds, table = _timed_sweep(folder, _every_named(folder, in_process=False))
        rows = table.set_index("chunker_label")
        print(f"  with two else-if chains of {size / 1024:.0f} KB: {seconds:.2f} s (x{seconds / best[False]:.2f}), "
              f"{len(table)} rows (target: under 30 s, every row)")
        for label in rows.index[1:]:
            print(f"    {label:40} fallback_files {rows.loc[label, 'fallback_files']}, "
                  f"timed_out_files {rows.loc[label, 'timed_out_files']}")


CHILD = """
import sys
from clanka_nb.index import embedders
embed = embedders.openai("m", base_url=sys.argv[1], api_key="k", batch_size=1, concurrency=8, dimensions=64)
embed([f"text {i}" for i in range(16)])
"""


def ctrl_c() -> None:
    server = Server(hold=60.0, model=MODEL)
    try:
        child = subprocess.Popen([sys.executable, "-c", CHILD, server.url], stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while server.in_flight < 8 and time.monotonic() < deadline:
            time.sleep(0.01)
        sent = time.monotonic()
        os.kill(child.pid, signal.SIGINT)
        child.wait(timeout=60)
        print(f"  8 requests in flight (timeout 60 s, 5 retries): gone {time.monotonic() - sent:.2f} s after "
              "SIGINT (target: under 2 s)")
    finally:
        server.close()


def index(delay: float, batch_size: int) -> None:
    with tempfile.TemporaryDirectory() as temporary:
        source = Path(temporary) / "clanka"
        subprocess.run(["git", "clone", "-q", str(BUNDLE), str(source)], check=True,
                       env={**os.environ, "GIT_CONFIG_GLOBAL": os.devnull})  # fmt: skip
        # Warm first (the parse cache, the imports): both timed builds then differ in their requests alone.
        SemanticIndex(source, embed=MODEL, cache=VectorCache(), progress=False).sync()
        seconds = {}
        for concurrency in (1, 4):
            server = Server(hold=delay, model=MODEL)
            try:
                embed = embedders.openai("m", base_url=server.url, api_key="k", concurrency=concurrency,
                                         batch_size=batch_size, dimensions=64)  # fmt: skip
                built = SemanticIndex(source, embed=embed, cache=VectorCache(), progress=False)
                started = time.perf_counter()
                built.sync()
                seconds[concurrency] = time.perf_counter() - started
                print(f"  concurrency={concurrency}: {seconds[concurrency]:6.2f} s, {embed.requests} requests, "
                      f"at most {server.most} in flight")
            finally:
                server.close()
        print(f"  ratio concurrency 4 / 1: x{seconds[4] / seconds[1]:.2f} (target: at most 0.4)")


def _clone(folder: Path) -> Path:
    subprocess.run(["git", "clone", "-q", str(BUNDLE), str(folder)], check=True,
                   env={**os.environ, "GIT_CONFIG_GLOBAL": os.devnull})  # fmt: skip
    return folder


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def linked() -> None:
    with tempfile.TemporaryDirectory() as temporary:
        task = IndexTask(MODEL, MODEL.model_id, Settings(chunk_max_characters=10_000), str(Path(temporary) / "v"), "",
                         EmbedLimit(), 300, 30.0)
        victim, attacker = _clone(Path(temporary) / "victim"), _clone(Path(temporary) / "attacker")
        task(str(victim), str(victim / ".clanka" / "search.sqlite"))
        started = time.perf_counter()
        honest = task(str(attacker), str(attacker / ".clanka" / "search.sqlite"))
        seconds = time.perf_counter() - started
        shutil.rmtree(attacker / ".clanka")
        (attacker / "planted.ts").write_text("export const planted = 1;\n")
        os.symlink(victim / ".clanka", attacker / ".clanka")
        before = _files(victim / ".clanka")
        started = time.perf_counter()
        refused = task(str(attacker), str(attacker / ".clanka" / "search.sqlite"))
        took = time.perf_counter() - started
        kept = _files(victim / ".clanka") == before
    print(f"  honest sync of the clone: {honest.status}, {honest.inputs} inputs, {seconds:6.2f} s")
    print(f"  .clanka linked to another repository's: {refused.status} in {took * 1000:.1f} ms "
          f"(x{took / seconds:.3f} of the honest sync), the other index kept byte for byte: {kept}")
    print(f"  error: {refused.error}")


class _Negated:
    model_id = "stand-in/negated-64"

    def __call__(self, texts: list[str]) -> np.ndarray:
        return -MODEL(texts)


def model_switch() -> None:
    with tempfile.TemporaryDirectory() as temporary:
        source = _clone(Path(temporary) / "clanka")
        db = Path(temporary) / "search.sqlite"
        seconds = []
        for model in (MODEL, _Negated()):
            with SemanticIndex(source, embed=model, db=db, cache=VectorCache(), progress=False) as index:
                started = time.perf_counter()
                report = index.sync()
                seconds.append(time.perf_counter() - started)
                print(f"  {model.model_id:28} {report!r}")
        with SemanticIndex(source, embed=_Negated(), db=db, cache=VectorCache(), progress=False) as index:
            third = index.sync()  # a new SemanticIndex: the record is checked (every row read) and written again
            _, vectors = index.vectors()
            texts = list(index.rows()["input"])
        new = int((vectors == -MODEL(texts)).all(axis=1).sum())
    print(f"  rows holding the new model's vectors: {new} of {len(texts)} (target: all); the switch took "
          f"{seconds[1]:.2f} s against the first build's {seconds[0]:.2f} s (x{seconds[1] / seconds[0]:.2f}); "
          f"a third sync embedded {third.embedded} (target: 0) in {third.seconds:.2f} s")


def planted(per_row: float) -> None:
    import apsw

    size = 1_000_000
    probe = apsw.Connection(":memory:")
    started = time.perf_counter()
    probe.execute(f"SELECT length(replace(hex(zeroblob({size})), '0', 'ab'))").fetchall()
    unit = max(time.perf_counter() - started, 1e-6)
    size = max(1, int(size * per_row / unit))
    started = time.perf_counter()
    probe.execute(f"SELECT length(replace(hex(zeroblob({size})), '0', 'ab'))").fetchall()
    cost = time.perf_counter() - started
    probe.close()
    with tempfile.TemporaryDirectory() as temporary:
        source = _clone(Path(temporary) / "clanka")
        db = source / ".clanka" / "search.sqlite"
        with SemanticIndex(source, embed=MODEL, db=db, cache=VectorCache(), progress=False) as index:
            rows = index.sync().inputs
        connection = apsw.Connection(str(db))
        connection.execute(f"CREATE INDEX planted ON chunks (length(replace(hex(zeroblob({size})), '0', 'ab')))")
        connection.close()
        for path in sorted(source.rglob("*.ts")):
            path.write_text("// shifted\n" + path.read_text())  # every input new: each row pays the expression
        started = time.perf_counter()
        try:
            SemanticIndex(source, embed=MODEL, db=db, cache=VectorCache(), progress=False).sync()
            outcome = "synced (not refused)"
        except IndexDatabaseError as error:
            outcome = f"refused: {str(error)[:140]}..."
        took = time.perf_counter() - started
    print(f"  planted index expression: {cost:.2f} s per row, {rows} rows to write: about {cost * rows / 3600:.1f} h "
          f"holding the write lock")
    print(f"  {outcome}")
    print(f"  in {took * 1000:.0f} ms (target: under 1 s); without the check: about {cost * rows:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=textwrap.dedent(__doc__ or "").splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--files", type=int, default=30, help="ordinary files in the bake-off (default 30)")
    parser.add_argument("--delay", type=float, default=0.1, help="the index server's answer time (default 0.1 s)")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="what the planted index expression costs per row (default 2 s)")
    parser.add_argument("--batch-size", type=int, default=32,
                        help="inputs per request of the index's embedder (default 32, a local server's usual batch)")
    args = parser.parse_args()
    print("bake-off with a hostile file:")
    bake_off(args.files)
    print("the command line's bake-off with two else-if chains:")
    else_if_bake_off()
    print("Ctrl-C while embedding:")
    ctrl_c()
    print("index build against a slow server:")
    index(args.delay, args.batch_size)
    print("a clone whose .clanka links to another repository's:")
    linked()
    print("a model switch of the same width:")
    model_switch()
    print("a planted slow schema:")
    planted(args.seconds)


if __name__ == "__main__":
    main()
