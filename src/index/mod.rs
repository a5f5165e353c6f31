//! Indexing: walk (the `ignore` crate) -> extract (all cores) -> store symbols -> resolve
//! -> store references, incrementally: only files whose content changed are parsed again,
//! and only references whose resolution those changes can affect are resolved again.
//! One bad file never stops a run: it is counted and reported as skipped.

use std::collections::{BTreeMap, VecDeque};

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, UNIX_EPOCH};

use anyhow::Context;

use crate::build;
use crate::build::rust_layout::{self, Layout};
use crate::config::{Config, Filter, CONFIG_FILE, LEGACY_CONFIG_FILE};
use crate::extract::{self, MacroTable};
use crate::model::{FileExtract, Language, RefKind, Reference, SymbolId};
use crate::resolve::{RefQuery, Target, World};
use crate::store::{self, Resolved, Store, StoredRef, FLAG_GLOB, FLAG_STATIC};
use crate::walk::{self, Candidate};

mod run;

pub const DEFAULT_MAX_FILE_SIZE: u64 = crate::config::DEFAULT_MAX_FILE_SIZE;
/// Meta key of the `#[path]` module declarations found so far (JSON).
const PATH_MODS_KEY: &str = "rust_path_mods";
/// The repository's `macro_rules!` macros as the last run read them: name -> a hash of
/// their definitions (a changed one re-extracts the files invoking it).
const MACROS_KEY: &str = "rust_macro_rules";

#[derive(Clone, Debug)]
pub struct Options {
    pub max_file_size: u64,
    /// Parser threads.
    pub threads: usize,
    /// Include/exclude globs, languages and secret patterns from `.repochart.toml`.
    pub filter: Arc<Filter>,
    /// Read `.repochart.toml` again when it changes (set by `for_repo`).
    pub follow_config: bool,
    /// How much git history to read (`history::refresh`).
    pub history: crate::config::HistoryConfig,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            threads: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2),
            filter: Arc::new(Filter::default()),
            follow_config: false,
            history: crate::config::HistoryConfig::default(),
        }
    }
}

impl Options {
    /// The options a repository's `.repochart.toml` asks for (defaults without one).
    pub fn for_repo(root: &Path) -> Result<Options, crate::config::ConfigError> {
        let mut opts = Options { follow_config: true, ..Options::default() };
        opts.apply(&Config::load(root)?);
        Ok(opts)
    }

    fn apply(&mut self, config: &Config) {
        self.max_file_size = config.max_file_size;
        self.filter = config.filter.clone();
        self.history = config.history;
    }
}

/// What one run did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub files: usize,
    pub parsed: usize,
    pub unchanged: usize,
    pub removed: usize,
    pub loc: u64,
    pub symbols: u64,
    pub references: u64,
    /// References that point at a symbol or an outside name.
    pub resolved: u64,
    pub parse_errors: u64,
    pub rechecked: usize,
    /// Files parsed (new or changed) and files removed, relative to the root.
    pub changed_paths: Vec<String>,
    pub removed_paths: Vec<String>,
    pub skipped: Vec<(String, String)>,
    pub elapsed: Duration,
    /// The run may have seen files the index does not parse (XML, YAML) come, go or change,
    /// or directories: it reconciled everything, or a path it was given was neither a file
    /// it indexes nor one it removed. What lists those files (`walk::text_files`) is stale.
    pub untracked: bool,
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
    /// Git history is being read (`history::refresh` on a background thread).
    pub history_reading: AtomicBool,
    /// How many runs reported `Summary::untracked`: lists of the files the index does not
    /// parse, kept by the tools, are walked again when it moves.
    pub untracked_runs: AtomicU64,
    /// A watcher follows the tree: what changes on disk reaches the indexer as runs.
    pub watching: AtomicBool,
}

/// Asks the indexer to bring these files up to date and waits until it has.
pub type Syncer = Arc<dyn Fn(Vec<PathBuf>) + Send + Sync>;

/// Indexes the repository at `root` into `<root>/.repochart/index.db`, incrementally.
pub fn index(root: &Path, opts: &Options, progress: &dyn Fn(usize, usize)) -> anyhow::Result<Summary> {
    Indexer::open(root, opts)?.full(progress)
}

