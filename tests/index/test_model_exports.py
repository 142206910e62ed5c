"""Model exports are held to the caches' standard (issue 42 item 3): a private folder of this user's, a keyed check
of every file made when the export was made and checked before each load, and never a folder's custom code.

The export itself needs torch (tests/index/test_sentence_transformers.py); these tests drive the checking with a
stand-in build that writes the files an export has.
"""

from __future__ import annotations

import json
import os
import stat

import pytest

from clanka_nb.index import _exports

MODULES = [{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"}]


@pytest.fixture(autouse=True)
def folders(tmp_path, monkeypatch):
    monkeypatch.setenv("CLANKA_NB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CLANKA_NB_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path


def _build(counter: list[int]):
    def build(into) -> None:
        counter.append(1)
        (into / "onnx").mkdir(parents=True, exist_ok=True)
        (into / "onnx" / "model.onnx").write_bytes(b"the real model")
        (into / "modules.json").write_text(json.dumps(MODULES))

    return build


def _mode(path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_the_exports_folder_is_made_private_and_an_open_one_of_ours_is_closed(folders):
    root = _exports.exports_root()
    assert root == folders / "cache" / "model-exports" and _mode(root) == 0o700
    os.chmod(root, 0o777)
    _exports.exports_root()
    assert _mode(root) == 0o700


def test_an_export_is_made_once_and_then_loaded_as_it_was(folders):
    built: list[int] = []
    folder = _exports.exports_root() / "abc-onnx"
    assert _exports.ensured(folder, "onnx/model.onnx", _build(built)) == folder
    assert _exports.ensured(folder, "onnx/model.onnx", _build(built)) == folder
    assert len(built) == 1 and _mode(folder) == 0o700 and (folder / _exports.CHECK_FILE).is_file()


def test_a_model_file_changed_after_the_export_is_seen_and_made_again(folders):
    built: list[int] = []
    folder = _exports.exports_root() / "abc-onnx"
    _exports.ensured(folder, "onnx/model.onnx", _build(built))
    (folder / "onnx" / "model.onnx").write_bytes(b"not the model")
    with pytest.warns(_exports.ModelExportWarning, match="does not match the keyed check"):
        _exports.ensured(folder, "onnx/model.onnx", _build(built))
    assert len(built) == 2 and (folder / "onnx" / "model.onnx").read_bytes() == b"the real model"


def test_a_planted_modules_json_is_never_loaded(folders):
    built: list[int] = []
    folder = _exports.exports_root() / "abc-onnx"
    _exports.ensured(folder, "onnx/model.onnx", _build(built))
    planted = [{"idx": 0, "name": "0", "path": "", "type": "evil.Module"}]
    (folder / "modules.json").write_text(json.dumps(planted))
    with pytest.warns(_exports.ModelExportWarning):
        _exports.ensured(folder, "onnx/model.onnx", _build(built))
    assert json.loads((folder / "modules.json").read_text()) == MODULES


def test_an_export_planted_without_a_check_is_made_again(folders):
    folder = _exports.exports_root() / "abc-onnx"
    (folder / "onnx").mkdir(parents=True)
    (folder / "onnx" / "model.onnx").write_bytes(b"planted")
    os.chmod(folder, 0o777)
    built: list[int] = []
    with pytest.warns(_exports.ModelExportWarning):
        _exports.ensured(folder, "onnx/model.onnx", _build(built))
    assert built == [1] and (folder / "onnx" / "model.onnx").read_bytes() == b"the real model"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a folder away needs root")
def test_another_users_export_folder_is_refused_in_one_line(folders):
    folder = _exports.exports_root() / "abc-onnx"
    folder.mkdir(mode=0o777)
    os.chown(folder, 12345, 12345)
    with pytest.raises(_exports.ModelExportError, match=r"belongs to another user .* set CLANKA_NB_CACHE_DIR"):
        _exports.ensured(folder, "onnx/model.onnx", _build([]))
    root = _exports.exports_root()
    os.chown(root, 12345, 12345)
    with pytest.raises(_exports.ModelExportError, match="model-exports belongs to another user"):
        _exports.exports_root()


def test_a_linked_exports_folder_is_refused(folders):
    (folders / "cache").mkdir()
    (folders / "elsewhere").mkdir()
    (folders / "cache" / "model-exports").symlink_to(folders / "elsewhere")
    with pytest.raises(_exports.ModelExportError, match="is a symbolic link"):
        _exports.exports_root()


def test_a_model_naming_code_of_its_own_is_refused(folders):
    model = folders / "model"
    model.mkdir()
    (model / "modules.json").write_text(json.dumps([{"type": "sentence_transformers.models.Transformer"},
                                                    {"type": "my_package.Pooling"}]))  # fmt: skip
    with pytest.raises(_exports.ModelExportError, match=r"names code of its own .*'my_package.Pooling'"):
        _exports.check_modules(model)
    (model / "modules.json").write_text(json.dumps(MODULES))
    _exports.check_modules(model)
