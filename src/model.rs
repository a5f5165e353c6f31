//! Plain data shared by every layer: languages, symbol and reference kinds, and the
//! per-file extraction result. This module does no IO and knows nothing of SQL or MCP; a
//! reference derives serde's traits only so that a build can hold many packed (`index`).

use std::fmt;

/// A symbol's row id in the index.
pub type SymbolId = i64;
/// A file's row id in the index.
pub type FileId = i64;

/// A language repochart understands. The registry row for each lives in `lang`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    Java,
    Rust,
}

impl Language {
    pub fn as_str(self) -> &'static str {
        match self {
            Language::Java => "java",
            Language::Rust => "rust",
        }
    }
    pub fn parse(s: &str) -> Option<Language> {
        match s {
            "java" => Some(Language::Java),
            "rust" => Some(Language::Rust),
            _ => None,
        }
    }
}

/// What a symbol is. The names are the suffixes of the `@definition.*` captures in
/// `grammars/*/tags.scm`, so a query file can name any of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SymbolKind {
    Package,
    Module,
    Class,
    Interface,
    Enum,
    Record,
    Annotation,
    Struct,
    Union,
    Trait,
    TypeAlias,
    Method,
    Constructor,
    Function,
    Field,
    EnumConstant,
    Variant,
    Const,
    Static,
    Macro,
    /// An HTTP endpoint (`POST /order/create`), under the method that handles it.
    Endpoint,
    /// A configuration key (`redis.key.orderId`): read from configuration files when asked
    /// for, never stored.
    ConfigKey,
    /// A MyBatis statement of a mapper XML file: read when asked for, never stored.
    Statement,
}

/// The table of symbol kinds: capture suffix, display name, whether it is a type
/// (a node of the type-level graph), whether it is a member (qualified with the
/// language's member separator).
const SYMBOL_KINDS: &[(SymbolKind, &str, bool, bool)] = &[
    (SymbolKind::Package, "package", false, false),
    (SymbolKind::Module, "module", false, false),
    (SymbolKind::Class, "class", true, false),
    (SymbolKind::Interface, "interface", true, false),
    (SymbolKind::Enum, "enum", true, false),
    (SymbolKind::Record, "record", true, false),
    (SymbolKind::Annotation, "annotation", true, false),
    (SymbolKind::Struct, "struct", true, false),
    (SymbolKind::Union, "union", true, false),
    (SymbolKind::Trait, "trait", true, false),
    (SymbolKind::TypeAlias, "type_alias", true, false),
    (SymbolKind::Method, "method", false, true),
    (SymbolKind::Constructor, "constructor", false, true),
    (SymbolKind::Function, "function", false, false),
    (SymbolKind::Field, "field", false, true),
    (SymbolKind::EnumConstant, "enum_constant", false, true),
    (SymbolKind::Variant, "variant", false, true),
    (SymbolKind::Const, "const", false, false),
    (SymbolKind::Static, "static", false, false),
    (SymbolKind::Macro, "macro", false, false),
    (SymbolKind::Endpoint, "endpoint", false, false),
    (SymbolKind::ConfigKey, "config_key", false, false),
    (SymbolKind::Statement, "statement", false, false),
];

impl SymbolKind {
    fn row(self) -> &'static (SymbolKind, &'static str, bool, bool) {
        SYMBOL_KINDS.iter().find(|row| row.0 == self).expect("every kind has a row")
    }
    pub fn as_str(self) -> &'static str {
        self.row().1
    }
    pub fn parse(s: &str) -> Option<SymbolKind> {
        SYMBOL_KINDS.iter().find(|row| row.1 == s).map(|row| row.0)
    }
    /// Types are the nodes of the symbol-level dependency graph.
    pub fn is_type(self) -> bool {
        self.row().2
    }
    /// Members are qualified with the member separator (`#` in Java).
    pub fn is_member(self) -> bool {
        self.row().3
    }
    pub fn is_callable(self) -> bool {
        matches!(self, SymbolKind::Method | SymbolKind::Constructor | SymbolKind::Function)
    }
    pub fn all() -> impl Iterator<Item = SymbolKind> {
        SYMBOL_KINDS.iter().map(|row| row.0)
    }
}

