"""The model2vec embedder: a static embedding model from a local folder (`model2vec()`); the one place model2vec
is imported (inside the function, so the index loads without it)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..engine.settings import checked_keywords
from ._model_folder import folder_digest


class Model2VecEmbedder:
    """A model2vec static embedding model loaded from a local folder (see `model2vec()`).

    Args:
        folder: The model's folder.
        model: The loaded `StaticModel`.
    """

    def __init__(self, folder: Path, model: object) -> None:
        self.folder = folder
        self.model = model
        # The folder's contents (weights, tokenizer, config), as for sentence-transformers: a changed tokenizer
        # is a new cache key, and a copy of the model elsewhere shares the cached vectors.
        self.model_id = f"model2vec:{folder_digest(folder)[:16]}"

    def __call__(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self.model.encode(list(texts), use_multiprocessing=False), dtype=np.float32)  # type: ignore[attr-defined]  # the model of an optional, untyped library

    def __repr__(self) -> str:
        return f"model2vec({str(self.folder)!r})"


@checked_keywords
def model2vec(folder: str | os.PathLike[str]) -> Model2VecEmbedder:
    """A model2vec model from a local folder (as `StaticModel.save_pretrained` writes it); never downloads.

    Needs `pip install model2vec`. Fetch a model once with the Hugging Face tools, then pass its folder.

    Args:
        folder: The model's folder.

    Returns:
        The embedder.

    Raises:
        FileNotFoundError: `folder` is no model2vec folder (no config.json).
        ImportError: model2vec is not installed.

    Examples:
        >>> embed = cn.embedders.model2vec("models/potion-base-8M")
    """
    path = Path(folder).expanduser()
    if not (path / "config.json").is_file():
        msg = (
            f"{str(folder)!r} is not a local model2vec folder (no config.json); clanka-nb never downloads models: "
            "save one with StaticModel.save_pretrained(folder) or fetch it once, then pass that folder"
        )
        raise FileNotFoundError(msg)
    try:
        from model2vec import StaticModel
    except ImportError as error:
        msg = "cn.embedders.model2vec needs the model2vec package: pip install 'clanka-nb[model2vec]'"
        raise ImportError(msg) from error
    from safetensors import SafetensorError  # model2vec's own dependency, there when it is

    try:
        model = StaticModel.from_pretrained(path, force_download=False)
    except (OSError, ValueError, KeyError, SafetensorError) as error:
        if (path / "config_sentence_transformers.json").is_file() or (path / "1_Pooling").is_dir():
            # A transformer's weights, not a static table: model2vec fails deep in safetensors ("no tensor embeddings").
            msg = (
                f"{str(folder)!r} is a sentence-transformers folder, not a model2vec one; pass it to "
                "cn.embedders.sentence_transformers(folder), or distil a static model from it with model2vec "
                "(model2vec.distill) and pass the folder StaticModel.save_pretrained writes"
            )
        else:
            msg = (
                f"could not load a model2vec model from {str(path)!r} ({type(error).__name__}: {error}); pass a "
                "folder that StaticModel.save_pretrained wrote (config.json, model.safetensors, tokenizer.json)"
            )
        raise ValueError(msg) from None
    return Model2VecEmbedder(path.resolve(), model)

