//! The twelve tools as plain functions over the store and the graph, returning compact
//! text made for a model to read. The CLI `query` command, the MCP server and the tests
//! all call `Atlas::call`. This module knows JSON arguments and schemas, not MCP.
//!
//! Every answer names the handle the next tier takes (qualified name or `path:line`),
//! pages with `limit`/`offset`, says when it was cut, and stays within its budget.
//!
//! The tiers are files: `graph_summaries` (tier 1), `symbol_lookup` (tier 2),
//! `source_reads` (tier 3); the shared parts are `args` (arguments and schemas), `handles`
//! (what a name resolves to), `paging` (budgets and next pages), `lines` (formatting) and
//! `cache` (the graphs' rows). This file holds the state they share and `Atlas::call`.

mod apps;
mod args;
mod build_units;
mod cache;
mod config_keys;
mod graph_summaries;
mod handles;
mod history;
mod impact;
mod intent;
mod lines;
mod map;
mod paging;
mod sentence_words;
mod services;
mod source_reads;
mod statements;
mod symbol_lookup;
mod walk_rank;

pub use args::*;
pub use handles::normalize_path;
pub use lines::complexity;
pub use map::MapFormat;

use crate::index::{IndexStatus, Syncer};
use cache::EdgeCache;
use handles::char_mask;
use handles::NameEntry;
use lines::LineStats;

use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::graph::{Graph, Level};
use crate::model::{FileRow, Language, SymbolKind, SymbolRow};

use crate::store::{self, FileInfo, Stamp, Store};

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
    "repo_overview" => OverviewArgs, "Start here: build units, languages, modules, entry points, most depended-upon types";
    "dependency_graph" => GraphArgs, "Dependencies and dependents of a type, file, module or build unit";
    "dependency_path" => PathArgs, "Shortest dependency chain between two nodes, with the line of each hop";
    "change_impact" => ImpactArgs, "What depends on a node, transitively and through interfaces";
    "search_symbols" => SearchArgs, "Find symbols by name, typo, doc text, or a task in plain words";
    "get_symbol" => SymbolArgs, "One symbol: signature, doc, location, supertypes, members";
    "find_implementations" => ImplArgs, "Implementations of an interface, trait, class or method";
    "find_references" => RefsArgs, "Where a symbol is used, as the compiler resolves it, by file";
    "file_outline" => OutlineArgs, "A file's symbols, nested, with lines and signatures";
    "read_source" => ReadArgs, "Numbered source lines of a file range";
    "read_symbol" => ReadSymbolArgs, "Numbered source of one symbol";
    "search_text" => TextArgs, "Lines matching text or a regex in the repository's text files";
}

