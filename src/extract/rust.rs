//! Rust's hooks in the extractor: `use` trees as imports (aliases, globs, re-exports),
//! the tokens of macros read as code (closure parameters with written types, calls and
//! macros inside), and blanket impls (`impl<S: Sink> Sink for &mut S`).
//!
//! Methods of the extractor, on its private state. It must not do IO or know Java.

use super::fields::Fields;
use super::*;
use crate::model::BLANKET;

impl<'t> Extractor<'t> {
    /// `<&mut S as Sink>` for a trait impl whose self type is a type parameter of the impl,
    /// directly or behind `&`, `&mut`, `Box`, `Rc` or `Arc` (a blanket impl), or a standard
    /// library type written with its path (`std::io::Error`); None otherwise.
    pub(super) fn blanket_form(&self, imp: &Impl) -> Option<String> {
        let trait_name = imp.info.trait_name.as_deref()?;
        let written: String = self.text(imp.type_node).split_whitespace().collect::<Vec<_>>().join(" ");
        let mut inner = written.as_str();
        loop {
            let before = inner;
            inner = inner.trim_start_matches('&').trim_start();
            inner = inner.strip_prefix("mut ").unwrap_or(inner).trim_start();
            for wrapper in ["Box<", "Rc<", "Arc<"] {
                if let Some(rest) = inner.strip_prefix(wrapper).and_then(|r| r.strip_suffix('>')) {
                    inner = rest.trim();
                }
            }
            if inner == before {
                break;
            }
        }
        let base = inner.split(['<', ' ']).next().unwrap_or(inner);
        // A standard library type written with its path is no repository type either.
        (std_path(&imp.info.self_type) || self.is_type_param(base, imp.type_node.start_byte()))
            .then(|| format!("<{written} as {trait_name}>"))
    }

    /// Marks `blanket` on the traits of this file that a blanket impl here implements for
    /// every type (`impl<S: Subscriber> SubscriberExt for S {}`, `impl<T> Instrument for
    /// T {}`): their methods are methods of any value (the resolver looks them up when a
    /// receiver's own type has no method of the name).
    pub(super) fn mark_blanket_traits(&self, symbols: &mut [Symbol]) {
        for imp in &self.impls {
            let Some(trait_name) = imp.info.trait_name.as_deref() else { continue };
            if !self.is_type_param(&imp.info.self_type, imp.type_node.start_byte()) {
                continue;
            }
            let name = crate::model::last_segment(trait_name);
            for s in symbols.iter_mut().filter(|s| s.kind == SymbolKind::Trait && s.name == name) {
                if !s.modifiers.split(' ').any(|w| w == BLANKET) {
                    add_modifier(&mut s.modifiers, BLANKET);
                }
            }
        }
    }

    /// What a macro's tokens hold that the grammar leaves as tokens: the closure parameters
    /// with written types, with their lines (`|a: A, mut b: B<C>|` gives (a, A) and (b, B); a
    /// `|` not followed by `name:` is an operator), and the macros invoked (`name!(`).
    #[allow(clippy::type_complexity)]
    pub(super) fn macro_tokens(&self, tree: Node<'t>) -> (Vec<(&'t str, String, u32)>, Vec<(&'t str, u32)>) {
        // The leaf tokens, in order (bounded: a macro may hold thousands of lines).
        let mut tokens: Vec<Node<'t>> = Vec::new();
        let mut stack = vec![tree];
        while let Some(n) = stack.pop() {
            if tokens.len() > 50_000 {
                break;
            }
            if n.child_count() == 0 {
                tokens.push(n);
                continue;
            }
            let mut cursor = n.walk();
            let children: Vec<Node<'t>> = n.children(&mut cursor).collect();
            stack.extend(children.into_iter().rev());
        }
        let text = |i: usize| tokens.get(i).map(|t| self.text(*t)).unwrap_or("");
        let line_of = |i: usize| tokens[i].start_position().row as u32 + 1;
        let macros: Vec<(&'t str, u32)> = (0..tokens.len().saturating_sub(2))
            .filter(|&i| {
                self.kind(tokens[i]) == "identifier"
                    && text(i + 1) == "!"
                    && matches!(text(i + 2), "(" | "[" | "{")
                    && text(i) != "macro_rules"
            })
            .map(|i| (self.text(tokens[i]), line_of(i)))
            .collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            if text(i) != "|" {
                i += 1;
                continue;
            }
            // A parameter list: (`mut`? name `:` type), separated by `,`, up to the next `|`.
            let mut j = i + 1;
            loop {
                if text(j) == "mut" {
                    j += 1;
                }
                if !(self.kind(tokens.get(j).copied().unwrap_or(tree)) == "identifier" && text(j + 1) == ":") {
                    break;
                }
                let name = text(j);
                let line = line_of(j);
                let mut k = j + 2;
                let mut depth = 0i32;
                let mut ty = String::new();
                while k < tokens.len() {
                    match text(k) {
                        "<" => depth += 1,
                        ">" => depth -= 1,
                        "," | "|" if depth <= 0 => break,
                        _ => {}
                    }
                    ty.push_str(text(k));
                    ty.push(' ');
                    k += 1;
                }
                let ty = normalize_path(&ty);
                if !ty.is_empty() {
                    out.push((name, ty, line));
                }
                j = k;
                if text(j) == "," {
                    j += 1;
                    continue;
                }
                break;
            }
            i = j.max(i + 1);
        }
        (out, macros)
    }

