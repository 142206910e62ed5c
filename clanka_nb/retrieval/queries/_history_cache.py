"""The history's queries kept per commit, so a second probe or sweep of the same commit reads no history.

Reading a history (a `git diff-tree` per commit, its lines followed to HEAD) is most of a probed sweep's
time on a real clone, and its answer depends only on what the key below covers: the repository's HEAD
commit, the range as git resolves it (and the clone's shallow boundary, grafts and replace refs, which
change what a range holds, with the environment variables that turn them off), the git settings that shape a
diff or a message, the git attribute files that apply to the probed files (`-diff` hides a file's lines), the
probed folder, the
options (`revs`, `max_files`, `targets`, `max_file_size`), the language mode, the text of every probed file
(the targets are declarations of the files as read now) and the code that reads it (the package's version
and a digest of its source). A new commit, an edited file or another option is another key: a miss.

One SQLite file in the cache folder beside the parse and vector caches (`history-cache.sqlite3`), opened as
they are (`engine.internals.open_cache_file`: this user's plain file, no foreign schema object), its
entries JSON behind the user's keyed checksum: an entry that fails it (damaged, or written without the
user's key) or that is not the shape the reader writes is removed and the history read again, with one
`HistoryCacheWarning`. The entry's key itself is keyed with the secret, so the file says nothing of the
repositories it served. `CLANKA_NB_CACHE=off` reads the history every time.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import importlib.metadata
import json
import os
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ... import engine
from ...engine.internals import (
    CACHE_DIR_ENV,
    CACHE_SWITCH_ENV,
    default_directory,
    emptied,
    evict_if_over,
    failure_text,
    fingerprint,
    key_path,
    keyed_check,
    load_secret,
    open_cache_file,
    small_regular_file,
    write,
)
from ...engine.warn import warn_at_user
from ...history.internals import run_git
from ...warning import ClankaWarning
from ._targets import TARGET_KINDS

FILE_NAME = "history-cache.sqlite3"
DEFAULT_MAX_BYTES = 64 * 2**20  # a history of 500 commits keeps a few tens of KB
_BUSY_SECONDS = 10
_TOUCH_SECONDS = 3600.0  # an entry used again within the hour is not marked used again (no write on a warm read)
_MAX_STATE_FILE = 1 << 20  # bytes of a shallow or grafts file hashed; a larger one is not cached at all
_SCHEMA = """
CREATE TABLE IF NOT EXISTS histories (
    key BLOB PRIMARY KEY,
    value BLOB NOT NULL,
    size INTEGER NOT NULL,
    used REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS histories_used ON histories(used);
"""
# The git settings that change a diff's hunks, a path's quoting or a message's encoding: part of the key.
_GIT_SETTINGS = r"^(attr|core|diff|i18n|log)\."
# The environment variables that change what git reads (replace refs, attribute files): part of the key.
_GIT_ENVIRONMENT = ("GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_ATTR_NOSYSTEM", "GIT_ATTR_SOURCE")
# A row of the history's frame as the reader builds it, and the type each field must have.
_ROW: dict[str, tuple[type, ...]] = {
    "query": (str,), "path": (str,), "start_line": (int,), "end_line": (int,), "name": (str, type(None)),
    "type": (str, type(None)), "comment_start": (type(None),), "comment_end": (type(None),), "commit": (str,),
    "committed": (int, type(None)), "target_kind": (str,),
}  # fmt: skip


class HistoryCacheError(OSError):
    """Clearing the history cache left entries behind; the message says why and what to do."""


class HistoryCacheWarning(ClankaWarning, UserWarning):
    """The history cache could not be used, or held an entry it does not trust: the history is read again
    (the queries are unaffected)."""


@dataclass
class HistoryRead:
    """What reading a history gives: the rows of its queries, the commits dropped by reason, the commits read."""

    rows: list[dict[str, Any]]
    dropped: Counter[str]
    commits: int


@cache
def _source_digest() -> str:
    """The package's version, the engine's fingerprint and the source of the code that reads a history."""
    digest = hashlib.sha256()
    try:
        digest.update(importlib.metadata.version("clanka-nb").encode())
    except importlib.metadata.PackageNotFoundError:
        digest.update(b"-")
    digest.update(fingerprint().encode())
    here = Path(__file__).resolve().parent
    for folder in (here, here.parents[1] / "history"):
        for source in sorted(folder.glob("*.py")):
            digest.update(f"{folder.name}/{source.name}\0".encode())
            digest.update(source.read_bytes())
    return digest.hexdigest()


def _state_file(repo: Path, name: str) -> bytes | None:
    """The content of a git state file (`shallow`, `info/grafts`, `info/attributes`): b"" when absent, None when
    unreadable or large."""
    found = run_git(repo, "rev-parse", "--git-path", name, check=False)
    if found.returncode != 0:
        return None
    path = Path(found.stdout.rstrip("\n"))
    return _small_file(path if path.is_absolute() else repo / path)


def _small_file(path: Path, *, follow: bool = True) -> bytes | None:
    """A file's content: b"" when absent, None when unreadable, large or no regular file (`follow=False`: a link)."""
    try:
        return small_regular_file(path, _MAX_STATE_FILE, follow=follow)
    except FileNotFoundError:
        return b""


def _attributes(repo: Path, prefix: str, files: Iterable[str]) -> list[bytes] | None:
    """The git attribute files that apply to the probed files, each with its place: the work tree's
    `.gitattributes` of every folder holding a probed file and of the folders above it up to the top (a link
    is not cached: git ignores one), `$GIT_DIR/info/attributes`, the user's (core.attributesFile, else
    $XDG_CONFIG_HOME/git/attributes) and the system's (/etc/gitattributes, as Debian's git reads it). An attribute
    (`-diff`, a diff driver) changes what `git diff-tree` shows. None: one cannot be read, so nothing is cached."""
    folders = {""}
    for name in files:
        parts = f"{prefix}{name}".split("/")[:-1]
        folders.update("/".join(parts[:end]) for end in range(1, len(parts) + 1))
    places = [(f"tree:{folder}", repo / folder / ".gitattributes", False) for folder in sorted(folders)]
    named = run_git(repo, "config", "--path", "--get", "core.attributesFile", check=False)  # 1: not set
    if named.returncode not in (0, 1):
        return None
    xdg = os.environ.get("XDG_CONFIG_HOME") or str(Path("~/.config").expanduser())
    user = named.stdout.rstrip("\n") or os.path.join(xdg, "git", "attributes")
    places += [("user", repo / user, True)]  # a relative path is git's from the repository, as -C runs it
    if not os.environ.get("GIT_ATTR_NOSYSTEM"):
        places += [("system", Path("/etc/gitattributes"), True)]
    found = [b"info:" + data if (data := _state_file(repo, "info/attributes")) is not None else None]
    for place, where, follow in places:
        data = _small_file(where, follow=follow)
        found.append(None if data is None else place.encode("utf-8", "surrogateescape") + b"\0" + data)
    return None if None in found else [data for data in found if data is not None]


def _part(digest: Any, value: str | bytes) -> None:
    """One field of the key, its length first: no two sequences of fields spell the same bytes."""
    data = value if isinstance(value, bytes) else value.encode("utf-8", "surrogateescape")
    digest.update(b"%d:" % len(data))
    digest.update(data)


def history_material(
    repo: Path, prefix: str, head: str, revs: str, range_args: list[str], codebase: engine.Codebase, *,
    max_files: int | None, limit: int, targets: str,
) -> bytes | None:
    """Everything the history's queries depend on, digested (None: git cannot say, so nothing is cached).

    A few `git rev-parse`-sized calls: what a warm read costs instead of the history."""
    resolved = run_git(repo, "rev-parse", "--end-of-options", *range_args, check=False)
    if resolved.returncode != 0 or not resolved.stdout.strip():
        return None  # an unreadable range: the reader says why
    shallow, grafts = _state_file(repo, "shallow"), _state_file(repo, "info/grafts")
    if shallow is None or grafts is None:
        return None
    replaced = run_git(repo, "for-each-ref", "--format=%(objectname) %(refname)", "refs/replace/", check=False)
    settings = run_git(repo, "config", "-z", "--get-regexp", _GIT_SETTINGS, check=False)  # 1: none set
    attributes = _attributes(repo, prefix, codebase.files)
    if replaced.returncode != 0 or settings.returncode not in (0, 1) or attributes is None:
        return None
    environment = "\0".join(f"{name}={os.environ.get(name)}" for name in _GIT_ENVIRONMENT)
    digest = hashlib.blake2b(digest_size=32)
    fields: list[str | bytes] = [
        "clanka-nb history queries 2", _source_digest(), str(codebase.root), prefix, head, revs, resolved.stdout,
        shallow, grafts, replaced.stdout, settings.stdout, environment, *attributes, repr(max_files), str(limit),
        targets, str(codebase.languages),
    ]
    for value in fields:
        _part(digest, value)
    for path in sorted(codebase.files):
        text = codebase.text(path)
        if text is not None and text.lines:
            _part(digest, path)
            _part(digest, "\n".join(text.lines))
    return digest.digest()


def cached_read(
    repo: Path, prefix: str, head: str, revs: str, range_args: list[str], codebase: engine.Codebase, *,
    max_files: int | None, limit: int, targets: str, read: Callable[[], HistoryRead],
) -> HistoryRead:
    """The history's read from the cache when it holds this key, else `read()` (then kept)."""
    cache = history_cache()
    material = None if cache is None else history_material(repo, prefix, head, revs, range_args, codebase,
                                                           max_files=max_files, limit=limit, targets=targets)
    key = None if cache is None or material is None else cache.key(material)
    if cache is None or key is None:
        return read()
    found = cache.get(key, set(codebase.files))
    if found is None:
        found = read()
        cache.put(key, found)
    return found


def encode_read(read: HistoryRead) -> bytes:
    payload = {"rows": read.rows, "dropped": dict(read.dropped), "commits": read.commits}
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")


def decode_read(data: bytes, files: set[str]) -> HistoryRead | None:
    """An entry's value, or None when it is not what `encode_read` writes for this codebase's files."""
    try:
        payload = json.loads(data.decode("utf-8", "surrogatepass"))
    except (ValueError, TypeError):
        return None
    if type(payload) is not dict or set(payload) != {"rows", "dropped", "commits"}:
        return None
    rows, dropped, commits = payload["rows"], payload["dropped"], payload["commits"]
    if type(commits) is not int or commits < 0 or type(rows) is not list or type(dropped) is not dict:
        return None
    if not all(type(reason) is str and type(count) is int and count >= 0 for reason, count in dropped.items()):
        return None
    for row in rows:
        if type(row) is not dict or set(row) != set(_ROW):
            return None
        if not all(type(row[name]) in kinds for name, kinds in _ROW.items()):
            return None
        if row["path"] not in files or not 1 <= row["start_line"] <= row["end_line"] \
                or row["target_kind"] not in TARGET_KINDS:  # fmt: skip
            return None
    return HistoryRead(rows, Counter(dropped), commits)


class HistoryCache:
    """The history cache's file, opened on first use; any failure leaves it unused for the process, with one
    warning (the history is then read every time)."""

    def __init__(self, path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.path = Path(path)
        self.max_bytes = max_bytes
        self._db: sqlite3.Connection | None = None
        self._secret = b""
        self._broken = False

    def key(self, material: bytes) -> bytes | None:
        """The entry's key: the material keyed with the user's secret (None when the cache cannot be used)."""
        if self._connection() is None:
            return None
        return hashlib.blake2b(material, key=self._secret, digest_size=32).digest()

    def get(self, key: bytes, files: set[str]) -> HistoryRead | None:
        """The stored read of `key`, or None; an entry that fails its check or its shape is removed, with a warning."""
        db = self._connection()
        if db is None:
            return None
        try:
            # CAST: a damaged value stored as text must come back as bytes (and then fail its checksum).
            found = db.execute("SELECT CAST(value AS BLOB), used FROM histories WHERE key = ?", (key,)).fetchone()
            if found is None:
                return None
            value, used = found
            check, data = value[:16], value[16:]
            read = None
            if len(value) >= 16 and hmac.compare_digest(keyed_check(self._secret, key, data), check):
                read = decode_read(data, files)
            if read is None:
                write(db, ("DELETE FROM histories WHERE key = ?", [(key,)]))
                self._warn("an entry that is damaged, or was not written with this user's key, was removed; "
                           "the history is read again")  # fmt: skip
                return None
            now = time.time()
            if not isinstance(used, (int, float)) or used < now - _TOUCH_SECONDS:
                write(db, ("UPDATE histories SET used = ? WHERE key = ?", [(now, key)]))
            return read
        except sqlite3.Error as exc:
            self._fail(exc)
            return None

    def put(self, key: bytes, read: HistoryRead) -> None:
        db = self._connection()
        if db is None:
            return
        data = encode_read(read)
        value = keyed_check(self._secret, key, data) + data
        try:
            write(db, ("INSERT OR REPLACE INTO histories (key, value, size, used) VALUES (?, ?, ?, ?)",
                       [(key, value, len(key) + len(value), time.time())]))  # fmt: skip
            evict_if_over(db, "histories", ("key",), self.max_bytes)
        except sqlite3.Error as exc:
            self._fail(exc)

    def count(self) -> int:
        """How many histories' queries the file holds (0 when there is none or it cannot be read)."""
        db = self._connection() if self.path.exists() else None  # `cache info` makes no file
        if db is None:
            return 0
        try:
            return int(db.execute("SELECT count(*) FROM histories").fetchone()[0])
        except sqlite3.Error as exc:
            self._fail(exc)
            return 0

    def clear(self) -> int:
        """Delete every entry; returns how many there were (0 when there is no file).

        Raises `HistoryCacheError` when they stay behind (a foreign file or schema, a full disk), saying what to do.
        """
        self.close()
        if not self.path.exists() and not self.path.is_symlink():
            return 0
        try:
            db = open_cache_file(self.path, _SCHEMA, timeout=_BUSY_SECONDS)  # refuses a foreign file or schema
            try:
                removed = emptied(db, "histories")
            finally:
                db.close()
        except (sqlite3.Error, OSError) as exc:
            msg = (f"could not clear the history cache {str(self.path)!r}: {exc}; delete it (and any -wal/-shm beside "
                   "it) by hand: it holds only a cache")  # fmt: skip
            raise HistoryCacheError(msg) from None
        return int(removed)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def _connection(self) -> sqlite3.Connection | None:
        if self._db is not None or self._broken:
            return self._db
        try:
            self._secret = load_secret(key_path())
            self._db = open_cache_file(self.path, _SCHEMA, timeout=_BUSY_SECONDS)
        except (sqlite3.Error, OSError) as exc:
            self._fail(exc)
        return self._db

    def _fail(self, exc: Exception) -> None:
        self._broken = True
        with contextlib.suppress(sqlite3.Error):
            self.close()
        self._warn(f"{failure_text(exc)}; the history is read without it from now on")

    def _warn(self, what: str) -> None:
        if str(self.path) in _warned:
            return
        _warned.add(str(self.path))
        msg = (f"history cache at {self.path}: {what}. The queries are unaffected. Set {CACHE_DIR_ENV} to a writable "
               f"folder, run `clanka-nb cache clear`, or set {CACHE_SWITCH_ENV}=off to read the history every time")
        warn_at_user(msg, HistoryCacheWarning)


_warned: set[str] = set()  # one warning per cache file and process


def history_cache_path() -> Path:
    """The history cache's file in clanka-nb's cache folder (`$CLANKA_NB_CACHE_DIR` moves it)."""
    return default_directory() / FILE_NAME


def history_cache() -> HistoryCache | None:
    """The shared history cache of this process (one per folder), or None with `CLANKA_NB_CACHE=off`."""
    if os.environ.get(CACHE_SWITCH_ENV, "").strip().lower() in ("off", "0", "false", "no"):
        return None
    return _shared(str(history_cache_path()))


@cache
def _shared(path: str) -> HistoryCache:
    return HistoryCache(path)
