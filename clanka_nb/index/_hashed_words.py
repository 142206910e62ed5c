"""The hashed-words embedder: the offline stand-in (not a language model) that tests, notebooks and benchmarks use.

No library of its own: hashlib and numpy.
"""

from __future__ import annotations

import hashlib
import re

import numpy as np

from ..engine.settings import checked_keywords

_WORD = re.compile(r"[A-Za-z][a-z]*|[A-Z]+(?![a-z])|\d+")


class HashedWords:
    """A deterministic STAND-IN embedder, not a language model: a hashed bag of identifier words.

    Each text's words (identifiers split at camelCase and underscores, lower-cased) are hashed into
    `dimensions` signed buckets and the counts L2-normalised. Texts sharing words land near each other,
    which is enough to test and demonstrate the index offline; real retrieval needs a real model.
    """

    def __init__(self, dimensions: int = 256) -> None:
        if dimensions < 1:
            msg = f"dimensions must be at least 1, got {dimensions}"
            raise ValueError(msg)
        self.dimensions = dimensions
        self.model_id = f"stand-in/hashed-words-{dimensions}"

    def _bucket(self, word: str) -> tuple[int, float]:
        digest = hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest()
        value = int.from_bytes(digest, "little")
        return value % self.dimensions, 1.0 if value >> 63 else -1.0

    def __call__(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        cache: dict[str, tuple[int, float]] = {}
        for row, text in enumerate(texts):
            for word in _WORD.findall(text):
                word = word.lower()
                bucket = cache.get(word)
                if bucket is None:
                    bucket = cache[word] = self._bucket(word)
                out[row, bucket[0]] += bucket[1]
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1.0, norms)

    def __repr__(self) -> str:
        return f"hashed_words(dimensions={self.dimensions})  # stand-in, not a language model"


@checked_keywords
def hashed_words(dimensions: int = 256) -> HashedWords:
    """The offline stand-in embedder (hashed bag of words) used by the tests, notebook and benchmarks.

    Args:
        dimensions: The vectors' width.

    Returns:
        The embedder, a callable `list[str] -> (n, dimensions) array`.

    Examples:
        >>> index = cn.SemanticIndex(embed=cn.embedders.hashed_words())
    """
    return HashedWords(dimensions)
