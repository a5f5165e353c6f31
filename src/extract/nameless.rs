//! Java: implementations without a name. An anonymous class (`new Listener() { .. }`) is a
//! class symbol `$1` under the method or field that creates it, its members its own, and
//! it extends or implements the type it is created from. A lambda or method reference whose
//! target type is declared where it stands (a variable's or field's type, the enclosing
//! method's return type, a cast) is a symbol `$2` that implements that type; one passed as
//! an argument is one too, and implements what the resolver finds the callee's parameter
//! to be (`model::lambda_argument`). Numbered per enclosing symbol, anonymous classes
//! first, each in source order.
//!
//! Their code stays the enclosing member's: calls in their bodies are made from it
//! (`context_at`), and the impact walk reaches it from them. Methods of the extractor; it
//! must not resolve names.

use super::fields::Fields;
use super::*;

impl<'t> Extractor<'t> {
    /// The symbol of the anonymous class whose body starts at `start`, under `holder`.
    pub(super) fn anonymous_symbol(&self, start: usize, holder: usize, symbols: &[Symbol]) -> Option<Symbol> {
        if self.spec.language != Language::Java {
            return None;
        }
        let body = self.anonymous.iter().find(|a| a.start_byte() == start)?;
        let creation = body.parent()?;
        let head = self.src.get(creation.start_byte()..body.start_byte())?;
        let signature = format!("{} {{ .. }}", head.split_whitespace().collect::<Vec<_>>().join(" "));
        Some(self.nameless_symbol(SymbolKind::Class, creation, holder, signature, "anonymous", symbols))
    }

    /// A nameless symbol under `holder`: `$N`, N the holder's next number.
    fn nameless_symbol(
        &self,
        kind: SymbolKind,
        node: Node<'t>,
        holder: usize,
        signature: String,
        marker: &str,
        symbols: &[Symbol],
    ) -> Symbol {
        let n = symbols.iter().filter(|s| s.parent == Some(holder) && s.name.starts_with('$')).count() + 1;
        let name = format!("${n}");
        Symbol {
            kind,
            qname: format!("{}{}{name}", symbols[holder].qname, self.spec.type_separator),
            name,
            parent: Some(holder),
            visibility: "private".to_string(),
            modifiers: format!("private {marker}"),
            signature,
            doc: String::new(),
            start_line: node.start_position().row as u32 + 1,
            end_line: node.end_position().row as u32 + 1,
            impl_of: None,
            returns: None,
            params: None,
        }
    }

    /// The innermost anonymous class whose body holds `offset`.
    pub(super) fn anonymous_around(&self, offset: usize, scopes: &[Scope], parent: &[Option<usize>]) -> Option<usize> {
        let mut cur = scopes.partition_point(|s| s.start <= offset).checked_sub(1);
        while let Some(k) = cur {
            if let (true, ScopeWhat::Anonymous(Some(i))) = (scopes[k].end > offset, scopes[k].what) {
                return Some(i);
            }
            cur = parent[k];
        }
        None
    }

    /// The supertype references of the anonymous classes, and the lambdas' symbols and
    /// theirs.
    pub(super) fn nameless_implementations(
        &self,
        outline: &mut Outline,
        references: &mut Vec<Reference>,
        lambda_calls: &HashMap<usize, Reference>,
        locals: &Locals<'t>,
    ) {
        for scope in &outline.scopes {
            let ScopeWhat::Anonymous(Some(i)) = scope.what else { continue };
            let Some(body) = self.anonymous.iter().find(|a| a.start_byte() == scope.start) else { continue };
            let Some(ty) = body.parent().and_then(|c| c.field("type")) else { continue };
            let path = self.type_path(ty);
            if !path.is_empty() {
                references.push(Reference::new(RefKind::Extends, path, ty.start_position().row as u32 + 1, Some(i)));
            }
        }
        for lambda in &self.lambdas {
            // What it implements: a type as written, or the callee's parameter (the call's
            // reference, retyped; resolved once the callee is known).
            // Through `cond ? a -> .. : b -> ..` and parentheses to where its value goes.
            let mut value = *lambda;
            let mut site = lambda.parent();
            while let Some(p) = site.filter(|p| matches!(self.kind(*p), "ternary_expression" | "parenthesized_expression")) {
                if p.field("condition").is_some_and(|c| c.id() == value.id()) {
                    break;
                }
                (value, site) = (p, p.parent());
            }
            let Some(site) = site else { continue };
            let (signature, mut implemented) = match self.lambda_target(site, outline, locals) {
                Some(paths) => {
                    let Some(first) = paths.first().filter(|p| !p.is_empty() && *p != "var") else { continue };
                    let signature = format!("{} = {}", crate::model::last_segment(first), self.lambda_shown(*lambda));
                    (signature, paths.into_iter().map(|p| Reference::new(RefKind::Implements, p, 0, None)).collect())
                }
                None => {
                    let Some((call, index)) = self.lambda_call(value, site, lambda_calls) else { continue };
                    let before = if index > 0 { ".., " } else { "" };
                    let signature = format!("{}({before}{})", crate::model::last_segment(&call.name), self.lambda_shown(*lambda));
                    let mut reference = call.clone();
                    reference.alias = Some(crate::model::lambda_argument(call.kind, index));
                    reference.kind = RefKind::Implements;
                    (signature, vec![reference])
                }
            };
            let ctx = self.context_at(lambda.start_byte(), &outline.scopes, &outline.scope_parent, &outline.def_symbol);
            let Some(holder) = ctx.symbol else { continue };
            let symbol = self.nameless_symbol(SymbolKind::Function, *lambda, holder, signature, "lambda", &outline.symbols);
            for reference in &mut implemented {
                reference.line = symbol.start_line;
                reference.enclosing = Some(outline.symbols.len());
            }
            references.append(&mut implemented);
            outline.symbols.push(symbol);
        }
    }

