"""The sentence-transformers embedder, on a tiny BERT model folder the test builds locally (nothing downloaded).

The model has random weights and a WordPiece vocabulary made of the sample's words: its rankings mean nothing,
but every vector goes through the real tokenizer, transformer and pooling, as with a downloaded model.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import clanka_nb
from clanka_nb.index import SemanticIndex, VectorCache, _exports, embedders

pytestmark = pytest.mark.sentence_transformers
# `.[test]` brings no torch (a CUDA build of several GB by default): without it these tests skip, naming the
# install; CI installs torch's CPU build and runs them in a step of their own, where a skip is a failure.
if "sentence-transformers" in os.environ.get("CLANKA_NB_REQUIRE_TOOLS", "").split(","):
    import sentence_transformers as st
    import tokenizers
    import torch
    import transformers
else:
    _install = "pip install torch==2.13.0 -e '.[sentence-transformers]' (a CPU torch first)"
    st = pytest.importorskip("sentence_transformers", reason=f"needs sentence-transformers: {_install}")
    torch = pytest.importorskip("torch", reason=f"needs torch: {_install}")
    transformers = pytest.importorskip("transformers", reason=f"needs transformers: {_install}")
    tokenizers = pytest.importorskip("tokenizers", reason=f"needs tokenizers: {_install}")

try:  # sentence-transformers 6 moved the modules; 5 has them only here
    from sentence_transformers.sentence_transformer.modules import Pooling, Transformer
except ImportError:
    from sentence_transformers.models import Pooling, Transformer

ROOT = Path(__file__).resolve().parents[2]
DIMENSIONS = 16
TEXTS = ["export const price = 10", "function bookCard(isbn)", "stock report table", "", "ÜNKNOWN ☃ words"]


def _tokenizer() -> object:
    """A BERT-style WordPiece tokenizer whose vocabulary is the sample's words plus single characters."""
    words = sorted({
        word.lower() for file in clanka_nb.sample_codebase().rglob("*") if file.is_file()
        for word in re.findall(r"[A-Za-z]+", file.read_text(encoding="utf-8", errors="replace"))
    })
    special = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    chars = [chr(code) for code in range(33, 127)]
    vocab = list(dict.fromkeys(special + chars + ["##" + c for c in chars] + words))
    model = tokenizers.Tokenizer(tokenizers.models.WordPiece({w: i for i, w in enumerate(vocab)}, unk_token="[UNK]"))
    model.normalizer = tokenizers.normalizers.BertNormalizer(lowercase=True)
    model.pre_tokenizer = tokenizers.pre_tokenizers.BertPreTokenizer()
    model.post_processor = tokenizers.processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B [SEP]",
        special_tokens=[("[CLS]", vocab.index("[CLS]")), ("[SEP]", vocab.index("[SEP]"))],
    )
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=model, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]",
        mask_token="[MASK]", model_max_length=128,
    )


def build_model(target: Path, *, seed: int = 0, pooling: str = "mean") -> Path:
    """Save a one-layer BERT with random weights (from `seed`) and pooling as a sentence-transformers folder."""
    tokenizer = _tokenizer()
    torch.manual_seed(seed)
    config = transformers.BertConfig(
        vocab_size=len(tokenizer), hidden_size=DIMENSIONS, num_hidden_layers=1, num_attention_heads=2,
        intermediate_size=32, max_position_embeddings=128,
    )
    raw = target.parent / f"{target.name}-transformer"
    transformers.BertModel(config).save_pretrained(raw)
    tokenizer.save_pretrained(raw)
    modules = [Transformer(str(raw), max_seq_length=128), Pooling(DIMENSIONS, pooling)]
    st.SentenceTransformer(modules=modules, device="cpu").save(str(target))
    shutil.rmtree(raw)
    return target


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HF_HUB_OFFLINE", "1")  # any attempt to reach the hub fails loudly
        yield build_model(tmp_path_factory.mktemp("st") / "tiny-bert")


