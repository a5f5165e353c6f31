//! The language registry: one row per language with its file extensions, tree-sitter
//! grammar, query file from `grammars/`, and the few facts about its syntax that the
//! generic extractor needs. This is the only module that names a grammar crate.
//! Queries are compiled once, lazily; a query error names the file it came from.

pub mod matcher;

use std::sync::OnceLock;

use crate::model::{Language, RefKind, SymbolKind};

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{file}: query error at row {row}, column {column}: {message}")]
    Query { file: &'static str, row: usize, column: usize, message: String },
    #[error("{file}: unknown capture @{capture} (see the capture vocabulary in src/lang.rs)")]
    UnknownCapture { file: &'static str, capture: String },
    #[error("{file}:{line}: {message}")]
    Matcher { file: &'static str, line: usize, message: String },
}

/// What a capture name means to the extractor. Every capture in a query file must be one
/// of these; anything else is an error when the query is compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capture {
    Definition(SymbolKind),
    Reference(RefKind),
    Name,
    Receiver,
    /// A call's argument list: the extractor gives each argument a type where it can, for
    /// overload resolution.
    Arguments,
    LocalName,
    LocalType,
    /// An untyped variable's initializer: the variable has the type of the expression.
    LocalValue,
    /// The container a variable takes the elements of (`for m in matches`, the receiver of
    /// `pets.forEach(p -> ..)`).
    LocalEach,
    /// The call a lambda variable's container is the receiver of: it counts only when the
    /// call passes elements to its lambdas (`Elements::lambda_calls`).
    LocalCall,
    Import,
    Package,
    TypeParams,
    Anonymous,
    /// A lambda or method reference where the type it implements is declared (a variable's,
    /// a field's, a method's return type, a cast).
    Lambda,
    /// A try-with-resources resource's declared type (the JDK closes it).
    Resource,
    ImplScope,
    ImplType,
    ImplTrait,
}

impl Capture {
    fn parse(name: &str) -> Option<Capture> {
        if let Some(kind) = name.strip_prefix("definition.") {
            return SymbolKind::parse(kind).map(Capture::Definition);
        }
        if let Some(kind) = name.strip_prefix("reference.") {
            return RefKind::parse(kind).map(Capture::Reference);
        }
        Some(match name {
            "name" => Capture::Name,
            "receiver" => Capture::Receiver,
            "arguments" => Capture::Arguments,
            "local.name" => Capture::LocalName,
            "local.type" => Capture::LocalType,
            "local.value" => Capture::LocalValue,
            "local.each" => Capture::LocalEach,
            "local.call" => Capture::LocalCall,
            "import" => Capture::Import,
            "package" => Capture::Package,
            "typeparams" => Capture::TypeParams,
            "anonymous" => Capture::Anonymous,
            "lambda" => Capture::Lambda,
            "resource" => Capture::Resource,
            "scope.impl" => Capture::ImplScope,
            "impl.type" => Capture::ImplType,
            "impl.trait" => Capture::ImplTrait,
            _ => return None,
        })
    }
}

/// A registry row: everything language-specific that is data rather than code.
pub struct LanguageSpec {
    pub language: Language,
    pub extensions: &'static [&'static str],
    grammar: fn() -> tree_sitter::Language,
    query_file: &'static str,
    pub(crate) query_source: &'static str,
    /// Separator between a scope and a nested type (`.` in Java, `::` in Rust).
    pub type_separator: &'static str,
    /// Separator between a type and its members (`#` in Java, `::` in Rust).
    pub member_separator: &'static str,
    /// Node kinds of path-like names whose parts must not be captured again on their own.
    pub path_kinds: &'static [&'static str],
    /// Node kinds that wrap a base type with arguments; the base names the reference.
    pub generic_kinds: &'static [&'static str],
    /// Comment node kinds and the prefixes that make a comment a doc comment.
    pub comment_kinds: &'static [&'static str],
    pub doc_prefixes: &'static [&'static str],
    /// Prefixes of docs written inside what they document (Rust's `//!`): not docs of the
    /// next declaration, but not body text either.
    pub inner_doc_prefixes: &'static [&'static str],
    /// String literal node kinds: their words, with those of comments that are not docs,
    /// are a declaration's body text (what sentence search reads beside its names).
    pub string_kinds: &'static [&'static str],
    /// Sibling kinds skipped when looking backwards from a declaration for its docs.
    pub doc_skip_kinds: &'static [&'static str],
    /// Child kinds holding modifiers and visibility.
    pub modifier_kinds: &'static [&'static str],
    /// Modifier words that are visibilities.
    pub visibilities: &'static [&'static str],
    /// Visibility when none is written.
    pub default_visibility: &'static str,
    /// Names the language brings into every scope, and the qualified names they stand for.
    pub implicit_names: &'static [(&'static str, &'static str)],
    /// Receiver expressions that mean "the enclosing type".
    pub self_receivers: &'static [&'static str],
    /// Generic types whose methods are those of their first argument (Rust's `Deref`).
    pub deref_wrappers: &'static [&'static str],
    /// Return types that stand for their first type argument in a chain (`Option<T>`,
    /// `Result<T, E>`: what `?`, `unwrap()` or `expect()` give), and the calls and postfix
    /// operators a chain passes through unchanged (`x.unwrap().m()` calls `m` on `x`'s `T`).
    pub unwrapped_returns: &'static [&'static str],
    pub transparent_calls: &'static [&'static str],
    /// Macros whose arguments are code (`assert!`, `format!`): calls in their tokens are
    /// resolved like calls outside them.
    pub code_macros: &'static [&'static str],
    /// Macros whose arguments are tokens of another language (`quote!`, `json!`): calls in
    /// them are matched by name only. Any macro in neither list (a repository's own
    /// `macro_rules!`, which mostly take expressions, blocks and closures) is read as code
    /// when this list is not empty.
    pub token_macros: &'static [&'static str],
    /// Method names called on values of every kind (`toString`, `unwrap`): one per line,
    /// sorted. A call by one of these names on a receiver of unknown type is never
    /// matched by name alone.
    #[allow(dead_code)] // named by the tests
    ubiquitous_calls_file: &'static str,
    pub(crate) ubiquitous_calls_source: &'static str,
    ubiquitous_calls: OnceLock<Vec<&'static str>>,
    /// Annotations (Java, by simple name) or attributes (Rust, by path) that make a
    /// function a test: `grammars/<lang>/test-*.txt`, one per line.
    test_markers_source: &'static str,
    test_markers: OnceLock<Vec<&'static str>>,
    /// What a test function's modifiers say it is (`@Test`, `#[test]`).
    pub test_marker: &'static str,
    /// Attributes the compiler reads itself, by first path segment (Rust:
    /// `grammars/rust/builtin-attributes.txt`): every other attribute invokes a macro.
    pub(crate) builtin_attributes_source: &'static str,
    builtin_attributes: OnceLock<Vec<&'static str>>,
    /// `grammars/<lang>/elements.toml`: containers and the calls that hand out their elements.
    elements_file: &'static str,
    elements_source: &'static str,
    elements: OnceLock<Elements>,
}

