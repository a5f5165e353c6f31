//! Extraction: `(language, source) -> symbols, references, diagnostics`. A generic engine
//! that reads only capture names from the language's query (see `lang`), split by what it
//! extracts: `outline` (declarations), `signature` (signature and doc text), `locals`
//! (variables and their scopes), `types` (types as written), `receivers` (receiver and
//! expression typing), `references` (references and calls), `paths` (names as written);
//! small per-language hooks (`java`, `rust`); and what frameworks make of a file
//! (`routes`). This file owns the entry points, the extractor's state, the intake of the
//! query's matches and `finish`, which runs the passes in order.
//!
//! It never fails: syntax errors are counted and the rest of the tree is still used. It
//! does no IO.

use fields::Fields;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::cell::RefCell;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use streaming_iterator::StreamingIterator;
use tree_sitter::{Node, Parser, QueryCursor, Tree};

use crate::frameworks;
use crate::lang::{Capture, LanguageSpec};
use crate::model::{FileExtract, ImplInfo, Language, Receiver, RefKind, Reference, Symbol, SymbolKind};
pub use mbe::{definitions_in, MacroTable};

mod callbacks;
mod fields;
mod java;
mod library;
mod locals;
mod macros;
mod mbe;
mod nameless;
mod outline;
mod paths;
mod receivers;
mod references;
mod routes;
mod rust;
mod signature;
mod types;

use locals::{is_local, local_type};
use paths::{join, normalize_path, replace_self, std_path, strip_space};
use signature::{add_modifier, body_text, text_nodes};

/// Variables by (the symbol that scopes them, name): their type as a receiver takes it,
/// by where each binding of the name takes effect.
type Locals<'t> = HashMap<(Option<usize>, &'t str), LocalTypes>;

/// The types one name is bound to in one scope, by the byte where each binding takes
/// effect (a `let` after its statement): a use sees the last binding before it, so that a
/// shadowing `let x = ..` retypes `x` from there on (a use before every binding, a field's
/// or a parameter's, sees the first).
#[derive(Clone, Debug, Default)]
struct LocalTypes(smallvec::SmallVec<[(usize, String); 1]>);

impl LocalTypes {
    /// Adds a binding; a second one at the same place keeps the first.
    fn bind(&mut self, at: usize, type_text: String) {
        let i = self.0.partition_point(|(a, _)| *a < at);
        if self.0.get(i).is_none_or(|(a, _)| *a != at) {
            self.0.insert(i, (at, type_text));
        }
    }

    /// The type a use at `pos` sees.
    fn at(&self, pos: usize) -> &str {
        let i = self.0.partition_point(|(a, _)| *a <= pos);
        let (_, t) = if i == 0 { &self.0[0] } else { &self.0[i - 1] };
        t
    }
}

fn bind_local<'t>(locals: &mut Locals<'t>, key: (Option<usize>, &'t str), at: usize, type_text: String) {
    locals.entry(key).or_default().bind(at, type_text);
}

thread_local! {
    static PARSERS: RefCell<HashMap<Language, Parser>> = RefCell::new(HashMap::default());
}

/// The longest one file may take to parse, and again to query: a hostile file can
/// neither hang nor starve an index run.
pub const TIME_BUDGET: Duration = Duration::from_secs(5);

/// Deepest node a pattern may start matching at, for tree-sitter's engine (the reference the
/// matcher is tested against; the matcher has no pending states). A cursor keeps one pending state per open
/// ancestor a `(parent (child))` pattern started on, so 100,000 nested parentheses would
/// cost 100,000^2 steps (127 s for one file); real code nests under 200 deep.
const MAX_START_DEPTH: u32 = 400;

/// Parses `source` with the language's grammar, reusing one parser per thread. None when
/// the parse ran out of its time budget.
pub fn parse(spec: &LanguageSpec, source: &str) -> Option<Tree> {
    PARSERS.with(|parsers| {
        let mut parsers = parsers.borrow_mut();
        let parser = parsers.entry(spec.language).or_insert_with(|| {
            let mut parser = Parser::new();
            parser.set_language(&spec.grammar()).expect("grammar version matches tree-sitter");
            parser
        });
        let deadline = Instant::now() + TIME_BUDGET;
        let mut on_progress =
            |_: &tree_sitter::ParseState| if Instant::now() > deadline { ControlFlow::Break(()) } else { ControlFlow::Continue(()) };
        let options = tree_sitter::ParseOptions::new().progress_callback(&mut on_progress);
        let bytes = source.as_bytes();
        let tree = parser.parse_with_options(&mut |offset, _| &bytes[offset.min(bytes.len())..], None, Some(options));
        if tree.is_none() {
            parser.reset();
        }
        tree
    })
}

