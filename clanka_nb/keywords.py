"""Keyword arguments checked by name before a call: an unknown one is a TypeError naming the closest known one
(Python 3.11's own error names none). The settings keywords use `refuse`; `checked_keywords` and `checked_init`
give every other public function and class the same. A leaf (the standard library only): the engine's settings and
the verdict (`clanka_nb.decision`, which loads without the engine) both check their keywords with it."""

from __future__ import annotations

import difflib
import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

_Function = TypeVar("_Function", bound=Callable[..., Any])
_Class = TypeVar("_Class", bound=type)


def checked_keywords(function: _Function, /) -> _Function:
    """`function` with its keyword arguments checked by name first: one it does not take is a TypeError naming the
    closest (`got an unexpected keyword argument 'type'; did you mean 'types'?`), as for the settings keywords, where
    Python 3.11's own error names none. For a viewer's methods (`Browser.set_filters`); `self` is never suggested."""
    parameters = list(inspect.signature(function).parameters.values())
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        msg = f"{function.__qualname__} takes **kwargs: every keyword is accepted, so none can be checked"
        raise TypeError(msg)
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    accepted = frozenset(p.name for p in parameters if p.kind in named and p.name != "self")

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        unknown = next((name for name in kwargs if name not in accepted), None)
        if unknown is not None:
            refuse(function.__qualname__, unknown, accepted)
        return function(*args, **kwargs)

    return wrapper  # type: ignore[return-value]  # the wrapper has F's signature


def checked_init(cls: _Class, /) -> _Class:
    """`cls` with its constructor's keyword arguments checked by name first (`checked_keywords` on `__init__`): for
    the classes users build (`Probe`, `Codebase`, the viewers); put it above `@dataclass`, which writes `__init__`."""
    init = vars(cls)["__init__"]  # the class's own (a dataclass's generated one), never a base's
    setattr(cls, "__init__", checked_keywords(init))  # noqa: B010  # mypy refuses assigning a method
    return cls


def refuse(call: str, name: str, accepted: frozenset[str]) -> None:
    close = difflib.get_close_matches(name, sorted(accepted), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    msg = f"{call}() got an unexpected keyword argument {name!r}{hint}"
    raise TypeError(msg)
