"""clanka_nb.dask.sync_indexes at 100 and 1,000 repositories: throughput, overhead per task, memory per worker.

Usage: python benchmarks/bench_dask_index.py [--counts 100 1000] [--files 3] [--delay 0.02] [--concurrency 4]
                                              [--rate 20] [--rounds 3]

Each repository is a small git repository (one commit) of --files Python files copied from the packages
installed beside this interpreter (site-packages, real code, a different slice per repository), made in a
temporary folder. Embedding goes to a loopback OpenAI-compatible /embeddings server in this process that
answers the hashed-words stand-in's vectors after --delay seconds per request and records how many requests
were in flight at once. Measured in one run, for each count (fresh workers, fresh caches):
  local      SemanticIndex(root, embed=..., db=...).sync() per repository in this process (the baseline)
  1 worker   sync_indexes(roots) on a LocalCluster of 1 process worker
  2 workers  the same on 2 process workers (and 2 workers of 4 threads: embedding latency overlapped)
  2 loops    the local loop in 2 processes, half the repositories each, no Dask: what these cores allow 2
             processes (the embedding server shares them), the ceiling for 2 workers
  again      the second run of each (nothing changed): the local loop re-reads and re-chunks, the cluster
             skips unchanged repositories by their listing's sizes and times
  overhead   a no-op task per repository on the 2-worker cluster: the scheduler's cost per task
  memory     each worker's peak RSS after the run (fresh workers per count: flat means it does not grow)
  in flight  the most embedding requests the server saw at once (never above --concurrency)
  limited    2 workers with embed_rate set to --rate calls per second: where the limit moves to the server
  CPU        CPU seconds per repository of every process of the run but the server's (this one: the client, the
             scheduler and the local loop; the workers and their nannies), split into this process and the workers:
             a figure that survives a busy machine, where wall time swings with the load. Like for like: every
             process that syncs (this one, each cluster's workers, the two plain loops) first syncs one repository
             into a database of its own, so that none pays its first imports (clanka-nb, httpx) or first use inside
             the clock (the workers' warm-up CPU is printed apart)
Every figure is the median of --rounds rounds on the same repositories (fresh folders, clusters and caches each
round), and each CPU ratio the median of the rounds' own ratios, every round's printed beside it: the local loop's
own CPU moves by 10-15% between runs, more than the distance to a target.
The machine is shared: ratios measured in the same run mean more than the absolute figures.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import shutil
import statistics
import subprocess
import sysconfig
import tempfile
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import psutil
from _harness import send_json  # run as a script from benchmarks/
from distributed import Client, LocalCluster

from clanka_nb import dask as cd
from clanka_nb import engine
from clanka_nb.index import SemanticIndex, VectorCache, embedders

os.environ.setdefault("CLANKA_NB_CACHE", "off")  # the parse cache: chunking is measured, not the cache
SITE = Path(sysconfig.get_paths()["purelib"])
STAND_IN = embedders.hashed_words(64)


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, delay: float, stats: Any) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.delay = delay
        self.stats = stats  # shared with the benchmark: in flight now, the most at once, requests


class Handler(BaseHTTPRequestHandler):
    server: Server

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        stats = self.server.stats
        with stats.get_lock():
            stats[0] += 1
            stats[1] = max(stats[1], stats[0])
            stats[2] += 1
        time.sleep(self.server.delay)  # a hosted model's latency, small
        vectors = STAND_IN(list(body["input"]))
        data = [{"index": i, "embedding": row.tolist()} for i, row in enumerate(vectors)]
        with stats.get_lock():
            stats[0] -= 1
        send_json(self, {"data": data})

    def log_message(self, *args: object) -> None:
        pass


def serve(delay: float, stats: Any, ports: Any) -> None:
    """The embedding server, in its own process (as a real one is: not sharing the scheduler's GIL)."""
    server = Server(delay, stats)
    ports.put(server.server_address[1])
    server.serve_forever()


def python_files(limit: int) -> list[Path]:
    """Real Python files of the installed packages, small to middling (1-40 kB), in a fixed order."""
    found = []
    for path in sorted(SITE.rglob("*.py")):
        if "clanka" in str(path.relative_to(SITE)):  # our own package, not a venv whose path says clanka
            continue
        try:
            size = path.stat().st_size
        except OSError:
            continue
        if 1_000 <= size <= 40_000:
            found.append(path)
        if len(found) >= limit:
            break
    return found


def make_repositories(folder: Path, count: int, per_repo: int, sources: list[Path]) -> list[str]:
    """`count` git repositories of `per_repo` files each, one commit each."""
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.org", "GIT_COMMITTER_NAME": "b",
           "GIT_COMMITTER_EMAIL": "b@example.org"}
    roots = []
    for number in range(count):
        root = folder / f"repo{number:04d}"
        (root / "src").mkdir(parents=True)
        for offset in range(per_repo):
            source = sources[(number * per_repo + offset) % len(sources)]
            shutil.copyfile(source, root / "src" / f"{offset}_{source.name}")
        subprocess.run(["git", "init", "-q", str(root)], check=True, env=env)
        subprocess.run(["git", "-C", str(root), "add", "-A"], check=True, env=env)
        subprocess.run(["git", "-C", str(root), "commit", "-qm", "import"], check=True, env=env)
        roots.append(str(root))
    return roots


