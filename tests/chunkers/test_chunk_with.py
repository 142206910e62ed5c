"""chunk_with gives every chunker the files the engine lists, as the engine reads them, and times the calls."""

from __future__ import annotations

import math

import pytest

from clanka_nb import chunkers, engine
from clanka_nb.bundled import sample_codebase
from tests.chunkers._files import FILES


def test_every_file_the_engine_lists_and_nothing_else(folder) -> None:
    (folder / "data.bin").write_bytes(b"\x00\x01")  # not a name the engine lists
    seen: list[str] = []
    result = chunkers.chunk_with(lambda p, t: seen.append(p) or [], folder, label="spy")
    assert sorted(seen) == sorted(engine.list_files(folder)) == sorted(FILES)
    assert list(result.spans) == seen and result.unhandled == () and result.unread == ()
    assert result.seconds >= 0 and math.isfinite(result.seconds)


def test_clanka_through_chunk_with_is_the_engines_codebase() -> None:
    result = chunkers.chunk_with(chunkers.clanka(), sample_codebase())
    chunks = engine.chunk_codebase(sample_codebase(), cache=False)
    assert [(p, s.start_line, s.end_line, s.name) for p, spans in result.spans.items() for s in spans] == [
        (c.path, c.start_line, c.end_line, c.name) for c in chunks]  # fmt: skip
    assert result.chunk_count > 0 and result.parameters["chunk_size"] == 30


def test_a_codebase_one_file_and_texts_are_sources_too(folder) -> None:
    windows = chunkers.line_windows(chunk_size=5)
    from_folder = chunkers.chunk_with(windows, folder).spans
    assert chunkers.chunk_with(windows, engine.Codebase(folder, cache=False)).spans == from_folder
    assert chunkers.chunk_with(windows, FILES).spans == from_folder
    assert chunkers.chunk_with(windows, engine.Codebase.from_texts(FILES)).spans == from_folder
    one = chunkers.chunk_with(windows, folder / "README.md").spans
    assert one == {"README.md": from_folder["README.md"]}
    with pytest.raises(FileNotFoundError, match="neither a folder nor a file"):
        chunkers.chunk_with(windows, folder / "nowhere")


def test_newlines_are_the_engines(folder) -> None:
    (folder / "stock" / "items.py").write_bytes(FILES["stock/items.py"].replace("\n", "\r\n").encode())
    lf = chunkers.chunk_with(chunkers.clanka(chunk_size=5), FILES).spans
    crlf = chunkers.chunk_with(chunkers.clanka(chunk_size=5), folder).spans
    assert crlf == lf


def test_each_chunker_gets_the_same_texts(folder) -> None:
    got: dict[str, dict[str, str]] = {}

    def spy(label: str) -> chunkers.Adapter:
        return chunkers.Adapter(label, lambda p, t: got.setdefault(label, {}).update({p: t}) or [])

    results = chunkers.chunk_with_each([spy("a"), spy("b"), chunkers.clanka()], folder)
    assert [r.label for r in results] == ["a", "b", "clanka"]
    assert got["a"] == got["b"] == FILES


def test_budget_units_convert_and_say_what_they_need() -> None:
    assert chunkers.Budget(1000).characters == 1000
    assert chunkers.Budget(1000).tokens == 250  # the engine's chars/4 estimate
    assert chunkers.Budget(100, "tokens").characters == 400
    nws = chunkers.Budget(800, "non_whitespace", characters_per_non_whitespace=1.25)
    assert (nws.non_whitespace, nws.characters, str(nws)) == (800, 1000, "800 non-whitespace characters")
    with pytest.raises(ValueError, match="measured_on"):
        _ = chunkers.Budget(800, "non_whitespace").characters
    with pytest.raises(ValueError, match="unit must be one of"):
        chunkers.Budget(10, "lines")
    with pytest.raises(ValueError, match="at least 1"):
        chunkers.Budget(0)


def test_a_budget_measured_on_a_folder(folder) -> None:
    measured = chunkers.Budget(500, "non_whitespace").measured_on(folder)
    texts = FILES.values()
    ratio = sum(map(len, texts)) / sum(map(chunkers.non_whitespace, texts))
    assert measured.characters_per_non_whitespace == pytest.approx(ratio)
    assert measured.characters == math.floor(500 * ratio)


def test_peer_parameters_state_each_peers_own_size_without_the_peers() -> None:
    budget = chunkers.Budget(1000, "non_whitespace", characters_per_non_whitespace=1.5)
    table = chunkers.peer_parameters(budget)
    assert set(table) == set(chunkers.PEERS)
    assert table["astchunk"]["max_chunk_size"] == 1000  # cAST's own unit
    assert table["chonkie"]["chunk_size"] == table["langchain"]["chunk_size"] == 1500
    assert table["llama_index"]["max_chars"] == table["semantic_text_splitter"]["capacity"] == 1500
    assert all("unit" in row for row in table.values())
