"""The tuning panel's model: the parsed codebase, the settings of the last update and what they give
(statistics, the probe's scores, the histogram's lines, the picked file's chunks); and the pure function that
makes its statistics table. No widget here: `Tuner` holds one and feeds it its sliders' settings."""

from __future__ import annotations

import math
import warnings
from html import escape
from typing import Any

import pandas as pd

from .. import engine, frames
from ..defaults import CHUNK_SETTING_NAMES
from ..engine.settings import Settings
from ..frames.columns import TOKEN_STATS, token_stat, token_stat_in
from ..frames.cycles import paused_cycle_collection
from ..frames.stats import token_stats
from ..metrics import BUDGET_COVERED, BUDGET_FOUND, metric_of, trade_off_cost
from ..retrieval import NoProbeQueriesWarning, Probe
from ..retrieval.internals import Bootstrap, Outcome, ProbeSet, compared, scored_row
from ..sweeps.internals import Chosen, carry_back, reference_scored, reference_settings
from ._browser_model import settings_text
from ._preview import Preview
from ._render import MAX_LINES
from ._source import Texts, file_lines
from ._style import MUTED, TEXT, UI_FONT

# The token total's row: its column is `est_tokens_total` or `tokens_total` (see `token_stat_in`), by what counted.
TOKENS_TOTAL = "tokens: total"

# (key, label, format) of the statistics shown; keys are columns of `cn.sweep` (TOKENS_TOTAL: either token total).
STAT_ROWS: tuple[tuple[str, str, str], ...] = (
    ("chunks", "chunks", "{:,.0f}"),
    ("lines_mean", "lines: mean", "{:.1f}"),
    ("lines_median", "lines: median", "{:.0f}"),
    ("lines_p95", "lines: p95", "{:.0f}"),
    ("characters_mean", "characters: mean", "{:,.0f}"),
    ("characters_p95", "characters: p95", "{:,.0f}"),
    (TOKENS_TOTAL, "tokens (≈ chars / 4)", "{:,.0f}"),
    ("split_declarations", "declarations split", "{:.1%}"),
    ("coverage", "meaningful lines covered", "{:.1%}"),
    ("duplication", "duplication (lines embedded / lines)", "{:.2f}×"),
    # Shown only with the retrieval probe on (see clanka_nb.retrieval):
    ("recall@5", "search recall@5 (probe)", "{:.1%}"),
    ("mrr", "search MRR (probe)", "{:.3f}"),
    ("precision", "search precision@5 (probe)", "{:.1%}"),
    ("tokens@5", "search tokens of the top 5 (probe)", "{:,.0f}"),
)
PROBE_STATS = frozenset({"recall@5", "mrr", "precision", "tokens@5"})
# The probe's budgeted columns, one row per budget (their names hold the budget): (prefix, label, format).
BUDGET_ROWS = (("budget_found@", "search found within {budget} tokens (probe)", "{:.1%}"),
               ("budget_covered@", "search lines covered within {budget} tokens (probe)", "{:.1%}"))  # fmt: skip


def _stat_rows(stats: dict[str, Any]) -> list[tuple[str, str, str]]:
    """`STAT_ROWS`, and a row for each budgeted column the stats hold."""
    budgeted = [(key, label.format(budget=key.partition("@")[2]), pattern) for prefix, label, pattern in BUDGET_ROWS
                for key in stats if key.startswith(prefix) and not key.endswith(("_low", "_high"))]  # fmt: skip
    return [*STAT_ROWS, *budgeted]


def _probe_stat(key: str) -> bool:
    metric = metric_of(key)
    return key in PROBE_STATS or (metric is not None and metric.family in (BUDGET_FOUND, BUDGET_COVERED))

# Lines of the preview's page: every move redraws it, and the browser takes about 0.5 ms a line
# (a page of 2,000 lines of three.js was 1.7 MB of HTML and 0.9 s in Chromium); the page buttons turn it. The
# viewers' one page size: what a saved notebook holds of a view (its exported page holds the whole file).
PAGE_LINES = MAX_LINES


