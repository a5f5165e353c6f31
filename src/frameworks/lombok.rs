//! Lombok (`grammars/frameworks/lombok.toml`): the members its annotations generate
//! (accessors, constructors, builders, loggers), computed from a class's facts (its
//! annotations, its fields, the members it declares itself) as plain values that the
//! extractor turns into symbols, so that `order.getDiscountId()` resolves.
//!
//! Owns the rules and their application. It must not walk syntax trees (the extractor
//! gathers the facts) nor touch the store.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use super::{Annotation, Value};
use crate::model::SymbolKind;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// Annotations that make a field one a "required" constructor takes.
    #[serde(default)]
    pub non_null: Vec<String>,
    /// By simple name.
    pub annotations: BTreeMap<String, Rule>,
}

/// What one annotation generates.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Where it counts: `class`, `field`.
    pub on: Vec<String>,
    #[serde(default)]
    pub getters: bool,
    #[serde(default)]
    pub setters: bool,
    pub constructor: Option<Constructor>,
    #[serde(default)]
    pub builder: bool,
    /// The type of the static `log` field it adds.
    pub logger: Option<String>,
    /// Its constructor only when the class declares none (`@Data`, `@Value`).
    #[serde(default)]
    pub unless_constructor: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Constructor {
    /// No arguments.
    None,
    /// Final fields and fields marked non-null.
    Required,
    /// Every non-static field.
    All,
}

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| toml::from_str(super::rules_source("lombok.toml")).expect("grammars/frameworks/lombok.toml is valid"))
}

/// Whether the extractor should keep an annotation of this simple name for Lombok.
pub fn is_known(name: &str) -> bool {
    let r = rules();
    r.annotations.contains_key(name) || r.non_null.iter().any(|n| n == name)
}

/// A field as the extractor saw it.
pub struct Field {
    pub name: String,
    /// The type as written (`List<Pet>`), for signatures.
    pub written: String,
    /// The erased simple type (`List`), for parameter lists.
    pub erased: String,
    /// The field symbol's `returns` (`List<Pet>`, `Pet`), for chains through an accessor.
    pub returns: Option<String>,
    pub is_static: bool,
    pub is_final: bool,
    /// Written with an initializer (`final int max = 3;` is no constructor argument).
    pub initialized: bool,
    pub annotations: Vec<Annotation>,
    pub start_line: u32,
    pub end_line: u32,
}

/// A class as the extractor saw it.
pub struct Class {
    pub name: String,
    pub annotations: Vec<Annotation>,
    pub fields: Vec<Field>,
    /// The members it declares: (name, erased parameter types), `Symbol::params`' form.
    pub declared: Vec<(String, String)>,
    pub start_line: u32,
}

/// Where a generated member goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    Class,
    /// The nested `<Class>Builder` (itself generated, as `Member` with kind `Class`).
    Builder,
}

/// A generated member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub kind: SymbolKind,
    pub owner: Owner,
    pub name: String,
    /// Erased parameter types (`Symbol::params`); `None` for fields and classes.
    pub params: Option<String>,
    pub returns: Option<String>,
    pub signature: String,
    /// The annotation that generates it (`@Data`), for the outline.
    pub by: String,
    pub is_static: bool,
    pub start_line: u32,
    pub end_line: u32,
}

/// `AccessLevel.NONE` turns an accessor off.
fn turned_off(a: &Annotation) -> bool {
    a.args.iter().any(|(k, v)| k == "value" && matches!(v, Value::Name(n) if n.ends_with("NONE")))
}

