"""An embedding server that lies, stalls, floods or echoes secrets (real HTTP on 127.0.0.1): errors, never damage."""

from __future__ import annotations

import base64
import json
import math
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clanka_nb.index import SemanticIndex, VectorCache, embedders
from clanka_nb.index.embedders import EmbeddingServerError

from . import scripted_server as ss

pytest.importorskip("httpx")

KEY = "sk-live-0123456789abcdef"
PASSWORD = "s3cret-pw"


@pytest.fixture
def server():
    running = ss.Scripted()
    yield running
    running.close()


def _openai(server: ss.Scripted, **options: object) -> embedders.OpenAIEmbedder:
    options = {"api_key": KEY, "max_retries": 0, **options}
    return embedders.openai("stand-in-model", base_url=server.url, **options)  # type: ignore[arg-type]


# --- 4. secrets ---------------------------------------------------------------------------------------------------


def test_the_key_is_never_in_the_repr(server):
    embed = _openai(server)
    assert KEY not in repr(embed) and KEY not in str(embed)
    assert "stand-in-model" in repr(embed) and server.url in repr(embed)  # still says what it is


def test_userinfo_is_stripped_from_every_id_but_still_sent(server, sample):
    url = server.url.replace("http://", f"http://user:{PASSWORD}@")
    embed = embedders.openai("m", base_url=url, api_key=None, max_retries=0)
    for shown in (repr(embed), embed.model_id):
        assert PASSWORD not in shown and "user:" not in shown
    assert embed.model_id == f"openai:{server.url}:m"  # the vector-cache key: the same with or without credentials
    index = SemanticIndex(sample, embed=embed, cache=VectorCache())
    index.sync()
    assert PASSWORD not in repr(index) and PASSWORD not in str(index.model_id)
    sent = server.requests[0]["headers"]["Authorization"]
    assert sent == "Basic " + base64.b64encode(f"user:{PASSWORD}".encode()).decode()  # the request still used it


def test_a_server_echoing_the_key_is_quoted_redacted_short_and_inert(server):
    echo = (f"invalid request. headers: Authorization: Bearer {KEY}; api_key={KEY}; basic: Basic dXNlcjpwdw== "
            "\x1b]0;owned\x07\x1b[2J\u202e" + "z" * 5000).encode()
    server.answers = [ss.status(400, echo)]
    url = server.url.replace("http://", f"http://user:{PASSWORD}@")
    embed = embedders.openai("m", base_url=url, api_key=KEY, max_retries=0)
    with pytest.raises(EmbeddingServerError) as caught:
        embed(["x"])
    message = str(caught.value)
    assert "invalid request" in message and "400" in message  # still says what the server said
    for secret in (KEY, PASSWORD, "dXNlcjpwdw==", "\x1b", "\x07", "\u202e"):
        assert secret not in message
    assert "zzzz" in message and len(message) < 600  # the quote is capped


def test_a_password_with_an_at_sign_is_redacted_in_every_form(server):
    password = "p@ss:w%2Ford"
    encoded = base64.b64encode(b"me:p@ss:w/ord").decode()
    server.answers = [ss.status(400, f"echo: {password} / p@ss:w/ord / {encoded}".encode())]
    url = server.url.replace("http://", f"http://me:{password}@")
    embed = embedders.openai("m", base_url=url, api_key=None, max_retries=0)
    assert "ss:w" not in repr(embed) + embed.model_id
    with pytest.raises(EmbeddingServerError, match="echo") as caught:
        embed(["x"])
    assert "ss:w" not in str(caught.value) and encoded not in str(caught.value)
    assert server.requests[0]["headers"]["Authorization"] == f"Basic {encoded}"


def test_a_base_url_with_spaces_around_it_still_hides_its_password(server, sample):
    url = "  " + server.url.replace("http://", f"http://user:{PASSWORD}@") + "\n"  # as pasted from a .env file
    embed = embedders.openai("m", base_url=url, api_key=None, max_retries=0)
    assert PASSWORD not in repr(embed) + embed.model_id and embed.model_id == f"openai:{server.url}:m"
    assert embed(["x"]).shape[0] == 1  # and it still reaches the server, with the credentials


@pytest.mark.parametrize("url", [f"user:{PASSWORD}@127.0.0.1:9/v1", f"ftp://user:{PASSWORD}@127.0.0.1:9/v1"])
def test_a_base_url_without_http_is_refused_without_showing_its_password(url):
    with pytest.raises(ValueError, match=r"http:// or https://") as caught:
        embedders.openai("m", base_url=url, api_key=KEY)
    assert PASSWORD not in str(caught.value) and KEY not in str(caught.value)


