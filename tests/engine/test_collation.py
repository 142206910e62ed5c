"""ICU root collation (JavaScript's localeCompare): the engine's fast key agrees with pyuca and SPEC.md."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
import pyuca
from hypothesis import given, settings
from hypothesis import strategies as st

from clanka_nb.engine._collation import collation_key, sorted_like_js

COLLATOR = pyuca.Collator()

ascii_text = st.text(alphabet=st.characters(codec="ascii"), max_size=20)
# Letters with accents, other scripts, punctuation, emoji and ASCII, mixed.
any_text = st.text(
    alphabet=st.one_of(
        st.characters(codec="ascii"),
        st.sampled_from("éÉèêëàÀçÇñÑöÖüßæøåœ«»¿¡—–…€£¥©°µ中文日本語한국어ΑΒΓαβγЖжщ😀🎉𝒜"),
        st.characters(max_codepoint=0x2FFFF, exclude_categories=("Cs",)),
    ),
    max_size=12,
)


@pytest.mark.parametrize("ch", [chr(cp) for cp in range(128)], ids=lambda c: f"U+{ord(c):04X}")
def test_each_ascii_character_weighs_as_in_pyuca(ch):
    assert collation_key(ch) == tuple(COLLATOR.sort_key(ch))


@settings(max_examples=300, deadline=None)
@given(ascii_text)
def test_ascii_keys_equal_pyuca_keys(text):
    assert collation_key(text) == tuple(COLLATOR.sort_key(text))


@settings(max_examples=200, deadline=None)
@given(any_text)
def test_non_ascii_keys_equal_pyuca_keys(text):
    assert collation_key(text) == tuple(COLLATOR.sort_key(text))


@settings(max_examples=300, deadline=None)
@given(st.one_of(ascii_text, any_text), st.one_of(ascii_text, any_text))
def test_pairs_compare_as_pyuca_compares_them(a, b):
    # Mixed ASCII / non-ASCII pairs take different code paths in the engine; their order must still agree.
    ka, kb = collation_key(a), collation_key(b)
    pa, pb = tuple(COLLATOR.sort_key(a)), tuple(COLLATOR.sort_key(b))
    assert (ka < kb, ka == kb) == (pa < pb, pa == pb)


@pytest.mark.parametrize(
    "ordered",
    [
        ["a", "B", "c"],  # case-insensitive first
        ["10", "9"],  # digits compare one by one
        ["e", "E", "é"],  # then accents, then case with lower first
        ["éa", "eb"],  # accents only break ties left by the letters
        ["_", "0", "a"],  # punctuation, then digits, then letters
        ["$", "0"],  # currency symbols still before digits
        ["a", "a-b", "ab"],
        ["file.ts", "File.ts", "file2.ts"],
    ],
)
def test_documented_orderings(ordered):
    shuffled = list(reversed(ordered))
    assert sorted_like_js(shuffled) == ordered
    keys = [collation_key(s) for s in ordered]
    assert all(a < b for a, b in pairwise(keys))


def test_punctuation_and_symbol_order_from_the_spec():
    order = "_ - , ; : ! ? . ' \" ( ) [ ] { } @ * / \\ & # % ` ^ + < = > | ~ $".split(" ")
    shuffled = order[:]
    random.Random(7).shuffle(shuffled)
    assert sorted_like_js(shuffled) == order


def test_plain_sorted_would_be_wrong():
    names = ["b", "B", "a", "_z", "10", "9"]
    assert sorted_like_js(names) == ["_z", "10", "9", "a", "b", "B"]
    assert sorted(names) != sorted_like_js(names)


def test_strings_with_equal_keys_keep_their_order():
    # A control character is ignorable, so these compare equal (localeCompare returns 0); the sort is stable.
    assert collation_key("a\x01b") == collation_key("ab")
    assert sorted_like_js(["a\x01b", "ab"]) == ["a\x01b", "ab"]
    assert sorted_like_js(["ab", "a\x01b"]) == ["ab", "a\x01b"]
