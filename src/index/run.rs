//! One reconcile of the index with a walk, phase by phase: the run's state is a `Run`, and
//! each phase is a method (`Indexer::apply` calls them in order). The phases: which files
//! changed (`classify`), files parsed on every core while removed files are cleared and
//! changed files' old keys read (`clear_old_versions`), then stored in path order
//! (`parse_and_store`), impl members attached to their types, supertypes seeded in memory
//! then resolved and stored (`resolve_passes`), references elsewhere that the changes can
//! affect rechecked, and the meta rows written and the transaction committed (`commit`).
//!
//! Owns the order of the phases and what they hand each other. It must not walk (the
//! indexer hands it the files), and it writes through the store's `Writer` only.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::{
    content_hash, cpu_ms, import_flags, is_binary, member_names, query_of, read_and_extract, recheck, resolve_one, unix_seconds_now,
    OldSymbol, Parsed, Pass, PendingFile, Previous, Scope, Summary, BINARY,
};
use crate::build::rust_layout::Layout;
use crate::build::{self, UnitMap, Units};
use crate::frameworks::endpoints::{self, Templated};
use crate::model::{Language, RefKind, Reference, SymbolId, SymbolKind};
use crate::resolve::{FileCtx, Import, Sym, World, UNKNOWN_SUPERTYPE};
use crate::store::{self, FileState, NewSymbol, RenamedEndpoint, Resolved, StoredRef, Writer};
use crate::walk::Candidate;

/// Which files a walk found changed, before anything is written.
pub(super) struct Changes {
    /// New or changed files, with the id of the indexed version when there is one.
    pub to_parse: Vec<(Candidate, Option<i64>)>,
    /// Unchanged content with a new mtime: (file id, mtime).
    pub touched: Vec<(i64, i64)>,
    pub unchanged: usize,
    /// Files leaving the index (deleted, now ignored, or leaving for another unit).
    pub removed: Vec<i64>,
    pub removed_paths: Vec<String>,
}

/// Sorts the walk's files into unchanged, touched (same content, new mtime), to parse and
/// removed. Size and mtime decide first, then the content hash; a Rust file whose module
/// path changed and a file whose build unit changed are parsed again whatever their
/// content. Files that can no longer be read join `skipped`.
pub(super) fn classify(
    files: Vec<Candidate>,
    states: &std::collections::HashMap<String, FileState>,
    scope: &Scope,
    layout: &Layout,
    unit_moved: &dyn Fn(&str) -> bool,
    skipped: &mut Vec<(String, String)>,
) -> Changes {
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
    Changes { to_parse, touched, unchanged, removed, removed_paths }
}

/// The state one run's phases share, from the first write to the commit.
pub(super) struct Run<'a> {
    pub started: Instant,
    pub threads: usize,
    pub units: &'a Units,
    pub unit_map: &'a UnitMap,
    pub layout: &'a Layout,
    /// The repository's `macro_rules!` macros, which extraction expands.
    pub macros: &'a crate::extract::MacroTable,
    pub world: &'a mut World,
    pub writer: Writer<'a>,
    pub changes: Changes,
    pub skipped: Vec<(String, String)>,
    /// A first build (an empty index) loads in bulk. Not "the world is empty": a no-op
    /// run never loads the world, and must not rebuild the indexes.
    pub bulk: bool,
    /// The world held files before this run: references elsewhere may need a recheck.
    pub incremental: bool,
    pub next_symbol: i64,
    pub next_file: i64,
    /// Names whose symbols appeared or disappeared, and symbols that are gone: the
    /// references they can affect are resolved again.
    pub affected: HashSet<String>,
    /// Names of members that appeared, disappeared or changed their declared type: a call
    /// chain through one of them anywhere (`o.getPets().get(0).getType()`) is resolved
    /// again, not only the link right after it.
    pub links: HashSet<String>,
    pub gone: Vec<SymbolId>,
    /// A changed file's symbols keep their ids when parsed again (same kind and
    /// qualified name), so references elsewhere that point at them stay valid.
    pub previous: HashMap<i64, Previous>,
    /// The supertypes of changed types before the run, to tell what inheritance changed.
    pub old_supers: HashMap<SymbolId, crate::resolve::SupersSnapshot>,
    /// A first build: the supertypes from outside the repository the supertypes pass
    /// resolved, by source (`written_supers` holds the repository's).
    pub written_outside: HashMap<SymbolId, Vec<Box<str>>>,
    /// Parsed files, in path order, with their symbols' ids.
    pub pending: Vec<PendingFile>,
    pub parse_errors: u64,
    pub rechecked: usize,
}

