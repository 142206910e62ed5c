"""CPU of one OpenAI-compatible embedder call against a loopback server, this tree against a baseline checkout.

Usage: python benchmarks/bench_embed_calls.py [--baseline ../main] [--calls 200] [--inputs 3] [--concurrency 1 4]

A loopback /embeddings server (its own process, so its CPU is not counted) answers at once. Each tree is measured in
a fresh Python process of its own (its `clanka_nb` first on the path), one after the other in this run, on the same
server: `--calls` calls of `--inputs` texts each (after one warm-up call), the CPU time of that process per call
(`time.process_time`: every thread, the sending ones included), and the wall time per call. Also one call per
freshly made embedder (what each Dask task and each `cn.embedders.openai(...)` in a loop pays). Target (issue 55):
CPU per call at most a fifth of the baseline's. The machine is shared: CPU is what to compare, wall swings.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from _harness import child_result, send_json  # run as a script from benchmarks/

HERE = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys, time
from clanka_nb.index import embedders
url, calls, inputs, concurrency = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
texts = [f"def f{i}(x):\n    return x + {i}" for i in range(inputs)]
embed = embedders.openai("bench", base_url=url, api_key=None, concurrency=concurrency, dimensions=64)
embed(texts)  # warm-up: imports, the first connection
cpu, wall = time.process_time(), time.perf_counter()
for _ in range(calls):
    embed(texts)
kept = ((time.process_time() - cpu) / calls, (time.perf_counter() - wall) / calls)
fresh_calls = max(1, calls // 10)
cpu, wall = time.process_time(), time.perf_counter()
for _ in range(fresh_calls):
    embedders.openai("bench", base_url=url, api_key=None, concurrency=concurrency, dimensions=64)(texts)
fresh = ((time.process_time() - cpu) / fresh_calls, (time.perf_counter() - wall) / fresh_calls)
print(json.dumps({"kept": kept, "fresh": fresh}))
"""


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        data = [{"index": i, "embedding": [0.5] * 64} for i in range(len(body["input"]))]
        send_json(self, {"data": data})

    def log_message(self, *args: object) -> None:
        pass


def serve(ports: Any) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    ports.put(server.server_address[1])
    server.serve_forever()


def measure(tree: Path, url: str, args: argparse.Namespace, concurrency: int) -> dict[str, list[float]]:
    result: dict[str, list[float]] = child_result(tree, CHILD, url, str(args.calls), str(args.inputs), str(concurrency))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, default=HERE.parent / "main", help="a checkout to compare with")
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--inputs", type=int, default=3, help="texts per call")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 4])
    args = parser.parse_args()
    ports: Any = multiprocessing.Queue()
    server = multiprocessing.Process(target=serve, args=(ports,), daemon=True)
    server.start()
    url = f"http://127.0.0.1:{ports.get(timeout=30)}/v1"
    print(f"{args.calls} calls of {args.inputs} inputs; baseline {args.baseline}; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("| concurrency | tree | CPU ms per call (kept) | wall ms per call | CPU ms per call (new embedder each) | "
          "CPU vs baseline |")
    print("| --- | --- | --- | --- | --- | --- |")
    for concurrency in args.concurrency:
        base = measure(args.baseline, url, args, concurrency)
        mine = measure(HERE, url, args, concurrency)
        for name, found in (("baseline", base), ("this tree", mine)):
            print(f"| {concurrency} | {name} | {found['kept'][0] * 1000:.2f} | {found['kept'][1] * 1000:.2f} | "
                  f"{found['fresh'][0] * 1000:.2f} | {found['kept'][0] / base['kept'][0]:.3f}x |")
    server.terminate()


if __name__ == "__main__":
    main()
