"""Extended mode on Ruby, PHP, Lua, Bash and Swift."""

from __future__ import annotations

from ._support import chunks, closing, line, rows, source

RUBY_BILLING = source("""
    # frozen_string_literal: true

    require "bigdecimal"

    # Billing for subscriptions.
    module Billing
      VERSION = "2.1.0"

      # A monthly plan.
      class Plan < Base
        attr_reader :price

        def initialize(price)
          @price = price
        end

        def self.free
          new(0)
        end

        class << self
          def catalog
            [free]
          end
        end

        class Error < StandardError; end

        private

        def cents = (price * 100).to_i
      end
    end

    class Billing::Invoice; end

    def charge(plan)
      plan.price
    end

    TAX = ->(amount) { amount * 0.2 }
""")


def test_ruby_declarations():
    src = RUBY_BILLING
    assert rows("lib/billing.rb", src) == {
        ("Billing", "namespace", None, line(src, "# Billing for"), closing(src, "module Billing")),
        ("VERSION", "variable", "namespace Billing", line(src, "VERSION ="), line(src, "VERSION =")),
        ("Plan", "class", "namespace Billing", line(src, "# A monthly plan"), closing(src, "class Plan")),
        ("initialize", "method", "class Plan", line(src, "def initialize"), closing(src, "def initialize")),
        ("free", "method", "class Plan", line(src, "def self.free"), closing(src, "def self.free")),
        # `class << self` holds class methods: they are the class's methods too.
        ("catalog", "method", "class Plan", line(src, "def catalog"), closing(src, "def catalog")),
        ("Error", "class", "class Plan", line(src, "class Error"), line(src, "class Error")),
        ("cents", "method", "class Plan", line(src, "def cents"), line(src, "def cents")),
        ("Billing::Invoice", "class", None, line(src, "class Billing::Invoice"), line(src, "class Billing::Invoice")),
        ("charge", "function", None, line(src, "def charge"), closing(src, "def charge")),
        ("TAX", "function", None, line(src, "TAX ="), line(src, "TAX =")),
    }


PHP_USERS = source("""
    <?php

    declare(strict_types=1);

    namespace App\\Users;

    use App\\Support\\Model;

    /**
     * A registered user.
     */
    #[Entity(table: "users")]
    final class User extends Model implements Nameable
    {
        use HasTimestamps;

        public const ROLE = 'member';

        private string $email;

        public function __construct(string $email)
        {
            $this->email = $email;
        }

        public static function guest(): self
        {
            return new self('guest@example.com');
        }
    }

    interface Nameable
    {
        public function name(): string;
    }

    trait HasTimestamps
    {
        public function touch(): void {}
    }

    enum Role: string
    {
        case Admin = 'admin';
    }

    function normalize_email(string $email): string
    {
        return strtolower(trim($email));
    }

    const MAX_USERS = 1000;

    $registry = [];
""")


def test_php_declarations():
    src = PHP_USERS
    ns = "namespace App\\Users"
    assert rows("src/User.php", src) == {
        ("User", "class", ns, line(src, "/**"), closing(src, "final class User")),
        (
            "__construct",
            "method",
            "class User",
            line(src, "function __construct"),
            closing(src, "function __construct"),
        ),
        ("guest", "method", "class User", line(src, "function guest"), closing(src, "function guest")),
        ("Nameable", "interface", ns, line(src, "interface Nameable"), closing(src, "interface Nameable")),
        ("HasTimestamps", "interface", ns, line(src, "trait HasTimestamps"), closing(src, "trait HasTimestamps")),
        ("Role", "enum", ns, line(src, "enum Role"), closing(src, "enum Role")),
        ("normalize_email", "function", ns, line(src, "function normalize_email"), closing(src, "function normalize")),
        ("MAX_USERS", "variable", ns, line(src, "const MAX_USERS"), line(src, "const MAX_USERS")),
        ("$registry", "variable", ns, line(src, "$registry"), line(src, "$registry")),
    }


def test_php_namespace_block():
    src = "<?php\nnamespace Billing {\n    function total() { return 0; }\n}\n"
    assert rows("billing.php", src) == {
        ("Billing", "namespace", None, 2, 4),
        ("total", "function", "namespace Billing", 3, 3),
    }


LUA_QUEUE = source("""
    -- A FIFO queue.
    local Queue = {}
    Queue.__index = Queue

    --- Creates an empty queue.
    function Queue.new()
      return setmetatable({ first = 1, last = 0, items = {} }, Queue)
    end

    function Queue:push(value)
      self.last = self.last + 1
      self.items[self.last] = value
    end

    local function is_empty(q)
      return q.first > q.last
    end

    local DEFAULT_SIZE <const> = 16
    Queue.size = function(q) return q.last - q.first + 1 end

    return Queue
""")


