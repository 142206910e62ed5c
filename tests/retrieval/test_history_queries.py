"""History queries: commit messages targeting the lines each commit added that still exist, checked against git."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from clanka_nb import engine
from clanka_nb.history import ChurnError
from clanka_nb.retrieval import history_queries
from clanka_nb.retrieval.queries._history import HISTORY_REASONS, message_query
from clanka_nb.retrieval.queries._queries import declared_texts
from tests._shared import clone_history

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")


def run_git(repo: Path, *args: str, author: str = "Ann Author <ann@example.org>") -> str:
    name, email = author[: author.index(" <")], author[author.index("<") + 1 : -1]
    env = {**os.environ, "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_CONFIG_GLOBAL": os.devnull}  # fmt: skip
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env).stdout


def commit(repo: Path, message: str, files: dict[str, str], author: str = "Ann Author <ann@example.org>") -> str:
    for name, text in files.items():
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    run_git(repo, "add", "-A")
    run_git(repo, "commit", "-q", "-m", message, author=author)
    return run_git(repo, "rev-parse", "HEAD").strip()


def function(name: str, body: str) -> str:
    return f"export function {name}(value: number) {{\n  {body}\n  return value;\n}}\n"


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A small history with one commit of every kind; `hashes` names them."""
    root = tmp_path_factory.mktemp("history") / "repo"
    root.mkdir()
    run_git(root, "init", "-q", "-b", "main")
    hashes = {}
    hashes["first"] = commit(root, "Add the parser of price labels", {"src/price.ts": function("parse", "value += 1;")})
    hashes["bot"] = commit(root, "Update the lock file with the new hashes", {"src/bot.ts": function("bot", "x();")},
                           author="dependabot[bot] <bot@example.org>")  # fmt: skip
    hashes["version"] = commit(root, "Version Packages (#12)", {"package.json": '{"version": "1.0.1"}\n'})
    hashes["rewritten"] = commit(root, "Clamp the discount to the price range", {"src/discount.ts": function(
        "discount", "value = Math.min(value, 100);")})  # fmt: skip
    hashes["short"] = commit(root, "tax rate", {"src/tax.ts": function("tax", "value *= 1.2;")})
    hashes["wide"] = commit(root, "Rename the value argument in every module",
                            {f"src/m{i}.ts": function(f"m{i}", f"value += {i};") for i in range(10)})  # fmt: skip
    # A line inserted at the top moves the parser's lines: the target must follow them.
    hashes["shifter"] = commit(root, "TIM-42: Import the currency table for labels (#7)",
                               {"src/price.ts": 'import { table } from "./table";\n'
                                + function("parse", "value += 1;")})  # fmt: skip
    hashes["formatting"] = commit(root, "Reformat the tax module with the new style",
                                  {"src/tax.ts": function("tax", "value  *=  1.2;")})  # fmt: skip
    # The discount module is rewritten: the first discount commit has no line left.
    hashes["rewrite"] = commit(root, "Round the discount to whole cents always",
                               {"src/discount.ts": "export const discount = (v: number) => Math.round(v);\n"})
    run_git(root, "checkout", "-q", "-b", "side")
    hashes["side"] = commit(root, "Add the rounding helper for totals", {"src/round.ts": function("round", "y();")})
    run_git(root, "checkout", "-q", "main")
    run_git(root, "merge", "-q", "--no-ff", "-m", "Merge branch side into main for release", "side")
    hashes["same1"] = commit(root, "Fix the label cache key", {"src/a.ts": function("a", "a1();")})
    hashes["same2"] = commit(root, "Fix the label cache key", {"src/b.ts": function("b", "b1();")})
    # Not committed: a blank line at the top of price.ts moves every line once more (matched by content).
    (root / "src" / "price.ts").write_text("\n" + (root / "src" / "price.ts").read_text())
    return root, hashes


