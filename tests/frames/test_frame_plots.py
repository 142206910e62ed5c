"""Plots return matplotlib Figures built without pyplot, drawing what the frames hold."""

from __future__ import annotations

import sys

import pytest
from matplotlib.figure import Figure

import clanka_nb as cn
from clanka_nb import engine, frames

from .conftest import PY_FIVE_LINES, TS_EXAMPLE


@pytest.fixture
def codebase() -> engine.Codebase:
    return engine.Codebase.from_texts({"e.ts": TS_EXAMPLE, "a.py": PY_FIVE_LINES})


def test_chunk_sizes_histogram_stacks_one_series_per_type(codebase: engine.Codebase) -> None:
    frame = frames.chunk_codebase(codebase)
    figure = frames.plot_chunk_sizes(frame, by="type", metric="lines")
    assert isinstance(figure, Figure)
    axes = figure.axes[0]
    labels = [text.get_text() for text in axes.get_legend().get_texts()]
    assert labels == ["(none)", "class", "function", "method"]  # window chunks have no type
    # Each bar is one series' count in one bin, drawn on top of the others: together, every chunk once.
    assert sum(patch.get_height() for patch in axes.patches) == len(frame)
    assert axes.get_xlabel() == "chunk lines"


def test_chunk_sizes_without_grouping_and_by_characters(codebase: engine.Codebase) -> None:
    frame = frames.chunk_codebase(codebase)
    axes = frames.plot_chunk_sizes(frame, by=None, metric="characters", bins=5).axes[0]
    assert axes.get_legend() is None
    assert sum(patch.get_height() for patch in axes.patches) == len(frame)


def test_empty_frame_plots_a_note(tmp_path) -> None:
    axes = frames.plot_chunk_sizes(frames.chunk_text("")).axes[0]
    assert [text.get_text() for text in axes.texts] == ["no chunks"]


def test_sweep_curves_one_line_per_overlap(codebase: engine.Codebase) -> None:
    sweep = cn.sweep(codebase, chunk_size=[2, 4, 8], chunk_overlap=[0, 1])
    axes = frames.plot_sweep(sweep, metric="chunks").axes[0]
    assert [line.get_label() for line in axes.lines] == ["overlap 0", "overlap 1"]
    for line, overlap in zip(axes.lines, [0, 1], strict=True):
        rows = sweep[sweep["chunk_overlap"] == overlap]
        assert list(line.get_xdata()) == rows["chunk_size"].tolist()
        assert list(line.get_ydata()) == rows["chunks"].tolist()


def test_sweep_curves_split_by_character_limit_when_several(codebase: engine.Codebase) -> None:
    sweep = cn.sweep(codebase, chunk_size=[2, 4], chunk_max_characters=[None, 50])
    labels = [line.get_label() for line in frames.plot_sweep(sweep, "coverage").axes[0].lines]
    assert labels == ["overlap 0, max 50 characters", "overlap 0, no character limit"]


def test_unknown_metric_names_the_choices(codebase: engine.Codebase) -> None:
    with pytest.raises(ValueError, match="metric='size' is not a column"):
        frames.plot_chunk_sizes(frames.chunk_codebase(codebase), metric="size")
    with pytest.raises(ValueError, match="choose one of"):
        frames.plot_sweep(cn.sweep(codebase, chunk_size=[3]), metric="nope")


def test_pyplot_is_not_used() -> None:
    frames.plot_chunk_sizes(frames.chunk_text(TS_EXAMPLE))
    assert "matplotlib.pyplot" not in sys.modules or sys.modules["matplotlib.pyplot"].get_fignums() == []


