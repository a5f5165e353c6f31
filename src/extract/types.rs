//! Types as they are written: a type node's path without generics, references or `dyn`;
//! the wrappers a value is seen through (`Option`, `Result`, `Box`, `Arc`); containers
//! with their element (`List<Pet>`, `slice<Match>`); type parameters in scope and their
//! bounds; Java's erased parameter types (`Symbol::params`).
//!
//! Methods of the extractor over type nodes. It must not type expressions (that is
//! `receivers`), make symbols or references, or do IO.

use super::fields::Fields;
use super::*;

impl<'t> Extractor<'t> {
    /// The path a type node names, without generic arguments, references or `dyn`.
    pub(super) fn type_path(&self, node: Node) -> String {
        normalize_path(self.text(self.base_type(node, true)))
    }

    /// Unwraps generic wrappers (`List<Foo>` -> `List`) and Rust reference types.
    pub(super) fn base_type(&self, mut node: Node<'t>, deref: bool) -> Node<'t> {
        loop {
            let kind = self.kind(node);
            let next = if let Some(inner) = self.wrapped_type(node).filter(|_| deref) {
                Some(inner)
            } else if self.spec.generic_kinds.contains(&kind) {
                node.field("type").or_else(|| node.field("function")).or_else(|| node.named_child(0))
            } else if kind == "bounded_type" || (kind == "tuple_type" && node.named_child_count() == 1) {
                // `dyn Subscriber + Send + Sync` (in parentheses after `&`): the first bound.
                node.named_child(0)
            } else if matches!(kind, "reference_type" | "pointer_type" | "array_type" | "dynamic_type" | "abstract_type") {
                node.field("type")
                    .or_else(|| node.field("element"))
                    .or_else(|| node.field("trait"))
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
    pub(super) fn unwrapped(&self, node: Node<'t>) -> Node<'t> {
        let mut node = node;
        for _ in 0..4 {
            let inner = (self.kind(node) == "generic_type")
                .then(|| node.field("type"))
                .flatten()
                .filter(|base| self.spec.unwrapped_returns.contains(&crate::model::last_segment(self.text(*base))))
                .and_then(|_| node.field("type_arguments"))
                .and_then(|args| args.named_child(0));
            match inner {
                Some(i) => node = i,
                None => break,
            }
        }
        node
    }

    /// An array or slice type, behind any references (`int[]`, `&[u32]`, `&mut [T; 4]`).
    pub(super) fn is_array(&self, mut node: Node<'t>) -> bool {
        loop {
            match self.kind(node) {
                "array_type" => return true,
                "reference_type" | "pointer_type" => match node.field("type") {
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
    pub(super) fn container_type(&self, node: Node<'t>) -> Option<String> {
        let mut node = node;
        loop {
            match self.kind(node) {
                "reference_type" | "pointer_type" => node = node.field("type")?,
                _ => match self.wrapped_type(node) {
                    Some(inner) => node = inner,
                    None => break,
                },
            }
        }
        let (base, arg) = match self.kind(node) {
            "array_type" if self.spec.language == Language::Rust => ("slice".to_string(), node.field("element")?),
            kind if self.spec.generic_kinds.contains(&kind) => {
                let base = self.type_path(node.field("type").or_else(|| node.named_child(0))?);
                let name = crate::model::last_segment(&base);
                let map = self.spec.elements().is_map(name);
                if !map && !self.spec.elements().is_container(name) {
                    return None;
                }
                let mut cursor = node.walk();
                let args = node.named_children(&mut cursor).find(|c| self.kind(*c) == "type_arguments")?;
                // A map's element is its value, the last argument (`Map<String, Order>`); a
                // nested one keeps its outer type (`Map.Entry<Order>`).
                let at = if map { args.named_child_count().checked_sub(1)? } else { 0 };
                (if map { base.clone() } else { name.to_string() }, args.named_child(at as u32)?)
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
        let base = node.field("type")?;
        if !self.spec.deref_wrappers.contains(&self.text(base)) {
            return None;
        }
        node.field("type_arguments")?.named_child(0)
    }

    /// The first trait of a bound list (`Matcher + Send`, lifetimes skipped), as a path.
    pub(super) fn first_bound(&self, bounds: Node<'t>) -> Option<String> {
        let mut c = bounds.walk();
        let first = bounds.named_children(&mut c).find(|n| !matches!(self.kind(*n), "lifetime" | "higher_ranked_trait_bound"));
        first.map(|t| self.type_path(t))
    }

    pub(super) fn is_type_param(&self, name: &str, offset: usize) -> bool {
        self.type_params.iter().any(|(s, e, n, _)| *s <= offset && offset < *e && n == name)
    }

    /// The first bound (empty when unbounded) of the type parameter `name` in scope at
    /// `offset`, the innermost one; None when `name` is no type parameter there.
    pub(super) fn type_param(&self, name: &str, offset: usize) -> Option<&str> {
        self.type_params
            .iter()
            .filter(|(s, e, n, _)| *s <= offset && offset < *e && n == name)
            .min_by_key(|(s, e, _, _)| e - s)
            .map(|(_, _, _, bound)| bound.as_str())
    }

    /// The erasure of a type parameter in scope (its first bound, else `Object`).
    pub(super) fn type_param_erasure(&self, name: &str, offset: usize) -> Option<&str> {
        self.type_param(name, offset).map(|bound| if bound.is_empty() { "Object" } else { bound })
    }

    /// The first bound of a type parameter in scope, if it has one.
    pub(super) fn type_param_bound(&self, name: &str, offset: usize) -> Option<&str> {
        self.type_param(name, offset).filter(|b| !b.is_empty())
    }

    /// Rust: a path whose first segment is a type parameter in scope with a trait bound
    /// (`E::from_parts` under `E: FromParts<S>`) names the bound's item
    /// (`FromParts::from_parts`): a call of the trait's method, which reaches every
    /// implementation through dispatch. Other paths are returned as they are.
    pub(super) fn bound_path(&self, path: String, offset: usize) -> String {
        if self.spec.language != Language::Rust {
            return path;
        }
        match path.split_once("::").and_then(|(first, rest)| Some((self.type_param_bound(first, offset)?, rest))) {
            Some((bound, rest)) => format!("{bound}::{rest}"),
            None => path,
        }
    }

    /// A declared type as overload resolution compares it: erased (generic arguments
    /// dropped, type parameters replaced by their bound), by simple name, arrays as `[]`.
    pub(super) fn erased_type(&self, node: Node<'t>, offset: usize) -> String {
        let mut dims = 0;
        let mut base = node;
        if self.kind(node) == "array_type" {
            dims = node.field("dimensions").map(|d| self.text(d).matches('[').count()).unwrap_or(1);
            base = node.field("element").unwrap_or(node);
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
    pub(super) fn params(&self, def: Node<'t>) -> Option<String> {
        let list = match self.kind(def) {
            "method_declaration" | "constructor_declaration" => def.field("parameters")?,
            "compact_constructor_declaration" => {
                let record = def.parent()?.parent()?;
                record.field("parameters")?
            }
            _ => return None,
        };
        let offset = def.start_byte();
        let mut out = Vec::new();
        let mut cursor = list.walk();
        for p in list.named_children(&mut cursor) {
            match self.kind(p) {
                "formal_parameter" => {
                    let Some(t) = p.field("type") else { continue };
                    let mut text = self.erased_type(t, offset);
                    if p.field("dimensions").is_some() {
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
}
