//! Extraction: `(language, source) -> symbols, references, diagnostics`. A generic engine
//! that reads only capture names from the language's query (see `lang`), plus small
//! per-language hooks (import syntax, receiver and expression types); what frameworks make
//! of a file (Spring annotations, Rust routers) is the child module `routes`. It never
//! fails: syntax errors are counted and the rest of the tree is still used. It does no IO.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::cell::RefCell;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use streaming_iterator::StreamingIterator;
use tree_sitter::{Node, Parser, QueryCursor, Tree};

use crate::frameworks;
use crate::lang::{Capture, LanguageSpec};
use crate::model::{FileExtract, ImplInfo, Language, Receiver, RefKind, Reference, Symbol, SymbolKind};

mod java;
mod routes;
mod rust;

/// Variables by (the symbol that scopes them, name): their type as a receiver takes it.
type Locals<'t> = HashMap<(Option<usize>, &'t str), String>;

/// The most links of a call chain (or nested operands) whose type extraction follows.
const MAX_CHAIN: usize = 48;

/// Longest one-line signature kept, in characters.
const MAX_SIGNATURE: usize = 200;
/// Longest doc summary kept, in characters.
const MAX_DOC: usize = 240;

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

/// Which engine runs the query: ours (`matcher`), or tree-sitter's `QueryCursor`, kept as
/// the reference the matcher is tested against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Matcher,
    TreeSitter,
}

/// `extract` with a chosen query engine.
pub fn extract_with(spec: &'static LanguageSpec, source: &str, module: &str, engine: Engine) -> FileExtract {
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
    let mut extractor =
        Extractor { spec, src: source, module: module.to_string(), ..Extractor::default_for(spec, &query.kind_names, source) };
    let complete = extractor.collect(&tree, query, engine);
    let mut out = extractor.finish();
    if !complete {
        out.failure = Some(format!("query stopped after its {} s budget; symbols indexed in part", TIME_BUDGET.as_secs()));
    }
    out.loc = loc;
    out.parse_errors = count_errors(tree.root_node());
    out.texts = body_text(spec, tree.root_node(), source, &out.symbols);
    out
}

/// At most this many distinct words of body text are kept per declaration.
const MAX_TEXT_WORDS: usize = 64;
/// A literal or comment longer than this is data (a table, a licence), not words about the code.
const MAX_TEXT_NODE: usize = 2000;

/// The words of the string literals and comments (not docs) inside each declaration, given
/// to the innermost declaration whose lines hold them: lower case, identifiers split, three
/// letters or more, each once, at most `MAX_TEXT_WORDS` per declaration.
fn body_text(spec: &LanguageSpec, root: Node, source: &str, symbols: &[Symbol]) -> Vec<(usize, String)> {
    let last = symbols.iter().map(|s| s.end_line as usize).max().unwrap_or(0);
    // The innermost declaration of each line: wider ones first, narrower ones over them.
    let mut by_width: Vec<usize> = (0..symbols.len()).filter(|&i| symbols[i].kind != SymbolKind::Package).collect();
    by_width.sort_by_key(|&i| std::cmp::Reverse(symbols[i].end_line.saturating_sub(symbols[i].start_line)));
    let mut inner: Vec<Option<usize>> = vec![None; last + 1];
    for i in by_width {
        for line in symbols[i].start_line as usize..=(symbols[i].end_line as usize).min(last) {
            inner[line] = Some(i);
        }
    }
    let mut words: Vec<(Vec<String>, HashSet<String>)> = vec![Default::default(); symbols.len()];
    let mut cursor = root.walk();
    let mut descend = true;
    loop {
        let node = cursor.node();
        let kind = node.kind();
        let is_text = spec.string_kinds.contains(&kind) || spec.comment_kinds.contains(&kind);
        if is_text && descend {
            let text = node.utf8_text(source.as_bytes()).unwrap_or("");
            let doc =
                spec.comment_kinds.contains(&kind) && spec.doc_prefixes.iter().chain(spec.inner_doc_prefixes).any(|p| text.starts_with(p));
            let line = node.start_position().row + 1;
            if let (false, true, Some(Some(owner))) = (doc, text.len() <= MAX_TEXT_NODE, inner.get(line)) {
                let (list, seen) = &mut words[*owner];
                // The cap ends the whole literal or comment, not only the word.
                'text: for w in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
                    for part in crate::model::name_words(w).split_whitespace() {
                        if list.len() >= MAX_TEXT_WORDS {
                            break 'text;
                        }
                        if part.chars().count() >= 3 && !part.chars().all(|c| c.is_ascii_digit()) && seen.insert(part.to_string()) {
                            list.push(part.to_string());
                        }
                    }
                }
            }
        }
        if descend && !is_text && cursor.goto_first_child() {
            continue;
        }
        if cursor.goto_next_sibling() {
            descend = true;
            continue;
        }
        if !cursor.goto_parent() {
            break;
        }
        descend = false;
    }
    words.into_iter().enumerate().filter(|(_, (list, _))| !list.is_empty()).map(|(i, (list, _))| (i, list.join(" "))).collect()
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
    /// The name node's parent when the matcher knew it (the name was the match's root).
    parent: Option<Option<Node<'t>>>,
}

#[derive(Clone, Copy)]
enum ScopeWhat {
    /// A definition; its symbol index once known (None when it is skipped).
    Def(usize),
    Anonymous,
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
    impls: Vec<Impl<'t>>,
    /// Type parameters: the owner's byte range, the name, and the erasure of the first
    /// bound (empty when unbounded).
    type_params: Vec<(usize, usize, String, String)>,
    /// How many receivers `typed_receiver` is computing, one inside the other.
    receiver_depth: std::cell::Cell<usize>,
    package: Option<String>,
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
            impls: Vec::new(),
            type_params: Vec::new(),
            receiver_depth: std::cell::Cell::new(0),
            package: None,
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

