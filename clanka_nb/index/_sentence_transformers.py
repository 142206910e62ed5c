"""The sentence-transformers embedder: a model from a local folder (`sentence_transformers()`), run by torch, ONNX
Runtime or OpenVINO (`backend=`), ONNX optionally quantized to int8 (`quantize=`), threads sized to the CPUs this
process may use. The one place sentence-transformers and its backends' libraries are imported (inside functions,
so the index loads without them); the exports they run from are kept and checked by `_exports.py`.
"""

from __future__ import annotations

import logging
import math
import os
from pathlib import Path
from typing import Any

import numpy as np

from ..engine.settings import checked_keywords
from ._exports import check_modules, ensured, exports_root
from ._model_folder import folder_digest

BACKENDS = ("torch", "onnx", "openvino")
QUANTIZE = (None, "int8")
# The extra that brings each backend's libraries (pyproject.toml), named in the one-line error when one is missing.
_BACKEND_EXTRAS = {"torch": "sentence-transformers", "onnx": "onnx", "openvino": "openvino"}
_BACKEND_MODULES = {"torch": ("sentence_transformers", "torch"), "onnx": ("sentence_transformers", "onnxruntime",
                    "optimum.onnxruntime"), "openvino": ("sentence_transformers", "openvino", "optimum.intel")}


def available_cpus() -> int:
    """The CPUs this process may really use: its affinity, further bounded by a cgroup CPU quota (containers).

    torch and ONNX Runtime size their pools by the machine's physical cores; in a container limited to 2 CPUs
    on a 64-core host that is 32 threads fighting over 2, many times slower than 2 threads.
    """
    try:
        count = len(os.sched_getaffinity(0))
    except AttributeError:  # macOS and Windows have no affinity call
        count = os.cpu_count() or 1
    try:
        quota, period = Path("/sys/fs/cgroup/cpu.max").read_text().split()[:2]
        if quota != "max":
            count = min(count, max(1, math.ceil(int(quota) / int(period))))
    except (OSError, ValueError):
        pass  # no cgroup v2 CPU limit here: the affinity is the bound
    return max(1, count)


def _int8_config() -> str:
    """sentence-transformers' dynamic int8 configuration for this CPU: VNNI's int8 dot products where there."""
    import platform

    if platform.machine().lower() in ("arm64", "aarch64"):
        return "arm64"
    try:
        flags = next((line for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("flags")), "")
    except OSError:
        flags = ""
    words = set(flags.split())
    if "avx512_vnni" in words or "avx512vnni" in words:
        return "avx512_vnni"
    return "avx512" if "avx512f" in words else "avx2"


def _exported(source: Path, digest: str, backend: str, quantize: str | None, device: str | None) -> tuple[Path, str]:
    """The folder and file of `source` exported to `backend` (and quantized), made once and kept in the cache.

    Exports live in clanka-nb's cache folder (`$CLANKA_NB_CACHE_DIR/model-exports/<digest>-<backend>`), never in
    the model's own folder: a file added there would change the folder's digest, so the model id of every
    backend and every vector cached for it, and the folder may be read-only (a package, a shared mount). They are
    private to the user and checked before each load (`_exports.py`): one changed since it was made is made again.
    """
    from sentence_transformers import SentenceTransformer

    folder = exports_root() / f"{digest[:16]}-{backend}"
    sub, plain = ("onnx", "model.onnx") if backend == "onnx" else ("openvino", "openvino_model.xml")

    def export(into: Path) -> None:
        # export=True: optimum traces the local torch weights; nothing is downloaded (local_files_only).
        # Its advice to save the export is what this does: the logger is quieted for the export alone.
        quiet = logging.getLogger("sentence_transformers")
        level = quiet.level
        quiet.setLevel(logging.ERROR)
        try:
            model = SentenceTransformer(str(source), backend=backend, device=device, local_files_only=True,
                                        trust_remote_code=False, model_kwargs={"export": True})
        finally:
            quiet.setLevel(level)
        model.save(str(into))

    ensured(folder, f"{sub}/{plain}", export)
    if quantize is None:
        return folder, plain
    config = _int8_config()
    name = f"model_qint8_{config}.onnx"

    def quantized(into: Path) -> None:
        import tempfile

        from sentence_transformers.backend import export_dynamic_quantized_onnx_model

        model = SentenceTransformer(str(into), backend="onnx", device=device, local_files_only=True,
                                    trust_remote_code=False, model_kwargs={"file_name": plain})
        with tempfile.TemporaryDirectory(dir=into.parent, prefix=".quantize-") as temporary:
            export_dynamic_quantized_onnx_model(model, config, temporary)
            os.replace(Path(temporary) / sub / name, into / sub / name)

    ensured(folder, f"{sub}/{name}", quantized)
    return folder, name


