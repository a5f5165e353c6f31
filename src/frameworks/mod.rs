//! Framework knowledge as data, applied by generic code. One child per framework: `spring`
//! (mappings, entry points, beans, configuration readers), `rust_web` (route attributes and
//! routers built in code), `lombok` (members its annotations generate), `libraries`
//! (members inherited from library supertypes), `external` (the
//! databases, caches and brokers configuration names), `mybatis` (mapper XML), `config_keys` (Spring configuration
//! files), `endpoints` (endpoint names with other files' constants put in). This file holds
//! what they share: annotations as values, the marker codec (`@Name(value)` words the
//! extractor leaves in modifiers), endpoint templates and URL paths. What each annotation or
//! method means is in `grammars/frameworks/*.toml`.
//!
//! Owns the rules and their application. It must not walk syntax trees (the extractor
//! turns annotations into `Annotation` values) nor touch the store.

pub mod config_keys;
pub mod endpoints;
pub mod external;
pub mod libraries;
pub mod lombok;
pub mod mybatis;
pub mod rust_web;
pub mod spring;

pub use rust_web::*;
pub use spring::*;

use std::collections::HashMap;

/// The rules files, embedded: (name, text). Part of the index's fingerprint (what the
/// extractor keeps depends on them).
pub const RULES_FILES: [(&str, &str); 6] = [
    ("spring-web.toml", include_str!("../../grammars/frameworks/spring-web.toml")),
    ("external-systems.toml", include_str!("../../grammars/frameworks/external-systems.toml")),
    ("rust-web.toml", include_str!("../../grammars/frameworks/rust-web.toml")),
    ("lombok.toml", include_str!("../../grammars/frameworks/lombok.toml")),
    ("mybatis.toml", include_str!("../../grammars/frameworks/mybatis.toml")),
    ("library-supertypes.toml", include_str!("../../grammars/frameworks/library-supertypes.toml")),
];

/// The text of one embedded rules file.
fn rules_source(name: &str) -> &'static str {
    RULES_FILES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t).expect("an embedded rules file")
}

/// An annotation argument's value, as far as the source says it without evaluating code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A string literal, or literals joined with `+`.
    Str(String),
    /// A name: a constant (`BASE`, `Paths.ORDER`) or an enum constant (`RequestMethod.POST`).
    Name(String),
    /// `{a, b}`.
    List(Vec<Value>),
    /// Anything else, as written.
    Other(String),
}

/// One annotation on a declaration: its simple name and its arguments (an unnamed one is
/// `value`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annotation {
    pub name: String,
    pub args: Vec<(String, Value)>,
}

impl Annotation {
    fn arg(&self, key: &str) -> Option<&Value> {
        self.args.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// Whether a call names something by a string argument: one of `methods` on a receiver
/// whose declared type is one of `types`, or on what one of `getters` returns (a chain's
/// receiver is written `Owner#getEnvironment()`, `#getEnvironment()` in the class).
fn names_by_string(method: &str, receiver_type: &str, (methods, types, getters): (&[String], &[String], &[String])) -> bool {
    let simple = receiver_type.rsplit(['.', ':']).next().unwrap_or(receiver_type);
    let got = receiver_type.rsplit_once('#').and_then(|(_, m)| m.strip_suffix("()")).is_some_and(|m| getters.iter().any(|g| g == m));
    methods.iter().any(|m| m == method) && (got || types.iter().any(|t| t == simple))
}

/// The values of a marker the extractor keeps in modifiers, in order: `@Qualifier(legacy)`
/// gives `legacy`. A value may hold spaces and parentheses (`@Scheduled(cron=0 0 2 * * *)`).
pub fn marker_values<'a>(modifiers: &'a str, name: &str) -> Vec<&'a str> {
    let open = format!("@{name}(");
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = modifiers[from..].find(&open) {
        let start = from + at;
        from = start + open.len();
        // A whole marker: at the start or after a space (`@Value(` is no `@XValue(`).
        if start > 0 && modifiers.as_bytes()[start - 1] != b' ' {
            continue;
        }
        let body = &modifiers[from..];
        let mut depth = 0usize;
        for (i, c) in body.char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    out.push(&body[..i]);
                    break;
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
    }
    out
}

