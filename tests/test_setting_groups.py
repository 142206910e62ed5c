"""Each decorated function names its settings group once, in `**given: Unpack[...]`: the group `setting_keywords`
reads from that annotation, the signature it generates and the table (`clanka_nb.defaults.SETTINGS`) agree for every
such function of the package, and a function whose annotation, written-out settings or own defaults disagree fails
when its module is imported, naming the fix."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any, Unpack

import pytest

import clanka_nb as cn
from clanka_nb.defaults import MAX_FILE_SIZE, SETTING_NAMES, SETTINGS
from clanka_nb.engine import settings as settings_module
from clanka_nb.engine.settings import (
    KEYWORD_GROUPS,
    Grid,
    GridKeywords,
    Settings,
    SourceKeywords,
    TextKeywords,
    group_of,
    setting_keywords,
)

PACKAGE = Path(cn.__file__).parent
TABLE = {setting.name: setting for setting in SETTINGS}
GRID = {field.name: field for field in dataclasses.fields(Grid)}


@dataclasses.dataclass(frozen=True)
class Declared:
    """A function of the package's source that declares `**given: Unpack[...]` or is decorated `setting_keywords`."""

    module: str
    qualname: str
    annotation: str | None  # the `**given` annotation as written, None when it has none
    decorator: ast.expr | None  # the `setting_keywords` decorator, None when there is none


def _declared() -> list[Declared]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "sample" in path.relative_to(PACKAGE).parts:
            continue
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found.extend(_in(tree, module, ""))
    return found


def _in(node: ast.AST, module: str, prefix: str) -> list[Declared]:
    found = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.ClassDef):
            found.extend(_in(child, module, f"{prefix}{child.name}."))
        elif isinstance(child, ast.FunctionDef):
            kwarg = child.args.kwarg
            annotation = ast.unparse(kwarg.annotation) if kwarg and kwarg.annotation else None
            decorator = next((d for d in child.decorator_list
                              if "setting_keywords" in ast.unparse(d)), None)  # fmt: skip
            if decorator is not None or (annotation or "").startswith("Unpack["):
                found.append(Declared(module, f"{prefix}{child.name}", annotation, decorator))
    return found


def _runtime(declared: Declared) -> Any:
    value: Any = importlib.import_module(declared.module)
    for part in declared.qualname.split("."):
        value = getattr(value, part)
    return value


DECLARED = _declared()


def test_every_function_that_unpacks_a_group_is_decorated_and_names_it_once() -> None:
    assert len(DECLARED) >= 26
    for declared in DECLARED:
        where = f"{declared.module}.{declared.qualname}"
        assert declared.decorator is not None, f"{where} declares **given: {declared.annotation} undecorated"
        assert declared.annotation is not None and declared.annotation.startswith("Unpack["), where
        # The decorator names no group: bare, or called with the function's own defaults alone.
        assert isinstance(declared.decorator, ast.Name) or (
            isinstance(declared.decorator, ast.Call) and not declared.decorator.args
            and declared.decorator.keywords), where  # fmt: skip


@pytest.mark.parametrize("declared", DECLARED, ids=lambda d: f"{d.module}.{d.qualname}")
def test_the_annotation_the_generated_signature_and_the_table_agree(declared: Declared) -> None:
    function = _runtime(declared)
    group = KEYWORD_GROUPS[(declared.annotation or "").removeprefix("Unpack[").removesuffix("]")]
    assert function.setting_group is group  # the group read is the group written, on the line type checkers read
    own = {}
    if isinstance(declared.decorator, ast.Call):
        module = importlib.import_module(declared.module)
        # Each own default is a constant of its module, by name (a marker of clanka_nb.defaults).
        own = {k.arg: getattr(module, ast.unparse(k.value)) for k in declared.decorator.keywords}
    shown = inspect.signature(function).parameters
    written = inspect.signature(inspect.unwrap(function)).parameters
    settings_shown = [name for name in shown if name in TABLE]
    # Every setting shown is the group's or written out, once, in the table's order; the group's come together.
    assert settings_shown == sorted(settings_shown, key=SETTING_NAMES.index)
    generated = [name for name in settings_shown if name not in written]
    assert generated == [name for name in SETTING_NAMES if name in group.__annotations__]
    names = list(shown)
    assert names[names.index(generated[0]):][: len(generated)] == generated
    for name in settings_shown:
        parameter = shown[name]
        assert parameter.kind is inspect.Parameter.KEYWORD_ONLY, name
        if group is GridKeywords and name in GRID:  # a grid's: `Grid`'s default and type
            default, annotation = GRID[name].default, GRID[name].type
        else:
            default, annotation = TABLE[name].default, TABLE[name].annotation
        default = own.get(name, default)
        assert parameter.default == default and type(parameter.default) is type(default), name
        assert parameter.annotation == annotation, name
    assert set(own) <= set(generated)


def _text(*, settings: Settings | None = None, **given: Unpack[TextKeywords]) -> dict[str, object]:
    return dict(given)


