"""A griffe extension (mkdocs.yml's mkdocstrings options): a function decorated with `setting_keywords` shows in
the reference the signature shift-tab shows, one keyword per setting with its default, not `**given`, and the
docstring `help()` shows, whose `Args:` lines of the settings the decorator generated from the table.

Griffe reads the source, where those keywords are one `**given: Unpack[...]`; the signature and the docstring
`setting_keywords` generates from `clanka_nb.defaults.SETTINGS` live on the imported function, so they are read there
(the docs build imports clanka_nb anyway, to run the notebooks)."""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import griffe

from clanka_nb.defaults import SETTING_NAMES

_DECORATOR = "setting_keywords"
_DOCS_ONLY = "setting_docs"  # a function that writes its settings out: only its docstring is generated


def _runtime(func: griffe.Function | griffe.Class) -> Any:
    # The imported object of `func`: its module, then its qualified name within it (a method: Class.__init__).
    module = importlib.import_module(func.module.path)
    value: Any = module
    for part in func.path[len(func.module.path) + 1 :].split("."):
        value = getattr(value, part)
    return value


class SettingKeywords(griffe.Extension):
    """Expand `**given` into the generated setting keywords, each with its annotation and default."""

    def on_class(self, *, cls: griffe.Class, **kwargs: Any) -> None:
        # A record whose fields are settings (`engine.Settings`): its docstring holds their generated lines.
        if any(_DOCS_ONLY in str(decorator.value) for decorator in cls.decorators):
            _generated_docstring(cls, _runtime(cls))

    def on_function(self, *, func: griffe.Function, **kwargs: Any) -> None:
        if any(_DOCS_ONLY in str(decorator.value) for decorator in func.decorators):
            _generated_docstring(func, _runtime(func))
            return
        if not any(_DECORATOR in str(decorator.value) for decorator in func.decorators):
            return
        runtime = _runtime(func)
        shown = inspect.signature(runtime, follow_wrapped=False)
        # The runtime signature's order (where `setting_keywords` put the keywords), griffe's own parameters kept
        # but the settings: one written out beside the group (`workers=`) shows the table's default too, not the
        # name of its marker (`MAX_FILE_SIZE`).
        kept = {parameter.name: parameter for parameter in func.parameters
                if parameter.kind is not griffe.ParameterKind.var_keyword and parameter.name not in SETTING_NAMES}
        parameters = [
            kept.get(name)
            or griffe.Parameter(
                name,
                annotation=parameter.annotation if isinstance(parameter.annotation, str) else None,
                kind=griffe.ParameterKind.keyword_only,
                default=repr(parameter.default),
            )
            for name, parameter in shown.parameters.items()
        ]
        if not any(parameter.name in SETTING_NAMES for parameter in parameters):
            msg = f"{func.path} is decorated with {_DECORATOR} but its signature adds no keyword; see engine.settings"
            raise ValueError(msg)
        func.parameters = griffe.Parameters(*parameters)
        _generated_docstring(func, runtime)


def _generated_docstring(func: griffe.Function | griffe.Class, runtime: Any) -> None:
    # The imported function's docstring, where the decorator wrote each setting's `Args:` line from the table.
    # The parser mkdocstrings gave the source's docstring (google), so the sections render as tables.
    static = func.docstring or (func.parent.docstring if isinstance(func.parent, griffe.Object) else None)
    func.docstring = griffe.Docstring(
        inspect.getdoc(runtime) or "",
        lineno=func.docstring.lineno if func.docstring else None,
        endlineno=func.docstring.endlineno if func.docstring else None,
        parent=func,
        parser=static.parser if static else None,
        parser_options=static.parser_options if static else None,
    )