    /// A lambda as an outline shows it: its parameters (`event -> ..`), or a method
    /// reference as written.
    fn lambda_shown(&self, lambda: Node<'t>) -> String {
        match self.kind(lambda) {
            "lambda_expression" => match lambda.field("parameters") {
                Some(p) => format!("{} -> ..", self.text(p).split_whitespace().collect::<Vec<_>>().join(" ")),
                None => "-> ..".to_string(),
            },
            _ => self.text(lambda).split_whitespace().collect(),
        }
    }

    /// The call or creation a lambda is an argument of, and its place among the arguments.
    fn lambda_call<'r>(
        &self,
        lambda: Node<'t>,
        list: Node<'t>,
        lambda_calls: &'r HashMap<usize, Reference>,
    ) -> Option<(&'r Reference, usize)> {
        if self.kind(list) != "argument_list" {
            return None;
        }
        let call = lambda_calls.get(&list.start_byte())?;
        let mut cursor = list.walk();
        let index = list
            .named_children(&mut cursor)
            .filter(|a| !self.spec.comment_kinds.contains(&self.kind(*a)))
            .position(|a| a.id() == lambda.id())?;
        Some((call, index))
    }

    /// The type a lambda or method reference is converted to where its value goes (`site`),
    /// when declared there: the variable's (declared or assigned), the enclosing method's
    /// return type (not a lambda's own `return`), the cast's (each type of an intersection,
    /// `(Comparator<T> & Serializable)`).
    fn lambda_target(&self, site: Node<'t>, outline: &Outline, locals: &Locals<'t>) -> Option<Vec<String>> {
        let ty = match self.kind(site) {
            "variable_declarator" => site.parent()?.field("type"),
            "cast_expression" => {
                let mut cursor = site.walk();
                let types: Vec<String> = site.children_by_field_name("type", &mut cursor).map(|t| self.type_path(t)).collect();
                return (!types.is_empty()).then_some(types);
            }
            "return_statement" => {
                let mut up = site.parent();
                loop {
                    let n = up?;
                    match self.kind(n) {
                        "method_declaration" => break n.field("type"),
                        "lambda_expression" | "class_body" | "constructor_declaration" => return None,
                        _ => up = n.parent(),
                    }
                }
            }
            // `accumulator = (m, t) -> ..`, `this.handler = ..`: the variable's declared type.
            "assignment_expression" => {
                let left = site.field("left")?;
                let name = match self.kind(left) {
                    "identifier" => self.text(left),
                    "field_access" if left.field("object").is_some_and(|o| self.kind(o) == "this") => self.text(left.field("field")?),
                    _ => return None,
                };
                let ctx = self.context_at(site.start_byte(), &outline.scopes, &outline.scope_parent, &outline.def_symbol);
                let written = local_type(locals, &outline.symbols, ctx.symbol, name, site.start_byte())?;
                let base = crate::model::without_element(&written).trim();
                return (!base.is_empty() && !base.contains(['@', '#', '?'])).then(|| vec![base.to_string()]);
            }
            _ => None,
        }?;
        Some(vec![self.type_path(ty)])
    }
}
