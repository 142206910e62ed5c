"""Responsiveness of the notebook viewers on a synthetic codebase, against the issue's targets.

    python benchmarks/bench_widgets.py            # 3,000 files / ~30,000 chunks; tune on 1,000 files
    python benchmarks/bench_widgets.py --three    # the tuning panel on three.js only (--fetch: npm pack it)

Targets (kernel-side time, no browser): open the browser on 30,000 chunks / 3,000 files in under
2 s, apply a filter in under 0.3 s, and one tuning-panel update on a 1,000-file codebase in under 0.2 s.
On three.js 0.170.0 (issue 17): one panel update at chunk_size 10, 20 and 40 in at most 80 ms and
at most 0.2x one engine `chunk_codebase` of the folder at the same setting (1 worker, parse cache
off, as bench_engine.py measures); with the retrieval probe on, at a setting of about 40,000 chunks,
its first tick (at most 2x) and later moves (at most 0.3x) against one `probe` at the same setting.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# These figures measure parsing: the persistent parse cache stays off (bench_cache.py measures it).
os.environ.setdefault("CLANKA_NB_CACHE", "off")

# Function bodies of varying length, so small chunk sizes split some declarations and not others.
_BODY = "    total += step * {k};\n"

_TEMPLATE = """// Module {i}: a service with a few helpers, generated for the widget benchmark.
import {{ shared }} from "./shared";
export interface Options{i} {{
  size: number;
  label: string;
}}

export type Id{i} = string | number;

export enum Mode{i} {{
  Fast,
  Careful,
}}

export class Service{i} {{
  private items: number[] = [];

  constructor(private readonly options: Options{i}) {{}}

  add(value: number): void {{
    this.items.push(value);
  }}

  total(): number {{
    return this.items.reduce((a, b) => a + b, shared);
  }}

  describe(): string {{
    return `${{this.options.label}}: ${{this.total()}}`;
  }}
}}

export function helper{i}(start: number, step: number): number {{
  let total = start;
{body}  return total;
}}

