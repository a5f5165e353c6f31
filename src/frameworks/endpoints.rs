//! Naming endpoints whose paths name constants of other files: `@GetMapping(ApiPaths.ORDER
//! + "/list")` is extracted as a template (`GET /{=ApiPaths.ORDER}/list`), and once the
//! whole repository is indexed the constants are put in (`GET /api/order/list`). A
//! constant is a field of that name (of a type of that simple name when qualified) whose
//! declaration is a string literal, or literals and constants joined with `+`, and all
//! such fields agree. Rust routers nested from another file (`@nests(/v2=api::router)` on
//! the nesting function) give the nested file's endpoints their prefix the same way.
//!
//! A pure function over rows the store reads: it decides the names, the store writes them.
//! It must not read files or the index itself (the caller hands it a field lookup).

use std::cell::RefCell;
use std::collections::HashMap;

/// An endpoint whose name is a template, as the store holds it: its name, modifiers (with
/// `template(...)`) and signature (`NAME -> handler`).
pub struct Templated<'a> {
    pub name: &'a str,
    pub modifiers: &'a str,
    pub signature: &'a str,
}

/// The endpoints whose names change, as (their index in `endpoints`, the new name, the
/// new signature). `nesting` lists the Rust functions that nest routers
/// of other files, as (qualified name, modifiers); `fields_named` gives the fields of a
/// simple name as (name, signature, declaring type's name).
pub fn rename(
    endpoints: &[Templated],
    nesting: &[(String, String)],
    fields_named: &dyn Fn(&str) -> Vec<(String, String, String)>,
) -> Vec<(usize, String, String)> {
    // Rust functions nesting routers of other files: (their qualified name, prefix, the
    // nested function's path as written).
    let mut nests: Vec<(String, String, String)> = Vec::new();
    for (qname, modifiers) in nesting {
        for value in super::marker_values(modifiers, "nests") {
            if let Some((prefix, path)) = value.split_once('=') {
                nests.push((qname.clone(), prefix.to_string(), path.to_string()));
            }
        }
    }
    let cache: RefCell<HashMap<String, Option<String>>> = Default::default();
    let lookup = |name: &str| -> Option<String> {
        if let Some(target) = name.strip_prefix("nest:") {
            return nest_prefix(target, &nests, 0);
        }
        if let Some(v) = cache.borrow().get(name) {
            return v.clone();
        }
        let mut parts = name.rsplit('.');
        let simple = parts.next().unwrap_or(name);
        let owner = parts.next();
        let mut values: Vec<String> = Vec::new();
        for (n, signature, parent) in fields_named(simple) {
            if n != simple || owner.is_some_and(|o| o != parent) {
                continue;
            }
            // A constant's own constants are named from its type (`BASE` in `ApiPaths`).
            let Some(value) = super::initializer_template(&signature) else { continue };
            let value = value.replace("{=", &format!("{{={parent}."));
            if !values.contains(&value) {
                values.push(value);
            }
        }
        let value = (values.len() == 1).then(|| values.remove(0));
        cache.borrow_mut().insert(name.to_string(), value.clone());
        value
    };
    let mut renamed = Vec::new();
    for (i, e) in endpoints.iter().enumerate() {
        let Some(template) = e.modifiers.strip_prefix("template(").and_then(|t| t.strip_suffix(')')) else { continue };
        let now = super::endpoint_name(template, &lookup);
        if now != e.name {
            let target = e.signature.split_once(" -> ").map(|(_, t)| t).unwrap_or("");
            let signature = format!("{now} -> {target}");
            renamed.push((i, now, signature));
        }
    }
    renamed
}

/// Where a function is nested: the prefixes of the functions that nest it, a few levels
/// up; one answer, or none.
fn nest_prefix(target: &str, nests: &[(String, String, String)], depth: usize) -> Option<String> {
    if depth > 4 {
        return None;
    }
    let mut found: Vec<String> = Vec::new();
    for (by, prefix, path) in nests {
        let mut p = path.as_str();
        while let Some(rest) = p.strip_prefix("crate::").or_else(|| p.strip_prefix("self::")).or_else(|| p.strip_prefix("super::")) {
            p = rest;
        }
        if target == p || target.ends_with(&format!("::{p}")) {
            let above = nest_prefix(by, nests, depth + 1).unwrap_or_default();
            let full = super::join_url(&above, prefix);
            if !found.contains(&full) {
                found.push(full);
            }
        }
    }
    (found.len() == 1).then(|| found.remove(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(simple: &str) -> Vec<(String, String, String)> {
        let all = [
            ("BASE", r#"public static final String BASE = "/api""#, "ApiPaths"),
            ("ORDER", r#"public static final String ORDER = BASE + "/order""#, "ApiPaths"),
            // Two types define `ITEM` differently: an unqualified use names neither.
            ("ITEM", r#"static final String ITEM = "/item""#, "ApiPaths"),
            ("ITEM", r#"static final String ITEM = "/things""#, "Legacy"),
        ];
        all.iter().filter(|f| f.0.eq_ignore_ascii_case(simple)).map(|f| (f.0.to_string(), f.1.to_string(), f.2.to_string())).collect()
    }

    #[test]
    fn constants_of_other_files_and_nesting_prefixes_are_put_in() {
        let endpoints = [
            Templated {
                name: "GET /{ORDER}/list",
                modifiers: "template(GET /{=ApiPaths.ORDER}/list)",
                signature: "GET /{ORDER}/list -> OrderController#list()",
            },
            Templated { name: "GET /{ITEM}", modifiers: "template(GET /{=ITEM})", signature: "GET /{ITEM} -> ItemController#get()" },
            Templated {
                name: "GET /{ITEM}",
                modifiers: "template(GET /{=ApiPaths.ITEM})",
                signature: "GET /{ITEM} -> ItemController#get()",
            },
            Templated {
                name: "GET /users",
                modifiers: "template(GET /{=nest:api::users}/users)",
                signature: "GET /users -> api::users::list",
            },
            Templated { name: "GET /x", modifiers: "", signature: "GET /x -> X#x()" },
        ];
        let nesting = [("app::router".to_string(), "fn router() @nests(/v2=api::users)".to_string())];
        let renamed = rename(&endpoints, &nesting, &fields);
        assert_eq!(
            renamed,
            [
                (0, "GET /api/order/list".to_string(), "GET /api/order/list -> OrderController#list()".to_string()),
                (2, "GET /item".to_string(), "GET /item -> ItemController#get()".to_string()),
                (3, "GET /v2/users".to_string(), "GET /v2/users -> api::users::list".to_string()),
            ]
        );
    }
}