/// The first value of a marker (`marker_values`).
pub fn marker_value<'a>(modifiers: &'a str, name: &str) -> Option<&'a str> {
    marker_values(modifiers, name).into_iter().next()
}

/// Whether a modifiers string carries the marker `@name` (alone or with a value).
pub fn has_marker(modifiers: &str, name: &str) -> bool {
    modifiers.split(' ').any(|w| w.strip_prefix('@').is_some_and(|m| m == name || m.strip_prefix(name).is_some_and(|r| r.starts_with('('))))
}

/// `a` and `b` joined as one URL path (see `join_paths`).
pub fn join_url(a: &str, b: &str) -> String {
    join_paths(a, b)
}

/// An endpoint a handler method serves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoint {
    /// `GET`, `POST`, ... or `ANY` when the mapping names no verb.
    pub verb: String,
    /// The full path template, class prefix included: `/order/detail/{orderId}`.
    pub path: String,
}

impl Endpoint {
    pub fn name(&self) -> String {
        format!("{} {}", self.verb, self.path)
    }
}

/// The strings a value stands for, as templates: a constant known through `consts` is put
/// in, a name that is no known constant is kept as `{=NAME}` (shown as `{NAME}`, see
/// [`display`]) so that the endpoint is still listed and the index can put the constant in
/// once it knows the repository's constants ([`substitute`]).
fn strings(v: &Value, consts: &dyn Fn(&str) -> Option<String>, out: &mut Vec<String>) {
    match v {
        Value::Str(s) => out.push(substitute(s, consts)),
        Value::Name(n) => out.push(substitute(&format!("{{={n}}}"), consts)),
        Value::List(items) => items.iter().for_each(|i| strings(i, consts, out)),
        Value::Other(text) => out.push(format!("{{{text}}}")),
    }
}

/// `strings` as shown: constants the file does not know by name.
fn shown_strings(v: &Value, out: &mut Vec<String>) {
    let mut raw = Vec::new();
    strings(v, &|_| None, &mut raw);
    out.extend(raw.iter().map(|s| display(s)));
}

/// A template with the constants `consts` knows put in (`{=Paths.ORDER}/list` ->
/// `/order/list`), their own constants too, a few levels deep; the others stay.
pub fn substitute(template: &str, consts: &dyn Fn(&str) -> Option<String>) -> String {
    let mut text = template.to_string();
    for _ in 0..4 {
        if !text.contains("{=") {
            break;
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        let mut changed = false;
        while let Some(at) = rest.find("{=") {
            out.push_str(&rest[..at]);
            let Some(end) = rest[at..].find('}') else {
                out.push_str(&rest[at..]);
                rest = "";
                break;
            };
            let name = &rest[at + 2..at + end];
            match consts(name) {
                Some(value) => {
                    out.push_str(&value);
                    changed = true;
                }
                None => out.push_str(&rest[at..at + end + 1]),
            }
            rest = &rest[at + end + 1..];
        }
        out.push_str(rest);
        text = out;
        if !changed {
            break;
        }
    }
    text
}

/// An endpoint's name (`VERB /path`) from its template with the repository's constants
/// put in, the path joined again (a constant's own slashes) and shown as people read it.
pub fn endpoint_name(template: &str, consts: &dyn Fn(&str) -> Option<String>) -> String {
    let filled = substitute(template, consts);
    match filled.split_once(' ') {
        Some((verb, path)) => display(&format!("{verb} {}", join_paths(path, ""))),
        None => display(&filled),
    }
}

/// A template as people read it: a constant not put in shows as `{NAME}`; the place of a
/// Rust router nested from nowhere the index knows is left out.
pub fn display(template: &str) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(at) = rest.find("{=nest:") {
        out.push_str(&rest[..at]);
        rest = rest[at..].find('}').map_or("", |end| &rest[at + end + 1..]);
    }
    out.push_str(rest);
    let out = out.replace("{=", "{");
    // `/{=nest:..}/users` without its placement: `//users`.
    match out.split_once(' ') {
        Some((verb, path)) if path.starts_with('/') => format!("{verb} {}", join_paths(path, "")),
        _ => out,
    }
}

