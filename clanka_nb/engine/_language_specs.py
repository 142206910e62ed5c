"""Extended mode's per-language rules as data: which tree-sitter nodes are declarations, and how to read them.

A *path* says where to find a node relative to another one; steps are separated by `.`:

- `field`: the child in that field; `field+`: every child in that field; `field*`: follow the
  field as long as there is one (C declarators nest: pointer -> function -> identifier), and through
  nodes named like the field that hold one named child outside it (`reference_declarator`);
- `@a|b`: the first named child of type `a` or `b`; `%a|b`: every named child of those types;
- the empty path is the node itself; a path starting with `=` is a literal name (`=init`);
- `p1,p2`: the first of the paths that finds something.

docs/languages.md shows these tables as prose; keep the two in step.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

_EMPTY: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Rule:
    """How one node type becomes a declaration.

    role: "leaf" (one range); "class" (its body's functions become methods of "class <Name>" and
    its nested types children of it, when the type comes out as "class"); "namespace" (its body's
    declarations get parent "namespace <Name>"); "transparent" (not recorded, its body is walked
    in its place: preprocessor blocks, `extern "C"`, `class << self`); "group" (Go's `type (...)`:
    the one declaration inside it when there is one, else each of them).
    """

    type: str | None
    name: str = "name"
    role: str = "leaf"
    body: str = "body"
    # A direct child (named or keyword) of one of these types decides the chunk type instead.
    kinds: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    # The declaration is a "function" when a node along this path has one of these types.
    functions: tuple[str, frozenset[str]] | None = None
    # Path to a receiver type: the declaration is a method with parent "class <Receiver>".
    receiver: str | None = None
    # Without a body: "keep" it, "skip" it (forward declarations), or "scope": a statement like
    # `namespace A.B;` that makes it the parent of the declarations after it.
    bodiless: str = "keep"
    # Recorded inside class bodies (C++ member prototypes are not: the class chunk holds them).
    in_class: bool = True


@dataclass(frozen=True, slots=True)
class Wrap:
    """A node that stands for the declaration inside it; the range stays the outer node's."""

    fields: tuple[str, ...] = ()
    # Field of an anonymous exported value (`export default () => 1`): recorded with name "default".
    default: str | None = None
    # Failing the fields, the first named child that has a rule (None) or whose type is in this set.
    children: frozenset[str] | None = None


@dataclass(frozen=True, slots=True)
class LanguageSpec:
    """Everything the extended walker needs to know about one grammar."""

    grammar: str
    rules: Mapping[str, Rule]
    comments: frozenset[str]
    # Sibling nodes that belong to the declaration after them, like comments (attributes, decorators).
    leading: frozenset[str] = frozenset()
    wrappers: Mapping[str, Wrap] = field(default_factory=lambda: MappingProxyType({}))
    # Qualified names `Scope::name`: (scope field, name field). A function so named is a method of
    # "class <Scope>" (C++ `void Box::draw()`, Lua `function Box:draw()`).
    scopes: Mapping[str, tuple[str, str]] = field(default_factory=lambda: MappingProxyType({}))
    # Type nodes read down to their base name (`*Box`, `Box<T>`, `ns::Box` -> `Box`): node type -> path.
    type_names: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    # Nodes the grammar lets swallow the comments after them (Kotlin's import list takes the next
    # declaration's doc comment): those trailing comments are read as the next declaration's.
    swallowing: frozenset[str] = frozenset()


def _types(*names: str) -> frozenset[str]:
    return frozenset(names)


_CLASS = Rule("class", role="class")
_FUNCTION = Rule("function")
_METHOD = Rule("method")
_ENUM = Rule("enum")
_INTERFACE = Rule("interface")
_TYPE_ALIAS = Rule("type-alias")
_NAMESPACE = Rule("namespace", role="namespace")
_C_COMMENTS = _types("comment")

PYTHON = LanguageSpec(
    "python",
    {
        "function_definition": _FUNCTION,
        "class_definition": _CLASS,
        "assignment": Rule("variable", name="left", functions=("right", _types("lambda"))),
        "type_alias_statement": Rule("type-alias", name="left"),
    },
    comments=_types("comment"),
    wrappers={"decorated_definition": Wrap(fields=("definition",))},
)

