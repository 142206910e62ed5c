"""`Probe(header=)`: what each indexed chunk's header holds, so that a bake-off can credit the cutting alone."""

from __future__ import annotations

import pytest

import clanka_nb as cn
from clanka_nb import chunkers

pytest.importorskip("bm25s")

SCORES = ["recall@5", "mrr", "budget_covered@2000", "budget_found@2000", "tokens@5"]


def _nameless(size: int) -> chunkers.Chunker:
    """clanka's own cut, its spans stripped of name, type and parent (what a peer gives)."""
    clanka = chunkers.clanka(size)

    def cut(path: str, text: str) -> list[tuple[int, int]] | None:
        spans = clanka(path, text)
        return None if spans is None else [(span.start_line, span.end_line) for span in spans]

    return chunkers.as_chunker(cut, "nameless clanka")


def _rows(header: str):
    table = cn.sweep(chunk_size=[30], probe=cn.Probe(reference=False, header=header),
                     chunkers={"nameless": _nameless(30)},
                     progress=False)  # fmt: skip
    return table.set_index("chunker_label")


@pytest.mark.filterwarnings("ignore::clanka_nb.retrieval.FlatRecallWarning")  # few queries, each found at every setting
def test_with_the_path_alone_the_same_cut_scores_the_same_whoever_names_it():
    rows = _rows("path")
    for name in SCORES:
        assert rows.loc["clanka", name] == pytest.approx(rows.loc["nameless", name]), name


def test_with_the_chunkers_header_clanka_s_names_count_and_cost():
    rows = _rows("chunker")
    assert rows.loc["clanka", "tokens@5"] != pytest.approx(rows.loc["nameless", "tokens@5"])
    assert any(rows.loc["clanka", name] != pytest.approx(rows.loc["nameless", name]) for name in SCORES[:4])


@pytest.mark.filterwarnings("ignore::clanka_nb.retrieval.FlatRecallWarning")  # few queries, each found at every setting
def test_no_header_costs_least():
    assert _rows("none").loc["clanka", "tokens@5"] < _rows("path").loc["clanka", "tokens@5"]


def test_a_bad_header_is_one_line():
    with pytest.raises(ValueError, match="header must be one of 'chunker', 'path', 'none'"):
        cn.Probe(header="names")