/// Extracts one file. `module` is the file's module path for languages whose module
/// comes from the file's place (Rust); languages that declare it (Java's `package`)
/// ignore it.
pub fn extract(spec: &'static LanguageSpec, source: &str, module: &str) -> FileExtract {
    extract_with(spec, source, module, Engine::Matcher)
}

/// `extract`, item-level invocations of the repository's own `macro_rules!` macros
/// expanded into the items they make (`all_the_tuples!(impl_handler)`).
pub fn extract_with_macros(spec: &'static LanguageSpec, source: &str, module: &str, macros: &MacroTable) -> FileExtract {
    extract_full(spec, source, module, Engine::Matcher, Some(macros))
}

/// Which engine runs the query: ours (`matcher`), or tree-sitter's `QueryCursor`, kept as
/// the reference the matcher is tested against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Matcher,
    TreeSitter,
}

/// `extract` with a chosen query engine.
pub fn extract_with(spec: &'static LanguageSpec, source: &str, module: &str, engine: Engine) -> FileExtract {
    extract_full(spec, source, module, engine, None)
}

fn extract_full(spec: &'static LanguageSpec, source: &str, module: &str, engine: Engine, macros: Option<&MacroTable>) -> FileExtract {
    let loc = count_loc(source);
    let Some(tree) = parse(spec, source) else {
        return FileExtract {
            module: module.to_string(),
            loc,
            parse_errors: 1,
            failure: Some(format!("parse stopped after its {} s budget; no symbols indexed", TIME_BUDGET.as_secs())),
            ..FileExtract::default()
        };
    };
    let Ok(query) = spec.query() else {
        // A broken query file is caught by the query test; extraction still never fails.
        return FileExtract { module: module.to_string(), loc, ..FileExtract::default() };
    };
    // The virtual trees of macro inputs, one a level: they live as long as the extractor.
    let levels: [std::cell::OnceCell<Tree>; macros::MACRO_LEVELS] = Default::default();
    let mut extractor = Extractor {
        spec,
        src: source,
        module: module.to_string(),
        macro_table: macros.filter(|t| !t.is_empty()),
        ..Extractor::default_for(spec, &query.kind_names, source)
    };
    // The string literals and comments, listed by the walk that matches the queries.
    let mut texts = Vec::new();
    let complete = extractor.collect(&tree, query, engine, Some(&mut texts)) && extractor.reparse_macros(&levels, query, engine);
    if engine == Engine::TreeSitter {
        texts = text_nodes(&query.text_kinds, tree.root_node());
    }
    let mut out = extractor.finish();
    if !complete {
        out.failure = Some(format!("query stopped after its {} s budget; symbols indexed in part", TIME_BUDGET.as_secs()));
    }
    out.loc = loc;
    out.parse_errors = count_errors(tree.root_node());
    out.texts = body_text(spec, &texts, source, &out.symbols);
    out
}

/// Lines that are not blank. Bytes first: a line of ASCII whitespace is blank, one whose
/// first other byte is ASCII (but a vertical tab: whitespace to `char`, not to `u8`) is
/// not; only the rest need the Unicode test of `str::trim` (which every line took before:
/// 3% of extraction's own time).
fn count_loc(source: &str) -> u32 {
    source
        .lines()
        .filter(|line| match line.bytes().find(|b| !b.is_ascii_whitespace()) {
            None => false,
            Some(b) if b.is_ascii() && b != 0x0b => true,
            Some(_) => !line.trim().is_empty(),
        })
        .count() as u32
}

fn count_errors(root: Node) -> u32 {
    if !root.has_error() {
        return 0;
    }
    let mut count = 0;
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.is_error() || node.is_missing() {
            count += 1;
            continue;
        }
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if child.has_error() {
                stack.push(child);
            }
        }
    }
    count
}

#[derive(Clone, Copy)]
struct Def<'t> {
    node: Node<'t>,
    name: Node<'t>,
    kind: SymbolKind,
}

#[derive(Clone, Copy)]
struct Ref<'t> {
    name: Node<'t>,
    kind: RefKind,
    receiver: Option<Node<'t>>,
    /// A call's argument list.
    args: Option<Node<'t>>,
    /// The name node's parent when the engine knew it (the matcher always does).
    parent: Option<Option<Node<'t>>>,
}

