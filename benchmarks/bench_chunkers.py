"""Which chunker finds the code on a real repository: every chunker at one size budget, scored by one probe.

Usage: python benchmarks/bench_chunkers.py [FOLDER ...] [--size N] [--markdown FILE]

Each FOLDER (default: the two clones of the corpus, /work/corpus-git/httpx and /work/corpus-git/zod) is swept once
with `cn.sweep(folder, chunk_size=[30], probe=True, chunkers=...)`: clanka at its default settings (the engine's
row, whose seconds are clanka's own parse and cut of every file, `chunk_with(chunkers.clanka(), folder)`, timed as
the peers are: the same chunks, left out of the sweep so that the verdict does not compare a row with its
copy), clanka in extended mode (declarations in Python and the other languages it knows too), line
windows and every peer of the `chunkers` extra, all from one budget of N non-whitespace characters per chunk
(the unit the cAST paper, arXiv 2506.15655, matches chunkers by; default 1200), converted to each peer's own
unit at the folder's own ratio of characters to non-whitespace characters (`Budget.measured_on`).
The line windows are cAST's fixed-size baseline: lines added while the chunk stays within the budget's characters.

The probe is the default one: BM25, the default queries (doc comments, test names and, at a clone's top, the
last 500 commit messages), masking, targets and the default token budget of 2000 tokens. The table gives per
chunker budget_covered@2000 and budget_found@2000 with their 95% intervals, tokens@5, recall@5, MRR, the
chunks, the files it does not handle (cut into clanka's line windows instead) and its seconds, and below it
the verdict over all rows. A FOLDER given as `PATH:SUB` sweeps only the subfolder SUB of the clone PATH, with
the clone's commit messages as queries too (`history_queries` of the subfolder). Nothing is downloaded.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import sys
import time
from pathlib import Path

import pandas as pd

import clanka_nb as cn
from clanka_nb import chunkers, engine
from clanka_nb.chunkers._named import WINDOW_LINES
from clanka_nb.extras import MissingExtraError
from clanka_nb.retrieval.internals import ProbeScorer, compared
from clanka_nb.sweeps import run_chunker

DEFAULT_FOLDERS = ["/work/corpus-git/httpx", "/work/corpus-git/zod"]
CLANKA = "clanka, languages=extended, at the budget"
# The ablation: each chunk indexed with its chunker's own header (clanka's carries name, type and parent; a peer's
# the path alone), then every chunker's with the path alone, so that only the cutting differs.
HEADERS = {"chunker": "each chunker's own header", "path": "the path alone for every chunker"}
BUDGET = 2000  # the probe's default token budget (clanka_nb.defaults.DEFAULT_BUDGET)
SHOWN = ["chunker", "chunks", "fallback files", f"budget_covered@{BUDGET} [95%]", f"budget_found@{BUDGET} [95%]",
         "tokens@5", "recall@5 [95%]", "MRR [95%]", "seconds"]  # fmt: skip


def every_chunker(budget: chunkers.Budget) -> dict[str, chunkers.Chunker]:
    """clanka as a chunker, line windows and each installed peer, all at `budget`; a missing peer is said and
    left out (the table then has one row fewer)."""
    out: dict[str, chunkers.Chunker] = {
        # At its defaults clanka cuts declarations in JS/TS only; extended mode parses Python and more languages.
        # Held to the peers' budget as they are: a declaration is one chunk up to the budget's characters, cut by
        # characters past it (no line limit of its own, as the line windows have none).
        CLANKA: chunkers.clanka(WINDOW_LINES, 0, budget.characters, languages="extended"),
        "line windows (cAST's fixed-size)": chunkers.NAMED["line-windows"](budget),
    }
    for name, factory in chunkers.PEERS.items():
        try:
            adapter = factory(budget)
        except MissingExtraError as error:
            print(f"skipped {name}: {error}", file=sys.stderr)
            continue
        out[adapter.label] = adapter
    return out


def probe_for(folder: str) -> tuple[str, cn.Probe]:
    """The folder to sweep and its probe: the default one, or for `PATH:SUB` the subfolder with the clone's
    commit messages as queries beside its own doc comments and test names."""
    root, _, sub = folder.partition(":")
    if not sub:
        return root, cn.Probe()
    inside = str(Path(root) / sub)
    queries = pd.concat([cn.probe_queries(inside, progress=False), cn.unit_test_queries(inside, progress=False),
                         cn.history_queries(inside, progress=False)], ignore_index=True)  # fmt: skip
    return inside, cn.Probe(queries=queries)


def with_interval(row: pd.Series, name: str) -> str:
    low, high = row.get(f"{name}_low"), row.get(f"{name}_high")
    if low is None or pd.isna(low):
        return f"{row[name]:.3f}"
    return f"{row[name]:.3f} [{low:.3f}, {high:.3f}]"


def table_markdown(table: pd.DataFrame, clanka_seconds: float) -> str:
    lines = ["| " + " | ".join(SHOWN) + " |", "|" + " --- |" * len(SHOWN)]
    for _, row in table.iterrows():
        engine_row = not pd.isna(row["chunk_size"])
        label = f"clanka engine, chunk_size={row['chunk_size']}" if engine_row else row["chunker_label"]
        cells = [label, f"{row['chunks']:,}", f"{row['fallback_files']}",
                 with_interval(row, f"budget_covered@{BUDGET}"), with_interval(row, f"budget_found@{BUDGET}"),
                 f"{row['tokens@5']:.0f}", with_interval(row, "recall@5"), with_interval(row, "mrr"),
                 f"{clanka_seconds if engine_row else row['seconds']:.2f}"]  # fmt: skip
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


WINDOWS = "line windows (cAST's fixed-size)"
STRUCTURE_AWARE = ("astchunk", "chonkie CodeChunker", "LangChain from_language", "LlamaIndex CodeSplitter",
                   "semantic-text-splitter CodeSplitter", CLANKA)  # fmt: skip


def against_windows(codebase: engine.Codebase, probe: cn.Probe, every: dict[str, chunkers.Chunker]) -> list[str]:
    """cAST's question, one pair at a time: each structure-aware chunker against the fixed-size windows on the
    same queries, by the verdict's clustered test of the two (each pair on its own: not corrected for the number
    of pairs, unlike the sweep's verdict), on budget_covered@2000 and on recall@5 (the paper's measure)."""
    scorer = ProbeScorer(codebase, probe)
    paths = list(scorer.probe_set.index.paths)
    fallback = engine.ChunkSettings.build(warn=False)
    outcomes = {}
    for label in (WINDOWS, *STRUCTURE_AWARE):
        if label in every:
            scorer.columns_of(run_chunker(codebase, paths, every[label], fallback).heads, {"chunker": label})
            outcomes[label] = scorer.outcomes[-1]
    lines = []
    for label in STRUCTURE_AWARE:
        if label in outcomes:
            said = [compared(outcomes[WINDOWS], outcomes[label], metric, scorer.probe_set.groups)
                    .removeprefix("now vs before: ")
                    for metric in (f"budget_covered@{BUDGET}", "recall@5")]  # fmt: skip
            lines.append(f"- {label} minus line windows: " + "; ".join(said))
    return lines


def run(folder: str, size: int) -> str:
    source, given = probe_for(folder)
    budget = chunkers.Budget(size, "non_whitespace").measured_on(source)
    started = time.perf_counter()
    codebase = engine.Codebase(source)  # parsed once: the sweeps and the pairs below share it
    parsed = time.perf_counter() - started
    every = every_chunker(budget)
    clanka_seconds = chunkers.chunk_with(chunkers.clanka(), source).seconds  # the engine's row's: parse and cut
    head = (f"### {folder}\n\n{len(cn.list_files(source)):,} files; budget {budget.non_whitespace} non-whitespace "
            f"characters = {budget.characters} characters at this code's "
            f"{budget.characters_per_non_whitespace:.2f} characters per non-whitespace one (the parse took "
            f"{parsed:.1f} s).\n")
    parts = [head]
    for header, said in HEADERS.items():
        probe = dataclasses.replace(given, header=header)
        took = time.perf_counter()
        table = cn.sweep(codebase, chunk_size=[30], probe=probe, chunkers=every, progress=False)
        verdict = table.attrs["verdict"]
        parts.append(f"#### Indexed with {said} (`Probe(header={header!r})`)\n\n{table['queries'].iloc[0]:,} "
                     f"queries ({table.attrs['probe_note']}); the sweep took {time.perf_counter() - took:.0f} s.\n\n"
                     f"{table_markdown(table, clanka_seconds)}\n\nVerdict ({verdict['metric']}): {verdict['message']}"
                     f"\n\nEach structure-aware chunker against the fixed-size line windows (paired test per pair):"
                     f"\n\n" + "\n".join(against_windows(codebase, probe, every)) + "\n")  # fmt: skip
    return "\n".join(parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", default=DEFAULT_FOLDERS)
    parser.add_argument("--size", type=int, default=1200, help="non-whitespace characters per chunk")
    parser.add_argument("--markdown", default=None, help="also write the tables to this file")
    args = parser.parse_args()
    conditions = (f"{time.strftime('%Y-%m-%d', time.gmtime())}, {os.cpu_count()} CPUs seen "
                  f"({platform.processor() or platform.machine()}), Python {platform.python_version()}")
    parts = [f"Measured {conditions}.\n"]
    for folder in args.folders:
        part = run(folder, args.size)
        print(part, flush=True)
        parts.append(part)
    if args.markdown:
        Path(args.markdown).write_text("\n".join(parts), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