GO = LanguageSpec(
    "go",
    {
        "function_declaration": _FUNCTION,
        "method_declaration": Rule("method", receiver="receiver.@parameter_declaration.type"),
        "type_declaration": Rule(None, role="group"),
        "type_spec": Rule("type-alias", kinds={"struct_type": "class", "interface_type": "interface"}),
        "type_alias": _TYPE_ALIAS,
        "const_declaration": Rule("variable", name="%const_spec.name+"),
        "var_declaration": Rule("variable", name="%var_spec.name+"),
    },
    comments=_types("comment"),
    type_names={
        "pointer_type": "@type_identifier|generic_type|qualified_type",
        "generic_type": "type",
        "qualified_type": "name",
    },
)

_RUST_TYPE_NAMES = {"generic_type": "type", "scoped_type_identifier": "name", "reference_type": "type"}
RUST = LanguageSpec(
    "rust",
    {
        "function_item": _FUNCTION,
        "function_signature_item": _FUNCTION,
        "struct_item": Rule("class"),
        "union_item": Rule("class"),
        "enum_item": _ENUM,
        "trait_item": _INTERFACE,
        # An impl block is its type's class: its functions are methods of "class <Type>".
        "impl_item": Rule("class", name="type", role="class"),
        "mod_item": Rule("namespace", role="namespace", bodiless="skip"),
        "foreign_mod_item": Rule(None, role="transparent"),
        "const_item": Rule("variable"),
        "static_item": Rule("variable"),
        "type_item": _TYPE_ALIAS,
        "macro_definition": _FUNCTION,
    },
    comments=_types("line_comment", "block_comment"),
    leading=_types("attribute_item"),
    type_names=_RUST_TYPE_NAMES,
)

JAVA = LanguageSpec(
    "java",
    {
        "class_declaration": _CLASS,
        "record_declaration": _CLASS,
        "interface_declaration": _INTERFACE,
        "annotation_type_declaration": _INTERFACE,
        "enum_declaration": _ENUM,
        "method_declaration": _METHOD,
        "constructor_declaration": _METHOD,
        "compact_constructor_declaration": _METHOD,
    },
    comments=_types("line_comment", "block_comment"),
)

CSHARP = LanguageSpec(
    "csharp",
    {
        "class_declaration": _CLASS,
        "struct_declaration": _CLASS,
        "record_declaration": _CLASS,
        "interface_declaration": _INTERFACE,
        "enum_declaration": _ENUM,
        "delegate_declaration": _TYPE_ALIAS,
        "method_declaration": _METHOD,
        "constructor_declaration": _METHOD,
        "destructor_declaration": _METHOD,
        "operator_declaration": Rule("method", name="=operator"),
        "conversion_operator_declaration": Rule("method", name="=operator"),
        "namespace_declaration": _NAMESPACE,
        "file_scoped_namespace_declaration": Rule("namespace", role="namespace", bodiless="scope"),
    },
    comments=_types("comment"),
)

KOTLIN = LanguageSpec(
    "kotlin",
    {
        "class_declaration": Rule(
            "class",
            name="@type_identifier",
            role="class",
            body="@class_body|enum_class_body",
            kinds={"interface": "interface", "enum": "enum"},
        ),
        "object_declaration": Rule("class", name="@type_identifier", role="class", body="@class_body"),
        # A companion object's functions are the enclosing class's methods.
        "companion_object": Rule(None, role="transparent", body="@class_body"),
        # An extension function `fun Box.area()` is a method of its receiver type.
        "function_declaration": Rule("function", name="@simple_identifier", receiver="receiver"),
        "property_declaration": Rule(
            "variable",
            name=(
                "@variable_declaration.@simple_identifier,"
                "@multi_variable_declaration.%variable_declaration.@simple_identifier"
            ),
        ),
        "type_alias": Rule("type-alias", name="@type_identifier"),
    },
    comments=_types("line_comment", "multiline_comment"),
    type_names={
        "receiver_type": "@user_type|nullable_type",
        "nullable_type": "@user_type",
        "user_type": "@type_identifier",
    },
    swallowing=_types("package_header", "import_list"),
)

