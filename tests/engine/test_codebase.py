"""Codebase: parse once and re-chunk at any settings, same chunks and order as the one-shot functions."""

from __future__ import annotations

from pathlib import Path

import pytest

from clanka_nb.engine import (
    ChunkSettings,
    Codebase,
    Declaration,
    FileStatus,
    _declarations,
    chunk_codebase,
    chunk_file_content,
    chunk_files,
    list_files,
)

SETTINGS = [
    {},
    {"chunk_size": 2, "chunk_overlap": 1},
    {"chunk_size": 5, "chunk_overlap": 0, "chunk_max_characters": 20},
    {"chunk_size": 1},
    {"chunk_size": 4, "chunk_overlap": 9, "chunk_max_characters": 1},
]

TEXTS = {
    "src/shelf.ts": (
        "// A shelf\nexport class Shelf {\n  add(book) {\n    return book\n  }\n}\nexport const limit = 10\n"
    ),
    "src/card.tsx": "export const Card = () => <div>hi</div>\n",
    "lib/old.js": "function legacy(a) {\n  return a + 1\n}\n",
    "lib/app.jsx": "export function App() {\n  return <p/>\n}\n",
    "docs/guide.md": "# Guide\n\nSome words.\n\n## More\n\nText here.\n",
    "lib/esm.mjs": "export function esm() {\n  return 1\n}\n",
}


class CountingParser:
    """Wraps a tree-sitter parser and records every parse."""

    def __init__(self, parser, calls: list[int]):
        self._parser, self._calls = parser, calls

    def parse(self, *args, **kwargs):
        self._calls.append(1)
        return self._parser.parse(*args, **kwargs)


@pytest.fixture
def parses(monkeypatch) -> list[int]:
    calls: list[int] = []
    for factory in ("parser_for", "reference_parser"):  # extended mode's parsers and clanka mode's
        real = getattr(_declarations, factory)
        monkeypatch.setattr(_declarations, factory, lambda grammar, real=real: CountingParser(real(grammar), calls))
    return calls


def write_tree(root: Path, texts: dict[str, str]) -> Path:
    for rel, content in texts.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return root


def expected_chunks(texts: dict[str, str], **settings):
    return [c for path, content in texts.items() for c in chunk_file_content(path, content, **settings)]


# --- parse once ---------------------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.SettingClampedWarning")  # settings out of range, on purpose
def test_rechunking_from_texts_never_parses_again(parses):
    expected = {i: expected_chunks(TEXTS, **s) for i, s in enumerate(SETTINGS)}
    parses.clear()
    codebase = Codebase.from_texts(TEXTS)
    assert len(parses) == 4  # .ts, .tsx, .js, .jsx; markdown and .mjs are never parsed
    for i, s in enumerate(SETTINGS):
        assert codebase.chunks(**s) == expected[i]
    assert len(parses) == 4


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.SettingClampedWarning")  # settings out of range, on purpose
def test_rechunking_a_folder_never_parses_again(tmp_path, parses):
    write_tree(tmp_path, TEXTS)
    codebase = Codebase(tmp_path, workers=1)
    assert len(parses) == 4
    for s in SETTINGS:
        codebase.chunks(**s)
        for path in codebase.files:
            codebase.file_chunks(path, ChunkSettings.build(**s))
    assert len(parses) == 4


# --- same chunks, same order --------------------------------------------------------------------------


