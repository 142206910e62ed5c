"""A folder that holds one commit's tree, changed file by file as the history moves on.

Only the files a commit changed are written, so moving to the next commit costs what it changed.
Listing then asks the engine's own rules (`ListingCache`) about each changed path, so the files of
a commit are exactly those `list_files` would give on a checkout of it. A file above `max_file_size`
is written as a sparse file of its size (no content is read: the listing only needs its size).
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..engine import is_meaningful_file
from ..engine.internals import MAX_IGNORE_FILE, ListingCache
from ._git import BlobReader, Change, ChurnError

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; folders of killed runs stay until the system cleans its temp
    fcntl = None  # type: ignore[assignment]  # no fcntl on Windows: None means no advisory locks

RULE_FILES = frozenset({".gitignore", ".ignore", ".rgignore"})
SUBMODULE = "160000"
_REGULAR = ("100644", "100755")
_PREFIX = "clanka-nb-churn-"
_LOCK = "lock"
_YOUNG = 60.0  # seconds: a lock file this new may belong to a run that has not locked it yet


@contextmanager
def mirror_folder() -> Iterator[Path]:
    """A new, empty folder for a mirror, removed on exit. A run killed with -9 cannot remove its own: each
    run holds a lock on a file beside its folder, and removes the folders whose lock no live run holds."""
    remove_stale_mirrors(Path(tempfile.gettempdir()))
    folder = Path(tempfile.mkdtemp(prefix=_PREFIX))
    lock = os.open(folder / _LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released by the kernel when this process ends
        yield folder / "tree"
    finally:
        shutil.rmtree(folder, ignore_errors=True)  # what cannot go now goes at the next run's start
        os.close(lock)


def remove_stale_mirrors(temp: Path) -> list[Path]:
    """Remove the mirror folders in `temp` left by runs that ended without removing them (kill -9); the
    folders removed. Only this user's folders, and only those whose lock no process holds."""
    if fcntl is None:
        return []
    removed = []
    try:
        entries = [e for e in os.scandir(temp) if e.name.startswith(_PREFIX)]
    except OSError:
        return []
    for entry in entries:
        try:
            if not entry.is_dir(follow_symlinks=False) or entry.stat(follow_symlinks=False).st_uid != os.getuid():
                continue
            lock = os.open(os.path.join(entry.path, _LOCK), os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            continue  # no lock file: a run between creating its folder and its lock, or not ours
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if time.time() - os.fstat(lock).st_mtime < _YOUNG:
                continue  # just made: its run may not have taken the lock yet
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(Path(entry.path))
        except OSError:
            continue  # locked: a live run's folder
        finally:
            os.close(lock)
    return removed


class Mirror:
    """The tree of the current commit under `folder`, as a checkout would have it (a git work tree).

    With a `prefix` ("packages/app/") only that subfolder is indexed: `root` is its copy, paths are
    relative to it, and only its files and the ignore files of the folders above it are written (those
    are all that decide what a listing of the subfolder holds).
    """

    def __init__(self, folder: Path, blobs: BlobReader, max_file_size: str | int, prefix: str = "") -> None:
        self.folder = folder
        self.prefix = prefix
        self.root = folder.joinpath(*prefix.split("/")[:-1]) if prefix else folder
        self._blobs = blobs
        self.submodules: set[str] = set()  # paths (relative to the root) of the submodules seen so far
        self.unwritable: dict[str, str] = {}  # path -> why the file system refused it (as in a checkout)
        # An empty .git makes the folder a git work tree for the listing rules (so .gitignore applies).
        (folder / ".git").mkdir(parents=True, exist_ok=True)
        self.root.mkdir(parents=True, exist_ok=True)
        above = prefix.split("/")[:-1]
        self._rules_above = frozenset(
            "/".join([*above[:depth], name]) for depth in range(len(above)) for name in RULE_FILES
        )
        self.listing = ListingCache(self.root, max_file_size=max_file_size)

    def relative(self, changes: list[Change]) -> list[Change]:
        """The changes inside the subfolder, their paths relative to it."""
        cut = len(self.prefix)
        return [Change(c.path[cut:], c.blob, c.mode) for c in changes if c.path.startswith(self.prefix)]

    def _wanted(self, path: str) -> bool:
        return path.startswith(self.prefix) or path in self._rules_above

    def apply(self, changes: list[Change]) -> bool:
        """Write the changed files; True when an ignore file changed (every verdict must be redone)."""
        rules_changed = False
        for change in changes:
            if not self._wanted(change.path):
                continue
            path = self._inside(change.path)
            if path is None:
                continue
            if change.mode == SUBMODULE and change.path.startswith(self.prefix):
                self.submodules.add(change.path[len(self.prefix) :])
            try:
                self._replace(change, path)
            except OSError as error:
                self._unwritable(change, path, error)
            # Symbolic links (120000) and submodules (160000) are left out: list_files never lists a
            # link, and a submodule of a fresh clone is an empty folder.
            rules_changed |= path.name in RULE_FILES
        if rules_changed:
            self.listing.forget()
        return rules_changed

    def _replace(self, change: Change, path: Path) -> None:
        """Put the new version of one path in place of the old one (or only remove the old one)."""
        if path.is_dir() and not path.is_symlink():
            if change.blob is not None:
                shutil.rmtree(path)  # a folder becomes a file: its files are deleted by this commit too
            # else a file of that name is deleted while a folder holds it (a damaged tree had both):
            # the folder's files go with their own entries
        elif path.is_symlink() or path.exists():
            path.unlink()
        if change.mode in _REGULAR and change.blob is not None:
            self._make_folder(path.parent)
            self._write(change.blob, path)

    def _unwritable(self, change: Change, path: Path, error: OSError) -> None:
        """A name this file system cannot hold is left out, as a checkout leaves it out (and said); a full
        disk is an error."""
        if error.errno in (errno.ENOSPC, errno.EDQUOT):
            msg = (
                f"the temporary folder {str(self.folder.parent)!r} is full ({error.strerror}); set TMPDIR to a "
                "folder with room for the largest commit's files"
            )
            raise ChurnError(msg) from None
        if error.errno not in (errno.ENAMETOOLONG, errno.EILSEQ, errno.EINVAL, errno.ENOTDIR, errno.EISDIR):
            msg = f"cannot write {change.path!r} into the temporary folder {str(self.folder.parent)!r}: "
            msg += f"{error.strerror}; set TMPDIR to a folder you can write"
            raise ChurnError(msg) from None
        if change.mode in _REGULAR and change.blob is not None and change.path.startswith(self.prefix):
            self.unwritable[change.path[len(self.prefix) :]] = error.strerror or str(error)
        with contextlib.suppress(OSError):  # the name itself may be what the file system refuses
            path.unlink(missing_ok=True)  # a part written before the error is no file of the commit

    def _make_folder(self, folder: Path) -> None:
        """Make `folder`; a file in the way (a damaged tree holding both `x` and `x/y`) gives way, as it does
        in a git checkout: the later entry wins."""
        try:
            folder.mkdir(parents=True, exist_ok=True)
            return
        except (FileExistsError, NotADirectoryError):
            pass
        for above in [*reversed(folder.relative_to(self.folder).parents[:-1]), folder.relative_to(self.folder)]:
            step = self.folder / above
            if step.is_symlink() or (step.exists() and not step.is_dir()):
                step.unlink()
        folder.mkdir(parents=True, exist_ok=True)

    def _write(self, blob: str, path: Path) -> None:
        if path.name not in RULE_FILES and not is_meaningful_file(path.name):
            # A name the reference never indexes (an archive, an image, a lock file): decided by the listing's
            # rules before git is asked for the blob, which a clone may lack. An empty file keeps its place.
            path.touch()
            return
        size = self._blobs.size(blob, str(path.relative_to(self.folder)))
        with path.open("wb") as target:
            if size > self.listing.limit and path.name not in RULE_FILES:
                target.truncate(size)  # sparse: the listing skips it by its size, nothing is read or stored
            elif size > MAX_IGNORE_FILE:  # an ignore file is read up to its cap: the rest need not take disk
                self._blobs.write(blob, target, keep=MAX_IGNORE_FILE + 1)
                target.truncate(size)
            else:
                self._blobs.write(blob, target)

    def _inside(self, rel: str) -> Path | None:
        """The path in the mirror; None for a path git should never hold (absolute, `..`, `.git`)."""
        parts = rel.split("/")
        if rel.startswith("/") or any(part in ("", ".", "..", ".git") for part in parts):
            return None
        return self.folder.joinpath(*parts)

    def listed(self, rel: str) -> bool:
        """Whether the listing of the (sub)folder holds `rel`, a path relative to it."""
        return self._inside(self.prefix + rel) is not None and self.listing.is_listed(rel)

    def every_listed(self) -> set[str]:
        """Every listed path of the (sub)folder (a full walk: after an ignore file changed)."""
        from ..engine import list_files

        return set(list_files(self.root, max_file_size=self.listing.limit))

    def __fspath__(self) -> str:
        return os.fspath(self.root)
