//! Framework knowledge applied to annotations: the HTTP endpoints a handler method serves
//! (its class's mapping prefixes joined with its own, per verb) and the other entry points a
//! framework calls (scheduled jobs, message and event listeners). What each annotation means
//! is data (`grammars/frameworks/*.toml`); this module reads annotations as the extractor
//! hands them over and applies the rules.
//!
//! Owns the rules and their application. It must not walk syntax trees (the extractor
//! turns annotations into `Annotation` values) nor touch the store.

pub mod config_keys;
pub mod endpoints;
pub mod mybatis;

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
#[serde(deny_unknown_fields)]
struct Mapping {
    annotation: String,
    paths: Vec<String>,
    #[serde(default)]
    verb: Option<String>,
    #[serde(default)]
    verb_attribute: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    annotation: String,
    kind: String,
    #[serde(default)]
    attributes: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Beans {
    stereotypes: Vec<String>,
    bean_methods: Vec<String>,
    markers: Vec<String>,
    primary: String,
    package_scans: Vec<String>,
    interface_stereotypes: Vec<String>,
    qualifiers: Vec<String>,
    injecting_methods: Vec<String>,
    /// Class annotations that make a constructor of its fields (Lombok's
    /// `RequiredArgsConstructor = "final"`: the final ones; `"all"`: every instance field).
    #[serde(default)]
    injecting_constructors: BTreeMap<String, String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Config {
    value: String,
    properties: String,
    /// Calls whose first argument, a string literal, is a key (`env.getProperty("k")`),
    /// on a receiver of one of `property_types`; the marker they leave on the caller.
    property_methods: Vec<String>,
    property_types: Vec<String>,
    /// Calls that return a property source (`context.getEnvironment().getProperty("k")`).
    #[serde(default)]
    property_getters: Vec<String>,
    property_marker: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
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
        toml::from_str(include_str!("../../grammars/frameworks/spring-web.toml")).expect("grammars/frameworks/spring-web.toml is valid")
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
            .chain(r.beans.injecting_constructors.keys())
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
    let constructors: Vec<String> = b.injecting_constructors.keys().cloned().collect();
    for list in [&b.stereotypes, &b.interface_stereotypes, &b.bean_methods, &b.markers, &constructors] {
        for a in annotations.iter().filter(|a| list.contains(&a.name)) {
            let mut values = Vec::new();
            if let Some(v) = a.arg("value").or_else(|| a.arg("name")).or_else(|| a.arg("prefix")) {
                shown_strings(v, &mut values);
            }
            let marker = if values.is_empty() { format!("@{}", a.name) } else { format!("@{}({})", a.name, values.join(",")) };
            if !out.contains(&marker) {
                out.push(marker);
            }
        }
    }
    out
}

/// Whether Spring injects a field of a bean: it carries an injecting annotation
/// (`@Autowired`), or its class has a generated constructor that takes it (Lombok's
/// `@RequiredArgsConstructor` and a final field). A plain field is no injection point.
pub fn field_injected(field_modifiers: &str, class_modifiers: &str) -> bool {
    let b = &rules().beans;
    let words: Vec<&str> = field_modifiers.split(' ').collect();
    if words.contains(&"static") {
        return false;
    }
    b.injecting_methods.iter().any(|m| has_marker(field_modifiers, m))
        || b.injecting_constructors
            .iter()
            .any(|(a, which)| has_marker(class_modifiers, a) && (which == "all" || words.contains(&which.as_str())))
}

/// Whether a modifiers string carries the marker `@name` (alone or with a value).
pub fn has_marker(modifiers: &str, name: &str) -> bool {
    modifiers.split(' ').any(|w| w.strip_prefix('@').is_some_and(|m| m == name || m.strip_prefix(name).is_some_and(|r| r.starts_with('('))))
}

/// Markers that only say how a bean is built (`@RequiredArgsConstructor`), not shown.
pub fn is_construction_marker(name: &str) -> bool {
    rules().beans.injecting_constructors.contains_key(name)
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

/// Whether a call names a configuration key: a property method (`getProperty`) on a
/// receiver whose type is a property source (`Environment`). The marker it leaves on the
/// calling method (`Environment.getProperty`).
pub fn property_call(method: &str, receiver_type: &str) -> Option<&'static str> {
    let c = &rules().config;
    let simple = receiver_type.rsplit(['.', ':']).next().unwrap_or(receiver_type);
    // A chain's receiver is written `Owner#getEnvironment()` (`#getEnvironment()` in the class).
    let got =
        receiver_type.rsplit_once('#').and_then(|(_, m)| m.strip_suffix("()")).is_some_and(|m| c.property_getters.iter().any(|g| g == m));
    (c.property_methods.iter().any(|m| m == method) && (got || c.property_types.iter().any(|t| t == simple)))
        .then_some(c.property_marker.as_str())
}

/// The marker a property call leaves on its caller (`Environment.getProperty`).
pub fn property_marker() -> &'static str {
    &rules().config.property_marker
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
#[serde(deny_unknown_fields)]
struct RustRoute {
    attribute: String,
    #[serde(default)]
    verb: Option<String>,
    #[serde(default)]
    verb_argument: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RustRules {
    route: Vec<RustRoute>,
    router: Router,
}

/// Routers assembled in code: method chains inside functions (`grammars/frameworks/rust-web.toml`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Router {
    /// `.route("/p", get(h))`: a path (or none: the resource's own) and a method router.
    pub route: Vec<String>,
    /// `.nest("/p", inner)`, `.configure(f)`: what `inner` registers, under `/p` (or the
    /// chain's own prefix).
    pub nest: Vec<String>,
    /// `.service(x)`: `x` (a scope, a resource, a routed handler) under the chain's prefix.
    pub service: Vec<String>,
    /// `web::scope("/p")`, `web::resource("/p")`: a chain that starts with one of these
    /// registers under `/p`.
    pub prefix_heads: Vec<String>,
    /// `web::get().to(h)`: the method that names the handler of a verb.
    pub handler_methods: Vec<String>,
    /// Method router functions and methods by name (`get` -> `GET`).
    pub verbs: BTreeMap<String, String>,
}

/// The router rules of Rust web frameworks.
pub fn rust_router() -> &'static Router {
    &rust_rules().router
}

/// Whether a function body may build a router (cheap, before walking it).
pub fn may_build_router(text: &str) -> bool {
    let r = rust_router();
    r.route.iter().chain(&r.nest).chain(&r.service).any(|m| text.contains(&format!(".{m}(")))
}

/// `a` and `b` joined as one URL path (see `join_paths`).
pub fn join_url(a: &str, b: &str) -> String {
    join_paths(a, b)
}

fn rust_rules() -> &'static RustRules {
    static RULES: OnceLock<RustRules> = OnceLock::new();
    RULES.get_or_init(|| {
        toml::from_str(include_str!("../../grammars/frameworks/rust-web.toml")).expect("grammars/frameworks/rust-web.toml is valid")
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
            shown_strings(v, &mut names);
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
                details.push(format!("{key}={}", display(&values.join(","))));
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
            // `**` (Spring) and `*rest` (axum): any number of segments.
            (Some(ts), _) if *ts == "**" || (ts.starts_with('*') && ts.len() > 1) => go(&t[1..], p) || (!p.is_empty() && go(t, &p[1..])),
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
                "frameworks/mybatis.toml",
                "frameworks/rust-web.toml",
                "frameworks/spring-web.toml"
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
