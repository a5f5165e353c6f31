//! Library supertypes (`grammars/frameworks/library-supertypes.toml`): the members a
//! repository type inherits from a library's type (`JpaRepository<Order, Long>` gives
//! `Optional<Order> findById(Long id)`), computed from the type's arguments as plain values
//! that the extractor turns into symbols, so that `orderRepository.findById(id)` resolves.
//!
//! Owns the rules, their declarations' parsing and the substitution of type arguments. It
//! must not walk syntax trees (the extractor gives the supertype as written) nor touch the
//! store.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::sync::OnceLock;

use serde::Deserialize;

use crate::model::SymbolKind;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// Qualified names of the types declarations return by simple name.
    #[serde(default)]
    pub imports: Vec<String>,
    /// By qualified name.
    pub types: BTreeMap<String, LibraryType>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LibraryType {
    pub params: Vec<String>,
    /// Supertypes by simple name with arguments in `params`.
    #[serde(default)]
    pub extends: Vec<String>,
    /// Method declarations as Java writes them (`<S extends T> S save(S entity)`).
    #[serde(default)]
    pub members: Vec<String>,
    /// Field declarations (`M baseMapper`).
    #[serde(default)]
    pub fields: Vec<String>,
}

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| {
        toml::from_str(super::rules_source("library-supertypes.toml")).expect("grammars/frameworks/library-supertypes.toml is valid")
    })
}

/// The qualified names of the library types of this simple name.
pub fn named(simple: &str) -> impl Iterator<Item = &'static str> + '_ {
    rules().types.keys().map(String::as_str).filter(move |q| crate::model::last_segment(q) == simple)
}

/// Whether the table knows a type of this qualified name.
pub fn knows(qualified: &str) -> bool {
    rules().types.contains_key(qualified)
}

/// A member inherited from a library type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inherited {
    pub kind: SymbolKind,
    pub name: String,
    /// Erased parameter types (`Symbol::params`); `None` for a field.
    pub params: Option<String>,
    /// The type it returns or holds, method type parameters replaced by their bounds
    /// (`Symbol::returns`, what call chains follow).
    pub returns: String,
    /// The declaration with the type's arguments put in (`Optional<Order> findById(Long id)`).
    pub signature: String,
    /// The simple name of the library type that declares it.
    pub from: String,
}

/// The members a type inherits from the library type `qualified` given `args` (as written
/// in the source), its own members first, then its supertypes' breadth first; one per name
/// and erased parameters. `erase` erases a simple name the arguments may hold (a type
/// parameter of the repository's type) and returns other names as they are.
pub fn inherited(qualified: &str, args: &[String], erase: &dyn Fn(&str) -> String) -> Vec<Inherited> {
    let r = rules();
    let mut out = Vec::new();
    let mut seen: HashSet<(String, Option<String>)> = HashSet::new();
    let mut visited: HashSet<&str> = HashSet::new();
    let mut queue: VecDeque<(&str, Vec<String>)> = VecDeque::from([(qualified, args.to_vec())]);
    while let Some((q, args)) = queue.pop_front() {
        let Some(t) = r.types.get(q) else { continue };
        if !visited.insert(q) {
            continue;
        }
        let from = crate::model::last_segment(q).to_string();
        let put = |text: &str| substitute(text, &t.params, &args);
        for field in &t.fields {
            let Some((ty, name)) = field.trim().rsplit_once(' ') else { continue };
            let ty = put(ty.trim());
            if seen.insert((name.to_string(), None)) {
                out.push(Inherited {
                    kind: SymbolKind::Field,
                    name: name.to_string(),
                    params: None,
                    returns: ty.clone(),
                    signature: format!("{ty} {name}"),
                    from: from.clone(),
                });
            }
        }
        for member in &t.members {
            let text = put(member);
            let Some(m) = Method::parse(&text) else { continue };
            // The return type's own name as the table writes it, qualified by `imports`
            // unless it is a type parameter (then it is what the arguments put there).
            let raw = Method::parse(member).map(|raw| {
                let base = split_generic(raw.returns).0;
                let generic = raw.type_params.iter().any(|(n, _)| *n == base);
                (base, generic)
            });
            let import = raw.and_then(|(base, generic)| {
                (!generic && !t.params.contains(&base)).then(|| r.imports.iter().find(|q| crate::model::last_segment(q) == base)).flatten()
            });
            let mut returns = m.bounded(m.returns);
            if let Some(q) = import {
                returns = format!("{q}{}", &returns[crate::model::last_segment(q).len()..]);
            }
            let params: Vec<String> = m.params.iter().map(|(ty, _)| m.erase(ty, erase)).collect();
            let params = params.join(",");
            if seen.insert((m.name.to_string(), Some(params.clone()))) {
                out.push(Inherited {
                    kind: SymbolKind::Method,
                    name: m.name.to_string(),
                    params: Some(params),
                    returns,
                    signature: m.signature(),
                    from: from.clone(),
                });
            }
        }
        for parent in &t.extends {
            let (name, parent_args) = split_generic(&put(parent));
            let same_package = format!("{}.{name}", q.rsplit_once('.').map_or("", |(p, _)| p));
            let target = if r.types.contains_key(&same_package) { Some(same_package.as_str()) } else { named(&name).next() };
            if let Some((key, _)) = target.and_then(|t| r.types.get_key_value(t)) {
                queue.push_back((key.as_str(), parent_args));
            }
        }
    }
    out
}

