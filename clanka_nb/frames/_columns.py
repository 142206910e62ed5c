"""Column names and dtypes of every frame, and how to build a frame (empty or not) that has them.

One convention everywhere, chosen to be Arrow-friendly and to show missing values as `pd.NA`:
text is the `string` dtype, counts are `Int64`, ratios and statistics `Float64`, flags
`boolean`, and closed sets of values (chunk types, chunkers, file statuses) categoricals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .. import engine

STRING = pd.StringDtype()
INT = pd.Int64Dtype()
FLOAT = pd.Float64Dtype()
BOOL = pd.BooleanDtype()
TYPE = pd.CategoricalDtype(list(engine.CHUNK_TYPES))
CHUNKER = pd.CategoricalDtype(["ast", "window"])
STATUS = pd.CategoricalDtype([status.value for status in engine.FileStatus])
LINE_STATUS = pd.CategoricalDtype(["missed", "covered", "overlapped"])

Schema = Mapping[str, Any]

CHUNKS: Schema = {
    "path": STRING,
    "start_line": INT,
    "end_line": INT,
    "name": STRING,
    "type": TYPE,
    "parent": STRING,
    "content": STRING,
    "lines": INT,
    "characters": INT,
    "language": STRING,
    "chunker": CHUNKER,
}
EMBEDDING_COLUMN = "embedding_input"

FILES: Schema = {
    "path": STRING,
    "language": STRING,
    "bytes": INT,
    "lines": INT,
    "status": STATUS,
    "reason": STRING,
    "chunker": CHUNKER,
    "chunks": INT,
    "meaningful_lines": INT,
    "covered_lines": INT,
    "coverage": FLOAT,
    "binary": BOOL,
}

COVERAGE: Schema = {
    "path": STRING,
    "status": STATUS,
    "chunker": CHUNKER,
    "meaningful_lines": INT,
    "covered_lines": INT,
    "missed_lines": INT,
    "overlapped_lines": INT,
    "coverage": FLOAT,
    "missed": STRING,
}

LINES: Schema = {
    "path": STRING,
    "line": INT,
    "text": STRING,
    "chunks": INT,
    "status": LINE_STATUS,
}

SWEEP: Schema = {
    "chunk_size": INT,
    "chunk_overlap": INT,
    "chunk_max_characters": INT,
    "effective_size": INT,
    "effective_overlap": INT,
    "clamped": BOOL,
    "chunks": INT,
    "lines_mean": FLOAT,
    "lines_median": FLOAT,
    "lines_p95": FLOAT,
    "characters_mean": FLOAT,
    "characters_median": FLOAT,
    "characters_p95": FLOAT,
    "tokens_mean": FLOAT,
    "tokens_p95": FLOAT,
    "tokens_total": FLOAT,
    "split_declarations": FLOAT,
    "coverage": FLOAT,
    "duplication": FLOAT,
    "seconds": FLOAT,
}


def _array(values: Sequence[Any] | np.ndarray, dtype: Any) -> Any:
    if isinstance(dtype, pd.CategoricalDtype):
        return pd.Categorical(values, dtype=dtype)
    if isinstance(values, np.ndarray) and values.dtype.kind in "iufb":
        return pd.array(values, dtype=dtype)  # no per-item None checks on the fast path
    return pd.array(list(values), dtype=dtype)


def build(columns: Mapping[str, Sequence[Any] | np.ndarray], schema: Schema, attrs: Mapping[str, Any]) -> pd.DataFrame:
    """A frame with exactly the schema's columns and dtypes (plus any extra given columns, as text)."""
    names = list(schema) + [name for name in columns if name not in schema]
    data = {name: _array(columns.get(name, ()), schema.get(name, STRING)) for name in names}
    frame = pd.DataFrame(data, copy=False)
    frame.attrs.update(attrs)
    return frame


def empty(schema: Schema, attrs: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """A frame with no rows but the right columns and dtypes."""
    return build({}, schema, attrs or {})
