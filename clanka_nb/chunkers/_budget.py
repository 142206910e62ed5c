"""One size for every chunker: a budget in characters, non-whitespace characters (cAST's unit) or tokens,
turned into each peer's own size parameter in the unit that peer counts."""

from __future__ import annotations

import dataclasses
import functools
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..bundled import sample_codebase
from ..defaults import CHUNKER_BUDGET
from ..engine import Codebase, list_files
from ..engine.settings import checked_init, checked_keywords, whole_number
from ..engine.token_counts import CHARACTERS_PER_TOKEN

UNITS = ("characters", "non_whitespace", "tokens")
_UNIT_WORDS = {"characters": "characters", "non_whitespace": "non-whitespace characters", "tokens": "tokens"}


@checked_keywords
def non_whitespace(text: str) -> int:
    """How many characters of `text` are not whitespace: the size cAST (and astchunk) give a chunk.

    Args:
        text: The text.

    Returns:
        How many of its characters are not whitespace.

    Examples:
        >>> chunkers.non_whitespace("a b c")
        3
    """
    return len(text) - sum(map(str.isspace, text))


@checked_init
@dataclass(frozen=True, slots=True)
class Budget:
    """The size every chunker gets, in one unit: `characters`, `non_whitespace` characters (as the cAST paper
    matches chunkers) or `tokens`.

    Peers count in their own units (astchunk in non-whitespace characters, the others in characters here, as
    nothing may download a tokenizer), so a budget is converted: tokens at `characters_per_token` (the engine's
    chars/4 estimate), non-whitespace characters at `characters_per_non_whitespace`, which depends on the code:
    measure it with `measured_on(folder)`, or pass it. A conversion that needs it and lacks it is an error.

    Args:
        size: How much every chunker may put in one chunk, in `unit`.
        unit: "characters", "non_whitespace" or "tokens".
        characters_per_non_whitespace: Characters per non-whitespace character of the code (`measured_on`).
        characters_per_token: Characters per token (the engine's chars/4 estimate).

    Raises:
        ValueError: A size, unit or ratio out of range.

    Examples:
        >>> chunkers.Budget(500, "tokens").characters
        2000
    """

    size: int
    unit: str = "characters"
    characters_per_non_whitespace: float | None = None
    characters_per_token: float = CHARACTERS_PER_TOKEN

    def __post_init__(self) -> None:
        size = whole_number("size", self.size, "a number of characters or tokens per chunk; pass e.g. size=1500")
        if size < 1:
            msg = f"a budget's size must be at least 1, got {size}"
            raise ValueError(msg)
        object.__setattr__(self, "size", size)
        if self.unit not in UNITS:
            msg = f"unit must be one of {', '.join(map(repr, UNITS))}, got {self.unit!r}"
            raise ValueError(msg)
        for name in ("characters_per_non_whitespace", "characters_per_token"):
            ratio = getattr(self, name)
            if ratio is not None and not (isinstance(ratio, int | float) and math.isfinite(ratio) and ratio >= 1):
                msg = f"{name} must be a number of at least 1, got {ratio!r}"
                raise ValueError(msg)

    def measured_on(self, source: str | os.PathLike[str] | Codebase | Mapping[str, str]) -> Budget:
        """This budget with `characters_per_non_whitespace` measured on a folder's listed files (or a Codebase's,
        or texts path -> content)."""
        total = spaced = 0
        for text in _texts(source):
            total += len(text)
            spaced += non_whitespace(text)
        if spaced == 0:
            msg = f"{source!r} has no non-whitespace character to measure; pass characters_per_non_whitespace="
            raise ValueError(msg)
        return dataclasses.replace(self, characters_per_non_whitespace=total / spaced)

    def _ratio(self) -> float:
        if self.characters_per_non_whitespace is None:
            msg = (
                "this budget needs characters per non-whitespace character to convert between the two; "
                "use Budget(...).measured_on(folder), or pass characters_per_non_whitespace= (about 1.2-1.6 for code)"
            )
            raise ValueError(msg)
        return self.characters_per_non_whitespace

    @property
    def characters(self) -> int:
        """The budget in characters (whitespace included), rounded down, at least 1."""
        if self.unit == "characters":
            return self.size
        per = self.characters_per_token if self.unit == "tokens" else self._ratio()
        return max(1, math.floor(self.size * per))

    @property
    def non_whitespace(self) -> int:
        """The budget in non-whitespace characters, rounded down, at least 1."""
        if self.unit == "non_whitespace":
            return self.size
        return max(1, math.floor(self.characters / self._ratio()))

    @property
    def tokens(self) -> int:
        """The budget in tokens (at `characters_per_token`), rounded down, at least 1."""
        if self.unit == "tokens":
            return self.size
        return max(1, math.floor(self.characters / self.characters_per_token))

    def __str__(self) -> str:
        return f"{self.size} {_UNIT_WORDS[self.unit]}"


def _texts(source: str | os.PathLike[str] | Codebase | Mapping[str, str]) -> list[str]:
    if isinstance(source, Mapping):
        return list(source.values())
    if isinstance(source, Codebase):
        texts = (source.text(path) for path in source.files)
        return ["\n".join(text.lines) for text in texts if text is not None]
    root = Path(source)
    return [(root / name).read_bytes().decode("utf-8-sig", errors="replace") for name in list_files(root)]


# A peer's size when none is given: benchmarks/bench_peers.py's, in characters.
DEFAULT_SIZE = CHUNKER_BUDGET


@functools.cache
def default_budget() -> Budget:
    """1500 characters, its non-whitespace ratio measured on the sample codebase that ships in the package."""
    return Budget(DEFAULT_SIZE).measured_on(sample_codebase())


def as_budget(budget: Budget | int | None) -> Budget:
    """A `Budget` as given, a whole number of characters as one, None as `default_budget()`."""
    if budget is None:
        return default_budget()
    return budget if isinstance(budget, Budget) else Budget(budget)
