"""History queries' targets have one meaning (the declaration a commit changed, code by default), subjects with
no search intent are dropped and counted, and queries sharing a target are one cluster of the verdict."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from clanka_nb import sweep
from clanka_nb.retrieval import Probe, history_queries, probe
from clanka_nb.retrieval.queries._history import HISTORY_REASONS
from clanka_nb.retrieval.queries._targets import query_groups, target_kind
from tests.retrieval.test_history_queries import commit, function, run_git

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")


def long_function(name: str, marker: str, extra: str = "") -> str:
    body = "".join(f"  value = value + {i}; // step {i}\n" for i in range(8))
    extra = f"  {extra}\n" if extra else ""
    return f"export function {name}(value: number) {{\n{body}  {marker}\n{extra}  return value;\n}}\n"


def new_repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    run_git(root, "init", "-q", "-b", "main")
    return root


@pytest.mark.filterwarnings("ignore::clanka_nb.retrieval.FlatRecallWarning")  # few queries, each found at every setting
def test_releases_reverts_and_intent_free_subjects_are_dropped_and_counted(tmp_path):
    root = new_repo(tmp_path)
    kept = commit(root, "Add the parser of price labels", {"src/price.ts": function("parse", "value += 1;")})
    # Each of these adds code that survives: only its subject drops it.
    for number, subject in enumerate(["Version 0.24.0 (#2652)", "0.24.0 release notes",
                                      'Revert "Add the parser of price labels"', "fix typos and links",
                                      "Tiny refactor", "Fix typo in the price parser module"]):  # fmt: skip
        commit(root, subject, {f"src/m{number}.ts": function(f"m{number}", f"value += {number};")})
    queries = history_queries(root, revs="HEAD~20..HEAD", progress=False)
    assert queries["commit"].tolist() == [kept]
    assert queries.attrs["dropped"] == {"version": 2, "revert": 1, "intent_free": 3}
    assert set(queries.attrs["dropped"]) <= set(HISTORY_REASONS)
    # The counts travel to the sweep table, by source.
    table = sweep(root, chunk_size=[4, 20], probe=Probe(reference=False, queries=queries), progress=False)
    assert table.attrs["dropped"] == {"history": queries.attrs["dropped"]}


def test_a_changelog_only_target_is_dropped_by_default_and_kept_with_targets_all(tmp_path):
    root = new_repo(tmp_path)
    commit(root, "Add the parser of price labels", {"src/price.ts": function("parse", "value += 1;")})
    # The commit's code lines are rewritten later: what survives of it is its CHANGELOG entry.
    noted = commit(root, "Parse prices written with a thousands separator",
                   {"src/price.ts": function("parse", "value += 2;"),
                    "CHANGELOG.md": "# Changes\n\n- Prices with a thousands separator parse.\n"})  # fmt: skip
    commit(root, "Parse the price label as cents instead", {"src/price.ts": function("parse", "value *= 100;")})
    code = history_queries(root, revs="HEAD~5..HEAD", progress=False)
    assert noted not in set(code["commit"]) and code.attrs["dropped"]["not_code"] == 1
    assert code.attrs["targets"] == "code" and set(code["target_kind"]) == {"code"}
    every = history_queries(root, revs="HEAD~5..HEAD", progress=False, targets="all").set_index("commit")
    assert "not_code" not in every.attrs["dropped"]
    row = every.loc[noted]
    assert (row["path"], row["target_kind"], row["start_line"], row["end_line"]) == ("CHANGELOG.md", "changelog", 1, 3)
    with pytest.raises(ValueError, match="targets must be 'code'"):
        history_queries(root, revs="HEAD~5..HEAD", progress=False, targets="tests")


def test_the_target_is_the_declaration_holding_the_change_the_same_at_every_setting(tmp_path):
    root = new_repo(tmp_path)
    commit(root, "Add the parser of price labels", {"src/price.ts": long_function("parse", "value += 1;")
                                                    + "\n" + function("other", "value -= 1;")})  # fmt: skip
    # One line changed in the middle of a 13-line function: the target is the function, not the line.
    changed = commit(root, "Round the parsed price to whole cents", {"src/price.ts": long_function(
        "parse", "value = Math.round(value);") + "\n" + function("other", "value -= 1;")})  # fmt: skip
    queries = history_queries(root, revs="HEAD~5..HEAD", progress=False).set_index("commit")
    row = queries.loc[changed]
    assert (row["name"], row["type"], row["start_line"], row["end_line"]) == ("parse", "function", 1, 12)
    given = queries.reset_index()
    small, large = (probe(root, Probe(queries=given), chunk_size=size, progress=False) for size in (3, 40))
    targets = ["path", "start_line", "end_line"]
    pd.testing.assert_frame_equal(small[targets], large[targets])


def test_queries_sharing_a_target_or_a_commit_are_one_group(tmp_path):
    root = new_repo(tmp_path)
    commit(root, "Add the parser of price labels", {"src/price.ts": long_function("parse", "value += 1;")
                                                    + "\n" + function("other", "value -= 1;")})  # fmt: skip
    first = commit(root, "Round the parsed price to whole cents", {"src/price.ts": long_function(
        "parse", "value = Math.round(value);") + "\n" + function("other", "value -= 1;")})  # fmt: skip
    # Another line of the same function: both commits target it, so they are one cluster.
    clamped = long_function("parse", "value = Math.round(value);", "value = Math.max(0, value);")
    second = commit(root, "Clamp negative prices to zero when parsing",
                    {"src/price.ts": clamped + "\n" + function("other", "value -= 1;")})  # fmt: skip
    elsewhere = commit(root, "Let the other helper subtract two",
                       {"src/price.ts": clamped + "\n" + function("other", "value -= 2;")})  # fmt: skip
    queries = history_queries(root, revs="HEAD~5..HEAD", progress=False).set_index("commit")
    group = queries["group"]
    assert group[first] == group[second] != group[elsewhere]
    # Across sources too: a frame with no group column is grouped by target, then by commit.
    frame = pd.DataFrame({"path": ["a.ts", "a.ts", "b.ts", "c.ts", "d.ts"], "start_line": [1, 1, 1, 1, 1],
                          "end_line": [5, 5, 5, 5, 5], "commit": [None, None, "x", "x", None]})  # fmt: skip
    assert query_groups(frame).tolist() == [0, 0, 1, 1, 2]


@pytest.mark.parametrize(("path", "kind"), [
    ("src/price.ts", "code"), ("httpx/_client.py", "code"), ("tests/test_client.py", "test"),
    ("packages/zod/src/v4/classic/tests/string.test.ts", "test"), ("docs/api.md", "docs"), ("README.md", "docs"),
    ("packages/docs-v3/index.html", "docs"),
    ("CHANGELOG.md", "changelog"), ("packages/zod/CHANGELOG.md", "changelog"),
    (".changeset/brave-cats.md", "changelog"),
])  # fmt: skip
def test_target_kinds_from_paths(path, kind):
    assert target_kind(path) == kind


@pytest.mark.filterwarnings("ignore::clanka_nb.retrieval.FlatRecallWarning")  # few queries, each found at every setting
def test_the_sweep_reports_every_metric_by_source_and_by_target_kind(tmp_path):
    root = new_repo(tmp_path)
    commit(root, "Add the parser of price labels", {"src/price.ts": function("parse", "value += 1;"),
                                                    "tests/price.test.ts": function("check", "expect(1);")})
    commit(root, "Add a test of the price parser", {"tests/price.test.ts": function("check", "expect(2);")})
    queries = history_queries(root, revs="HEAD~5..HEAD", progress=False, targets="all")
    table = sweep(root, chunk_size=[4, 20], probe=Probe(reference=False, queries=queries), progress=False)
    kinds = pd.DataFrame(table.attrs["by_kind"])
    assert set(kinds["target_kind"]) == {"code", "test"} and kinds["row"].tolist() == [0, 0, 1, 1]
    assert {"queries", "recall@1", "recall@5", "recall@10", "mrr", "chunk_size"} <= set(kinds.columns)
    for row, part in kinds.groupby("row"):
        # The parts add up to the row: its queries, and its mean as their weighted mean.
        assert part["queries"].sum() == table["queries"].iloc[row]
        assert np.isclose((part["mrr"] * part["queries"]).sum() / part["queries"].sum(), table["mrr"].iloc[row])
    sources = pd.DataFrame(table.attrs["by_source"])
    assert set(sources["source"]) == {"history"} and sources["queries"].tolist() == [2, 2]
