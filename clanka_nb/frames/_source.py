"""Turning what the user passes (a folder or an `engine.Codebase`) into a Codebase, parsed once."""

from __future__ import annotations

import os
from collections.abc import Iterable

from .. import engine
from ..engine._settings import path_list as engine_path_list
from ._progress import Progress, bar

Source = str | os.PathLike[str] | engine.Codebase


def check_codebase_languages(codebase: engine.Codebase, languages: str | None) -> None:
    """A `languages` given with a Codebase must be the one it was parsed with (None: the codebase's)."""
    if languages is not None and languages != codebase.languages:
        msg = (
            f"languages={languages!r} but the Codebase was parsed with languages={codebase.languages!r}; "
            "leave languages out to use the codebase's, or build Codebase(root, languages=...) again"
        )
        raise ValueError(msg)


def open_source(
    source: Source,
    *,
    paths: Iterable[str | os.PathLike[str]] | str | os.PathLike[str] | None = None,
    max_file_size: str | int = "1M",
    workers: int | None = None,
    languages: str | None = None,
    progress: Progress = None,
) -> engine.Codebase:
    """`source` itself when it is a Codebase, else a Codebase of the folder's listed files (or of `paths`)."""
    if isinstance(source, engine.Codebase):
        check_codebase_languages(source, languages)
        return source
    # Each file by its own name on disk: two names can share one reported path (`a\\b.ts`, `a/b.ts`).
    if paths is None:
        listed = engine.list_file_names(source, max_file_size=max_file_size)
    else:
        listed = engine_path_list("paths", paths)
    with bar(progress, len(listed), "reading and parsing") as handle:
        return engine.Codebase(
            source,
            paths=listed,
            workers=workers,
            languages=languages or "clanka",
            progress=None if handle is None else handle.update,
        )


def select(
    codebase: engine.Codebase, paths: Iterable[str | os.PathLike[str]] | str | os.PathLike[str] | None
) -> list[str]:
    """The codebase's paths to work on: all files, or the given ones (checked to belong to it)."""
    if paths is None:
        return list(codebase.files)
    # report() raises KeyError naming a path the codebase does not hold, and knows absolute paths inside it;
    # the report's path is the codebase's own key for the file.
    return [codebase.report(path).path for path in engine_path_list("paths", paths)]
