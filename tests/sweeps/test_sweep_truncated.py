"""The share of each setting's chunk inputs that the embedding model cuts at its input limit (issue 36)."""

from __future__ import annotations

import warnings
from pathlib import Path

import clanka_nb as cn
from tests.retrieval.conftest import hashed_embed

LIMIT = 40  # "tokens": words, in this embedder


class LimitedEmbedder:
    """An embedder that reads at most LIMIT words of an input, and says so as sentence_transformers' does."""

    model_id = "test/limited-words"
    max_input_tokens = LIMIT

    def __call__(self, texts: list[str]):
        return hashed_embed(texts)

    def count_tokens(self, texts: list[str]) -> list[int]:
        return [len(text.split()) for text in texts]

    def truncated_share(self, texts: list[str]) -> float | None:
        if not texts:
            return None
        counts = self.count_tokens(texts)
        return sum(count > LIMIT for count in counts) / len(counts)


def codebase(root: Path) -> Path:
    # Plain text files: line windows; each line holds five words, so a window of n lines holds about 5n words.
    for number in range(4):
        lines = [f"word{number} alpha beta gamma line{i}" for i in range(60)]
        (root / f"notes{number}.md").write_text("\n".join(lines) + "\n")
    (root / "a.ts").write_text("/** Join the two lists of retry rules. */\nexport function join() {\n  return 1;\n}\n")
    return root


def test_each_setting_says_how_many_of_its_inputs_the_model_cuts(tmp_path: Path) -> None:
    embedder = LimitedEmbedder()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # few queries: the verdict's own warnings are tested with it
        table = cn.sweep(codebase(tmp_path), chunk_size=[4, 30], probe=cn.Probe(embed=embedder), progress=False)
    small, large, reference = table["truncated"].tolist()  # the grid's rows, then clanka's own setting (30 lines)
    assert reference == large  # 30 lines: cut as often, its inputs embedded ahead with the grid's
    assert small < 0.5 < large  # 4 lines (about 20 words) fit in 40; 30 lines (about 150 words) do not
    assert large > 0.75
    assert "truncated" not in table.attrs  # a column, not a leftover attr


def test_an_embedder_without_a_limit_gives_no_column(tmp_path: Path) -> None:
    class Plain:
        model_id = "test/no-limit"

        def __call__(self, texts: list[str]):
            return hashed_embed(texts)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = cn.sweep(codebase(tmp_path), chunk_size=[4], probe=cn.Probe(embed=Plain()), progress=False)
    assert "truncated" not in table.columns
