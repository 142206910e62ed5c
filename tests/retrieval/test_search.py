"""Code-aware tokens, the BM25 searcher, and search by vectors through `Probe(embed=)` (the index's searcher)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from clanka_nb.index import IndexSearcher
from clanka_nb.index._vectors import FILE_NAME
from clanka_nb.retrieval import Probe
from clanka_nb.retrieval.search._search import BM25Searcher, Searcher, resolve_searcher
from clanka_nb.retrieval.search._search_words import code_tokens

from .conftest import ScriptedSearcher, hashed_embed


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


class RecordingEmbedder:
    """`hashed_embed` under a model id, so its vectors go to the vector cache on disk; records what it embeds."""

    model_id = "test:hashed-bag-of-words"

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return hashed_embed(texts)


@pytest.fixture
def cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh vector cache folder: `Probe(embed=)` keeps its vectors in the default cache, here."""
    monkeypatch.setenv("CLANKA_NB_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_embed_searches_the_vector_index_and_embeds_each_text_once(cache_folder: Path):
    embed = RecordingEmbedder()
    searcher = Probe(embed=embed).engine  # the one way to search by vectors
    assert isinstance(searcher, IndexSearcher)
    searcher.index(DOCUMENTS)
    assert searcher.search(DOCUMENTS[1], 2)[0] == 1  # a text is closest to itself
    assert searcher.search_many([DOCUMENTS[3], DOCUMENTS[0]], 1) == [[3], [0]]
    searcher.index([*DOCUMENTS[:2], "a new text"])
    embedded = [text for call in embed.calls for text in call]
    assert sorted(embedded) == sorted({*DOCUMENTS, "a new text"})  # nothing embedded twice
    # The vectors are in the one cache on disk: another probe of the same model embeds nothing.
    assert (cache_folder / FILE_NAME).is_file()
    again = Probe(embed=RecordingEmbedder()).engine
    again.index(DOCUMENTS)
    assert again.embedded == 0


def test_embed_rejects_a_wrong_number_of_vectors(cache_folder: Path):
    searcher = Probe(embed=lambda texts: np.zeros((1, 4))).engine
    with pytest.raises(ValueError, match="one row per text"):
        searcher.index(["a", "b"])


def test_there_is_no_second_embedding_searcher():
    import clanka_nb as cn
    import clanka_nb.retrieval as retrieval

    assert not hasattr(cn, "EmbeddingSearcher") and "EmbeddingSearcher" not in retrieval.__all__
    with pytest.raises(ValueError, match=r"Probe\(embed=embedder\)"):
        resolve_searcher("embedding")


def test_resolve_searcher():
    assert isinstance(resolve_searcher("bm25"), BM25Searcher)
    custom = ScriptedSearcher()
    assert resolve_searcher(custom) is custom
    assert isinstance(custom, Searcher)
    with pytest.raises(ValueError, match="bm25"):
        resolve_searcher("tfidf")
    with pytest.raises(TypeError, match="index"):
        resolve_searcher(object())  # type: ignore[arg-type]