impl Run<'_> {
    fn ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// Removed files leave the world and the store; changed files' old versions
    /// (`to_parse`'s indexed ones) leave the world, their symbols' keys and hashes kept to
    /// give the new version the same ids, their rows left for `store_file` and
    /// `Writer::insert_refs` to keep, write over or delete; touched files get their new
    /// mtime.
    fn clear_old_versions(&mut self, to_parse: &[(Candidate, Option<i64>)]) -> anyhow::Result<()> {
        for id in &self.changes.removed {
            let names = self.writer.names_of_file(*id)?;
            self.links.extend(names.iter().cloned());
            self.affected.extend(names);
            self.gone.extend(self.world.remove_file(*id));
            self.writer.remove_file(*id)?;
        }
        for (_, old) in to_parse {
            if let Some(id) = old {
                let mut keys: HashMap<(String, String), VecDeque<OldSymbol>> = HashMap::default();
                for k in self.writer.symbol_keys(*id)? {
                    let sid = k.id;
                    self.old_supers.insert(sid, self.world.supers_snapshot(sid));
                    let returns = self.world.syms.get(&sid).and_then(|s| s.returns.clone());
                    let blanket = self.world.syms.get(&sid).is_some_and(|s| s.blanket);
                    let access = self.world.syms.get(&sid).map(|s| s.access);
                    let old = OldSymbol { id: sid, name: k.name, returns, blanket, access, hash: k.hash, lines: k.lines };
                    keys.entry((k.kind, k.key)).or_default().push_back(old);
                }
                let imports = self.writer.import_keys(*id)?.into_iter().collect();
                self.previous.insert(*id, Previous { keys, imports });
                self.writer.keep_refs(*id);
                self.world.remove_file(*id);
            }
        }
        for (id, mtime) in &self.changes.touched {
            self.writer.touch_file(*id, *mtime)?;
        }
        Ok(())
    }

    /// Parses on every core while this thread clears the old versions of what changed
    /// (`clear_old_versions`, which the parsers used to wait for), then writes what
    /// arrives. Results are written in path order whatever order they arrive in,
    /// so that symbol ids (and with them every tie-break) do not depend on thread timing.
    pub fn parse_and_store(&mut self, progress: &dyn Fn(usize, usize)) -> anyhow::Result<()> {
        let to_parse = std::mem::take(&mut self.changes.to_parse);
        let total = to_parse.len();
        let cursor = AtomicUsize::new(0);
        let (tx, rx) = crossbeam_channel::bounded::<(usize, anyhow::Result<Parsed>)>(256);
        self.pending.reserve(total);
        let result = std::thread::scope(|scope| -> anyhow::Result<()> {
            for _ in 0..self.threads.max(1) {
                let tx = tx.clone();
                let (to_parse, cursor, layout, macros) = (&to_parse, &cursor, self.layout, self.macros);
                std::thread::Builder::new()
                    .stack_size(16 * 1024 * 1024)
                    .spawn_scoped(scope, move || loop {
                        let i = cursor.fetch_add(1, Ordering::Relaxed);
                        let Some((c, _)) = to_parse.get(i) else {
                            break;
                        };
                        let result = read_and_extract(c, layout, macros);
                        if tx.send((i, result)).is_err() {
                            break;
                        }
                    })
                    .expect("spawning a parser thread");
            }
            drop(tx);
            self.clear_old_versions(&to_parse)?;
            tracing::debug!(ms = self.ms(), cpu_ms = cpu_ms(), "phase: old versions cleared");
            let mut done = 0;
            let mut next_to_write = 0;
            let mut waiting: HashMap<usize, anyhow::Result<Parsed>> = HashMap::default();
            for (i, result) in rx {
                done += 1;
                progress(done, total);
                waiting.insert(i, result);
                while let Some(result) = waiting.remove(&next_to_write) {
                    let (c, old) = &to_parse[next_to_write];
                    next_to_write += 1;
                    match result {
                        Ok(parsed) => {
                            self.store_file(c, *old, parsed)?;
                            // The old references its new ones are matched with, read now:
                            // this thread mostly waits for the parsers here, and writes
                            // alone once they are done.
                            if let Some(id) = old {
                                self.writer.read_old_refs(*id)?;
                            }
                        }
                        Err(e) => self.skipped.push((c.path.clone(), format!("{e:#}"))),
                    }
                }
            }
            Ok(())
        });
        self.changes.to_parse = to_parse;
        result?;
        tracing::debug!(
            ms = self.ms(),
            cpu_ms = cpu_ms(),
            parsed = self.pending.len(),
            affected = self.affected.len(),
            gone = self.gone.len(),
            "phase: parsed and stored"
        );
        Ok(())
    }

    /// The macros whose value is another macro's (`info_span!`, which forwards to `span!`),
    /// a few levels up from `name`: when what `name!` gives changes, so does what they give,
    /// and the references typed by them are resolved again.
    /// `here`: the (name, value) of the macros of the file being stored, which are not in
    /// the world yet.
    fn forwarding_macros(&mut self, name: &str, here: &[(&str, &str)]) {
        let mut names = vec![name.to_string()];
        for _ in 0..4 {
            let in_world =
                self.world.syms.values().filter(|m| m.kind == SymbolKind::Macro).filter_map(|m| Some((&*m.name, m.returns.as_deref()?)));
            let found: Vec<String> = in_world
                .chain(here.iter().copied())
                .filter(|(_, returns)| returns.strip_suffix('!').is_some_and(|p| names.iter().any(|n| crate::model::last_segment(p) == n)))
                .map(|(m, _)| m.to_string())
                .filter(|m| !self.affected.contains(m))
                .collect();
            if found.is_empty() {
                break;
            }
            for m in &found {
                self.affected.insert(m.clone());
                self.links.insert(m.clone());
            }
            names = found;
        }
    }

    /// Writes one parsed file and adds it to the world: its symbols keep the ids of the
    /// old version's symbols of the same kind and qualified name; the names of symbols and
    /// imports that appeared or disappeared are affected.
    fn store_file(&mut self, c: &Candidate, old: Option<i64>, parsed: Parsed) -> anyhow::Result<()> {
        let Parsed { extract, imports: import_refs, refs, hash, size } = parsed;
        let file_id = old.unwrap_or_else(|| {
            self.next_file += 1;
            self.next_file - 1
        });
        self.parse_errors += extract.parse_errors as u64;
        if let Some(why) = &extract.failure {
            self.skipped.push((c.path.clone(), why.clone()));
        }
        self.writer.upsert_file(&store::NewFile {
            id: file_id,
            replaces: old.is_some(),
            path: &c.path,
            language: c.spec.language.as_str(),
            module: &extract.module,
            size: size as i64,
            hash: &hash,
            mtime_ns: c.mtime_ns,
            loc: extract.loc,
            parse_errors: extract.parse_errors,
            symbols: extract.symbols.len(),
        })?;
        let (unit, outside_roots) = build::file_place(self.units, self.unit_map, &c.path);
        self.world.add_file(file_id, FileCtx { language: c.spec.language, module: extract.module.clone(), unit, outside_roots });
        let mut prev = old.and_then(|id| self.previous.remove(&id));
        let mut texts: Vec<Option<&str>> = vec![None; extract.symbols.len()];
        for (i, text) in &extract.texts {
            texts[*i] = Some(text);
        }
        let mut ids = Vec::with_capacity(extract.symbols.len());
        // New and changed symbols' rows, written together after the loop.
        let mut inserts: Vec<(NewSymbol, i64)> = Vec::with_capacity(extract.symbols.len());
        // Kept symbols that moved: (id, lines their start and end moved by).
        let mut moved: Vec<(SymbolId, i64, i64)> = Vec::new();
        let is_blanket =
            |s: &crate::model::Symbol| s.kind == SymbolKind::Trait && s.modifiers.split(' ').any(|w| w == crate::model::BLANKET);
        for (index, s) in extract.symbols.iter().enumerate() {
            let key = match &s.params {
                Some(p) => (s.kind.as_str().to_string(), format!("{}({p})", s.qname)),
                None => (s.kind.as_str().to_string(), s.qname.clone()),
            };
            let (id, stored) = match prev.as_mut().and_then(|p| p.keys.get_mut(&key)).and_then(VecDeque::pop_front) {
                // The same symbol, of another declared type: chains through it
                // (`owner.getPets().get(0).m()`) may now reach another type.
                Some(old) => {
                    // Who may use it changed: the references of its name may now see it
                    // or not (overloads the call site cannot see, a macro's export).
                    if old.access.is_some_and(|a| a != crate::resolve::Access::from_visibility(&s.visibility)) {
                        self.affected.insert(s.name.clone());
                    }
                    if old.returns.as_deref() != s.returns.as_deref() {
                        self.affected.insert(s.name.clone());
                        self.links.insert(s.name.clone());
                        if s.kind == SymbolKind::Macro {
                            let here: Vec<(&str, &str)> = extract
                                .symbols
                                .iter()
                                .filter(|m| m.kind == SymbolKind::Macro)
                                .filter_map(|m| Some((m.name.as_str(), m.returns.as_deref()?)))
                                .collect();
                            self.forwarding_macros(&s.name, &here);
                        }
                    }
                    // A trait that became (or stopped being) implemented for every type:
                    // calls of its methods' names on any receiver may change.
                    // So may calls, on a function value, of the methods of the blanket
                    // traits that have it as a supertrait (`resolve::rust`'s
                    // `function_blanket_method`): every blanket trait's, here and elsewhere
                    // (the flag changes only where an impl's header does).
                    if old.blanket != is_blanket(s) {
                        let blanket_here: Vec<usize> =
                            (0..extract.symbols.len()).filter(|i| *i == index || is_blanket(&extract.symbols[*i])).collect();
                        for member in extract.symbols.iter().filter(|m| m.parent.is_some_and(|p| blanket_here.contains(&p))) {
                            self.affected.insert(member.name.clone());
                            self.links.insert(member.name.clone());
                        }
                        for m in self.world.syms.values() {
                            if m.parent.and_then(|p| self.world.syms.get(&p)).is_some_and(|t| t.blanket) {
                                self.affected.insert(m.name.to_string());
                                self.links.insert(m.name.to_string());
                            }
                        }
                    }
                    (old.id, Some((old.hash, old.lines)))
                }
                None => {
                    self.affected.insert(s.name.clone());
                    if s.kind.is_callable() || s.kind == SymbolKind::Field {
                        self.links.insert(s.name.clone());
                    }
                    if s.kind == SymbolKind::Constructor {
                        // `this(...)` and `super(...)` are written without the name.
                        self.affected.insert("this".to_string());
                        self.affected.insert("super".to_string());
                    }
                    self.next_symbol += 1;
                    (self.next_symbol - 1, None)
                }
            };
            let parent = s.parent.map(|p| ids[p]);
            ids.push(id);
            let owner = match (s.parent, &s.impl_of) {
                (Some(p), _) => extract.symbols[p].name.as_str(),
                (None, Some(info)) => crate::model::impl_owner(&info.self_type),
                (None, None) => crate::model::last_segment(&extract.module),
            };
            let new = NewSymbol { id, file: file_id, parent, qname: &s.qname, owner, symbol: s, text: texts[index] };
            let hash = new.row_hash();
            match stored {
                // The same rows but for the lines: kept, not deleted and written again with
                // their full-text rows (an update's largest cost). Not a Rust impl member,
                // whose row the attach pass rewrites, nor an endpoint, whose name
                // `name_endpoints` does: their rows hold more than the extract.
                Some((old_hash, lines)) if old_hash == hash && s.impl_of.is_none() && !s.modifiers.starts_with("template(") => {
                    if lines != (s.start_line, s.end_line) {
                        moved.push((id, s.start_line as i64 - lines.0 as i64, s.end_line as i64 - lines.1 as i64));
                    }
                }
                Some(_) => {
                    self.writer.delete_symbol(id)?;
                    inserts.push((new, hash));
                }
                None => inserts.push((new, hash)),
            }
            self.world.add_symbol(
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
                    blanket: is_blanket(s),
                },
            );
        }
        // After the loop's deletes: a symbol written again keeps its id.
        self.writer.insert_symbols(&inserts)?;
        self.writer.move_symbols(&moved)?;
        let imports: HashSet<(String, String, i64)> = import_refs
            .iter()
            .map(|r| (r.alias.clone().unwrap_or_else(|| r.simple_name().to_string()), r.name.clone(), import_flags(r)))
            .collect();
        match prev {
            Some(p) => {
                // Symbols of the old version not matched by the new one are gone.
                for old in p.keys.into_values().flatten() {
                    self.writer.delete_symbol(old.id)?;
                    self.gone.push(old.id);
                    self.links.insert(old.name.clone());
                    self.affected.insert(old.name);
                }
                // A `Deref` impl that came or went changes what a method call on its type
                // auto-derefs to: calls on the file's types are resolved again.
                if c.spec.language == Language::Rust && self.affected.contains("deref") {
                    for s in &extract.symbols {
                        if s.kind.is_type() {
                            self.affected.insert(s.name.clone());
                        }
                        if let Some(info) = &s.impl_of {
                            self.affected.insert(crate::model::impl_owner(&info.self_type).to_string());
                        }
                    }
                }
                let changed: Vec<String> = p.imports.symmetric_difference(&imports).map(|k| k.0.clone()).collect();
                // A Rust re-export is a path's middle segment (`facade::core::X`
                // through `pub use engine_core as core;`): paths that start at the
                // file's crate are resolved again too.
                if !changed.is_empty() && c.spec.language == Language::Rust {
                    let krate = extract.module.split("::").next().unwrap_or("");
                    self.affected.extend([krate.to_string(), "crate".to_string(), "self".to_string(), "super".to_string()]);
                }
                self.affected.extend(changed);
            }
            None => self.affected.extend(imports.iter().map(|k| k.0.clone())),
        }
        for r in &import_refs {
            self.world.add_import(Import {
                file: file_id,
                enclosing: r.enclosing.map(|e| ids[e]),
                path: r.name.clone(),
                alias: r.alias.clone(),
                glob: r.glob,
                is_static: r.is_static,
            });
        }
        let impl_members = extract.symbols.iter().zip(&ids).filter(|(s, _)| s.impl_of.is_some()).map(|(_, id)| *id).collect();
        self.pending.push(PendingFile { file: file_id, symbol_ids: ids, impl_members, refs });
        Ok(())
    }

    /// The stored references elsewhere that the changes can affect, outside the changed
    /// files (whose references are resolved afresh).
    pub fn recheck_list(&mut self) -> anyhow::Result<Vec<StoredRef>> {
        let old_refs = if self.incremental {
            // An endpoint that came, went or changed may be what a request by URL now
            // reaches (`GET /owners/{ownerId}` for a test's `get("/owners/1")`): every such
            // request is looked at again (their receiver's head is the URL receiver).
            let endpoint = |n: &String| {
                n.split_once(' ').is_some_and(|(verb, path)| path.starts_with('/') && verb.bytes().all(|b| b.is_ascii_uppercase()))
            };
            if self.affected.iter().any(endpoint) {
                self.affected.insert(crate::model::URL_RECEIVER.to_string());
            }
            self.writer.ensure_update_indexes()?;
            let mut refs = self.writer.refs_to_recheck(&self.affected, &self.gone)?;
            if !self.links.is_empty() {
                let seen: HashSet<i64> = refs.iter().map(|r| r.id).collect();
                refs.extend(self.writer.chains_through(&self.links)?.into_iter().filter(|r| !seen.contains(&r.id)));
                refs.sort_by_key(|r| r.id);
            }
            refs
        } else {
            Vec::new()
        };
        tracing::debug!(ms = self.ms(), cpu_ms = cpu_ms(), old_refs = old_refs.len(), "phase: recheck list");
        Ok(old_refs)
    }

    /// Rust impl members belong to the type their impl names, wherever it is declared.
    pub fn attach_impl_members(&mut self) -> anyhow::Result<()> {
        let mut impl_members: Vec<SymbolId> = self.pending.iter().flat_map(|p| p.impl_members.iter().copied()).collect();
        if self.incremental {
            impl_members.extend(self.writer.impl_members_to_recheck()?);
        }
        impl_members.sort_unstable();
        impl_members.dedup();
        for id in impl_members {
            if let Some((parent, qname)) = self.world.attach_impl_member(id) {
                self.writer.update_symbol_owner(id, parent, &qname)?;
            }
        }
        Ok(())
    }

    /// A nested type's supertype may be a member type its enclosing type inherits
    /// (`AbstractMap.SimpleEntry implements Entry`, `Entry` coming from `Map`): the
    /// enclosing type's supertypes must be known first. Two rounds in memory seed them
    /// (nesting two deep); the passes then resolve and store with them known.
    pub fn seed_supertypes(&mut self) {
        for _ in 0..2 {
            let mut seeded: HashMap<SymbolId, Vec<SymbolId>> = HashMap::default();
            let mut outside: HashMap<SymbolId, Vec<Box<str>>> = HashMap::default();
            for p in &self.pending {
                for r in &p.refs.supers {
                    let enclosing = r.enclosing.map(|e| p.symbol_ids[e]);
                    if let Some(res) = resolve_one(self.world, &query_of(p.file, enclosing, r)) {
                        file_supertype(&res, &mut seeded, &mut outside);
                    }
                }
            }
            for (source, mut supers) in seeded {
                supers.sort_unstable();
                supers.dedup();
                self.world.set_supertypes(source, supers);
            }
            for (source, supers) in outside {
                self.world.set_outside_supertypes(source, supers);
            }
        }
        tracing::debug!(ms = self.ms(), cpu_ms = cpu_ms(), "phase: supertypes seeded");
    }

    /// Supertypes first (member lookups through inheritance depend on them), then the
    /// rest: the parsed files' references resolved and written, and the stored references
    /// the changes can affect rechecked.
    pub fn resolve_passes(&mut self, old_refs: Vec<StoredRef>) -> anyhow::Result<()> {
        let changed_files: HashSet<i64> = self.pending.iter().map(|p| p.file).collect();
        let mut old_refs: Vec<StoredRef> = old_refs.into_iter().filter(|r| !changed_files.contains(&r.file)).collect();
        for r in old_refs.iter().filter(|r| Pass::Supertypes.includes(r.kind, r.alias.as_deref())) {
            if let Some(s) = r.source {
                self.old_supers.entry(s).or_insert_with(|| self.world.supers_snapshot(s));
            }
        }
        tracing::debug!(ms = self.ms(), cpu_ms = cpu_ms(), "phase: impls attached");
        self.seed_supertypes();
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
            self.resolve_parsed(pass, &mut held, &mut touched, &mut written_supers)?;
            if pass == Pass::Supertypes {
                self.writer.drop_old_supertypes()?;
            }
            self.recheck_rounds(pass, &mut old_refs, &changed_files, &mut touched)?;
            if pass == Pass::Supertypes {
                self.store_supertypes(touched, written_supers, &mut old_refs, &changed_files)?;
            }
        }
        self.writer.finish_rewrites()?;
        tracing::debug!(ms = self.ms(), cpu_ms = cpu_ms(), rechecked = self.rechecked, "phase: resolved");
        Ok(())
    }

    /// Resolves the parsed files' references of one pass. Resolution reads the world only:
    /// it runs on every core, a file at a time, while this thread writes the results in
    /// file order (ids stay deterministic).
    fn resolve_parsed(
        &mut self,
        pass: Pass,
        held: &mut Vec<Vec<(usize, Option<SymbolId>, Resolved)>>,
        touched: &mut HashSet<SymbolId>,
        written_supers: &mut HashMap<SymbolId, Vec<SymbolId>>,
    ) -> anyhow::Result<()> {
        let (shared, pending, writer, bulk): (&World, &[PendingFile], &mut Writer, bool) =
            (self.world, &self.pending, &mut self.writer, self.bulk);
        let written_outside = &mut self.written_outside;
        let cursor = AtomicUsize::new(0);
        // (file's index, the rest pass's references unpacked, what resolved: index into the
        // pass's references, enclosing symbol, resolution).
        type Out = (usize, Vec<Reference>, Vec<(usize, Option<SymbolId>, Resolved)>);
        let (tx, rx) = crossbeam_channel::bounded::<Out>(64);
        std::thread::scope(|scope| -> anyhow::Result<()> {
            for _ in 0..self.threads.max(1) {
                let (tx, cursor) = (tx.clone(), &cursor);
                scope.spawn(move || loop {
                    let i = cursor.fetch_add(1, Ordering::Relaxed);
                    let Some(p) = pending.get(i) else { break };
                    let unpacked = if pass == Pass::Rest { p.refs.unpack_rest() } else { Vec::new() };
                    let refs = if pass == Pass::Rest { &unpacked } else { &p.refs.supers };
                    let mut out = Vec::new();
                    let _types = crate::resolve::FileScope::open(p.file);
                    for (k, r) in refs.iter().enumerate() {
                        let enclosing = r.enclosing.map(|e| p.symbol_ids[e]);
                        if let Some(res) = resolve_one(shared, &query_of(p.file, enclosing, r)) {
                            out.push((k, enclosing, res));
                        }
                    }
                    if tx.send((i, unpacked, out)).is_err() {
                        break;
                    }
                });
            }
            drop(tx);
            let mut waiting: HashMap<usize, (Vec<Reference>, Vec<(usize, Option<SymbolId>, Resolved)>)> = HashMap::default();
            let mut next = 0;
            for (i, unpacked, out) in rx {
                waiting.insert(i, (unpacked, out));
                while let Some((unpacked, out)) = waiting.remove(&next) {
                    let p = &pending[next];
                    touched.extend(out.iter().filter_map(|(_, _, res)| res.source));
                    if bulk && pass == Pass::Supertypes {
                        for (_, _, res) in &out {
                            file_supertype(res, written_supers, written_outside);
                        }
                        held.push(out);
                    } else {
                        // A first build's supertypes (held back), then this pass's.
                        let first = held.get(next).map(Vec::as_slice).unwrap_or_default();
                        let refs = if pass == Pass::Rest { &unpacked } else { &p.refs.supers };
                        writer.insert_refs(
                            first
                                .iter()
                                .map(|(k, enclosing, res)| (p.file, *enclosing, &p.refs.supers[*k], res))
                                .chain(out.iter().map(|(k, enclosing, res)| (p.file, *enclosing, &refs[*k], res))),
                        )?;
                    }
                    next += 1;
                }
            }
            Ok(())
        })
    }

    /// Rechecks the stored references of one pass. An import resolved again may now bring
    /// in something else under its name: the references written with that name are
    /// resolved again too (a re-export's change reaches the files that import through it),
    /// a few rounds deep.
    fn recheck_rounds(
        &mut self,
        pass: Pass,
        old_refs: &mut Vec<StoredRef>,
        changed_files: &HashSet<i64>,
        touched: &mut HashSet<SymbolId>,
    ) -> anyhow::Result<()> {
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
            recheck(self.world, &mut self.writer, &old_refs[from..end], pass, touched, &mut self.rechecked)?;
            from = end;
            round += 1;
            if imported.is_empty() || round > 4 {
                break;
            }
            let known: HashSet<i64> = old_refs.iter().map(|r| r.id).collect();
            let more = self.writer.refs_to_recheck(&imported, &[])?;
            let before = old_refs.len();
            old_refs.extend(more.into_iter().filter(|r| !known.contains(&r.id) && !changed_files.contains(&r.file)));
            if old_refs.len() == before {
                break;
            }
        }
        Ok(())
    }

    /// Member lookups through inheritance read the world's supertype lists: each touched
    /// one is rebuilt from what was stored, which now holds the truth. Where what a type
    /// inherits changed, references to inherited members (through it or its subtypes) may
    /// resolve elsewhere now: they join the recheck list.
    fn store_supertypes(
        &mut self,
        mut touched: HashSet<SymbolId>,
        mut written_supers: HashMap<SymbolId, Vec<SymbolId>>,
        old_refs: &mut Vec<StoredRef>,
        changed_files: &HashSet<i64>,
    ) -> anyhow::Result<()> {
        for p in &self.pending {
            touched.extend(p.symbol_ids.iter().copied());
        }
        let mut inherited: HashSet<String> = HashSet::default();
        // Types whose supertypes changed: a call given one of them may take another overload.
        let mut retyped: HashSet<String> = HashSet::default();
        let touched: Vec<SymbolId> = touched.into_iter().filter(|s| self.world.syms.contains_key(s)).collect();
        let mut stored = if self.bulk { HashMap::default() } else { self.writer.supertypes_of_each(&touched)? };
        for s in touched {
            let (after, mut outside) = if self.bulk {
                let mut after = written_supers.remove(&s).unwrap_or_default();
                after.sort_unstable();
                after.dedup();
                (after, self.written_outside.remove(&s).unwrap_or_default())
            } else {
                stored.remove(&s).unwrap_or_default()
            };
            outside.sort_unstable();
            outside.dedup();
            let (before, before_outside) = self.old_supers.get(&s).cloned().unwrap_or_default();
            if self.incremental && (before != after || before_outside != outside) {
                for t in before.iter().chain(after.iter()) {
                    member_names(self.world, *t, &mut inherited, 0);
                }
                // What it inherits from outside: the JDK's names for those types.
                let table = crate::resolve::jdk::table();
                for q in before_outside.iter().chain(outside.iter()).filter(|q| table.knows(q)) {
                    inherited.extend(table.member_names(q));
                }
                // Its own members too: which of a blanket trait's methods a function value
                // has depends on its supertraits (`function_blanket_method`).
                for c in self.world.children_of(s) {
                    if let Some(sym) = self.world.syms.get(c) {
                        inherited.insert(sym.name.to_string());
                    }
                }
                if let Some(sym) = self.world.syms.get(&s) {
                    retyped.insert(sym.name.to_string());
                }
            }
            self.world.set_supertypes(s, after);
            self.world.set_outside_supertypes(s, outside);
        }
        tracing::debug!(ms = self.ms(), cpu_ms = cpu_ms(), "phase: supertypes stored");
        if !inherited.is_empty() || !retyped.is_empty() {
            let known: HashSet<i64> = old_refs.iter().map(|r| r.id).collect();
            let mut more = self.writer.refs_to_recheck(&inherited, &[])?;
            if !retyped.is_empty() {
                more.extend(self.writer.refs_with_args_naming(&retyped)?);
            }
            let mut added: HashSet<i64> = HashSet::default();
            old_refs.extend(more.into_iter().filter(|r| !known.contains(&r.id) && !changed_files.contains(&r.file) && added.insert(r.id)));
        }
        Ok(())
    }

    /// The last writes, then the commit: endpoints named again (a constant they read may
    /// have changed), outside names nothing uses any more collected, the next ids, the
    /// generation and `meta`'s rows. What the run did, as a summary (counts are the
    /// indexer's to add).
    pub fn commit(mut self, generation: u64, meta: &[(&str, String)]) -> anyhow::Result<Summary> {
        if self.bulk {
            self.writer.end_bulk()?;
        }
        if !self.pending.is_empty() || !self.changes.removed.is_empty() {
            name_endpoints(&mut self.writer)?;
        }
        self.writer.gc_externals()?;
        self.writer.set_meta("next_symbol_id", &self.next_symbol.to_string())?;
        self.writer.set_meta("next_file_id", &self.next_file.to_string())?;
        for (key, value) in meta {
            self.writer.set_meta(key, value)?;
        }
        self.writer.stamp_files(generation)?;
        self.writer.set_meta("generation", &generation.to_string())?;
        self.writer.set_meta("indexed_at", &unix_seconds_now())?;
        tracing::debug!(ms = self.ms(), cpu_ms = cpu_ms(), "phase: externals collected");
        let Run { started, writer, changes, skipped, pending, parse_errors, rechecked, .. } = self;
        writer.commit()?;
        tracing::debug!(ms = started.elapsed().as_millis() as u64, cpu_ms = cpu_ms(), "phase: committed");
        Ok(Summary {
            parsed: pending.len(),
            unchanged: changes.unchanged,
            removed: changes.removed.len(),
            parse_errors,
            rechecked,
            changed_paths: changes.to_parse.iter().map(|(c, _)| c.path.clone()).collect(),
            removed_paths: changes.removed_paths,
            skipped,
            ..Summary::default()
        })
    }
}

