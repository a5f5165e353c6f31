//! Macro inputs read as code: the token trees of invocations of macros whose arguments are
//! code (Rust: every macro but the language's `token_macros` and `macro_rules!`), parsed
//! again with the file's grammar in a virtual source of the file's length that holds only
//! those token trees, each at its own bytes. Every node of the virtual tree keeps its
//! offsets and lines, so its captures join the file's own (scopes nest by bytes, text is
//! read from the file) and what a macro's input writes is extracted as what it is: the
//! types, paths, fields, calls, closures and `let`s of `info!(Level::INFO, x.y())`, and
//! the items of an item-level macro (`cfg_if! { if #[cfg(..)] { items } else { items } }`,
//! a crate's pass-through `with_std! { impl .. fn .. }`). A macro invoked inside another
//! one's input is a macro invocation in the virtual tree, and its input is read at the
//! next level.
//!
//! The virtual source is blank (newlines kept) but for its token trees and a wrapper
//! (`fn f(){` at the first bytes, a `;` before each tree, `}` after the last): a token tree
//! is a tuple, array or block expression statement there, or a block of items when its
//! input starts as items do. Only captures whose name lies inside a tree are kept; the
//! file's own captures inside a tree read again (the best-effort token patterns) are dropped.
//!
//! Methods of the extractor. It must not do IO, resolve names or expand macros.

use super::fields::Fields;
use std::cell::OnceCell;

use super::*;

/// How deep macros inside macros' inputs are read as code (`assert_eq!(format!(..), ..)`
/// is two levels).
pub(super) const MACRO_LEVELS: usize = 4;

/// The wrapper's head, at the first bytes of a virtual source that hold it without
/// covering a newline (`head_slots`), token by token.
const HEAD: [&[u8]; 5] = [b"fn", b"f", b"(", b")", b"{"];

/// Tokens an item can start with: a token tree whose input starts with one is read as a
/// block of items.
const ITEM_STARTS: &[&str] =
    &["pub", "fn", "impl", "struct", "enum", "union", "trait", "mod", "use", "type", "const", "static", "unsafe", "async", "extern"];

/// A token tree read again as code: its bytes, and whether its delimiters become braces
/// (a block, which may hold items as well as statements).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Region {
    pub start: usize,
    pub end: usize,
    pub block: bool,
}

impl<'t> Extractor<'t> {
    /// After the file's own tree is collected: the inputs of its code macros, level by
    /// level, each level one virtual tree kept in `levels`. False if a budget ran out.
    pub(super) fn reparse_macros(
        &mut self,
        levels: &'t [OnceCell<Tree>; MACRO_LEVELS],
        query: &crate::lang::CompiledQuery,
        engine: Engine,
    ) -> bool {
        if self.spec.token_macros.is_empty() {
            return true;
        }
        let mut from = 0;
        let mut previous: Vec<Region> = Vec::new();
        for level in levels {
            let (regions, covered) = self.macro_regions(from, &previous);
            if !covered.is_empty() && regions.is_empty() {
                // Only expansions at this level: what the trees held as tokens goes.
                self.drop_inside(&covered);
            }
            if regions.is_empty() {
                break;
            }
            self.drop_inside(&covered);
            let source = virtual_source(self.src, &regions, &std::mem::take(&mut self.blanks));
            let Some(tree) = parse(self.spec, &source) else { return false };
            let tree: &'t Tree = level.get_or_init(|| tree);
            from = self.refs.len();
            self.window = regions;
            let complete = self.collect(tree, query, engine, None);
            previous = std::mem::take(&mut self.window);
            if !complete {
                return false;
            }
        }
        // Captures of several trees: back in source order, as one tree's walk gives them.
        if from > 0 {
            self.defs.sort_by_key(|d| d.node.start_byte());
            self.refs.sort_by_key(|r| r.name.start_byte());
            self.locals.sort_by_key(|l| l.name.start_byte());
            self.imports.sort_by_key(|n| n.start_byte());
            self.impls.sort_by_key(|i| i.type_node.start_byte());
        }
        true
    }

