"""Hostile repositories against `sync_indexes` (issue 50): an index is written only inside its own repository, a
model switch re-embeds, a planted schema is one failed row, the state file is read safely and catches every edit."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import clanka_nb as cn
from clanka_nb import dask as cd
from clanka_nb.dask import _indexes
from clanka_nb.dask._indexes import IndexTask, RepositoryIndex
from clanka_nb.dask._limit import EmbedLimit, portable
from clanka_nb.engine.settings import Settings
from clanka_nb.index import embedders
from clanka_nb.index.internals import STATE_SUFFIX

pytest.importorskip("apsw")
pytest.importorskip("sqlite_vec")

MODEL = embedders.hashed_words(16)


class Negated:
    """Another stand-in model of the same width (hashed words, negated; not a language model)."""

    model_id = "stand-in/negated-16"

    def __call__(self, texts: list[str]) -> np.ndarray:
        return -MODEL(texts)


def _repo(folder: Path) -> str:
    shutil.copytree(cn.sample_codebase(), folder)
    return str(folder)


def _task(embed: object = MODEL, confine: bool = True) -> IndexTask:
    """The task one worker runs for one repository (`confine`: the database is the repository's own)."""
    named = {} if confine else {"confine": False}
    return IndexTask(embed, getattr(embed, "model_id", "m"), Settings(chunk_max_characters=10_000), None, "",
                     EmbedLimit(), 300, 5.0, **named)


def _db(root: str) -> str:
    return str(Path(root) / ".clanka" / "search.sqlite")


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_clanka_folder_linked_to_another_repositorys_is_refused_and_that_index_kept(tmp_path) -> None:
    victim, attacker = _repo(tmp_path / "victim"), _repo(tmp_path / "attacker")
    assert _task()(victim, _db(victim)).status == "synced"
    (Path(attacker) / "extra.ts").write_text("export const planted = 1;\n")
    os.symlink(Path(victim) / ".clanka", Path(attacker) / ".clanka")  # as a clone carries it
    before = _snapshot(Path(victim) / ".clanka")
    done = _task()(attacker, _db(attacker))
    assert done.status == "failed" and "symbolic link" in done.error and "db=" in done.error, done
    assert "\n" not in done.error
    assert _snapshot(Path(victim) / ".clanka") == before


def test_a_database_linked_to_another_index_or_a_journal_linked_anywhere_is_refused(tmp_path) -> None:
    victim, attacker = _repo(tmp_path / "victim"), _repo(tmp_path / "attacker")
    assert _task()(victim, _db(victim)).status == "synced"
    before = _snapshot(Path(victim) / ".clanka")
    (Path(attacker) / ".clanka").mkdir()
    os.symlink(_db(victim), _db(attacker))
    assert "symbolic link" in (_task()(attacker, _db(attacker)).error or "")
    os.unlink(_db(attacker))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for side in ("-journal", STATE_SUFFIX):
        os.symlink(elsewhere / "planted", _db(attacker) + side)
        assert "symbolic link" in (_task()(attacker, _db(attacker)).error or ""), side
        os.unlink(_db(attacker) + side)
    assert _snapshot(Path(victim) / ".clanka") == before and list(elsewhere.iterdir()) == []
    assert _task()(attacker, _db(attacker)).status == "synced"  # with the links gone, its own index


def test_a_clanka_folder_linked_to_any_writable_folder_creates_nothing_there(client, tmp_path) -> None:
    repo = _repo(tmp_path / "repo")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, Path(repo) / ".clanka")
    run = cd.sync_indexes([repo], embed=MODEL, client=client, cache=tmp_path / "v.sqlite", progress=False)
    assert [r.status for r in run.repositories] == ["failed"] and "symbolic link" in run.failed[0].error
    assert list(elsewhere.iterdir()) == []


def test_a_place_the_user_names_may_be_reached_through_a_link(tmp_path) -> None:
    repo = _repo(tmp_path / "repo")
    (tmp_path / "indexes").mkdir()
    os.symlink(tmp_path / "indexes", tmp_path / "link")
    done = _task(confine=False)(repo, str(tmp_path / "link" / "repo.sqlite"))
    assert done.status == "synced" and (tmp_path / "indexes" / "repo.sqlite").is_file()


def test_one_repository_given_twice_through_a_linked_root_is_one_database(tmp_path) -> None:
    repo = _repo(tmp_path / "repo")
    os.symlink(repo, tmp_path / "alias")
    with pytest.raises(ValueError, match=r"same index .*real file") as caught:
        cd.sync_indexes([repo, tmp_path / "alias"], embed=MODEL, client="tcp://unused")
    assert "\n" not in str(caught.value)
    with pytest.raises(ValueError, match="same index"):
        cd.sync_indexes([tmp_path / "a", tmp_path / "b"], embed=MODEL, client="tcp://unused",
                        db={str(tmp_path / "a"): tmp_path / "alias" / "x.sqlite",
                            str(tmp_path / "b"): Path(repo) / "x.sqlite"})


