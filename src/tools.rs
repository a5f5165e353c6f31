//! The twelve tools as plain functions over the store and the graph, returning compact
//! text made for a model to read. The CLI `query` command, the MCP server and the tests
//! all call `Atlas::call`. This module knows JSON arguments and schemas, not MCP.
//!
//! Every answer names the handle the next tier takes (qualified name or `path:line`),
//! pages with `limit`/`offset`, says when it was cut, and stays within its budget.

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

use crate::graph::{EdgeRow, FileRow, Graph, Level, Node, Reached, SymbolRow};
use crate::model::{RefKind, SymbolKind};
use crate::store::{self, FileInfo, Stamp, Store, SymbolInfo, Target};

/// Answer budget for tiers 1 and 2, in bytes (about 2,000 tokens).
pub const SUMMARY_BUDGET: usize = 8_000;
/// Tier-3 reads: bytes and lines, whichever comes first.
pub const READ_BUDGET: usize = 16_000;
pub const READ_LINES: usize = 400;
/// Room kept for the closing line of a cut answer.
const FOOTER_ROOM: usize = 240;

/// A tool's name, its one-sentence description, and its argument schema.
pub struct ToolSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub schema: fn() -> serde_json::Map<String, Value>,
}

macro_rules! tool_specs {
    ($( $name:literal => $args:ty, $desc:literal; )*) => {
        pub const TOOLS: &[ToolSpec] = &[ $( ToolSpec { name: $name, description: $desc, schema: lean_schema::<$args> }, )* ];
    };
}

