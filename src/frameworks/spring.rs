//! Spring, as the rules in `grammars/frameworks/spring-web.toml` describe it: request
//! mappings and their verbs (and JAX-RS's), handler classes, entry points the framework
//! calls (`@Scheduled`, listeners), beans (stereotypes, `@Bean` methods, `@Primary`,
//! qualifiers, package scans, injecting constructors and methods) and configuration
//! readers (`@Value`, `@ConfigurationProperties`, `Environment.getProperty`). Read by simple
//! name; generic code asks these functions, never names an annotation itself.
//!
//! Owns the Spring rules and what an annotation means. It must not read syntax trees or
//! the store: the extractor hands it annotations, the tools markers.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use super::*;

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
    /// Spring Data: interfaces extending one of these (qualified names), directly or through
    /// interfaces of the repository, are beans the framework implements...
    #[serde(default)]
    repositories: Vec<String>,
    /// ...unless marked with this annotation (a base interface, `@NoRepositoryBean`).
    #[serde(default)]
    no_repository_bean: Option<String>,
    /// Class annotations naming configurations to load (`@Import(FooConfig.class)`).
    #[serde(default)]
    imports: Vec<String>,
    /// Scan attributes naming classes, not packages: a scan with one is not followed.
    #[serde(default)]
    scan_by_classes: Vec<String>,
    /// Files listing auto-configuration classes (beans wherever they are).
    #[serde(default)]
    auto_configuration: Vec<String>,
    /// Annotations making a bean depend on a configuration key's value.
    #[serde(default)]
    property_conditions: Vec<String>,
    /// Other conditions on a bean, shown with the values their attributes give.
    #[serde(default)]
    conditions: Vec<String>,
    /// ...and any annotation whose name starts with this (a project's own composed one).
    #[serde(default)]
    condition_prefix: Option<String>,
    /// Markers that also make a bean conditional (`@Profile`): with the conditions, what a
    /// project's own annotation carries to the beans it annotates.
    #[serde(default)]
    profiles: Vec<String>,
    /// Scan annotation -> the attributes naming its packages.
    #[serde(default)]
    scans: BTreeMap<String, Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Config {
    value: String,
    properties: String,
    /// Logging configuration files (by name) whose `logging_properties` elements read the
    /// key their `logging_source` attribute names.
    #[serde(default)]
    logging_files: Vec<String>,
    #[serde(default)]
    logging_properties: Vec<String>,
    #[serde(default)]
    logging_source: String,
    #[serde(default)]
    logging_default: String,
    /// Calls whose first argument, a string literal, is a key (`env.getProperty("k")`),
    /// on a receiver of one of `property_types`; the marker they leave on the caller.
    property_methods: Vec<String>,
    property_types: Vec<String>,
    /// Calls that return a property source (`context.getEnvironment().getProperty("k")`).
    #[serde(default)]
    property_getters: Vec<String>,
    property_marker: String,
    /// Key prefixes Spring Boot itself reads (`spring.datasource.`, `server.`): such a key
    /// has a reader even when no code of the repository names it.
    #[serde(default)]
    boot_prefixes: Vec<String>,
}

/// Calls that request the application's own URLs (tests): see `[urls]` in the rules.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Urls {
    #[serde(default)]
    owners: Vec<String>,
    #[serde(default)]
    clients: Vec<String>,
    #[serde(default)]
    chains: Vec<String>,
    #[serde(default)]
    after_verb: Vec<String>,
    #[serde(default)]
    calls: BTreeMap<String, String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Rules {
    mapping: Vec<Mapping>,
    verbs: BTreeMap<String, String>,
    handler_classes: Vec<String>,
    entry: Vec<Entry>,
    beans: Beans,
    config: Config,
    #[serde(default)]
    urls: Urls,
}

/// The verb a Java call requesting a URL of the application stands for (a call `uri` takes
/// the verb of the call it is made on). `receiver` is the receiver as the extractor wrote it
/// (empty when the call is bare); `previous`, the name of the call it is made on, if any.
pub fn url_call(name: &str, receiver: &str, previous: Option<&str>) -> Option<&'static str> {
    let u = &rules().urls;
    if u.after_verb.iter().any(|a| a == name) {
        return previous.and_then(|p| u.calls.get(p)).map(String::as_str);
    }
    let verb = u.calls.get(name)?;
    // `getForObject` and its kin are nobody else's; `get` and `put` are a map's too.
    let distinctive = name.chars().any(|c| c.is_uppercase());
    let simple = crate::model::last_segment(receiver.rsplit('#').next().unwrap_or(receiver));
    let after_chain = receiver.rsplit_once('#').is_some_and(|(_, call)| u.chains.iter().any(|c| call.trim_end_matches("()") == c));
    let on_client = u.clients.iter().chain(&u.owners).any(|c| c == simple || c == receiver);
    (distinctive || receiver.is_empty() || on_client || after_chain).then_some(verb.as_str())
}

