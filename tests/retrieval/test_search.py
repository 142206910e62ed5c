"""Code-aware tokens, the BM25 searcher and the embedding searcher."""

from __future__ import annotations

import numpy as np
import pytest

from clanka_nb.retrieval._search import BM25Searcher, EmbeddingSearcher, Searcher, resolve_searcher
from clanka_nb.retrieval._search_words import code_tokens

from .conftest import hashed_embed


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("getUserName", ["get", "user", "name", "getusername"]),
        ("MAX_SIZE", ["max", "size", "max_size"]),
        ("parseHTTPResponse", ["parse", "http", "response", "parsehttpresponse"]),
        ("Vector3", ["vector", "vector3"]),
        ("12: the x of a value", ["value"]),  # numbers, one-letter words and stopwords drop out
        ("größe_berechnen", ["größe", "berechnen", "größe_berechnen"]),
    ],
)
def test_code_tokens(text, expected):
    assert code_tokens(text) == expected


def test_code_tokens_of_a_text_are_the_tokens_of_its_lines():
    text = "const userName = getUser()\n  return userName.length"
    assert code_tokens(text) == [t for line in text.split("\n") for t in code_tokens(line)]


DOCUMENTS = [
    "function getUserName(user) { return user.name }",
    "function setPrice(item, cents) { item.price = cents }",
    "const MAX_RETRIES = 3",
    "function userCount(users) { return users.length }",
]


def test_bm25_ranks_the_document_sharing_the_rare_token_first_and_leaves_out_non_matches():
    searcher = BM25Searcher()
    searcher.index(DOCUMENTS)
    assert searcher.search("max retries", 10) == [2]  # no other document shares a token
    assert searcher.search("get the user name", 10)[0] == 0
    assert set(searcher.search("user", 10)) == {0, 3}
    assert searcher.search("nothing matches", 10) == []
    assert searcher.search_many(["price", "max retries"], 1) == [[1], [2]]


def test_bm25_needs_an_index_and_a_positive_k():
    searcher = BM25Searcher()
    with pytest.raises(RuntimeError, match="index"):
        searcher.search("x", 3)
    searcher.index(DOCUMENTS)
    with pytest.raises(ValueError, match="positive"):
        searcher.search("user", 0)


def test_embedding_searcher_ranks_by_cosine_and_embeds_each_text_once():
    calls: list[list[str]] = []

    def embed(texts: list[str]) -> np.ndarray:
        calls.append(list(texts))
        return hashed_embed(texts)

    searcher = EmbeddingSearcher(embed)
    searcher.index(DOCUMENTS)
    assert searcher.search(DOCUMENTS[1], 2)[0] == 1  # a text is closest to itself
    assert searcher.search_many([DOCUMENTS[3], DOCUMENTS[0]], 1) == [[3], [0]]
    searcher.index([*DOCUMENTS[:2], "a new text"])
    embedded = [text for call in calls for text in call]
    assert sorted(embedded) == sorted({*DOCUMENTS, "a new text"})  # nothing embedded twice


def test_embedding_searcher_rejects_a_wrong_number_of_vectors():
    searcher = EmbeddingSearcher(lambda texts: np.zeros((1, 4)))
    with pytest.raises(ValueError, match="one vector per text"):
        searcher.index(["a", "b"])


def test_resolve_searcher():
    assert isinstance(resolve_searcher("bm25"), BM25Searcher)
    custom = EmbeddingSearcher(hashed_embed)
    assert resolve_searcher(custom) is custom
    assert isinstance(custom, Searcher)
    with pytest.raises(ValueError, match="bm25"):
        resolve_searcher("tfidf")
    with pytest.raises(TypeError, match="index"):
        resolve_searcher(object())  # type: ignore[arg-type]
