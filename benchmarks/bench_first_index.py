"""The first index of clanka's own tree through an OpenAI-compatible server at 100 ms latency: this tree against a
baseline checkout, in one run.

Usage: python benchmarks/bench_first_index.py [--baseline ../main] [--latency 0.1] [--per-input 0.002]
                                              [--concurrency 8] [--repeat 2]

clanka's tree is its newest commit in the history bundle (../shared/data/clanka-history.bundle), cloned into a
temporary folder. The server (its own process, one thread per request) answers each request after `--latency`
seconds plus `--per-input` seconds per input (a model's own time, which a request of 300 inputs pays 300 times).
Each tree runs `SemanticIndex(tree, embed=openai(..., concurrency=C), db=<new file>).sync()` in a fresh process
(nothing cached: vector cache in memory, parse cache off), `--repeat` times alternately; printed: the sync's wall
time, its embedding span (first request to last answer, seen by the server), requests and the most in flight.

clanka itself runs too, in the same alternation, once `bash benchmarks/clanka_node/setup.sh` has set it up (its
SemanticSearch from the same commit, on Node 22, through the same server: batches of up to 300 inputs after a 50 ms
window, no limit on requests in flight); its time is from building its SemanticSearch to its first index done, as
clanka-nb's is from opening the index to the sync's end (neither counts its runtime's start or imports). Without it
the ratio is not printed, only clanka's request pattern for scale.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import subprocess
import tempfile
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from _harness import child_result, send_json  # run as a script from benchmarks/

HERE = Path(__file__).resolve().parents[1]
BUNDLE = HERE.parent / "shared" / "data" / "clanka-history.bundle"
CLANKA = Path(__file__).resolve().parent / "clanka_node"  # set up by its setup.sh
WIDTH = 4  # the server's vectors

CHILD = r"""
import json, sys, time
from clanka_nb.index import SemanticIndex, VectorCache, embedders
tree, url, concurrency, db = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
embed = embedders.openai("bench", base_url=url, api_key=None, concurrency=concurrency)
started = time.perf_counter()
with SemanticIndex(tree, embed=embed, db=db, cache=VectorCache(), progress=False) as index:
    report = index.sync()
print(json.dumps({"seconds": time.perf_counter() - started, "inputs": report.inputs}))
"""


class Server(ThreadingHTTPServer):
    daemon_threads = True


def serve(latency: float, per_input: float, stats: Any, ports: Any) -> None:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
            texts = body["input"]
            with stats.get_lock():
                if stats[3] == 0:
                    stats[3] = time.time_ns() // 1000  # the first request (microseconds)
                stats[0] += 1
                stats[1] = max(stats[1], stats[0])
                stats[2] += 1
            time.sleep(latency + per_input * len(texts))
            data = [{"object": "embedding", "index": i, "embedding": [float(len(text) % 7), 1.0, 0.5, 0.25]}
                    for i, text in enumerate(texts)]
            with stats.get_lock():
                stats[0] -= 1
                stats[4] = time.time_ns() // 1000  # the last answer
            send_json(self, {"object": "list", "data": data, "model": body.get("model", "bench")})

        def log_message(self, *args: object) -> None:
            pass

    server = Server(("127.0.0.1", 0), Handler)
    ports.put(server.server_address[1])
    server.serve_forever()


def clanka_tree(folder: Path) -> Path:
    target = folder / "clanka"
    subprocess.run(["git", "clone", "-q", str(BUNDLE), str(target)], check=True)
    return target


def once(tree: Path | None, source: Path, url: str, concurrency: int, stats: Any, db: Path) -> dict[str, float]:
    """One first index of `source`: by `tree`'s clanka-nb in a child Python, or by clanka itself (`tree` None)."""
    for slot in range(5):
        stats[slot] = 0
    started = time.perf_counter()
    found: dict[str, float] = (child_result(tree, CHILD, str(source), url, str(concurrency), str(db))
                               if tree is not None else clanka_result(source, url, db))
    found.update(process=time.perf_counter() - started, span=(stats[4] - stats[3]) / 1e6, requests=stats[2],
                 most=stats[1])
    return found


def clanka_result(source: Path, url: str, db: Path) -> dict[str, float]:
    """clanka's own first index of `source` (its driver prints one line of JSON)."""
    node = CLANKA / "node_modules" / ".bin" / "node"
    out = subprocess.run([str(node), "--import", "tsx", "index.ts", str(source), url, str(db), str(WIDTH)],
                         cwd=CLANKA, env={**os.environ, "NODE_NO_WARNINGS": "1"}, check=True, capture_output=True,
                         text=True)  # fmt: skip
    found = json.loads(out.stdout.strip().splitlines()[-1])
    return {"seconds": found["seconds"], "inputs": found["chunks"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, default=HERE.parent / "main", help="a checkout to compare with")
    parser.add_argument("--latency", type=float, default=0.1)
    parser.add_argument("--per-input", type=float, default=0.002, help="server seconds per input")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    stats = multiprocessing.Array("q", 5)
    ports: Any = multiprocessing.Queue()
    server = multiprocessing.Process(target=serve, args=(args.latency, args.per_input, stats, ports), daemon=True)
    server.start()
    url = f"http://127.0.0.1:{ports.get(timeout=30)}/v1"
    rows: list[tuple[str, dict[str, float]]] = []
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        source = clanka_tree(folder)
        runs: list[tuple[str, Path | None]] = [("baseline", args.baseline), ("this tree", HERE)]
        if (CLANKA / "node_modules" / ".bin" / "node").exists():
            runs.append(("clanka", None))
        for run in range(args.repeat):
            for name, tree in runs:
                rows.append((name, once(tree, source, url, args.concurrency, stats, folder / f"{name}{run}.db")))
    server.terminate()
    inputs = int(rows[0][1]["inputs"])
    print(f"clanka's tree: {inputs} inputs; latency {args.latency * 1000:.0f} ms + {args.per_input * 1000:.1f} ms per "
          f"input; concurrency={args.concurrency}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("| tree | sync s | whole process s (start to exit) | embedding span s | requests | most in flight |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, row in rows:
        print(f"| {name} | {row['seconds']:.2f} | {row['process']:.2f} | {row['span']:.2f} | {row['requests']:.0f} | "
              f"{row['most']:.0f} |")
    clanka = [row["seconds"] for name, row in rows if name == "clanka"]
    if not clanka:
        span = args.latency + args.per_input * min(300, inputs)
        print(f"clanka's pattern on this server: {-(-inputs // 300)} requests at once, span about {span:.2f} s (one "
              "request of 300 inputs), after its own chunking; run benchmarks/clanka_node/setup.sh to time clanka")
        return
    for what, key in (("first index", "seconds"), ("whole process", "process")):
        ours = [row[key] for name, row in rows if name == "this tree"]
        theirs = [row[key] for name, row in rows if name == "clanka"]
        print(f"this tree's {what} against clanka's: {statistics.median(ours) / statistics.median(theirs):.2f}x "
              f"(medians; run by run {', '.join(f'{o / c:.2f}x' for o, c in zip(ours, theirs, strict=True))})")
    floor = args.latency + args.per_input * -(-inputs // args.concurrency)
    print(f"the embedding alone at concurrency={args.concurrency}, all slots full from the first instant: at least "
          f"{floor:.2f} s, {floor / statistics.median(clanka):.2f}x clanka's first index")


if __name__ == "__main__":
    main()
