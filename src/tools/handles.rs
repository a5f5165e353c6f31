//! Handle resolution: from what a caller names (qualified name, simple name, overload
//! signature, `path:line`, file path, module) to a symbol or graph node, with candidates
//! when a name is ambiguous and suggestions when it names nothing. Must not format answers
//! beyond the errors it returns.

use std::fmt::Write;

use super::lines::location;
use super::paging::echo;
use super::{fail, Atlas, ToolError};
use crate::graph::{Graph, Level, Node};
use crate::model::SymbolKind;
use crate::store::{self, Store, SymbolInfo};

/// What a handle names. Lives for one call, so the size of the symbol variant is no cost.
#[allow(clippy::large_enum_variant)]
pub(super) enum Handle {
    Symbol(SymbolInfo),
    /// The callables of one qualified name (Java overloads; a Rust type's methods of one
    /// name from several impls), in path and line order.
    Overloads(Vec<SymbolInfo>),
    External(i64, String),
}

/// The kinds a tool can answer for; an ambiguous name keeps only those.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Want {
    Any,
    /// Types that can be implemented or extended, and callables: `find_implementations`.
    Implementable,
    /// Graph nodes: types, free functions, macros, modules.
    GraphNode,
}

impl Want {
    fn accepts(self, kind: SymbolKind) -> bool {
        match self {
            Want::Any => true,
            Want::Implementable => matches!(kind, SymbolKind::Class | SymbolKind::Interface | SymbolKind::Trait) || kind.is_callable(),
            Want::GraphNode => {
                (kind.is_type() && kind != SymbolKind::TypeAlias)
                    || matches!(kind, SymbolKind::Function | SymbolKind::Macro | SymbolKind::Module | SymbolKind::Package)
            }
        }
    }
}

/// `<Type as Trait>::method` as (type, trait, method).
fn qualified_path(handle: &str) -> Option<(&str, &str, &str)> {
    let (inner, method) = handle.strip_prefix('<')?.rsplit_once(">::")?;
    let (ty, tr) = inner.split_once(" as ")?;
    Some((ty.trim(), tr.trim(), method.trim()))
}

/// Parameter types as the index stores them (erased, simple names): `java.util.List<String>,
/// int[], java.lang.String...` is `List,int[],String...`.
pub(super) fn erased_params(params: &str) -> String {
    // Generic arguments out first: their commas are not parameter separators.
    let mut plain = String::new();
    let mut depth = 0;
    for c in params.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ if depth == 0 && !c.is_whitespace() => plain.push(c),
            _ if depth == 0 => plain.push(' '),
            _ => {}
        }
    }
    plain
        .split(',')
        .map(|p| {
            // The type is the last word (`final String s` names `String`).
            let words: Vec<&str> = p.split_whitespace().filter(|w| !w.starts_with('@')).collect();
            let ty = match words.as_slice() {
                [] => "",
                [one] => one,
                [.., ty, name] if !name.contains(['[', '.']) && ty.chars().next().is_some_and(char::is_alphabetic) => ty,
                [.., last] => last,
            };
            let (base, suffix) = match ty.strip_suffix("...") {
                Some(b) => (b, "..."),
                None => (ty, ""),
            };
            let (base, arrays) = base.find('[').map_or((base, ""), |i| (&base[..i], &base[i..]));
            format!("{}{arrays}{suffix}", crate::model::last_segment(base.rsplit('.').next().unwrap_or(base)))
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// Caller text cut to 80 characters, unquoted, for a suggested call.
fn cut(text: &str) -> String {
    text.chars().take(80).collect()
}

/// A path argument as stored: relative, `/`-separated, no `./`. Absolute paths, `..`,
/// URLs, NUL bytes and paths into `.git`/`.repochart` are refused.
pub fn normalize_path(path: &str) -> Result<String, ToolError> {
    if path.contains('\0') {
        return fail("path contains a NUL byte");
    }
    if path.len() > 4096 {
        return fail("path is too long");
    }
    let p = path.trim().replace('\\', "/");
    if p.contains("://") || p.starts_with('/') || p.chars().nth(1) == Some(':') {
        return fail(format!("{path:?} is not a path relative to the repository root; absolute paths and URLs are refused"));
    }
    let mut parts = Vec::new();
    for part in p.split('/') {
        match part {
            "" | "." => {}
            ".." => return fail(format!("{path:?} leaves the repository root; refused")),
            ".git" | store::INDEX_DIR | store::LEGACY_INDEX_DIR => {
                return fail(format!("{path:?} is inside {part}/, which is not readable"))
            }
            _ => parts.push(part),
        }
    }
    Ok(parts.join("/"))
}

/// One distinct symbol name as the fuzzy pass reads it.
pub(super) struct NameEntry {
    pub(super) lower: String,
    pub(super) name: String,
    /// `char_mask` of `lower`.
    pub(super) mask: u64,
    pub(super) ascii: bool,
}

/// The optimal string alignment distance of two ASCII strings, on the stack for names up
/// to 63 bytes (strsim allocates three rows per call; the fuzzy pass makes thousands).
pub(super) fn osa_distance_ascii(a: &[u8], b: &[u8]) -> usize {
    const MAX: usize = 64;
    if a.len() >= MAX || b.len() >= MAX {
        return strsim::osa_distance(std::str::from_utf8(a).unwrap_or(""), std::str::from_utf8(b).unwrap_or(""));
    }
    let (mut two_ago, mut prev, mut cur) = ([0usize; MAX], [0usize; MAX], [0usize; MAX]);
    for (j, slot) in prev.iter_mut().enumerate().take(b.len() + 1) {
        *slot = j;
    }
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(two_ago[j - 2] + 1);
            }
            cur[j] = d;
        }
        two_ago = prev;
        prev = cur;
    }
    prev[b.len()]
}

