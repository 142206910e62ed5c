"""Fidelity round 3: a bare declarator's type, the C library's locale, the reference parser's input limit, Ctrl-C."""

from __future__ import annotations

import locale
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from clanka_nb import engine
from clanka_nb.engine._declarations import REFERENCE_PARSER_LIMIT
from clanka_nb.engine._parsing import INTERRUPTIBLE_FROM, locale_guarded
from tests._shared import NEEDS_CONFORMANCE, as_in_a_terminal

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = ROOT.parent / "shared" / "conformance"


def rows(chunks):
    return [(c.start_line, c.end_line, c.name, c.type) for c in chunks]


# --- a variable_declarator standing alone at declaration level ---


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # Error recovery leaves `variable_declarator` (no lexical_declaration around it) at the top.
        ("let f = () => 1 , , K <", [(1, 1, "f", "function")]),
        ("const g = function () {} , , K <", [(1, 1, "g", "function")]),
        ("let f = 1 , , K <", [(1, 1, "f", "variable")]),
        ("let v = [1] , , K <", [(1, 1, "v", "variable")]),
    ],
)
def test_a_bare_declarator_is_typed_by_its_value_as_the_reference_types_it(source, expected):
    assert rows(engine.chunk_file_content("x.ts", source, chunk_size=30, chunk_overlap=0)) == expected


# --- the reference parser's input limit ---


