"""One way in: every public function that takes a source takes all five kinds, and settings are one type."""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb import engine
from clanka_nb.defaults import CHUNK_SIZE, NO_LIMIT, DefaultFloat, DefaultInt, DefaultStr, is_default
from clanka_nb.engine.settings import SETTING_NAMES, TEXT_SETTING_NAMES, Settings

CODE = """/** Adds two numbers together for the ledger totals. */
export function add(a: number, b: number) {
  return a + b;
}

/** Formats a price with its currency symbol for the shop. */
export function price(p: number) {
  const text = `$${p}`;
  return text;
}
"""
FILE = "ledger.ts"
# The folder holds another file, so a source standing for the whole folder cannot pass for one of FILE alone.
OTHER = "tally.ts"
OTHER_CODE = "/** Counts the ledger's lines. */\nexport function count(lines: string[]) {\n  return lines.length;\n}\n"
SIZE = {"chunk_size": 4, "chunk_overlap": 1}  # given to every call that chunks: a frame's own would be 30

# Top-level names that take no source, and why; every other name must be in CALLS below.
NO_SOURCE = {
    "BM25Searcher", "IndexSearcher", "VectorCache", "embedders",  # searchers, embedders
    "Probe",  # the probe's options
    "CodeChunk", "SettingClampedWarning", "ClankaWarning",  # types
    "Codebase",  # a source itself
    "chunk_text", "preview_text", "explain_text", "embedding_input",  # a text or a chunk, not a source
    "churn", "churn_files", "history_queries",  # a git repository and its history, not a source
    "churn_summary", "plot_churn", "plot_chunk_sizes", "plot_sweep", "probe_summary", "report",  # results of calls
    "list_files",  # the engine's listing of a folder (returns names, no chunks)
    "open_index", "search_panel",  # an index database
    "sample_codebase",  # gives the sample's path
}  # fmt: skip


def _frame(value: pd.DataFrame) -> pd.DataFrame:
    # Times differ from run to run; everything else must be equal.
    return value.drop(columns=[c for c in value.columns if c == "seconds"]).reset_index(drop=True)


def _same(a: Any, b: Any) -> None:
    if isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(_frame(a), _frame(b))
        times = ("parse_seconds", "queries_seconds")  # times, like the seconds column
        assert {k: v for k, v in a.attrs.items() if k not in times} == {
            k: v for k, v in b.attrs.items() if k not in times
        }
    else:
        assert a == b


CALLS: dict[str, Callable[[Any, str | None], Any]] = {
    "chunk_codebase": lambda s, f: cn.chunk_codebase(s, progress=False, **SIZE),
    "chunk_files": lambda s, f: cn.chunk_files(s, [f], progress=False, **SIZE),
    "chunk_file": lambda s, f: cn.chunk_file(s, f, **SIZE),
    "files": lambda s, f: cn.files(s, progress=False, **SIZE),
    "coverage": lambda s, f: cn.coverage(s, progress=False, **SIZE),
    "line_coverage": lambda s, f: cn.line_coverage(s, progress=False, **SIZE),
    "sweep": lambda s, f: cn.sweep(s, progress=False, chunk_size=[4, 8], chunk_overlap=[1], probe=True),
    "probe": lambda s, f: cn.probe(s, progress=False, **SIZE),
    "probe_queries": lambda s, f: cn.probe_queries(s, progress=False),
    "dropped_queries": lambda s, f: cn.dropped_queries(s, progress=False),
    "unit_test_queries": lambda s, f: cn.unit_test_queries(s, progress=False),
    "explain": lambda s, f: cn.explain(s, f, **SIZE),
    "browse": lambda s, f: _frame(cn.browse(s, **SIZE).model.data).to_dict("list"),
    "preview": lambda s, f: cn.preview(s, f, **SIZE).html,
    "step_through": lambda s, f: cn.step_through(s, f, **SIZE).model.page_html(),
    "tune": lambda s, f: _tuner_of(s, f),
    "compare": lambda s, f: cn.compare(s, f, a={"chunk_size": 4}, b={"chunk_size": 8}).html,
    "SemanticIndex": lambda s, f: [c.content for c in cn.SemanticIndex(s, embed=_embed, **SIZE).chunks()],
}