/// Whether two byte strings are at most one edit apart (substitution, insertion, deletion
/// or a swap of neighbours: the optimal string alignment distance is 0 or 1), without the
/// allocation of a general edit distance: the fuzzy pass asks it of tens of thousands of
/// name prefixes per query.
pub(super) fn within_one_edit(a: &[u8], b: &[u8]) -> bool {
    if a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let i = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    if i == a.len() && i == b.len() {
        return true;
    }
    match a.len().cmp(&b.len()) {
        std::cmp::Ordering::Equal => {
            a[i + 1..] == b[i + 1..] || (i + 1 < a.len() && a[i] == b[i + 1] && a[i + 1] == b[i] && a[i + 2..] == b[i + 2..])
        }
        std::cmp::Ordering::Less => a[i..] == b[i + 1..],
        std::cmp::Ordering::Greater => a[i + 1..] == b[i..],
    }
}

/// The set of characters in `bytes` as bits: `a`-`z` and `0`-`9` each have one, every
/// other byte shares the last (a cheap superset test for edit-distance filtering).
pub(super) fn char_mask(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0u64, |m, &b| {
        m | match b {
            b'a'..=b'z' => 1 << (b - b'a'),
            b'0'..=b'9' => 1 << (26 + b - b'0'),
            _ => 1 << 63,
        }
    })
}

impl Atlas {
    /// Resolves a symbol handle: `path:line`, a qualified name, a unique simple name, a
    /// qualified-name suffix, an overload (`Type#m(int)`, `<Type as Trait>::m`), or an
    /// external name. Several callables of one qualified name are `Overloads`; other
    /// ambiguity lists the candidates.
    pub(super) fn resolve(&self, store: &Store, handle: &str) -> Result<Handle, ToolError> {
        self.resolve_as(store, handle, Want::Any)
    }

