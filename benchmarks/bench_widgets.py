"""Responsiveness of the notebook viewers on a synthetic codebase, against the issue's targets.

    python benchmarks/bench_widgets.py            # 3,000 files / ~30,000 chunks; tune on 1,000 files

Targets (kernel-side time, no browser): open the browser on 30,000 chunks / 3,000 files in under
2 s, apply a filter in under 0.3 s, and one tuning-panel update on a 1,000-file codebase in under 0.2 s.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# Function bodies of varying length, so small chunk sizes split some declarations and not others.
_BODY = "    total += step * {k};\n"

_TEMPLATE = """// Module {i}: a service with a few helpers, generated for the widget benchmark.
import {{ shared }} from "./shared";

# These figures measure parsing: the persistent parse cache stays off (bench_cache.py measures it).
os.environ.setdefault("CLANKA_NB_CACHE", "off")

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


def main() -> None:
    from clanka_nb import engine, frames
    from clanka_nb.widgets import Browser, Tuner, browse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=3000, help="files of the browser's codebase")
    parser.add_argument("--tune-files", type=int, default=1000, help="files of the tuning panel's codebase")
    args = parser.parse_args()

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
            f"tune: update on {len(codebase.files):,} files ({len(tuner.frame):,} chunks)",
            timed(lambda: setattr(tuner.chunk_size, "value", next(sizes)), 10),
            0.2,
        )


if __name__ == "__main__":
    main()
