//! Build units in answers: the unit of each file (cached per index generation), unit handles
//! and labels, which files are tests as the build sees them, the commands that run the tests
//! a change reaches, and the uses of another unit that its manifest does not declare.
//!
//! Owns the tools' view of `build::Units`. It must not read manifests (the indexer did) nor
//! source text.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;
use std::sync::Arc;

use super::handles::normalize_path;
use super::{is_test_path, per_generation, Atlas, ToolError};
use crate::build::{self, RootKind, Unit, UnitMap, Units};
use crate::graph::{Graph, Level, Node};
use crate::store::{FileInfo, Store};

/// The units of the index and the unit of every indexed file.
pub(super) struct UnitView {
    pub units: Units,
    /// File id -> unit index.
    pub of_file: HashMap<i64, u32>,
    /// Files of a unit outside all its source roots: data its build does not compile
    /// (`src/test/resources/**.java`), left out of the unit graph.
    pub outside_roots: std::collections::HashSet<i64>,
}

impl UnitView {
    pub fn unit(&self, i: u32) -> Option<&Unit> {
        self.units.units.get(i as usize)
    }

    /// A file is a test when its unit's build says so (a test root); a file of a unit
    /// outside all its roots is data (`src/test/resources/**.java`), no test; outside any
    /// unit the usual names tell (`src/test/`, `tests/`, `*Test.java`).
    pub fn is_test(&self, file: &FileInfo) -> bool {
        if self.outside_roots.contains(&file.id) {
            return false;
        }
        let root = self.of_file.get(&file.id).and_then(|u| self.unit(*u)).and_then(|u| build::root_kind(u, &file.path));
        match root {
            Some(RootKind::Test) => true,
            Some(RootKind::Main | RootKind::Generated) => false,
            None => is_test_path(&file.path),
        }
    }

    /// The code generator the build of a file's unit runs (`openapi-generator-maven-plugin`)
    /// and what its output declares (`routes`), from the unit's manifest as text.
    pub fn code_generator(&self, root: &std::path::Path, file: &FileInfo) -> Option<(&'static str, &'static str)> {
        let unit = self.of_file.get(&file.id).and_then(|u| self.unit(*u))?;
        if unit.manifest.is_empty() {
            return None;
        }
        let text = std::fs::read_to_string(root.join(&unit.manifest)).ok()?;
        build::code_generator(build::rules(&unit.system), &text)
    }

    /// `generated` when the file is under a generated-sources root.
    pub fn is_generated(&self, file: &FileInfo) -> bool {
        let unit = self.of_file.get(&file.id).and_then(|u| self.unit(*u));
        unit.and_then(|u| build::root_kind(u, &file.path)) == Some(RootKind::Generated)
    }
}

/// A use of another unit that the user's manifest does not declare.
pub(super) struct Undeclared {
    pub from: u32,
    pub to: u32,
    pub weight: u32,
    /// Where the first such use is.
    pub file: i64,
    pub line: u32,
}

impl Atlas {
    pub(super) fn unit_view(&self, store: &Store) -> Result<Arc<UnitView>, ToolError> {
        per_generation(store, &self.unit_view, || {
            let units = store.units()?;
            let map = UnitMap::new(&units);
            let files = self.all_files(store)?;
            let of_file: HashMap<i64, u32> = files.values().filter_map(|f| Some((f.id, map.unit_of(&f.path)? as u32))).collect();
            let outside_roots = files
                .values()
                .filter(|f| {
                    of_file.get(&f.id).is_some_and(|u| {
                        let unit = &units.units[*u as usize];
                        !unit.roots.is_empty() && build::root_kind(unit, &f.path).is_none()
                    })
                })
                .map(|f| f.id)
                .collect();
            Ok(UnitView { units, of_file, outside_roots })
        })
    }

