"""Real codebases for the Dask tests, their expected tables from `frames`, and a cluster of process workers."""

from __future__ import annotations

import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

import clanka_nb as cn

try:
    import distributed  # noqa: F401
except ImportError:  # the dask extra is not installed (pip install -e '.[dask]'): nothing here can run
    collect_ignore_glob = ["test_*.py"]

STDLIB = Path(sysconfig.get_paths()["stdlib"])
PANDAS = Path(pd.__file__).parent


@pytest.fixture(scope="module")
def client() -> Iterator:
    """One LocalCluster of two process workers per test module (starting one takes seconds)."""
    from clanka_nb.dask import local_client

    started = local_client(2)
    yield started
    started.close()


@pytest.fixture(scope="session")
def roots() -> list[str]:
    """Three real codebases: the bundled sample (TypeScript and more), a stdlib package, a pandas package."""
    found = [str(cn.sample_codebase()), str(STDLIB / "json"), str(PANDAS / "core" / "ops")]
    for root in found:
        assert Path(root).is_dir(), root
    return found


def with_root(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame.copy()
    frame["root"] = pd.array([frame.attrs["root"]] * len(frame), dtype=pd.StringDtype())
    return frame


def expected_chunks(roots: list[str], **settings: object) -> pd.DataFrame:
    """What `chunk_codebases` must give: `frames.chunk_codebase` per root, concatenated in order."""
    parts = [with_root(cn.chunk_codebase(root, workers=1, progress=False, **settings)) for root in roots]
    return pd.concat(parts, ignore_index=True)


def expected_files(roots: list[str], **settings: object) -> pd.DataFrame:
    parts = [with_root(cn.files(root, workers=1, progress=False, **settings)) for root in roots]
    return pd.concat(parts, ignore_index=True)
