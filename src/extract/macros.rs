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

use std::cell::OnceCell;

use super::*;

/// How deep macros inside macros' inputs are read as code (`assert_eq!(format!(..), ..)`
/// is two levels).
pub(super) const MACRO_LEVELS: usize = 4;

/// The wrapper's head, at the first bytes of a virtual source.
const HEAD: &[u8] = b"fn f(){";

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
        for level in levels {
            let regions = self.macro_regions(from);
            if regions.is_empty() {
                break;
            }
            self.drop_inside(&regions);
            let source = virtual_source(self.src, &regions);
            let Some(tree) = parse(self.spec, &source) else { return false };
            let tree: &'t Tree = level.get_or_init(|| tree);
            from = self.refs.len();
            self.window = regions;
            let complete = self.collect(tree, query, engine);
            self.window = Vec::new();
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
    /// collected), in byte order, disjoint.
    fn macro_regions(&mut self, from: usize) -> Vec<Region> {
        let mut regions = Vec::new();
        for r in &self.refs[from..] {
            if r.kind != RefKind::Expands {
                continue;
            }
            let Some(invocation) = r.name.parent().filter(|p| self.kind(*p) == "macro_invocation") else { continue };
            let name = crate::model::last_segment(self.text(r.name));
            if name == "macro_rules" || self.spec.token_macros.contains(&name) {
                continue;
            }
            let Some(tree) = invocation.child(invocation.child_count().saturating_sub(1) as u32).filter(|t| self.kind(*t) == "token_tree") else {
                continue;
            };
            // The wrapper's head and a separator need the bytes before the first tree.
            if tree.start_byte() <= HEAD.len() {
                continue;
            }
            let item_level = invocation.parent().is_some_and(|p| matches!(self.kind(p), "source_file" | "declaration_list"));
            let before = regions.len();
            if self.starts_items(tree) {
                regions.push(Region { start: tree.start_byte(), end: tree.end_byte(), block: true });
            } else if item_level && self.text(tree).starts_with('{') {
                // `cfg_if! { if #[cfg(..)] { items } else { items } }`: the groups of items inside.
                self.item_groups(tree, 0, &mut regions);
            }
            if regions.len() == before {
                regions.push(Region { start: tree.start_byte(), end: tree.end_byte(), block: false });
            }
            self.reparsed.insert(tree.id());
        }
        regions.sort_by_key(|r| r.start);
        regions.dedup_by(|b, a| b.start < a.end);
        regions
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

/// The virtual source of a level: `src`'s length and lines, blank but for the token trees
/// (braces for a block's delimiters) and the wrapper around them.
pub(super) fn virtual_source(src: &str, regions: &[Region]) -> String {
    let bytes = src.as_bytes();
    let mut out: Vec<u8> = bytes.iter().map(|&b| if b == b'\n' { b'\n' } else { b' ' }).collect();
    out[..HEAD.len()].copy_from_slice(HEAD);
    let mut free_from = HEAD.len();
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
    // Only ASCII was written, over whole characters: the token trees start and end at
    // ASCII delimiters, and every other byte became a space.
    String::from_utf8(out).unwrap_or_default()
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
        let out = virtual_source(src, &regions);
        assert_eq!(out.len(), src.len());
        assert_eq!(out, "fn f(){    \n        ;(a.b(), \"é\") \n \n                      ;{ fn g() {} }} \n");
    }
}