/// Containers and what their methods hand out (`grammars/<lang>/elements.toml`): the
/// extractor types a lambda's or a loop's variable by them, the resolver follows
/// `list.get(0)` and `pets.stream()` through them. Sorted lists, searched by name.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Elements {
    /// Generic types whose first type argument is their element (`List`, `Vec`, `slice`).
    pub containers: Vec<String>,
    /// Generic types whose last type argument is their element: a map's values, an entry's
    /// value (`Map<String, Order>` holds `Order`s). Their function arguments take no
    /// element (`map.forEach((key, value) -> ..)`).
    #[serde(default)]
    pub maps: Vec<String>,
    /// Calls on a map that give a container of its entries (`entrySet`).
    #[serde(default)]
    pub entry_sets: Vec<String>,
    /// Calls on a map that give one of its entries (`firstEntry`).
    #[serde(default)]
    pub entry_calls: Vec<String>,
    /// Calls on a container that give one element (`get`, `next`, `orElseThrow`).
    pub element_calls: Vec<String>,
    /// Calls on a container that give a container of the same elements (`stream`, `iter`).
    pub same_calls: Vec<String>,
    /// Calls whose function arguments take elements as their parameters (`forEach`, `map`).
    pub lambda_calls: Vec<String>,
    /// Calls whose value is an argument they are given: a chain of call names (the last the
    /// call typed, those before it what it is called on) -> the call whose first argument it
    /// is (`verify` -> `verify`: `verify(mock, times(2)).findLatest()` calls the mock's
    /// type; `doReturn.when` -> `when`; `then.should` -> `then`).
    #[serde(default)]
    identity_calls: std::collections::BTreeMap<String, String>,
    /// Types an identity chain may start on (`Mockito.verify(..)`), as on nothing.
    #[serde(default)]
    pub identity_owners: Vec<String>,
    /// `identity_calls` split once: (the chain's call names, the index of the call whose
    /// first argument is the value); and the longest chain, how far a receiver is read.
    #[serde(skip)]
    identity_rules: Vec<(Vec<String>, usize)>,
    #[serde(skip)]
    pub identity_longest: usize,
    /// Calls and creations after which the library calls methods of what it was given
    /// (`Collections.sort(list)` calls the elements' `compareTo`).
    #[serde(default)]
    pub callbacks: Vec<Callback>,
}

