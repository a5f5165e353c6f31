//! Framework knowledge applied to annotations: the HTTP endpoints a handler method serves
//! (its class's mapping prefixes joined with its own, per verb) and the other entry points a
//! framework calls (scheduled jobs, message and event listeners). What each annotation means
//! is data (`grammars/frameworks/*.toml`); this module reads annotations as the extractor
//! hands them over and applies the rules.
//!
//! Owns the rules and their application. It must not walk syntax trees (the extractor
//! turns annotations into `Annotation` values) nor touch the store.

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use serde::Deserialize;

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

#[derive(Debug, Deserialize)]
struct Mapping {
    annotation: String,
    paths: Vec<String>,
    #[serde(default)]
    verb: Option<String>,
    #[serde(default)]
    verb_attribute: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Entry {
    annotation: String,
    kind: String,
    #[serde(default)]
    attributes: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct Beans {
    stereotypes: Vec<String>,
    bean_methods: Vec<String>,
    markers: Vec<String>,
    primary: String,
    package_scans: Vec<String>,
    interface_stereotypes: Vec<String>,
    qualifiers: Vec<String>,
    injecting_methods: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct Config {
    value: String,
    properties: String,
}

#[derive(Debug, Deserialize)]
struct Rules {
    mapping: Vec<Mapping>,
    verbs: BTreeMap<String, String>,
    handler_classes: Vec<String>,
    entry: Vec<Entry>,
    beans: Beans,
    config: Config,
}

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| {
        toml::from_str(include_str!("../grammars/frameworks/spring-web.toml")).expect("grammars/frameworks/spring-web.toml is valid")
    })
}

/// The annotations the rules give a meaning to (others need not be read).
pub fn is_known(name: &str) -> bool {
    let r = rules();
    r.mapping.iter().any(|m| m.annotation == name)
        || r.verbs.contains_key(name)
        || r.handler_classes.iter().any(|c| c == name)
        || r.entry.iter().any(|e| e.annotation == name)
        || r.beans
            .stereotypes
            .iter()
            .chain(&r.beans.bean_methods)
            .chain(&r.beans.markers)
            .chain(&r.beans.interface_stereotypes)
            .any(|b| b == name)
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

/// What a declaration's bean annotations keep in its modifiers: `@Service`, `@Primary`,
/// `@Qualifier(legacy)`, `@Bean` (stereotypes, bean methods and markers, in that order).
pub fn bean_markers(annotations: &[Annotation]) -> Vec<String> {
    let b = &rules().beans;
    let mut out = Vec::new();
    for list in [&b.stereotypes, &b.interface_stereotypes, &b.bean_methods, &b.markers] {
        for a in annotations.iter().filter(|a| list.contains(&a.name)) {
            let mut values = Vec::new();
            if let Some(v) = a.arg("value").or_else(|| a.arg("name")).or_else(|| a.arg("prefix")) {
                strings(v, &|_| None, &mut values);
            }
            let marker = if values.is_empty() { format!("@{}", a.name) } else { format!("@{}({})", a.name, values.join(",")) };
            if !out.contains(&marker) {
                out.push(marker);
            }
        }
    }
    out
}

/// Annotations of a parameter that count as its callable's (`@Value("${key}")`).
pub fn is_parameter_marker(name: &str) -> bool {
    rules().config.value == name
}

/// The stereotype annotations (a class carrying one, directly or through an annotation of
/// the repository that carries one, is a bean).
pub fn stereotypes() -> &'static [String] {
    &rules().beans.stereotypes
}

/// Annotations whose value names the bean an injection point wants (`@Qualifier`).
pub fn qualifiers() -> &'static [String] {
    &rules().beans.qualifiers
}

/// Annotations that make a method of a bean an injection point (`@Autowired` setters).
pub fn injecting_methods() -> &'static [String] {
    &rules().beans.injecting_methods
}

/// Annotations whose values are packages whose interfaces are beans (`@MapperScan`).
pub fn package_scans() -> &'static [String] {
    &rules().beans.package_scans
}

/// Annotations that make an interface a bean (`@Mapper`).
pub fn interface_stereotypes() -> &'static [String] {
    &rules().beans.interface_stereotypes
}

/// The annotations that make a method declare a bean (`@Bean`).
pub fn bean_methods() -> &'static [String] {
    &rules().beans.bean_methods
}

/// The annotations that read configuration: keys by placeholder (`@Value`), and a class's
/// fields under a prefix (`@ConfigurationProperties`).
pub fn config_annotations() -> (&'static str, &'static str) {
    let c = &rules().config;
    (&c.value, &c.properties)
}

/// The marker that picks one bean among several candidates (`@Primary`).
pub fn primary() -> &'static str {
    &rules().beans.primary
}

/// The entry annotations, by name (what `repo_overview` looks for in modifiers).
pub fn entry_annotations() -> impl Iterator<Item = (&'static str, &'static str)> {
    rules().entry.iter().map(|e| (e.annotation.as_str(), e.kind.as_str()))
}

#[derive(Debug, Deserialize)]
struct RustRoute {
    attribute: String,
    #[serde(default)]
    verb: Option<String>,
    #[serde(default)]
    verb_argument: Option<String>,
}

#[derive(Debug, Deserialize)]
struct RustRules {
    route: Vec<RustRoute>,
}

fn rust_rules() -> &'static RustRules {
    static RULES: OnceLock<RustRules> = OnceLock::new();
    RULES.get_or_init(|| {
        toml::from_str(include_str!("../grammars/frameworks/rust-web.toml")).expect("grammars/frameworks/rust-web.toml is valid")
    })
}