    /// The unit a handle names: its name (artifactId, Gradle path with or without `:`,
    /// package name), its folder, or a file or symbol inside it.
    pub(super) fn unit_node(&self, store: &Store, graph: &Graph, target: &str) -> Result<Node, ToolError> {
        let view = self.unit_view(store)?;
        if view.units.units.is_empty() {
            return Err(ToolError(
                "no build units: no pom.xml, settings.gradle(.kts), build.gradle(.kts) or Cargo.toml was found; use level=module".into(),
            ));
        }
        let t = target.trim();
        let bare = t.trim_start_matches(':');
        let by_name: Vec<usize> = view
            .units
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.name == t || u.name.trim_start_matches(':') == bare || u.name.eq_ignore_ascii_case(t))
            .map(|(i, _)| i)
            .collect();
        let found = match by_name.as_slice() {
            [i] => Some(*i),
            [] => {
                let path = normalize_path(t).unwrap_or_default();
                match view.units.units.iter().position(|u| u.dir == path) {
                    Some(i) => Some(i),
                    None => match store.file_by_path(&path)? {
                        Some(f) => view.of_file.get(&f.id).map(|u| *u as usize),
                        None => match self.resolve(store, t) {
                            Ok(super::handles::Handle::Symbol(s)) => view.of_file.get(&s.file_id).map(|u| *u as usize),
                            _ => None,
                        },
                    },
                }
            }
            many => {
                let mut msg = format!("{t:?} names {} units; pass a folder:\n", many.len());
                for i in many {
                    let _ = writeln!(msg, "  {}", view.units.units[*i].label());
                }
                return Err(ToolError(msg.trim_end().to_string()));
            }
        };
        match found {
            Some(i) if graph.contains(&Node::Unit(i as u32)) => Ok(Node::Unit(i as u32)),
            Some(i) => Err(ToolError(format!("unit {} has no indexed files", view.units.units[i].label()))),
            None => {
                let names: Vec<&str> = view.units.units.iter().take(12).map(|u| u.name.as_str()).collect();
                let more = view.units.units.len().saturating_sub(names.len());
                Err(ToolError(format!(
                    "no build unit {t:?}; units: {}{}",
                    names.join(", "),
                    if more > 0 { format!(" and {more} more (repo_overview lists them)") } else { String::new() }
                )))
            }
        }
    }

    /// `unit core (maven, services/core)`.
    pub(super) fn unit_label(&self, store: &Store, i: u32) -> Result<String, ToolError> {
        let view = self.unit_view(store)?;
        Ok(match view.unit(i) {
            Some(u) => format!("unit {}", u.label()),
            None => format!("unit #{i}"),
        })
    }

    /// The uses of one unit by another that the user's manifest does not declare (directly,
    /// or through declared units where the build passes dependencies on), heaviest first.
    pub(super) fn undeclared(&self, store: &Store) -> Result<Vec<Undeclared>, ToolError> {
        let view = self.unit_view(store)?;
        if view.units.units.len() < 2 {
            return Ok(Vec::new());
        }
        let graph = self.graph(store, Level::Unit)?;
        let reach = build::reach(&view.units);
        let mut out = Vec::new();
        for (from, to, edges) in graph.node_edges() {
            let (Node::Unit(a), Node::Unit(b)) = (from, to) else { continue };
            let (ua, ub) = (&view.units.units[*a as usize], &view.units.units[*b as usize]);
            // Two build systems never declare each other.
            if ua.system != ub.system || build::declares(&view.units, &reach, *a as usize, *b as usize) {
                continue;
            }
            let weight = edges.iter().map(|e| e.weight).sum();
            let first = edges.iter().min_by_key(|e| (e.file, e.line)).expect("an edge");
            out.push(Undeclared { from: *a, to: *b, weight, file: first.file, line: first.line });
        }
        out.sort_by(|x, y| y.weight.cmp(&x.weight).then((x.from, x.to).cmp(&(y.from, y.to))));
        Ok(out)
    }

    /// `web uses core (12 references, first at web/src/...:5); web/pom.xml does not declare it`.
    pub(super) fn undeclared_line(&self, store: &Store, u: &Undeclared) -> Result<String, ToolError> {
        let view = self.unit_view(store)?;
        let (a, b) = (&view.units.units[u.from as usize], &view.units.units[u.to as usize]);
        let path = store.file(u.file)?.map(|f| f.path).unwrap_or_default();
        Ok(format!(
            "{} uses {} ({}, first at {path}:{}) but {} does not declare it",
            a.name,
            b.name,
            super::lines::plural(u.weight as usize, "reference"),
            u.line,
            a.manifest
        ))
    }

    /// The commands that run these test files, one per unit (files outside any unit are
    /// left to the caller).
    pub(super) fn test_commands(&self, store: &Store, files: &[FileInfo]) -> Result<Vec<String>, ToolError> {
        let view = self.unit_view(store)?;
        let mut by_unit: BTreeMap<u32, Vec<&FileInfo>> = BTreeMap::new();
        for f in files {
            if let Some(u) = view.of_file.get(&f.id) {
                by_unit.entry(*u).or_default().push(f);
            }
        }
        let mut out = Vec::new();
        for (u, files) in by_unit {
            let Some(unit) = view.unit(u) else { continue };
            let tests: Vec<build::TestFile> = files.iter().map(|f| build::TestFile { path: &f.path, module: &f.module }).collect();
            out.extend(build::test_commands(unit, &tests));
        }
        Ok(out)
    }

    /// The test files of these unit nodes.
    pub(super) fn unit_test_files(&self, store: &Store, nodes: &std::collections::HashSet<&Node>) -> Result<Vec<i64>, ToolError> {
        let view = self.unit_view(store)?;
        let files = self.all_files(store)?;
        let mut out: Vec<i64> = files
            .values()
            .filter(|f| view.of_file.get(&f.id).is_some_and(|u| nodes.contains(&Node::Unit(*u))) && view.is_test(f))
            .map(|f| f.id)
            .collect();
        out.sort_unstable();
        Ok(out)
    }

    /// `run:` and the commands that run the test files among these files, or nothing.
    pub(super) fn run_lines(&self, store: &Store, file_ids: &[i64]) -> Result<String, ToolError> {
        let files = self.all_files(store)?;
        let mut ids: Vec<i64> = file_ids.to_vec();
        ids.sort_unstable();
        ids.dedup();
        let tests: Vec<FileInfo> = ids.iter().filter_map(|id| files.get(id).cloned()).collect();
        let commands = self.test_commands(store, &tests)?;
        let mut out = String::new();
        if !commands.is_empty() {
            out.push_str("run:\n");
            for c in commands {
                let _ = writeln!(out, "  {c}");
            }
        }
        Ok(out)
    }

    /// The overview's unit rows: name, folder, files and LOC, what it depends on, entry
    /// points and test files. Empty when the repository has no manifest.
    pub(super) fn unit_rows(&self, store: &Store, prefix: &str) -> Result<Vec<String>, ToolError> {
        let view = self.unit_view(store)?;
        if view.units.units.is_empty() {
            return Ok(Vec::new());
        }
        let files = self.all_files(store)?;
        // (files, loc, test files, generated files, files outside the roots) per unit.
        let mut counts: HashMap<u32, (usize, u64, usize, usize, usize)> = HashMap::new();
        for f in files.values() {
            if let Some(u) = view.of_file.get(&f.id) {
                let c = counts.entry(*u).or_default();
                c.0 += 1;
                c.1 += u64::from(f.loc);
                c.2 += usize::from(view.is_test(f));
                c.3 += usize::from(view.is_generated(f));
                c.4 += usize::from(view.outside_roots.contains(&f.id));
            }
        }
        let mut test_functions: HashMap<u32, usize> = HashMap::new();
        for (file, n) in store.test_function_counts()? {
            if let Some(u) = view.of_file.get(&file) {
                *test_functions.entry(*u).or_default() += n;
            }
        }
        let entries = self.entry_points(store, prefix)?;
        let mut entry_count: HashMap<u32, usize> = HashMap::new();
        for e in &entries {
            if let Some(u) = view.of_file.get(&e.file_id) {
                *entry_count.entry(*u).or_default() += 1;
            }
        }
        // Each unit's last commit, when history was read.
        let mut last_change: HashMap<u32, i64> = HashMap::new();
        if self.history(store)?.is_ready() {
            let newest = store.newest_changes()?;
            for f in files.values() {
                if let (Some(u), Some(idx)) = (view.of_file.get(&f.id), newest.get(&f.path)) {
                    let e = last_change.entry(*u).or_default();
                    *e = (*e).max(*idx);
                }
            }
        }
        let mut rows = Vec::new();
        for (i, u) in view.units.units.iter().enumerate() {
            let i = i as u32;
            if !prefix.is_empty() && !u.dir.starts_with(prefix) {
                continue;
            }
            let (n, loc, tests, generated, outside) = counts.get(&i).copied().unwrap_or_default();
            let dir = if u.dir.is_empty() { "." } else { u.dir.as_str() };
            let mut row = format!("{} ({}, {dir})  {}, {loc} LOC", u.name, u.system, super::lines::plural(n, "file"));
            let names = |test: bool| -> Vec<String> {
                u.deps
                    .iter()
                    .filter(|d| d.test == test)
                    .filter_map(|d| view.units.units.iter().find(|o| o.dir == d.dir).map(|o| o.name.clone()))
                    .collect()
            };
            let (main, test) = (names(false), names(true));
            if !main.is_empty() {
                let _ = write!(row, "; -> {}", main.join(", "));
            }
            if !test.is_empty() {
                let _ = write!(row, "; tests -> {}", test.join(", "));
            }
            let bins: Vec<&str> = u.targets.iter().filter(|t| t.kind == "bin").map(|t| t.target.as_str()).collect();
            if !bins.is_empty() {
                let _ = write!(row, "; bins: {}", bins.join(", "));
            }
            if let Some(e) = entry_count.get(&i) {
                let _ = write!(row, "; {}", super::lines::plural(*e, "entry point"));
            }
            let _ = write!(
                row,
                "; {}, {}",
                super::lines::plural(test_functions.get(&i).copied().unwrap_or(0), "test"),
                super::lines::plural(tests, "test file")
            );
            if generated > 0 {
                let _ = write!(row, "; {generated} generated");
            }
            if outside > 0 {
                let _ = write!(row, "; {outside} outside its source roots (not built)");
            }
            if let Some(c) = last_change.get(&i).map(|idx| store.commit(*idx)).transpose()?.flatten() {
                let _ = write!(row, "; last commit {}", crate::text::date_of_seconds(c.time));
            }
            if u.fallback {
                row.push_str("; manifest unreadable (status says why)");
            }
            rows.push(row);
        }
        Ok(rows)
    }
}
