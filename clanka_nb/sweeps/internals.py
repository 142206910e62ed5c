"""The sweep layer's helpers that the floors above build on (the tuning panel): clanka's own setting scored as the
reference, and what applies a setting in clanka. Not the user's API (that is `clanka_nb.sweeps`' `__all__`)."""

from ._carry import CarryBack, Chosen, carry_back
from ._reference import CLANKA_COMMIT, CLANKA_MODE, reference_scored, reference_settings

__all__ = [
    "CLANKA_COMMIT",
    "CLANKA_MODE",
    "CarryBack",
    "Chosen",
    "carry_back",
    "reference_scored",
    "reference_settings",
]
