//! Java: implementations without a name. An anonymous class (`new Listener() { .. }`) is a
//! class symbol `$1` under the method or field that creates it, its members its own, and
//! it extends or implements the type it is created from. A lambda or method reference whose
//! target type is declared where it stands (a variable's or field's type, the enclosing
//! method's return type, a cast) is a symbol `$2` that implements that type. Numbered per
//! enclosing symbol, anonymous classes first, each in source order.
//!
//! Their code stays the enclosing member's: calls in their bodies are made from it
//! (`context_at`), and the impact walk reaches it from them. Methods of the extractor; it
//! must not resolve names.

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
    pub(super) fn nameless_implementations(&self, outline: &mut Outline, references: &mut Vec<Reference>) {
        for scope in &outline.scopes {
            let ScopeWhat::Anonymous(Some(i)) = scope.what else { continue };
            let Some(body) = self.anonymous.iter().find(|a| a.start_byte() == scope.start) else { continue };
            let Some(ty) = body.parent().and_then(|c| c.child_by_field_name("type")) else { continue };
            let path = self.type_path(ty);
            if !path.is_empty() {
                references.push(Reference::new(RefKind::Extends, path, ty.start_position().row as u32 + 1, Some(i)));
            }
        }
        for lambda in &self.lambdas {
            let Some(ty) = self.lambda_target(*lambda) else { continue };
            let path = self.type_path(ty);
            if path.is_empty() || path == "var" {
                continue;
            }
            let ctx = self.context_at(lambda.start_byte(), &outline.scopes, &outline.scope_parent, &outline.def_symbol);
            let Some(holder) = ctx.symbol else { continue };
            let shown = match self.kind(*lambda) {
                "lambda_expression" => match lambda.child_by_field_name("parameters") {
                    Some(p) => format!("{} -> ..", self.text(p).split_whitespace().collect::<Vec<_>>().join(" ")),
                    None => "-> ..".to_string(),
                },
                _ => self.text(*lambda).split_whitespace().collect(),
            };
            let signature = format!("{} = {shown}", crate::model::last_segment(&path));
            let symbol = self.nameless_symbol(SymbolKind::Function, *lambda, holder, signature, "lambda", &outline.symbols);
            references.push(Reference::new(RefKind::Implements, path, symbol.start_line, Some(outline.symbols.len())));
            outline.symbols.push(symbol);
        }
    }

    /// The type a lambda or method reference is converted to, where it is declared: the
    /// variable's, the enclosing method's return type (not a lambda's own `return`), the cast's.
    fn lambda_target(&self, lambda: Node<'t>) -> Option<Node<'t>> {
        let parent = lambda.parent()?;
        match self.kind(parent) {
            "variable_declarator" => parent.parent()?.child_by_field_name("type"),
            "cast_expression" => parent.child_by_field_name("type"),
            "return_statement" => {
                let mut up = parent.parent();
                while let Some(n) = up {
                    match self.kind(n) {
                        "method_declaration" => return n.child_by_field_name("type"),
                        "lambda_expression" | "class_body" | "constructor_declaration" => return None,
                        _ => up = n.parent(),
                    }
                }
                None
            }
            _ => None,
        }
    }
}