    /// Whether a capture at these bytes is taken: anywhere in the file's own tree, only
    /// inside a token tree in a virtual one.
    pub(super) fn in_window(&self, node: Node) -> bool {
        if self.window.is_empty() {
            return true;
        }
        let (start, end) = (node.start_byte(), node.end_byte());
        let i = self.window.partition_point(|r| r.start <= start);
        i > 0 && {
            let r = self.window[i - 1];
            start >= r.start && end <= r.end
        }
    }

    /// Whether a definition in a virtual tree lies in an expression of its token tree (a
    /// closure's or a block's body) rather than among the items it holds or inside another
    /// item there.
    pub(super) fn local_to_macro_code(&self, def: Node<'t>) -> bool {
        let mut node = def.parent();
        while let Some(n) = node {
            if self.window.iter().any(|r| r.start == n.start_byte() && r.end == n.end_byte()) {
                return false;
            }
            match self.kind(n) {
                "function_item" | "declaration_list" | "impl_item" | "trait_item" | "mod_item" => return false,
                // A function's body holds its own local items, nested under the function.
                "block" if n.parent().is_some_and(|p| self.kind(p) == "function_item") => {}
                "closure_expression" | "block" | "arguments" => return true,
                _ => {}
            }
            node = n.parent();
        }
        false
    }

    /// The token trees of the code macros invoked by `refs[from..]` (the level just
    /// collected), in byte order, disjoint; and the whole inputs they come from (an
    /// item-level macro's groups of items are read, the rest of its input is no code).
    fn macro_regions(&mut self, from: usize, previous: &[Region]) -> (Vec<Region>, Vec<Region>) {
        let head_end = head_end(self.src);
        let mut regions = Vec::new();
        let mut covered = Vec::new();
        for k in from..self.refs.len() {
            let r = self.refs[k];
            if r.kind != RefKind::Expands {
                continue;
            }
            let Some(invocation) = r.name.parent().filter(|p| self.kind(*p) == "macro_invocation") else { continue };
            let name = crate::model::last_segment(self.text(r.name));
            if name == "macro_rules" || self.spec.token_macros.contains(&name) {
                continue;
            }
            let Some(tree) = invocation.child(invocation.child_count().saturating_sub(1) as u32).filter(|t| self.kind(*t) == "token_tree")
            else {
                continue;
            };
            // At item level: among a file's, a module's or an impl's items (`m!(..);` is a
            // statement there to the grammar), or those of an item-level macro's input read
            // as a block.
            let container = invocation.parent().and_then(|p| if self.kind(p) == "expression_statement" { p.parent() } else { Some(p) });
            let item_level = container.is_some_and(|p| {
                matches!(self.kind(p), "source_file" | "declaration_list")
                    || (self.kind(p) == "block" && previous.iter().any(|r| r.block && r.start == p.start_byte() && r.end == p.end_byte()))
            });
            // An item-level invocation of one of the repository's own macros whose input is
            // no items (`all_the_tuples!(impl_handler);`): the items it expands to.
            if item_level && !self.starts_items(tree) {
                if let Some(expansion) = self.expand_invocation(crate::model::last_segment(self.text(r.name)), invocation, tree) {
                    self.expansions.push(expansion);
                    self.reparsed.insert(tree.id());
                    covered.push(Region { start: tree.start_byte(), end: tree.end_byte(), block: false });
                    continue;
                }
            }
            // The wrapper's head and a separator need the bytes before the first tree.
            if tree.start_byte() <= head_end {
                continue;
            }
            let before = regions.len();
            if self.starts_items(tree) {
                regions.push(Region { start: tree.start_byte(), end: tree.end_byte(), block: true });
            } else if item_level && self.text(tree).starts_with('{') {
                // `cfg_if! { if #[cfg(..)] { items } else { items } }`: the groups of items inside.
                self.item_groups(tree, 0, &mut regions);
            }
            if regions.len() == before {
                regions.push(Region { start: tree.start_byte(), end: tree.end_byte(), block: false });
                self.argument_labels(tree);
            }
            self.reparsed.insert(tree.id());
            covered.push(Region { start: tree.start_byte(), end: tree.end_byte(), block: false });
        }
        for list in [&mut regions, &mut covered] {
            list.sort_by_key(|r| r.start);
            list.dedup_by(|b, a| b.start < a.end);
        }
        (regions, covered)
    }

