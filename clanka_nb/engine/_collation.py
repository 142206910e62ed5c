"""ICU root collation (JavaScript's `localeCompare`) for chunk tie order and file order."""

from __future__ import annotations

from functools import cache

import pyuca

# pyuca implements the Unicode Collation Algorithm over DUCET with non-ignorable variable weights,
# which orders punctuation, symbols, digits and letters as ICU's root collation does at the three
# levels localeCompare uses (base letter, then accents, then case with lower first).


@cache
def _collator() -> pyuca.Collator:
    return pyuca.Collator()


# (primary, secondary, tertiary) weights of each ASCII character in pyuca's table (None: ignorable).
# Loading the full table costs a quarter of a second, and almost every path and name is ASCII, where
# one character is exactly one collation element; tests check this table against pyuca itself.
ASCII_WEIGHTS: tuple[tuple[int, int, int] | None, ...] = (
    None, None, None, None,
    None, None, None, None,
    None, (513, 32, 2), (514, 32, 2), (515, 32, 2),
    (516, 32, 2), (517, 32, 2), None, None,
    None, None, None, None,
    None, None, None, None,
    None, None, None, None,
    None, None, None, None,
    (521, 32, 2), (608, 32, 2), (780, 32, 2), (920, 32, 2),
    (7186, 32, 2), (921, 32, 2), (918, 32, 2), (773, 32, 2),
    (791, 32, 2), (792, 32, 2), (911, 32, 2), (1558, 32, 2),
    (546, 32, 2), (525, 32, 2), (631, 32, 2), (916, 32, 2),
    (7229, 32, 2), (7230, 32, 2), (7231, 32, 2), (7232, 32, 2),
    (7233, 32, 2), (7234, 32, 2), (7235, 32, 2), (7236, 32, 2),
    (7237, 32, 2), (7238, 32, 2), (569, 32, 2), (564, 32, 2),
    (1562, 32, 2), (1563, 32, 2), (1564, 32, 2), (614, 32, 2),
    (910, 32, 2), (7239, 32, 8), (7264, 32, 8), (7290, 32, 8),
    (7311, 32, 8), (7338, 32, 8), (7397, 32, 8), (7412, 32, 8),
    (7448, 32, 8), (7474, 32, 8), (7500, 32, 8), (7525, 32, 8),
    (7543, 32, 8), (7594, 32, 8), (7609, 32, 8), (7645, 32, 8),
    (7692, 32, 8), (7713, 32, 8), (7731, 32, 8), (7793, 32, 8),
    (7829, 32, 8), (7861, 32, 8), (7907, 32, 8), (7925, 32, 8),
    (7935, 32, 8), (7947, 32, 8), (7969, 32, 8), (793, 32, 2),
    (917, 32, 2), (794, 32, 2), (1157, 32, 2), (523, 32, 2),
    (1154, 32, 2), (7239, 32, 2), (7264, 32, 2), (7290, 32, 2),
    (7311, 32, 2), (7338, 32, 2), (7397, 32, 2), (7412, 32, 2),
    (7448, 32, 2), (7474, 32, 2), (7500, 32, 2), (7525, 32, 2),
    (7543, 32, 2), (7594, 32, 2), (7609, 32, 2), (7645, 32, 2),
    (7692, 32, 2), (7713, 32, 2), (7731, 32, 2), (7793, 32, 2),
    (7829, 32, 2), (7861, 32, 2), (7907, 32, 2), (7925, 32, 2),
    (7935, 32, 2), (7947, 32, 2), (7969, 32, 2), (795, 32, 2),
    (1566, 32, 2), (796, 32, 2), (1568, 32, 2), None,
)


def _ascii_key(text: str) -> tuple[int, ...]:
    weights = [w for w in map(ASCII_WEIGHTS.__getitem__, map(ord, text)) if w is not None]
    return (
        *(w[0] for w in weights), 0,
        *(w[1] for w in weights), 0,
        *(w[2] for w in weights), 0,
    )


def collation_key(text: str) -> tuple[int, ...]:
    """A sort key under which `sorted` agrees with JavaScript's `a.localeCompare(b)`."""
    if text.isascii():
        return _ascii_key(text)
    return _collator().sort_key(text)


def sorted_like_js(items: list[str]) -> list[str]:
    """Sort strings as `items.sort((a, b) => a.localeCompare(b))` does (stable for equal keys)."""
    return sorted(items, key=collation_key)
