"""Issue 53 item 1: every probed sweep scores clanka's own setting as a marked reference row, and the answer about
it (`ClankaAnswer`) is composed from the verdict and shown first."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb import engine
from clanka_nb.retrieval import verdict
from clanka_nb.sweeps import ClankaAnswer, clanka_answer

pytest.importorskip("bm25s")

SAMPLE = Path(engine.__file__).resolve().parents[1] / "sample"


def _sweep(**given: object) -> pd.DataFrame:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the verdict's own warnings are tested with it
        return cn.sweep(SAMPLE, probe=True, progress=False, **given)  # type: ignore[arg-type]


def test_a_grid_without_clanka_s_setting_gets_it_as_a_marked_row_and_the_answer_first() -> None:
    table = _sweep(chunk_size=[20, 40])
    assert table["reference"].tolist() == [False, False, True]
    reference = table.iloc[2]
    assert (reference["chunk_size"], reference["chunk_overlap"], reference["chunk_max_characters"]) == (30, 0, 10_000)
    assert next(iter(table.attrs)) == "clanka_answer"  # first in what the sweep shows
    answer = ClankaAnswer.from_dict(table.attrs["clanka_answer"])
    assert answer.reference == 2 and answer.action in {"keep", "change"}
    assert 2 in table.attrs["verdict"]["columns"]  # the reference row is judged with the others, by the verdict
    assert answer.reference_vectors == reference["chunks"]
    assert answer.reference_tokens_indexed == table.attrs["verdict"]["costs"][2]
    assert "scored by BM25" in answer.message


def test_a_grid_holding_clanka_s_setting_marks_that_row_and_adds_none() -> None:
    table = _sweep(chunk_size=[20, 30], chunk_max_characters=10_000)
    assert table["reference"].tolist() == [False, True]


def test_an_unprobed_sweep_has_no_reference_row() -> None:
    table = cn.sweep(SAMPLE, chunk_size=[20, 40], progress=False)
    assert "reference" not in table.columns and "clanka_answer" not in table.attrs


def test_in_extended_mode_the_reference_row_is_clanka_s_own_cut() -> None:
    own_cut = cn.chunkers.clanka(30, 0, 10_000, languages="clanka")
    extended = _sweep(chunk_size=[20], languages="extended", chunkers={"clanka's own": own_cut})
    own = _sweep(chunk_size=[30], chunk_max_characters=10_000, languages="clanka")
    assert extended["reference"].tolist() == [False, True, False]
    for column in ("chunks", "lines_mean", "est_tokens_total", "coverage"):
        assert extended[column].iloc[1] == pytest.approx(own[column].iloc[0]), column
    # Scored through the extended sweep's own queries, exactly as clanka's cut given as a chunker is.
    for column in ("queries", "budget_covered@2000", "mrr"):
        assert extended[column].iloc[1] == pytest.approx(extended[column].iloc[2]), column
    assert pd.isna(extended["split_declarations"].iloc[1])  # the sweep's declarations are another mode's
    named = extended.attrs["verdict"]["columns"]
    assert 1 in named


def _table(chunks: list[int]) -> pd.DataFrame:
    table = pd.DataFrame({"chunk_size": [20, 60, 30], "chunk_overlap": [0, 0, 0],
                          "chunk_max_characters": pd.array([None, None, 10_000], dtype="Int64"), "chunks": chunks,
                          "reference": [False, False, True]})  # fmt: skip
    table.attrs["languages"] = "clanka"
    return table


def _scores(rng: np.random.Generator, queries: int, shift: float) -> pd.DataFrame:
    base = rng.normal(0.5, 0.2, queries)
    return pd.DataFrame({0: base + rng.normal(0, 0.05, queries), 1: base + rng.normal(0, 0.05, queries),
                         2: base - shift + rng.normal(0, 0.05, queries)})  # fmt: skip


def test_clanka_s_setting_truly_worse_is_changed_with_the_true_gain_inside_its_interval() -> None:
    rng = np.random.default_rng(7)
    scores = _scores(rng, 300, 0.1)
    decided = verdict(scores, cost=[900.0, 700.0, 800.0], settings={0: {"chunk_size": 20}, 1: {"chunk_size": 60},
                      2: {"chunk_size": 30}}, resamples=400)  # fmt: skip
    answer = clanka_answer(_table([120, 40, 80]), decided, cn.Probe())
    assert answer.action == "change" and answer.chosen == decided.choice
    assert answer.gain_low is not None and answer.gain_high is not None
    assert answer.gain_low < 0.1 < answer.gain_high and answer.gain_low > 0
    assert answer.tokens_indexed == [900.0, 700.0, 800.0][answer.chosen] and answer.reference_tokens_indexed == 800.0
    assert answer.vectors == [120, 40, 80][answer.chosen] and answer.reference_vectors == 80
    assert answer.message.startswith("change clanka's setting to chunk_size=")
    assert "resolveChunkConfig" in answer.message  # another size: clanka itself must change
    # the setting is named once: the reason says "it" when the one shown better is the one chosen
    chosen = f"chunk_size={[20, 60, 30][answer.chosen]},"
    assert next(item for item in decided.worse_by if item.setting == 2).than == answer.chosen
    assert answer.why.startswith("it is shown better than clanka's setting by at least ")
    assert answer.message.count(chosen) == 1


def test_clanka_s_setting_truly_equal_is_rarely_changed() -> None:
    """With every setting truly equal, "change" is a false claim: the verdict's family-wise error bounds it."""
    rng = np.random.default_rng(11)
    changes = 0
    runs = 40
    for _ in range(runs):
        decided = verdict(_scores(rng, 60, 0.0), cost=[900.0, 700.0, 800.0], resamples=300)
        changes += clanka_answer(_table([120, 40, 80]), decided, cn.Probe()).action == "change"
    assert changes <= 6  # 5% of 40 is 2; 6 or more has probability < 1% at a 5% rate


