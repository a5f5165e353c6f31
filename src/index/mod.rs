//! Indexing: walk (the `ignore` crate) -> extract (all cores) -> store symbols -> resolve
//! -> store references, incrementally: only files whose content changed are parsed again,
//! and only references whose resolution those changes can affect are resolved again.
//! One bad file never stops a run: it is counted and reported as skipped.

use std::collections::VecDeque;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, UNIX_EPOCH};

use anyhow::Context;

use crate::build;
use crate::build::rust_layout::{self, Layout};
use crate::config::{Config, Filter, CONFIG_FILE, LEGACY_CONFIG_FILE};
use crate::extract;
use crate::model::{FileExtract, Language, RefKind, SymbolKind};
use crate::resolve::{FileCtx, Import, RefQuery, Sym, SymbolId, Target, World};
use crate::store::{self, NewSymbol, Resolved, Store, StoredRef, FLAG_GLOB, FLAG_STATIC};
use crate::walk::{self, Candidate};

pub const DEFAULT_MAX_FILE_SIZE: u64 = crate::config::DEFAULT_MAX_FILE_SIZE;
/// Meta key of the `#[path]` module declarations found so far (JSON).
const PATH_MODS_KEY: &str = "rust_path_mods";

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
        self.apply(walked.files, walked.skipped, Scope::All, progress).map(|(summary, _)| summary)
    }

    /// Gives back the database page cache an update filled (a save reads a few pages; loading
    /// the resolver's world reads them all).
    pub fn release_memory(&mut self) {
        self.store.release_memory();
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
        let walked = walk::walk(&self.root, &self.opts.filter, self.opts.max_file_size, Some(&abs));
        let (summary, relayout) = self.apply(walked.files, walked.skipped, Scope::Under(kept), progress)?;
        if relayout {
            // A `#[path]` declaration changed: files elsewhere may be in other modules now.
            return self.full(progress);
        }
        Ok(summary)
    }

    /// Reconciles the index with the files a walk found for `scope`.
    fn apply(
        &mut self,
        files: Vec<Candidate>,
        mut skipped: Vec<(String, String)>,
        scope: Scope,
        progress: &dyn Fn(usize, usize),
    ) -> anyhow::Result<(Summary, bool)> {
        let started = Instant::now();
        let Indexer { store, world, world_loaded, layout, path_mods_known, generation, opts, units, unit_map, units_before, .. } = self;
        let unit_of = |path: &str| build::unit_key(unit_map.unit_dir(units, path));
        let place = |path: &str| build::file_place(units, unit_map, path);
        let before = units_before.as_ref();
        let unit_moved = |path: &str| before.is_some_and(|(u, m)| build::unit_key(m.unit_dir(u, path)) != unit_of(path));
        let states = store.file_states()?;

        // `#[path]` declarations of changed Rust files first: they decide the module of
        // other files, which are extracted again when theirs moved.
        let before_mods = layout.path_mods.clone();
        let present: HashSet<&str> = files.iter().map(|c| c.path.as_str()).collect();
        layout.path_mods.retain(|path, _| !scope.covers(path) || present.contains(path.as_str()));
        for c in files.iter().filter(|c| c.spec.language == Language::Rust) {
            if *path_mods_known && states.get(&c.path).is_some_and(|o| o.size == c.size as i64 && o.mtime_ns == c.mtime_ns) {
                continue;
            }
            let text = std::fs::read(&c.abs).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
            let found = if text.contains("#[path") { rust_layout::scan_path_mods(&c.path, &text) } else { Vec::new() };
            if found.is_empty() {
                layout.path_mods.remove(&c.path);
            } else {
                layout.path_mods.insert(c.path.clone(), found);
            }
        }
        let relayout = layout.settle();
        let path_mods_changed = before_mods != layout.path_mods || (!*path_mods_known && matches!(scope, Scope::All));

        // Which files changed: size or mtime differ, then the content hash decides.
        let mut to_parse: Vec<(Candidate, Option<i64>)> = Vec::new();
        let mut touched: Vec<(i64, i64)> = Vec::new();
        let mut unchanged = 0;
        let mut seen = HashSet::default();
        let mut relocated: Vec<i64> = Vec::new();
        for c in files {
            seen.insert(c.path.clone());
            let old = states.get(&c.path);
            // A Rust file whose crate or module path changed (a `Cargo.toml` edit, a moved
            // crate) is extracted again even when its content is the same.
            let module_moved = c.spec.language == Language::Rust && old.is_some_and(|o| o.module != layout.module(&c.path));
            // A file whose build unit changed (a module added or dropped, a root moved)
            // leaves and enters again: what referred to its symbols from elsewhere is
            // resolved again, as their reach has changed.
            if let Some(old) = old.filter(|_| unit_moved(&c.path)) {
                relocated.push(old.id);
                to_parse.push((c, None));
                continue;
            }
            if let Some(old) = old.filter(|_| !module_moved) {
                if old.size == c.size as i64 && old.mtime_ns == c.mtime_ns {
                    unchanged += 1;
                    continue;
                }
            }
            let Some(old) = old else {
                // A new file: the parser thread reads it (once) and tells a binary one.
                to_parse.push((c, None));
                continue;
            };
            // An indexed file that can no longer be read, or has become binary, is not kept
            // (it was in the index with what it held before).
            let bytes = match std::fs::read(&c.abs) {
                Ok(b) if is_binary(&b) => Err(BINARY.to_string()),
                Ok(b) => Ok(b),
                Err(e) => Err(format!("unreadable: {e}")),
            };
            let bytes = match bytes {
                Ok(b) => b,
                Err(why) => {
                    seen.remove(&c.path);
                    skipped.push((c.path, why));
                    continue;
                }
            };
            if old.hash == content_hash(&bytes) && !module_moved {
                unchanged += 1;
                touched.push((old.id, c.mtime_ns));
            } else {
                to_parse.push((c, Some(old.id)));
            }
        }
        // Indexed files the walk spoke for but did not find (deleted, now ignored, now too
        // large or binary) leave the index.
        let mut removed_paths: Vec<String> = states.keys().filter(|p| scope.covers(p) && !seen.contains(*p)).cloned().collect();
        removed_paths.sort();
        let mut removed: Vec<i64> = removed_paths.iter().map(|p| states[p].id).collect();
        removed.extend(relocated);

        if (!to_parse.is_empty() || !removed.is_empty() || !touched.is_empty()) && !*world_loaded {
            crate::resolve::load::load_world(store, world, &place)?;
            *world_loaded = true;
        }
        let (mut next_symbol, mut next_file) = store.next_ids()?;
        let incremental = !world.files.is_empty();
        let total = to_parse.len();
        let mut writer = store.transaction()?;
        // A first build (an empty index) loads in bulk. Not "the world is empty": a no-op
        // run never loads the world, and must not rebuild the indexes.
        let bulk = states.is_empty();
        if bulk {
            writer.begin_bulk()?;
        }
        // Names whose symbols appeared or disappeared, and symbols that are gone: the
        // references they can affect are resolved again.
        let mut affected: HashSet<String> = HashSet::default();
        let mut gone: Vec<SymbolId> = Vec::new();
        for id in &removed {
            affected.extend(writer.names_of_file(*id)?);
            gone.extend(world.remove_file(*id));
            writer.clear_file(*id, true)?;
        }
        // A changed file's symbols keep their ids when parsed again (same kind and
        // qualified name), so references elsewhere that point at them stay valid.
        let mut previous: HashMap<i64, Previous> = HashMap::default();
        let mut old_supers: HashMap<SymbolId, Vec<SymbolId>> = HashMap::default();
        for (_, old) in &to_parse {
            if let Some(id) = old {
                let mut keys: HashMap<(String, String), VecDeque<(SymbolId, String)>> = HashMap::default();
                for (sid, kind, xqname, name) in writer.symbol_keys(*id)? {
                    old_supers.insert(sid, world.supertypes.get(&sid).cloned().unwrap_or_default());
                    keys.entry((kind, xqname)).or_default().push_back((sid, name));
                }
                let imports = writer.import_keys(*id)?.into_iter().collect();
                previous.insert(*id, Previous { keys, imports });
                writer.clear_file(*id, false)?;
                world.remove_file(*id);
            }
        }
        for (id, mtime) in &touched {
            writer.touch_file(*id, *mtime)?;
        }

        // Parse on every core while this thread writes what arrives.
        let cursor = AtomicUsize::new(0);
        let threads = opts.threads.max(1);
        let (tx, rx) = crossbeam_channel::bounded::<(usize, anyhow::Result<Parsed>)>(256);
        let mut pending: Vec<PendingFile> = Vec::with_capacity(total);
        let mut parse_errors = 0u64;
        std::thread::scope(|scope| -> anyhow::Result<()> {
            for _ in 0..threads {
                let tx = tx.clone();
                let to_parse = &to_parse;
                let cursor = &cursor;
                let layout = &*layout;
                std::thread::Builder::new()
                    .stack_size(16 * 1024 * 1024)
                    .spawn_scoped(scope, move || loop {
                        let i = cursor.fetch_add(1, Ordering::Relaxed);
                        let Some((c, _)) = to_parse.get(i) else {
                            break;
                        };
                        let result = read_and_extract(c, layout);
                        if tx.send((i, result)).is_err() {
                            break;
                        }
                    })
                    .expect("spawning a parser thread");
            }
            drop(tx);
            // Results are written in path order whatever order they arrive in, so that symbol
            // ids (and with them every tie-break) do not depend on thread timing.
            let mut done = 0;
            let mut next_to_write = 0;
            let mut waiting: HashMap<usize, anyhow::Result<Parsed>> = HashMap::default();
            let mut ready = Vec::new();
            for (i, result) in rx {
                done += 1;
                progress(done, total);
                waiting.insert(i, result);
                while let Some(result) = waiting.remove(&next_to_write) {
                    ready.push((next_to_write, result));
                    next_to_write += 1;
                }
                for (i, result) in ready.drain(..) {
                    let (c, old) = &to_parse[i];
                    let Parsed { extract, hash, size } = match result {
                        Ok(p) => p,
                        Err(e) => {
                            skipped.push((c.path.clone(), format!("{e:#}")));
                            continue;
                        }
                    };
                    let file_id = old.unwrap_or_else(|| {
                        next_file += 1;
                        next_file - 1
                    });
                    parse_errors += extract.parse_errors as u64;
                    if let Some(why) = &extract.failure {
                        skipped.push((c.path.clone(), why.clone()));
                    }
                    writer.upsert_file(
                        file_id,
                        old.is_some(),
                        &c.path,
                        c.spec.language.as_str(),
                        &extract.module,
                        size as i64,
                        &hash,
                        c.mtime_ns,
                        extract.loc,
                        extract.parse_errors,
                        extract.symbols.len(),
                    )?;
                    let (unit, outside_roots) = place(&c.path);
                    world.add_file(file_id, FileCtx { language: c.spec.language, module: extract.module.clone(), unit, outside_roots });
                    let mut prev = old.and_then(|id| previous.remove(&id));
                    let mut ids = Vec::with_capacity(extract.symbols.len());
                    for s in &extract.symbols {
                        let key = match &s.params {
                            Some(p) => (s.kind.as_str().to_string(), format!("{}({p})", s.qname)),
                            None => (s.kind.as_str().to_string(), s.qname.clone()),
                        };
                        let id = match prev.as_mut().and_then(|p| p.keys.get_mut(&key)).and_then(VecDeque::pop_front) {
                            Some((id, _)) => id,
                            None => {
                                affected.insert(s.name.clone());
                                if s.kind == SymbolKind::Constructor {
                                    // `this(...)` and `super(...)` are written without the name.
                                    affected.insert("this".to_string());
                                    affected.insert("super".to_string());
                                }
                                next_symbol += 1;
                                next_symbol - 1
                            }
                        };
                        let parent = s.parent.map(|p| ids[p]);
                        ids.push(id);
                        let owner = match (s.parent, &s.impl_of) {
                            (Some(p), _) => extract.symbols[p].name.as_str(),
                            (None, Some(info)) => crate::model::impl_owner(&info.self_type),
                            (None, None) => crate::model::last_segment(&extract.module),
                        };
                        writer.insert_symbol(&NewSymbol { id, file: file_id, parent, qname: &s.qname, owner, symbol: s })?;
                        world.add_symbol(
                            id,
                            Sym {
                                file: file_id,
                                parent,
                                kind: s.kind,
                                name: s.name.as_str().into(),
                                qname: s.qname.as_str().into(),
                                impl_type: s.impl_of.as_ref().map(|i| i.self_type.as_str().into()),
                                impl_module: s.impl_of.as_ref().and_then(|i| i.module.as_deref()).map(Into::into),
                                returns: s.returns.as_deref().map(Into::into),
                                params: s.params.as_deref().map(Into::into),
                                access: crate::resolve::Access::from_visibility(&s.visibility),
                                from_trait: s.impl_of.as_ref().is_some_and(|i| i.trait_name.is_some()),
                            },
                        );
                    }
                    let imports: HashSet<(String, String, i64)> = extract
                        .references
                        .iter()
                        .filter(|r| r.kind == RefKind::Imports)
                        .map(|r| (r.alias.clone().unwrap_or_else(|| r.simple_name().to_string()), r.name.clone(), import_flags(r)))
                        .collect();
                    match prev {
                        Some(p) => {
                            // Symbols of the old version not matched by the new one are gone.
                            for (sid, name) in p.keys.into_values().flatten() {
                                gone.push(sid);
                                affected.insert(name);
                            }
                            let changed: Vec<String> = p.imports.symmetric_difference(&imports).map(|k| k.0.clone()).collect();
                            // A Rust re-export is a path's middle segment (`facade::core::X`
                            // through `pub use engine_core as core;`): paths that start at the
                            // file's crate are resolved again too.
                            if !changed.is_empty() && c.spec.language == Language::Rust {
                                let krate = extract.module.split("::").next().unwrap_or("");
                                affected.extend([krate.to_string(), "crate".to_string(), "self".to_string(), "super".to_string()]);
                            }
                            affected.extend(changed);
                        }
                        None => affected.extend(imports.iter().map(|k| k.0.clone())),
                    }
                    for r in extract.references.iter().filter(|r| r.kind == RefKind::Imports) {
                        world.add_import(Import {
                            file: file_id,
                            enclosing: r.enclosing.map(|e| ids[e]),
                            path: r.name.clone(),
                            alias: r.alias.clone(),
                            glob: r.glob,
                            is_static: r.is_static,
                        });
                    }
                    pending.push(PendingFile { file: file_id, symbol_ids: ids, extract });
                }
            }
            Ok(())
        })?;

        // Rust impl members belong to the type their impl names, wherever it is declared.
        let mut rechecked = 0;
        tracing::debug!(
            ms = started.elapsed().as_millis() as u64,
            parsed = pending.len(),
            affected = affected.len(),
            gone = gone.len(),
            "phase: parsed and stored"
        );
        let old_refs = if incremental {
            writer.ensure_update_indexes()?;
            writer.refs_to_recheck(&affected, &gone)?
        } else {
            Vec::new()
        };
        tracing::debug!(ms = started.elapsed().as_millis() as u64, old_refs = old_refs.len(), "phase: recheck list");
        let mut impl_members: Vec<SymbolId> = pending
            .iter()
            .flat_map(|p| p.extract.symbols.iter().zip(&p.symbol_ids).filter(|(s, _)| s.impl_of.is_some()).map(|(_, id)| *id))
            .collect();
        if incremental {
            impl_members.extend(writer.impl_members_to_recheck()?);
        }
        impl_members.sort_unstable();
        impl_members.dedup();
        for id in impl_members {
            if let Some((parent, qname)) = world.attach_impl_member(id) {
                writer.update_symbol_owner(id, parent, &qname)?;
            }
        }

        // Supertypes first: member lookups through inheritance depend on them.
        let changed_files: HashSet<i64> = pending.iter().map(|p| p.file).collect();
        let mut old_refs: Vec<StoredRef> = old_refs.into_iter().filter(|r| !changed_files.contains(&r.file)).collect();
        for r in old_refs.iter().filter(|r| Pass::Supertypes.includes(r.kind)) {
            if let Some(s) = r.source {
                old_supers.entry(s).or_insert_with(|| world.supertypes.get(&s).cloned().unwrap_or_default());
            }
        }
        tracing::debug!(ms = started.elapsed().as_millis() as u64, "phase: impls attached");
        // A nested type's supertype may be a member type its enclosing type inherits
        // (`AbstractMap.SimpleEntry implements Entry`, `Entry` coming from `Map`): the
        // enclosing type's supertypes must be known first. Two rounds in memory seed them
        // (nesting two deep); the pass below then resolves and stores with them known.
        for _ in 0..2 {
            let mut seeded: HashMap<SymbolId, Vec<SymbolId>> = HashMap::default();
            for p in &pending {
                for r in p.extract.references.iter().filter(|r| Pass::Supertypes.includes(r.kind)) {
                    let enclosing = r.enclosing.map(|e| p.symbol_ids[e]);
                    let res = resolve_one(world, &query_of(p.file, enclosing, r));
                    if let Some(Resolved { source: Some(source), target: Some(target), .. }) = res {
                        seeded.entry(source).or_default().push(target);
                    }
                }
            }
            for (source, mut supers) in seeded {
                supers.sort_unstable();
                supers.dedup();
                world.set_supertypes(source, supers);
            }
        }
        tracing::debug!(ms = started.elapsed().as_millis() as u64, "phase: supertypes seeded");
        // A first build holds the supertypes pass's references back and writes each file's
        // with its other references: reference ids grow with the file (`store::ref_ids_of`),
        // so the table is then written in order, never in the middle (which cost 0.17 s).
        let mut held: Vec<Vec<(usize, Option<SymbolId>, Resolved)>> = Vec::new();
        for pass in [Pass::Supertypes, Pass::Rest] {
            // Sources whose extends/implements references were written in this pass.
            let mut touched: HashSet<SymbolId> = HashSet::default();
            // A first build: the supertypes this pass resolved, by source (they are stored
            // with the next pass), so that they need not be read back from the store.
            let mut written_supers: HashMap<SymbolId, Vec<SymbolId>> = HashMap::default();
            // Resolution reads the world only: it runs on every core, a file at a time,
            // while this thread writes the results in file order (ids stay deterministic).
            let shared: &World = world;
            let cursor = AtomicUsize::new(0);
            let (tx, rx) = crossbeam_channel::bounded::<(usize, Vec<(usize, Option<SymbolId>, Resolved)>)>(64);
            std::thread::scope(|scope| -> anyhow::Result<()> {
                for _ in 0..threads {
                    let (tx, pending, cursor) = (tx.clone(), &pending, &cursor);
                    scope.spawn(move || loop {
                        let i = cursor.fetch_add(1, Ordering::Relaxed);
                        let Some(p) = pending.get(i) else { break };
                        let mut out = Vec::new();
                        for (k, r) in p.extract.references.iter().enumerate() {
                            if pass.includes(r.kind) {
                                let enclosing = r.enclosing.map(|e| p.symbol_ids[e]);
                                let res = resolve_one(shared, &query_of(p.file, enclosing, r));
                                if let Some(res) = res {
                                    out.push((k, enclosing, res));
                                }
                            }
                        }
                        if tx.send((i, out)).is_err() {
                            break;
                        }
                    });
                }
                drop(tx);
                let mut waiting: HashMap<usize, Vec<(usize, Option<SymbolId>, Resolved)>> = HashMap::default();
                let mut next = 0;
                for (i, out) in rx {
                    waiting.insert(i, out);
                    while let Some(out) = waiting.remove(&next) {
                        let p = &pending[next];
                        touched.extend(out.iter().filter_map(|(_, _, res)| res.source));
                        if bulk && pass == Pass::Supertypes {
                            for (_, _, res) in &out {
                                if let (Some(source), Some(target)) = (res.source, res.target) {
                                    written_supers.entry(source).or_default().push(target);
                                }
                            }
                            held.push(out);
                        } else {
                            let first = held.get(next).map(Vec::as_slice).unwrap_or_default();
                            writer.insert_refs(
                                first.iter().chain(&out).map(|(k, enclosing, res)| (p.file, *enclosing, &p.extract.references[*k], res)),
                            )?;
                        }
                        next += 1;
                    }
                }
                Ok(())
            })?;
            // An import resolved again may now bring in something else under its name: the
            // references written with that name are resolved again too (a re-export's
            // change reaches the files that import through it), a few rounds deep.
            let mut round = 0;
            let mut from = 0;
            loop {
                let mut imported: HashSet<String> = HashSet::default();
                for r in &old_refs[from..] {
                    if pass == Pass::Rest && r.kind == RefKind::Imports {
                        imported.insert(r.alias_or_simple().to_string());
                    }
                }
                let end = old_refs.len();
                self::recheck(world, &mut writer, &old_refs[from..end], pass, &mut touched, &mut rechecked)?;
                from = end;
                round += 1;
                if imported.is_empty() || round > 4 {
                    break;
                }
                let known: HashSet<i64> = old_refs.iter().map(|r| r.id).collect();
                let more = writer.refs_to_recheck(&imported, &[])?;
                let before = old_refs.len();
                old_refs.extend(more.into_iter().filter(|r| !known.contains(&r.id) && !changed_files.contains(&r.file)));
                if old_refs.len() == before {
                    break;
                }
            }
            if pass == Pass::Supertypes {
                // Member lookups through inheritance read these lists: rebuild each touched
                // one from the stored references, which now hold the truth.
                for p in &pending {
                    touched.extend(p.symbol_ids.iter().copied());
                }
                let mut inherited: HashSet<String> = HashSet::default();
                for s in touched {
                    if !world.syms.contains_key(&s) {
                        continue;
                    }
                    let after = if bulk {
                        let mut after = written_supers.remove(&s).unwrap_or_default();
                        after.sort_unstable();
                        after.dedup();
                        after
                    } else {
                        writer.supertypes_of(s)?
                    };
                    let before = old_supers.get(&s).cloned().unwrap_or_default();
                    if incremental && before != after {
                        // What the type inherits changed: references to inherited members
                        // (through it or its subtypes) may resolve elsewhere now.
                        for t in before.iter().chain(after.iter()) {
                            member_names(world, *t, &mut inherited, 0);
                        }
                    }
                    world.set_supertypes(s, after);
                }
                tracing::debug!(ms = started.elapsed().as_millis() as u64, "phase: supertypes stored");
                if !inherited.is_empty() {
                    let known: HashSet<i64> = old_refs.iter().map(|r| r.id).collect();
                    let more = writer.refs_to_recheck(&inherited, &[])?;
                    old_refs.extend(more.into_iter().filter(|r| !known.contains(&r.id) && !changed_files.contains(&r.file)));
                }
            }
        }
        tracing::debug!(ms = started.elapsed().as_millis() as u64, rechecked, "phase: resolved");
        if bulk {
            writer.end_bulk()?;
        }
        if !pending.is_empty() || !removed.is_empty() {
            writer.name_endpoints()?;
        }
        writer.gc_externals()?;
        writer.set_meta("next_symbol_id", &next_symbol.to_string())?;
        if path_mods_changed {
            writer.set_meta(PATH_MODS_KEY, &serde_json::to_string(&layout.path_mods)?)?;
            *path_mods_known |= matches!(scope, Scope::All);
        }
        writer.set_meta("next_file_id", &next_file.to_string())?;
        if units_before.take().is_some() {
            writer.set_meta(store::UNITS_KEY, &serde_json::to_string(&*units)?)?;
        }
        *generation += 1;
        writer.stamp_files(*generation)?;
        writer.set_meta("generation", &generation.to_string())?;
        writer.set_meta("indexed_at", &unix_seconds_now())?;
        tracing::debug!(ms = started.elapsed().as_millis() as u64, "phase: externals collected");
        writer.commit()?;
        match &scope {
            Scope::All => store.set_skipped(&skipped)?,
            Scope::Under(targets) => store.update_skipped(targets, &skipped)?,
        }
        // A first build becomes the index only now, complete.
        store.publish()?;

        let mut summary = Summary {
            parsed: pending.len(),
            unchanged,
            removed: removed.len(),
            parse_errors,
            rechecked,
            changed_paths: to_parse.iter().map(|(c, _)| c.path.clone()).collect(),
            removed_paths,
            skipped,
            ..Summary::default()
        };
        if matches!(scope, Scope::All) {
            let counts = store.counts()?;
            summary.files = counts.files as usize;
            summary.loc = counts.loc;
            summary.symbols = counts.symbols;
            summary.references = counts.references;
            summary.resolved = counts.resolved;
            summary.parse_errors = counts.parse_errors;
        }
        tracing::debug!(ms = started.elapsed().as_millis() as u64, "phase: committed and counted");
        summary.elapsed = started.elapsed();
        Ok((summary, relayout && matches!(scope, Scope::Under(_))))
    }
}

