"""Reading one file of a codebase safely, and saying why it gives no chunks when it gives none."""

from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from pathlib import Path

from ._files import is_meaningful_file


class FileStatus(StrEnum):
    """Why a listed file has (or has no) chunks. Only `CHUNKED` files give chunks."""

    CHUNKED = "chunked"
    EMPTY = "empty"  # nothing but whitespace
    MINIFIED = "minified"  # the reference's minified-bundle guess
    NOTHING_MEANINGFUL = "nothing meaningful"  # no line with a letter, digit or symbol
    UNREADABLE = "unreadable"  # vanished, permission denied, not a regular file...
    NOT_INDEXED = "not indexed"  # outside the root, or a name the reference never indexes
    SKIPPED = "skipped"  # never listed (ignored, excluded folder, too big, a link...): only in include_skipped tables


# Why a file that was read gives no chunks, in words for tables and warnings.
CONTENT_REASONS = {
    FileStatus.EMPTY: "the file holds only whitespace",
    FileStatus.MINIFIED: "looks minified (few very long lines); the reference skips bundles",
    FileStatus.NOTHING_MEANINGFUL: "no line holds a letter, digit or symbol",
}


@dataclass(frozen=True, slots=True)
class FileReport:
    """One file's fate: its status, its size in bytes, a human reason when it gives no chunks, and whether
    its content looks binary.

    Attributes:
        path: The file's path, relative to the root.
        status: Why the file gives chunks or none.
        bytes: Its size in bytes.
        reason: Why it gives no chunks, in words; None when it gives some.
        binary: Whether its content looks binary (a NUL byte, or mostly bytes that are not UTF-8).
    """

    path: str
    status: FileStatus
    bytes: int
    reason: str | None = None
    binary: bool = False  # looks like binary data (NUL bytes, mostly undecodable); chunked as the reference does


def relative_path(root: Path, path: str | os.PathLike[str]) -> str | None:
    """`path` resolved against `root` and made relative, with `/`; None when it leaves the root."""
    full = os.path.normpath(os.path.join(root, os.fspath(path)))
    rel = os.path.relpath(full, root).replace(os.sep, "/")
    if rel in ("", ".", "..") or rel.startswith("../"):
        return None
    return rel


class MissingFileError(FileNotFoundError, KeyError):
    """A path given by the user names no file of the source: missing, a folder, or outside the root.

    A FileNotFoundError; also a KeyError, which `Codebase.report` raised for an unknown path before.
    """

    def __str__(self) -> str:  # KeyError's own would quote the message
        return str(self.args[0]) if self.args else ""


def missing_file(path: str | os.PathLike[str], root: str | os.PathLike[str]) -> MissingFileError:
    """The error for `path`, which is no file under `root`, naming both and the fix."""
    given, folder = os.fspath(path), os.fspath(root)
    msg = (
        f"there is no file {given!r} under the root {folder!r}; paths are relative to the root "
        "(or absolute inside it)"
    )
    here = os.path.abspath(given)
    if os.path.isfile(here) and not os.path.isabs(given):
        rel = relative_path(Path(os.path.abspath(folder)), here)
        fix = f"pass {rel!r}" if rel is not None else "pass its own folder as the source"
        msg += f"; {given!r} is a file relative to the working folder {os.getcwd()!r}: {fix}"
    return MissingFileError(msg)


class FileTooLargeError(ValueError):
    """One file named as the source is larger than `max_file_size`: the listing leaves such files out (as clanka
    lists them), so a file named alone is refused the same way, with the setting that would chunk it."""


def check_size(path: Path, limit: int, *, default: bool) -> None:
    """Raise `FileTooLargeError` when the file at `path` is larger than `limit` bytes."""
    size = os.stat(path).st_size
    if size <= limit:
        return
    suggested = f"{max(1, -(-size // 2**20))}M"  # the size rounded up to whole MiB
    which = "the default, ripgrep's as clanka lists files" if default else "the limit given"
    msg = (
        f"{path.name} is {size:,} bytes, over max_file_size ({limit:,} bytes, {which}); pass "
        f"max_file_size={suggested!r} (clanka-nb: --max-file-size {suggested}) to chunk it"
    )
    raise FileTooLargeError(msg)


def check_file(root: str | os.PathLike[str], path: str | os.PathLike[str]) -> None:
    """Raise `MissingFileError` unless `path` (relative to `root`, or absolute inside it) is a file there."""
    full = os.path.join(os.path.abspath(root), os.fspath(path))
    if relative_path(Path(os.path.abspath(root)), path) is None or not os.path.isfile(full):
        raise missing_file(path, root)