/// One callback rule of `elements.toml` (see its comment).
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Callback {
    /// `Owner.method` (a static call by its owner's simple name), `.method` (on any
    /// receiver), `new Type` (a creation), `try` (a try-with-resources resource).
    pub on: String,
    /// The arguments the call takes (any when absent).
    #[serde(default)]
    pub arity: Option<usize>,
    /// Whose methods: `arg0`, `arg1` (an argument's type), `arg0 elements` (its elements),
    /// `receiver elements`, `type argument` (the created type's first), `resource`.
    pub of: String,
    /// `name/arity`.
    pub calls: Vec<String>,
}

impl Callback {
    const OF: [&'static str; 6] = ["arg0", "arg1", "arg0 elements", "receiver elements", "type argument", "resource"];

    /// The methods it calls: (name, arity).
    pub fn methods(&self) -> impl Iterator<Item = (&str, usize)> {
        self.calls.iter().filter_map(|c| c.split_once('/').and_then(|(n, a)| Some((n, a.parse().ok()?))))
    }
}

impl Elements {
    fn parse(file: &str, source: &str) -> Elements {
        let mut e: Elements = toml::from_str(source).unwrap_or_else(|err| panic!("{file}: {err}"));
        for list in [
            &mut e.containers,
            &mut e.maps,
            &mut e.entry_sets,
            &mut e.entry_calls,
            &mut e.element_calls,
            &mut e.same_calls,
            &mut e.lambda_calls,
        ] {
            list.sort();
        }
        e.identity_rules = e
            .identity_calls
            .iter()
            .map(|(calls, arg)| {
                let calls: Vec<String> = calls.split('.').map(str::to_string).collect();
                let at = calls.iter().position(|c| c == arg).unwrap_or_else(|| panic!("{file}: identity call {arg} is not in its chain"));
                (calls, at)
            })
            .collect();
        e.identity_longest = e.identity_rules.iter().map(|(calls, _)| calls.len()).max().unwrap_or(0);
        for c in &e.callbacks {
            assert!(Callback::OF.contains(&c.of.as_str()), "{file}: callback on {}: `of` is one of {:?}", c.on, Callback::OF);
            assert_eq!(c.methods().count(), c.calls.len(), "{file}: callback on {}: calls are written name/arity", c.on);
        }
        e
    }

    fn has(list: &[String], name: &str) -> bool {
        list.binary_search_by(|x| x.as_str().cmp(name)).is_ok()
    }

    pub fn is_container(&self, name: &str) -> bool {
        Self::has(&self.containers, name)
    }

    pub fn is_map(&self, name: &str) -> bool {
        Self::has(&self.maps, name)
    }

