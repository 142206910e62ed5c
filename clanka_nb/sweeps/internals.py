"""The sweep layer's helpers that the floors above build on (the tuning panel, Dask's sweep): clanka's own setting
scored as the reference, and what applies a setting in clanka. Not the user's API (that is `clanka_nb.sweeps`'
`__all__`)."""

from ._answer import answer_attrs
from ._carry import CarryBack, Chosen, carry_back
from ._chunkers import ChunkerRun
from ._reference import (
    CLANKA_COMMIT,
    CLANKA_MODE,
    REFERENCE_COLUMN,
    reference_cut,
    reference_named,
    reference_position,
    reference_scored,
    reference_settings,
    with_reference,
)

__all__ = [
    "CLANKA_COMMIT",
    "CLANKA_MODE",
    "REFERENCE_COLUMN",
    "CarryBack",
    "Chosen",
    "ChunkerRun",
    "answer_attrs",
    "carry_back",
    "reference_cut",
    "reference_named",
    "reference_position",
    "reference_scored",
    "reference_settings",
    "with_reference",
]