/// A string constant's initializer as a template, from its declaration
/// (`static final String ORDER = BASE + "/order"` -> `{=BASE}/order`): string literals and
/// names joined with `+`; `None` for anything else.
pub fn initializer_template(declaration: &str) -> Option<String> {
    let (declared, value) = declaration.split_once('=')?;
    if !declared.split_whitespace().any(|w| w == "String") {
        return None;
    }
    let value = value.trim().trim_end_matches(';').trim();
    let mut out = String::new();
    let mut rest = value;
    loop {
        rest = rest.trim_start().trim_start_matches('(').trim_start();
        if let Some(lit) = rest.strip_prefix('"') {
            let end = lit.find('"')?;
            let text = &lit[..end];
            if text.contains('\\') {
                return None;
            }
            out.push_str(text);
            rest = &lit[end + 1..];
        } else {
            let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '$')).unwrap_or(rest.len());
            if end == 0 {
                return None;
            }
            out.push_str(&format!("{{={}}}", &rest[..end]));
            rest = &rest[end..];
        }
        rest = rest.trim_start().trim_start_matches(')').trim_start();
        match rest.strip_prefix('+') {
            Some(r) => rest = r,
            None if rest.is_empty() => return Some(out),
            None => return None,
        }
    }
}

/// `a` and `b` joined as one URL path: one `/` between, a leading `/`, none trailing.
fn join_paths(a: &str, b: &str) -> String {
    let mut out = String::from("/");
    for part in a.split('/').chain(b.split('/')).filter(|p| !p.is_empty()) {
        if out.len() > 1 {
            out.push('/');
        }
        out.push_str(part);
    }
    out
}

/// The last segment of a router's fallback endpoint (`ANY /api/{*fallback}`): it serves
/// every path under its prefix that no route matches.
pub const FALLBACK: &str = "{*fallback}";

/// Whether an endpoint's path template matches a concrete path: `{x}` (and `*`) match one
/// segment, `**` any number; a trailing `/` is ignored.
pub fn template_matches(template: &str, path: &str) -> bool {
    fn go(t: &[&str], p: &[&str]) -> bool {
        match (t.first(), p.first()) {
            (None, None) => true,
            // `**` (Spring), `{*rest}` (axum 0.8), `*rest` (axum before 0.8, where it panics
            // at startup since) and `{tail:.*}` (actix): any number of segments.
            (Some(ts), _) if *ts == "**" || (ts.starts_with('*') && ts.len() > 1) || ts.starts_with("{*") || ts.ends_with(":.*}") => {
                go(&t[1..], p) || (!p.is_empty() && go(t, &p[1..]))
            }
            (Some(ts), Some(ps)) => {
                // `{id}` (Spring, actix), `:id` (axum), `*`: one segment.
                let one = (ts.starts_with('{') && ts.ends_with('}')) || ts.starts_with(':') || *ts == "*" || ts == ps;
                one && go(&t[1..], &p[1..])
            }
            _ => false,
        }
    }
    let t: Vec<&str> = template.split('/').filter(|s| !s.is_empty()).collect();
    let p: Vec<&str> = path.split(['?', '#']).next().unwrap_or(path).split('/').filter(|s| !s.is_empty()).collect();
    go(&t, &p)
}

/// String constants of a file, by simple name and by `Type.NAME`: what mapping paths name.
pub type Consts = HashMap<String, String>;

#[cfg(test)]
mod tests {
    use super::*;

    fn ann(name: &str, args: &[(&str, Value)]) -> Annotation {
        Annotation { name: name.into(), args: args.iter().map(|(k, v)| (k.to_string(), v.clone())).collect() }
    }

