"""The search panel: typing a query shows the index's hits, nearest first, and outlines the hit's chunk."""

from __future__ import annotations

import shutil

import pytest

import clanka_nb as cn
from clanka_nb.index import SemanticIndex, VectorCache, embedders
from clanka_nb.widgets import SearchPanel, render_hits

pytest.importorskip("apsw")
pytest.importorskip("sqlite_vec")


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    root = tmp_path_factory.mktemp("panel") / "sample"
    shutil.copytree(cn.sample_codebase(), root)
    built = SemanticIndex(root, embed=embedders.hashed_words(64), db=root / ".clanka" / "search.sqlite",
                          cache=VectorCache())
    built.sync()
    return built


def test_typing_a_query_shows_the_hits_in_index_order(index):
    panel = cn.search_panel(index, limit=5)
    assert isinstance(panel, SearchPanel)
    panel.query.value = "isbn checksum digits"
    expected = index.search("isbn checksum digits", limit=5)
    assert panel.hits["input"].tolist() == expected["input"].tolist()
    assert panel.results.value.count("<tr style") == 5
    first = expected.iloc[0]
    assert f"{first.path}:{first.start_line}-{first.end_line}" in panel.results.value
    assert panel.selected == 0 and panel.pane.preview is not None
    shown = panel.pane.preview
    chunk = shown.frame.reset_index(drop=True).iloc[shown.selected]
    assert (chunk["path"], chunk["start_line"], chunk["end_line"]) == (first.path, first.start_line, first.end_line)


def test_picking_another_hit_outlines_it(index):
    panel = cn.search_panel(index, limit=4, query="stock report")
    panel.pick.value = 2
    hit = panel.hits.iloc[2]
    preview = panel.pane.preview
    chunk = preview.frame.reset_index(drop=True).iloc[preview.selected]
    assert (chunk["start_line"], chunk["end_line"]) == (hit.start_line, hit.end_line)
    assert preview.path == hit.path


def test_an_opened_index_without_root_shows_the_stored_chunk(index):
    opened = cn.open_index(index.where, embed=index.embed)
    panel = cn.search_panel(opened, query="price discount")
    assert "as stored in the index" in panel.pane.html.value
    assert panel.pane.preview.lines == panel.hits.iloc[0]["content"].split("\n")


def test_errors_show_in_the_panel_and_bad_arguments_raise(index):
    opened = cn.open_index(index.where)  # no embedder
    panel = cn.search_panel(opened)
    panel.search("anything")
    assert "pass embed=" in panel.status.value
    with pytest.raises(TypeError, match="search_panel takes"):
        cn.search_panel("not an index")
    assert "no hits" in render_hits(index.search("x", limit=1).iloc[:0])