tool_specs! {
    "repo_overview" => OverviewArgs, "Start here: languages, top modules, entry points, most depended-upon types";
    "dependency_graph" => GraphArgs, "Dependencies and dependents of a type, file or module";
    "dependency_path" => PathArgs, "Shortest dependency chain between two nodes, with the line of each hop";
    "change_impact" => ImpactArgs, "What depends on a node transitively, through interfaces too, by distance";
    "search_symbols" => SearchArgs, "Find symbols by name, words, typo or doc text";
    "get_symbol" => SymbolArgs, "One symbol: signature, doc, location, supertypes, members";
    "find_implementations" => ImplArgs, "Types implementing an interface, trait or class; or a method's implementations";
    "find_references" => RefsArgs, "Where a symbol is used, as the compiler resolves it, by file";
    "file_outline" => PathOnlyArgs, "A file's symbols, nested, with lines and signatures";
    "read_source" => ReadArgs, "Numbered source lines of a file range";
    "read_symbol" => ReadSymbolArgs, "Numbered source of one symbol";
    "search_text" => TextArgs, "Lines matching text or a regex in indexed files";
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OverviewArgs {
    /// Only paths starting with this
    pub path: Option<String>,
    /// Items per list (default 10)
    pub limit: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GraphArgs {
    /// Symbol, file path or module
    pub target: String,
    /// symbol (default), file or module
    pub level: Option<String>,
    /// both (default), out or in
    pub direction: Option<String>,
    /// 1-5 (default 1)
    pub depth: Option<u32>,
    /// Default 50
    pub limit: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PathArgs {
    /// Symbol, file path or module
    pub from: String,
    /// Symbol, file path or module
    pub to: String,
    /// symbol (default), file or module
    pub level: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImpactArgs {
    /// Symbol, file, module; or git:working-tree, git:<rev>
    pub target: String,
    /// 1-10 (default 3)
    pub depth: Option<u32>,
    /// symbol (default), file or module
    pub level: Option<String>,
    /// Default 50
    pub limit: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArgs {
    /// Name, words or qualified name
    pub query: String,
    /// class, method, function, struct, trait...
    pub kind: Option<String>,
    /// java or rust
    pub language: Option<String>,
    /// Only paths starting with this
    pub path: Option<String>,
    /// Default 20
    pub limit: Option<u32>,
    /// Results to skip
    pub offset: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SymbolArgs {
    /// Qualified name, simple name or path:line
    pub symbol: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImplArgs {
    /// Type or method
    pub symbol: String,
    /// Include indirect ones
    pub transitive: Option<bool>,
    /// Default 50
    pub limit: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RefsArgs {
    /// Qualified name, simple name or path:line
    pub symbol: String,
    /// all (default), call, type, field or import
    pub kind: Option<String>,
    /// Default 50
    pub limit: Option<u32>,
    /// References to skip
    pub offset: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PathOnlyArgs {
    /// Relative to the repository root
    pub path: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadArgs {
    /// Relative to the repository root
    pub path: String,
    /// 1-based
    pub start_line: u32,
    /// Inclusive
    pub end_line: u32,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadSymbolArgs {
    /// Qualified name, simple name or path:line
    pub symbol: String,
    /// Lines around it (default 0)
    pub context_lines: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TextArgs {
    /// Text, or a regex if regex is true
    pub query: String,
    /// Query is a regex
    pub regex: Option<bool>,
    /// Only paths starting with this
    pub path: Option<String>,
    /// Default false
    pub case_sensitive: Option<bool>,
    /// Default 50
    pub limit: Option<u32>,
}

/// The JSON schema of an argument type, without the noise clients pay for in every
/// conversation (`$schema`, titles, integer formats, `null` alternatives).
pub fn lean_schema<T: JsonSchema>() -> serde_json::Map<String, Value> {
    let schema = schemars::schema_for!(T);
    let mut value = serde_json::to_value(schema).unwrap_or(Value::Null);
    strip(&mut value);
    match value {
        Value::Object(map) => map,
        _ => serde_json::Map::new(),
    }
}

fn strip(value: &mut Value) {
    if let Value::Object(map) = value {
        for key in ["$schema", "title", "format", "minimum", "default", "additionalProperties"] {
            map.remove(key);
        }
        if let Some(Value::Array(types)) = map.get("type") {
            let non_null: Vec<Value> = types.iter().filter(|t| t.as_str() != Some("null")).cloned().collect();
            if non_null.len() == 1 {
                map.insert("type".into(), non_null[0].clone());
            }
        }
        for v in map.values_mut() {
            strip(v);
        }
    } else if let Value::Array(items) = value {
        for v in items {
            strip(v);
        }
    }
}

/// Progress of a background index build, shown in answers while it runs.
#[derive(Default)]
pub struct IndexStatus {
    pub building: AtomicBool,
    pub done: AtomicUsize,
    pub total: AtomicUsize,
    /// Changed paths seen by the watcher and not yet in the index.
    pub pending: AtomicUsize,
    pub error: Mutex<Option<String>>,
}

/// The tools' shared state: the repository root, read connections, cached graphs.
pub struct Atlas {
    root: PathBuf,
    pool: Mutex<Vec<Store>>,
    graphs: Mutex<HashMap<Level, (Stamp, Arc<Graph>)>>,
    /// The graph's edge and symbol rows by file, kept across generations: after a save only
    /// the files whose references or symbols changed are read again.
    edges: Mutex<EdgeCache>,
    /// Every distinct symbol name, lower-cased and as written, for typo-tolerant search.
    names: Mutex<Option<(Stamp, Arc<Vec<NameEntry>>)>>,
    tests: Mutex<Option<(Stamp, Arc<HashSet<i64>>)>>,
    pub status: Arc<IndexStatus>,
    /// Re-indexes files now and waits (read-your-writes); set when an indexer runs.
    syncer: Option<Syncer>,
    /// Per-line counts of files, by file id, with the mtime they were read at.
    line_stats: Mutex<HashMap<i64, (i64, Arc<LineStats>)>>,
    /// Bytes an answer may take: tiers 1-2, and tier-3 reads.
    summary_budget: usize,
    read_budget: usize,
}

/// Asks the indexer to bring these files up to date and waits until it has.
pub type Syncer = Arc<dyn Fn(Vec<PathBuf>) + Send + Sync>;

/// Prefix sums over a file's lines: non-blank lines and branch words up to line `i`.
struct LineStats {
    loc: Vec<u32>,
    branches: Vec<u32>,
}

/// A tool's failure, as a message for the model.
#[derive(Debug)]
pub struct ToolError(pub String);

impl<E: std::fmt::Display> From<E> for ToolError {
    fn from(e: E) -> Self {
        ToolError(e.to_string())
    }
}

type Answer = Result<String, ToolError>;

fn fail<T>(msg: impl Into<String>) -> Result<T, ToolError> {
    Err(ToolError(msg.into()))
}

/// What a handle names. Lives for one call, so the size of the symbol variant is no cost.
#[allow(clippy::large_enum_variant)]
enum Handle {
    Symbol(SymbolInfo),
    External(i64, String),
}

impl Atlas {
    pub fn new(root: &Path) -> Atlas {
        Atlas {
            root: root.to_path_buf(),
            pool: Mutex::new(Vec::new()),
            graphs: Mutex::new(HashMap::new()),
            edges: Mutex::new(EdgeCache::default()),
            names: Mutex::new(None),
            tests: Mutex::new(None),
            status: Arc::new(IndexStatus::default()),
            syncer: None,
            line_stats: Mutex::new(HashMap::new()),
            summary_budget: SUMMARY_BUDGET,
            read_budget: READ_BUDGET,
        }
    }

    /// Answers of tiers 1-2 within `bytes`, tier-3 reads within twice that.
    pub fn with_budget(mut self, bytes: usize) -> Atlas {
        self.summary_budget = bytes;
        self.read_budget = bytes * 2;
        self
    }

    /// An atlas sharing an indexer's status, which re-indexes changed files before reads.
    pub fn with_indexer(root: &Path, status: Arc<IndexStatus>, syncer: Syncer) -> Atlas {
        Atlas { status, syncer: Some(syncer), ..Atlas::new(root) }
    }

    /// The levels whose graph has been built, sorted.
    pub fn built_graphs(&self) -> Vec<&'static str> {
        let mut built: Vec<&'static str> = self.graphs.lock().expect("graph lock").keys().map(|l| l.as_str()).collect();
        built.sort_unstable();
        built
    }

    /// The levels whose graph was built at an older index than the current one, sorted.
    pub fn stale_graphs(&self) -> Result<Vec<&'static str>, ToolError> {
        let store = self.store()?;
        let stamp = store.stamp()?;
        self.pool.lock().expect("pool lock").push(store);
        let mut stale: Vec<&'static str> =
            self.graphs.lock().expect("graph lock").iter().filter(|(_, (s, _))| *s != stamp).map(|(l, _)| l.as_str()).collect();
        stale.sort_unstable();
        Ok(stale)
    }

    /// Builds, or brings up to the index as it is now, what calls derive from the whole
    /// index: the symbol graph and the name list (what a session's first calls need), and
    /// the other graphs and the test symbols once calls have used them. The server runs
    /// this on its own thread after its start-up reconcile and after each index batch, so
    /// that no call waits for it.
    pub fn refresh_caches(&self) {
        let store = match self.store() {
            Ok(store) => store,
            Err(e) => {
                tracing::debug!("no caches refreshed: {}", e.0);
                return;
            }
        };
        let mut levels: Vec<Level> = self.graphs.lock().expect("graph lock").keys().copied().collect();
        if !levels.contains(&Level::Symbol) {
            levels.push(Level::Symbol);
        }
        for level in levels {
            if let Err(e) = self.graph(&store, level) {
                tracing::warn!("refreshing the {} graph: {}", level.as_str(), e.0);
            }
        }
        if let Err(e) = self.all_names(&store) {
            tracing::warn!("refreshing the name list: {}", e.0);
        }
        if self.tests.lock().expect("cache lock").is_some() {
            if let Err(e) = self.test_symbols(&store) {
                tracing::warn!("refreshing the test symbols: {}", e.0);
            }
        }
        self.pool.lock().expect("pool lock").push(store);
    }

    /// Gives back the memory idle read connections hold (see `Store::release_memory`).
    pub fn release_memory(&self) {
        for store in self.pool.lock().expect("pool lock").iter() {
            store.release_memory();
        }
    }

    /// Read-your-writes: when the file on disk differs from what the index saw (size or
    /// modification time), re-index it before answering. True if it did.
    fn refresh(&self, file: &FileInfo) -> bool {
        let Some(syncer) = &self.syncer else { return false };
        let full = self.root.join(&file.path);
        let fresh = match std::fs::metadata(&full) {
            Ok(m) => {
                let mtime =
                    m.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map(|d| d.as_nanos() as i64).unwrap_or(0);
                m.len() as i64 == file.size && mtime == file.mtime_ns
            }
            Err(_) => false,
        };
        if !fresh {
            syncer(vec![full]);
        }
        !fresh
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Runs a tool by name with JSON arguments.
    pub fn call(&self, name: &str, args: Value) -> Answer {
        let args = if args.is_null() { Value::Object(Default::default()) } else { args };
        let store = self.store()?;
        let result = match name {
            "repo_overview" => parse(args).and_then(|a| self.repo_overview(&store, a)),
            "dependency_graph" => parse(args).and_then(|a| self.dependency_graph(&store, a)),
            "dependency_path" => parse(args).and_then(|a| self.dependency_path(&store, a)),
            "change_impact" => parse(args).and_then(|a| self.change_impact(&store, a)),
            "search_symbols" => parse(args).and_then(|a| self.search_symbols(&store, a)),
            "get_symbol" => parse(args).and_then(|a| self.get_symbol(&store, a)),
            "find_implementations" => parse(args).and_then(|a| self.find_implementations(&store, a)),
            "find_references" => parse(args).and_then(|a| self.find_references(&store, a)),
            "file_outline" => parse(args).and_then(|a| self.file_outline(&store, a)),
            "read_source" => parse(args).and_then(|a| self.read_source(&store, a)),
            "read_symbol" => parse(args).and_then(|a| self.read_symbol(&store, a)),
            "search_text" => parse(args).and_then(|a| self.search_text(&store, a)),
            _ => fail(format!("unknown tool {name:?}; tools: {}", TOOLS.iter().map(|t| t.name).collect::<Vec<_>>().join(", "))),
        };
        self.pool.lock().expect("pool lock").push(store);
        result.map(|text| self.with_freshness(text)).map_err(|e| ToolError(self.with_freshness(e.0)))
    }

    fn store(&self) -> Result<Store, ToolError> {
        if let Some(store) = self.pool.lock().expect("pool lock").pop() {
            return Ok(store);
        }
        match Store::open_read(&self.root) {
            Ok(store) => Ok(store),
            Err(store::Error::Missing(_)) if self.status.building.load(Ordering::Relaxed) => fail(format!(
                "the index is being built ({}/{} files parsed); try again in a few seconds",
                self.status.done.load(Ordering::Relaxed),
                self.status.total.load(Ordering::Relaxed)
            )),
            Err(e) => fail(format!("{e}")),
        }
    }

    fn with_freshness(&self, mut text: String) -> String {
        if self.status.building.load(Ordering::Relaxed) {
            let (done, total) = (self.status.done.load(Ordering::Relaxed), self.status.total.load(Ordering::Relaxed));
            if total == 0 {
                text.push_str("\n[index updating: checking files for changes; answers reflect the last complete index]");
            } else {
                let _ = write!(text, "\n[index updating: {done}/{total} changed files parsed; answers reflect the last complete index]");
            }
        } else if self.status.pending.load(Ordering::Relaxed) > 0 {
            let _ = write!(text, "\n[{} changed paths waiting to be re-indexed]", self.status.pending.load(Ordering::Relaxed));
        } else if let Some(e) = self.status.error.lock().expect("status lock").as_ref() {
            let _ = write!(text, "\n[index update failed: {e}]");
        }
        text
    }

    fn graph(&self, store: &Store, level: Level) -> Result<Arc<Graph>, ToolError> {
        let mut graphs = self.graphs.lock().expect("graph lock");
        let started = std::time::Instant::now();
        // One snapshot: the stamp, the files and the rows agree.
        let (stamp, fresh) = store.snapshot(|store| {
            let stamp = store.stamp()?;
            if graphs.get(&level).is_some_and(|(s, _)| *s == stamp) {
                return Ok((stamp, None));
            }
            let files = store.graph_files()?;
            self.edges.lock().expect("edge cache lock").refresh(store, &stamp, &files)?;
            Ok((stamp, Some(files)))
        })?;
        let Some(files) = fresh else {
            return Ok(graphs[&level].1.clone());
        };
        let files: Vec<FileRow> = files.into_iter().map(|(f, _)| f).collect();
        let cache = self.edges.lock().expect("edge cache lock");
        let symbols: Vec<SymbolRow> = cache.by_file.iter().flat_map(|(file, rows)| rows.symbols.iter().map(|s| s.row(*file))).collect();
        let rows = cache.by_file.iter().flat_map(|(file, rows)| rows.edges.iter().map(|r| r.row(*file)));
        let g = Arc::new(Graph::build(level, &symbols, &files, rows));
        tracing::debug!(level = level.as_str(), ms = started.elapsed().as_millis() as u64, "graph built");
        graphs.insert(level, (stamp, g.clone()));
        Ok(g)
    }

    /// Symbols in test files or Rust `tests` modules (cached per index generation: a
    /// change impact may reach thousands of symbols).
    fn test_symbols(&self, store: &Store) -> Result<Arc<HashSet<i64>>, ToolError> {
        per_generation(store, &self.tests, || {
            let files: Vec<i64> = store.files_under("")?.into_iter().filter(|f| is_test_path(&f.path)).map(|f| f.id).collect();
            Ok(store.test_symbol_ids(&files)?.into_iter().collect())
        })
    }

    /// Every distinct name, prepared for the fuzzy pass.
    fn all_names(&self, store: &Store) -> Result<Arc<Vec<NameEntry>>, ToolError> {
        per_generation(store, &self.names, || {
            Ok(store
                .distinct_names()?
                .into_iter()
                .map(|name| {
                    let lower = name.to_lowercase();
                    NameEntry { mask: char_mask(lower.as_bytes()), ascii: lower.is_ascii(), lower, name }
                })
                .collect())
        })
    }

    // ------------------------------------------------------------ handles

    /// Resolves a symbol handle: `path:line`, a qualified name, a unique simple name, a
    /// qualified-name suffix, or an external name. Ambiguity lists the candidates.
    fn resolve(&self, store: &Store, handle: &str) -> Result<Handle, ToolError> {
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
                    return fail(format!("no indexed file {path:?}; paths are relative to the repository root"));
                };
                return match store.symbol_at(&file.path, line)? {
                    Some(s) => Ok(Handle::Symbol(s)),
                    None => fail(format!("no symbol encloses {path}:{line}; see file_outline {{\"path\": \"{path}\"}}")),
                };
            }
        }
        // One overload by its parameter types: `com.acme.Customer#getAccount(Integer)`.
        if let Some((name, rest)) = handle.split_once('(') {
            if let Some(params) = rest.strip_suffix(')') {
                let params: String = params.chars().filter(|c| !c.is_whitespace()).collect();
                let matching: Vec<SymbolInfo> = match self.resolve(store, name) {
                    Ok(Handle::Symbol(s)) => vec![s],
                    Ok(Handle::External(..)) => Vec::new(),
                    // The name alone names several overloads: the parameters pick one.
                    Err(_) => {
                        let member = match name.rsplit_once('.') {
                            Some((owner, m)) if !name.contains("::") && !name.contains('#') => format!("{owner}#{m}"),
                            _ => name.to_string(),
                        };
                        let mut all = store.symbols_by_qname(name)?;
                        all.extend(store.symbols_by_qname(&member)?);
                        if all.is_empty() {
                            all = store.symbols_by_qname_suffix(name)?;
                        }
                        all
                    }
                };
                let mut found: Vec<SymbolInfo> = matching
                    .into_iter()
                    .flat_map(|s| {
                        // A single match by name may still have overloads beside it.
                        let mut same = store.symbols_by_qname(&s.qname).unwrap_or_default();
                        if same.is_empty() {
                            same.push(s);
                        }
                        same
                    })
                    .filter(|s| s.params.as_deref() == Some(params.as_str()))
                    .collect();
                found.dedup_by_key(|s| s.id);
                return match found.len() {
                    1 => Ok(Handle::Symbol(found.remove(0))),
                    0 => fail(format!(
                        "no overload {handle:?}; get_symbol {{\"symbol\": \"{name}\"}} lists the overloads with their parameter types"
                    )),
                    n => fail(format!("{handle:?} names {n} symbols; pass path:line of one")),
                };
            }
        }
        // `Outer.method` may be written with a dot instead of Java's `#`.
        let member_form = match handle.rsplit_once('.') {
            Some((owner, member)) if !handle.contains("::") && !handle.contains('#') => Some(format!("{owner}#{member}")),
            _ => None,
        };
        let mut candidates = store.symbols_by_qname(handle)?;
        if candidates.is_empty() {
            if let Some(m) = &member_form {
                candidates = store.symbols_by_qname(m)?;
            }
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
        if candidates.is_empty() {
            if let Some(id) = store.external_by_qname(handle)? {
                return Ok(Handle::External(id, handle.to_string()));
            }
        }
        // A type's name also names its constructors: the type is meant.
        if candidates.len() > 1 && candidates.iter().any(|c| c.kind.is_type()) {
            candidates.retain(|c| c.kind != SymbolKind::Constructor);
        }
        match candidates.len() {
            0 => {
                let suggestions = self.suggest(store, handle)?;
                if suggestions.is_empty() {
                    fail(format!("no symbol {handle:?}; try search_symbols {{\"query\": \"{}\"}}", crate::model::last_segment(handle)))
                } else {
                    fail(format!("no symbol {handle:?}; did you mean: {}", suggestions.join(", ")))
                }
            }
            1 => Ok(Handle::Symbol(candidates.remove(0))),
            n => {
                let mut msg = format!("{handle:?} is ambiguous ({n} symbols); pass one of these handles:\n");
                for c in candidates.iter().take(10) {
                    let _ = writeln!(msg, "  {} {}  {}", c.kind, c.signature_handle(), location(c));
                }
                if n > 10 {
                    let _ = writeln!(msg, "  ... and {} more", n - 10);
                }
                fail(msg.trim_end().to_string())
            }
        }
    }

    fn resolve_symbol(&self, store: &Store, handle: &str) -> Result<SymbolInfo, ToolError> {
        match self.resolve(store, handle)? {
            Handle::Symbol(s) => Ok(s),
            Handle::External(_, q) => {
                fail(format!("{q} is outside the repository (no source); it can be used with find_references and find_implementations"))
            }
        }
    }

    /// Close names, for "did you mean".
    fn suggest(&self, store: &Store, handle: &str) -> Result<Vec<String>, ToolError> {
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
    fn node(&self, store: &Store, graph: &Graph, target: &str) -> Result<Node, ToolError> {
        match graph.level {
            Level::Symbol => match self.resolve(store, target)? {
                Handle::Symbol(s) => graph.node_of_symbol(s.id).ok_or_else(|| ToolError(format!("{} is not in the graph", s.qname))),
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
                match self.resolve(store, target) {
                    Ok(Handle::Symbol(s)) => {
                        let f = store.file(s.file_id)?.ok_or_else(|| ToolError("file vanished".into()))?;
                        Ok(Node::Module(f.module))
                    }
                    _ => fail(format!("no module {target:?}; repo_overview lists modules")),
                }
            }
        }
    }

    fn node_label(&self, store: &Store, node: &Node) -> Result<(String, String), ToolError> {
        Ok(match node {
            Node::Symbol(id) => match store.symbol(*id)? {
                Some(s) => (format!("{} {}", s.kind, s.qname), location(&s)),
                None => (format!("symbol #{id}"), String::new()),
            },
            Node::External(id) => (format!("external {}", store.external_qname(*id)?.unwrap_or_default()), String::new()),
            Node::File(id) => match store.file(*id)? {
                Some(f) => (format!("file {}", f.path), format!("{} LOC", f.loc)),
                None => (format!("file #{id}"), String::new()),
            },
            Node::Module(m) => (format!("module {}", if m.is_empty() { "(default)" } else { m }), String::new()),
        })
    }

    /// loc, complexity (1-10) and last-modified date of a node, where it has them.
    /// Per-line counts of a file (prefix sums), read once per file version: graph answers
    /// list dozens of nodes, often in the same large files.
    fn line_stats(&self, file: &FileInfo) -> Arc<LineStats> {
        let mut cache = self.line_stats.lock().expect("line stats lock");
        if let Some((mtime, stats)) = cache.get(&file.id) {
            if *mtime == file.mtime_ns {
                return stats.clone();
            }
        }
        let text = std::fs::read_to_string(self.root.join(&file.path)).unwrap_or_default();
        let (mut loc, mut branches) = (vec![0u32], vec![0u32]);
        for line in text.lines() {
            loc.push(loc.last().unwrap() + u32::from(!line.trim().is_empty()));
            branches.push(branches.last().unwrap() + count_branches(&[line]) as u32);
        }
        let stats = Arc::new(LineStats { loc, branches });
        // Bounded: a long session over a huge tree does not keep every file's counts.
        if cache.values().map(|(_, s)| s.loc.len()).sum::<usize>() > 4_000_000 {
            cache.clear();
        }
        cache.insert(file.id, (file.mtime_ns, stats.clone()));
        stats
    }

    fn node_facts(&self, store: &Store, graph: &Graph, node: &Node) -> Result<String, ToolError> {
        let (file, range) = match node {
            Node::Symbol(id) => match store.symbol(*id)? {
                Some(s) => (store.file(s.file_id)?, Some((s.start_line, s.end_line))),
                None => return Ok(String::new()),
            },
            Node::File(id) => (store.file(*id)?, None),
            _ => return Ok(String::new()),
        };
        let Some(file) = file else {
            return Ok(String::new());
        };
        let stats = self.line_stats(&file);
        let lines = stats.loc.len() as u32 - 1;
        let (start, end) = range.unwrap_or((1, lines));
        let (start, end) = (start.clamp(1, lines.max(1)) as usize, end.min(lines) as usize);
        let (loc, branches) = if lines == 0 || end < start {
            (0, 0)
        } else {
            ((stats.loc[end] - stats.loc[start - 1]) as usize, (stats.branches[end] - stats.branches[start - 1]) as usize)
        };
        let fan_out = graph.degree(node, petgraph::Direction::Outgoing);
        Ok(format!("loc={loc} complexity={} modified={}", complexity(loc, branches, fan_out), date_of(file.mtime_ns)))
    }

    // ------------------------------------------------------------ tier 1

    fn repo_overview(&self, store: &Store, a: OverviewArgs) -> Answer {
        let prefix = match &a.path {
            Some(p) => normalize_path(p)?,
            None => String::new(),
        };
        let limit = clamp(a.limit, 10, 1, 50);
        let mut out = String::new();
        let langs = store.language_counts(&prefix)?;
        if langs.is_empty() {
            return fail(format!("no indexed files under {prefix:?}"));
        }
        let name = self.root.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        let (files, loc, symbols) = langs.iter().fold((0, 0, 0), |acc, l| (acc.0 + l.1, acc.1 + l.2, acc.2 + l.3));
        let _ = writeln!(
            out,
            "repo {name}{}: {files} files, {loc} LOC, {symbols} symbols",
            if prefix.is_empty() { String::new() } else { format!(" ({prefix})") }
        );
        out.push_str("languages:\n");
        for (lang, f, l, s) in &langs {
            let _ = writeln!(out, "  {lang}: {f} files, {l} LOC, {s} symbols");
        }
        let modules = store.module_counts(&prefix)?;
        let _ = writeln!(out, "modules ({} in all, top {} by symbols):", modules.len(), limit.min(modules.len()));
        for (m, f, s) in modules.iter().take(limit) {
            let _ = writeln!(out, "  {}  {f} files, {s} symbols", if m.is_empty() { "(default)" } else { m });
        }
        let entries = store.entry_points(&prefix)?;
        if !entries.is_empty() {
            let _ = writeln!(out, "entry points ({}):", entries.len());
            for e in entries.iter().take(limit) {
                let _ = writeln!(out, "  {} {}  {}", e.kind, e.qname, location(e));
            }
        }
        let graph = self.graph(store, Level::Symbol)?;
        let _ = writeln!(out, "most depended-upon (distinct dependents):");
        let mut shown = 0;
        for (node, n) in graph.top_fan_in(limit * 4) {
            if shown == limit {
                break;
            }
            if let Node::Symbol(id) = node {
                if let Some(s) = store.symbol(id)? {
                    if s.path.starts_with(&prefix) {
                        let _ = writeln!(out, "  {} {}  {n}  {}", s.kind, s.qname, location(&s));
                        shown += 1;
                    }
                }
            }
        }
        let indexed =
            store.meta("indexed_at")?.and_then(|s| s.parse::<i64>().ok()).map(|s| date_time_of(s * 1_000_000_000)).unwrap_or_default();
        let _ = writeln!(out, "index: {} files, last indexed {indexed}", store.count_files()?);
        out.push_str("next: dependency_graph {target}, search_symbols {query}, file_outline {path}");
        Ok(cap(out, self.summary_budget))
    }

    fn dependency_graph(&self, store: &Store, a: GraphArgs) -> Answer {
        let level = parse_level(a.level.as_deref())?;
        let (out_dir, in_dir) = match a.direction.as_deref().unwrap_or("both") {
            "both" => (true, true),
            "out" => (true, false),
            "in" => (false, true),
            other => return fail(format!("direction must be both, out or in (got {other:?})")),
        };
        let depth = clamp_checked(a.depth, 1, 1, 5, "depth")?;
        let limit = clamp(a.limit, 50, 1, 200);
        let graph = self.graph(store, level)?;
        let start = self.node(store, &graph, &a.target)?;
        let (label, loc) = self.node_label(store, &start)?;
        let reached = graph.neighbourhood(&start, out_dir, in_dir, depth);
        let mut out = format!("{label}  {loc}  level={} depth={depth}\n", level.as_str());
        let _ = writeln!(
            out,
            "out: {} dependencies, in: {} dependents (ring 1){}",
            graph.degree(&start, petgraph::Direction::Outgoing),
            graph.degree(&start, petgraph::Direction::Incoming),
            self.guesses_note(store, &start, true)?
        );
        let mut items = Vec::new();
        for r in reached.iter().take(limit) {
            items.push(self.reached_line(store, &graph, r, true)?);
        }
        page(&mut out, &items, reached.len(), None, self.summary_budget, "raise limit, or use level=file/module");
        Ok(out)
    }

    fn reached_line(&self, store: &Store, graph: &Graph, r: &Reached, with_direction: bool) -> Result<String, ToolError> {
        let (label, loc) = self.node_label(store, &r.node)?;
        let edges: Vec<String> = r.edges.iter().map(|(k, w)| format!("{k} {w}")).collect();
        let dir = if with_direction {
            if r.incoming {
                "in "
            } else {
                "out"
            }
        } else {
            ""
        };
        let facts = self.node_facts(store, graph, &r.node)?;
        let via = match &r.via {
            Some(v) => format!("  via {}", self.node_label(store, v)?.0),
            None => String::new(),
        };
        let line = format!("{}{dir} {label}  [{}]  {loc}  {facts}{via}", "  ".repeat(r.distance), edges.join(", "));
        Ok(line.trim_end().replace("    ", "  ").replace("   ", "  "))
    }

    fn dependency_path(&self, store: &Store, a: PathArgs) -> Answer {
        let level = parse_level(a.level.as_deref())?;
        let graph = self.graph(store, level)?;
        let from = self.node(store, &graph, &a.from)?;
        let to = self.node(store, &graph, &a.to)?;
        let (from_label, _) = self.node_label(store, &from)?;
        let (to_label, _) = self.node_label(store, &to)?;
        let Some(hops) = graph.path(&from, &to) else {
            let reverse = graph.path(&to, &from).map(|h| h.len());
            let hint = match reverse {
                Some(n) => format!("; the other way there is a path of {n} hops (dependency_path with from and to swapped)"),
                None => String::new(),
            };
            return Ok(format!("no path: {from_label} does not depend on {to_label} at level={}{hint}", level.as_str()));
        };
        let mut out = format!("{from_label} -> {to_label}: {} hops (level={})\n", hops.len(), level.as_str());
        for h in &hops {
            let path = store.file(h.edge.file)?.map(|f| f.path).unwrap_or_default();
            let (from, to) = (self.node_label(store, &h.from)?.0, self.node_label(store, &h.to)?.0);
            if h.dispatch {
                // Down from an interface to what runs: the implementation's own edge.
                let _ = writeln!(out, "  {from} =[dispatch]=> {to}  ({} at {path}:{})", h.edge.kind, h.edge.line);
            } else {
                let _ = writeln!(out, "  {from} -[{}]-> {to}  at {path}:{}", h.edge.kind, h.edge.line);
            }
        }
        Ok(cap(out.trim_end().to_string(), self.summary_budget))
    }

    fn change_impact(&self, store: &Store, a: ImpactArgs) -> Answer {
        let level = parse_level(a.level.as_deref())?;
        let depth = clamp_checked(a.depth, 3, 1, 10, "depth")?;
        let limit = clamp(a.limit, 50, 1, 200);
        let graph = self.graph(store, level)?;
        if let Some(spec) = a.target.trim().strip_prefix("git:") {
            return self.git_impact(store, &graph, spec.trim(), depth, limit);
        }
        // A member (method, field) at symbol level: its own references first, not its type's.
        let member = match level {
            Level::Symbol => match self.resolve(store, &a.target)? {
                Handle::Symbol(s) if !s.kind.is_type() && s.parent.is_some() && s.kind != SymbolKind::Module => Some(s),
                _ => None,
            },
            _ => None,
        };
        let (label, loc, reached, guesses) = match member {
            Some(s) => {
                let reached = self.member_impact(store, &graph, &s, depth)?;
                let guesses = self.guesses_of(store, &[s.id], &[s.file_id], false)?;
                (format!("{} {}", s.kind, s.signature_handle()), location(&s), reached, guesses)
            }
            None => {
                let target = self.node(store, &graph, &a.target)?;
                let (label, loc) = self.node_label(store, &target)?;
                let guesses = self.guesses_note(store, &target, false)?;
                (label, loc, graph.impact(std::slice::from_ref(&target), depth), guesses)
            }
        };
        let mut tests = 0;
        let mut by_distance: Vec<(usize, usize)> = Vec::new();
        let mut items = Vec::new();
        let test_nodes = self.test_nodes(store, &reached)?;
        for r in &reached {
            let test = test_nodes.contains(&r.node);
            tests += test as usize;
            match by_distance.last_mut() {
                Some((d, n)) if *d == r.distance => *n += 1,
                _ => by_distance.push((r.distance, 1)),
            }
            if items.len() < limit {
                let mut line = self.reached_line(store, &graph, r, false)?;
                if test {
                    line.push_str("  [test]");
                }
                items.push(format!("d{} {}", r.distance, line.trim_start()));
            }
        }
        let rings: Vec<String> = by_distance.iter().map(|(d, n)| format!("d{d}: {n}")).collect();
        let mut out = format!(
            "change_impact {label}  {loc}  level={} depth={depth}\naffected: {} ({}); tests: {tests}{guesses}\n",
            level.as_str(),
            reached.len(),
            if rings.is_empty() { "nothing depends on it".to_string() } else { rings.join(", ") }
        );
        page(&mut out, &items, reached.len(), None, self.summary_budget, "raise limit, lower depth, or use level=file/module");
        Ok(out)
    }

    /// `; name-only guesses left out: ...` for a symbol-level node (its type and members), or
    /// nothing: a guess is never an edge, and the answer says how many it did not count.
    fn guesses_note(&self, store: &Store, node: &Node, both: bool) -> Result<String, ToolError> {
        let Node::Symbol(id) = node else { return Ok(String::new()) };
        let Some(s) = store.symbol(*id)? else { return Ok(String::new()) };
        let (mut ids, mut files) = (vec![s.id], vec![s.file_id]);
        let mut i = 0;
        while i < ids.len() && ids.len() < 2_000 {
            for (member, file) in store.member_ids(ids[i])? {
                ids.push(member);
                if !files.contains(&file) {
                    files.push(file);
                }
            }
            i += 1;
        }
        self.guesses_of(store, &ids, &files, both)
    }

    fn guesses_of(&self, store: &Store, ids: &[i64], files: &[i64], both: bool) -> Result<String, ToolError> {
        let (from, to) = store.guesses_around(ids, files)?;
        Ok(match (both, from, to) {
            (true, 0, 0) | (false, _, 0) => String::new(),
            (true, from, to) => format!("; name-only guesses left out: out {from}, in {to} (find_references lists them)"),
            (false, _, 1) => "; 1 name-only guess left out (find_references lists it)".to_string(),
            (false, _, to) => format!("; {to} name-only guesses left out (find_references lists them)"),
        })
    }

    /// What a change to a member reaches: ring 1 is what references the member itself, or a
    /// method it implements or overrides (a call through the interface reaches it: marked
    /// `via`); further rings are the type graph's impact of ring 1.
    fn member_impact(&self, store: &Store, graph: &Graph, s: &SymbolInfo, depth: usize) -> Result<Vec<Reached>, ToolError> {
        let overridden = self.overridden(store, s)?;
        let mut ids = vec![s.id];
        ids.extend(overridden.iter().map(|o| o.id));
        let mut ring: Vec<Reached> = Vec::new();
        for row in store.reference_sources(&ids)? {
            let Some(node) = row.source.and_then(|src| graph.node_of_symbol(src)) else { continue };
            let via = (row.target != s.id).then_some(Node::Symbol(row.target));
            match ring.iter_mut().find(|r| r.node == node) {
                Some(r) => {
                    r.edges.push((row.kind, row.count));
                    // Reached directly if any of its references is direct.
                    if via.is_none() {
                        r.via = None;
                    }
                }
                None => ring.push(Reached { node, distance: 1, edges: vec![(row.kind, row.count)], via, incoming: true }),
            }
        }
        for r in &mut ring {
            crate::graph::merge_kinds(&mut r.edges);
        }
        ring.sort_by(|a, b| a.via.is_some().cmp(&b.via.is_some()).then_with(|| a.node.cmp(&b.node)));
        let starts: Vec<Node> = ring.iter().map(|r| r.node.clone()).collect();
        let mut reached = ring;
        if depth > 1 {
            for mut r in graph.impact(&starts, depth - 1) {
                r.distance += 1;
                reached.push(r);
            }
        }
        Ok(reached)
    }

    /// The methods a method implements or overrides: same name and parameters in the types
    /// its type extends or implements, however far up.
    fn overridden(&self, store: &Store, s: &SymbolInfo) -> Result<Vec<SymbolInfo>, ToolError> {
        let mut out = Vec::new();
        let Some(owner) = s.parent.filter(|_| s.kind.is_callable()) else {
            return Ok(out);
        };
        let mut seen = HashSet::from([owner]);
        let mut queue = VecDeque::from([owner]);
        while let Some(t) = queue.pop_front() {
            for up in store.supertype_ids(t)? {
                if !seen.insert(up) {
                    continue;
                }
                queue.push_back(up);
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

    /// `change_impact` of the working tree's changes against `HEAD` (`working-tree`) or a
    /// revision: the changed symbols (innermost declarations overlapping changed lines),
    /// then what depends on them, then the test files among both.
    fn git_impact(&self, store: &Store, graph: &Graph, spec: &str, depth: usize, limit: usize) -> Answer {
        let (base, against) = match spec {
            "" => return fail("git: needs a revision: git:working-tree (uncommitted changes) or git:<rev> (changes since a revision)"),
            "working-tree" | "worktree" | "HEAD" => (crate::gitdiff::Base::Head, "HEAD".to_string()),
            rev => (crate::gitdiff::Base::Rev(rev), rev.to_string()),
        };
        let files = store.files_under("")?;
        let paths: Vec<String> = files.iter().map(|f| f.path.clone()).collect();
        let tracked = |p: &str| crate::lang::for_path(p).is_some();
        let changes = crate::gitdiff::changes(&self.root, base, &paths, &tracked).map_err(|e| ToolError(format!("git: {e:#}")))?;
        let by_path: HashMap<&str, &FileInfo> = files.iter().map(|f| (f.path.as_str(), f)).collect();
        let mut nodes: Vec<Node> = Vec::new();
        let mut changed_items = Vec::new();
        let mut tests: std::collections::BTreeSet<String> = Default::default();
        for c in &changes {
            let letter = c.kind.letter();
            let Some(file) = by_path.get(c.path.as_str()) else {
                changed_items.push(format!("  {letter} {}  (deleted: what used it now has unresolved references)", c.path));
                continue;
            };
            if is_test_path(&file.path) {
                tests.insert(file.path.clone());
            }
            let ranges: Vec<String> = c.lines.iter().map(|(a, b)| if a == b { a.to_string() } else { format!("{a}-{b}") }).collect();
            match graph.level {
                Level::File => {
                    nodes.push(Node::File(file.id));
                    changed_items.push(format!("  {letter} {}:{}", file.path, ranges.join(",")));
                }
                Level::Module => {
                    nodes.push(Node::Module(file.module.clone()));
                    changed_items.push(format!("  {letter} {}:{}  module {}", file.path, ranges.join(","), file.module));
                }
                Level::Symbol => {
                    let symbols = store.file_symbols(file.id)?;
                    let overlaps = |s: &SymbolInfo, (a, b): (u32, u32)| s.start_line <= b && s.end_line >= a;
                    let mut hit: Vec<&SymbolInfo> = Vec::new();
                    if c.kind == crate::gitdiff::ChangeKind::Added {
                        // A new file: its outermost declarations stand for all of it.
                        hit.extend(symbols.iter().filter(|s| !symbols.iter().any(|p| Some(p.id) == s.parent)));
                    }
                    let ranges_to_map: &[(u32, u32)] = if hit.is_empty() { &c.lines } else { &[] };
                    for &range in ranges_to_map {
                        // The innermost declarations: those without a member also touched.
                        for s in symbols.iter().filter(|s| overlaps(s, range)) {
                            let inner = symbols.iter().any(|o| o.parent == Some(s.id) && overlaps(o, range));
                            if !inner && !hit.iter().any(|h| h.id == s.id) {
                                hit.push(s);
                            }
                        }
                    }
                    if hit.is_empty() {
                        changed_items.push(format!(
                            "  {letter} {}:{}  (no declaration: imports, comments or blank lines)",
                            file.path,
                            ranges.join(",")
                        ));
                    }
                    for s in hit {
                        if let Some(n) = graph.node_of_symbol(s.id) {
                            nodes.push(n);
                        }
                        changed_items.push(format!("  {letter} {} {}  {}", s.kind, s.qname, location(s)));
                    }
                }
            }
        }
        nodes.sort();
        nodes.dedup();
        let reached = graph.impact(&nodes, depth);
        let test_nodes = self.test_nodes(store, &reached)?;
        let mut by_distance: Vec<(usize, usize)> = Vec::new();
        let mut items = Vec::new();
        for r in &reached {
            if test_nodes.contains(&r.node) {
                if let Some(path) = self.node_path(store, &r.node)? {
                    tests.insert(path);
                }
            }
            match by_distance.last_mut() {
                Some((d, n)) if *d == r.distance => *n += 1,
                _ => by_distance.push((r.distance, 1)),
            }
            if items.len() < limit {
                items.push(format!("d{} {}", r.distance, self.reached_line(store, graph, r, false)?.trim_start()));
            }
        }
        let mut out = format!(
            "change_impact git:{spec} (working tree against {against})  level={} depth={depth}
",
            graph.level.as_str()
        );
        if changes.is_empty() {
            out.push_str("no changes to indexed files");
            return Ok(out);
        }
        let count = |k: crate::gitdiff::ChangeKind| changes.iter().filter(|c| c.kind == k).count();
        use crate::gitdiff::ChangeKind::{Added, Deleted, Modified};
        let _ = writeln!(
            out,
            "changed: {} (M {}, A {}, D {}), {}",
            plural(changes.len(), "file"),
            count(Modified),
            count(Added),
            count(Deleted),
            plural(nodes.len(), graph.level.as_str())
        );
        let half = self.summary_budget / 2;
        page(&mut out, &changed_items, changed_items.len(), None, half, "");
        let rings: Vec<String> = by_distance.iter().map(|(d, n)| format!("d{d}: {n}")).collect();
        let _ = write!(
            out,
            "\naffected: {} ({}); tests: {}\n",
            reached.len(),
            if rings.is_empty() { "nothing depends on them".to_string() } else { rings.join(", ") },
            tests.len()
        );
        let test_lines: Vec<String> = tests.iter().map(|t| format!("  {t}")).collect();
        let room = self.summary_budget - (test_lines.iter().map(|t| t.len() + 1).sum::<usize>() + 40).min(half / 2);
        page(&mut out, &items, reached.len(), None, room, "raise limit, lower depth, or use level=file/module");
        if !tests.is_empty() {
            out.push_str("\ntests to run:\n");
            page(&mut out, &test_lines, test_lines.len(), None, self.summary_budget, "");
        }
        Ok(cap(out, self.summary_budget))
    }

    /// The file a node lives in, if it is a symbol or a file.
    fn node_path(&self, store: &Store, node: &Node) -> Result<Option<String>, ToolError> {
        Ok(match node {
            Node::Symbol(id) => store.symbol(*id)?.map(|s| s.path),
            Node::File(id) => store.file(*id)?.map(|f| f.path),
            _ => None,
        })
    }

    /// The reached nodes that are tests (by path, or Rust `tests` modules), read in one query.
    fn test_nodes(&self, store: &Store, reached: &[Reached]) -> Result<HashSet<Node>, ToolError> {
        let mut out = HashSet::new();
        let symbol_ids: Vec<i64> = reached.iter().filter_map(|r| if let Node::Symbol(id) = r.node { Some(id) } else { None }).collect();
        let tests = self.test_symbols(store)?;
        out.extend(symbol_ids.into_iter().filter(|id| tests.contains(id)).map(Node::Symbol));
        if reached.iter().any(|r| matches!(r.node, Node::File(_))) {
            for f in store.files_under("")? {
                if is_test_path(&f.path) {
                    out.insert(Node::File(f.id));
                }
            }
        }
        Ok(out)
    }

    // ------------------------------------------------------------ tier 2

    fn search_symbols(&self, store: &Store, a: SearchArgs) -> Answer {
        let query = a.query.trim();
        if query.is_empty() {
            return fail("query is empty");
        }
        let limit = clamp(a.limit, 20, 1, 100);
        let offset = a.offset.unwrap_or(0) as usize;
        let kind = match &a.kind {
            Some(k) => Some(SymbolKind::parse(k).ok_or_else(|| {
                ToolError(format!("unknown kind {k:?}; kinds: {}", SymbolKind::all().map(|k| k.as_str()).collect::<Vec<_>>().join(", ")))
            })?),
            None => None,
        };
        if let Some(l) = &a.language {
            if crate::model::Language::parse(l).is_none() {
                return fail(format!("unknown language {l:?}; languages: java, rust"));
            }
        }
        let prefix = match &a.path {
            Some(p) => normalize_path(p)?,
            None => String::new(),
        };
        // Each ranking contributes its top 100: deeper ranks barely move the fused order.
        const DEPTH: usize = 100;
        let simple = crate::model::last_segment(query);
        // (weight, ranked ids): exact names count most, doc words least.
        let mut lists: Vec<(f64, Vec<i64>)> = Vec::new();
        lists.push((4.0, store.symbols_by_qname(query)?.into_iter().map(|s| s.id).collect()));
        lists.push((4.0, store.names_like(simple, false, DEPTH)?));
        lists.push((2.0, store.names_like(simple, true, DEPTH)?));
        let words = fts_words(query);
        if !words.is_empty() {
            // Every word of the query in the name or its owner's name (`hashmap resize`).
            let tokens: Vec<String> = query
                .split(|c: char| !c.is_alphanumeric())
                .filter(|t| !t.is_empty())
                .map(|t| format!("{{words owner}} : \"{}\"", t.to_lowercase()))
                .collect();
            if tokens.len() > 1 {
                lists.push((3.0, store.fts_query(&tokens.join(" AND "), DEPTH)?));
            }
            lists.push((1.5, store.fts("words", &words, DEPTH)?));
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
        lists.push((1.0, store.ids_by_names(&fuzzy_names, DEPTH)?));
        if !words.is_empty() {
            lists.push((0.5, store.fts("doc", &words, DEPTH)?));
        }
        // Reciprocal rank fusion.
        let mut score: HashMap<i64, f64> = HashMap::new();
        for (weight, list) in &lists {
            let mut seen = HashSet::new();
            for (rank, id) in list.iter().filter(|id| seen.insert(**id)).enumerate() {
                *score.entry(*id).or_default() += weight / (60.0 + rank as f64);
            }
        }
        let mut ranked: Vec<(f64, SymbolInfo)> = Vec::new();
        let ids: Vec<i64> = score.keys().copied().collect();
        for sym in store.symbols_by_ids(&ids)? {
            let s = score[&sym.id];
            if kind.is_some_and(|k| k != sym.kind)
                || a.language.as_deref().is_some_and(|l| l != sym.language)
                || !sym.path.starts_with(&prefix)
            {
                continue;
            }
            ranked.push((s, sym));
        }
        ranked.sort_by(|a, b| {
            b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal).then(a.1.qname.cmp(&b.1.qname)).then(a.1.id.cmp(&b.1.id))
        });
        let total = ranked.len();
        if total == 0 {
            return Ok(format!("no symbols match {query:?}; try fewer words, search_text for text in files, or repo_overview"));
        }
        let mut out = format!("{total} symbol{} match {query:?}\n", if total == 1 { "" } else { "s" });
        let items: Vec<String> = ranked
            .iter()
            .skip(offset)
            .take(limit)
            .map(|(_, s)| format!("  {} {}  {}  {}", s.kind, s.qname, location(s), s.signature))
            .collect();
        page(&mut out, &items, total, Some(offset), self.summary_budget, "");
        Ok(out)
    }

    fn get_symbol(&self, store: &Store, a: SymbolArgs) -> Answer {
        let s = match self.resolve(store, &a.symbol)? {
            Handle::Symbol(s) => s,
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
        let mut out = format!("{} {}\n  at {}\n", s.kind, s.qname, location(&s));
        if !s.signature.is_empty() {
            let _ = writeln!(out, "  signature: {}", s.signature);
        }
        let _ = writeln!(
            out,
            "  visibility: {}{}",
            s.visibility,
            if s.modifiers.is_empty() { String::new() } else { format!("  modifiers: {}", s.modifiers) }
        );
        if !s.doc.is_empty() {
            let _ = writeln!(out, "  doc: {}", s.doc);
        }
        let parent = match s.parent {
            Some(p) => store.symbol(p)?.map(|p| format!("{} {}", p.kind, p.qname)).unwrap_or_default(),
            None => format!("module {}", store.file(s.file_id)?.map(|f| f.module).unwrap_or_default()),
        };
        let _ = writeln!(out, "  parent: {parent}");
        let supers = store.supertypes(s.id)?;
        if !supers.is_empty() {
            let list: Vec<String> =
                supers.iter().map(|(n, k, internal)| format!("{n} ({k}{})", if *internal { "" } else { ", external" })).collect();
            let _ = writeln!(out, "  supertypes: {}", list.join(", "));
        }
        let counts = store.reference_counts(Target::Symbol(s.id))?;
        let impls = self.implementations(store, &s, false)?;
        let _ = writeln!(out, "  references: {}  implementations: {}", format_counts(&counts), impls.len());
        let members = store.children(s.id)?;
        if !members.is_empty() {
            let _ = writeln!(out, "  members ({}):", members.len());
            let items: Vec<String> = members.iter().map(|m| format!("    {} {}  {}", m.kind, m.name, lines_of(m))).collect();
            page(&mut out, &items, members.len(), None, self.summary_budget, "file_outline shows them all");
        } else {
            out.push_str(&format!("next: read_symbol {{\"symbol\": \"{}\"}}", handle_of(&s)));
        }
        Ok(cap(out.trim_end().to_string(), self.summary_budget))
    }

    /// Types implementing/extending a type, or methods implementing a method:
    /// (symbol, depth, how).
    fn implementations(&self, store: &Store, s: &SymbolInfo, transitive: bool) -> Result<Vec<(SymbolInfo, usize, RefKind)>, ToolError> {
        let (root, member) = if s.kind.is_type() {
            (Target::Symbol(s.id), None)
        } else if s.kind.is_callable() {
            match s.parent {
                Some(p) => (Target::Symbol(p), Some(s.name.clone())),
                None => return Ok(Vec::new()),
            }
        } else {
            return Ok(Vec::new());
        };
        self.subtypes(store, root, member.as_deref(), transitive)
    }

    fn subtypes(
        &self,
        store: &Store,
        root: Target,
        member: Option<&str>,
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
                    Some(name) => {
                        for m in store.children(id)?.into_iter().filter(|m| m.name == name && m.kind.is_callable()) {
                            out.push((m, depth + 1, how));
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    fn find_implementations(&self, store: &Store, a: ImplArgs) -> Answer {
        let transitive = a.transitive.unwrap_or(false);
        let limit = clamp(a.limit, 50, 1, 500);
        let (label, found, target) = match self.resolve(store, &a.symbol)? {
            Handle::Symbol(s) => {
                if !s.kind.is_type() && !s.kind.is_callable() {
                    return fail(format!("{} is a {}; find_implementations takes a type or a method", s.qname, s.kind));
                }
                let target = s.kind.is_type().then_some(Target::Symbol(s.id));
                (format!("{} {}", s.kind, s.qname), self.implementations(store, &s, transitive)?, target)
            }
            Handle::External(id, q) => {
                (format!("external {q}"), self.subtypes(store, Target::External(id), None, transitive)?, Some(Target::External(id)))
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
        let mut items: Vec<String> = found
            .iter()
            .take(limit)
            .map(|(s, depth, how)| {
                format!(
                    "  {}{} {}  {}  ({how})",
                    if transitive { format!("d{depth} ") } else { String::new() },
                    s.kind,
                    s.qname,
                    location(s)
                )
            })
            .collect();
        for (path, line, subject, blanket) in &elsewhere {
            let depth = if transitive { "d1 " } else { "" };
            let what = if *blanket {
                format!("blanket impl for {subject}")
            } else {
                format!("impl for {subject} (declared outside the repository)")
            };
            items.push(format!("  {depth}{what}  {path}:{line}"));
        }
        items.truncate(limit);
        page(&mut out, &items, total, None, self.summary_budget, "raise limit");
        Ok(out)
    }

    fn find_references(&self, store: &Store, a: RefsArgs) -> Answer {
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
        let mut via: HashMap<i64, String> = HashMap::new();
        let mut dispatch_note = String::new();
        // Symbols whose references are listed with the target's: a type's constructors, or
        // the methods a method implements or overrides.
        let (label, target, also) = match self.resolve(store, &a.symbol)? {
            // A type's references include its constructors' (`new T(...)` names the constructor).
            Handle::Symbol(s) if s.kind.is_type() => {
                let constructors: Vec<i64> =
                    store.children(s.id)?.into_iter().filter(|c| c.kind == crate::model::SymbolKind::Constructor).map(|c| c.id).collect();
                (format!("{} {}", s.kind, s.qname), Target::Symbol(s.id), constructors)
            }
            // A method's references include the calls made through the methods it implements
            // or overrides (marked `via`): Spring controllers call `OrderService#create`, not
            // `OrderServiceImpl#create`.
            Handle::Symbol(s) if s.kind.is_callable() => {
                let overridden = self.overridden(store, &s)?;
                for o in &overridden {
                    via.insert(o.id, o.signature_handle());
                }
                let reach = self.implementations(store, &s, true)?.into_iter().filter(|(m, _, _)| m.params == s.params).count();
                if reach > 0 {
                    dispatch_note = format!(
                        "calls may reach {}: find_implementations {{\"symbol\": \"{}\"}}\n",
                        plural(reach, "implementation"),
                        s.signature_handle()
                    );
                }
                (format!("{} {}", s.kind, s.signature_handle()), Target::Symbol(s.id), overridden.iter().map(|o| o.id).collect())
            }
            Handle::Symbol(s) => (format!("{} {}", s.kind, s.qname), Target::Symbol(s.id), Vec::new()),
            Handle::External(id, q) => (format!("external {q}"), Target::External(id), Vec::new()),
        };
        let crate::store::ReferencePage { refs, total, counts } = store.references(target, &also, &kinds, limit, offset)?;
        if total == 0 {
            return Ok(format!(
                "no references to {label} (kind={}); all kinds: {}",
                a.kind.as_deref().unwrap_or("all"),
                format_counts(&counts)
            ));
        }
        let mut out = format!("{} to {label} ({})\n{dispatch_note}", plural(total, "reference"), format_counts(&counts));
        // (row, references it stands for): references of one kind on one line in one
        // symbol (`Map<String, String>`) are one row, counted; paging still counts references.
        let mut items: Vec<(String, usize)> = Vec::new();
        let mut last_path = String::new();
        for (i, r) in refs.iter().enumerate() {
            let same = |o: &crate::store::RefInfo| {
                (&o.path, o.line, o.kind, &o.enclosing, o.confidence, o.target)
                    == (&r.path, r.line, r.kind, &r.enclosing, r.confidence, r.target)
            };
            if i > 0 && same(&refs[i - 1]) {
                continue;
            }
            let n = 1 + refs[i + 1..].iter().take_while(|o| same(o)).count();
            let mut line = String::new();
            if r.path != last_path {
                let _ = writeln!(line, "{}", r.path);
                last_path = r.path.clone();
            }
            let _ = write!(line, "  {} {}", r.line, r.kind);
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
            items.push((line, n));
        }
        page_counted(&mut out, items.iter().map(|(line, n)| (line.as_str(), *n)), total, Some(offset), self.summary_budget, "");
        Ok(out)
    }

    fn file_outline(&self, store: &Store, a: PathOnlyArgs) -> Answer {
        let mut file = self.indexed_file(store, &a.path)?;
        if self.refresh(&file) {
            file = self.indexed_file(store, &a.path)?;
        }
        let symbols = store.file_symbols(file.id)?;
        let total_lines = std::fs::read_to_string(self.root.join(&file.path)).map(|t| t.lines().count()).unwrap_or(0);
        let mut out = format!(
            "{} ({}, {total_lines} lines, {} {}{})\n",
            file.path,
            file.language,
            if file.language == "java" { "package" } else { "module" },
            if file.module.is_empty() { "(default)" } else { &file.module },
            if file.parse_errors > 0 { format!(", {} syntax errors", file.parse_errors) } else { String::new() }
        );
        let mut depth: HashMap<i64, usize> = HashMap::new();
        let mut items = Vec::new();
        for s in &symbols {
            let d = s.parent.and_then(|p| depth.get(&p).map(|d| d + 1)).unwrap_or(0);
            depth.insert(s.id, d);
            items.push(format!("{}{} {}  {}  {}", "  ".repeat(d + 1), s.kind, s.name, lines_of(s), s.signature));
        }
        if items.is_empty() {
            out.push_str("  (no symbols)");
            return Ok(out);
        }
        page(&mut out, &items, items.len(), None, self.summary_budget, "get_symbol on a type lists its members");
        Ok(out)
    }

    // ------------------------------------------------------------ tier 3

    fn indexed_file(&self, store: &Store, path: &str) -> Result<FileInfo, ToolError> {
        let path = normalize_path(path)?;
        match store.file_by_path(&path)? {
            Some(f) => Ok(f),
            None => {
                let name = path.rsplit('/').next().unwrap_or(&path);
                let similar: Vec<String> = store
                    .files_under("")?
                    .into_iter()
                    .filter(|f| f.path.ends_with(&format!("/{name}")) || f.path == name)
                    .map(|f| f.path)
                    .take(5)
                    .collect();
                if similar.is_empty() {
                    fail(format!(
                        "no indexed file {path:?}; paths are relative to the repository root (search_symbols or repo_overview find them)"
                    ))
                } else {
                    fail(format!("no indexed file {path:?}; did you mean: {}", similar.join(", ")))
                }
            }
        }
    }

    /// The file's text, read only if it is an indexed file inside the root.
    fn read_file(&self, file: &FileInfo) -> Result<String, ToolError> {
        let root = self.root.canonicalize()?;
        let full = root
            .join(&file.path)
            .canonicalize()
            .map_err(|_| ToolError(format!("{} cannot be read (deleted or moved since indexing)", file.path)))?;
        if !full.starts_with(&root) {
            return fail(format!("{} resolves outside the repository; refused", file.path));
        }
        let bytes = std::fs::read(&full).map_err(|e| ToolError(format!("{}: {}", file.path, e.kind())))?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    fn numbered(&self, file: &FileInfo, text: &str, start: u32, end: u32, what: &str) -> Answer {
        let lines: Vec<&str> = text.lines().collect();
        let total = lines.len() as u32;
        if total == 0 {
            return Ok(format!("{} is empty", file.path));
        }
        if start == 0 || start > total || end < start {
            return fail(format!("invalid range {start}-{end}: {} has lines 1-{total}; start_line <= end_line", file.path));
        }
        let end = end.min(total);
        let width = end.to_string().len();
        // File text is data: it goes inside a fence longer than any run of backticks in it,
        // so nothing in the file can close the block and speak as the answer.
        let fence = fence_for(&lines[(start - 1) as usize..end as usize]);
        let mut out = format!("{}:{start}-{end} of {total} lines{what}\n{fence}\n", file.path);
        let mut last = start - 1;
        for n in start..=end {
            let line = lines[(n - 1) as usize];
            let row = format!("{n:>width$}| {line}\n");
            if out.len() + row.len() + FOOTER_ROOM > self.read_budget || (n - start) as usize >= READ_LINES {
                break;
            }
            out.push_str(&row);
            last = n;
        }
        out.push_str(&fence);
        if last < end {
            let _ = write!(out, "\ncut at line {last} (budget {READ_LINES} lines / {} bytes); next: read_source {{\"path\": \"{}\", \"start_line\": {}, \"end_line\": {end}}}", self.read_budget, file.path, last + 1);
        }
        Ok(out)
    }

    fn read_source(&self, store: &Store, a: ReadArgs) -> Answer {
        let mut file = self.indexed_file(store, &a.path)?;
        if self.refresh(&file) {
            file = self.indexed_file(store, &a.path)?;
        }
        let text = self.read_file(&file)?;
        self.numbered(&file, &text, a.start_line, a.end_line, "")
    }

    fn read_symbol(&self, store: &Store, a: ReadSymbolArgs) -> Answer {
        let mut s = self.resolve_symbol(store, &a.symbol)?;
        let mut file = store.file(s.file_id)?.ok_or_else(|| ToolError("file vanished from the index".into()))?;
        if self.refresh(&file) {
            s = self.resolve_symbol(store, &a.symbol)?;
            file = store.file(s.file_id)?.ok_or_else(|| ToolError("file vanished from the index".into()))?;
        }
        let text = self.read_file(&file)?;
        let context = a.context_lines.unwrap_or(0).min(50);
        let start = s.start_line.saturating_sub(context).max(1);
        let end = s.end_line.saturating_add(context);
        self.numbered(&file, &text, start, end, &format!(" ({} {})", s.kind, s.qname))
    }

    fn search_text(&self, store: &Store, a: TextArgs) -> Answer {
        use grep_regex::RegexMatcherBuilder;
        use grep_searcher::{sinks, SearcherBuilder};
        if a.query.is_empty() {
            return fail("query is empty");
        }
        let limit = clamp(a.limit, 50, 1, 500);
        let matcher = RegexMatcherBuilder::new()
            .case_insensitive(!a.case_sensitive.unwrap_or(false))
            .fixed_strings(!a.regex.unwrap_or(false))
            .size_limit(1 << 20)
            .dfa_size_limit(1 << 22)
            .build(&a.query)
            .map_err(|e| ToolError(format!("invalid regex: {e}")))?;
        let prefix = match &a.path {
            Some(p) => normalize_path(p)?,
            None => String::new(),
        };
        let files = store.files_under(&prefix)?;
        let root = self.root.canonicalize()?;
        let mut searcher = SearcherBuilder::new().line_number(true).build();
        let mut hits: Vec<String> = Vec::new();
        let mut total = 0usize;
        for f in &files {
            let full = root.join(&f.path);
            let _ = searcher.search_path(
                &matcher,
                &full,
                sinks::Lossy(|line, text| {
                    total += 1;
                    if hits.len() < limit {
                        let text = text.trim_end();
                        let text: String =
                            if text.chars().count() > 200 { text.chars().take(199).chain(['…']).collect() } else { text.to_string() };
                        hits.push(format!("{}:{line}: {text}", f.path));
                    }
                    Ok(total < 100_000)
                }),
            );
        }
        if total == 0 {
            return Ok(format!("no lines match {:?} in {} indexed files", a.query, files.len()));
        }
        let header = format!("{total} matching lines for {:?} in {} files searched\n", a.query, files.len());
        let fence = fence_for(&hits.iter().map(String::as_str).collect::<Vec<_>>());
        let mut body = String::new();
        page(&mut body, &hits, total, None, self.summary_budget - header.len() - 2 * fence.len() - 4, "narrow with path, or raise limit");
        // The lines found are data, fenced; the closing remark stays outside the fence.
        let (items, footer) = match body.rfind("\n... ") {
            Some(i) => (&body[..i], &body[i..]),
            None if body.starts_with("... ") => ("", body.as_str()),
            None => (body.as_str(), ""),
        };
        Ok(format!("{header}{fence}\n{items}\n{fence}{footer}"))
    }
}

fn parse<T: DeserializeOwned>(args: Value) -> Result<T, ToolError> {
    serde_json::from_value(args).map_err(|e| ToolError(format!("invalid arguments: {e}")))
}

fn parse_level(level: Option<&str>) -> Result<Level, ToolError> {
    let level = level.unwrap_or("symbol");
    Level::parse(level).ok_or_else(|| ToolError(format!("level must be symbol, file or module (got {level:?})")))
}

fn clamp(v: Option<u32>, default: usize, min: usize, max: usize) -> usize {
    v.map(|v| v as usize).unwrap_or(default).clamp(min, max)
}

fn clamp_checked(v: Option<u32>, default: usize, min: usize, max: usize, name: &str) -> Result<usize, ToolError> {
    let v = v.map(|v| v as usize).unwrap_or(default);
    if v < min || v > max {
        return fail(format!("{name} must be between {min} and {max} (got {v})"));
    }
    Ok(v)
}

/// A path argument as stored: relative, `/`-separated, no `./`. Absolute paths, `..`,
/// URLs, NUL bytes and paths into `.git`/`.codeatlas` are refused.
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
            ".git" | store::INDEX_DIR => return fail(format!("{path:?} is inside {part}/, which is not readable")),
            _ => parts.push(part),
        }
    }
    Ok(parts.join("/"))
}

/// `1 file`, `2 files`.
pub fn plural(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// One distinct symbol name as the fuzzy pass reads it.
struct NameEntry {
    lower: String,
    name: String,
    /// `char_mask` of `lower`.
    mask: u64,
    ascii: bool,
}

/// The optimal string alignment distance of two ASCII strings, on the stack for names up
/// to 63 bytes (strsim allocates three rows per call; the fuzzy pass makes thousands).
fn osa_distance_ascii(a: &[u8], b: &[u8]) -> usize {
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
fn within_one_edit(a: &[u8], b: &[u8]) -> bool {
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
fn char_mask(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0u64, |m, &b| {
        m | match b {
            b'a'..=b'z' => 1 << (b - b'a'),
            b'0'..=b'9' => 1 << (26 + b - b'0'),
            _ => 1 << 63,
        }
    })
}

/// A code fence longer than any run of backticks in `lines` (at least three).
fn fence_for(lines: &[&str]) -> String {
    let mut longest = 0;
    for line in lines {
        let mut run = 0;
        for c in line.chars() {
            run = if c == '`' { run + 1 } else { 0 };
            longest = longest.max(run);
        }
    }
    "`".repeat((longest + 1).max(3))
}

/// Appends list items while the budget allows, then a line saying what was cut.
/// `offset` is the tool's `offset` argument, for tools that page with one.
fn page(out: &mut String, items: &[String], total: usize, offset: Option<usize>, budget: usize, hint: &str) {
    page_counted(out, items.iter().map(|item| (item.as_str(), 1)), total, offset, budget, hint);
}

/// `page` for rows that stand for several items each: (row, how many).
fn page_counted<'a>(
    out: &mut String,
    items: impl IntoIterator<Item = (&'a str, usize)>,
    total: usize,
    offset: Option<usize>,
    budget: usize,
    hint: &str,
) {
    let paged = offset.is_some();
    let offset = offset.unwrap_or(0);
    let mut shown = 0;
    for (item, n) in items {
        if out.len() + item.len() + 1 + FOOTER_ROOM > budget {
            break;
        }
        out.push_str(item);
        out.push('\n');
        shown += n;
    }
    let remaining = total.saturating_sub(offset + shown);
    if remaining > 0 {
        if paged {
            let _ = write!(out, "... {remaining} more; next page: offset={}", offset + shown);
        } else {
            let _ = write!(out, "... {remaining} more not shown");
        }
        if !hint.is_empty() {
            let _ = write!(out, " ({hint})");
        }
    }
    while out.ends_with('\n') {
        out.pop();
    }
}

/// Cuts a free-form answer at its budget, on a line boundary.
fn cap(mut text: String, budget: usize) -> String {
    if text.len() <= budget {
        return text;
    }
    let mut cut = budget - FOOTER_ROOM;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let cut = text[..cut].rfind('\n').unwrap_or(cut);
    text.truncate(cut);
    text.push_str("\n... cut at the answer budget");
    text
}

fn location(s: &SymbolInfo) -> String {
    format!("{}:{}", s.path, lines_of(s))
}

fn lines_of(s: &SymbolInfo) -> String {
    if s.start_line == s.end_line {
        s.start_line.to_string()
    } else {
        format!("{}-{}", s.start_line, s.end_line)
    }
}

fn handle_of(s: &SymbolInfo) -> String {
    format!("{}:{}", s.path, s.start_line)
}

fn format_counts(counts: &[(RefKind, usize)]) -> String {
    if counts.is_empty() {
        return "0".into();
    }
    counts.iter().map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", ")
}

/// Words for an FTS5 query: alphanumeric runs of the query, split like symbol names,
/// each quoted (so no FTS syntax gets through), joined with OR.
fn fts_words(query: &str) -> String {
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

/// What the dependency graphs are built from, by file (edge rows and symbol rows), as of
/// one index (id) and generation.
#[derive(Default)]
struct EdgeCache {
    stamp: Stamp,
    by_file: HashMap<i64, FileRows>,
}

#[derive(Default)]
struct FileRows {
    edges: Box<[CachedEdge]>,
    symbols: Box<[CachedSymbol]>,
}

/// A symbol row as the cache keeps it, its file the key.
#[derive(Clone, Copy)]
struct CachedSymbol {
    id: i64,
    /// -1: no parent.
    parent: i64,
    kind: crate::model::SymbolKind,
}

impl CachedSymbol {
    fn of(row: &SymbolRow) -> CachedSymbol {
        CachedSymbol { id: row.id, parent: row.parent.unwrap_or(-1), kind: row.kind }
    }

    fn row(&self, file: i64) -> SymbolRow {
        SymbolRow { id: self.id, file, parent: (self.parent >= 0).then_some(self.parent), kind: self.kind }
    }
}

/// An edge row as the cache keeps it, its file the key: 32 bytes instead of an `EdgeRow`'s
/// 72 (java.base has 380k rows; the server keeps them).
#[derive(Clone, Copy)]
struct CachedEdge {
    /// -1: no source symbol.
    source: i64,
    /// Negative: an external's id.
    target: i64,
    count: u32,
    line: u32,
    kind: crate::model::RefKind,
}

impl CachedEdge {
    fn of(row: &EdgeRow) -> CachedEdge {
        let target = match (row.target, row.external) {
            (Some(t), _) => t,
            (None, Some(x)) => -x,
            (None, None) => 0,
        };
        CachedEdge { source: row.source.unwrap_or(-1), target, count: row.count, line: row.line, kind: row.kind }
    }

    fn row(&self, file: i64) -> EdgeRow {
        EdgeRow {
            file,
            source: (self.source >= 0).then_some(self.source),
            target: (self.target > 0).then_some(self.target),
            external: (self.target < 0).then_some(-self.target),
            kind: self.kind,
            count: self.count,
            line: self.line,
        }
    }
}

impl EdgeCache {
    /// Brings the rows up to the index at `stamp`: files gone leave, files whose references
    /// or symbols changed since are read again; a different index, or changes in more than a
    /// quarter of the files (and more than 256), mean one read of everything.
    fn refresh(&mut self, store: &Store, stamp: &Stamp, files: &[(FileRow, u64)]) -> Result<(), store::Error> {
        if self.stamp == *stamp {
            return Ok(());
        }
        let since = self.stamp.generation;
        let changed: Vec<i64> = if self.stamp.index_id == stamp.index_id && stamp.generation > since {
            files.iter().filter(|(_, g)| *g > since).map(|(f, _)| f.id).collect()
        } else {
            files.iter().map(|(f, _)| f.id).collect()
        };
        tracing::debug!(changed = changed.len(), files = files.len(), from = since, to = stamp.generation, "edge cache refresh");
        if changed.len() > 256 && changed.len() * 4 > files.len() {
            let mut by_file: HashMap<i64, (Vec<CachedEdge>, Vec<CachedSymbol>)> = HashMap::default();
            for row in store.graph_edges(None)? {
                by_file.entry(row.file).or_default().0.push(CachedEdge::of(&row));
            }
            for row in store.graph_symbols(None)? {
                by_file.entry(row.file).or_default().1.push(CachedSymbol::of(&row));
            }
            self.by_file = by_file
                .into_iter()
                .map(|(file, (edges, symbols))| (file, FileRows { edges: edges.into_boxed_slice(), symbols: symbols.into_boxed_slice() }))
                .collect();
        } else {
            let present: HashSet<i64> = files.iter().map(|(f, _)| f.id).collect();
            self.by_file.retain(|f, _| present.contains(f));
            for file in changed {
                let edges: Box<[CachedEdge]> = store.graph_edges(Some(file))?.iter().map(CachedEdge::of).collect();
                let symbols: Box<[CachedSymbol]> = store.graph_symbols(Some(file))?.iter().map(CachedSymbol::of).collect();
                if edges.is_empty() && symbols.is_empty() {
                    self.by_file.remove(&file);
                } else {
                    self.by_file.insert(file, FileRows { edges, symbols });
                }
            }
        }
        self.stamp = stamp.clone();
        Ok(())
    }
}

/// A value derived from the index, kept until the index's generation changes.
fn per_generation<T>(
    store: &Store,
    slot: &Mutex<Option<(Stamp, Arc<T>)>>,
    build: impl FnOnce() -> Result<T, ToolError>,
) -> Result<Arc<T>, ToolError> {
    let stamp = store.stamp()?;
    let mut cache = slot.lock().expect("cache lock");
    if let Some((s, value)) = cache.as_ref() {
        if *s == stamp {
            return Ok(value.clone());
        }
    }
    let value = Arc::new(build()?);
    *cache = Some((stamp, value.clone()));
    Ok(value)
}

fn is_test_path(path: &str) -> bool {
    let lower = path.to_lowercase();
    let name = lower.rsplit('/').next().unwrap_or(&lower);
    lower.starts_with("test/")
        || lower.starts_with("tests/")
        || lower.contains("/test/")
        || lower.contains("/tests/")
        || name.ends_with("test.java")
        || name.ends_with("tests.java")
        || name.ends_with("it.java")
        || name.ends_with("_test.rs")
}

/// Branch points in source lines: `if`, loops, `case`/match arms, `catch`, `&&`, `||`, `?`.
fn count_branches(lines: &[&str]) -> usize {
    let mut n = 0;
    for line in lines {
        let code = line.split("//").next().unwrap_or("");
        for word in code.split(|c: char| !c.is_alphanumeric() && c != '_') {
            if matches!(word, "if" | "for" | "while" | "case" | "catch" | "loop") {
                n += 1;
            }
        }
        n += code.matches("&&").count() + code.matches("||").count() + code.matches("=>").count();
    }
    n
}

/// Complexity 1-10: `1 + log2(1 + loc/25) + log2(1 + branches/4) + log2(1 + fan_out/4)`,
/// rounded and clamped. Size, branching and fan-out each add about one point per doubling.
pub fn complexity(loc: usize, branches: usize, fan_out: usize) -> u32 {
    let term = |x: usize, scale: f64| (1.0 + x as f64 / scale).log2();
    let score = 1.0 + term(loc, 25.0) + term(branches, 4.0) + term(fan_out, 4.0);
    (score.round() as u32).clamp(1, 10)
}

fn date_of(ns: i64) -> String {
    date_time_of(ns).split(' ').next().unwrap_or("").to_string()
}

/// `YYYY-MM-DD HH:MM UTC` from nanoseconds since the epoch (civil-from-days).
fn date_time_of(ns: i64) -> String {
    let secs = ns.div_euclid(1_000_000_000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + if month <= 2 { 1 } else { 0 };
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02} UTC", rem / 3600, rem % 3600 / 60)
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
            ".codeatlas/index.db",
            "a\0b",
        ] {
            assert!(normalize_path(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(date_time_of(0), "1970-01-01 00:00 UTC");
        assert_eq!(date_time_of(1_795_996_800 * 1_000_000_000), "2026-11-30 00:00 UTC");
        assert_eq!(date_time_of(951_782_400 * 1_000_000_000), "2000-02-29 00:00 UTC");
    }

    #[test]
    fn complexity_grows_with_size_branches_and_fan_out() {
        assert_eq!(complexity(0, 0, 0), 1);
        assert_eq!(complexity(25, 4, 4), 4);
        assert_eq!(complexity(10_000, 1_000, 1_000), 10);
    }

    #[test]
    fn fts_words_quote_every_word() {
        assert_eq!(fts_words("ConcurrentHashMap"), "\"concurrent\" OR \"hash\" OR \"map\" OR \"concurrenthashmap\"");
        assert_eq!(fts_words("' OR 1=1--"), "\"or\" OR \"11\" OR \"or11\"");
    }

    #[test]
    fn every_schema_is_lean() {
        for t in TOOLS {
            let schema = Value::Object((t.schema)()).to_string();
            assert!(!schema.contains("$schema") && !schema.contains("\"format\"") && !schema.contains("null"), "{}: {schema}", t.name);
            assert!(t.description.len() <= 100, "{} description too long", t.name);
        }
    }
}

#[cfg(test)]
mod fuzzy_tests {
    use super::{osa_distance_ascii, within_one_edit};

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