fn capitalized(name: &str) -> String {
    let mut c = name.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The names Lombok's accessors of a field take: `getX`, `isX` (a `boolean`), `setX`.
pub fn accessor_names(field: &str) -> [String; 3] {
    let cap = capitalized(field);
    [format!("get{cap}"), format!("is{cap}"), format!("set{cap}")]
}

/// The members Lombok generates for a class, in a stable order: the logger, constructors,
/// accessors field by field, the builder.
pub fn members(class: &Class) -> Vec<Member> {
    let r = rules();
    let on = |a: &Annotation, place: &str| r.annotations.get(&a.name).filter(|rule| rule.on.iter().any(|o| o == place));
    let class_rules: Vec<(&Annotation, &Rule)> = class.annotations.iter().filter_map(|a| on(a, "class").map(|rule| (a, rule))).collect();
    let mut out: Vec<Member> = Vec::new();
    let declared = |name: &str, params: &str| class.declared.iter().any(|(n, p)| n == name && p == params);
    let line = class.start_line;
    let instance: Vec<&Field> = class.fields.iter().filter(|f| !f.is_static).collect();
    for (a, rule) in &class_rules {
        if let Some(logger) = &rule.logger {
            if !class.fields.iter().any(|f| f.name == "log") {
                out.push(Member {
                    kind: SymbolKind::Field,
                    owner: Owner::Class,
                    name: "log".into(),
                    params: None,
                    returns: Some(logger.clone()),
                    signature: format!("private static final {logger} log"),
                    by: format!("@{}", a.name),
                    is_static: true,
                    start_line: line,
                    end_line: line,
                });
            }
        }
    }
    for (a, rule) in &class_rules {
        let Some(kind) = rule.constructor else { continue };
        if rule.unless_constructor && class.declared.iter().any(|(n, _)| *n == class.name) {
            continue;
        }
        let settable: Vec<&Field> = instance.iter().copied().filter(|f| !(f.is_final && f.initialized)).collect();
        let taken: Vec<&Field> = match kind {
            Constructor::None => Vec::new(),
            Constructor::All => settable,
            Constructor::Required => {
                settable.into_iter().filter(|f| f.is_final || f.annotations.iter().any(|x| r.non_null.contains(&x.name))).collect()
            }
        };
        let params: Vec<&str> = taken.iter().map(|f| f.erased.as_str()).collect();
        let params = params.join(",");
        if declared(&class.name, &params) || out.iter().any(|m| m.kind == SymbolKind::Constructor && m.params.as_deref() == Some(&params)) {
            continue;
        }
        let written: Vec<String> = taken.iter().map(|f| format!("{} {}", f.written, f.name)).collect();
        out.push(Member {
            kind: SymbolKind::Constructor,
            owner: Owner::Class,
            name: class.name.clone(),
            params: Some(params),
            returns: None,
            signature: format!("public {}({})", class.name, written.join(", ")),
            by: format!("@{}", a.name),
            is_static: false,
            start_line: line,
            end_line: line,
        });
    }
    for f in &instance {
        let own = |want: fn(&Rule) -> bool| -> Option<&Annotation> {
            // A field's own annotation decides, an `AccessLevel.NONE` one turns it off.
            match f.annotations.iter().find(|a| on(a, "field").is_some_and(want)) {
                Some(a) if turned_off(a) => None,
                Some(a) => Some(a),
                None => class_rules.iter().find(|(_, rule)| want(rule)).map(|(a, _)| *a),
            }
        };
        let [get, is, set] = accessor_names(&f.name);
        if let Some(a) = own(|rule| rule.getters) {
            let name = if f.written == "boolean" { is } else { get };
            if !declared(&name, "") {
                out.push(Member {
                    kind: SymbolKind::Method,
                    owner: Owner::Class,
                    signature: format!("public {} {name}()", f.written),
                    name,
                    params: Some(String::new()),
                    returns: f.returns.clone(),
                    by: format!("@{}", a.name),
                    is_static: false,
                    start_line: f.start_line,
                    end_line: f.end_line,
                });
            }
        }
        if let Some(a) = own(|rule| rule.setters).filter(|_| !f.is_final) {
            let name = set;
            if !declared(&name, &f.erased) {
                out.push(Member {
                    kind: SymbolKind::Method,
                    owner: Owner::Class,
                    signature: format!("public void {name}({} {})", f.written, f.name),
                    name,
                    params: Some(f.erased.clone()),
                    returns: Some("void".into()),
                    by: format!("@{}", a.name),
                    is_static: false,
                    start_line: f.start_line,
                    end_line: f.end_line,
                });
            }
        }
    }
    if let Some((a, _)) = class_rules.iter().find(|(_, rule)| rule.builder) {
        let builder = format!("{}Builder", class.name);
        let by = format!("@{}", a.name);
        let member = |kind, owner, name: &str, params: Option<&str>, returns: Option<&str>, signature: String, is_static| Member {
            kind,
            owner,
            name: name.to_string(),
            params: params.map(str::to_string),
            returns: returns.map(str::to_string),
            signature,
            by: by.clone(),
            is_static,
            start_line: line,
            end_line: line,
        };
        if !declared("builder", "") {
            out.push(member(
                SymbolKind::Method,
                Owner::Class,
                "builder",
                Some(""),
                Some(&builder),
                format!("public static {builder} builder()"),
                true,
            ));
        }
        out.push(member(SymbolKind::Class, Owner::Class, &builder, None, None, format!("public static class {builder}"), true));
        for f in &instance {
            out.push(Member {
                start_line: f.start_line,
                end_line: f.end_line,
                ..member(
                    SymbolKind::Method,
                    Owner::Builder,
                    &f.name,
                    Some(&f.erased),
                    Some(&builder),
                    format!("public {builder} {}({} {})", f.name, f.written, f.name),
                    false,
                )
            });
        }
        out.push(member(
            SymbolKind::Method,
            Owner::Builder,
            "build",
            Some(""),
            Some(&class.name),
            format!("public {} build()", class.name),
            false,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ann(name: &str) -> Annotation {
        Annotation { name: name.into(), args: Vec::new() }
    }

    fn field(name: &str, written: &str, is_final: bool, annotations: Vec<Annotation>, line: u32) -> Field {
        Field {
            name: name.into(),
            written: written.into(),
            erased: written.split('<').next().unwrap().into(),
            returns: Some(written.into()),
            is_static: false,
            is_final,
            initialized: false,
            annotations,
            start_line: line,
            end_line: line,
        }
    }

    fn render(members: &[Member]) -> String {
        members
            .iter()
            .map(|m| {
                format!(
                    "{:?} {:?} {}({}) -> {} [{}] {} L{}",
                    m.kind,
                    m.owner,
                    m.name,
                    m.params.as_deref().unwrap_or("-"),
                    m.returns.as_deref().unwrap_or("-"),
                    m.by,
                    m.signature,
                    m.start_line
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn data_builder_and_logger_generate_what_lombok_does_and_declared_members_win() {
        let class = Class {
            name: "Order".into(),
            annotations: vec![ann("Data"), ann("Builder"), ann("Slf4j"), ann("Entity")],
            fields: vec![
                field("id", "Long", true, vec![], 5),
                field("paid", "boolean", false, vec![], 6),
                field("items", "List<Item>", false, vec![ann("NonNull")], 7),
                field(
                    "note",
                    "String",
                    false,
                    vec![Annotation { name: "Getter".into(), args: vec![("value".into(), Value::Name("AccessLevel.NONE".into()))] }],
                    8,
                ),
            ],
            declared: vec![("setPaid".into(), "boolean".into())],
            start_line: 3,
        };
        expect_test::expect![[r#"
            Field Class log(-) -> org.slf4j.Logger [@Slf4j] private static final org.slf4j.Logger log L3
            Constructor Class Order(Long,List) -> - [@Data] public Order(Long id, List<Item> items) L3
            Method Class getId() -> Long [@Data] public Long getId() L5
            Method Class isPaid() -> boolean [@Data] public boolean isPaid() L6
            Method Class getItems() -> List<Item> [@Data] public List<Item> getItems() L7
            Method Class setItems(List) -> void [@Data] public void setItems(List<Item> items) L7
            Method Class setNote(String) -> void [@Data] public void setNote(String note) L8
            Method Class builder() -> OrderBuilder [@Builder] public static OrderBuilder builder() L3
            Class Class OrderBuilder(-) -> - [@Builder] public static class OrderBuilder L3
            Method Builder id(Long) -> OrderBuilder [@Builder] public OrderBuilder id(Long id) L5
            Method Builder paid(boolean) -> OrderBuilder [@Builder] public OrderBuilder paid(boolean paid) L6
            Method Builder items(List) -> OrderBuilder [@Builder] public OrderBuilder items(List<Item> items) L7
            Method Builder note(String) -> OrderBuilder [@Builder] public OrderBuilder note(String note) L8
            Method Builder build() -> Order [@Builder] public Order build() L3"#]]
        .assert_eq(&render(&members(&class)));
    }
}
