"""Extended mode on Go and Rust: receivers and impl blocks give methods their type as parent."""

from __future__ import annotations

from ._support import chunks, line, rows, source

GO_CACHE = source("""
    // Package cache keeps recent lookups in memory.
    package cache

    import (
        "sync"
        "time"
    )

    // DefaultTTL is how long an entry lives.
    const DefaultTTL = 5 * time.Minute

    const (
        stateEmpty = iota
        stateFull
    )

    var hits, misses int

    // Entry is one cached value.
    type Entry struct {
        Value   string
        Expires time.Time
    }

    type Store interface {
        Get(key string) (string, bool)
    }

    type Key = string

    type (
        // Clock tells the time.
        Clock func() time.Time
        shard struct{ mu sync.Mutex }
    )

    // Cache is safe for concurrent use.
    type Cache[V any] struct {
        mu      sync.Mutex
        entries map[Key]V
    }

    // Get returns a live entry.
    func (c *Cache[V]) Get(key Key) (V, bool) {
        c.mu.Lock()
        defer c.mu.Unlock()
        v, ok := c.entries[key]
        return v, ok
    }

    func (e Entry) Expired(now time.Time) bool {
        return now.After(e.Expires)
    }

    // New makes an empty cache.

    func New[V any]() *Cache[V] {
        return &Cache[V]{entries: map[Key]V{}}
    }
""")


def test_go_declarations():
    src = GO_CACHE
    assert rows("cache/cache.go", src) == {
        ("DefaultTTL", "variable", None, line(src, "// DefaultTTL"), line(src, "const DefaultTTL")),
        ("stateEmpty, stateFull", "variable", None, line(src, "const ("), line(src, "stateFull") + 1),
        ("hits, misses", "variable", None, line(src, "var hits"), line(src, "var hits")),
        ("Entry", "class", None, line(src, "// Entry is"), line(src, "Expires time.Time") + 1),
        ("Store", "interface", None, line(src, "type Store"), line(src, "Get(key string)") + 1),
        ("Key", "type-alias", None, line(src, "type Key"), line(src, "type Key")),
        ("Clock", "type-alias", None, line(src, "// Clock"), line(src, "Clock func()")),
        ("shard", "class", None, line(src, "shard struct"), line(src, "shard struct")),
        ("Cache", "class", None, line(src, "// Cache is"), line(src, "entries map[Key]V") + 1),
        ("Get", "method", "class Cache", line(src, "// Get returns"), line(src, "return v, ok") + 1),
        ("Expired", "method", "class Entry", line(src, "func (e Entry)"), line(src, "return now.After") + 1),
        ("New", "function", None, line(src, "func New"), line(src, "return &Cache") + 1),
    }


def test_go_comment_separated_by_blank_line_is_not_attached():
    new = next(c for c in chunks("cache.go", GO_CACHE) if c.name == "New")
    assert "// New makes" not in new.content


def test_go_syntax_error_keeps_the_rest():
    src = source("""
        package p

        func ok() int { return 1 }

        func broken( {
        }

        type Point struct{ X, Y int }

        func (p Point) Norm() int { return p.X*p.X + p.Y*p.Y }
    """)
    got = {(c.name, c.type, c.parent) for c in chunks("p.go", src)}
    assert {("ok", "function", None), ("Point", "class", None), ("Norm", "method", "class Point")} <= got


def test_go_oversized_function_is_split():
    src = "package p\n\nfunc Long() {\n" + "".join(f"\tx{i} := {i}\n" for i in range(25)) + "}\n"
    out = chunks("long.go", src, chunk_size=10)
    assert [(c.start_line, c.end_line) for c in out] == [(3, 12), (13, 22), (23, 29)]
    assert {(c.name, c.type) for c in out} == {("Long", "function")}


