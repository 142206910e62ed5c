"""A probed sweep embeds each distinct input once, ahead of its rows: counted, estimated, shown, and bounded in time."""

from __future__ import annotations

import time
import warnings

import numpy as np
import pytest

import clanka_nb as cn
from clanka_nb.retrieval import EmbeddingTimeWarning, SampledProbeWarning
from clanka_nb.retrieval.scoring import _ahead

from .conftest import Counting

pytest.importorskip("bm25s")

SIZES = [10, 20, 30, 60]


class Slow(Counting):
    """The counting stand-in, pretending each input takes `seconds` (a fake clock: the test sleeps not at all)."""

    batch_size = 16  # as a model's: the first call, which measures the rate, is 64 inputs

    def __init__(self, seconds: float, clock: list[float]) -> None:
        super().__init__()
        self.seconds, self.clock = seconds, clock
        self.model_id = f"{self.inner.model_id}/slow"  # not the counting one's vectors

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.clock[0] += self.seconds * len(texts)
        return super().__call__(texts)


@pytest.fixture
def fake_clock(monkeypatch):
    clock = [0.0]
    monkeypatch.setattr(_ahead.time, "perf_counter", lambda: clock[0])
    return clock


@pytest.fixture(autouse=True)
def empty_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CLANKA_NB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CLANKA_NB_CACHE", "off")  # a fresh in-memory vector cache per test
    from clanka_nb.index import _vectors

    _vectors._shared.cache_clear()
    yield
    _vectors._shared.cache_clear()


def test_distinct_inputs_are_counted_and_each_embedded_once(sample):
    embed = Counting()
    frame = cn.sweep(sample, chunk_size=SIZES, probe=cn.Probe(reference=False, embed=embed), progress=False)
    attrs = frame.attrs
    queries = frame["queries"].iloc[0]
    assert attrs["inputs_total"] == frame["chunks"].sum() + queries * len(SIZES)
    assert attrs["embedded"] == attrs["inputs_distinct"] == len(embed.texts) == len(set(embed.texts))
    assert attrs["inputs_distinct"] < attrs["inputs_total"]  # the settings share inputs (and the queries)
    assert attrs["embedding_rate"] > 0 and "distinct" in attrs["embedding_note"]
    # The same process's cache.
    again = cn.sweep(sample, chunk_size=SIZES, probe=cn.Probe(reference=False, embed=embed), progress=False)
    assert again.attrs["embedded"] == 0 and again.attrs["embedding_rate"] is None
    assert again["mrr"].tolist() == frame["mrr"].tolist()


def test_a_long_first_run_says_how_many_inputs_and_how_long(sample, fake_clock):
    embed = Slow(0.5, fake_clock)  # 2 inputs/s, as a slow CPU
    with pytest.warns(EmbeddingTimeWarning, match=r"embedding [\d,]+ inputs, about [\d.]+ (s|min) at the 2 inputs/s"):
        frame = cn.sweep(sample, chunk_size=SIZES, probe=cn.Probe(embed=embed), progress=False)
    estimated = frame.attrs["embedding_estimate_seconds"]
    after_first = frame.attrs["embedding_seconds"] - 64 * 0.5  # the first call (64 inputs) measured the rate
    assert estimated > 30 and abs(estimated - after_first) <= 0.2 * after_first  # and it holds for the rest


def test_a_quick_run_says_nothing(sample, fake_clock):
    embed = Slow(0.0001, fake_clock)
    with warnings.catch_warnings():
        warnings.simplefilter("error", EmbeddingTimeWarning)
        cn.sweep(sample, chunk_size=SIZES, probe=cn.Probe(embed=embed), progress=False)


