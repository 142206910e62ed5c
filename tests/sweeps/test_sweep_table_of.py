"""`table_of`: the one assembly of a sweep's rows into its table, for `cn.sweep` and Dask's sweep (issue 51)."""

from __future__ import annotations

import pandas as pd

import clanka_nb as cn
from clanka_nb.engine.token_counts import ESTIMATE
from clanka_nb.frames.columns import sweep_schema
from clanka_nb.retrieval.internals import Ahead
from clanka_nb.sweeps.table import table_of


def _rows() -> list[dict]:
    """Two engine rows of a probed sweep (as the sweep gives them) and a chunker's row after them."""
    table = cn.sweep(cn.sample_codebase(), chunk_size=[10, 30], progress=False)
    rows = table.astype(object).where(table.notna(), None).to_dict("records")
    for number, row in enumerate(rows):
        row.update({"queries": 12, "mrr": 0.5 + number / 10, "scored_on": "sample"})
    rows.append({"chunker_label": "peer", "chunks": 7, "queries": 12, "mrr": 0.4, "peer_only": 1.5})
    return rows


def test_every_column_a_row_has_is_kept_and_typed_by_one_rule() -> None:
    table = table_of(_rows(), counter=None, limit=None, attrs={"root": "here"}, chunkers=True)
    assert list(table.columns[:3]) == ["chunker_label", "chunker_parameters", "fallback_files"]
    assert table["queries"].dtype == pd.Int64Dtype()  # the probe's count: whole numbers
    assert table["scored_on"].dtype == pd.StringDtype()  # the probe's label: text
    assert table["mrr"].dtype == table["peer_only"].dtype == pd.Float64Dtype()  # the rest: floats
    # A column only a later row has is not lost; a row without a column is NA there.
    assert table["peer_only"].isna().tolist() == [True, True, False]
    assert table["chunk_size"].isna().tolist() == [False, False, True]
    assert table.attrs == {"token_counter": ESTIMATE.name, "root": "here"}


def test_the_sweeps_own_columns_lead_with_its_token_names() -> None:
    estimated = table_of(_rows()[:2], counter=None, limit=None, attrs={})
    assert list(estimated.columns[: len(sweep_schema())]) == list(sweep_schema())
    assert "over_limit" not in estimated.columns and "chunker_label" not in estimated.columns
    limited = table_of(_rows()[:2], counter=None, limit=50, attrs={})
    assert limited.columns[len(sweep_schema())] == "over_limit"


def test_embedding_ahead_is_an_argument_its_column_on_the_settings_rows_and_its_attrs_in_the_tables() -> None:
    ahead = Ahead({"inputs_total": 30, "embedding_note": "done"}, truncated=[0.25, 0.75])
    table = table_of(_rows(), counter=None, limit=None, attrs={"root": "here"}, ahead=ahead, chunkers=True)
    assert table["truncated"].tolist()[:2] == [0.25, 0.75] and pd.isna(table["truncated"].iloc[2])
    assert table["truncated"].dtype == pd.Float64Dtype()
    assert table.columns.get_loc("truncated") == table.columns.get_loc("seconds") + 1  # before the probe's
    assert table.attrs["inputs_total"] == 30 and "truncated" not in table.attrs
    assert ahead.truncated == [0.25, 0.75] and "truncated" not in ahead.attrs  # read, not popped
    without = table_of(_rows(), counter=None, limit=None, attrs={}, ahead=Ahead({"inputs_total": 30}), chunkers=True)
    assert "truncated" not in without.columns and without.attrs["inputs_total"] == 30