RUST_GEOMETRY = source("""
    //! Shapes and their areas.
    use std::fmt;

    /// A point in the plane.
    #[derive(Debug, Clone, Copy)]
    pub struct Point<T> {
        pub x: T,
        pub y: T,
    }

    pub enum Shape {
        Circle { r: f64 },
        Square(f64),
    }

    /// Anything with an area.
    pub trait Area {
        fn area(&self) -> f64;
        fn describe(&self) -> String {
            format!("area {}", self.area())
        }
    }

    impl<T: Copy> Point<T> {
        /// Makes a point.
        pub fn new(x: T, y: T) -> Self {
            Point { x, y }
        }

        #[inline]
        pub fn swap(self) -> Self {
            Point { x: self.y, y: self.x }
        }
    }

    impl Area for Shape {
        fn area(&self) -> f64 {
            match self {
                Shape::Circle { r } => 3.14 * r * r,
                Shape::Square(s) => s * s,
            }
        }
    }

    impl fmt::Display for Point<f64> {
        fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "({}, {})", self.x, self.y)
        }
    }

    pub mod units {
        pub const CM_PER_INCH: f64 = 2.54;

        pub fn to_cm(inches: f64) -> f64 {
            inches * CM_PER_INCH
        }
    }

    mod tests;

    static ORIGIN: Point<i32> = Point { x: 0, y: 0 };
    pub type Meters = f64;

    macro_rules! square {
        ($x:expr) => { $x * $x };
    }

    // Entry point.

    fn main() {
        println!("{}", square!(2.0));
    }
""")


def test_rust_declarations():
    src = RUST_GEOMETRY
    assert rows("src/geometry.rs", src) == {
        ("Point", "class", None, line(src, "/// A point"), line(src, "pub y: T") + 1),
        ("Shape", "enum", None, line(src, "pub enum Shape"), line(src, "Square(f64),") + 1),
        ("Area", "interface", None, line(src, "/// Anything"), line(src, "format!(") + 2),
        # impl blocks are chunks of their type's class; their functions are its methods.
        ("Point", "class", None, line(src, "impl<T: Copy>"), line(src, "Point { x: self.y") + 2),
        ("new", "method", "class Point", line(src, "/// Makes a point"), line(src, "Point { x, y }") + 1),
        ("swap", "method", "class Point", line(src, "#[inline]"), line(src, "Point { x: self.y") + 1),
        ("Shape", "class", None, line(src, "impl Area for Shape"), line(src, "Shape::Square(s)") + 3),
        ("area", "method", "class Shape", line(src, "fn area(&self) -> f64 {"), line(src, "Shape::Square(s)") + 2),
        ("Point", "class", None, line(src, "impl fmt::Display"), line(src, "write!(f") + 2),
        ("fmt", "method", "class Point", line(src, "fn fmt("), line(src, "write!(f") + 1),
        ("units", "namespace", None, line(src, "pub mod units"), line(src, "inches * CM_PER_INCH") + 2),
        ("CM_PER_INCH", "variable", "namespace units", line(src, "pub const CM"), line(src, "pub const CM")),
        ("to_cm", "function", "namespace units", line(src, "pub fn to_cm"), line(src, "inches * CM_PER_INCH") + 1),
        ("ORIGIN", "variable", None, line(src, "static ORIGIN"), line(src, "static ORIGIN")),
        ("Meters", "type-alias", None, line(src, "pub type Meters"), line(src, "pub type Meters")),
        ("square", "function", None, line(src, "macro_rules!"), line(src, "$x * $x") + 1),
        ("main", "function", None, line(src, "fn main"), line(src, 'println!("{}"') + 1),
    }


def test_rust_attributes_and_doc_comments_lead_the_range():
    point = next(c for c in chunks("geometry.rs", RUST_GEOMETRY) if c.name == "Point")
    assert point.content.splitlines()[:3] == [
        "/// A point in the plane.",
        "#[derive(Debug, Clone, Copy)]",
        "pub struct Point<T> {",
    ]
    main = next(c for c in chunks("geometry.rs", RUST_GEOMETRY) if c.name == "main")
    assert main.content.startswith("fn main")


def test_rust_oversized_impl_keeps_its_head_and_its_methods():
    body = "".join(f"        let v{i} = {i};\n" for i in range(30))
    src = f"struct Big;\n\nimpl Big {{\n    fn run(&self) {{\n{body}    }}\n}}\n"
    out = chunks("big.rs", src, chunk_size=10)
    impl = [c for c in out if c.type == "class" and c.start_line == 3]
    assert [(c.start_line, c.end_line) for c in impl] == [(3, 12)]
    runs = [c for c in out if c.name == "run"]
    assert runs[0].start_line == 4 and runs[-1].end_line == 35
    assert {c.parent for c in runs} == {"class Big"}


def test_rust_syntax_error_keeps_what_parses():
    src = source("""
        fn ok() -> u8 { 1 }

        fn broken() { let x = ; }

        struct After;
    """)
    got = {(c.name, c.type) for c in chunks("broken.rs", src)}
    assert {("ok", "function"), ("After", "class")} <= got
