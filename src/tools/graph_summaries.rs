//! Tier 1, graph summaries: `repo_overview`, `dependency_graph`, `dependency_path` and
//! `change_impact` (of a node, a member, or git changes). Answers are ~200-token summaries
//! that name the handles tier 2 takes; they must never read source text.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use super::args::{GraphArgs, ImpactArgs, OverviewArgs, PathArgs};
use super::handles::normalize_path;
use super::handles::Handle;
use super::lines::{date_time_of, location, plural};
use super::paging::{cap, page};
use super::{clamp, clamp_checked, fail, is_test_path, parse_level, Answer, Atlas, ToolError};
use crate::graph::{Graph, Level, Node, Reached};
use crate::model::SymbolKind;
use crate::store::{FileInfo, Store, SymbolInfo};

impl Atlas {
    pub(super) fn repo_overview(&self, store: &Store, a: OverviewArgs) -> Answer {
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

    pub(super) fn dependency_graph(&self, store: &Store, a: GraphArgs) -> Answer {
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

    pub(super) fn reached_line(&self, store: &Store, graph: &Graph, r: &Reached, with_direction: bool) -> Result<String, ToolError> {
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

    pub(super) fn dependency_path(&self, store: &Store, a: PathArgs) -> Answer {
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

    pub(super) fn change_impact(&self, store: &Store, a: ImpactArgs) -> Answer {
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
    pub(super) fn guesses_note(&self, store: &Store, node: &Node, both: bool) -> Result<String, ToolError> {
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

    pub(super) fn guesses_of(&self, store: &Store, ids: &[i64], files: &[i64], both: bool) -> Result<String, ToolError> {
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
    pub(super) fn member_impact(&self, store: &Store, graph: &Graph, s: &SymbolInfo, depth: usize) -> Result<Vec<Reached>, ToolError> {
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

    /// `change_impact` of the working tree's changes against `HEAD` (`working-tree`) or a
    /// revision: the changed symbols (innermost declarations overlapping changed lines),
    /// then what depends on them, then the test files among both.
    pub(super) fn git_impact(&self, store: &Store, graph: &Graph, spec: &str, depth: usize, limit: usize) -> Answer {
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
    pub(super) fn node_path(&self, store: &Store, node: &Node) -> Result<Option<String>, ToolError> {
        Ok(match node {
            Node::Symbol(id) => store.symbol(*id)?.map(|s| s.path),
            Node::File(id) => store.file(*id)?.map(|f| f.path),
            _ => None,
        })
    }

    /// The reached nodes that are tests (by path, or Rust `tests` modules), read in one query.
    pub(super) fn test_nodes(&self, store: &Store, reached: &[Reached]) -> Result<HashSet<Node>, ToolError> {
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
}