def test_an_unreachable_server_with_credentials_is_named_without_them():
    embed = embedders.openai("m", base_url=f"http://user:{PASSWORD}@127.0.0.1:9/v1", api_key=KEY, max_retries=0)
    with pytest.raises(EmbeddingServerError, match="could not reach") as caught:
        embed(["x"])
    assert PASSWORD not in str(caught.value) and KEY not in str(caught.value)


# --- 7. answers that do not match the inputs -----------------------------------------------------------------------


def _indexed(vectors, indices):
    return [{"index": i, "embedding": v} for i, v in zip(indices, vectors, strict=True)]


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda v: _indexed(v, [i + 1000 for i in range(len(v))]), r"index 1000 .*out of range"),
        (lambda v: _indexed(v, [0] * len(v)), r"index 0 .*more than once"),
        (lambda v: _indexed(v, [0, 2, 3]), r"index 3 .*out of range"),
        (lambda v: _indexed(v, [0, 1, 10**300]), r"index 1000.*\.\.\.0+ .*out of range"),
        (lambda v: _indexed(v, [0, 1, True]), r"index True .*not an integer"),
        (lambda v: _indexed(v, [0, 1, "2"]), r"index '2' .*not an integer"),
        (lambda v: [{"index": 0, "embedding": v[0]}, {"embedding": v[1]}, {"embedding": v[2]}], "only some items"),
        (lambda v: _indexed(v[:2], [0, 1]), "2 embeddings for 3 inputs"),
        (lambda v: _indexed(v + v[:1], [0, 1, 2, 3]), "4 embeddings for 3 inputs"),
        (lambda v: _indexed([v[0], v[1], [math.nan] * 16], [0, 1, 2]), "not finite"),
        (lambda v: _indexed([v[0], v[1], [1e39] * 16], [0, 1, 2]), "not finite"),
        (lambda v: _indexed([v[0], v[1][:15], v[2]], [0, 1, 2]), "different lengths"),
        (lambda v: _indexed([v[0], v[1], ["0.5"] * 16], [0, 1, 2]), "not a list of numbers"),
        (lambda v: _indexed([v[0], v[1], []], [0, 1, 2]), "different lengths|empty"),
        (lambda v: _indexed([[[x] for x in row] for row in v], [0, 1, 2]), "not a list of numbers"),
        (lambda v: _indexed([[True] * 16] * 3, [0, 1, 2]), "not a list of numbers"),
        (lambda v: {"embedding": v[0]}, "not an OpenAI embeddings response"),
    ],
)
def test_an_answer_that_does_not_match_the_inputs_is_refused(server, build, message):
    server.answers = [ss.data(build)]
    with pytest.raises(EmbeddingServerError, match=message):
        _openai(server)(["alpha", "beta", "gamma"])


def test_out_of_order_answers_are_put_back_in_order_and_unindexed_ones_kept_in_order(server):
    texts = ["alpha", "beta", "gamma"]
    server.answers = [ss.data(lambda v: _indexed(v, [0, 1, 2])[::-1]), ss.data(lambda v: [{"embedding": x} for x in v])]
    embed = _openai(server)
    assert (embed(texts) == ss.STAND_IN(texts)).all()
    assert (embed(texts) == ss.STAND_IN(texts)).all()


def test_a_lying_server_stores_nothing_in_the_index(server, sample, tmp_path):
    db = tmp_path / "search.sqlite"
    SemanticIndex(sample, embed=_openai(server), db=db, cache=VectorCache()).sync()
    before = db.read_bytes()
    (sample / "src" / "index.ts").write_text("export const changed = 2\nexport const other = 3\n")
    server.default = ss.data(lambda v: _indexed(v, [0] * len(v)))  # every row would get the first input's vector
    index = SemanticIndex(sample, embed=_openai(server), db=db, cache=VectorCache())
    with pytest.raises(EmbeddingServerError, match="more than once"):
        index.sync()
    index.close()
    assert db.read_bytes() == before


def test_a_server_that_changes_dimension_between_batches_is_named(server):
    server.answers = [ss.correct, ss.data(lambda v: _indexed([x[:8] for x in v], range(len(v))))]
    with pytest.raises(EmbeddingServerError, match=r"vectors of 8 and 16 dimensions \(batches of"):
        _openai(server, batch_size=2)(["a", "b", "c"])


# --- 9. a deadline per request ------------------------------------------------------------------------------------


