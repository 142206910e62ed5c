"""The one base of every warning clanka_nb raises: `ClankaWarning` (a leaf: it imports nothing of the package).

Every warning class of the package derives from it beside its own standard category (`UserWarning` today),
so one filter silences or escalates them all, and an existing filter on the standard category still applies:

    import warnings
    import clanka_nb as cn
    warnings.simplefilter("ignore", cn.ClankaWarning)   # or "error", as the test suite does

A leaf, so that every floor of the package, the lowest included, may define its warnings on it.
"""

from __future__ import annotations

__all__ = ["ClankaWarning"]


class ClankaWarning(Warning):
    """The base of every warning clanka_nb raises; each also derives from a standard category (`UserWarning`)."""
