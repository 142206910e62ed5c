"""Column names and dtypes of every frame, and how to build a frame (empty or not) that has them.

One convention everywhere, chosen to be Arrow-friendly and to show missing values as `pd.NA`:
text is the `string` dtype, counts are `Int64`, ratios and statistics `Float64`, flags
`boolean`, and closed sets of values (chunk types, chunkers, file statuses) categoricals.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from .. import engine
from ..defaults import CHUNK_SETTING_NAMES

STRING = pd.StringDtype()
INT = pd.Int64Dtype()
FLOAT = pd.Float64Dtype()
BOOL = pd.BooleanDtype()


def _categories(values: Sequence[str]) -> pd.CategoricalDtype:
    # Categories of the string dtype: a missing value then shows as <NA>, as in the text columns beside it
    # (object categories would show NaN in `type` next to <NA> in `name` and `parent`).
    return pd.CategoricalDtype(pd.Index(list(values), dtype=STRING))


TYPE = _categories(engine.CHUNK_TYPES)
CHUNKER = _categories(engine.CHUNKERS)
STATUS = _categories([status.value for status in engine.FileStatus])
LINE_STATUS = _categories(["missed", "covered", "overlapped"])

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

# The token statistics of a sweep row, named by what counted them. Without a tokenizer they are the chars/4
# estimate (a `tokens_total` of 675347.5 is no count), so their names say so: `est_tokens_mean`,
# `est_tokens_p95`, `est_tokens_total`. A real counter's are `tokens_mean`, `tokens_p95` and `tokens_total`,
# the total a whole number. Every maker and reader of these columns goes through the names here.
TOKEN_STATS = ("mean", "p95", "total")
ESTIMATE_PREFIX = "est_"


def token_stat(stat: str, *, estimated: bool) -> str:
    """The column of one token statistic (`stat` one of TOKEN_STATS): `est_tokens_<stat>` for the chars/4
    estimate, `tokens_<stat>` for a tokenizer's counts."""
    if stat not in TOKEN_STATS:
        msg = f"no token statistic {stat!r}; one of {', '.join(TOKEN_STATS)}"
        raise ValueError(msg)
    return f"{ESTIMATE_PREFIX if estimated else ''}tokens_{stat}"


def token_stats_schema(*, estimated: bool) -> Schema:
    """The token statistics' columns: a tokenizer's total is a whole count (Int64), the estimate's is not."""
    return {
        token_stat("mean", estimated=estimated): FLOAT,
        token_stat("p95", estimated=estimated): FLOAT,
        token_stat("total", estimated=estimated): FLOAT if estimated else INT,
    }


def token_stat_in(columns: Iterable[str], stat: str) -> str | None:
    """The column of `stat` that `columns` (a frame's columns, a row's keys) has, counted or estimated; None if
    neither. The one place readers (the CLI's table, the tuning panel) find whichever a table carries."""
    names = set(columns)
    for estimated in (False, True):
        name = token_stat(stat, estimated=estimated)
        if name in names:
            return name
    return None


def sweep_schema(*, estimated: bool = True) -> Schema:
    """The sweep's columns, with the token statistics named as estimates (`estimated`) or as counts."""
    return {
        **dict.fromkeys(CHUNK_SETTING_NAMES, INT),  # every chunk setting is a whole number (the limit NA for none)
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
        **token_stats_schema(estimated=estimated),
        "split_declarations": FLOAT,
        "coverage": FLOAT,
        "duplication": FLOAT,
        "seconds": FLOAT,
    }


SWEEP: Schema = sweep_schema(estimated=True)  # a sweep without a token counter


# A code point UTF-8 cannot hold: a lone surrogate. Python keeps a file name's undecodable bytes as
# U+DC80..U+DCFF (surrogateescape); text can hold any lone surrogate (`"\\ud800"`).
_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    point = ord(match.group())
    # A byte the file system gave (0x80..0xFF) reads as `\xff`, as `ls -b` shows it; any other as `\ud800`.
    return f"\\x{point - 0xDC00:02x}" if 0xDC80 <= point <= 0xDCFF else f"\\u{point:04x}"


def readable(text: str) -> str:
    """`text` with each code point that cannot be UTF-8 written as an escape (`bad\\xff\\xfename.ts`).

    The one policy for paths and text at the frame boundary: Arrow, Parquet, JSON and CSV need UTF-8,
    so a name that is not UTF-8, or text with a lone surrogate, is shown readably instead of failing.
    The engine keeps the exact text (its chunks are the reference's); only what frames show changes.
    """
    return _SURROGATE.sub(_escape, text)


def _readable_strings(values: list[Any]) -> list[Any]:
    return [readable(v) if isinstance(v, str) else v for v in values]


def _array(values: Sequence[Any] | np.ndarray, dtype: Any) -> Any:
    if isinstance(dtype, pd.CategoricalDtype):
        return pd.Categorical(values, dtype=dtype)
    if isinstance(values, np.ndarray) and values.dtype.kind in "iufb":
        return pd.array(values, dtype=dtype)  # no per-item None checks on the fast path
    if isinstance(values, pd.api.extensions.ExtensionArray) and values.dtype == dtype:
        return values  # built column by column already (TextColumn): no second copy
    items = list(values)
    try:
        return pd.array(items, dtype=dtype)
    except UnicodeEncodeError:  # rare, so the common case pays nothing for the check
        return pd.array(_readable_strings(items), dtype=dtype)


class TextColumn:
    """A big text column built piece by piece into Arrow, so the Python strings are freed as it grows.

    A chunk frame's content would otherwise exist twice at its peak: as Python strings and as the
    Arrow copy pandas makes of them.
    """

    __slots__ = ("_arrays", "_pending", "_pending_chars")
    _FLUSH_CHARS = 1 << 20

    def __init__(self) -> None:
        self._arrays: list[pa.Array] = []
        self._pending: list[str | None] = []
        self._pending_chars = 0

    def extend(self, texts: Sequence[str | None]) -> None:
        self._pending.extend(texts)
        self._pending_chars += sum(len(t) for t in texts if t is not None)
        if self._pending_chars >= self._FLUSH_CHARS:
            self._flush()

    def _flush(self) -> None:
        if self._pending:
            try:
                self._arrays.append(pa.array(self._pending, type=pa.large_string()))
            except UnicodeEncodeError:
                self._arrays.append(pa.array(_readable_strings(self._pending), type=pa.large_string()))
        self._pending, self._pending_chars = [], 0

    def array(self) -> Any:
        """The column as a pandas `string` array (the builder is spent afterwards)."""
        self._flush()
        chunks = pa.chunked_array(self._arrays, type=pa.large_string())
        self._arrays = []
        return pd.array(chunks, dtype=STRING)


Column = Sequence[Any] | np.ndarray
"""A column's values as `build` takes them."""


def build(columns: Mapping[str, Column], schema: Schema, attrs: Mapping[str, Any]) -> pd.DataFrame:
    """A frame with exactly the schema's columns and dtypes (plus any extra given columns, as text)."""
    names = list(schema) + [name for name in columns if name not in schema]
    data = {name: _array(columns.get(name, ()), schema.get(name, STRING)) for name in names}
    frame = pd.DataFrame(data, copy=False)
    frame.attrs.update(attrs)
    return frame