@pytest.mark.parametrize("head_at_once", [False, True], ids=["from-the-status-line", "body-only"])
def test_a_dribbling_server_is_cut_off_at_the_deadline(server, head_at_once):
    server.default = ss.dribble(head_at_once)
    embed = _openai(server, timeout=2.0)
    started = time.monotonic()
    with pytest.raises(EmbeddingServerError, match=r"timeout=2"):
        embed(["x"])
    assert time.monotonic() - started < 3.0  # 2 s and some slack, not one read timeout per byte


def test_a_slow_but_steady_answer_within_the_deadline_is_fine(server):
    server.default = ss.dribble(True, pause=0.05, limit=10_000)
    assert _openai(server, timeout=30.0)(["x"]).shape == (1, 16)


# --- 10. bounded reads -------------------------------------------------------------------------------------------

_CLIENT = """
import json, resource, sys
from clanka_nb.index import embedders
from clanka_nb.index.embedders import EmbeddingServerError
embed = embedders.openai("m", base_url=sys.argv[1], api_key="k", max_retries=0)
embed(["warm up"])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    embed(["x"])
    outcome = "accepted"
except EmbeddingServerError as error:
    outcome = str(error)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"grew_mb": (after - before) / 1024, "outcome": outcome}))
"""

FLOOD = 160 << 20


