"""Extended mode on C#, C and C++: attributes, namespaces, preprocessor blocks, out-of-class methods."""

from __future__ import annotations

from ._support import chunks, closing, line, rows, source

CSHARP_BILLING = source("""
    using System;
    using System.Collections.Generic;

    namespace Shop.Billing
    {
        /// <summary>An invoice line.</summary>
        [Serializable]
        public record Line(string Sku, decimal Amount);

        public interface ITaxPolicy
        {
            decimal Apply(decimal amount);
        }

        public enum Status { Draft, Sent, Paid }

        public delegate void Notify(Invoice invoice);

        public class Invoice
        {
            private readonly List<Line> lines = new();

            public Invoice() { }

            // Adds one line.
            [Obsolete("Use AddRange")]
            public void Add(Line line) => lines.Add(line);

            public decimal Total
            {
                get { return 0m; }
            }

            public static Invoice operator +(Invoice a, Invoice b) => a;

            private struct Totals
            {
                public decimal Net;
                public decimal Gross() => Net * 1.2m;
            }
        }
    }
""")


def test_csharp_declarations():
    src = CSHARP_BILLING
    assert rows("Billing/Invoice.cs", src) == {
        ("Shop.Billing", "namespace", None, line(src, "namespace Shop"), closing(src, "namespace Shop")),
        ("Line", "class", "namespace Shop.Billing", line(src, "/// <summary>"), line(src, "public record Line")),
        (
            "ITaxPolicy",
            "interface",
            "namespace Shop.Billing",
            line(src, "interface ITaxPolicy"),
            closing(src, "interface ITaxPolicy"),
        ),
        ("Status", "enum", "namespace Shop.Billing", line(src, "public enum Status"), line(src, "public enum Status")),
        ("Notify", "type-alias", "namespace Shop.Billing", line(src, "delegate"), line(src, "delegate")),
        (
            "Invoice",
            "class",
            "namespace Shop.Billing",
            line(src, "public class Invoice"),
            closing(src, "public class Invoice"),
        ),
        ("Invoice", "method", "class Invoice", line(src, "public Invoice()"), line(src, "public Invoice()")),
        ("Add", "method", "class Invoice", line(src, "// Adds one line"), line(src, "public void Add")),
        ("operator", "method", "class Invoice", line(src, "operator +"), line(src, "operator +")),
        ("Totals", "class", "class Invoice", line(src, "private struct Totals"), closing(src, "private struct Totals")),
        ("Gross", "method", "class Totals", line(src, "Gross()"), line(src, "Gross()")),
    }


def test_csharp_file_scoped_namespace_is_the_parent_of_what_follows():
    src = source("""
        namespace Shop.Billing;

        public class Receipt
        {
            public void Print() { }
        }
    """)
    assert rows("Receipt.cs", src) == {
        ("Receipt", "class", "namespace Shop.Billing", 3, 6),
        ("Print", "method", "class Receipt", 5, 5),
    }


C_HEADER = source("""
    /* ring.h - a fixed-size ring buffer. */
    #ifndef RING_H
    #define RING_H

    #include <stddef.h>

    #define RING_CAPACITY 64
    #define RING_NEXT(i) (((i) + 1) % RING_CAPACITY)

    /* One slot of the ring. */
    typedef struct ring_slot {
        int value;
        struct ring_slot *next;
    } ring_slot_t;

    struct ring {
        ring_slot_t slots[RING_CAPACITY];
        size_t head;
        union {
            int flags;
            char raw[4];
        } state;
    };

    enum ring_error { RING_OK, RING_FULL };

    extern int ring_debug;

    /* Pushes a value; returns RING_FULL when there is no room. */
    enum ring_error ring_push(struct ring *r, int value);
    char *ring_describe(const struct ring *r);

    static inline size_t ring_size(const struct ring *r)
    {
        return r->head;
    }

    #endif
""")


def test_c_header_inside_an_include_guard():
    src = C_HEADER
    assert rows("ring.h", src) == {
        ("RING_CAPACITY", "variable", None, line(src, "#define RING_CAPACITY"), line(src, "#define RING_CAPACITY")),
        ("RING_NEXT", "function", None, line(src, "#define RING_NEXT"), line(src, "#define RING_NEXT")),
        ("ring_slot_t", "type-alias", None, line(src, "/* One slot"), line(src, "} ring_slot_t;")),
        ("ring", "class", None, line(src, "struct ring {"), line(src, "} state;") + 1),
        ("ring_error", "enum", None, line(src, "enum ring_error {"), line(src, "enum ring_error {")),
        ("ring_debug", "variable", None, line(src, "extern int"), line(src, "extern int")),
        ("ring_push", "function", None, line(src, "/* Pushes"), line(src, "ring_push(")),
        ("ring_describe", "function", None, line(src, "ring_describe("), line(src, "ring_describe(")),
        ("ring_size", "function", None, line(src, "static inline"), line(src, "return r->head;") + 1),
    }


