"""The package's imports, read from the source with `ast`: no cycle, and every layer imports only downward.

Every import counts: top-level ones, ones inside functions (a lazy import hides a cycle from Python,
not from this test) and `importlib.import_module` of a `"clanka_nb..."` name (a literal argument, or a
module-name string in a module that calls `import_module` with a computed argument, as the top-level
package's lazy table does). Imports under `if TYPE_CHECKING:` are left out: they never run.

An import names the most specific module it can: `from . import _columns` inside `frames` is an edge to
`clanka_nb.frames.columns`, `from .._lines import LineIndex` one to `clanka_nb.frames.lines`; a
module's parent packages are not edges (Python runs them first, but a subpackage that imports a sibling
module does not depend on everything its parent re-exports).

Where the modules load at run time (pandas and ipywidgets kept out of the engine, and so on), the
subprocess tests in tests/engine/test_import_isolation.py, tests/frames/test_frame_imports.py,
tests/index/test_layers.py and tests/on_dask/test_dask_layers.py check; this test checks the source.
"""

from __future__ import annotations

import ast
import importlib
import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "clanka_nb"
# The sample codebase ships inside the package as data: its .py files are examples, not clanka_nb code.
DATA = (PACKAGE / "sample",)
MODULE_NAME = re.compile(r"^clanka_nb(\.\w+)*$")


def module_files(package: Path = PACKAGE) -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package (a package is its `__init__.py`)."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        if any(path.is_relative_to(data) for data in DATA):
            continue
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _type_checking_nodes(tree: ast.Module) -> set[int]:
    """ids of every node under an `if TYPE_CHECKING:` (or `typing.TYPE_CHECKING`) body."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else test.attr if isinstance(test, ast.Attribute) else None
            if name == "TYPE_CHECKING":
                for statement in node.body:
                    skipped.update(id(inner) for inner in ast.walk(statement))
    return skipped


def _most_specific(name: str, modules: set[str]) -> str | None:
    """`name` if it is a module, else its longest prefix that is one (None outside the package)."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules:
            return candidate
    return None


