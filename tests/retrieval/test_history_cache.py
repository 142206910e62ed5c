"""The history's queries kept per commit: a second read of the same commit runs no history command of git, gives
the frame an uncached read gives, and misses on a new commit, an edited file or other options; an entry that is
damaged or planted is removed with a warning and the history read again."""

from __future__ import annotations

import shutil
import sqlite3
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

from clanka_nb.engine.internals import keyed_check
from clanka_nb.history import _git
from clanka_nb.retrieval import Probe, history_queries
from clanka_nb.retrieval.queries import _history_cache
from clanka_nb.retrieval.queries._history_cache import FILE_NAME, HistoryCacheWarning
from clanka_nb.sweeps import sweep
from tests.retrieval.test_history_queries import commit, function, run_git

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")
# The git commands that read a history (the cache's key asks git only rev-parse, for-each-ref and config).
HISTORY_COMMANDS = {"log", "diff-tree", "ls-tree", "cat-file"}


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("CLANKA_NB_CACHE_DIR", str(folder))
    monkeypatch.delenv("CLANKA_NB_CACHE", raising=False)
    monkeypatch.setattr(_history_cache, "_warned", set())  # each test sees its own one warning
    return folder


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Every git command the package starts, by subcommand (all are built by `git_command`)."""
    counted: Counter[str] = Counter()
    original = _git.git_command

    def counting(repo: Path, *args: str, config: tuple[str, ...] = ()) -> tuple[list[str], dict[str, str]]:
        counted[args[0] if args else ""] += 1
        return original(repo, *args, config=config)

    monkeypatch.setattr(_git, "git_command", counting)
    return counted


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    run_git(root, "init", "-q", "-b", "main")
    commit(root, "Add the parser of price labels", {"src/price.ts": function("parse", "value += 1;")})
    commit(root, "Clamp the discount to the price range", {"src/discount.ts": function("discount", "v = 1;")})
    commit(root, "Round the tax of each label to cents", {"src/tax.ts": function("tax", "value *= 1.2;")})
    return root


def _history_read(calls: Counter[str]) -> int:
    return sum(calls[name] for name in HISTORY_COMMANDS)


def _uncached(root: Path, monkeypatch: pytest.MonkeyPatch, **options: object) -> pd.DataFrame:
    with monkeypatch.context() as off:
        off.setenv("CLANKA_NB_CACHE", "off")
        return history_queries(root, progress=False, **options)  # type: ignore[arg-type]


def test_a_second_read_of_the_same_commit_reads_no_history(tmp_path, cache_dir, calls, monkeypatch):
    root = _repo(tmp_path)
    first = history_queries(root, progress=False)
    assert _history_read(calls) > 0 and (cache_dir / FILE_NAME).is_file()
    calls.clear()
    second = history_queries(root, progress=False)
    assert _history_read(calls) == 0, calls  # only the key's rev-parse, for-each-ref and config
    assert len(first) == 3
    uncached = _uncached(root, monkeypatch)
    pd.testing.assert_frame_equal(second, uncached)
    pd.testing.assert_frame_equal(first, uncached)
    assert second.attrs == uncached.attrs


@pytest.mark.filterwarnings("ignore::clanka_nb.retrieval.FlatRecallWarning")  # 3 queries found at every size
def test_a_second_probed_sweep_reads_no_history_and_times_it_apart(tmp_path, cache_dir, calls, monkeypatch):
    root = _repo(tmp_path)
    first = sweep(root, chunk_size=[4, 20], probe=Probe(), progress=False)
    assert first.attrs["query_sources"]["history"] == 3
    assert _history_read(calls) > 0
    calls.clear()
    second = sweep(root, chunk_size=[4, 20], probe=Probe(), progress=False)
    assert _history_read(calls) == 0, calls
    with monkeypatch.context() as off:
        off.setenv("CLANKA_NB_CACHE", "off")
        uncached = sweep(root, chunk_size=[4, 20], probe=Probe(), progress=False)
    columns = [name for name in uncached.columns if name != "seconds"]
    pd.testing.assert_frame_equal(second[columns], uncached[columns])
    times = ("parse_seconds", "queries_seconds")
    assert {k: v for k, v in second.attrs.items() if k not in times} \
        == {k: v for k, v in uncached.attrs.items() if k not in times}  # fmt: skip
    for frame in (first, second, uncached):
        assert frame.attrs["parse_seconds"] >= 0 and frame.attrs["queries_seconds"] >= 0
    assert "queries_seconds" not in sweep(root, chunk_size=[4], progress=False).attrs  # not probed: no queries


def test_a_new_commit_an_edit_or_other_options_miss_the_cache(tmp_path, cache_dir, calls, monkeypatch):
    root = _repo(tmp_path)
    history_queries(root, progress=False)
    calls.clear()
    commit(root, "Add the shipping cost to every label", {"src/ship.ts": function("ship", "value += 5;")})
    fresh = history_queries(root, progress=False)
    assert calls["log"] == 1 and len(fresh) == 4
    pd.testing.assert_frame_equal(fresh, _uncached(root, monkeypatch))
    # An uncommitted edit moves the targets' lines: the files as read are in the key.
    (root / "src" / "tax.ts").write_text("\n\n" + (root / "src" / "tax.ts").read_text())
    calls.clear()
    edited = history_queries(root, progress=False)
    assert calls["log"] == 1
    pd.testing.assert_frame_equal(edited, _uncached(root, monkeypatch))
    assert not edited["start_line"].equals(fresh["start_line"])
    for options in ({"revs": "HEAD~1..HEAD"}, {"targets": "all"}, {"max_files": 1}, {"languages": "extended"},
                    {"max_file_size": "64K"}):  # fmt: skip
        calls.clear()
        got = history_queries(root, progress=False, **options)
        assert calls["log"] == 1, options
        pd.testing.assert_frame_equal(got, _uncached(root, monkeypatch, **options))
    calls.clear()
    history_queries(root, progress=False, revs="HEAD~1..HEAD")
    assert calls["log"] == 0  # each key kept beside the others


def test_switched_off_it_reads_every_time_and_writes_nothing(tmp_path, cache_dir, calls, monkeypatch):
    root = _repo(tmp_path)
    monkeypatch.setenv("CLANKA_NB_CACHE", "off")
    history_queries(root, progress=False)
    history_queries(root, progress=False)
    assert calls["log"] == 2
    assert not (cache_dir / FILE_NAME).exists()


def _entries(path: Path) -> list[tuple[bytes, bytes]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT key, value FROM histories").fetchall()


def _replace(path: Path, key: bytes, value: bytes) -> None:
    db = sqlite3.connect(path)
    try:
        db.execute("UPDATE histories SET value = ? WHERE key = ?", (value, key))
        db.commit()
    finally:
        db.close()


def _planted(data: bytes) -> bytes:
    """What a writer of the cache folder without the user's key can make: the checksum under another key."""
    return keyed_check(b"\x00" * 32, b"guess", data) + data


