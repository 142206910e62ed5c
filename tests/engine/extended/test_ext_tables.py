"""The language tables: every node type and field they name exists in its grammar, and the docs list them."""

from __future__ import annotations

from pathlib import Path

import pytest
from tree_sitter_language_pack import get_language

from clanka_nb.engine import CHUNK_TYPES
from clanka_nb.engine._extended import spec_for
from clanka_nb.engine._language_specs import GRAMMAR_BY_EXTENSION, SPECS_BY_EXTENSION, LanguageSpec

DOCS = Path(__file__).resolve().parents[3] / "docs" / "languages.md"
SPECS = {spec.grammar: spec for spec in SPECS_BY_EXTENSION.values()}
ROLES = {"leaf", "class", "namespace", "transparent", "group"}


def _paths(spec: LanguageSpec) -> list[str]:
    out = []
    for rule in spec.rules.values():
        if rule.type is not None:  # transparent and group nodes have no name
            out.append(rule.name)
        if rule.role in {"class", "namespace", "transparent"} or rule.bodiless != "keep":
            out.append(rule.body)
        if rule.receiver:
            out.append(rule.receiver)
        if rule.functions:
            out.append(rule.functions[0])
    out += list(spec.type_names.values())
    return [p for p in out if p and not p.startswith("=")]


def _grammar_checks(grammar: str):
    # The JavaScript table is the TypeScript one: TS-only node types are simply never met there.
    languages = [get_language(grammar)] + ([get_language("typescript")] if grammar == "javascript" else [])

    def has_type(kind: str, named: bool = True) -> bool:
        return any(lang.id_for_node_kind(kind, named) is not None for lang in languages)

    def has_field(name: str) -> bool:
        return any(lang.field_id_for_name(name) is not None for lang in languages)

    return has_type, has_field


@pytest.mark.parametrize("grammar", sorted(SPECS))
def test_node_types_and_fields_exist_in_the_grammar(grammar):
    spec = SPECS[grammar]
    has_type, has_field = _grammar_checks(grammar)
    named = set(spec.rules) | set(spec.wrappers) | spec.comments | spec.leading | spec.swallowing
    named |= set(spec.scopes) | set(spec.type_names)
    for rule in spec.rules.values():
        named |= rule.functions[1] if rule.functions else set()
    assert sorted(t for t in named if not has_type(t)) == []
    keywords = {k for rule in spec.rules.values() for k in rule.kinds}
    assert sorted(k for k in keywords if not (has_type(k) or has_type(k, named=False))) == []
    fields = {f for pair in spec.scopes.values() for f in pair}
    fields |= {f for wrap in spec.wrappers.values() for f in (*wrap.fields, wrap.default) if f}
    for path in _paths(spec):
        for alternative in path.split(","):
            for step in alternative.split("."):
                if step[0] in "@%":
                    assert all(has_type(t) for t in step[1:].split("|")), (path, step)
                else:
                    fields.add(step.rstrip("*+"))
    assert sorted(f for f in fields if not has_field(f)) == []


@pytest.mark.parametrize("grammar", sorted(SPECS))
def test_rules_use_the_eight_chunk_types(grammar):
    for node_type, rule in SPECS[grammar].rules.items():
        assert rule.role in ROLES, node_type
        assert rule.bodiless in {"keep", "skip", "scope"}, node_type
        assert {rule.type, *rule.kinds.values()} <= {*CHUNK_TYPES, None}, node_type
        assert (rule.type is None) == (rule.role in {"transparent", "group"}), node_type


def test_grammars_load_and_extensions_resolve():
    from clanka_nb.engine._declarations import parser_for

    for grammar in SPECS:
        assert parser_for(grammar).language is not None
    assert spec_for("Src/Main.JAVA").grammar == "java"  # extensions are matched lower-cased
    assert spec_for("README.md") is None
    assert spec_for("Makefile") is None


def test_docs_list_every_language_and_extension():
    text = DOCS.read_text(encoding="utf-8")
    for extension, grammar in GRAMMAR_BY_EXTENSION.items():
        assert f"`.{extension}`" in text, extension
        assert f"`{grammar}`" in text, grammar
        # In the table of extensions, on the grammar's own row.
        row = next(r for r in text.splitlines() if r.startswith(f"| `{grammar}` |"))
        assert f"`.{extension}`" in row, (extension, grammar)
