"""Progress bars: tqdm's notebook-aware bar that appears only when work takes over a second (frames, the index,
the sweep, churn and Dask share it; tqdm is imported only when a bar is made)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tqdm.auto import tqdm

# None (the default) shows a bar only once the work has run this long, so quick calls stay quiet, and only where
# someone watches it (a terminal or a notebook).
AUTO_DELAY_SECONDS = 1.0

ProgressBar = bool | None


def check_progress(progress: object) -> ProgressBar:
    if progress is not None and not isinstance(progress, bool):
        msg = (
            f"progress must be True, False or None, got {progress!r}; "
            "None shows a bar only for work over a second, False never shows one"
        )
        raise TypeError(msg)
    return progress


def _watched() -> bool:
    """Whether someone watches the bar: stderr is a terminal, or the code runs in a notebook's kernel. A pipe or
    a log file (`python script.py 2>&1 | tee log`) would get every redraw of the bar as a line of its own."""
    finder = getattr(sys.modules.get("IPython"), "get_ipython", None)  # only where IPython is already loaded
    shell = finder() if callable(finder) else None
    if shell is not None and type(shell).__name__ == "ZMQInteractiveShell":  # a notebook's (or a console's) kernel
        return True
    stream = sys.stderr
    try:
        return stream is not None and stream.isatty()
    except ValueError:  # a closed stream
        return False


@contextmanager
def bar(progress: ProgressBar, total: int | None, desc: str, unit: str = "file") -> Iterator[tqdm | None]:
    """A tqdm bar (or None when `progress` is False, or None while nobody watches: see `_watched`); closed on exit.
    True shows one wherever stderr goes."""
    if check_progress(progress) is False or (progress is None and not _watched()):
        yield None
        return
    from tqdm.auto import tqdm  # the frames extra's; the engine alone never makes a bar

    delay = 0.0 if progress else AUTO_DELAY_SECONDS
    with tqdm(total=total, desc=desc, unit=unit, delay=delay, leave=bool(progress)) as handle:
        yield handle
