//! Tier 2, symbol lookup: `search_symbols`, `get_symbol`, `find_implementations`,
//! `find_references` and `file_outline`, with precise locations. Must not read source text
//! beyond counting a file's lines.

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt::Write;

use super::args::{ImplArgs, OutlineArgs, RefsArgs, SearchArgs, SymbolArgs};
use super::handles::{char_mask, normalize_path, osa_distance_ascii, within_one_edit, Handle, NameEntry, Want};
use super::lines::{format_counts, handle_of, lines_of, location, plural};
use super::paging::{cap, echo, page, write_page, Row, Window};
use super::{clamp, fail, Answer, Atlas, ToolError};
use crate::model::{Language, RefKind, SymbolKind};
use crate::store::{Store, SymbolInfo, Target};

/// The path of a URL written whole, with or without a verb (`GET https://shop.example:8443/api/x?y=1`
/// -> `GET /api/x?y=1`); any other query as it is.
fn url_path(query: &str) -> std::borrow::Cow<'_, str> {
    let (verb, rest) = match query.split_once(' ') {
        Some((v, r)) if v.chars().all(|c| c.is_ascii_uppercase()) => (Some(v), r.trim()),
        _ => (None, query),
    };
    let Some((_, after)) =
        rest.split_once("://").filter(|(scheme, _)| !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphanumeric() || c == '+'))
    else {
        return std::borrow::Cow::Borrowed(query);
    };
    let path = match after.find(['/', '?', '#']) {
        Some(i) if after[i..].starts_with('/') => &after[i..],
        Some(i) => return std::borrow::Cow::Owned(format!("{}/{}", verb.map(|v| format!("{v} ")).unwrap_or_default(), &after[i..])),
        None => "/",
    };
    std::borrow::Cow::Owned(match verb {
        Some(v) => format!("{v} {path}"),
        None => path.to_string(),
    })
}

/// A symbol as search lists it: kind, qualified name (with parameter types), place, and
/// the signature when it says more than the name.
fn search_row(s: &SymbolInfo) -> String {
    let mut row = format!("{} {}  {}", s.kind, s.signature_handle(), location(s));
    if !s.signature.is_empty() && s.signature != s.name {
        row.push_str("  ");
        row.push_str(&s.signature);
    }
    row
}

/// Words for an FTS5 query: alphanumeric runs of the query, split like symbol names,
/// each quoted (so no FTS syntax gets through), joined with OR.
pub(super) fn fts_words(query: &str) -> String {
    let words = crate::model::name_words(&query.replace(['.', ':', '#'], " ").split_whitespace().collect::<Vec<_>>().join("_"));
    let mut seen = HashSet::new();
    words
        .split_whitespace()
        .map(|w| w.chars().filter(|c| c.is_alphanumeric()).collect::<String>())
        .filter(|w| !w.is_empty() && seen.insert(w.clone()))
        .map(|w| format!("\"{w}\""))
        .collect::<Vec<_>>()
        .join(" OR ")
}

impl Atlas {
    /// The methods a method implements or overrides: same name and parameters in the types
    /// its type extends or implements, however far up.
    pub(super) fn overridden(&self, store: &Store, s: &SymbolInfo) -> Result<Vec<SymbolInfo>, ToolError> {
        let mut out = Vec::new();
        let Some(owner) = s.parent.filter(|_| s.kind.is_callable()) else {
            return Ok(out);
        };
        // A Rust method implements only the trait its impl names; an inherent method
        // implements nothing, whatever traits its type has.
        let rust_trait = match (s.language.as_str(), s.impl_trait.as_deref()) {
            ("rust", None) => return Ok(out),
            ("rust", Some(t)) => Some(crate::model::last_segment(t).split('<').next().unwrap_or(t).to_string()),
            _ => None,
        };
        let mut seen = HashSet::from([owner]);
        let mut queue = VecDeque::from([owner]);
        while let Some(t) = queue.pop_front() {
            for up in store.supertype_ids(t)? {
                if !seen.insert(up) {
                    continue;
                }
                queue.push_back(up);
                if let Some(t) = &rust_trait {
                    if store.symbol(up)?.is_none_or(|u| &u.name != t) {
                        continue;
                    }
                }
                out.extend(
                    store
                        .children(up)?
                        .into_iter()
                        .filter(|m| m.kind.is_callable() && m.name == s.name && m.params == s.params && m.id != s.id),
                );
            }
        }
        Ok(out)
    }

