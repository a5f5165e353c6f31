//! Rust web frameworks, as the rules in `grammars/frameworks/rust-web.toml` describe them:
//! route attributes (`#[get("/p")]`, actix-web's `#[route(.., method = ..)]`) and routers
//! assembled in code (axum `.route`/`.nest`, actix-web `web::scope`/`.service`/`.configure`).
//!
//! Owns those rules. It must not read syntax trees: the extractor walks the chains and
//! asks these.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use super::*;

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
pub(super) struct RustRules {
    route: Vec<RustRoute>,
    router: Router,
}

/// Routers assembled in code: method chains inside functions (`grammars/frameworks/rust-web.toml`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Router {
    /// `.route("/p", get(h))`: a path (or none: the resource's own) and a method router.
    pub route: Vec<String>,
    /// `.route_service("/p", svc)`: a service serving the path, every verb.
    pub route_service: Vec<String>,
    /// `.nest_service("/p", svc)`: a service serving every path under the path.
    pub nest_service: Vec<String>,
    /// `.fallback(h)`, `.fallback_service(svc)`: what serves every path no route matches.
    pub fallback: Vec<String>,
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
    /// Types whose constructor starts a method router (`MethodRouter::new()`).
    pub method_router_types: Vec<String>,
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
    r.route
        .iter()
        .chain(&r.nest)
        .chain(&r.service)
        .chain(&r.route_service)
        .chain(&r.nest_service)
        .chain(&r.fallback)
        .any(|m| text.contains(&format!(".{m}(")))
}

fn rust_rules() -> &'static RustRules {
    static RULES: OnceLock<RustRules> = OnceLock::new();
    RULES.get_or_init(|| toml::from_str(super::rules_source("rust-web.toml")).expect("grammars/frameworks/rust-web.toml is valid"))
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
