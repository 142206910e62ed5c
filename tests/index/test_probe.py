"""The embedding probe: vector search over an index of each setting, shared inputs embedded once."""

from __future__ import annotations

import pytest

import clanka_nb as cn
from clanka_nb.index import IndexSearcher, VectorCache

from .conftest import Counting

pytest.importorskip("bm25s")  # the probe's module loads it


def test_index_searcher_ranks_as_the_index_does(sample):
    embed = Counting()
    searcher = IndexSearcher(embed, cache=VectorCache())
    texts = ["price with a discount", "render a table of books", "validate an isbn checksum"]
    searcher.index(texts)
    assert searcher.search("isbn checksum", 3)[0] == 2
    assert searcher.search_many(["books table"], 1) == [[1]]
    assert searcher.embedded == 5 and searcher.indexed == 3


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.SettingClampedWarning")  # settings out of range, on purpose
def test_sweep_with_embed_embeds_shared_inputs_once(sample, tmp_path, monkeypatch):
    monkeypatch.setenv("CLANKA_NB_CACHE_DIR", str(tmp_path / "cache"))  # an empty vector cache on disk
    embed = Counting()
    frame = cn.sweep(sample, chunk_size=[10, 20, 30, 40, 60], chunk_overlap=[0, 2, 5, 10],
                     probe=cn.Probe(reference=False, embed=embed),
                     progress=False)
    assert len(frame) == 20 and frame["recall@5"].between(0, 1).all()
    assert frame.attrs["embedded"] == len(embed.texts) == len(set(embed.texts)) > 0
    assert frame.attrs["indexed"] == frame["chunks"].sum()
    assert frame.attrs["embedded"] < frame.attrs["indexed"]  # settings share inputs


def test_probe_with_embed_and_the_conflict_error(sample):
    frame = cn.probe(sample, cn.Probe(embed=Counting()), progress=False)
    assert len(frame) > 0 and frame["rank"].notna().any()
    with pytest.raises(ValueError, match="either embed= or searcher="):
        cn.probe(sample, cn.Probe(embed=Counting(), searcher=cn.BM25Searcher()))
    with pytest.raises(ValueError, match="time_budget= bounds the probe's embedding: pass embed="):
        cn.Probe(time_budget=60)