#[derive(Clone, Copy)]
enum ScopeWhat {
    /// A definition; its symbol index once known (None when it is skipped).
    Def(usize),
    /// An anonymous class's body; its symbol once known (Java's, see `outline`).
    Anonymous(Option<usize>),
    Impl(usize),
}

#[derive(Clone, Copy)]
struct Scope {
    start: usize,
    end: usize,
    node_id: usize,
    what: ScopeWhat,
}

/// What the passes of `Extractor::finish` hand each other: the scopes (definitions,
/// anonymous bodies, impl blocks) ordered parent before child, each one's enclosing scope,
/// the symbols, and each definition's symbol.
struct Outline {
    scopes: Vec<Scope>,
    scope_parent: Vec<Option<usize>>,
    symbols: Vec<Symbol>,
    def_symbol: Vec<Option<usize>>,
}

struct Impl<'t> {
    info: ImplInfo,
    trait_node: Option<Node<'t>>,
    type_node: Node<'t>,
}

struct Extractor<'t> {
    spec: &'static LanguageSpec,
    /// Node kind names by kind id.
    kinds: &'static [&'static str],
    src: &'t str,
    module: String,
    defs: Vec<Def<'t>>,
    refs: Vec<Ref<'t>>,
    /// Variables: name node, declared type node, and for an untyped one its initializer.
    locals: Vec<LocalDecl<'t>>,
    imports: Vec<Node<'t>>,
    anonymous: Vec<Node<'t>>,
    lambdas: Vec<Node<'t>>,
    resources: Vec<Node<'t>>,
    impls: Vec<Impl<'t>>,
    /// Type parameters: the owner's byte range, the name, and the erasure of the first
    /// bound (empty when unbounded).
    type_params: Vec<(usize, usize, String, String)>,
    /// How many receivers `typed_receiver` is computing, one inside the other.
    receiver_depth: std::cell::Cell<usize>,
    package: Option<String>,
    /// While a virtual tree of macro inputs is collected: its token trees, in byte order
    /// (only captures inside them are taken). Empty for the file's own tree.
    window: Vec<macros::Region>,
    /// The token trees (by node id) of the invocations whose input was read as code.
    reparsed: HashSet<usize>,
    /// Bytes of the next level's token trees that are blanked in its virtual source (an
    /// argument's label: `parent:` in `info!(parent: s, ..)`).
    blanks: Vec<(usize, usize)>,
    /// The repository's `macro_rules!` macros, when the indexer knows them: item-level
    /// invocations of them are expanded (`mbe`).
    macro_table: Option<&'t MacroTable>,
    /// The expansions of this file's invocations, merged into its symbols by `finish`.
    expansions: Vec<macros::Expansion>,
    /// The byte where each line of the source starts (built when an expansion needs it).
    line_starts: std::cell::OnceCell<Vec<usize>>,
    /// Each definition's parent, by the definition node's id, where the matcher knew it.
    def_parents: HashMap<usize, Node<'t>>,
    /// The children of those parents, listed once each when the outline starts
    /// (`siblings_before`).
    siblings: HashMap<usize, Vec<Node<'t>>>,
}

impl<'t> Extractor<'t> {
    fn default_for(spec: &'static LanguageSpec, kinds: &'static [&'static str], src: &'t str) -> Extractor<'t> {
        Extractor {
            spec,
            kinds,
            src,
            module: String::new(),
            defs: Vec::new(),
            refs: Vec::new(),
            locals: Vec::new(),
            imports: Vec::new(),
            anonymous: Vec::new(),
            lambdas: Vec::new(),
            resources: Vec::new(),
            impls: Vec::new(),
            type_params: Vec::new(),
            receiver_depth: std::cell::Cell::new(0),
            package: None,
            window: Vec::new(),
            reparsed: HashSet::default(),
            blanks: Vec::new(),
            macro_table: None,
            expansions: Vec::new(),
            line_starts: std::cell::OnceCell::new(),
            def_parents: HashMap::default(),
            siblings: HashMap::default(),
        }
    }