export const DEFAULT_{i} = {i};
"""


def write_codebase(root: Path, files: int) -> Path:
    """`files` TypeScript files of 10 chunks each (at chunk_size=30) in 30 folders under `root`."""
    for i in range(files):
        folder = root / f"pkg{i % 30:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        body = "".join(_BODY.format(k=k) for k in range(3 + (i % 9) * 5))
        (folder / f"service{i:05d}.ts").write_text(_TEMPLATE.format(i=i, body=body))
    return root


def timed(action: Callable[[], object], repeat: int = 5, setup: Callable[[], object] | None = None) -> float:
    """Median wall time of `action` in seconds; `setup` runs before each call, untimed."""
    times = []
    for _ in range(repeat):
        if setup is not None:
            setup()
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def report(what: str, seconds: float, target: float) -> None:
    verdict = "ok" if seconds <= target else "SLOW"
    print(f"{what:<58} {seconds * 1000:8.1f} ms   target {target * 1000:6.0f} ms   {verdict}")


# chunk_size of the probe's figures: three.js 0.170.0 at 6 lines is about 40,000 chunks.
PROBE_SIZE = 6


def three_js(root: Path, repeat: int) -> None:
    """The tuning panel on a real codebase: one update per chunk_size against one engine chunk_codebase."""
    import warnings

    from clanka_nb import engine, probe
    from clanka_nb.widgets import Tuner

    codebase = engine.Codebase(root, workers=1)
    tuner = Tuner(codebase)
    print(f"{root}: {len(codebase.files):,} files")
    print(f"{'update at':<22} {'chunks':>8} {'panel ms':>9} {'chunk_codebase ms':>18} {'ratio':>6}  target")
    for size in (10, 20, 40):
        away = 30 if size != 30 else 25

        def move(size: int = size) -> None:
            tuner.chunk_size.value = size

        panel = timed(move, repeat, setup=lambda away=away: setattr(tuner.chunk_size, "value", away))
        engine_s = timed(lambda size=size: list(engine.chunk_codebase(root, chunk_size=size, workers=1)), 1)
        ratio = panel / engine_s
        met = panel <= 0.080 and ratio <= 0.2
        print(
            f"chunk_size={size:<12} {tuner.model.stats['chunks']:>8,} {panel * 1000:>9.1f} {engine_s * 1000:>18.0f} "
            f"{ratio:>6.3f}  <= 80 ms and <= 0.2x: {'met' if met else 'MISSED'}"
        )
    # The probe, at a setting giving about 40,000 chunks (the size): its first tick extracts
    # the queries and finds their tokens in every line; later moves only re-score.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tuner.chunk_size.value = PROBE_SIZE
        chunks = tuner.model.stats["chunks"]
        started = time.perf_counter()
        tuner.probe.value = True
        first = time.perf_counter() - started
        later = timed(lambda: setattr(tuner.chunk_size, "value", PROBE_SIZE), 3,
                      setup=lambda: setattr(tuner.chunk_size, "value", PROBE_SIZE + 2))
        started = time.perf_counter()
        probe(codebase, chunk_size=PROBE_SIZE)
        alone = time.perf_counter() - started
    queries = len(tuner._probe_set.queries) if tuner._probe_set is not None else 0
    print(f"probe ({queries:,} queries, chunk_size={PROBE_SIZE}: {chunks:,} chunks): one probe(codebase) "
          f"{alone * 1000:.0f} ms; panel: first tick {first * 1000:.0f} ms ({first / alone:.2f}x, target <= 2x), "
          f"a later move {later * 1000:.0f} ms ({later / alone:.2f}x, target <= 0.3x)")


def main() -> None:
    from clanka_nb import engine, frames
    from clanka_nb.widgets import Browser, Tuner, browse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=3000, help="files of the browser's codebase")
    parser.add_argument("--tune-files", type=int, default=1000, help="files of the tuning panel's codebase")
    parser.add_argument("--three", nargs="?", const="", metavar="FOLDER",
                        help="only the tuning panel on three.js (default: benchmarks/.data, as bench_engine.py)")
    parser.add_argument("--fetch", action="store_true", help="with --three: npm pack three.js first if missing")
    parser.add_argument("--repeat", type=int, default=5, help="runs per panel timing; the median is kept")
    args = parser.parse_args()
    if args.three is not None:
        from bench_engine import DATA, fetch

        root = Path(args.three) if args.three else (fetch("three") if args.fetch else DATA / "three-0.170.0/package")
        if not root.is_dir():
            raise SystemExit(f"{root} is missing: pass a folder, or --fetch to download three.js with npm pack")
        three_js(root, args.repeat)
        return

    with tempfile.TemporaryDirectory() as tmp:
        big = write_codebase(Path(tmp) / "big", args.files)
        started = time.perf_counter()
        frame = frames.chunk_codebase(big, progress=False)
        print(f"(chunked {args.files:,} files into {len(frame):,} chunks in {time.perf_counter() - started:.1f} s)")

        report(f"browse: open on {len(frame):,} chunks / {args.files:,} files", timed(lambda: Browser(frame), 3), 2.0)
        browser = Browser(frame)
        filters: list[tuple[str, dict]] = [
            ("type = method", {"types": ("method",)}),
            ("types = class + interface", {"types": ("class", "interface")}),
            ("name contains 'help'", {"name": "help"}),
            ("parent contains 'service12'", {"parent": "service12"}),
            ("path contains 'pkg07'", {"path": "pkg07"}),
        ]
        for label, wanted in filters:
            report(
                f"browse: filter {label}",
                timed(lambda wanted=wanted: browser.set_filters(**wanted), setup=browser.clear_filters),
                0.3,
            )
        browser.clear_filters()
        sort = browser.table.sort_by
        fresh = Browser(frame)
        report(
            f"browse: first sort of {len(frame):,} rows by lines",
            timed(lambda: setattr(fresh.table.sort_by, "value", "lines"), 1),
            0.3,
        )
        report(
            f"browse: sort {len(frame):,} rows by lines again",
            timed(lambda: setattr(sort, "value", "lines"), setup=lambda: setattr(sort, "value", "engine order")),
            0.3,
        )
        report("browse: pick a chunk (its file's preview)", timed(lambda: browser.select_chunk(7)), 0.3)
        started = time.perf_counter()
        browse(big)
        print(
            f"(browse(folder): list, parse, chunk and open {args.files:,} files "
            f"in {time.perf_counter() - started:.1f} s)"
        )

        small = write_codebase(Path(tmp) / "small", args.tune_files)
        codebase = engine.Codebase(small, workers=None)
        tuner = Tuner(codebase)
        sizes = iter([10, 20, 40, 60, 15, 25, 35, 45, 50, 12] * 3)
        report(
            f"tune: update on {len(codebase.files):,} files ({len(tuner.model.frame):,} chunks)",
            timed(lambda: setattr(tuner.chunk_size, "value", next(sizes)), 10),
            0.2,
        )


if __name__ == "__main__":
    main()
