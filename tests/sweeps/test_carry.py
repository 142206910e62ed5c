"""Issue 53 item 2: what applies a chosen setting in clanka, by kind of user (clanka at 805d349)."""

from __future__ import annotations

from clanka_nb.sweeps.internals import Chosen, carry_back


def test_clanka_s_own_setting_kept_is_its_default() -> None:
    carry = carry_back(Chosen(30, 0, 10_000, "clanka", kept=True))
    assert carry.semantic_search == "SemanticSearch.layer({ directory, chunkMaxCharacters: 10_000 })"
    assert carry.code_chunker == "{ chunkSize: 30, chunkOverlap: 0, chunkMaxCharacters: 10_000 }"
    assert carry.change_needed is None and carry.clause.startswith("its default, nothing to change")


def test_another_character_limit_is_the_layer_s_one_option() -> None:
    carry = carry_back(Chosen(30, 0, 2000, "clanka"))
    assert carry.semantic_search == "SemanticSearch.layer({ directory, chunkMaxCharacters: 2_000 })"
    assert carry.change_needed is None and carry.semantic_search in carry.clause
    unlimited = carry_back(Chosen(30, 0, None, "clanka"))
    assert unlimited.semantic_search is not None and "chunkMaxCharacters: Infinity" in unlimited.semantic_search
    assert unlimited.code_chunker == "{ chunkSize: 30, chunkOverlap: 0 }"  # no chunkMaxCharacters: no limit


def test_another_size_or_overlap_needs_resolve_chunk_config_changed() -> None:
    carry = carry_back(Chosen(60, 5, 10_000, "clanka"))
    assert carry.semantic_search is None
    assert carry.code_chunker == "{ chunkSize: 60, chunkOverlap: 5, chunkMaxCharacters: 10_000 }"
    assert carry.change_needed is not None and "resolveChunkConfig in src/SemanticSearch.ts" in carry.change_needed
    assert carry.code_chunker in carry.clause and carry.change_needed in carry.clause


def test_extended_mode_and_other_chunkers_need_clanka_changed() -> None:
    extended = carry_back(Chosen(30, 0, 10_000, "extended"))
    assert extended.semantic_search is None and extended.code_chunker is None
    assert extended.change_needed is not None and "TS/JS only" in extended.change_needed
    peer = carry_back(Chosen(None, None, None, "clanka", chunker="astchunk"))
    assert peer.change_needed is not None and "astchunk" in peer.change_needed


def test_a_row_s_settings_read_once() -> None:
    chosen = Chosen.of({"chunk_size": 20, "chunk_overlap": 0, "chunk_max_characters": None, "languages": "extended"})
    assert chosen == Chosen(20, 0, None, "extended")
    assert chosen.words() == 'chunk_size=20, chunk_overlap=0, no character limit, languages="extended"'
