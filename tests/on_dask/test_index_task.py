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


class _CountingSemaphore:
    """Stands in for the run's `distributed.Semaphore` in this process: counts leases taken and given back."""

    def __init__(self) -> None:
        self.taken = self.given = self.held = self.most = 0

    def acquire(self, timeout: float | None = None) -> bool:
        self.taken += 1
        self.held += 1
        self.most = max(self.most, self.held)
        return True

    def release(self) -> None:
        self.given += 1
        self.held -= 1


@pytest.mark.parametrize("keep", [False, True])
def test_a_task_keeps_its_lease_only_when_no_thread_can_wait_for_one(tmp_path, monkeypatch, keep: bool) -> None:
    # Issue 55: with no more threads on the cluster than leases, a task takes its lease once, not per call.
    from clanka_nb.dask import _limit

    counting = _CountingSemaphore()
    monkeypatch.setitem(_limit._semaphores, "run", counting)
    roots = [str(_repository(tmp_path / f"repo{n}")) for n in range(3)]
    for number, root in enumerate(roots):  # each its own inputs: none answered by the cache
        (Path(root) / "own.py").write_text(f"def own_{number}():\n    return {number}\n")
    task = IndexTask(EMBED, "stand-in/hashed-words-32", Settings(chunk_max_characters=10_000),
                     str(tmp_path / "cache.sqlite"), "run", EmbedLimit(2), 300, 5.0, keep_lease=keep)
    done = task.group(roots, [str(Path(root) / ".clanka" / "search.sqlite") for root in roots])
    assert [repo.status for repo in done] == ["synced"] * 3 and sum(repo.embedded for repo in done) > 0
    assert counting.taken == counting.given == (1 if keep else 3)  # one call per small repository
    assert counting.held == 0 and counting.most == 1  # given back at the task's end, never two at once


def test_a_failing_call_gives_its_lease_back(tmp_path, monkeypatch) -> None:
    from clanka_nb.dask import _limit

    counting = _CountingSemaphore()
    monkeypatch.setitem(_limit._semaphores, "run", counting)

    def refuses(texts: list[str]) -> object:
        raise ConnectionError("the embedding server went away")

    root = str(_repository(tmp_path / "repo"))
    for keep in (False, True):
        task = IndexTask(refuses, "refuses", Settings(chunk_max_characters=10_000), str(tmp_path / "c.sqlite"),
                         "run", EmbedLimit(2), 300, 5.0, keep_lease=keep)
        (done,) = task.group([root], [str(Path(root) / ".clanka" / "search.sqlite")])
        assert done.status == "failed" and "went away" in (done.error or "")
        assert counting.held == 0 and counting.taken == counting.given
