"""The `Args:` lines of a function's settings, generated from the table (`clanka_nb.defaults.SETTINGS`) into its
docstring by `setting_keywords`: written once, in the table, they can never drift from it, and the docs' reference
(griffe reads the generated docstring, docs/griffe_settings.py) shows them in the parameter table with the rest."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from ..defaults import SETTINGS

# The one `settings=` object every public function but a grid's takes, described once too.
SETTINGS_OBJECT = (
    "settings", "Settings | None",
    "All the settings as one object (`engine.Settings`, a chunk frame's attrs read back...); a setting passed as a "
    "keyword wins over its value there. None: the keywords alone.",
)  # fmt: skip
# What a grid's setting is besides the table's line (`engine.settings.Grid`).
GRID_NOTE = "One value, or a list of values to try: every combination is one setting."
_DOCS = {setting.name: setting.doc for setting in SETTINGS}
# A Google-style section header at the docstring's margin (`Returns:`, `Example:`...), ending the section above it.
_HEADER = re.compile(r"^(Returns|Yields|Raises|Warns|Example|Examples|Note|Notes|Attributes|Warning|See Also):\s*$")
_ENTRY = re.compile(r"^    \*{0,2}(\w+)\b")


def setting_line(name: str, annotation: str, *, grid: bool = False) -> str:
    """The `Args:` line of setting `name` (its table's documentation line), as the docstring holds it."""
    doc = _DOCS[name]
    text = f"{doc[:1].upper()}{doc[1:]}."
    return f"{name} ({annotation}): {text} {GRID_NOTE}" if grid else f"{name} ({annotation}): {text}"


def generated_lines(signature: inspect.Signature, annotations: Mapping[str, object], *, grid_names: frozenset[str]
                    ) -> dict[str, str]:  # fmt: skip
    """The generated `Args:` line of each setting of `signature` (and of its `settings=`), by name; an annotation is
    shown as written (a string under `from __future__ import annotations`), else as `inspect` formats it."""
    lines = {}
    for name in signature.parameters:
        if name in _DOCS:
            annotation = annotations[name]
            shown = annotation if isinstance(annotation, str) else inspect.formatannotation(annotation)
            lines[name] = setting_line(name, shown, grid=name in grid_names)
        elif name == SETTINGS_OBJECT[0]:
            lines[name] = "{} ({}): {}".format(*SETTINGS_OBJECT)
    return lines


def with_setting_lines(qualname: str, doc: str | None, signature: inspect.Signature, lines: Mapping[str, str]) -> str:
    """`doc` (cleaned) with `lines` merged into its `Args:` section, every entry in the signature's order; the section
    is made (before the first other section) when it has none. A setting documented by hand is a TypeError: its line
    is the table's."""
    text = inspect.cleandoc(doc or "")
    body = text.splitlines()
    start = next((i for i, line in enumerate(body) if line.rstrip() == "Args:"), None)
    if start is None:
        at = next((i for i, line in enumerate(body) if i > 0 and _HEADER.match(line)), len(body))
        while at > 0 and not body[at - 1].strip():
            at -= 1
        body[at:at] = ["", "Args:"]
        start = at + 1
    end = next((i for i in range(start + 1, len(body)) if body[i].strip() and not body[i].startswith(" ")), len(body))
    entries: dict[str, list[str]] = {}
    for line in body[start + 1 : end]:
        match = _ENTRY.match(line)
        if match:
            entries[match.group(1)] = [line]
        elif entries:
            entries[next(reversed(entries))].append(line)
    twice = sorted(set(entries) & set(lines))
    if twice:
        msg = (f"{qualname} documents {twice} by hand; drop those Args lines: setting_keywords writes them from "
               "clanka_nb.defaults.SETTINGS")  # fmt: skip
        raise TypeError(msg)
    entries.update({name: [f"    {line}"] for name, line in lines.items()})
    order = list(signature.parameters)
    ordered = sorted(entries, key=lambda name: order.index(name) if name in order else len(order))
    section = [line.rstrip() for name in ordered for line in entries[name] if line.strip()]
    tail = body[end:]
    # Only the end is stripped: with no summary, the leading empty line keeps `Args:` apart from the indented
    # entries when the docstring is cleaned again (`inspect.cleandoc` reads the first line's indent apart).
    return "\n".join([*body[: start + 1], *section, *([""] if tail else []), *tail]).rstrip() + "\n"


_Function = TypeVar("_Function", bound=Callable[..., Any])


def setting_docs(function: _Function) -> _Function:
    """Write the table's `Args:` line of each setting `function` writes out in its own signature (one that takes no
    group of `**given`: `Codebase`, the query extractors, `compare`; or a class whose fields are settings, `Settings`)
    into its docstring, as `setting_keywords` does for a group's; the function itself is unchanged."""
    signature = inspect.signature(function)
    annotations = {name: parameter.annotation for name, parameter in signature.parameters.items() if name in _DOCS}
    lines = generated_lines(signature, annotations, grid_names=frozenset())
    function.__doc__ = with_setting_lines(function.__qualname__, function.__doc__, signature, lines)
    return function