    /// The tokens of an expression macro's arguments that are no Rust expression and would
    /// break the expressions around them: a label starting an argument (`parent:` and
    /// `target:` in `info!(parent: span.id(), target: "t", ..)`), and a sigil starting one
    /// or a value (`?x`, `%x`, `name = ?value`). They are blanked in the virtual source; a
    /// closure's parameters (`|dir: Dir, cmd: Cmd|`) keep theirs.
    fn argument_labels(&mut self, tree: Node<'t>) {
        let mut cursor = tree.walk();
        let tokens: Vec<Node<'t>> = tree.children(&mut cursor).collect();
        let mut in_params = false;
        for i in 1..tokens.len() {
            let text = self.text(tokens[i]);
            let before = self.text(tokens[i - 1]);
            let starts_argument = i == 1 || before == ",";
            if text == "|" && (starts_argument || before == "move" || in_params) {
                in_params = !in_params;
                continue;
            }
            if in_params {
                continue;
            }
            let next = tokens.get(i + 1).map(|t| self.text(*t)).unwrap_or("");
            if starts_argument && self.kind(tokens[i]) == "identifier" && next == ":" {
                self.blanks.push((tokens[i].start_byte(), tokens[i + 1].end_byte()));
            } else if matches!(text, "?" | "%") && (starts_argument || before == "=") {
                self.blanks.push((tokens[i].start_byte(), tokens[i].end_byte()));
            }
        }
    }

    /// Whether a token tree's input starts as items do: an item keyword, an attribute, a
    /// macro invocation (`name!`), comments aside.
    fn starts_items(&self, tree: Node<'t>) -> bool {
        let mut cursor = tree.walk();
        let mut tokens = tree.children(&mut cursor).skip(1).filter(|t| !self.spec.comment_kinds.contains(&self.kind(*t)));
        let (Some(first), second) = (tokens.next(), tokens.next()) else { return false };
        let second = second.map(|s| self.text(s)).unwrap_or("");
        match self.text(first) {
            // An outer or inner attribute (`#[cfg(..)]`, `#![all(..)]`).
            "#" => second.starts_with('[') || second == "!",
            "macro_rules" => second == "!",
            text if ITEM_STARTS.contains(&text) => true,
            _ => self.kind(first) == "identifier" && second == "!",
        }
    }

    /// The brace groups inside a token tree whose input starts as items do, outermost
    /// first, a few levels down.
    fn item_groups(&self, tree: Node<'t>, depth: usize, out: &mut Vec<Region>) {
        if depth > 3 {
            return;
        }
        let mut cursor = tree.walk();
        for child in tree.children(&mut cursor) {
            if self.kind(child) != "token_tree" || !self.text(child).starts_with('{') {
                continue;
            }
            if self.starts_items(child) {
                out.push(Region { start: child.start_byte(), end: child.end_byte(), block: true });
            } else {
                self.item_groups(child, depth + 1, out);
            }
        }
    }

    /// Drops what the trees collected so far captured inside these token trees (the token
    /// patterns' guesses): the next level reads them as code.
    fn drop_inside(&mut self, regions: &[Region]) {
        let inside = |at: usize| {
            let i = regions.partition_point(|r| r.start <= at);
            i > 0 && at < regions[i - 1].end && at > regions[i - 1].start
        };
        self.defs.retain(|d| !inside(d.name.start_byte()));
        self.refs.retain(|r| !inside(r.name.start_byte()));
        self.locals.retain(|l| !inside(l.name.start_byte()));
        self.imports.retain(|n| !inside(n.start_byte()));
        self.impls.retain(|i| !inside(i.type_node.start_byte()));
    }
}

/// One item-level invocation of the repository's own macro, expanded: the expansion's text,
/// the file's line for each of its lines, where the invocation is, the macro's name, and
/// the impl whose body holds it (its header), if any.
pub(super) struct Expansion {
    text: String,
    lines: Vec<u32>,
    /// The macro that wrote each line (`impl_handler` inside `all_the_tuples!`'s expansion).
    writers: Vec<String>,
    at: usize,
    impl_header: Option<String>,
}