def test_figures_display_as_images_in_ipython_without_pyplot():
    import subprocess

    # A fresh interpreter: no pyplot, no %matplotlib magic, as in a new notebook kernel.
    code = (
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "shell = InteractiveShell.instance()\n"
        "import clanka_nb as cn\n"
        "figure = cn.plot_chunk_sizes(cn.chunk_text('export const a = 1\\n'))\n"
        "data, _ = shell.display_formatter.format(figure)\n"
        "import sys; print('matplotlib.pyplot' in sys.modules, data['image/png'][:8] == b'\\x89PNG\\r\\n\\x1a\\n')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]


def test_sweep_metric_that_is_all_na_shows_why_instead_of_an_empty_plot(tmp_path) -> None:
    import warnings

    (tmp_path / "notes.md").write_text("# Notes\n\nprose only\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the probe's own warning is tested with the probe
        sweep = cn.sweep(tmp_path, chunk_size=[10, 20], probe=True, progress=False)
    axes = frames.plot_sweep(sweep, metric="recall@5").axes[0]
    (text,) = [t.get_text() for t in axes.texts]
    assert text.startswith("Nothing to plot: recall@5 is NA in all 3 rows")  # the grid's 2 and clanka's setting
    assert "in a language the probe reads" in text.replace("\n", " ")
    assert not axes.lines and not axes.axison  # no empty axes running from -0.04 to 0.04
    empty = frames.plot_sweep(sweep.iloc[:0], metric="chunks").axes[0]
    assert [t.get_text() for t in empty.texts] == ["Nothing to plot: the sweep has no rows."]


def test_a_probed_sweep_plots_the_verdict_s_metric_against_its_cost_by_default() -> None:
    # Issue 46 item 8: plot_sweep(table) on a probed sweep drew `chunks`, not what the verdict ranks by.
    table = cn.sweep(cn.sample_codebase(), chunk_size=[20, 40], probe=True, progress=False)
    metric = table.attrs["verdict"]["metric"]
    axes = frames.plot_sweep(table).axes[0]
    assert axes.get_ylabel() == metric.replace("_", " ")
    assert axes.get_xlabel().startswith("tokens@5")  # the trade-off's cost, as the tuning panel's chart
    (front,) = [line for line in axes.lines if line.get_label() == "frontier"]
    points = {(x, y) for x, y in zip(table["tokens@5"], table[metric], strict=True)}
    assert {(x, y) for x, y in zip(front.get_xdata(), front.get_ydata(), strict=True)} <= points
    # A metric asked for keeps chunk_size on x; x alone asked for keeps the verdict's metric.
    assert frames.plot_sweep(table, "recall@5").axes[0].get_xlabel() == "chunk size"
    assert frames.plot_sweep(table, x="lines@5").axes[0].get_ylabel() == metric.replace("_", " ")


def test_an_unprobed_sweep_keeps_chunks_against_chunk_size_by_default(codebase: engine.Codebase) -> None:
    axes = frames.plot_sweep(cn.sweep(codebase, chunk_size=[2, 4])).axes[0]
    assert (axes.get_ylabel(), axes.get_xlabel()) == ("chunks", "chunk size")


def test_clanka_s_setting_is_a_star_named_in_both_plots_of_a_probed_sweep() -> None:
    # Issue 53 item 1: the reference row is marked in the plots as in the table.
    table = cn.sweep(cn.sample_codebase(), chunk_size=[20, 40], probe=True, progress=False)
    metric = table.attrs["verdict"]["metric"]
    reference = table[table["reference"]].iloc[0]
    for axes, x in ((frames.plot_sweep(table).axes[0], "tokens@5"),
                    (frames.plot_sweep(table, metric).axes[0], "chunk_size")):  # fmt: skip
        (star,) = [group for group in axes.collections if group.get_label() == frames.plots.REFERENCE_LABEL]
        assert star.get_offsets().tolist() == [[float(reference[x]), float(reference[metric])]]
        labels = [text.get_text() for text in axes.get_legend().get_texts()]
        assert frames.plots.REFERENCE_LABEL in labels
    # On chunk_size's axis the grid's line holds the grid's rows alone (the added setting is the star).
    lines = frames.plot_sweep(table, metric).axes[0].lines
    assert [sorted(line.get_xdata().tolist()) for line in lines] == [[20, 40]]
    texts = [text.get_text() for text in frames.plot_sweep(table).axes[0].texts]
    assert any(text.startswith("clanka: ") for text in texts)