/// What a changed file held before it was parsed again.
struct Previous {
    /// (kind, extracted qualified name) -> the ids (and names) of symbols with that key.
    keys: HashMap<(String, String), VecDeque<(SymbolId, String)>>,
    /// (visible name, path, flags) of its imports.
    imports: HashSet<(String, String, i64)>,
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

struct PendingFile {
    file: i64,
    symbol_ids: Vec<SymbolId>,
    extract: FileExtract,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    Supertypes,
    Rest,
}

impl Pass {
    fn includes(self, kind: RefKind) -> bool {
        matches!(kind, RefKind::Extends | RefKind::Implements) == (self == Pass::Supertypes)
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
    for r in refs.iter().filter(|r| pass.includes(r.kind)) {
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

/// A file as extracted, with the hash and size of the very bytes extracted: the file may
/// have changed since the change test read it, and a hash of other bytes would make the
/// index take its stale symbols for current once the file is back to that content.
struct Parsed {
    extract: FileExtract,
    hash: String,
    size: usize,
}

fn read_and_extract(c: &Candidate, layout: &Layout) -> anyhow::Result<Parsed> {
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
    Ok(Parsed { extract: extract::extract(c.spec, &source, &module), hash, size: bytes.len() })
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

/// Seconds since the epoch, as text (the store keeps it for freshness reports).
fn unix_seconds_now() -> String {
    std::time::SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs().to_string()).unwrap_or_default()
}