def local_loop(roots: list[str], embed: object, out: Path, cache: VectorCache) -> float:
    started = time.perf_counter()
    for number, root in enumerate(roots):
        with SemanticIndex(root, embed=embed, db=out / f"{number}.sqlite", cache=cache, workers=1,
                           progress=False) as index:
            index.sync()
    return time.perf_counter() - started


def half_loop(roots: list[str], base_url: str, out: str, cache: str, go: Any, results: Any) -> None:
    """In a process of its own: says it is ready (imported), then the local loop over `roots` once `go` is set; its
    CPU seconds into `results`."""
    embed = embedders.openai("bench", base_url=base_url, api_key=None, concurrency=1)
    warm(roots[0], base_url, out)
    results.put("ready")
    go.wait()
    before = time.process_time()
    local_loop(roots, embed, Path(out), VectorCache(cache))
    results.put(time.process_time() - before)


def two_loops(roots: list[str], base_url: str, out: Path) -> tuple[float, float]:
    """The machine's own limit for two processes, without Dask: the local loop in two processes started and
    imported beforehand, each on half the repositories, one vector cache; wall seconds and CPU seconds in all."""
    context = multiprocessing.get_context("spawn")
    go, results = context.Event(), context.Queue()
    halves = [context.Process(target=half_loop, args=(roots[part::2], base_url, str(out / str(part)),
                                                       str(out / "cache.sqlite"), go, results)) for part in (0, 1)]
    for number, process in enumerate(halves):
        (out / str(number)).mkdir(parents=True)
        process.start()
    for _ in halves:  # both imported and waiting
        assert results.get(timeout=120) == "ready"
    started = time.perf_counter()
    go.set()
    cpu = results.get() + results.get()
    seconds = time.perf_counter() - started
    for process in halves:
        process.join()
    return seconds, cpu


def cpu_now(server: int) -> tuple[float, float]:
    """CPU seconds so far of this process, and of its other descendants (workers, nannies) but the server."""
    mine = psutil.Process()
    own = mine.cpu_times()
    others = 0.0
    for child in mine.children(recursive=True):
        if child.pid == server:
            continue
        try:
            times = child.cpu_times()
        except psutil.Error:  # ended meanwhile
            continue
        others += times.user + times.system
    return own.user + own.system, others


def spent(before: tuple[float, float], server: int, count: int) -> tuple[float, float]:
    after = cpu_now(server)
    return (after[0] - before[0]) / count, (after[1] - before[1]) / count


def peak_rss_mib(client: object) -> list[float]:
    return sorted(v / 1024 for v in client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss).values())


def noop(number: int) -> int:
    return number


def warm(root: str, base_url: str, out: str) -> None:
    """Before timing, in every process that syncs (this one, each worker, each plain loop): what a process that has
    synced before has done once (clanka-nb and the embedder's HTTP modules imported, a repository parsed and
    embedded), into a database of its own. Without it the first round's loop paid httpx's import (about 0.1 s of
    CPU, 1 ms a repository at 100) and the later rounds' did not, while every round's fresh workers did."""
    db = Path(out) / f"warm-{os.getpid()}.sqlite"
    embed = embedders.openai("bench", base_url=base_url, api_key=None, concurrency=1)  # not the timed one's
    with SemanticIndex(root, embed=embed, db=db, cache=VectorCache(), workers=1, progress=False) as index:
        index.sync()