def test_the_group_is_read_from_the_annotation() -> None:
    decorated = setting_keywords(_text)
    assert decorated.setting_group is TextKeywords  # type: ignore[attr-defined]
    assert [n for n in inspect.signature(decorated).parameters if n in TABLE] == [*GRID, "languages"]
    assert decorated(chunk_size=5) == {"chunk_size": 5}
    with pytest.raises(TypeError, match="unexpected keyword argument 'workers'"):
        decorated(workers=2)  # type: ignore[call-arg]  # on purpose: a text's function takes no workers
    own = setting_keywords(chunk_max_characters=10)(_text)
    assert inspect.signature(own).parameters["chunk_max_characters"].default == 10
    assert own() == {"chunk_max_characters": 10}

    # Evaluated annotations (a module without `from __future__ import annotations`) are read the same way.
    def evaluated(**given: object) -> None:
        del given

    evaluated.__annotations__ = {"given": Unpack[SourceKeywords], "return": None}
    assert group_of(evaluated) is SourceKeywords


def _declare(annotation: object, **written: tuple[object, object]) -> Callable[..., None]:
    # A function declared `(*, <written settings>, settings=None, **given: <annotation>)`.
    def function(**given: object) -> None:
        del given

    parameters = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=shown)
                  for name, (shown, default) in written.items()]  # fmt: skip
    parameters += [inspect.Parameter("settings", inspect.Parameter.KEYWORD_ONLY, default=None),
                   inspect.Parameter("given", inspect.Parameter.VAR_KEYWORD, annotation=annotation)]  # fmt: skip
    function.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    return function


@pytest.mark.parametrize(
    ("annotation", "written", "own", "error"),
    [
        ("Unpack[WorkerKeywords]", {}, {}, r"declare \*\*given: Unpack\[<group>\], one of ChunkKeywords"),
        ("TextKeywords", {}, {}, r"declares \*\*given: TextKeywords; declare \*\*given: Unpack"),
        (None, {}, {}, r"declares \*\*given with no group; declare \*\*given: Unpack\[<group>\]"),
        (Unpack[dict], {}, {}, r"declare \*\*given: Unpack\[<group>\]"),
        # A default of its own for a setting its group lacks: what a decorator naming the wrong group gave.
        ("Unpack[TextKeywords]", {}, {"workers": 2}, r"\['workers'\] are not settings of TextKeywords"),
        ("Unpack[TextKeywords]", {"languages": ("str | None", None)}, {}, "writes out languages, a keyword of"),
        ("Unpack[TextKeywords]", {"workers": ("int | None", 2)}, {}, "the table's is workers: int | None = None"),
        ("Unpack[TextKeywords]", {"workers": ("int", None)}, {}, "the table's is workers"),
        ("Unpack[TextKeywords]", {"max_file_size": ("str | int", "1M")}, {}, "the table's is max_file_size"),
        ("Unpack[TextKeywords]", {"workers": ("int | None", None), "max_file_size": ("str | int", MAX_FILE_SIZE)},
         {}, "write them in the table's order"),
        ("Unpack[GridKeywords]", {"chunk_size": ("int", 30)}, {}, "writes out chunk_size, a keyword of GridKeywords"),
    ],
)
def test_a_function_that_disagrees_with_its_group_or_the_table_fails_when_decorated(
    annotation: object, written: dict[str, tuple[object, object]], own: dict[str, object], error: str
) -> None:
    declared = _declare(inspect.Parameter.empty if annotation is None else annotation, **written)
    with pytest.raises(TypeError, match=error):
        setting_keywords(**own)(declared)
    if not own:
        with pytest.raises(TypeError, match=error):  # bare, the same
            setting_keywords(declared)


def test_the_group_named_in_the_decorator_too_is_refused() -> None:
    # The mismatch once possible (the decorator's group against the annotation's) cannot be written any more.
    with pytest.raises(TypeError, match=r"setting_keywords takes no group \(got SourceKeywords\)"):
        setting_keywords(SourceKeywords)(_text)  # type: ignore[call-overload]


def test_a_function_without_given_is_refused() -> None:
    def plain(*, settings: Settings | None = None) -> None:
        del settings

    with pytest.raises(TypeError, match=r"plain takes no \*\*given; declare \*\*given: Unpack\[<group>\]"):
        setting_keywords(plain)


def test_the_written_out_settings_agree_with_the_table_where_correct() -> None:
    # `workers` written out beside a text's group, as `engine.chunk_files` does: accepted, in the table's order.
    declared = _declare("Unpack[TextKeywords]", workers=("int | None", None))
    shown = [n for n in inspect.signature(setting_keywords(declared)).parameters if n in TABLE]
    assert shown == [*GRID, "languages", "workers"]
    assert set(KEYWORD_GROUPS) == {"ChunkKeywords", "TextKeywords", "SourceKeywords", "GridKeywords"}
    assert all(getattr(settings_module, name) is group for name, group in KEYWORD_GROUPS.items())
