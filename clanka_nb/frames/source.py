"""The one way to open a source (a folder, one file, a Codebase, a chunk frame, or None for the sample)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

import pandas as pd

from .. import engine
from ..bundled import sample_codebase
from ..engine.internals import check_file, resolve_root, warn_if_nothing_listed
from ..engine.progress import ProgressBar, bar
from ..engine.settings import path_list
from ..engine.source import frame_files, frame_languages, frame_root_or_fail, frame_settings

Source = str | os.PathLike[str] | engine.Codebase | pd.DataFrame | None
"""What every function that reads code takes: a folder, the path of one file, a parsed `engine.Codebase`,
a chunk frame of this package (its root and settings are in `frame.attrs`, or its root in a `root`
column for frames of `clanka_nb.dask`), or None for the sample codebase that ships with clanka-nb.

A chunk frame stands for its codebase: its root opened with the frame's `languages` and
`max_file_size`, its chunk settings the defaults of every setting the caller does not pass."""

Paths = Iterable[str | os.PathLike[str]] | str | os.PathLike[str]

class Opened(NamedTuple):
    """A source opened: its parsed codebase and the settings that apply to it."""

    codebase: engine.Codebase
    settings: engine.Settings


class Located(NamedTuple):
    """Where a source's files are, before any is read: a Codebase given as is, else a root and its file names."""

    settings: engine.Settings
    codebase: engine.Codebase | None
    root: Path
    names: list[str] | None  # the files to read by their names on disk; None for every listed file


def _mode(codebase: engine.Codebase, settings: engine.Settings) -> engine.Settings:
    """The settings with the codebase's languages; a different mode passed is an error naming the fix."""
    if settings.languages is not None and settings.languages != codebase.languages:
        msg = (
            f"languages={settings.languages!r} but the Codebase was parsed with languages={codebase.languages!r}; "
            "leave languages out to use the codebase's, or build Codebase(root, languages=...) again"
        )
        raise ValueError(msg)
    return settings.with_defaults({"languages": codebase.languages})


def locate(source: Source, settings: engine.Settings, *, paths: Paths | None = None) -> Located:
    """Where `source`'s files are and the settings that apply to them; nothing is read yet."""
    if isinstance(source, engine.Codebase):
        return Located(_mode(source, settings), source, source.root, None)
    if isinstance(source, pd.DataFrame):
        frame_languages(source, settings.languages)
        if paths is None:
            paths = frame_files(source)  # a frame of one file (or of chosen files) stands for those alone
        settings, source = settings.with_defaults(frame_settings(source)), frame_root_or_fail(source)
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
        # One file alone: its folder is the root and it is the only file, however its folder lists.
        return Located(settings, None, Path(os.path.abspath(path)).parent, [path.name])
    # Each file by its own name on disk: two names can share one reported path (`a\\b.ts`, `a/b.ts`).
    names = None if paths is None else [os.fspath(p) for p in path_list("paths", paths)]
    if names is not None:
        root = resolve_root(path)  # a missing root is named before its files
        for name in names:
            check_file(root, name)
    return Located(settings, None, path, names)


def listed_names(located: Located) -> list[str]:
    """The names of the located files on disk: the given ones, else every file the listing gives."""
    if located.names is not None:
        return located.names
    root = resolve_root(located.root)
    return warn_if_nothing_listed(root, engine.list_file_names(root, max_file_size=located.settings.max_file_size))


def open_source(
    source: Source, settings: engine.Settings, *, paths: Paths | None = None, progress: ProgressBar = None
) -> Opened:
    """`source` as a parsed Codebase (itself when it is one) and the settings that apply to it."""
    located = locate(source, settings, paths=paths)
    if located.codebase is not None:
        return Opened(located.codebase, located.settings)
    names = listed_names(located)
    with bar(progress, len(names), "reading and parsing") as handle:
        codebase = engine.Codebase(
            located.root,
            paths=names,
            workers=located.settings.workers,
            languages=located.settings.mode,
            progress=None if handle is None else handle.update,
        )
    # The listing was passed only to count it for the bar: the codebase stands for chosen files only when given.
    codebase.selected = located.names is not None
    return Opened(codebase, located.settings.with_defaults({"languages": codebase.languages}))


def select(codebase: engine.Codebase, paths: Paths | None) -> list[str]:
    """The codebase's paths to work on: all files, or the given ones (checked to belong to it)."""
    if paths is None:
        return list(codebase.files)
    # report() raises KeyError naming a path the codebase does not hold, and knows absolute paths inside it;
    # the report's path is the codebase's own key for the file.
    return [codebase.report(path).path for path in path_list("paths", paths)]