/// The endpoints a Rust route attribute declares: its path (last segment: `get`,
/// `actix_web::post`) and the string literals of its arguments in order, each with the
/// name before its `=` if any (`method = "GET"`).
pub fn rust_route(attribute: &str, args: &[(Option<String>, String)]) -> Vec<Endpoint> {
    let name = attribute.rsplit("::").next().unwrap_or(attribute);
    let Some(rule) = rust_rules().route.iter().find(|r| r.attribute == name) else { return Vec::new() };
    let Some(path) = args.iter().find(|(k, _)| k.is_none()).map(|(_, v)| v) else { return Vec::new() };
    let verbs: Vec<String> = match (&rule.verb, &rule.verb_argument) {
        (Some(v), _) => vec![v.clone()],
        (None, Some(key)) => args.iter().filter(|(k, _)| k.as_deref() == Some(key.as_str())).map(|(_, v)| v.to_ascii_uppercase()).collect(),
        (None, None) => Vec::new(),
    };
    let verbs = if verbs.is_empty() { vec!["ANY".to_string()] } else { verbs };
    verbs.into_iter().map(|verb| Endpoint { verb, path: join_paths("", path) }).collect()
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

/// The strings a value stands for (a constant through `consts`); a name that is no known
/// constant is kept as `{NAME}` so that the endpoint is still listed.
fn strings(v: &Value, consts: &dyn Fn(&str) -> Option<String>, out: &mut Vec<String>) {
    match v {
        Value::Str(s) => out.push(s.clone()),
        Value::Name(n) => out.push(consts(n).unwrap_or_else(|| format!("{{{n}}}"))),
        Value::List(items) => items.iter().for_each(|i| strings(i, consts, out)),
        Value::Other(text) => out.push(format!("{{{text}}}")),
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

/// The endpoints a method serves, from its class's annotations and its own.
pub fn endpoints(class: &[Annotation], method: &[Annotation], consts: &dyn Fn(&str) -> Option<String>) -> Vec<Endpoint> {
    let r = rules();
    if !class.iter().any(|a| r.handler_classes.contains(&a.name)) {
        return Vec::new();
    }
    let mapping_of = |a: &Annotation| r.mapping.iter().find(|m| m.annotation == a.name);
    let paths_of = |a: &Annotation, m: &Mapping| -> Vec<String> {
        let mut out = Vec::new();
        for key in &m.paths {
            if let Some(v) = a.arg(key) {
                strings(v, consts, &mut out);
            }
        }
        if out.is_empty() {
            out.push(String::new());
        }
        out
    };
    let mut prefixes: Vec<String> = Vec::new();
    for a in class {
        if let Some(m) = mapping_of(a) {
            prefixes.extend(paths_of(a, m));
        }
    }
    if prefixes.is_empty() {
        prefixes.push(String::new());
    }
    // The verbs marker annotations give (JAX-RS `@GET`).
    let marked: Vec<String> = method.iter().filter_map(|a| r.verbs.get(&a.name).cloned()).collect();
    let mut out: Vec<Endpoint> = Vec::new();
    let mut push = |verb: &str, path: String| {
        let e = Endpoint { verb: verb.to_string(), path };
        if !out.contains(&e) {
            out.push(e);
        }
    };
    let mut mapped = false;
    for a in method {
        let Some(m) = mapping_of(a) else { continue };
        mapped = true;
        let mut verbs: Vec<String> = Vec::new();
        if let Some(v) = &m.verb {
            verbs.push(v.clone());
        } else if let Some(v) = m.verb_attribute.as_deref().and_then(|k| a.arg(k)) {
            let mut names = Vec::new();
            strings(v, &|_| None, &mut names);
            // `RequestMethod.POST` -> `POST`.
            verbs.extend(names.iter().map(|n| n.trim_matches(['{', '}']).rsplit('.').next().unwrap_or(n).to_string()));
        }
        if verbs.is_empty() {
            verbs = marked.clone();
        }
        if verbs.is_empty() {
            verbs.push("ANY".to_string());
        }
        for prefix in &prefixes {
            for path in paths_of(a, m) {
                for verb in &verbs {
                    push(verb, join_paths(prefix, &path));
                }
            }
        }
    }
    // A verb marker alone serves the class's path (JAX-RS `@GET` without `@Path`).
    if !mapped {
        for verb in &marked {
            for prefix in &prefixes {
                push(verb, join_paths(prefix, ""));
            }
        }
    }
    out
}

/// The entry point an annotation makes of a method: its kind and what it listens to or
/// runs on (`scheduled`, `cron=0 0 * * * *`).
pub fn entry(method: &[Annotation], consts: &dyn Fn(&str) -> Option<String>) -> Option<(String, String)> {
    for a in method {
        let Some(e) = rules().entry.iter().find(|e| e.annotation == a.name) else { continue };
        let mut details = Vec::new();
        for key in &e.attributes {
            if let Some(v) = a.arg(key) {
                let mut values = Vec::new();
                strings(v, consts, &mut values);
                details.push(format!("{key}={}", values.join(",")));
            }
        }
        return Some((format!("@{}", a.name), details.join(" ")));
    }
    None
}

/// Whether an endpoint's path template matches a concrete path: `{x}` (and `*`) match one
/// segment, `**` any number; a trailing `/` is ignored.
pub fn template_matches(template: &str, path: &str) -> bool {
    fn go(t: &[&str], p: &[&str]) -> bool {
        match (t.first(), p.first()) {
            (None, None) => true,
            (Some(&"**"), _) => go(&t[1..], p) || (!p.is_empty() && go(t, &p[1..])),
            (Some(ts), Some(ps)) => {
                let one = (ts.starts_with('{') && ts.ends_with('}')) || *ts == "*" || ts == ps;
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
        assert_eq!(unknown.iter().map(Endpoint::name).collect::<Vec<_>>(), ["POST /{OTHER}"]);
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
    }
}
