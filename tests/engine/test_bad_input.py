"""Bad input: clear errors for wrong arguments; never a hang or a crash on odd files, and every file accounted for."""

from __future__ import annotations

import math
import os
import socket
import threading
from pathlib import Path

import pytest

from clanka_nb.engine import (
    ChunkSettings,
    Codebase,
    FileStatus,
    UnreadableFileWarning,
    chunk_codebase,
    chunk_file,
    chunk_file_content,
    chunk_files,
    list_files,
)


def within(seconds: float, fn, *args, **kwargs):
    """Call fn in a daemon thread; fail (instead of hanging the run) when it takes longer than `seconds`."""
    box: dict = {}

    def run() -> None:
        try:
            box["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed back to the test thread and re-raised there
            box["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        pytest.fail(f"{getattr(fn, '__name__', fn)} did not return within {seconds} s (hang)")
    if "error" in box:
        raise box["error"]
    return box["value"]


def write(root: Path, rel: str, data: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return path


def spans(chunks):
    return [(c.start_line, c.end_line) for c in chunks]


# --- the root -------------------------------------------------------------------------------------

ROOT_CALLS = {
    "list_files": lambda root: list_files(root),
    "Codebase": lambda root: Codebase(root),
    "chunk_codebase": lambda root: list(chunk_codebase(root)),
    "chunk_files": lambda root: list(chunk_files(root, ["a.ts"])),
    "chunk_file": lambda root: chunk_file(root, "a.ts"),
}


@pytest.mark.parametrize("call", ROOT_CALLS.values(), ids=ROOT_CALLS.keys())
def test_a_missing_root_raises_file_not_found_naming_it(tmp_path, call):
    missing = tmp_path / "no-such-folder"
    with pytest.raises(FileNotFoundError, match="no-such-folder"):
        call(missing)


@pytest.mark.parametrize("call", ROOT_CALLS.values(), ids=ROOT_CALLS.keys())
def test_a_file_as_root_raises_not_a_directory_naming_it(tmp_path, call):
    file = write(tmp_path, "single.ts", "const a = 1\n")
    with pytest.raises(NotADirectoryError, match=r"single\.ts"):
        call(file)


# --- settings -------------------------------------------------------------------------------------

NOT_INTEGERS = ["10", 10.0, 10.5, None, True, [10]]


@pytest.mark.parametrize("value", NOT_INTEGERS, ids=repr)
@pytest.mark.parametrize("name", ["chunk_size", "chunk_overlap"])
def test_non_integer_size_or_overlap_is_a_type_error(name, value):
    with pytest.raises(TypeError, match=name):
        chunk_file_content("a.md", "x", **{name: value})
    with pytest.raises(TypeError, match=name):
        Codebase.from_texts({"a.md": "x"}).chunks(**{name: value})


@pytest.mark.parametrize("name", ["chunk_size", "chunk_overlap", "chunk_max_characters"])
def test_nan_is_a_value_error(name):
    with pytest.raises(ValueError, match=name):
        chunk_file_content("a.md", "x", **{name: math.nan})
    with pytest.raises(ValueError, match=name):
        ChunkSettings.build(**{name: math.nan})


@pytest.mark.parametrize("value", ["100", True, [100]], ids=repr)
def test_a_non_number_max_characters_is_a_type_error(value):
    with pytest.raises(TypeError, match="chunk_max_characters"):
        chunk_file_content("a.md", "x", chunk_max_characters=value)


def test_bad_settings_fail_before_listing(tmp_path):
    write(tmp_path, "a.ts", "const a = 1\n")
    with pytest.raises(TypeError, match="chunk_size"):
        chunk_codebase(tmp_path, chunk_size="30")


def test_infinite_max_characters_means_no_limit():
    content = "\n".join(["a" * 50] * 10)
    unlimited = chunk_file_content("a.md", content, chunk_size=10, chunk_max_characters=math.inf)
    assert spans(unlimited) == [(1, 10)]
    assert unlimited == chunk_file_content("a.md", content, chunk_size=10, chunk_max_characters=None)


def test_content_must_be_text():
    with pytest.raises(TypeError, match="decode"):
        chunk_file_content("a.ts", b"const a = 1")


def test_unknown_languages_mode_is_a_value_error():
    with pytest.raises(ValueError, match="clanka"):
        chunk_file_content("a.ts", "const a = 1", languages="everything")


@pytest.mark.parametrize(("workers", "error"), [(0, ValueError), (-1, ValueError), ("2", TypeError), (1.5, TypeError)])
def test_bad_workers(tmp_path, workers, error):
    write(tmp_path, "a.ts", "const a = 1\n")
    with pytest.raises(error, match="workers"):
        Codebase(tmp_path, workers=workers)


def test_bad_max_file_size(tmp_path):
    with pytest.raises(ValueError, match="max_file_size"):
        list_files(tmp_path, max_file_size="lots")


# --- special files --------------------------------------------------------------------------------


@pytest.fixture
def fifo_tree(tmp_path):
    write(tmp_path, "a.ts", "const a = 1\n")
    os.mkfifo(tmp_path / "pipe.ts")
    return tmp_path


def test_a_fifo_is_not_listed(fifo_tree):
    assert within(10, list_files, fifo_tree) == ["a.ts"]


def test_chunk_file_on_a_fifo_returns_nothing_at_once_and_warns(fifo_tree):
    with pytest.warns(UnreadableFileWarning, match=r"pipe\.ts"):
        assert within(5, chunk_file, fifo_tree, "pipe.ts") == []


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.UnreadableFileWarning")  # a file that cannot be read, on purpose
def test_a_fifo_named_explicitly_is_reported_unreadable(fifo_tree):
    codebase = within(10, Codebase, fifo_tree, paths=["pipe.ts", "a.ts"])
    assert codebase.report("pipe.ts").status is FileStatus.UNREADABLE
    assert codebase.report("pipe.ts").reason
    assert [c.path for c in codebase.chunks()] == ["a.ts"]


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.UnreadableFileWarning")  # a file that cannot be read, on purpose
def test_a_unix_socket_is_neither_listed_nor_read(tmp_path):
    write(tmp_path, "a.ts", "const a = 1\n")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    previous = os.getcwd()
    os.chdir(tmp_path)  # bind by a short relative name: socket paths have a small length limit
    try:
        server.bind("sock.ts")
    finally:
        os.chdir(previous)
    try:
        assert within(10, list_files, tmp_path) == ["a.ts"]
        with pytest.warns(UnreadableFileWarning, match=r"sock\.ts"):
            assert within(5, chunk_file, tmp_path, "sock.ts") == []
        codebase = within(10, Codebase, tmp_path, paths=["sock.ts"])
        assert codebase.report("sock.ts").status is FileStatus.UNREADABLE
    finally:
        server.close()


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.UnreadableFileWarning")  # a file that cannot be read, on purpose
def test_a_folder_named_like_a_file(tmp_path):
    write(tmp_path, "x.ts/inner.ts", "const inner = 1\n")
    assert within(10, list_files, tmp_path) == ["x.ts/inner.ts"]
    with pytest.warns(UnreadableFileWarning, match=r"x\.ts"):
        assert within(5, chunk_file, tmp_path, "x.ts") == []
    codebase = within(10, Codebase, tmp_path, paths=["x.ts", "x.ts/inner.ts"])
    assert codebase.report("x.ts").status is FileStatus.UNREADABLE
    assert [c.name for c in codebase.chunks()] == ["inner"]


def test_symlinks_are_not_followed_or_listed_and_loops_do_not_hang(tmp_path):
    write(tmp_path, "a.ts", "const a = 1\n")
    os.symlink(tmp_path, tmp_path / "loop")
    os.symlink(tmp_path / "nowhere.ts", tmp_path / "dangling.ts")
    os.symlink(tmp_path / "a.ts", tmp_path / "alias.ts")
    assert within(10, list_files, tmp_path) == ["a.ts"]
    with pytest.warns(UnreadableFileWarning, match=r"dangling\.ts"):
        assert within(5, chunk_file, tmp_path, "dangling.ts") == []


# --- paths outside the root -------------------------------------------------------------------------


@pytest.fixture
def outside(tmp_path):
    root = tmp_path / "root"
    write(root, "a.ts", "const a = 1\n")
    write(tmp_path, "x.ts", "const outside = 1\n")
    return root


@pytest.mark.parametrize("path", ["../x.ts", "sub/../../x.ts", "..", ".", ""])
def test_relative_paths_leaving_the_root_give_nothing(outside, path):
    assert chunk_file(outside, path) == []


def test_an_absolute_path_elsewhere_gives_nothing(outside):
    assert chunk_file(outside, outside.parent / "x.ts") == []
    assert chunk_file(outside, str(outside.parent / "x.ts")) == []


def test_an_absolute_path_inside_the_root_is_read_relative_to_it(outside):
    assert [(c.path, c.name) for c in chunk_file(outside, outside / "a.ts")] == [("a.ts", "a")]


def test_an_absolute_path_through_a_symlinked_root_is_inside_it(outside):
    link = outside.parent / "link"
    link.symlink_to(outside, target_is_directory=True)
    assert [c.name for c in chunk_file(link, link / "a.ts")] == ["a"]


def test_codebase_paths_outside_the_root_give_no_chunks(outside):
    codebase = Codebase(outside, paths=["../x.ts", str(outside.parent / "x.ts"), "a.ts"])
    assert {c.path for c in codebase.chunks()} == {"a.ts"}
    # Outside paths are kept in the reports, each saying why it gives nothing.
    outside_reports = [r for r in codebase.reports if r.path != "a.ts"]
    assert len(outside_reports) == 2
    assert all(r.status is FileStatus.NOT_INDEXED and "outside" in r.reason for r in outside_reports)


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.NothingToChunkWarning")  # a file or folder that gives no chunks
def test_a_name_the_reference_never_indexes_is_reported(tmp_path):
    write(tmp_path, "Makefile", "all:\n\techo hi\n")
    assert chunk_file(tmp_path, "Makefile") == []
    assert Codebase(tmp_path, paths=["Makefile"]).report("Makefile").status is FileStatus.NOT_INDEXED


# --- bytes ------------------------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.BinaryFileWarning")  # binary-looking content, on purpose
@pytest.mark.parametrize(
    ("data", "first_line"),
    [
        (b"const a = '\xff\xfe'\n", "const a = '\ufffd\ufffd'"),
        (b"const a = '\xe2\x82'\n", "const a = '\ufffd'"),  # a truncated sequence is one U+FFFD
        (b"const a = '\xed\xa0\x80'\n", "const a = '\ufffd\ufffd\ufffd'"),  # an encoded surrogate
        (b"\xef\xbb\xbfconst a = 1\n", "const a = 1"),  # the BOM is dropped
        (b"\xef\xbb\xbf\xef\xbb\xbfconst a = 1\n", "\ufeffconst a = 1"),  # only one BOM is dropped
        (b"\xfe\xffconst a = 1\n", "\ufffd\ufffdconst a = 1"),  # a UTF-16 BOM is just bad bytes
    ],
)
def test_undecodable_bytes_become_replacement_characters(tmp_path, data, first_line):
    write(tmp_path, "a.ts", data)
    chunks = chunk_file(tmp_path, "a.ts")
    assert [(c.start_line, c.content) for c in chunks] == [(1, first_line)]


def test_nul_bytes_and_lone_surrogates_do_not_crash():
    for content in ["const a = '\x00'\nconst b = 2", "const a = '\ud800'\nconst b = 2", "x\x00\ud800y"]:
        for path in ("a.ts", "a.md"):
            lines = content.split("\n")
            for chunk in chunk_file_content(path, content, chunk_size=1):
                assert chunk.content == "\n".join(lines[chunk.start_line - 1 : chunk.end_line])


# --- files that vanish or cannot be read ---------------------------------------------------------------


def test_a_named_file_that_does_not_exist_is_reported_unreadable(tmp_path):
    write(tmp_path, "a.ts", "const a = 1\n")
    with pytest.warns(UnreadableFileWarning, match=r"gone\.ts"):
        codebase = Codebase(tmp_path, paths=["a.ts", "gone.ts"])
    assert codebase.files == ["a.ts", "gone.ts"]
    report = codebase.report("gone.ts")
    assert report.status is FileStatus.UNREADABLE
    assert report.reason
    assert codebase.text("gone.ts") is None
    assert [c.path for c in codebase.chunks()] == ["a.ts"]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_file_deleted_between_listing_and_reading_is_skipped(tmp_path, workers):
    write(tmp_path, "a.ts", "const a = 1\n")
    write(tmp_path, "b.ts", "const b = 1\n")
    write(tmp_path, "c.ts", "const c = 1\n")
    files = list_files(tmp_path)
    (tmp_path / "b.ts").unlink()
    with pytest.warns(UnreadableFileWarning, match=r"b\.ts"):
        assert [c.name for c in chunk_files(tmp_path, files, workers=workers)] == ["a", "c"]


@pytest.mark.skipif(os.geteuid() == 0, reason="permission bits do not stop root")
def test_a_file_without_read_permission_is_reported_unreadable(tmp_path):
    locked = write(tmp_path, "locked.ts", "const a = 1\n")
    locked.chmod(0)
    try:
        with pytest.warns(UnreadableFileWarning, match=r"locked\.ts"):
            assert chunk_file(tmp_path, "locked.ts") == []
        with pytest.warns(UnreadableFileWarning, match=r"locked\.ts"):  # the codebase says so too
            assert Codebase(tmp_path).report("locked.ts").status is FileStatus.UNREADABLE
    finally:
        locked.chmod(0o644)


# --- size and depth ------------------------------------------------------------------------------------

ONE_MB = 1024 * 1024


def test_a_one_megabyte_single_line_file_is_minified_and_fast(tmp_path):
    line = ("var a=1;" * (ONE_MB // 8))[: ONE_MB - 100]
    write(tmp_path, "bundle.js", line)
    write(tmp_path, "notes.md", "x" * (ONE_MB - 100))
    codebase = within(20, Codebase, tmp_path)
    assert codebase.files == ["bundle.js", "notes.md"]
    assert [r.status for r in codebase.reports] == [FileStatus.MINIFIED, FileStatus.MINIFIED]
    assert codebase.chunks() == []
    assert within(10, chunk_file_content, "bundle.js", line) == []


DEPTH = 3000
# Line i (1-based, i <= DEPTH) opens namespace N{i-1}; line DEPTH + 1 holds the innermost constant.
DEEP = "".join(f"export namespace N{i} {{\n" for i in range(DEPTH)) + "export const deep = 1\n" + "}" * DEPTH + "\n"


def check_deep(chunks):
    rows = {(c.start_line, c.name, c.type, c.parent) for c in chunks}
    assert (1, "N0", "namespace", None) in rows
    assert (DEPTH, f"N{DEPTH - 1}", "namespace", f"namespace N{DEPTH - 2}") in rows
    assert (DEPTH + 1, "deep", "variable", f"namespace N{DEPTH - 1}") in rows
    lines = DEEP.split("\n")
    sample = chunks[:: max(1, len(chunks) // 500)]  # every chunk would take seconds to check
    assert all(c.content == "\n".join(lines[c.start_line - 1 : c.end_line]) for c in sample)


def test_namespaces_nested_thousands_deep():
    check_deep(within(60, chunk_file_content, "deep.ts", DEEP))


def test_namespaces_nested_thousands_deep_in_worker_processes(tmp_path):
    write(tmp_path, "deep.ts", DEEP)
    write(tmp_path, "small.ts", "export const small = 1\n")
    codebase = within(60, Codebase, tmp_path, workers=2)
    assert [r.status for r in codebase.reports] == [FileStatus.CHUNKED, FileStatus.CHUNKED]
    assert len(codebase.text("deep.ts").declarations) == DEPTH + 1
    chunks = [c for c in codebase.chunks() if c.path == "deep.ts"]
    check_deep(chunks)


def test_brackets_nested_thousands_deep():
    content = "export const a = " + "[\n" * DEPTH + "]\n" * DEPTH
    chunks = within(60, chunk_file_content, "a.ts", content, chunk_size=500)
    assert chunks[0].name == "a"
    assert chunks[0].start_line == 1


# --- every listed file is accounted for -----------------------------------------------------------------


def test_every_listed_file_has_a_report_saying_why_it_gives_nothing(tmp_path):
    write(tmp_path, "code.ts", "export function f() {\n  return 1\n}\n")
    write(tmp_path, "empty.ts", " \n\t\n")
    write(tmp_path, "blank.md", "")
    write(tmp_path, "min.js", "var a=1;" * 400)
    write(tmp_path, "rules.md", "---\n***\n")
    write(tmp_path, "x.ts/inner.md", "text\n")
    codebase = Codebase(tmp_path)
    assert [r.path for r in codebase.reports] == codebase.files
    status = {r.path: r.status for r in codebase.reports}
    assert status == {
        "blank.md": FileStatus.EMPTY,
        "code.ts": FileStatus.CHUNKED,
        "empty.ts": FileStatus.EMPTY,
        "min.js": FileStatus.MINIFIED,
        "rules.md": FileStatus.NOTHING_MEANINGFUL,
        "x.ts/inner.md": FileStatus.CHUNKED,
    }
    chunked = {c.path for c in codebase.chunks()}
    for report in codebase.reports:
        assert (report.path in chunked) is (report.status is FileStatus.CHUNKED)
        assert (report.reason is None) is (report.status is FileStatus.CHUNKED)
