//! Java: members inherited from library supertypes (`frameworks::libraries`). A class or
//! interface whose `extends`/`implements` names a library type the file imports gets each
//! member that type gives it as a symbol of its own, at the supertype's line.
//!
//! Reads the declaration's supertypes from the tree; what each library type declares is the
//! rules file's. It must not resolve names beyond the file's imports.

use super::*;
use crate::frameworks::libraries;

impl<'t> Extractor<'t> {
    /// Adds the inherited library members of each class and interface of the file.
    /// `imports` are the file's import references (what makes a simple name a library's).
    pub(super) fn library_members(&self, symbols: &mut Vec<Symbol>, def_symbol: &[Option<usize>], imports: &[(String, bool)]) {
        let mut added = Vec::new();
        for (d, s) in def_symbol.iter().enumerate() {
            let Some(c) = *s else { continue };
            if !matches!(symbols[c].kind, SymbolKind::Class | SymbolKind::Interface) {
                continue;
            }
            let node = self.defs[d].node;
            for (supertype, line) in self.written_supertypes(node) {
                let (name, args) = libraries::split_generic(&supertype);
                let Some(qualified) = library_type(&name, imports) else { continue };
                let offset = node.start_byte();
                let erase =
                    |simple: &str| self.type_param_erasure(simple, offset).map(crate::model::last_segment).unwrap_or(simple).to_string();
                let declared = |name: &str, params: &Option<String>| {
                    symbols.iter().chain(added.iter()).any(|m: &Symbol| m.parent == Some(c) && m.name == name && &m.params == params)
                };
                let mut mine = Vec::new();
                for m in libraries::inherited(qualified, &args, &erase) {
                    let is_field = m.kind == SymbolKind::Field;
                    if (is_field && symbols.iter().any(|f| f.parent == Some(c) && f.name == m.name)) || declared(&m.name, &m.params) {
                        continue;
                    }
                    let sep = self.spec.member_separator;
                    let visibility = if is_field { "protected" } else { "public" };
                    let mut modifiers = visibility.to_string();
                    add_modifier(&mut modifiers, "inherited");
                    mine.push(Symbol {
                        kind: m.kind,
                        qname: format!("{}{sep}{}", symbols[c].qname, m.name),
                        name: m.name,
                        parent: Some(c),
                        visibility: visibility.to_string(),
                        modifiers,
                        signature: format!("{}  [inherited from {}]", m.signature, m.from),
                        doc: String::new(),
                        start_line: line,
                        end_line: line,
                        impl_of: None,
                        returns: self.returns_form(&m.returns, &erase),
                        params: m.params,
                    });
                }
                added.extend(mine);
            }
        }
        symbols.extend(added);
    }

    /// The supertypes a class or interface declaration writes, as written (white space
    /// dropped), with their lines.
    fn written_supertypes(&self, node: Node<'t>) -> Vec<(String, u32)> {
        let mut out = Vec::new();
        let mut cursor = node.walk();
        for clause in node.named_children(&mut cursor) {
            let types: Vec<Node> = match self.kind(clause) {
                "superclass" => clause.named_child(0).into_iter().collect(),
                "super_interfaces" | "extends_interfaces" => {
                    let mut c = clause.walk();
                    let list = clause.named_children(&mut c).find(|n| self.kind(*n) == "type_list");
                    list.map(|l| {
                        let mut c = l.walk();
                        l.named_children(&mut c).collect()
                    })
                    .unwrap_or_default()
                }
                _ => continue,
            };
            for t in types {
                out.push((self.text(t).split_whitespace().collect::<Vec<_>>().join(" "), t.start_position().row as u32 + 1));
            }
        }
        out
    }

    /// A type as `Symbol::returns` holds it (see the outline): a container with its
    /// element (`Optional<Order>`), else the erased simple name.
    fn returns_form(&self, ty: &str, erase: &dyn Fn(&str) -> String) -> Option<String> {
        let (name, args) = libraries::split_generic(ty);
        // Qualified by the table's imports (`java.util.Optional`): kept so.
        let base = if name.contains('.') { name.clone() } else { erase(crate::model::last_segment(&name)) };
        if base.is_empty() || base.contains('[') {
            return None;
        }
        let element = args.first().filter(|_| self.spec.elements().is_container(crate::model::last_segment(&base))).and_then(|arg| {
            let arg = arg.strip_prefix("? extends ").unwrap_or(arg);
            let (elem, _) = libraries::split_generic(arg);
            (!elem.contains('?')).then(|| erase(crate::model::last_segment(&elem)))
        });
        Some(match element {
            Some(e) => format!("{base}<{e}>"),
            None => base,
        })
    }
}

/// The library type a supertype written `name` is: qualified, or a simple name the file
/// imports by name or by its package's `.*`.
fn library_type(name: &str, imports: &[(String, bool)]) -> Option<&'static str> {
    if name.contains('.') {
        return libraries::named(crate::model::last_segment(name)).find(|q| *q == name);
    }
    libraries::named(name).find(|q| {
        let package = q.rsplit_once('.').map_or("", |(p, _)| p);
        imports.iter().any(|(path, glob)| if *glob { path == package } else { path == q })
    })
}