    /// The value a receiver written as a map with its element holds (`Map<Order>`: `Order`).
    pub fn map_value<'a>(&self, t: &'a str) -> Option<&'a str> {
        crate::model::split_container(t).filter(|(base, _)| self.is_map(crate::model::last_segment(base))).map(|(_, v)| v)
    }

    pub fn gives_entries(&self, call: &str) -> bool {
        Self::has(&self.entry_sets, call)
    }

    pub fn gives_entry(&self, call: &str) -> bool {
        Self::has(&self.entry_calls, call)
    }

    pub fn gives_element(&self, call: &str) -> bool {
        Self::has(&self.element_calls, call)
    }

    pub fn keeps_elements(&self, call: &str) -> bool {
        Self::has(&self.same_calls, call)
    }

    pub fn passes_elements(&self, call: &str) -> bool {
        Self::has(&self.lambda_calls, call)
    }

    /// For a chain of call names, innermost first (`["doReturn", "when"]`), when an identity
    /// rule names the chain's last calls: the index of the rule's first call, and that of
    /// the call whose first argument is the chain's value.
    pub fn identity_argument(&self, chain: &[&str]) -> Option<(usize, usize)> {
        self.identity_rules.iter().find_map(|(calls, at)| {
            let start = chain.len().checked_sub(calls.len())?;
            chain[start..].iter().zip(calls).all(|(a, b)| a == b).then_some((start, start + at))
        })
    }
}

/// The JDK's public types and their direct supertypes (`grammars/java/jdk-types.txt`, read by
/// `resolve::jdk`), embedded here with the other language data. Statics, not constants: a
/// constant's text is copied into the binary once per place that uses it.
pub static JDK_TYPES: &str = include_str!("../../grammars/java/jdk-types.txt");

/// The types the JDK's public methods return and its public fields hold
/// (`grammars/java/jdk-members.txt`, read by `resolve::jdk`).
pub static JDK_MEMBERS: &str = include_str!("../../grammars/java/jdk-members.txt");

/// The functional interfaces the JDK's public methods and constructors take, by name, arity
/// and parameter (`grammars/java/jdk-lambdas.txt`, written by `JdkTypes.java lambdas`): what
/// a lambda passed to one implements. A `static`, embedded once.
pub static JDK_LAMBDAS: &str = include_str!("../../grammars/java/jdk-lambdas.txt");

