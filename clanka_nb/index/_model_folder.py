"""A local model folder's identity: the digest of its files, which keys model2vec's and sentence-transformers'
model ids."""

from __future__ import annotations

import hashlib
from pathlib import Path


def folder_digest(folder: Path) -> str:
    """SHA-256 over every file's relative path and bytes: the model's identity.

    Weights, tokenizer, pooling and normalisation all change the vectors, so all of them are in it; reading
    the bytes (not sizes and times) keeps the id across copies and catches a model replaced in place. Hidden
    entries (a hub download's .cache) and Markdown (the model card) do not change a vector, so are left out.
    """
    files = sorted(
        p for p in folder.rglob("*")
        if p.is_file() and p.suffix.lower() != ".md"
        and not any(part.startswith(".") for part in p.relative_to(folder).parts)
    )
    # Reading a large model takes seconds: within a process, unchanged files (same stat) are not read twice.
    stamp = tuple((str(f), f.stat().st_size, f.stat().st_mtime_ns, f.stat().st_ino) for f in files)
    known = _DIGESTS.get(stamp)
    if known is not None:
        return known
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.relative_to(folder).as_posix().encode() + b"\0")
        with file.open("rb") as handle:
            digest.update(hashlib.file_digest(handle, "sha256").digest())
    _DIGESTS[stamp] = digest.hexdigest()
    return _DIGESTS[stamp]


_DIGESTS: dict[tuple[tuple[str, int, int, int], ...], str] = {}