impl fmt::Display for SymbolKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a reference does. Also the kind of the dependency edge it creates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum RefKind {
    Extends,
    Implements,
    /// A type named in a signature, field, local, cast, generic argument, bound...
    UsesType,
    /// `new Foo()`, a Rust struct literal.
    Instantiates,
    Calls,
    /// Java annotations.
    Annotates,
    /// `import` / `use`.
    Imports,
    /// The type before a dot (`Foo.BAR`, `Arrays.sort(a)`), Rust patterns naming a type or variant.
    Accesses,
    /// A field or constant read or written (`this.size`, `size`, `Foo.BAR`).
    UsesField,
    /// Macro invocations.
    Expands,
    /// A method reference (`Customer::getName`, `this::handle`, `Order::new`).
    MethodRef,
    /// A bean injected into another (constructor parameter, injected field, `@Bean`
    /// method parameter): an edge of the service graph only, never stored.
    Injects,
    /// A build unit's manifest declares another that its code does not use (the build still
    /// links it): an edge of the unit graph only, never stored.
    Declares,
}

const REF_KINDS: &[(RefKind, &str, u8, i64)] = &[
    // (kind, name, priority when one node is captured twice: higher wins, code in the index)
    (RefKind::Extends, "extends", 9, 1),
    (RefKind::Implements, "implements", 9, 2),
    (RefKind::UsesType, "uses_type", 1, 3),
    (RefKind::Instantiates, "instantiates", 5, 4),
    (RefKind::Calls, "calls", 6, 5),
    (RefKind::Annotates, "annotates", 5, 6),
    (RefKind::Imports, "imports", 8, 7),
    (RefKind::Accesses, "accesses", 2, 8),
    (RefKind::UsesField, "uses_field", 1, 9),
    (RefKind::Expands, "expands", 5, 10),
    (RefKind::MethodRef, "method_ref", 6, 11),
    (RefKind::Injects, "injects", 0, 12),
    (RefKind::Declares, "declares", 0, 13),
];

impl RefKind {
    fn row(self) -> &'static (RefKind, &'static str, u8, i64) {
        REF_KINDS.iter().find(|row| row.0 == self).expect("every kind has a row")
    }
    pub fn as_str(self) -> &'static str {
        self.row().1
    }
    pub fn parse(s: &str) -> Option<RefKind> {
        REF_KINDS.iter().find(|row| row.1 == s).map(|row| row.0)
    }
    pub fn priority(self) -> u8 {
        self.row().2
    }
    /// The number the index stores for this kind.
    pub fn code(self) -> i64 {
        self.row().3
    }
    pub fn from_code(code: i64) -> Option<RefKind> {
        REF_KINDS.iter().find(|row| row.3 == code).map(|row| row.0)
    }
    /// The reference names a type (as opposed to a callable or an import).
    pub fn is_type_use(self) -> bool {
        matches!(self, RefKind::Extends | RefKind::Implements | RefKind::UsesType | RefKind::Instantiates | RefKind::Annotates)
    }
    pub fn all() -> impl Iterator<Item = RefKind> {
        REF_KINDS.iter().map(|row| row.0)
    }
}

impl fmt::Display for RefKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How sure the resolver is of a reference's target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Confidence {
    /// Resolved by the language's rules to a symbol in the repository.
    Exact,
    /// Only a name match was possible; the edge is kept and marked.
    Guess,
    /// Resolved to something outside the repository (`java.util.List`, `std::sync::Arc`).
    External,
    /// Nothing matched, not even by name (locals called like types, macros from elsewhere).
    Unresolved,
    /// Several overloads remain after arity and the argument types the index knows: the
    /// reference names each of them (the target and its alternatives), marked.
    Ambiguous,
}

impl Confidence {
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Exact => "exact",
            Confidence::Guess => "guess",
            Confidence::External => "external",
            Confidence::Unresolved => "unresolved",
            Confidence::Ambiguous => "ambiguous",
        }
    }
    pub fn parse(s: &str) -> Option<Confidence> {
        match s {
            "exact" => Some(Confidence::Exact),
            "guess" => Some(Confidence::Guess),
            "external" => Some(Confidence::External),
            "unresolved" => Some(Confidence::Unresolved),
            "ambiguous" => Some(Confidence::Ambiguous),
            _ => None,
        }
    }
    /// The number the index stores for this confidence.
    pub fn code(self) -> i64 {
        match self {
            Confidence::Exact => 0,
            Confidence::Guess => 1,
            Confidence::External => 2,
            Confidence::Unresolved => 3,
            Confidence::Ambiguous => 4,
        }
    }
    pub fn from_code(code: i64) -> Option<Confidence> {
        [Confidence::Exact, Confidence::Guess, Confidence::External, Confidence::Unresolved, Confidence::Ambiguous]
            .into_iter()
            .find(|c| c.code() == code)
    }
}