static REGISTRY: [LanguageSpec; 2] = [
    LanguageSpec {
        language: Language::Java,
        extensions: &["java"],
        grammar: || tree_sitter_java::LANGUAGE.into(),
        query_file: "grammars/java/tags.scm",
        query_source: include_str!("../../grammars/java/tags.scm"),
        type_separator: ".",
        member_separator: "#",
        path_kinds: &["scoped_type_identifier", "scoped_identifier"],
        generic_kinds: &["generic_type"],
        comment_kinds: &["block_comment", "line_comment"],
        doc_prefixes: &["/**"],
        inner_doc_prefixes: &[],
        string_kinds: &["string_literal"],
        doc_skip_kinds: &[],
        modifier_kinds: &["modifiers"],
        visibilities: &["public", "protected", "private"],
        default_visibility: "package",
        implicit_names: JAVA_LANG,
        self_receivers: &["this", "super"],
        deref_wrappers: &[],
        unwrapped_returns: &[],
        transparent_calls: &[],
        code_macros: &[],
        token_macros: &[],
        ubiquitous_calls_file: "grammars/java/ubiquitous-calls.txt",
        ubiquitous_calls_source: include_str!("../../grammars/java/ubiquitous-calls.txt"),
        ubiquitous_calls: OnceLock::new(),
        test_markers_source: include_str!("../../grammars/java/test-annotations.txt"),
        test_markers: OnceLock::new(),
        test_marker: "@Test",
        builtin_attributes_source: "",
        builtin_attributes: OnceLock::new(),
        elements_file: "grammars/java/elements.toml",
        elements_source: include_str!("../../grammars/java/elements.toml"),
        elements: OnceLock::new(),
    },
    LanguageSpec {
        language: Language::Rust,
        extensions: &["rs"],
        grammar: || tree_sitter_rust::LANGUAGE.into(),
        query_file: "grammars/rust/tags.scm",
        query_source: include_str!("../../grammars/rust/tags.scm"),
        type_separator: "::",
        member_separator: "::",
        path_kinds: &["scoped_type_identifier", "scoped_identifier"],
        generic_kinds: &["generic_type", "generic_function", "generic_type_with_turbofish"],
        comment_kinds: &["line_comment", "block_comment"],
        doc_prefixes: &["///", "/**"],
        inner_doc_prefixes: &["//!"],
        string_kinds: &["string_literal", "raw_string_literal"],
        doc_skip_kinds: &["attribute_item"],
        modifier_kinds: &["visibility_modifier", "function_modifiers"],
        visibilities: &["pub", "pub(crate)", "pub(super)", "pub(self)"],
        default_visibility: "private",
        implicit_names: RUST_PRELUDE,
        self_receivers: &["self"],
        deref_wrappers: &["Arc", "Box", "Rc"],
        unwrapped_returns: &["Option", "Result"],
        transparent_calls: &[
            "as_mut",
            "as_ref",
            "borrow",
            "borrow_mut",
            "clone",
            "expect",
            "lock",
            "read",
            "to_owned",
            "unwrap",
            "unwrap_or_default",
            "unwrap_or_else",
            "write",
        ],
        code_macros: &[
            "assert",
            "assert_eq",
            "assert_ne",
            "dbg",
            "debug_assert",
            "debug_assert_eq",
            "debug_assert_ne",
            "eprint",
            "eprintln",
            "format",
            "format_args",
            "matches",
            "panic",
            "print",
            "println",
            "todo",
            "unimplemented",
            "unreachable",
            "vec",
            "write",
            "writeln",
        ],
        token_macros: &[
            "cfg",
            "compile_error",
            "concat",
            "concat_idents",
            "env",
            "format_ident",
            "html",
            "include",
            "include_bytes",
            "include_str",
            "json",
            "macro_rules",
            "option_env",
            "parse_quote",
            "parse_quote_spanned",
            "quote",
            "quote_spanned",
            "sql",
            "stringify",
        ],
        ubiquitous_calls_file: "grammars/rust/ubiquitous-calls.txt",
        ubiquitous_calls_source: include_str!("../../grammars/rust/ubiquitous-calls.txt"),
        ubiquitous_calls: OnceLock::new(),
        test_markers_source: include_str!("../../grammars/rust/test-attributes.txt"),
        test_markers: OnceLock::new(),
        test_marker: "#[test]",
        builtin_attributes_source: include_str!("../../grammars/rust/builtin-attributes.txt"),
        builtin_attributes: OnceLock::new(),
        elements_file: "grammars/rust/elements.toml",
        elements_source: include_str!("../../grammars/rust/elements.toml"),
        elements: OnceLock::new(),
    },
];

/// `java.lang` types every Java file sees without an import (the common part of it).
const JAVA_LANG: &[(&str, &str)] = &[
    ("AutoCloseable", "java.lang.AutoCloseable"),
    ("Boolean", "java.lang.Boolean"),
    ("Byte", "java.lang.Byte"),
    ("CharSequence", "java.lang.CharSequence"),
    ("Character", "java.lang.Character"),
    ("Class", "java.lang.Class"),
    ("ClassCastException", "java.lang.ClassCastException"),
    ("ClassLoader", "java.lang.ClassLoader"),
    ("CloneNotSupportedException", "java.lang.CloneNotSupportedException"),
    ("Cloneable", "java.lang.Cloneable"),
    ("Comparable", "java.lang.Comparable"),
    ("Deprecated", "java.lang.Deprecated"),
    ("Double", "java.lang.Double"),
    ("Enum", "java.lang.Enum"),
    ("Error", "java.lang.Error"),
    ("Exception", "java.lang.Exception"),
    ("Float", "java.lang.Float"),
    ("FunctionalInterface", "java.lang.FunctionalInterface"),
    ("IllegalArgumentException", "java.lang.IllegalArgumentException"),
    ("IllegalStateException", "java.lang.IllegalStateException"),
    ("IndexOutOfBoundsException", "java.lang.IndexOutOfBoundsException"),
    ("Integer", "java.lang.Integer"),
    ("InterruptedException", "java.lang.InterruptedException"),
    ("Iterable", "java.lang.Iterable"),
    ("Long", "java.lang.Long"),
    ("Math", "java.lang.Math"),
    ("NullPointerException", "java.lang.NullPointerException"),
    ("Number", "java.lang.Number"),
    ("NumberFormatException", "java.lang.NumberFormatException"),
    ("Object", "java.lang.Object"),
    ("Override", "java.lang.Override"),
    ("Record", "java.lang.Record"),
    ("Runnable", "java.lang.Runnable"),
    ("Runtime", "java.lang.Runtime"),
    ("RuntimeException", "java.lang.RuntimeException"),
    ("SafeVarargs", "java.lang.SafeVarargs"),
    ("SecurityException", "java.lang.SecurityException"),
    ("Short", "java.lang.Short"),
    ("String", "java.lang.String"),
    ("StringBuilder", "java.lang.StringBuilder"),
    ("SuppressWarnings", "java.lang.SuppressWarnings"),
    ("System", "java.lang.System"),
    ("Thread", "java.lang.Thread"),
    ("Throwable", "java.lang.Throwable"),
    ("UnsupportedOperationException", "java.lang.UnsupportedOperationException"),
    ("Void", "java.lang.Void"),
];

