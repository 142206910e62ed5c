"""One embedding limit for the whole cluster: two `distributed.Semaphore`s (calls in flight; calls started in a
window, each of those leases given back a window after it was taken), and the shared vector cache asked again
just before a batch is sent."""

from __future__ import annotations

import contextlib
import dataclasses
import math
import threading
import time
from dataclasses import dataclass, field

import numpy as np
from distributed import Semaphore

from ..engine.embedding import input_hash
from ..index import Embedder, VectorCache
from ..index import embedders as _embedders

# How long a worker waits for a lease before its repository fails (the others go on): a limit this tight
# means the cluster is far larger than the embedding server can feed.
LEASE_TIMEOUT = 3600.0


@dataclass(frozen=True)
class EmbedLimit:
    """How hard the whole cluster may call the embedder: `concurrency` calls in flight at once (each one
    batch of `batch_size` inputs) and at most `rate` calls started per second (None: no rate limit)."""

    concurrency: int = 4
    rate: float | None = None

    def __post_init__(self) -> None:
        if isinstance(self.concurrency, bool) or not isinstance(self.concurrency, int) or self.concurrency < 1:
            msg = (f"embed_concurrency must be a whole number of embedder calls in flight (1 or more), "
                   f"got {self.concurrency!r}")
            raise ValueError(msg)
        if self.rate is not None and (isinstance(self.rate, bool) or not isinstance(self.rate, int | float)
                                      or not math.isfinite(self.rate) or self.rate <= 0):
            msg = f"embed_rate must be a positive number of embedder calls per second (or None), got {self.rate!r}"
            raise ValueError(msg)

    @property
    def starts(self) -> int:
        """Leases of the rate's semaphore: calls that may start within one `window`."""
        return 1 if self.rate is None else max(1, math.floor(self.rate))

    @property
    def window(self) -> float:
        """Seconds a rate lease is kept after its call started: `starts` per `window` is `rate` calls a second."""
        return 0.0 if self.rate is None else self.starts / self.rate


def rate_name(name: str) -> str:
    return f"{name}-rate"


def portable(embed: Embedder) -> Embedder:
    """`embed` in a form that pickles to the workers (an OpenAI embedder holds a lock and its sessions: rebuilt from
    its settings, once per worker process, and shared by every task there).

    On the cluster an OpenAI embedder sends each call's batches one at a time (`concurrency=1`): the cluster's
    `embed_concurrency` counts calls in flight, and each call is then one request (a batch of `batch_size` inputs),
    as the limit says, rather than up to `concurrency` requests per call.
    """
    if isinstance(embed, _embedders.OpenAIEmbedder):
        arguments: dict[str, object] = {
            f.name: getattr(embed, f.name) for f in dataclasses.fields(embed)
            if f.init and not f.name.startswith("_") and f.name != "requests"  # a counter: each process its own
        }
        return _Rebuilt(_embedders.OpenAIEmbedder, {**arguments, "concurrency": 1})
    return embed


@dataclass(frozen=True)
class _Rebuilt:
    """An embedder made again from its constructor's arguments on first use in each process."""

    kind: type
    arguments: dict[str, object] = field(repr=False)  # the API key among them: never shown
    built: list[Embedder] = field(default_factory=list, compare=False, repr=False)

    def __repr__(self) -> str:
        """The embedder's own repr (which masks its key), never the arguments it is made from."""
        shown = self.built[0] if self.built else self.kind(**self.arguments)
        return f"portable({shown!r})"

    def __call__(self, texts: list[str]) -> object:
        return self._embedder()(texts)

    def _embedder(self) -> Embedder:
        if not self.built:
            self.built.append(_rebuilt(self.kind, self.arguments))
        return self.built[0]

    def __reduce__(self) -> tuple[object, ...]:
        return (_Rebuilt, (self.kind, self.arguments))


_made: dict[tuple[object, ...], Embedder] = {}  # per process: every task's unpickled copy finds the same embedder


def _rebuilt(kind: type, arguments: dict[str, object]) -> Embedder:
    """The embedder `kind(**arguments)`, made once per process for these arguments: each Dask task unpickles its own
    `_Rebuilt`, and they all share one embedder, its kept HTTP sessions and its connections."""
    try:
        key: tuple[object, ...] = (kind, *sorted(arguments.items()))
        hash(key)
    except TypeError:  # an argument that does not hash: made for this task alone
        return kind(**arguments)  # type: ignore[no-any-return]  # kind is an embedder class, typed as a bare type
    with _guard:
        found = _made.get(key)
        if found is None:
            found = _made[key] = kind(**arguments)
        return found


_semaphores: dict[str, Semaphore] = {}  # per worker process: each new one costs a round trip to the scheduler
_guard = threading.Lock()


