"""Issue 53 item 1 on Dask: a probed sweep adds clanka's own setting as its marked reference row in every language
mode, as `cn.sweep` does (in extended mode clanka's own cut, scored apart through the same queries)."""

from __future__ import annotations

import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb import dask as cd

pytest.importorskip("bm25s")


def _words(text: str) -> int:
    return len(text.split())


@pytest.mark.parametrize("counted", [False, True], ids=["estimated", "counted"])
def test_extended_mode_sweeps_local_and_on_dask_give_the_same_rows_reference_included(client, roots, counted) -> None:
    grid = {"chunk_size": [15, 40], "probe": True, "languages": "extended",
            **({"token_counter": _words, "token_limit": 60} if counted else {})}  # fmt: skip
    got = cd.sweep(roots[0], client=client, **grid)
    expected = cn.sweep(roots[0], workers=1, progress=False, **grid)
    assert got["reference"].tolist() == [False, False, True]  # the grid's, then clanka's own cut
    reference = got.iloc[2]
    assert (reference["chunk_size"], reference["chunk_overlap"], reference["chunk_max_characters"]) == (30, 0, 10_000)
    assert pd.isna(reference["split_declarations"]) and reference["queries"] > 0
    pd.testing.assert_frame_equal(got.drop(columns="seconds"), expected.drop(columns="seconds"), check_exact=True)
    assert got.attrs["verdict"] == expected.attrs["verdict"]  # the reference named by its mode in both
    assert got.attrs["clanka_answer"] == expected.attrs["clanka_answer"] and next(iter(got.attrs)) == "clanka_answer"


def test_extended_mode_without_the_reference_has_no_reference_row(client, roots) -> None:
    got = cd.sweep(roots[0], client=client, chunk_size=[15, 40], probe=cn.Probe(reference=False), languages="extended")
    assert len(got) == 2 and "reference" not in got.columns and "clanka_answer" not in got.attrs
