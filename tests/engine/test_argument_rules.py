"""One rule per argument, in engine/settings.py: clamping warns by name, integral numbers are accepted
everywhere, bounds and odd values give clear errors, single paths are not iterated, one-file calls work."""

from __future__ import annotations

import warnings
from importlib.util import find_spec
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clanka_nb
from clanka_nb import engine
from clanka_nb.engine import (
    ChunkSettings,
    Codebase,
    SettingClampedWarning,
    chunk_codebase,
    chunk_file,
    chunk_file_content,
    chunk_files,
    list_files,
)
from clanka_nb.engine.settings import max_workers, parse_size

# The frames layer (and so the command line) is an extra: the engine-alone venv of .ci/run has no pandas.
NEEDS_FRAMES = pytest.mark.skipif(find_spec("pandas") is None, reason="needs the frames extra (pandas)")

try:
    import numpy as np
except ImportError:  # the engine-alone venv of .ci/run has no numpy, and the engine needs none
    np = None
NUMPY_NEGATIVE = [np.int64(-1)] if np is not None else []

TS = "export function add(a: number, b: number) {\n  return a + b;\n}\n\nexport const one = 1;\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "add.ts").write_text(TS, encoding="utf-8")
    (tmp_path / "README.md").write_text("# Title\n\nSome prose.\n", encoding="utf-8")
    return tmp_path


def spans(chunks):
    return [(c.path, c.start_line, c.end_line) for c in chunks]


# --- 11.5: clamping warns by name, in the CLI's words ----------------------------------------------


def test_the_warning_class_is_exported_from_the_engine_and_the_top_level() -> None:
    assert clanka_nb.SettingClampedWarning is engine.SettingClampedWarning is SettingClampedWarning
    assert issubclass(SettingClampedWarning, UserWarning)
    assert "SettingClampedWarning" in clanka_nb.__all__ and "SettingClampedWarning" in engine.__all__


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ((0, 0, None), "chunk_size=0 chunk_overlap=0 is used as chunk_size=1 chunk_overlap=0"),
        ((-4, 2, None), "chunk_size=-4 chunk_overlap=2 is used as chunk_size=1 chunk_overlap=0"),
        ((10, 10, None), "chunk_size=10 chunk_overlap=10 is used as chunk_size=10 chunk_overlap=9"),
        ((10, -1, None), "chunk_size=10 chunk_overlap=-1 is used as chunk_size=10 chunk_overlap=0"),
        ((30, 0, -1), "chunk_max_characters=-1 is used as 1"),
        ((30, 0, 0), "chunk_max_characters=0 is used as 1"),
    ],
)
def test_every_clamp_warns_by_name_and_the_reference_clamping_stays(args, words) -> None:
    with pytest.warns(SettingClampedWarning, match=words) as caught:
        chunks = chunk_file_content("a.md", "a\nb\nc", chunk_size=args[0], chunk_overlap=args[1],
                                    chunk_max_characters=args[2])
    assert caught[0].filename == __file__  # points at the user's line, not inside clanka_nb
    reference = ChunkSettings.build(*args, warn=False)
    assert chunks == chunk_file_content(
        "a.md", "a\nb\nc", chunk_size=reference.effective_size, chunk_overlap=reference.effective_overlap,
        chunk_max_characters=reference.effective_max_characters,
    )


@pytest.mark.parametrize("args", [(30, 0, None), (1, 0, 1), (5, 4, 2.5), (30, 0, float("inf"))])
def test_values_in_range_do_not_warn(args) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ChunkSettings.build(*args)


ENTRY_POINTS = {
    "chunk_codebase": lambda root: list(chunk_codebase(root, chunk_size=0)),
    "chunk_files": lambda root: list(chunk_files(root, ["src/add.ts"], chunk_size=0)),
    "Codebase.chunks": lambda root: Codebase(root).chunks(chunk_size=0),
    "frames.chunk_codebase": lambda root: clanka_nb.chunk_codebase(root, chunk_size=0, workers=1),
    "frames.files": lambda root: clanka_nb.files(root, chunk_size=0, workers=1),
    "frames.sweep": lambda root: clanka_nb.sweep(root, chunk_size=[0], workers=1),
}


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_every_entry_point_warns_at_the_callers_line(root: Path, name: str) -> None:
    if name.startswith("frames."):
        pytest.importorskip("pandas", reason="the frames layer is an extra (the engine-alone venv has none)")
    call = ENTRY_POINTS[name]
    with pytest.warns(SettingClampedWarning, match="chunk_size=0 chunk_overlap=0 is used as chunk_size=1") as caught:
        call(root)
    assert [w.filename for w in caught if w.category is SettingClampedWarning] == [__file__]  # once, here


# --- 13.10: integral numbers everywhere, one size rule, no overflow --------------------------------


@pytest.mark.skipif(np is None, reason="numpy is not installed (the engine alone needs none)")
def test_numpy_integers_are_accepted_wherever_ints_are(root: Path) -> None:
    plain = spans(chunk_files(root, ["src/add.ts"], chunk_size=2, workers=1))
    assert spans(chunk_files(root, ["src/add.ts"], chunk_size=np.int64(2), chunk_overlap=np.int32(0),
                             workers=np.int64(2))) == plain
    assert list_files(root, max_file_size=np.int64(10**6)) == list_files(root)
    assert Codebase(root, workers=np.int16(1)).files == list_files(root)


@pytest.mark.parametrize("bad", [2.0, "2", True])
def test_workers_must_be_a_whole_number(root: Path, bad) -> None:
    with pytest.raises(TypeError, match="workers must be an int"):
        chunk_files(root, ["src/add.ts"], workers=bad)


