"""A folder that holds one commit's tree, changed file by file as the history moves on.

Only the files a commit changed are written, so moving to the next commit costs what it changed.
Listing then asks the engine's own rules (`ListingCache`) about each changed path, so the files of
a commit are exactly those `list_files` would give on a checkout of it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from ..engine.internals import ListingCache
from ._git import BlobReader, Change

RULE_FILES = frozenset({".gitignore", ".ignore", ".rgignore"})
_REGULAR = ("100644", "100755")


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
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)  # a folder becomes a file: its files are deleted by this commit too
            elif path.is_symlink() or path.exists():
                path.unlink()
            if change.mode in _REGULAR and change.blob is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(self._blobs.read(change.blob))
            # Symbolic links (120000) and submodules (160000) are left out: list_files never lists a
            # link, and a submodule of a fresh clone is an empty folder.
            rules_changed |= path.name in RULE_FILES
        if rules_changed:
            self.listing.forget()
        return rules_changed

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