# The reason given for a file whose name (its extension) the reference never indexes.
NEVER_INDEXED = "the reference never indexes this file name"

# The reason given for a file that is refused because it resolves outside the root (a symbolic link).
OUTSIDE_ROOT = "resolves outside the root folder"


@lru_cache(maxsize=8)
def _real_root(root: str) -> str:
    return os.path.realpath(root)


def _inside(real: str, real_root: str) -> bool:
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)


def read_text(root: Path, rel: str) -> tuple[str | None, FileReport]:
    """Decode a file as WHATWG's TextDecoder('utf-8') does; never blocks on FIFOs or devices.

    A path that resolves outside the root (a symbolic link to `/etc/passwd`, a linked folder) is
    refused, not read: what is inside the root is all a codebase may show or send anywhere.
    """
    if not is_meaningful_file(rel):
        return None, FileReport(rel, FileStatus.NOT_INDEXED, 0, NEVER_INDEXED)
    real_root = _real_root(os.fspath(root))
    # The file is opened first and where it really is asked afterwards, from the open descriptor: one
    # system call instead of resolving every folder of the path (a tenth of a cold open), and no window
    # between the check and the open in which a folder could be swapped for a link.
    try:
        fd = os.open(os.path.join(real_root, rel), _OPEN_FLAGS)
    except OSError:
        fd = None  # a link as the last part (O_NOFOLLOW), or no such file: resolved and reported below
    real = None if fd is None else _opened_path(fd)
    if real is None:
        if fd is not None:
            os.close(fd)
        real = os.path.realpath(os.path.join(root, rel))
        fd = None
    if not _inside(real, real_root):
        if fd is not None:
            os.close(fd)
        reason = f"{OUTSIDE_ROOT} (a symbolic link to {real!r}); not read"
        return None, FileReport(rel, FileStatus.NOT_INDEXED, 0, reason)
    if fd is None:
        try:
            # O_NONBLOCK: opening a FIFO with no writer must not hang; fstat then rejects it. O_NOFOLLOW: the
            # path was resolved above, so a link appearing there since is a swap, and is not followed.
            fd = os.open(real, _OPEN_FLAGS)
        except OSError as exc:
            return None, FileReport(rel, FileStatus.UNREADABLE, 0, f"cannot open: {exc.strerror or exc}")
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            return None, FileReport(rel, FileStatus.UNREADABLE, 0, f"{kind}, nothing to read")
        data = _read_all(fd, info.st_size)
    except OSError as exc:
        return None, FileReport(rel, FileStatus.UNREADABLE, 0, f"cannot read: {exc.strerror or exc}")
    finally:
        os.close(fd)
    # utf-8-sig drops one leading BOM; "replace" turns each bad sequence into U+FFFD, as TextDecoder.
    text = data.decode("utf-8-sig", errors="replace")
    return text, FileReport(rel, FileStatus.CHUNKED, len(data), binary=looks_binary(text))


_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
_PROC_FD = "/proc/self/fd/"
_HAS_PROC_FD = sys.platform == "linux" and os.path.isdir(_PROC_FD)


def _opened_path(fd: int) -> str | None:
    """The real path of the file open as `fd` (Linux: its /proc link); None where that cannot be known."""
    if not _HAS_PROC_FD:
        return None
    try:
        real = os.readlink(f"{_PROC_FD}{fd}")
    except OSError:
        return None
    # A deleted or otherwise unnamed file reads as "... (deleted)" or "anon_inode:...": resolve by name.
    return real if real.startswith("/") and not real.endswith(" (deleted)") else None


def _read_all(fd: int, size: int) -> bytes:
    """Every byte of an open regular file: one read of its size, more while it grows."""
    data = os.read(fd, size + 1)
    if len(data) == size:  # asked one byte more than its size and did not get it: the end
        return data
    parts = [data]
    while chunk := os.read(fd, 1 << 20):
        parts.append(chunk)
    return b"".join(parts)


# Share of U+FFFD (undecodable bytes) above which a text is taken for binary data.
_UNDECODABLE_SHARE = 0.1


def looks_binary(text: str) -> bool:
    """A decoded text that holds a NUL character or is mostly undecodable (U+FFFD): likely not source code."""
    if "\x00" in text:
        return True
    return bool(text) and text.count("\ufffd") > _UNDECODABLE_SHARE * len(text)
