"""The model2vec embedder, on a tiny model folder the test builds and saves locally (nothing downloaded)."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from clanka_nb.index import SemanticIndex, VectorCache, embedders

model2vec = pytest.importorskip("model2vec")
tokenizers = pytest.importorskip("tokenizers")


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # any attempt to reach the hub fails loudly
    words = ["[UNK]", "[PAD]", "price", "book", "isbn", "stock", "report", "table", "export", "function", "const"]
    tokenizer = tokenizers.Tokenizer(tokenizers.models.WordLevel({w: i for i, w in enumerate(words)},
                                                                 unk_token="[UNK]"))
    tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    tokenizer.normalizer = tokenizers.normalizers.Lowercase()
    vectors = np.random.default_rng(7).standard_normal((len(words), 12)).astype(np.float32)
    target = tmp_path / "tiny-model2vec"
    model2vec.StaticModel(vectors, tokenizer).save_pretrained(target)
    return target


def test_vectors_equal_the_models_own(folder):
    embed = embedders.model2vec(folder)
    texts = ["book price", "ISBN stock report", "export const table"]
    own = model2vec.StaticModel.from_pretrained(folder, force_download=False).encode(texts)
    assert np.allclose(embed(texts), own) and embed(texts).shape == (3, 12)
    assert embed.model_id.startswith("model2vec:")


def test_an_index_with_it(folder, sample):
    report = SemanticIndex(sample, embed=embedders.model2vec(folder), cache=VectorCache()).sync()
    assert report.embedded == report.inputs > 0


def test_not_a_model_folder(tmp_path):
    with pytest.raises(FileNotFoundError, match="never downloads"):
        embedders.model2vec("minishlab/potion-base-8M")


def test_the_model_id_is_the_folders_contents(folder, tmp_path):
    # The cache key: a copy elsewhere shares it; a changed tokenizer (the vectors change) does not.
    copy = tmp_path / "elsewhere" / "copy"
    shutil.copytree(folder, copy)
    assert embedders.model2vec(copy).model_id == embedders.model2vec(folder).model_id
    tokenizer_file = copy / "tokenizer.json"
    changed = tokenizer_file.read_text(encoding="utf-8").replace('"price"', '"prices"')
    tokenizer_file.write_text(changed, encoding="utf-8")
    assert embedders.model2vec(copy).model_id != embedders.model2vec(folder).model_id