    /// `resolve` for a tool that answers only for some kinds: when a name is ambiguous, the
    /// candidates it cannot answer for are dropped first (a trait, not the associated types
    /// of the same name, has implementations).
    pub(super) fn resolve_as(&self, store: &Store, handle: &str, want: Want) -> Result<Handle, ToolError> {
        let handle = handle.trim();
        if handle.is_empty() {
            return fail("empty symbol; pass a qualified name (com.acme.Foo, crate::mod::Foo), a simple name, or path:line");
        }
        if let Some((path, line)) = handle.rsplit_once(':') {
            // `path:start-end`, as answers print a symbol's place, means its first line.
            let line = line.split_once('-').map_or(line, |(start, end)| if end.parse::<u32>().is_ok() { start } else { line });
            if let (Ok(line), false) = (line.parse::<u32>(), path.ends_with(':')) {
                let path = normalize_path(path)?;
                let Some(file) = store.file_by_path(&path)? else {
                    return fail(format!("no indexed file {}; paths are relative to the repository root", echo(&path)));
                };
                return match store.symbol_at(&file.path, line)? {
                    Some(s) => Ok(Handle::Symbol(s)),
                    None => fail(format!("no symbol encloses {path}:{line}; see file_outline {{\"path\": \"{path}\"}}")),
                };
            }
        }
        // One Rust method by the trait its impl implements: `<Type as Trait>::method`.
        if let Some((ty, tr, method)) = qualified_path(handle) {
            // A blanket or foreign impl's members carry the form in their name.
            let mut found = self.candidates(store, handle)?;
            if found.is_empty() {
                let tr = crate::model::last_segment(tr);
                found = self
                    .candidates(store, &format!("{ty}::{method}"))?
                    .into_iter()
                    .filter(|s| s.impl_trait.as_deref().map(crate::model::last_segment) == Some(tr))
                    .collect();
            }
            return self.one_of(store, handle, found, want);
        }
        // One overload by its parameter types: `com.acme.Customer#getAccount(Integer)`, the
        // types simple or qualified (`java.lang.Integer`), generics ignored (erasure).
        if let Some((name, rest)) = handle.split_once('(') {
            if let Some(params) = rest.strip_suffix(')') {
                let params = erased_params(params);
                let mut found: Vec<SymbolInfo> = self
                    .candidates(store, name)?
                    .into_iter()
                    .flat_map(|s| {
                        // A single match by name may still have overloads beside it.
                        let mut same = store.symbols_by_qname(&s.qname).unwrap_or_default();
                        if same.is_empty() {
                            same.push(s);
                        }
                        same
                    })
                    // A method without parameter types (an annotation element's `value()`, a
                    // Rust method) is named with `()` too.
                    .filter(|s| {
                        s.params.as_deref() == Some(params.as_str()) || (s.params.is_none() && params.is_empty() && s.kind.is_callable())
                    })
                    .collect();
                found.sort_by_key(|s| s.id);
                found.dedup_by_key(|s| s.id);
                if found.is_empty() {
                    return fail(format!(
                        "no overload {}; get_symbol {{\"symbol\": \"{}\"}} lists the overloads with their parameter types",
                        echo(handle),
                        cut(name)
                    ));
                }
                return self.one_of(store, handle, found, want);
            }
        }
        let candidates = self.candidates(store, handle)?;
        if candidates.is_empty() {
            if let Some(id) = store.external_by_qname(handle)? {
                return Ok(Handle::External(id, handle.to_string()));
            }
            // A type outside the repository by its simple name (`WriteColor`, `UserDetails`).
            if !handle.contains(['.', ':', '#', '(', '<', ' ']) {
                let mut externals = store.externals_by_simple_name(handle, 11)?;
                match externals.len() {
                    0 => {}
                    1 => {
                        let (id, qname) = externals.remove(0);
                        return Ok(Handle::External(id, qname));
                    }
                    n => {
                        let mut msg = format!(
                            "{} is ambiguous ({}{n} names outside the repository); pass one:\n",
                            echo(handle),
                            if n > 10 { "over " } else { "" }
                        );
                        for (_, q) in externals.iter().take(10) {
                            let _ = writeln!(msg, "  external {q}");
                        }
                        return fail(msg.trim_end().to_string());
                    }
                }
            }
        }
        self.one_of(store, handle, candidates, want)
    }