def own_model(folder: Path) -> object:
    """The model loaded by sentence-transformers itself, to compare with."""
    return st.SentenceTransformer(str(folder), device="cpu", local_files_only=True)


class Forwards:
    """Counts the texts a real model's transformer receives (a torch forward hook, nothing replaced)."""

    def __init__(self, embed: embedders.SentenceTransformersEmbedder) -> None:
        self.batches: list[int] = []
        embed.model[0].register_forward_hook(self._hook)  # the first module: the transformer, for every batch

    def _hook(self, module: object, args: tuple, output: object) -> None:
        self.batches.append(int(args[0]["input_ids"].shape[0]))

    @property
    def texts(self) -> int:
        return sum(self.batches)


def test_shape_dtype_and_the_models_own_vectors(folder):
    embed = embedders.sentence_transformers(folder, device="cpu")
    vectors = embed(TEXTS)
    assert vectors.shape == (len(TEXTS), DIMENSIONS) and vectors.dtype == np.float32
    assert np.isfinite(vectors).all() and len({v.tobytes() for v in vectors}) == len(TEXTS)
    own = own_model(folder).encode(TEXTS, convert_to_numpy=True)
    assert np.allclose(vectors, own, atol=1e-6)
    assert embed([]).shape == (0, DIMENSIONS) and embed([]).dtype == np.float32


def test_deterministic_across_loads(folder):
    first, second = (embedders.sentence_transformers(folder, device="cpu") for _ in range(2))
    assert first.model_id == second.model_id and re.fullmatch(r"sentence-transformers:[0-9a-f]{16}", first.model_id)
    assert np.array_equal(first(TEXTS), second(TEXTS))
    assert np.array_equal(first(TEXTS), first(TEXTS))


def test_batches_of_at_most_batch_size(folder):
    embed = embedders.sentence_transformers(folder, batch_size=4, device="cpu")
    forwards = Forwards(embed)
    texts = [f"price of book {i}" for i in range(10)]
    alone = embedders.sentence_transformers(folder, batch_size=1, device="cpu")(texts)
    assert np.allclose(embed(texts), alone, atol=1e-5)  # batching (and its padding) does not change vectors
    assert forwards.batches == [4, 4, 2]


def test_model_id_follows_the_model_not_the_place(folder, tmp_path):
    base = embedders.sentence_transformers(folder).model_id
    copy = shutil.copytree(folder, tmp_path / "elsewhere" / "my-copy")
    assert embedders.sentence_transformers(copy).model_id == base  # same files, same vectors: same cache key
    (copy / ".cache").mkdir()
    (copy / ".cache" / "download.lock").write_text("hub metadata")
    assert embedders.sentence_transformers(copy).model_id == base  # hidden bookkeeping is not the model
    (copy / "README.md").write_text("# my notes")
    assert embedders.sentence_transformers(copy).model_id == base  # nor is the model card
    retrained = build_model(tmp_path / "retrained" / "tiny-bert", seed=1)
    assert embedders.sentence_transformers(retrained).model_id != base  # new weights
    cls_pooling = build_model(tmp_path / "cls" / "tiny-bert", pooling="cls")
    assert embedders.sentence_transformers(cls_pooling).model_id != base  # same weights, other pooling
    shutil.copy(retrained / "model.safetensors", copy / "model.safetensors")  # replaced in place
    assert embedders.sentence_transformers(copy).model_id == embedders.sentence_transformers(retrained).model_id


