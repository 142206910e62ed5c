"""ICU root collation (JavaScript's `localeCompare`) for chunk tie order and file order."""

from __future__ import annotations

from functools import cache
from typing import cast

import icu

# `a.localeCompare(b)` in Node is an ICU collator for the root locale at its defaults (tertiary
# strength: base letters, then accents, then case with lower first; punctuation and symbols not
# ignored) with canonical normalisation switched on, which V8 does so that canonically equivalent
# strings compare equal. ICU sort keys compare as bytes exactly as the collator compares strings.
# ICU itself does the work: no fast path, since getSortKey costs about 2 µs per string.


@cache
def _collator() -> icu.Collator:
    collator = icu.Collator.createInstance(icu.Locale.getRoot())
    collator.setAttribute(icu.UCollAttribute.NORMALIZATION_MODE, icu.UCollAttributeValue.ON)
    return collator


ICU_VERSION: str = icu.ICU_VERSION
"""The version of the ICU library doing the collation (the reference's Node 20 LTS has ICU 78)."""


def collation_key(text: str) -> bytes:
    """A sort key under which `sorted` agrees with JavaScript's `a.localeCompare(b)`."""
    return cast("bytes", _collator().getSortKey(text))


def sorted_like_js(items: list[str]) -> list[str]:
    """Sort strings as `items.sort((a, b) => a.localeCompare(b))` does (stable for equal keys)."""
    return sorted(items, key=collation_key)
