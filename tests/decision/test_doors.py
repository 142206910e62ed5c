"""The public doors (`retrieval.verdict`, `decide`): every argument out of range or of the wrong type is one error
that names it, before any work, never a traceback from deep inside nor a silent answer."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from clanka_nb.decision import Outcome, decide
from clanka_nb.retrieval import verdict

SCORES = pd.DataFrame({"a": np.linspace(0, 1, 40), "b": np.linspace(0, 1, 40) ** 2})


@pytest.mark.parametrize(("given", "named"), [
    ({"margin": -0.5}, "margin must be"), ({"margin": float("nan")}, "margin must be"),
    ({"margin": "x"}, "margin must be"), ({"margin": 1.5}, "margin must be"), ({"margin": True}, "margin must be"),
    ({"confidence": 1.0}, "confidence must be"), ({"confidence": float("nan")}, "confidence must be"),
    ({"confidence": "x"}, "confidence must be"),
    ({"resamples": 0}, "resamples must be"), ({"resamples": 2.5}, "resamples must be"),
    ({"resamples": "x"}, "resamples must be"),
    ({"splits": -1}, "splits must be"), ({"seed": "x"}, "seed must be"), ({"seed": -1}, "seed must be"),
    ({"metric_name": 5}, "metric_name must be"), ({"metric_name": "a\x1b[2J"}, "metric_name must be"),
    ({"cost": [1.0, float("nan")]}, "cost must be"), ({"cost": ["x", 1]}, "cost must be"),
    ({"cost": "ab"}, "cost must be"),
    ({"cost": [-1, 2]}, "cost must be"), ({"cost": {"a": 1}}, "cost has no entry for column"),
    ({"settings": "ab"}, "settings must map"),
    ({"settings": {"a": 1, "b": 2}}, "settings must map each column to a dict"),
    ({"groups": "ab"}, "groups must be"), ({"when": "ab"}, "when must be"), ({"when": [1.0]}, "when must have one"),
])  # fmt: skip
def test_every_argument_of_verdict_is_checked_by_name(given: dict, named: str) -> None:
    with pytest.raises((ValueError, TypeError), match=named):
        verdict(SCORES, **given)


def test_decide_names_the_margin_too() -> None:
    outcomes = [Outcome(rank=np.arange(1, 41) % 7, depth=10) for _ in range(2)]
    settings = [{"chunk_size": 10}, {"chunk_size": 20}]
    for margin in (-0.5, float("nan"), "x"):
        with pytest.raises(ValueError, match="margin must be"):
            decide(outcomes, settings, [1.0, 2.0], metric="mrr", margin=margin)  # type: ignore[arg-type]
    assert decide(outcomes, settings, [1.0, 2.0], metric="mrr", margin=None, resamples=100).queries == 40


def test_an_infinite_score_is_refused() -> None:
    with pytest.raises(ValueError, match="infinite"):
        verdict(SCORES.assign(a=np.inf))
