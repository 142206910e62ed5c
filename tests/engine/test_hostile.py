"""Hostile inputs: they must not take quadratic time, read outside the root or lose a file."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from clanka_nb.engine._chunker import PreparedText, plan_ranges
from clanka_nb.engine._declarations import Declaration, parent_label

_decl = st.builds(
    Declaration,
    st.integers(1, 40),
    st.integers(1, 40),
    st.sampled_from(["A", "B", None]),
    st.sampled_from(["class", "method", None, "function"]),
    st.sampled_from(["class A", "class B", None]),
)


@given(st.lists(_decl, max_size=30))
def test_plan_ranges_truncates_a_class_exactly_when_a_method_of_it_lies_inside(decls):
    text = PreparedText("a.ts", ["x"] * 30, "typescript", decls)
    plan = plan_ranges(text)
    expected = [
        d.type == "class" and any(
            m.type == "method" and m.parent == parent_label("class", d.name)
            and m.start_line >= d.start_line and m.end_line <= d.end_line
            for m in decls
        )
        for d in decls
        if max(1, min(30, d.end_line)) >= max(1, min(30, d.start_line))
    ]
    assert [r.first_segment_only for r in plan] == expected
