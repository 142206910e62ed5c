"""Write a table of results as a readable table, JSON lines, CSV or Parquet (imported only when needed)."""

from __future__ import annotations

import errno
import json
import os
import secrets
import stat
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

import pandas as pd

from ..defaults import CHUNK_SETTING_NAMES
from ..metrics import BUDGET_COVERED, BUDGET_FOUND, RECALL, TOKENS, is_metric_column, metric_of
from ._errors import CommandError
from ._fit import TABLE_WIDTH, render
from ._terminal import json_safe, visible

# The chunk table on a terminal: where each chunk is and what it is, not its content.
CHUNK_TABLE_COLUMNS = ("path", "line_range", "type", "name", "parent")
# The sweep table on a terminal: the settings and the numbers that decide between them (csv/jsonl have all).
# TOKENS_P95 stands for the sweep's own p95 column: `est_tokens_p95` (chars/4) or `tokens_p95` (counted).
TOKENS_P95 = "tokens_p95"
SWEEP_TABLE_COLUMNS = (
    *CHUNK_SETTING_NAMES, "chunks", "lines_median", "lines_p95",
    "characters_p95", TOKENS_P95, "split_declarations", "coverage", "duplication",
)

# What a table on the terminal keeps when 100 columns cannot hold it all (`_fit.render`): the essential columns
# are left out last, the others in the reverse of their priority. Files written with -o have every column.
FILES_ESSENTIAL = ("path", "status", "chunks", "coverage")
FILES_PRIORITY = ("language", "reason", "lines", "chunker", "meaningful_lines", "covered_lines", "bytes", "binary")
EXPLAIN_ESSENTIAL = ("lines", "type", "name", "rule", "why")
CHURN_ESSENTIAL = ("commit", "path", "change", *CHUNK_SETTING_NAMES, "embedded")
CHURN_PRIORITY = ("inputs", "reused", "deleted", "files_changed", "new_file", "edited", "line_shift")
INDEX_ESSENTIAL = ("root", "status", "error")
INDEX_PRIORITY = ("chunks", "embedded", "inputs", "cached", "reused", "deleted", "files", "seconds")


# The format an output file's extension asks for; any other extension is written as the plain table.
# A .txt file takes any text format given with --format (csv, jsonl...), only not binary parquet.
EXTENSION_FORMATS = {
    ".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl",
    ".json": "json", ".txt": "table",
}


def resolve_format(fmt: str | None, output: str | None) -> str:
    """The output format: `--format` when given, else the one `-o`'s extension names, else the table.

    A `--format` that contradicts a known extension (`--format csv -o out.parquet`) is an error, and so is an
    unknown extension without `--format` (`-o out.parquetx`). A name with no extension gets the table.
    """
    suffix = "" if output is None else Path(output).suffix.lower()
    implied = EXTENSION_FORMATS.get(suffix)
    if fmt is None:
        if suffix and implied is None:
            # `-o out.parquetx` wrote a text table before: a typo must not pass for a format.
            known = ", ".join(EXTENSION_FORMATS)
            msg = (f"-o {output!r}: {suffix!r} is not an extension of a known format; name the file with one "
                   f"of {known}, or say the format with --format")  # fmt: skip
            raise CommandError(msg, exit_code=2)
        return implied or "table"
    if implied is not None and implied != fmt and not (implied == "table" and fmt != "parquet"):
        msg = (
            f"--format {fmt} contradicts -o {output!r}, whose extension means {implied}; "
            f"drop --format, or name the file for {fmt} (e.g. -o out.{_EXTENSION[fmt]})"
        )
        raise CommandError(msg, exit_code=2)
    return fmt


_EXTENSION = {"parquet": "parquet", "csv": "csv", "jsonl": "jsonl", "json": "json", "table": "txt"}


def check_destination(fmt: str, output: str | None) -> None:
    """Fail before any work when the output cannot be written: a missing folder, a folder, no permission."""
    if fmt == "parquet" and output is None:
        msg = "parquet is binary and cannot go to the terminal; add -o FILE.parquet"
        raise CommandError(msg, exit_code=2)
    if output is None:
        return
    path = Path(output).expanduser()
    if path.is_dir():
        msg = f"cannot write {output!r}: it is a folder; pass a file name, e.g. -o chunks.{_EXTENSION[fmt]}"
        raise CommandError(msg, exit_code=1)
    folder = path.resolve().parent
    if not folder.is_dir():
        msg = f"cannot write {output!r}: folder {str(folder)!r} does not exist; create it or pick another -o"
        raise CommandError(msg, exit_code=1)
    try:
        if path.exists() and not os.access(path, os.W_OK):
            # Not opened: opening a FIFO would be its reader's end of file (and a file is replaced, not opened).
            raise OSError(errno.EACCES, os.strerror(errno.EACCES))
        if not _in_place(path):
            # A temporary file made and removed again beside the destination, as the write will make one: a
            # folder such as /proc that takes no new files, or one this user may not write, fails here, not later.
            temporary, descriptor = _temporary_beside(Path(os.path.realpath(path)))
            os.close(descriptor)
            temporary.unlink()
    except OSError as error:
        raise _write_error(output, error) from None


