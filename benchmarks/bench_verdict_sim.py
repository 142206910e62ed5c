"""The verdict's statistical claims by simulation with a known truth, at larger counts than the tests.

Usage: python benchmarks/bench_verdict_sim.py [--sims N] [--resamples B] [--only heavy,noisy,...]

Run from the repository root (it uses the tests' simulated sweeps, tests/decision/_simulate.py). Each line gives
a rate with its 95% binomial (Wilson) interval:

  false winners   equal settings (80 queries in 30 uneven clusters), a winner named; at 2, 4, 8 and 16 settings,
                  the settings' own noises independent, equicorrelated (0.5) or neighbours alike (0.9^|i-j|).
                  Claim: at most 5%.
  power           s0 ahead of every other by the lead the verdict states (the median over equal-setting draws),
                  200 queries in 60 clusters: s0 told from s1 by the all-pairs test. Claim: 80% (+-5 points).
  equivalence     s0 ahead by exactly the margin (0.02): "equivalent" said. Claim: at most 5%.
  coverage        one cluster holding a quarter of 200 queries: every pair's interval covers at once (claim: 95%),
                  and each setting's own interval its truth (claim: at least 93%).
  heavy cluster   equal settings, one cluster holding a quarter of the queries, at 2-16 settings: false winners
                  (claim: at most 5%) and how often the verdict warns that the widening costs power.
  noisy best      the true best 20 times noisier than 4 others: kept in the confidence set. Claim: at least 93%.
  newer commits   every setting equal on the newer half: "held" said (claim: at least as often as the power stated);
                  the choice trailing by twice the margin on the newer half: "held" said (claim: at most 5%).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pandas as pd

from clanka_nb.retrieval import verdict
from tests.decision._simulate import additive_scores, heavy_cluster_scores, noisy_best_scores, sweep_scores, true_means


def wilson(hits: int, total: int) -> str:
    rate = hits / total
    z = 1.96
    centre = (rate + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(rate * (1 - rate) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return f"{rate:6.1%} [{centre - half:.1%}, {centre + half:.1%}] of {total}"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sims", type=int, default=1000)
    parser.add_argument("--resamples", type=int, default=400)
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"sections, comma-separated: {', '.join(SECTIONS)}")
    args = parser.parse_args()
    fast = {"resamples": args.resamples, "splits": 0}
    started = time.perf_counter()
    for section in args.only.split(","):
        SECTIONS[section](args.sims, fast)
    print(f"({time.perf_counter() - started:.0f} s)")


def false_winners(sims: int, fast: dict) -> None:
    print("false winners (claim: at most 5%):")
    for alike in ("independent", "equicorrelated", "neighbours"):
        for settings in (2, 4, 8, 16):
            rng = np.random.default_rng([settings, len(alike), 99])
            named = sum(verdict(*sweep_scores(rng, settings, 80, 30, "covered", alike=alike), **fast).separable
                        for _ in range(sims))  # fmt: skip
            print(f"  {alike:14} {settings:2} settings: {wilson(named, sims)}", flush=True)


def power(sims: int, fast: dict) -> None:
    print("power at the stated lead (claim: 80% +- 5 points):")
    for settings in (2, 4, 8, 16):
        rng = np.random.default_rng([settings, 98])
        draws = [verdict(*additive_scores(rng, 0.0, settings), **fast).detectable for _ in range(200)]
        lead = float(np.median(draws))
        found = 0
        for _ in range(sims):
            pairs = verdict(*additive_scores(rng, lead, settings), **fast).pairs
            found += next(p for p in pairs if (p.a, p.b) == ("s0", "s1")).low > 0
        print(f"  {settings:2} settings, lead {lead:.4f}: {wilson(found, sims)}", flush=True)


def equivalence(sims: int, fast: dict) -> None:
    print("equivalence said at a true difference of the margin (claim: at most 5%):")
    for settings in (2, 4):
        rng = np.random.default_rng([settings, 97])
        said = sum(len(verdict(*additive_scores(rng, 0.02, settings), margin=0.02, **fast).equivalent) > 1
                   for _ in range(sims))  # fmt: skip
        print(f"  {settings} settings: {wilson(said, sims)}", flush=True)


def coverage(sims: int, fast: dict) -> None:
    print("one cluster holding a quarter of the queries: every pair's interval at once (claim: 95%), and each "
          "setting's own interval (claim: at least 93%):")  # fmt: skip
    shift = np.array([0.6, 0.3, 0.0])
    for kind in ("rr", "covered"):
        truth = true_means(3, kind, shift)
        rng = np.random.default_rng([17, len(kind), 96])
        covered = rows = 0
        for _ in range(sims):
            found = verdict(*heavy_cluster_scores(rng, shift, kind), **fast)
            index = {"s0": 0, "s1": 1, "s2": 2}
            covered += all(p.low <= truth[index[p.a]] - truth[index[p.b]] <= p.high for p in found.pairs)
            rows += int(np.sum((np.array(found.low) <= truth) & (truth <= np.array(found.high))))
        print(f"  {kind:7} pairs: {wilson(covered, sims)}; rows: {wilson(rows, 3 * sims)}", flush=True)


def heavy(sims: int, fast: dict) -> None:
    print("equal settings, one cluster holding a quarter of the queries: false winners (claim: at most 5%); the "
          "widening's power warning; the few-effective-clusters warning:")  # fmt: skip
    cases = [(settings, None) for settings in range(2, 17)] + [(2, -0.5), (3, -0.5), (4, -0.5)]
    for settings, hardness in cases:
        rng = np.random.default_rng([settings, 95] if hardness is None else [settings, 95, 5])
        named = warned = few = 0
        for _ in range(sims):
            found = verdict(*heavy_cluster_scores(rng, np.zeros(settings), "covered", hardness), **fast)
            named += found.separable
            warned += any("which costs power" in text for text in found.warnings)
            few += any("they count as" in text for text in found.warnings)
        which = "" if hardness is None else ", that cluster's targets middling"
        print(f"  {settings:2} settings{which}: false winners {wilson(named, sims)}; power warning "
              f"{warned / sims:.1%}; few-clusters warning {few / sims:.1%}", flush=True)


def noisy(sims: int, fast: dict) -> None:
    print("a true best 20 times noisier than 4 others, kept in the confidence set (claim: at least 93%):")
    rng = np.random.default_rng(94)
    kept = sum("s0" in verdict(*noisy_best_scores(rng), **fast).confidence_set for _ in range(sims))
    print(f"  {wilson(kept, sims)}", flush=True)


def newer(sims: int, fast: dict) -> None:
    print("newer commits, 400 commit-message queries, 3 settings, margin 0.02:")
    cases = ((0.0, 0.0, 0.03, "at least the power stated"), (0.0, 0.0, 0.06, "at least the power stated"),
             (-0.04, 0.15, 0.03, "at most 5%"))  # fmt: skip
    for lead, older, spread, claim in cases:
        rng = np.random.default_rng([93, int(older * 100)])
        held = powered = 0
        power = 0.0
        for _ in range(sims):
            when = np.arange(400.0)
            values = rng.normal(0.4, 0.1, 400)[:, None] + rng.normal(0, spread, (400, 3))
            values[:, 0] += np.where(when < 200, older, lead)
            timed = verdict(pd.DataFrame(values, columns=["s0", "s1", "s2"]), when=when, margin=0.02, **fast).holdout
            assert timed is not None and timed.power is not None
            held += timed.outcome == "held"
            powered += timed.powered
            power += timed.power
        print(f"  choice minus the others on newer commits {lead:+.2f}, spread {spread}: held {wilson(held, sims)} "
              f"(claim: {claim}); mean power stated {power / sims:.1%}, powered in {powered / sims:.0%}", flush=True)


SECTIONS = {"false_winners": false_winners, "power": power, "equivalence": equivalence, "coverage": coverage,
            "heavy": heavy, "noisy": noisy, "newer": newer}  # fmt: skip

if __name__ == "__main__":
    main()