def test_a_model_switch_re_embeds_every_row_and_is_then_unchanged(tmp_path) -> None:
    repo = _repo(tmp_path / "repo")
    first = _task()(repo, _db(repo))
    switched = _task(Negated())(repo, _db(repo))
    assert switched.status == "synced" and switched.reused == 0 and switched.embedded == first.inputs
    with cn.open_index(_db(repo)) as index:
        _, vectors = index.vectors()
        texts = list(index.rows()["input"])
    assert np.array_equal(vectors, -MODEL(texts))  # every row the new model's
    assert _task(Negated())(repo, _db(repo)).status == "unchanged"


def test_a_planted_schema_is_that_repositorys_failed_row(tmp_path) -> None:
    import apsw

    repo = _repo(tmp_path / "repo")
    assert _task()(repo, _db(repo)).status == "synced"
    connection = apsw.Connection(_db(repo))
    connection.execute("CREATE INDEX planted ON chunks (length(replace(hex(zeroblob(50000000)), '0', 'ab')))")
    connection.close()
    (Path(repo) / "extra.ts").write_text("export const added = 1;\n")
    done = _task()(repo, _db(repo))
    assert done.status == "failed" and "index 'planted' is not clanka's" in done.error, done


def _run_within(call: Callable[[], RepositoryIndex], seconds: float = 60.0) -> RepositoryIndex | None:
    """Run `call` in a thread; its result, or None when it has not returned (a hang) by then."""
    out: list[RepositoryIndex] = []
    worker = threading.Thread(target=lambda: out.append(call()), daemon=True)
    worker.start()
    worker.join(seconds)
    return out[0] if out else None


def test_a_fifo_as_the_state_file_never_blocks(tmp_path) -> None:
    repo = _repo(tmp_path / "repo")
    assert _task()(repo, _db(repo)).status == "synced"
    os.unlink(_db(repo) + STATE_SUFFIX)
    os.mkfifo(_db(repo) + STATE_SUFFIX)
    done = _run_within(lambda: _task()(repo, _db(repo)))
    assert done is not None, "the repository's task waited on the FIFO"
    assert done.status == "failed" and "not a regular file" in done.error
    named = _run_within(lambda: _task(confine=False)(repo, _db(repo)))  # a place the user named: read safely
    assert named is not None and named.status in ("synced", "unchanged"), named


def test_an_edit_that_keeps_size_and_mtime_is_synced(tmp_path) -> None:
    repo = _repo(tmp_path / "repo")
    assert _task()(repo, _db(repo)).status == "synced"
    target = Path(repo) / "src" / "pricing.ts"
    stat = target.stat()
    text = target.read_text()
    target.write_text(text.replace("price", "PRICE", 1))  # the same size
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # and the same mtime
    assert target.stat().st_size == stat.st_size and target.stat().st_mtime_ns == stat.st_mtime_ns
    done = _task()(repo, _db(repo))
    assert done.status == "synced" and done.embedded > 0


def test_the_embedder_sent_to_the_workers_shows_no_api_key() -> None:
    embed = embedders.openai("m", base_url="http://127.0.0.1:9/v1", api_key="sk-very-secret-key")
    shipped = portable(embed)
    assert "very-secret" not in repr(shipped) and "very-secret" not in repr(_task(shipped))
    assert "openai('m'" in repr(shipped)


class _Clock:
    """The `time` module as `_indexes` sees it, with every sleep recorded (and none slept)."""

    def __init__(self) -> None:
        self.slept: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)

    def __getattr__(self, name: str) -> object:
        return getattr(time, name)


def test_a_slow_rate_makes_no_run_with_nothing_to_embed_wait_out_its_window(client, tmp_path, monkeypatch) -> None:
    repo = _repo(tmp_path / "repo")
    clock = _Clock()
    monkeypatch.setattr(_indexes, "time", clock)
    # One call (every input in one batch): the rate's one lease per 100 s window is taken once.
    first = cd.sync_indexes([repo], embed=MODEL, client=client, cache=tmp_path / "v.sqlite", embed_rate=0.01,
                            batch_size=100_000, progress=False)
    assert first.embedded > 0 and clock.slept == [100.0]  # its last lease comes back: the window is waited out
    clock.slept.clear()
    again = cd.sync_indexes([repo], embed=MODEL, client=client, cache=tmp_path / "v.sqlite", embed_rate=0.01,
                            batch_size=100_000, progress=False)
    assert [r.status for r in again.repositories] == ["unchanged"] and clock.slept == []
