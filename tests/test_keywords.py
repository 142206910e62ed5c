"""Every public function and class a user calls names the closest keyword when one is misspelt (issue 46): the
settings keywords through `setting_keywords`, every other through `checked_keywords` / `checked_init`."""

from __future__ import annotations

import importlib
import inspect

import pytest

PUBLIC = ("clanka_nb", "clanka_nb.engine", "clanka_nb.frames", "clanka_nb.retrieval", "clanka_nb.index",
          "clanka_nb.chunkers", "clanka_nb.history", "clanka_nb.widgets", "clanka_nb.dask", "clanka_nb.sweeps",
          "clanka_nb.index.embedders")
# Results the package builds and returns; users read them, they do not construct them.
RECORDS = {"CacheInfo", "Declaration", "ExplainedChunk", "FileChunking", "FileReport", "PreparedText",
           "CodebaseStats", "Verdict", "SyncReport", "OpenedIndex", "IndexView", "ChunkedWith", "Span", "CodeChunk",
           "Adapter", "IndexRun", "RepositoryIndex", "ChunkerRun", "FileStatus", "ChunkSettings"}
# Called per line or per chunk inside the engine, each with one or two positional arguments: a check on every
# call would cost more than the call (js_length is about 0.1 us).
# Built by their factories (`cn.embedders.openai(...)`), exported for isinstance checks and types.
BUILT = {"Model2VecEmbedder", "OpenAIEmbedder", "SentenceTransformersEmbedder", "HashedWords"}
HOT = {"js_length", "is_meaningful_line", "is_meaningful_file", "language_of", "is_probably_minified"}


def _callables() -> list[tuple[str, object]]:
    out, seen = [], set()
    for module in PUBLIC:
        package = importlib.import_module(module)
        for name in package.__all__:
            value = getattr(package, name)
            called = inspect.isfunction(value) or inspect.isclass(value)
            if not called or name in RECORDS | BUILT | HOT or id(value) in seen:
                continue
            if isinstance(value, type) and (issubclass(value, BaseException) or getattr(value, "_is_protocol", False)):
                continue
            seen.add(id(value))
            out.append((f"{module}.{name}", value))
    return out


def _keywords(value: object) -> list[str]:
    target = value.__init__ if isinstance(value, type) else value  # type: ignore[misc]  # a class's constructor
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return [p.name for p in inspect.signature(target).parameters.values() if p.kind in kinds and p.name != "self"]


@pytest.mark.parametrize(("name", "value"), _callables(), ids=[name for name, _ in _callables()])
def test_a_misspelt_keyword_names_the_closest(name: str, value: object) -> None:
    keywords = _keywords(value)
    if not keywords:
        pytest.skip(f"{name} takes no keyword")
    for keyword in keywords:
        typo = keyword[:-1] + "x" + keyword[-1] if len(keyword) > 1 else keyword + "x"
        with pytest.raises(TypeError, match=rf"unexpected keyword argument {typo!r}; did you mean {keyword!r}\?"):
            value(**{typo: 1})  # type: ignore[operator]  # every public callable