/// One symbol as extracted from one file. `parent` indexes into the same file's symbols.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub kind: SymbolKind,
    pub name: String,
    pub qname: String,
    pub parent: Option<usize>,
    pub visibility: String,
    pub modifiers: String,
    pub signature: String,
    pub doc: String,
    /// 1-based, inclusive.
    pub start_line: u32,
    pub end_line: u32,
    /// For Rust impl members: the `impl` block's self type as written (generics stripped),
    /// and the trait it implements, so the resolver can attach the member to its type.
    pub impl_of: Option<ImplInfo>,
    /// For methods and functions the declared return type's path, for fields their
    /// declared type's (generics stripped): what gives a chain's next receiver its type.
    pub returns: Option<String>,
    /// Java callables: the erased parameter types by simple name, comma-separated, the
    /// last one ending in `...` when it is variable arity (`int,String...`; empty for none).
    /// What overload resolution compares a call's arguments with.
    pub params: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImplInfo {
    pub self_type: String,
    pub trait_name: Option<String>,
    /// The inline module the impl block is written in (`crate::walk::tests`), when it is
    /// not the file's own: where its self type is looked up.
    pub module: Option<String>,
}

/// How the receiver of a call was written, for the resolver to find the method's type.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Receiver {
    /// No receiver (`foo()`), or `this`/`self`: look in the enclosing type.
    Implicit,
    /// The receiver's declared type is known (a typed local, field or parameter) or the
    /// receiver is itself a type name (`Foo.bar()`, `Foo::bar()`).
    Type(String),
    /// Some expression whose type is not known without inference.
    Unknown,
}

/// One reference as extracted. `name` is the path as written, with the language's
/// separator (`java.util.List`, `crate::pay::Gateway`); `Self` is already replaced.
/// Serialized (postcard) while a first build holds a whole tree's references between
/// parsing and resolving: see `index::Packed`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Reference {
    pub kind: RefKind,
    pub name: String,
    pub line: u32,
    /// Index of the innermost enclosing symbol in the same file.
    pub enclosing: Option<usize>,
    /// For calls: what the method is called on.
    pub receiver: Receiver,
    /// The type the reference is made on behalf of when it is not the enclosing symbol
    /// (`impl Trait for Type` makes `Type` implement `Trait`). Java: for a call without a
    /// receiver in an anonymous class's body, that class (searched first; the edge is still
    /// the enclosing member's).
    pub subject: Option<String>,
    /// For imports: the alias (`use a::B as C`), the flags. For a call the library makes
    /// (`extract::callbacks`): what makes it (`Collections.sort`).
    pub alias: Option<String>,
    pub glob: bool,
    pub is_static: bool,
    pub reexport: bool,
    /// `impl<T: Bound> Trait for T`: the subject is one of the impl's type parameters.
    pub blanket: bool,
    /// Java calls and instance creations: the argument types as far as the extractor knows
    /// them, comma-separated (`int,String,?`; `?` unknown, `null`, a chain `Owner#m()`),
    /// empty for no arguments. None where arguments are not tracked.
    pub args: Option<Box<str>>,
}

impl Reference {
    pub fn new(kind: RefKind, name: String, line: u32, enclosing: Option<usize>) -> Reference {
        Reference {
            kind,
            name,
            line,
            enclosing,
            receiver: Receiver::Implicit,
            subject: None,
            alias: None,
            glob: false,
            is_static: false,
            reexport: false,
            blanket: false,
            args: None,
        }
    }
    /// The last path segment, which the resolver indexes references by.
    pub fn simple_name(&self) -> &str {
        last_segment(&self.name)
    }
}

/// The name an impl's members are qualified with: the self type's last segment, or a
/// blanket or foreign impl's whole `<X as Trait>` form.
pub fn impl_owner(self_type: &str) -> &str {
    if self_type.starts_with('<') {
        self_type
    } else {
        last_segment(self_type)
    }
}

/// A lambda or method reference among a Java call's argument types (`Reference::args`): it
/// fits a parameter of an interface type only.
pub const LAMBDA_ARG: &str = "->";

/// The `alias` of a Java lambda's `implements` reference when the lambda is an argument: it
/// implements the type of the callee's parameter at `index` (`arg:1`; `new:0` for a
/// constructor's). The reference is the call's (`kind`, receiver, arguments), retyped.
pub fn lambda_argument(kind: RefKind, index: usize) -> String {
    format!("{}:{index}", if kind == RefKind::Instantiates { "new" } else { "arg" })
}