_COUNT_SLICE = 2048  # texts tokenized at once by count_tokens


class SentenceTransformersEmbedder:
    """A sentence-transformers model loaded from a local folder (see `sentence_transformers()`).

    `max_input_tokens` is the model's input limit and `count_tokens(texts)` each text's length in the model's
    own tokens: together they say which chunks the model truncates (`truncated_share(texts)`).

    Args:
        folder: The model's folder.
        model: The loaded `SentenceTransformer`.
        batch_size: Texts through the model at once.
        backend: "torch", "onnx" or "openvino".
        quantize: "int8" (ONNX only) or None.
        device: torch's device; None: its choice.
        threads: The runtime's threads at most; None: the CPUs this process may use.
    """

    def __init__(self, folder: Path, model: object, batch_size: int, backend: str = "torch",
                 quantize: str | None = None, device: str | None = None, threads: int | None = None) -> None:
        self.folder = folder
        self.model = model
        self.batch_size = batch_size
        self.backend, self.quantize, self.device, self.threads = backend, quantize, device, threads
        # The files alone, not the folder's name or place: a copy of the model shares its cached vectors.
        # Another runtime or a quantized model gives other vectors, so it has its own id (torch fp32 keeps the
        # plain one, and the vectors cached before backends existed).
        runtime = "" if backend == "torch" else f":{backend}" + (f"-{quantize}-{_int8_config()}" if quantize else "")
        self.model_id = f"sentence-transformers:{folder_digest(folder)[:16]}{runtime}"

    @property
    def dimensions(self) -> int:
        """The vector length the model gives."""
        method = getattr(self.model, "get_embedding_dimension", None)
        if method is None:  # sentence-transformers 5's name
            method = self.model.get_sentence_embedding_dimension  # type: ignore[attr-defined]  # the model of an optional, untyped library
        found = method()
        return int(found) if found is not None else self(["."]).shape[1]

    @property
    def max_input_tokens(self) -> int | None:
        """The most tokens the model reads of one input (sentence-transformers' `max_seq_length`, special tokens
        counted); the rest of a longer input is cut off before the model sees it. None when the model sets no limit.
        """
        value = getattr(self.model, "max_seq_length", None)
        return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None

    def count_tokens(self, texts: list[str]) -> list[int]:
        """Each text's length in the model's own tokens, special tokens ([CLS], [SEP]) included, before truncation.

        The same count as `max_input_tokens`: a text with a count above it is truncated by the model, so
        `count > max_input_tokens` says which chunk inputs the model reads only the start of. Nothing is embedded.
        """
        tokenizer = getattr(self.model, "tokenizer", None)
        if tokenizer is None or not callable(tokenizer):
            msg = f"{self!r} has no tokenizer to count tokens with (its first module is not a Transformer)"
            raise TypeError(msg)
        counts: list[int] = []
        # In slices: a codebase's inputs at once would hold every token id of all of them in memory.
        for start in range(0, len(texts), _COUNT_SLICE):
            # verbose=False: the tokenizer would warn of every text longer than the model's limit, which is
            # what is being counted, not a mistake.
            encoded = tokenizer(list(texts[start : start + _COUNT_SLICE]), add_special_tokens=True, truncation=False,
                                padding=False, return_attention_mask=False, return_token_type_ids=False,
                                verbose=False)
            counts += [len(ids) for ids in encoded["input_ids"]]
        return counts

    def truncated_share(self, texts: list[str]) -> float | None:
        """The share of `texts` longer than `max_input_tokens` (so cut by the model); None without a limit or texts."""
        limit = self.max_input_tokens
        if limit is None or not texts:
            return None
        return sum(count > limit for count in self.count_tokens(texts)) / len(texts)

    def __call__(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        # encode sorts the texts by length into batches (less padding) and returns the vectors in input order.
        vectors = self.model.encode(  # type: ignore[attr-defined]  # the model of an optional, untyped library
            list(texts), batch_size=self.batch_size, convert_to_numpy=True, show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)

    def __repr__(self) -> str:
        extra = "" if self.backend == "torch" else f", backend={self.backend!r}"
        extra += "" if self.quantize is None else f", quantize={self.quantize!r}"
        extra += "" if self.device is None else f", device={self.device!r}"
        return f"sentence_transformers({str(self.folder)!r}, batch_size={self.batch_size}{extra})"


@checked_keywords
def sentence_transformers(
    name_or_path: str | os.PathLike[str], *, batch_size: int = 32, device: str | None = None,
    backend: str = "torch", quantize: str | None = None, threads: int | None = None,
) -> SentenceTransformersEmbedder:
    """A sentence-transformers model from a local folder (as `SentenceTransformer.save` writes it); never downloads.

    Needs `pip install "clanka-nb[sentence-transformers]"` and a torch build of your choice. Fetch a model
    once (`SentenceTransformer(name).save(folder)` online, or the Hugging Face tools), then pass its folder.
    `batch_size` is how many texts go through the model at once (sorted by length, so a batch pads little);
    `device` is torch's ("cuda", "cuda:1", "mps"; default: its choice), for ONNX "cuda" picks ONNX Runtime's
    CUDA provider.
    `backend="onnx"` or `"openvino"` runs the model in ONNX Runtime or OpenVINO (sentence-transformers' own
    backends, through optimum; extras `onnx`, `openvino`): on a CPU 1.5-4x torch's speed at the same vectors
    (cosine >= 0.9999). `quantize="int8"` (ONNX only) quantizes its weights dynamically for this CPU's int8
    instructions (VNNI where there): faster again, but vectors move (median cosine 0.99, some 0.92): see
    docs/performance.md before tuning with it. The export is made once from the folder's own weights, offline,
    and kept in clanka-nb's cache folder (`model-exports/`), never written into the model's folder. The
    `model_id` names the backend and quantization, so the vector cache never mixes vectors of two runtimes.
    `threads` bounds ONNX Runtime's and OpenVINO's threads (default: the CPUs this process may use, affinity
    and container quota counted); torch's pool is lowered to that only when it is larger or `threads` is given.

    Args:
        name_or_path: The model's folder.
        batch_size: Texts through the model at once.
        device: torch's device ("cuda", "mps"...); None: its choice.
        backend: "torch", "onnx" or "openvino".
        quantize: "int8" (ONNX only) or None.
        threads: ONNX Runtime's and OpenVINO's threads at most; None: the CPUs this process may use.

    Returns:
        The embedder.

    Examples:
        >>> embed = cn.embedders.sentence_transformers("models/all-MiniLM-L6-v2", backend="onnx")
    """
    path = _checked_folder(name_or_path, batch_size=batch_size, backend=backend, quantize=quantize, threads=threads)
    SentenceTransformer = _library(backend)  # the library's class, under its own name
    path = path.resolve()
    check_modules(path)  # before anything imports what the folder names: never a folder's custom code
    count = threads or available_cpus()
    if backend == "torch":
        import torch

        if threads is not None or torch.get_num_threads() > count:
            torch.set_num_threads(count)  # process-wide: torch has no per-model pool
    try:
        if backend == "torch":
            model = SentenceTransformer(str(path), device=device, local_files_only=True, trust_remote_code=False)
        else:
            folder, file_name = _exported(path, folder_digest(path), backend, quantize, device)
            model = SentenceTransformer(str(folder), backend=backend, device=device, local_files_only=True,
                                        trust_remote_code=False,
                                        model_kwargs={"file_name": file_name, **_runtime_options(backend, count,
                                                                                                  device)})
    except (OSError, ValueError) as error:
        msg = f"could not load a sentence-transformers model from {str(path)!r} ({error}); check the folder's files"
        raise ValueError(msg) from error
    if len(model) == 0:
        msg = f"{str(path)!r} holds no modules (modules.json lists none); pass a saved sentence-transformers folder"
        raise ValueError(msg)
    return SentenceTransformersEmbedder(path, model, batch_size, backend, quantize, device, threads)


def _checked_folder(name_or_path: str | os.PathLike[str], *, batch_size: int, backend: str, quantize: str | None,
                    threads: int | None) -> Path:
    """The model's folder, once every argument of `sentence_transformers` is checked (one clear error each)."""
    if batch_size < 1:
        msg = f"batch_size must be at least 1, got {batch_size}"
        raise ValueError(msg)
    if backend not in BACKENDS:
        msg = f"backend must be one of {', '.join(map(repr, BACKENDS))}, got {backend!r}"
        raise ValueError(msg)
    if quantize not in QUANTIZE:
        msg = f"quantize must be None or 'int8' (dynamic int8 for ONNX Runtime), got {quantize!r}"
        raise ValueError(msg)
    if quantize is not None and backend != "onnx":
        msg = (f"quantize={quantize!r} needs backend='onnx' (dynamic int8 needs no calibration data; OpenVINO's "
               "int8 is static and would need a data set); pass backend='onnx', quantize='int8'")
        raise ValueError(msg)
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
        msg = f"threads must be a whole number of threads (1 or more) or None for the CPUs available, got {threads!r}"
        raise ValueError(msg)
    path = Path(name_or_path).expanduser()
    if not ((path / "modules.json").is_file() or (path / "config.json").is_file()):
        msg = (
            f"{str(name_or_path)!r} is not a local sentence-transformers folder (no modules.json or config.json); "
            "clanka-nb never downloads models: save one with SentenceTransformer(name).save(folder) or fetch it "
            "once, then pass that folder"
        )
        raise FileNotFoundError(msg)
    return path


def _library(backend: str) -> Any:
    """sentence-transformers' `SentenceTransformer`, once it and `backend`'s libraries are found installed (else one
    line naming the extra that brings them)."""
    from ..extras import MissingExtraError, require

    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as error:
        msg = (
            "cn.embedders.sentence_transformers needs the sentence-transformers package: "
            'pip install "clanka-nb[sentence-transformers]" (or pip install sentence-transformers)'
        )
        raise ImportError(msg) from error
    try:
        require(f"cn.embedders.sentence_transformers(backend={backend!r})", _BACKEND_EXTRAS[backend],
                *_BACKEND_MODULES[backend][1:])
    except ModuleNotFoundError as error:  # optimum.onnxruntime's parent (optimum) is missing
        if isinstance(error, MissingExtraError):
            raise
        raise MissingExtraError(f"cn.embedders.sentence_transformers(backend={backend!r})", error.name or "optimum",
                                _BACKEND_EXTRAS[backend]) from None
    return SentenceTransformer


def _runtime_options(backend: str, threads: int, device: str | None) -> dict[str, object]:
    """model_kwargs for optimum: the thread count, and ONNX Runtime's provider for the device."""
    if backend == "openvino":
        return {"ov_config": {"INFERENCE_NUM_THREADS": str(threads)}}
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1  # one model runs one batch at a time: a second pool only competes
    gpu = device is not None and device.startswith("cuda")
    return {"session_options": options, "provider": "CUDAExecutionProvider" if gpu else "CPUExecutionProvider"}
