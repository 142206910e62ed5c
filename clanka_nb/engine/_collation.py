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


def collation_key(text: str) -> tuple[int, ...]:
    """A sort key under which `sorted` agrees with JavaScript's `a.localeCompare(b)`."""
    return _collator().sort_key(text)


def sorted_like_js(items: list[str]) -> list[str]:
    """Sort strings as `items.sort((a, b) => a.localeCompare(b))` does (stable for equal keys)."""
    return sorted(items, key=collation_key)