/// What `lambda_argument` wrote: (the parameter's index, whether the callee is a
/// constructor), for an `implements` reference.
pub fn lambda_argument_of(kind: RefKind, alias: Option<&str>) -> Option<(usize, bool)> {
    if kind != RefKind::Implements {
        return None;
    }
    let (what, index) = alias?.split_once(':')?;
    Some((
        index.parse().ok()?,
        match what {
            "new" => true,
            "arg" => false,
            _ => return None,
        },
    ))
}

/// The last segment of a Java (`.`) or Rust (`::`) path.
pub fn last_segment(path: &str) -> &str {
    // A byte scan: `rsplit("::")` builds a substring searcher per call, and the resolver
    // calls this for every import it considers (1.7% of a cold index's CPU).
    let b = path.as_bytes();
    let mut i = b.len();
    while i > 0 && b[i - 1] != b'.' && !(b[i - 1] == b':' && i >= 2 && b[i - 2] == b':') {
        i -= 1;
    }
    &path[i..]
}

/// A receiver type written with its container's element (`List<Pet>`, `slice<Match>`) ->
/// (`List`, `Pet`); a type without an element -> `None`.
pub fn split_container(t: &str) -> Option<(&str, &str)> {
    let open = t.find('<')?;
    let element = t[open + 1..].strip_suffix('>')?;
    Some((&t[..open], element))
}

/// A receiver type without its element (`List<Pet>` -> `List`), for naming the type itself;
/// a call chain (`List<Pet>#get()`) as it is.
pub fn without_element(t: &str) -> &str {
    match split_container(t) {
        Some((base, _)) if !t.contains('#') => base,
        _ => t,
    }
}

/// Everything extraction learns from one file. Extraction never fails: syntax errors are
/// counted and the rest of the file is still used.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileExtract {
    /// Java package or Rust module path of the file (`com.acme.pay`, `shop_core::pay`).
    pub module: String,
    pub symbols: Vec<Symbol>,
    pub references: Vec<Reference>,
    pub parse_errors: u32,
    pub loc: u32,
    /// Why the file is indexed only in part (or not at all), when it is.
    pub failure: Option<String>,
    /// The words of string literals and comments (docs left out) inside each declaration,
    /// by index into `symbols` (the innermost declaration holding them), space-separated.
    pub texts: Vec<(usize, String)>,
}

/// The words of an identifier, for full-text search: `PaymentGateway` -> `payment gateway`,
/// `parse_http2_url` -> `parse http2 url`, followed by the whole name in lower case.
///
/// An ASCII name (nearly every one) is split byte by byte into one string; others go
/// through `name_words_chars`, which gives an ASCII name the same words (a property test
/// holds the two together). The writer calls this twice for each symbol: the general
/// form, with a string per word and a vector of chars, was 1% of a cold build's
/// instructions.
pub fn name_words(name: &str) -> String {
    if !name.is_ascii() {
        return name_words_chars(name);
    }
    let bytes = name.as_bytes();
    let mut out = String::with_capacity(2 * bytes.len() + 1);
    // Words finished so far, and whether one is being written.
    let (mut words, mut open) = (0usize, false);
    for (i, &c) in bytes.iter().enumerate() {
        let separator = matches!(c, b'_' | b'$' | b'-');
        let boundary = c.is_ascii_uppercase()
            && open
            && (bytes[i - 1].is_ascii_lowercase() || bytes[i - 1].is_ascii_digit() || bytes.get(i + 1).is_some_and(u8::is_ascii_lowercase));
        if (separator || boundary) && std::mem::take(&mut open) {
            words += 1;
        }
        if separator {
            continue;
        }
        if !open {
            if !out.is_empty() {
                out.push(' ');
            }
            open = true;
        }
        out.push(c.to_ascii_lowercase() as char);
    }
    words += usize::from(open);
    // One word is all of `out`.
    let whole = name.to_ascii_lowercase();
    if words != 1 || out != whole {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&whole);
    }
    out
}

/// `name_words` of any name, char by char (Unicode case).
fn name_words_chars(name: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' || c == '$' || c == '-' {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        let boundary = c.is_uppercase()
            && !current.is_empty()
            && (chars[i - 1].is_lowercase() || chars[i - 1].is_ascii_digit() || chars.get(i + 1).is_some_and(|n| n.is_lowercase()));
        if boundary {
            words.push(std::mem::take(&mut current));
        }
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    let whole = name.to_lowercase();
    if words.len() > 1 || words.first() != Some(&whole) {
        words.push(whole);
    }
    words.join(" ")
}