    /// Gathers every match; false if the time budget ran out first.
    fn collect(&mut self, tree: &'t Tree, query: &crate::lang::CompiledQuery, engine: Engine) -> bool {
        let deadline = Instant::now() + TIME_BUDGET;
        let mut n = 0u32;
        let mut in_time = || {
            n = n.wrapping_add(1);
            !n.is_multiple_of(1024) || Instant::now() <= deadline
        };
        match engine {
            Engine::Matcher => query.matcher.run(tree, &mut |m, root, root_parent| {
                self.take_match(m.iter().copied(), &query.captures, Some((root, root_parent)));
                in_time()
            }),
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
                    self.take_match(m.captures.iter().map(|c| (c.index, c.node)), &reference.captures, None);
                    if !in_time() {
                        return false;
                    }
                }
                true
            }
        }
    }

    /// One match; `root` is the node it is rooted at and that node's parent, when known.
    fn take_match(
        &mut self,
        captures: impl Iterator<Item = (u32, Node<'t>)>,
        names: &[Capture],
        root: Option<(Node<'t>, Option<Node<'t>>)>,
    ) {
        let mut main: Option<(Capture, Node<'t>)> = None;
        let mut name = None;
        let mut receiver = None;
        let mut args = None;
        let mut local_name = None;
        let mut local_type = None;
        let mut local_value = None;
        let mut local_each = None;
        let mut local_call = None;
        let mut impl_type = None;
        let mut impl_trait = None;
        for (index, node) in captures {
            match names[index as usize] {
                Capture::Name => name = Some(node),
                Capture::Receiver => receiver = Some(node),
                Capture::Arguments => args = Some(node),
                Capture::LocalName => local_name = Some(node),
                Capture::LocalType => local_type = Some(node),
                Capture::LocalValue => local_value = Some(node),
                Capture::LocalEach => local_each = Some(node),
                Capture::LocalCall => local_call = Some(node),
                Capture::ImplType => impl_type = Some(node),
                Capture::ImplTrait => impl_trait = Some(node),
                other => main = Some((other, node)),
            }
        }
        if let Some(n) = local_name {
            self.locals.push(LocalDecl { name: n, ty: local_type, value: local_value, each: local_each, call: local_call });
            return;
        }
        let Some((capture, node)) = main else {
            return;
        };
        match capture {
            Capture::Definition(kind) => {
                if let Some(name) = name {
                    self.defs.push(Def { node, name, kind });
                }
            }
            Capture::Reference(kind) => {
                let name = name.unwrap_or(node);
                let parent = root.filter(|(r, _)| *r == name).map(|(_, p)| p);
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
                    let Some(left) = predicate.child_by_field_name("left").filter(|l| self.kind(*l) == "type_identifier") else { continue };
                    let name = self.text(left).to_string();
                    let Some(bound) = predicate.child_by_field_name("bounds").and_then(|b| self.first_bound(b)) else { continue };
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
                            let bounds = child
                                .child_by_field_name("bounds")
                                .or_else(|| child.named_children(&mut c).find(|n| self.kind(*n) == "type_bound"));
                            bounds.and_then(|b| self.first_bound(b)).unwrap_or_default()
                        };
                        self.type_params.push((owner.start_byte(), owner.end_byte(), name, bound));
                    }
                }
            }
            Capture::Anonymous => self.anonymous.push(node),
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

    /// The path a type node names, without generic arguments, references or `dyn`.
    fn type_path(&self, node: Node) -> String {
        normalize_path(self.text(self.base_type(node, true)))
    }

    /// Unwraps generic wrappers (`List<Foo>` -> `List`) and Rust reference types.
    fn base_type(&self, mut node: Node<'t>, deref: bool) -> Node<'t> {
        loop {
            let kind = self.kind(node);
            let next = if let Some(inner) = self.wrapped_type(node).filter(|_| deref) {
                Some(inner)
            } else if self.spec.generic_kinds.contains(&kind) {
                node.child_by_field_name("type").or_else(|| node.child_by_field_name("function")).or_else(|| node.named_child(0))
            } else if matches!(kind, "reference_type" | "pointer_type" | "array_type" | "dynamic_type" | "abstract_type") {
                node.child_by_field_name("type")
                    .or_else(|| node.child_by_field_name("element"))
                    .or_else(|| node.child_by_field_name("trait"))
                    .or_else(|| node.named_child(node.named_child_count().saturating_sub(1) as u32))
            } else {
                None
            };
            match next {
                Some(n) if n.id() != node.id() => node = n,
                _ => return node,
            }
        }
    }

    /// `Option<T>` and `Result<T, E>` (the language's `unwrapped_returns`) as a chain sees
    /// them: `T`, which `?`, `unwrap()` and `expect()` give.
    fn unwrapped(&self, node: Node<'t>) -> Node<'t> {
        let mut node = node;
        for _ in 0..4 {
            let inner = (self.kind(node) == "generic_type")
                .then(|| node.child_by_field_name("type"))
                .flatten()
                .filter(|base| self.spec.unwrapped_returns.contains(&crate::model::last_segment(self.text(*base))))
                .and_then(|_| node.child_by_field_name("type_arguments"))
                .and_then(|args| args.named_child(0));
            match inner {
                Some(i) => node = i,
                None => break,
            }
        }
        node
    }

    /// An array or slice type, behind any references (`int[]`, `&[u32]`, `&mut [T; 4]`).
    fn is_array(&self, mut node: Node<'t>) -> bool {
        loop {
            match self.kind(node) {
                "array_type" => return true,
                "reference_type" | "pointer_type" => match node.child_by_field_name("type") {
                    Some(inner) => node = inner,
                    None => return false,
                },
                _ => return false,
            }
        }
    }

    /// A container's type with its element, as receivers write it (`List<Pet>`,
    /// `Vec<Match>`, `slice<Match>` for `&[Match]`; through references and smart pointers):
    /// what a loop, a lambda or a `get` on it gives is the element (`Elements`).
    fn container_type(&self, node: Node<'t>) -> Option<String> {
        let mut node = node;
        loop {
            match self.kind(node) {
                "reference_type" | "pointer_type" => node = node.child_by_field_name("type")?,
                _ => match self.wrapped_type(node) {
                    Some(inner) => node = inner,
                    None => break,
                },
            }
        }
        let (base, arg) = match self.kind(node) {
            "array_type" if self.spec.language == Language::Rust => ("slice".to_string(), node.child_by_field_name("element")?),
            kind if self.spec.generic_kinds.contains(&kind) => {
                let base = self.type_path(node.child_by_field_name("type").or_else(|| node.named_child(0))?);
                let name = crate::model::last_segment(&base);
                if !self.spec.elements().is_container(name) {
                    return None;
                }
                let mut cursor = node.walk();
                let args = node.named_children(&mut cursor).find(|c| self.kind(*c) == "type_arguments")?;
                (name.to_string(), args.named_child(0)?)
            }
            _ => return None,
        };
        // `? extends Pet` is a `Pet`; a bare `?` is nothing known.
        let arg = if self.kind(arg) == "wildcard" { arg.named_child(arg.named_child_count().checked_sub(1)? as u32)? } else { arg };
        let element = self.type_path(arg);
        (!element.is_empty() && !element.contains(['?', '<', '>'])).then(|| format!("{base}<{element}>"))
    }

    /// For smart pointers that deref to their content (`Arc<dyn Gateway>`): the content.
    fn wrapped_type(&self, node: Node<'t>) -> Option<Node<'t>> {
        if !self.spec.generic_kinds.contains(&self.kind(node)) {
            return None;
        }
        let base = node.child_by_field_name("type")?;
        if !self.spec.deref_wrappers.contains(&self.text(base)) {
            return None;
        }
        node.child_by_field_name("type_arguments")?.named_child(0)
    }

    fn finish(mut self) -> FileExtract {
        let module = match self.spec.language {
            Language::Java => self.package.clone().unwrap_or_default(),
            _ => self.module.clone(),
        };
        self.module = module.clone();
        let scopes = self.scopes();
        let outline = self.outline(scopes);
        let (mut locals, def_names) = self.variables(&outline);
        let param_types = self.macro_closure_params(&outline, &mut locals);
        let refs = self.refs_by_node(&def_names);
        let (mut references, key_reads) = self.name_references(&outline, &locals, refs, param_types);
        self.impl_header_refs(&outline, &mut references);
        self.import_refs(&outline, &mut references);
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
            }
            Language::Rust => self.rust_routes(&mut symbols, &def_symbol),
        }

        FileExtract { module: self.module, symbols, references, parse_errors: 0, loc: 0, failure: None, texts: Vec::new() }
    }

    /// Definitions, de-duplicated (one node may match twice), with anonymous bodies and impl
    /// blocks, as scopes ordered so that a parent comes before its children.
    fn scopes(&mut self) -> Vec<Scope> {
        let mut seen = HashSet::default();
        self.defs.retain(|d| seen.insert((d.node.id(), d.name.id())));
        let mut scopes: Vec<Scope> = Vec::new();
        for (i, d) in self.defs.iter().enumerate() {
            scopes.push(Scope { start: d.node.start_byte(), end: d.node.end_byte(), node_id: d.node.id(), what: ScopeWhat::Def(i) });
        }
        for a in &self.anonymous {
            scopes.push(Scope { start: a.start_byte(), end: a.end_byte(), node_id: a.id(), what: ScopeWhat::Anonymous });
        }
        for (i, imp) in self.impls.iter().enumerate() {
            let node = imp.type_node.parent().unwrap_or(imp.type_node);
            scopes.push(Scope { start: node.start_byte(), end: node.end_byte(), node_id: node.id(), what: ScopeWhat::Impl(i) });
        }
        scopes.sort_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));

        scopes
    }

    /// Pass 1: symbols, with parents, qualified names and impl membership; each scope's
    /// enclosing scope (for `context_at`).
    fn outline(&mut self, scopes: Vec<Scope>) -> Outline {
        let mut symbols: Vec<Symbol> = Vec::new();
        let mut def_symbol: Vec<Option<usize>> = vec![None; self.defs.len()];
        // Each scope's enclosing scope (an index into `scopes`), for `context_at`.
        let mut scope_parent: Vec<Option<usize>> = vec![None; scopes.len()];
        let mut stack: Vec<usize> = Vec::new();
        for (k, scope) in scopes.iter().enumerate() {
            while stack.last().is_some_and(|&top| scopes[top].end <= scope.start && scopes[top].node_id != scope.node_id) {
                stack.pop();
            }
            // Siblings on one node (`int a, b;`) share the node's parent, not each other.
            let enclosing_idx = stack.iter().rev().find(|&&s| scopes[s].node_id != scope.node_id).copied();
            scope_parent[k] = enclosing_idx;
            // An impl block inside an inline module: its members' names and self type start there.
            if let ScopeWhat::Impl(i) = scope.what {
                let mut up = enclosing_idx;
                while let Some(u) = up {
                    if let ScopeWhat::Def(d) = scopes[u].what {
                        if let Some(sym) = def_symbol[d].filter(|s| symbols[*s].kind == SymbolKind::Module) {
                            self.impls[i].info.module = Some(symbols[sym].qname.clone());
                            break;
                        }
                    }
                    up = scope_parent[u];
                }
            }
            if let ScopeWhat::Def(def_idx) = scope.what {
                let enclosing = enclosing_idx.map(|i| scopes[i]);
                let def = self.defs[def_idx];
                let symbol = match enclosing.map(|s| s.what) {
                    None => Some(self.make_symbol(def, None, None, &symbols)),
                    Some(ScopeWhat::Def(parent_def)) => def_symbol[parent_def].map(|p| self.make_symbol(def, Some(p), None, &symbols)),
                    Some(ScopeWhat::Anonymous) => None,
                    Some(ScopeWhat::Impl(i)) => Some(self.make_symbol(def, None, Some(i), &symbols)),
                };
                if let Some(symbol) = symbol {
                    def_symbol[def_idx] = Some(symbols.len());
                    symbols.push(symbol);
                }
            }
            stack.push(k);
        }

        Outline { scopes, scope_parent, symbols, def_symbol }
    }

    /// Pass 2: variables, keyed by the symbol that scopes them: a field by its type, a
    /// local or parameter by its method (or by the field whose initializer holds it). The
    /// type is empty when not written (lambda parameters). Also the definitions' name nodes.
    fn variables(&mut self, outline: &Outline) -> (Locals<'t>, HashSet<usize>) {
        let Outline { scopes, scope_parent, symbols, def_symbol } = outline;
        let def_names: HashSet<usize> = self.defs.iter().map(|d| d.name.id()).collect();
        let mut locals: Locals<'t> = HashMap::default();
        let local_list = std::mem::take(&mut self.locals);
        // Java's `var` is no type: the initializer or the loop's container says it.
        let written = |l: &LocalDecl<'t>| l.ty.filter(|t| !(self.spec.language == Language::Java && self.text(*t) == "var"));
        let typed: HashSet<usize> = local_list.iter().filter(|l| written(l).is_some()).map(|l| l.name.id()).collect();
        let elements = self.spec.elements();
        let passes = |l: &LocalDecl<'t>| l.each.is_some() && l.call.is_none_or(|c| elements.passes_elements(self.text(c)));
        let each: HashSet<usize> = local_list.iter().filter(|l| passes(l)).map(|l| l.name.id()).collect();
        let valued: HashSet<usize> = local_list.iter().filter(|l| l.value.is_some()).map(|l| l.name.id()).collect();
        for l in &local_list {
            let (name_node, value) = (&l.name, &l.value);
            let type_node = &written(l);
            let ctx = self.context_at(name_node.start_byte(), scopes, scope_parent, def_symbol);
            if let Some(container) = l.each {
                // A loop's or a lambda's variable: an element of the container (`X@`, which
                // the resolver follows), unless a type is written for it.
                if typed.contains(&name_node.id()) || !passes(l) {
                    continue;
                }
                let type_text = match self.typed_receiver(container, &ctx, symbols, &locals) {
                    Receiver::Type(t) if t.ends_with("[]") => t[..t.len() - 2].to_string(),
                    // A Java type written without its element (`Map`) has none to give.
                    Receiver::Type(t) if self.spec.language == Language::Java && !t.contains(['#', '<', '@']) => String::new(),
                    Receiver::Type(t) => format!("{}@", self.same_elements(&t)),
                    _ => String::new(),
                };
                // One name for variables of different types in one method (`p` of pets in one
                // lambda, of owners in the next): unknown rather than the wrong one.
                match locals.entry((ctx.symbol, self.text(*name_node))) {
                    std::collections::hash_map::Entry::Vacant(v) => {
                        v.insert(type_text);
                    }
                    std::collections::hash_map::Entry::Occupied(mut o) if *o.get() != type_text => {
                        o.insert(String::new());
                    }
                    _ => {}
                }
                continue;
            }
            if type_node.is_none() && value.is_none() && (each.contains(&name_node.id()) || valued.contains(&name_node.id())) {
                continue;
            }
            if let (None, Some(value)) = (type_node, value) {
                // The type of the initializer, as a receiver (`Owner#m()` for a call chain),
                // unless another pattern gave the variable a written type.
                if typed.contains(&name_node.id()) {
                    continue;
                }
                let owner = ctx.symbol;
                if let Some(name) = self.tuple_struct_call(*value) {
                    // `let c = Count(0);`: a tuple struct's constructor, by Rust's naming.
                    locals.entry((owner, self.text(*name_node))).or_insert(name.to_string());
                    continue;
                }
                let type_text = match self.typed_receiver(*value, &ctx, symbols, &locals) {
                    Receiver::Type(t) if !t.contains("[]") => t,
                    _ => String::new(),
                };
                locals.entry((owner, self.text(*name_node))).or_insert(type_text);
                continue;
            }
            let mut owner = ctx.symbol;
            if let Some(o) = owner {
                if symbols[o].kind == SymbolKind::Field && def_names.contains(&name_node.id()) {
                    owner = symbols[o].parent;
                }
            }
            // An array has no members of its element type (`a.length`, `a.clone()`).
            // (Read from the text: a node's parent or sibling costs a walk from the root.)
            let array = type_node.is_some_and(|t| {
                self.is_array(t)
                    || (t.end_byte() <= name_node.start_byte() && self.src[t.end_byte()..name_node.start_byte()].contains("..."))
            }) || self.src[name_node.end_byte()..].trim_start().starts_with('[');
            // An array keeps its element type with `[]` (overload resolution compares it); as a
            // receiver it is unknown (`receiver`).
            let type_text = match *type_node {
                Some(t) if array && self.spec.language == Language::Java => {
                    // `T... xs` and `int xs[]` are arrays whose type node is the element's.
                    let mut erased = self.erased_type(t, name_node.start_byte());
                    if !erased.ends_with("[]") {
                        erased.push_str("[]");
                    }
                    erased
                }
                // A Rust slice or array: the container `slice<T>` (`for m in ms`).
                Some(t) if array => self.container_type(t).unwrap_or_default(),
                // A container keeps its element (`List<Pet>`); a type parameter is its
                // erasure (its first bound, else `Object`).
                Some(t) if self.spec.language == Language::Java => match self.container_type(t) {
                    Some(container) => container,
                    None => {
                        let path = self.type_path(t);
                        self.type_param_erasure(&path, name_node.start_byte()).map(str::to_string).unwrap_or(path)
                    }
                },
                // Rust: a type parameter bound by a trait has that trait's methods.
                Some(t) => match self.container_type(t) {
                    Some(container) => container,
                    None => {
                        let path = self.type_path(t);
                        match self.type_param_bound(&path, name_node.start_byte()) {
                            Some(bound) => bound.to_string(),
                            None => path,
                        }
                    }
                },
                None => String::new(),
            };
            locals.entry((owner, self.text(*name_node))).or_insert(type_text);
        }

        (locals, def_names)
    }

    /// A container through calls that keep its elements (`slice<Match>#iter()#enumerate()`,
    /// `Owner#getPets()#stream()`) is that container (`slice<Match>`, `Owner#getPets()`): the
    /// same elements written one way, so that two loops over them agree on their variable's
    /// type.
    fn same_elements<'a>(&self, t: &'a str) -> &'a str {
        let elements = self.spec.elements();
        let mut base = t;
        while let Some((before, link)) = base.rsplit_once('#') {
            match link.strip_suffix("()") {
                Some(call) if elements.keeps_elements(call) && !before.is_empty() => base = before,
                _ => break,
            }
        }
        base
    }

    /// Closure parameters with written types in the tokens of macros read as code
    /// (`rgtest!(name, |dir: Dir, mut cmd: TestCommand| { cmd.arg(..) })`): locals of the
    /// place the macro is invoked in, and type uses; and macros invoked in the tokens.
    fn macro_closure_params(&self, outline: &Outline, locals: &mut Locals<'t>) -> Vec<Reference> {
        let Outline { scopes, scope_parent, def_symbol, .. } = outline;
        let mut param_types: Vec<Reference> = Vec::new();
        if !self.spec.token_macros.is_empty() {
            for r in self.refs.iter().filter(|r| r.kind == RefKind::Expands) {
                let Some(invocation) = r.name.parent().filter(|p| self.kind(*p) == "macro_invocation") else { continue };
                let mut cursor = invocation.walk();
                let Some(tree) = invocation.children(&mut cursor).find(|c| self.kind(*c) == "token_tree") else { continue };
                // Most invocations hold no closure and no macro: their text says so without a walk.
                let text = self.text(tree);
                if !(text.contains('|') || text.contains('!')) || !self.in_code_macro(tree) {
                    continue;
                }
                let ctx = self.context_at(tree.start_byte(), &scopes, &scope_parent, &def_symbol);
                let (params, macros) = self.macro_tokens(tree);
                for (name, ty, line) in params {
                    // The parameter's type is a type use, as it is outside a macro.
                    param_types.push(Reference::new(RefKind::UsesType, ty.clone(), line, ctx.symbol));
                    locals.entry((ctx.symbol, name)).or_insert(ty);
                }
                // Macros invoked in the tokens (`eqnice!(..)` inside `rgtest!(..)`).
                for (name, line) in macros {
                    param_types.push(Reference::new(RefKind::Expands, name.to_string(), line, ctx.symbol));
                }
            }
        }
        param_types
    }

    /// Pass 3's captures, one per name node and sort (the most specific kind wins; a name
    /// before a dot is both a possible type and a possible variable), in source order.
    fn refs_by_node(&mut self, def_names: &HashSet<usize>) -> Vec<Ref<'t>> {
        let impl_self_ranges: Vec<(usize, usize)> = self.impls.iter().map(|i| (i.type_node.start_byte(), i.type_node.end_byte())).collect();
        let impl_trait_nodes: HashSet<usize> =
            self.impls.iter().filter_map(|i| i.trait_node).map(|t| self.base_type(t, false).id()).collect();
        let raw_refs = std::mem::take(&mut self.refs);
        let mut by_node: HashMap<(usize, bool), Ref<'t>> = HashMap::with_capacity_and_hasher(raw_refs.len(), Default::default());
        for mut r in raw_refs {
            if self.spec.generic_kinds.contains(&self.kind(r.name)) {
                r.name = self.base_type(r.name, false);
                r.parent = None;
            }
            if def_names.contains(&r.name.id()) || impl_trait_nodes.contains(&r.name.id()) {
                continue;
            }
            if r.kind == RefKind::UsesType
                && r.parent.unwrap_or_else(|| r.name.parent()).is_some_and(|p| self.spec.path_kinds.contains(&self.kind(p)))
            {
                continue;
            }
            let start = r.name.start_byte();
            if impl_self_ranges.iter().any(|(s, e)| *s <= start && start < *e) {
                continue;
            }
            let key = (r.name.id(), r.kind == RefKind::UsesField);
            match by_node.get(&key) {
                Some(existing) if existing.kind.priority() >= r.kind.priority() => {}
                _ => {
                    by_node.insert(key, r);
                }
            }
        }
        // `x.m()`: the name is a call, not also a field.
        let called: HashSet<usize> = by_node.iter().filter(|(_, r)| r.kind == RefKind::Calls).map(|((id, _), _)| *id).collect();
        by_node.retain(|(id, field), _| !*field || !called.contains(id));
        let mut refs: Vec<Ref<'t>> = by_node.into_values().collect();
        refs.sort_by_cached_key(|r| (r.name.start_byte(), r.name.id()));

        refs
    }

    /// Pass 3: each captured name as a reference, with its receiver and argument types;
    /// and the configuration keys read by name (`env.getProperty("k")`), as (caller, marker).
    fn name_references(
        &self,
        outline: &Outline,
        locals: &Locals<'t>,
        refs: Vec<Ref<'t>>,
        param_types: Vec<Reference>,
    ) -> (Vec<Reference>, Vec<(usize, String)>) {
        let Outline { scopes, scope_parent, symbols, def_symbol } = outline;
        // `use` declarations: their paths are imports, not also accesses.
        let import_ranges: Vec<(usize, usize)> = self.imports.iter().map(|n| (n.start_byte(), n.end_byte())).collect();
        let mut references = param_types;
        // Configuration keys read by name (`env.getProperty("k")`): (caller, marker).
        let mut key_reads: Vec<(usize, String)> = Vec::new();
        for r in refs {
            if r.kind == RefKind::Accesses && import_ranges.iter().any(|(s, e)| *s <= r.name.start_byte() && r.name.start_byte() < *e) {
                continue;
            }
            let ctx = self.context_at(r.name.start_byte(), &scopes, &scope_parent, &def_symbol);
            let mut name = if r.kind == RefKind::Instantiates && self.kind(r.name) == "argument_list" {
                // An enum constant's arguments (`SUCCESS(200, "ok")`): its enum is created.
                match ctx.symbol.and_then(|c| symbols[c].parent) {
                    Some(e) if symbols[e].kind == SymbolKind::Enum => symbols[e].name.clone(),
                    _ => continue,
                }
            } else {
                normalize_path(self.text(r.name))
            };
            if name.is_empty() || name == "var" {
                continue;
            }
            if !name.contains(['.', ':']) && self.is_type_param(&name, r.name.start_byte()) {
                continue;
            }
            if let Some(replacement) = self.self_type(&ctx, &symbols) {
                name = replace_self(&name, &replacement);
            }
            // A bare name that is a local or parameter is neither a field nor a type.
            if matches!(r.kind, RefKind::UsesField | RefKind::Accesses)
                && r.receiver.is_none()
                && self.kind(r.name) == "identifier"
                && is_local(&name, ctx.symbol, &symbols, &locals)
            {
                continue;
            }
            let line = r.name.start_position().row as u32 + 1;
            let mut reference = Reference::new(r.kind, name, line, ctx.symbol);
            if matches!(r.kind, RefKind::Calls | RefKind::UsesField | RefKind::MethodRef) {
                reference.receiver = match r.receiver {
                    None => Receiver::Implicit,
                    // A call in a macro's tokens: read like code in the macros whose arguments
                    // are code (`assert!`), else matched by name only.
                    Some(recv) if self.kind(recv) == "token_tree" && self.in_code_macro(recv) => {
                        let (path, receiver) = self.token_call(r.name, &ctx, &symbols, &locals, 0);
                        if let Some(path) = path {
                            reference.name = path;
                        }
                        receiver
                    }
                    Some(recv) => self.receiver(recv, &ctx, &symbols, &locals),
                };
            }
            if let Some(args) = r.args {
                reference.args = Some(self.arg_types(args, &ctx, &symbols, &locals).into_boxed_str());
                if let (Receiver::Type(t), Some(caller)) = (&reference.receiver, ctx.symbol) {
                    // A configuration key read by name (`env.getProperty("k")`), a MyBatis
                    // statement run by its id (`sqlSession.selectList("ns.id")`).
                    let keyed = frameworks::property_call(&reference.name, t)
                        .and_then(|m| self.property_key(args, m, true))
                        .or_else(|| frameworks::mybatis::session_call(&reference.name, t).and_then(|m| self.property_key(args, m, false)));
                    if let Some(marker) = keyed {
                        key_reads.push((caller, marker));
                    }
                }
            }
            references.push(reference);
        }

        (references, key_reads)
    }

    /// Impl headers: `impl Trait for Type` makes Type implement Trait.
    fn impl_header_refs(&self, outline: &Outline, references: &mut Vec<Reference>) {
        let Outline { scopes, scope_parent, def_symbol, .. } = outline;
        for imp in &self.impls {
            if let (Some(trait_name), Some(trait_node)) = (&imp.info.trait_name, imp.trait_node) {
                let line = trait_node.start_position().row as u32 + 1;
                let ctx = self.context_at(trait_node.start_byte(), &scopes, &scope_parent, &def_symbol);
                let mut reference = Reference::new(RefKind::Implements, trait_name.clone(), line, ctx.symbol);
                reference.blanket = self.is_type_param(&imp.info.self_type, imp.type_node.start_byte())
                    || (self.blanket_form(imp).is_some() && !std_path(&imp.info.self_type));
                reference.subject = Some(if reference.blanket {
                    self.text(imp.type_node).split_whitespace().collect::<Vec<_>>().join(" ")
                } else {
                    imp.info.self_type.clone()
                });
                references.push(reference);
            }
        }
    }

    /// Imports, through the language's own syntax.
    fn import_refs(&mut self, outline: &Outline, references: &mut Vec<Reference>) {
        let Outline { scopes, scope_parent, def_symbol, .. } = outline;
        for node in std::mem::take(&mut self.imports) {
            let ctx = self.context_at(node.start_byte(), &scopes, &scope_parent, &def_symbol);
            let line = node.start_position().row as u32 + 1;
            match self.spec.language {
                Language::Java => references.extend(java::java_import(self.text(node), line)),
                Language::Rust => {
                    let reexport = node.named_child(0).is_some_and(|c| self.kind(c) == "visibility_modifier");
                    if self.kind(node) == "extern_crate_declaration" {
                        // `extern crate x as y;` brings crate `x` in as `y`, as `use x as y;` does.
                        let Some(name) = node.child_by_field_name("name").map(|n| self.text(n)).filter(|n| *n != "self") else { continue };
                        let mut reference = Reference::new(RefKind::Imports, name.to_string(), line, ctx.symbol);
                        reference.alias = node.child_by_field_name("alias").map(|a| self.text(a).to_string());
                        reference.reexport = reexport;
                        references.push(reference);
                    } else if let Some(argument) = node.child_by_field_name("argument") {
                        let mut out = Vec::new();
                        self.rust_use_tree(argument, "", &mut out);
                        // Each item on its own line (a `use` list may span many).
                        for (path, alias, glob, item_line) in out {
                            let mut reference = Reference::new(RefKind::Imports, path, item_line, ctx.symbol);
                            reference.alias = alias;
                            reference.glob = glob;
                            reference.reexport = reexport;
                            references.push(reference);
                        }
                    }
                }
            }
        }
    }

    fn make_symbol(&self, def: Def, parent: Option<usize>, impl_idx: Option<usize>, symbols: &[Symbol]) -> Symbol {
        let name = self.text(def.name).to_string();
        let spec = self.spec;
        let qname = match (parent, impl_idx) {
            (Some(p), _) => {
                let sep = if def.kind.is_member() { spec.member_separator } else { spec.type_separator };
                format!("{}{}{}", symbols[p].qname, sep, name)
            }
            (None, Some(i)) => {
                let module = self.impls[i].info.module.as_deref().unwrap_or(&self.module);
                match self.blanket_form(&self.impls[i]) {
                    // `impl<S: Sink> Sink for &mut S`: the method belongs to no type; it is
                    // named as Rust names it, `<&mut S as Sink>::matched`.
                    Some(form) => join(&join(module, spec.type_separator, &form), spec.member_separator, &name),
                    None => {
                        let self_type = crate::model::last_segment(&self.impls[i].info.self_type);
                        join(&join(module, spec.type_separator, self_type), spec.member_separator, &name)
                    }
                }
            }
            (None, None) => join(&self.module, spec.type_separator, &name),
        };
        let kind = match (def.kind, impl_idx, parent.map(|p| symbols[p].kind)) {
            (SymbolKind::Function, Some(_), _) => SymbolKind::Method,
            (SymbolKind::Function, None, Some(SymbolKind::Trait)) => SymbolKind::Method,
            (kind, _, _) => kind,
        };
        let (mut visibility, mut modifiers) = self.modifiers(def.node);
        if kind.is_callable() && self.is_test_function(def.node) {
            add_modifier(&mut modifiers, spec.test_marker);
        }
        // Members of a Java interface or annotation type are implicitly public (JLS 9.4).
        if spec.language == Language::Java
            && visibility == spec.default_visibility
            && parent.is_some_and(|p| matches!(symbols[p].kind, SymbolKind::Interface | SymbolKind::Annotation))
        {
            visibility = "public".to_string();
        }
        Symbol {
            kind,
            name,
            qname,
            parent,
            visibility,
            modifiers,
            signature: if kind == SymbolKind::Macro { format!("macro_rules! {}", self.text(def.name)) } else { self.signature(def.node) },
            doc: self.doc(def.node),
            start_line: def.node.start_position().row as u32 + 1,
            end_line: def.node.end_position().row as u32 + 1,
            impl_of: impl_idx.map(|i| {
                let mut info = self.impls[i].info.clone();
                // A blanket impl's methods attach to no type of the same name as its parameter.
                if let Some(form) = self.blanket_form(&self.impls[i]) {
                    info.self_type = form;
                }
                info
            }),
            // A container keeps its element (`List<Pet>`, `slice<Match>`); another array is
            // no receiver.
            returns: if kind.is_callable() || matches!(kind, SymbolKind::Field | SymbolKind::Const | SymbolKind::Static) {
                def.node
                    .child_by_field_name("type")
                    .or_else(|| def.node.child_by_field_name("return_type"))
                    .map(|t| self.unwrapped(t))
                    .and_then(|t| self.container_type(t).or_else(|| (!self.is_array(t)).then(|| self.type_path(t))))
                    .filter(|t| !t.is_empty())
            } else {
                None
            },
            params: if kind.is_callable() && spec.language == Language::Java { self.params(def.node) } else { None },
        }
    }

    fn signature(&self, node: Node) -> String {
        let end = node.child_by_field_name("body").map(|b| b.start_byte()).unwrap_or(node.end_byte());
        // Annotations are not the signature: a long `@RequestMapping(...)` would push the
        // name past the cut. The modifier words stay.
        let mut start = node.start_byte();
        let mut words: Vec<&str> = Vec::new();
        let mut cursor = node.walk();
        if let Some(modifiers) = node.children(&mut cursor).find(|c| self.kind(*c) == "modifiers") {
            let mut inner = modifiers.walk();
            for word in modifiers.children(&mut inner) {
                if !self.kind(word).ends_with("annotation") {
                    words.extend(self.text(word).split_whitespace());
                }
            }
            start = modifiers.end_byte();
        }
        // Trailing braces, semicolons and spaces off, words joined by one space, and no more
        // words read than the cut keeps (a field's initializer can be a table of thousands).
        let text = self.src[start..end.max(start)].trim_end_matches(|c: char| c == '{' || c == ';' || c.is_whitespace());
        let mut out = String::new();
        let mut chars = 0;
        for word in words.into_iter().chain(text.split_whitespace()) {
            if !out.is_empty() {
                out.push(' ');
                chars += 1;
            }
            out.push_str(word);
            chars += word.chars().count();
            if chars > MAX_SIGNATURE {
                break;
            }
        }
        truncate_chars(out, MAX_SIGNATURE)
    }

    /// The attributes of a Rust item (`attribute` nodes of the `#[...]` before it, nearest
    /// first; comments may sit between them).
    fn attributes_before(&self, node: Node<'t>) -> Vec<Node<'t>> {
        let mut out = Vec::new();
        let mut prev = node.prev_named_sibling();
        while let Some(p) = prev {
            match self.kind(p) {
                "attribute_item" => out.extend(p.named_child(0)),
                "line_comment" | "block_comment" => {}
                _ => break,
            }
            prev = p.prev_named_sibling();
        }
        out
    }

    /// A function annotated (Java) or attributed (Rust) as a test (`grammars/<lang>/test-*`).
    fn is_test_function(&self, node: Node) -> bool {
        match self.spec.language {
            Language::Java => {
                let mut cursor = node.walk();
                let Some(modifiers) = node.children(&mut cursor).find(|c| self.kind(*c) == "modifiers") else { return false };
                let mut inner = modifiers.walk();
                let found = modifiers.children(&mut inner).any(|a| {
                    self.kind(a).ends_with("annotation")
                        && a.child_by_field_name("name").is_some_and(|n| {
                            let name = self.text(n);
                            self.spec.is_test_marker(name.rsplit('.').next().unwrap_or(name))
                        })
                });
                found
            }
            Language::Rust => self
                .attributes_before(node)
                .iter()
                .any(|attr| attr.named_child(0).is_some_and(|path| self.spec.is_test_marker(self.text(path)))),
        }
    }

    fn modifiers(&self, node: Node) -> (String, String) {
        let mut words: Vec<String> = Vec::new();
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if !self.spec.modifier_kinds.contains(&self.kind(child)) {
                continue;
            }
            if self.kind(child) == "visibility_modifier" {
                words.push(strip_space(self.text(child)));
                continue;
            }
            let mut inner = child.walk();
            for word in child.children(&mut inner) {
                if !self.kind(word).ends_with("annotation") {
                    words.push(strip_space(self.text(word)));
                }
            }
        }
        let visibility = words
            .iter()
            .find(|w| self.spec.visibilities.contains(&w.as_str()) || w.starts_with("pub("))
            .cloned()
            .unwrap_or_else(|| self.spec.default_visibility.to_string());
        (visibility, words.join(" "))
    }

    fn doc(&self, node: Node) -> String {
        let mut lines: Vec<&str> = Vec::new();
        let mut sibling = node.prev_sibling();
        while let Some(s) = sibling {
            if self.spec.doc_skip_kinds.contains(&self.kind(s)) {
                sibling = s.prev_sibling();
                continue;
            }
            if !self.spec.comment_kinds.contains(&self.kind(s)) {
                break;
            }
            let text = self.text(s);
            if !self.spec.doc_prefixes.iter().any(|p| text.starts_with(p)) || text.starts_with("////") {
                break;
            }
            lines.push(text);
            if text.starts_with("/**") {
                break;
            }
            sibling = s.prev_sibling();
        }
        lines.reverse();
        // The first sentence, cut to MAX_DOC: reading stops once either is known (a
        // sentence ends where a word ending in '.' is followed by another).
        let mut words = String::new();
        let mut chars = 0;
        'comments: for raw in lines {
            for line in raw.lines() {
                let line = line.trim().trim_start_matches("/**").trim_end_matches("*/").trim_start_matches("///");
                let line = line.trim_start_matches('*').trim();
                if line.starts_with('@') || line.starts_with("# ") {
                    break;
                }
                for word in line.split_whitespace() {
                    if !words.is_empty() {
                        if words.ends_with('.') {
                            break 'comments;
                        }
                        words.push(' ');
                        chars += 1;
                    }
                    words.push_str(word);
                    chars += word.chars().count();
                    if chars > MAX_DOC {
                        break 'comments;
                    }
                }
            }
        }
        truncate_chars(first_sentence(&words), MAX_DOC)
    }

    /// The innermost symbol and impl around a byte offset.
    fn context_at(&self, offset: usize, scopes: &[Scope], parent: &[Option<usize>], def_symbol: &[Option<usize>]) -> Context {
        // Scopes nest and are sorted by start: the innermost scope containing the offset is
        // the last one starting at or before it, or one of that scope's ancestors. Walking
        // parents keeps this O(depth), not O(scopes), per lookup.
        let mut ctx = Context::default();
        let upto = scopes.partition_point(|s| s.start <= offset);
        let mut cur = upto.checked_sub(1);
        while let Some(k) = cur {
            let scope = &scopes[k];
            if scope.end > offset {
                match scope.what {
                    ScopeWhat::Def(i) => {
                        if ctx.symbol.is_none() {
                            ctx.symbol = def_symbol[i];
                        }
                    }
                    ScopeWhat::Impl(i) => {
                        if ctx.impl_idx.is_none() {
                            ctx.impl_idx = Some(i);
                        }
                    }
                    ScopeWhat::Anonymous => {}
                }
                if ctx.symbol.is_some() && ctx.impl_idx.is_some() {
                    break;
                }
            }
            cur = parent[k];
        }
        ctx
    }

    /// What `Self` (Rust) names at a place: the impl's type, else the enclosing type.
    fn self_type(&self, ctx: &Context, symbols: &[Symbol]) -> Option<String> {
        if self.spec.language != Language::Rust {
            return None;
        }
        if let Some(i) = ctx.impl_idx {
            let imp = &self.impls[i];
            // `impl<M: Matcher> Matcher for &mut M`: `self` has the bound's methods.
            return Some(match self.type_param_bound(&imp.info.self_type, imp.type_node.start_byte()) {
                Some(bound) => bound.to_string(),
                None => imp.info.self_type.clone(),
            });
        }
        let mut cur = ctx.symbol;
        while let Some(i) = cur {
            if symbols[i].kind.is_type() {
                return Some(symbols[i].name.clone());
            }
            cur = symbols[i].parent;
        }
        None
    }

    /// The first trait of a bound list (`Matcher + Send`, lifetimes skipped), as a path.
    fn first_bound(&self, bounds: Node<'t>) -> Option<String> {
        let mut c = bounds.walk();
        let first = bounds.named_children(&mut c).find(|n| !matches!(self.kind(*n), "lifetime" | "higher_ranked_trait_bound"));
        first.map(|t| self.type_path(t))
    }

    fn is_type_param(&self, name: &str, offset: usize) -> bool {
        self.type_params.iter().any(|(s, e, n, _)| *s <= offset && offset < *e && n == name)
    }

    /// The first bound (empty when unbounded) of the type parameter `name` in scope at
    /// `offset`, the innermost one; None when `name` is no type parameter there.
    fn type_param(&self, name: &str, offset: usize) -> Option<&str> {
        self.type_params
            .iter()
            .filter(|(s, e, n, _)| *s <= offset && offset < *e && n == name)
            .min_by_key(|(s, e, _, _)| e - s)
            .map(|(_, _, _, bound)| bound.as_str())
    }

    /// The erasure of a type parameter in scope (its first bound, else `Object`).
    fn type_param_erasure(&self, name: &str, offset: usize) -> Option<&str> {
        self.type_param(name, offset).map(|bound| if bound.is_empty() { "Object" } else { bound })
    }

    /// The first bound of a type parameter in scope, if it has one.
    fn type_param_bound(&self, name: &str, offset: usize) -> Option<&str> {
        self.type_param(name, offset).filter(|b| !b.is_empty())
    }

    /// A declared type as overload resolution compares it: erased (generic arguments
    /// dropped, type parameters replaced by their bound), by simple name, arrays as `[]`.
    fn erased_type(&self, node: Node<'t>, offset: usize) -> String {
        let mut dims = 0;
        let mut base = node;
        if self.kind(node) == "array_type" {
            dims = node.child_by_field_name("dimensions").map(|d| self.text(d).matches('[').count()).unwrap_or(1);
            base = node.child_by_field_name("element").unwrap_or(node);
        }
        let path = self.type_path(base);
        let simple = crate::model::last_segment(&path);
        let simple = self.type_param_erasure(simple, offset).map(crate::model::last_segment).unwrap_or(simple);
        let mut out = simple.to_string();
        for _ in 0..dims {
            out.push_str("[]");
        }
        out
    }

    /// Java: a callable's erased parameter types (see `Symbol::params`). A compact
    /// constructor takes its record's components.
    fn params(&self, def: Node<'t>) -> Option<String> {
        let list = match self.kind(def) {
            "method_declaration" | "constructor_declaration" => def.child_by_field_name("parameters")?,
            "compact_constructor_declaration" => {
                let record = def.parent()?.parent()?;
                record.child_by_field_name("parameters")?
            }
            _ => return None,
        };
        let offset = def.start_byte();
        let mut out = Vec::new();
        let mut cursor = list.walk();
        for p in list.named_children(&mut cursor) {
            match self.kind(p) {
                "formal_parameter" => {
                    let Some(t) = p.child_by_field_name("type") else { continue };
                    let mut text = self.erased_type(t, offset);
                    if p.child_by_field_name("dimensions").is_some() {
                        text.push_str("[]");
                    }
                    out.push(text);
                }
                "spread_parameter" => {
                    let mut c = p.walk();
                    let t = p.named_children(&mut c).find(|n| !matches!(self.kind(*n), "modifiers" | "variable_declarator"));
                    if let Some(t) = t {
                        out.push(format!("{}...", self.erased_type(t, offset)));
                    }
                }
                _ => {}
            }
        }
        Some(out.join(","))
    }

    /// Java: the types of a call's arguments as far as the file tells them (see
    /// `Reference::args`).
    fn arg_types(&self, list: Node<'t>, ctx: &Context, symbols: &[Symbol], locals: &Locals<'t>) -> String {
        let mut out = Vec::new();
        let mut cursor = list.walk();
        for arg in list.named_children(&mut cursor) {
            if self.spec.comment_kinds.contains(&self.kind(arg)) {
                continue;
            }
            out.push(self.expr_type(arg, ctx, symbols, locals, 0));
        }
        out.join(",")
    }

    /// The static type of a Java expression where the file alone tells it, else `?`.
    fn expr_type(&self, node: Node<'t>, ctx: &Context, symbols: &[Symbol], locals: &Locals<'t>, depth: usize) -> String {
        let text = self.text(node);
        let unknown = || "?".to_string();
        // Deeply nested operands (`1 + 1 + ... + 1` in generated code) are not followed.
        if depth > MAX_CHAIN {
            return unknown();
        }
        let depth = depth + 1;
        match self.kind(node) {
            "decimal_integer_literal" | "hex_integer_literal" | "octal_integer_literal" | "binary_integer_literal" => {
                if text.ends_with(['l', 'L']) { "long" } else { "int" }.to_string()
            }
            "decimal_floating_point_literal" | "hex_floating_point_literal" => {
                if text.ends_with(['f', 'F']) { "float" } else { "double" }.to_string()
            }
            "true" | "false" => "boolean".to_string(),
            "character_literal" => "char".to_string(),
            "string_literal" | "text_block" => "String".to_string(),
            "null_literal" => "null".to_string(),
            "class_literal" => "Class".to_string(),
            "instanceof_expression" => "boolean".to_string(),
            "this" => {
                let mut cur = ctx.symbol;
                while let Some(i) = cur {
                    if symbols[i].kind.is_type() {
                        return symbols[i].name.clone();
                    }
                    cur = symbols[i].parent;
                }
                unknown()
            }
            "parenthesized_expression" => {
                node.named_child(0).map(|n| self.expr_type(n, ctx, symbols, locals, depth)).unwrap_or_else(unknown)
            }
            "cast_expression" => node.child_by_field_name("type").map(|t| self.erased_type(t, node.start_byte())).unwrap_or_else(unknown),
            "object_creation_expression" => {
                if node.child_by_field_name("arguments").and_then(|a| a.next_named_sibling()).is_some() {
                    // An anonymous class: a subtype of the named type, which is close enough
                    // for applicability but not for specificity; leave it unknown.
                    return unknown();
                }
                node.child_by_field_name("type").map(|t| self.type_path(t)).unwrap_or_else(unknown)
            }
            "array_creation_expression" => {
                let Some(t) = node.child_by_field_name("type") else { return unknown() };
                let dims = self.src[t.end_byte()..node.end_byte()].split('{').next().unwrap_or("").matches('[').count().max(1);
                format!("{}{}", crate::model::last_segment(&self.type_path(t)), "[]".repeat(dims))
            }
            "unary_expression" => match node.child_by_field_name("operator").map(|o| self.text(o)) {
                Some("!") => "boolean".to_string(),
                _ => node
                    .child_by_field_name("operand")
                    .map(|n| java::numeric(&self.expr_type(n, ctx, symbols, locals, depth)))
                    .unwrap_or_else(unknown),
            },
            "binary_expression" => {
                let op = node.child_by_field_name("operator").map(|o| self.text(o)).unwrap_or("");
                match op {
                    "==" | "!=" | "<" | "<=" | ">" | ">=" | "&&" | "||" => "boolean".to_string(),
                    _ => {
                        let left = node
                            .child_by_field_name("left")
                            .map(|n| self.expr_type(n, ctx, symbols, locals, depth))
                            .unwrap_or_else(unknown);
                        let right = node
                            .child_by_field_name("right")
                            .map(|n| self.expr_type(n, ctx, symbols, locals, depth))
                            .unwrap_or_else(unknown);
                        if op == "+" && (left == "String" || right == "String") {
                            return "String".to_string();
                        }
                        if matches!(op, "<<" | ">>" | ">>>") {
                            return java::promote(&left, "int");
                        }
                        java::promote(&left, &right)
                    }
                }
            }
            // `c ? a : b`: the branches' type when they agree (or one is `null`).
            "ternary_expression" => {
                let branch = |field: &str| {
                    node.child_by_field_name(field).map(|n| self.expr_type(n, ctx, symbols, locals, depth)).unwrap_or_else(unknown)
                };
                match (branch("consequence"), branch("alternative")) {
                    (a, b) if a == b => a,
                    (a, n) | (n, a) if n == "null" && !java::NUMERIC.contains(&a.as_str()) && a != "boolean" => a,
                    _ => unknown(),
                }
            }
            // An array's length.
            "field_access"
                if node.child_by_field_name("field").is_some_and(|f| self.text(f) == "length")
                    && node
                        .child_by_field_name("object")
                        .is_some_and(|o| self.expr_type(o, ctx, symbols, locals, depth).ends_with("[]")) =>
            {
                "int".to_string()
            }
            // An element of an array whose type is known: `a[i]` of an `int[]` is an `int`.
            "array_access" => match node.child_by_field_name("array").map(|a| self.expr_type(a, ctx, symbols, locals, depth)) {
                Some(t) if t.ends_with("[]") => t[..t.len() - 2].to_string(),
                _ => unknown(),
            },
            "identifier" | "field_access" | "method_invocation" => match self.typed_receiver(node, ctx, symbols, locals) {
                // A bare capitalized name that is no variable here is taken for a type by
                // `receiver`: as a value it is a constant of unknown type.
                Receiver::Type(t) if self.kind(node) == "identifier" && t == text => unknown(),
                // A container's element is no part of its type to overloads (`List<Pet>`).
                Receiver::Type(t) if !t.is_empty() => crate::model::without_element(&t).to_string(),
                _ => unknown(),
            },
            _ => unknown(),
        }
    }

    /// What a call is made on; an array (whose members are those of `Object`) is unknown.
    fn receiver(&self, node: Node, ctx: &Context, symbols: &[Symbol], locals: &Locals<'t>) -> Receiver {
        match self.typed_receiver(node, ctx, symbols, locals) {
            Receiver::Type(t) if t.contains("[]") => Receiver::Unknown,
            other => other,
        }
    }

    /// `receiver`, arrays included (`int[]`, `String[][]`).
    fn typed_receiver(&self, node: Node, ctx: &Context, symbols: &[Symbol], locals: &Locals<'t>) -> Receiver {
        // A chain of thousands of links (`b().b().b()...`, generated code) would give every
        // link a receiver as long as the chain, and the resolver a recursion as deep: past
        // MAX_CHAIN nested receivers the type is not followed.
        let depth = self.receiver_depth.get();
        if depth > MAX_CHAIN {
            return Receiver::Unknown;
        }
        self.receiver_depth.set(depth + 1);
        let receiver = self.typed_receiver_at(node, ctx, symbols, locals);
        self.receiver_depth.set(depth);
        receiver
    }

    fn typed_receiver_at(&self, node: Node, ctx: &Context, symbols: &[Symbol], locals: &Locals<'t>) -> Receiver {
        let text = self.text(node);
        if self.spec.language == Language::Java && text == "super" {
            // `super.m()`: the superclass's `m`, never the class's own override; the
            // resolver knows the superclass.
            return Receiver::Type("super".to_string());
        }
        if self.spec.self_receivers.contains(&text) {
            // Rust's `self.m()` is a method of the impl's type; Java's `this.m()` is `m()`.
            return self.self_type(ctx, symbols).map(Receiver::Type).unwrap_or(Receiver::Implicit);
        }
        // The impl's type, when it is declared in this file, scopes its fields.
        let impl_owner = ctx.impl_idx.and_then(|i| {
            let type_name = crate::model::last_segment(&self.impls[i].info.self_type);
            symbols.iter().position(|s| s.kind.is_type() && s.parent.is_none() && s.name == type_name)
        });
        let lookup_from = |start: Option<usize>, name: &str| -> Option<String> {
            let mut cur = start;
            loop {
                if let Some(t) = locals.get(&(cur, name)) {
                    return Some(t.clone());
                }
                match cur {
                    Some(i) => cur = symbols[i].parent,
                    None => return impl_owner.and_then(|o| locals.get(&(Some(o), name)).cloned()),
                }
            }
        };
        let lookup = |name: &str| lookup_from(ctx.symbol, name);
        // `this.x` / `self.x` is a field: the locals of the method (`Type x = this.x.find()`
        // declares a local of that name) do not hide it, so it is looked up from the type.
        let own_type = || {
            let mut cur = ctx.symbol;
            while let Some(i) = cur.filter(|i| !symbols[*i].kind.is_type()) {
                cur = symbols[i].parent;
            }
            cur
        };
        match self.kind(node) {
            "identifier" => {
                if let Some(t) = lookup(text) {
                    return if t.is_empty() { Receiver::Unknown } else { Receiver::Type(t) };
                }
                if text.chars().next().is_some_and(|c| c.is_uppercase()) {
                    return Receiver::Type(text.to_string());
                }
                Receiver::Unknown
            }
            // A struct literal's or pattern's type (`Match { start, end }`), `Self` in an impl.
            "type_identifier" | "scoped_type_identifier" | "generic_type_with_turbofish" if self.spec.language == Language::Rust => {
                let path = self.type_path(node);
                match self.self_type(ctx, symbols) {
                    Some(own) => Receiver::Type(replace_self(&path, &own)),
                    None => Receiver::Type(path),
                }
            }
            // `x?`, `&x`, `(x)`, `x.await`, `*x`: what `x` is (`?` unwraps, as return types
            // are kept; a dereference reaches the value a reference or smart pointer holds).
            "try_expression" | "reference_expression" | "parenthesized_expression" | "await_expression" => {
                // `&mut x`: the value, not the `mut`.
                match node.child_by_field_name("value").or_else(|| node.named_child(0)) {
                    Some(inner) => self.typed_receiver(inner, ctx, symbols, locals),
                    None => Receiver::Unknown,
                }
            }
            // `ms[0]`: an element of a container (`ms[1..]`, a range, is none).
            "index_expression" if self.spec.language == Language::Rust => {
                match (node.named_child(0), node.named_child(1).filter(|i| self.kind(*i) != "range_expression")) {
                    (Some(container), Some(_)) => match self.typed_receiver(container, ctx, symbols, locals) {
                        Receiver::Type(t) if !t.ends_with('@') => Receiver::Type(format!("{t}@")),
                        _ => Receiver::Unknown,
                    },
                    _ => Receiver::Unknown,
                }
            }
            // `new Helper(tag).add(...)`: the created type (an anonymous class's members are
            // not symbols, so its own type says as much).
            "object_creation_expression" => match node.child_by_field_name("type") {
                Some(t) => Receiver::Type(self.type_path(t)),
                None => Receiver::Unknown,
            },
            "unary_expression" if self.spec.language == Language::Rust && text.starts_with('*') => match node.named_child(0) {
                // Through a `Box`/`Arc`/`Rc` written without its argument (an impl's `Self`)
                // the content is not known.
                Some(inner) => match self.typed_receiver(inner, ctx, symbols, locals) {
                    Receiver::Type(t) if self.spec.deref_wrappers.contains(&crate::model::last_segment(&t)) => Receiver::Unknown,
                    other => other,
                },
                None => Receiver::Unknown,
            },
            // A call chain: the receiver is what the inner call returns, written
            // `Owner#method()` (`#method()` for a method of the enclosing types) for the
            // resolver, which knows return types.
            "method_invocation" | "call_expression" => {
                let (object, name) = match self.kind(node) {
                    "method_invocation" => (node.child_by_field_name("object"), node.child_by_field_name("name")),
                    _ => {
                        let function = node.child_by_field_name("function").map(|f| match self.kind(f) {
                            "generic_function" => f.child_by_field_name("function").unwrap_or(f),
                            _ => f,
                        });
                        match function {
                            Some(f) if self.kind(f) == "field_expression" => {
                                (f.child_by_field_name("value"), f.child_by_field_name("field"))
                            }
                            // A path call (`Searcher::new()`, `make()`): `Owner#name()`, the
                            // owner a type (or module) path, empty for a bare name.
                            Some(f) if matches!(self.kind(f), "identifier" | "scoped_identifier") => {
                                let mut path = normalize_path(self.text(f));
                                if let Some(replacement) = self.self_type(ctx, symbols) {
                                    path = replace_self(&path, &replacement);
                                }
                                let (owner, name) = path.rsplit_once("::").unwrap_or(("", path.as_str()));
                                return Receiver::Type(format!("{owner}#{name}()"));
                            }
                            _ => return Receiver::Unknown,
                        }
                    }
                };
                let Some(name) = name else { return Receiver::Unknown };
                // `x.unwrap()`, `x.clone()`: the chain goes on with `x`'s type.
                if self.spec.transparent_calls.contains(&self.text(name)) {
                    return match object {
                        Some(o) => self.typed_receiver(o, ctx, symbols, locals),
                        None => Receiver::Unknown,
                    };
                }
                let inner = match object {
                    None => Receiver::Implicit,
                    Some(o) => self.receiver(o, ctx, symbols, locals),
                };
                match inner {
                    Receiver::Implicit => Receiver::Type(format!("#{}()", self.text(name))),
                    Receiver::Type(t) => Receiver::Type(format!("{t}#{}()", self.text(name))),
                    Receiver::Unknown => Receiver::Unknown,
                }
            }
            "field_access" | "field_expression" | "scoped_identifier" => {
                let object = node.child_by_field_name("object").or_else(|| node.child_by_field_name("value"));
                let field = node.child_by_field_name("field").or_else(|| node.child_by_field_name("name"));
                match (object, field) {
                    // `Outer.this`
                    (Some(o), Some(f)) if self.spec.self_receivers.contains(&self.kind(f)) => Receiver::Type(normalize_path(self.text(o))),
                    (Some(o), Some(f)) if self.spec.self_receivers.contains(&self.text(o)) => {
                        lookup_from(own_type(), self.text(f)).filter(|t| !t.is_empty()).map(Receiver::Type).unwrap_or(Receiver::Unknown)
                    }
                    // A field of something whose type is known (`p.parent`, `Foo.BAR`,
                    // `Outer.Inner`): `Owner#field`, resolved through the field's declared
                    // type, or a member type of that name.
                    (Some(o), Some(f)) if self.kind(node) != "scoped_identifier" && self.kind(f).ends_with("identifier") => {
                        match self.receiver(o, ctx, symbols, locals) {
                            Receiver::Type(t) => Receiver::Type(format!("{t}#{}", self.text(f))),
                            _ if text.chars().next().is_some_and(|c| c.is_uppercase()) && !text.contains('(') => {
                                Receiver::Type(normalize_path(text))
                            }
                            _ => Receiver::Unknown,
                        }
                    }
                    _ if text.chars().next().is_some_and(|c| c.is_uppercase()) && !text.contains('(') => {
                        Receiver::Type(normalize_path(text))
                    }
                    _ => Receiver::Unknown,
                }
            }
            _ => Receiver::Unknown,
        }
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
}

