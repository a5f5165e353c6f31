//! Configuration keys in answers: the keys Spring configuration files set (read from the
//! files the walk admits, once per index generation), their values by profile, and the code
//! that reads them (`@Value("${key}")` fields, `@ConfigurationProperties(prefix)` classes'
//! fields by relaxed binding). A key is named like a symbol: `get_symbol` shows its values,
//! `find_references` its readers, `search_symbols` with `kind=config_key` lists keys.
//!
//! Owns the tools' view of configuration. It must not write the store.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Arc;

use super::lines::{location, plural};
use super::paging::{echo, write_page, Row, Window};
use super::{per_generation, Atlas, ToolError};
use crate::frameworks::config_keys::{self, ConfigError, Setting};
use crate::store::{Store, SymbolInfo};

/// Every key set in a configuration file, and who reads which key.
pub(super) struct ConfigView {
    /// Key -> its settings (one per file and profile).
    pub keys: BTreeMap<String, Vec<Setting>>,
    pub errors: Vec<ConfigError>,
    pub readers: Vec<Reader>,
    pub files: usize,
}

/// Who reads a key, and how.
pub(super) struct Reader {
    /// The key as the reader names it.
    pub key: String,
    /// The declaration reading it; None for a logging configuration's element.
    pub code: Option<SymbolInfo>,
    /// Where: the declaration's file, or the logging file and the element's line.
    pub file: String,
    pub line: u32,
    /// `@Value`, `@ConfigurationProperties`, `<springProperty>`, ...
    pub how: &'static str,
    /// Whether the reader gives a default (an unset key is no problem).
    pub has_default: bool,
}

impl Reader {
    fn of(key: String, code: &SymbolInfo, how: &'static str, has_default: bool) -> Reader {
        Reader { key, file: code.path.clone(), line: code.start_line, code: Some(code.clone()), how, has_default }
    }

    /// `@Value field com.acme.Jobs#key  path:12-13`, or `<springProperty> path:5`.
    pub fn shown(&self) -> String {
        match &self.code {
            Some(r) => format!("{} {} {}  {}", self.how, r.kind, r.qname, location(r)),
            None => format!("{} {}:{}", self.how, self.file, self.line),
        }
    }
}

impl ConfigView {
    /// The settings of a key, by relaxed binding, its list items (`key[0]`) and map entries
    /// (`key.x`) included: the default profile first, then by profile.
    pub fn settings(&self, key: &str) -> Vec<&Setting> {
        let want = config_keys::relaxed(key);
        let mut out: Vec<&Setting> = self
            .keys
            .iter()
            .filter(|(k, _)| {
                let k = config_keys::relaxed(k);
                k == want || k.strip_prefix(&want).is_some_and(|rest| rest.starts_with(['[', '.']))
            })
            .flat_map(|(_, s)| s.iter())
            .collect();
        out.sort_by(|a, b| (a.profile != "default", &a.profile, &a.key).cmp(&(b.profile != "default", &b.profile, &b.key)));
        out
    }

    /// The readers of a key, by relaxed binding; a field bound by `@ConfigurationProperties`
    /// reads the items and entries below its key too (`security.ignore-urls[3]` is read by
    /// the `List<String> urls` bound to `security.ignore-urls`).
    pub fn readers_of(&self, key: &str) -> Vec<&Reader> {
        let want = config_keys::relaxed(key);
        let (_, properties) = crate::frameworks::config_annotations();
        self.readers
            .iter()
            .filter(|r| {
                let k = config_keys::relaxed(&r.key);
                k == want
                    || (r.how.strip_prefix('@') == Some(properties)
                        && want.strip_prefix(&k).is_some_and(|rest| rest.starts_with(['[', '.'])))
            })
            .collect()
    }
}

