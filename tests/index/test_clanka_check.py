"""Issue 53 item 4: an index clanka would rebuild is never written silently where clanka reads it, and an opened
index says at which settings it was built and whether clanka would keep it."""

from __future__ import annotations

import hashlib
import warnings

import pytest

import clanka_nb as cn
from clanka_nb import engine
from clanka_nb.index import ClankaRebuildWarning, SemanticIndex, VectorCache

from .conftest import Counting


def _clanka_hashes(root) -> set[str]:
    chunks = engine.chunk_codebase(root, chunk_size=30, chunk_overlap=0, chunk_max_characters=10_000,
                                   languages="clanka")  # fmt: skip
    return {hashlib.sha256(cn.embedding_input(c).encode()).hexdigest() for c in chunks}


def test_clanka_s_own_settings_sync_without_a_note(sample, tmp_path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", ClankaRebuildWarning)
        report = SemanticIndex(sample, embed=Counting(), db=tmp_path / "search.sqlite", cache=VectorCache()).sync()
    assert report.clanka_note is None


def test_other_settings_say_how_many_inputs_clanka_re_embeds_and_clanka_s_sync_does_exactly_that(
    sample, tmp_path,
) -> None:
    db = tmp_path / "search.sqlite"
    with pytest.warns(ClankaRebuildWarning) as caught:
        report = SemanticIndex(sample, embed=Counting(), db=db, cache=VectorCache(), chunk_size=60).sync()
    assert len([w for w in caught if w.category is ClankaRebuildWarning]) == 1  # one line
    stored = set(cn.open_index(db).rows()["hash"])
    expected = len(_clanka_hashes(sample) - stored)
    assert expected > 0 and report.clanka_note is not None
    assert f"will re-embed {expected:,} inputs" in report.clanka_note and "chunk_size=60" in report.clanka_note
    assert str(db) in report.clanka_note and "\n" not in report.clanka_note
    # The known truth: clanka's own next sync (its settings, a fresh vector cache) embeds exactly that many.
    with warnings.catch_warnings():
        warnings.simplefilter("error", ClankaRebuildWarning)
        again = SemanticIndex(sample, embed=Counting(), db=db, cache=VectorCache()).sync()
    assert again.embedded + again.cached == expected


def test_extended_mode_is_named_and_memory_is_never_noted(sample, tmp_path) -> None:
    (sample / "tool.py").write_text("def tool():\n    return 1\n\n\nclass Box:\n    pass\n")
    with pytest.warns(ClankaRebuildWarning, match="languages=extended"):
        SemanticIndex(sample, embed=Counting(), db=tmp_path / "x.sqlite", cache=VectorCache(),
                      languages="extended").sync()  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("error", ClankaRebuildWarning)
        report = SemanticIndex(sample, embed=Counting(), cache=VectorCache(), chunk_size=60).sync()  # :memory:
    assert report.clanka_note is None


def test_an_opened_index_says_where_it_was_built_and_whether_clanka_keeps_it(sample, tmp_path) -> None:
    db = tmp_path / "search.sqlite"
    with pytest.warns(ClankaRebuildWarning):
        SemanticIndex(sample, embed=Counting(), db=db, cache=VectorCache(), chunk_size=60).sync()
    stored = set(cn.open_index(db).rows()["hash"])
    check = cn.open_index(db, root=sample, chunk_size=60).clanka_check()
    assert "chunk_size=60" in check.built_at and check.current == check.rows == len(stored)
    assert not check.kept and check.clanka_embeds == len(_clanka_hashes(sample) - stored)
    assert check.clanka_current == len(_clanka_hashes(sample) & stored)
    assert "would keep" in check.message
    # Opened at clanka's settings alone, no setting tried holds every row: the closest says how many it holds.
    unhinted = cn.open_index(db, root=sample).clanka_check()
    assert unhinted.current < unhinted.rows and f"{unhinted.current:,} of its {unhinted.rows:,}" in unhinted.message
    own = tmp_path / "own.sqlite"
    SemanticIndex(sample, embed=Counting(), db=own, cache=VectorCache()).sync()
    kept = cn.open_index(own, root=sample).clanka_check()
    assert kept.kept and kept.clanka_embeds == 0 and "clanka keeps it" in kept.message
    with pytest.raises(ValueError, match="root="):
        cn.open_index(own).clanka_check()