def test_no_queries_leaves_the_answer_undecided() -> None:
    decided = verdict(pd.DataFrame({0: [], 1: [], 2: []}, dtype=float))
    answer = clanka_answer(_table([1, 1, 1]), decided, cn.Probe())
    assert answer.action == "undecided" and answer.chosen is None and answer.carry is None


def test_a_table_without_a_reference_row_is_refused_with_the_fix() -> None:
    table = _table([1, 1, 1]).drop(columns="reference")
    with pytest.raises(ValueError, match="probe=True"):
        clanka_answer(table, verdict(pd.DataFrame({0: [0.1, 0.2]})), cn.Probe())


def test_a_grid_without_a_character_limit_says_clanka_indexes_with_10000() -> None:
    # Issue 53 item 3: chunk_max_characters is the one setting SemanticSearch users have.
    assert "clanka indexes with 10,000" in cn.sweep(SAMPLE, chunk_size=[20], progress=False).attrs[
        "max_characters_note"]  # fmt: skip
    assert "clanka indexes with 10,000" in _sweep(chunk_size=[20]).attrs["max_characters_note"]  # not the reference's
    swept = cn.sweep(SAMPLE, chunk_size=[20], chunk_max_characters=[None, 2000], progress=False)
    assert "max_characters_note" not in swept.attrs


def test_the_verdict_s_message_names_the_searcher() -> None:
    # Issue 53 item 6: BM25 scores by default, while clanka searches by embeddings.
    message = _sweep(chunk_size=[20]).attrs["verdict"]["message"]
    assert message.endswith("; scored by BM25, not by embeddings as clanka searches (Probe(embed=) scores with "
                            "your model)")  # fmt: skip
    pytest.importorskip("sqlite_vec")
    embedded = cn.sweep(SAMPLE, chunk_size=[20], probe=cn.Probe(embed=cn.embedders.hashed_words(16)),
                        progress=False)  # fmt: skip
    model = cn.embedders.hashed_words(16).model_id
    assert embedded.attrs["verdict"]["message"].endswith(f"; scored by {model} embeddings")
    assert f"scored by {model}" in embedded.attrs["clanka_answer"]["message"]