/// Which indexed files a walk speaks for.
#[derive(Clone, Debug)]
enum Scope {
    All,
    /// Files at or under these root-relative paths.
    Under(Vec<String>),
}

impl Scope {
    fn covers(&self, path: &str) -> bool {
        match self {
            Scope::All => true,
            Scope::Under(targets) => {
                targets.iter().any(|t| path == t || (path.starts_with(t.as_str()) && path.as_bytes().get(t.len()) == Some(&b'/')))
            }
        }
    }
}

/// Names of files whose change alters what is indexed or how paths map to modules: a
/// change to one of them makes a partial update a full reconcile.
const RECONCILE_TRIGGERS: &[&str] = &[".gitignore", ".ignore", walk::CUSTOM_IGNORE_FILE, walk::LEGACY_IGNORE_FILE];

/// A long-lived indexer: the store, and the resolver's world kept in memory between
/// runs, so that an update of a few files costs only those files.
pub struct Indexer {
    root: PathBuf,
    opts: Options,
    store: Store,
    /// Loaded from the store on the first run that changes anything: a no-op reconcile
    /// of an unchanged tree never pays for it.
    world: World,
    world_loaded: bool,
    layout: Layout,
    /// False until every Rust file was scanned for `#[path]` (an index made before).
    path_mods_known: bool,
    walked: bool,
    generation: u64,
    /// The build units the index holds (read back from the store, then by each full walk),
    /// and which unit holds a file.
    units: build::Units,
    unit_map: build::UnitMap,
    /// Set by a full walk that read other units than the index holds: the units before
    /// (a file whose unit changed is resolved again), until the next transaction stores
    /// the new ones.
    units_before: Option<(build::Units, build::UnitMap)>,
    /// The `macro_rules!` definitions of each Rust file, (module, text), as the last run
    /// left them: read from the index and the files once, then kept up to date by runs.
    macro_sources: Option<BTreeMap<String, Vec<(String, String)>>>,
}