def _number(value: Any) -> float:
    """A score as a float; None or NA (no query scored) is NaN, which the chart leaves out."""
    return math.nan if value is None or pd.isna(value) else float(value)


def _fmt(value: Any, pattern: str) -> str:
    return "–" if value is None else pattern.format(value)


def render_stats(stats: dict[str, Any], before: dict[str, Any] | None = None, mode: str | None = None) -> str:
    """The statistics of one setting as a small table, with the previous setting's next to them; `mode`, the language
    mode the codebase is chunked in, named in the header."""
    cell = "padding:1px 8px;text-align:right;white-space:nowrap"
    rows = []
    reason = stats.get("probe_reason")
    # First: the shown setting against clanka's own, and what applies it in clanka.
    rows += [f'<tr data-stat="{key}"><td colspan="3" style="padding:1px 8px 1px 0;max-width:420px;'
             f'white-space:normal">{escape(stats[key])}</td></tr>'
             for key in ("vs_clanka", "carry") if stats.get(key) and not reason]  # fmt: skip
    for key, label, pattern in _stat_rows(stats):
        if key == TOKENS_TOTAL:
            key = token_stat_in(stats, "total") or key
            if key == token_stat("total", estimated=False):  # counted by a tokenizer, not the estimate
                label = f"tokens ({stats.get('token_counter', 'counted')})"
        if key not in stats or (reason and _probe_stat(key)):
            continue
        now = _fmt(stats.get(key), pattern)
        was = _fmt(before.get(key), pattern) if before is not None else ""
        changed = before is not None and was != now
        if stats.get(f"{key}_low") is not None:  # the probe's 95% interval over its queries
            now += f" ({_fmt(stats[f'{key}_low'], pattern)}–{_fmt(stats[f'{key}_high'], pattern)})"
        style = "font-weight:600" if changed else ""
        rows.append(
            f'<tr data-stat="{key}"><td style="padding:1px 8px 1px 0;white-space:nowrap">{escape(label)}</td>'
            f'<td style="{cell};{style}">{now}</td><td style="{cell};color:{MUTED}">{was}</td></tr>'
        )
    if stats.get("vs_before") and not reason:
        # Whether the move changed search beyond what these queries can tell (a paired test on them).
        rows.append(
            f'<tr data-stat="vs_before"><td colspan="3" style="padding:1px 8px 1px 0;color:{MUTED};max-width:420px;'
            f'white-space:normal">{escape(stats["vs_before"])}</td></tr>'
        )
    if reason and any(_probe_stat(key) for key in stats):
        # No query: say why instead of a dash in each search row.
        rows.append(
            f'<tr data-stat="probe"><td colspan="3" style="padding:1px 8px 1px 0;color:{MUTED};max-width:420px;'
            f'white-space:normal">search probe (recall, MRR): no queries, because {escape(reason)}</td></tr>'
        )
    named = {**{k: stats[k] for k in CHUNK_SETTING_NAMES}, "languages": mode}  # the mode is never hidden
    settings = escape(settings_text(named))
    clamped = " (clamped: the engine uses " if stats.get("clamped") else ""
    if clamped:
        clamped += f"size {stats['effective_size']}, overlap {stats['effective_overlap']})"
    return (
        f'<div data-clanka="stats" style="{UI_FONT};color:{TEXT}"><div style="margin-bottom:4px">'
        f'<b>{settings}</b>{escape(clamped)}</div><table style="border-collapse:collapse">'
        f'<tr><th></th><th style="{cell}">now</th><th style="{cell};color:{MUTED}">before</th></tr>'
        f"{''.join(rows)}</table></div>"
    )


# The trade-off's point of clanka's own setting (scored once, when the probe first runs), marked in the chart.
REFERENCE_POINT = "clanka's setting: 30 lines, no overlap, at most 10,000 characters"


