"""Where a repository's own index may be written: inside its real folder, through no symbolic link.

A clone carries symbolic links (git stores them), so a repository's `.clanka` or `.clanka/search.sqlite` can
point at another repository's index, or at any folder the user may write: a sync through it would replace that
index's rows or make files there. The database, its journals and the sync's state file are checked here before
anything is opened; a place the user names (`db=`) is the user's choice and is not checked.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ._db import IndexDatabaseError, shown

SIDE_FILES = ("-journal", "-wal", "-shm")  # SQLite's files beside a database


def _refuse(root: str, path: str, what: str) -> IndexDatabaseError:
    msg = (
        f"{shown(root)}: {shown(path)} is {what}, so the index would be written outside the repository's own files "
        "(links are never followed out of a repository); delete it (the sync then makes a new index there), or "
        "name the database yourself (sync_indexes(db=...))"
    )
    return IndexDatabaseError(msg)


def confined(root: str, db: str, sides: tuple[str, ...] = SIDE_FILES) -> str:
    """`db` (a path under `root`) under the root's real path, once no part of it below the root is a link.

    Args:
        root: The repository's folder (itself may be reached through a link: the user named it).
        db: The database's path under `root`, as `root` was given.
        sides: Suffixes of the files written beside the database (journals, a state file).

    Returns:
        The database's path under the root's real path.

    Raises:
        IndexDatabaseError: `db` is not under `root`, a part of it below the root is a symbolic link, or the
            database or a file beside it is a link or not a regular file.
    """
    relative = os.path.relpath(os.path.abspath(db), os.path.abspath(root))
    if relative == os.curdir or relative.split(os.sep)[0] == os.pardir:
        raise _refuse(root, db, "not inside the repository")
    real_root = os.path.realpath(root)
    current = real_root
    for part in Path(relative).parts:
        current = os.path.join(current, part)
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            break  # made below by the sync, as a plain folder and file
        if stat.S_ISLNK(info.st_mode):
            raise _refuse(root, current, f"a symbolic link (to {shown(os.readlink(current))})")
    target = os.path.join(real_root, relative)
    for each in (target, *(target + side for side in sides)):
        try:
            info = os.lstat(each)
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(info.st_mode):
            raise _refuse(root, each, f"a symbolic link (to {shown(os.readlink(each))})")
        if not stat.S_ISREG(info.st_mode):
            raise _refuse(root, each, "not a regular file (a folder, FIFO or device)")
    return target
