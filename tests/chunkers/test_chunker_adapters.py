"""Each adapter puts every chunk on the lines it came from, on a .ts, a .py and a .md file."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clanka_nb import chunkers, engine
from clanka_nb.extras import MissingExtraError
from tests.chunkers._files import FILES, PEER_MODULES, need_peer

# Small enough to cut every file in several chunks; astchunk's unit needs the ratio of the two counts.
BUDGET = chunkers.Budget(200, characters_per_non_whitespace=1.3)


def lines_of(text: str, start: int, end: int) -> str:
    return "\n".join(text.split("\n")[start - 1 : end])


def assert_placed(text: str, span: chunkers.Span, piece: str) -> None:
    """The span's lines hold the chunk's text (less its outer whitespace), starting on its first line and
    ending on its last: the span is where the chunk is, no wider."""
    block = lines_of(text, span.start_line, span.end_line)
    core = piece.strip()
    at = block.find(core)
    assert at >= 0, f"lines {span.start_line}..{span.end_line} do not hold {core[:60]!r}"
    rows = block.split("\n")
    assert at <= len(rows[0]), "the chunk starts after the span's first line"
    assert at + len(core) >= len(block) - len(rows[-1]), "the chunk ends before the span's last line"


@pytest.mark.parametrize("name", sorted(PEER_MODULES))
@pytest.mark.parametrize("path", sorted(FILES))
def test_every_chunk_of_a_peer_is_on_its_lines(name: str, path: str) -> None:
    need_peer(name)
    adapter = chunkers.PEERS[name](BUDGET)
    text = FILES[path]
    spans = adapter(path, text)
    pieces = adapter.texts(path, text)
    if name == "astchunk" and path.endswith(".md"):
        assert spans is None and pieces is None  # astchunk has no Markdown grammar: not handled, said so
        return
    assert spans is not None and pieces is not None
    pieces = [piece for piece in pieces if piece.strip()]
    assert len(spans) == len(pieces) > 1
    for span, piece in zip(spans, pieces, strict=True):
        assert_placed(text, span, piece)
    assert [s.start_line for s in spans] == sorted(s.start_line for s in spans)


@pytest.mark.parametrize("name", sorted(PEER_MODULES))
def test_a_peer_is_sized_by_its_stated_parameters(name: str) -> None:
    need_peer(name)
    adapter = chunkers.PEERS[name](BUDGET)
    stated = chunkers.peer_parameters(BUDGET)[name]
    assert {k: v for k, v in adapter.parameters.items() if k != "version"} == stated
    assert adapter.parameters["version"]


@pytest.mark.parametrize("path", sorted(FILES))
def test_clanka_gives_the_engines_chunks(path: str) -> None:
    text = FILES[path]
    spans = chunkers.clanka(chunk_size=8)(path, text)
    expected = [(c.start_line, c.end_line, c.name, c.type, c.parent)
                for c in engine.chunk_file_content(path, text, chunk_size=8)]  # fmt: skip
    assert [tuple(span) for span in spans] == expected
    assert spans


def test_line_windows_are_clankas_fallback_for_every_file() -> None:
    # A TypeScript file's windows are the engine's chunks of the same text under a name it has no grammar for.
    text = FILES["src/inventory.ts"]
    windows = chunkers.line_windows(chunk_size=8, chunk_overlap=2)("src/inventory.ts", text)
    plain = engine.chunk_file_content("src/inventory.txt", text, chunk_size=8, chunk_overlap=2)
    assert [(s.start_line, s.end_line) for s in windows] == [(c.start_line, c.end_line) for c in plain]
    assert all(s.name is None for s in windows)
    declared = chunkers.clanka(chunk_size=8, chunk_overlap=2)("src/inventory.ts", text)
    assert windows != declared


def test_line_windows_keep_the_character_limit() -> None:
    text = FILES["stock/items.py"]
    for span in chunkers.line_windows(chunk_size=30, chunk_max_characters=120)("stock/items.py", text):
        block = lines_of(text, span.start_line, span.end_line)
        assert len(block) <= 120 or span.start_line == span.end_line


@pytest.mark.parametrize("name", sorted(PEER_MODULES))
def test_a_missing_peer_is_one_error_naming_the_extra(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, PEER_MODULES[name], None)  # absent, as Python marks a failed import
    with pytest.raises(MissingExtraError, match=r"pip install 'clanka-nb\[chunkers\]'") as caught:
        chunkers.PEERS[name](BUDGET)
    assert caught.value.extra == "chunkers"
    assert "\n" not in str(caught.value)


NO_NETWORK = """
import importlib.util
import sys
tried = []
def refuse(event, args):
    if event in ("socket.connect", "socket.getaddrinfo", "urllib.Request"):
        tried.append(event)
        raise ConnectionRefusedError(f"no network at run time ({event})")
sys.addaudithook(refuse)
from clanka_nb import chunkers
from tests.chunkers._files import FILES
budget = chunkers.Budget(200, characters_per_non_whitespace=1.3)
for name in sys.argv[1:]:
    adapter = chunkers.PEERS[name](budget)
    for path, text in FILES.items():
        adapter(path, text)
print(len(tried))
"""


def test_no_peer_touches_the_network() -> None:
    installed = [name for name in sorted(PEER_MODULES) if importlib.util.find_spec(PEER_MODULES[name])]
    if not installed:
        need_peer("chonkie")  # skips (or fails where CI requires the extra) with the one line
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run([sys.executable, "-c", NO_NETWORK, *installed], capture_output=True, text=True,
                            env=env, cwd=root, timeout=300)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-1] == "0"


# A small fixture's queries: recall is flat at every setting, and says so.
@pytest.mark.filterwarnings("ignore::clanka_nb.retrieval.FlatRecallWarning")
def test_astchunk_cuts_nothing_of_go_and_the_bake_off_says_so(tmp_path) -> None:
    """Issue 52: astchunk has no Go grammar, so every Go file falls back to clanka's line windows; the sweep names
    that ("astchunk: no Go grammar, clanka's cut there") and leaves its row out of the verdict's ranking."""
    need_peer("astchunk")
    pytest.importorskip("bm25s")
    import clanka_nb as cn

    for index in range(4):
        (tmp_path / f"pay{index}.go").write_text(
            f"package pay\n\n// Charges the card of customer number {index} for the basket total.\n"
            f"func Charge{index}(total int) int {{\n\treturn total + {index}\n}}\n"
        )
    table = cn.sweep(tmp_path, chunk_size=[10], languages="extended", probe=cn.Probe(reference=False),
                     progress=False, chunkers={"astchunk": cn.chunkers.astchunk()})  # fmt: skip
    row = table.iloc[1]
    assert (row["chunker_label"], row["fallback_files"], row["uncut_languages"]) == ("astchunk", 4, "go")
    assert not row["ranked"]
    assert table.attrs["unranked"] == {"1": "astchunk: no Go grammar, clanka's cut there"}
    assert table.attrs["verdict"]["columns"] == [0]
