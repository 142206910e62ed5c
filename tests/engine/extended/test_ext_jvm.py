"""Extended mode on Java, Kotlin and Scala: annotations, nested types, companion objects, packages."""

from __future__ import annotations

from ._support import chunks, line, rows, source

JAVA_ORDERS = source("""
    package com.example.orders;

    import java.util.ArrayList;
    import java.util.List;

    /**
     * Orders placed by one customer.
     */
    @Entity
    @Table(name = "orders")
    public class OrderBook {
        private final List<Order> orders = new ArrayList<>();

        /** Creates an empty book. */
        public OrderBook() {
        }

        @Override
        public String toString() {
            return "OrderBook(" + orders.size() + ")";
        }

        // Nested value type.
        public static final class Order {
            private final long id;

            Order(long id) {
                this.id = id;
            }

            long id() { return id; }
        }

        enum Status { OPEN, SHIPPED }

        interface Listener { void changed(Order order); }
    }

    // Ignored helper.

    abstract class Repository<T> {
        abstract T find(long id);

        void save(T item) {
            throw new UnsupportedOperationException();
        }
    }

    interface Priced {
        default long cents() { return 0; }
    }

    enum Currency { EUR, USD }

    record Money(long cents, Currency currency) {
        Money {
            if (cents < 0) throw new IllegalArgumentException();
        }
    }

    @interface Audited {}
""")


def test_java_declarations():
    src = JAVA_ORDERS
    book_end = line(src, "interface Listener") + 1
    assert rows("src/main/java/com/example/orders/OrderBook.java", src) == {
        ("OrderBook", "class", None, line(src, "/**"), book_end),
        ("OrderBook", "method", "class OrderBook", line(src, "/** Creates"), line(src, "public OrderBook()") + 1),
        ("toString", "method", "class OrderBook", line(src, "@Override"), line(src, 'return "OrderBook("') + 1),
        ("Order", "class", "class OrderBook", line(src, "// Nested value"), line(src, "long id() {") + 1),
        ("Order", "method", "class Order", line(src, "Order(long id)"), line(src, "this.id = id;") + 1),
        ("id", "method", "class Order", line(src, "long id() {"), line(src, "long id() {")),
        ("Status", "enum", "class OrderBook", line(src, "enum Status"), line(src, "enum Status")),
        ("Listener", "interface", "class OrderBook", line(src, "interface Listener"), line(src, "interface Listener")),
        ("Repository", "class", None, line(src, "abstract class Repository"), line(src, "throw new Unsupported") + 2),
        ("find", "method", "class Repository", line(src, "abstract T find"), line(src, "abstract T find")),
        ("save", "method", "class Repository", line(src, "void save"), line(src, "throw new Unsupported") + 1),
        ("Priced", "interface", None, line(src, "interface Priced"), line(src, "default long cents") + 1),
        ("Currency", "enum", None, line(src, "enum Currency"), line(src, "enum Currency")),
        ("Money", "class", None, line(src, "record Money"), line(src, "throw new IllegalArgument") + 2),
        ("Money", "method", "class Money", line(src, "Money {"), line(src, "throw new IllegalArgument") + 1),
        ("Audited", "interface", None, line(src, "@interface"), line(src, "@interface")),
    }


def test_java_annotations_and_javadoc_lead_the_class():
    book = next(c for c in chunks("OrderBook.java", JAVA_ORDERS) if c.name == "OrderBook" and c.type == "class")
    assert book.content.splitlines()[:5] == [
        "/**",
        " * Orders placed by one customer.",
        " */",
        "@Entity",
        '@Table(name = "orders")',
    ]


def test_java_syntax_error_keeps_the_other_methods():
    src = source("""
        public class Broken {
            void ok() {}

            void broken( {
            }

            void after() {}
        }
    """)
    got = {(c.name, c.type, c.parent) for c in chunks("Broken.java", src)}
    assert {("Broken", "class", None), ("ok", "method", "class Broken"), ("after", "method", "class Broken")} <= got


KOTLIN_PROFILE = source("""
    package com.example.profile

    import kotlinx.serialization.Serializable

    /** A user's public profile. */
    @Serializable
    data class Profile(val name: String, val age: Int) {
        fun isAdult(): Boolean = age >= 18

        companion object {
            const val MAX_NAME = 64
            fun anonymous() = Profile("anon", 0)
        }

        class Badge(val label: String) {
            fun shout() = label.uppercase()
        }
    }

    interface Repository {
        fun load(id: Long): Profile?
    }

    enum class Visibility { PUBLIC, PRIVATE }

    object Registry {
        private val items = mutableListOf<Profile>()
        fun register(profile: Profile) { items += profile }
    }

    // Formatting helpers.

    fun Profile.display(): String = "$name ($age)"

    val defaultProfile = Profile.anonymous()

    typealias Profiles = List<Profile>
""")