# Paths that name a file already open (/dev/stdout, /dev/fd/1, /proc/self/fd/1) are written where they point:
# replacing what /dev/stdout resolves to would replace the file a shell's `>>` appends to.
_OPEN_FILES = ("/dev/", "/proc/")
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)  # not on Windows


def _in_place(path: Path) -> bool:
    """Whether `path` is written in place, opened once (a FIFO, a device, an open file), not replaced."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return False
    return not stat.S_ISREG(mode) or str(path.absolute()).startswith(_OPEN_FILES)


def _temporary_beside(target: Path) -> tuple[Path, int]:
    """A new file in `target`'s folder, opened for writing (mode 0666 less the umask, as a plain open gives)."""
    for _ in range(3):  # 64 random bits: a second try is already never needed
        temporary = target.with_name(f".{target.name[:64]}.{secrets.token_hex(8)}.clanka-nb.tmp")
        try:
            return temporary, os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, 0o666)
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, f"no free temporary name beside {target.name}")


def _replace(path: Path, dump: Callable[[IO[bytes]], None]) -> None:
    """Write `path` whole or not at all: `dump` fills a temporary file beside it, which is then renamed onto it.

    A write that fails (a full disk) removes the temporary file and leaves the old one as it was. Through a
    symbolic link, the file it points to is replaced (the link stays); a replaced file keeps its mode.
    """
    target = Path(os.path.realpath(path))
    temporary, descriptor = _temporary_beside(target)
    done = False
    try:
        with os.fdopen(descriptor, "wb") as handle:
            if target.exists():
                os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))
            dump(handle)
            handle.flush()
            os.fsync(handle.fileno())  # on the disk before the rename makes it the file
        os.replace(temporary, target)
        done = True
    finally:
        if not done:
            temporary.unlink(missing_ok=True)


def _write_error(output: str, error: OSError) -> CommandError:
    reason = error.strerror or str(error)
    msg = f"cannot write {output!r}: {reason}; pick another -o (a file in a folder this user may write)"
    return CommandError(msg, exit_code=1)


def chunk_table(chunks: pd.DataFrame) -> pd.DataFrame:
    """The short view of chunks: `line_range` as `start-end` (a range, where `lines` elsewhere is a count)."""
    view = chunks.loc[:, ["path", "type", "name", "parent"]].copy()
    view.insert(1, "line_range", chunks["start_line"].astype(str) + "-" + chunks["end_line"].astype(str))
    return view.loc[:, list(CHUNK_TABLE_COLUMNS)]


def sweep_table(sweep: pd.DataFrame) -> pd.DataFrame:
    """The short view of a sweep; the effective settings are shown only when clanka clamped some."""
    # Here, not at the top: checking -o (`check_destination`) before any work should not load the frames.
    from ..frames.columns import token_stat_in

    # The header says what the files say: the chars/4 estimate is shown under its estimate's name.
    tokens = token_stat_in(sweep.columns, "p95")
    columns = [tokens if name == TOKENS_P95 else name for name in SWEEP_TABLE_COLUMNS]
    columns = [name for name in columns if name is not None]
    if "chunker_label" in sweep.columns:  # with --chunkers: which chunker each row is, and its fallback
        columns[:0] = ["chunker_label"]
        columns.append("fallback_files")
        if "timed_out_files" in sweep.columns and sweep["timed_out_files"].fillna(0).gt(0).any():
            columns.append("timed_out_files")  # a chunker could not cut some files in time: the table says so
        columns += [name for name in ("uncut_languages", "ranked") if name in sweep.columns]  # not ranked: why
    if "reference" in sweep.columns:  # probed: which row is clanka's own setting
        columns.insert(columns.index(CHUNK_SETTING_NAMES[-1]) + 1, "reference")
    if sweep["clamped"].any():
        at = columns.index(CHUNK_SETTING_NAMES[-1]) + 1
        columns[at:at] = ["effective_size", "effective_overlap"]
    # With --probe: how well search finds the code at each setting. The intervals are in the full formats; the
    # table keeps the verdict's measure's (MRR's too: the measure without a budget).
    metric = (sweep.attrs.get("verdict") or {}).get("metric")
    shown = {"queries", "scored_on", "searcher", "mrr", "mrr_low", "mrr_high",
             *((f"{metric}_low", f"{metric}_high") if metric else ())}
    listed = (RECALL, TOKENS, BUDGET_FOUND, BUDGET_COVERED)  # each at every cut-off or budget; lines@k only in -o
    columns += [name for name, found in zip(sweep.columns, map(metric_of, sweep.columns), strict=True)
                if name in shown or (found is not None and found.family in listed)]
    return sweep.loc[:, columns]


