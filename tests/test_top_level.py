"""The top-level package: every advertised name resolves lazily to the layer that owns it."""

from __future__ import annotations

import subprocess
import sys

import pytest

import clanka_nb


def test_all_lists_exactly_the_lazy_exports():
    assert sorted(clanka_nb.__all__) == sorted(clanka_nb._EXPORTS)


@pytest.mark.parametrize("name", sorted(clanka_nb._EXPORTS))
def test_each_name_comes_from_its_layer(name):
    value = getattr(clanka_nb, name)
    owner = value.__name__ if isinstance(value, type(clanka_nb)) else value.__module__  # a submodule, or a def
    assert owner.startswith(clanka_nb._EXPORTS[name])


def test_frames_names_return_dataframes_where_engine_names_return_chunks(tmp_path):
    import pandas as pd

    (tmp_path / "a.ts").write_text("export function f() {\n  return 1\n}\n")
    frame = clanka_nb.chunk_codebase(tmp_path, progress=False)
    assert isinstance(frame, pd.DataFrame) and frame["name"].tolist() == ["f"]


def test_unknown_names_raise_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        clanka_nb.nope  # noqa: B018


def test_importing_the_package_loads_no_heavy_layer():
    code = "import sys, clanka_nb; print(sorted(m for m in ('pandas', 'ipywidgets', 'matplotlib') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
