"""A folder holding the small files of `_files`."""

from __future__ import annotations

import pytest

from tests.chunkers._files import FILES


@pytest.fixture
def folder(tmp_path):
    for path, text in FILES.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    return tmp_path
