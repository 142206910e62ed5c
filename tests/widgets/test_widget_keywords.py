"""A misspelt keyword of a viewer's set_* method names the closest keyword, as the settings keywords do (issue 46)."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import pandas as pd
import pytest

from clanka_nb import frames, sample_codebase, widgets
from clanka_nb.widgets import Browser


@pytest.fixture(scope="module")
def chunks() -> pd.DataFrame:
    return frames.chunk_codebase(sample_codebase(), progress=False)


# A viewer of each class that has set_* methods; a new one must be added here so its keywords are checked too.
VIEWERS: dict[str, Callable[[pd.DataFrame], object]] = {"Browser": Browser}


def _setters() -> list[tuple[str, str]]:
    found = []
    for name in widgets.__all__:
        viewer = getattr(widgets, name)
        if isinstance(viewer, type):
            # The viewer's own, not ipywidgets' (set_state, set_trait: a widget's plumbing, not a viewer's keywords).
            own = {method for cls in viewer.__mro__ if cls.__module__.startswith("clanka_nb.") for method in vars(cls)}
            found += [(name, method) for method in sorted(own) if method.startswith("set_")]
    return found


def _misspellings(keyword: str) -> list[str]:
    """Ways a person gets `keyword` wrong: a letter dropped, a letter doubled, two letters swapped."""
    return [keyword[:-1], keyword + keyword[-1], keyword[:1] + keyword[2:1:-1] + keyword[1] + keyword[3:]]


def test_every_viewer_with_a_setter_is_checked() -> None:
    setters = _setters()
    assert ("Browser", "set_filters") in setters
    assert {name for name, _ in setters} <= set(VIEWERS), "add a viewer of the new class to VIEWERS"


@pytest.mark.parametrize(("viewer", "method"), _setters())
def test_a_misspelt_keyword_names_the_closest(chunks: pd.DataFrame, viewer: str, method: str) -> None:
    setter = getattr(VIEWERS[viewer](chunks), method)
    keywords = [name for name in inspect.signature(setter).parameters if name != "self"]
    assert keywords
    for keyword in keywords:
        for wrong in {*_misspellings(keyword)} - set(keywords):
            with pytest.raises(TypeError, match=rf"{method}\(\) got an unexpected keyword argument '{wrong}'; "
                               rf"did you mean '{keyword}'\?"):  # fmt: skip
                setter(**{wrong: None})


def test_type_is_the_types_filter(chunks: pd.DataFrame) -> None:
    # The control and the column say "type"; the keyword is "types", and the error says so.
    with pytest.raises(TypeError, match=r"'type'; did you mean 'types'\?"):
        Browser(chunks).set_filters(type="method")


def test_one_type_given_as_a_string_is_that_type(chunks: pd.DataFrame) -> None:
    one, listed = Browser(chunks), Browser(chunks)
    one.set_filters(types="method")
    listed.set_filters(types=["method"])
    assert one.type_filter.value == ("method",)
    assert list(one.frame.index) == list(listed.frame.index) and len(one.frame) > 0
    assert set(one.frame["type"]) == {"method"}