@pytest.mark.parametrize(
    ("code", "prefix", "fill", "message"),
    [
        (200, b'{"data": [{"index": 0, "embedding": [0.5, 0.5]}]}', b" ", "larger than"),
        (500, b"oops ", b"x", "500"),
        (200, b'{"data": [{"index": 0, "embedding": [', b"0.5, ", "larger than"),
    ],
    ids=["padded-answer", "huge-error-body", "endless-vector"],
)
def test_a_flood_is_cut_off_and_memory_stays_bounded(server, code, prefix, fill, message):
    server.answers = [ss.correct, ss.flood(code, prefix, FLOOD, fill)]
    done = subprocess.run([sys.executable, "-c", _CLIENT, server.url], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["outcome"] != "accepted" and message in result["outcome"]
    assert result["grew_mb"] < 40, result  # 160 MB offered: read past a small cap, never whole
    assert server.sent < FLOOD / 4  # the client hung up early (what the kernel buffered is all that went out)


def test_an_answer_bigger_than_its_content_length_cap_is_refused_before_reading(server):
    body = json.dumps({"data": [{"index": 0, "embedding": [0.5] * 200_000}]}).encode()
    server.answers = [ss.status(200, body)]
    with pytest.raises(EmbeddingServerError, match="larger than"):
        _openai(server)(["x"])


def test_an_answer_of_nested_structure_is_refused_before_parsing(server):
    body = b'{"data": [' + b"[]," * 60_000 + b'{"index": 0, "embedding": [0.5]}]}'
    server.answers = [ss.status(200, body)]
    with pytest.raises(EmbeddingServerError, match="not an OpenAI embeddings response"):
        _openai(server)(["x"])


def test_a_gzip_bomb_is_cut_off(server):
    import gzip

    bomb = gzip.compress(b'{"data": [{"index": 0, "embedding": [0.5]}]}' + b" " * (50 << 20), compresslevel=9)
    server.answers = [ss.status(200, bomb, {"Content-Encoding": "gzip"})]
    with pytest.raises(EmbeddingServerError, match="larger than"):
        _openai(server)(["x"])
    server.answers = [ss.status(200, gzip.compress(b'{"data": [{"index": 0, "embedding": [0.5, 0.25]}]}'),
                                {"Content-Encoding": "gzip"})]
    assert _openai(server)(["x"]).tolist() == [[0.5, 0.25]]  # a normal compressed answer still reads


# --- 13. Retry-After ----------------------------------------------------------------------------------------------


def test_retry_after_that_is_not_a_number_or_date_uses_the_backoff(server):
    server.answers = [ss.status(429, headers={"Retry-After": "soon"}), ss.status(503, headers={"Retry-After": ""})]
    embed = _openai(server, max_retries=3)
    embed.backoff = 0.05
    started = time.monotonic()
    assert embed(["x"]).shape == (1, 16)
    assert len(server.requests) == 3 and time.monotonic() - started < 2


@pytest.mark.parametrize("value", ["86400", "1e309", "Wed, 21 Oct 2099 07:28:00 GMT"])
def test_a_huge_retry_after_is_capped(server, value):
    server.answers = [ss.status(503, headers={"Retry-After": value})]
    embed = _openai(server, max_retries=1, max_wait=0.3)
    started = time.monotonic()
    assert embed(["x"]).shape == (1, 16)
    assert 0.25 < time.monotonic() - started < 2



# --- the environment's proxy is still used (the deadline transport chooses it itself) ------------------------------


def test_the_environments_proxy_is_used_and_no_proxy_respected(server, monkeypatch):
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{server.port}")
    embed = embedders.openai("m", base_url="http://embeddings.invalid/v1", api_key=KEY, max_retries=0, timeout=5.0)
    assert embed(["x"]).shape == (1, 16)
    assert server.requests[-1]["path"] == "http://embeddings.invalid/v1/embeddings"  # absolute form: via the proxy
    monkeypatch.setenv("NO_PROXY", "embeddings.invalid")
    with pytest.raises(EmbeddingServerError, match="could not reach"):
        embed(["x"])
    assert len(server.requests) == 1


def test_bad_timeouts_are_named():
    with pytest.raises(ValueError, match="timeout must be"):
        embedders.openai("m", base_url="http://127.0.0.1:9/v1", timeout=0)
    with pytest.raises(ValueError, match="max_wait must be"):
        embedders.openai("m", base_url="http://127.0.0.1:9/v1", max_wait=-1)


# --- issue 34, item 6: credentials in base_url's query string or fragment ----------------------------------------

QUERY_KEY = "q-s3cret-0123456789"


def test_a_key_in_the_query_is_sent_but_shown_nowhere(server, sample):
    url = f"{server.url}/?api-version=2024-02-01&api-key={QUERY_KEY}"
    embed = embedders.openai("m", base_url=url, api_key=None, max_retries=0)
    for shown in (repr(embed), embed.model_id):
        assert QUERY_KEY not in shown and "2024-02-01" not in shown
    assert "api-key=***" in repr(embed)  # still says which parameters it has
    assert embed.model_id == f"openai:{server.url}:m"  # keyed by endpoint and model: the same with another key
    index = SemanticIndex(sample, embed=embed, cache=VectorCache())
    index.sync()
    assert QUERY_KEY not in repr(index)
    # /embeddings goes on the path; the query reaches the server whole (Azure-style api-version and api-key)
    assert server.requests[0]["path"] == f"/v1/embeddings?api-version=2024-02-01&api-key={QUERY_KEY}"


def test_a_key_in_the_query_or_fragment_is_not_in_errors(server):
    echo = f"bad api-key {QUERY_KEY} in {QUERY_KEY}x"
    server.answers = [ss.status(400, echo.encode())]
    embed = embedders.openai("m", base_url=f"{server.url}?api-key={QUERY_KEY}#frag-s3cret", api_key=None,
                             max_retries=0)
    assert "frag-s3cret" not in repr(embed) + embed.model_id
    with pytest.raises(EmbeddingServerError, match="bad api-key") as caught:
        embed(["x"])
    message = str(caught.value)
    assert QUERY_KEY not in message and "frag-s3cret" not in message
    assert "/v1/embeddings?api-key=***" in message  # names the endpoint it used
    assert server.requests[0]["path"] == f"/v1/embeddings?api-key={QUERY_KEY}"  # a fragment is never sent


def test_an_unreachable_server_with_a_query_key_is_named_without_it():
    embed = embedders.openai("m", base_url=f"http://127.0.0.1:9/v1?key={QUERY_KEY}", api_key=None, max_retries=0)
    with pytest.raises(EmbeddingServerError, match="could not reach") as caught:
        embed(["x"])
    assert QUERY_KEY not in str(caught.value)


def test_different_endpoints_and_models_keep_different_model_ids(server):
    ids = {
        embedders.openai(model, base_url=url, api_key=None).model_id
        for model in ("a", "b")
        for url in (server.url, server.url + "/other", "http://127.0.0.1:1/v1", "https://127.0.0.1:1/v1")
    }
    assert len(ids) == 8


# --- issue 34, item 15: what the order check can and cannot see ---------------------------------------------------


def test_shuffled_vectors_without_index_go_undetected_and_the_docs_say_so(server):
    texts = ["alpha", "beta", "gamma"]
    server.answers = [ss.data(lambda v: [{"embedding": x} for x in v[::-1]])]  # shuffled, and no `index`
    got = _openai(server)(texts)
    assert (got == ss.STAND_IN(texts[::-1])).all()  # taken in the order sent: nothing can tell
    docs = (Path(__file__).parents[2] / "docs" / "security.md").read_text(encoding="utf-8")
    flat = " ".join(docs.split())
    assert "cannot make the index store a vector that does not belong to its input" not in flat
    assert "shuffles its vectors and omits `index` goes undetected" in flat
    assert "When its items carry `index`, the order is checked" in flat