/// The tools' shared state: the repository root, read connections, cached graphs.
pub struct Atlas {
    root: PathBuf,
    pool: Mutex<Vec<Store>>,
    graphs: Mutex<HashMap<Level, (Stamp, Arc<Graph>)>>,
    /// The graph's edge and symbol rows by file, kept across generations: after a save only
    /// the files whose references or symbols changed are read again.
    /// Read by the graphs and change impact's index while they are built, on two threads.
    edges: std::sync::RwLock<EdgeCache>,
    /// What the symbols' users are made of, by file.
    users_rows: Mutex<cache::UsersCache>,
    /// What deciding overrides reads, by file.
    methods_rows: Mutex<cache::MethodsCache>,
    /// The override pairs change impact's index is built with, by owner type.
    override_pairs: Mutex<impact::KeptPairs>,
    /// The symbols marked as tests, by file.
    marked_tests: Mutex<cache::IdsCache>,
    /// The callers of MyBatis statements by their ids (`SqlSession` calls), by file.
    session_callers: Mutex<cache::IdsCache>,
    /// Every text file the walk admits, while no index run has reported files it does not
    /// parse coming, going or changing (`IndexStatus::untracked_runs`): kept only under an
    /// indexer that watches the tree.
    text_files: Mutex<Option<(u64, Arc<Vec<(String, PathBuf)>>)>>,
    /// Every distinct symbol name, lower-cased and as written, for typo-tolerant search.
    names: Mutex<Option<(Stamp, Arc<Vec<NameEntry>>)>>,
    tests: Mutex<Option<(Stamp, Arc<HashSet<i64>>)>>,
    files: Mutex<Option<(Stamp, Arc<FileTable>)>>,
    unit_view: Mutex<Option<(Stamp, Arc<build_units::UnitView>)>>,
    config_view: Mutex<Option<(Stamp, Arc<config_keys::ConfigView>)>>,
    statement_view: Mutex<Option<(Stamp, Arc<statements::StatementView>)>>,
    /// The class names Spring Boot's auto-configuration files list.
    auto_configured: Mutex<Option<(Stamp, Arc<HashSet<String>>)>>,
    /// Every entry point (`main`, endpoints, framework-called methods): finding them scans
    /// the symbols' modifiers, so once per index generation.
    entry_points: Mutex<Option<(Stamp, Arc<Vec<store::SymbolInfo>>)>>,
    /// The member-level reverse index change impact walks (per generation).
    dependents: Mutex<Option<(Stamp, Arc<crate::graph::impact::Dependents>)>>,
    /// The commit subjects' words, the declarations each commit changed and what the newest
    /// commits changed, for sentence search (per generation and history head).
    history_words: Mutex<Option<((Stamp, String), Arc<intent::HistoryWords>)>>,
    /// Each external's simple name as words, for sentence search's `uses` field (per
    /// generation).
    external_words: Mutex<Option<(Stamp, Arc<Vec<(i64, Vec<String>)>>)>>,
    /// The declarations referencing each symbol, for the same field (per generation).
    symbol_users: Mutex<Option<(Stamp, Arc<intent::Users>)>>,
    doc_lengths: Mutex<Option<(Stamp, Arc<intent::Lengths>)>>,
    pub status: Arc<IndexStatus>,
    /// Re-indexes files now and waits (read-your-writes); set when an indexer runs.
    syncer: Option<Syncer>,
    /// Per-line counts of files, by file id, with the mtime they were read at.
    line_stats: Mutex<HashMap<i64, (i64, Arc<LineStats>)>>,
    /// Bytes an answer may take: tiers 1-2, and tier-3 reads.
    summary_budget: usize,
    read_budget: usize,
    /// `[history]` of `.repochart.toml` (the churn window).
    history_config: crate::config::HistoryConfig,
    /// `[map] link` of `.repochart.toml`.
    map_link: Option<String>,
    /// `HEAD`'s versions of files with uncommitted edits, by blob id (read from git once).
    head_texts: Mutex<HashMap<Vec<u8>, Arc<String>>>,
    /// Whether the root is in a git work tree (looked up once).
    in_git: std::sync::OnceLock<bool>,
    /// Graph calls under way: the refresh's search parts wait for them (`Calls`).
    calls: Calls,
}

/// The graph calls under way. After a save the refresh rebuilds what every tool derives
/// from the index on both cores; a graph call made meanwhile (`change_impact` right after
/// an edit) waits for its graphs and then walks them. Once those are built, the refresh's
/// remaining parts (what sentence search reads) wait while such a call runs, so that it
/// has a core of its own; a call that needs one of them builds it itself.
#[derive(Default)]
struct Calls {
    running: Mutex<usize>,
    idle: std::sync::Condvar,
}

/// How long a refresh part waits for the graph calls under way at most, so that a client
/// calling without a pause cannot keep what search reads stale for long.
const CALLS_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// A graph call under way, until dropped.
struct CallUnderWay<'a>(&'a Calls);

impl Calls {
    fn enter(&self) -> CallUnderWay<'_> {
        *self.running.lock().expect("calls lock") += 1;
        CallUnderWay(self)
    }

    /// Returns once no graph call runs, or after `CALLS_WAIT`.
    fn wait_idle(&self) {
        let running = self.running.lock().expect("calls lock");
        drop(self.idle.wait_timeout_while(running, CALLS_WAIT, |n| *n > 0).expect("calls lock"));
    }
}

impl Drop for CallUnderWay<'_> {
    fn drop(&mut self) {
        let mut running = self.0.running.lock().expect("calls lock");
        *running -= 1;
        if *running == 0 {
            self.0.idle.notify_all();
        }
    }
}

