"""Which files of a folder get indexed: ripgrep's listing rules, in pure Python."""

from __future__ import annotations

import os
from pathlib import Path

from ._collation import sorted_like_js
from ._files import is_meaningful_file


def resolve_root(root: str | os.PathLike[str]) -> Path:
    """The root as an absolute path; a clear error when it is missing or not a folder."""
    path = Path(root).expanduser()
    if not path.exists():
        msg = f"root folder {str(path)!r} does not exist; pass the path of a folder holding source code"
        raise FileNotFoundError(msg)
    if not path.is_dir():
        msg = f"root {str(path)!r} is a file, not a folder; pass its folder, or use chunk_file(root, path)"
        raise NotADirectoryError(msg)
    return path.resolve()


def parse_size(value: str | int) -> int:
    """'1M' -> 1,048,576 (K, M, G are powers of 1024, as ripgrep's --max-filesize)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value).strip().upper()
    factor = {"K": 1024, "M": 1024**2, "G": 1024**3}.get(text[-1:], 1)
    number = text[:-1] if factor != 1 else text
    if not number.isdigit():
        msg = f"max_file_size {value!r} is not a size; pass bytes as an int or a string like '500K', '1M', '2G'"
        raise ValueError(msg)
    return int(number) * factor


def list_files(root: str | os.PathLike[str], *, max_file_size: str | int = "1M") -> list[str]:
    """PLACEHOLDER listing (no ignore files yet): meaningful regular files, in localeCompare order."""
    base = resolve_root(root)
    limit = parse_size(max_file_size)
    out = []
    for folder, dirs, names in os.walk(base):
        dirs[:] = [d for d in dirs if d != ".git" and not os.path.islink(os.path.join(folder, d))]
        for name in names:
            full = os.path.join(folder, name)
            if os.path.islink(full) or os.path.getsize(full) > limit:
                continue
            rel = os.path.relpath(full, base).replace(os.sep, "/")
            if is_meaningful_file(rel):
                out.append(rel)
    return sorted_like_js(out)
