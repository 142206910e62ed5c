"""The one way to resolve and open a source: a folder, the path of one file, a `Codebase`, a chunk frame of this
package (told apart without importing pandas) or None for the sample, with given files or every listed one."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from ..bundled import sample_codebase
from ..defaults import CHUNK_SETTING_NAMES, is_default
from ._codebase import Codebase, warn_if_nothing_listed
from ._listing import list_file_names, resolve_root
from ._reading import check_file, check_size
from .progress import ProgressBar, bar
from .settings import FRAME_REQUESTED, NONE_IS_NO_LIMIT, Settings, parse_size, path_list

Paths = Iterable[str | os.PathLike[str]] | str | os.PathLike[str]

# A frame's attrs -> the setting each gives a default for (the requested chunk settings, not the clamped).
_FRAME_SETTINGS = {
    "languages": "languages",
    "max_file_size": "max_file_size",
    **{FRAME_REQUESTED.get(name, name): name for name in CHUNK_SETTING_NAMES},
}


def is_chunk_frame(value: object) -> bool:
    """Whether `value` is a table with attrs and columns (a pandas DataFrame), told apart without pandas."""
    kind = type(value)  # asked of the type: reading the value's attrs here would be a second read
    return hasattr(kind, "attrs") and hasattr(kind, "columns") and not isinstance(value, str | bytes)


class FrameSource(NamedTuple):
    """What a chunk frame says of its source: its root, its chosen files, its settings, its language mode."""

    root: str | None  # None when the frame names none (in attrs or a root column)
    files: list[str] | None  # the files it was made from when they were chosen (one file, `paths=`), else None
    settings: dict[str, Any]  # the settings it was made with, as far as its attrs say (unknown ones left out)
    languages: str | None

    def filled(self, settings: Settings) -> Settings:
        """`settings` with the frame's own in place of those not passed (only those: a frame's attrs may have
        been edited, and a setting passed wins over a bad one; the frame's are checked when used)."""
        passed = settings.passed
        return settings.filled_from(Settings(**{k: v for k, v in self.settings.items() if k not in passed}))

    def root_or_fail(self) -> str:
        """`root`, or an error naming the fix when the frame names none."""
        if self.root is None:
            msg = "this frame names no root (in attrs or a root column), so its files cannot be read; pass the folder"
            raise ValueError(msg)
        return self.root


def read_frame(frame: Any) -> FrameSource:
    """The one reader of a chunk frame's attrs (and of its `root` column, which frames of many roots carry:
    it survives Parquet where a per-root attribute would not; one frame stands for one root)."""
    attrs = frame.attrs
    root = attrs.get("root")
    if "root" in frame.columns:
        roots = frame["root"].dropna().unique()
        if len(roots) > 1:
            msg = (
                f"this frame holds chunks of {len(roots)} roots (its `root` column); pass one root's rows, "
                f"e.g. frame[frame['root'] == {str(roots[0])!r}]"
            )
            raise ValueError(msg)
        if len(roots) == 1:
            root = roots[0]
    files = attrs.get("files")
    if files is not None and (not isinstance(files, list | tuple) or not all(isinstance(f, str) for f in files)):
        msg = f"frame.attrs['files'] must be a list of paths under the frame's root, got {files!r}"
        raise TypeError(msg)
    if files is not None:
        _check_files_hold_rows(frame, files)
    # None means "no limit" for chunk_max_characters, "unknown" for the others (a probe frame's max_file_size).
    settings = {
        setting: attrs[key] for key, setting in _FRAME_SETTINGS.items()
        if key in attrs and (attrs[key] is not None or setting in NONE_IS_NO_LIMIT)
    }  # fmt: skip
    return FrameSource(None if root is None else str(root), None if files is None else list(files), settings,
                       attrs.get("languages"))  # fmt: skip


def _check_files_hold_rows(frame: Any, files: list[str] | tuple[str, ...]) -> None:
    """Refuse a frame whose rows hold chunks of files its `attrs["files"]` does not name.

    The attrs then describe another frame (a Parquet folder read back keeps one part's attrs for all its
    rows), so the files it stands for are unknown: its rows cannot rebuild them exactly, since a file with
    no chunks (empty, blank, not indexed) leaves no row. The converse is no conflict: a chosen file with
    no rows is such a file, or rows were filtered out, and the frame still stands for it.
    """
    if "path" not in frame.columns:
        return
    named = set(files)
    # `unique` gives the values present (a categorical's unused categories are left out).
    stray = [path for path in frame["path"].dropna().unique() if path not in named]
    if stray:
        msg = (
            f"this frame's rows hold chunks of {len(stray)} file(s) its attrs['files'] does not name "
            f"(e.g. {str(stray[0])!r}; it names {len(named)}), so its attrs are not its rows' (a Parquet folder "
            "read back keeps one part's attrs); pass the folder it was chunked from, or del frame.attrs['files'] "
            "to let it stand for every file its root lists"
        )
        raise ValueError(msg)


class Resolved(NamedTuple):
    """Where a source's files are and the settings that apply to them, before any file is read."""

    settings: Settings
    codebase: Codebase | None  # a Codebase given as is
    root: Path
    names: list[str] | None  # the files to read by their names on disk; None for every listed file
    # A chunk frame given as the source, as read (once): a caller that wants more of it than the settings that
    # apply (the sweep fills its grid from the frame's own settings) takes it here instead of reading again.
    frame: FrameSource | None = None