    /// The symbols a name may mean: by qualified name (`Outer.member` for `Outer#member`),
    /// by simple name, by qualified-name suffix, by a re-export's or import's alias.
    fn candidates(&self, store: &Store, handle: &str) -> Result<Vec<SymbolInfo>, ToolError> {
        // `Outer.method` may be written with a dot instead of Java's `#`.
        let member_form = match handle.rsplit_once('.') {
            Some((owner, member)) if !handle.contains("::") && !handle.contains('#') => Some(format!("{owner}#{member}")),
            _ => None,
        };
        let mut candidates = store.symbols_by_qname(handle)?;
        if !candidates.is_empty() && handle.contains("::") {
            // Rust's namespaces: a module may sit beside a re-export of a macro or function of
            // its name (`pub mod instrument;` and `pub use attributes::instrument;`); the path
            // names both.
            for s in self.through_reexports(store, handle, 0)? {
                if !candidates.iter().any(|c| c.id == s.id) {
                    candidates.push(s);
                }
            }
        }
        if candidates.is_empty() {
            if let Some(m) = &member_form {
                candidates = store.symbols_by_qname(m)?;
            }
        }
        if candidates.is_empty() && handle.contains("::") {
            // A Rust public path: through the re-exports that make it (`engine_core::Searcher`,
            // `facade::engine::search::Searcher` through `pub extern crate .. as engine;`).
            candidates = self.through_reexports(store, handle, 0)?;
        }
        if candidates.is_empty() {
            candidates = store.symbols_by_name(handle)?;
        }
        if candidates.is_empty() {
            candidates = store.symbols_by_qname_suffix(handle)?;
        }
        if candidates.is_empty() {
            if let Some(m) = &member_form {
                candidates = store.symbols_by_qname_suffix(m)?;
            }
        }
        if candidates.is_empty() {
            // A name a re-export or an import alias gives (`pub use a::Gateway as PaymentGateway`).
            for id in store.alias_targets(crate::model::last_segment(handle))? {
                candidates.extend(store.symbol(id)?);
            }
        }
        Ok(candidates)
    }

    /// The symbols a Rust path names through re-exports: the longest prefix a module
    /// re-exports (by name, or by a glob) is replaced by the path it re-exports, at most a
    /// few times over.
    fn through_reexports(&self, store: &Store, handle: &str, depth: usize) -> Result<Vec<SymbolInfo>, ToolError> {
        if depth > 4 {
            return Ok(Vec::new());
        }
        let segments: Vec<&str> = handle.split("::").collect();
        for i in (1..segments.len()).rev() {
            let (module, name, rest) = (segments[..i].join("::"), segments[i], segments[i + 1..].join("::"));
            for (path, target, glob) in store.reexports(&module, name)? {
                let (base, tail) = match (glob, target) {
                    // `pub use search::*;`: the name is looked up in the module globbed.
                    (true, _) => (path, segments[i..].join("::")),
                    (false, Some(id)) => match store.symbol(id)? {
                        Some(s) if rest.is_empty() => return Ok(vec![s]),
                        Some(s) => (s.qname, rest.clone()),
                        None => continue,
                    },
                    // A crate or module re-exported under a name (`pub extern crate x as y;`).
                    (false, None) => (path, rest.clone()),
                };
                // The path as written is relative to the module, or starts with a crate name.
                for base in absolute(&module, &base) {
                    let next = if tail.is_empty() { base } else { format!("{base}::{tail}") };
                    let mut found = store.symbols_by_qname(&next)?;
                    if found.is_empty() {
                        found = self.through_reexports(store, &next, depth + 1)?;
                    }
                    if !found.is_empty() {
                        return Ok(found);
                    }
                }
            }
        }
        Ok(Vec::new())
    }

