//! Declarations and the outline: the definitions the query captured, de-duplicated and
//! nested into scopes (with anonymous bodies and impl blocks); each one's symbol with its
//! parent, qualified name, kind, visibility, signature, doc and return type; and, for any
//! byte offset, the innermost symbol and impl around it (`context_at`) and what `Self`
//! names there.
//!
//! Methods of the extractor. It must not make references or type expressions, or do IO.

use super::fields::Fields;
use super::*;

impl<'t> Extractor<'t> {
    /// Definitions, de-duplicated (one node may match twice), with anonymous bodies and impl
    /// blocks, as scopes ordered so that a parent comes before its children.
    pub(super) fn scopes(&mut self) -> Vec<Scope> {
        let mut seen = HashSet::default();
        self.defs.retain(|d| seen.insert((d.node.id(), d.name.id())));
        let mut scopes: Vec<Scope> = Vec::new();
        for (i, d) in self.defs.iter().enumerate() {
            scopes.push(Scope { start: d.node.start_byte(), end: d.node.end_byte(), node_id: d.node.id(), what: ScopeWhat::Def(i) });
        }
        for a in &self.anonymous {
            scopes.push(Scope { start: a.start_byte(), end: a.end_byte(), node_id: a.id(), what: ScopeWhat::Anonymous(None) });
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
    pub(super) fn outline(&mut self, mut scopes: Vec<Scope>) -> Outline {
        self.list_siblings();
        let mut symbols: Vec<Symbol> = Vec::new();
        let mut def_symbol: Vec<Option<usize>> = vec![None; self.defs.len()];
        // Each scope's enclosing scope (an index into `scopes`), for `context_at`.
        let mut scope_parent: Vec<Option<usize>> = vec![None; scopes.len()];
        let mut stack: Vec<usize> = Vec::new();
        for k in 0..scopes.len() {
            let scope = scopes[k];
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
            if let ScopeWhat::Anonymous(None) = scope.what {
                let holder = enclosing_idx.and_then(|e| match scopes[e].what {
                    ScopeWhat::Def(d) => def_symbol[d],
                    ScopeWhat::Anonymous(anon) => anon,
                    ScopeWhat::Impl(_) => None,
                });
                if let Some(symbol) = holder.and_then(|h| self.anonymous_symbol(scope.start, h, &symbols)) {
                    scopes[k].what = ScopeWhat::Anonymous(Some(symbols.len()));
                    symbols.push(symbol);
                }
            }
            if let ScopeWhat::Def(def_idx) = scope.what {
                let enclosing = enclosing_idx.map(|i| scopes[i]);
                let def = self.defs[def_idx];
                let symbol = match enclosing.map(|s| s.what) {
                    None => Some(self.make_symbol(def, None, None, &symbols)),
                    Some(ScopeWhat::Def(parent_def)) => def_symbol[parent_def].map(|p| self.make_symbol(def, Some(p), None, &symbols)),
                    Some(ScopeWhat::Anonymous(anon)) => anon.map(|p| self.make_symbol(def, Some(p), None, &symbols)),
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
            // A procedural macro is a macro to the code that uses it (`#[instrument]`).
            (SymbolKind::Function, None, _) if self.is_proc_macro(def.node) => SymbolKind::Macro,
            (SymbolKind::Function, Some(_), _) => SymbolKind::Method,
            (SymbolKind::Function, None, Some(SymbolKind::Trait)) => SymbolKind::Method,
            (kind, _, _) => kind,
        };
        let (mut visibility, mut modifiers) = self.modifiers(def.node);
        // `#[macro_export]` makes a `macro_rules!` macro public, at its crate's root.
        if def.kind == SymbolKind::Macro
            && self.attributes_before(def.node).iter().any(|a| a.named_child(0).is_some_and(|p| self.text(p) == "macro_export"))
        {
            visibility = "pub".to_string();
        }
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
            signature: if def.kind == SymbolKind::Macro {
                format!("macro_rules! {}", self.text(def.name))
            } else {
                self.signature(def.node)
            },
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
            // no receiver, written after the name too (Java's `int data[];`, `int f()[]`).
            // A Java array of a primitive type keeps its form (`int[]`, for the overloads an
            // argument `big.data` fits).
            returns: if let Some(array) = self.primitive_array(def.node, def.name) {
                Some(array)
            } else if (kind.is_callable() || matches!(kind, SymbolKind::Field | SymbolKind::Const | SymbolKind::Static))
                && self.dims_after_name(def.node, def.name) == 0
            {
                def.node
                    .field("type")
                    .or_else(|| def.node.field("return_type"))
                    .map(|t| self.unwrapped(t))
                    .and_then(|t| self.container_type(t).or_else(|| (!self.is_array(t)).then(|| self.type_path(t))))
                    .filter(|t| !t.is_empty())
            } else {
                None
            },
            params: if kind.is_callable() && spec.language == Language::Java { self.params(def.node) } else { None },
        }
    }

    /// The array dimensions a Java declaration writes after its name (`int data[];`,
    /// `int f()[]`), which make its type an array of the written one.
    fn dims_after_name(&self, node: Node<'t>, name: Node<'t>) -> usize {
        if self.spec.language != Language::Java {
            return 0;
        }
        // The declarator among the node's own (`int a, b[];`), found downwards: a node's
        // parent is a walk from the root in tree-sitter, and this runs for every symbol.
        let mut cursor = node.walk();
        let declarator = node
            .children_by_field_name("declarator", &mut cursor)
            .find(|d| d.field("name").is_some_and(|n| n.id() == name.id()))
            .unwrap_or(node);
        declarator.field("dimensions").map_or(0, |d| self.text(d).matches('[').count())
    }

    /// A Java field's or method's type when it is an array of a primitive type, dimensions
    /// after the name included: `int[]` for `int[] data;` and `int data[];`.
    fn primitive_array(&self, node: Node<'t>, name: Node<'t>) -> Option<String> {
        if self.spec.language != Language::Java {
            return None;
        }
        let t = node.field("type")?;
        let (element, mut dims) = match self.kind(t) {
            "array_type" => (t.field("element")?, t.field("dimensions").map_or(0, |d| self.text(d).matches('[').count())),
            _ => (t, 0),
        };
        dims += self.dims_after_name(node, name);
        (dims > 0 && matches!(self.kind(element), "integral_type" | "floating_point_type" | "boolean_type"))
            .then(|| format!("{}{}", self.text(element), "[]".repeat(dims)))
    }

    /// The innermost symbol and impl around a byte offset.
    pub(super) fn context_at(&self, offset: usize, scopes: &[Scope], parent: &[Option<usize>], def_symbol: &[Option<usize>]) -> Context {
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
                    // The body of an anonymous class is the code of what encloses it (its calls
                    // are that method's), though its members are symbols.
                    ScopeWhat::Anonymous(_) => ctx.symbol = None,
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
    pub(super) fn self_type(&self, ctx: &Context, symbols: &[Symbol]) -> Option<String> {
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
}