class Opened(NamedTuple):
    """A source opened: its parsed codebase and the settings that apply to it."""

    codebase: Codebase
    settings: Settings


def _mode(codebase: Codebase, settings: Settings) -> Settings:
    """The settings with the codebase's languages; a different mode passed is an error naming the fix."""
    if settings.languages is not None and settings.languages != codebase.languages:
        msg = (
            f"languages={settings.languages!r} but the Codebase was parsed with languages={codebase.languages!r}; "
            "leave languages out to use the codebase's, or build Codebase(root, languages=...) again"
        )
        raise ValueError(msg)
    return settings.filled_from(Settings(languages=codebase.languages))


def resolve(source: object, settings: Settings, *, paths: Paths | None = None) -> Resolved:
    """Where `source`'s files are and the settings that apply to them; nothing is read yet.

    A Codebase is kept as it is (in its mode); a chunk frame stands for its root (or its chosen files),
    its settings the defaults of those not passed; the path of one file is that file alone, its folder
    the root; `paths` choose files under a folder (each checked, the root first).
    """
    if isinstance(source, Codebase):
        return Resolved(_mode(source, settings), source, source.root, None)
    frame = None
    if is_chunk_frame(source):
        frame = read_frame(source)
        if settings.languages is not None and frame.languages not in (None, settings.languages):
            msg = (
                f"languages={settings.languages!r} but the frame was chunked with languages={frame.languages!r}; "
                "leave languages out to use the frame's, or pass its folder to chunk it in another mode"
            )
            raise ValueError(msg)
        paths = frame.files if paths is None else paths  # a frame of chosen files stands for those alone
        settings, source = frame.filled(settings), frame.root_or_fail()
    elif source is None:
        source = sample_codebase()
    if not isinstance(source, str | os.PathLike):
        msg = (
            f"a source is a folder, the path of one file, an engine.Codebase, a chunk frame or None (the sample), "
            f"got {type(source).__name__}"
        )
        raise TypeError(msg)
    path = Path(source).expanduser()
    if paths is None and path.is_file():
        # One file alone: its folder is the root and it is the only file, however its folder lists; the size
        # limit holds as the listing holds it (a 40 MB file named alone was chunked whatever the limit).
        check_size(path, parse_size(settings.max_file_size), default=is_default(settings.max_file_size))
        resolved = Resolved(settings, None, Path(os.path.abspath(path)).parent, [path.name])
    else:
        resolved = _chosen(path, settings, paths)
    return resolved._replace(frame=frame)


def _chosen(root: Path, settings: Settings, paths: Paths | None) -> Resolved:
    """A folder and, when given, its chosen files, each checked (the root first)."""
    # Each file by its own name on disk: two names can share one reported path (`a\\b.ts`, `a/b.ts`).
    names = None if paths is None else [os.fspath(p) for p in path_list("paths", paths)]
    if names is not None:
        checked = resolve_root(root)  # a missing root is named before its files
        for name in names:
            check_file(checked, name)
    return Resolved(settings, None, root, names)


def listed_names(resolved: Resolved) -> list[str]:
    """The names of the resolved files on disk: the given ones, else every file the listing gives."""
    if resolved.names is not None:
        return resolved.names
    root = resolve_root(resolved.root)
    return warn_if_nothing_listed(root, list_file_names(root, max_file_size=resolved.settings.max_file_size))


def open_resolved(resolved: Resolved, *, progress: ProgressBar = None) -> Opened:
    """The resolved files as a parsed Codebase (the one given, when one was) and the settings that apply."""
    if resolved.codebase is not None:
        return Opened(resolved.codebase, resolved.settings)
    names = listed_names(resolved)
    settings = resolved.settings
    with bar(progress, len(names), "reading and parsing") as handle:
        codebase = Codebase(
            resolved.root, paths=names, workers=settings.workers, languages=settings.mode,
            progress=None if handle is None else handle.update,
        )  # fmt: skip
    # The listing was passed only to count it for the bar: the codebase stands for chosen files only when given.
    codebase.selected = resolved.names is not None
    return Opened(codebase, settings.filled_from(Settings(languages=codebase.languages)))


def open_source(
    source: object, settings: Settings, *, paths: Paths | None = None, progress: ProgressBar = None
) -> Opened:
    """`source` resolved and opened: a parsed Codebase (itself when it is one) and the settings that apply."""
    return open_resolved(resolve(source, settings, paths=paths), progress=progress)


def narrowed(resolved: Resolved, paths: Paths) -> Resolved:
    """The same root with only `paths` (each checked); a Codebase given as is keeps all its files."""
    if resolved.codebase is not None:
        return resolved
    return _chosen(resolved.root, resolved.settings, paths)


def select(codebase: Codebase, paths: Paths | None) -> list[str]:
    """The codebase's paths to work on: all files, or the given ones (checked to belong to it)."""
    if paths is None:
        return list(codebase.files)
    # report() raises KeyError naming a path the codebase does not hold, and knows absolute paths inside it;
    # the report's path is the codebase's own key for the file.
    return [codebase.report(path).path for path in path_list("paths", paths)]
