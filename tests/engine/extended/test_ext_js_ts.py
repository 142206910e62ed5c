"""Extended mode on TypeScript/JavaScript: the three fixes, and the extensions the reference leaves as windows."""

from __future__ import annotations

import pytest

from clanka_nb.engine import chunk_file_content

from ._support import chunks, closing, line, rows, source

STORE = source("""
    import { Injectable } from "@angular/core";

    // Base of every repository.
    export abstract class Repository<T> {
      abstract find(id: string): Promise<T>;

      count(): number {
        return 0;
      }
    }

    namespace Cache {
      export const ttl = 60;
      export function clear(): void {}
    }

    declare namespace Globals {
      interface Window { store: unknown }
    }

    @Injectable()
    export class UserStore extends Repository<User> {
      // Looked up by id.
      @Memo()
      async find(id: string): Promise<User> {
        return fetchUser(id);
      }
    }

    export type User = { id: string };

    export default function (store: UserStore) {
      return store.count();
    }
""")


def test_typescript_fixes_abstract_classes_bare_namespaces_default_exports():
    src = STORE
    assert rows("src/store.ts", src) == {
        ("Repository", "class", None, line(src, "// Base of"), closing(src, "export abstract class")),
        ("find", "method", "class Repository", line(src, "abstract find"), line(src, "abstract find")),
        ("count", "method", "class Repository", line(src, "count(): number"), closing(src, "count(): number")),
        ("Cache", "namespace", None, line(src, "namespace Cache"), closing(src, "namespace Cache")),
        ("ttl", "variable", "namespace Cache", line(src, "export const ttl"), line(src, "export const ttl")),
        ("clear", "function", "namespace Cache", line(src, "export function clear"), line(src, "function clear")),
        ("Globals", "namespace", None, line(src, "declare namespace"), closing(src, "declare namespace")),
        ("Window", "interface", "namespace Globals", line(src, "interface Window"), line(src, "interface Window")),
        ("UserStore", "class", None, line(src, "@Injectable()"), closing(src, "export class UserStore")),
        # The comment and the decorator above a method are part of it.
        ("find", "method", "class UserStore", line(src, "// Looked up"), closing(src, "async find")),
        ("User", "type-alias", None, line(src, "export type User"), line(src, "export type User")),
        ("default", "function", None, line(src, "export default function"), closing(src, "export default")),
    }


def test_the_same_file_in_clanka_mode_loses_what_the_fixes_recover():
    names = {(c.name, c.type) for c in chunk_file_content("src/store.ts", STORE, chunk_size=500)}
    assert ("Repository", "class") not in names
    assert ("Cache", "namespace") not in names
    assert ("default", "function") not in names


@pytest.mark.parametrize(
    ("statement", "kind"),
    [
        ("export default class { run() {} }", "class"),
        ("export default () => 42;", "function"),
        ("export default async function* () {}", "function"),
        ("export default { name: 'config' };", "variable"),
        ("export default settings;", "variable"),
    ],
)
def test_anonymous_default_exports_are_named_default(statement, kind):
    out = chunks("index.js", statement + "\n")
    assert (out[0].name, out[0].type, out[0].parent) == ("default", kind, None)


def test_named_default_export_keeps_its_name():
    assert rows("a.ts", "export default class Widget {}\n") == {("Widget", "class", None, 1, 1)}


@pytest.mark.parametrize("ext", ["mjs", "cjs", "mts", "cts"])
def test_module_extensions_are_parsed_only_in_extended_mode(ext):
    src = "// Adds.\nexport const add = (a, b) => a + b;\n\nexport function sub(a, b) {\n  return a - b;\n}\n"
    if ext in ("mts", "cts"):
        src = src.replace("(a, b)", "(a: number, b: number)")
    assert rows(f"lib/math.{ext}", src) == {("add", "function", None, 1, 2), ("sub", "function", None, 4, 6)}
    clanka = chunk_file_content(f"lib/math.{ext}", src, chunk_size=500)
    assert [(c.name, c.type) for c in clanka] == [(None, None)]


def test_comment_separated_by_a_blank_line_is_not_attached_in_extended_mode_only():
    src = "/* License header. */\n\nexport function main() {}\n"
    assert rows("main.ts", src) == {("main", "function", None, 3, 3)}
    # The reference attaches it across the blank line; clanka mode keeps doing so.
    clanka = chunk_file_content("main.ts", src)
    assert [(c.start_line, c.end_line) for c in clanka] == [(1, 3)]


def test_tsx_and_jsx_components():
    src = source("""
        import React from "react";

        /** Greets someone. */
        export function Hello({ name }: { name: string }) {
          return <p>Hello {name}</p>;
        }

        export const Bye = () => <p>Bye</p>;
    """)
    expected = {
        ("Hello", "function", None, line(src, "/** Greets"), closing(src, "export function Hello")),
        ("Bye", "function", None, line(src, "export const Bye"), line(src, "export const Bye")),
    }
    assert rows("Hello.tsx", src) == expected
    assert rows("Hello.jsx", src.replace(": { name: string }", "")) == expected


def test_typescript_syntax_error_keeps_what_parses():
    src = "export function ok() { return 1; }\n\nfunction broken( {\n\nexport class After { m() {} }\n"
    got = {(c.name, c.type) for c in chunks("broken.ts", src)}
    assert ("ok", "function") in got


def test_oversized_abstract_class_keeps_its_head_and_its_methods():
    body = "".join(f"    const v{i} = {i};\n" for i in range(20))
    src = f"abstract class Job {{\n  run() {{\n{body}  }}\n}}\n"
    out = chunks("job.ts", src, chunk_size=8)
    assert [(c.start_line, c.end_line) for c in out if c.name == "Job"] == [(1, 8)]
    assert [(c.start_line, c.end_line) for c in out if c.name == "run"] == [(2, 9), (10, 17), (18, 23)]
