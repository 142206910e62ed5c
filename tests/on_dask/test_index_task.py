"""Issue 55: one repository's task on the cluster lists its root once (the fingerprint and the sync share the
listing), and an OpenAI embedder unpickled by every task is built once per worker process (one set of kept
sessions), sending one request per call so that `embed_concurrency` counts requests."""

from __future__ import annotations

import os
import pickle
import warnings
from pathlib import Path

import pytest

from clanka_nb.dask._indexes import IndexTask
from clanka_nb.dask._limit import EmbedLimit, portable
from clanka_nb.engine import list_file_names
from clanka_nb.engine.settings import Settings
from clanka_nb.index import SemanticIndex, VectorCache, embedders
from clanka_nb.index._repositories import _files_digest

pytest.importorskip("apsw")
pytest.importorskip("sqlite_vec")

EMBED = embedders.hashed_words(32)


def _repository(folder: Path) -> Path:
    (folder / "src").mkdir(parents=True)
    for number in range(3):
        (folder / "src" / f"m{number}.py").write_text(f"def f{number}(x):\n    return x + {number}\n")
    return folder


def _task(settings: Settings, cache: Path) -> IndexTask:
    return IndexTask(EMBED, "stand-in/hashed-words-32", settings, str(cache), "", EmbedLimit(), 300, 5.0)


@pytest.mark.parametrize("settings", [Settings(chunk_max_characters=10_000),
                                      Settings(chunk_max_characters=10_000, chunk_size=12)])  # the note's path too
def test_a_repository_is_listed_once_per_task(tmp_path, monkeypatch, settings: Settings) -> None:
    root = _repository(tmp_path / "repo")
    listings: list[str] = []
    real = os.scandir

    def counting(path: object = ".") -> object:
        if os.fspath(path) == str(root):  # type: ignore[call-overload]
            listings.append(os.fspath(path))  # type: ignore[call-overload]
        return real(path)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "scandir", counting)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the note about other settings than clanka's: said by sync_indexes
        done = _task(settings, tmp_path / "cache.sqlite")(str(root), str(root / ".clanka" / "search.sqlite"))
    assert done.status == "synced" and done.files == 3 and done.chunks >= 3, done
    assert len(listings) == 1  # the fingerprint's listing is the sync's: not listed a second time
    # and the rows are those of a sync that lists the root itself
    with SemanticIndex(root, embed=EMBED, cache=VectorCache(), settings=settings, progress=False) as local:
        local.sync()
        assert sorted(local.rows()["hash"]) == sorted(_hashes(root / ".clanka" / "search.sqlite"))


def _hashes(db: Path) -> list[str]:
    import apsw

    connection = apsw.Connection(str(db))
    try:
        return [row[0] for row in connection.execute("SELECT hash FROM chunks")]
    finally:
        connection.close()


def test_the_digest_reads_files_by_their_names_on_disk(tmp_path) -> None:
    root = _repository(tmp_path / "repo")
    odd = root / "src" / "a\\b.py"  # a backslash in a file's name: listed with a slash, read by its own name
    odd.write_text("x = 1\n")
    listed = list_file_names(root)
    before = _files_digest(str(root), listed)
    odd.write_text("x = 12\n")
    assert _files_digest(str(root), listed) != before  # seen changing, not taken for a file gone


def test_an_openai_embedder_is_built_once_per_process_for_every_task() -> None:
    embed = embedders.openai("m", base_url="http://127.0.0.1:9/v1", api_key="k", concurrency=8)
    embed.requests = 5
    shipped = pickle.dumps(portable(embed))
    first, second = pickle.loads(shipped), pickle.loads(shipped)
    assert first._embedder() is second._embedder()  # one embedder (and its kept sessions) for both tasks
    built = first._embedder()
    assert isinstance(built, embedders.OpenAIEmbedder)
    assert built.concurrency == 1 and built.requests == 0  # one request per call: embed_concurrency counts them
    other = pickle.loads(pickle.dumps(portable(embedders.openai("m", base_url="http://127.0.0.1:9/v2", api_key="k"))))
    assert other._embedder() is not built  # another endpoint: another embedder