def _tuner_of(source: Any, path: str | None) -> Any:
    tuner = cn.tune(source, path, **SIZE)
    stats = {k: v for k, v in tuner.model.stats.items() if k != "seconds"}
    return (sorted(stats.items()), tuner.preview.preview.path if tuner.preview.preview else None)


def _embed(texts: list[str]) -> np.ndarray:
    return np.ones((len(texts), 4), dtype=np.float32)


def test_every_top_level_name_is_either_called_with_every_source_or_excluded() -> None:
    assert set(CALLS) | NO_SOURCE == set(cn.__all__)
    assert not set(CALLS) & NO_SOURCE


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("one") / "repo"
    root.mkdir()
    (root / FILE).write_text(CODE)
    (root / OTHER).write_text(OTHER_CODE)
    return root


def _kinds(folder: Path) -> dict[str, dict[str, Any]]:
    """Sources standing for the whole folder, and sources standing for FILE alone (the first of each is the
    one the others must equal)."""
    return {
        "folder": {
            "folder": str(folder),
            "codebase": engine.Codebase(folder),
            "frame": cn.chunk_codebase(folder, progress=False),  # at its own (default) settings: SIZE overrides
        },
        "file": {
            "file": folder / FILE,
            "codebase of the file": engine.Codebase(folder, paths=[FILE]),
            "frame of the file": cn.chunk_codebase(folder / FILE, progress=False),
            "frame of chunk_files": cn.chunk_files(folder, [FILE], progress=False),
            "frame of chunk_file": cn.chunk_file(folder / FILE),
        },
    }


@pytest.mark.parametrize("name", sorted(CALLS))
def test_each_kind_of_source_gives_the_same_result(name: str, folder: Path) -> None:
    call = CALLS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the probe's "no query" warning is not what this test is about
        for group, kinds in _kinds(folder).items():
            results = {kind: call(source, FILE) for kind, source in kinds.items()}
            first = results.pop(group)
            for kind, result in results.items():
                try:
                    _same(first, result)
                except AssertionError as error:
                    raise AssertionError(f"{name}: {kind} differs from the {group}: {error}") from None
        # None is the sample codebase, as its folder.
        sample = cn.sample_codebase()
        one_file = ("chunk_files", "chunk_file", "explain", "preview", "step_through", "tune", "compare")
        path = "src/models.ts" if name in one_file else None
        _same(call(sample, path), call(None, path))


def test_a_frame_of_one_file_stands_for_that_file_not_its_folder(folder: Path, tmp_path: Path) -> None:
    assert len(cn.files(folder, progress=False)) == 2
    one = cn.chunk_codebase(folder / FILE, progress=False, **SIZE)
    assert one.attrs["files"] == [FILE]
    assert set(one["path"]) == {FILE}
    _same(cn.chunk_codebase(one, progress=False), one)
    assert cn.files(one, progress=False)["path"].tolist() == [FILE]
    assert cn.sweep(one, chunk_size=[4], chunk_overlap=[1], progress=False)["chunks"].tolist() == [len(one)]
    assert cn.tune(one).model.stats["chunks"] == len(one)
    one.to_parquet(tmp_path / "one.parquet")  # the files it stands for are kept with the rest of attrs
    assert cn.files(pd.read_parquet(tmp_path / "one.parquet"), progress=False)["path"].tolist() == [FILE]
    chosen = cn.chunk_files(engine.Codebase(folder), [OTHER], progress=False)  # chosen from a whole codebase
    assert chosen.attrs["files"] == [OTHER]
    assert cn.files(chosen, progress=False)["path"].tolist() == [OTHER]
    assert "files" not in cn.chunk_codebase(folder, progress=False).attrs  # a whole folder's stands for all