def test_c_file_uses_the_c_grammar():
    src = "int add(int a, int b)\n{\n    return a + b;\n}\n"
    assert rows("add.c", src) == {("add", "function", None, 1, 4)}


CPP_SHAPES = source("""
    #pragma once
    #include <string>

    namespace geo {

    // A rectangle on the screen.
    template <typename T>
    class Rect : public Shape {
    public:
        Rect(T w, T h);
        ~Rect() override {}

        [[nodiscard]] T area() const { return w_ * h_; }

        struct Corner {
            T x, y;
            bool origin() const { return x == 0 && y == 0; }
        };

    private:
        T w_, h_;
    };

    using Size = unsigned long;

    namespace detail {
    int clamp(int v, int lo, int hi);
    }

    }  // namespace geo

    template <typename T>
    geo::Rect<T>::Rect(T w, T h) : w_(w), h_(h) {}

    std::string Canvas::render() const {
        return "canvas";
    }

    extern "C" {
    int geo_version(void);
    }

    enum class Unit { Pixel, Point };
""")


def test_cpp_declarations():
    src = CPP_SHAPES
    assert rows("geo/rect.hpp", src) == {
        ("geo", "namespace", None, line(src, "namespace geo {"), line(src, "}  // namespace geo")),
        ("Rect", "class", "namespace geo", line(src, "// A rectangle"), closing(src, "class Rect")),
        ("~Rect", "method", "class Rect", line(src, "~Rect()"), line(src, "~Rect()")),
        ("area", "method", "class Rect", line(src, "[[nodiscard]]"), line(src, "[[nodiscard]]")),
        ("Corner", "class", "class Rect", line(src, "struct Corner"), closing(src, "struct Corner")),
        ("origin", "method", "class Corner", line(src, "bool origin()"), line(src, "bool origin()")),
        ("Size", "type-alias", "namespace geo", line(src, "using Size"), line(src, "using Size")),
        ("detail", "namespace", "namespace geo", line(src, "namespace detail"), line(src, "int clamp(") + 1),
        ("clamp", "function", "namespace detail", line(src, "int clamp("), line(src, "int clamp(")),
        # Defined outside their class: methods of the class named before `::`.
        ("Rect", "method", "class Rect", line(src, "template <typename T>", 2), line(src, "geo::Rect<T>::Rect")),
        ("render", "method", "class Canvas", line(src, "Canvas::render"), line(src, 'return "canvas";') + 1),
        ("geo_version", "function", None, line(src, "int geo_version"), line(src, "int geo_version")),
        ("Unit", "enum", None, line(src, "enum class Unit"), line(src, "enum class Unit")),
    }


def test_cpp_member_prototypes_stay_in_the_class_chunk():
    prototype = line(CPP_SHAPES, "Rect(T w, T h);")  # a prototype, not a definition
    assert all(c.start_line != prototype for c in chunks("rect.hpp", CPP_SHAPES))


def test_c_family_syntax_errors_keep_what_parses():
    broken_c = "int ok(void) { return 1; }\n\nint broken( { \n\nstruct after { int x; };\n"
    broken_cs = "class A {\n  void Ok() {}\n  void Broken( {\n  }\n  void After() {}\n}\n"
    assert ("ok", "function") in {(c.name, c.type) for c in chunks("broken.c", broken_c)}
    got = {(c.name, c.type) for c in chunks("Broken.cs", broken_cs)}
    assert {("Ok", "method"), ("After", "method")} <= got


def test_c_oversized_function_is_split():
    src = "void fill(int *a)\n{\n" + "".join(f"    a[{i}] = {i};\n" for i in range(30)) + "}\n"
    out = chunks("fill.c", src, chunk_size=12, chunk_overlap=2)
    assert [(c.start_line, c.end_line) for c in out] == [(1, 12), (11, 22), (21, 32), (31, 33)]
    assert {(c.name, c.type) for c in out} == {("fill", "function")}