#[derive(Default, Clone, Copy)]
struct Context {
    symbol: Option<usize>,
    impl_idx: Option<usize>,
}

/// Whether a bare name at a place is a variable of the enclosing code rather than a field:
/// a variable of a method (or initializer) on the way out, before a type declaring a field
/// of that name.
fn is_local(name: &str, mut at: Option<usize>, symbols: &[Symbol], locals: &Locals<'_>) -> bool {
    while let Some(i) = at {
        if locals.contains_key(&(Some(i), name)) {
            return !symbols[i].kind.is_type();
        }
        at = symbols[i].parent;
    }
    false
}

/// Appends a word (`@Test`, `@Service`, `@Scheduled(cron=...)`) to a symbol's modifiers.
fn add_modifier(modifiers: &mut String, word: &str) {
    if !modifiers.is_empty() {
        modifiers.push(' ');
    }
    modifiers.push_str(word);
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

fn join(scope: &str, sep: &str, name: &str) -> String {
    if scope.is_empty() {
        name.to_string()
    } else {
        format!("{scope}{sep}{name}")
    }
}

/// A path into the standard library as written (`std::io::Error`): no repository type.
fn std_path(path: &str) -> bool {
    ["std::", "core::", "alloc::"].iter().any(|p| path.starts_with(p))
}

fn strip_space(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// A path as written, without white space, generic arguments or turbofish.
fn normalize_path(text: &str) -> String {
    // Most paths are plain names (`List`, `java.util.Map`, `crate::a::B`): nothing to drop.
    let plain = text.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'$'))
        && (!text.contains(':') || (!text.ends_with("::") && !text.contains("::::")))
        && !text.strip_prefix("dyn").is_some_and(|rest| rest.starts_with(char::is_uppercase));
    if plain {
        return text.to_string();
    }
    // A qualified path: `<T as Trait>::m` names the trait's item (its impl for `T` is
    // reached through dispatch); `<T>::m` names `T::m`.
    if let Some(rest) = text.trim_start().strip_prefix('<') {
        let mut depth = 1;
        let end = rest.char_indices().find_map(|(i, c)| {
            match c {
                '<' => depth += 1,
                '>' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(i)
        });
        if let Some(end) = end {
            let inner = &rest[..end];
            let owner = inner.rsplit_once(" as ").map_or(inner, |(_, tr)| tr);
            return normalize_path(&format!("{}{}", owner.trim(), &rest[end + 1..]));
        }
    }
    // `&mut T`, `*mut T`: the keyword goes (but not the start of `mutex`).
    let owned;
    let text = if text.contains("mut") {
        owned = text
            .split_whitespace()
            .map(|t| match t.strip_suffix("mut") {
                Some(prefix) if prefix.chars().all(|c| c == '&' || c == '*') => prefix,
                _ => t,
            })
            .collect::<Vec<_>>()
            .join(" ");
        owned.as_str()
    } else {
        text
    };
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            _ if depth > 0 || c.is_whitespace() => {}
            '&' | '[' | ']' | '\'' => {}
            _ => out.push(c),
        }
    }
    let out = out.replace("::::", "::");
    let out = out.trim_end_matches("::").to_string();
    out.strip_prefix("dyn").filter(|rest| rest.starts_with(char::is_uppercase)).map(str::to_string).unwrap_or(out)
}

