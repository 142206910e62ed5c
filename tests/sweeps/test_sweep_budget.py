"""A probed sweep's cost columns: named, priced by the sweep's own token counter, and said in its attrs."""

from __future__ import annotations

import pytest

import clanka_nb as cn

pytest.importorskip("bm25s")


def test_the_probe_columns_in_order_with_every_cut_off_and_budget():
    table = cn.sweep(chunk_size=[20], probe=cn.Probe(k=[1, 5], budget=[500, 2000]), progress=False)
    probe_columns = list(table.columns[list(table.columns).index("queries"):])
    assert probe_columns == [
        "queries", "recall@1", "recall@1_low", "recall@1_high", "recall@5", "recall@5_low", "recall@5_high",
        "mrr", "mrr_low", "mrr_high", "precision", "tokens@1", "tokens@5", "lines@1", "lines@5",
        "budget_found@500", "budget_found@500_low", "budget_found@500_high",
        "budget_covered@500", "budget_covered@500_low", "budget_covered@500_high",
        "budget_found@2000", "budget_found@2000_low", "budget_found@2000_high",
        "budget_covered@2000", "budget_covered@2000_low", "budget_covered@2000_high",
    ]  # fmt: skip
    row = table.iloc[0]
    assert row["tokens@1"] <= row["tokens@5"] and row["lines@1"] <= row["lines@5"]
    assert row["budget_found@500"] <= row["budget_found@2000"] and row["budget_covered@500"] <= row[
        "budget_covered@2000"]  # fmt: skip
    assert row["budget_covered@2000"] <= row["budget_found@2000"]  # a share of the lines never beats finding one
    assert table.attrs["token_counter"] == "chars/4 estimate" and table.attrs["verdict"]["metric"] == \
        "budget_covered@500"  # fmt: skip


def test_the_sweep_s_token_counter_prices_the_budget_and_is_named():
    def words(text: str) -> int:
        return len(text.split())

    estimated = cn.sweep(chunk_size=[20], probe=True, progress=False)
    counted = cn.sweep(chunk_size=[20], probe=True, token_counter=words, progress=False)
    assert counted.attrs["token_counter"] == "words"
    assert counted["tokens@5"].iloc[0] != estimated["tokens@5"].iloc[0]
    assert counted["recall@5"].iloc[0] == estimated["recall@5"].iloc[0]  # the ranking is the same
