"""The probe's scores, against corpora where the right ranks are known by construction."""

from __future__ import annotations

import pandas as pd
import pytest

from clanka_nb import engine
from clanka_nb.retrieval import Probe
from clanka_nb.retrieval.scoring._probe import ProbeSet, prepare_probe, probe, probe_summary

from .conftest import ScriptedSearcher, hashed_embed

WORDS = {"a.md": "alpha", "b.md": "beta", "c.md": "gamma", "d.md": "delta", "e.md": "epsilon", "f.md": "zeta"}


def _file(path: str, word: str) -> str:
    """Ten lines, each one word; the file's word on line 7 of a.md, line 2 of the others."""
    lines = [f"{path[0]}{i}" for i in range(1, 11)]
    lines[6 if path == "a.md" else 1] = word
    return "\n".join(lines) + "\n"


@pytest.fixture
def words() -> engine.Codebase:
    # At chunk_size=5 every file gives two chunks, lines 1-5 and 6-10: ids 0-1 are a.md's, 2-3 b.md's...
    return engine.Codebase.from_texts({path: _file(path, word) for path, word in WORDS.items()})


QUERIES = pd.DataFrame(
    [
        ("alpha", "a.md", 6, 8),  # alpha's chunk (a.md 6-10) comes first
        ("beta gamma alpha", "a.md", 6, 8),  # third
        ("beta", "a.md", 6, 8),  # never
        ("beta gamma delta epsilon zeta alpha", "a.md", 6, 8),  # sixth
        ("a1 alpha", "a.md", 1, 2),  # a.md 1-5 first
        ("alpha", "b.md", 6, 8),  # the same lines of another file do not count
    ],
    columns=["query", "path", "start_line", "end_line"],
)


def test_ranks_are_the_position_of_the_first_chunk_overlapping_the_target(words):
    frame = probe(words, Probe(queries=QUERIES, searcher=ScriptedSearcher()), chunk_size=5)
    assert frame["rank"].tolist() == [1, 3, pd.NA, 6, 1, pd.NA]
    assert frame[["query", "path", "start_line", "end_line"]].astype(object).values.tolist() == QUERIES.values.tolist()
    # Precision: target lines held by the top 5 chunks over their lines (each chunk has 5 lines).
    assert frame["precision"].tolist() == pytest.approx([3 / 5, 3 / 15, 0, 0, 2 / 10, 0])
    shallow = probe(words, Probe(queries=QUERIES, searcher=ScriptedSearcher(), k=(1, 5)), chunk_size=5)
    assert shallow["rank"].tolist() == [1, 3, pd.NA, pd.NA, 1, pd.NA]  # the sixth is past max(k)


def test_summary_of_known_ranks(words):
    summary = probe_summary(probe(words, Probe(queries=QUERIES, searcher=ScriptedSearcher()), chunk_size=5))
    assert list(summary.columns) == [
        "queries", "recall@1", "recall@5", "recall@10", "mrr", "precision", "tokens@1", "tokens@5", "tokens@10",
        "lines@1", "lines@5", "lines@10", "budget_found@2000", "budget_covered@2000",
    ]
    row = summary.iloc[0]
    assert row["queries"] == 6
    assert (row["recall@1"], row["recall@5"], row["recall@10"]) == pytest.approx((2 / 6, 3 / 6, 4 / 6))
    assert row["mrr"] == pytest.approx((1 + 1 / 3 + 1 / 6 + 1) / 6)
    assert row["precision"] == pytest.approx((3 / 5 + 3 / 15 + 2 / 10) / 6)