fn replace_self(name: &str, replacement: &str) -> String {
    if name == "Self" {
        replacement.to_string()
    } else if let Some(rest) = name.strip_prefix("Self::") {
        format!("{replacement}::{rest}")
    } else {
        name.to_string()
    }
}

fn first_sentence(text: &str) -> String {
    let end = text.find(". ").map_or(text.len(), |i| i + 1);
    text[..end].to_string()
}

fn truncate_chars(text: String, max: usize) -> String {
    if text.chars().count() <= max {
        return text;
    }
    let mut out: String = text.chars().take(max - 1).collect();
    out.push('…');
    out
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
    use super::{count_loc, normalize_path};

    #[test]
    fn body_text_is_each_innermost_declarations_literals_and_comments_without_docs() {
        let java = "package p;\nclass Uploader {\n    /** Sends the file. */\n    void send() {\n        // Retry the upload once\n        throw new IllegalStateException(\"Quota exceeded: \" + quotaLeft);\n    }\n    String name = \"bulk uploader\";\n}\n";
        let out = super::extract(crate::lang::spec(crate::model::Language::Java), java, "p");
        let texts: Vec<(&str, &str)> = out.texts.iter().map(|(i, t)| (out.symbols[*i].qname.as_str(), t.as_str())).collect();
        assert_eq!(texts, [("p.Uploader#send", "retry the upload once quota exceeded"), ("p.Uploader#name", "bulk uploader")]);
        let rust = "/// Docs.\nfn send() {\n    //! inner docs\n    let m = r#\"Disk full\"#; // keep going\n}\n";
        let out = super::extract(crate::lang::spec(crate::model::Language::Rust), rust, "shop");
        let texts: Vec<(&str, &str)> = out.texts.iter().map(|(i, t)| (out.symbols[*i].qname.as_str(), t.as_str())).collect();
        assert_eq!(texts, [("shop::send", "disk full keep going")]);
    }

    #[test]
    fn lines_of_code_are_the_lines_trim_leaves_text_on() {
        let text = "a\n\n  \t\n\x0b\n\u{a0}\u{2003}\n\u{a0}x\n \x0c b\r\n\r\n\u{e9}\n\x0b}";
        let by_trim = text.lines().filter(|l| !l.trim().is_empty()).count() as u32;
        // a, " \x0c b", "\u{a0}x", "\u{e9}", "\x0b}"; blank: "", "  \t", "\x0b", nbsp + em space, "\r".
        assert_eq!((count_loc(text), by_trim), (5, 5));
    }

    #[test]
    fn paths_lose_generics_references_and_mut_but_not_names_starting_with_mut() {
        assert_eq!(normalize_path("&mut Vec<u8>"), "Vec");
        assert_eq!(normalize_path("mutex"), "mutex");
        assert_eq!(normalize_path("mutable_state"), "mutable_state");
        assert_eq!(normalize_path("dyn Store"), "Store");
        assert_eq!(normalize_path("dynamo"), "dynamo");
    }
}