def _package_of(module: str, path: Path) -> str:
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _relative_base(module: str, path: Path, level: int, name: str | None) -> str:
    package = _package_of(module, path)
    for _ in range(level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{name}" if name else package


def imports_of(module: str, path: Path, modules: set[str]) -> Iterator[tuple[str, int]]:
    """(imported module, line) for every import of `module` into the package, as described above."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    skipped = _type_checking_nodes(tree)
    calls_import_module_with_a_name = False
    names: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            names.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or "" if not node.level else _relative_base(module, path, node.level, node.module)
            for alias in node.names:
                # `from pkg import name`: the submodule `pkg.name` when there is one, else `pkg` itself.
                full = f"{base}.{alias.name}"
                names.append((full if full in modules else base, node.lineno))
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if called == "import_module" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    target = first.value
                    if target.startswith("."):
                        level = len(target) - len(target.lstrip("."))
                        target = _relative_base(module, path, level, target.lstrip(".") or None)
                    names.append((target, node.lineno))
                else:
                    calls_import_module_with_a_name = True
    if calls_import_module_with_a_name:
        # A computed import_module argument: every module name written in this module may be what it loads.
        names += [(node.value, node.lineno) for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str) and MODULE_NAME.match(node.value)
                  and id(node) not in skipped]
    for name, line in names:
        target = _most_specific(name, modules)
        if target is not None and target != module:
            yield target, line


def import_graph(package: Path = PACKAGE) -> dict[str, dict[str, int]]:
    """module -> {imported module: first line importing it}."""
    files = module_files(package)
    modules = set(files)
    graph: dict[str, dict[str, int]] = {}
    for module, path in files.items():
        edges: dict[str, int] = {}
        for target, line in imports_of(module, path, modules):
            edges.setdefault(target, line)
        graph[module] = edges
    return graph


def find_cycle(graph: dict[str, dict[str, int]]) -> list[str] | None:
    """One import cycle as [a, b, ..., a], or None (iterative depth-first search, so deep graphs are fine)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in sorted(graph):
        if start in state:
            continue
        path = [start]
        stack = [iter(sorted(graph[start]))]
        state[start] = 1
        while stack:
            following = next(stack[-1], None)
            if following is None:
                state[path.pop()] = 2
                stack.pop()
                continue
            if state.get(following) == 1:
                return [*path[path.index(following):], following]
            if following not in state:
                state[following] = 1
                path.append(following)
                stack.append(iter(sorted(graph.get(following, {}))))
    return None


def _shown(cycle: list[str], graph: dict[str, dict[str, int]]) -> str:
    steps = [f"{a} (line {graph[a][b]}) -> {b}" for a, b in itertools.pairwise(cycle)]
    return "import cycle:\n  " + "\n  ".join(steps)


# Floors, lowest first: a module may import its own group and the floors below, never a floor above nor a
# sibling (another group of its floor). The engine is the hub: index, frames, history and chunkers (the adapters
# that put other chunkers beside the engine) stand side by side on it and none imports another (history draws
# its churn with the leaf `figures`, not with frames); the probe (`retrieval`) stands on the first three (its
# queries come from doc comments and from commits, its searcher may be the index); the sweep stands on the
# probe; dask and the widgets stand side by side on those; the CLI's parts, the CLI and the top-level package
# (its lazy table names every package) stand on everything.
# docs/architecture.md draws the same graph, and test_the_drawn_picture_is_the_import_graph holds it to the code.
LAYERS: tuple[tuple[str, ...], ...] = (
    # Leaves with no imports of the package: the settings' defaults (read by `--help` without the engine),
    # the sample codebase's path (the source when none is given, at every floor), which extra brings each
    # optional library, the one maker of a matplotlib figure, the metric registry, the keyword check, text made
    # safe to print and the base of every warning. The verdict (`decision`) stands on this floor beside them: a
    # library of its own on the leaves alone.
    (
        "clanka_nb.defaults", "clanka_nb.bundled", "clanka_nb.extras", "clanka_nb.figures", "clanka_nb.keywords",
        "clanka_nb.metrics", "clanka_nb.printable", "clanka_nb.warning", "clanka_nb.decision",
    ),
    ("clanka_nb.engine",),
    ("clanka_nb.index", "clanka_nb.frames", "clanka_nb.history", "clanka_nb.chunkers"),
    ("clanka_nb.retrieval",),
    ("clanka_nb.sweeps",),
    ("clanka_nb.dask", "clanka_nb.widgets"),
    ("clanka_nb._cli",),
    ("clanka_nb.cli",),
    ("clanka_nb",),
)
LEAVES = tuple(group for group in LAYERS[0] if group != "clanka_nb.decision")


def group_of(module: str) -> tuple[int, str]:
    """(layer number, the layer's package) of a module: the longest package of LAYERS that holds it."""
    best: tuple[int, str] | None = None
    for number, groups in enumerate(LAYERS):
        for group in groups:
            if (module == group or module.startswith(group + ".")) and (best is None or len(group) > len(best[1])):
                best = (number, group)
    assert best is not None, f"{module} is in no layer; add it to LAYERS"
    return best


def layer_violations(graph: dict[str, dict[str, int]], packages: set[str]) -> list[str]:
    """Imports that go up a layer or sideways into another group of the same layer."""
    out = []
    for module, edges in sorted(graph.items()):
        level, group = group_of(module)
        for target, line in sorted(edges.items()):
            target_level, target_group = group_of(target)
            # The leaves are a floor every floor may use, their own included (the sample codebase's folder); a
            # package's `__init__` gathers the public names of its own subpackages.
            if target in LEAVES or (module in packages and target.startswith(module + ".")):
                continue
            if target_level > level or (target_level == level and target_group != group and level != len(LAYERS) - 1):
                out.append(f"{module} (line {line}) imports {target}: {group} may not import {target_group}")
    return out


def private_imports(graph: dict[str, dict[str, int]], packages: set[str]) -> list[str]:
    """Imports of another package's `_private` module.

    A `_` module (or a module inside a `_` package) belongs to the package that holds it: only that
    package's own modules, and those of its `_` subpackages, may import it. A public subpackage is
    another package: `clanka_nb.frames.chunks` may not import `clanka_nb._x`, and
    `clanka_nb.retrieval.scoring._probe` may not import `clanka_nb.frames._coverage`.
    """
    out = []
    for module, edges in sorted(graph.items()):
        for target, line in sorted(edges.items()):
            parts = target.split(".")
            first = next((i for i, part in enumerate(parts) if part.startswith("_")), None)
            if first is None:
                continue
            owner = ".".join(parts[:first])
            inside = module == owner or module.startswith(owner + ".")
            below = module.split(".")[first:] if inside else []
            # The packages between the owner and the module: the module's own name is one when it is a package.
            between = below if module in packages else below[:-1]
            if not inside or not all(part.startswith("_") for part in between):
                out.append(f"{module} (line {line}) imports {target}, a private module of {owner}")
    return out


def test_the_graph_is_read_from_every_module() -> None:
    graph = import_graph()
    known = {"clanka_nb", "clanka_nb.engine._chunker", "clanka_nb.retrieval.search._search", "clanka_nb.cli"}
    assert known <= set(graph)
    # Relative imports name the most specific module; the top package's lazy table counts as imports.
    assert "clanka_nb.frames.columns" in graph["clanka_nb.frames._coverage"]
    assert "clanka_nb.frames" not in graph["clanka_nb.frames._coverage"]
    assert {"clanka_nb.engine", "clanka_nb.frames", "clanka_nb.widgets"} <= set(graph["clanka_nb"])


def test_there_is_no_import_cycle() -> None:
    graph = import_graph()
    cycle = find_cycle(graph)
    assert cycle is None, _shown(cycle, graph)


def packages() -> set[str]:
    return {module for module, path in module_files().items() if path.name == "__init__.py"}


def test_layers_import_only_downward() -> None:
    assert layer_violations(import_graph(), packages()) == []


def test_no_module_imports_another_packages_private_module() -> None:
    graph = import_graph()
    assert private_imports(graph, packages()) == []


@pytest.mark.parametrize(
    ("module", "target", "allowed"),
    [
        ("clanka_nb.engine._api", "clanka_nb.engine._chunker", True),  # inside its package
        ("clanka_nb.engine.settings", "clanka_nb.engine._languages", True),  # a public module of the same package
        ("clanka_nb.engine", "clanka_nb.engine._api", True),  # the package's __init__
        ("clanka_nb.cli", "clanka_nb._cli._parser", True),  # the root's own module, the root's private package
        ("clanka_nb._cli._values", "clanka_nb._cli._errors", True),
        ("clanka_nb.retrieval.scoring._probe", "clanka_nb.frames._coverage", False),  # another package
        ("clanka_nb.frames.chunks", "clanka_nb._old", False),  # a public subpackage is another package
        ("clanka_nb.frames", "clanka_nb._old", False),
        ("clanka_nb.retrieval.scoring._probe", "clanka_nb.frames.lines", True),  # public
    ],
)
def test_the_private_rule(module: str, target: str, allowed: bool) -> None:
    assert (private_imports({module: {target: 1}}, packages() | {"clanka_nb.frames"}) == []) is allowed


CYCLIC = {
    "__init__.py": "",
    "low.py": "def f():\n    from .high import g  # lazy: hidden from Python until called\n    return g\n",
    "high.py": "from . import low\n",
    "loader.py": "import importlib\n\ndef h():\n    return importlib.import_module('pkgx.sub.deep')\n",
    "sub/__init__.py": "",
    "sub/deep.py": "from ..loader import h\n",
    "typed.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .loose import x\n",
    "loose.py": "from . import typed\n",
}


def test_lazy_and_import_module_cycles_are_found_and_shown(tmp_path: Path) -> None:
    package = tmp_path / "pkgx"
    for name, text in CYCLIC.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    files = module_files(package)
    modules = set(files)
    graph = {m: dict(imports_of(m, p, modules)) for m, p in files.items()}
    assert "pkgx.high" in graph["pkgx.low"]  # inside a function
    assert "pkgx.sub.deep" in graph["pkgx.loader"]  # import_module
    assert graph["pkgx.typed"] == {}  # TYPE_CHECKING only
    cycle = find_cycle(graph)
    assert cycle is not None and cycle[0] == cycle[-1]
    assert set(cycle) in ({"pkgx.low", "pkgx.high"}, {"pkgx.loader", "pkgx.sub.deep"})
    assert "line" in _shown(cycle, graph)
    graph["pkgx.low"].pop("pkgx.high")
    assert set(find_cycle(graph) or ()) == {"pkgx.loader", "pkgx.sub.deep"}
    graph["pkgx.loader"].pop("pkgx.sub.deep")
    assert find_cycle(graph) is None


@pytest.mark.parametrize(
    ("module", "target", "allowed"),
    [
        ("clanka_nb.engine._chunker", "clanka_nb.frames.lines", False),
        ("clanka_nb.frames.chunks", "clanka_nb.retrieval", False),
        ("clanka_nb.retrieval.scoring._probe", "clanka_nb.sweeps.table", False),
        ("clanka_nb.frames.stats", "clanka_nb.widgets._tune", False),
        ("clanka_nb.widgets._tune", "clanka_nb.dask._sweep", False),
        ("clanka_nb.history._churn", "clanka_nb.retrieval", False),
        ("clanka_nb.retrieval.queries._history", "clanka_nb.history.internals", True),
        ("clanka_nb.retrieval.scoring._probe", "clanka_nb.frames.lines", True),
        ("clanka_nb.sweeps.table", "clanka_nb.retrieval", True),
        ("clanka_nb.widgets._tune", "clanka_nb.retrieval", True),
        ("clanka_nb.cli", "clanka_nb.frames", True),
        ("clanka_nb.index._db", "clanka_nb.engine", True),
        ("clanka_nb.engine", "clanka_nb.engine.settings", True),  # the package gathers its modules' names
        ("clanka_nb.frames.columns", "clanka_nb.sweeps._api", False),
        # Siblings on the engine: none of index, frames and history imports another.
        ("clanka_nb.history._api", "clanka_nb.frames.plots", False),
        ("clanka_nb.frames.chunks", "clanka_nb.index", False),
        ("clanka_nb.index._index", "clanka_nb.history", False),
        ("clanka_nb.history._api", "clanka_nb.figures", True),
        ("clanka_nb.widgets._tune", "clanka_nb.dask", False),
        # The chunkers' adapters stand on the engine alone: a sibling of frames, not a floor above it.
        ("clanka_nb.chunkers._engine", "clanka_nb.engine.internals", True),
        ("clanka_nb.chunkers._run", "clanka_nb.frames", False),
        ("clanka_nb.frames.chunks", "clanka_nb.chunkers", False),
        ("clanka_nb.sweeps.table", "clanka_nb.chunkers", True),
        # The verdict is a library on the ground floor: the leaves alone below it, the probe above it.
        ("clanka_nb.decision._decision", "clanka_nb.metrics", True),
        ("clanka_nb.decision._decision", "clanka_nb.keywords", True),
        ("clanka_nb.decision._decision", "clanka_nb.engine.settings", False),
        ("clanka_nb.decision._verdict", "clanka_nb.retrieval", False),
        ("clanka_nb.retrieval.scoring._scorer", "clanka_nb.decision", True),
        ("clanka_nb.metrics", "clanka_nb.decision", False),  # a leaf imports nothing of the package
    ],
)
def test_the_layer_rule(module: str, target: str, allowed: bool) -> None:
    assert (layer_violations({module: {target: 1}, target: {}}, packages()) == []) is allowed


ARCHITECTURE = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"
ARROW = re.compile(r"\s*-->\s*")


def box_of(module: str) -> str:
    """The box of docs/architecture.md's picture that holds a module: its package's name under clanka_nb
    (`cli.py` and `_cli/` share the box `cli`, the leaf modules the box `leaves`, the top package is `clanka_nb`)."""
    if module in LEAVES:
        return "leaves"
    parts = module.split(".")
    if len(parts) == 1:
        return "clanka_nb"
    return parts[1].lstrip("_")


def drawn_arrows(text: str) -> set[tuple[str, str]]:
    """The arrows of the first mermaid block of `text`: `a --> b`, `a & b --> c & d` and chains `a --> b --> c`."""
    block = text.split("```mermaid\n", 1)[1].split("```", 1)[0]
    arrows: set[tuple[str, str]] = set()
    for line in block.splitlines():
        if "-->" not in line:
            continue
        steps = [[box.strip() for box in step.split("&")] for step in ARROW.split(line.strip())]
        for sources, targets in itertools.pairwise(steps):
            arrows.update((source, target) for source in sources for target in targets)
    return arrows


def real_arrows(graph: dict[str, dict[str, int]]) -> dict[tuple[str, str], str]:
    """Box -> box for every import between two boxes, with one import that makes it (module, line, target).

    Imports of the leaves are left out: every box may use them, and the picture says so instead of drawing
    ten arrows into one box."""
    arrows: dict[tuple[str, str], str] = {}
    for module, edges in sorted(graph.items()):
        for target, line in sorted(edges.items()):
            pair = (box_of(module), box_of(target))
            if pair[0] != pair[1] and target not in LEAVES:
                arrows.setdefault(pair, f"{module} (line {line}) imports {target}")
    return arrows


def test_the_drawn_picture_is_the_import_graph() -> None:
    drawn = drawn_arrows(ARCHITECTURE.read_text(encoding="utf-8"))
    real = real_arrows(import_graph())
    undrawn = sorted(f"{a} --> {b}: {why}" for (a, b), why in real.items() if (a, b) not in drawn)
    unreal = sorted(f"{a} --> {b}" for a, b in drawn - set(real))
    assert undrawn == [], "docs/architecture.md's picture lacks arrows the code has:\n  " + "\n  ".join(undrawn)
    assert unreal == [], "docs/architecture.md's picture draws arrows no import makes:\n  " + "\n  ".join(unreal)


def test_the_picture_is_read_as_drawn() -> None:
    text = "```mermaid\nflowchart TB\n    a[\"A\"]\n    a & b --> c\n    c --> d --> e & f\n```\n"
    text += "```mermaid\nx --> y\n```"  # only the first picture counts
    assert drawn_arrows(text) == {("a", "c"), ("b", "c"), ("c", "d"), ("d", "e"), ("d", "f")}
    assert box_of("clanka_nb._cli._parser") == box_of("clanka_nb.cli") == "cli"
    assert box_of("clanka_nb.figures") == "leaves"
    assert box_of("clanka_nb") == "clanka_nb"


# What a package shares with the floors above (docs/architecture.md, "What a package shares"): its public
# modules; the helpers of its `_` modules through the one public module `internals`; and, from its
# `__init__`, only the names of `__all__`, which holds what users call and nothing the floors above alone use.
INTERNALS = ("clanka_nb.engine", "clanka_nb.history", "clanka_nb.retrieval")
# The error users catch from `cn.churn`, named in internals too because the probe's commit-message queries
# (retrieval/queries/_history.py) take it with the git helpers that raise it.
BOTH = {"clanka_nb.history": {"ChurnError"}}


def names_taken_across_packages() -> Iterator[tuple[str, int, str, str]]:
    """(module, line, imported module, name) for every `from X import name` of another package's module."""
    files = module_files()
    modules = set(files)
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = node.module or "" if not node.level else _relative_base(module, path, node.level, node.module)
            if base not in modules or box_of(base) == box_of(module) or base == "clanka_nb":
                continue
            for alias in node.names:
                if f"{base}.{alias.name}" not in modules:
                    yield module, node.lineno, base, alias.name


def test_other_packages_take_from_an_init_only_its_all() -> None:
    inits = packages()
    wrong = [
        f"{module} (line {line}) takes {name} from {base}, which is not in its __all__"
        for module, line, base, name in names_taken_across_packages()
        if base in inits and name not in importlib.import_module(base).__all__
    ]
    assert wrong == []


@pytest.mark.parametrize("package", INTERNALS)
def test_internals_names_what_other_packages_use_and_all_what_users_call(package: str) -> None:
    public = set(importlib.import_module(package).__all__)
    shared = set(importlib.import_module(f"{package}.internals").__all__)
    either = f"{package}: a name is either the user's (__all__) or the floors' (internals)"
    assert public & shared <= BOTH.get(package, set()), either
    used = {name for _, _, base, name in names_taken_across_packages() if base == f"{package}.internals"}
    assert shared - used == set(), f"{package}.internals shares names no other package uses"


def test_retrievals_all_holds_what_users_call() -> None:
    # Its functions are the top-level table's (cn.probe, ...); the rest are the searchers users pass and the
    # warnings they filter. `verdict` is the probe's decision between settings, called by users too.
    retrieval = importlib.import_module("clanka_nb.retrieval")
    top = set(importlib.import_module("clanka_nb").__all__) | {"verdict"}
    for name in retrieval.__all__:
        value = getattr(retrieval, name)
        assert name in top or isinstance(value, type), f"retrieval.{name} is no user's name"
