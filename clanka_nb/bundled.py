"""What ships inside the package: the sample codebase (the default source when a user gives none) and a git
bundle of clanka's own history (the tuning notebook's commit messages)."""

from __future__ import annotations

import importlib.resources
import pathlib


def sample_codebase() -> pathlib.Path:
    """Path of the small multi-language codebase that ships with clanka-nb (the default source).

    Returns:
        The folder of the sample codebase, inside the installed package.

    Raises:
        RuntimeError: The package's files are not plain files on disk (a zip import).
        FileNotFoundError: The sample is missing from the installation.

    Examples:
        >>> cn.chunk_codebase(cn.sample_codebase()).path.nunique()
    """
    resource = importlib.resources.files("clanka_nb") / "sample"
    if not isinstance(resource, pathlib.Path):
        msg = (
            f"clanka-nb is installed somewhere its files are not plain files on disk ({resource!r}); "
            "reinstall it with `pip install clanka-nb` to use the sample codebase"
        )
        raise RuntimeError(msg)
    if not resource.is_dir():
        msg = (
            f"the sample codebase is missing from this clanka-nb installation (looked in {str(resource)!r}); "
            "reinstall clanka-nb, or pass the folder of your own code instead"
        )
        raise FileNotFoundError(msg)
    return resource


def clanka_history_bundle() -> pathlib.Path:
    """Path of the git bundle of clanka's history (427 commits, MIT; `data/NOTICE.md`) that ships with clanka-nb."""
    resource = importlib.resources.files("clanka_nb") / "data" / "clanka-history.bundle"
    if not isinstance(resource, pathlib.Path) or not resource.is_file():
        msg = (
            f"clanka's history bundle is missing from this clanka-nb installation (looked in {str(resource)!r}); "
            "reinstall clanka-nb"
        )
        raise FileNotFoundError(msg)
    return resource
