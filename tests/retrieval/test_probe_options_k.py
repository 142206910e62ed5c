"""`Probe(k=...)` and `budget=` read as whole numbers; an endless iterable is never listed whole (issue 42 item 9)."""

from __future__ import annotations

import resource
import subprocess
import sys
import textwrap

import pytest

import clanka_nb as cn


def test_an_endless_k_is_refused_without_listing_it() -> None:
    # In a child held to 3 GiB of address space: listing the iterator whole would grow until the machine runs out.
    script = textwrap.dedent("""
        import itertools
        import clanka_nb as cn
        for name in ("k", "budget"):
            try:
                cn.Probe(**{name: itertools.count(1)})
            except ValueError as error:
                print(str(error).splitlines()[0])
    """)

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          preexec_fn=limited, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    k, budget = done.stdout.splitlines()
    assert k.startswith("k holds more than 100 cut-offs")
    assert budget.startswith("budget must be a positive whole number")


@pytest.mark.parametrize("bad", [2.5, "5", b"5", None, [1, 2.5], [True]])
def test_a_k_that_is_not_whole_numbers_is_one_line_naming_k(bad) -> None:
    with pytest.raises(ValueError, match=r"k must be a positive int or a list of them .* e\.g\. k=\[1, 5, 10\]"):
        cn.Probe(k=bad)


def test_a_finite_iterable_still_works() -> None:
    assert cn.Probe(k=range(1, 4)).k == (1, 2, 3)