@pytest.fixture
def tree(tmp_path) -> Path:
    texts = {
        **TEXTS,
        "b.ts": "export const b = 1\n",
        "A.ts": "export function a() {\n  return 1\n}\n",
        "_u.js": "var u = 1\n",
        "10.md": "ten\n",
        "9.md": "nine\n",
        "Z/y.tsx": "export const Y = () => <b/>\n",
        "empty.ts": "\n \n",
    }
    return write_tree(tmp_path, texts)


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.SettingClampedWarning")  # settings out of range, on purpose
@pytest.mark.parametrize("settings", SETTINGS, ids=str)
def test_codebase_chunks_equal_chunk_codebase_in_order(tree, settings):
    codebase = Codebase(tree)
    assert codebase.files == list_files(tree)
    chunks = codebase.chunks(**settings)
    assert chunks == list(chunk_codebase(tree, **settings))
    # Files follow each other in listing order; a file's chunks are contiguous.
    seen = [c.path for i, c in enumerate(chunks) if i == 0 or chunks[i - 1].path != c.path]
    assert seen == [p for p in codebase.files if p in seen]


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.SettingClampedWarning")  # settings out of range, on purpose
def test_codebase_chunks_equal_each_file_chunked_alone(tree):
    codebase = Codebase(tree)
    texts = {p: (tree / p).read_text(encoding="utf-8") for p in codebase.files}
    for s in SETTINGS:
        assert codebase.chunks(**s) == expected_chunks(texts, **s)
        for path in codebase.files:
            assert codebase.file_chunks(path, ChunkSettings.build(**s)) == chunk_file_content(path, texts[path], **s)


def test_two_workers_give_the_same_chunks_and_reports_as_one(tree):
    one, two = Codebase(tree, workers=1), Codebase(tree, workers=2)
    assert two.files == one.files
    assert two.reports == one.reports
    for s in SETTINGS[:3]:
        assert two.chunks(**s) == one.chunks(**s)
        assert list(chunk_codebase(tree, workers=2, **s)) == one.chunks(**s)
        assert list(chunk_files(tree, one.files, workers=2, **s)) == one.chunks(**s)


def test_named_paths_keep_the_order_given(tree):
    codebase = Codebase(tree, paths=["b.ts", "A.ts"])
    assert codebase.files == ["b.ts", "A.ts"]
    assert [c.name for c in codebase.chunks()] == ["b", "a"]


@pytest.mark.parametrize("workers", [1, 2])
def test_progress_is_told_once_per_file(tree, workers):
    calls: list[int] = []
    codebase = Codebase(tree, progress=calls.append, workers=workers)
    assert calls == [1] * len(codebase.files)


def test_max_file_size_is_passed_to_the_listing(tmp_path):
    write_tree(tmp_path, {"small.ts": "const a = 1\n", "big.ts": "const b = 1\n" * 20})
    assert Codebase(tmp_path, max_file_size=100).files == ["small.ts"]


# --- reports and prepared texts -------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.NothingToChunkWarning")  # a file or folder that gives no chunks
@pytest.mark.filterwarnings("ignore::clanka_nb.engine.UnreadableFileWarning")  # a file that cannot be read, on purpose
def test_a_report_for_every_status(tmp_path):
    write_tree(
        tmp_path,
        {
            "code.ts": "export const a = 1\n",
            "blank.ts": " \t\n\n",
            "min.js": "var a=1;" * 400,
            "rules.md": "---\n// *\n",
        },
    )
    (tmp_path / "folder.ts").mkdir()
    (tmp_path / "Makefile").write_text("all:\n")
    paths = ["code.ts", "blank.ts", "min.js", "rules.md", "gone.ts", "folder.ts", "Makefile"]
    codebase = Codebase(tmp_path, paths=paths)
    assert codebase.files == paths
    assert [r.path for r in codebase.reports] == paths
    assert [r.status for r in codebase.reports] == [
        FileStatus.CHUNKED,
        FileStatus.EMPTY,
        FileStatus.MINIFIED,
        FileStatus.NOTHING_MEANINGFUL,
        FileStatus.UNREADABLE,
        FileStatus.UNREADABLE,
        FileStatus.NOT_INDEXED,
    ]
    for report in codebase.reports:
        assert (report.reason is None) is (report.status is FileStatus.CHUNKED)
    assert codebase.report("code.ts").bytes == len("export const a = 1\n")
    assert codebase.report("min.js").bytes == 8 * 400
    assert [c.path for c in codebase.chunks()] == ["code.ts"]


