"""The vector cache file as a hostile writer of the cache folder leaves it (issue 34, items 1, 7, 8, 10, 11).

Every child process and wait here is bounded; the embedder is the hashed-words stand-in (not a model).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest

from clanka_nb.engine.embedding import input_hash
from clanka_nb.index import SemanticIndex, VectorCache, VectorCacheWarning, _vectors, embedders

REPO = Path(__file__).resolve().parents[2]
AS_ROOT = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown needs root")
ENDLESS = (
    "CREATE TRIGGER planted AFTER INSERT ON vectors BEGIN "
    "SELECT count(*) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n); END"
)
# In this process a regression must fail, not hang: the same trigger counting to ten (endless ones run in
# child processes, under a timeout).
BOUNDED = ENDLESS.replace("FROM n)", "FROM n WHERE i < 10)")


@pytest.fixture(autouse=True)
def fresh_warning_state(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_vectors, "_warned", set())


class Counted:
    def __init__(self, dimensions: int = 16) -> None:
        self.inner = embedders.hashed_words(dimensions)
        self.model_id = "test/counted"
        self.count = 0

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.count += len(texts)
        return self.inner(texts)


def _unkeyed(model: str, digest: str, blob: bytes) -> bytes:
    """The checksum anyone could compute (the cache's, before it was keyed with the user's secret)."""
    check = hashlib.blake2b(digest_size=16)
    check.update(f"{model}\0{digest}\0".encode())
    check.update(blob)
    return check.digest()


def _plant(path: Path, model: str, text: str, vector: np.ndarray) -> None:
    digest, blob = input_hash(text), vector.astype(np.float32).tobytes()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE vectors SET vector = ?, checksum = ? WHERE model = ? AND hash = ?",
                   (blob, _unkeyed(model, digest, blob), model, digest))  # fmt: skip
    db.close()


# --- item 1 ---


@pytest.mark.parametrize("scale", [-7.0, 1e30])
def test_a_forged_query_vector_is_dropped_with_one_warning_and_embedded_again(sample, tmp_path, scale):
    path = tmp_path / "vectors.sqlite3"
    embed = Counted()
    index = SemanticIndex(sample, embed=embed, cache=VectorCache(path), progress=False)
    index.sync()
    query = "add two numbers"
    honest = index.embed_query(query)
    _plant(path, embed.model_id, query, honest * scale)
    embed.count = 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        again = SemanticIndex(sample, embed=embed, cache=VectorCache(path), progress=False).embed_query(query)
    assert [w.category for w in caught] == [VectorCacheWarning]
    assert "without this user's key" in str(caught[0].message)
    assert embed.count == 1 and np.array_equal(again, honest)


@pytest.mark.parametrize("bad", [np.nan, np.inf, "wrong-length"])
def test_a_bad_cached_vector_is_never_searched_nor_copied_into_the_index(sample, tmp_path, bad):
    path = tmp_path / "vectors.sqlite3"
    embed = Counted()
    one = tmp_path / "one.sqlite"
    query = "add two numbers"
    expected = SemanticIndex(sample, embed=embed, cache=VectorCache(path), db=one, progress=False)
    expected.sync()
    expected = expected.search(query, limit=3)
    vector = np.full(8, 1.0) if bad == "wrong-length" else np.full(16, bad)
    # Even under the user's own key (as a release that stored them unchecked could have): checked all the same.
    cache = VectorCache(path)
    cache._connection()
    with sqlite3.connect(path) as db:
        for (digest,) in db.execute("SELECT hash FROM vectors").fetchall():
            blob = vector.astype(np.float32).tobytes()
            db.execute("UPDATE vectors SET vector = ?, checksum = ? WHERE hash = ?",
                       (blob, _vectors._checksum(cache._secret, embed.model_id, digest, blob), digest))  # fmt: skip
    db.close()
    cache.close()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", VectorCacheWarning)
        again = SemanticIndex(sample, embed=embed, cache=VectorCache(path), db=one, progress=False)
        assert again.search(query, limit=3).equals(expected)  # the query is embedded again
        if bad == "wrong-length":
            return  # a new index has no dimension to check it against: the model id's own vectors are its own
        two = SemanticIndex(sample, embed=embed, cache=VectorCache(path), db=tmp_path / "two.sqlite", progress=False)
        two.sync()
    with sqlite3.connect(tmp_path / "two.sqlite") as db:
        stored = [np.frombuffer(row[0], dtype=np.float32) for row in db.execute("SELECT vector FROM chunks")]
    db.close()
    assert stored and all(v.shape == (16,) and np.isfinite(v).all() and np.abs(v).max() < 1e3 for v in stored)


# --- item 7 ---


def test_a_planted_trigger_or_view_is_refused_before_anything_is_written(tmp_path):
    for statement in (BOUNDED, "CREATE VIEW planted AS SELECT * FROM vectors"):
        path = tmp_path / f"{len(statement)}.sqlite3"
        VectorCache(path).put("test/model", [("a" * 64, np.ones(4, dtype=np.float32).tobytes())])
        with sqlite3.connect(path) as db:
            db.execute(statement)
        db.close()
        before = path.read_bytes()
        _vectors._warned.clear()
        embed = Counted()
        with pytest.warns(VectorCacheWarning, match="planted") as caught:
            by_hash = {input_hash("x y"): "x y"}
            _vectors.embed_texts(embed, by_hash, model=embed.model_id, cache=VectorCache(path))
        assert len(caught) == 1 and "delete" in str(caught[0].message)
        assert path.read_bytes() == before


def test_a_planted_endless_trigger_does_not_hang_sync(sample, tmp_path):
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    path = cache_dir / _vectors.FILE_NAME
    VectorCache(path).put("test/model", [("a" * 64, np.ones(4, dtype=np.float32).tobytes())])
    with sqlite3.connect(path) as db:
        db.execute(ENDLESS)
    db.close()
    script = textwrap.dedent(
        """
        import sys
        from clanka_nb.index import SemanticIndex, embedders
        report = SemanticIndex(sys.argv[1], embed=embedders.hashed_words(16), db=sys.argv[2], progress=False).sync()
        print(report.embedded)
        """
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "CLANKA_NB_CACHE_DIR": str(cache_dir)}
    env.pop("CLANKA_NB_CACHE", None)
    done = subprocess.run([sys.executable, "-c", script, str(sample), str(tmp_path / "index.sqlite")], env=env,
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0 and int(done.stdout) > 0, done.stderr
    assert "planted" in done.stderr


# --- item 8 ---


def test_the_cache_file_is_0600_in_a_0700_folder_the_library_made(tmp_path):
    folder = tmp_path / "made"
    cache = VectorCache(folder / _vectors.FILE_NAME)
    cache.put("test/model", [("a" * 64, np.ones(4, dtype=np.float32).tobytes())])
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for path in folder.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


# --- item 10 ---

SHORT = textwrap.dedent(
    """
    import sys
    import numpy as np
    from clanka_nb.index import VectorCache
    cache = VectorCache(sys.argv[1], max_bytes=200_000)
    n = int(sys.argv[2])
    blob = np.ones(64, dtype=np.float32).tobytes()
    cache.put("test/model", [(f"{n:04d}-{i:059d}", blob) for i in range(150)])
    """
)
PROCESSES, PER_PROCESS = 8, 150  # each process writes 150 vectors of 256 bytes and a 64-character key


def test_max_bytes_bounds_the_file_across_many_short_processes(tmp_path):
    # Eight processes (each pays numpy's and the index's import) write twice the bound between them: every one
    # after the fourth must evict what the earlier ones left, as forty processes of 30 vectors did.
    assert PROCESSES * PER_PROCESS * (256 + 64) > 1.9 * 200_000
    path = tmp_path / "vectors.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(REPO), "CLANKA_NB_CONFIG_DIR": os.environ["CLANKA_NB_CONFIG_DIR"]}
    for n in range(PROCESSES):
        done = subprocess.run([sys.executable, "-c", SHORT, str(path), str(n)], env=env, capture_output=True,
                              text=True, timeout=60, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr
    info = VectorCache(path, max_bytes=200_000).info()
    assert 0 < info.bytes <= 200_000 and info.file_bytes <= 2 * 200_000 + 2**20, info  # WAL aside
    cache = VectorCache(path)
    last = f"{PROCESSES - 1:04d}"
    assert len(cache.get("test/model", [f"{last}-{i:059d}" for i in range(PER_PROCESS)])) == PER_PROCESS  # newest
    assert len(cache.get("test/model", [f"0000-{i:059d}" for i in range(PER_PROCESS)])) < PER_PROCESS  # evicted


# --- item 11 ---


@AS_ROOT
def test_another_users_cache_file_is_left_alone_with_one_warning(tmp_path):
    path = tmp_path / "shared" / _vectors.FILE_NAME
    VectorCache(path).put("test/model", [("a" * 64, np.ones(4, dtype=np.float32).tobytes())])
    for each in path.parent.iterdir():
        os.chown(each, 65534, 65534)
    with pytest.warns(VectorCacheWarning, match="another user") as caught:
        assert VectorCache(path).get("test/model", ["a" * 64]) == {}
    assert len(caught) == 1 and "CLANKA_NB_CACHE_DIR" in str(caught[0].message)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM vectors").fetchone()[0] == 1
    db.close()