def test_an_index_embeds_each_input_once_through_the_cache(folder, sample):
    embed = embedders.sentence_transformers(folder, device="cpu")
    forwards = Forwards(embed)
    cache = VectorCache()
    index = SemanticIndex(sample, embed=embed, cache=cache, progress=False)
    report = index.sync()
    assert report.embedded == report.inputs == forwards.texts > 0
    assert len(cache) == report.inputs

    # the stored vectors are the model's own for each stored input
    ids, vectors = index.vectors()
    contents = dict(index._db.execute("SELECT id, content FROM chunks").fetchall())
    own = own_model(folder)
    assert np.allclose(vectors, own.encode([contents[int(i)] for i in ids], convert_to_numpy=True), atol=1e-5)

    # a second sync, and a new index of the same files with a new embedder object, compute nothing
    assert index.sync().embedded == 0
    again = embedders.sentence_transformers(folder, device="cpu")
    again_forwards = Forwards(again)
    fresh = SemanticIndex(sample, embed=again, cache=cache, progress=False).sync()
    assert fresh.embedded == 0 and fresh.cached == report.inputs
    assert again_forwards.texts == 0 and forwards.texts == report.inputs

    # search: the model embeds the query once, and sqlite-vec ranks as brute-force L2 does
    query = "discount price of a book"
    found = index.search(query, limit=8)
    q = own.encode([query], convert_to_numpy=True)[0]
    distances = np.sqrt(((vectors - q) ** 2).sum(axis=1))
    assert np.allclose(found["distance"].to_numpy(), np.sort(distances)[:8], atol=1e-4)
    assert forwards.texts == report.inputs + 1
    index.search(query, limit=8)
    assert forwards.texts == report.inputs + 1  # the query's vector came from the cache
    stored = contents[int(ids[3])]
    assert index.search(stored, limit=1)["input"].tolist() == [stored]


def test_not_a_model_folder(tmp_path):
    with pytest.raises(FileNotFoundError, match="never downloads"):
        embedders.sentence_transformers("sentence-transformers/all-MiniLM-L6-v2")
    with pytest.raises(FileNotFoundError, match=r"SentenceTransformer\(name\)\.save\(folder\)"):
        embedders.sentence_transformers(tmp_path)  # a folder, but no model in it
    with pytest.raises(ValueError, match="batch_size must be at least 1"):
        embedders.sentence_transformers(tmp_path, batch_size=0)


def test_a_broken_model_folder(folder, tmp_path):
    broken = shutil.copytree(folder, tmp_path / "broken")
    (broken / "config.json").write_text("{not json")
    with pytest.raises(ValueError, match="could not load a sentence-transformers model"):
        embedders.sentence_transformers(broken)
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "modules.json").write_text("[]")  # looks like a model, holds none (6.x refuses it, 5.x loads it)
    with pytest.raises(ValueError, match=r"holds no modules|could not load a sentence-transformers model"):
        embedders.sentence_transformers(empty)