    /// Every rules file under `grammars/` loads into its struct, and a misspelt key is an
    /// error (every rules struct denies unknown fields), not a rule silently ignored.
    #[test]
    fn every_rules_file_loads_and_unknown_keys_are_errors() {
        fn load(folder: &str, name: &str, text: &str) -> Result<(), String> {
            let e = |e: toml::de::Error| e.message().to_string();
            match (folder, name) {
                ("build", _) => toml::from_str::<crate::build::Rules>(text).map(drop).map_err(e),
                ("frameworks", "spring-web.toml") => toml::from_str::<Rules>(text).map(drop).map_err(e),
                ("frameworks", "rust-web.toml") => toml::from_str::<RustRules>(text).map(drop).map_err(e),
                ("frameworks", "mybatis.toml") => toml::from_str::<mybatis::Rules>(text).map(drop).map_err(e),
                ("frameworks", "lombok.toml") => toml::from_str::<lombok::Rules>(text).map(drop).map_err(e),
                ("frameworks", "library-supertypes.toml") => toml::from_str::<libraries::Rules>(text).map(drop).map_err(e),
                ("frameworks", "external-systems.toml") => toml::from_str::<external::Rules>(text).map(drop).map_err(e),
                ("java" | "rust", "elements.toml") => toml::from_str::<crate::lang::Elements>(text).map(drop).map_err(e),
                _ => Err("no code reads this rules file".into()),
            }
        }
        let grammars = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("grammars");
        let mut loaded = Vec::new();
        for folder in ["build", "frameworks", "java", "rust"] {
            let mut names: Vec<String> =
                std::fs::read_dir(grammars.join(folder)).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
            names.sort();
            for name in names.into_iter().filter(|n| n.ends_with(".toml")) {
                let text = std::fs::read_to_string(grammars.join(folder).join(&name)).unwrap();
                assert_eq!(load(folder, &name, &text), Ok(()), "grammars/{folder}/{name}");
                // The same file with a misspelt key after its first table's header.
                let misspelt = text.replacen('\n', "\nmisspelt_key = 1\n", 1);
                let err = load(folder, &name, &misspelt).unwrap_err();
                assert!(err.starts_with("unknown field `misspelt_key`"), "grammars/{folder}/{name}: {err}");
                loaded.push(format!("{folder}/{name}"));
            }
        }
        assert_eq!(
            loaded,
            [
                "build/cargo.toml",
                "build/gradle.toml",
                "build/maven.toml",
                "frameworks/external-systems.toml",
                "frameworks/library-supertypes.toml",
                "frameworks/lombok.toml",
                "frameworks/mybatis.toml",
                "frameworks/rust-web.toml",
                "frameworks/spring-web.toml",
                "java/elements.toml",
                "rust/elements.toml"
            ]
        );
        let embedded: Vec<&str> = crate::build::RULES_FILES.iter().map(|(name, _)| *name).collect();
        assert_eq!(embedded, ["maven.toml", "gradle.toml", "cargo.toml"]);
    }

