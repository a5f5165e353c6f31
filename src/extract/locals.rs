//! Locals and scopes: the variables of each scope (fields, parameters, locals, loop and
//! lambda variables, closure parameters written inside macros) with the type a receiver
//! takes from them, keyed by the symbol that scopes them; and whether a bare name is such
//! a variable rather than a field.
//!
//! Methods of the extractor. It must not make references other than the type uses of
//! macro closure parameters, or do IO.

use super::*;

/// The names of a tuple struct's fields, as `self.0` writes them.
const TUPLE_FIELDS: [&str; 12] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"];

impl<'t> Extractor<'t> {
    /// Pass 2: variables, keyed by the symbol that scopes them: a field by its type, a
    /// local or parameter by its method (or by the field whose initializer holds it). The
    /// type is empty when not written (lambda parameters). Also the definitions' name nodes.
    pub(super) fn variables(&mut self, outline: &Outline) -> (Locals<'t>, HashSet<usize>) {
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
                    // A map's function arguments take its keys too (`(key, value) -> ..`).
                    Receiver::Type(t) if elements.map_value(&t).is_some() => String::new(),
                    Receiver::Type(t) => format!("{}@", self.same_elements(&t)),
                    _ => String::new(),
                };
                // One name for variables of different types in one method (`p` of pets in one
                // lambda, of owners in the next): each from where it is bound.
                bind_local(&mut locals, (ctx.symbol, self.text(*name_node)), name_node.end_byte(), type_text);
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
                // In effect after the statement (`let x = x.parse();` reads the `x` before).
                let at = value.end_byte();
                if let Some(name) = self.tuple_struct_call(*value) {
                    // `let c = Count(0);`: a tuple struct's constructor, by Rust's naming.
                    bind_local(&mut locals, (owner, self.text(*name_node)), at, name.to_string());
                    continue;
                }
                let type_text = match self.typed_receiver(*value, &ctx, symbols, &locals) {
                    // An element of a tuple value: `X~1` (the resolver reads the tuple type).
                    Receiver::Type(t) if !t.contains("[]") => match l.index {
                        Some(i) => format!("{t}~{i}"),
                        None => t,
                    },
                    _ => String::new(),
                };
                bind_local(&mut locals, (owner, self.text(*name_node)), at, type_text);
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
            // A typed `let` is in effect after its statement; a parameter or field from its name.
            let at = value.map_or(name_node.end_byte(), |v| v.end_byte());
            bind_local(&mut locals, (owner, self.text(*name_node)), at, type_text);
        }
        // A tuple struct's fields, by position (`self.0`): its type's locals `0`, `1`, ...
        for (d, def) in self.defs.iter().enumerate() {
            let (SymbolKind::Struct, Some(symbol)) = (def.kind, def_symbol[d]) else { continue };
            let mut cursor = def.node.walk();
            let Some(list) = def.node.children(&mut cursor).find(|c| self.kind(*c) == "ordered_field_declaration_list") else { continue };
            let mut inner = list.walk();
            let types = list.children_by_field_name("type", &mut inner);
            for (position, ty) in types.enumerate().take(TUPLE_FIELDS.len()) {
                let type_text = self.container_type(ty).unwrap_or_else(|| self.type_path(ty));
                bind_local(&mut locals, (Some(symbol), TUPLE_FIELDS[position]), 0, type_text);
            }
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
    pub(super) fn macro_closure_params(&self, outline: &Outline, locals: &mut Locals<'t>) -> Vec<Reference> {
        let Outline { scopes, scope_parent, def_symbol, .. } = outline;
        let mut param_types: Vec<Reference> = Vec::new();
        if !self.spec.token_macros.is_empty() {
            for r in self.refs.iter().filter(|r| r.kind == RefKind::Expands) {
                let Some(invocation) = r.name.parent().filter(|p| self.kind(*p) == "macro_invocation") else { continue };
                let mut cursor = invocation.walk();
                let Some(tree) = invocation.children(&mut cursor).find(|c| self.kind(*c) == "token_tree") else { continue };
                // An input read as code has its closures and macros from its own tree.
                if self.reparsed.contains(&tree.id()) {
                    continue;
                }
                // Most invocations hold no closure and no macro: their text says so without a walk.
                let text = self.text(tree);
                if !(text.contains('|') || text.contains('!')) || !self.in_code_macro(tree) {
                    continue;
                }
                let ctx = self.context_at(tree.start_byte(), scopes, scope_parent, def_symbol);
                let (params, macros) = self.macro_tokens(tree);
                for (name, ty, line) in params {
                    // The parameter's type is a type use, as it is outside a macro.
                    param_types.push(Reference::new(RefKind::UsesType, ty.clone(), line, ctx.symbol));
                    bind_local(locals, (ctx.symbol, name), 0, ty);
                }
                // Macros invoked in the tokens (`eqnice!(..)` inside `rgtest!(..)`).
                for (name, line) in macros {
                    param_types.push(Reference::new(RefKind::Expands, name.to_string(), line, ctx.symbol));
                }
            }
        }
        param_types
    }
}

/// Whether a bare name at a place is a variable of the enclosing code rather than a field:
/// a variable of a method (or initializer) on the way out, before a type declaring a field
/// of that name.
/// The type `name` is bound to at `pos`, looked up from the scope of symbol `from` outward
/// (a method's locals and parameters, then what encloses it), as written.
pub(super) fn local_type(locals: &Locals<'_>, symbols: &[Symbol], mut from: Option<usize>, name: &str, pos: usize) -> Option<String> {
    loop {
        if let Some(t) = locals.get(&(from, name)) {
            return Some(t.at(pos).to_string());
        }
        from = symbols[from?].parent;
    }
}

pub(super) fn is_local(name: &str, mut at: Option<usize>, symbols: &[Symbol], locals: &Locals<'_>) -> bool {
    while let Some(i) = at {
        if locals.contains_key(&(Some(i), name)) {
            return !symbols[i].kind.is_type();
        }
        at = symbols[i].parent;
    }
    false
}