/// What `repochart status` says of the build and the configuration.
#[derive(Debug, Default)]
pub struct BuildReport {
    pub units: usize,
    /// `file:line: error` of manifests that could not be read.
    pub manifest_errors: Vec<String>,
    /// Uses of a unit its manifest does not declare.
    pub undeclared: Vec<String>,
    pub config_files: usize,
    pub config_keys: usize,
    /// `file:line: error` of configuration files that did not parse.
    pub config_errors: Vec<String>,
    /// Keys read in code that no configuration file sets, with a reader.
    pub unset_keys: Vec<String>,
    pub mapper_files: usize,
    pub statements: usize,
    /// `file:line: error` of mapper XML files that did not parse.
    pub mapper_errors: Vec<String>,
}

/// Every indexed file by id.
type FileTable = HashMap<i64, FileInfo>;

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

fn parse<T: DeserializeOwned>(args: Value) -> Result<T, ToolError> {
    serde_json::from_value(args).map_err(|e| ToolError(format!("invalid arguments: {e}")))
}

impl Atlas {
    /// The level a graph tool works at: the one asked for, else the one its targets name:
    /// an indexed file's path is a file (`change_impact target=src/.../PaymentService.java`;
    /// a symbol beside it stands for its file), a package or module with files that no
    /// symbol answers to is a module (`com.acme.pay`; a file or symbol beside it stands for
    /// its module); else the symbol level.
    fn level_for(&self, store: &Store, level: Option<&str>, targets: &[&str]) -> Result<Level, ToolError> {
        if level.is_some() {
            return parse_level(level);
        }
        // Each target: a file, a module no symbol answers to, or anything else (a symbol).
        let (mut files, mut modules) = (0, 0);
        for target in targets.iter().map(|t| t.trim()) {
            if target.starts_with("git:") {
                return Ok(Level::Symbol);
            }
            let is_file = match handles::normalize_path(target) {
                Ok(path) if !path.is_empty() => store.file_by_path(&path)?.is_some(),
                _ => false,
            };
            if is_file {
                files += 1;
            } else if store.module_exists(target)? && self.resolve(store, target).is_err() {
                modules += 1;
            }
        }
        // A symbol beside a file stands for its file, beside a module for its module; a
        // file beside a module is its module's.
        Ok(match (files, modules) {
            (0, 0) => Level::Symbol,
            (_, 0) => Level::File,
            _ => Level::Module,
        })
    }
}