    /// The handle for what `handle` matched: one symbol, the overloads of one name, or an
    /// error that lists the candidates (or close names when nothing matched).
    fn one_of(&self, store: &Store, handle: &str, mut candidates: Vec<SymbolInfo>, want: Want) -> Result<Handle, ToolError> {
        // A type's name also names its constructors: the type is meant.
        if candidates.len() > 1 && candidates.iter().any(|c| c.kind.is_type()) {
            candidates.retain(|c| c.kind != SymbolKind::Constructor);
        }
        if candidates.len() > 1 && candidates.iter().any(|c| want.accepts(c.kind)) {
            candidates.retain(|c| want.accepts(c.kind));
        }
        let overloads = candidates.len() > 1 && candidates.iter().all(|c| c.kind.is_callable() && c.qname == candidates[0].qname);
        if overloads {
            candidates.sort_by(|a, b| (&a.path, a.start_line).cmp(&(&b.path, b.start_line)));
            return Ok(Handle::Overloads(candidates));
        }
        match candidates.len() {
            0 => {
                let suggestions = self.suggest(store, handle)?;
                if suggestions.is_empty() {
                    fail(format!(
                        "no symbol {}; try search_symbols {{\"query\": \"{}\"}}",
                        echo(handle),
                        cut(crate::model::last_segment(handle))
                    ))
                } else {
                    fail(format!("no symbol {}; did you mean: {}", echo(handle), suggestions.join(", ")))
                }
            }
            1 => Ok(Handle::Symbol(candidates.remove(0))),
            n => {
                let mut msg = format!("{} is ambiguous ({n} symbols); pass one of these handles:\n", echo(handle));
                let handles = distinct_handles(&candidates);
                for (c, h) in candidates.iter().zip(&handles).take(10) {
                    // A place for a handle is said once, with the qualified name beside it.
                    if h.starts_with(&format!("{}:", c.path)) {
                        let _ = writeln!(msg, "  {} {}  {}  (handle {h})", c.kind, c.qname, location(c));
                    } else {
                        let _ = writeln!(msg, "  {} {h}  {}", c.kind, location(c));
                    }
                }
                if n > 10 {
                    let _ = writeln!(msg, "  ... and {} more", n - 10);
                }
                fail(msg.trim_end().to_string())
            }
        }
    }

    pub(super) fn resolve_symbol(&self, store: &Store, handle: &str) -> Result<SymbolInfo, ToolError> {
        match self.resolve(store, handle)? {
            Handle::Symbol(s) => Ok(s),
            Handle::Overloads(all) => fail(overload_list(handle, &all)),
            Handle::External(_, q) => {
                fail(format!("{q} is outside the repository (no source); it can be used with find_references and find_implementations"))
            }
        }
    }

    /// Close names, for "did you mean".
    pub(super) fn suggest(&self, store: &Store, handle: &str) -> Result<Vec<String>, ToolError> {
        let simple = crate::model::last_segment(handle).to_lowercase();
        let names = self.all_names(store)?;
        let mut scored: Vec<(f64, &String)> =
            names.iter().map(|e| (strsim::jaro_winkler(&simple, &e.lower), &e.name)).filter(|(s, _)| *s > 0.85).collect();
        scored.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal).then(a.1.cmp(b.1)));
        let mut out = Vec::new();
        for (_, name) in scored.into_iter().take(5) {
            for s in store.symbols_by_name(name)?.into_iter().take(2) {
                out.push(s.qname);
            }
        }
        out.dedup();
        out.truncate(5);
        Ok(out)
    }

    /// Resolves a graph node at a level: a symbol (types), a file path, or a module name.
    pub(super) fn node(&self, store: &Store, graph: &Graph, target: &str) -> Result<Node, ToolError> {
        match graph.level {
            Level::Symbol => match self.resolve_as(store, target, Want::GraphNode)? {
                Handle::Symbol(s) => graph.node_of_symbol(s.id).ok_or_else(|| ToolError(format!("{} is not in the graph", s.qname))),
                // Overloads share their type: the type is the node.
                Handle::Overloads(all) => {
                    graph.node_of_symbol(all[0].id).ok_or_else(|| ToolError(format!("{} is not in the graph", all[0].qname)))
                }
                Handle::External(id, _) => Ok(Node::External(id)),
            },
            Level::File => {
                let path = normalize_path(target)?;
                if let Some(f) = store.file_by_path(&path)? {
                    return Ok(Node::File(f.id));
                }
                match self.resolve(store, target) {
                    Ok(Handle::Symbol(s)) => Ok(Node::File(s.file_id)),
                    _ => fail(format!("no indexed file {path:?} (level=file takes a path relative to the root)")),
                }
            }
            Level::Module => {
                let node = Node::Module(target.to_string());
                if graph.contains(&node) {
                    return Ok(node);
                }
                // A file stands for its module.
                if let Some(path) = normalize_path(target).ok().filter(|p| !p.is_empty()) {
                    if let Some(f) = store.file_by_path(&path)? {
                        return Ok(Node::Module(f.module));
                    }
                }
                match self.resolve(store, target) {
                    Ok(Handle::Symbol(s)) => {
                        let f = store.file(s.file_id)?.ok_or_else(|| ToolError("file vanished".into()))?;
                        Ok(Node::Module(f.module))
                    }
                    _ => fail(format!("no module {target:?}; repo_overview lists modules")),
                }
            }
            Level::Unit => self.unit_node(store, graph, target),
            Level::Service => self.service_node(store, graph, target),
        }
    }
}

