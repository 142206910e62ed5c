"""Parameter sweeps: one row of statistics per combination of chunk settings, the code parsed once; with the
retrieval probe's columns when asked (so the sweep stands on frames and the probe), and, probed, the answer about
clanka's own setting (`ClankaAnswer`)."""

from ._answer import ClankaAnswer, clanka_answer
from ._api import sweep
from ._carry import CarryBack
from ._chunkers import ChunkerRun, run_chunker
from .table import sweep_rows, table_of

__all__ = [
    "CarryBack", "ChunkerRun", "ClankaAnswer", "clanka_answer", "run_chunker", "sweep", "sweep_rows", "table_of",
]