/// Whether a call's name may request a URL (`url_call` decides by its receiver).
pub fn is_url_call_name(name: &str) -> bool {
    let u = &rules().urls;
    u.calls.contains_key(name) || u.after_verb.iter().any(|a| a == name)
}

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| toml::from_str(super::rules_source("spring-web.toml")).expect("grammars/frameworks/spring-web.toml is valid"))
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
            .chain(r.beans.scans.keys())
            .chain(&r.beans.imports)
            .chain(&r.beans.property_conditions)
            .chain(&r.beans.conditions)
            .any(|b| b == name)
        || is_condition(name)
}

/// A condition on a bean other than a property's: Spring Boot's (`@ConditionalOnClass`) or a
/// project's own, by its name's prefix (`@ConditionalOnMissingProfile`).
fn is_condition(name: &str) -> bool {
    let b = &rules().beans;
    (b.conditions.iter().any(|c| c == name) || b.condition_prefix.as_deref().is_some_and(|p| name.starts_with(p)))
        && !b.property_conditions.iter().any(|c| c == name)
}

/// The markers of a declaration's modifiers that make a bean conditional: conditions,
/// property conditions and profiles (`@Profile(prod)`, `@ConditionalOnProperty(a.b=true)`). A
/// project's own annotation type with one (`@interface OnlyInProduction`, itself
/// `@Profile("prod")`) makes every bean it annotates conditional.
pub fn condition_markers(modifiers: &str) -> Vec<&str> {
    let b = &rules().beans;
    modifiers
        .split(' ')
        .filter(|w| {
            let Some(name) = w.strip_prefix('@').map(|n| n.split('(').next().unwrap_or(n)) else { return false };
            is_condition(name) || b.property_conditions.iter().chain(&b.profiles).any(|c| c == name)
        })
        .collect()
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
            push_marker(&mut out, &a.name, &values);
        }
    }
    for a in annotations {
        let mut values = Vec::new();
        if let Some(attributes) = b.scans.get(&a.name) {
            // `@SpringBootApplication(com.acme)`; `(*)`: a scan by classes, not followed.
            if a.args.iter().any(|(k, _)| b.scan_by_classes.contains(k)) {
                values.push("*".to_string());
            }
            for v in attributes.iter().filter_map(|k| a.arg(k)) {
                plain_strings(v, &mut values);
            }
        } else if b.imports.contains(&a.name) {
            // `@Import(FooConfig,BarConfig)`.
            for v in a.args.iter().filter(|(k, _)| k == "value").map(|(_, v)| v) {
                plain_strings(v, &mut values);
            }
        } else if b.property_conditions.contains(&a.name) {
            // `@ConditionalOnProperty(shop.cache.enabled=true)`: each key, with the value it
            // must have when the annotation names one.
            let joined = |v: &Value| {
                let mut parts = Vec::new();
                plain_strings(v, &mut parts);
                parts.concat()
            };
            let prefix = a.arg("prefix").map(joined);
            let having = a.arg("havingValue").map(joined);
            let if_missing = a.arg("matchIfMissing").is_some_and(|v| matches!(v, Value::Other(t) | Value::Name(t) if t == "true"));
            let mut names = Vec::new();
            for v in ["name", "value"].iter().filter_map(|k| a.arg(k)) {
                plain_strings(v, &mut names);
            }
            for name in names {
                let key = match prefix.as_deref().map(|p| p.trim_end_matches('.')) {
                    Some(p) if !p.is_empty() => format!("{p}.{name}"),
                    _ => name,
                };
                // `matchIfMissing`: on when the key is unset too (`a.b=true|unset`); without
                // `havingValue`, the key must not be `false`.
                values.push(match (&having, if_missing) {
                    (Some(h), false) => format!("{key}={h}"),
                    (Some(h), true) => format!("{key}={h}|unset"),
                    (None, false) => key,
                    (None, true) => format!("{key}=!false|unset"),
                });
            }
        } else if is_condition(&a.name) {
            // `@ConditionalOnMissingBean(DataSource)`, `@ConditionalOnExpression(${a:true})`:
            // the strings and classes of its attributes, spaces taken out (modifiers are
            // words).
            for (_, v) in &a.args {
                let mut parts = Vec::new();
                plain_strings(v, &mut parts);
                values.extend(parts.into_iter().map(|p| p.split_whitespace().collect::<String>()).filter(|p| !p.is_empty()));
            }
        } else {
            continue;
        }
        push_marker(&mut out, &a.name, &values);
    }
    out
}

