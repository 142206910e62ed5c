"""A verdict per query source beside the pooled one (issue 52, item 4): each source judged alone by the public
`verdict` on its own queries, its decision in the table's attrs, and a clause in the pooled message where it
decides otherwise, saying who drew its targets."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from clanka_nb import sweep
from clanka_nb.retrieval import Probe, probe_queries, verdict
from clanka_nb.retrieval.scoring._by_source import source_verdicts, with_sources

SETTINGS = [{"chunk_size": 10}, {"chunk_size": 20}]


def _scores(leads: dict[str, tuple[int, float]], seed: int = 0) -> tuple[pd.DataFrame, pd.Series]:
    """Per source (in order): its queries and the true lead of row 0 over row 1, noise on top."""
    rng = np.random.default_rng(seed)
    frames, labels = [], []
    for name, (count, lead) in leads.items():
        base = rng.uniform(0.3, 0.7, count)
        frames.append(pd.DataFrame({0: base + lead / 2 + rng.normal(0, 0.05, count),
                                    1: base - lead / 2 + rng.normal(0, 0.05, count)}))  # fmt: skip
        labels += [name] * count
    return pd.concat(frames, ignore_index=True), pd.Series(labels, dtype="string")


def _judged(leads: dict[str, tuple[int, float]]):
    scores, sources = _scores(leads)
    pooled = verdict(scores, settings=dict(enumerate(SETTINGS)), cost=[1.0, 2.0])
    return pooled, source_verdicts(pooled, scores, sources, None, dict(enumerate(SETTINGS)), {0: 1.0, 1: 2.0},
                                   None)


def test_a_source_that_ties_what_the_pool_separates_is_said_in_the_message():
    pooled, by_source = _judged({"doc_comments": (150, 0.3), "history": (150, 0.0)})
    assert pooled.choice == 0 and pooled.separable
    found = {item.source: item for item in by_source}
    assert found["doc_comments"].agreement == "agrees" and found["doc_comments"].choice == 0
    assert found["history"].agreement == "differs" and not found["history"].separable
    assert found["history"].targets == "the lines each commit changed (no parser)"
    assert found["doc_comments"].targets == "declarations drawn by clanka's own parser"
    message = with_sources(pooled, by_source).message
    assert message.startswith(pooled.decision)  # the decision stays first
    assert "by source: commit messages alone (150 queries; targets: the lines each commit changed" in message
    assert "doc comments alone" not in message  # a source that agrees adds no clause


def test_a_source_that_shows_the_choice_worse_contradicts_it():
    pooled, by_source = _judged({"doc_comments": (200, 0.4), "test_names": (60, -0.4)})
    assert pooled.choice == 0
    found = {item.source: item for item in by_source}
    assert found["test_names"].agreement == "contradicts" and found["test_names"].worse == [0]
    assert "test names alone (60 queries; targets: declarations drawn by clanka's own parser) show the choice worse" \
        in with_sources(pooled, by_source).message  # fmt: skip


def test_agreeing_sources_leave_the_message_as_it_was():
    pooled, by_source = _judged({"doc_comments": (150, 0.3), "history": (150, 0.3)})
    assert {item.agreement for item in by_source} == {"agrees"}
    assert with_sources(pooled, by_source).message == pooled.message


def test_one_source_gives_no_verdict_by_source():
    _, by_source = _judged({"doc_comments": (100, 0.3)})
    assert by_source == []


def test_a_source_of_few_queries_is_not_judged_alone():
    pooled, by_source = _judged({"doc_comments": (150, 0.3), "test_names": (29, -0.5)})
    few = {item.source: item for item in by_source}["test_names"]
    assert (few.agreement, few.decision, few.queries) == ("too_few", None, 29)
    assert with_sources(pooled, by_source).message == pooled.message


@pytest.fixture
def folder(tmp_path):
    for index in range(30):
        lines = [f"// Computes the {word} total of the basket number {index}." for word in ("net",)]
        body = "\n".join(f"  value = value + {step} * {index}" for step in range(12))
        (tmp_path / f"basket{index}.ts").write_text(
            "\n".join(lines) + f"\nexport function total{index}(value: number) {{\n{body}\n  return value\n}}\n"
            f"// Formats the basket number {index} as a label with its currency.\n"
            f"export function label{index}(value: number) {{\n  return String(value) + 'EUR{index}'\n}}\n"
        )
    return tmp_path


# A small fixture's queries: recall is flat at every setting, and says so.
@pytest.mark.filterwarnings("ignore::clanka_nb.retrieval.FlatRecallWarning")
def test_the_sweep_keeps_each_sources_decision_in_its_attrs(folder):
    queries = probe_queries(folder)
    assert len(queries) == 60
    queries = queries.assign(source=["doc_comments"] * 30 + ["history"] * 30)
    table = sweep(folder, chunk_size=[4, 30], probe=Probe(queries=queries), progress=False)
    by_source = table.attrs["verdict_by_source"]
    assert [item["source"] for item in by_source] == ["doc_comments", "history"]
    for item in by_source:
        assert item["queries"] == 30
        assert item["decision"] and item["agreement"] in ("agrees", "differs", "contradicts")
        assert item["targets"]


def test_a_source_the_verdict_fails_on_is_reported_not_judged(monkeypatch):
    """Seven queries in four clusters on which the verdict's few-cluster widening fails (a t quantile at a tail of
    0): the source is said not judged, and the sweep does not fail for a breakdown."""
    from clanka_nb.retrieval.scoring import _by_source

    monkeypatch.setattr(_by_source, "MIN_ALONE", 1)
    failing = pd.DataFrame([[0, 0, 0, 0], [1, 1, 1, 1], [1, 1, 1, 0], [1, 1, 1, 1], [1, 1, 1, 1], [1, 0, 0, 0],
                            [0, 0, 0, 0]], dtype=float)  # fmt: skip
    scores, sources = _scores({"doc_comments": (60, 0.3)})
    scores = pd.concat([scores.assign(**{"2": scores[0], "3": scores[1]}).set_axis([0, 1, 2, 3], axis=1), failing],
                       ignore_index=True)  # fmt: skip
    sources = pd.concat([sources, pd.Series(["test_names"] * 7, dtype="string")], ignore_index=True)
    groups = np.concatenate([np.arange(100, 160), [0, 1, 0, 0, 1, 3, 2]])
    settings = {row: {"chunk_size": 10 * (row + 1)} for row in range(4)}
    pooled = verdict(scores, groups, settings=settings, cost=[1.0, 2.0, 3.0, 4.0])
    found = {item.source: item for item in source_verdicts(pooled, scores, sources, groups, settings,
                                                          {row: float(row) for row in range(4)}, None)}  # fmt: skip
    assert found["test_names"].agreement == "not_judged"
    assert "not judged alone: the verdict failed on these queries" in found["test_names"].message
    assert found["doc_comments"].agreement in ("agrees", "differs", "contradicts")