    #[test]
    fn class_prefixes_arrays_verbs_and_constants() {
        let consts = |n: &str| (n == "Paths.DETAIL").then(|| "/detail/{id}".to_string());
        let class = [
            ann("RestController", &[]),
            ann("RequestMapping", &[("value", Value::List(vec![Value::Str("/order".into()), Value::Str("/orders/".into())]))]),
        ];
        let method = [ann(
            "RequestMapping",
            &[
                ("path", Value::Name("Paths.DETAIL".into())),
                ("method", Value::List(vec![Value::Name("RequestMethod.GET".into()), Value::Name("RequestMethod.HEAD".into())])),
            ],
        )];
        let names: Vec<String> = endpoints(&class, &method, &consts).iter().map(Endpoint::name).collect();
        assert_eq!(names, ["GET /order/detail/{id}", "HEAD /order/detail/{id}", "GET /orders/detail/{id}", "HEAD /orders/detail/{id}"]);
        // No handler class: a Feign client's mappings are calls out, not endpoints.
        assert!(endpoints(&[ann("FeignClient", &[])], &[ann("GetMapping", &[("value", Value::Str("/x".into()))])], &consts).is_empty());
        // JAX-RS: the verb from a marker, the class's path alone.
        let jax = endpoints(&[ann("Path", &[("value", Value::Str("items".into()))])], &[ann("GET", &[])], &consts);
        assert_eq!(jax.iter().map(Endpoint::name).collect::<Vec<_>>(), ["GET /items"]);
        // An unknown constant stays visible.
        let unknown = endpoints(&class[..1], &[ann("PostMapping", &[("value", Value::Name("OTHER".into()))])], &consts);
        assert_eq!(unknown.iter().map(Endpoint::name).collect::<Vec<_>>(), ["POST /{=OTHER}"]);
        assert_eq!(display(&unknown[0].name()), "POST /{OTHER}");
        // Put in later, once the repository's constants are known, through constants.
        let repo = |n: &str| match n {
            "OTHER" => Some("{=Api.BASE}/other".to_string()),
            "Api.BASE" => Some("/api".to_string()),
            _ => None,
        };
        assert_eq!(substitute(&unknown[0].name(), &repo), "POST //api/other");
        assert_eq!(endpoint_name(&unknown[0].name(), &repo), "POST /api/other");
        assert_eq!(endpoint_name("GET /{=OTHER}//{=Api.BASE}/{id}/{=NONE}", &repo), "GET /api/other/api/{id}/{NONE}");
        assert_eq!(substitute("/{=A}/{id}/{=B}", &repo), "/{=A}/{id}/{=B}");
    }

    #[test]
    fn constant_initializers() {
        assert_eq!(initializer_template(r#"public static final String ORDER = "/order""#).as_deref(), Some("/order"));
        assert_eq!(initializer_template(r#"String X = Api.BASE + "/x" + SUFFIX;"#).as_deref(), Some("{=Api.BASE}/x{=SUFFIX}"));
        assert_eq!(initializer_template(r#"String X = ("/a" + "/b")"#).as_deref(), Some("/a/b"));
        assert_eq!(initializer_template(r#"String X = compute("/a")"#), None);
        assert_eq!(initializer_template("int N = 3 * 4"), None);
        assert_eq!(initializer_template("String X"), None);
        assert_eq!(initializer_template("static final int LIMIT = MAX"), None);
    }

    #[test]
    fn marker_values_hold_spaces_and_parentheses() {
        let m = "public @Scheduled(cron=0 0 2 * * *) @Value(${a:(x)}) @XValue(no) @Value(${b})";
        assert_eq!(marker_values(m, "Value"), ["${a:(x)}", "${b}"]);
        assert_eq!(marker_value(m, "Scheduled"), Some("cron=0 0 2 * * *"));
        assert_eq!(marker_value(m, "Primary"), None);
    }

    #[test]
    fn rust_route_attributes() {
        let names = |e: Vec<Endpoint>| e.iter().map(Endpoint::name).collect::<Vec<_>>();
        assert_eq!(names(rust_route("get", &[(None, "/users/{id}".into())])), ["GET /users/{id}"]);
        assert_eq!(names(rust_route("actix_web::post", &[(None, "items".into())])), ["POST /items"]);
        let route =
            rust_route("route", &[(None, "/x".into()), (Some("method".into()), "get".into()), (Some("method".into()), "head".into())]);
        assert_eq!(names(route), ["GET /x", "HEAD /x"]);
        assert!(rust_route("test", &[]).is_empty());
    }

    #[test]
    fn templates_match_concrete_paths() {
        assert!(template_matches("/order/detail/{orderId}", "/order/detail/42"));
        assert!(template_matches("/order/detail/{orderId}", "/order/detail/42/?x=1"));
        assert!(!template_matches("/order/detail/{orderId}", "/order/detail"));
        assert!(template_matches("/files/**", "/files/a/b/c"));
        assert!(!template_matches("/order/create", "/order/created"));
        assert!(template_matches("/api/users/:id", "/api/users/42"));
        assert!(!template_matches("/api/users/:id", "/api/users/42/x"));
        assert!(template_matches("/static/*path", "/static/css/a.css"));
    }
}