def test_workers_have_an_upper_bound_naming_the_fix(root: Path) -> None:
    with pytest.raises(ValueError, match=r"per core.*workers=None"):
        chunk_files(root, ["src/add.ts"], workers=max_workers() + 1)
    with pytest.raises(ValueError, match="per core"):
        Codebase(root, workers=256)
    assert Codebase(root, workers=max_workers()).files == list_files(root)


@pytest.mark.parametrize(("value", "size"), [("1M", 1024**2), (" 2k ", 2048), ("0", 0), (0, 0), (5, 5), ("12", 12)])
def test_sizes(value, size) -> None:
    assert parse_size(value) == size


@pytest.mark.parametrize("value", [-1, "-1", *NUMPY_NEGATIVE, "١٢", "²", "1.5M", "", "M", 1.5, True])
def test_one_rule_for_sizes_in_int_and_text_form(root: Path, value) -> None:
    with pytest.raises((ValueError, TypeError), match="max_file_size"):
        list_files(root, max_file_size=value)


@pytest.mark.parametrize("huge", [10**400, 2**53, 1e300, float("inf")])
def test_a_huge_character_limit_is_no_limit_not_an_overflow(huge) -> None:
    assert ChunkSettings.build(30, 0, huge).effective_max_characters is None
    assert chunk_file_content("a.ts", TS, chunk_max_characters=huge) == chunk_file_content("a.ts", TS)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=-(10**30), max_value=10**30))
def test_int_limits_clamp_like_the_reference_without_floats(limit: int) -> None:
    effective = ChunkSettings.build(30, 0, limit, warn=False).effective_max_characters
    assert effective == (None if limit >= 2**53 else max(1, limit))


# --- 13.10: one path alone is a list of one, not its characters ------------------------------------


@NEEDS_FRAMES
def test_a_single_path_is_not_iterated_character_by_character(root: Path) -> None:
    expected = spans(chunk_files(root, ["README.md"]))
    assert expected  # README.md has chunks
    assert spans(chunk_files(root, "README.md")) == expected
    assert spans(chunk_files(root, Path("README.md"))) == expected
    assert Codebase(root, paths="README.md").files == ["README.md"]
    assert len(clanka_nb.chunk_files(root, "README.md")) == len(expected)


@pytest.mark.parametrize("bad", [b"README.md", 3])
def test_paths_that_are_neither_a_path_nor_paths(root: Path, bad) -> None:
    with pytest.raises(TypeError, match="paths must be a path or an iterable of paths"):
        chunk_files(root, bad)


# --- 11.7: one-file calls and absolute paths inside the root -----------------------------------------


@NEEDS_FRAMES
def test_chunk_file_of_one_path(root: Path) -> None:
    expected = chunk_file(root, "src/add.ts")
    assert chunk_file(root / "src" / "add.ts") == chunk_file(str(root / "src" / "add.ts"))
    assert spans(chunk_file(root / "src" / "add.ts")) == [("add.ts", s, e) for _, s, e in spans(expected)]
    frame = clanka_nb.chunk_file(str(root / "src" / "add.ts"))
    assert frame["start_line"].tolist() == [s for _, s, _ in spans(expected)]


def test_chunk_file_of_a_folder_alone_or_a_missing_file_says_what_to_pass(root: Path) -> None:
    with pytest.raises(TypeError, match=r"is a folder; name the file too, e\.g\. chunk_file\("):
        chunk_file(root)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        chunk_file(root / "missing.ts")


@NEEDS_FRAMES
def test_explain_of_a_folder_alone_names_explain_in_its_example(root: Path) -> None:
    with pytest.raises(TypeError, match=r"is a folder; name the file too, e\.g\. explain\("):
        clanka_nb.explain(root)


@NEEDS_FRAMES
def test_absolute_paths_inside_the_root_name_the_same_file(root: Path) -> None:
    absolute = str(root / "src" / "add.ts")
    assert chunk_file(root, absolute) == chunk_file(root, "src/add.ts")
    codebase = Codebase(root)
    assert codebase.report(absolute) == codebase.report("src/add.ts")
    assert codebase.text(absolute) is codebase.text("src/add.ts")
    frame = clanka_nb.chunk_files(codebase, [absolute])
    assert set(frame["path"]) == {"src/add.ts"}


# --- 13.10: a POSIX class in an ignore rule leaks no FutureWarning -----------------------------------


def test_a_posix_class_in_an_ignore_rule_leaks_no_warning(tmp_path: Path) -> None:
    (tmp_path / ".ignore").write_text("[[:alpha:]]x.ts\n[[:digit:]]y/\n", encoding="utf-8")
    (tmp_path / "a.ts").write_text("const a = 1\n", encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert list_files(tmp_path) == ["a.ts"]


# --- 11.6: content that looks binary is flagged, still chunked as the reference does -----------------


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.BinaryFileWarning")  # binary-looking content, on purpose
def test_binary_looking_content_is_flagged_and_still_chunked(tmp_path: Path) -> None:
    (tmp_path / "nul.py").write_bytes(b"def f():\x00\n    return 1\n")
    (tmp_path / "fake.ts").write_bytes((bytes(range(128, 256)) + b"\n") * 20)  # random-looking, not minified
    (tmp_path / "ok.ts").write_text("const \u00e9 = 'caf\u00e9'\n", encoding="utf-8")
    codebase = Codebase(tmp_path)
    flags = {r.path: r.binary for r in codebase.reports}
    assert flags == {"fake.ts": True, "nul.py": True, "ok.ts": False}
    assert all(r.status is engine.FileStatus.CHUNKED for r in codebase.reports)
    assert {c.path for c in codebase.chunks()} == {"fake.ts", "nul.py", "ok.ts"}
    assert Codebase.from_texts({"x.ts": "a\x00b"}).report("x.ts").binary is True