def _semaphore(name: str, concurrency: int) -> Semaphore:
    with _guard:
        found = _semaphores.get(name)
        if found is None:
            found = _semaphores[name] = Semaphore(max_leases=concurrency, name=name)
        return found


def forget(name: str) -> None:
    """Drop this process's handle on a run's semaphore (the run closed it on the scheduler)."""
    with _guard:
        _semaphores.pop(name, None)
        _semaphores.pop(rate_name(name), None)


def _give_back(lease: Semaphore) -> None:
    """A rate lease given back by its timer (after a run ended the scheduler may have closed it: then nothing)."""
    with contextlib.suppress(RuntimeError, OSError):
        lease.release()


@dataclass
class Lease:
    """One task's hold on the cluster's concurrency limit (the semaphore `name`; "" for none: this process alone).

    Taken before an embedder call. Given back after it, or, with `keep`, at the end of the task (`close`): a task
    whose cluster has no more threads than leases can never make another wait, and keeping its lease spares two
    round trips to the scheduler per call (1-2 ms of CPU for a small repository). Kept or not, no more than
    `concurrency` calls are ever in flight; a worker that joins the cluster later only waits longer for a lease.
    """

    name: str
    concurrency: int
    keep: bool = False
    held: bool = False

    def take(self) -> None:
        """Hold a lease (waiting for one), unless this task already holds one."""
        if self.name and not self.held:
            _acquire(_semaphore(self.name, self.concurrency), "embed_concurrency", self.concurrency)
            self.held = True

    def after_call(self) -> None:
        """The call ended (answered or failed): its lease goes back, unless the task keeps it."""
        if not self.keep:
            self.close()

    def close(self) -> None:
        """The lease goes back if held (the task's end)."""
        if self.held:
            self.held = False
            _semaphore(self.name, self.concurrency).release()


class LimitedEmbedder:
    """Runs on a worker: the user's embedder behind the cluster's semaphore, counting what it really embeds.

    Before sending a batch it asks the shared cache again (under the lease): a worker that embedded the same
    inputs a moment ago (another repository vendoring the same file) saves this one the call.
    """

    def __init__(self, embed: Embedder, model_id: str, limit: EmbedLimit, lease: Lease,
                 cache: VectorCache) -> None:
        self.embed = embed
        self.model_id = model_id
        self.limit = limit
        self.lease = lease
        self.cache = cache
        self.embedded = 0  # inputs the embedder computed
        self.calls = 0
        self.waited = 0.0  # seconds spent waiting for a lease

    def __call__(self, texts: list[str]) -> np.ndarray:
        hashes = [input_hash(text) for text in texts]
        found = self.cache.get(self.model_id, hashes)
        missing = [i for i, digest in enumerate(hashes) if digest not in found]
        if len(missing) == len(texts):
            return self._send(texts)  # checked by the index as any embedder's answer
        computed = self._send([texts[i] for i in missing]) if missing else None
        if computed is not None and (computed.ndim != 2 or computed.shape[0] != len(missing)):
            msg = f"the embedder {self.model_id} returned shape {computed.shape} for {len(missing)} texts"
            raise ValueError(msg)
        width = computed.shape[1] if computed is not None else len(next(iter(found.values()))) // 4
        out = np.empty((len(texts), width), dtype=np.float32)
        for row, digest in enumerate(hashes):
            if digest in found:
                out[row] = np.frombuffer(found[digest], dtype=np.float32)
        if computed is not None:
            out[missing] = computed  # a wrong shape fails here as the embedder's answer would
        return out

    def _send(self, texts: list[str]) -> np.ndarray:
        """One embedder call under the cluster's limits (no semaphore named: this process alone, unlimited).

        The rate's lease is taken first and given back `window` seconds after it was taken, by a timer, so
        the worker goes on meanwhile: at most `starts` calls begin in any window, on the whole cluster.
        """
        name = self.lease.name
        pace = _semaphore(rate_name(name), self.limit.starts) if name and self.limit.rate else None
        asked = time.monotonic()
        if pace is not None:
            _acquire(pace, "embed_rate", self.limit.rate)
            timer = threading.Timer(self.limit.window, _give_back, args=(pace,))
            timer.daemon = True
            timer.start()
        self.lease.take()
        self.waited += time.monotonic() - asked
        try:
            answer = np.asarray(self.embed(texts), dtype=np.float32)
            self.calls += 1
            self.embedded += len(texts)
        finally:
            self.lease.after_call()
        return answer


def _acquire(lease: Semaphore, option: str, value: object) -> None:
    if not lease.acquire(timeout=LEASE_TIMEOUT):
        msg = (f"no embedding lease within {LEASE_TIMEOUT:g} s ({option}={value}): the cluster asks far more "
               f"than the limit lets through; raise {option} or run fewer workers")
        raise TimeoutError(msg)
