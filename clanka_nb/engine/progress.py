"""Progress bars: tqdm's notebook-aware bar that appears only when work takes over a second (frames, the index,
the sweep, churn and Dask share it; tqdm is imported only when a bar is made)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tqdm.auto import tqdm

# None (the default) shows a bar only once the work has run this long, so quick calls stay quiet.
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


@contextmanager
def bar(progress: ProgressBar, total: int | None, desc: str, unit: str = "file") -> Iterator[tqdm | None]:
    """A tqdm bar (or None when `progress` is False); closed on exit."""
    if check_progress(progress) is False:
        yield None
        return
    from tqdm.auto import tqdm  # the frames extra's; the engine alone never makes a bar

    delay = 0.0 if progress else AUTO_DELAY_SECONDS
    with tqdm(total=total, desc=desc, unit=unit, delay=delay, leave=bool(progress)) as handle:
        yield handle