@pytest.mark.parametrize("damage", ["flipped", "planted", "shape"])
def test_a_damaged_or_planted_entry_is_removed_with_a_warning_and_read_again(tmp_path, cache_dir, calls,
                                                                             monkeypatch, damage):  # fmt: skip
    root = _repo(tmp_path)
    history_queries(root, progress=False)
    [(key, value)] = _entries(cache_dir / FILE_NAME)
    data = value[16:]
    forged = data.replace(b'"query":"Clamp the discount', b'"query":"Planted words in')
    assert forged != data
    if damage == "flipped":
        value = value[:-3] + bytes([value[-3] ^ 1]) + value[-2:]
    elif damage == "planted":
        value = _planted(forged)
    else:  # the user's own key, a row of the wrong shape (as an older release might write): not trusted either
        secret = _history_cache.load_secret(_history_cache.key_path())
        bad = data.replace(b'"start_line":', b'"start_line":-', 1)
        value = keyed_check(secret, key, bad) + bad
    _replace(cache_dir / FILE_NAME, key, value)
    calls.clear()
    with pytest.warns(HistoryCacheWarning, match="damaged, or was not written with this user's key"):
        got = history_queries(root, progress=False)
    assert calls["log"] == 1  # read again
    pd.testing.assert_frame_equal(got, _uncached(root, monkeypatch))
    assert not got["query"].str.contains("Planted").any()
    calls.clear()
    again = history_queries(root, progress=False)  # the rebuilt entry is trusted
    assert calls["log"] == 0
    pd.testing.assert_frame_equal(again, got)


