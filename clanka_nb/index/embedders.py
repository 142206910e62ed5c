"""Embedders: any callable `list[str] -> (n, d) array` works; these build common ones."""

from __future__ import annotations

# The public face of `cn.embedders` (its docstring is the reference page's): each family is a module of its own,
# the one place its library is imported and described (docs/architecture.md, "Adding an embedder").
from ._hashed_words import HashedWords as HashedWords
from ._hashed_words import hashed_words
from ._model2vec import Model2VecEmbedder, model2vec
from ._openai import DEFAULT_CONCURRENCY as DEFAULT_CONCURRENCY
from ._openai import EmbeddingServerError, OpenAIEmbedder, openai
from ._sentence_transformers import BACKENDS as BACKENDS
from ._sentence_transformers import QUANTIZE as QUANTIZE
from ._sentence_transformers import SentenceTransformersEmbedder, sentence_transformers
from ._sentence_transformers import available_cpus as available_cpus

# What users call. The names imported `as` themselves are reachable here too, as they were before the embedders
# were split into their modules (`embedders.HashedWords` in annotations, `embedders.available_cpus()`).
__all__ = [
    "EmbeddingServerError", "Model2VecEmbedder", "OpenAIEmbedder", "SentenceTransformersEmbedder", "hashed_words",
    "model2vec", "openai", "sentence_transformers",
]
