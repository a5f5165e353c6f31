//! Java: calls the JDK makes of the values code gives it (`elements.toml`'s `callbacks`):
//! `Collections.sort(regions)` calls each region's `compareTo`, `new Thread(worker)` its
//! `run`, `new HashSet<Key>()` its `hashCode` and `equals`, a try-with-resources its
//! resource's `close`. Each is a `calls` reference from the code that makes it, at its
//! line, with `alias` naming what makes it; the resolver keeps it only when it reaches a
//! method of the repository.
//!
//! Methods of the extractor; it must not resolve names.

use super::fields::Fields;
use super::*;
use crate::lang::Callback;

impl<'t> Extractor<'t> {
    /// The implicit calls a call or creation makes (`reference`, as extracted, with its
    /// name node and argument list). Runs for every Java call with arguments: rules are
    /// matched on the written names before anything is typed.
    pub(super) fn callback_calls(
        &self,
        reference: &Reference,
        name: Node<'t>,
        args: Node<'t>,
        ctx: &Context,
        symbols: &[Symbol],
        locals: &Locals<'t>,
    ) -> Vec<Reference> {
        let simple = crate::model::last_segment(&reference.name);
        let owner = match (&reference.kind, &reference.receiver) {
            (RefKind::Instantiates, _) => None,
            (RefKind::Calls, Receiver::Type(t)) if is_type_name(t) => Some(crate::model::last_segment(t)),
            (RefKind::Calls, _) => Some(""),
            _ => return Vec::new(),
        };
        // `new Type`, `Owner.method` (a static call), `.method` (on any receiver).
        let matches = |on: &str| match owner {
            None => on.strip_prefix("new ") == Some(simple),
            Some(owner) => on.rsplit_once('.').is_some_and(|(o, m)| m == simple && (o.is_empty() || o == owner)),
        };
        let arity = args.named_child_count();
        let argument = |i: usize| match self.typed_receiver(args.named_child(i as u32)?, ctx, symbols, locals) {
            Receiver::Type(t) if !t.is_empty() => Some(t),
            _ => None,
        };
        let mut out = Vec::new();
        for rule in self.spec.elements().callbacks.iter().filter(|r| matches(&r.on) && r.arity.is_none_or(|a| a == arity)) {
            let Some(of) = self.callback_owner(rule, reference, name, &argument) else { continue };
            if !self.is_java_lang(&of) {
                out.extend(implicit_calls(rule, of, reference.line, ctx.symbol));
            }
        }
        out
    }

    /// A receiver that is (the elements of a container of) a `java.lang` type, `String`,
    /// `Integer`: its methods are none of the repository's.
    fn is_java_lang(&self, of: &str) -> bool {
        let of = of.strip_suffix('@').map_or(of, |c| crate::model::split_container(c).map_or(c, |(_, element)| element));
        self.spec.implicit_names.iter().any(|(simple, _)| *simple == of)
    }

    /// The type whose methods a rule's call calls, as a receiver; `argument` types the
    /// call's arguments.
    fn callback_owner(
        &self,
        rule: &Callback,
        reference: &Reference,
        name: Node<'t>,
        argument: &dyn Fn(usize) -> Option<String>,
    ) -> Option<String> {
        let elements = |t: String| match t.strip_suffix("[]") {
            Some(element) => element.to_string(),
            None => format!("{t}@"),
        };
        match rule.of.as_str() {
            "arg0" => argument(0).filter(|t| !t.ends_with("[]")),
            "arg1" => argument(1).filter(|t| !t.ends_with("[]")),
            "arg0 elements" => argument(0).map(elements),
            "receiver elements" => match &reference.receiver {
                Receiver::Type(t) if !t.is_empty() => Some(elements(t.clone())),
                _ => None,
            },
            "type argument" => {
                let mut creation = name;
                while self.kind(creation) != "object_creation_expression" {
                    creation = creation.parent()?;
                }
                let written = creation.field("type")?;
                self.first_type_argument(written).or_else(|| {
                    // `Set<Key> keys = new HashSet<>()`: the declared variable's.
                    let declarator = creation.parent().filter(|p| self.kind(*p) == "variable_declarator")?;
                    self.first_type_argument(declarator.parent()?.field("type")?)
                })
            }
            _ => None,
        }
    }

    /// `HashMap<Key, V>` -> `Key`; none for a raw type or `<>`.
    fn first_type_argument(&self, ty: Node<'t>) -> Option<String> {
        if self.kind(ty) != "generic_type" {
            return None;
        }
        let mut cursor = ty.walk();
        let args = ty.named_children(&mut cursor).find(|c| self.kind(*c) == "type_arguments")?;
        let first = args.named_child(0)?;
        let path = self.type_path(first);
        (!path.is_empty()).then_some(path)
    }

    /// A try-with-resources resource's `close`, per rule `try`.
    pub(super) fn resource_calls(&self, outline: &Outline, references: &mut Vec<Reference>) {
        let Some(rule) = self.spec.elements().callbacks.iter().find(|r| r.on == "try" && r.of == "resource") else { return };
        for ty in &self.resources {
            let path = self.type_path(*ty);
            if path.is_empty() || path == "var" || self.is_java_lang(&path) {
                continue;
            }
            let ctx = self.context_at(ty.start_byte(), &outline.scopes, &outline.scope_parent, &outline.def_symbol);
            references.extend(implicit_calls(rule, path, ty.start_position().row as u32 + 1, ctx.symbol));
        }
    }
}

/// A receiver written as a type name (`Collections`), not a chain or an element.
fn is_type_name(t: &str) -> bool {
    crate::model::last_segment(t).starts_with(|c: char| c.is_ascii_uppercase()) && !t.contains(['#', '@', '<', '['])
}

/// The rule's calls on `of`, from `enclosing` at `line`, marked with what makes them.
fn implicit_calls(rule: &Callback, of: String, line: u32, enclosing: Option<usize>) -> Vec<Reference> {
    let via = rule.on.trim_start_matches('.').to_string();
    rule.methods()
        .map(|(method, arity)| {
            let mut r = Reference::new(RefKind::Calls, method.to_string(), line, enclosing);
            r.receiver = Receiver::Type(of.clone());
            r.args = Some(vec!["?"; arity].join(",").into_boxed_str());
            r.alias = Some(via.clone());
            r
        })
        .collect()
}
