"""The cache files as a hostile writer of the cache or config folder leaves them (issue 34, items 7-12).

Planted triggers and views, a FIFO or a symbolic link for the key, another user's files, a full disk:
each gives one clear warning and chunks as without the cache, and nothing hangs (every child process
and every wait here is bounded).
"""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
import warnings
from importlib.util import find_spec
from pathlib import Path

import pytest

from clanka_nb import engine
from clanka_nb.engine import _cache, _cache_files
from clanka_nb.engine._cache import ParseCache, ParseCacheWarning

REPO = Path(__file__).resolve().parents[2]
SOURCES = {
    "a.ts": "export function add(a: number, b: number) {\n  return a + b;\n}\n",
    "b.py": "def f():\n    return 1\n",
}
# A trigger whose recursive query never ends: it made every write to the cache file hang.
ENDLESS = (
    "CREATE TRIGGER planted AFTER INSERT ON entries BEGIN "
    "SELECT count(*) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n); END"
)
# In this process a regression must fail, not hang: the same trigger counting to ten (endless ones run in
# child processes, under a timeout).
BOUNDED = ENDLESS.replace("FROM n)", "FROM n WHERE i < 10)")
AS_ROOT = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown needs root")


@pytest.fixture(autouse=True)
def fresh_warning_state(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(_cache, "_warned", [])
    monkeypatch.setenv(_cache_files.CONFIG_DIR_ENV, str(tmp_path / "config"))


def tree(root: Path) -> Path:
    for name, text in SOURCES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def chunks(root: Path, cache: bool | ParseCache) -> list[engine.CodeChunk]:
    return engine.Codebase(root, cache=cache).chunks(chunk_size=7, chunk_overlap=2)


def one_warning(root: Path, cache: ParseCache) -> str:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert chunks(root, cache) == chunks(root, cache=False)
    assert [w.category for w in caught] == [ParseCacheWarning], [str(w.message) for w in caught]
    return str(caught[0].message)


def planted(folder: Path, statement: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / _cache.FILE_NAME
    with sqlite3.connect(path) as db:
        db.executescript(_cache._SCHEMA)
        db.execute(statement)
    db.close()
    return path


# --- item 7: foreign schema objects ---


@pytest.mark.parametrize(
    "statement",
    [BOUNDED, "CREATE VIEW planted AS SELECT * FROM entries", "CREATE TABLE planted (x)"],
    ids=["trigger", "view", "table"],
)
def test_a_foreign_schema_object_is_refused_before_anything_is_written(tmp_path: Path, statement: str) -> None:
    path = planted(tmp_path / "cache", statement)
    before = path.read_bytes()
    message = one_warning(tree(tmp_path / "repo"), ParseCache(tmp_path / "cache"))
    assert "planted" in message and str(path) in message and "delete" in message
    assert path.read_bytes() == before


def test_clear_refuses_a_file_with_a_planted_trigger(tmp_path: Path) -> None:
    planted(tmp_path / "cache", BOUNDED.replace("AFTER INSERT", "AFTER DELETE"))
    with pytest.raises(_cache.ParseCacheError, match="planted"):
        ParseCache(tmp_path / "cache").clear()


def _run(args: list[str], env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=timeout, check=False)


def _planted_endless(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    planted(tmp_path / "cache", ENDLESS)
    root = tree(tmp_path / "repo")
    env = {**os.environ, "PYTHONPATH": str(REPO), "CLANKA_NB_CACHE_DIR": str(tmp_path / "cache"),
           "CLANKA_NB_CONFIG_DIR": str(tmp_path / "config")}  # fmt: skip
    env.pop("CLANKA_NB_CACHE", None)
    return root, env


def test_a_planted_endless_trigger_does_not_hang_chunk_codebase(tmp_path: Path) -> None:
    root, env = _planted_endless(tmp_path)
    script = "import sys, clanka_nb as cn; print(len(list(cn.engine.chunk_codebase(sys.argv[1]))))"
    library = _run([sys.executable, "-c", script, str(root)], env, timeout=60)
    assert library.returncode == 0 and int(library.stdout) > 0, library.stderr
    assert "planted" in library.stderr


# `clanka-nb chunk` writes a frame: without pandas it stops at its one-line "needs pandas" instead (the
# engine-alone venv checks that line in test_missing_extras.py).
@pytest.mark.skipif(find_spec("pandas") is None, reason="needs the frames extra (pandas)")
def test_a_planted_endless_trigger_does_not_hang_the_cli(tmp_path: Path) -> None:
    root, env = _planted_endless(tmp_path)
    cli = _run([sys.executable, "-m", "clanka_nb.cli", "chunk", str(root)], env, timeout=60)
    assert cli.returncode == 0, cli.stderr
    assert "planted" in cli.stderr and "Traceback" not in cli.stderr


# --- item 8: modes ---


def test_the_cache_file_is_0600_in_a_0700_folder_the_library_made(tmp_path: Path) -> None:
    folder = tmp_path / "made" / "cache"
    chunks(tree(tmp_path / "repo"), ParseCache(folder))
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    made = sorted(p.name for p in folder.iterdir())
    assert _cache.FILE_NAME in made
    for path in folder.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def test_a_folder_the_user_made_keeps_its_mode_and_an_old_0644_file_is_made_0600(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    old = folder / _cache.FILE_NAME
    with sqlite3.connect(old) as db:
        db.executescript(_cache._SCHEMA)
    db.close()
    old.chmod(0o644)
    chunks(tree(tmp_path / "repo"), ParseCache(folder))
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755
    assert stat.S_IMODE(old.stat().st_mode) == 0o600


# --- item 9: the key file ---


def _key_file(tmp_path: Path) -> Path:
    (tmp_path / "config").mkdir(exist_ok=True)
    return tmp_path / "config" / _cache_files.KEY_FILE_NAME


def test_a_fifo_in_place_of_the_key_hangs_nothing(tmp_path: Path) -> None:
    os.mkfifo(_key_file(tmp_path))
    env = {**os.environ, "PYTHONPATH": str(REPO), "CLANKA_NB_CACHE_DIR": str(tmp_path / "cache"),
           "CLANKA_NB_CONFIG_DIR": str(tmp_path / "config")}  # fmt: skip
    env.pop("CLANKA_NB_CACHE", None)
    script = "import sys, clanka_nb as cn; print(len(list(cn.engine.chunk_codebase(sys.argv[1]))))"
    done = _run([sys.executable, "-c", script, str(tree(tmp_path / "repo"))], env, timeout=60)
    assert done.returncode == 0 and int(done.stdout) > 0, done.stderr
    assert "not a regular file" in done.stderr and "delete it" in done.stderr


def test_a_symlinked_key_is_refused_with_what_to_do(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.write_bytes(b"k" * 32)
    target.chmod(0o600)
    _key_file(tmp_path).symlink_to(target)
    message = one_warning(tree(tmp_path / "repo"), ParseCache(tmp_path / "cache"))
    assert "symbolic link" in message and "delete it" in message and "Errno" not in message


@AS_ROOT
def test_a_key_owned_by_another_user_is_refused_with_what_to_do(tmp_path: Path) -> None:
    key = _key_file(tmp_path)
    key.write_bytes(b"k" * 32)
    key.chmod(0o600)
    os.chown(key, 65534, 65534)
    message = one_warning(tree(tmp_path / "repo"), ParseCache(tmp_path / "cache"))
    assert "another user" in message and "delete it" in message and "Errno" not in message


def test_an_unreadable_key_is_refused_with_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key = _key_file(tmp_path)
    key.write_bytes(b"k" * 32)
    key.chmod(0o600)
    real = os.open

    def denied(path, flags, *args):  # type: ignore[no-untyped-def]
        if Path(path) == key:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, flags, *args)

    monkeypatch.setattr(_cache_files.os, "open", denied)  # as another user's 0600 key answers a non-root user
    message = one_warning(tree(tmp_path / "repo"), ParseCache(tmp_path / "cache"))
    assert "cannot be read" in message and "delete it" in message and "Errno" not in message


# --- item 11: another user's cache file ---


@AS_ROOT
def test_another_users_cache_file_is_left_alone_with_one_warning(tmp_path: Path) -> None:
    root = tree(tmp_path / "repo")
    folder = tmp_path / "shared"
    chunks(root, ParseCache(folder))  # "the other user" fills it ...
    for path in folder.iterdir():
        os.chown(path, 65534, 65534)  # ... and owns it
    with sqlite3.connect(folder / _cache.FILE_NAME) as db:
        before = db.execute("SELECT count(*) FROM entries").fetchone()[0]
    db.close()
    message = one_warning(root, ParseCache(folder))
    assert "another user" in message and _cache.CACHE_DIR_ENV in message
    with sqlite3.connect(folder / _cache.FILE_NAME) as db:
        assert db.execute("SELECT count(*) FROM entries").fetchone()[0] == before > 0
    db.close()


# --- item 12: a full disk ---


def test_a_full_disk_says_so(tmp_path: Path) -> None:
    cache = ParseCache(tmp_path / "cache")
    cache.put(b"k" * 32, "typescript", [])
    assert cache._db is not None
    pages = cache._db.execute("PRAGMA page_count").fetchone()[0]
    cache._db.execute(f"PRAGMA max_page_count = {pages}")  # as a full disk answers: SQLITE_FULL
    declarations = [engine.Declaration(i, i, f"name{i}" * 20, "function", None) for i in range(1, 2000)]
    with pytest.warns(ParseCacheWarning, match="database or disk is full"):
        cache.put(b"j" * 32, "typescript", declarations)