class TunerModel:
    """One codebase re-chunked at one setting after another.

    State: `codebase`, `texts`, `token_counter` (resolved; None: the chars/4 estimate), `shown` (the `Settings` of
    the last update; `shown.chunk` as the engine uses them), `stats` (the `cn.sweep` row of those settings, with
    the probe's scores when it ran), `before` (the previous stats), `lines` (each chunk's lines, for the
    histogram), `path` and `file_frame` (the picked file and its chunks), `frame` (all chunks, with their text,
    built when first read). `update(settings, probe=)` moves to new settings; `show_file(path)` picks the file
    previewed. `probe` holds the probe's options (a `Probe`) used whenever an update probes.
    `points`: the trade-off so far, one (label, cost, quality) per distinct setting probed (a setting probed
    again replaces its point), cost the `cost` column (tokens@5) and quality the verdict's metric (`quality`);
    `current`: the label of the last update's setting when it probed, else None.
    """

    def __init__(
        self,
        codebase: engine.Codebase,
        settings: Settings,
        *,
        probe: Probe | None = None,
        token_counter: Any = None,
    ) -> None:
        self.token_counter = token_counter
        self._probe_set: ProbeSet | None = None
        self._outcome: Outcome | None = None  # the probe's per-query result at the last update
        self.probe = Probe() if probe is None else probe  # its queries are checked when it first runs
        self.codebase = codebase
        self.texts = Texts(codebase=codebase, languages=codebase.languages)
        self._stats = frames.CodebaseStats(codebase)
        self._whole: dict[int, Any] = {}  # spans of files no setting splits, reused by every update
        self._frame: pd.DataFrame | None = None
        self._lines: tuple[str, list[str], list[bool] | None, str | None] | None = None  # the picked file's
        self._shown = settings  # the settings of the last update
        self.stats: dict[str, Any] = {}
        self.before: dict[str, Any] | None = None
        self.lines: Any = None  # each chunk's lines at the last update, for the histogram
        self.path: str | None = None
        self.file_frame: pd.DataFrame | None = None
        # Keyed by the setting's label: moving back to a setting already probed must not add a second dot.
        self._points: dict[str, tuple[float, float]] = {}
        self.current: str | None = None
        self._reference: Outcome | None = None  # clanka's own setting's per-query result, scored once

    @property
    def cost(self) -> str:
        """The trade-off's cost column: the tokens of a top-5 answer (or of the nearest cut-off under it)."""
        return trade_off_cost(self.probe.cutoffs)

    @property
    def quality(self) -> str:
        """The trade-off's quality column: the verdict's metric (budget_covered@<budget> by default)."""
        return self.probe.verdict_metric.name

    @property
    def points(self) -> list[tuple[str, float, float]]:
        """One (label, cost, quality) per distinct setting probed so far, in the order first probed."""
        return [(label, cost, quality) for label, (cost, quality) in self._points.items()]

    @property
    def shown(self) -> Settings:
        """The settings of the last update."""
        return self._shown

    @property
    def frame(self) -> pd.DataFrame:
        """All chunks at the settings of the last update, with their text: built when first asked for.

        A slider move does not need it (statistics and histogram come from the engine's spans,
        the preview from the picked file's chunks), so it is made only when read.
        """
        if self._frame is None:
            settings = self._shown
            self._frame = frames.chunk_codebase(
                self.codebase, settings=settings, progress=False, token_counter=self.token_counter
            )
        return self._frame

    def update(self, settings: Settings, *, probe: bool = False) -> None:
        """Re-chunk the parsed codebase at `settings`: statistics, the probe's scores (with `probe`), lines."""
        self._shown, self._frame = settings, None
        if self.stats:
            self.before = self.stats
        with paused_cycle_collection():  # tens of thousands of short-lived spans; no user code runs here
            self.stats, lines = self._stats.spans_row(self.codebase, settings.chunk, self._whole)
        if self.token_counter is not None:
            # Tokens of each chunk's embedding input by the real tokenizer, not the chars/4 estimate:
            # these need every chunk's text, so the whole frame is built.
            # They replace the estimate's columns, all three, so no `est_` value sits beside the counts.
            tokens = self.frame["tokens"].to_numpy(dtype="float64")
            for stat in TOKEN_STATS:
                del self.stats[token_stat(stat, estimated=True)]
            self.stats.update(token_stats(tokens, estimated=self.token_counter.estimated),
                              token_counter=self.token_counter.name)
        if probe:
            if self._probe_set is None:
                with warnings.catch_warnings():
                    # The panel shows the reason in place of the search rows instead.
                    warnings.simplefilter("ignore", NoProbeQueriesWarning)
                    # Queries extracted (or checked) once for the panel's life.
                    self._probe_set = ProbeSet.of(self.codebase, self.probe, self.token_counter)
            bootstrap = Bootstrap(len(self._probe_set.queries), groups=self._probe_set.groups)
            columns, outcome, _ = scored_row(self._probe_set, settings.chunk, self.probe, bootstrap)
            self.stats.update(columns)
            self.stats["probe_reason"] = self._probe_set.reason
            self._against_reference(outcome, bootstrap)
            if self._outcome is not None and self.before is not None and "mrr" in self.before:
                self.stats["vs_before"] = compared(self._outcome, outcome, self.probe.verdict_metric,
                                                   self._probe_set.groups, margin=self.probe.margin)  # fmt: skip
            self._outcome = outcome
            self.current = settings_text({name: self.stats[name] for name in CHUNK_SETTING_NAMES})
            self._points[self.current] = (_number(self.stats.get(self.cost)), _number(self.stats.get(self.quality)))
        else:
            self._outcome = None
            self.current = None  # the points probed so far stay: turning the probe back on adds to them
        self.lines = lines

    def _against_reference(self, outcome: Outcome, bootstrap: Bootstrap) -> None:
        """clanka's own setting as a marked point (`REFERENCE_POINT`, scored once) and the shown setting against it
        (`stats["vs_clanka"]`, first in the panel), with what applies the shown setting in clanka (`stats["carry"]`)."""
        assert self._probe_set is not None
        if self._reference is None:
            columns, self._reference, _ = reference_scored(self.codebase, self._stats.index.paths, self._probe_set,
                                                           self.probe, bootstrap)  # fmt: skip
            self._points[REFERENCE_POINT] = (_number(columns.get(self.cost)), _number(columns.get(self.quality)))
        shown = {name: self.stats[name] for name in CHUNK_SETTING_NAMES}
        said = compared(self._reference, outcome, self.probe.verdict_metric, self._probe_set.groups,
                        margin=self.probe.margin)  # fmt: skip
        if said:  # no queries: nothing to say (the panel says why)
            self.stats["vs_clanka"] = f"vs clanka's setting (30 lines, 10,000 characters): {said.partition(': ')[2]}"
        reference = reference_settings().columns()
        kept = self.codebase.languages == "clanka" and all(shown[name] == reference[name] for name in reference)
        self.stats["carry"] = carry_back(Chosen.of({**shown, "languages": self.codebase.languages}, kept=kept)).clause

    def show_file(self, path: str | None) -> Preview | None:
        """Pick `path` (None: no file): its chunks at the last update's settings, and its preview."""
        self.path = path
        settings = self._shown
        if path is None:
            self.file_frame = frames.chunk_files(self.codebase, [], settings=settings, token_counter=self.token_counter)
            return None
        if self._frame is not None:
            self.file_frame = self._frame[(self._frame["path"] == path).to_numpy(dtype=bool)]
        else:
            # Only the picked file's chunks get their text: the rest of the codebase is not copied.
            self.file_frame = frames.chunk_files(
                self.codebase, [path], settings=settings, token_counter=self.token_counter
            )
        if self._lines is None or self._lines[0] != path:
            # The codebase does not change under the panel: a file's lines and flags hold for every move.
            self._lines = (path, *file_lines(self.texts, path, self.file_frame))
        _, lines, flags, note = self._lines
        language = engine.language_of(path)
        return Preview(lines, self.file_frame, path=path, language=language, meaningful=flags, note=note, height=460,
                       max_lines=PAGE_LINES).in_mode(self.texts.languages)