/// Names the Rust prelude brings into every module.
const RUST_PRELUDE: &[(&str, &str)] = &[
    ("Box", "std::boxed::Box"),
    ("Clone", "std::clone::Clone"),
    ("Copy", "std::marker::Copy"),
    // `Debug` and `Hash` are in the prelude as derive macros (the traits are not).
    ("Debug", "std::fmt::Debug"),
    ("Default", "std::default::Default"),
    ("Drop", "std::ops::Drop"),
    ("Eq", "std::cmp::Eq"),
    ("Err", "std::result::Result::Err"),
    ("Fn", "std::ops::Fn"),
    ("FnMut", "std::ops::FnMut"),
    ("FnOnce", "std::ops::FnOnce"),
    ("From", "std::convert::From"),
    ("Hash", "std::hash::Hash"),
    ("Into", "std::convert::Into"),
    ("IntoIterator", "std::iter::IntoIterator"),
    ("Iterator", "std::iter::Iterator"),
    ("None", "std::option::Option::None"),
    ("Ok", "std::result::Result::Ok"),
    ("Option", "std::option::Option"),
    ("Ord", "std::cmp::Ord"),
    ("PartialEq", "std::cmp::PartialEq"),
    ("PartialOrd", "std::cmp::PartialOrd"),
    ("Result", "std::result::Result"),
    ("Send", "std::marker::Send"),
    ("Sized", "std::marker::Sized"),
    ("Some", "std::option::Option::Some"),
    ("String", "std::string::String"),
    ("Sync", "std::marker::Sync"),
    ("ToOwned", "std::borrow::ToOwned"),
    ("ToString", "std::string::ToString"),
    ("TryFrom", "std::convert::TryFrom"),
    ("TryInto", "std::convert::TryInto"),
    ("Vec", "std::vec::Vec"),
    ("assert", "std::assert"),
    ("assert_eq", "std::assert_eq"),
    ("assert_ne", "std::assert_ne"),
    ("format", "std::format"),
    ("panic", "std::panic"),
    ("println", "std::println"),
    ("vec", "std::vec"),
    ("write", "std::write"),
    ("writeln", "std::writeln"),
];

/// A compiled query with its captures decoded once: the matcher extraction runs, and, built
/// only when asked for, tree-sitter's compilation of the same file (the reference engine
/// tests compare against; compiling it costs as much as extracting 200 files).
pub struct CompiledQuery {
    pub matcher: crate::lang::matcher::Matcher,
    pub captures: Vec<Capture>,
    /// The grammar's node kind names by kind id.
    pub kind_names: Vec<&'static str>,
    /// By kind id: a string literal or comment kind (`LanguageSpec::string_kinds`,
    /// `comment_kinds`), whose words are a declaration's text.
    pub text_kinds: Vec<bool>,
    grammar: tree_sitter::Language,
    source: &'static str,
    file: &'static str,
    reference: OnceLock<Result<ReferenceQuery, Error>>,
}

/// tree-sitter's compilation of a query file, with its captures decoded.
pub struct ReferenceQuery {
    pub query: tree_sitter::Query,
    pub captures: Vec<Capture>,
}

