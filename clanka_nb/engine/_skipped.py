"""The files under a root that `list_files` leaves out, each with the reason it is left out."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..defaults import MAX_FILE_SIZE
from ._collation import sorted_like_js
from ._files import IGNORED_SEGMENTS, MEANINGFUL_EXTENSIONS, extension, is_meaningful_file
from ._listing import _Rules, _rules_above, _rules_here, resolve_root
from .settings import checked_keywords, parse_size, setting_docs


def _shown(source: str, root: Path) -> str:
    """An ignore file's path relative to the root when inside it, else as it is."""
    rel = os.path.relpath(source, root).replace(os.sep, "/")
    return source if rel.startswith("../") else rel


def _ignored(rules: _Rules, rel: str, is_dir: bool, root: Path) -> str | None:
    found = rules.ignored_by(rel, is_dir)
    return None if found is None else f"ignored by {_shown(found[0], root)} (pattern {found[1]!r})"


def _name_reason(rel: str) -> str:
    """Why the reference never indexes a file of this name."""
    name = rel.rsplit("/", 1)[-1].lower()
    if name.endswith((".min.css", ".min.js")):
        return "a minified bundle by its name (.min.js, .min.css): the reference never indexes it"
    ext = extension(rel)
    if not ext or "." not in name:
        return "no extension: the reference indexes only known source and documentation extensions"
    if ext not in MEANINGFUL_EXTENSIONS:
        return f"extension .{ext} is not one the reference indexes"
    return "a name the reference never indexes"


@checked_keywords
@setting_docs
def skipped_files(
    root: str | os.PathLike[str], *, max_file_size: str | int = MAX_FILE_SIZE
) -> list[tuple[str, str]]:
    """(path, reason) for every file under `root` that `list_files(root, max_file_size=...)` leaves out.

    Reasons name what decided: an excluded folder (node_modules, dist, ...), an ignore file and its
    pattern, an extension the reference does not index, the size limit, a symbolic link, or not a
    regular file. Excluded and ignored folders are walked too, so each of their files has a row; only
    the `.git` folder is not walked (ripgrep's `--glob '!.git'`; its objects are not source files).
    Paths are relative to the root with `/`, in the same order as `list_files`.

    Args:
        root: The folder.

    Returns:
        (path, reason) for each file left out, in the listing's order.

    Raises:
        FileNotFoundError: `root` is no folder.

    Examples:
        >>> engine.skipped_files("my-repo")[:3]
    """
    base = resolve_root(root)
    limit = parse_size(max_file_size)
    found: list[tuple[str, str]] = []
    # (folder, its path relative to the root, rules in force, why everything in it is left out)
    stack: list[tuple[str, str, _Rules, str | None]] = [(str(base), "", _rules_above(base), None)]
    while stack:
        folder, rel_folder, above, excluded = stack.pop()
        try:
            with os.scandir(folder) as scan:
                entries = list(scan)
        except OSError:
            continue  # unreadable or gone, as list_files
        rules = above if excluded else _rules_here(folder, entries, above, len(rel_folder))
        for entry in entries:
            if entry.name == ".git":
                continue
            rel = rel_folder + entry.name
            try:
                if excluded and entry.is_dir(follow_symlinks=False):
                    stack.append((entry.path, rel + "/", rules, excluded))
                    continue
                reason = excluded or _entry_reason(entry, rel, rules, base, limit, stack)
            except OSError:
                continue  # vanished since the scan
            if reason is not None:
                found.append((rel.replace("\\", "/"), reason))
    order = {path: i for i, path in enumerate(sorted_like_js([path for path, _ in found]))}
    return sorted(found, key=lambda item: order[item[0]])


def _entry_reason(
    entry: os.DirEntry[str], rel: str, rules: _Rules, base: Path, limit: int, stack: list[Any]
) -> str | None:
    """Why `list_files` leaves out this entry (None: it is listed, or a folder, which is pushed on `stack`)."""
    if entry.is_symlink():
        return "a symbolic link: ripgrep does not follow links"
    if entry.is_dir(follow_symlinks=False):
        excluded = None
        if entry.name.lower() in IGNORED_SEGMENTS:
            excluded = f"inside {rel}/, a folder the reference never indexes ({entry.name})"
        else:
            ignored = _ignored(rules, rel, True, base)
            if ignored is not None:
                excluded = f"inside {rel}/, {ignored}"
        stack.append((entry.path, rel + "/", rules, excluded))
        return None
    if not entry.is_file(follow_symlinks=False):
        return "not a regular file (a FIFO, socket or device): never read"
    if not is_meaningful_file(rel):
        return _name_reason(rel)
    ignored = _ignored(rules, rel, False, base)
    if ignored is not None:
        return ignored
    size = entry.stat(follow_symlinks=False).st_size
    if size > limit:
        return f"{size:,} bytes, over max_file_size ({limit:,} bytes)"
    return None
