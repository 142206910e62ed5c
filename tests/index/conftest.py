"""Shared pieces for the index tests: a copy of the sample codebase and an embedder that counts its calls."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

import clanka_nb
from clanka_nb.index import VectorCache, embedders

pytest.importorskip("apsw")
pytest.importorskip("sqlite_vec")


class Counting:
    """The hashed-words STAND-IN embedder (not a language model), recording every text it is asked to embed."""

    def __init__(self, dimensions: int = 32) -> None:
        self.inner = embedders.hashed_words(dimensions)
        self.model_id = f"{self.inner.model_id}/counting"
        self.texts: list[str] = []
        self.calls = 0

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.calls += 1
        self.texts.extend(texts)
        return self.inner(texts)


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    target = tmp_path / "sample"
    shutil.copytree(clanka_nb.sample_codebase(), target)
    return target


@pytest.fixture
def counting() -> Counting:
    return Counting()


@pytest.fixture
def cache() -> VectorCache:
    """A fresh cache per test, so counts do not depend on what earlier tests embedded."""
    return VectorCache()