def rounds(count: int, work: Path, sources: list[Path], port: int, stats: Any, args: argparse.Namespace) -> dict:
    """`args.rounds` measurements of the same `count` repositories, each in fresh folders, with fresh clusters and
    caches; the median of each figure, and every round's own figures under "rounds"."""
    made = time.perf_counter()
    roots = make_repositories(work / f"n{count}" / "repos", count, args.files, sources)
    print(f"  {count} repositories of {args.files} files made in {time.perf_counter() - made:.0f} s", flush=True)
    each = []
    for number in range(args.rounds):
        each.append(measure(roots, work / f"n{count}" / f"round{number}", port, stats, args))
        print(f"  round {number + 1} of {args.rounds} done", flush=True)
    middle: dict = {"rounds": each}
    for key, first in each[0].items():
        values = [row[key] for row in each]
        if isinstance(first, (tuple, list)):  # CPU (this process, workers); RSS per worker: element by element
            middle[key] = type(first)(statistics.median(column) for column in zip(*values, strict=True))
        elif isinstance(first, int):  # counts stay whole
            middle[key] = statistics.median_low(values)
        else:
            middle[key] = statistics.median(values)
    return middle


def measure(roots: list[str], folder: Path, port: int, stats: Any, args: argparse.Namespace) -> dict:
    count = len(roots)
    base_url = f"http://127.0.0.1:{port}/v1"
    embed = embedders.openai("bench", base_url=base_url, api_key=None, concurrency=1)
    row: dict = {"count": count, "files": count * args.files}
    (folder / "local").mkdir(parents=True)
    before = cpu_now(args.server_pid)
    for root in roots:  # the chunking alone, as the sync does it (one process, no parse cache)
        list(engine.chunk_codebase(root, workers=1, chunk_max_characters=10_000))
    row["chunking_cpu"] = spent(before, args.server_pid, count)
    (folder / "warm").mkdir()
    warm(roots[0], base_url, str(folder / "warm"))
    stats[2] = 0
    before = cpu_now(args.server_pid)
    row["local"] = local_loop(roots, embed, folder / "local", VectorCache(folder / "local-cache.sqlite"))
    row["local_cpu"] = spent(before, args.server_pid, count)
    row["local_again"] = local_loop(roots, embed, folder / "local", VectorCache(folder / "local-cache.sqlite"))
    row["requests"] = stats[2]
    row["two"], two_cpu = two_loops(roots, base_url, folder / "two")
    row["two_cpu"] = (0.0, two_cpu / count)
    for workers in (1, 2, 24):  # 24: 2 workers of 4 threads each (a repository waiting for vectors lets another run)
        client = cd.local_client(workers) if workers < 10 else Client(
            LocalCluster(n_workers=2, threads_per_worker=4, processes=True))
        try:
            before = cpu_now(args.server_pid)
            client.run(warm, roots[0], base_url, str(folder / "warm"))  # like for like: as this process was warmed
            row[f"w{workers}_warm"] = sum(spent(before, args.server_pid, 1))
            out = folder / f"w{workers}"

            def place(root: str, out: Path = out) -> str:
                return str(out / (Path(root).name + ".sqlite"))

            stats[1] = 0
            before = cpu_now(args.server_pid)
            first = cd.sync_indexes(roots, embed=embed, client=client, db=place, cache=folder / f"c{workers}.sqlite",
                                    embed_concurrency=args.concurrency, progress=False)
            row[f"w{workers}_cpu"] = spent(before, args.server_pid, count)
            again = cd.sync_indexes(roots, embed=embed, client=client, db=place, cache=folder / f"c{workers}.sqlite",
                                    embed_concurrency=args.concurrency, progress=False)
            assert not first.failed and not again.failed, (first.failed[:1], again.failed[:1])
            assert again.embedded == 0 and all(r.status == "unchanged" for r in again.repositories)
            row[f"w{workers}"] = first.seconds
            row[f"w{workers}_again"] = again.seconds
            row[f"w{workers}_task"] = sum(r.seconds for r in first.repositories) / count
            row[f"w{workers}_wait"] = sum(r.lease_wait for r in first.repositories) / count
            row[f"w{workers}_rss"] = peak_rss_mib(client)
            row[f"w{workers}_most"] = stats[1]
            if workers == 2:
                started = time.perf_counter()
                before = cpu_now(args.server_pid)
                client.gather(client.map(noop, range(count), pure=False))
                row["overhead"] = (time.perf_counter() - started) / count
                row["overhead_cpu"] = spent(before, args.server_pid, count)
                if args.rate and count == min(args.counts):  # the floor is the rate: one count shows it
                    limited = cd.sync_indexes(roots, embed=embed, client=client, db=lambda r: str(
                        folder / "limited" / (Path(r).name + ".sqlite")), cache=folder / "limited.sqlite",
                        embed_concurrency=args.concurrency, embed_rate=args.rate, progress=False)
                    row["limited"] = limited.seconds
        finally:
            cluster = client.cluster
            client.close()
            cluster.close()
    return row