impl<'t> Extractor<'t> {
    /// The expansion of an invocation of one of the repository's own `macro_rules!` macros
    /// (`all_the_tuples!(impl_handler)`), or None (no such macro, no rule matching).
    fn expand_invocation(&self, name: &str, invocation: Node<'t>, tree: Node<'t>) -> Option<Expansion> {
        let table = self.macro_table?;
        let krate = self.module.split("::").next().unwrap_or("");
        let def = table.find(name, krate)?;
        let input = super::mbe::input_of(tree, self.src);
        let out = super::mbe::expand(table, def, &input)?;
        let home = invocation.start_position().row as u32 + 1;
        let starts = self.line_starts.get_or_init(|| {
            std::iter::once(0).chain(self.src.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1)).collect()
        });
        let line_of = |byte: u32| starts.partition_point(|&s| s <= byte as usize) as u32;
        let (text, lines, writers) = super::mbe::render(&out, home, &line_of);
        // Inside an impl's body: its methods are the impl's (`impl<S> X<S> { gen!(..) }`).
        let container = invocation.parent().and_then(|p| if self.kind(p) == "expression_statement" { p.parent() } else { Some(p) });
        let impl_header = container.filter(|p| self.kind(*p) == "declaration_list").and_then(|list| {
            let item = list.parent().filter(|i| self.kind(*i) == "impl_item")?;
            Some(self.src[item.start_byte()..list.start_byte()].split_whitespace().collect::<Vec<_>>().join(" "))
        });
        Some(Expansion { text, lines, writers, at: invocation.start_byte(), impl_header })
    }

    /// Where each expansion is, as a context (its enclosing symbol and impl), before the
    /// outline is taken apart.
    pub(super) fn expansion_contexts(&mut self, outline: &Outline) -> Vec<(Expansion, Context)> {
        let Outline { scopes, scope_parent, def_symbol, .. } = outline;
        std::mem::take(&mut self.expansions)
            .into_iter()
            .map(|e| {
                let ctx = self.context_at(e.at, scopes, scope_parent, def_symbol);
                (e, ctx)
            })
            .collect()
    }

    /// The expansions' items as the file's own: each expansion extracted as source of the
    /// module it is in (inside its impl's header when an impl's body holds it), its symbols
    /// and references added with their lines mapped back to the file, marked
    /// `generated:NAME!`; a trait of the file the expansion implements for every type is
    /// marked blanket.
    pub(super) fn merge_expansions(&self, expanded: Vec<(Expansion, Context)>, symbols: &mut Vec<Symbol>, references: &mut Vec<Reference>) {
        for (e, ctx) in expanded {
            // The innermost module around the invocation (an inline `mod`), else the file's.
            let mut owner = ctx.symbol;
            while let Some(i) = owner.filter(|i| symbols[*i].kind != SymbolKind::Module) {
                owner = symbols[i].parent;
            }
            let module = owner.map_or(self.module.clone(), |i| symbols[i].qname.clone());
            let (source, lines, writers) = match &e.impl_header {
                Some(header) => {
                    let mut lines = vec![e.lines[0]];
                    lines.extend(&e.lines);
                    lines.push(e.lines[0]);
                    let mut writers = vec![e.writers[0].clone()];
                    writers.extend(e.writers.iter().cloned());
                    (format!("{header} {{\n{}\n}}\n", e.text), lines, writers)
                }
                None => (e.text.clone(), e.lines.clone(), e.writers.clone()),
            };
            let sub = extract(self.spec, &source, &module);
            let map = |line: u32| lines.get(line.saturating_sub(1) as usize).copied().unwrap_or(lines[0]);
            let offset = symbols.len();
            for mut s in sub.symbols {
                let writer = writers.get(s.start_line.saturating_sub(1) as usize).or(writers.first()).cloned().unwrap_or_default();
                s.parent = match s.parent {
                    Some(p) => Some(p + offset),
                    None => owner,
                };
                s.start_line = map(s.start_line);
                s.end_line = map(s.end_line).max(s.start_line);
                add_modifier(&mut s.modifiers, &format!("{}{writer}!", crate::model::GENERATED));
                symbols.push(s);
            }
            for mut r in sub.references {
                r.enclosing = match r.enclosing {
                    Some(i) => Some(i + offset),
                    None => owner,
                };
                r.line = map(r.line);
                // A blanket impl the expansion writes for a trait of this file
                // (`impl<F, ..> Handler<..> for F`): the trait is implemented for every type.
                if r.kind == RefKind::Implements
                    && r.blanket
                    && r.subject.as_deref().is_some_and(|t| t.chars().all(|c| c.is_alphanumeric() || c == '_'))
                {
                    let name = crate::model::last_segment(&r.name).split('<').next().unwrap_or("");
                    for t in symbols[..offset].iter_mut().filter(|t| t.kind == SymbolKind::Trait && t.name == name) {
                        if !t.modifiers.split(' ').any(|w| w == crate::model::BLANKET) {
                            add_modifier(&mut t.modifiers, crate::model::BLANKET);
                        }
                    }
                }
                references.push(r);
            }
        }
        references.sort_by(|a, b| a.line.cmp(&b.line).then(a.kind.cmp(&b.kind)).then(a.name.cmp(&b.name)));
    }

    /// What each `macro_rules!` macro of the file gives as a value, as a receiver
    /// (`crate::Span#new()` for `span!`, whose rules end in `$crate::Span::new(..)`;
    /// `crate::span!` for `info_span!`, which forwards to it), kept as the macro symbol's
    /// `returns`: the value most of its rules' bodies end in, a rule that forwards to the
    /// macro itself aside.
    pub(super) fn macro_values(&self, outline: &mut Outline) {
        for (d, def) in self.defs.iter().enumerate() {
            if def.kind != SymbolKind::Macro || self.kind(def.node) != "macro_definition" {
                continue;
            }
            let Some(symbol) = outline.def_symbol[d] else { continue };
            let own = self.text(def.name);
            let mut counts: Vec<(String, usize)> = Vec::new();
            let mut cursor = def.node.walk();
            for rule in def.node.named_children(&mut cursor).filter(|r| self.kind(*r) == "macro_rule") {
                let Some(body) = rule.field("right") else { continue };
                let Some(value) = body_value(self.spec, self.text(body), &self.module) else { continue };
                if value.strip_suffix('!').is_some_and(|p| crate::model::last_segment(p) == own) {
                    continue;
                }
                match counts.iter_mut().find(|(v, _)| *v == value) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((value, 1)),
                }
            }
            // The most common, the first of those on a tie.
            let best = counts.iter().enumerate().max_by_key(|(i, (_, n))| (*n, std::cmp::Reverse(*i))).map(|(_, (v, _))| v.clone());
            outline.symbols[symbol].returns = best;
        }
    }
}