    /// A query that is a URL path (`/order/detail/42`), with or without a verb (`GET
    /// /order/...`): the endpoints whose templates match it (`/order/detail/{orderId}`), a
    /// verb matching the same verb or `ANY`. None when the query is no path or nothing
    /// matches (then the usual search answers).
    fn search_endpoints(&self, store: &Store, query: &str, prefix: &str, window: Window) -> Result<Option<String>, ToolError> {
        // A full URL (`http://localhost:8080/pets/3/edit?x=1`) is its path; its port may
        // pick the application.
        let port = super::apps::url_port(query);
        let normalized = url_path(query);
        let query: &str = &normalized;
        let (verb, path) = match query.split_once(' ') {
            Some((v, p)) if v.chars().all(|c| c.is_ascii_uppercase()) && p.trim_start().starts_with('/') => (Some(v), p.trim()),
            _ if query.starts_with('/') => (None, query),
            _ => return Ok(None),
        };
        let path = path.split(['?', '#']).next().unwrap_or(path);
        let mut found: Vec<SymbolInfo> = store
            .symbols_of_kind(SymbolKind::Endpoint.as_str(), None, prefix, usize::MAX, 0)?
            .0
            .into_iter()
            .filter(|e| {
                let (v, template) = e.name.split_once(' ').unwrap_or(("ANY", e.name.as_str()));
                verb.is_none_or(|q| v == q || v == "ANY") && crate::frameworks::template_matches(template, path)
            })
            .collect();
        if found.is_empty() {
            // The path is served, by other verbs: say so rather than search names.
            if let Some(verb) = verb {
                if let Some(other) = self.search_endpoints(store, path, prefix, window)? {
                    return Ok(Some(format!("no endpoint serves {verb} {}; {other}", echo(path))));
                }
            }
            return Ok(None);
        }
        // A router's fallback (`/{*fallback}`) serves only what no route matches.
        if found.iter().any(|e| !e.name.ends_with(crate::frameworks::FALLBACK)) {
            found.retain(|e| !e.name.ends_with(crate::frameworks::FALLBACK));
        }
        // The most specific template first, as Spring picks it: fewer variables and
        // wildcards, then the longer (`/admin/login` before `/admin/{id}`).
        found.sort_by_key(|e| {
            let template = e.name.split_once(' ').map_or(e.name.as_str(), |(_, t)| t);
            (template.matches(['{', '*']).count(), std::cmp::Reverse(template.len()))
        });
        // Several applications: each row names those serving it; a URL's port keeps the
        // endpoints of the application listening on it.
        let apps = self.apps(store)?;
        let mut served: HashMap<i64, Vec<usize>> = HashMap::new();
        let mut picked = String::new();
        if apps.len() > 1 {
            served = self.serving(store, &apps, &found.iter().map(|e| e.file_id).collect::<Vec<_>>())?;
            let on_port = |e: &SymbolInfo, p: &str| served.get(&e.file_id).is_some_and(|s| s.iter().any(|&a| apps[a].listens_on(p)));
            match port {
                Some(p) if found.iter().any(|e| on_port(e, p)) => {
                    found.retain(|e| on_port(e, p));
                    let names: Vec<&str> = apps.iter().filter(|a| a.listens_on(p)).map(|a| a.name.as_str()).collect();
                    picked = format!(" (port {p}: {})", names.join(", "));
                }
                Some(p) => picked = format!(" (no application serving it listens on port {p})"),
                None => {}
            }
        }
        let several = {
            let all: HashSet<usize> = found.iter().flat_map(|e| served.get(&e.file_id).into_iter().flatten().copied()).collect();
            all.len() > 1
        };
        let mut out = format!("{} for {}{picked}:\n", plural(found.len(), "endpoint"), echo(query));
        let rows = found.iter().skip(window.offset).map(|s| {
            let mut row = search_row(s);
            if several {
                let names: Vec<String> = served.get(&s.file_id).into_iter().flatten().map(|&a| apps[a].label()).collect();
                let _ = write!(row, "  served by: {}", if names.is_empty() { "no application".to_string() } else { names.join(", ") });
            }
            Ok::<_, ToolError>(Row::new(row))
        });
        write_page(&mut out, rows, found.len(), window)?;
        Ok(Some(out))
    }