/// The parts `name_words` gives a word of a text (split at non-alphanumerics already): a
/// word of lower-case ASCII letters and digits is its own only part, taken as it is (most
/// words of prose and of names' pieces; `name_words` would make five allocations for it).
pub fn word_parts(word: &str) -> smallvec::SmallVec<[std::borrow::Cow<'_, str>; 1]> {
    if word.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()) {
        smallvec::smallvec![std::borrow::Cow::Borrowed(word)]
    } else {
        name_words(word).split_whitespace().map(|p| std::borrow::Cow::Owned(p.to_string())).collect()
    }
}

/// The modifier of a symbol one of the repository's own macros made, before the macro's
/// name: `generated:impl_handler!`.
pub const GENERATED: &str = "generated:";

/// The receiver of a call on a Rust name no variable declares (`handler.into_service()`):
/// `fn handler`, a function used as a value if the resolver finds one of that name.
pub const FN_VALUE: &str = "fn ";

/// The receiver of a reference that requests one of the application's URLs (a test's
/// `perform(get("/owners/{id}", 1))`): its name is `VERB /path`, and it resolves to the
/// handler whose endpoint matches.
pub const URL_RECEIVER: &str = "@url";

/// The subject of a Java call on the superclass a type has without naming it
/// (`extract::references`): `super(..)` and `hashCode()` in a class that extends nothing are
/// `Object`'s, `ordinal()` in an enum `Enum`'s.
pub const JAVA_OBJECT: &str = "java.lang.Object";
pub const JAVA_ENUM: &str = "java.lang.Enum";

/// Whether `name` is a method of `java.lang.Object`: every Java class has one of that name,
/// so a call of it without a receiver is the innermost class's (JLS 15.12.1).
pub fn java_object_method(name: &str) -> bool {
    matches!(name, "clone" | "equals" | "finalize" | "getClass" | "hashCode" | "notify" | "notifyAll" | "toString" | "wait")
}

/// The modifier of a Rust trait that a blanket impl in its file implements for every type
/// (`impl<T: Bound> Trait for T`): its methods are methods of any value.
pub const BLANKET: &str = "blanket";

// ------------------------------------------------------------ the graph's input rows

/// One symbol row, as much as the graph needs.
#[derive(Clone, Debug)]
pub struct SymbolRow {
    pub id: i64,
    pub file: i64,
    pub parent: Option<i64>,
    pub kind: SymbolKind,
}

/// One file row.
#[derive(Clone, Debug)]
pub struct FileRow {
    pub id: i64,
    pub module: String,
    /// The build unit holding the file (only the unit level reads it).
    pub unit: Option<u32>,
}

/// References aggregated by (file, source, target, kind), with the first line.
#[derive(Clone, Debug)]
pub struct EdgeRow {
    pub file: i64,
    pub source: Option<i64>,
    pub target: Option<i64>,
    pub external: Option<i64>,
    pub kind: RefKind,
    pub count: u32,
    pub line: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_words_split_camel_and_snake_case() {
        assert_eq!(name_words("PaymentGateway"), "payment gateway paymentgateway");
        assert_eq!(name_words("HTTPServer"), "http server httpserver");
        assert_eq!(name_words("parse_http2_url"), "parse http2 url parse_http2_url");
        assert_eq!(name_words("main"), "main");
        assert_eq!(name_words("ConcurrentHashMap"), "concurrent hash map concurrenthashmap");
        // Separators only, or nothing: the whole name alone, as the char-by-char form gives.
        assert_eq!(name_words("__"), "__");
        assert_eq!(name_words(""), "");
        assert_eq!(name_words("$Proxy12_"), "proxy12 $proxy12_");
        assert_eq!(name_words("Ünïcode_Straße"), "ünïcode straße ünïcode_straße");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { failure_persistence: None, ..proptest::prelude::ProptestConfig::default() })]
        /// The ASCII path gives every ASCII name the words the char-by-char form gives.
        #[test]
        fn name_words_ascii_path_agrees_with_the_general_one(name in "[A-Za-z0-9_$-]{0,24}") {
            proptest::prop_assert_eq!(name_words(&name), name_words_chars(&name));
        }
    }

    #[test]
    fn last_segment_handles_both_separators() {
        assert_eq!(last_segment("java.util.List"), "List");
        assert_eq!(last_segment("crate::pay::Gateway"), "Gateway");
        assert_eq!(last_segment("Gateway"), "Gateway");
    }
}