    /// Whether a token tree is an argument of a macro whose arguments are code: one of the
    /// language's `code_macros`, or (Rust) any macro that is not one of its `token_macros`.
    pub(super) fn in_code_macro(&self, mut node: Node<'t>) -> bool {
        for _ in 0..64 {
            let Some(parent) = node.parent() else { return false };
            match self.kind(parent) {
                "token_tree" => node = parent,
                "macro_invocation" => {
                    let name = parent.field("macro").map(|m| self.text(m)).unwrap_or("");
                    let name = crate::model::last_segment(name);
                    return self.spec.code_macros.contains(&name)
                        || (!self.spec.token_macros.is_empty() && !self.spec.token_macros.contains(&name));
                }
                _ => return false,
            }
        }
        false
    }

    /// A call written in a macro's tokens (`name` is followed by its `(...)`): what it is
    /// made on, from the tokens before it (`x.name(`, `a.b().name(`, `self.name(`), or its
    /// path (`Type::name(`, returned first) for a call by path; a bare `name(` is a call of
    /// a function in scope.
    pub(super) fn token_call(
        &self,
        name: Node<'t>,
        ctx: &Context,
        symbols: &[Symbol],
        locals: &Locals<'t>,
        depth: usize,
    ) -> (Option<String>, Receiver) {
        let Some(before) = name.prev_sibling() else { return (None, Receiver::Implicit) };
        match self.text(before) {
            "." if depth < 16 => {
                let Some(object) = before.prev_sibling() else { return (None, Receiver::Unknown) };
                if self.kind(object) == "token_tree" && self.text(object).starts_with('(') {
                    // `...method(args).name(`: the chain's previous link.
                    let Some(method) = object.prev_sibling().filter(|m| self.kind(*m) == "identifier") else {
                        return (None, Receiver::Unknown);
                    };
                    let (path, inner) = self.token_call(method, ctx, symbols, locals, depth + 1);
                    let method_name = self.text(method);
                    let receiver = match (path, inner) {
                        (_, inner) if self.spec.transparent_calls.contains(&method_name) => inner,
                        (Some(p), _) => {
                            let (owner, last) = p.rsplit_once("::").unwrap_or(("", p.as_str()));
                            Receiver::Type(format!("{owner}#{last}()"))
                        }
                        (None, Receiver::Type(t)) => Receiver::Type(format!("{t}#{method_name}()")),
                        (None, Receiver::Implicit) => Receiver::Type(format!("#{method_name}()")),
                        (None, Receiver::Unknown) => Receiver::Unknown,
                    };
                    return (None, receiver);
                }
                if matches!(self.kind(object), "identifier" | "self") {
                    return (None, self.receiver(object, ctx, symbols, locals));
                }
                (None, Receiver::Unknown)
            }
            "::" => {
                let mut segments = vec![self.text(name)];
                let mut sep = Some(before);
                while let Some(s) = sep.filter(|s| self.text(*s) == "::") {
                    let Some(segment) = s.prev_sibling().filter(|p| matches!(self.kind(*p), "identifier" | "self" | "super" | "crate"))
                    else {
                        break;
                    };
                    segments.push(self.text(segment));
                    sep = segment.prev_sibling();
                }
                segments.reverse();
                let mut path = segments.join("::");
                if let Some(replacement) = self.self_type(ctx, symbols) {
                    path = replace_self(&path, &replacement);
                }
                (Some(path), Receiver::Implicit)
            }
            _ => (None, Receiver::Implicit),
        }
    }

    /// The type a call makes when it is a tuple struct's constructor (`Count(0)`): a callee
    /// named in `UpperCamelCase`, which Rust keeps for types and variants; the prelude's
    /// variants (`Some`, `Ok`, `Err`) make no type of that name.
    pub(super) fn tuple_struct_call(&self, value: Node<'t>) -> Option<&'t str> {
        if self.spec.language != crate::model::Language::Rust || self.kind(value) != "call_expression" {
            return None;
        }
        let callee = value.field("function").filter(|f| self.kind(*f) == "identifier")?;
        let name = self.text(callee);
        (name.starts_with(|c: char| c.is_ascii_uppercase()) && !matches!(name, "Some" | "Ok" | "Err")).then_some(name)
    }

    pub(super) fn rust_use_tree(&self, node: Node, prefix: &str, out: &mut Vec<(String, Option<String>, bool, u32)>) {
        let join_prefix = |p: &str| {
            if prefix.is_empty() {
                p.to_string()
            } else {
                format!("{prefix}::{p}")
            }
        };
        match self.kind(node) {
            "use_as_clause" => {
                if let (Some(path), Some(alias)) = (node.field("path"), node.field("alias")) {
                    let path = join_prefix(&strip_space(self.text(path)));
                    out.push((path, Some(self.text(alias).to_string()), false, line_of(node)));
                }
            }
            "use_list" => {
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    self.rust_use_tree(child, prefix, out);
                }
            }
            "scoped_use_list" => {
                let inner = match node.field("path") {
                    Some(path) => join_prefix(&strip_space(self.text(path))),
                    None => prefix.to_string(),
                };
                if let Some(list) = node.field("list") {
                    self.rust_use_tree(list, &inner, out);
                }
            }
            "use_wildcard" => {
                let text = strip_space(self.text(node));
                let path = text.trim_end_matches('*').trim_end_matches("::");
                out.push((if path.is_empty() { prefix.to_string() } else { join_prefix(path) }, None, true, line_of(node)));
            }
            "self" if !prefix.is_empty() => out.push((prefix.to_string(), None, false, line_of(node))),
            "line_comment" | "block_comment" => {}
            _ => out.push((join_prefix(&strip_space(self.text(node))), None, false, line_of(node))),
        }
    }
}