/// `@Name` or `@Name(a,b)`, once.
fn push_marker(out: &mut Vec<String>, name: &str, values: &[String]) {
    let marker = if values.is_empty() { format!("@{name}") } else { format!("@{name}({})", values.join(",")) };
    if !out.contains(&marker) {
        out.push(marker);
    }
}

/// The strings and names of an annotation value, as written (`FooConfig.class` is
/// `FooConfig`); other expressions are left out.
fn plain_strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Str(s) if !s.is_empty() => out.push(s.clone()),
        Value::Name(n) => out.push(n.strip_suffix(".class").unwrap_or(n).to_string()),
        Value::Other(t) if t.ends_with(".class") => out.push(t.trim_end_matches(".class").trim().to_string()),
        Value::List(items) => items.iter().for_each(|i| plain_strings(i, out)),
        _ => {}
    }
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

/// The scan annotations (`@SpringBootApplication`, `@ComponentScan`): their marker values
/// are the packages scanned, none for the class's own, `*` for a scan not followed.
pub fn scans() -> impl Iterator<Item = &'static str> {
    rules().beans.scans.keys().map(String::as_str)
}

/// Annotations naming configurations to load whatever their package (`@Import`).
pub fn imports() -> &'static [String] {
    &rules().beans.imports
}

/// Files listing auto-configuration classes by qualified name (`META-INF/spring.factories`).
pub fn auto_configuration_files() -> &'static [String] {
    &rules().beans.auto_configuration
}

/// Annotations making a bean depend on configuration keys (`@ConditionalOnProperty`): their
/// marker values are `key` or `key=value`.
pub fn property_conditions() -> &'static [String] {
    &rules().beans.property_conditions
}

/// The other conditions the rules name (`@ConditionalOnExpression`, ...): placeholders in
/// their marker values (`${shop.audit.enabled:true}`) are keys they read.
pub fn conditions() -> &'static [String] {
    &rules().beans.conditions
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

/// Spring Data's repository interfaces (qualified names) whose subinterfaces are beans, and
/// the marker that keeps a subinterface from being one (`@NoRepositoryBean`).
pub fn repository_types() -> (&'static [String], Option<&'static str>) {
    let b = &rules().beans;
    (&b.repositories, b.no_repository_bean.as_deref())
}

/// Whether Spring Boot itself reads a configuration key (by the prefixes in the rules:
/// `server.port`, `spring.datasource.url`, `logging.level.root`).
pub fn read_by_boot(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    rules().config.boot_prefixes.iter().any(|p| key.starts_with(p.as_str()) || key == p.trim_end_matches('.'))
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
    super::names_by_string(method, receiver_type, (&c.property_methods, &c.property_types, &c.property_getters))
        .then_some(c.property_marker.as_str())
}

/// Whether a file is a logging configuration that can read keys (`logback-spring.xml`).
pub fn is_logging_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    rules().config.logging_files.iter().any(|f| f == name)
}

/// The keys a logging configuration file reads: (key, line, whether it gives a default),
/// from its `<springProperty source="key">` elements. A file that does not parse reads none.
pub fn logging_reads(text: &str) -> Vec<(String, u32, bool)> {
    let c = &rules().config;
    // `<!DOCTYPE configuration>` heads many logback files.
    let options = roxmltree::ParsingOptions { allow_dtd: true, ..Default::default() };
    let Ok(doc) = roxmltree::Document::parse_with_options(text, options) else { return Vec::new() };
    doc.descendants()
        .filter(|n| n.is_element() && c.logging_properties.iter().any(|p| p == n.tag_name().name()))
        .filter_map(|n| {
            let key = n.attribute(c.logging_source.as_str()).map(str::trim).filter(|k| !k.is_empty())?;
            let line = doc.text_pos_at(n.range().start).row;
            Some((key.to_string(), line, n.attribute(c.logging_default.as_str()).is_some()))
        })
        .collect()
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