def test_without_the_extra_the_error_names_the_install(folder):
    # A real interpreter in which `import sentence_transformers` fails, as it does when the extra is missing.
    script = textwrap.dedent(f"""
        import sys

        class Missing:
            def find_spec(self, name, path=None, target=None):
                if name == "sentence_transformers" or name.startswith("sentence_transformers."):
                    raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
                return None

        sys.meta_path.insert(0, Missing())
        from clanka_nb.index import embedders
        try:
            embedders.sentence_transformers({str(folder)!r})
        except ImportError as error:
            print(error)
        else:
            print("loaded")
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}, check=True)
    assert 'pip install "clanka-nb[sentence-transformers]"' in result.stdout, result.stdout + result.stderr


def test_model2vec_given_a_sentence_transformers_folder_names_the_fix(folder):
    pytest.importorskip("model2vec", reason="needs model2vec: pip install -e '.[model2vec]'")
    with pytest.raises(ValueError, match="is a sentence-transformers folder, not a model2vec one") as caught:
        embedders.model2vec(folder)
    assert "cn.embedders.sentence_transformers(folder)" in str(caught.value)
    assert embedders.sentence_transformers(folder, device="cpu")(["a b"]).shape == (1, DIMENSIONS)  # where it goes


# --- backends (issue 38): ONNX / OpenVINO exports, their model ids, a missing library named ----------------------


def _has(module: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


@pytest.mark.skipif(not (_has("onnxruntime") and _has("optimum.onnxruntime")), reason="needs clanka-nb[onnx]")
def test_onnx_backends_have_their_own_model_ids_and_agree_with_torch(folder, tmp_path, monkeypatch):
    monkeypatch.setenv("CLANKA_NB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    before = sorted(p.relative_to(folder) for p in folder.rglob("*"))
    torch_fp32 = embedders.sentence_transformers(folder, device="cpu")
    onnx = embedders.sentence_transformers(folder, backend="onnx")
    int8 = embedders.sentence_transformers(folder, backend="onnx", quantize="int8")
    ids = [torch_fp32.model_id, onnx.model_id, int8.model_id]
    assert len(set(ids)) == 3 and all(i.startswith(torch_fp32.model_id) for i in ids)
    assert onnx.model_id.endswith(":onnx") and re.search(r":onnx-int8-(avx512_vnni|avx512|avx2|arm64)$", int8.model_id)
    assert "backend='onnx'" in repr(onnx) and "quantize='int8'" in repr(int8)
    reference = torch_fp32(TEXTS)
    assert np.allclose(onnx(TEXTS), reference, atol=1e-4)
    cosine = (int8(TEXTS) * reference).sum(1) / np.linalg.norm(reference, axis=1) / np.linalg.norm(int8(TEXTS), axis=1)
    assert cosine.min() > 0.5  # moved, not scrambled (a random tiny model: real models agree far closer)
    assert sorted(p.relative_to(folder) for p in folder.rglob("*")) == before  # nothing written into the model
    assert (tmp_path / "cache" / _exports.EXPORTS).is_dir()
    again = embedders.sentence_transformers(folder, backend="onnx")  # the export is reused
    assert again.model_id == onnx.model_id and np.array_equal(again(TEXTS), onnx(TEXTS))


def test_a_missing_backend_library_names_the_extra(folder, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name.split(".")[0] in ("onnxruntime", "openvino") else real(name, *a))
    for backend, extra in (("onnx", "onnx"), ("openvino", "openvino")):
        with pytest.raises(ModuleNotFoundError, match=rf"pip install 'clanka-nb\[{extra}\]'") as caught:
            embedders.sentence_transformers(folder, backend=backend)
        assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("options", "message"), [
    ({"backend": "tensorrt"}, "backend must be one of 'torch', 'onnx', 'openvino'"),
    ({"quantize": "int4", "backend": "onnx"}, "quantize must be None or 'int8'"),
    ({"quantize": "int8"}, "quantize='int8' needs backend='onnx'"),
    ({"threads": 0}, "threads must be a whole number"),
])
def test_bad_backend_options_are_named(folder, options, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        embedders.sentence_transformers(folder, **options)


def test_available_cpus_is_at_least_one_and_at_most_the_machines():
    assert 1 <= embedders.available_cpus() <= (os.cpu_count() or 1)


def test_the_input_limit_and_token_counts_are_the_models_own(folder):
    embed = embedders.sentence_transformers(folder, device="cpu")
    assert embed.max_input_tokens == own_model(folder).max_seq_length == 128
    tokenizer = own_model(folder).tokenizer
    long_text = " ".join(["stock report table"] * 100)  # 300 words, each one token: past the limit of 128
    texts = ["stock report table", "", long_text]
    counts = embed.count_tokens(texts)
    assert counts[:2] == [5, 2]  # [CLS] stock report table [SEP]; the empty text is its two special tokens
    assert counts[2] == len(tokenizer(long_text, truncation=False, verbose=False)["input_ids"]) == 302
    assert embed.count_tokens([]) == []
    assert embed.truncated_share(texts) == pytest.approx(1 / 3)
    assert embed.truncated_share([]) is None
    assert embed(texts).shape == (3, DIMENSIONS)  # the long text is embedded (truncated), not refused


def test_the_token_count_warns_of_nothing(folder, recwarn, caplog):
    embed = embedders.sentence_transformers(folder, device="cpu")
    embed.count_tokens([" ".join(["stock"] * 500)])
    assert not recwarn.list and "longer than" not in caplog.text  # long inputs are what is counted, not an error
