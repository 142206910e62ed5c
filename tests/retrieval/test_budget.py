"""The probe at equal cost: each chunk's tokens and lines, what the top k cost, and what a token budget finds and
covers (graded: the share of the target's lines), against rankings known by construction."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb import engine
from clanka_nb.defaults import DEFAULT_BUDGET
from clanka_nb.engine.token_counts import token_counter
from clanka_nb.retrieval import Probe
from clanka_nb.retrieval.internals import ProbeSet, probe_frame
from clanka_nb.retrieval.scoring._cost import budget_depth, charged
from clanka_nb.retrieval.scoring._metrics import metric_arrays
from clanka_nb.retrieval.search._index import Chunks

from .conftest import ScriptedSearcher

# Chunks 0-2 of file 0 (lines 1-10, 11-20, and 5-14 overlapping both), chunk 3 of file 1 (lines 1-5).
FILE = np.array([0, 0, 0, 1])
START = np.array([1, 11, 5, 1])
END = np.array([10, 20, 14, 5])
TOKENS = np.array([100.0, 100.0, 100.0, 50.0])
# Query 0: file 0 lines 8-17 (10 lines), ranked 2, 0, 1. Query 1: file 1 lines 5-14 (10 lines), ranked 3 alone:
# that chunk holds line 5 only. Query 2: file 0 lines 8-17 again, nothing found.
TARGET = (np.array([0, 1, 0]), np.array([8, 5, 8]), np.array([17, 14, 17]))
IDS = np.array([[2, 0, 1], [3, -1, -1], [-1, -1, -1]])


def _arrays(budgets: tuple[int, ...], tokens: np.ndarray = TOKENS, cutoffs: tuple[int, ...] = (1, 2, 3)) -> dict:
    return metric_arrays(IDS, (FILE, START, END), tokens, tokens, TARGET, cutoffs, budgets)


def test_tokens_and_lines_of_the_top_k_are_summed_over_the_chunks_found():
    got = _arrays((100,))
    assert got["tokens@1"].tolist() == [100, 50, 0]
    assert got["tokens@2"].tolist() == [200, 50, 0]
    assert got["tokens@3"].tolist() == [300, 50, 0]  # query 1 found one chunk: the top 3 cost what it costs
    assert got["lines@1"].tolist() == [10, 5, 0] and got["lines@3"].tolist() == [30, 5, 0]
    assert got["rank"].tolist() == [1, 1, 0] and got["recall@1"].tolist() == [1, 1, 0]


def test_a_budget_takes_whole_chunks_in_rank_order_and_credits_the_target_lines_they_hold_once():
    got = _arrays((99, 100, 250, 300))
    # 99 tokens: the first chunk (100) is over the budget, so nothing is taken, for query 0; query 1's costs 50.
    assert got["budget_found@99"].tolist() == [0, 1, 0] and got["budget_covered@99"].tolist() == [0, 0.1, 0]
    # 100: chunk 2 alone holds lines 8-14 of 8-17. Query 1's chunk touches one line of a 10-line target: 0.1.
    assert got["budget_covered@100"].tolist() == pytest.approx([0.7, 0.1, 0])
    assert got["budget_found@100"].tolist() == [1, 1, 0]
    # 250: chunks 2 and 0; chunk 0's lines 8-10 are chunk 2's already: counted once, still 0.7.
    assert got["budget_covered@250"].tolist() == pytest.approx([0.7, 0.1, 0])
    # 300: chunk 1 adds lines 15-17 (its 11-14 are held): the whole target.
    assert got["budget_covered@300"].tolist() == pytest.approx([1.0, 0.1, 0])


def test_within_a_budget_the_ranking_stops_at_the_first_chunk_over_it():
    # A cheap third chunk after an expensive second one is not taken: chunks are taken while the sum fits.
    tokens = np.array([100.0, 10.0, 50.0, 50.0])  # chunk 2 first (50), chunk 0 (100): over 120; chunk 1 (10)
    got = _arrays((120,), tokens)
    assert got["budget_covered@120"][0] == pytest.approx(0.7)  # chunk 2 only, never chunk 1 after chunk 0


def test_on_a_sample_a_distractor_costs_its_tokens_once_per_share():
    chunks = object.__new__(Chunks)
    chunks.always = np.array([True, False, False, True])
    assert charged(TOKENS, chunks, 0.25).tolist() == [100, 400, 400, 50]
    chunks.always = None
    assert charged(TOKENS, chunks, None).tolist() == TOKENS.tolist()


def test_the_search_depth_fills_the_largest_budget_at_the_cheapest_chunks():
    assert budget_depth(np.array([30.0, 10.0, 20.0, 500.0]), 60) == 3  # 10 + 20 + 30
    assert budget_depth(np.array([30.0, 10.0]), 5) == 0 and budget_depth(np.zeros(0), 100) == 0


def test_chunk_costs_are_the_estimate_of_the_masked_embedding_input_or_the_counter_s_count():
    codebase = engine.Codebase(cn.sample_codebase())
    setting = engine.ChunkSettings.build(17)
    estimated = ProbeSet(codebase)
    chunks = estimated.chunks(setting)
    texts = estimated.masked.texts(chunks)  # what the index sees: header, numbered lines, doc comments blanked
    assert estimated.costs.tokens(chunks).tolist() == [len(text) / 4 for text in texts]
    counter = token_counter(lambda text: len(text.split()))
    counted = ProbeSet(codebase, counter=counter)
    assert counted.costs.tokens(counted.chunks(setting)).tolist() == [len(text.split()) for text in texts]
    frame = probe_frame(counted, setting)
    assert frame.attrs["token_counter"] == "<lambda>" and probe_frame(estimated, setting).attrs[
        "token_counter"] == "chars/4 estimate"  # fmt: skip


def _long_file() -> str:
    return "".join(f"word{i} filler text that costs some tokens\n" for i in range(1, 61))


QUERIES = pd.DataFrame(
    [
        # At chunk_size=10 the scripted ranking is chunks 0..5: the target (lines 55-57) is sixth. At 60: first.
        ("word1 word11 word21 word31 word41 word55", "a.md", 55, 57),
        ("word52", "a.md", 51, 53),  # first at both sizes
    ],
    columns=["query", "path", "start_line", "end_line"],
)


def test_larger_chunks_no_longer_win_by_construction():
    codebase = engine.Codebase.from_texts({"a.md": _long_file()})
    probe = Probe(reference=False, queries=QUERIES, searcher=ScriptedSearcher(), budget=[300, 5000])
    table = cn.sweep(codebase, chunk_size=[10, 60], progress=False, probe=probe)
    small, large = table.iloc[0], table.iloc[1]
    assert (small["recall@5"], large["recall@5"]) == (0.5, 1.0)  # by recall, the 60-line chunk wins
    assert 100 < small["tokens@1"] < 150 < 600 < large["tokens@1"] < 800
    # Within 300 tokens: at size 10 query 2's chunk holds its 3 lines; at 60 the one chunk is over the budget.
    assert (small["budget_found@300"], small["budget_covered@300"]) == (0.5, 0.5)
    assert (large["budget_found@300"], large["budget_covered@300"]) == (0.0, 0.0)
    assert large["budget_covered@5000"] == 1.0  # a budget that holds the big chunk: both targets whole
    verdict = table.attrs["verdict"]
    assert verdict["metric"] == "budget_covered@300" and verdict["best"] == 0
    assert verdict["means"] == [0.5, 0.0]
    by_recall = cn.sweep(codebase, chunk_size=[10, 60], progress=False, probe=Probe(reference=False,
        queries=QUERIES, searcher=ScriptedSearcher(), budget=300, metric="recall@5")).attrs["verdict"]
    assert by_recall["metric"] == "recall@5" and by_recall["best"] == 1
    assert table.attrs["budget"] == [300, 5000] and table.attrs["token_counter"] == "chars/4 estimate"
    for name in ("budget_found@300", "budget_covered@300"):
        assert table[f"{name}_low"].le(table[name]).all() and table[name].le(table[f"{name}_high"]).all()


def test_the_default_budget_and_metric():
    probe = Probe()
    assert probe.budgets == (DEFAULT_BUDGET,) == (2000,) and probe.metric == "budget_covered@2000"
    assert Probe(budget=[2000, 500, 500]).budgets == (500, 2000)  # sorted, once each: the first is the smallest
    assert Probe(budget=[2000, 500]).metric == "budget_covered@500"
    assert Probe(k=[3], metric="recall@3").metric == "recall@3" and Probe(metric="mrr").metric == "mrr"


@pytest.mark.parametrize("bad", [0, -5, [], "2000", True, 1.5, [1000, 0]])
def test_a_bad_budget_is_one_clear_error(bad):
    with pytest.raises(ValueError, match=r"budget must be a positive whole number of tokens.*e\.g\. budget=2000"):
        Probe(budget=bad)


@pytest.mark.parametrize("bad", ["ndcg", "recall@7", "budget_found@500", "budget_covered", "MRR"])
def test_a_bad_metric_is_one_clear_error_listing_the_choices(bad):
    with pytest.raises(ValueError, match=r"metric must name one of .*mrr, recall@1, recall@5, recall@10, "
                                         r"budget_found@2000, budget_covered@2000"):  # fmt: skip
        Probe(metric=bad)


def test_the_probe_checks_each_option_once_where_it_is_given():
    with pytest.raises(ValueError, match="time_budget= bounds the probe's embedding: pass embed="):
        Probe(time_budget=30)
    with pytest.raises(ValueError, match="targets must be 'code'"):
        Probe(targets="tests")
    with pytest.raises(ValueError, match="with queries= given, filter its rows"):
        Probe(targets="all", queries=QUERIES)
    with pytest.raises(ValueError, match="k must be a positive int"):
        Probe(k=0)
    with pytest.raises(ValueError, match='searcher must be "bm25"'):
        Probe(searcher="bm26")
    with pytest.raises(TypeError, match="mask must be True"):
        Probe(mask="no")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="probe must be a Probe"):
        cn.probe(None, True)  # type: ignore[arg-type]