/// `config_key app.x  default=1, dev=2  3 readers`: a key's settings per profile and its
/// readers.
fn key_row(view: &ConfigView, k: &str) -> String {
    let settings = view.settings(k);
    let profiles: Vec<String> = settings.iter().filter(|s| s.key == k).map(|s| format!("{}={}", s.profile, s.value)).collect();
    let readers = view.readers_of(k).len();
    // A list or map is set by its items (`secure.ignored.urls[0]`, ...).
    let set = match (profiles.is_empty(), settings.len()) {
        (false, _) => profiles.join(", "),
        (true, 0) => "set nowhere".to_string(),
        (true, n) => format!("{} (items or entries; get_symbol lists them)", plural(n, "setting")),
    };
    let read =
        if readers == 0 && crate::frameworks::read_by_boot(k) { "read by Spring Boot".to_string() } else { plural(readers, "reader") };
    format!("config_key {k}  {set}  {read}")
}

impl Atlas {
    pub(super) fn config_view(&self, store: &Store) -> Result<Arc<ConfigView>, ToolError> {
        per_generation(store, &self.config_view, || {
            let mut keys: BTreeMap<String, Vec<Setting>> = BTreeMap::new();
            let mut errors = Vec::new();
            let texts = self.read_text_files(|rel| config_keys::config_file(rel).is_some() || crate::frameworks::is_logging_file(rel))?;
            let (logging, texts): (Vec<_>, Vec<_>) = texts.into_iter().partition(|(rel, _)| crate::frameworks::is_logging_file(rel));
            let files = texts.len();
            let mut readers = Vec::new();
            // `<springProperty source="key">` in logback-spring.xml.
            for (rel, text) in logging {
                for (key, line, has_default) in crate::frameworks::logging_reads(&text) {
                    readers.push(Reader { key, code: None, file: rel.clone(), line, how: "<springProperty>", has_default });
                }
            }
            for (rel, text) in texts {
                let (settings, error) = config_keys::read(&rel, &text);
                errors.extend(error);
                for s in settings {
                    keys.entry(s.key.clone()).or_default().push(s);
                }
            }
            let (value, properties) = crate::frameworks::config_annotations();
            let by_name = crate::frameworks::property_marker();
            // A framework-called method's attributes may name keys too (`@Scheduled(cron =
            // "${jobs.cleanup.cron}")`), and so may a condition's expression
            // (`@ConditionalOnExpression("${shop.audit.enabled:true}")`).
            static ENTRIES: std::sync::OnceLock<Vec<(&'static str, String)>> = std::sync::OnceLock::new();
            let entries = ENTRIES.get_or_init(|| {
                crate::frameworks::entry_annotations()
                    .map(|(a, _)| a)
                    .chain(crate::frameworks::conditions().iter().map(String::as_str))
                    .map(|a| (a, format!("@{a}")))
                    .collect()
            });
            // A bean's condition on a key's value (`@ConditionalOnProperty(shop.cache=true)`).
            static CONDITIONS: std::sync::OnceLock<Vec<(&'static str, String)>> = std::sync::OnceLock::new();
            let conditions =
                CONDITIONS.get_or_init(|| crate::frameworks::property_conditions().iter().map(|a| (a.as_str(), format!("@{a}"))).collect());
            let wanted = [value, properties, by_name].into_iter().chain(entries.iter().chain(conditions).map(|(a, _)| *a));
            for s in store.symbols_with_markers(wanted)? {
                for (condition, how) in conditions {
                    for list in crate::frameworks::marker_values(&s.modifiers, condition) {
                        for key in list.split(',').map(|c| c.split_once('=').map_or(c, |(k, _)| k).trim()).filter(|k| !k.is_empty()) {
                            // An unset key is a defined outcome (the bean is off, or on
                            // with `matchIfMissing`), as a default is.
                            readers.push(Reader::of(key.to_string(), &s, how.as_str(), true));
                        }
                    }
                }
                for (entry, how) in entries {
                    for detail in crate::frameworks::marker_values(&s.modifiers, entry) {
                        for (key, has_default) in config_keys::placeholder_keys(detail) {
                            readers.push(Reader::of(key, &s, how.as_str(), has_default));
                        }
                    }
                }
                for read in crate::frameworks::marker_values(&s.modifiers, by_name) {
                    let (key, has_default) = match read.split_once(',') {
                        Some((key, _)) => (key, true),
                        None => (read, false),
                    };
                    readers.push(Reader::of(key.to_string(), &s, by_name, has_default));
                }
                for expr in crate::frameworks::marker_values(&s.modifiers, value) {
                    for (key, has_default) in config_keys::placeholder_keys(expr) {
                        readers.push(Reader::of(key, &s, "@Value", has_default));
                    }
                }
                for prefix in crate::frameworks::marker_values(&s.modifiers, properties) {
                    // Each field binds to `prefix.field`.
                    let fields = store.symbols_by_ids(&store.member_ids(s.id)?.into_iter().map(|(m, _)| m).collect::<Vec<_>>())?;
                    for f in fields.into_iter().filter(|f| f.kind == crate::model::SymbolKind::Field) {
                        // A bound field keeps its initial value when no file sets it.
                        readers.push(Reader::of(format!("{prefix}.{}", f.name), &f, "@ConfigurationProperties", true));
                    }
                }
            }
            Ok(ConfigView { keys, errors, readers, files })
        })
    }

    /// `get_symbol` of a configuration key: its values by profile and where each is set,
    /// and how many readers it has. None when no file sets it and no code reads it.
    pub(super) fn config_key_details(&self, store: &Store, key: &str) -> Result<Option<String>, ToolError> {
        let view = self.config_view(store)?;
        let settings = view.settings(key);
        let readers = view.readers_of(key);
        if settings.is_empty() && readers.is_empty() {
            return Ok(None);
        }
        let mut out = format!("config_key {}\n", echo(key));
        if settings.is_empty() {
            out.push_str(
                "  set nowhere: no configuration file sets it (a default in the code, an environment variable, or a missing key)\n",
            );
        }
        for s in &settings {
            let item = if s.key == key { String::new() } else { format!("{} ", s.key) };
            let _ = writeln!(out, "  {}: {item}{}  {}:{}", s.profile, s.value, s.file, s.line);
        }
        if crate::frameworks::read_by_boot(key) {
            let _ = writeln!(
                out,
                "  read by Spring Boot itself (its configuration properties){}",
                if readers.is_empty() { "" } else { ", and:" }
            );
        }
        if !readers.is_empty() || !crate::frameworks::read_by_boot(key) {
            let _ = writeln!(out, "  read by: {}", plural(readers.len(), "reader"));
        }
        for r in readers.iter().take(10) {
            let _ = writeln!(out, "    {}", r.shown());
        }
        if readers.len() > 10 {
            let _ = writeln!(out, "    ... {} more (find_references)", readers.len() - 10);
        }
        Ok(Some(out.trim_end().to_string()))
    }

    /// `find_references` of a configuration key: its readers, paged.
    pub(super) fn config_key_readers(&self, store: &Store, key: &str, window: Window) -> Result<Option<String>, ToolError> {
        let view = self.config_view(store)?;
        let readers = view.readers_of(key);
        if readers.is_empty() && view.settings(key).is_empty() {
            return Ok(None);
        }
        let mut out = format!("{} of config_key {}\n", plural(readers.len(), "reader"), echo(key));
        let rows = readers.iter().skip(window.offset).map(|r| Ok::<_, ToolError>(Row::new(r.shown())));
        write_page(&mut out, rows, readers.len(), window)?;
        Ok(Some(out))
    }

    /// `search_symbols` with `kind=config_key`: the keys containing the query (every key
    /// when it is empty), each with its profiles and readers.
    /// Keys read in code and set nowhere come first (what a newcomer must set), then the
    /// files' keys by name; `path` keeps the keys its files set (and, for the unset ones,
    /// that its code reads).
    pub(super) fn search_config_keys(&self, store: &Store, query: &str, prefix: &str, window: Window) -> Result<String, ToolError> {
        let view = self.config_view(store)?;
        let q = query.to_ascii_lowercase();
        let under = |k: &String| prefix.is_empty() || view.settings(k).iter().any(|s| s.file.starts_with(prefix));
        let set: Vec<&String> = view.keys.keys().filter(|k| k.to_ascii_lowercase().contains(&q) && under(k)).collect();
        // Keys read in code and set nowhere are keys too.
        let mut names: Vec<&String> = view
            .readers
            .iter()
            .filter(|r| view.settings(&r.key).is_empty() && r.key.to_ascii_lowercase().contains(&q))
            .filter(|r| prefix.is_empty() || view.readers_of(&r.key).iter().any(|r| r.file.starts_with(prefix)))
            .map(|r| &r.key)
            .collect();
        names.sort();
        names.dedup();
        names.extend(set);
        let mut out = format!(
            "{} in {}{}\n",
            plural(names.len(), "config_key"),
            plural(view.files, "configuration file"),
            if prefix.is_empty() { String::new() } else { format!(" (under {})", super::paging::echo(prefix)) }
        );
        let rows = names.iter().skip(window.offset).map(|k| Ok::<_, ToolError>(Row::new(key_row(&view, k))));
        write_page(&mut out, rows, names.len(), window)?;
        Ok(out)
    }

    /// The configuration key a query names exactly (by relaxed binding: `app.cache.enabled`,
    /// `APP_CACHE_ENABLED` is not one), set in a file or read in code, as its row for
    /// `search_symbols`: a key's name is no symbol's, and its last word (`enabled`) names
    /// many fields.
    pub(super) fn config_key_named(&self, store: &Store, query: &str) -> Result<Option<String>, ToolError> {
        if query.is_empty() || query.contains(char::is_whitespace) || query.starts_with('/') {
            return Ok(None);
        }
        let view = self.config_view(store)?;
        let want = config_keys::relaxed(query);
        // The key itself, or a list or map set by its items (`mybatis.mapper-locations[0]`).
        let named = view.keys.keys().chain(view.readers.iter().map(|r| &r.key)).find_map(|k| {
            let relaxed = config_keys::relaxed(k);
            if relaxed == want {
                Some(k.clone())
            } else if relaxed.strip_prefix(&want).is_some_and(|rest| rest.starts_with(['[', '.'])) {
                k.match_indices(['[', '.']).map(|(at, _)| &k[..at]).find(|stem| config_keys::relaxed(stem) == want).map(str::to_string)
            } else {
                None
            }
        });
        Ok(named.map(|k| key_row(&view, &k)))
    }

    /// The external systems under a path (`frameworks::external`): each with where the
    /// configuration points it, per profile (secrets are redacted when read), the files that
    /// set it, and the files whose code uses its client types. Rows for `repo_overview`.
    pub(super) fn external_systems(&self, store: &Store, prefix: &str) -> Result<Vec<String>, ToolError> {
        use crate::frameworks::external;
        let view = self.config_view(store)?;
        // The build manifests of the units under the path (their client and starter
        // dependencies name systems no key configures).
        let units = self.unit_view(store)?;
        let root = self.root.canonicalize()?;
        let manifests: Vec<(String, String)> = units
            .units
            .units
            .iter()
            .filter(|u| u.manifest.starts_with(prefix) && !u.manifest.is_empty())
            .filter_map(|u| Some((u.manifest.clone(), std::fs::read_to_string(root.join(&u.manifest)).ok()?)))
            .collect();
        let mut rows = Vec::new();
        for system in external::systems() {
            // (profile, place) and (file:line) of the settings naming it.
            let mut places: Vec<(String, String)> = Vec::new();
            let mut files: Vec<String> = Vec::new();
            for settings in view.keys.values() {
                for s in settings.iter().filter(|s| s.file.starts_with(prefix) && external::names(system, &s.key, &s.value)) {
                    // A host key's port beside it (`spring.redis.port`).
                    let port = s.key.rsplit_once('.').filter(|(_, last)| *last == "host").and_then(|(stem, _)| {
                        view.keys
                            .get(&format!("{stem}.port"))?
                            .iter()
                            .find(|p| p.profile == s.profile && p.file == s.file)
                            .map(|p| p.value.clone())
                    });
                    let place = match port {
                        Some(p) => format!("{}:{p}", external::place(&s.value)),
                        None => external::place(&s.value),
                    };
                    if !places.contains(&(s.profile.clone(), place.clone())) {
                        places.push((s.profile.clone(), place));
                    }
                    files.push(format!("{}:{}", s.file, s.line));
                }
            }
            let types: Vec<&str> = system.types.iter().map(String::as_str).collect();
            // A driver no key names is not what the code's `JdbcTemplate` talks to.
            let users = if types.is_empty() || (system.needs_configuration && places.is_empty()) {
                Vec::new()
            } else {
                store.files_using_externals(&types)?
            };
            let users: Vec<&(String, String)> = users.iter().filter(|(_, f)| f.starts_with(prefix)).collect();
            let declared: Vec<(String, Vec<&str>)> = manifests
                .iter()
                .map(|(path, text)| (path.clone(), external::declared(system, text)))
                .filter(|(_, found)| !found.is_empty())
                .collect();
            if places.is_empty() && users.is_empty() && declared.is_empty() {
                continue;
            }
            let mut row = format!("{} ({})", system.name, system.kind);
            // Where the build brings its client in: `pom.xml (postgresql) and 2 more`.
            let declared_in = declared.first().map(|(path, found)| {
                let more = if declared.len() > 1 { format!(" and {} more", declared.len() - 1) } else { String::new() };
                format!("{path} ({}){more}", found.join(", "))
            });
            if places.is_empty() && system.needs_configuration {
                // Declared, not used: no key names it, and nothing talks to it by default.
                if let Some(declared_in) = declared_in {
                    let _ = write!(row, "  declared only, in {declared_in}: no configuration names it");
                }
            } else if places.is_empty() {
                row.push_str("  not configured here (its client's defaults)");
                if let Some(declared_in) = declared_in {
                    let _ = write!(row, "; declared in {declared_in}");
                }
            } else {
                places.sort();
                let shown: Vec<String> = places.iter().take(4).map(|(profile, place)| format!("{profile}={place}")).collect();
                let more = if places.len() > 4 { format!(" and {} more", places.len() - 4) } else { String::new() };
                let _ = write!(row, "  {}{more}", shown.join(", "));
                files.sort();
                files.dedup();
                let _ = write!(row, "; set in {}", files[0]);
                if files.len() > 1 {
                    let _ = write!(row, " and {} more", files.len() - 1);
                }
            }
            if !users.is_empty() {
                let mut used: Vec<&str> = users.iter().map(|(q, _)| crate::model::last_segment(q)).collect();
                used.sort();
                used.dedup();
                let mut user_files: Vec<&str> = users.iter().map(|(_, f)| f.as_str()).collect();
                user_files.dedup();
                let _ = write!(row, "; code: {} ({})", plural(user_files.len(), "file"), used.join(", "));
            }
            rows.push(row);
        }
        Ok(rows)
    }

    /// What `repochart status` says of configuration: files that did not parse, keys read
    /// in code without a default that no file sets.
    pub(super) fn config_problems(&self, store: &Store) -> Result<(usize, usize, Vec<String>, Vec<String>), ToolError> {
        let view = self.config_view(store)?;
        let errors = view.errors.iter().map(|e| format!("{}:{}: {}", e.file, e.line, e.message)).collect();
        let mut unset: Vec<String> = Vec::new();
        for r in &view.readers {
            if !r.has_default && view.settings(&r.key).is_empty() {
                let place = match &r.code {
                    Some(c) => format!("{} {}  {}", r.how, c.qname, location(c)),
                    None => format!("{} {}:{}", r.how, r.file, r.line),
                };
                let line = format!("{} ({place})", r.key);
                if !unset.contains(&line) {
                    unset.push(line);
                }
            }
        }
        Ok((view.files, view.keys.len(), errors, unset))
    }
}
