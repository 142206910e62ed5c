"""Test-name queries beyond JS/TS and pytest: Go, Rust, Java, Kotlin, C# and Ruby tests give queries by their
language's convention, read from the engine's parse, with the same rule as a JS test (exactly one project
declaration called) and the same hygiene (short and shared names left out, names blanked out of the index)."""

from __future__ import annotations

import pytest

from clanka_nb import engine
from clanka_nb.retrieval import unit_test_queries
from clanka_nb.retrieval.queries import default_queries
from clanka_nb.retrieval.queries._test_names import scan_test_names

GO = """package money

// ParseAmount reads an amount.
func ParseAmount(s string) int { return len(s) }

func FormatAmount(n int) string { return "" }
"""
GO_TEST = """package money

import (
\t"testing"
\t"example.com/shop/tax"
)

func TestParseAmountReadsWholeCents(t *testing.T) {
\tif ParseAmount("12") != 2 { t.Errorf("bad") }
}

func TestRoundTripThroughBothDirections(t *testing.T) {
\t_ = FormatAmount(ParseAmount("1"))
}

func TestTaxRateOfACountry(t *testing.T) {
\tr := tax.Rate("de")
\tr.Check()
}

func TestShort(t *testing.T) { ParseAmount("1") }

func helperNotATest(t *testing.T) { ParseAmount("1") }
"""
GO_TAX = "package tax\n\nfunc Rate(country string) float64 { return 0.2 }\n"
RUST = """pub fn parse_amount(s: &str) -> usize {
    s.len()
}

pub struct Amount;

impl Amount {
    pub fn new() -> Amount { Amount }
}

impl Drop for Amount {
    fn drop(&mut self) {}
}

pub struct Other;

impl Other {
    pub fn new() -> Other { Other }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn helper() -> usize { 1 }

    #[test]
    fn parses_an_amount_inside_a_macro() {
        assert_eq!(parse_amount("ab"), 2);
    }

    #[test]
    fn builds_an_amount_by_its_constructor() {
        let a = crate::Amount::new();  // the path's last name is the type: Amount's new, not Other's
        let v: Vec<u8> = Vec::new();  // not the project's
        a.check();
        helper();
        drop(a);  // the prelude's, never Amount's Drop::drop
    }

    #[test]
    fn calls_nothing_of_the_project() {
        assert_eq!(1, 1);
    }
}
"""
JAVA = """package com.shop;

public class Prices {
  public static int parse(String label) { return 1; }
  public static int format(int cents) { return 1; }
  public static int format(long cents) { return 1; }
}
"""
JAVA_TEST = """package com.shop;

import org.junit.jupiter.api.Test;

class PricesTest {
  @Test void parsesALabelIntoCents() {
    Prices p = helper();
    assertEquals(1, Prices.parse("x"));
    p.anything();
  }

  @Test
  @DisplayName("formats cents as a label")
  void fmt() { Prices.format(1); }

  void notATest() { Prices.parse("y"); }
}
"""
KOTLIN = "package shop\n\nfun total(items: List<Int>): Int = items.sum()\n"
KOTLIN_TEST = """package shop

class TotalTest {
  @Test fun `sums every item of the list`() { assertEquals(3, total(listOf(1, 2))) }
}
"""
CSHARP = "namespace Shop {\n  public static class Vat {\n    public static int Apply(int net) { return net; }\n  }\n}\n"
CSHARP_TEST = """namespace Shop.Tests {
  public class VatTests {
    [Fact]
    public void Apply_Adds_The_Value_Added_Tax() { Assert.Equal(1, Vat.Apply(1)); }
  }
}
"""
RUBY = "class Cart\n  def self.checkout(items)\n    items\n  end\nend\n"
RUBY_SPEC = """describe Cart do
  it "checks out every item in the cart" do
    expect(Cart.checkout([1])).to eq([1])
  end
  it "names #{1} interpolated titles" do
    Cart.checkout([])
  end
end
"""