def test_from_texts_reports_every_text(tmp_path):
    codebase = Codebase.from_texts({"a.ts": "const a = 1", "b.md": "", "c.md": "***", "d.js": "x=1;" * 600})
    assert [(r.path, r.status) for r in codebase.reports] == [
        ("a.ts", FileStatus.CHUNKED),
        ("b.md", FileStatus.EMPTY),
        ("c.md", FileStatus.NOTHING_MEANINGFUL),
        ("d.js", FileStatus.MINIFIED),
    ]
    assert codebase.report("a.ts").bytes == len("const a = 1")


def test_paths_are_normalised_and_unknown_paths_are_a_key_error():
    codebase = Codebase.from_texts({"src\\a.ts": "const a = 1"})
    assert codebase.files == ["src/a.ts"]
    assert codebase.report("src\\a.ts").path == "src/a.ts"
    assert [c.path for c in codebase.chunks()] == ["src/a.ts"]
    with pytest.raises(KeyError, match=r"nope\.ts"):
        codebase.text("nope.ts")


@pytest.mark.parametrize(
    ("path", "grammar"),
    [
        ("src/shelf.ts", "typescript"),
        ("src/card.tsx", "tsx"),
        ("lib/old.js", "javascript"),
        ("lib/app.jsx", "javascript"),
        ("docs/guide.md", None),
        ("lib/esm.mjs", None),
    ],
)
def test_prepared_text_names_the_grammar_used(path, grammar):
    assert Codebase.from_texts(TEXTS).text(path).grammar == grammar


def test_prepared_text_lines_meaning_and_declarations():
    text = Codebase.from_texts(TEXTS).text("src/shelf.ts")
    assert text.lines == TEXTS["src/shelf.ts"].split("\n")[:-1]
    assert text.line_count == 7
    assert text.status is FileStatus.CHUNKED
    assert text.declarations == [
        Declaration(1, 6, "Shelf", "class", None, body_start=2),  # its comment on line 1
        Declaration(3, 5, "add", "method", "class Shelf", body_start=3),
        Declaration(7, 7, "limit", "variable", None, body_start=7),
    ]
    guide = Codebase.from_texts(TEXTS).text("docs/guide.md")
    # "# Guide", "", "Some words.", "", "## More", "", "Text here."
    assert [guide.is_meaningful(n) for n in range(1, guide.line_count + 1)] == [
        True, False, True, False, True, False, True,
    ]
    assert guide.meaningful_lines == 4
    assert guide.declarations == []


def test_a_few_files_are_read_in_this_process_whatever_workers_says(tree, monkeypatch):
    from clanka_nb.engine import _codebase

    monkeypatch.setattr(_codebase, "MIN_FILES_FOR_PROCESSES", 10_000)

    def no_pool(*args, **kwargs):
        raise AssertionError("no worker processes for a small codebase")

    monkeypatch.setattr(_codebase, "ordered_map", no_pool)
    assert Codebase(tree, workers=2).chunks() == Codebase(tree, workers=1).chunks()


def test_chunking_sets_off_at_most_one_collector_pass_and_leaves_it_on(tmp_path):
    import gc

    body = "".join(f"export function f{i}(a: number): number {{\n  return a + {i};\n}}\n" for i in range(300))
    for n in range(20):
        (tmp_path / f"f{n}.ts").write_text(body + f"// {n}\n", encoding="utf-8")
    passes: list[int] = []

    def seen(phase: str, info: dict) -> None:
        if phase == "start":
            passes.append(info["generation"])

    codebase = Codebase(tmp_path, workers=1, cache=False)
    assert gc.isenabled()
    gc.collect()  # what the opening left for the collector, so only chunking's own objects count below
    gc.callbacks.append(seen)
    try:
        chunks = codebase.chunks(chunk_size=2)
    finally:
        gc.callbacks.remove(seen)
    assert len(chunks) >= 20 * 300  # tens of thousands of objects made...
    # ...with the cycle collector walking them once at most, after (they hold no cycles), not pass after pass.
    assert passes in ([], [0]), passes
    assert gc.isenabled()