    pub(super) fn search_symbols(&self, store: &Store, a: SearchArgs) -> Answer {
        let query = a.query.as_deref().unwrap_or("").trim();
        let limit = clamp(a.limit, 20, 1, 100);
        let offset = a.offset.unwrap_or(0) as usize;
        let kind = match &a.kind {
            Some(k) => Some(SymbolKind::parse(k).ok_or_else(|| {
                ToolError(format!(
                    "unknown kind {}; kinds: {}",
                    echo(k),
                    SymbolKind::all().map(|k| k.as_str()).collect::<Vec<_>>().join(", ")
                ))
            })?),
            None => None,
        };
        if let Some(l) = &a.language {
            if crate::model::Language::parse(l).is_none() {
                return fail(format!("unknown language {}; languages: java, rust", echo(l)));
            }
        }
        let prefix = match &a.path {
            Some(p) => normalize_path(p)?,
            None => String::new(),
        };
        let window = Window { offset, limit, budget: self.summary_budget, page_bytes: None };
        if kind == Some(SymbolKind::ConfigKey) {
            return self.search_config_keys(store, query, &prefix, window);
        }
        if kind == Some(SymbolKind::Statement) {
            return self.search_statements(store, query, &prefix, window);
        }
        if query.is_empty() {
            // A kind alone lists that kind, by qualified name.
            let Some(kind) = kind else {
                return fail("pass a query (a name, words or a qualified name), or a kind to list every symbol of that kind");
            };
            let (page, total) = store.symbols_of_kind(kind.as_str(), a.language.as_deref(), &prefix, limit, offset)?;
            let mut out = format!(
                "{} of kind {kind}{}\n",
                plural(total, "symbol"),
                if prefix.is_empty() { String::new() } else { format!(" under {}", echo(&prefix)) }
            );
            let rows = page.iter().map(|s| Ok::<_, ToolError>(Row::new(search_row(s))));
            write_page(&mut out, rows, total, window)?;
            return Ok(out);
        }
        if let Some(answer) = self.search_endpoints(store, query, &prefix, window)? {
            return Ok(answer);
        }
        // A configuration key named exactly comes first (not the fields its last word names).
        let key = if kind.is_none() && a.language.is_none() { self.config_key_named(store, query)? } else { None };
        // A task in plain words ("escape supplementary characters for non-UTF charsets").
        if super::sentence_words::reads_as_sentence(query) {
            if let Some(answer) = self.search_sentence(store, query, kind, a.language.as_deref(), &prefix, window)? {
                return Ok(answer);
            }
        }
        // Each ranking contributes its top 100: deeper ranks barely move the fused order.
        const DEPTH: usize = 100;
        let simple = crate::model::last_segment(query);
        // (weight, tier, ranked ids): exact names count most, doc words least. The tier a
        // symbol is listed in is the best of the rankings that found it: 0 exact, 1 prefix or
        // every word, 2 close (some words, a typo away, doc words).
        let mut lists: Vec<(f64, u8, Vec<i64>)> = Vec::new();
        lists.push((4.0, 0, store.symbols_by_qname(query)?.into_iter().map(|s| s.id).collect()));
        lists.push((4.0, 0, store.names_like(simple, false, DEPTH)?));
        lists.push((2.0, 1, store.names_like(simple, true, DEPTH)?));
        let words = fts_words(query);
        if !words.is_empty() {
            // Every word of the query in the name or its owner's name (`hashmap resize`).
            let tokens: Vec<String> = query
                .split(|c: char| !c.is_alphanumeric())
                .filter(|t| !t.is_empty())
                .map(|t| format!("{{words owner}} : \"{}\"", t.to_lowercase()))
                .collect();
            if tokens.len() > 1 {
                lists.push((3.0, 1, store.fts_query(&tokens.join(" AND "), DEPTH)?));
            }
            // One word found as a word of a name (`gateway` in `PaypalGateway`) is the whole
            // query found; with several, some words only.
            let tier = if tokens.len() > 1 { 2 } else { 1 };
            lists.push((1.5, tier, store.fts("words", &words, DEPTH)?));
        }
        // Typo tolerance: names within a small edit distance.
        let lowered = simple.to_lowercase();
        let names = self.all_names(store)?;
        let max_edits = if lowered.len() <= 4 { 1 } else { 2 };
        let q = lowered.chars().count();
        // A whole name within a few edits, or a name starting with a close misspelling.
        // Names are compared in lower case, precomputed once per index generation, and
        // prefixes are slices: no allocation per name.
        // A name k edits away lacks at most k of the query's distinct characters: a bitmask
        // test drops nearly every name before the edit distance is computed.
        let qmask = char_mask(lowered.as_bytes());
        let query_ascii = lowered.is_ascii();
        let missing = |mask: u64| (qmask & !mask).count_ones() as usize;
        let mut fuzzy: Vec<(usize, usize, &String)> = names
            .iter()
            .filter_map(|NameEntry { lower, name: n, mask, ascii }| {
                if lower.len().abs_diff(lowered.len()) <= max_edits && missing(*mask) <= max_edits {
                    let whole = if *ascii && query_ascii {
                        osa_distance_ascii(lowered.as_bytes(), lower.as_bytes())
                    } else {
                        strsim::osa_distance(&lowered, lower)
                    };
                    if whole <= max_edits {
                        return Some((whole, n.len(), n));
                    }
                }
                if q >= 4 && lower.len() > q && *ascii && query_ascii {
                    let end = (q + 1).min(lower.len());
                    if missing(char_mask(&lower.as_bytes()[..end])) > 1 {
                        return None;
                    }
                    if (q - 1..=end).any(|len| within_one_edit(lowered.as_bytes(), &lower.as_bytes()[..len])) {
                        let d = usize::from(!lower.starts_with(lowered.as_str()));
                        return Some((d + max_edits, n.len(), n));
                    }
                }
                None
            })
            .collect();
        fuzzy.sort();
        // Like every ranking, at most DEPTH deep: `toString` alone names a thousand methods.
        let fuzzy_names: Vec<&str> = fuzzy.into_iter().take(20).map(|(_, _, name)| name.as_str()).collect();
        lists.push((1.0, 2, store.ids_by_names(&fuzzy_names, DEPTH)?));
        if !words.is_empty() {
            lists.push((0.5, 2, store.fts("doc", &words, DEPTH)?));
        }
        // Reciprocal rank fusion.
        let mut score: HashMap<i64, f64> = HashMap::new();
        let mut tier: HashMap<i64, u8> = HashMap::new();
        for (weight, t, list) in &lists {
            let mut seen = HashSet::new();
            for (rank, id) in list.iter().filter(|id| seen.insert(**id)).enumerate() {
                *score.entry(*id).or_default() += weight / (60.0 + rank as f64);
                let best = tier.entry(*id).or_insert(*t);
                *best = (*best).min(*t);
            }
        }
        let mut ranked: Vec<(u8, f64, SymbolInfo)> = Vec::new();
        let ids: Vec<i64> = score.keys().copied().collect();
        for sym in store.symbols_by_ids(&ids)? {
            let s = score[&sym.id];
            if kind.is_some_and(|k| k != sym.kind)
                || a.language.as_deref().is_some_and(|l| l != sym.language.as_str())
                || !sym.path.starts_with(&prefix)
            {
                continue;
            }
            ranked.push((tier[&sym.id], s, sym));
        }
        ranked.sort_by(|a, b| {
            a.0.cmp(&b.0)
                .then(b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal))
                .then(a.2.qname.cmp(&b.2.qname))
                .then(a.2.id.cmp(&b.2.id))
        });
        // Close matches only when exact and prefix ones are few: an exact name is not
        // padded with a typo's neighbours.
        let strong = ranked.iter().filter(|r| r.0 < 2).count();
        let left_out = if strong >= 5 { ranked.len() - strong } else { 0 };
        ranked.truncate(ranked.len() - left_out);
        let total = ranked.len() + usize::from(key.is_some());
        if total == 0 {
            return Ok(format!("no symbols match {}; try fewer words, search_text for text in files, or repo_overview", echo(query)));
        }
        let mut out = match &key {
            Some(_) => format!("a configuration key and {} match {}", plural(ranked.len(), "symbol"), echo(query)),
            None => format!("{} match {}", plural(total, "symbol"), echo(query)),
        };
        if left_out > 0 {
            let _ = write!(out, " ({left_out} close matches left out: typo-tolerant or some words only)");
        }
        out.push('\n');
        let heading = ["exact:", "prefix or every word:", "close (some words, a typo away, doc words):"];
        let key_row = key.map(|k| Row::under(vec!["configuration key (get_symbol for its settings and readers):".to_string()], k));
        let rows = key_row
            .into_iter()
            .chain(ranked.iter().map(|(t, _, s)| Row::under(vec![heading[*t as usize].to_string()], search_row(s))))
            .skip(offset)
            .map(Ok::<_, ToolError>);
        write_page(&mut out, rows, total, window)?;
        Ok(out)
    }

    pub(super) fn get_symbol(&self, store: &Store, a: SymbolArgs) -> Answer {
        let handle = match self.resolve(store, &a.symbol) {
            Ok(h) => h,
            // Not a symbol: a configuration key, if a file sets it or code reads it; a
            // MyBatis statement, by its mapper XML place.
            Err(e) => {
                if let Some(out) = self.statement_details(store, &a.symbol)? {
                    return Ok(out);
                }
                return self.config_key_details(store, a.symbol.trim())?.ok_or(e);
            }
        };
        let s = match handle {
            Handle::Symbol(s) => s,
            Handle::Overloads(all) => {
                let mut out = format!("{} {}: {} overloads\n", all[0].kind, all[0].qname, all.len());
                let handles = super::handles::distinct_handles(&all);
                for (o, h) in all.iter().zip(&handles) {
                    // A place for a handle is said once (`src/fmt.rs:12-40`).
                    if h.starts_with(&format!("{}:", o.path)) {
                        let _ = writeln!(out, "  {}  {}", location(o), o.signature);
                    } else {
                        let _ = writeln!(out, "  {h}  {}  {}", location(o), o.signature);
                    }
                }
                let _ = write!(out, "next: get_symbol {{\"symbol\": \"{}\"}} for one", handles[0]);
                return Ok(cap(out, self.summary_budget));
            }
            Handle::External(id, q) => {
                let counts = store.reference_counts(Target::External(id))?;
                let subtypes = store.direct_subtypes(Target::External(id))?;
                return Ok(format!(
                    "external {q} (outside the repository, no source)\nreferences: {}\nimplementations: {}\nnext: find_references, find_implementations",
                    format_counts(&counts),
                    subtypes.len()
                ));
            }
        };
        let mut out =
            format!("{} {}\n  at {}\n", s.kind, if s.kind.is_callable() { s.overload_handle() } else { s.qname.clone() }, location(&s));
        if !s.signature.is_empty() {
            let _ = writeln!(out, "  signature: {}", s.signature);
        }
        // An endpoint's template (the constants and nesting its name was made from) is the
        // index's own bookkeeping.
        let modifiers = if s.kind == SymbolKind::Endpoint && s.modifiers.starts_with("template(") { "" } else { s.modifiers.as_str() };
        let _ = writeln!(
            out,
            "  visibility: {}{}",
            s.visibility,
            if modifiers.is_empty() { String::new() } else { format!("  modifiers: {modifiers}") }
        );
        // Conditions its modifiers do not show: through the project's own annotations, and a
        // `@Bean` method's class's.
        let mut conditions = self.composed_conditions(store, s.id)?;
        conditions.extend(self.class_conditions(store, &s)?);
        if !conditions.is_empty() {
            let _ = writeln!(out, "  conditions: {}", conditions.join("; "));
        }
        if !s.doc.is_empty() {
            let _ = writeln!(out, "  doc: {}", s.doc);
        }
        let parent = match s.parent {
            Some(p) => store.symbol(p)?.map(|p| format!("{} {}", p.kind, p.qname)).unwrap_or_default(),
            None => format!("module {}", store.file(s.file_id)?.map(|f| f.module).unwrap_or_default()),
        };
        let _ = writeln!(out, "  parent: {parent}");
        // A method a framework would call (`@Scheduled`, a listener) in a class Spring never
        // creates: say so, as the entry points leave it out.
        let called_by_framework = s.kind == SymbolKind::Method
            && crate::frameworks::entry_annotations().any(|(a, _)| crate::frameworks::has_marker(&s.modifiers, a));
        if let (true, Some(p)) = (called_by_framework, s.parent) {
            let beans = self.beans(store)?;
            match beans.outside_scan.get(&p) {
                Some(scanned) => {
                    let _ = writeln!(out, "  never runs: its class is outside the packages the application scans ({scanned})");
                }
                None if !beans.live(p) => out.push_str(
                    "  never runs: its class is not a bean (no stereotype, no @Bean method creates it); a commented-out @Component?\n",
                ),
                None => {}
            }
        }
        let supers = store.supertypes(s.id)?;
        if !supers.is_empty() {
            // An outside supertype of the application's own packages, where its build runs a
            // code generator, is that generator's output: say so, and what the index cannot
            // see of it (an OpenAPI interface's routes).
            let generator = match supers.iter().any(|(_, _, internal)| !internal) {
                true => match store.file(s.file_id)? {
                    Some(file) => self.unit_view(store)?.code_generator(&self.root, &file),
                    None => None,
                },
                false => None,
            };
            let own_namespace = |n: &str| {
                let head = |q: &str| q.split('.').take(2).collect::<Vec<_>>().join(".");
                n.matches('.').count() >= 2 && head(n) == head(&s.qname)
            };
            let list: Vec<String> = supers
                .iter()
                .map(|(n, k, internal)| match (internal, generator) {
                    (true, _) => format!("{n} ({k})"),
                    (false, Some((by, what))) if own_namespace(n) => {
                        format!("{n} ({k}; generated at build time by {by}, not in the repository: its {what} are unknown)")
                    }
                    (false, _) => format!("{n} ({k}, external)"),
                })
                .collect();
            let _ = writeln!(out, "  supertypes: {}", list.join(", "));
        }
        let counts = store.reference_counts(Target::Symbol(s.id))?;
        let impls = self.implementations(store, &s, false)?;
        let _ = writeln!(out, "  references: {}  implementations: {}", format_counts(&counts), impls.len());
        out.push_str(&self.symbol_history(store, &s)?);
        let members = store.children(s.id)?;
        if !members.is_empty() {
            let _ = writeln!(out, "  members ({}):", members.len());
            let items: Vec<String> = members
                .iter()
                .map(|m| {
                    format!(
                        "    {} {}{}  {}",
                        m.kind,
                        m.name,
                        m.params.as_deref().map(|p| format!("({p})")).unwrap_or_default(),
                        lines_of(m)
                    )
                })
                .collect();
            page(&mut out, &items, members.len(), self.summary_budget, "file_outline shows them all");
        } else {
            // A mapper method: the statement it runs (read_symbol shows it).
            out.push_str(&self.statement_lines(store, &s, "  statement: ")?);
            out.push_str(&format!("next: read_symbol {{\"symbol\": \"{}\"}}", handle_of(&s)));
        }
        Ok(cap(out.trim_end().to_string(), self.summary_budget))
    }

    /// Types implementing/extending a type, or methods implementing a method:
    /// (symbol, depth, how).
    pub(super) fn implementations(
        &self,
        store: &Store,
        s: &SymbolInfo,
        transitive: bool,
    ) -> Result<Vec<(SymbolInfo, usize, RefKind)>, ToolError> {
        let (root, member) = if s.kind.is_type() {
            (Target::Symbol(s.id), None)
        } else if s.kind.is_callable() {
            match s.parent {
                Some(p) => (Target::Symbol(p), Some((s.name.as_str(), s.params.as_deref()))),
                None => return Ok(Vec::new()),
            }
        } else {
            return Ok(Vec::new());
        };
        let mut found = self.subtypes(store, root, member, transitive)?;
        let words = |s: &SymbolInfo| s.modifiers.split(' ').map(str::to_string).collect::<Vec<_>>();
        if member.is_some() && words(s).iter().any(|w| matches!(w.as_str(), "default" | "static" | "private")) {
            found.retain(|(m, _, _)| nameless(m) != Some("lambda"));
        }
        Ok(found)
    }

    pub(super) fn subtypes(
        &self,
        store: &Store,
        root: Target,
        member: Option<(&str, Option<&str>)>,
        transitive: bool,
    ) -> Result<Vec<(SymbolInfo, usize, RefKind)>, ToolError> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut queue = VecDeque::from([(root, 0usize)]);
        while let Some((t, depth)) = queue.pop_front() {
            if depth > 0 && !transitive {
                break;
            }
            for (id, how) in store.direct_subtypes(t)? {
                if !seen.insert(id) {
                    continue;
                }
                queue.push_back((Target::Symbol(id), depth + 1));
                let Some(sub) = store.symbol(id)? else {
                    continue;
                };
                match member {
                    None => out.push((sub, depth + 1, how)),
                    // A lambda implements the method asked for (its interface's one method
                    // without a body: `implementations` leaves out the others).
                    Some(_) if nameless(&sub) == Some("lambda") => out.push((sub, depth + 1, how)),
                    Some((name, params)) => {
                        // The same name and, for a Java method, the same parameter types.
                        let same =
                            |m: &SymbolInfo| m.name == name && m.kind.is_callable() && (params.is_none() || m.params.as_deref() == params);
                        for m in store.children(id)?.into_iter().filter(same) {
                            out.push((m, depth + 1, how));
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    pub(super) fn find_implementations(&self, store: &Store, a: ImplArgs) -> Answer {
        let transitive = a.transitive.unwrap_or(false);
        let limit = clamp(a.limit, 50, 1, 500);
        // (overload heading or "", implementation, depth, how)
        let (label, found, target) = match self.resolve_as(store, &a.symbol, Want::Implementable)? {
            Handle::Symbol(s) => {
                if !s.kind.is_type() && !s.kind.is_callable() {
                    return fail(format!("{} is a {}; find_implementations takes a type or a method", s.qname, s.kind));
                }
                let target = s.kind.is_type().then_some(Target::Symbol(s.id));
                let found = self.implementations(store, &s, transitive)?.into_iter().map(|(m, d, h)| (String::new(), m, d, h)).collect();
                (format!("{} {}", s.kind, s.signature_handle()), found, target)
            }
            // Every overload's implementations, under the overload's signature.
            Handle::Overloads(all) => {
                let mut found: Vec<(String, SymbolInfo, usize, RefKind)> = Vec::new();
                for (o, h) in all.iter().zip(super::handles::distinct_handles(&all)) {
                    let heading = format!("{h}:");
                    found.extend(self.implementations(store, o, transitive)?.into_iter().map(|(m, d, h)| (heading.clone(), m, d, h)));
                }
                (format!("{} overloads of {} {}", all.len(), all[0].kind, all[0].qname), found, None)
            }
            Handle::External(id, q) => {
                let found = self
                    .subtypes(store, Target::External(id), None, transitive)?
                    .into_iter()
                    .map(|(m, d, h)| (String::new(), m, d, h))
                    .collect();
                (format!("external {q}"), found, Some(Target::External(id)))
            }
        };
        // Impls for a type parameter (blanket) or a type declared elsewhere have no symbol
        // to list: they are listed by their place.
        let elsewhere = match target {
            Some(t) => store.impls_without_type(t)?,
            None => Vec::new(),
        };
        let total = found.len() + elsewhere.len();
        if total == 0 {
            return Ok(format!("no implementations of {label}{}", if transitive { "" } else { " (direct; try transitive: true)" }));
        }
        let mut out = format!("{} of {label}{}\n", plural(total, "implementation"), if transitive { " (transitive)" } else { "" });
        // Grouped by module, as graph answers are; then the impls listed by their place.
        let mut rows: Vec<Row> = Vec::new();
        for (overload, s, depth, how) in &found {
            let (group, name, place) = self.grouped(store, s)?;
            let depth = if *depth > 1 { format!(", depth {depth}") } else { String::new() };
            let groups = if overload.is_empty() { vec![group] } else { vec![overload.clone(), group] };
            let tag = super::lines::generated_tag(&s.modifiers);
            // An anonymous class or a lambda (or its member): how it is written says what it is.
            let how = match nameless(s).or_else(|| s.qname.contains(".$").then_some("anonymous")) {
                Some("lambda") => format!("lambda: {}", s.signature),
                Some(_) => "anonymous class".to_string(),
                None => how.to_string(),
            };
            rows.push(Row::under(groups, format!("{name}  {place}  ({how}{depth}){tag}")));
        }
        rows.sort_by(|a, b| a.groups.cmp(&b.groups).then_with(|| a.text.cmp(&b.text)));
        for (path, line, subject, blanket) in &elsewhere {
            let what = if *blanket { "blanket impl" } else { "impl" };
            // An impl a macro of the repository wrote at that line (`all_the_tuples!(impl_handler)`).
            let tag = match store.file_by_path(path)? {
                Some(f) => store
                    .file_symbols(f.id)?
                    .iter()
                    .filter(|s| s.start_line == *line as u32)
                    .map(|s| super::lines::generated_tag(&s.modifiers))
                    .find(|t| !t.is_empty())
                    .unwrap_or_default(),
                None => String::new(),
            };
            rows.push(Row::under(
                vec!["impls for a type parameter or a type outside the repository:".into()],
                format!("{what} for {subject}  {path}:{line}{tag}"),
            ));
        }
        let window = Window { offset: a.offset.unwrap_or(0) as usize, limit, budget: self.summary_budget, page_bytes: None };
        write_page(&mut out, rows.into_iter().skip(window.offset).map(Ok::<_, ToolError>), total, window)?;
        Ok(out)
    }

    pub(super) fn find_references(&self, store: &Store, a: RefsArgs) -> Answer {
        let kinds: Vec<RefKind> = match a.kind.as_deref().unwrap_or("all") {
            "all" => RefKind::all().collect(),
            "call" | "calls" => vec![RefKind::Calls, RefKind::Expands, RefKind::MethodRef],
            "type" | "types" => {
                vec![RefKind::UsesType, RefKind::Extends, RefKind::Implements, RefKind::Instantiates, RefKind::Annotates, RefKind::Accesses]
            }
            "field" | "fields" => vec![RefKind::UsesField],
            "import" | "imports" => vec![RefKind::Imports],
            other => return fail(format!("kind must be all, call, type, field or import (got {other:?})")),
        };
        let limit = clamp(a.limit, 50, 1, 500);
        let offset = a.offset.unwrap_or(0) as usize;
        let window = Window { offset, limit, budget: self.summary_budget, page_bytes: None };
        let mut via: HashMap<i64, String> = HashMap::new();
        let mut dispatch_note = String::new();
        // Symbols whose references are listed with the target's: a type's constructors, or
        // the methods a method implements or overrides.
        let handle = match self.resolve(store, &a.symbol) {
            Ok(h) => h,
            Err(e) => return self.config_key_readers(store, a.symbol.trim(), window)?.ok_or(e),
        };
        // Mapper XML naming a type (`resultType`, `resultMap type`) closes a type's answer.
        let mut mapper_note = String::new();
        let (label, target, also) = match handle {
            // A type's references include its constructors' (`new T(...)` names the constructor).
            Handle::Symbol(s) if s.kind.is_type() => {
                mapper_note = self.mapper_type_uses(store, &s)?;
                let constructors: Vec<i64> =
                    store.children(s.id)?.into_iter().filter(|c| c.kind == crate::model::SymbolKind::Constructor).map(|c| c.id).collect();
                (format!("{} {}", s.kind, s.qname), Target::Symbol(s.id), constructors)
            }
            // A method's references include the calls made through the methods it implements
            // or overrides (marked `via`): Spring controllers call `OrderService#create`, not
            // `OrderServiceImpl#create`.
            Handle::Symbol(s) if s.kind.is_callable() => {
                let (overridden, note) = self.dispatch(store, &s, &mut via)?;
                dispatch_note = note;
                (format!("{} {}", s.kind, s.overload_handle()), Target::Symbol(s.id), overridden)
            }
            // A field's references include the calls of the accessors Lombok generates for it
            // (marked `via getX()`): most code reads a `@Data` field through its getter.
            Handle::Symbol(s) if s.kind == crate::model::SymbolKind::Field => {
                let accessors = generated_accessors(store, &s)?;
                for (id, name) in &accessors {
                    via.insert(*id, format!("{name}()"));
                }
                (format!("{} {}", s.kind, s.qname), Target::Symbol(s.id), accessors.into_iter().map(|(id, _)| id).collect())
            }
            Handle::Symbol(s) => (format!("{} {}", s.kind, s.qname), Target::Symbol(s.id), Vec::new()),
            Handle::Overloads(all) => return self.overload_references(store, &all, &kinds, window, a.kind.as_deref()),
            Handle::External(id, q) => (format!("external {q}"), Target::External(id), Vec::new()),
        };
        // More than `limit` references are read: a page ends after a whole row, and a row may
        // stand for several references (`x2`).
        let crate::store::ReferencePage { refs, total, counts } = store.references(target, &also, &kinds, limit + ROW_SLACK, offset)?;
        if total == 0 {
            return Ok(format!(
                "no references to {label} (kind={}); all kinds: {}{mapper_note}",
                a.kind.as_deref().unwrap_or("all"),
                format_counts(&counts)
            ));
        }
        let mut out = format!("{} to {label} ({})\n{dispatch_note}", plural(total, "reference"), format_counts(&counts));
        let rows = whole_rows(reference_rows(&refs, &via, None), limit + ROW_SLACK, refs.len());
        let window = Window { budget: window.budget.saturating_sub(mapper_note.len()), ..window };
        write_page(&mut out, rows.into_iter().map(Ok::<_, ToolError>), total, window)?;
        out.push_str(&mapper_note);
        Ok(out)
    }

    /// The methods `s` implements or overrides (their calls reach it: recorded in `via`),
    /// and the note that says how many implementations calls to `s` may reach.
    fn dispatch(&self, store: &Store, s: &SymbolInfo, via: &mut HashMap<i64, String>) -> Result<(Vec<i64>, String), ToolError> {
        let overridden = self.overridden(store, s)?;
        for o in &overridden {
            via.insert(o.id, o.signature_handle());
        }
        let reach = self.implementations(store, s, true)?.len();
        let note = if reach > 0 {
            format!(
                "calls may reach {}: find_implementations {{\"symbol\": \"{}\"}}\n",
                plural(reach, "implementation"),
                s.overload_handle()
            )
        } else {
            String::new()
        };
        Ok((overridden.iter().map(|o| o.id).collect(), note))
    }

    /// `find_references` of a name with several overloads: each overload's references
    /// under its signature, with its count; offsets run through all of them.
    fn overload_references(&self, store: &Store, all: &[SymbolInfo], kinds: &[RefKind], window: Window, kind: Option<&str>) -> Answer {
        let mut via: HashMap<i64, String> = HashMap::new();
        let mut sections = Vec::new();
        let mut total = 0;
        let mut counts: Vec<(RefKind, usize)> = Vec::new();
        let handles = super::handles::distinct_handles(all);
        for (o, handle) in all.iter().zip(&handles) {
            let (also, _) = self.dispatch(store, o, &mut via)?;
            let page = store.references(Target::Symbol(o.id), &also, kinds, 0, 0)?;
            for (k, n) in &page.counts {
                match counts.iter_mut().find(|(c, _)| c == k) {
                    Some(c) => c.1 += n,
                    None => counts.push((*k, *n)),
                }
            }
            total += page.total;
            sections.push((o, handle, also, page.total));
        }
        let label = format!("{} overloads of {} {}", all.len(), all[0].kind, all[0].qname);
        if total == 0 {
            return Ok(format!("no references to {label} (kind={}); all kinds: {}", kind.unwrap_or("all"), format_counts(&counts)));
        }
        let mut out = format!("{} to {label} ({})\n", plural(total, "reference"), format_counts(&counts));
        // The page's rows, section by section: a section's offset is what the page's offset
        // leaves of it.
        let mut rows = Vec::new();
        let (mut before, mut wanted) = (0, window.limit);
        for (o, handle, also, n) in &sections {
            if wanted > 0 && window.offset < before + n {
                let local = window.offset.saturating_sub(before);
                let page = store.references(Target::Symbol(o.id), also, kinds, wanted + ROW_SLACK, local)?;
                let heading = format!("{handle}: {}", plural(*n, "reference"));
                let section = whole_rows(reference_rows(&page.refs, &via, Some(&heading)), wanted + ROW_SLACK, page.refs.len());
                wanted = wanted.saturating_sub(section.iter().map(|r| r.count).sum());
                rows.extend(section);
            }
            before += n;
        }
        write_page(&mut out, rows.into_iter().map(Ok::<_, ToolError>), total, window)?;
        Ok(out)
    }

    pub(super) fn file_outline(&self, store: &Store, a: OutlineArgs) -> Answer {
        // A MyBatis mapper file is not indexed as code: its statements are its outline.
        if store.file_by_path(a.path.trim().trim_start_matches("./"))?.is_none() {
            if let Some(out) = self.mapper_outline(store, &a.path)? {
                return Ok(out);
            }
        }
        let mut file = self.indexed_file(store, &a.path)?;
        if self.refresh(&file) {
            file = self.indexed_file(store, &a.path)?;
        }
        let mut symbols = fold_inherited(store.file_symbols(file.id)?);
        // A lambda passed to implement a type from outside (`stream.map(x -> ..)`, a JDK
        // `Function`) or nothing known is no row of the outline: its code is its holder's.
        // `find_implementations` of that type lists it.
        if symbols.iter().any(|s| nameless(s) == Some("lambda")) {
            let implementing = store.implementing_in_file(file.id)?;
            symbols.retain(|s| nameless(s) != Some("lambda") || implementing.contains(&s.id));
        }
        let total_lines = std::fs::read_to_string(self.root.join(&file.path)).map(|t| t.lines().count()).unwrap_or(0);
        let mut out = format!(
            "{} ({}, {total_lines} lines, {} {}{})\n",
            file.path,
            file.language,
            if file.language == Language::Java.as_str() { "package" } else { "module" },
            if file.module.is_empty() { "(default)" } else { &file.module },
            if file.parse_errors > 0 { format!(", {} syntax errors", file.parse_errors) } else { String::new() }
        );
        if symbols.is_empty() {
            out.push_str("  (no symbols)");
            return Ok(out);
        }
        // A symbol's row sits under the rows of what encloses it in the text (a page that
        // starts inside a type repeats the type's row as its heading). A Rust impl's items
        // sit under the impl's header, `impl Trait for Type`: an impl is written apart from
        // its type, often in another module or for a type outside the repository.
        // Symbols come by start line: what encloses a symbol is on a stack of open ones.
        let by_id: HashMap<i64, &SymbolInfo> = symbols.iter().map(|s| (s.id, s)).collect();
        // Per symbol: the index of what encloses it, and the impl header it sits under.
        let mut outline: Vec<(Option<usize>, Option<String>)> = Vec::with_capacity(symbols.len());
        let mut open: Vec<usize> = Vec::new();
        for s in &symbols {
            // Strictly larger, or its owner: `OK, DECLINED, ERROR` on one line are siblings.
            let contains = |c: &SymbolInfo| {
                c.start_line <= s.start_line
                    && s.end_line <= c.end_line
                    && (c.end_line - c.start_line > s.end_line - s.start_line || Some(c.id) == s.parent)
            };
            while open.last().is_some_and(|&c| !contains(&symbols[c])) {
                open.pop();
            }
            let container = open.last().copied();
            let apart = match s.parent {
                Some(_) => s.parent != container.map(|c| symbols[c].id),
                None => s.impl_trait.is_some(),
            };
            let header = (s.language == Language::Rust && apart).then(|| {
                // The owner's name: from this file, or (declared in another file) from the
                // item's qualified name.
                let owner = s.parent.map(|p| match by_id.get(&p) {
                    Some(o) => o.name.clone(),
                    None => crate::model::last_segment(s.qname.rsplit_once("::").map_or("", |(o, _)| o)).to_string(),
                });
                match (owner, &s.impl_trait) {
                    (Some(owner), Some(t)) => format!("impl {t} for {owner}"),
                    (Some(owner), None) => format!("impl {owner}"),
                    (None, t) => impl_header(&s.qname, t.as_deref().unwrap_or("")),
                }
            });
            outline.push((container, header));
            open.push(outline.len() - 1);
        }
        // The name once: the signature says it when it has it.
        let text = |i: usize| {
            let s = &symbols[i];
            let tag = super::lines::generated_tag(&s.modifiers);
            if s.signature.contains(s.name.as_str()) {
                format!("{} {}  {}{tag}", s.kind, lines_of(s), s.signature)
            } else {
                format!("{} {}  {}  {}{tag}", s.kind, s.name, lines_of(s), s.signature)
            }
        };
        // The headings of row `i`, outermost first: made for the page's rows only (a file of
        // deeply nested symbols would otherwise hold every row's whole chain).
        let groups = |i: usize| {
            let mut chain = Vec::new();
            if let Some(h) = &outline[i].1 {
                chain.push(h.clone());
            }
            let mut at = outline[i].0;
            while let Some(c) = at {
                chain.push(text(c));
                if let Some(h) = &outline[c].1 {
                    chain.push(h.clone());
                }
                at = outline[c].0;
            }
            chain.reverse();
            chain
        };
        let window = Window {
            offset: a.offset.unwrap_or(0) as usize,
            limit: clamp(a.limit, 200, 1, 2_000),
            budget: self.summary_budget,
            page_bytes: None,
        };
        let total = symbols.len();
        let rows = (window.offset..total).map(|i| Ok::<_, ToolError>(Row::under(groups(i), text(i))));
        write_page(&mut out, rows, total, window)?;
        Ok(out)
    }
}

/// Members inherited from a library supertype (marked `inherited`, see
/// `frameworks::libraries`) as one row per type and supertype line, in place of the
/// first: 31 rows of `JpaRepository` would bury the repository's own methods.
fn fold_inherited(symbols: Vec<SymbolInfo>) -> Vec<SymbolInfo> {
    let inherited = |s: &SymbolInfo| s.modifiers.split(' ').any(|w| w == "inherited");
    let mut groups: HashMap<(Option<i64>, u32), Vec<&SymbolInfo>> = HashMap::new();
    for s in symbols.iter().filter(|s| inherited(s)) {
        groups.entry((s.parent, s.start_line)).or_default().push(s);
    }
    let mut out = Vec::with_capacity(symbols.len());
    for s in &symbols {
        if !inherited(s) {
            out.push(s.clone());
            continue;
        }
        let Some(group) = groups.remove(&(s.parent, s.start_line)) else { continue };
        let mut names: Vec<&str> = Vec::new();
        for m in &group {
            if !names.contains(&m.name.as_str()) {
                names.push(&m.name);
            }
        }
        const SHOWN: usize = 12;
        let more = if names.len() > SHOWN { format!(", .. {} more", names.len() - SHOWN) } else { String::new() };
        let from = |m: &SymbolInfo| m.signature.rsplit_once("[inherited from ").map_or("", |(_, f)| f.trim_end_matches(']')).to_string();
        let first = from(s);
        let from = if group.iter().all(|m| from(m) == first) { first } else { format!("{first} and its supertypes") };
        let owner = crate::model::last_segment(s.qname.rsplit_once('#').map_or(s.qname.as_str(), |(o, _)| o));
        let mut row = s.clone();
        row.name = String::new();
        row.signature = format!(
            "{} members inherited from {from}: {}{more} (handles {owner}#<name>)",
            group.len(),
            names.iter().take(SHOWN).copied().collect::<Vec<_>>().join(", ")
        );
        row.modifiers = String::new();
        out.push(row);
    }
    out
}

/// `anonymous` or `lambda` for the nameless symbols of `extract::nameless`.
fn nameless(s: &SymbolInfo) -> Option<&'static str> {
    if !s.name.starts_with('$') {
        return None;
    }
    s.modifiers.split(' ').find_map(|w| match w {
        "anonymous" => Some("anonymous"),
        "lambda" => Some("lambda"),
        _ => None,
    })
}

/// References read past a page's `limit`, so that the page's last row is whole.
const ROW_SLACK: usize = 64;

/// The rows of a read of `asked` references that returned `got`: when the read was cut,
/// its last row may be missing references, and is left for the next page.
fn whole_rows(mut rows: Vec<Row>, asked: usize, got: usize) -> Vec<Row> {
    if got == asked && rows.len() > 1 {
        rows.pop();
    }
    rows
}

/// References as rows under their file (and `section`, when given): references of one
/// kind on one line in one symbol (`Map<String, String>`) are one row, counted.
/// The accessors Lombok generated for a field (`getX`/`isX`/`setX` beside it, the builder's
/// `x(..)`): symbols marked `generated` by the extractor, with their names.
fn generated_accessors(store: &Store, field: &SymbolInfo) -> Result<Vec<(i64, String)>, ToolError> {
    let Some(owner) = field.parent else { return Ok(Vec::new()) };
    let names = crate::frameworks::lombok::accessor_names(&field.name);
    let generated = |s: &SymbolInfo| s.modifiers.split(' ').any(|w| w == "generated");
    let mut out = Vec::new();
    for c in store.children(owner)? {
        if c.kind.is_callable() && generated(&c) && names.contains(&c.name) {
            out.push((c.id, c.name.clone()));
        }
        // The builder's setter of the same name (`Order.builder().discountId(..)`).
        if c.kind == crate::model::SymbolKind::Class && generated(&c) {
            for b in store.children(c.id)? {
                if b.kind.is_callable() && b.name == field.name && generated(&b) {
                    out.push((b.id, format!("{}.{}", c.name, b.name)));
                }
            }
        }
    }
    Ok(out)
}

fn reference_rows(refs: &[crate::store::RefInfo], via: &HashMap<i64, String>, section: Option<&str>) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    for (i, r) in refs.iter().enumerate() {
        let same = |o: &crate::store::RefInfo| {
            (&o.path, o.line, o.kind, &o.enclosing, o.confidence, o.target, &o.implicit_via)
                == (&r.path, r.line, r.kind, &r.enclosing, r.confidence, r.target, &r.implicit_via)
        };
        if i > 0 && same(&refs[i - 1]) {
            continue;
        }
        let n = 1 + refs[i + 1..].iter().take_while(|o| same(o)).count();
        let mut line = format!("{} {}", r.line, r.kind);
        if n > 1 {
            let _ = write!(line, " x{n}");
        }
        let _ = write!(line, "  in {}", r.enclosing.as_deref().unwrap_or("(file)"));
        match r.confidence {
            crate::model::Confidence::Guess => line.push_str("  [guess: name match only]"),
            crate::model::Confidence::Ambiguous => {
                let _ = write!(line, "  [ambiguous: one of {} overloads; argument types unknown]", r.overloads);
            }
            _ => {}
        }
        if let Some(through) = r.target.and_then(|t| via.get(&t)) {
            let _ = write!(line, "  via {through}");
        }
        if let Some(maker) = &r.implicit_via {
            let _ = write!(line, "  [implicit: via {maker}]");
        }
        let groups = section.map(str::to_string).into_iter().chain([r.path.clone()]).collect();
        rows.push(Row { groups, text: line, count: n });
    }
    rows
}

/// `impl Sink for &mut S` for an item of an impl whose type is not in the repository,
/// from its qualified name (`crate::<&mut S as Sink>::matched`, `crate::Error::fmt`).
fn impl_header(qname: &str, trait_name: &str) -> String {
    let owner = qname.rsplit_once("::").map_or(qname, |(owner, _)| owner);
    let self_type = match owner.rfind('<') {
        Some(_) if owner.ends_with('>') => {
            // `...::<X as T>`: X is between the `<` that opens the form and ` as `.
            let form = &owner[owner.find("::<").map_or(0, |i| i + 2)..];
            form.trim_start_matches('<').rsplit_once(" as ").map_or(form, |(x, _)| x).to_string()
        }
        _ => crate::model::last_segment(owner).to_string(),
    };
    format!("impl {trait_name} for {self_type}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fts_words_quote_every_word() {
        assert_eq!(fts_words("ConcurrentHashMap"), "\"concurrent\" OR \"hash\" OR \"map\" OR \"concurrenthashmap\"");
        assert_eq!(fts_words("' OR 1=1--"), "\"or\" OR \"11\" OR \"or11\"");
    }
}