def test_each_kind_of_commit_is_kept_or_dropped_with_its_reason(repo):
    root, hashes = repo
    queries = history_queries(root, revs="HEAD~30..HEAD", progress=False)
    rows = {row["commit"]: row for row in queries.astype(object).to_dict("records")}
    assert set(rows) == {hashes["first"], hashes["shifter"], hashes["rewrite"], hashes["side"]}
    assert queries.attrs["dropped"] == {"merge": 1, "bot": 1, "version": 1, "too_many_files": 1, "short": 1,
                                        "formatting": 1, "no_target": 1, "duplicate": 2}  # fmt: skip
    assert set(queries.attrs["dropped"]) <= set(HISTORY_REASONS)
    assert queries.attrs["source"] == "history" and queries.attrs["commits"] == 13
    # The parser's body moved down by the import (committed) and a blank line (not committed).
    first = rows[hashes["first"]]
    assert (first["query"], first["path"], first["name"], first["type"]) == (
        "Add the parser of price labels", "src/price.ts", "parse", "function")
    assert (first["start_line"], first["end_line"]) == (3, 6)
    shifter = rows[hashes["shifter"]]
    assert shifter["query"] == "Import the currency table for labels"  # no ticket id, no pull request number
    # An import is in no declaration: the target is the file (the blank line, the import, the function).
    assert (shifter["start_line"], shifter["end_line"], shifter["name"]) == (1, 6, None)
    assert (rows[hashes["rewrite"]]["start_line"], rows[hashes["rewrite"]]["end_line"]) == (1, 1)
    assert queries["comment_start"].isna().all()
    assert set(queries["target_kind"]) == {"code"}


def test_max_files_and_a_range_before_the_first_commit(repo):
    root, hashes = repo
    wide = history_queries(root, revs="HEAD~500..HEAD", max_files=None, progress=False)
    assert hashes["wide"] in set(wide["commit"])  # HEAD~500 lies before the first commit: all of them
    assert "too_many_files" not in wide.attrs["dropped"]
    one = history_queries(root, revs=hashes["first"], progress=False)
    assert one["commit"].tolist() == [hashes["first"]]


def test_an_unknown_revision_is_an_error_naming_the_range(repo):
    root, _ = repo
    with pytest.raises(ChurnError, match=r"cannot read the revisions 'nope\.\.HEAD'.*e\.g\. 'HEAD~500\.\.HEAD'"):
        history_queries(root, revs="nope..HEAD", progress=False)


def test_a_folder_inside_the_clone_reads_its_own_commits_with_its_own_paths(repo):
    root, _ = repo
    whole = history_queries(root, revs="HEAD~30..HEAD", progress=False).set_index("commit")
    inside = history_queries(root / "src", revs="HEAD~30..HEAD", progress=False).set_index("commit")
    assert set(inside.index) == set(whole.index)  # every kept commit changed src/
    for commit in inside.index:
        assert "src/" + inside.loc[commit, "path"] == whole.loc[commit, "path"]
        assert inside.loc[commit, "start_line"] == whole.loc[commit, "start_line"]
    assert "version" not in inside.attrs["dropped"]  # package.json's commit is outside src/: not listed
    assert inside.attrs["commits"] < whole.attrs["commits"]


@pytest.mark.parametrize("revs", ["--output=/tmp/x", "HEAD..--all", "", None, "HEAD~1..HEAD\0--all", "HEAD\n--all"])
def test_revisions_never_become_options(repo, revs):
    root, _ = repo
    with pytest.raises(ChurnError, match="revs"):
        history_queries(root, revs=revs, progress=False)


def test_a_folder_that_is_no_repository_is_an_error_naming_the_fix(tmp_path):
    (tmp_path / "a.ts").write_text(function("a", "a();"))
    with pytest.raises(ChurnError, match="not a git repository"):
        history_queries(tmp_path, progress=False)


@pytest.mark.parametrize(
    ("message", "query"),
    [
        ("feat(parser): handle empty input", "parser: handle empty input"),
        ("TIM-688: reconcile Codex auth JWT errors\n\nKeep JWT claim parsing as best-effort. More text. And more.",
         "reconcile Codex auth JWT errors. Keep JWT claim parsing as best-effort."),
        ("Add tests (#12)\n\n* first squashed commit\n* second", "Add tests"),
        ("Fix the cache\n\nCo-authored-by: B <b@example.org>", "Fix the cache"),
    ],
)
def test_message_query(message, query):
    assert message_query(message) == query


def _added_lines(repo: Path, commit: str, path: str) -> list[str]:
    """The lines `git show` says the commit added to `path`, in order."""
    out = subprocess.run(["git", "-C", str(repo), "show", "--format=", "-U0", "--no-renames", "--no-ext-diff",
                          "--no-color", commit, "--", path], capture_output=True, text=True, check=True).stdout
    return [line[1:] for line in out.splitlines() if line.startswith("+") and not line.startswith("+++ ")]


def _is_subsequence(part: list[str], whole: list[str]) -> bool:
    found = iter(whole)
    return all(any(line == other for other in found) for line in part)


