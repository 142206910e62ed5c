"""Listing every root (on the workers, which see the files) and cutting the listings into batches of files."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import NamedTuple

from distributed import Client

from .. import engine

StrPath = str | os.PathLike[str]


class Batch(NamedTuple):
    """One partition's work: a run of consecutive listed files of one root, in the engine's order."""

    root: str
    paths: tuple[str, ...]
    languages: str


class Listing(NamedTuple):
    """A root as a worker resolved and listed it, or why it could not."""

    given: str
    root: str | None
    files: list[str]
    error: str | None


def list_root(given: str, max_file_size: str | int) -> Listing:
    """Runs on a worker: the root's absolute path and its listed files (the engine's order)."""
    try:
        files = engine.list_files(given, max_file_size=max_file_size)  # the engine's own checks and messages
    except (FileNotFoundError, NotADirectoryError) as exc:
        return Listing(given, None, [], str(exc))
    return Listing(given, given, files, None)


def check_roots(roots: StrPath | Iterable[StrPath]) -> list[str]:
    """The roots as absolute paths (relative ones against this process's folder); one path is a list of one."""
    given = [roots] if isinstance(roots, str | os.PathLike) else list(roots)
    if not given:
        msg = "roots is empty; pass a list of folders, e.g. chunk_codebases(['repo-a', 'repo-b'])"
        raise ValueError(msg)
    bad = [root for root in given if not isinstance(root, str | os.PathLike)]
    if bad:
        msg = f"roots must be folder paths (str or os.PathLike), got {bad[0]!r}"
        raise TypeError(msg)
    # Made absolute here: a worker's current folder need not be the client's.
    return [os.path.abspath(os.path.expanduser(os.fspath(root))) for root in given]


def check_files_per_partition(files_per_partition: object) -> int:
    if isinstance(files_per_partition, bool) or not isinstance(files_per_partition, int) or files_per_partition < 1:
        msg = f"files_per_partition must be a positive int (files per task), got {files_per_partition!r}"
        raise ValueError(msg)
    return files_per_partition


def list_roots(client: Client, roots: list[str], max_file_size: str | int) -> list[Listing]:
    """Every root listed on the workers; a root that is missing or not a folder fails here, on the client."""
    futures = client.map(list_root, roots, max_file_size=max_file_size, pure=False)
    listings: list[Listing] = client.gather(futures)
    failed = [listing for listing in listings if listing.error is not None]
    if failed:
        named = "; ".join(f"{listing.given!r}: {listing.error}" for listing in failed)
        msg = (
            f"{len(failed)} of {len(roots)} roots cannot be listed by the workers: {named}. "
            "Fix or drop these paths; on a remote cluster every worker must see the same paths (a shared filesystem)"
        )
        raise FileNotFoundError(msg)
    return listings


def batches(listings: list[Listing], languages: str, files_per_partition: int) -> list[Batch]:
    """Consecutive runs of each root's files; a root with no files still gets one (empty) batch."""
    out: list[Batch] = []
    for listing in listings:
        assert listing.root is not None  # checked by list_roots
        files = listing.files
        starts = range(0, len(files), files_per_partition) if files else [0]
        out.extend(
            Batch(listing.root, tuple(files[start : start + files_per_partition]), languages) for start in starts
        )
    return out