def test_summary_of_a_hand_made_frame_and_its_limits():
    frame = pd.DataFrame({"rank": pd.array([1, 2, None, 10], dtype="Int64"), "precision": [0.5, 0.25, 0.0, 0.25]})
    frame.attrs["k"] = [1, 5, 10]
    row = probe_summary(frame).iloc[0]
    assert (row["recall@1"], row["recall@5"], row["recall@10"]) == pytest.approx((0.25, 0.5, 0.75))
    assert row["mrr"] == pytest.approx((1 + 0.5 + 0.1) / 4)
    assert row["precision"] == pytest.approx(0.25)
    assert list(probe_summary(frame, k=2).columns) == ["queries", "recall@2", "mrr", "precision"]
    with pytest.raises(ValueError, match="deeper"):
        probe_summary(frame, k=20)
    empty = probe_summary(frame.iloc[:0])
    assert empty["queries"].tolist() == [0]
    assert empty[["recall@1", "mrr", "precision"]].isna().all(axis=None)
    with pytest.raises(KeyError, match="rank"):
        probe_summary(pd.DataFrame({"precision": [1.0]}))


DOCUMENTED = """/** Computes the checksum of a network packet. */
export function packetChecksum(packet) {
  let sum = 0
  for (const byte of packet.bytes) sum = (sum + byte) % 65521
  return sum
}

/**
 * Sends the greeting email to a new user.
 */
export function sendWelcomeEmail(user, mailer) {
  return mailer.send(user.email, "welcome")
}
"""


@pytest.mark.parametrize("options", [{"searcher": "bm25"}, {"embed": hashed_embed}], ids=["bm25", "embed"])
def test_queries_from_doc_comments_find_their_code(options, tmp_path, monkeypatch):
    monkeypatch.setenv("CLANKA_NB_CACHE_DIR", str(tmp_path / "cache"))  # embed=: the vector cache's folder
    frame = probe(engine.Codebase.from_texts({"net.ts": DOCUMENTED}), Probe(**options))
    assert frame["query"].tolist() == [
        "Computes the checksum of a network packet.",
        "Sends the greeting email to a new user.",
    ]
    assert frame["rank"].tolist() == [1, 1]
    assert frame.attrs["chunks"] == 2


def test_bad_arguments(words):
    with pytest.raises(ValueError, match="k must be"):
        probe(words, Probe(queries=QUERIES, searcher=ScriptedSearcher(), k=0))
    with pytest.raises(TypeError, match="chunk_size"):
        probe(words, Probe(queries=QUERIES), chunk_size="30")  # type: ignore[arg-type]

    class Broken(ScriptedSearcher):
        def search(self, query: str, k: int) -> list[int]:
            return [len(self.texts)]

    with pytest.raises(ValueError, match="outside"):
        probe(words, Probe(queries=QUERIES, searcher=Broken()), chunk_size=5)


def test_a_prepared_probe_reuses_the_codebase_and_queries(words):
    prepared = prepare_probe(words, Probe(queries=QUERIES))
    assert prepared.codebase is words
    assert prepared.queries["query"].tolist() == QUERIES["query"].tolist()


def test_prepare_probe_takes_the_probe_whole_as_the_sweep_does(words):
    # One Probe, one name (issue 51): its sample, header and mask reach the prepared probe, as ProbeSet.of gives
    # the sweep's; a queries frame alone is not a Probe.
    probe = Probe(queries=QUERIES, sample=0.5, header="path", mask=False)
    prepared = prepare_probe(words, probe)
    swept = ProbeSet.of(words, probe)
    assert (prepared.sample, prepared.mask, prepared.masked.header) == (swept.sample, swept.mask, swept.masked.header)
    assert (prepared.sample, prepared.mask, prepared.masked.header) == (0.5, False, "path")
    with pytest.raises(TypeError, match=r"probe must be a Probe\(\.\.\.\)"):
        prepare_probe(words, QUERIES)  # type: ignore[arg-type]


def test_the_probe_is_named_probe_in_every_signature() -> None:
    import inspect

    import clanka_nb as cn
    from clanka_nb.retrieval.scoring import _probe

    for function in (cn.probe, _probe.prepare_probe, _probe.probe_frame, _probe.probe_outcome, _probe.probe_columns,
                     _probe.chunks_outcome):
        parameters = inspect.signature(function).parameters
        assert "probe" in parameters and "options" not in parameters, function.__name__
