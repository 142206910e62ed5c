"""Test-name queries: a test gives one only when its body calls exactly one project function, resolved
through its file's imports; the target is that function, and the name is blanked out of the index."""

from __future__ import annotations

import pandas as pd
import pytest

from clanka_nb import engine, sweep
from clanka_nb.retrieval import unit_test_queries
from clanka_nb.retrieval.internals import ProbeSet

PRICE = """/** Parses a price label into cents. */
export function parsePrice(label: string) {
  return Math.round(Number(label) * 100);
}

export function formatPrice(cents: number) {
  return (cents / 100).toFixed(2);
}
"""
TAX = "export function addTax(net: number) {\n  return net * 1.2;\n}\n"
PRICE_TEST = """import { describe, expect, it } from "vitest"
import { parsePrice as parse, formatPrice } from "./price.js"
import * as Tax from "../lib/tax"

const helper = (x: string) => x.trim()

describe("prices", () => {
  it("reads a label with decimals into whole cents", () => {
    expect(parse(helper(" 12.50 "))).toBe(1250)
  })
  it.effect("adds the value added tax to a net amount", () => {
    expect(Tax.addTax(100)).toBe(120)
  })
  it("round trips a label through both directions", () => {
    expect(formatPrice(parse("1.00"))).toBe("1.00")
  })
  it("checks nothing of the project at all", () => {
    expect(helper(" a ")).toBe("a")
  })
  it("short", () => {
    parse("1")
  })
  it(`builds ${"dynamic"} names`, () => {
    parse("1")
  })
})
"""
PYTHON = "def rate(country):\n    return 0.2\n\n\ndef unused():\n    return 1\n"
PYTHON_TEST = """from shop.tax import rate
from shop import tax as tax_module


def test_rate_of_a_country_is_a_fraction():
    assert rate("de") < 1


def test_the_module_gives_the_rate_too():
    assert tax_module.rate("fr") < 1


def test_checks_only_python_itself():
    assert len("abc") == 3
"""


@pytest.fixture(scope="module")
def codebase() -> engine.Codebase:
    return engine.Codebase.from_texts(
        {"src/price.ts": PRICE, "lib/tax.ts": TAX, "src/price.test.ts": PRICE_TEST, "shop/__init__.py": "",
         "shop/tax.py": PYTHON, "tests/test_tax.py": PYTHON_TEST}, languages="extended",
    )  # fmt: skip


def test_a_test_gives_a_query_only_when_it_calls_one_project_function(codebase):
    queries = unit_test_queries(codebase)
    rows = {row["query"]: row for row in queries.astype(object).to_dict("records")}
    assert set(rows) == {
        "reads a label with decimals into whole cents",
        "adds the value added tax to a net amount",
        "rate of a country is a fraction",
        "the module gives the rate too",
    }
    parse = rows["reads a label with decimals into whole cents"]
    # An aliased import of "./price.js" is src/price.ts's parsePrice, without its doc comment.
    assert (parse["path"], parse["start_line"], parse["end_line"], parse["name"]) == ("src/price.ts", 2, 4,
                                                                                        "parsePrice")
    assert (parse["test_path"], parse["test_line"]) == ("src/price.test.ts", 8)
    tax = rows["adds the value added tax to a net amount"]
    assert (tax["path"], tax["start_line"], tax["end_line"]) == ("lib/tax.ts", 1, 3)
    for name in ("rate of a country is a fraction", "the module gives the rate too"):
        assert (rows[name]["path"], rows[name]["start_line"], rows[name]["end_line"]) == ("shop/tax.py", 1, 2)
    # Two functions: which one the name is about is a guess. None: no tie. The dynamic name is no literal.
    assert queries.attrs["dropped"] == {"no_function": 2, "several_functions": 1, "short": 1}
    assert queries.attrs["source"] == "test_names"


def test_the_probe_blanks_test_names_out_of_the_index(codebase):
    own = pd.DataFrame({"query": ["whole cents"], "path": ["src/price.ts"], "start_line": [2], "end_line": [4]})
    for prepared in (ProbeSet(codebase), ProbeSet(codebase, own)):
        lines = prepared.masked.lines("src/price.test.ts", codebase.text("src/price.test.ts"))
        assert "whole cents" not in "\n".join(lines)
        assert "expect(parse(helper" in lines[8]  # the rest of the line stays
        assert len(lines[7]) == len(PRICE_TEST.splitlines()[7])


def test_the_default_queries_include_test_names(codebase):
    table = sweep(codebase, chunk_size=[10], probe=True, progress=False)
    assert table.attrs["query_sources"]["test_names"] == 4
    assert "4 from test names" in table.attrs["probe_note"]