def report(rows: list[dict], args: argparse.Namespace) -> None:
    print(f"\nrepositories of {args.files} files; server delay {args.delay * 1000:.0f} ms per request; "
          f"embed_concurrency={args.concurrency}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    head = ("| repos | files | run | seconds | repos/s | files/s | vs local | second run s | second/first |\n"
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    print(head)
    for row in rows:
        for name, key in (("local loop", "local"), ("1 worker", "w1"), ("2 workers", "w2"),
                          ("2 workers x 4 threads", "w24"), ("2 local loops, no Dask", "two")):
            seconds, again = row[key], row.get(f"{key}_again", float("nan"))
            print(f"| {row['count']:,} | {row['files']:,} | {name} | {seconds:.1f} | {row['count'] / seconds:.1f} | "
                  f"{row['files'] / seconds:.0f} | {row['local'] / seconds:.2f}x | {again:.2f} | "
                  f"{again / seconds:.3f} |")
    print("\n| repos | scheduler per no-op task ms | worker s per repo (1 w / 2 w) | lease wait ms per repo (2 w) | "
          "peak RSS per worker MiB (1 w; 2 w; 2x4) | requests in flight (most) | embedding requests |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for row in rows:
        rss = "; ".join(", ".join(f"{v:.0f}" for v in row[key]) for key in ("w1_rss", "w2_rss", "w24_rss"))
        print(f"| {row['count']:,} | {row['overhead'] * 1000:.1f} | {row['w1_task']:.3f} / {row['w2_task']:.3f} | "
              f"{row['w2_wait'] * 1000:.1f} | {rss} | {max(row['w1_most'], row['w2_most'], row['w24_most'])} | "
              f"{row['requests']:,} |")
    print(f"\n| repos | run | CPU ms per repo | of which this process (client, scheduler) | of which workers | "
          f"vs local loop (median of {args.rounds} rounds' own ratios) | each round |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for row in rows:
        for name, key in (("chunking alone", "chunking_cpu"), ("local loop", "local_cpu"), ("1 worker", "w1_cpu"),
                          ("2 workers", "w2_cpu"),
                          ("2 workers x 4 threads", "w24_cpu"), ("2 local loops, no Dask", "two_cpu"),
                          ("no-op task (2 workers)", "overhead_cpu")):
            own, workers = row[key]
            ratios = [sum(each[key]) / sum(each["local_cpu"]) for each in row["rounds"]]  # paired within a round
            print(f"| {row['count']:,} | {name} | {(own + workers) * 1000:.1f} | {own * 1000:.1f} | "
                  f"{workers * 1000:.1f} | {statistics.median(ratios):.2f}x | "
                  f"{', '.join(f'{ratio:.2f}' for ratio in ratios)} |")
    for row in rows:
        warmed = ", ".join(f"{row[key]:.2f}" for key in ("w1_warm", "w2_warm", "w24_warm"))
        print(f"\n{row['count']:,} repositories: each cluster's warm-up before timing (one repository synced on every "
              f"worker: clanka-nb and httpx imported), CPU s, 1 w / 2 w / 2x4: {warmed}")
    for row in rows:
        if "limited" in row:
            calls = row["requests"]
            print(f"\nembed_rate={args.rate:g}/s at {row['count']:,} repositories on 2 workers: {calls:,} requests in "
                  f"{row['limited']:.1f} s ({calls / row['limited']:.1f} a second, the run's closing wait included), "
                  f"vs {row['w2']:.1f} s unlimited")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--files", type=int, default=3, help="files per repository")
    parser.add_argument("--delay", type=float, default=0.02, help="seconds the server takes per request")
    parser.add_argument("--concurrency", type=int, default=4, help="embed_concurrency (requests in flight)")
    parser.add_argument("--rate", type=float, default=20.0, help="embed_rate of the limited run (0: skip it)")
    parser.add_argument("--rounds", type=int, default=3, help="measurements per count; medians are printed")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    stats = multiprocessing.Array("l", 3)
    ports: Any = multiprocessing.Queue()
    server = multiprocessing.Process(target=serve, args=(args.delay, stats, ports), daemon=True)
    server.start()
    port = ports.get(timeout=30)
    args.server_pid = server.pid
    sources = python_files(max(args.counts) * args.files)
    if not sources:  # else the repositories' making divides by zero
        parser.error(f"no Python files of 1-40 kB under {SITE} to copy into the repositories")
    rows = []
    with tempfile.TemporaryDirectory() as temporary:
        for count in args.counts:
            print(f"{count} repositories ...", flush=True)
            rows.append(rounds(count, Path(temporary), sources, port, stats, args))
    server.terminate()
    report(rows, args)


if __name__ == "__main__":
    main()
