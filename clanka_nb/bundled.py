"""The sample codebase that ships inside the package: the default source when a user gives none."""

from __future__ import annotations

import importlib.resources
import pathlib


def sample_codebase() -> pathlib.Path:
    """Path of the small multi-language codebase that ships with clanka-nb (the default source)."""
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