def sweep_priority(table: pd.DataFrame) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The sweep table's essential columns and the others by importance: which row it is (chunker, settings) and
    the verdict's measure, then the files a chunker could not cut in time, its fallback, the count of chunks, the
    measure's interval, MRR and the costs (coverage, size), then the rest. A chunker's label is never cut for a
    column of numbers."""
    metric = (table.attrs.get("verdict") or {}).get("metric")
    # With chunkers, how many files each one did not cut itself is essential: a row of fallback files alone
    # scores clanka's cut, not the chunker's, and a terminal user must see that beside its numbers.
    # The files a chunker could not cut in time too (the column is there only when some were).
    fallback = [name for name in ("fallback_files", "timed_out_files") if name in table.columns]
    # Which searcher scored each row (BM25's screen, the model's confirmation) is essential beside its numbers.
    essential = ("chunker_label", *fallback, *CHUNK_SETTING_NAMES, "reference", "effective_size", "effective_overlap",
                 "searcher", metric)  # fmt: skip
    tokens = [name for name in table.columns if name.endswith(TOKENS_P95)]
    priority = ("uncut_languages", "ranked", "chunks", f"{metric}_low", f"{metric}_high", "mrr",
                "coverage", *tokens, "lines_p95",
                *(name for name in table.columns if is_metric_column(name)), "mrr_low", "mrr_high",
                "split_declarations", "duplication", "lines_median", "characters_p95")  # fmt: skip
    return tuple(name for name in essential if name), priority


def write(
    frame: pd.DataFrame, fmt: str, output: str | None, *, table: pd.DataFrame | None = None,
    essential: Sequence[str] = (), priority: Sequence[str] = (),
) -> None:
    """Write `frame` in `fmt`; `table` replaces it for the table format (a shorter view).

    The table fits `TABLE_WIDTH` columns, on the terminal as in a .txt file: `essential` names the columns left
    out last, `priority` orders the others by importance (`_fit.render`); a footer names those left out. CSV,
    JSON lines, JSON and Parquet get every column of `frame`.
    """
    check_destination(fmt, output)
    if fmt == "parquet":
        def dump(handle: IO[bytes]) -> None:
            frame.to_parquet(handle, index=False)
    else:
        if fmt == "jsonl":
            text = "".join(_json(record) + "\n" for record in _records(frame))
        elif fmt == "json":
            text = "[" + ",\n".join(_json(record) for record in _records(frame)) + "]\n"
        elif fmt == "csv":
            text = csv_safe(frame).to_csv(index=False)
        else:
            shown = frame if table is None else table
            # -o FILE.txt is what the terminal shows (tested); the data formats have every column.
            text = render(shown, width=TABLE_WIDTH, essential=essential, priority=priority)
        if output is None:
            sys.stdout.write(text)
            return
        data = text.encode("utf-8")

        def dump(handle: IO[bytes]) -> None:
            handle.write(data)
    assert output is not None  # check_destination refuses parquet to the terminal
    path = Path(output).expanduser()
    try:
        if _in_place(path):  # a FIFO, /dev/stdout: opened once, written as a stream
            with path.open("wb") as handle:
                dump(handle)
        else:
            _replace(path, dump)
    except BrokenPipeError:
        raise
    except OSError as error:  # a full disk or device (-o /dev/full), a file removed meanwhile...
        raise _write_error(output, error) from None


# A cell a spreadsheet would read as a formula (OWASP's CSV injection): `=`, `+`, `-`, `@`, tab or CR first.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` with its text cells safe in a spreadsheet: controls and bidi marks escaped as the table shows
    them (`visible`), then a cell that would start a formula prefixed with `'`. Numbers are left as they are
    (a negative number is a number, not a formula); only text is changed, and only such text."""
    out = frame.copy()
    for name in frame.columns:
        if frame[name].dtype.kind in "OSU" or isinstance(frame[name].dtype, pd.StringDtype):
            out[name] = frame[name].map(_csv_cell, na_action="ignore")
    return out


def _csv_cell(value: object) -> object:
    if isinstance(value, (list, tuple, dict)):
        value = str(value)  # as to_csv would write it
    if not isinstance(value, str):
        return value
    text = visible(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """Rows as dicts of plain Python values: every missing value (NA, NaN, NaT) is None, numbers are int/float."""
    columns = {}
    for name in frame.columns:
        values = frame[name].astype(object)
        columns[str(name)] = values.where(values.notna(), None).tolist()
    names = list(columns)
    return [dict(zip(names, row, strict=True)) for row in zip(*columns.values(), strict=True)]


_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, default=lambda value: _json_value(value))


def _json(record: dict[str, Any]) -> str:
    """One record as readable JSON: `/` and non-ASCII text as they are, missing values as null; DEL, C1
    controls and bidi marks (which JSON may leave raw) as \\u escapes, so the data stays exact and inert."""
    return json_safe(_ENCODER.encode(record))


def _json_value(value: object) -> object:
    if hasattr(value, "item"):  # numpy scalars that astype(object) left as they were
        return value.item()
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    msg = f"{type(value).__name__} cannot be written as JSON"
    raise TypeError(msg)
