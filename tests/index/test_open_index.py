"""Opening an index: rows parsed from the stored input, current/stale against the chunker, missing inputs."""

from __future__ import annotations

import hashlib

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import clanka_nb as cn
from clanka_nb import engine
from clanka_nb.engine.embedding import embedding_text
from clanka_nb.index import SemanticIndex, VectorCache, parse_input

from .conftest import Counting

_line = st.text(st.characters(blacklist_characters="\n", blacklist_categories=("Cs",)), max_size=30)
_field = st.none() | st.text(st.characters(blacklist_characters="\n", blacklist_categories=("Cs",)), min_size=1,
                             max_size=12).filter(lambda s: s != "---")


@given(path=_field.filter(lambda p: p is not None), start=st.integers(1, 10_000), name=_field, type_=_field,
       parent=_field, lines=st.lists(_line, min_size=1, max_size=8))
def test_parse_input_inverts_the_embedding_text(path, start, name, type_, parent, lines):
    content = "\n".join(lines)
    parsed = parse_input(embedding_text(path, start, name, type_, parent, content))
    assert (parsed.path, parsed.start_line, parsed.end_line, parsed.content) == (
        path, start, start + len(lines) - 1, content)
    assert (parsed.name, parsed.type, parsed.parent) == (name, type_, parent)


def test_parse_input_of_other_text_is_empty():
    assert parse_input("Module: a.ts\nDirectory: src\n\nconst a = 1").path is None


def test_rows_status_and_missing_against_the_source(sample, tmp_path):
    db = sample / ".clanka" / "search.sqlite"
    SemanticIndex(sample, embed=Counting(), db=db, cache=VectorCache()).sync()
    target = sample / "src" / "inventory.ts"
    target.write_text("// moved down a line\n" + target.read_text())
    index = cn.open_index(sample, root=sample)  # the folder holding .clanka/
    rows = index.rows()
    chunks = {cn.embedding_input(c): c for c in engine.chunk_codebase(sample, chunk_max_characters=10_000)}
    now = {hashlib.sha256(text.encode()).hexdigest() for text in chunks}
    assert set(rows.loc[rows["status"] == "stale", "path"]) == {"src/inventory.ts"}
    assert (rows["status"] == "current").sum() == len(set(rows["hash"]) & now)
    missing = index.missing()
    assert set(missing["path"]) == {"src/inventory.ts"}
    assert set(missing["input"]) == {t for t in chunks if hashlib.sha256(t.encode()).hexdigest() not in
                                     set(rows["hash"])}
    for row in missing.itertuples():
        chunk = chunks[row.input]
        assert (row.start_line, row.end_line) == (chunk.start_line, chunk.end_line)


def test_open_index_searches_with_the_embedder_and_does_not_write(sample, tmp_path):
    db = tmp_path / "search.sqlite"
    embed = Counting()
    built = SemanticIndex(sample, embed=embed, db=db, cache=VectorCache())
    built.sync()
    expected = built.search("stock level of a book", limit=5)
    built.close()
    stamp = db.stat().st_mtime_ns, db.read_bytes()
    opened = cn.open_index(db, embed=embed)
    found = opened.search("stock level of a book", limit=5)
    assert found["input"].tolist() == expected["input"].tolist()
    assert np.allclose(found["distance"], expected["distance"])
    assert len(opened) == len(opened.rows()) and opened.dimensions == 32
    opened.close()
    assert (db.stat().st_mtime_ns, db.read_bytes()) == stamp


def test_rows_written_before_the_vector_table_are_backfilled(sample, tmp_path):
    """clanka's start-up backfills chunk_vectors from chunks; an index opened here for syncing does the same."""
    import apsw
    import sqlite_vec

    db = tmp_path / "search.sqlite"
    SemanticIndex(sample, embed=Counting(), db=db, cache=VectorCache()).sync()
    connection = apsw.Connection(str(db))
    connection.enable_load_extension(True)
    connection.load_extension(sqlite_vec.loadable_path())
    connection.execute("DROP TABLE chunk_vectors")
    connection.close()
    index = SemanticIndex(sample, embed=Counting(), db=db, cache=VectorCache())
    count = index._db.execute("SELECT count(*) FROM chunk_vectors").fetchone()[0]
    assert count == len(index) > 0
    assert len(index.search("isbn", limit=3)) == 3
