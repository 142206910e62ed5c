"""`churn` and its companions: the cost of keeping clanka's index fresh over a git history, as DataFrames."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Unpack

import numpy as np
import pandas as pd

from ..defaults import CHUNK_SETTING_NAMES, CHUNK_SIZE, INDEX_MAX_CHARACTERS, MAX_FILE_SIZE
from ..engine import ParseCache
from ..engine.progress import ProgressBar
from ..engine.settings import Grid, GridKeywords, Settings, checked_keywords, setting_keywords
from ..engine.warn import warn_at_user
from ..figures import literal_text, new_figure
from ._churn import REASONS, _Step, _walk
from ._git import ChurnWarning

if TYPE_CHECKING:
    from matplotlib.figure import Figure

SETTING_COLUMNS = list(CHUNK_SETTING_NAMES)


@setting_keywords(chunk_size=CHUNK_SIZE, chunk_max_characters=INDEX_MAX_CHARACTERS)
def churn(
    repo: str | os.PathLike[str],
    *,
    revs: str = "HEAD~50..HEAD",
    token_counter: object = None,
    cache: bool | ParseCache = True,
    progress: ProgressBar = None,
    languages: str | None = None, max_file_size: str | int = MAX_FILE_SIZE,
    **given: Unpack[GridKeywords],
) -> pd.DataFrame:
    """One row per (commit, setting), oldest first along first parents: what a sync after that commit embeds.

    Each setting argument takes one value or a list (the grid, as in `sweep`). Columns: `commit`,
    `date`, `subject`, `files_changed`, the settings, `inputs` (distinct embedding inputs after the
    commit), `embedded` (inputs whose SHA-256 the previous commit's index lacks), `reused`, `deleted`,
    why inputs were embedded (`new_file`, `edited`, `line_shift`: same chunk text, moved lines),
    `seconds`, and `tokens_embedded` when a `token_counter` is given (as for chunk frames: a callable
    text -> int, a tiktoken encoding, a `tokenizers.Tokenizer` or "cl100k_base"). The commit just
    before the range is the baseline; only the files each commit changed are read and parsed.

    `repo` may be a folder inside a clone (a monorepo's package): then only the files under it count,
    paths are relative to it and the ignore files of the folders above it apply, as when clanka indexes
    that folder; `files_changed` counts changes inside it, and commits outside it embed nothing. A
    folder with no tracked file over the range is a `ChurnError`.

    Submodules are not counted (their files are another repository's history; `chunk_codebase` of a
    checkout does chunk them): `attrs["submodules"]` lists those the range holds, and `attrs["note"]`
    says so when there are any. Run `churn` on a submodule's own folder for its history. A path this
    file system cannot hold (a name too long) is left out, as a checkout leaves it out: listed in
    `attrs["unwritable"]`, noted, and warned about (`ChurnWarning`).

    Args:
        repo: A git clone, or a folder inside one (a monorepo's package).
        revs: The commits, as git names a range; the commit before it is the baseline.
        token_counter: Adds `tokens_embedded` (a callable, a tiktoken encoding, a `tokenizers.Tokenizer`, or
            "cl100k_base").
        cache: Reuse parses across runs (True: the parse cache on disk; a `ParseCache`; False: none).
        progress: None shows a bar only for work over a second, False never, True always.

    Returns:
        One row per (commit, setting): what a sync after that commit embeds, reuses and deletes.

    Raises:
        ChurnError: `repo` is no git clone, the range is empty, or the folder holds no tracked file.

    Examples:
        >>> cn.churn("my-repo", revs="HEAD~20..HEAD", chunk_size=[20, 40])
    """
    grid = Grid(**given)
    opening = Settings(languages=languages, max_file_size=max_file_size)
    steps = list(_walk(repo, revs, grid, opening, token_counter, cache, progress))
    rows = [row for step in steps for row in step.rows]
    return _noted(_typed(pd.DataFrame(rows, columns=_commit_columns(token_counter is not None))), steps)


@setting_keywords(chunk_size=CHUNK_SIZE, chunk_max_characters=INDEX_MAX_CHARACTERS)
def churn_files(
    repo: str | os.PathLike[str],
    *,
    revs: str = "HEAD~50..HEAD",
    cache: bool | ParseCache = True,
    progress: ProgressBar = None,
    languages: str | None = None, max_file_size: str | int = MAX_FILE_SIZE,
    **given: Unpack[GridKeywords],
) -> pd.DataFrame:
    """Where `churn` comes from: one row per (commit, setting, file) whose inputs a sync embeds or deletes.

    `change` is "added", "modified" or "deleted" (as the index sees it: a file that becomes listed or
    unlisted counts as added or deleted); `embedded` splits into `new_file`, `edited` and `line_shift`.
    Rows of one commit and setting come most embedded first. For a folder inside a clone, only its
    files appear, with paths relative to it (as in `churn`). Submodules are not counted (see `churn`).

    Args:
        repo: A git clone, or a folder inside one (a monorepo's package).
        revs: The commits, as git names a range; the commit before it is the baseline.
        cache: Reuse parses across runs (True: the parse cache on disk; a `ParseCache`; False: none).
        progress: None shows a bar only for work over a second, False never, True always.

    Returns:
        One row per (commit, setting, file) whose inputs a sync embeds or deletes.

    Raises:
        ChurnError: `repo` is no git clone, the range is empty, or the folder holds no tracked file.

    Examples:
        >>> cn.churn_files("my-repo", revs="HEAD~5..HEAD").head()
    """
    grid = Grid(**given)
    opening = Settings(languages=languages, max_file_size=max_file_size)
    steps = list(_walk(repo, revs, grid, opening, None, cache, progress))
    rows = [row for step in steps for row in step.file_rows]
    frame = _typed(pd.DataFrame(rows, columns=["commit", *SETTING_COLUMNS, "path", "change", "embedded", "deleted",
                                               *REASONS]))
    order = pd.Series(pd.factorize(frame["commit"])[0], index=frame.index)
    frame = frame.assign(_order=order).sort_values(
        ["_order", *SETTING_COLUMNS, "embedded", "path"],
        ascending=[True, *(True for _ in SETTING_COLUMNS), False, True], kind="stable",
    )
    return _noted(frame.drop(columns="_order").reset_index(drop=True), steps)


def _noted(frame: pd.DataFrame, steps: list[_Step]) -> pd.DataFrame:
    """What the rows leave out, in `attrs`: the submodules of the range and the paths this file system
    cannot hold, with a note saying so (and a warning for the latter)."""
    submodules = sorted(steps[-1].submodules) if steps else []
    unwritable = list(steps[-1].unwritable) if steps else []
    frame.attrs["submodules"] = submodules
    frame.attrs["unwritable"] = unwritable
    notes = []
    if submodules:
        notes.append(
            f"{_count(submodules, 'submodule')} ({_shown(submodules)}) not counted: churn reads this repository's "
            "history only; run churn on a submodule's folder for its own"
        )
    if unwritable:
        notes.append(
            f"{_count(unwritable, 'path')} ({_shown(unwritable)}) left out: this file system cannot hold "
            "the name (too long, or not valid here), as a checkout of it would leave it out"
        )
        warn_at_user(notes[-1], ChurnWarning)
    if notes:
        frame.attrs["note"] = "; ".join(notes)
    return frame


def _count(items: list[str], noun: str) -> str:
    return f"{len(items)} {noun}{'s' if len(items) > 1 else ''}"


def _shown(items: list[str]) -> str:
    return ", ".join(repr(item) for item in items[:5]) + (", ..." if len(items) > 5 else "")


@checked_keywords
def churn_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per setting of a `churn` frame: commits, mean and 95th-percentile inputs embedded per commit,
    the total, and the share of embedded inputs that were re-embedded only because their lines moved.

    Args:
        frame: A `churn` frame.

    Returns:
        One row per setting.

    Examples:
        >>> cn.churn_summary(cn.churn("my-repo", chunk_size=[20, 40]))
    """
    missing = [c for c in [*SETTING_COLUMNS, "embedded", "line_shift"] if c not in frame.columns]
    if missing:
        msg = f"not a churn frame (no {', '.join(missing)}); pass what cn.churn(...) returns"
        raise ValueError(msg)
    groups = frame.groupby(SETTING_COLUMNS, dropna=False, sort=True)
    summary = groups.agg(
        commits=("embedded", "size"),
        mean_embedded=("embedded", "mean"),
        p95_embedded=("embedded", lambda s: float(np.percentile(s, 95)) if len(s) else np.nan),
        total_embedded=("embedded", "sum"),
        line_shift=("line_shift", "sum"),
        mean_inputs=("inputs", "mean"),
    )
    summary["line_shift_share"] = summary["line_shift"] / summary["total_embedded"].where(summary["total_embedded"] > 0)
    if "tokens_embedded" in frame.columns:
        summary["tokens_embedded"] = groups["tokens_embedded"].sum()
    return summary.drop(columns="line_shift").reset_index()


@checked_keywords
def plot_churn(frame: pd.DataFrame) -> Figure:
    """Two panels: inputs embedded at each commit, one line per setting; and the running total of what was
    embedded (tokens when the frame has `tokens_embedded`, else inputs).

    Args:
        frame: A `churn` frame.

    Returns:
        The matplotlib figure.

    Examples:
        >>> cn.plot_churn(cn.churn("my-repo", chunk_size=[20, 40]))
    """
    from matplotlib.ticker import MaxNLocator

    churn_summary(frame)  # the same check of the frame's columns
    figure = new_figure()
    figure.set_size_inches(8, 6)
    per_commit, total = figure.subplots(2, 1, sharex=True)
    measure = "tokens_embedded" if "tokens_embedded" in frame.columns else "embedded"
    commits = pd.factorize(frame["commit"])[0]
    for key, rows in frame.assign(_i=commits).groupby(SETTING_COLUMNS, dropna=False, sort=True):
        size, overlap, limit = key
        label = f"size {size}, overlap {overlap}, " + ("no limit" if pd.isna(limit) else f"max {limit} chars")
        per_commit.plot(rows["_i"], rows["embedded"], marker=".", linewidth=1, label=label)
        total.plot(rows["_i"], rows[measure].cumsum(), label=label)
    if len(frame):
        per_commit.legend(fontsize="small")
    else:
        per_commit.text(0.5, 0.5, "no commits", ha="center", va="center", transform=per_commit.transAxes)
    per_commit.set_ylabel("inputs embedded")
    per_commit.set_title("Re-embedding per commit")
    total.set_ylabel(measure.replace("_", " ") + " (running total)")
    total.set_xlabel("commit (oldest first)")
    # Commits are counted, never halved: whole-number ticks only (the axes share x).
    total.xaxis.set_major_locator(MaxNLocator(integer=True))
    return literal_text(figure)


def _commit_columns(tokens: bool) -> list[str]:
    columns = [
        "commit", "date", "subject", "files_changed", *SETTING_COLUMNS, "inputs", "embedded", "reused", "deleted",
        *REASONS, "seconds",
    ]  # fmt: skip
    return [*columns, "tokens_embedded"] if tokens else columns


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    types: dict[str, Any] = {}
    for column in frame.columns:
        if column in ("commit", "subject", "path"):
            types[column] = "string"
        elif column == "change":
            types[column] = pd.CategoricalDtype(["added", "modified", "deleted"])
        elif column in ("seconds",):
            types[column] = "float64"
        elif column != "date":
            types[column] = "Int64"
    frame = frame.astype(types)
    if "date" in frame.columns:
        frame["date"] = pd.to_datetime(frame["date"], utc=True)
    return frame
