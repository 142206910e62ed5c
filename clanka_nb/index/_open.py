"""`open_index`: look inside the `.clanka/search.sqlite` clanka built, and compare it with the chunker now."""

from __future__ import annotations

from os import PathLike
from pathlib import Path
from typing import Any, Unpack

from .. import engine
from ..defaults import INDEX_MAX_CHARACTERS
from ..engine.settings import Settings, TextKeywords, setting_keywords
from . import _db
from ._clanka_check import ClankaCheck, clanka_check
from ._index import IndexView, _guarded, _inputs
from ._vectors import Embedder, VectorCache


class OpenedIndex(IndexView):
    """An existing index, opened read-only: `rows()`, `missing()` (with `root=`), `search()` (with `embed=`).

    Args:
        connection: The open database connection (apsw), read-only.
        where: The database's place, as shown.
        root: The folder the index was built from; None: no comparison.
        embed: The embedder of queries; None: no search.
        model_id: The model's id in the vector cache; None: the embedder's own.
        cache: The vector cache; None: the default one.
        settings: The chunk settings `missing()` compares at.
        busy_timeout: Seconds a read waits while another process commits.
    """

    def __init__(self, connection: Any, where: str, root: Path | None, embed: Embedder | None,
                 model_id: str | None, cache: VectorCache | None, settings: dict[str, Any],
                 busy_timeout: float = _db.BUSY_TIMEOUT) -> None:
        super().__init__(connection, where, embed, model_id, cache, busy_timeout)
        self.root = root
        self.settings = settings
        self.given = Settings(**settings)  # the settings asked for, as an object (`clanka_check`)
        self._now: dict[str, tuple[str, str]] | None = None

    def __repr__(self) -> str:
        return f"OpenedIndex({self.where!r}, {len(self)} rows, {self.dimensions} dims, root={self.root})"

    def _current(self) -> dict[str, tuple[str, str]]:
        if self.root is None:
            msg = "pass root= (the folder the index was built from) to compare the index with the chunker"
            raise ValueError(msg)
        if self._now is None:
            self._now = _inputs(list(engine.chunk_codebase(self.root, **self.settings)))
        return self._now

    @_guarded
    def rows(self) -> Any:
        """Stored rows; with `root=`, `status`: `current` when the chunker gives that input now, else `stale`."""
        frame = super().rows()
        if self.root is not None:
            now = self._current()
            frame["status"] = ["current" if digest in now else "stale" for digest in frame["hash"]]
        return frame

    @_guarded
    def clanka_check(self) -> ClankaCheck:
        """At which settings the index was built (the closest of those given to `open_index`, clanka's, and clanka's
        in extended mode) and whether clanka would keep it: what its next sync would keep, delete and embed.

        Returns:
            The check, its sentence in `message`.

        Raises:
            ValueError: The index was opened without `root=`.
        """
        if self.root is None:
            msg = "pass root= (the folder the index was built from) to check the index against clanka's settings"
            raise ValueError(msg)
        return clanka_check(self.root, super().rows()["hash"], self.given)

    @_guarded
    def missing(self) -> Any:
        """Inputs the chunker gives now that the index lacks (what clanka's next run would embed)."""
        from ._store import row_frame

        now = self._current()
        stored = set(super().rows()["hash"])
        frame = row_frame([(None, path, text, digest, None) for digest, (path, text) in now.items()
                           if digest not in stored])
        return frame.drop(columns=["id", "sync_id"])


@setting_keywords(chunk_max_characters=INDEX_MAX_CHARACTERS)
def open_index(
    path: str | PathLike[str],
    *,
    root: str | PathLike[str] | None = None,
    embed: Embedder | None = None,
    model_id: str | None = None,
    cache: VectorCache | None = None,
    busy_timeout: float = _db.BUSY_TIMEOUT,
    settings: Settings | None = None, **given: Unpack[TextKeywords],
) -> OpenedIndex:
    """Open clanka's index (`.clanka/search.sqlite`, or the folder holding `.clanka/`) read-only.

    `root=` compares it with what the chunker gives now at the given settings (clanka's defaults), and
    `clanka_check()` says at which settings it was built and whether clanka would keep it;
    `embed=` (the model it was built with) lets `.search()` run queries. Reads wait up to `busy_timeout`
    seconds while another process commits; a foreign or damaged file raises IndexDatabaseError.

    Args:
        path: The index file, or the folder holding `.clanka/`.
        root: The folder the index was built from, to compare it with what the chunker gives now.
        embed: The embedder the index was built with, so `.search()` can run queries.
        model_id: The model's id in the vector cache; None: the embedder's own.
        cache: The vector cache for the queries' vectors; None: the default one.
        busy_timeout: Seconds a read waits while another process commits.

    Returns:
        The index, opened read-only: `rows()`, `missing()` (with `root=`), `search()` (with `embed=`).

    Raises:
        IndexDatabaseError: The file is empty, foreign or damaged.
        NotADirectoryError: `root` is not a folder.

    Examples:
        >>> index = cn.open_index("my-repo", root="my-repo")
        >>> index.missing()
    """
    settings = Settings(**given).over(settings)
    file = Path(path)
    if file.is_dir():
        file = file / ".clanka" / "search.sqlite"
    connection = _db.connect(file, read_only=True, must_exist=True, busy_timeout=busy_timeout)
    try:
        with _db.translated(str(file), busy_timeout), _db.deadline(connection):
            _db.check_clanka(connection, str(file))
            if "chunks" not in _db.tables(connection):
                msg = f"{file} is empty, not a clanka index; pass clanka's .clanka/search.sqlite"
                raise _db.IndexDatabaseError(msg)
    except _db.IndexDatabaseError:
        connection.close()
        raise
    folder = None
    if root is not None:
        folder = Path(root)
        if not folder.is_dir():
            connection.close()
            msg = f"root {str(root)!r} is not a folder; pass the folder the index was built from"
            raise NotADirectoryError(msg)
    chunking = {**settings.chunking(), "languages": settings.mode}
    return OpenedIndex(connection, str(file), folder, embed, model_id, cache, chunking, busy_timeout)