def _declarations_file(length: int, newline: str = "\n") -> str:
    """A TypeScript file of exactly `length` characters after newline normalisation, full of functions."""
    unit = f"function f() {{{newline}  return 1;{newline}}}{newline}"
    normal = len(unit.replace("\r\n", "\n"))
    body = unit * (length // normal)
    return body + "/" * (length - len(body.replace("\r\n", "\n")) - 1) + newline if length % normal else body


@pytest.mark.parametrize(
    ("length", "windows"),
    [(REFERENCE_PARSER_LIMIT - 1, False), (REFERENCE_PARSER_LIMIT, True), (REFERENCE_PARSER_LIMIT + 7, True)],
    ids=["one-below", "at-the-limit", "above"],
)
def test_a_text_at_the_reference_parsers_limit_gets_line_windows(length, windows):
    text = _declarations_file(length)
    assert len(text) == length
    chunks = engine.chunk_file_content("big.ts", text, chunk_size=30, chunk_overlap=0)
    assert all(c.type is None for c in chunks) is windows
    assert any(c.type == "function" for c in chunks) is not windows


def test_the_limit_counts_utf16_units_after_newline_normalisation():
    # Astral characters are two UTF-16 units: under the limit in code points, at it in units.
    half = REFERENCE_PARSER_LIMIT // 2
    astral = "function f() {}\n// " + "😀" * (half - 10) + "\n"
    assert len(astral) < REFERENCE_PARSER_LIMIT <= engine.js_length(astral)
    assert {c.type for c in engine.chunk_file_content("a.ts", astral, chunk_size=30, chunk_overlap=0)} == {None}
    # CRLF counts once: the reference parses the normalised text.
    crlf = _declarations_file(REFERENCE_PARSER_LIMIT - 1, "\r\n")
    assert len(crlf) > REFERENCE_PARSER_LIMIT
    assert any(c.type == "function" for c in engine.chunk_file_content("c.ts", crlf, chunk_size=30, chunk_overlap=0))


def test_extended_mode_has_no_such_limit():
    text = _declarations_file(REFERENCE_PARSER_LIMIT + 7)
    chunks = engine.chunk_file_content("big.ts", text, chunk_size=30, chunk_overlap=0, languages="extended")
    assert any(c.type == "function" for c in chunks)


def test_explain_says_why_the_long_file_gets_windows():
    text = engine.Codebase.from_texts({"big.ts": _declarations_file(REFERENCE_PARSER_LIMIT)}).text("big.ts")
    first = engine.explain_file(text, engine.ChunkSettings.build(30, 0))[0]
    assert first.rule == "window"
    assert "1,048,576 UTF-16 units" in first.why and "reference's parser" in first.why


# --- the C library's locale ---

# U+3000 is a space to iswspace() in C.UTF-8 and not in "C", where Node (the reference) runs.
LOCALE_REPRODUCER = "let a = 1\u3000\nfunction f() {}"


@pytest.mark.skipif(sys.platform == "win32", reason="Windows' C runtime has no uselocale")
def test_parsing_ignores_the_process_locale_and_leaves_it_as_it_was():
    assert locale_guarded()  # newlocale/uselocale found, and the "C" locale made
    before = locale.setlocale(locale.LC_CTYPE)
    try:
        locale.setlocale(locale.LC_CTYPE, "C.UTF-8")
    except locale.Error:
        pytest.skip("no C.UTF-8 locale on this machine")
    try:
        chunks = engine.chunk_file_content("x.js", LOCALE_REPRODUCER, chunk_size=30, chunk_overlap=0)
        assert rows(chunks) == [(1, 2, "a", "function")]  # the reference's answer, as under LC_ALL=C
        # The engine's other parse (commented-out code, test names) reads the text alike.
        root = engine.syntax_tree(LOCALE_REPRODUCER, "javascript")
        assert [(n.type, n.start_point.row, n.end_point.row) for n in root.named_children] == [
            ("lexical_declaration", 0, 1)
        ]
        assert locale.setlocale(locale.LC_CTYPE) == "C.UTF-8"  # the user's locale is untouched
    finally:
        locale.setlocale(locale.LC_CTYPE, before)


_CHUNK_ALL = textwrap.dedent(
    """
    import gzip, hashlib, json, locale, sys, tempfile, warnings
    from pathlib import Path
    from clanka_nb import engine
    from clanka_nb.engine import _codebase

    warnings.simplefilter("ignore")
    digest = hashlib.sha256()
    ctype = locale.setlocale(locale.LC_CTYPE)
    files = {}
    for path in sys.argv[1:]:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as handle:
            for line in handle:
                case = json.loads(line)
                files.setdefault(case["content"], case["path"])
                for run in case["runs"]:
                    o = run["options"]
                    chunks = engine.chunk_file_content(
                        case["path"], case["content"], chunk_size=o["chunk_size"],
                        chunk_overlap=o["chunk_overlap"], chunk_max_characters=o["chunk_max_characters"],
                    )
                    rows = [(c.path, c.start_line, c.end_line, c.name, c.type, c.parent, c.content) for c in chunks]
                    digest.update(repr(rows).encode("utf-8", "surrogatepass"))
    # Every text again through worker processes (forced, however few), which parse under the locale
    # they start with; a text in a folder of its own, so that names can repeat.
    _codebase.MIN_FILES_FOR_PROCESSES = 0
    with tempfile.TemporaryDirectory() as tmp:
        for index, (content, path) in enumerate(files.items()):
            target = Path(tmp, str(index), Path(path).name)
            target.parent.mkdir(parents=True)
            target.write_bytes(content.encode("utf-8", "surrogatepass"))
        chunks = engine.chunk_codebase(tmp, chunk_size=30, chunk_overlap=0, workers=2, cache=False)
        digest.update(repr([(c.path, c.start_line, c.end_line, c.name, c.type) for c in chunks]).encode())
    print(ctype, locale.setlocale(locale.LC_CTYPE), digest.hexdigest())
    """
)


def _available(name: str) -> bool:
    probe = [sys.executable, "-c", "import locale; print(locale.setlocale(locale.LC_CTYPE))"]
    found = subprocess.run(probe, env={**os.environ, "LC_ALL": name}, capture_output=True, text=True, check=True)
    return found.stdout.strip() == name


def _chunk_all_under(name: str, script: Path) -> str:
    """The digest of every chunk of the conformance files, chunked in a new process under LC_ALL=name."""
    env = {**os.environ, "LC_ALL": name, "PYTHONPATH": str(ROOT), "CLANKA_NB_CACHE": "off"}
    cases = [CONFORMANCE / "cases.jsonl", CONFORMANCE / "round3_cases.jsonl.gz"]
    done = subprocess.run([sys.executable, str(script), *map(str, cases)], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    before, after, digest = done.stdout.split()
    assert before == after == name  # the child really ran in that locale, and parsing left it so
    return digest


@pytest.fixture(scope="module")
def chunk_all(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not all((CONFORMANCE / name).is_file() for name in ("cases.jsonl", "round3_cases.jsonl.gz")):
        pytest.skip(NEEDS_CONFORMANCE)
    script = tmp_path_factory.mktemp("locales") / "chunk_all.py"
    script.write_text(_CHUNK_ALL, encoding="utf-8")
    return script


@pytest.fixture(scope="module")
def c_digest(chunk_all: Path) -> str:
    return _chunk_all_under("C", chunk_all)  # Node's locale: the reference's answers


# C and C.UTF-8 exist everywhere this runs (glibc >= 2.35, musl, macOS); the others only where generated.
@pytest.mark.skipif(sys.platform == "win32", reason="Windows' C runtime has no uselocale")
@pytest.mark.parametrize("name", ["C.UTF-8", "en_US.UTF-8", "sv_SE.UTF-8"])
def test_the_conformance_files_chunk_alike_under_every_locale(name: str, chunk_all: Path, c_digest: str):
    if name != "C.UTF-8" and not _available(name):
        pytest.skip(f"the {name} locale is not installed here (locale -a); C and C.UTF-8 are checked")
    assert _chunk_all_under(name, chunk_all) == c_digest


# --- Ctrl-C inside one long parse ---

# The parse reads its text through a callback in pieces (`_parsing._parse_in_pieces`); here the source is a
# bytes whose slicing counts the pieces read and sends the process a real SIGINT as piece SIGNAL_AT is read.
# Prompt means by an event, not a time: no more than the piece under way is read after Ctrl-C (before, the
# whole text was parsed, then walked, and only then was the KeyboardInterrupt raised).
_LONG_PARSE = textwrap.dedent(
    """
    import os, signal, sys
    from clanka_nb import engine
    from clanka_nb.engine import _parsing

    SIGNAL_AT = 3
    unit = "function f{i}(a, b) {{\\n  const x = [a, b].map(y => y * 2 + {i});\\n  return x;\\n}}\\n"
    text = "".join(unit.format(i=i) for i in range(int(sys.argv[1])))
    reads = []

    class Counted(bytes):
        def __getitem__(self, key):
            reads.append(key)
            if len(reads) == SIGNAL_AT:
                os.kill(os.getpid(), signal.SIGINT)
            return super().__getitem__(key)

    inner = _parsing._parse_in_pieces
    _parsing._parse_in_pieces = lambda parser, source, encoding: inner(parser, Counted(source), encoding)
    pieces = -(-len(text.encode()) // _parsing._PIECE)
    try:
        engine.chunk_file_content("big.js", text, chunk_size=30, chunk_overlap=0, languages="extended")
        print("finished", len(reads), pieces, flush=True)
    except KeyboardInterrupt:
        print("interrupted", len(reads), pieces, flush=True)
    _parsing._parse_in_pieces = inner
    # The same parser again, on another text: nothing of the stopped parse may be resumed.
    again = engine.chunk_file_content("small.js", "function g() {}\\n", chunk_size=30, languages="extended")
    print([(c.start_line, c.end_line, c.name, c.type) for c in again], flush=True)
    """
)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a process is POSIX")
def test_ctrl_c_inside_one_long_parse_takes_effect_promptly(tmp_path: Path):
    script = tmp_path / "long_parse.py"
    script.write_text(_LONG_PARSE, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CLANKA_NB_CACHE": "off"}
    # About 1.9 MB of JavaScript: far above INTERRUPTIBLE_FROM (and PROGRESS_FROM), about 30 pieces.
    done = subprocess.run([sys.executable, str(script), "24000"], capture_output=True, text=True, env=env,
                          timeout=600, check=False, preexec_fn=as_in_a_terminal)  # fmt: skip
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.split("\n")[:2]
    outcome, read, pieces = first.split()
    assert outcome == "interrupted"
    assert int(pieces) >= 20
    # The piece being read when Ctrl-C came, and at most one more call of the callback (py-tree-sitter calls it
    # again with the exception set): none of the 20-odd pieces after it.
    assert int(read) <= 3 + 1, (read, pieces)
    assert second == "[(1, 1, 'g', 'function')]"
    assert INTERRUPTIBLE_FROM < 1_900_000
