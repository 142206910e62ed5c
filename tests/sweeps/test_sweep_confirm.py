"""BM25 screens, the user's model confirms (`Probe(confirm=)`, issue 53 item 6): the model re-scores exactly BM25's
confidence set, clanka's row and every overlap setting with its overlap-0 twin; the verdict is the model's on those
rows alone; what BM25 eliminated is never embedded; the CLI's table and the report show which searcher scored a row."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb.retrieval import EmbeddingTimeWarning
from clanka_nb.retrieval.scoring._model import OPEN, OVERLAP, REFERENCE, TWIN, model_rows
from clanka_nb.retrieval.search import code_tokens
from tests.retrieval.test_sample_confirmed import similar_code

pytest.importorskip("sqlite_vec")
DIMENSIONS = 256


class HeadWords:
    """A deterministic STAND-IN model (no language model): hashed words of a text's first `lines` lines only, as a
    model with a short input limit reads a chunk. It ranks overlap unlike BM25 (an overlap chunk starts nearer the
    code a query is about); it counts every text it is asked to embed."""

    def __init__(self, lines: int = 6, name: str = "head") -> None:
        self.lines = lines
        self.model_id = f"test/{name}{lines}"  # its own vectors in the cache
        self.texts: list[str] = []

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.texts += texts
        vectors = np.zeros((len(texts), DIMENSIONS))
        for row, text in enumerate(texts):
            for token in code_tokens("\n".join(text.split("\n")[: self.lines])):
                vectors[row, int(hashlib.md5(token.encode()).hexdigest(), 16) % DIMENSIONS] += 1
        return vectors


@pytest.fixture(scope="module")
def look_alike(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return similar_code(tmp_path_factory.mktemp("similar"), 1)


@pytest.fixture(autouse=True)
def no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLANKA_NB_CACHE", "off")  # every run embeds what it needs: the counts are exact


def probe_columns(table: pd.DataFrame) -> list[str]:
    return [name for name in table.columns if name.startswith(("recall@", "mrr", "precision", "tokens@", "lines@",
                                                               "budget_"))]  # fmt: skip


OVERLAP_GRID: dict[str, Any] = {"chunk_size": [8, 20, 40], "chunk_overlap": [0, 4]}


def test_the_confirmed_verdict_follows_the_model_where_bm25_judges_overlap_otherwise(look_alike):
    bm25 = cn.sweep(look_alike, probe=cn.Probe(metric="mrr"), progress=False, **OVERLAP_GRID)
    model = cn.sweep(look_alike, probe=cn.Probe(metric="mrr", embed=HeadWords()), progress=False, **OVERLAP_GRID)
    confirmed = cn.sweep(look_alike, probe=cn.Probe(metric="mrr", confirm=HeadWords()), progress=False, **OVERLAP_GRID)
    verdict, by_model, by_bm25 = confirmed.attrs["verdict"], model.attrs["verdict"], bm25.attrs["verdict"]
    # The two searchers disagree here: the model finds overlap 4 at size 8 best, BM25 cannot tell it from the rest.
    assert by_model["choice"] != by_bm25["choice"]
    assert verdict["choice"] == by_model["choice"] and verdict["best"] == by_model["best"]
    rows = confirmed.attrs["model_confirmation"]["rows"]
    assert verdict["confirmed"] == rows and verdict["columns"] == rows
    # The model's rows are the model's sweep's exactly (its intervals too); the table says who scored each row.
    columns = probe_columns(model)
    pd.testing.assert_frame_equal(confirmed.loc[rows, columns], model.loc[rows, columns])
    assert (confirmed.loc[rows, "searcher"] == "test/head6").all()
    assert (confirmed.drop(index=rows)["searcher"] == "BM25").all()
    assert verdict["screened"]["best"] == by_bm25["best"]  # BM25's answer is kept beside the model's
    said = verdict["message"]
    assert said.startswith(by_model["decision"] + "; BM25 screened all 7 settings and test/head6 re-scored")
    assert "BM25 alone would have chosen" in said and said.endswith("BM25 having screened the grid")
    answer = confirmed.attrs["clanka_answer"]
    assert answer["searcher"] == "test/head6" and "scored by test/head6" in answer["message"]


SIZES_GRID: dict[str, Any] = {"chunk_size": [4, 8, 16, 40]}


def test_settings_bm25_eliminates_are_never_embedded():
    source = cn.sample_codebase()
    bm25 = cn.sweep(source, probe=cn.Probe(metric="mrr"), progress=False, **SIZES_GRID)
    screen = bm25.attrs["verdict"]
    assert screen["separable"]  # BM25 eliminates some sizes: what is left out is the point
    model = HeadWords(name="counting")
    confirmed = cn.sweep(source, probe=cn.Probe(metric="mrr", confirm=model), progress=False, **SIZES_GRID)
    done = confirmed.attrs["model_confirmation"]
    reference = int(np.flatnonzero(confirmed["reference"])[0])
    assert done["rows"] == sorted({*screen["confidence_set"], reference})
    assert done["screened_out"] == [row for row in range(len(confirmed)) if row not in done["rows"]] != []
    # What the model embedded is exactly the distinct inputs of its rows and the queries, counted by the cache's
    # misses; a full model sweep embeds more (the eliminated rows' own inputs).
    full = HeadWords(name="full")
    everything = cn.sweep(source, probe=cn.Probe(metric="mrr", embed=full), progress=False, **SIZES_GRID)
    assert done["embedded"] == len(model.texts) == len(set(model.texts)) == done["inputs_distinct"]
    assert len(model.texts) < len(full.texts) == everything.attrs["embedded"]
    columns = probe_columns(everything)
    pd.testing.assert_frame_equal(confirmed.loc[done["rows"], columns], everything.loc[done["rows"], columns])
    # The rows BM25 eliminated keep BM25's scores, said so in the table and in the message.
    pd.testing.assert_frame_equal(confirmed.loc[done["screened_out"], columns], bm25.loc[done["screened_out"], columns])
    assert set(confirmed.loc[done["screened_out"], "searcher"]) == {"BM25"}
    assert "BM25 screened out chunk_size=" in confirmed.attrs["verdict"]["message"]
    assert done["estimate_seconds"] is not None and done["seconds"] > 0
    # The answer's costs are its rows' (tokens indexed: the same whoever searched), read by row, not by position.
    answer, screened = confirmed.attrs["clanka_answer"], bm25.attrs["clanka_answer"]
    assert answer["reference_tokens_indexed"] == screened["reference_tokens_indexed"] is not None


def named(size: int, overlap: int, limit: int | None = None, **more: Any) -> dict[str, Any]:
    return {"chunk_size": size, "chunk_overlap": overlap, "chunk_max_characters": limit, **more}


def test_the_rows_rescored_are_the_open_ones_the_reference_and_each_overlap_with_its_twin():
    settings = [named(10, 0), named(10, 5), named(20, 0), named(20, 5, 2000), named(20, 0, 2000), named(40, 5),
                named(30, 0, 10000), {"chunker": "windows"}, named(60, 0)]  # fmt: skip
    screen = SimpleNamespace(confidence_set=[8, 2])  # what the screen leaves open
    rows = model_rows(screen, settings, reference=6, ranked=[0, 1, 2, 3, 4, 5, 6, 8])  # type: ignore[arg-type]
    assert rows == {0: [TWIN], 1: [OVERLAP], 2: [OPEN], 3: [OVERLAP], 4: [TWIN], 5: [OVERLAP], 6: [REFERENCE],
                    8: [OPEN]}  # fmt: skip
    # 40/5 has no overlap-0 twin in the grid (none is added); a row left out of the ranking is never a twin.
    assert model_rows(SimpleNamespace(confidence_set=[]), settings, None, [1]) == {1: [OVERLAP]}  # type: ignore[arg-type]


@pytest.mark.parametrize(("given", "named_option"), [({"embed": HeadWords()}, "embed="), ({"sample": 0.5}, "sample=")])
def test_confirm_refuses_an_embedding_or_sampled_probe(given, named_option):
    with pytest.raises(ValueError, match=f"confirm= .* without {named_option}"):
        cn.Probe(confirm=HeadWords(), **given)


def test_the_wait_is_estimated_before_the_model_embeds(monkeypatch):
    from clanka_nb.retrieval.scoring import _ahead

    monkeypatch.setattr(_ahead, "LONG_RUN_SECONDS", -1.0)  # every wait counts as long: the estimate is said
    with pytest.warns(EmbeddingTimeWarning, match=r"embedding ([\d,]+) inputs, about") as said:
        table = cn.sweep(cn.sample_codebase(), probe=cn.Probe(metric="mrr", confirm=HeadWords(name="wait")),
                         progress=False, **SIZES_GRID)  # fmt: skip
    done = table.attrs["model_confirmation"]
    counts = [int(found.group(1).replace(",", "")) for warning in said
              if (found := re.search(r"embedding ([\d,]+) inputs", str(warning.message)))]  # fmt: skip
    assert counts == [done["embedded"]] and done["estimate_seconds"] >= 0
    assert "already in the vector cache" in done["note"]


def test_the_tuner_probe_and_dask_refuse_confirm():
    with pytest.raises(ValueError, match=r"cn.probe scores one setting"):
        cn.probe(cn.sample_codebase(), cn.Probe(confirm=HeadWords()))
    with pytest.raises(ValueError, match=r"the tuner scores one setting at a time"):
        cn.tune(None, probe=cn.Probe(confirm=HeadWords()))
    with pytest.raises(ValueError, match="confirm"):
        cn.dask.sweep([str(cn.sample_codebase())], probe=cn.Probe(confirm=HeadWords()))


def test_the_cli_table_and_the_report_show_the_searcher_column():
    from clanka_nb._cli._output import sweep_priority, sweep_table
    from clanka_nb.widgets._report import report_model

    confirmed = cn.sweep(cn.sample_codebase(), probe=cn.Probe(metric="mrr", confirm=HeadWords()), progress=False,
                         **SIZES_GRID)  # fmt: skip
    assert "searcher" in sweep_table(confirmed).columns
    assert "searcher" in sweep_priority(confirmed)[0]
    assert list(report_model(confirmed).table["searcher"]) == list(confirmed["searcher"])
    plain = cn.sweep(cn.sample_codebase(), probe=cn.Probe(metric="mrr"), progress=False, **SIZES_GRID)
    assert "searcher" not in plain.columns and "searcher" not in sweep_table(plain).columns


def test_the_plot_sets_no_bm25_score_beside_the_models():
    confirmed = cn.sweep(cn.sample_codebase(), probe=cn.Probe(metric="mrr", confirm=HeadWords(name="plot")),
                         progress=False, **SIZES_GRID)  # fmt: skip
    done = confirmed.attrs["model_confirmation"]
    figure = cn.plot_sweep(confirmed, "mrr", x="chunk_size")
    drawn = sorted(float(x) for line in figure.axes[0].lines for x in line.get_xdata())
    grid = confirmed.loc[[row for row in done["rows"] if not confirmed["reference"].iloc[row]], "chunk_size"]
    assert drawn == sorted(map(float, grid))  # the model's rows only; clanka's row is its star
    notes = " ".join(text.get_text() for text in figure.texts)
    assert "screened out by BM25 (its scores, not test/plot6's)" in notes
    chunks = cn.plot_sweep(confirmed, "chunks", x="chunk_size")  # not a probe measure: every row is drawn
    assert len([x for line in chunks.axes[0].lines for x in line.get_xdata()]) == len(confirmed) - 1


@pytest.mark.filterwarnings("ignore::clanka_nb.retrieval.NoProbeQueriesWarning")
def test_without_queries_nothing_is_embedded_or_said_screened():
    model = HeadWords(name="none")
    queries = cn.probe_queries(cn.sample_codebase()).iloc[:0]
    table = cn.sweep(cn.sample_codebase(), chunk_size=[10, 20], probe=cn.Probe(confirm=model, queries=queries),
                     progress=False)  # fmt: skip
    done = table.attrs["model_confirmation"]
    assert done["rows"] == done["screened_out"] == [] and done["embedded"] == 0 and model.texts == []
    assert table.attrs["clanka_answer"]["action"] == "undecided"


def test_the_cli_confirms_with_a_model_folder(capsys, monkeypatch, tmp_path):
    from clanka_nb.index import embedders
    from tests._shared import run_cli

    status, _, err = run_cli(capsys, "sweep", str(cn.sample_codebase()), "--confirm-model", str(tmp_path))
    assert status == 2 and "--confirm-model is an option of the probe; add --probe" in err
    status, _, err = run_cli(capsys, "sweep", str(cn.sample_codebase()), "--probe", "--confirm-model",
                             str(tmp_path / "absent"))  # fmt: skip
    assert status == 2 and len(err.strip().splitlines()) == 1 and "--confirm-model: " in err
    folders: list[str] = []

    def stand_in(folder: str) -> HeadWords:  # the model a folder would load, without sentence-transformers
        folders.append(folder)
        return HeadWords(name="cli")

    monkeypatch.setattr(embedders, "sentence_transformers", stand_in)
    status, out, err = run_cli(capsys, "sweep", str(cn.sample_codebase()), "--probe", "--metric", "mrr",
                               "--chunk-size", "4,8,16,40", "--confirm-model", str(tmp_path), "-q")  # fmt: skip
    assert status == 0 and folders == [str(tmp_path)], err
    assert "searcher" in out.splitlines()[0].split()
    assert "test/cli6" in out and "BM25" in out
