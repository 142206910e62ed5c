"""Chunkers by name, every one sized from one budget: what the command line's `--chunkers` and the benchmark pass."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

from ..defaults import CHUNK_OVERLAP, CHUNK_SIZE
from ..engine.settings import checked_keywords, setting_docs
from ._adapter import Adapter
from ._budget import Budget
from ._engine import clanka, line_windows
from ._peers import PEERS

# Line windows with no line count of their own: lines are added until the next would pass the budget's characters,
# as the cAST paper's fixed-size baseline is cut. Far more lines than any window at a budget of characters holds.
WINDOW_LINES = 10_000


def _clanka(budget: Budget, languages: str | None = None) -> Adapter:
    # clanka at its default line settings, never over the budget's characters, in the mode asked (None: the
    # source's, when a sweep runs it); the label names the mode whenever it is given.
    mode = "" if languages is None else f" ({languages})"
    return clanka(CHUNK_SIZE, CHUNK_OVERLAP, budget.characters, languages=languages,
                  label=f"clanka{mode}, at most {budget.characters} chars")  # fmt: skip


def _line_windows(budget: Budget) -> Adapter:
    return line_windows(WINDOW_LINES, 0, budget.characters, label=f"line windows of {budget.characters} chars")


# The names a user types (dashes; underscores are taken too) -> the adapter at one budget.
NAMED: dict[str, Callable[[Budget], Adapter]] = {
    "clanka": _clanka,
    "line-windows": _line_windows,
    **{name.replace("_", "-"): factory for name, factory in PEERS.items()},
}


@checked_keywords
@setting_docs
def named_chunkers(names: Iterable[str], budget: Budget, *, languages: str | None = None,
                   file_seconds: float | None = None,
                   total_seconds: float | None = None) -> dict[str, Adapter]:  # fmt: skip
    """The chunkers `names` name (see `NAMED`), each sized from `budget`, by their labels (a sweep's `chunkers=`).
    A peer whose extra is missing raises `MissingExtraError` naming it. `languages`: clanka's language mode (None:
    the swept source's); `file_seconds`: each one's time limit per file (None: `FILE_SECONDS`); `total_seconds`:
    each one's time budget over one sweep's files (None: `TOTAL_SECONDS`).

    Args:
        names: The chunkers' names (keys of `NAMED`).
        budget: The size every one gets.
        file_seconds: Each one's time limit per file; None: `FILE_SECONDS`.
        total_seconds: Each one's time budget over one sweep's files; None: `TOTAL_SECONDS`.

    Returns:
        The chunkers by their labels.

    Raises:
        MissingExtraError: A peer's extra is not installed.
        ValueError: A name is not one of `NAMED`.

    Examples:
        >>> chunkers.named_chunkers(["astchunk", "langchain"], chunkers.Budget(1500))
    """
    out: dict[str, Adapter] = {}
    for name in names:
        key = name.strip().lower().replace("_", "-")
        factory = NAMED.get(key)
        if factory is None:
            msg = f"no chunker is named {name!r}; pick from {', '.join(NAMED)}"
            raise ValueError(msg)
        adapter = _clanka(budget, languages) if factory is _clanka else factory(budget)
        if file_seconds is not None:
            adapter = dataclasses.replace(adapter, file_seconds=file_seconds)
        if total_seconds is not None:
            adapter = dataclasses.replace(adapter, total_seconds=total_seconds)
        out[adapter.label] = adapter
    return out
