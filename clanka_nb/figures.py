"""The one maker of a matplotlib figure, for every package that draws (frames' plots, history's churn).

A leaf: it imports nothing of the package, so `history` draws its churn without standing on `frames`
(the two are siblings on the engine). matplotlib is imported only when a figure is made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def new_figure() -> Figure:
    # The object API, not pyplot: no global state, no display needed (tests run headless).
    from matplotlib.figure import Figure

    _show_figures_in_notebooks(Figure)
    return Figure(figsize=(7, 4), layout="constrained")


def fitted_title(figure: Figure, title: str, share: float = 0.85) -> str:
    """`title` broken into lines at spaces (inside a word too long for a line) so that each line is at most `share`
    of the figure's width in the axes' title font: a title longer than the figure would be cut at both ends (the
    layout can move the axes, not shrink a line). The share leaves room for the axes sitting right of centre."""
    import matplotlib as mpl
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    font = FontProperties(size=mpl.rcParams["axes.titlesize"], weight=mpl.rcParams["axes.titleweight"])
    measure = TextToPath()
    room = figure.get_figwidth() * 72 * share  # points

    def fits(text: str) -> bool:
        return bool(measure.get_text_width_height_descent(text, font, ismath=False)[0] <= room)

    lines: list[str] = []
    for word in title.split(" "):
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and fits(joined):
            lines[-1] = joined
            continue
        while not fits(word) and len(word) > 1:  # one word wider than the line: cut it where it stops fitting
            low, high = 1, len(word) - 1  # the longest head that fits (at least one character), by halving
            while low < high:
                middle = (low + high + 1) // 2
                low, high = (middle, high) if fits(word[:middle]) else (low, middle - 1)
            cut = low
            lines.append(word[:cut])
            word = word[cut:]
        lines.append(word)
    return "\n".join(lines)


def literal_text(figure: Figure) -> Figure:
    """Every text of `figure` drawn as written: labels come from users' data (chunker labels, file types), and
    matplotlib would set `$...$` as math (2,000 nested braces between dollars: a RecursionError while drawing).
    Called by every plot once its texts are in place (tick labels, made later, are numbers)."""
    from matplotlib.text import Text

    for text in figure.findobj(Text):
        text.set_parse_math(False)
    return figure


def _show_figures_in_notebooks(figure_type: type) -> None:
    """Let a returned Figure display as an image in IPython even when pyplot was never imported.

    IPython only knows how to show figures once pyplot's inline backend registered a formatter;
    without `%matplotlib inline` a cell would print `<Figure size 700x400 with 1 Axes>`. A formatter
    the user (or the inline backend) already registered is left alone.
    """
    try:
        from IPython import get_ipython
    except ImportError:  # plain Python: nothing displays figures anyway
        return
    shell = get_ipython()
    if shell is None:
        return
    from IPython.core.pylabtools import print_figure

    png = shell.display_formatter.formatters["image/png"]
    try:
        png.lookup_by_type(figure_type)
    except KeyError:
        png.for_type(figure_type, lambda figure: print_figure(figure, "png", bbox_inches="tight"))
