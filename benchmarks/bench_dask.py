"""clanka_nb.dask on LocalClusters of process workers: throughput 2 workers vs 1, overhead per file, memory per worker.

Usage: python benchmarks/bench_dask.py [ROOT ...] [--languages extended] [--repeat N] [--check]

ROOTs default to twelve packages of Python's standard library (asyncio, email, json, ...: about
200 files), chunked in extended mode so Python is parsed as declarations. Every timing is the best
of N runs (default 3), taken in turns so load on the machine hits them alike. Measured in one run:
  baseline   frames.chunk_codebase + DataFrame.to_parquet per root, in this process (no Dask)
  1 worker   chunk_codebases(roots).to_parquet(tmp) on a LocalCluster of 1 process worker
  2 workers  the same on 2 process workers                 target: throughput >= 1.6x 1 worker
  overhead   CPU seconds (workers + this process, which runs the scheduler) minus the baseline's,
             per file: with batches of --files-per-partition files, and with one task per file
  sweep      cd.sweep(roots, 10 settings), 2 workers vs 1
  memory     peak RSS of each worker after writing 1, 3 and 9 copies of the roots (fresh workers
             for each), with the baseline process's peak RSS for comparison; it should stay flat.
Wall-clock ratios need free cores: the load average is printed first. --check exits 1 when the
2-worker target is missed.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sysconfig
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from clanka_nb import dask as cd
from clanka_nb import engine, frames

# These figures measure chunking and parsing: the persistent parse cache stays off (bench_cache.py measures it).
os.environ.setdefault("CLANKA_NB_CACHE", "off")

STDLIB = Path(sysconfig.get_paths()["stdlib"])
PACKAGES = [
    "asyncio", "email", "json", "http", "xml", "unittest", "importlib", "concurrent", "logging", "urllib",
    "multiprocessing", "sqlite3",
]
SWEEP = {"chunk_size": [10, 20, 30, 40, 60], "chunk_overlap": [0, 5]}


def cpu_seconds(clients: list) -> float:
    """CPU time so far of this process (client and schedulers) and of every worker process of `clients`."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    total = own.ru_utime + own.ru_stime
    for client in clients:
        used = client.run(lambda: sum(resource.getrusage(resource.RUSAGE_SELF)[:2]))
        total += sum(used.values())
    return total


def timed(run: Callable[[], object], clients: list) -> tuple[float, float]:
    """Wall seconds and CPU seconds (this process and the workers) of one run."""
    cpu = cpu_seconds(clients)
    started = time.perf_counter()
    run()
    return time.perf_counter() - started, cpu_seconds(clients) - cpu


def peak_rss_mb() -> float:
    """This process's peak RSS (VmHWM: unlike ru_maxrss, not inherited across exec from the nanny)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def worker_peak_mb(client) -> list[float]:
    """Peak RSS of every worker process since it started."""
    return sorted(client.run(peak_rss_mb).values())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("roots", nargs="*", help="folders of source code (default: 12 stdlib packages)")
    ap.add_argument("--languages", default="extended", help="clanka or extended (default: extended)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per timing; the best is kept (default 3)")
    ap.add_argument("--files-per-partition", type=int, default=50, help="batch size (default 50)")
    ap.add_argument("--check", action="store_true", help="exit 1 when 2 workers give < 1.6x the throughput of 1")
    args = ap.parse_args()
    roots = args.roots or [str(STDLIB / name) for name in PACKAGES if (STDLIB / name).is_dir()]
    files = sum(len(engine.list_files(root)) for root in roots)
    print(f"{len(roots)} roots, {files} files, languages={args.languages}, cores={os.cpu_count()}, "
          f"load average {os.getloadavg()[0]:.1f}")
    out = Path(tempfile.mkdtemp())
    settings = {"languages": args.languages}

    def baseline() -> None:
        for i, root in enumerate(roots):
            frame = frames.chunk_codebase(root, workers=1, progress=False, **settings)
            frame.to_parquet(out / f"baseline-{i}.parquet", index=False)

    def write(client, per_partition: int, copies: int = 1) -> Callable[[], None]:
        def run() -> None:
            target = out / f"w{len(client.scheduler_info()['workers'])}-{per_partition}-{copies}"
            frame = cd.chunk_codebases(roots * copies, client=client, files_per_partition=per_partition, **settings)
            with client.as_current():  # a Dask frame computes on the current client: make it this one
                frame.to_parquet(target, write_index=False)
            shutil.rmtree(target)
        return run

    def sweep(client) -> Callable[[], None]:
        return lambda: cd.sweep(roots, client=client, files_per_partition=args.files_per_partition, **SWEEP, **settings)

    one, two = cd.local_client(1), cd.local_client(2)
    fpp = args.files_per_partition
    runs: dict[str, tuple[Callable[[], None], list]] = {
        "baseline (frames, 1 process)": (baseline, []),
        "1 worker": (write(one, fpp), [one]),
        "2 workers": (write(two, fpp), [two]),
        "1 worker, 1 file per task": (write(one, 1), [one]),
        "sweep, 1 worker": (sweep(one), [one]),
        "sweep, 2 workers": (sweep(two), [two]),
    }
    for run, _ in runs.values():  # warm up: imports on the workers, grammars loaded
        run()
    wall: dict[str, list[float]] = {name: [] for name in runs}
    cpu: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.repeat):
        for name, (run, clients) in runs.items():
            seconds, used = timed(run, clients)
            wall[name].append(seconds)
            cpu[name].append(used)
    t = {name: min(values) for name, values in wall.items()}
    c = {name: min(values) for name, values in cpu.items()}
    print(f"\n{'run':32} {'wall s':>7} {'files/s':>8} {'CPU s':>7}")
    for name in runs:
        print(f"{name:32} {t[name]:7.2f} {files / t[name]:8.0f} {c[name]:7.2f}")
    speedup = t["1 worker"] / t["2 workers"]
    print(f"\nthroughput 2 workers / 1 worker: {speedup:.2f}x (target >= 1.6x)")
    print(f"sweep throughput 2 workers / 1 worker: {t['sweep, 1 worker'] / t['sweep, 2 workers']:.2f}x")
    base = "baseline (frames, 1 process)"
    print(f"1 worker / baseline: wall {t['1 worker'] / t[base]:.2f}x, CPU {c['1 worker'] / c[base]:.2f}x")
    overhead = (c["1 worker"] - c[base]) / files * 1000
    single = (c["1 worker, 1 file per task"] - c[base]) / files * 1000
    print(f"overhead per file, CPU: {overhead:.1f} ms with {fpp} files per task, {single:.1f} ms with 1 per task")

    print("\nmemory: peak RSS per worker (2 fresh workers each time) as the roots grow")
    print(f"this process (baseline runs included): {peak_rss_mb():.0f} MB")
    for client in (one, two):
        cluster = client.cluster
        client.close()
        cluster.close()
    for copies in (1, 3, 9):
        fresh = cd.local_client(2)
        write(fresh, fpp, copies)()
        peaks = ", ".join(f"{mb:.0f}" for mb in worker_peak_mb(fresh))
        print(f"{copies} x {len(roots)} roots ({copies * files} files): {peaks} MB")
        cluster = fresh.cluster
        fresh.close()
        cluster.close()
    shutil.rmtree(out, ignore_errors=True)
    return 1 if args.check and speedup < 1.6 else 0


if __name__ == "__main__":
    raise SystemExit(main())