@pytest.fixture(scope="module")
def clanka(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return clone_history(tmp_path_factory)


def test_clanka_history_gives_90_queries_each_target_checked_against_git_show(clanka):
    queries = history_queries(clanka, progress=False)
    assert len(queries) >= 90
    codebase = engine.Codebase(clanka)
    texts = declared_texts(codebase)
    for row in queries.astype(object).to_dict("records"):
        lines = codebase.text(row["path"]).lines[row["start_line"] - 1 : row["end_line"]]
        assert lines and any(engine.is_meaningful_line(line) for line in lines)
        # The target holds a line the commit added, and is a declaration of its file or the whole file.
        added = set(_added_lines(clanka, row["commit"], row["path"]))
        assert any(line in added for line in lines if engine.is_meaningful_line(line)), row
        whole = (row["start_line"], row["end_line"]) == (1, len(codebase.text(row["path"]).lines))
        assert whole or any(start <= row["start_line"] and row["end_line"] == end and d.name == row["name"]
                            for start, end, d, _ in texts[row["path"]].plan()), row  # fmt: skip
        assert not re.search(r"\(#\d+\)|^[A-Z]+-\d+", row["query"])
    assert queries["query"].is_unique and set(queries["target_kind"]) == {"code"}
    dropped = queries.attrs["dropped"]
    assert dropped["bot"] > 0 and dropped["merge"] > 0 and dropped["version"] > 0
    kept = history_queries(clanka, progress=False, targets="all")
    assert set(kept["target_kind"]) > {"code"} and "not_code" not in kept.attrs["dropped"]
    # A commit that changed code targets the same code whichever kinds are kept.
    both = queries.merge(kept, on="commit", suffixes=("", "_all"))
    assert len(both) == len(queries)
    assert (both["start_line"] == both["start_line_all"]).all() and (both["path"] == both["path_all"]).all()


def test_clanka_tests_give_test_name_queries_tied_to_the_function_they_call(clanka):
    from clanka_nb.retrieval import unit_test_queries

    queries = unit_test_queries(clanka, progress=False)
    assert len(queries) >= 100
    codebase = engine.Codebase(clanka)
    for row in queries.astype(object).to_dict("records"):
        test_line = codebase.text(row["test_path"]).lines[row["test_line"] - 1]
        assert row["query"].split()[0] in test_line  # the name is where the row says
        target = codebase.text(row["path"]).lines[row["start_line"] - 1]
        assert row["name"] in target and row["path"] != row["test_path"]
        assert row["name"] in "\n".join(codebase.text(row["test_path"]).lines)  # the test file names it


@pytest.mark.filterwarnings("ignore::clanka_nb.retrieval.FlatRecallWarning")  # few queries, each found at every setting
def test_quoted_file_names_and_a_hostile_config_run_nothing(tmp_path):
    root = tmp_path / "hostile"
    root.mkdir()
    run_git(root, "init", "-q", "-b", "main")
    name = 'src/café "quoted"\tname.ts'
    hashes = commit(root, "Add the café module with its odd name", {name: function("cafe", "value += 2;")})
    mark = tmp_path / "MARK"
    run_git(root, "config", "core.fsmonitor", f"touch {mark} #")
    run_git(root, "config", "diff.external", f"touch {mark} #")
    queries = history_queries(root, revs="HEAD", progress=False)
    assert queries["path"].tolist() == [name] and queries["commit"].tolist() == [hashes]
    assert (queries["start_line"].iloc[0], queries["end_line"].iloc[0]) == (1, 4)
    from clanka_nb import sweep

    assert sweep(root, chunk_size=[10], probe=True, progress=False).attrs["query_sources"]["history"] == 1
    assert not mark.exists()


def test_a_target_starts_and_ends_at_code_not_at_the_blank_lines_the_commit_added(tmp_path):
    # Appending a function adds the blank line before it too: the target (and its name) is the function.
    root = tmp_path / "repo"
    root.mkdir()
    run_git(root, "init", "-q", "-b", "main")
    commit(root, "Add the parser of price labels", {"src/price.ts": function("parse", "value += 1;")})
    text = function("parse", "value += 1;") + "\n" + function("reset", "value = 0;") + "\n"
    added = commit(root, "Reset a price label to zero when asked", {"src/price.ts": text})
    row = history_queries(root, revs="HEAD~5..HEAD", progress=False).set_index("commit").loc[added]
    lines = text.splitlines()
    assert lines[row["start_line"] - 1].startswith("export function reset")
    assert lines[row["end_line"] - 1] == "}"
    assert (row["name"], row["type"]) == ("reset", "function")
