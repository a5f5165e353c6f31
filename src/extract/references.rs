//! References and calls: each captured name as one `Reference` (the most specific kind
//! per name node, definitions, impl headers and `use` paths left out), with its enclosing
//! symbol, receiver and argument types; configuration keys and MyBatis statements read by
//! name; impl headers as `implements`; imports through the language's own syntax.
//!
//! Methods of the extractor. It must not decide what a type or expression is (it asks
//! `types` and `receivers`), resolve a name to a symbol, or do IO.

use super::fields::Fields;
use super::*;

impl<'t> Extractor<'t> {
    /// Pass 3's captures, one per name node and sort (the most specific kind wins; a name
    /// before a dot is both a possible type and a possible variable), in source order.
    pub(super) fn refs_by_node(&mut self, def_names: &HashSet<usize>) -> Vec<Ref<'t>> {
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
            if r.kind == RefKind::UsesType && name_parent(&r).is_some_and(|p| self.spec.path_kinds.contains(&self.kind(p))) {
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

    /// Pass 3: each name as a reference, with receiver and argument types; configuration
    /// keys read by name (`getProperty("k")`: caller, marker); calls given a lambda.
    pub(super) fn name_references(
        &self,
        outline: &Outline,
        locals: &Locals<'t>,
        refs: Vec<Ref<'t>>,
        param_types: Vec<Reference>,
    ) -> (Vec<Reference>, Vec<(usize, String)>, HashMap<usize, Reference>) {
        let Outline { scopes, scope_parent, symbols, def_symbol } = outline;
        // `use` declarations: their paths are imports, not also accesses.
        let import_ranges: Vec<(usize, usize)> = self.imports.iter().map(|n| (n.start_byte(), n.end_byte())).collect();
        let mut references = param_types;
        let mut key_reads: Vec<(usize, String)> = Vec::new();
        let mut lambda_calls: HashMap<usize, Reference> = HashMap::default();
        // Rust: the variables each declaration binds, read once a bare name is passed as a
        // value there (`route(create)`), by the symbol's definition node.
        let mut bound: HashMap<usize, Vec<(&'t str, usize, usize)>> = HashMap::default();
        let def_of_symbol: HashMap<usize, Node<'t>> =
            def_symbol.iter().enumerate().filter_map(|(d, s)| Some((((*s)?), self.defs[d].node))).collect();
        for mut r in refs {
            // Rust: a path or name read as a value (`Level::TRACE`, `route(create)`) names a
            // constant or static when written in SCREAMING_CASE, as Rust names them (a use of
            // it), else a function or variant when written as a path or passed (a value);
            // another bare name read as a value is a variable.
            if self.spec.language == Language::Rust && matches!(r.kind, RefKind::UsesField | RefKind::MethodRef) && r.receiver.is_none() {
                let written = self.text(r.name);
                r.kind = if is_constant_name(crate::model::last_segment(written)) {
                    RefKind::UsesField
                } else if r.kind == RefKind::MethodRef || self.kind(r.name) == "scoped_identifier" {
                    RefKind::MethodRef
                } else {
                    continue;
                };
            }
            // A bare name in a pattern binds a variable unless written as Rust writes a
            // variant or constant (`Count | CountMatches`, `MAX`).
            if self.spec.language == Language::Rust
                && r.kind == RefKind::Accesses
                && self.kind(r.name) == "identifier"
                && name_parent(&r).is_some_and(|p| matches!(self.kind(p), "match_pattern" | "or_pattern"))
                && !self.text(r.name).starts_with(|c: char| c.is_ascii_uppercase())
            {
                continue;
            }
            // An attribute: a macro's unless the compiler reads it itself; `derive(..)` names
            // derive macros.
            let attribute = r.kind == RefKind::Expands && name_parent(&r).is_some_and(|p| self.kind(p) == "attribute");
            if attribute {
                let path = strip_space(self.text(r.name));
                if path == "derive" {
                    let ctx = self.context_at(self.decorated_at(r.name), scopes, scope_parent, def_symbol);
                    for (derived, line) in self.derived_paths(r.name) {
                        references.push(Reference::new(RefKind::Expands, derived, line, ctx.symbol));
                    }
                    continue;
                }
                if self.spec.is_builtin_attribute(&path) {
                    continue;
                }
            }
            if r.kind == RefKind::Accesses && import_ranges.iter().any(|(s, e)| *s <= r.name.start_byte() && r.name.start_byte() < *e) {
                continue;
            }
            // An attribute macro is used by the item it decorates.
            let at = if attribute { self.decorated_at(r.name) } else { r.name.start_byte() };
            let ctx = self.context_at(at, scopes, scope_parent, def_symbol);
            let constant = r.kind == RefKind::Instantiates
                && (self.kind(r.name) == "enum_constant" || name_parent(&r).is_some_and(|p| self.kind(p) == "enum_constant"));
            let mut name = if constant {
                match enum_created(ctx.symbol, symbols) {
                    Some(e) => e,
                    None => continue,
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
            // `Self::Rejection` in a type, inside a trait impl, names the trait's associated
            // type (`<Self as FromRequestParts<S>>::Rejection`), as rust-analyzer resolves it.
            let trait_of_impl = ctx.impl_idx.and_then(|i| self.impls[i].info.trait_name.as_deref());
            match trait_of_impl {
                Some(t) if r.kind == RefKind::UsesType && name.starts_with("Self::") => name = replace_self(&name, t),
                _ => {
                    if let Some(replacement) = self.self_type(&ctx, symbols) {
                        name = replace_self(&name, &replacement);
                    }
                }
            }
            name = self.bound_path(name, r.name.start_byte());
            // `Listener<Addr = Self>`: the binding names the trait's associated type.
            if r.kind == RefKind::UsesType {
                if let Some(owner) = self.bound_trait_of_binding(r.name, name_parent(&r)) {
                    name = format!("{owner}::{name}");
                }
            }
            // A bare name that is a local or parameter is neither a field nor a type.
            if matches!(r.kind, RefKind::UsesField | RefKind::Accesses)
                && r.receiver.is_none()
                && self.kind(r.name) == "identifier"
                && is_local(&name, ctx.symbol, symbols, locals)
            {
                continue;
            }
            // A bare name passed as a value where the body binds it as a variable (`let f =
            // ..;`, a parameter, a closure's or a pattern's binding) is that variable. Bound
            // by place, not as `locals` are (one name per declaration): a closure's `|create|`
            // hides no `create` outside it.
            if r.kind == RefKind::MethodRef && r.receiver.is_none() && self.kind(r.name) == "identifier" {
                if let Some((symbol, def)) = ctx.symbol.and_then(|s| Some((s, *def_of_symbol.get(&s)?))) {
                    let at = r.name.start_byte();
                    let bindings = bound.entry(symbol).or_insert_with(|| self.bindings(def));
                    if bindings.iter().any(|(n, start, end)| *n == name && *start < at && at < *end) {
                        continue;
                    }
                }
            }
            let line = r.name.start_position().row as u32 + 1;
            let mut reference = Reference::new(r.kind, name, line, ctx.symbol);
            // Java: a call without a receiver in an anonymous class's body is first one of
            // that class's methods (its own or its supertype's: `{{ setName("Dog"); }}`).
            if r.kind == RefKind::Calls && r.receiver.is_none() && self.spec.language == Language::Java {
                if let Some(anon) = self.anonymous_around(r.name.start_byte(), scopes, scope_parent) {
                    reference.subject = Some(symbols[anon].qname.clone());
                }
            }
            // Java: `super(..)`, `super.m(..)` and a call of `Object`'s (or `Enum`'s) methods
            // without a receiver, in a type that extends nothing: the superclass it has
            // without saying so.
            if r.kind == RefKind::Calls && self.spec.language == Language::Java && reference.subject.is_none() {
                reference.subject = self.implicit_super_subject(r.name, r.receiver, &reference.name);
            }
            if matches!(r.kind, RefKind::Calls | RefKind::UsesField | RefKind::MethodRef) {
                reference.receiver = match r.receiver {
                    // A name a pattern binds (`Self::Boxed(handler) => handler.into_route(s)`,
                    // `|route| route.layer(l)`) is a variable of unknown type, no function.
                    Some(recv)
                        if self.kind(recv) == "identifier"
                            && self.spec.language == Language::Rust
                            && !is_local(self.text(recv), ctx.symbol, symbols, locals)
                            && {
                                let at = recv.start_byte();
                                let name = self.text(recv);
                                match ctx.symbol.and_then(|s| Some((s, *def_of_symbol.get(&s)?))) {
                                    Some((symbol, def)) => {
                                        let bindings = bound.entry(symbol).or_insert_with(|| self.bindings(def));
                                        bindings.iter().any(|(n, start, end)| *n == name && *start < at && at < *end)
                                    }
                                    None => false,
                                }
                            } =>
                    {
                        Receiver::Unknown
                    }
                    None => Receiver::Implicit,
                    // A call in a macro's tokens: read like code in the macros whose arguments
                    // are code (`assert!`), else matched by name only.
                    Some(recv) if self.kind(recv) == "token_tree" && self.in_code_macro(recv) => {
                        let (path, receiver) = self.token_call(r.name, &ctx, symbols, locals, 0);
                        if let Some(path) = path {
                            reference.name = path;
                        }
                        receiver
                    }
                    Some(recv) => self.receiver(recv, &ctx, symbols, locals),
                };
            }
            if constant && r.args.is_none() {
                reference.args = Some("".into());
            }
            if let Some(args) = r.args {
                reference.args = Some(self.arg_types(args, &ctx, symbols, locals).into_boxed_str());
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
                if self.spec.language == Language::Java {
                    self.note_lambda_call(args, &reference, &mut lambda_calls);
                    if let Some(url) = self.url_reference(&reference, r.name) {
                        references.push(url);
                    }
                    references.extend(self.callback_calls(&reference, r.name, args, &ctx, symbols, locals));
                }
            }
            references.push(reference);
        }

        (references, key_reads, lambda_calls)
    }

    /// Java: a call or creation given a lambda or method reference, by its argument list's
    /// start: `extract::nameless` types the lambda by the callee's parameter.
    fn note_lambda_call(&self, args: Node<'t>, call: &Reference, calls: &mut HashMap<usize, Reference>) {
        let mut cursor = args.walk();
        if args.named_children(&mut cursor).any(|a| matches!(self.kind(a), "lambda_expression" | "method_reference")) {
            calls.insert(args.start_byte(), call.clone());
        }
    }

    /// The trait whose associated type a binding in its arguments names (`Addr` in
    /// `serve::Listener<Addr = Self>`), as written; `parent` is the name's.
    fn bound_trait_of_binding(&self, name: Node<'t>, parent: Option<Node<'t>>) -> Option<String> {
        let binding = parent.filter(|b| self.kind(*b) == "type_binding")?;
        if binding.field("name").is_none_or(|n| n.id() != name.id()) {
            return None;
        }
        let generic = binding.parent().filter(|a| self.kind(*a) == "type_arguments")?.parent()?;
        let base = generic.field("type").filter(|_| self.kind(generic) == "generic_type")?;
        Some(normalize_path(self.text(base)))
    }

    /// Where the item an attribute's name decorates starts (the attribute's own place when
    /// no item follows it).
    fn decorated_at(&self, name: Node<'t>) -> usize {
        let item = name.parent().and_then(|a| a.parent()).filter(|i| self.kind(*i) == "attribute_item");
        let mut next = item.and_then(|i| i.next_named_sibling());
        while let Some(n) = next.filter(|n| self.kind(*n) == "attribute_item" || self.spec.comment_kinds.contains(&self.kind(*n))) {
            next = n.next_named_sibling();
        }
        next.map_or(name.start_byte(), |n| n.start_byte())
    }

    /// The paths a `derive(..)` attribute lists (`Debug`, `serde::Serialize`), with their
    /// lines, from the tokens after the attribute's name.
    fn derived_paths(&self, name: Node<'t>) -> Vec<(String, u32)> {
        let Some(args) = name.next_named_sibling().filter(|a| self.kind(*a) == "token_tree") else { return Vec::new() };
        let mut out = Vec::new();
        let mut path = String::new();
        let mut line = 0;
        let mut cursor = args.walk();
        for token in args.children(&mut cursor) {
            match self.text(token) {
                "," | ")" | "]" | "}" => {
                    if !path.is_empty() {
                        out.push((std::mem::take(&mut path), line));
                    }
                }
                "(" | "[" | "{" => {}
                text => {
                    if path.is_empty() {
                        line = token.start_position().row as u32 + 1;
                    }
                    path.push_str(text);
                }
            }
        }
        out
    }

    /// The variables a declaration binds, each with the bytes where it is in scope: from
    /// the binding to the end of the nearest block, closure, loop, `match` arm, `if` or
    /// function around it. Bindings are `let`, `for`, `if let` and `match` patterns,
    /// parameters and closure parameters, in every pattern form (`mut x`, `&x`, `(a, b)`,
    /// `Some(x)`, `Point { x, .. }`, `x @ 1..`); a unit variant in a `match` arm is taken for
    /// one too, which is harmless: it is no function.
    fn bindings(&self, def: Node<'t>) -> Vec<(&'t str, usize, usize)> {
        /// Where an identifier binds: a pattern node's child, or the `pattern` field of the rest.
        const PATTERNS: &[&str] = &[
            "closure_parameters",
            "mut_pattern",
            "reference_pattern",
            "ref_pattern",
            "tuple_pattern",
            "slice_pattern",
            "or_pattern",
            "captured_pattern",
            "tuple_struct_pattern",
            "match_pattern",
            "field_pattern",
        ];
        const PATTERN_FIELDS: &[&str] = &["let_declaration", "for_expression", "let_condition", "parameter"];
        const SCOPES: &[&str] =
            &["block", "closure_expression", "for_expression", "while_expression", "match_arm", "if_expression", "function_item"];
        let mut out = Vec::new();
        let mut cursor = def.walk();
        let mut parents: Vec<Node<'t>> = Vec::new();
        loop {
            let node = cursor.node();
            let kind = self.kind(node);
            if matches!(kind, "identifier" | "shorthand_field_identifier") {
                let parent = parents.last().map_or("", |p| self.kind(*p));
                let field = cursor.field_name();
                let binds = (PATTERNS.contains(&parent) && !(parent == "tuple_struct_pattern" && field == Some("type")))
                    || (PATTERN_FIELDS.contains(&parent) && field == Some("pattern"));
                if binds {
                    let end = parents.iter().rev().find(|p| SCOPES.contains(&self.kind(**p))).map_or(def.end_byte(), |p| p.end_byte());
                    out.push((self.text(node), node.start_byte(), end));
                }
            }
            if cursor.goto_first_child() {
                parents.push(node);
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if parents.pop().is_none() || !cursor.goto_parent() {
                    return out;
                }
            }
        }
    }

    /// Impl headers: `impl Trait for Type` makes Type implement Trait.
    pub(super) fn impl_header_refs(&self, outline: &Outline, references: &mut Vec<Reference>) {
        let Outline { scopes, scope_parent, def_symbol, .. } = outline;
        for imp in &self.impls {
            if let (Some(trait_name), Some(trait_node)) = (&imp.info.trait_name, imp.trait_node) {
                let line = trait_node.start_position().row as u32 + 1;
                let ctx = self.context_at(trait_node.start_byte(), scopes, scope_parent, def_symbol);
                let mut reference = Reference::new(RefKind::Implements, trait_name.clone(), line, ctx.symbol);
                reference.blanket = self.is_type_param(&imp.info.self_type, imp.type_node.start_byte())
                    || (self.blanket_form(imp).is_some() && !std_path(&imp.info.self_type));
                // An array, slice or tuple (`impl IntoResponse for [(K, V); N]`) is no type of
                // the repository: it keeps its written form, which says what it is.
                let composite = matches!(self.kind(self.base_type(imp.type_node, false)), "array_type" | "tuple_type" | "unit_type")
                    || self.text(imp.type_node).trim_start_matches('&').trim_start().starts_with(['[', '(']);
                reference.subject = Some(if reference.blanket || composite {
                    self.text(imp.type_node).split_whitespace().collect::<Vec<_>>().join(" ")
                } else {
                    imp.info.self_type.clone()
                });
                references.push(reference);
            }
        }
    }

    /// Imports, through the language's own syntax.
    pub(super) fn import_refs(&mut self, outline: &Outline, references: &mut Vec<Reference>) {
        let Outline { scopes, scope_parent, def_symbol, .. } = outline;
        for node in std::mem::take(&mut self.imports) {
            let ctx = self.context_at(node.start_byte(), scopes, scope_parent, def_symbol);
            let line = node.start_position().row as u32 + 1;
            match self.spec.language {
                Language::Java => references.extend(java::java_import(self.text(node), line)),
                Language::Rust => {
                    let reexport = node.named_child(0).is_some_and(|c| self.kind(c) == "visibility_modifier");
                    if self.kind(node) == "extern_crate_declaration" {
                        // `extern crate x as y;` brings crate `x` in as `y`, as `use x as y;` does.
                        let Some(name) = node.field("name").map(|n| self.text(n)).filter(|n| *n != "self") else { continue };
                        let mut reference = Reference::new(RefKind::Imports, name.to_string(), line, ctx.symbol);
                        reference.alias = node.field("alias").map(|a| self.text(a).to_string());
                        reference.reexport = reexport;
                        references.push(reference);
                    } else if let Some(argument) = node.field("argument") {
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
}

/// Whether a name is written as Rust writes constants and statics: SCREAMING_CASE, with at
/// least two characters and a letter (`MAX`, `INFO_USIZE`; not `T` or `N`, which name type
/// and const generic parameters).
fn is_constant_name(name: &str) -> bool {
    name.len() > 1
        && name.bytes().any(|b| b.is_ascii_uppercase())
        && name.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// The enum an enum constant creates (`SUCCESS(200, "ok")`, at its arguments; `CUSTOMER`, at
/// the constant, with no arguments), from the symbol around the place: a constant's name
/// lies in its enum's scope, its arguments in its own.
fn enum_created(at: Option<usize>, symbols: &[Symbol]) -> Option<String> {
    let e = at.and_then(|c| if symbols[c].kind == SymbolKind::Enum { Some(c) } else { symbols[c].parent })?;
    (symbols[e].kind == SymbolKind::Enum).then(|| symbols[e].name.clone())
}

/// A reference's name node's parent: the one the matcher's walk gave, else tree-sitter's
/// (`Node::parent` searches down from the root: 6,000 instructions a call on `java.base`).
fn name_parent<'t>(r: &Ref<'t>) -> Option<Node<'t>> {
    r.parent.unwrap_or_else(|| r.name.parent())
}