/// Files a resolved supertype reference under its source: a repository type by id, one from
/// outside by name (`UNKNOWN_SUPERTYPE` when it resolved to nothing).
fn file_supertype(res: &Resolved, repo: &mut HashMap<SymbolId, Vec<SymbolId>>, outside: &mut HashMap<SymbolId, Vec<Box<str>>>) {
    match (res.source, res.target) {
        (Some(source), Some(target)) => repo.entry(source).or_default().push(target),
        (Some(source), None) => outside.entry(source).or_default().push(res.external.as_deref().unwrap_or(UNKNOWN_SUPERTYPE).into()),
        _ => {}
    }
}

/// Endpoints whose paths name other files' constants get them put in
/// (`frameworks::endpoints` decides, the store reads and writes). Run after every change:
/// the constant's file may change without the endpoint's. Returns how many were renamed.
fn name_endpoints(writer: &mut Writer) -> anyhow::Result<usize> {
    let rows = writer.endpoint_templates()?;
    if rows.is_empty() {
        return Ok(0);
    }
    let nesting = if rows.iter().any(|r| r.modifiers.contains("{=nest:")) { writer.router_nesting_functions()? } else { Vec::new() };
    let templated: Vec<Templated> =
        rows.iter().map(|r| Templated { name: &r.name, modifiers: &r.modifiers, signature: &r.signature }).collect();
    let fields_named = |simple: &str| writer.fields_named(simple).unwrap_or_default();
    let renamed: Vec<RenamedEndpoint> = endpoints::rename(&templated, &nesting, &fields_named)
        .into_iter()
        .map(|(i, name, signature)| {
            let r = &rows[i];
            RenamedEndpoint { id: r.id, file: r.file, name, signature, doc: r.doc.clone(), owner: r.owner.clone() }
        })
        .collect();
    writer.rename_endpoints(&renamed)?;
    Ok(renamed.len())
}