def test_a_frame_stands_for_its_codebase_at_its_own_settings(folder: Path) -> None:
    frame = cn.chunk_codebase(folder, chunk_size=5, chunk_overlap=2, languages="extended", progress=False)
    again = cn.chunk_codebase(frame, progress=False)
    _same(again, frame)
    assert cn.chunk_codebase(frame, chunk_size=7, progress=False).attrs["chunk_overlap"] == 2
    with pytest.raises(ValueError, match="the frame was chunked with languages='extended'"):
        cn.files(frame, languages="clanka")
    edited = frame.copy()
    edited.attrs["requested_chunk_size"] = "thirty"
    with pytest.raises(TypeError, match="chunk_size must be an int"):
        cn.files(edited)
    assert cn.files(edited, chunk_size=5).attrs["chunk_size"] == 5  # a setting passed wins over the frame's
    rootless = frame.copy()
    rootless.attrs.pop("root")
    with pytest.raises(ValueError, match="names no root"):
        cn.sweep(rootless)


def test_settings_are_one_type_with_one_set_of_defaults() -> None:
    defaults = Settings()
    every = (cn.chunk_codebase, cn.files, cn.coverage, cn.line_coverage, cn.probe, cn.browse, cn.tune,
             engine.chunk_codebase)
    for function in every:
        parameters = inspect.signature(function).parameters
        for name in SETTING_NAMES:  # every setting shown, with the one default
            assert parameters[name].kind is inspect.Parameter.KEYWORD_ONLY
            assert parameters[name].default is getattr(defaults, name), (function.__name__, name)
    assert inspect.signature(cn.SemanticIndex).parameters["chunk_max_characters"].default == 10_000
    assert inspect.signature(cn.churn).parameters["chunk_max_characters"].default == 10_000
    assert inspect.signature(cn.sweep).parameters["chunk_size"].default == (10, 20, 30, 40, 60)
    for function in (engine.chunk_file_content, engine.chunk_file, cn.chunk_text, cn.chunk_file, cn.explain):
        assert [n for n in inspect.signature(function).parameters if n in SETTING_NAMES] == list(TEXT_SETTING_NAMES)


def test_shift_tab_shows_every_setting_with_its_plain_default() -> None:
    shown = str(inspect.signature(cn.chunk_codebase))
    for words in ("chunk_size: 'int' = 30", "chunk_overlap: 'int' = 0", "chunk_max_characters: 'float | None' = inf",
                  "languages: 'str | None' = None", "max_file_size: 'str | int' = '1M'",
                  "workers: 'int | None' = None"):  # fmt: skip
        assert words in shown, shown
    assert "chunk_max_characters: 'float | None' = 10000" in str(inspect.signature(cn.SemanticIndex))
    assert "chunk_size: 'int | Iterable[int]' = (10, 20, 30, 40, 60)" in str(inspect.signature(cn.sweep))


def test_defaults_are_plain_values_that_say_they_were_not_passed() -> None:
    import math
    import pickle

    for marker, plain in ((DefaultInt(30), 30), (DefaultFloat(math.inf), math.inf), (DefaultStr("1M"), "1M")):
        assert marker == plain and repr(marker) == repr(plain) and hash(marker) == hash(plain)
        assert is_default(marker) and not is_default(plain)
        again = pickle.loads(pickle.dumps(marker))
        assert again == plain and is_default(again)
    assert CHUNK_SIZE + 1 == 31 and not is_default(CHUNK_SIZE + 1)  # arithmetic gives plain values
    settings = Settings(chunk_size=20, languages=None)
    assert settings.passed == {"chunk_size"}
    own = Settings(chunk_size=5, chunk_overlap=2, chunk_max_characters=None, languages="extended", workers=1)
    filled = settings.filled_from(own)
    assert (filled.chunk_size, filled.chunk_overlap, filled.chunk_max_characters) == (20, 2, None)
    assert (filled.languages, filled.workers, filled.max_file_size) == ("extended", 1, "1M")
    assert Settings(chunk_max_characters=math.inf).chunk.effective_max_characters is None  # inf is no limit, as None
    assert Settings().chunk_max_characters is NO_LIMIT


