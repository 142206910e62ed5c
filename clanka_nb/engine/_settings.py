"""Chunk settings: validated when built, clamped exactly as the reference clamps them."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

DEFAULT_CHUNK_SIZE = 30
DEFAULT_CHUNK_OVERLAP = 0


def _integer(name: str, value: object) -> int:
    if isinstance(value, float) and math.isnan(value):
        msg = f"{name} is NaN; pass a whole number of lines such as {name}=30"
        raise ValueError(msg)
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        msg = f"{name} must be an int (a number of lines), got {type(value).__name__} {value!r}; pass e.g. {name}=30"
        raise TypeError(msg)
    return int(value)


def _max_characters(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        msg = (
            f"chunk_max_characters must be a number or None, got {type(value).__name__} {value!r}; "
            "pass e.g. chunk_max_characters=2000, or None for no limit"
        )
        raise TypeError(msg)
    if math.isnan(value):
        msg = "chunk_max_characters is NaN; pass a number of characters, or None (or math.inf) for no limit"
        raise ValueError(msg)
    if math.isinf(value):
        return None if value > 0 else 1
    return max(1, math.floor(value))


@dataclass(frozen=True, slots=True)
class ChunkSettings:
    """The three chunking settings, as the reference uses them after clamping.

    `requested_*` keep what was asked for, so tables can show where clamping changed a value.
    """

    chunk_size: int
    chunk_overlap: int
    chunk_max_characters: int | None
    requested_size: int
    requested_overlap: int

    @classmethod
    def build(
        cls,
        chunk_size: object = DEFAULT_CHUNK_SIZE,
        chunk_overlap: object = DEFAULT_CHUNK_OVERLAP,
        chunk_max_characters: object = None,
    ) -> ChunkSettings:
        size = _integer("chunk_size", chunk_size)
        overlap = _integer("chunk_overlap", chunk_overlap)
        limit = _max_characters(chunk_max_characters)
        clamped_size = max(1, size)
        clamped_overlap = max(0, min(clamped_size - 1, overlap))
        return cls(clamped_size, clamped_overlap, limit, size, overlap)

    @property
    def clamped(self) -> bool:
        """True when the reference would not use the size or overlap as requested."""
        return self.chunk_size != self.requested_size or self.chunk_overlap != self.requested_overlap
