"""Each setting is defined once (`clanka_nb.defaults.SETTINGS`): every public signature shows it with that
default, `Settings` holds it, and its name is restated in few files (tools/setting_mentions.py)."""

from __future__ import annotations

import dataclasses
import inspect
import sys
from pathlib import Path

import pytest

import clanka_nb as cn
from clanka_nb import engine
from clanka_nb.defaults import INDEX_MAX_CHARACTERS, SETTINGS, SWEEP_CHUNK_SIZES
from clanka_nb.engine.settings import Settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import setting_mentions

# Public names that take a grid of chunk settings (lists of values to try, a `Grid`): no `settings=`.
GRIDS = {"sweep", "churn", "churn_files"}
# Public names whose settings open a source without chunking it (no chunk setting): no `settings=` yet.
OPENERS = {"probe_queries", "dropped_queries", "history_queries", "unit_test_queries", "compare", "Codebase",
           "list_files"}  # fmt: skip
# Defaults that differ from the table's on purpose: clanka's semantic index has a character limit of its own.
OWN_DEFAULTS = {("SemanticIndex", "chunk_max_characters"): INDEX_MAX_CHARACTERS,
                ("open_index", "chunk_max_characters"): INDEX_MAX_CHARACTERS,
                ("churn", "chunk_max_characters"): INDEX_MAX_CHARACTERS,
                ("churn_files", "chunk_max_characters"): INDEX_MAX_CHARACTERS,
                ("sweep", "chunk_size"): SWEEP_CHUNK_SIZES}  # fmt: skip
BOUNDS = {"chunk_size": 10, "chunk_overlap": 8, "chunk_max_characters": 8}


def _public() -> dict[str, inspect.Signature]:
    out = {}
    for name in cn.__all__:
        value = getattr(cn, name)
        if callable(value) and not (isinstance(value, type) and issubclass(value, Warning)):
            signature = inspect.signature(value)
            if any(setting.name in signature.parameters for setting in SETTINGS):
                out[name] = signature
    return out


def test_every_public_signature_shows_each_setting_with_its_one_default() -> None:
    public = _public()
    assert len(public) > 20
    for name, signature in public.items():
        for setting in SETTINGS:
            parameter = signature.parameters.get(setting.name)
            if parameter is None:
                continue
            assert parameter.kind is inspect.Parameter.KEYWORD_ONLY or name == "Codebase", (name, setting.name)
            expected = OWN_DEFAULTS.get((name, setting.name), setting.default)
            assert parameter.default == expected and type(parameter.default) is type(expected), (name, setting.name)
        takes = "settings" in signature.parameters
        assert takes is (name not in GRIDS | OPENERS), name
        if takes:
            assert signature.parameters["settings"].default is None, name


def test_settings_holds_the_table() -> None:
    fields = [f for f in dataclasses.fields(Settings) if f.init]
    assert [(f.name, f.default, f.type) for f in fields] == [(s.name, s.default, s.annotation) for s in SETTINGS]
    assert "settings" in inspect.signature(engine.Codebase.chunks).parameters


def test_settings_object_and_keywords_beside_it(tmp_path: Path) -> None:
    (tmp_path / "a.ts").write_text("".join(f"const v{i} = {i};\n" for i in range(40)))
    given = Settings(chunk_size=5, chunk_overlap=1)
    by_object = cn.chunk_codebase(tmp_path, settings=given, progress=False)
    by_keywords = cn.chunk_codebase(tmp_path, chunk_size=5, chunk_overlap=1, progress=False)
    assert by_object["end_line"].tolist() == by_keywords["end_line"].tolist()
    beside = cn.chunk_codebase(tmp_path, settings=given, chunk_size=10, progress=False)  # the keyword wins
    assert beside.attrs["chunk_size"] == 10 and beside.attrs["chunk_overlap"] == 1


def test_a_settings_object_is_clamped_once_when_built() -> None:
    with pytest.warns(engine.SettingClampedWarning):
        chosen = Settings(chunk_size=0).over(None)
    assert chosen.chunk is chosen.chunk and chosen.chunk.effective_size == 1 and chosen.chunk.requested_size == 0


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_each_setting_is_restated_in_few_files(name: str) -> None:
    found = setting_mentions.files_mentioning(name)
    assert len(found) <= BOUNDS[name], found
