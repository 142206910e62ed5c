"""A verdict in any language (issue 52): the probed sweep of chunk_size 10-60 x chunk_overlap 0/10 on git clones.

Usage:
  python benchmarks/bench_verdict_languages.py CLONE [CLONE ...] [--sizes 10,20,30,40,50,60] [--json FOLDER]
  python benchmarks/bench_verdict_languages.py --rows FOLDER   (the rows again from the JSON a run kept)

Each CLONE is a git clone with its history (the default queries then include its commit messages). Per clone: its
commit and commit count, the queries each source gave (test names by language), the decision, each source's own
decision beside it (`attrs["verdict_by_source"]`), the check on newer commits, and the sweep's seconds; one
Markdown row per clone, as docs/tuning-verdict.md ("Any language") shows them. Nothing is downloaded.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time
import warnings
from pathlib import Path
from typing import Any

import clanka_nb as cn

_SHORT = {"doc_comments": "doc", "test_names": "tests", "history": "commits"}


def _git(folder: str, *argv: str) -> str:
    return subprocess.run(["git", "-C", folder, *argv], capture_output=True, text=True, check=True).stdout.strip()


def measured(folder: str, sizes: list[int]) -> dict[str, Any]:
    """One clone's sweep, and what the row needs of it."""
    started = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = cn.sweep(folder, chunk_size=sizes, chunk_overlap=[0, 10], languages="extended", probe=True,
                         progress=False)  # fmt: skip
    reference = table["reference"] if "reference" in table.columns else [False] * len(table)
    settings = [f"{size}/{overlap}" + (" (clanka's)" if flag else "")
                for size, overlap, flag in zip(table["chunk_size"], table["chunk_overlap"], reference, strict=True)]
    return {"folder": folder, "commit": _git(folder, "rev-parse", "HEAD"), "commits": int(_git(folder, "rev-list",
            "--count", "HEAD")), "seconds": time.perf_counter() - started, "settings": settings,
            "note": table.attrs["probe_note"], "sources": table.attrs["query_sources"],
            "verdict": table.attrs["verdict"], "by_source": table.attrs["verdict_by_source"]}  # fmt: skip


def row(found: dict[str, Any]) -> str:
    """One clone as a Markdown row."""
    verdict, settings, sources = found["verdict"], found["settings"], found["sources"]
    decision = verdict["decision"] or ""
    unresolved = [row for row in verdict["confidence_set"] if row not in verdict["equivalent"]]
    if decision.startswith("use") and len(verdict["equivalent"]) > 1:
        said = (f"**{decision.split(':')[0]}**: {len(verdict['equivalent'])} equivalent within ±{verdict['margin']} "
                f"({', '.join(settings[row] for row in verdict['equivalent'])})")
        said += f", {len(unresolved)} more tied, not shown equivalent" if unresolved else ""
    elif decision.startswith("use"):
        said = f"**{decision.split(':')[0]}**: better than every other setting"
    else:
        said = f"tie of {len(verdict['confidence_set'])}: take the cheapest, {settings[verdict['choice']]}"
    alone = []
    for part in found["by_source"]:
        if part["agreement"] == "too_few":
            alone.append(f"{_SHORT.get(part['source'], part['source'])}: too few ({part['queries']})")
            continue
        what = "use" if (part["decision"] or "").startswith("use") else "tie,"
        alone.append(f"{_SHORT.get(part['source'], part['source'])}: {part['agreement']} ({what} "
                     f"{settings[part['choice']]})")  # fmt: skip
    held = verdict.get("holdout")
    newer = "none" if not held else (f"{held['outcome']} (power {held['power']:.0%}"
                                     f"{'' if held['powered'] else ', kept in holdout'}): the choice "
                                     f"{settings[held['chosen']]} vs {settings[held['runner_up']]} on the newer "
                                     f"{held['newer']}: {held['difference']:+.3f} [{held['low']:+.3f}, "
                                     f"{held['high']:+.3f}]")  # fmt: skip
    counts = " / ".join(str(sources.get(name, 0)) for name in _SHORT)
    return (f"| {Path(found['folder']).name} ({found['commit'][:7]}, {found['commits']:,}) | {counts} | {said} | "
            f"{'; '.join(alone)} | {newer} | {found['seconds']:.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("clones", nargs="*", help="git clones with their history")
    parser.add_argument("--rows", help="print the rows of the JSON files a run kept in this folder, sweeping nothing")
    parser.add_argument("--sizes", default="10,20,30,40,50,60", help="chunk sizes, comma-separated")
    parser.add_argument("--json", help="a folder to keep each clone's figures in, as JSON")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    print("| repository (commit, commits) | queries: doc comments / test names / commits | the decision | "
          "each source alone | on newer commits | seconds |")
    print("| --- | --- | --- | --- | --- | --- |")
    if args.rows:
        for kept in sorted(Path(args.rows).glob("*.json")):
            print(row(json.loads(kept.read_text())))
        return
    for folder in args.clones:
        found = measured(folder, sizes)
        if args.json:
            Path(args.json, Path(folder).name + ".json").write_text(json.dumps(found, indent=1, default=str))
        print(row(found), flush=True)


if __name__ == "__main__":
    main()