_C_RULES = {
    "function_definition": Rule("function", name="declarator*"),
    # A declaration is a prototype when a function declarator is in it, else variables.
    "declaration": Rule(
        "variable",
        name="declarator+.declarator*",
        functions=("declarator+.declarator*", _types("function_declarator")),
        in_class=False,
    ),
    "struct_specifier": Rule("class", role="class", bodiless="skip"),
    "union_specifier": Rule("class", role="class", bodiless="skip"),
    "enum_specifier": Rule("enum", bodiless="skip"),
    "type_definition": Rule("type-alias", name="declarator+.declarator*"),
    "preproc_def": Rule("variable", body="value", bodiless="skip"),  # not `#define GUARD_H`
    "preproc_function_def": _FUNCTION,
    # Include guards and #if blocks wrap whole headers: walk what is inside them.
    "preproc_ifdef": Rule(None, role="transparent", body=""),
    "preproc_if": Rule(None, role="transparent", body=""),
    "preproc_else": Rule(None, role="transparent", body=""),
    "preproc_elif": Rule(None, role="transparent", body=""),
    "preproc_elifdef": Rule(None, role="transparent", body=""),
}
# A member declaration stands for the type declared in it (`struct In {...} in;`).
_C_WRAPPERS = {"field_declaration": Wrap(fields=("type",), children=frozenset())}

C = LanguageSpec("c", _C_RULES, comments=_C_COMMENTS, wrappers=_C_WRAPPERS)

CPP = LanguageSpec(
    "cpp",
    {
        **_C_RULES,
        "class_specifier": Rule("class", role="class", bodiless="skip"),
        "namespace_definition": _NAMESPACE,
        "linkage_specification": Rule(None, role="transparent"),
        "alias_declaration": _TYPE_ALIAS,
        "concept_definition": _TYPE_ALIAS,
    },
    comments=_C_COMMENTS,
    wrappers={**_C_WRAPPERS, "template_declaration": Wrap()},
    scopes={"qualified_identifier": ("scope", "name")},
    type_names={"template_type": "name"},
)

RUBY = LanguageSpec(
    "ruby",
    {
        "class": _CLASS,
        "module": _NAMESPACE,
        "method": _FUNCTION,
        "singleton_method": _FUNCTION,
        # `class << self`: its methods are the enclosing class's.
        "singleton_class": Rule(None, role="transparent"),
        "assignment": Rule("variable", name="left", functions=("right", _types("lambda"))),
    },
    comments=_types("comment"),
)

PHP = LanguageSpec(
    "php",
    {
        "class_declaration": _CLASS,
        "interface_declaration": _INTERFACE,
        "trait_declaration": _INTERFACE,
        "enum_declaration": _ENUM,
        "function_definition": _FUNCTION,
        "method_declaration": _METHOD,
        "namespace_definition": Rule("namespace", role="namespace", bodiless="scope"),
        "const_declaration": Rule("variable", name="%const_element.@name"),
        "assignment_expression": Rule(
            "variable", name="left", functions=("right", _types("anonymous_function", "arrow_function"))
        ),
    },
    comments=_types("comment"),
    wrappers={"expression_statement": Wrap()},
)

SWIFT = LanguageSpec(
    "swift",
    {
        # struct, class, actor, extension and enum are all `class_declaration`; the keyword tells.
        "class_declaration": Rule("class", role="class", kinds={"enum": "enum"}),
        "protocol_declaration": _INTERFACE,
        "function_declaration": _FUNCTION,
        "init_declaration": Rule("function", name="=init"),
        "deinit_declaration": Rule("function", name="=deinit"),
        "subscript_declaration": Rule("function", name="=subscript"),
        "typealias_declaration": _TYPE_ALIAS,
        "property_declaration": Rule("variable"),
    },
    comments=_types("comment", "multiline_comment"),
    type_names={"user_type": "@type_identifier"},
)

SCALA = LanguageSpec(
    "scala",
    {
        "class_definition": _CLASS,
        "object_definition": _CLASS,
        "trait_definition": _INTERFACE,
        "enum_definition": _ENUM,
        "function_definition": _FUNCTION,
        "function_declaration": _FUNCTION,
        "val_definition": Rule("variable", name="pattern"),
        "var_definition": Rule("variable", name="pattern"),
        "type_definition": _TYPE_ALIAS,
        # `package a.b` (no braces) is the file's package, not a block: only `package a { }` counts.
        "package_clause": Rule("namespace", role="namespace", bodiless="skip"),
        "extension_definition": Rule(None, role="transparent", body=""),
    },
    comments=_types("comment", "block_comment"),
)