/// `Name<A, B<C>>` -> (`Name`, [`A`, `B<C>`]); a raw name has no arguments.
pub fn split_generic(text: &str) -> (String, Vec<String>) {
    let text = text.trim();
    match text.find('<') {
        Some(open) if text.ends_with('>') => {
            (text[..open].trim().to_string(), top_level(&text[open + 1..text.len() - 1]).into_iter().map(str::to_string).collect())
        }
        _ => (text.to_string(), Vec::new()),
    }
}

/// Splits at the commas outside angle brackets and parentheses, trimmed, empty parts dropped.
fn top_level(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(text[start..].trim());
    out.retain(|p| !p.is_empty());
    out
}

/// Replaces each identifier that is one of `params` by the argument at its place (`Object`
/// for a raw type), leaving the rest of the text as it is.
fn substitute(text: &str, params: &[String], args: &[String]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match params.iter().position(|p| p == word) {
            Some(i) => out.push_str(args.get(i).map_or("Object", String::as_str)),
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' || c == '$' || (c == '.' && !word.is_empty()) {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// A method declaration of the table: `<S extends T> S save(S entity)`.
struct Method<'a> {
    /// Its own type parameters with their first bound (`Object` when unbounded).
    type_params: Vec<(&'a str, &'a str)>,
    type_params_text: &'a str,
    returns: &'a str,
    name: &'a str,
    params: Vec<(&'a str, &'a str)>,
}

impl<'a> Method<'a> {
    fn parse(text: &'a str) -> Option<Method<'a>> {
        let text = text.trim();
        let (type_params_text, rest) = match text.strip_prefix('<') {
            Some(_) => {
                let mut depth = 0;
                let close = text.char_indices().find(|(_, c)| {
                    match c {
                        '<' => depth += 1,
                        '>' => depth -= 1,
                        _ => {}
                    }
                    depth == 0
                })?;
                (&text[..=close.0], text[close.0 + 1..].trim())
            }
            None => ("", text),
        };
        let type_params = match type_params_text.len() {
            0 => Vec::new(),
            n => top_level(&type_params_text[1..n - 1])
                .into_iter()
                .map(|p| match p.split_once(" extends ") {
                    Some((name, bound)) => (name.trim(), top_level_first_bound(bound)),
                    None => (p, "Object"),
                })
                .collect(),
        };
        let open = rest.find('(')?;
        let (head, params) = (rest[..open].trim(), rest[open + 1..].strip_suffix(')')?);
        let (returns, name) = head.rsplit_once(' ')?;
        let params = top_level(params).into_iter().filter_map(|p| p.rsplit_once(' ').map(|(ty, n)| (ty.trim(), n.trim()))).collect();
        Some(Method { type_params, type_params_text, returns: returns.trim(), name, params })
    }

    /// A type with this method's type parameters replaced by their bounds.
    fn bounded(&self, ty: &str) -> String {
        let names: Vec<String> = self.type_params.iter().map(|(n, _)| n.to_string()).collect();
        let bounds: Vec<String> = self.type_params.iter().map(|(_, b)| b.to_string()).collect();
        substitute(ty, &names, &bounds)
    }

    /// A parameter type as `Symbol::params` holds it: generic arguments dropped, by simple
    /// name, a type parameter replaced by its erasure, arrays and varargs as `[]`.
    fn erase(&self, ty: &str, erase: &dyn Fn(&str) -> String) -> String {
        let (base, varargs) = match ty.strip_suffix("...") {
            Some(base) => (base, true),
            None => (ty, false),
        };
        let element = base.trim_end_matches("[]");
        let dims = (base.len() - element.len()) / 2;
        let bounded = self.bounded(element.trim());
        let (name, _) = split_generic(&bounded);
        let mut out = erase(crate::model::last_segment(&name));
        out.push_str(&"[]".repeat(dims));
        if varargs {
            out.push_str("...");
        }
        out
    }

    fn signature(&self) -> String {
        let params: Vec<String> = self.params.iter().map(|(ty, n)| format!("{ty} {n}")).collect();
        let lead = if self.type_params_text.is_empty() { String::new() } else { format!("{} ", self.type_params_text) };
        format!("{lead}{} {}({})", self.returns, self.name, params.join(", "))
    }
}

/// The first bound of `A & B`.
fn top_level_first_bound(bound: &str) -> &str {
    bound.split('&').next().unwrap_or(bound).trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(name: &str) -> String {
        name.to_string()
    }

    fn row(m: &Inherited) -> String {
        format!("{}({}) -> {} | {} [{}]", m.name, m.params.as_deref().unwrap_or("-"), m.returns, m.signature, m.from)
    }

    #[test]
    fn jpa_repository_members_take_the_types_arguments() {
        let members = inherited("org.springframework.data.jpa.repository.JpaRepository", &["Order".into(), "Long".into()], &plain);
        let rows: Vec<String> = members.iter().map(row).collect();
        // Its own members first, then ListCrudRepository's, whose `findAll()` hides
        // CrudRepository's; one `findById`. A return type the table names by a simple name
        // is qualified by its imports; a type parameter's is what the arguments put there.
        assert_eq!(rows[0], "flush() -> void | void flush() [JpaRepository]");
        assert_eq!(rows[1], "saveAndFlush(Order) -> Order | <S extends Order> S saveAndFlush(S entity) [JpaRepository]");
        assert!(rows.contains(&"findAll() -> java.util.List<Order> | List<Order> findAll() [ListCrudRepository]".to_string()), "{rows:#?}");
        assert!(
            rows.contains(&"findById(Long) -> java.util.Optional<Order> | Optional<Order> findById(Long id) [CrudRepository]".to_string())
        );
        assert!(rows.contains(
            &"findAll(Pageable) -> org.springframework.data.domain.Page<Order> | Page<Order> findAll(Pageable pageable) [PagingAndSortingRepository]".to_string()
        ));
        assert!(
            rows.contains(&"deleteAll(Iterable) -> void | void deleteAll(Iterable<? extends Order> entities) [CrudRepository]".to_string())
        );
        assert_eq!(rows.iter().filter(|r| r.starts_with("findAll() ")).count(), 1);
        assert_eq!(rows.iter().filter(|r| r.starts_with("findById(")).count(), 1);
        assert_eq!(members.len(), 31, "{rows:#?}");
    }

    #[test]
    fn a_raw_type_holds_objects_and_type_parameters_erase_through_the_callback() {
        let erase = |n: &str| if n == "E" { "BaseEntity".to_string() } else { n.to_string() };
        let members = inherited("org.springframework.data.repository.CrudRepository", &["E".into()], &erase);
        let save = members.iter().find(|m| m.name == "save").unwrap();
        assert_eq!(row(save), "save(BaseEntity) -> E | <S extends E> S save(S entity) [CrudRepository]");
        let by_id = members.iter().find(|m| m.name == "findById").unwrap();
        assert_eq!(row(by_id), "findById(Object) -> java.util.Optional<E> | Optional<E> findById(Object id) [CrudRepository]");
    }

    #[test]
    fn service_impl_gives_its_field_and_the_service_members() {
        let members =
            inherited("com.baomidou.mybatisplus.extension.service.impl.ServiceImpl", &["UserMapper".into(), "User".into()], &plain);
        let rows: Vec<String> = members.iter().take(3).map(row).collect();
        assert_eq!(
            rows,
            [
                "baseMapper(-) -> UserMapper | UserMapper baseMapper [ServiceImpl]",
                "getBaseMapper() -> UserMapper | UserMapper getBaseMapper() [ServiceImpl]",
                "save(User) -> boolean | boolean save(User entity) [IService]",
            ]
        );
        // IService's `getBaseMapper()` is hidden by ServiceImpl's.
        assert_eq!(members.iter().filter(|m| m.name == "getBaseMapper").count(), 1);
        let page = members.iter().find(|m| m.name == "page" && m.params.as_deref() == Some("IPage,Wrapper")).unwrap();
        assert_eq!(
            row(page),
            "page(IPage,Wrapper) -> IPage<User> | <E extends IPage<User>> E page(E page, Wrapper<User> queryWrapper) [IService]"
        );
    }

    #[test]
    fn generic_arguments_split_at_top_level_commas() {
        assert_eq!(
            split_generic("JpaRepository<Map<String, Long>, Long>"),
            ("JpaRepository".into(), vec!["Map<String, Long>".into(), "Long".into()])
        );
        assert_eq!(split_generic("Repository"), ("Repository".into(), vec![]));
        assert_eq!(substitute("Iterable<? extends ID> ids", &["ID".into()], &["Long".into()]), "Iterable<? extends Long> ids");
        assert_eq!(substitute("IDENTITY ID", &["ID".into()], &["Long".into()]), "IDENTITY Long");
    }
}
