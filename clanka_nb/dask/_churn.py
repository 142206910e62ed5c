"""`churn` over many repositories' histories: each history walked on a worker, the tables stacked with `root`."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Unpack

import pandas as pd
from distributed import as_completed

from .. import history
from ..defaults import CHUNK_SIZE, INDEX_MAX_CHARACTERS, MAX_FILE_SIZE
from ..engine.progress import ProgressBar, bar
from ..engine.settings import Grid, GridKeywords, Settings, setting_keywords
from ..index.internals import REPO_ERRORS, one_line
from ._cluster import ClientLike, resolve_client
from ._frames import with_root
from ._plan import StrPath, check_roots


@dataclass(frozen=True)
class ChurnTask:
    """Runs on a worker: one repository's churn table, or the one line saying why it has none."""

    revs: str
    token_counter: object
    languages: str | None
    max_file_size: str | int
    grid: dict[str, Any]

    def __call__(self, root: str) -> tuple[pd.DataFrame | None, str | None]:
        try:
            frame = history.churn(root, revs=self.revs, token_counter=self.token_counter, progress=False,
                                  languages=self.languages, max_file_size=self.max_file_size, **self.grid)
        except (history.ChurnError, *REPO_ERRORS) as error:
            return None, f"{root}: {one_line(error)}"
        return with_root(frame, root), None


@setting_keywords(chunk_size=CHUNK_SIZE, chunk_max_characters=INDEX_MAX_CHARACTERS)
def churn(
    roots: StrPath | Iterable[StrPath],
    *,
    client: ClientLike = None,
    revs: str = "HEAD~50..HEAD",
    token_counter: object = None,
    progress: ProgressBar = None,
    languages: str | None = None, max_file_size: str | int = MAX_FILE_SIZE,
    **given: Unpack[GridKeywords],
) -> pd.DataFrame:
    """`history.churn` of every root, one task per repository, stacked in the order given with a `root` column.

    A repository whose history cannot be walked (not a clone, no commit in `revs`, a damaged object), or whose task
    kills its worker every time Dask runs it (`KilledWorker`), is left out and named with its error line in
    `attrs["failed"]`; the others finish. Each root's own `attrs` (notes,
    submodules) are per repository: they are in `attrs["notes"]` by root.

    Args:
        roots: One git clone or several.
        client: A `distributed.Client`, a scheduler address, or None for the current client (else a new `LocalCluster`).
        revs: The commits of each repository, as git names a range.
        token_counter: Adds `tokens_embedded` (a callable that pickles, a tiktoken encoding or "cl100k_base").
        progress: None shows a bar only for work over a second, False never, True always.

    Returns:
        `history.churn`'s rows of every root, with a `root` column; the failed roots in `attrs["failed"]`.

    Examples:
        >>> cnd.churn(["repo-a", "repo-b"], revs="HEAD~20..HEAD", chunk_size=[20, 40])
    """
    Grid(**given)  # bad values fail here, before any task
    Settings(languages=languages, max_file_size=max_file_size)
    absolute = check_roots(roots)
    running = resolve_client(client)
    task = ChurnTask(revs, token_counter, languages, max_file_size, dict(given))
    futures = running.map(task, absolute, pure=False)
    position = {future.key: number for number, future in enumerate(futures)}
    frames: dict[int, pd.DataFrame] = {}
    failed: list[str] = []
    with bar(progress, len(futures), "churn", unit="repo") as handle:
        for future in as_completed(futures):
            number = position[future.key]
            if future.status == "error":  # after Dask's retries: a repository that kills its worker each time
                frame, error = None, f"{absolute[number]}: {one_line(future.exception())}"
            else:
                frame, error = future.result()
            if frame is None:
                failed.append(str(error))
            else:
                frames[number] = frame
            future.release()
            if handle is not None:
                handle.update(1)
    ordered = [frames[number] for number in sorted(frames)]
    notes = {frame["root"].iat[0] if len(frame) else os.fspath(absolute[number]): dict(frame.attrs)
             for number, frame in zip(sorted(frames), ordered, strict=True)}
    out = pd.concat(ordered, ignore_index=True) if ordered else pd.DataFrame()
    out.attrs = {"roots": absolute, "revs": revs, "failed": failed, "notes": notes}
    return out
