"""`Probe`: the retrieval probe's options, defined and checked once for the sweep, the CLI, the panel and Dask."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ...decision import COST_NAMES, MARGIN, check_margin
from ...defaults import DEFAULT_BUDGET
from ...engine.settings import checked_init
from ...metrics import Metric, chosen_metric
from ..queries import TARGETS
from ..search import HEADERS, Searcher, resolve_searcher, searcher_for

if TYPE_CHECKING:
    from ...index import Embedder

DEFAULT_K = (1, 5, 10)
# Each cut-off is a recall@k column; more than this is a mistake (k=range(10**6)), not a question.
MAX_CUTOFFS = 100
# Each budget is two columns and more search depth; more than this is a mistake, not a question.
MAX_BUDGETS = 20


def _whole_numbers(value: object, most: int) -> list[object] | None:
    """`value` as a list: a single whole number as one item, any other iterable (not text) read for at most
    `most` + 1 items (an endless iterator is never listed whole); None when it is neither."""
    if isinstance(value, int | np.integer):
        return [value]
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        return None
    return list(itertools.islice(value, most + 1))


def check_k(k: int | Iterable[int]) -> tuple[int, ...]:
    """The cut-offs as a sorted tuple of distinct positive ints (a single int is a tuple of one)."""
    values = _whole_numbers(k, MAX_CUTOFFS)
    if values is not None and len(values) > MAX_CUTOFFS:
        msg = f"k holds more than {MAX_CUTOFFS} cut-offs; pass at most {MAX_CUTOFFS}, e.g. k=[1, 5, 10] (a column each)"
        raise ValueError(msg)
    if not values or any(isinstance(v, bool) or not isinstance(v, int | np.integer) or v < 1 for v in values):
        msg = f"k must be a positive int or a list of them (the cut-offs of recall@k), e.g. k=[1, 5, 10]; got {k!r:.80}"
        raise ValueError(msg)
    return tuple(sorted({int(v) for v in values if isinstance(v, int | np.integer)}))  # all of them, checked above


def check_sample(sample: float | None) -> float | None:
    """The share of distractor chunks a sampled probe indexes: a number in (0, 1], or None for all of them."""
    if sample is None:
        return None
    if isinstance(sample, bool) or not isinstance(sample, int | float) or not 0 < sample <= 1:
        msg = (
            f"sample must be the share of the other chunks to index beside every query's target, a number "
            f"in (0, 1] such as 0.2, or None for the whole codebase; got {sample!r}"
        )
        raise ValueError(msg)
    return None if sample == 1 else float(sample)


def check_time_budget(time_budget: object) -> float | None:
    """Seconds the probe's embedding may take (above 0), or None for no bound."""
    if time_budget is None:
        return None
    if isinstance(time_budget, bool) or not isinstance(time_budget, int | float) or not time_budget > 0:
        msg = (f"time_budget must be a number of seconds above 0 (the longest the probe's embedding may take) "
               f"or None for no bound, got {time_budget!r}")
        raise ValueError(msg)
    return float(time_budget)


def check_budget(budget: int | Iterable[int]) -> tuple[int, ...]:
    """The token budgets as a sorted tuple of distinct positive ints (a single int is a tuple of one)."""
    values = _whole_numbers(budget, MAX_BUDGETS)
    if not values or len(values) > MAX_BUDGETS or any(
            isinstance(v, bool) or not isinstance(v, int | np.integer) or v < 1 for v in values):  # fmt: skip
        msg = (f"budget must be a positive whole number of tokens or a list of at most {MAX_BUDGETS} of them "
               f"(the tokens of retrieved chunks a query may spend), e.g. budget=2000 or budget=[1000, 2000]; "
               f"got {budget!r:.80}")
        raise ValueError(msg)
    return tuple(sorted({int(v) for v in values if isinstance(v, int | np.integer)}))  # all of them, checked above


