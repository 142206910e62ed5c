"""What a chunk frame of this package says about its source (root, settings), read without importing pandas."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# A frame's attrs -> the setting each gives a default for (the requested chunk settings, not the clamped).
_FRAME_SETTINGS = {
    "languages": "languages",
    "max_file_size": "max_file_size",
    "requested_chunk_size": "chunk_size",
    "requested_chunk_overlap": "chunk_overlap",
    "chunk_max_characters": "chunk_max_characters",
}


def is_chunk_frame(value: object) -> bool:
    """Whether `value` is a table with attrs and columns (a pandas DataFrame), told apart without pandas."""
    return hasattr(value, "attrs") and hasattr(value, "columns") and not isinstance(value, str | bytes)


def frame_root(frame: Any) -> str | None:
    """The folder a chunk frame's paths are relative to: its one-valued `root` column, else `attrs["root"]`.

    Frames of many roots (`clanka_nb.dask`) carry a `root` column, which survives Parquet where a
    per-root attribute would not; one frame stands for one root.
    """
    if "root" in frame.columns:
        roots = frame["root"].dropna().unique()
        if len(roots) > 1:
            msg = (
                f"this frame holds chunks of {len(roots)} roots (its `root` column); pass one root's rows, "
                f"e.g. frame[frame['root'] == {str(roots[0])!r}]"
            )
            raise ValueError(msg)
        if len(roots) == 1:
            return str(roots[0])
    root = frame.attrs.get("root")
    return None if root is None else str(root)


def frame_files(frame: Any) -> list[str] | None:
    """The files a chunk frame was made from when it was made from chosen files (one file, `paths=`), else None
    (every file its root lists)."""
    files = frame.attrs.get("files")
    if files is None:
        return None
    if not isinstance(files, list | tuple) or not all(isinstance(name, str) for name in files):
        msg = f"frame.attrs['files'] must be a list of paths under the frame's root, got {files!r}"
        raise TypeError(msg)
    return list(files)


def frame_settings(frame: Any) -> dict[str, Any]:
    """The settings a chunk frame was made with, as far as its attrs say (unknown ones left out)."""
    attrs: Mapping[str, Any] = frame.attrs
    # None means "no limit" for chunk_max_characters, "unknown" for the others (a probe frame's max_file_size).
    return {
        setting: attrs[key] for key, setting in _FRAME_SETTINGS.items()
        if key in attrs and (attrs[key] is not None or setting == "chunk_max_characters")
    }  # fmt: skip


def frame_root_or_fail(frame: Any) -> str:
    """`frame_root`, or an error naming the fix when the frame names none."""
    root = frame_root(frame)
    if root is None:
        msg = "this frame names no root (in attrs or a root column), so its files cannot be read; pass the folder"
        raise ValueError(msg)
    return root


def frame_languages(frame: Any, languages: str | None) -> None:
    """Raise when `languages` was passed and the frame was chunked in another mode."""
    own = frame.attrs.get("languages")
    if languages is not None and own not in (None, languages):
        msg = (
            f"languages={languages!r} but the frame was chunked with languages={own!r}; "
            "leave languages out to use the frame's, or pass its folder to chunk it in another mode"
        )
        raise ValueError(msg)