/// The answer for a name that has several overloads where one is needed: each with its
/// handle and lines, and how to pick one.
pub(super) fn overload_list(handle: &str, all: &[SymbolInfo]) -> String {
    let mut out = format!("{} names {} overloads; pass one handle:\n", echo(handle), all.len());
    for (s, h) in all.iter().zip(distinct_handles(all)) {
        let _ = writeln!(out, "  {} {h}  {}", s.kind, location(s));
    }
    out.trim_end().to_string()
}

/// Each symbol's handle among others of its name: its overload handle (`Type#m(int)`,
/// `<Format as FormatEvent>::format_event`), or its place (`path:line`) where that handle
/// is another's too (impls of one trait for one generic type with other arguments:
/// `impl FormatEvent for Format<Json, T>` and `.. for Format<Full, T>`).
pub(super) fn distinct_handles(all: &[SymbolInfo]) -> Vec<String> {
    let handles: Vec<String> = all.iter().map(SymbolInfo::overload_handle).collect();
    handles
        .iter()
        .zip(all)
        .map(|(h, s)| if handles.iter().filter(|o| *o == h).count() > 1 { format!("{}:{}", s.path, s.start_line) } else { h.clone() })
        .collect()
}

/// Where a `use` path of a module may point: `crate::`, `self::` and `super::` against the
/// module; otherwise a path under the module, then the path as it is (a crate's name).
fn absolute(module: &str, path: &str) -> Vec<String> {
    let krate = module.split("::").next().unwrap_or(module);
    if let Some(rest) = path.strip_prefix("crate::") {
        return vec![format!("{krate}::{rest}")];
    }
    if let Some(rest) = path.strip_prefix("self::") {
        return vec![format!("{module}::{rest}")];
    }
    if let Some(rest) = path.strip_prefix("super::") {
        let parent = module.rsplit_once("::").map_or(krate, |(p, _)| p);
        return vec![format!("{parent}::{rest}")];
    }
    vec![format!("{module}::{path}"), path.to_string()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_confined_to_the_root() {
        assert_eq!(normalize_path("./src//a.rs").unwrap(), "src/a.rs");
        assert_eq!(normalize_path("src\\a.rs").unwrap(), "src/a.rs");
        for bad in [
            "../etc/passwd",
            "/etc/passwd",
            "file:///etc/passwd",
            "C:\\x",
            "..\\..\\x",
            "a/../../b",
            ".git/config",
            ".repochart/index.db",
            ".codeatlas/audit.log",
            "a\0b",
        ] {
            assert!(normalize_path(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn one_edit_agrees_with_the_edit_distance() {
        let words =
            ["", "a", "ab", "ba", "abc", "acb", "abd", "abcd", "bcd", "hashmap", "hsahmap", "hashmpa", "hasmap", "hashmapp", "xashmap"];
        for a in words {
            for b in words {
                assert_eq!(within_one_edit(a.as_bytes(), b.as_bytes()), strsim::osa_distance(a, b) <= 1, "{a:?} {b:?}");
                assert_eq!(osa_distance_ascii(a.as_bytes(), b.as_bytes()), strsim::osa_distance(a, b), "{a:?} {b:?}");
            }
        }
    }
}