    /// A node's kind by table (`CompiledQuery::kind_names`): `Node::kind` asks tree-sitter for
    /// a C string and measures and checks it on every call.
    fn kind(&self, node: Node) -> &'static str {
        self.kinds.get(node.kind_id() as usize).copied().unwrap_or("")
    }

    fn text(&self, node: Node) -> &'t str {
        &self.src[node.byte_range()]
    }

    /// Gathers every match; false if the time budget ran out first. With `texts`, the
    /// matcher's walk also lists the tree's string literals and comments there (the
    /// reference engine does not).
    fn collect(&mut self, tree: &'t Tree, query: &crate::lang::CompiledQuery, engine: Engine, texts: Option<&mut Vec<Node<'t>>>) -> bool {
        let deadline = Instant::now() + TIME_BUDGET;
        let mut n = 0u32;
        let mut in_time = || {
            n = n.wrapping_add(1);
            !n.is_multiple_of(1024) || Instant::now() <= deadline
        };
        match engine {
            Engine::Matcher => query.matcher.run_marking(
                tree,
                &mut |m, _, _| {
                    self.take_match(m.iter().map(|&(i, node, parent)| (i, node, Some(parent))), &query.captures);
                    in_time()
                },
                texts.map(|t| (query.text_kinds.as_slice(), t)),
            ),
            Engine::TreeSitter => {
                let Ok(reference) = query.reference() else {
                    return false;
                };
                let mut cursor = QueryCursor::new();
                // Bounds the work between two matches (a progress callback would, too, but
                // costs 3% of all extraction: the cursor then computes its byte offset at
                // every step).
                cursor.set_max_start_depth(Some(MAX_START_DEPTH));
                let mut matches = cursor.matches(&reference.query, tree.root_node(), self.src.as_bytes());
                while let Some(m) = matches.next() {
                    self.take_match(m.captures.iter().map(|c| (c.index, c.node, None)), &reference.captures);
                    if !in_time() {
                        return false;
                    }
                }
                true
            }
        }
    }

    /// One match: each capture's number, node and, when the engine knows it, the node's
    /// parent.
    fn take_match(&mut self, captures: impl Iterator<Item = (u32, Node<'t>, Option<Option<Node<'t>>>)>, names: &[Capture]) {
        let mut main: Option<(Capture, Node<'t>)> = None;
        let mut main_parent = None;
        let mut name = None;
        let mut name_parent = None;
        let mut receiver = None;
        let mut args = None;
        let mut local_name = None;
        let mut local_type = None;
        let mut local_value = None;
        let mut local_each = None;
        let mut local_call = None;
        let mut impl_type = None;
        let mut impl_trait = None;
        for (index, node, parent) in captures {
            match names[index as usize] {
                Capture::Name => (name, name_parent) = (Some(node), parent),
                Capture::Receiver => receiver = Some(node),
                Capture::Arguments => args = Some(node),
                Capture::LocalName => local_name = Some(node),
                Capture::LocalType => local_type = Some(node),
                Capture::LocalValue => local_value = Some(node),
                Capture::LocalEach => local_each = Some(node),
                Capture::LocalCall => local_call = Some(node),
                Capture::ImplType => impl_type = Some(node),
                Capture::ImplTrait => impl_trait = Some(node),
                other => (main, main_parent) = (Some((other, node)), parent),
            }
        }
        if !self.window.is_empty() {
            // A virtual tree: only what lies inside its token trees (not the wrapper).
            let key = name.or(local_name).or(impl_type).or(main.map(|(_, n)| n));
            if !key.is_some_and(|k| self.in_window(k)) {
                return;
            }
        }
        if let Some(n) = local_name {
            if self.kind(n) == "tuple_pattern" {
                // `let (subscriber, handle) = ..;`: each name takes its element of the value.
                let mut cursor = n.walk();
                let elements: Vec<Node<'t>> = n.named_children(&mut cursor).collect();
                for (index, element) in elements.into_iter().enumerate() {
                    let element = match self.kind(element) {
                        "mut_pattern" => element.named_child(element.named_child_count().saturating_sub(1) as u32).unwrap_or(element),
                        _ => element,
                    };
                    if self.kind(element) == "identifier" {
                        let index = Some(index as u32);
                        self.locals.push(LocalDecl { name: element, ty: None, value: local_value, each: None, call: None, index });
                    }
                }
                return;
            }
            self.locals.push(LocalDecl { name: n, ty: local_type, value: local_value, each: local_each, call: local_call, index: None });
            return;
        }
        let Some((capture, node)) = main else {
            return;
        };
        match capture {
            // An item written in an expression of a macro's input (`const X` in a closure
            // passed to `rgtest!(name, |..| { .. })`) is local to code the macro makes, not
            // an item of the module.
            Capture::Definition(_) if !self.window.is_empty() && self.local_to_macro_code(node) => {}
            Capture::Definition(kind) => {
                if let Some(name) = name {
                    if let Some(Some(parent)) = main_parent {
                        self.def_parents.insert(node.id(), parent);
                    }
                    self.defs.push(Def { node, name, kind });
                }
            }
            Capture::Reference(kind) => {
                let (name, parent) = match name {
                    Some(name) => (name, name_parent),
                    None => (node, main_parent),
                };
                self.refs.push(Ref { name, kind, receiver, args, parent });
            }
            Capture::Import => self.imports.push(node),
            Capture::Package => self.package = Some(strip_space(self.text(node))),
            Capture::TypeParams if self.kind(node) == "where_clause" => {
                // `where S: Sink`: the bound of a parameter declared without one.
                let owner = node.parent().unwrap_or(node);
                let mut cursor = node.walk();
                let predicates: Vec<Node> = node.named_children(&mut cursor).filter(|p| self.kind(*p) == "where_predicate").collect();
                for predicate in predicates {
                    let Some(left) = predicate.field("left").filter(|l| self.kind(*l) == "type_identifier") else { continue };
                    let name = self.text(left).to_string();
                    let Some(bound) = predicate.field("bounds").and_then(|b| self.first_bound(b)) else { continue };
                    let range = (owner.start_byte(), owner.end_byte());
                    match self.type_params.iter_mut().find(|(s, e, n, b)| (*s, *e) == range && *n == name && b.is_empty()) {
                        Some(entry) => entry.3 = bound,
                        None => self.type_params.push((range.0, range.1, name, bound)),
                    }
                }
            }
            Capture::TypeParams => {
                let owner = node.parent().unwrap_or(node);
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    if let Some(ident) = first_of_kind(child, "type_identifier") {
                        let name = self.text(ident).to_string();
                        // `<T extends Comparable<T> & Serializable>` erases to `Comparable`.
                        // Rust: `<M: Matcher + Send>` (a `bounds` field of trait bounds,
                        // lifetimes skipped) is `Matcher`.
                        let bound = {
                            let mut c = child.walk();
                            let bounds =
                                child.field("bounds").or_else(|| child.named_children(&mut c).find(|n| self.kind(*n) == "type_bound"));
                            bounds.and_then(|b| self.first_bound(b)).unwrap_or_default()
                        };
                        self.type_params.push((owner.start_byte(), owner.end_byte(), name, bound));
                    }
                }
            }
            Capture::Anonymous => self.anonymous.push(node),
            Capture::Lambda => self.lambdas.push(node),
            Capture::Resource => self.resources.push(node),
            Capture::ImplScope => {
                if let Some(type_node) = impl_type {
                    let self_type = normalize_path(self.text(self.base_type(type_node, false)));
                    let trait_name = impl_trait.map(|t| normalize_path(self.text(self.base_type(t, false))));
                    self.impls.push(Impl { info: ImplInfo { self_type, trait_name, module: None }, trait_node: impl_trait, type_node });
                }
                let _ = node;
            }
            _ => {}
        }
    }

    fn finish(mut self) -> FileExtract {
        let module = match self.spec.language {
            Language::Java => self.package.clone().unwrap_or_default(),
            _ => self.module.clone(),
        };
        self.module = module.clone();
        let scopes = self.scopes();
        let mut outline = self.outline(scopes);
        if self.spec.language == Language::Rust {
            self.macro_values(&mut outline);
        }
        let (mut locals, def_names) = self.variables(&outline);
        let param_types = self.macro_closure_params(&outline, &mut locals);
        let refs = self.refs_by_node(&def_names);
        let (mut references, key_reads, lambda_calls) = self.name_references(&outline, &locals, refs, param_types);
        self.impl_header_refs(&outline, &mut references);
        self.import_refs(&outline, &mut references);
        if self.spec.language == Language::Java {
            self.nameless_implementations(&mut outline, &mut references, &lambda_calls, &locals);
            self.resource_calls(&outline, &mut references);
        }
        let expanded = self.expansion_contexts(&outline);
        let Outline { mut symbols, def_symbol, .. } = outline;
        for (caller, marker) in key_reads {
            let m = &mut symbols[caller].modifiers;
            if !m.split(' ').any(|w| w == marker) {
                add_modifier(m, &marker);
            }
        }
        references.sort_by(|a, b| a.line.cmp(&b.line).then(a.kind.cmp(&b.kind)).then(a.name.cmp(&b.name)));
        match self.spec.language {
            Language::Java => {
                self.framework_symbols(&mut symbols, &def_symbol);
                if references.iter().any(|r| r.kind == RefKind::Imports && r.name.starts_with("lombok.")) {
                    self.lombok_members(&mut symbols, &def_symbol);
                }
                let imports: Vec<(String, bool)> =
                    references.iter().filter(|r| r.kind == RefKind::Imports && !r.is_static).map(|r| (r.name.clone(), r.glob)).collect();
                self.library_members(&mut symbols, &def_symbol, &imports);
            }
            Language::Rust => {
                self.rust_routes(&mut symbols, &def_symbol);
                self.mark_blanket_traits(&mut symbols);
                self.merge_expansions(expanded, &mut symbols, &mut references);
            }
        }

        FileExtract { module: self.module, symbols, references, parse_errors: 0, loc: 0, failure: None, texts: Vec::new() }
    }
}

