"""The probe's queries by default: doc comments and test names, plus commit messages at a git clone's top."""

from __future__ import annotations

from typing import NamedTuple

import pandas as pd

from ... import engine
from ...history.internals import ChurnError, repository
from ._history import DEFAULT_REVS, HISTORY, history_query_rows
from ._queries import Masks, declared_texts, scan
from ._targets import query_groups, target_kinds
from ._test_names import scan_test_names

# The default queries' columns: those of history_queries (comment lines NA for commits, commit NA for
# comments; every row's target_kind and group) and which source each came from.
SOURCES = ("doc_comments", "test_names", "history")
COMBINED = {**HISTORY, "source": pd.StringDtype()}


class Sources(NamedTuple):
    """The default queries, the doc comments to mask, the count each source gave, a note saying so, and why
    there is no query (None when there is one)."""

    queries: pd.DataFrame
    masks: Masks
    counts: dict[str, int]
    note: str
    reason: str | None
    history_error: str | None = None  # why the history of a clone's top could not be read (its queries left out)


def history_skipped(codebase: engine.Codebase) -> str | None:
    """Why the default leaves commit messages out for this codebase (None: it uses them)."""
    try:
        _, prefix = repository(codebase.root)
    except ChurnError as error:
        return str(error).split(";")[0]
    if prefix:
        # A folder inside a bigger clone (the sample inside a clone of clanka-nb): its history is its parent's,
        # so the default stays the same wherever the folder lives. history_queries(folder) reads it when asked.
        return (f"{str(codebase.root)!r} is a folder inside a git clone, not its top; pass "
                "Probe(queries=history_queries(folder)) to use its history")
    return None


def merged_masks(*masks: Masks) -> Masks:
    """Several sources' masks as one (path -> line -> the line with the query's text blanked)."""
    out: Masks = {}
    for mask in masks:
        for path, lines in mask.items():
            out.setdefault(path, {}).update(lines)
    return out


def all_masks(codebase: engine.Codebase) -> Masks:
    """What the probe blanks whatever the queries: every doc comment and every test name."""
    texts = declared_texts(codebase)
    return merged_masks(scan(codebase, texts).masks, scan_test_names(codebase, texts).masks)


def default_queries(codebase: engine.Codebase, targets: str = "code") -> Sources:
    """Doc-comment and test-name queries, and commit-message queries (`history_queries` at its defaults, but
    `targets`) when the codebase's root is the top of a git clone; with a `source` column naming each row's source.
    A history git cannot read (no commit yet, a damaged commit) leaves the commit messages out: the note
    says why, as it does for a folder that is not a clone's top, and `history_error` holds it."""
    texts = declared_texts(codebase)
    found = scan(codebase, texts)
    tests = scan_test_names(codebase, texts)
    frames = [found.queries.assign(commit=pd.NA, source="doc_comments"),
              tests.queries.drop(columns=["test_path", "test_line"]).assign(commit=pd.NA, source="test_names")]
    counts = {"doc_comments": len(found.queries), "test_names": len(tests.queries)}
    dropped = {"doc_comments": dict(found.queries.attrs.get("dropped", {})),
               "test_names": dict(tests.queries.attrs.get("dropped", {}))}  # fmt: skip
    skipped = history_skipped(codebase)
    languages = tests.queries.attrs.get("by_language", {})
    parts = [f"{len(found.queries):,} from doc comments", f"{len(tests.queries):,} from test names" + (
        " (" + ", ".join(f"{grammar} {count:,}" for grammar, count in languages.items()) + ")" if languages else "")]
    error = history = None
    if skipped is None:
        try:
            history, _ = history_query_rows(codebase, DEFAULT_REVS, progress=False, targets=targets)
        except ChurnError as failed:  # no commit yet, or a damaged one: the other sources still probe
            error = skipped = " ".join(str(failed).split())
    if history is not None:
        frames.append(history.assign(source="history"))
        counts["history"] = len(history)
        dropped["history"] = dict(history.attrs["dropped"])
        parts.append(f"{len(history):,} from commit messages ({DEFAULT_REVS}, {history.attrs['commits']:,} commits)")
    else:
        parts.append(f"none from commit messages: {skipped}")
    queries = pd.concat([frame for frame in frames if len(frame)] or frames[:1], ignore_index=True)
    # Groups span the sources: a commit and the doc comment of the function it changed share a target.
    queries = queries.drop(columns=["group"], errors="ignore")
    queries["target_kind"] = target_kinds(queries)
    queries["group"] = query_groups(queries)
    queries = queries.astype({name: dtype for name, dtype in COMBINED.items() if name in queries.columns})
    queries.attrs = {"root": str(codebase.root), "languages": codebase.languages, "query_sources": counts,
                     "dropped": dropped, "test_name_languages": dict(languages)}  # fmt: skip
    note = "queries: " + "; ".join(parts)
    reason = None
    if not len(queries):
        reason = found.reason or "none of its doc comments gives a query"
        reason += ", no test name gives one" + ("" if skipped is not None else f", nor any commit of {DEFAULT_REVS}")
    return Sources(queries, merged_masks(found.masks, tests.masks), counts, note, reason, error)
