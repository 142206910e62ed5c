"""The confidence set of the best: every setting no other is shown better than, by elimination over the pairs
(`_pairs.Pairs`), and for each setting it removes, the one shown better than it and by at least how much."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._pairs import Pairs


@dataclass(frozen=True)
class BestSet:
    """The settings best first (`order`: by mean, then cost), those kept in the set (`kept`, best first), and each
    one removed (`beaten`: setting -> (the one shown better than it, the lower bound of that lead))."""

    order: list[int]
    kept: list[int]
    beaten: dict[int, tuple[int, float]]

    @property
    def removed(self) -> list[int]:
        """The settings shown worse, best first."""
        return [column for column in self.order if column in self.beaten]


def best_set(pairs: Pairs, order: list[int], confidence: float) -> BestSet:
    """The confidence set of the best among the settings in `order` (best first)."""
    beaten = _beaten(pairs, eliminated(pairs, order, confidence), order)
    return BestSet(order, [column for column in order if column not in beaten], beaten)


def eliminated(pairs: Pairs, order: list[int], confidence: float) -> list[int]:
    """The settings the elimination removes, in the order it removes them (what is left is the confidence
    set of the best).

    While more than one setting is left, test "the settings left are equal" by the largest |t| over their pairs
    against the same statistic's bootstrap quantile over those pairs alone. When it rejects, one setting leaves: the
    one whose own t is largest, its t being how far it trails the setting it trails most clearly (the largest t of
    another minus it over the settings left). That is the worse member of the pair that rejected, never merely the
    lowest mean: a noisy setting with a low mean has small t's and stays until a test is about it. The test then
    runs again on the rest. This is the model confidence set of Hansen, Lunde and Nason (Econometrica 2011) with the
    range statistic and its elimination rule, in this module's words. The first test is the single-step max-t test,
    so with truly equal settings a winner is named at most 1 - confidence of the time; each later test compares
    fewer pairs, so a setting far behind no longer costs a close pair its power."""
    left = list(order)
    out: list[int] = []
    while len(left) > 1:
        inside = np.isin(pairs.a, left) & np.isin(pairs.b, left)
        critical = float(np.quantile(pairs.drawn[:, inside].max(axis=1), confidence, method="higher"))
        if not pairs.seen[inside].max() > critical:
            break
        trailing = {setting: own_t(pairs, setting, left) for setting in left}
        worst = max(reversed(left), key=lambda setting: trailing[setting])  # a tie: the lower mean leaves
        left.remove(worst)
        out.append(worst)
    return out


def own_t(pairs: Pairs, setting: int, left: list[int]) -> float:
    """How clearly `setting` trails the others left: the largest t of another setting minus it (negative when it
    leads them all; inf when another leads it by the same amount in every cluster)."""
    out = -np.inf
    for other in left:
        if other == setting:
            continue
        difference, _, _, error = pairs.between(other, setting)
        t = difference / error if error > 0 else np.inf if difference > 0 else -np.inf if difference < 0 else 0.0
        out = max(out, t)
    return float(out)


def _beaten(pairs: Pairs, gone: list[int], order: list[int]) -> dict[int, tuple[int, float]]:
    """Each setting the elimination removed: the setting whose simultaneous interval shows it most clearly worse
    (the best when none does), and that interval's lower bound of the difference (0 or less where only the
    elimination's later, smaller critical values tell it apart)."""
    out: dict[int, tuple[int, float]] = {}
    for worse in gone:
        bounds = [(pairs.between(better, worse)[1], better) for better in order if better != worse]
        bound, better = max(bounds, key=lambda item: (item[0], item[1] == order[0]))
        out[worse] = (better if bound > 0 else order[0], bound if bound > 0 else pairs.between(order[0], worse)[1])
    return out