/// A variable as the queries capture it: its name, and its written type, its initializer
/// or the container whose elements it takes (with the call that passes them to a lambda).
struct LocalDecl<'t> {
    name: Node<'t>,
    ty: Option<Node<'t>>,
    value: Option<Node<'t>>,
    each: Option<Node<'t>>,
    call: Option<Node<'t>>,
    /// The element of a tuple value it takes (`let (a, b) = pair();`).
    index: Option<u32>,
}

#[derive(Default, Clone, Copy)]
struct Context {
    symbol: Option<usize>,
    impl_idx: Option<usize>,
}

/// A node's 1-based line.
fn line_of(node: Node) -> u32 {
    node.start_position().row as u32 + 1
}

fn first_of_kind<'a>(node: Node<'a>, kind: &str) -> Option<Node<'a>> {
    if node.kind() == kind {
        return Some(node);
    }
    let mut cursor = node.walk();
    let children: Vec<Node<'a>> = node.named_children(&mut cursor).collect();
    children.into_iter().find_map(|c| first_of_kind(c, kind))
}

/// Renders an extraction one line per item, for snapshot tests and debugging.
pub fn render(extract: &FileExtract) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "module {:?} loc={} errors={}", extract.module, extract.loc, extract.parse_errors);
    for s in &extract.symbols {
        let _ = write!(out, "{} {} {}-{} vis={}", s.kind, s.qname, s.start_line, s.end_line, s.visibility);
        if !s.modifiers.is_empty() {
            let _ = write!(out, " mods=[{}]", s.modifiers);
        }
        if let Some(info) = &s.impl_of {
            let _ = write!(out, " impl={}", info.self_type);
            if let Some(t) = &info.trait_name {
                let _ = write!(out, " for={t}");
            }
        }
        if let Some(p) = &s.params {
            let _ = write!(out, " params=({p})");
        }
        let _ = write!(out, " sig={:?}", s.signature);
        if !s.doc.is_empty() {
            let _ = write!(out, " doc={:?}", s.doc);
        }
        let _ = writeln!(out);
    }
    for r in &extract.references {
        let from = r.enclosing.map(|i| extract.symbols[i].qname.as_str()).unwrap_or("<file>");
        let _ = write!(out, "  {} {} L{} in {}", r.kind, r.name, r.line, from);
        match &r.receiver {
            Receiver::Implicit => {}
            Receiver::Type(t) => {
                let _ = write!(out, " recv={t}");
            }
            Receiver::Unknown => {
                let _ = write!(out, " recv=?");
            }
        }
        if let Some(a) = &r.args {
            let _ = write!(out, " args=({a})");
        }
        if let Some(s) = &r.subject {
            let _ = write!(out, " subject={s}");
        }
        if let Some(a) = &r.alias {
            let _ = write!(out, " as={a}");
        }
        for (flag, on) in [("glob", r.glob), ("static", r.is_static), ("pub", r.reexport), ("blanket", r.blanket)] {
            if on {
                let _ = write!(out, " {flag}");
            }
        }
        let _ = writeln!(out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::count_loc;

    #[test]
    fn lines_of_code_are_the_lines_trim_leaves_text_on() {
        let text = "a\n\n  \t\n\x0b\n\u{a0}\u{2003}\n\u{a0}x\n \x0c b\r\n\r\n\u{e9}\n\x0b}";
        let by_trim = text.lines().filter(|l| !l.trim().is_empty()).count() as u32;
        // a, " \x0c b", "\u{a0}x", "\u{e9}", "\x0b}"; blank: "", "  \t", "\x0b", nbsp + em space, "\r".
        assert_eq!((count_loc(text), by_trim), (5, 5));
    }
}