def test_lua_declarations():
    src = LUA_QUEUE
    assert rows("queue.lua", src) == {
        ("Queue", "variable", None, line(src, "-- A FIFO"), line(src, "local Queue")),
        ("Queue.__index", "variable", None, line(src, "Queue.__index"), line(src, "Queue.__index")),
        ("Queue.new", "function", None, line(src, "--- Creates"), closing(src, "function Queue.new")),
        # `function T:name()` is a method of T.
        ("push", "method", "class Queue", line(src, "function Queue:push"), closing(src, "function Queue:push")),
        ("is_empty", "function", None, line(src, "local function is_empty"), closing(src, "local function")),
        ("DEFAULT_SIZE", "variable", None, line(src, "DEFAULT_SIZE"), line(src, "DEFAULT_SIZE")),
        ("Queue.size", "function", None, line(src, "Queue.size ="), line(src, "Queue.size =")),
    }


BASH_DEPLOY = source("""
    #!/usr/bin/env bash
    # Deploys the site.
    set -euo pipefail

    TARGET=/srv/www
    export RELEASE=current BUILD=dist

    # Prints a message to stderr.
    log() {
      echo "$*" >&2
    }

    function deploy {
      log "deploying to $TARGET"
      rsync -a "$BUILD/" "$TARGET/$RELEASE/"
    }

    deploy "$@"
""")


def test_bash_declarations():
    src = BASH_DEPLOY
    assert rows("deploy.sh", src) == {
        ("TARGET", "variable", None, line(src, "TARGET="), line(src, "TARGET=")),
        ("RELEASE, BUILD", "variable", None, line(src, "export RELEASE"), line(src, "export RELEASE")),
        ("log", "function", None, line(src, "# Prints"), closing(src, "log() {")),
        ("deploy", "function", None, line(src, "function deploy"), closing(src, "function deploy")),
    }


def test_zsh_and_bash_extensions_use_the_bash_grammar():
    src = "greet() {\n  echo hi\n}\n"
    assert rows("greet.zsh", src) == rows("greet.bash", src) == {("greet", "function", None, 1, 3)}


SWIFT_PLAYER = source("""
    import AVFoundation

    /// Plays one track at a time.
    @MainActor
    final class Player: NSObject {
        private var queue: [Track] = []

        init(queue: [Track]) {
            self.queue = queue
        }

        deinit {}

        func play() {
            queue.first?.start()
        }

        struct Track {
            let title: String
            func start() {}
        }
    }

    protocol Playable {
        func play()
    }

    enum RepeatMode { case off, one, all }

    extension Player: Playable {
        func skip() {}
    }

    func makePlayer() -> Player { Player(queue: []) }

    let defaultVolume = 0.8
    typealias Playlist = [Player.Track]
""")


def test_swift_declarations():
    src = SWIFT_PLAYER
    assert rows("Player.swift", src) == {
        ("Player", "class", None, line(src, "/// Plays"), closing(src, "final class Player")),
        ("init", "method", "class Player", line(src, "init(queue"), closing(src, "init(queue")),
        ("deinit", "method", "class Player", line(src, "deinit"), line(src, "deinit")),
        ("play", "method", "class Player", line(src, "func play() {"), closing(src, "func play() {")),
        ("Track", "class", "class Player", line(src, "struct Track"), closing(src, "struct Track")),
        ("start", "method", "class Track", line(src, "func start"), line(src, "func start")),
        ("Playable", "interface", None, line(src, "protocol Playable"), closing(src, "protocol Playable")),
        ("RepeatMode", "enum", None, line(src, "enum RepeatMode"), line(src, "enum RepeatMode")),
        # An extension is its type's class, as a Rust impl is.
        ("Player", "class", None, line(src, "extension Player"), closing(src, "extension Player")),
        ("skip", "method", "class Player", line(src, "func skip"), line(src, "func skip")),
        ("makePlayer", "function", None, line(src, "func makePlayer"), line(src, "func makePlayer")),
        ("defaultVolume", "variable", None, line(src, "let defaultVolume"), line(src, "let defaultVolume")),
        ("Playlist", "type-alias", None, line(src, "typealias"), line(src, "typealias")),
    }


def test_scripting_syntax_errors_keep_what_parses():
    cases = {
        "broken.rb": ("def ok\n  1\nend\n\ndef broken(\n\nclass After\nend\n", ("ok", "function")),
        "broken.php": ("<?php\nfunction ok() { return 1; }\nfunction broken( {\n}\n", ("ok", "function")),
        "broken.lua": ("function ok() return 1 end\nfunction broken(\nlocal x = \n", ("ok", "function")),
        "broken.sh": ("ok() {\n  echo 1\n}\nbroken() {\n  if then\n", ("ok", "function")),
        "broken.swift": ("func ok() {}\nfunc broken( {\n}\nstruct After {}\n", ("ok", "function")),
    }
    for path, (src, expected) in cases.items():
        assert expected in {(c.name, c.type) for c in chunks(path, src)}, path


def test_oversized_ruby_class_keeps_its_head_and_method_chunks():
    body = "".join(f"    x{i} = {i}\n" for i in range(20))
    src = f"class Big\n  def run\n{body}  end\nend\n"
    out = chunks("big.rb", src, chunk_size=8)
    assert [(c.start_line, c.end_line) for c in out if c.name == "Big"] == [(1, 8)]
    runs = [(c.start_line, c.end_line) for c in out if c.name == "run"]
    assert runs == [(2, 9), (10, 17), (18, 23)]