@pytest.fixture(scope="module")
def codebase() -> engine.Codebase:
    return engine.Codebase.from_texts(
        {"money/money.go": GO, "money/money_test.go": GO_TEST, "tax/tax.go": GO_TAX, "src/lib.rs": RUST,
         "src/main/java/com/shop/Prices.java": JAVA, "src/test/java/com/shop/PricesTest.java": JAVA_TEST,
         "src/shop/Total.kt": KOTLIN, "tests/shop/TotalTest.kt": KOTLIN_TEST, "Shop/Vat.cs": CSHARP,
         "Shop.Tests/VatTests.cs": CSHARP_TEST, "lib/cart.rb": RUBY, "spec/cart_spec.rb": RUBY_SPEC},
        languages="extended",
    )  # fmt: skip


def _rows(codebase: engine.Codebase) -> dict[str, dict[str, object]]:
    queries = unit_test_queries(codebase)
    return {str(row["query"]): row for row in queries.astype(object).to_dict("records")}


def test_each_language_gives_the_tests_that_call_one_project_declaration(codebase):
    rows = _rows(codebase)
    targets = {query: (row["path"], row["name"]) for query, row in rows.items()}
    assert targets == {
        "parse amount reads whole cents": ("money/money.go", "ParseAmount"),
        "tax rate of a country": ("tax/tax.go", "Rate"),  # tax.Rate through the import; r.Check() is a value's
        "parses an amount inside a macro": ("src/lib.rs", "parse_amount"),  # read from assert_eq!'s tokens
        "builds an amount by its constructor": ("src/lib.rs", "new"),  # Amount::new; helper() is the tests'
        "parses a label into cents": ("src/main/java/com/shop/Prices.java", "parse"),
        "sums every item of the list": ("src/shop/Total.kt", "total"),
        "apply adds the value added tax": ("Shop/Vat.cs", "Apply"),
        "checks out every item in the cart": ("lib/cart.rb", "checkout"),
    }
    # The target is the declaration without its doc comment, as a JS test's.
    go = rows["parse amount reads whole cents"]
    assert (go["start_line"], go["end_line"], go["test_path"], go["test_line"]) == (4, 4, "money/money_test.go", 8)


def test_tests_left_out_are_counted_by_reason(codebase):
    queries = unit_test_queries(codebase)
    dropped = queries.attrs["dropped"]
    assert dropped["several_functions"] == 1  # FormatAmount(ParseAmount(...))
    assert dropped["ambiguous"] == 1  # Prices.format has two overloads: which one, the text does not say
    assert dropped["short"] == 1  # TestShort
    assert dropped["no_function"] == 1  # calls_nothing_of_the_project (the interpolated Ruby title is no test)
    assert queries.attrs["by_language"] == {"go": 2, "rust": 2, "java": 1, "kotlin": 1, "csharp": 1, "ruby": 1}


def test_every_test_name_is_blanked_out_of_the_index(codebase):
    masks = scan_test_names(codebase).masks
    assert "TestParseAmountReadsWholeCents" not in masks["money/money_test.go"][8]
    assert "func" in masks["money/money_test.go"][8]
    assert "parses_an_amount_inside_a_macro" not in masks["src/lib.rs"][28]
    java = masks["src/test/java/com/shop/PricesTest.java"]
    assert "formats cents as a label" not in java[13] and "fmt" not in java[14]  # both the display name and the name
    assert "checks out every item" not in masks["spec/cart_spec.rb"][2]


def test_the_default_queries_name_each_language_in_their_note(codebase):
    found = default_queries(codebase)
    assert found.counts["test_names"] == 8
    assert "8 from test names (go 2, rust 2, java 1, kotlin 1, csharp 1, ruby 1)" in found.note
    assert found.queries.attrs["test_name_languages"]["go"] == 2


def test_a_go_test_file_is_a_test_file_for_history_targets():
    from clanka_nb.retrieval.queries._targets import target_kind

    assert target_kind("money/money_test.go") == "test"
    assert target_kind("src/test/java/com/shop/PricesTest.java") == "test"
    assert target_kind("spec/cart_spec.rb") == "test"
    assert target_kind("money/money.go") == "code"
