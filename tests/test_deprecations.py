"""Our deprecations have one wording, point at the caller, and fail a test that did not expect them."""

from __future__ import annotations

import re
import tomllib
import warnings
from pathlib import Path

import pytest

import clanka_nb as cn
from clanka_nb._deprecation import WORDING

PACKAGE = Path(cn.__file__).parent
PYPROJECT = PACKAGE.parent / "pyproject.toml"
CODE = "/** Adds two numbers for the ledger. */\nexport function add(a: number, b: number) {\n  return a + b;\n}\n"
FILE = "add.ts"

# Real DeprecationWarnings of other packages: they must stay warnings (a new release of a dependency
# must not fail our suite for wording we do not control).
THIRD_PARTY = [
    "datetime.datetime.utcnow() is deprecated and scheduled for removal in a future version.",
    "pkg_resources is deprecated as an API. See https://setuptools.pypa.io/en/latest/pkg_resources.html",
    "Jupyter is migrating its paths to use standard platformdirs",
    "The 'warn' method is deprecated, use 'warning' instead",
    "np.find_common_type is deprecated.  Please use `np.result_type` or `np.promote_types`.",
]


def _deprecated_calls() -> list[tuple[str, str]]:
    """Every `deprecated(old, new)` call in the package's source, as (file, source of the call)."""
    calls = []
    for path in sorted(PACKAGE.rglob("*.py")):
        calls += [(path.name, call) for call in re.findall(r"deprecated\([^\n]*\)\n", path.read_text())]
    return calls


def _error_filter() -> re.Pattern[str]:
    entries = tomllib.loads(PYPROJECT.read_text())["tool"]["pytest"]["ini_options"]["filterwarnings"]
    ours = [entry for entry in entries if entry.startswith("error:")]
    assert len(ours) == 1, entries
    _, message, category = ours[0].split(":")[:3]
    assert category == "DeprecationWarning"
    return re.compile(message.strip(), re.IGNORECASE)  # as `warnings.filterwarnings` compiles it


def test_every_deprecation_warning_of_the_package_comes_from_the_one_helper() -> None:
    raising = [path.relative_to(PACKAGE).as_posix() for path in sorted(PACKAGE.rglob("*.py"))
               if "DeprecationWarning" in path.read_text()]  # fmt: skip
    assert raising == ["_deprecation.py"]
    assert len(_deprecated_calls()) >= 5  # sweep, dask sweep, probe, compare, preview_text


def test_the_suites_error_filter_matches_our_wording_and_no_other_packages() -> None:
    pattern = _error_filter()
    for old in ("sweep(tokenizer=...)", "probe(source, queries, searcher, k)", "compare(source, a, b, path)",
                "preview_text(text=...)", "clanka_nb.dask.sweep(tokenizer=...)"):  # fmt: skip
        assert pattern.match(WORDING.format(old=old, new="x=")), old
    for message in THIRD_PARTY:
        assert not pattern.match(message), message


def test_a_deprecation_of_ours_that_a_test_does_not_expect_is_an_error() -> None:
    with pytest.raises(DeprecationWarning, match=r"sweep\(tokenizer=...\) is deprecated: pass token_counter="):
        cn.sweep(cn.engine.Codebase.from_texts({FILE: CODE}), tokenizer=len, chunk_size=[4], progress=False)


def test_another_packages_deprecation_stays_a_warning() -> None:
    for message in THIRD_PARTY:
        with warnings.catch_warnings(record=True):  # raises here if the filter were all DeprecationWarnings
            warnings.warn(message, DeprecationWarning, stacklevel=1)


def test_each_deprecation_points_at_the_line_that_called_the_old_spelling(tmp_path: Path) -> None:
    (tmp_path / FILE).write_text(CODE)
    calls = [
        lambda: cn.sweep(tmp_path, tokenizer=len, chunk_size=[4], progress=False),
        lambda: cn.probe(tmp_path, None, "bm25", 5, progress=False),
    ]
    try:
        import ipywidgets  # noqa: F401
    except ImportError:  # the widgets extra is not installed: its two deprecations cannot run
        pass
    else:
        calls += [
            lambda: cn.compare(tmp_path, {"chunk_size": 4}, {"chunk_size": 8}, FILE),
            lambda: cn.preview_text(text=CODE, path=FILE),
        ]
    for call in calls:
        with pytest.warns(DeprecationWarning, match="is deprecated: pass") as record:
            call()
        assert [Path(w.filename).name for w in record if w.category is DeprecationWarning] == [Path(__file__).name]


def test_the_dask_sweeps_deprecation_points_at_its_caller_before_any_work(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    from clanka_nb import dask as cd

    with pytest.warns(DeprecationWarning, match="token_counter=") as record, pytest.raises(TypeError, match="client"):
        cd.sweep([tmp_path], client=3, tokenizer=len)  # warned, then the bad client named: no cluster started
    assert [Path(w.filename).name for w in record] == [Path(__file__).name]