fn parse_level(level: Option<&str>) -> Result<Level, ToolError> {
    let level = level.unwrap_or("symbol");
    Level::parse(level).ok_or_else(|| ToolError(format!("level must be symbol, file, module, unit or service (got {level:?})")))
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

impl Atlas {
    pub fn new(root: &Path) -> Atlas {
        // A bad `.repochart.toml` is reported by the indexer; answers take the defaults.
        let config = crate::config::Config::load(root).ok();
        Atlas {
            root: root.to_path_buf(),
            pool: Mutex::new(Vec::new()),
            graphs: Mutex::new(HashMap::new()),
            edges: std::sync::RwLock::new(EdgeCache::default()),
            users_rows: Mutex::new(cache::UsersCache::default()),
            methods_rows: Mutex::new(cache::MethodsCache::default()),
            override_pairs: Mutex::new(impact::KeptPairs::default()),
            marked_tests: Mutex::new(cache::IdsCache::default()),
            session_callers: Mutex::new(cache::IdsCache::default()),
            text_files: Mutex::new(None),
            names: Mutex::new(None),
            tests: Mutex::new(None),
            files: Mutex::new(None),
            unit_view: Mutex::new(None),
            config_view: Mutex::new(None),
            statement_view: Mutex::new(None),
            auto_configured: Mutex::new(None),
            entry_points: Mutex::new(None),
            dependents: Mutex::new(None),
            history_words: Mutex::new(None),
            external_words: Mutex::new(None),
            symbol_users: Mutex::new(None),
            doc_lengths: Mutex::new(None),
            status: Arc::new(IndexStatus::default()),
            syncer: None,
            line_stats: Mutex::new(HashMap::new()),
            summary_budget: SUMMARY_BUDGET,
            read_budget: READ_BUDGET,
            history_config: config.as_ref().map(|c| c.history).unwrap_or_default(),
            map_link: config.and_then(|c| c.map_link),
            head_texts: Mutex::new(HashMap::new()),
            in_git: std::sync::OnceLock::new(),
            calls: Calls::default(),
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
    /// index: the symbol graph, the name list and what change impact reads (what a
    /// session's first calls need), and the other graphs and the entry points once calls
    /// have used them. The server runs this on its own thread after its start-up reconcile
    /// and after each index batch, so that no call waits for it.
    pub fn refresh_caches(&self) {
        let mut levels: Vec<Level> = self.graphs.lock().expect("graph lock").keys().copied().collect();
        if !levels.contains(&Level::Symbol) {
            levels.push(Level::Symbol);
        }
        // What each part is, whether it waits for the graph calls under way (`Calls`), and
        // how it is built.
        type Part<'a> = (String, bool, Box<dyn Fn(&Store) -> Result<(), ToolError> + Sync + 'a>);
        // What graph calls read first, the longest first (on the whole JDK after a save:
        // change impact's index 0.16-0.22 s, the symbol graph 0.18-0.23 s, the test symbols
        // 0.02-0.04 s, the MyBatis statements under 0.03 s; change impact reads all four),
        // then what sentence search reads (the symbols' users for its `uses` field, the
        // lengths its ranking reads, the name list: 0.05-0.12 s each), which waits while a
        // graph call runs.
        let mut parts: Vec<Part> = vec![("change impact's index".into(), false, Box::new(|store| self.dependents(store).map(drop)))];
        for level in levels {
            parts.push((format!("the {} graph", level.as_str()), false, Box::new(move |store| self.graph(store, level).map(drop))));
        }
        parts.push(("the test symbols".into(), false, Box::new(|store| self.test_symbols(store).map(drop))));
        parts.push(("the MyBatis statements".into(), false, Box::new(|store| self.statement_view(store).map(drop))));
        if self.entry_points.lock().expect("cache lock").is_some() {
            parts.push(("the entry points".into(), false, Box::new(|store| self.entry_points(store, "").map(drop))));
        }
        parts.push(("the symbols' users".into(), true, Box::new(|store| self.symbol_users(store).map(drop))));
        parts.push(("the symbols' lengths".into(), true, Box::new(|store| self.doc_lengths(store).map(drop))));
        parts.push(("the name list".into(), true, Box::new(|store| self.all_names(store).map(drop))));
        // Independent parts, each on its own read connection, on as many threads as there
        // are cores (at most two: the index's own batch and the client's calls run beside
        // it). A part that waits for another's rows (the graph's edge cache) waits on its lock.
        let next = std::sync::atomic::AtomicUsize::new(0);
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 2);
        let work = || loop {
            let i = next.fetch_add(1, Ordering::SeqCst);
            let Some((what, waits, run)) = parts.get(i) else { break };
            if *waits {
                self.calls.wait_idle();
            }
            let store = match self.store() {
                Ok(store) => store,
                Err(e) => {
                    tracing::debug!("no caches refreshed: {}", e.0);
                    break;
                }
            };
            let started = std::time::Instant::now();
            // Each part's time goes to the debug log (`REPOCHART_LOG=repochart=debug`).
            match run(&store) {
                Ok(()) => tracing::debug!(ms = started.elapsed().as_millis() as u64, "refreshed {what}"),
                Err(e) => tracing::warn!("refreshing {what}: {}", e.0),
            }
            self.pool.lock().expect("pool lock").push(store);
        };
        std::thread::scope(|scope| {
            for _ in 1..threads {
                scope.spawn(work);
            }
            work();
        });
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

    /// What `repochart status` says of the build and the files frameworks read: units,
    /// unreadable manifests, undeclared dependencies, configuration and mapper files.
    pub fn build_report(&self) -> Result<BuildReport, ToolError> {
        let store = self.store()?;
        let result = (|| {
            let view = self.unit_view(&store)?;
            let errors = view.units.errors.iter().map(|e| format!("{}:{}: {}", e.file, e.line, e.message)).collect();
            let mut undeclared = Vec::new();
            for u in self.undeclared(&store)? {
                undeclared.push(self.undeclared_line(&store, &u)?);
            }
            let (files, keys, config_errors, unset) = self.config_problems(&store)?;
            let (mapper_files, statements, mapper_errors) = self.mapper_errors(&store)?;
            Ok(BuildReport {
                units: view.units.units.len(),
                manifest_errors: errors,
                undeclared,
                config_files: files,
                config_keys: keys,
                config_errors,
                unset_keys: unset,
                mapper_files,
                statements,
                mapper_errors,
            })
        })();
        self.pool.lock().expect("pool lock").push(store);
        result
    }

    /// Whether there is a complete index to answer from (a first build writes it whole).
    pub fn index_exists(&self) -> bool {
        !self.pool.lock().expect("pool lock").is_empty() || Store::open_read(&self.root).is_ok()
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Runs a tool by name with JSON arguments.
    pub fn call(&self, name: &str, args: Value) -> Answer {
        let args = if args.is_null() { Value::Object(Default::default()) } else { args };
        // Every tool but search (which reads what the refresh's last parts build).
        let _under_way = (name != "search_symbols").then(|| self.calls.enter());
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
            "search_text" => parse(args).and_then(|a| self.search_text(a)),
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

    /// Brings the graph's rows by file up to `stamp`; taken for writing only when they are
    /// behind, so that a graph being built from them does not hold another back.
    fn update_edges(&self, store: &Store, stamp: &Stamp, files: &[(FileRow, u64)]) -> Result<(), store::Error> {
        if self.edges.read().expect("edge cache lock").is_at(stamp) {
            return Ok(());
        }
        self.edges.write().expect("edge cache lock").update(store, stamp, files)
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
            self.update_edges(store, &stamp, &files)?;
            Ok((stamp, Some(files)))
        })?;
        let Some(files) = fresh else {
            return Ok(graphs[&level].1.clone());
        };
        let mut files: Vec<FileRow> = files.into_iter().map(|(f, _)| f).collect();
        if level == Level::Unit {
            let view = self.unit_view(store)?;
            for f in &mut files {
                f.unit = view.of_file.get(&f.id).copied().filter(|_| !view.outside_roots.contains(&f.id));
            }
        }
        if level == Level::Service {
            let (symbols, edges) = self.service_rows(store)?;
            let g = Arc::new(Graph::build(level, &symbols, &files, edges));
            graphs.insert(level, (stamp, g.clone()));
            return Ok(g);
        }
        let cache = self.edges.read().expect("edge cache lock");
        let symbols: Vec<SymbolRow> = cache.by_file.iter().flat_map(|(file, rows)| rows.symbols.iter().map(|s| s.row(*file))).collect();
        let rows = cache.by_file.iter().flat_map(|(file, rows)| rows.edges.iter().map(|r| r.row(*file)));
        let mut g = Graph::build(level, &symbols, &files, rows);
        if level == Level::Unit {
            // What a manifest declares carries impact even where no line uses it.
            let view = self.unit_view(store)?;
            let index: HashMap<&str, u32> = view.units.units.iter().enumerate().map(|(i, u)| (u.dir.as_str(), i as u32)).collect();
            for (i, u) in view.units.units.iter().enumerate() {
                for d in &u.deps {
                    if let Some(j) = index.get(d.dir.as_str()) {
                        g.add_declared(&crate::graph::Node::Unit(i as u32), &crate::graph::Node::Unit(*j));
                    }
                }
            }
        }
        let g = Arc::new(g);
        tracing::debug!(level = level.as_str(), ms = started.elapsed().as_millis() as u64, "graph built");
        graphs.insert(level, (stamp, g.clone()));
        Ok(g)
    }

    /// Symbols in test files or Rust `tests` modules (cached per index generation: a
    /// change impact may reach thousands of symbols).
    fn test_symbols(&self, store: &Store) -> Result<Arc<HashSet<i64>>, ToolError> {
        per_generation(store, &self.tests, || {
            let view = self.unit_view(store)?;
            let test_files: HashSet<i64> = store.files_under("")?.into_iter().filter(|f| view.is_test(f)).map(|f| f.id).collect();
            // Both by file, read again only where files changed: a test file's symbols (the
            // graph's rows) and the symbols marked as tests anywhere.
            let mut marked = self.marked_tests.lock().expect("tests cache lock");
            store.snapshot(|store| {
                let (stamp, files) = (store.stamp()?, store.graph_files()?);
                self.update_edges(store, &stamp, &files)?;
                marked.update(&stamp, &files, |file| store.marked_tests(file))
            })?;
            let edges = self.edges.read().expect("edge cache lock");
            let in_test_files = test_files.iter().filter_map(|f| edges.by_file.get(f)).flat_map(|rows| rows.symbols.iter().map(|s| s.id()));
            Ok(in_test_files.chain(marked.ids()).collect())
        })
    }

    /// The text files the walk admits (`walk::text_files`) whose path `wanted` keeps, with
    /// their text; one that cannot be read is left out.
    fn read_text_files(&self, wanted: impl Fn(&str) -> bool) -> Result<Vec<(String, String)>, ToolError> {
        Ok(self
            .text_files()?
            .iter()
            .filter(|(rel, _)| wanted(rel))
            .filter_map(|(rel, full)| Some((rel.clone(), std::fs::read_to_string(full).ok()?)))
            .collect())
    }

    /// Every text file the walk admits, as (relative path, full path). Under an indexer that
    /// watches the tree the list is kept until a run reports that files it does not parse may
    /// have come, gone or changed (`Summary::untracked`): a save of a source file cannot change
    /// it, and on the whole JDK the walk takes 90-100 ms after every save. Otherwise the tree
    /// is walked each time.
    fn text_files(&self) -> Result<Arc<Vec<(String, PathBuf)>>, ToolError> {
        let epoch = self.status.watching.load(Ordering::SeqCst).then(|| self.status.untracked_runs.load(Ordering::SeqCst));
        let mut slot = self.text_files.lock().expect("text files lock");
        if let (Some(epoch), Some((seen, files))) = (epoch, slot.as_ref()) {
            if *seen == epoch {
                return Ok(files.clone());
            }
        }
        let opts = crate::index::Options::for_repo(&self.root).unwrap_or_default();
        let root = self.root.canonicalize()?;
        let files = Arc::new(crate::walk::text_files(&root, &opts.filter, opts.max_file_size, ""));
        if let Some(epoch) = epoch {
            *slot = Some((epoch, files.clone()));
        }
        Ok(files)
    }

    /// The entry points under a path (`Store::entry_points`, cached per generation). What
    /// never runs is left out: a method a framework would call (`@Scheduled`, a listener)
    /// in a class that is not a bean (its `@Component` commented out), and the `main` of a
    /// Java test class.
    fn entry_points(&self, store: &Store, prefix: &str) -> Result<Vec<store::SymbolInfo>, ToolError> {
        let all = per_generation(store, &self.entry_points, || {
            let found = store.entry_points("")?;
            let framework_called = |s: &store::SymbolInfo| s.kind == SymbolKind::Method && s.name != "main";
            let beans = if found.iter().any(framework_called) { Some(self.beans(store)?) } else { None };
            Ok(found
                .into_iter()
                .filter(|s| !framework_called(s) || s.parent.is_some_and(|p| beans.as_ref().is_some_and(|b| b.live(p))))
                .filter(|s| !(s.name == "main" && s.language == Language::Java && is_test_path(&s.path)))
                .collect())
        })?;
        Ok(all.iter().filter(|s| s.path.starts_with(prefix)).cloned().collect())
    }

    /// Every indexed file by id (graph answers group thousands of nodes by file).
    fn all_files(&self, store: &Store) -> Result<Arc<FileTable>, ToolError> {
        per_generation(store, &self.files, || Ok(store.files_under("")?.into_iter().map(|f| (f.id, f)).collect()))
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_schema_is_lean() {
        for t in TOOLS {
            let schema = Value::Object((t.schema)()).to_string();
            assert!(!schema.contains("$schema") && !schema.contains("\"format\"") && !schema.contains("null"), "{}: {schema}", t.name);
            assert!(t.description.len() <= 100, "{} description too long", t.name);
        }
    }

    #[test]
    fn refresh_parts_wait_for_the_calls_under_way() {
        let calls = Calls::default();
        // No call: no wait.
        calls.wait_idle();
        let ended = std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|scope| {
            let call = calls.enter();
            let second = calls.enter();
            scope.spawn(|| {
                calls.wait_idle();
                assert!(ended.load(Ordering::SeqCst), "a refresh part started while a call ran");
            });
            drop(second);
            std::thread::sleep(std::time::Duration::from_millis(100));
            ended.store(true, Ordering::SeqCst);
            drop(call);
        });
        assert_eq!(*calls.running.lock().unwrap(), 0);
    }
}