LUA = LanguageSpec(
    "lua",
    {
        "function_declaration": _FUNCTION,
        "assignment_statement": Rule(
            "variable",
            name="@variable_list.name+",
            functions=("@expression_list.@function_definition", _types("function_definition")),
        ),
        "variable_declaration": Rule("variable", name="@variable_list.name+"),
    },
    comments=_types("comment"),
    wrappers={"variable_declaration": Wrap()},
    scopes={"method_index_expression": ("table", "method")},
)

BASH = LanguageSpec(
    "bash",
    {
        "function_definition": _FUNCTION,
        "variable_assignment": Rule("variable"),
        "declaration_command": Rule("variable", name="%variable_assignment.name,%variable_name"),
    },
    comments=_types("comment"),
)

_JS_FUNCTIONS = _types("function_expression", "arrow_function", "generator_function")
_JS_RULES = {
    "class_declaration": _CLASS,
    "abstract_class_declaration": _CLASS,
    "class": _CLASS,  # only reached as an anonymous default export
    "function_declaration": _FUNCTION,
    "generator_function_declaration": _FUNCTION,
    "function_expression": _FUNCTION,
    "arrow_function": _FUNCTION,
    "generator_function": _FUNCTION,
    "enum_declaration": _ENUM,
    "interface_declaration": _INTERFACE,
    "type_alias_declaration": _TYPE_ALIAS,
    "internal_module": _NAMESPACE,
    "module": _NAMESPACE,
    "lexical_declaration": Rule(
        "variable", name="%variable_declarator.name", functions=("%variable_declarator.value", _JS_FUNCTIONS)
    ),
    "variable_declaration": Rule(
        "variable", name="%variable_declarator.name", functions=("%variable_declarator.value", _JS_FUNCTIONS)
    ),
    "method_definition": _METHOD,
    "method_signature": _METHOD,
    "abstract_method_signature": _METHOD,
}
_JS_WRAPPERS = {
    "export_statement": Wrap(fields=("declaration",), default="value"),
    "ambient_declaration": Wrap(),
    # A bare `namespace X {}` parses as an expression statement holding the namespace.
    "expression_statement": Wrap(children=_types("internal_module", "module")),
}


def _js(grammar: str) -> LanguageSpec:
    return LanguageSpec(
        grammar, _JS_RULES, comments=_types("comment"), leading=_types("decorator"), wrappers=_JS_WRAPPERS
    )


TYPESCRIPT, TSX, JAVASCRIPT = _js("typescript"), _js("tsx"), _js("javascript")

SPECS_BY_EXTENSION: Mapping[str, LanguageSpec] = MappingProxyType(
    {
        **dict.fromkeys(("py", "pyi", "pyw"), PYTHON),
        "go": GO,
        "rs": RUST,
        "java": JAVA,
        "cs": CSHARP,
        **dict.fromkeys(("kt", "kts"), KOTLIN),
        "c": C,
        # .h goes to the C++ grammar: it reads C headers too, while the C grammar breaks on C++ ones.
        **dict.fromkeys(("h", "cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "ipp", "tpp"), CPP),
        **dict.fromkeys(("rb", "rake", "gemspec"), RUBY),
        "php": PHP,
        "swift": SWIFT,
        **dict.fromkeys(("scala", "sc"), SCALA),
        "lua": LUA,
        **dict.fromkeys(("sh", "bash", "zsh"), BASH),
        **dict.fromkeys(("ts", "mts", "cts"), TYPESCRIPT),
        "tsx": TSX,
        **dict.fromkeys(("js", "jsx", "mjs", "cjs"), JAVASCRIPT),
    }
)

# Extension -> grammar name, for display (which files extended mode parses, and with what).
GRAMMAR_BY_EXTENSION: Mapping[str, str] = MappingProxyType(
    {extension: spec.grammar for extension, spec in SPECS_BY_EXTENSION.items()}
)
