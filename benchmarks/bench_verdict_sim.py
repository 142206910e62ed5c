"""The verdict's statistical claims by simulation with a known truth, at larger counts than the tests.

Usage: python benchmarks/bench_verdict_sim.py [--sims N] [--resamples B]

Run from the repository root (it uses the tests' simulated sweeps, tests/decision/_simulate.py). Each line gives
a rate with its 95% binomial (Wilson) interval:

  false winners   equal settings (80 queries in 30 uneven clusters), a winner named; at 2, 4, 8 and 16 settings,
                  the settings' own noises independent, equicorrelated (0.5) or neighbours alike (0.9^|i-j|).
                  Claim: at most 5%.
  power           s0 ahead of every other by the lead the verdict states (the median over equal-setting draws),
                  200 queries in 60 clusters: s0 told from s1 by the all-pairs test. Claim: 80% (+-5 points).
  equivalence     s0 ahead by exactly the margin (0.02): "equivalent" said. Claim: at most 5%.
  coverage        one cluster holding a quarter of 200 queries: every pair's interval covers at once. Claim: 95%.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clanka_nb.retrieval import verdict
from tests.decision._simulate import additive_scores, heavy_cluster_scores, sweep_scores, true_means


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
    args = parser.parse_args()
    fast = {"resamples": args.resamples, "splits": 0}
    started = time.perf_counter()
    print("false winners (claim: at most 5%):")
    for alike in ("independent", "equicorrelated", "neighbours"):
        for settings in (2, 4, 8, 16):
            rng = np.random.default_rng([settings, len(alike), 99])
            named = sum(verdict(*sweep_scores(rng, settings, 80, 30, "covered", alike=alike), **fast).separable
                        for _ in range(args.sims))  # fmt: skip
            print(f"  {alike:14} {settings:2} settings: {wilson(named, args.sims)}", flush=True)
    print("power at the stated lead (claim: 80% +- 5 points):")
    for settings in (2, 4, 8):
        rng = np.random.default_rng([settings, 98])
        draws = [verdict(*additive_scores(rng, 0.0, settings), **fast).detectable for _ in range(200)]
        lead = float(np.median(draws))
        found = 0
        for _ in range(args.sims):
            pairs = verdict(*additive_scores(rng, lead, settings), **fast).pairs
            found += next(p for p in pairs if (p.a, p.b) == ("s0", "s1")).low > 0
        print(f"  {settings} settings, lead {lead:.4f}: {wilson(found, args.sims)}", flush=True)
    print("equivalence said at a true difference of the margin (claim: at most 5%):")
    for settings in (2, 4):
        rng = np.random.default_rng([settings, 97])
        said = sum(len(verdict(*additive_scores(rng, 0.02, settings), margin=0.02, **fast).equivalent) > 1
                   for _ in range(args.sims))  # fmt: skip
        print(f"  {settings} settings: {wilson(said, args.sims)}", flush=True)
    print("every pair's interval covering at once, one cluster holding a quarter of the queries (claim: 95%):")
    shift = np.array([0.6, 0.3, 0.0])
    for kind in ("rr", "covered"):
        truth = true_means(3, kind, shift)
        rng = np.random.default_rng([17, len(kind), 96])
        covered = 0
        for _ in range(args.sims):
            pairs = verdict(*heavy_cluster_scores(rng, shift, kind), **fast).pairs
            index = {"s0": 0, "s1": 1, "s2": 2}
            covered += all(p.low <= truth[index[p.a]] - truth[index[p.b]] <= p.high for p in pairs)
        print(f"  {kind:7}: {wilson(covered, args.sims)}", flush=True)
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