impl CompiledQuery {
    /// tree-sitter's compilation of the query, built on first use.
    pub fn reference(&self) -> Result<&ReferenceQuery, &Error> {
        self.reference
            .get_or_init(|| {
                let query = tree_sitter::Query::new(&self.grammar, self.source).map_err(|e| Error::Query {
                    file: self.file,
                    row: e.row + 1,
                    column: e.column + 1,
                    message: e.message,
                })?;
                let captures = decode_captures(self.file, query.capture_names().iter().copied())?;
                Ok(ReferenceQuery { query, captures })
            })
            .as_ref()
    }
}

fn decode_captures<'a>(file: &'static str, names: impl Iterator<Item = &'a str>) -> Result<Vec<Capture>, Error> {
    names.map(|name| Capture::parse(name).ok_or_else(|| Error::UnknownCapture { file, capture: name.to_string() })).collect()
}

impl LanguageSpec {
    pub fn grammar(&self) -> tree_sitter::Language {
        (self.grammar)()
    }

    pub fn query_file(&self) -> &'static str {
        self.query_file
    }

    /// The compiled query, built on first use and shared by every thread.
    pub fn query(&'static self) -> Result<&'static CompiledQuery, &'static Error> {
        static CACHE: [OnceLock<Result<CompiledQuery, Error>>; 2] = [OnceLock::new(), OnceLock::new()];
        let slot = &CACHE[self.language as usize];
        slot.get_or_init(|| self.compile()).as_ref()
    }

    fn compile(&self) -> Result<CompiledQuery, Error> {
        let grammar = self.grammar();
        let matcher = crate::lang::matcher::Matcher::new(&grammar, self.query_source).map_err(|e| Error::Matcher {
            file: self.query_file,
            line: e.line,
            message: e.message,
        })?;
        let captures = decode_captures(self.query_file, matcher.capture_names().iter().map(String::as_str))?;
        let kind_names: Vec<&'static str> =
            (0..grammar.node_kind_count()).map(|id| grammar.node_kind_for_id(id as u16).unwrap_or("")).collect();
        // Kind names repeat under several ids (a named and an anonymous `string_literal`):
        // every id of a listed name is one.
        let text_kinds = kind_names.iter().map(|k| self.string_kinds.contains(k) || self.comment_kinds.contains(k)).collect();
        Ok(CompiledQuery {
            matcher,
            captures,
            kind_names,
            text_kinds,
            grammar,
            source: self.query_source,
            file: self.query_file,
            reference: OnceLock::new(),
        })
    }

    fn ubiquitous_call_names(&self) -> &[&'static str] {
        self.ubiquitous_calls
            .get_or_init(|| self.ubiquitous_calls_source.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect())
    }

    /// Whether an annotation's simple name (Java) or an attribute's path (Rust) marks a test.
    pub fn is_test_marker(&self, name: &str) -> bool {
        self.test_markers
            .get_or_init(|| self.test_markers_source.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect())
            .contains(&name)
    }

    /// Whether an attribute (by its path as written) is one the compiler reads itself
    /// (`cfg`, `derive`, `clippy::..`), not an attribute macro.
    pub fn is_builtin_attribute(&self, path: &str) -> bool {
        let first = path.split("::").next().unwrap_or(path).trim();
        self.builtin_attributes
            .get_or_init(|| {
                self.builtin_attributes_source.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect()
            })
            .binary_search(&first)
            .is_ok()
    }

    /// The text of `grammars/<lang>/elements.toml` (the index's fingerprint holds it).
    pub fn elements_source(&self) -> &'static str {
        self.elements_source
    }

    /// The language's containers and element calls (`grammars/<lang>/elements.toml`).
    pub fn elements(&self) -> &Elements {
        self.elements.get_or_init(|| Elements::parse(self.elements_file, self.elements_source))
    }

    /// Whether a method name is in the language's list of ubiquitous calls.
    pub fn is_ubiquitous_call(&self, name: &str) -> bool {
        self.ubiquitous_call_names().binary_search(&name).is_ok()
    }

    pub fn implicit(&self, name: &str) -> Option<&'static str> {
        self.implicit_names.iter().find(|(short, _)| *short == name).map(|(_, full)| *full)
    }
}

/// Every language, in registry order.
pub fn all() -> &'static [LanguageSpec] {
    &REGISTRY
}

