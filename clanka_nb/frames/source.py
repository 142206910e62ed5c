"""What every function that reads code takes as its source (resolved by `engine.source.resolve`, the one resolver)."""

from __future__ import annotations

import os
from typing import TypeAlias

import pandas as pd

from .. import engine

Source: TypeAlias = str | os.PathLike[str] | engine.Codebase | pd.DataFrame | None
"""What every function that reads code takes: a folder, the path of one file, a parsed `engine.Codebase`,
a chunk frame of this package (its root and settings are in `frame.attrs`, or its root in a `root`
column for frames of `clanka_nb.dask`), or None for the sample codebase that ships with clanka-nb.

A chunk frame stands for its codebase: its root opened with the frame's `languages` and
`max_file_size`, its chunk settings the defaults of every setting the caller does not pass."""