/// The value a `macro_rules!` rule's body ends in, as a receiver: the body is read as a
/// function's (metavariables and `$crate` lose their `$`), its tail expression is followed
/// through blocks and `if` branches, and a macro it ends in is named `path!`; anything else
/// is typed as the receiver of a call on it, by extracting the body with the tail spliced
/// into `(TAIL).__typed()`.
fn body_value(spec: &'static LanguageSpec, body: &str, module: &str) -> Option<String> {
    const HEAD: &str = "fn __body() ";
    let inner = body.get(1..body.len().checked_sub(1)?)?;
    let source = format!("{HEAD}{{{}}}", inner.replace('$', " "));
    let tree = parse(spec, &source)?;
    let function = tree.root_node().named_child(0).filter(|f| f.kind() == "function_item")?;
    let mut tail = function.field("body")?;
    for _ in 0..16 {
        let next = match tail.kind() {
            "block" => {
                let last = tail.named_child(tail.named_child_count().checked_sub(1)? as u32)?;
                match last.kind() {
                    // A block-like expression ending the block (`if .. { } else { }`, `{ }`)
                    // is a statement without its `;`.
                    "expression_statement" if !source[last.byte_range()].trim_end().ends_with(';') => last.named_child(0)?,
                    // A block whose last statement ends in `;` gives no value.
                    kind if kind.ends_with("_statement") || kind.ends_with("_item") || kind.ends_with("comment") => return None,
                    _ => last,
                }
            }
            "if_expression" => tail.field("consequence")?,
            "unsafe_block" | "parenthesized_expression" => tail.named_child(0)?,
            _ => break,
        };
        tail = next;
    }
    if tail.kind() == "macro_invocation" {
        let path = tail.field("macro")?;
        return Some(format!("{}!", normalize_path(&source[path.byte_range()])));
    }
    let spliced = format!("{}({}).__typed(){}", &source[..tail.start_byte()], &source[tail.byte_range()], &source[tail.end_byte()..]);
    let extract = extract(spec, &spliced, module);
    extract.references.iter().find(|r| r.name == "__typed").and_then(|r| match &r.receiver {
        Receiver::Type(t) if !t.is_empty() => Some(t.clone()),
        _ => None,
    })
}

