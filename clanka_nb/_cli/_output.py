"""Write a table of results as a readable table, JSON lines, CSV or Parquet (imported only when needed)."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from ._errors import CommandError

# The chunk table on a terminal: where each chunk is and what it is, not its content.
CHUNK_TABLE_COLUMNS = ("path", "lines", "type", "name", "parent")
_WIDEST_CELL = 60
# The sweep table on a terminal: the settings and the numbers that decide between them (csv/jsonl have all).
SWEEP_TABLE_COLUMNS = (
    "chunk_size", "chunk_overlap", "chunk_max_characters", "chunks", "lines_median", "lines_p95",
    "characters_p95", "tokens_p95", "split_declarations", "coverage", "duplication",
)


def check_destination(fmt: str, output: str | None) -> None:
    """Fail before any work when the output cannot be written."""
    if fmt == "parquet" and output is None:
        msg = "parquet is binary and cannot go to the terminal; add -o FILE.parquet"
        raise CommandError(msg, exit_code=2)
    if output is not None:
        if Path(output).expanduser().is_dir():
            msg = f"cannot write {output!r}: it is a folder; pass a file name, e.g. -o chunks.{fmt}"
            raise CommandError(msg, exit_code=1)
        folder = Path(output).expanduser().resolve().parent
        if not folder.is_dir():
            msg = f"cannot write {output!r}: folder {str(folder)!r} does not exist; create it or pick another -o"
            raise CommandError(msg, exit_code=1)


def chunk_table(chunks: pd.DataFrame) -> pd.DataFrame:
    """The short view of chunks: `lines` as `start-end`, then type, name and parent."""
    view = chunks.loc[:, ["path", "type", "name", "parent"]].copy()
    view.insert(1, "lines", chunks["start_line"].astype(str) + "-" + chunks["end_line"].astype(str))
    return view.loc[:, list(CHUNK_TABLE_COLUMNS)]


def sweep_table(sweep: pd.DataFrame) -> pd.DataFrame:
    """The short view of a sweep; the effective settings are shown only when clanka clamped some."""
    columns = list(SWEEP_TABLE_COLUMNS)
    if sweep["clamped"].any():
        columns[3:3] = ["effective_size", "effective_overlap"]
    return sweep.loc[:, columns]


def write(frame: pd.DataFrame, fmt: str, output: str | None, *, table: pd.DataFrame | None = None) -> None:
    """Write `frame` in `fmt`; `table` replaces it for the table format (a shorter view)."""
    check_destination(fmt, output)
    if fmt == "parquet":
        frame.to_parquet(str(output), index=False)
        return
    if fmt == "jsonl":
        text = frame.to_json(orient="records", lines=True, force_ascii=False) if len(frame) else ""
        text = text if text.endswith("\n") or not text else text + "\n"
    elif fmt == "csv":
        text = frame.to_csv(index=False)
    else:
        text = fixed_width(frame if table is None else table)
    if output is None:
        sys.stdout.write(text)
    else:
        Path(output).expanduser().write_text(text, encoding="utf-8")


def fixed_width(frame: pd.DataFrame) -> str:
    """Columns padded to their widest cell: text to the left, numbers to the right."""
    if frame.empty:
        return "(no rows)\n"
    columns = []
    for name in frame.columns:
        values = frame[name]
        cells = ["" if _missing(v) else _shorten(_cell(v)) for v in values]
        width = max(len(str(name)), *(len(c) for c in cells))
        pad = str.rjust if values.dtype.kind in "iuf" else str.ljust
        columns.append([pad(str(name), width), *(pad(c, width) for c in cells)])
    return "".join("  ".join(row).rstrip() + "\n" for row in zip(*columns, strict=True))


def _missing(value: object) -> bool:
    return not isinstance(value, (list, tuple, dict)) and bool(pd.isna(value))


def _cell(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1e4 else f"{value:.0f}"
    return str(value)


def _shorten(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _WIDEST_CELL else text[: _WIDEST_CELL - 1] + "…"