impl Indexer {
    pub fn open(root: &Path, opts: &Options) -> anyhow::Result<Indexer> {
        let root = root.canonicalize().with_context(|| format!("cannot open repository {}", root.display()))?;
        let store = Store::open(&root)?;
        let generation = store.meta("generation")?.and_then(|g| g.parse().ok()).unwrap_or(0);
        let path_mods: Option<_> = store.meta(PATH_MODS_KEY)?.and_then(|j| serde_json::from_str(&j).ok());
        let stored_units = store.units()?;
        Ok(Indexer {
            root,
            opts: opts.clone(),
            store,
            world_loaded: false,
            path_mods_known: path_mods.is_some(),
            layout: Layout::with_path_mods(path_mods.unwrap_or_default()),
            walked: false,
            generation,
            unit_map: build::UnitMap::new(&stored_units),
            world: {
                let mut world = World::default();
                world.set_unit_reach(build::reach(&stored_units));
                world
            },
            units: stored_units,
            units_before: None,
            macro_sources: None,
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Walks the whole repository and brings the index up to date with it.
    pub fn full(&mut self, progress: &dyn Fn(usize, usize)) -> anyhow::Result<Summary> {
        let walked = walk::walk(&self.root, &self.opts.filter, self.opts.max_file_size, None);
        // Manifests are read once: for the units and for the Rust module layout.
        let build::Discovered { units: found, crates, targets } = build::discover(&self.root, &walked.manifests);
        self.layout.crates = crates;
        self.layout.targets = targets;
        self.layout.settle();
        if found != self.units || self.store.meta(store::UNITS_KEY)?.is_none() {
            let map = build::UnitMap::new(&found);
            let before = (std::mem::replace(&mut self.units, found), std::mem::replace(&mut self.unit_map, map));
            self.units_before.get_or_insert(before);
            // The resolver's world keys files by unit: loaded again with the new ones.
            self.world.set_unit_reach(build::reach(&self.units));
            self.world_loaded = false;
        }
        self.walked = true;
        let (summary, _) = self.apply(walked.files, walked.skipped, Scope::All, progress)?;
        Ok(Summary { untracked: true, ..summary })
    }

    /// Gives back the database page cache an update filled (a save reads a few pages; loading
    /// the resolver's world reads them all).
    pub fn release_memory(&mut self) {
        self.store.release_memory();
    }

    /// Moves the last batches' writes from the log into the database file (`Store::checkpoint`).
    pub fn checkpoint(&mut self) {
        self.store.checkpoint();
    }

    /// Loads the resolver's world now rather than on the first update that changes anything,
    /// so that the first save of a session is as quick as the next ones (java.base: the
    /// first save's batch took 227 ms, the next ones 26-54 ms).
    pub fn preload(&mut self) -> anyhow::Result<()> {
        if !self.world_loaded {
            let (units, map) = (&self.units, &self.unit_map);
            crate::resolve::load::load_world(&self.store, &mut self.world, &|path| build::file_place(units, map, path))?;
            self.world_loaded = true;
        }
        Ok(())
    }

    /// Builds what updates need that a first build leaves out (the indexes that find the
    /// references a changed name can affect), so that the first save is not the one to pay
    /// for it. Tools keep answering meanwhile.
    pub fn prepare_updates(&mut self) -> anyhow::Result<()> {
        let writer = self.store.transaction()?;
        writer.ensure_update_indexes()?;
        writer.commit()?;
        Ok(())
    }

    /// One step of merging the full-text index if updates left it in pieces (one short
    /// transaction, so that a save waits for one step at most); for idle moments (a server
    /// between saves). Returns whether there was anything to merge.
    pub fn tidy_step(&mut self) -> anyhow::Result<bool> {
        let writer = self.store.transaction()?;
        if !writer.search_index_fragmented()? {
            return Ok(false);
        }
        writer.merge_search_index_step()?;
        writer.commit()?;
        Ok(true)
    }

    /// Merges the full-text index into one segment, step by step. Returns whether there was
    /// anything to merge.
    pub fn tidy(&mut self) -> anyhow::Result<bool> {
        let mut merged = false;
        while self.tidy_step()? {
            merged = true;
        }
        Ok(merged)
    }

    /// Brings the index up to date with these paths (files or directories, existing or
    /// not). A change to an ignore file or a `Cargo.toml` reconciles everything.
    pub fn update(&mut self, paths: &[PathBuf], progress: &dyn Fn(usize, usize)) -> anyhow::Result<Summary> {
        if !self.walked {
            return self.full(progress);
        }
        let mut targets: Vec<String> = Vec::new();
        for p in paths {
            let Ok(rel) = p.strip_prefix(&self.root) else {
                continue;
            };
            let rel = rel.to_string_lossy().replace('\\', "/");
            if rel.is_empty() || rel == ".git/info/exclude" {
                return self.full(progress);
            }
            let top = rel.split('/').next().unwrap_or_default();
            if top == store::INDEX_DIR || top == store::LEGACY_INDEX_DIR || top == ".git" {
                continue;
            }
            if (rel == CONFIG_FILE || rel == LEGACY_CONFIG_FILE) && self.opts.follow_config {
                self.opts.apply(&Config::load(&self.root)?);
                return self.full(progress);
            }
            let name = rel.rsplit('/').next().unwrap_or(&rel);
            if RECONCILE_TRIGGERS.contains(&name) || build::manifest_names().iter().any(|m| m == name) {
                return self.full(progress);
            }
            targets.push(rel);
        }
        targets.sort();
        targets.dedup();
        // A path under another target adds nothing.
        let mut kept: Vec<String> = Vec::new();
        for t in targets {
            if !kept.iter().any(|k| Scope::Under(vec![k.clone()]).covers(&t)) {
                kept.push(t);
            }
        }
        if kept.is_empty() {
            return Ok(Summary::default());
        }
        let abs: Vec<PathBuf> = kept.iter().map(|t| self.root.join(t)).collect();
        let started = Instant::now();
        let walked = walk::walk(&self.root, &self.opts.filter, self.opts.max_file_size, Some(&abs));
        tracing::debug!(ms = started.elapsed().as_millis() as u64, paths = abs.len(), "phase: changed paths walked");
        // The paths that are no file to index: each is a file the index does not parse, a
        // folder, or an indexed file removed (`Summary::untracked`, once the run says which).
        let indexed: HashSet<&str> = walked.files.iter().map(|c| c.path.as_str()).collect();
        let others: Vec<String> = kept.iter().filter(|t| !indexed.contains(t.as_str())).cloned().collect();
        let (summary, relayout) = self.apply(walked.files, walked.skipped, Scope::Under(kept), progress)?;
        if relayout {
            // A `#[path]` declaration changed: files elsewhere may be in other modules now.
            return self.full(progress);
        }
        let removed: HashSet<&str> = summary.removed_paths.iter().map(String::as_str).collect();
        let untracked = others.iter().any(|t| !removed.contains(t.as_str()));
        Ok(Summary { untracked, ..summary })
    }

    /// Reconciles the index with the files a walk found for `scope`, phase by phase
    /// (`run::Run`). Also says whether `#[path]` declarations moved modules (a partial
    /// update then reconciles everything).
    fn apply(
        &mut self,
        files: Vec<Candidate>,
        mut skipped: Vec<(String, String)>,
        scope: Scope,
        progress: &dyn Fn(usize, usize),
    ) -> anyhow::Result<(Summary, bool)> {
        let started = Instant::now();
        let states = self.store.file_states()?;
        let (relayout, path_mods_changed, mut macro_texts) = self.settle_path_mods(&files, &states, &scope);
        let Indexer {
            root,
            store,
            world,
            world_loaded,
            layout,
            path_mods_known,
            generation,
            opts,
            units,
            unit_map,
            units_before,
            macro_sources,
            ..
        } = self;
        let unit_of = |path: &str| build::unit_key(unit_map.unit_dir(units, path));
        let before = units_before.as_ref();
        let unit_moved = |path: &str| before.is_some_and(|(u, m)| build::unit_key(m.unit_dir(u, path)) != unit_of(path));
        let mut changes = run::classify(files, &states, &scope, layout, &unit_moved, &mut skipped);
        tracing::debug!(
            ms = started.elapsed().as_millis() as u64,
            cpu_ms = cpu_ms(),
            to_parse = changes.to_parse.len(),
            "phase: classified"
        );
        // The repository's `macro_rules!` macros, which extraction expands where an item-level
        // invocation names one; the files invoking one whose definition changed are
        // extracted again.
        // A tree without Rust files has none to read (a query over every symbol, 15 ms of a
        // no-op run on `java.base`).
        let known = match macro_sources.take() {
            None if !states.keys().any(|p| p.ends_with(".rs")) => Some(BTreeMap::new()),
            known => known,
        };
        let sources = read_macro_sources(root, store, &changes, &mut macro_texts, layout, known)?;
        let spec = crate::lang::spec(Language::Rust);
        let macro_table = MacroTable::from_sources(spec, sources.values().flatten().map(|(m, t)| (m.as_str(), t.as_str())));
        let macro_hashes = macro_table.hashes();
        let old_hashes: BTreeMap<String, String> = store.meta(MACROS_KEY)?.and_then(|j| serde_json::from_str(&j).ok()).unwrap_or_default();
        let macros_changed = old_hashes != macro_hashes;
        if macros_changed && !states.is_empty() {
            let names: Vec<String> = macro_hashes
                .iter()
                .filter(|(n, h)| old_hashes.get(*n) != Some(*h))
                .map(|(n, _)| n.clone())
                .chain(old_hashes.keys().filter(|n| !macro_hashes.contains_key(*n)).cloned())
                .collect();
            let ids: HashSet<i64> = store.files_invoking(&names)?.into_iter().collect();
            let parsing: HashSet<&str> = changes.to_parse.iter().map(|(c, _)| c.path.as_str()).collect();
            let removed: HashSet<&str> = changes.removed_paths.iter().map(String::as_str).collect();
            let again: Vec<PathBuf> = states
                .iter()
                .filter(|(p, st)| ids.contains(&st.id) && !parsing.contains(p.as_str()) && !removed.contains(p.as_str()))
                .map(|(p, _)| root.join(p))
                .collect();
            if !again.is_empty() {
                let walked = walk::walk(root, &opts.filter, opts.max_file_size, Some(&again));
                for c in walked.files {
                    let id = states.get(&c.path).map(|st| st.id);
                    changes.to_parse.push((c, id));
                }
                changes.to_parse.sort_by(|a, b| a.0.path.cmp(&b.0.path));
            }
        }
        if (!changes.to_parse.is_empty() || !changes.removed.is_empty() || !changes.touched.is_empty()) && !*world_loaded {
            crate::resolve::load::load_world(store, world, &|path| build::file_place(units, unit_map, path))?;
            *world_loaded = true;
            tracing::debug!(ms = started.elapsed().as_millis() as u64, cpu_ms = cpu_ms(), "phase: world loaded");
        }
        let (next_symbol, next_file) = store.next_ids()?;
        let incremental = !world.files.is_empty();
        // Rows the commit writes besides the run's own; the indexer's state follows only
        // once it has committed (a failed run leaves both as they were).
        let mut meta: Vec<(&str, String)> = Vec::new();
        if path_mods_changed {
            meta.push((PATH_MODS_KEY, serde_json::to_string(&layout.path_mods)?));
        }
        if macros_changed {
            meta.push((MACROS_KEY, serde_json::to_string(&macro_hashes)?));
        }
        if units_before.is_some() {
            meta.push((store::UNITS_KEY, serde_json::to_string(&*units)?));
        }
        let writer = store.transaction()?;
        let mut run = run::Run {
            started,
            threads: opts.threads,
            units,
            unit_map,
            layout,
            macros: &macro_table,
            world,
            writer,
            changes,
            skipped,
            bulk: states.is_empty(),
            incremental,
            next_symbol,
            next_file,
            affected: HashSet::default(),
            links: HashSet::default(),
            gone: Vec::new(),
            previous: HashMap::default(),
            old_supers: HashMap::default(),
            written_outside: HashMap::default(),
            pending: Vec::new(),
            parse_errors: 0,
            rechecked: 0,
        };
        if run.bulk {
            run.writer.begin_bulk()?;
        }
        run.parse_and_store(progress)?;
        let old_refs = run.recheck_list()?;
        run.attach_impl_members()?;
        run.resolve_passes(old_refs)?;
        let mut summary = run.commit(*generation + 1, &meta)?;
        *macro_sources = Some(sources);
        *generation += 1;
        *path_mods_known |= path_mods_changed && matches!(scope, Scope::All);
        *units_before = None;
        match &scope {
            Scope::All => store.set_skipped(&summary.skipped)?,
            Scope::Under(targets) => store.update_skipped(targets, &summary.skipped)?,
        }
        // A first build becomes the index only now, complete.
        store.publish()?;
        if matches!(scope, Scope::All) {
            let counts = store.counts()?;
            summary.files = counts.files as usize;
            summary.loc = counts.loc;
            summary.symbols = counts.symbols;
            summary.references = counts.references;
            summary.resolved = counts.resolved;
            summary.parse_errors = counts.parse_errors;
        }
        tracing::debug!(ms = started.elapsed().as_millis() as u64, cpu_ms = cpu_ms(), "phase: committed and counted");
        summary.elapsed = started.elapsed();
        Ok((summary, relayout && matches!(scope, Scope::Under(_))))
    }

    /// `#[path]` declarations of changed Rust files first: they decide the module of other
    /// files, which are extracted again when theirs moved. Returns whether modules moved,
    /// and whether the declarations changed (to be stored).
    fn settle_path_mods(
        &mut self,
        files: &[Candidate],
        states: &std::collections::HashMap<String, store::FileState>,
        scope: &Scope,
    ) -> (bool, bool, HashMap<String, String>) {
        let mut macro_texts: HashMap<String, String> = HashMap::default();
        let layout = &mut self.layout;
        let before_mods = layout.path_mods.clone();
        let present: HashSet<&str> = files.iter().map(|c| c.path.as_str()).collect();
        layout.path_mods.retain(|path, _| !scope.covers(path) || present.contains(path.as_str()));
        for c in files.iter().filter(|c| c.spec.language == Language::Rust) {
            if self.path_mods_known && states.get(&c.path).is_some_and(|o| o.size == c.size as i64 && o.mtime_ns == c.mtime_ns) {
                continue;
            }
            let text = std::fs::read(&c.abs).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
            let found = if text.contains("#[path") { rust_layout::scan_path_mods(&c.path, &text) } else { Vec::new() };
            if found.is_empty() {
                layout.path_mods.remove(&c.path);
            } else {
                layout.path_mods.insert(c.path.clone(), found);
            }
            // Kept for the macro table (`read_macro_table`): the file is read once here.
            if text.contains("macro_rules!") {
                macro_texts.insert(c.path.clone(), text);
            }
        }
        let relayout = layout.settle();
        let changed = before_mods != layout.path_mods || (!self.path_mods_known && matches!(scope, Scope::All));
        (relayout, changed, macro_texts)
    }
}

/// What a changed file held before it was parsed again.
struct Previous {
    /// (kind, extracted qualified name) -> the ids, names and declared types (`returns`) of
    /// symbols with that key.
    keys: HashMap<(String, String), VecDeque<OldSymbol>>,
    /// (visible name, path, flags) of its imports.
    imports: HashSet<(String, String, i64)>,
}

/// A symbol of a file's previous version: its id, name and declared type.
struct OldSymbol {
    id: SymbolId,
    name: String,
    returns: Option<Box<str>>,
    /// A Rust trait implemented for every type (`model::BLANKET`).
    blanket: bool,
    /// Who may use it (a `#[macro_export]` dropped, a Java method made private).
    access: Option<crate::resolve::Access>,
    /// Its row's hash (`NewSymbol::row_hash`) and lines: a row that would be written the
    /// same but for the lines is kept.
    hash: i64,
    lines: (u32, u32),
}

fn import_flags(r: &crate::model::Reference) -> i64 {
    (r.glob as i64) * store::FLAG_GLOB + (r.is_static as i64) * FLAG_STATIC + (r.reexport as i64) * store::FLAG_REEXPORT
}

/// Names of the members of `t` and of everything it inherits from.
fn member_names(world: &World, t: SymbolId, out: &mut HashSet<String>, depth: usize) {
    if depth > 8 {
        return;
    }
    for c in world.children_of(t) {
        if let Some(sym) = world.syms.get(c) {
            out.insert(sym.name.to_string());
        }
    }
    for s in world.supertypes.get(&t).cloned().unwrap_or_default() {
        member_names(world, s, out, depth + 1);
    }
}

/// A parsed file between storing its symbols and resolving its references: a first build
/// holds every file's. Its symbols' text (signatures, docs, modifiers) is in the store by
/// then and is not kept, and its references are packed: on the whole JDK, 2.2 million
/// references as structs with their strings took about 300 bytes each (peak RSS 1.24 GB).
struct PendingFile {
    file: i64,
    symbol_ids: Vec<SymbolId>,
    /// Rust impl members (ids): attached to their types once every file is in the world.
    impl_members: Vec<SymbolId>,
    refs: Packed,
}

/// A file's references as the passes read them: those of the supertypes pass (a few in a
/// hundred, read by three rounds) as they are, the rest serialized with postcard (lengths
/// and numbers as varints, strings inline: about 35 bytes a reference on java.base),
/// unpacked once, by the thread that resolves them. Both in the order extraction gave them.
/// postcard rather than a hand-written layout: the struct's fields change with the
/// extractor, and serde's derive follows them.
struct Packed {
    supers: Vec<Reference>,
    rest: Box<[u8]>,
}

impl Packed {
    fn pack(references: Vec<Reference>) -> Packed {
        let (supers, rest): (Vec<Reference>, Vec<Reference>) =
            references.into_iter().partition(|r| Pass::Supertypes.includes(r.kind, r.alias.as_deref()));
        let rest = postcard::to_allocvec(&rest).expect("references serialize to memory").into_boxed_slice();
        Packed { supers, rest }
    }

    /// The references of the rest pass.
    fn unpack_rest(&self) -> Vec<Reference> {
        postcard::from_bytes(&self.rest).expect("references packed by this build unpack")
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    Supertypes,
    Rest,
}

impl Pass {
    /// A lambda passed as an argument implements its callee's parameter: the rest pass
    /// resolves it, as the call it is (member lookups need the supertypes first).
    fn includes(self, kind: RefKind, alias: Option<&str>) -> bool {
        let supertype = matches!(kind, RefKind::Extends | RefKind::Implements) && crate::model::lambda_argument_of(kind, alias).is_none();
        supertype == (self == Pass::Supertypes)
    }
}

/// Resolves stored references of this pass again and writes what they resolve to now.
fn recheck(
    world: &World,
    writer: &mut store::Writer,
    refs: &[StoredRef],
    pass: Pass,
    touched: &mut HashSet<SymbolId>,
    rechecked: &mut usize,
) -> anyhow::Result<()> {
    for r in refs.iter().filter(|r| pass.includes(r.kind, r.alias.as_deref())) {
        *rechecked += 1;
        let query = RefQuery {
            file: r.file,
            enclosing: r.enclosing,
            kind: r.kind,
            name: &r.name,
            receiver: &r.receiver,
            subject: r.subject.as_deref(),
            is_static: r.flags & FLAG_STATIC != 0,
            glob: r.flags & FLAG_GLOB != 0,
            args: r.args.as_deref(),
            implicit: r.kind == RefKind::Calls && r.alias.is_some(),
            argument: crate::model::lambda_argument_of(r.kind, r.alias.as_deref()),
        };
        touched.extend(r.source);
        match resolve_one(world, &query) {
            Some(res) => {
                touched.extend(res.source);
                writer.update_ref(r.file, r.id, &res)?;
            }
            None => writer.delete_ref(r.file, r.id)?,
        }
    }
    Ok(())
}

/// A reference as extracted, as the resolver takes it.
fn query_of(file: i64, enclosing: Option<SymbolId>, r: &crate::model::Reference) -> RefQuery<'_> {
    RefQuery {
        file,
        enclosing,
        kind: r.kind,
        name: &r.name,
        receiver: &r.receiver,
        subject: r.subject.as_deref(),
        is_static: r.is_static,
        glob: r.glob,
        args: r.args.as_deref(),
        implicit: r.kind == RefKind::Calls && r.alias.is_some(),
        argument: crate::model::lambda_argument_of(r.kind, r.alias.as_deref()),
    }
}

fn resolve_one(world: &World, query: &RefQuery) -> Option<Resolved> {
    let res = world.resolve(query);
    if !res.keep {
        return None;
    }
    let (target, external, alts) = match res.target {
        Target::Symbol(id) => (Some(id), None, Vec::new()),
        Target::External(q) => (None, Some(q), Vec::new()),
        Target::Overloads(ids) => (ids.first().copied(), None, ids.get(1..).unwrap_or_default().to_vec()),
        Target::Nothing => (None, None, Vec::new()),
    };
    Some(Resolved { source: res.source, target, external, confidence: res.confidence, alts })
}

/// What a parser thread hands the writer: a file as extracted (its references moved to
/// `refs`, packed on the parser thread, and its imports kept as they are, which storing the
/// file reads), with the hash and size of the very bytes extracted: the file may have
/// changed since the change test read it, and a hash of other bytes would make the index
/// take its stale symbols for current once the file is back to that content.
struct Parsed {
    extract: FileExtract,
    imports: Vec<Reference>,
    refs: Packed,
    hash: String,
    size: usize,
}

/// The repository's `macro_rules!` definitions for a run, by file: those of the files it
/// parses from their new text (`texts` holds those already read), the others as `known`
/// holds them, or (the first run of a process) from the index's macro symbols and the
/// files on disk.
fn read_macro_sources(
    root: &Path,
    store: &Store,
    changes: &run::Changes,
    texts: &mut HashMap<String, String>,
    layout: &Layout,
    known: Option<BTreeMap<String, Vec<(String, String)>>>,
) -> anyhow::Result<BTreeMap<String, Vec<(String, String)>>> {
    let spec = crate::lang::spec(Language::Rust);
    let parsing: HashSet<&str> =
        changes.to_parse.iter().filter(|(c, _)| c.spec.language == Language::Rust).map(|(c, _)| c.path.as_str()).collect();
    let slice = |text: &str, first: u32, last: u32| {
        let lines: Vec<&str> = text.split('\n').collect();
        lines.get(first as usize - 1..(last as usize).min(lines.len())).map(|l| l.join("\n")).unwrap_or_default()
    };
    let mut sources = match known {
        Some(known) => known,
        None => {
            let mut by_file: BTreeMap<String, Vec<(String, u32, u32)>> = BTreeMap::new();
            for (path, module, first, last) in store.macro_definitions()? {
                by_file.entry(path).or_default().push((module, first, last));
            }
            let mut out = BTreeMap::new();
            for (path, list) in by_file {
                if parsing.contains(path.as_str()) {
                    continue;
                }
                let Ok(bytes) = std::fs::read(root.join(&path)) else { continue };
                let text = String::from_utf8_lossy(&bytes);
                out.insert(path, list.into_iter().map(|(module, first, last)| (module, slice(&text, first, last))).collect());
            }
            out
        }
    };
    for path in &changes.removed_paths {
        sources.remove(path);
    }
    for (c, _) in changes.to_parse.iter().filter(|(c, _)| c.spec.language == Language::Rust) {
        sources.remove(&c.path);
        let text = match texts.remove(&c.path) {
            Some(t) => t,
            None => match std::fs::read(&c.abs) {
                Ok(b) if b.windows(12).any(|w| w == b"macro_rules!") => String::from_utf8_lossy(&b).into_owned(),
                _ => continue,
            },
        };
        if !text.contains("macro_rules!") {
            continue;
        }
        let module = layout.module(&c.path);
        let defs: Vec<(String, String)> =
            extract::definitions_in(spec, &text).into_iter().map(|(first, last)| (module.clone(), slice(&text, first, last))).collect();
        if !defs.is_empty() {
            sources.insert(c.path.clone(), defs);
        }
    }
    Ok(sources)
}

fn read_and_extract(c: &Candidate, layout: &Layout, macros: &MacroTable) -> anyhow::Result<Parsed> {
    let bytes = std::fs::read(&c.abs).with_context(|| "unreadable")?;
    if is_binary(&bytes) {
        anyhow::bail!(BINARY);
    }
    let hash = content_hash(&bytes);
    let source = String::from_utf8_lossy(&bytes);
    let module = match c.spec.language {
        Language::Rust => layout.module(&c.path),
        Language::Java => String::new(),
    };
    let mut extract = match c.spec.language {
        Language::Rust => extract::extract_with_macros(c.spec, &source, &module, macros),
        Language::Java => extract::extract(c.spec, &source, &module),
    };
    let references = std::mem::take(&mut extract.references);
    let imports = references.iter().filter(|r| r.kind == RefKind::Imports).cloned().collect();
    Ok(Parsed { extract, imports, refs: Packed::pack(references), hash, size: bytes.len() })
}

/// Why a file with a NUL byte near its start is not indexed.
const BINARY: &str = "binary (NUL byte)";

fn is_binary(bytes: &[u8]) -> bool {
    bytes.iter().take(8192).any(|b| *b == 0)
}

/// The hash the index keeps of a file's bytes.
fn content_hash(bytes: &[u8]) -> String {
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(bytes))
}

/// CPU time (user and system, every thread) the process has used so far, in ms: the phase
/// log prints it beside the wall time, so that a phase one core does shows as such.
fn cpu_ms() -> u64 {
    // SAFETY: getrusage writes the struct it is given and reads nothing else.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0;
    }
    let ms = |t: libc::timeval| t.tv_sec as u64 * 1000 + t.tv_usec as u64 / 1000;
    ms(usage.ru_utime) + ms(usage.ru_stime)
}

/// Seconds since the epoch, as text (the store keeps it for freshness reports).
fn unix_seconds_now() -> String {
    std::time::SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs().to_string()).unwrap_or_default()
}