def test_signatures_are_generated_in_one_place() -> None:
    # A signature's setting keywords come from the table through `engine.settings.setting_keywords` alone: no
    # other module rewrites a signature (tests/test_settings_once.py checks what it generates).
    package = Path(cn.__file__).parent
    rewrites = [
        f"{path.relative_to(package)}"
        for path in package.rglob("*.py")
        for line in path.read_text(encoding="utf-8").splitlines()
        if "__signature__ =" in line or "__signature__=" in line
    ]
    assert rewrites == ["engine/settings.py"]


def test_languages_none_is_the_default_mode_everywhere(folder: Path) -> None:
    assert engine.Codebase(folder, languages=None).languages == "clanka"
    assert engine.Codebase.from_texts({"a.ts": "const a = 1;"}, languages=None).languages == "clanka"
    assert inspect.signature(engine.Codebase).parameters["languages"].default is None
    assert cn.chunk_text("def f():\n    return 1\n", "a.py").attrs["languages"] == "clanka"
    extended = engine.Codebase(folder, languages="extended")
    assert cn.chunk_codebase(extended, progress=False).attrs["languages"] == "extended"  # a Codebase's own


def test_bad_settings_fail_once_with_the_fix_everywhere() -> None:
    for function in (cn.chunk_codebase, cn.files, cn.sweep, cn.browse, cn.tune, cn.preview, cn.probe_queries):
        with pytest.raises(TypeError, match="unexpected keyword argument 'chunk_sise'"):
            function(None, chunk_sise=10)
    with pytest.raises(ValueError, match="max_file_size"):
        cn.files(None, max_file_size="lots")
    with pytest.raises(ValueError, match="workers must be at least 1"):
        cn.browse(None, workers=0)
    with pytest.raises(ValueError, match="languages must be 'clanka'"):
        cn.chunk_codebase(None, languages="python")


def test_output_is_the_same_whatever_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    from clanka_nb.engine import _codebase

    monkeypatch.setattr(_codebase, "MIN_FILES_FOR_PROCESSES", 2)  # so workers=2 really starts processes
    base = cn.chunk_codebase(None, workers=1, progress=False)
    for workers in (None, 2):
        _same(cn.chunk_codebase(None, workers=workers, progress=False), base)
        _same(cn.files(None, workers=workers, progress=False), cn.files(None, workers=1, progress=False))


def test_the_old_spellings_are_gone(folder: Path) -> None:
    # Nothing was released: each old spelling is a TypeError, not a second way in behind a warning.
    with pytest.raises(TypeError, match="tokenizer"):
        cn.sweep(folder, tokenizer=len, chunk_size=[4], progress=False)
    with pytest.raises(TypeError, match="positional"):
        cn.probe(folder, None, "bm25", 5, progress=False, **SIZE)
    with pytest.raises(TypeError, match="positional"):
        cn.compare(folder, {"chunk_size": 4}, {"chunk_size": 8}, FILE)
    with pytest.raises(TypeError, match="text"):
        cn.preview_text(text=CODE, path=FILE)


def test_all_is_built_from_the_one_table() -> None:
    assert sorted(cn.__all__) == sorted(cn._EXPORTS)


def test_settings_check_and_clamp_themselves_when_built() -> None:
    # Built anywhere (not only through a public function), a bad value fails on the line that built it.
    with pytest.raises(TypeError, match="chunk_size must be an int"):
        Settings(chunk_size="30")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a size"):
        Settings(max_file_size="big")
    clamped = Settings(chunk_size=0, chunk_overlap=5, chunk_max_characters=0)
    assert (clamped.effective_size, clamped.effective_overlap) == (1, 0)
    note = clamped.clamp_note or ""
    assert "chunk_size=0 chunk_overlap=5 is used as chunk_size=1" in note
    assert "chunk_max_characters=0 is used as 1" in note
    plain = Settings(chunk_size=20, chunk_overlap=3)
    assert (plain.effective_size, plain.effective_overlap, plain.clamp_note) == (20, 3, None)
    with pytest.warns(engine.SettingClampedWarning, match="is used as chunk_size=1"):
        Settings(chunk_size=0).warned()