def test_kotlin_declarations():
    src = KOTLIN_PROFILE
    assert rows("Profile.kt", src) == {
        ("Profile", "class", None, line(src, "/** A user's"), line(src, "fun shout()") + 2),
        ("isAdult", "method", "class Profile", line(src, "fun isAdult"), line(src, "fun isAdult")),
        # A companion object's functions are the class's own methods.
        ("anonymous", "method", "class Profile", line(src, "fun anonymous"), line(src, "fun anonymous")),
        ("Badge", "class", "class Profile", line(src, "class Badge"), line(src, "fun shout()") + 1),
        ("shout", "method", "class Badge", line(src, "fun shout()"), line(src, "fun shout()")),
        ("Repository", "interface", None, line(src, "interface Repository"), line(src, "fun load(") + 1),
        ("Visibility", "enum", None, line(src, "enum class Visibility"), line(src, "enum class Visibility")),
        ("Registry", "class", None, line(src, "object Registry"), line(src, "fun register(") + 1),
        ("register", "method", "class Registry", line(src, "fun register("), line(src, "fun register(")),
        # An extension function is a method of its receiver type.
        ("display", "method", "class Profile", line(src, "fun Profile.display"), line(src, "fun Profile.display")),
        ("defaultProfile", "variable", None, line(src, "val defaultProfile"), line(src, "val defaultProfile")),
        ("Profiles", "type-alias", None, line(src, "typealias"), line(src, "typealias")),
    }


def test_kotlin_doc_comment_right_after_the_imports_is_attached():
    # The Kotlin grammar files a comment that follows the imports under the import list.
    src = "package a\n\nimport b.C\n/** Doc. */\nclass D\n"
    assert rows("D.kt", src) == {("D", "class", None, 4, 5)}


SCALA_BANK = source("""
    package com.example.bank

    import scala.collection.mutable

    /** An account with a running balance. */
    @SerialVersionUID(1L)
    case class Account(id: String, var balance: BigDecimal) {
      def deposit(amount: BigDecimal): Unit = balance += amount

      class Statement {
        def lines: List[String] = Nil
      }
    }

    object Account {
      def open(id: String): Account = Account(id, 0)
    }

    trait Ledger {
      def record(entry: String): Unit
    }

    enum Kind:
      case Checking, Savings

    val Bank = "Example Bank"
    type Accounts = mutable.Map[String, Account]

    package audit {
      class Trail
    }

    def main(args: Array[String]): Unit = println(Bank)
""")


def test_scala_declarations():
    src = SCALA_BANK
    assert rows("Bank.scala", src) == {
        ("Account", "class", None, line(src, "/** An account"), line(src, "def lines") + 2),
        ("deposit", "method", "class Account", line(src, "def deposit"), line(src, "def deposit")),
        ("Statement", "class", "class Account", line(src, "class Statement"), line(src, "def lines") + 1),
        ("lines", "method", "class Statement", line(src, "def lines"), line(src, "def lines")),
        ("Account", "class", None, line(src, "object Account"), line(src, "def open") + 1),
        ("open", "method", "class Account", line(src, "def open"), line(src, "def open")),
        ("Ledger", "interface", None, line(src, "trait Ledger"), line(src, "def record") + 1),
        ("Kind", "enum", None, line(src, "enum Kind"), line(src, "case Checking")),
        ("Bank", "variable", None, line(src, "val Bank"), line(src, "val Bank")),
        ("Accounts", "type-alias", None, line(src, "type Accounts"), line(src, "type Accounts")),
        ("audit", "namespace", None, line(src, "package audit"), line(src, "class Trail") + 1),
        ("Trail", "class", "namespace audit", line(src, "class Trail"), line(src, "class Trail")),
        ("main", "function", None, line(src, "def main"), line(src, "def main")),
    }


def test_kotlin_and_scala_oversized_functions_are_split():
    kotlin = "fun long() {\n" + "".join(f"    val v{i} = {i}\n" for i in range(20)) + "}\n"
    scala = "def long(): Unit = {\n" + "".join(f"  val v{i} = {i}\n" for i in range(20)) + "}\n"
    for path, src in (("Long.kt", kotlin), ("Long.scala", scala)):
        out = chunks(path, src, chunk_size=8)
        assert [(c.start_line, c.end_line) for c in out] == [(1, 8), (9, 16), (17, 22)], path
        assert {(c.name, c.type) for c in out} == {("long", "function")}, path