def test_a_foreign_cache_file_is_left_alone_with_one_warning(tmp_path, cache_dir, calls, monkeypatch):
    root = _repo(tmp_path)
    cache_dir.mkdir(parents=True)
    db = sqlite3.connect(cache_dir / FILE_NAME)
    # The cache's own tables, and a trigger that would run on every write.
    db.executescript(_history_cache._SCHEMA + "CREATE TRIGGER spy AFTER INSERT ON histories BEGIN "
                     "DELETE FROM histories; END;")  # fmt: skip
    db.close()
    monkeypatch.setattr(_history_cache, "_shared", _history_cache.HistoryCache)  # a fresh object per call
    with pytest.warns(HistoryCacheWarning, match="spy"):
        got = history_queries(root, progress=False)
    pd.testing.assert_frame_equal(got, _uncached(root, monkeypatch))
    with sqlite3.connect(cache_dir / FILE_NAME) as check:
        assert check.execute("SELECT count(*) FROM histories").fetchone()[0] == 0  # nothing written


def test_deepening_a_shallow_clone_misses_the_cache(tmp_path, cache_dir, calls, monkeypatch):
    # The same HEAD, but more history behind it: the shallow boundary is in the key.
    source = _repo(tmp_path)
    clone = tmp_path / "clone"
    run_git(tmp_path, "clone", "-q", "--depth", "1", f"file://{source}", str(clone))
    shallow = history_queries(clone, progress=False)
    run_git(clone, "fetch", "-q", "--deepen", "2")
    calls.clear()
    deeper = history_queries(clone, progress=False)
    assert calls["log"] == 1
    assert len(deeper) > len(shallow)
    pd.testing.assert_frame_equal(deeper, _uncached(clone, monkeypatch))


def _binary_ts(root: Path, place: str) -> None:
    """Mark every .ts file `-diff` (git then shows "Binary files differ", no lines) in one of git's attribute
    files: a folder's .gitattributes in the work tree (an untracked one counts), $GIT_DIR/info/attributes, or
    the file the user's core.attributesFile names (the setting unchanged: only the file's content)."""
    rule = "*.ts -diff\n"
    if place == ".gitattributes":
        (root / "src" / ".gitattributes").write_text(rule)  # a folder's own, not only the top's
    elif place == "info/attributes":
        (root / ".git" / "info").mkdir(exist_ok=True)
        (root / ".git" / "info" / "attributes").write_text(rule)
    else:
        (root.parent / "attributes").write_text(rule)


@pytest.mark.parametrize("place", [".gitattributes", "info/attributes", "core.attributesFile"])
def test_an_attribute_that_changes_what_git_shows_misses_the_cache(tmp_path, cache_dir, calls, monkeypatch, place):
    root = _repo(tmp_path)
    (tmp_path / "attributes").write_text("")
    (tmp_path / "gitconfig").write_text(f"[core]\n\tattributesFile = {tmp_path / 'attributes'}\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    first = history_queries(root, progress=False)
    assert len(first) == 3
    _binary_ts(root, place)
    calls.clear()
    binary = history_queries(root, progress=False)
    assert calls["log"] == 1, place  # a miss: read again
    pd.testing.assert_frame_equal(binary, _uncached(root, monkeypatch))
    assert len(binary) == 0  # no diff lines, so no targets: the cached three queries would have been wrong


def test_git_no_replace_objects_misses_the_cache(tmp_path, cache_dir, calls, monkeypatch):
    root = _repo(tmp_path)
    # A replace ref that gives the last commit another message: git shows it unless GIT_NO_REPLACE_OBJECTS is set.
    tree, parent = run_git(root, "rev-parse", "HEAD^{tree}", "HEAD~1").split()
    other = run_git(root, "commit-tree", tree, "-p", parent, "-m", "Round the levy of each label to cents").strip()
    run_git(root, "replace", "HEAD", other)
    monkeypatch.delenv("GIT_NO_REPLACE_OBJECTS", raising=False)
    replaced = history_queries(root, progress=False)
    assert replaced["query"].str.contains("levy").any()
    monkeypatch.setenv("GIT_NO_REPLACE_OBJECTS", "1")
    calls.clear()
    original = history_queries(root, progress=False)
    assert calls["log"] == 1
    pd.testing.assert_frame_equal(original, _uncached(root, monkeypatch))
    assert not original["query"].str.contains("levy").any() and original["query"].str.contains("tax").any()
