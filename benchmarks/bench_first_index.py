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

clanka itself (its SemanticSearch: batches of up to 300 inputs after a 50 ms window, no limit on requests in
flight) needs bun or Node with its npm dependencies, which this machine does not have; its request pattern on the
same server is printed for scale: ceil(inputs / 300) requests at once, the span of one request of 300 inputs.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import tempfile
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from _harness import child_result, send_json  # run as a script from benchmarks/

HERE = Path(__file__).resolve().parents[1]
BUNDLE = HERE.parent / "shared" / "data" / "clanka-history.bundle"

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
            data = [{"index": i, "embedding": [float(len(text) % 7), 1.0, 0.5, 0.25]} for i, text in enumerate(texts)]
            with stats.get_lock():
                stats[0] -= 1
                stats[4] = time.time_ns() // 1000  # the last answer
            send_json(self, {"data": data})

        def log_message(self, *args: object) -> None:
            pass

    server = Server(("127.0.0.1", 0), Handler)
    ports.put(server.server_address[1])
    server.serve_forever()


def clanka_tree(folder: Path) -> Path:
    target = folder / "clanka"
    subprocess.run(["git", "clone", "-q", str(BUNDLE), str(target)], check=True)
    return target


def once(tree: Path, source: Path, url: str, concurrency: int, stats: Any, db: Path) -> dict[str, float]:
    for slot in range(5):
        stats[slot] = 0
    found: dict[str, float] = child_result(tree, CHILD, str(source), url, str(concurrency), str(db))
    found.update(span=(stats[4] - stats[3]) / 1e6, requests=stats[2], most=stats[1])
    return found


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
        for run in range(args.repeat):
            for name, tree in (("baseline", args.baseline), ("this tree", HERE)):
                rows.append((name, once(tree, source, url, args.concurrency, stats, folder / f"{name}{run}.db")))
    server.terminate()
    inputs = int(rows[0][1]["inputs"])
    print(f"clanka's tree: {inputs} inputs; latency {args.latency * 1000:.0f} ms + {args.per_input * 1000:.1f} ms per "
          f"input; concurrency={args.concurrency}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("| tree | sync s | embedding span s | requests | most in flight |")
    print("| --- | --- | --- | --- | --- |")
    for name, row in rows:
        print(f"| {name} | {row['seconds']:.2f} | {row['span']:.2f} | {row['requests']:.0f} | {row['most']:.0f} |")
    clanka = args.latency + args.per_input * min(300, inputs)
    print(f"clanka's pattern on this server: {-(-inputs // 300)} requests at once, span about {clanka:.2f} s "
          "(one request of 300 inputs), after its own chunking")


if __name__ == "__main__":
    main()
