"""Helpers for the probe tests: a deterministic fake embedding and a searcher that records what it indexes."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from clanka_nb.retrieval.search._search_words import code_tokens

DIMENSIONS = 256


def hashed_embed(texts: list[str]) -> np.ndarray:
    """Bag-of-words vectors: each code token adds 1 to a dimension chosen by its hash (no model)."""
    vectors = np.zeros((len(texts), DIMENSIONS))
    for row, text in enumerate(texts):
        for token in code_tokens(text):
            vectors[row, int(hashlib.md5(token.encode()).hexdigest(), 16) % DIMENSIONS] += 1
    return vectors


class ScriptedSearcher:
    """Records the indexed texts; a query "w1 w2 …" returns the first text holding each word, in that order.

    So the rank of a text is known by construction from the query alone.
    """

    def __init__(self) -> None:
        self.texts: list[str] = []

    def index(self, texts: Sequence[str]) -> None:
        self.texts = list(texts)

    def search(self, query: str, k: int) -> list[int]:
        ids: list[int] = []
        for word in query.split():
            found = next((i for i, text in enumerate(self.texts) if word in text.split()), None)
            if found is not None and found not in ids:
                ids.append(found)
        return ids[:k]