/// The virtual source of a level: `src`'s length and lines, blank but for the token trees
/// (braces for a block's delimiters) and the wrapper around them.
pub(super) fn virtual_source(src: &str, regions: &[Region], blanks: &[(usize, usize)]) -> String {
    let bytes = src.as_bytes();
    let mut out: Vec<u8> = bytes.iter().map(|&b| if b == b'\n' { b'\n' } else { b' ' }).collect();
    let (slots, mut free_from) = head_slots(bytes);
    for (at, token) in slots {
        out[at..at + token.len()].copy_from_slice(token);
    }
    for r in regions {
        out[r.start..r.end].copy_from_slice(&bytes[r.start..r.end]);
        if r.block {
            out[r.start] = b'{';
            out[r.end - 1] = b'}';
        }
        // `(a)` then `(b)` would be a call: each tree is a statement of its own.
        if let Some(p) = (free_from..r.start).rev().find(|&p| out[p] == b' ') {
            out[p] = b';';
        }
        free_from = r.end;
    }
    if let Some(p) = (free_from..out.len()).find(|&p| out[p] == b' ') {
        out[p] = b'}';
    }
    for &(start, end) in blanks {
        for b in &mut out[start..end] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    // Only ASCII was written, over whole characters: the token trees start and end at
    // ASCII delimiters, and every other byte became a space.
    String::from_utf8(out).unwrap_or_default()
}

/// Where the wrapper's head goes: each token at the first bytes after the one before that
/// hold it on one line (`fn` and `f` apart), so that no newline is covered and every line
/// keeps its number (a file opening with `/*!\n` has a newline at its fourth byte). Also the
/// byte after the head: a token tree must start after it.
fn head_slots(bytes: &[u8]) -> (Vec<(usize, &'static [u8])>, usize) {
    let mut slots = Vec::with_capacity(HEAD.len());
    let mut at = 0;
    for (i, token) in HEAD.iter().enumerate() {
        // `fn` and `f` need a space between them; the rest may touch.
        if i == 1 {
            at += 1;
        }
        while at + token.len() <= bytes.len() && bytes[at..at + token.len()].contains(&b'\n') {
            at += 1;
        }
        if at + token.len() > bytes.len() {
            return (Vec::new(), bytes.len());
        }
        slots.push((at, *token));
        at += token.len();
    }
    (slots, at)
}

/// The byte after the wrapper's head in a virtual source of `src` (see `head_slots`).
pub(super) fn head_end(src: &str) -> usize {
    head_slots(src.as_bytes()).1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_virtual_source_keeps_the_trees_at_their_bytes() {
        let src = "fn main() {\n    info!(a.b(), \"é\");\n}\ncfg_if! { if #[cfg(x)] { fn g() {} } }\n";
        let a = src.find("(a.b").unwrap();
        let b = src.find("{ fn g").unwrap();
        let regions = [
            Region { start: a, end: a + "(a.b(), \"é\")".len(), block: false },
            Region { start: b, end: b + "{ fn g() {} }".len(), block: true },
        ];
        let out = virtual_source(src, &regions, &[]);
        assert_eq!(out.len(), src.len());
        assert_eq!(out, "fn f(){    \n        ;(a.b(), \"é\") \n \n                      ;{ fn g() {} }} \n");
    }

    /// A file opening with a short line (`/*!`) keeps its newlines: the head goes on the
    /// lines that hold it, so a tree's line in the virtual tree is its line in the file.
    #[test]
    fn the_head_never_covers_a_newline() {
        let src = "/*!\nDoc.\n*/\npub fn f(x: u32) -> bool {\n    matches!(x, Mode::A)\n}\n";
        let a = src.find("(x, Mode").unwrap();
        let regions = [Region { start: a, end: a + "(x, Mode::A)".len(), block: false }];
        let out = virtual_source(src, &regions, &[]);
        assert_eq!(out.len(), src.len());
        assert_eq!(out.matches('\n').count(), src.matches('\n').count());
        assert_eq!(out, "fn \nf(){\n  \n                          \n           ;(x, Mode::A)\n}\n");
        assert_eq!(head_end(src), 8);
    }
}
