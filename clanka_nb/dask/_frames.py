"""Chunk and file tables of many roots as Dask DataFrames: one partition per batch of files, built by `frames`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Unpack, cast

import dask.dataframe as dd
import pandas as pd

from .. import engine, frames
from ..defaults import MAX_FILE_SIZE
from ..engine.internals import check_languages
from ..engine.settings import Settings, TextKeywords, setting_keywords
from ._batch import parse, with_failed
from ._cluster import ClientLike, resolve_client
from ._plan import Batch, StrPath, batches, check_files_per_partition, check_roots, list_roots

ROOT = "root"
FILES_PER_PARTITION = 200


def with_root(frame: pd.DataFrame, root: str) -> pd.DataFrame:
    """The frame with a last `root` column (text) naming the folder its paths are relative to.

    The root leaves `attrs`: Parquet keeps one file's attrs for a whole dataset, so a per-root
    value there would be wrong for every other root; the column is right row by row. So do the
    batch's `files`: the batch is a slice of its root's listing, not files a user chose, and a
    folder read back would otherwise stand for its first part's batch alone (issue 46). Without
    them every part's attrs are the same, and any of them stands for every file its root lists. The same for the
    note on files that got line windows in a language extended mode parses (`mode_note`): its counts are the
    batch's, not the codebase's.
    """
    frame[ROOT] = pd.array([root] * len(frame), dtype=pd.StringDtype())
    for batch_only in (ROOT, "files", "mode_note"):
        frame.attrs.pop(batch_only, None)
    return frame


@dataclass(frozen=True)
class ChunkTask:
    """Builds one partition of the chunk table on a worker (a picklable callable, so Dask can name and retry it)."""

    settings: Settings  # the chunk settings (the batch's codebase has the language mode)
    embedding: bool

    def __call__(self, batch: Batch) -> pd.DataFrame:
        codebase = parse(batch).codebase  # a file the engine fails on gives no chunks (files() says why)
        frame = frames.chunk_codebase(codebase, progress=False, embedding=self.embedding, settings=self.settings)
        return with_root(frame, batch.root)


@dataclass(frozen=True)
class FilesTask:
    """Builds one partition of the files table on a worker."""

    settings: Settings  # the chunk settings (the batch's codebase has the language mode)

    def __call__(self, batch: Batch) -> pd.DataFrame:
        codebase, failed = parse(batch)
        frame = frames.files(codebase, progress=False, settings=self.settings)
        return with_root(with_failed(frame, batch, failed), batch.root)


def plan(
    roots: StrPath | Iterable[StrPath],
    client: ClientLike,
    files_per_partition: int,
    max_file_size: str | int,
    languages: str,
) -> list[Batch]:
    """Check the arguments, list every root on the cluster, and cut the listings into batches."""
    given = check_roots(roots)
    per_partition = check_files_per_partition(files_per_partition)
    check_languages(languages)
    listings = list_roots(resolve_client(client), given, max_file_size)
    return batches(listings, languages, per_partition)


@setting_keywords
def chunk_codebases(
    roots: StrPath | Iterable[StrPath],
    *,
    client: ClientLike = None,
    files_per_partition: int = FILES_PER_PARTITION,
    embedding: bool = False,
    max_file_size: str | int = MAX_FILE_SIZE,  # a text's settings and the listing's limit: no workers
    settings: Settings | None = None, **given: Unpack[TextKeywords],
) -> dd.DataFrame:
    """Every chunk of every root as a Dask DataFrame: `frames.chunk_codebase`'s columns and dtypes, plus `root`.

    The roots are listed now, on the cluster (a missing root fails here, naming it); the chunking
    runs when the frame is computed or written (`.compute()`, `.to_parquet(folder)`). Each
    partition is `files_per_partition` consecutive files of one root, so a worker holds one batch
    at a time and no partition mixes roots; within a root, rows come in the engine's order, and
    the roots come in the order given. Partitions keep the settings in `attrs` and the root in the
    `root` column (Parquet keeps one file's attrs for a whole folder, so the root is not there, nor
    the batch's files): read back, a folder, a root's rows of it or one part stands for every file
    its root lists.

    `client` is where the roots are listed: a `distributed.Client`, a scheduler address, or None
    for the current client (else a new `LocalCluster`, one process worker per core). The frame
    computes on the *current* client, like any Dask collection: with several clients, use
    `with client.as_current(): frame.to_parquet(...)`. Every worker must see the roots at the
    same absolute paths (relative ones are made absolute here), e.g. on a shared filesystem.

    Args:
        roots: One folder or several; every worker must see them at the same absolute paths.
        client: A `distributed.Client`, a scheduler address, or None for the current client (else a new `LocalCluster`).
        files_per_partition: Consecutive files of one root per partition.
        embedding: Add the `embedding_input` column.

    Returns:
        The lazy Dask frame of every chunk, with a `root` column.

    Raises:
        FileNotFoundError: A root is no folder (named).

    Examples:
        >>> from clanka_nb import dask as cnd
        >>> cnd.chunk_codebases(["repo-a", "repo-b"], chunk_size=40).to_parquet("chunks/")
    """
    # Bad values fail here, before listing.
    settings = Settings(**given, max_file_size=max_file_size).over(settings)
    work = plan(roots, client, files_per_partition, settings.max_file_size, settings.mode)
    meta = with_root(frames.chunk_text("", embedding=embedding), "")
    meta.attrs.clear()
    task = ChunkTask(settings, embedding)
    return cast("dd.DataFrame", dd.from_map(task, work, meta=meta, label="clanka-chunks", enforce_metadata=False))


@setting_keywords
def files(
    roots: StrPath | Iterable[StrPath],
    *,
    client: ClientLike = None,
    files_per_partition: int = FILES_PER_PARTITION,
    max_file_size: str | int = MAX_FILE_SIZE,  # a text's settings and the listing's limit: no workers
    settings: Settings | None = None, **given: Unpack[TextKeywords],
) -> dd.DataFrame:
    """One row per listed file of every root, as `frames.files` gives it, plus `root`; batched as `chunk_codebases`.

    Args:
        roots: One folder or several; every worker must see them at the same absolute paths.
        client: A `distributed.Client`, a scheduler address, or None for the current client (else a new `LocalCluster`).
        files_per_partition: Consecutive files of one root per partition.

    Returns:
        The lazy Dask frame of every listed file, with a `root` column.

    Raises:
        FileNotFoundError: A root is no folder (named).

    Examples:
        >>> cnd.files(["repo-a", "repo-b"]).compute()
    """
    # Bad values fail here, before listing.
    settings = Settings(**given, max_file_size=max_file_size).over(settings)
    work = plan(roots, client, files_per_partition, settings.max_file_size, settings.mode)
    meta = with_root(frames.files(engine.Codebase.from_texts({}), progress=False), "")
    meta.attrs.clear()
    task = FilesTask(settings)
    return cast("dd.DataFrame", dd.from_map(task, work, meta=meta, label="clanka-files", enforce_metadata=False))