def test_the_progress_bar_counts_inputs_with_rate_and_time_left(sample, monkeypatch):
    import tqdm.auto

    made = []
    real = tqdm.auto.tqdm

    class Recording(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(tqdm.auto, "tqdm", Recording)
    cn.sweep(sample, chunk_size=SIZES, probe=cn.Probe(embed=Counting()), progress=True)
    embedding = [handle for handle in made if handle.desc == "embedding"]
    assert len(embedding) == 1 and embedding[0].unit == "input"
    assert embedding[0].n == embedding[0].total > 0  # every input counted; tqdm shows input/s and the time left
    assert "remaining" in real.format_meter(5, 10, 2.0, unit="input") or "<" in real.format_meter(5, 10, 2.0)


@pytest.mark.filterwarnings("ignore::clanka_nb.retrieval.EmbeddingTimeWarning")  # a slow embedder, said
def test_a_time_budget_probes_on_a_sample_and_says_so(sample, fake_clock):
    queries = cn.probe_queries(sample).head(4)  # few targets: most chunks are others, to be sampled
    whole = cn.sweep(sample, chunk_size=SIZES, probe=cn.Probe(queries=queries, embed=Counting()), progress=False)
    embed = Slow(0.5, fake_clock)
    budget = whole.attrs["inputs_distinct"] * 0.5 * 0.5  # half the time a full run takes
    with pytest.warns(SampledProbeWarning, match="probe runs on a sample.*intervals include"):
        frame = cn.sweep(sample, chunk_size=SIZES, probe=cn.Probe(queries=queries, embed=embed, time_budget=budget),
                         progress=False)
    assert 0 < frame.attrs["sample"] < 1 and frame.attrs["sampled_by_budget"] == frame.attrs["sample"]
    assert frame.attrs["embedded"] < whole.attrs["inputs_distinct"]
    assert frame.attrs["embedding_seconds"] <= budget * 1.1
    assert "time_budget" in frame.attrs["embedding_note"] and frame.attrs["verdict"] is not None


@pytest.mark.filterwarnings("ignore::clanka_nb.retrieval.EmbeddingTimeWarning")  # a slow embedder, said
def test_a_budget_the_targets_alone_exceed_says_so(sample, fake_clock):
    embed = Slow(0.5, fake_clock)
    with pytest.warns(SampledProbeWarning, match="the smallest sample, 2%: the chunks holding the queries' targets"):
        frame = cn.sweep(sample, chunk_size=SIZES, probe=cn.Probe(embed=embed, time_budget=40), progress=False)
    assert frame.attrs["sample"] == pytest.approx(0.02)


def test_a_budget_that_fits_changes_nothing(sample, fake_clock):
    embed = Slow(0.001, fake_clock)
    frame = cn.sweep(sample, chunk_size=SIZES, probe=cn.Probe(embed=embed, time_budget=3600), progress=False)
    assert frame.attrs["sample"] is None and "sampled_by_budget" not in frame.attrs


def test_nothing_left_to_embed_after_the_first_call_is_never_sampled(sample, fake_clock):
    # Issue 42 item 6: the measuring call embedded every input but took longer than time_budget; the probe sampled
    # at 2% all the same, saying "embedding all 0 inputs would take longer".
    class Large(Slow):
        batch_size = 1_000_000  # the first call takes every input

    embed = Large(0.5, fake_clock)
    with warnings.catch_warnings():
        warnings.simplefilter("error", SampledProbeWarning)
        frame = cn.sweep(sample, chunk_size=SIZES, probe=cn.Probe(embed=embed, time_budget=1), progress=False)
    assert frame.attrs["sample"] is None and "sampled_by_budget" not in frame.attrs
    assert " 0 inputs" not in frame.attrs["embedding_note"]


@pytest.mark.parametrize("bad", [0, -5, True, "60", float("nan")])
def test_a_bad_time_budget_is_named(sample, bad):
    with pytest.raises(ValueError, match="time_budget must be a number of seconds"):
        cn.sweep(sample, probe=cn.Probe(embed=Counting(), time_budget=bad))


def test_a_time_budget_without_embed_is_named(sample):
    with pytest.raises(ValueError, match="time_budget= bounds the probe's embedding: pass embed="):
        cn.sweep(sample, probe=cn.Probe(time_budget=60))


def test_the_rate_is_measured_on_inputs_spread_over_lengths():
    texts = {str(i): "x" * i for i in range(1000)}
    picked = _ahead._spread(texts, 10)
    lengths = sorted(len(text) for text in picked.values())
    assert len(picked) == 10 and lengths[0] < 100 and lengths[-1] > 850
    assert time.perf_counter() > 0


def _halves(path: str, text: str) -> list[tuple[int, int]]:
    """A user's chunker: each file in two halves of its lines."""
    count = max(1, text.count("\n") + (0 if text.endswith("\n") else 1))
    middle = max(1, count // 2)
    return [(1, middle)] if count == 1 else [(1, middle), (middle + 1, count)]


def _peers(kind: str) -> dict[str, object]:
    if kind == "astchunk":
        from tests.chunkers._files import need_peer

        need_peer("astchunk")
        return {"astchunk": cn.chunkers.astchunk(cn.chunkers.Budget(600, characters_per_non_whitespace=1.4))}
    return {"windows": cn.chunkers.line_windows(25), "halves": _halves}


@pytest.mark.parametrize(("kind", "languages"), [("adapters", "clanka"), ("adapters", "extended"),
                                                 ("astchunk", "extended")])
def test_every_chunker_s_inputs_are_distinct_inputs_and_embedded_ahead(sample, kind, languages):
    # Issue 56 item 10: with chunkers= the attrs said "embedded 3,128 of 1,065 distinct": the chunkers' inputs (and,
    # in extended mode, clanka's own setting's, cut apart) were embedded by their rows, counted by none.
    embed = Counting()
    frame = cn.sweep(sample, chunk_size=[20, 40], languages=languages, probe=cn.Probe(embed=embed),
                     chunkers=_peers(kind), progress=False)
    attrs = frame.attrs
    assert attrs["embedded"] == len(embed.texts) == len(set(embed.texts))  # what the model computed, once each
    assert attrs["embedded"] == attrs["inputs_distinct"]  # an empty cache: every distinct input, none more
    assert "whole chunkers" in attrs["embedding_note"]
    before = len(embed.texts)
    again = cn.sweep(sample, chunk_size=[20, 40], languages=languages, probe=cn.Probe(embed=embed),
                     chunkers=_peers(kind), progress=False)
    assert again.attrs["embedded"] == 0 and len(embed.texts) == before  # the rows read the vector cache
    assert again["mrr"].tolist() == frame["mrr"].tolist()


def test_the_estimate_counts_only_the_inputs_left_to_embed(sample, fake_clock):
    # Half the inputs cached by an earlier sweep; the chunkers' inputs new: the warning names what is sent to the
    # model, and its estimate is the time the rest of them took, the chunkers' included.
    embed = Slow(0.5, fake_clock)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EmbeddingTimeWarning)
        cn.sweep(sample, chunk_size=[20], probe=cn.Probe(embed=embed), progress=False)
    before, start = len(embed.texts), fake_clock[0]
    embed.seconds = 2.0  # slower now: the inputs left take over 30 s
    with pytest.warns(EmbeddingTimeWarning) as said:
        frame = cn.sweep(sample, chunk_size=[20, 40], probe=cn.Probe(embed=embed), progress=False,
                         chunkers={"windows": cn.chunkers.line_windows(25), "halves": _halves})
    sent = len(embed.texts) - before
    assert f"embedding {sent:,} inputs" in str(said[0].message)
    assert frame.attrs["embedded"] == sent < frame.attrs["inputs_distinct"]  # the cached ones apart
    rest = fake_clock[0] - start - 64 * 2.0  # all the model's time but the first call's, which measured the rate
    assert abs(frame.attrs["embedding_estimate_seconds"] - rest) <= 0.05 * rest


class Padding(Counting):
    """A model that embeds `batch_size` texts at once, sorted by length, each batch costing its longest text's
    length for every text in it (as a transformer pads a batch): on a fake clock."""

    batch_size = 16

    def __init__(self, clock: list[float]) -> None:
        super().__init__()
        self.clock = clock
        self.model_id = f"{self.inner.model_id}/padding"

    def __call__(self, texts: list[str]) -> np.ndarray:
        lengths = sorted(len(text) for text in texts)
        for start in range(0, len(lengths), self.batch_size):
            batch = lengths[start : start + self.batch_size]
            self.clock[0] += 1e-3 * batch[-1] * len(batch)
        return super().__call__(texts)


def test_the_rate_holds_for_a_model_that_pads_its_batches(sample, fake_clock):
    # Issue 56 item 10: the warning overestimated a Java library's time by 2x: the rate was measured on one call of
    # texts from shortest to longest, which such a model pads far more than the rest (batches of like lengths).
    embed = Padding(fake_clock)
    frame = cn.sweep(sample, chunk_size=SIZES, probe=cn.Probe(embed=embed), progress=False)
    first_call = 64  # call_size: the model's batch twice, at least MEASURED
    texts = embed.texts[first_call:]
    assert len(texts) > 3 * first_call
    spent = frame.attrs["embedding_seconds"]
    measuring = sum(1e-3 * max(map(len, embed.texts[i : i + 16])) * 16 for i in range(0, first_call, 16))
    rest = spent - measuring
    assert abs(frame.attrs["embedding_estimate_seconds"] - rest) <= 0.15 * rest  # main: 43% over