pub fn spec(language: Language) -> &'static LanguageSpec {
    REGISTRY.iter().find(|spec| spec.language == language).expect("every language has a registry row")
}

/// The language of a path, by extension.
pub fn for_path(path: &str) -> Option<&'static LanguageSpec> {
    let ext = path.rsplit_once('.')?.1;
    REGISTRY.iter().find(|spec| spec.extensions.contains(&ext))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_query_compiles_and_uses_known_captures() {
        for spec in all() {
            let compiled = spec.query().unwrap_or_else(|e| panic!("{e}"));
            assert!(compiled.captures.contains(&Capture::Name), "{} has no @name", spec.query_file);
            let reference = compiled.reference().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(reference.captures, compiled.captures, "{}: capture numbering differs between engines", spec.query_file);
        }
    }

    #[test]
    fn ubiquitous_call_lists_are_sorted_and_unique() {
        for spec in all() {
            let names = spec.ubiquitous_call_names();
            assert!(names.len() > 20, "{}", spec.ubiquitous_calls_file);
            assert!(names.windows(2).all(|w| w[0] < w[1]), "{} is not sorted and unique", spec.ubiquitous_calls_file);
        }
        assert!(spec(Language::Java).is_ubiquitous_call("toString"));
        assert!(!spec(Language::Java).is_ubiquitous_call("unwrap"));
        assert!(spec(Language::Rust).is_ubiquitous_call("unwrap"));
        let builtin: Vec<&str> =
            spec(Language::Rust).builtin_attributes_source.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
        assert!(builtin.windows(2).all(|w| w[0] < w[1]), "grammars/rust/builtin-attributes.txt is not sorted and unique");
        assert!(spec(Language::Rust).is_builtin_attribute("cfg_attr"));
        assert!(spec(Language::Rust).is_builtin_attribute("clippy::too_many_arguments"));
        assert!(!spec(Language::Rust).is_builtin_attribute("instrument"));
        assert!(!spec(Language::Rust).is_builtin_attribute("tokio::main"));
        assert!(!spec(Language::Rust).is_ubiquitous_call("search_path"));
    }

    #[test]
    fn element_lists_parse_and_answer_by_name() {
        for spec in all() {
            let e = spec.elements();
            for list in [&e.containers, &e.element_calls, &e.same_calls, &e.lambda_calls] {
                assert!(!list.is_empty() && list.windows(2).all(|w| w[0] < w[1]), "{}: empty or duplicated", spec.elements_file);
            }
            for list in [&e.maps, &e.entry_sets, &e.entry_calls] {
                assert!(list.windows(2).all(|w| w[0] < w[1]), "{}: duplicated", spec.elements_file);
            }
        }
        let java = spec(Language::Java).elements();
        assert!(java.is_container("List") && java.gives_element("get") && java.keeps_elements("stream") && java.passes_elements("forEach"));
        assert!(!java.is_container("Map") && !java.gives_element("stream") && !java.passes_elements("collect"));
        assert!(java.is_map("Map") && java.is_map("Entry") && java.gives_element("getValue") && !java.is_map("List"));
        assert!(java.gives_entries("entrySet") && java.gives_entry("firstEntry") && !java.gives_entry("entrySet"));
        let rust = spec(Language::Rust).elements();
        assert!(rust.is_container("slice") && rust.gives_element("last") && rust.keeps_elements("iter") && rust.passes_elements("map"));
        assert!(!rust.is_container("HashMap") && !rust.keeps_elements("map"));
    }

    #[test]
    fn implicit_name_tables_are_sorted() {
        for spec in all() {
            let names: Vec<_> = spec.implicit_names.iter().map(|(n, _)| *n).collect();
            let mut sorted = names.clone();
            sorted.sort();
            assert_eq!(names, sorted, "{}", spec.query_file);
        }
    }

    #[test]
    fn paths_map_to_languages_by_extension() {
        assert_eq!(for_path("src/a/B.java").map(|s| s.language), Some(Language::Java));
        assert_eq!(for_path("src/lib.rs").map(|s| s.language), Some(Language::Rust));
        assert_eq!(for_path("README.md").map(|s| s.language), None);
        assert_eq!(for_path("Makefile").map(|s| s.language), None);
    }
}
