"""What a query's target is (code, a test, docs, a changelog), which queries are one unit of evidence, and
the probe's metrics broken down by query source and by target kind."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import pandas as pd

from ._test_names import TEST_FILE

# The kinds of file a target can lie in, in the order a history query's target prefers them.
TARGET_KINDS = ("code", "test", "docs", "changelog")
# Release notes, whatever the folder: the file names keep-a-changelog, towncrier and changesets use.
_CHANGELOG = re.compile(r"(?:^|/)(?:CHANGELOG|CHANGES|HISTORY|NEWS|RELEASES?)(?:[._-][^/]*)?$|(?:^|/)\.changeset/",
                        re.IGNORECASE)  # fmt: skip
# Prose for readers: documentation folders (zod's docs-v3/ too) and markup files (a README anywhere is docs).
_DOCS = re.compile(r"(?:^|/)(?:docs?|documentation|site|website)(?:[-_][^/]*)?/"
                   r"|\.(?:md|mdx|markdown|rst|txt|adoc|ipynb)$|(?:^|/)README[^/]*$", re.IGNORECASE)  # fmt: skip


def target_kind(path: str) -> str:
    """One of TARGET_KINDS for a file path: a changelog first (CHANGELOG.md is also markdown), then a test
    (the test-name queries' own rule, so a test file is one kind everywhere), then docs, else code."""
    if _CHANGELOG.search(path):
        return "changelog"
    if TEST_FILE.search(path):
        return "test"
    if _DOCS.search(path):
        return "docs"
    return "code"


def target_kinds(queries: pd.DataFrame) -> pd.Series:
    """Each query's target kind: its `target_kind` column where set, else from its path."""
    from_path = queries["path"].astype(str).map(target_kind)
    if "target_kind" not in queries:
        return from_path.astype("string")
    given = queries["target_kind"].astype("string")
    return given.fillna(from_path.astype("string"))


def query_groups(queries: pd.DataFrame) -> np.ndarray:
    """A cluster id per query (0, 1, ... in order of first appearance): queries that share a target (path and
    lines), a commit, or a `group` id given in the frame are one unit, transitively.

    A commit's message and the doc comment of the function it changed point at the same code: their
    outcomes rise and fall together, so counting them as two independent draws would narrow every interval."""
    count = len(queries)
    parent = list(range(count))

    def root(item: int) -> int:
        while parent[item] != item:
            parent[item] = parent[parent[item]]  # path halving keeps the trees flat
            item = parent[item]
        return item

    keys: list[Sequence[Any]] = [list(zip(queries["path"].astype(str), queries["start_line"].astype(int),
                                          queries["end_line"].astype(int), strict=True))]  # fmt: skip
    keys.extend([None if pd.isna(value) else value for value in queries[column].astype(object)]
                for column in ("commit", "group") if column in queries)  # fmt: skip
    for values in keys:
        first: dict[Any, int] = {}
        for row, value in enumerate(values):
            if value is None:
                continue
            if value in first:
                parent[root(row)] = root(first[value])
            else:
                first[value] = row
    codes = pd.factorize(np.array([root(row) for row in range(count)], dtype=np.int64))[0]
    return cast("np.ndarray", codes.astype(np.int64))


def breakdown(
    scores: dict[str, np.ndarray], labels: pd.Series, name: str, row: int, settings: dict[str, Any],
) -> list[dict[str, Any]]:
    """One record per label (a source or a target kind, in the column `name`) of one sweep row: the row, its
    settings, the label, its queries and each metric's mean over them (plain values: a sweep table still
    saves to Parquet)."""
    out = []
    values = labels.astype(str).to_numpy()
    for label in sorted(set(values.tolist())):
        picked = values == label
        record: dict[str, Any] = {"row": row, **settings, name: label, "queries": int(picked.sum())}
        record.update({metric: float(score[picked].mean()) for metric, score in scores.items()})
        out.append(record)
    return out