@checked_init
@dataclass(frozen=True, eq=False)
class Probe:
    """The retrieval probe's options, checked once here (one clear error per bad value).

    `sweep(source, probe=Probe(k=[1, 5], budget=1000))`, `probe(source, Probe(...))`, `tune(source,
    probe=Probe(...))`, Dask's `sweep(roots, probe=Probe(...))` and `clanka-nb sweep --probe` take it;
    `probe=True` is `Probe()`.

    Args:
        searcher: "bm25" (BM25 over code-aware tokens) or any object with `index(texts)` and `search(query, k)`;
            to search by vectors pass `embed=` instead.
        k: The cut-offs of recall@k, tokens@k and lines@k (default 1, 5, 10).
        embed: An embedder (`list[str] -> (n, d)`, e.g. one of `cn.embedders`): search a real index of each setting
            instead, the one way to search by vectors (an `IndexSearcher`: sqlite-vec KNN over clanka's schema, every
            vector in the on-disk vector cache); not with `searcher=`.
        queries: A frame with query, path, start_line, end_line (default: doc comments, test names and, at the
            top of a git clone, commit messages).
        sample: The share of the other chunks indexed beside every query's target, in (0, 1], or None (all).
        time_budget: Seconds the embedding may take (with `embed` only); over it the probe runs on a sample.
        budget: Tokens of retrieved chunks a query may spend, one int or several (default `DEFAULT_BUDGET`,
            2000): the columns budget_found@B and budget_covered@B.
        metric: The verdict's measure: "mrr", "recall@k", "budget_found@B" or "budget_covered@B" (default
            budget_covered at the smallest budget: every setting pays the same tokens).
        targets: Which commit targets the default queries keep, "code" (default) or "all" (tests, docs,
            changelogs too), as `history_queries(targets=)`; not with `queries=` (filter those yourself).
        mask: Blank doc comments and test names out of the index (default True), so a hit is the code.
        margin: The smallest difference of the metric that matters (default `MARGIN`, 0.02): settings whose
            difference from the best is shown to lie within it (two one-sided tests) are equivalent, and the verdict
            picks the cheapest of them; None: no equivalence test.
        header: What each indexed chunk's header holds: "chunker" (default: as clanka indexes it, the path and
            the name, type and parent its chunker gave; a peer gives none), "path" (the path alone, for every chunker:
            a bake-off then credits the cutting alone) or "none" (the numbered lines alone).
        cost: What "the cheapest" setting means in the verdict: "tokens" (default: the tokens of the chunks each
            setting indexes, what embedding the index costs) or "chunks" (how many chunks it indexes: the vectors
            stored and kept fresh); costs within 2% count as equal, and the better mean is taken among them.
        reference: Score clanka's own setting (chunk_size 30, chunk_overlap 0, chunk_max_characters 10,000, the
            "clanka" language mode: what clanka's SemanticSearch indexes with) as a row of every sweep, marked in the
            column `reference`, and answer about it (`attrs["clanka_answer"]`; default True); False sweeps the grid
            exactly as given (to study the verdict on a grid of your own).
        confirm: An embedder (your model, as `embed=` takes it): BM25 screens the whole grid, then the model re-scores
            what BM25 leaves open or may misjudge (the settings of BM25's confidence set, clanka's reference row,
            every setting with chunk_overlap > 0 and its overlap-0 twin) on a real vector index, and the verdict is
            the model's over those rows alone (docs/tuning-verdict.md, "BM25 screens, your model confirms"); the
            column `searcher` says which searcher scored each row. Not with `embed=` or `sample=`.

    Examples:
        >>> cn.sweep("my-repo", chunk_size=[20, 40], probe=cn.Probe(k=[1, 5], budget=1000))
    """

    searcher: str | Searcher = "bm25"
    k: int | Iterable[int] = DEFAULT_K
    embed: Embedder | None = None
    queries: pd.DataFrame | None = field(default=None, repr=False)  # a frame's repr is pages long
    sample: float | None = None
    time_budget: float | None = None
    budget: int | Iterable[int] = DEFAULT_BUDGET
    metric: str | None = None
    targets: str = "code"
    mask: bool = True
    margin: float | None = MARGIN
    header: str = "chunker"
    cost: str = "tokens"
    reference: bool = True
    confirm: Embedder | None = None
    # Resolved once, here: the search engine every row re-indexes, the cut-offs and the budgets as sorted tuples.
    engine: Searcher = field(init=False, repr=False)
    cutoffs: tuple[int, ...] = field(init=False, repr=False)
    budgets: tuple[int, ...] = field(init=False, repr=False)
    verdict_metric: Metric = field(init=False, repr=False)  # `metric` checked, or the one default
    confirmer: Probe | None = field(init=False, repr=False)  # `confirm` as a probe searching by its vectors

    def __post_init__(self) -> None:
        cutoffs, budgets = check_k(self.k), check_budget(self.budget)
        if self.queries is not None and not isinstance(self.queries, pd.DataFrame):
            msg = (f"queries must be a DataFrame with query, path, start_line, end_line (probe_queries(), "
                   f"history_queries() or your own), got {type(self.queries).__name__}")
            raise TypeError(msg)
        if self.targets not in TARGETS:
            msg = f"targets must be 'code' (the code a commit changed) or 'all' (tests, docs, changelogs too), " \
                  f"got {self.targets!r}"
            raise ValueError(msg)
        if self.targets != "code" and self.queries is not None:
            msg = "targets= picks the default queries' commit targets; with queries= given, filter its rows instead"
            raise ValueError(msg)
        if not isinstance(self.mask, bool):
            msg = f"mask must be True (blank doc comments and test names out of the index) or False, got {self.mask!r}"
            raise TypeError(msg)
        check_margin(self.margin)
        if self.header not in HEADERS:
            msg = (f"header must be one of {', '.join(map(repr, HEADERS))} (what each indexed chunk's header holds: "
                   f"'path' credits the cutting alone), got {self.header!r:.80}")
            raise ValueError(msg)
        if not isinstance(self.reference, bool):
            msg = (f"reference must be True (score clanka's own setting as a row and answer about it) or False (the "
                   f"grid as given), got {self.reference!r:.80}")
            raise TypeError(msg)
        if self.cost not in COST_NAMES:
            msg = (f"cost must be one of {', '.join(map(repr, COST_NAMES))} (what the verdict's cheapest setting is "
                   f"cheapest in: the tokens or the chunks each setting indexes), got {self.cost!r:.80}")
            raise ValueError(msg)
        time_budget = check_time_budget(self.time_budget)
        if time_budget is not None and self.embed is None:
            msg = "time_budget= bounds the probe's embedding: pass embed= with it, or drop time_budget="
            raise ValueError(msg)
        object.__setattr__(self, "confirmer", self._confirmer())
        for name, value in (("k", cutoffs), ("budget", budgets), ("sample", check_sample(self.sample)),
                            ("time_budget", time_budget), ("cutoffs", cutoffs), ("budgets", budgets),
                            ("verdict_metric", chosen_metric(self.metric, cutoffs, budgets)),
                            ("engine", resolve_searcher(searcher_for(self.searcher, self.embed)))):  # fmt: skip
            object.__setattr__(self, name, value)
        object.__setattr__(self, "metric", self.verdict_metric.name)

    def _confirmer(self) -> Probe | None:
        """`confirm=` checked, as the probe that re-scores BM25's open rows: these options, searching by its vectors."""
        if self.confirm is None:
            return None
        if self.embed is not None or self.sample is not None:
            given = "embed=" if self.embed is not None else "sample="
            msg = (f"confirm= re-scores BM25's open settings with your model on the whole codebase: pass it without "
                   f"{given} (embed= scores every setting with the model; sample= thins an embedding run)")
            raise ValueError(msg)
        return Probe("bm25", self.k, self.confirm, self.queries, budget=self.budget, metric=self.metric,
                     targets=self.targets, mask=self.mask, margin=self.margin, header=self.header, cost=self.cost,
                     reference=self.reference)

    @property
    def decided_by(self) -> str:
        """What scored the rows the verdict decides on: the confirming model's name with `confirm=`, else the
        searcher's (`searcher_name`)."""
        return self.searcher_name if self.confirmer is None else self.confirmer.searcher_name

    @property
    def searcher_name(self) -> str:
        """What scores the queries, in words: "BM25" (the default), the embedder's name, or the searcher's type."""
        if self.embed is not None:
            return str(getattr(self.embed, "model_id", None) or getattr(self.embed, "name", None)
                       or type(self.embed).__name__)  # fmt: skip
        if isinstance(self.searcher, str):
            return "BM25" if self.searcher == "bm25" else self.searcher
        return type(self.searcher).__name__

    @property
    def searcher_clause(self) -> str:
        """The clause a verdict's message ends with: which searcher scored it (clanka searches by embeddings)."""
        if self.embed is not None:
            return f"scored by {self.searcher_name} embeddings"
        if self.confirmer is not None:
            return f"scored by {self.decided_by} embeddings, {self.searcher_name} having screened the grid"
        return (f"scored by {self.searcher_name}, not by embeddings as clanka searches (Probe(embed=) scores with "
                "your model)")

    @property
    def embedded(self) -> bool:
        """Whether the probe searches a real vector index (`embed=`): the sweep embeds its inputs ahead."""
        return self.embed is not None


def as_probe(probe: object) -> Probe | None:
    """A sweep's `probe=`: True (the defaults), False or None (no probe) or a `Probe`."""
    if isinstance(probe, Probe):
        return probe
    if probe is True:
        return Probe()
    if probe is False or probe is None:
        return None
    msg = f"probe must be True, False or a Probe(...) of the probe's options, got {probe!r}"
    raise TypeError(msg)
