"""Sweep token figures from a real tokenizer: tokens of each chunk's embedding input, and the share over a limit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import engine
from ..engine._embedding import embedding_text, input_hash
from ..index._tokens import TokenCounter
from ._stats import _summary


def remembering(counter: TokenCounter) -> TokenCounter:
    """`counter`, counting each distinct text once: most embedding inputs are the same at many settings.

    Counts are kept by the text's SHA-256 (clanka's key of an input) for as long as the returned
    counter lives: one sweep, or one partition of a Dask sweep.
    """
    known: dict[str, int] = {}

    def count_many(texts: Sequence[str]) -> list[int]:
        keys = [input_hash(text) for text in texts]
        fresh: dict[str, str] = {}
        for key, text in zip(keys, texts, strict=True):
            if key not in known:
                fresh.setdefault(key, text)
        if fresh:
            known.update(zip(fresh, counter.count_many(list(fresh.values())), strict=True))
        return [known[key] for key in keys]

    return TokenCounter(counter.name, count_many, estimated=counter.estimated)


def input_tokens(
    codebase: engine.Codebase, paths: Sequence[str], settings: engine.ChunkSettings, counter: TokenCounter
) -> np.ndarray:
    """The tokens of each chunk's embedding input at one setting, in chunk order (also the Dask sweep's)."""
    texts = [
        embedding_text(c.path, c.start_line, c.name, c.type, c.parent, c.content)
        for path in paths
        for c in codebase.file_chunks(path, settings)
    ]
    return np.asarray(counter.count_many(texts), dtype=np.float64)


def input_token_columns(
    codebase: engine.Codebase, paths: Sequence[str], settings: engine.ChunkSettings, counter: TokenCounter,
    limit: int | None,
) -> dict[str, Any]:
    """tokens_mean, tokens_p95, tokens_total (and over_limit, the share of chunks over `limit`) at one setting."""
    tokens = input_tokens(codebase, paths, settings, counter)
    mean, _, p95 = _summary(tokens)
    row: dict[str, Any] = {"tokens_mean": mean, "tokens_p95": p95, "tokens_total": float(tokens.sum())}
    if limit is not None:
        row["over_limit"] = float((tokens > limit).mean()) if len(tokens) else None
    return row
