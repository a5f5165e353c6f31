//! Tier 1, graph summaries: `repo_overview`, `dependency_graph`, `dependency_path` and
//! `change_impact` (of a node, a member, or git changes). Answers are ~200-token summaries
//! that name the handles tier 2 takes; they must never read source text.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::sync::Arc;

use super::args::{GraphArgs, ImpactArgs, OverviewArgs, PathArgs};
use super::handles::normalize_path;
use super::handles::Handle;
use super::lines::{date_of, date_time_of, grouped_in, location, module_heading, plural, Facts};
use super::paging::{cap, echo, page, write_page, Row, Window, DEFAULT_PAGE};
use super::{clamp, clamp_checked, fail, Answer, Atlas, ToolError};
use crate::graph::{Graph, Level, Node, Reached};
use crate::model::{RefKind, SymbolKind};
use crate::store::{FileInfo, Store, SymbolInfo};

/// The line under an overview list whose rows all came on earlier pages.
const EARLIER: &str = "  (all on earlier pages)\n";

/// The group heading of the folded data types.
const DATA_HEADING: &str = "plain data (fields and accessors), a row a package";

/// The names a folded row of data types shows, heaviest first.
const FOLDED_NAMES: usize = 5;

impl Atlas {
    pub(super) fn repo_overview(&self, store: &Store, a: OverviewArgs) -> Answer {
        let prefix = match &a.path {
            Some(p) => normalize_path(p)?,
            None => String::new(),
        };
        let mut out = String::new();
        let langs = store.language_counts(&prefix)?;
        if langs.is_empty() {
            return fail(format!("no indexed files under {prefix:?}"));
        }
        let name = self.root.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        let (files, loc, symbols) = langs.iter().fold((0, 0, 0), |acc, l| (acc.0 + l.1, acc.1 + l.2, acc.2 + l.3));
        let _ = writeln!(
            out,
            "repo {name}{}: {}, {loc} LOC, {}",
            if prefix.is_empty() { String::new() } else { format!(" ({prefix})") },
            plural(files, "file"),
            plural(symbols, "symbol")
        );
        out.push_str("languages:\n");
        for (lang, f, l, s) in &langs {
            let _ = writeln!(out, "  {lang}: {}, {l} LOC, {}", plural(*f, "file"), plural(*s, "symbol"));
        }
        // Three lists, paged together: one `offset` pages them all, so a page shows the same
        // number of rows of each (the limit, or fewer when the budget is reached first).
        let window = self.window(a.limit, a.offset, 10, 50);
        let mut lists: Vec<(String, usize, Vec<String>)> = Vec::new();
        // The build's units lead: what the team builds and deploys.
        let units = self.unit_rows(store, &prefix)?;
        if !units.is_empty() {
            let rows = units.iter().skip(window.offset).take(window.limit).cloned().collect();
            lists.push((format!("build units ({}):", units.len()), units.len(), rows));
            let mut undeclared = Vec::new();
            for u in self.undeclared(store)? {
                undeclared.push(self.undeclared_line(store, &u)?);
            }
            if !undeclared.is_empty() {
                let rows = undeclared.iter().skip(window.offset).take(window.limit).cloned().collect();
                lists.push((
                    format!("undeclared dependencies ({}, build breaks waiting to happen):", undeclared.len()),
                    undeclared.len(),
                    rows,
                ));
            }
        }
        let modules = store.module_counts(&prefix)?;
        let rows = modules
            .iter()
            .skip(window.offset)
            .take(window.limit)
            .map(|(m, f, s)| format!("{}  {}, {}", if m.is_empty() { "(default)" } else { m }, plural(*f, "file"), plural(*s, "symbol")))
            .collect();
        lists.push((format!("modules ({}, by symbols):", modules.len()), modules.len(), rows));
        let entries = self.entry_points(store, &prefix)?;
        if !entries.is_empty() {
            let (title, rows) = self.entry_rows(store, &entries)?;
            let page = rows.iter().skip(window.offset).take(window.limit).cloned().collect();
            lists.push((title, rows.len(), page));
        }
        // What the application talks to: databases, caches, brokers, stores.
        let systems = self.external_systems(store, &prefix)?;
        if !systems.is_empty() {
            let page = systems.iter().skip(window.offset).take(window.limit).cloned().collect();
            lists.push((format!("external systems ({}, from configuration, code and build files):", systems.len()), systems.len(), page));
        }
        let graph = self.graph(store, Level::Symbol)?;
        // Symbols under the path, by distinct dependents.
        let mut ranked: Vec<String> = Vec::new();
        let mut total = 0;
        for (node, n) in graph.top_fan_in(usize::MAX) {
            let Node::Symbol(id) = node else { continue };
            let on_page = total >= window.offset && ranked.len() < window.limit;
            if prefix.is_empty() && !on_page {
                total += 1;
                continue;
            }
            if let Some(s) = store.symbol(id)? {
                if s.path.starts_with(&prefix) {
                    if on_page {
                        ranked.push(format!("{} {}  {n}  {}", s.kind, s.qname, location(&s)));
                    }
                    total += 1;
                }
            }
        }
        lists.push((format!("most depended-upon ({total}, by distinct dependents):"), total, ranked));
        // Where change concentrates: churn x complexity, from git history.
        let (title, spots) = self.hot_spots(store, &prefix, window.offset + window.limit)?;
        if !title.is_empty() && !spots.is_empty() {
            let n = spots.len();
            lists.push((title, n, spots.into_iter().skip(window.offset).collect()));
        }
        let indexed =
            store.meta("indexed_at")?.and_then(|s| s.parse::<i64>().ok()).map(|s| date_time_of(s * 1_000_000_000)).unwrap_or_default();
        let history = self.history(store)?.describe();
        let tail = format!(
            "index: {}, last indexed {indexed}\n{history}{}next: dependency_graph {{target}}, search_symbols {{query}}, file_outline {{path}}",
            plural(store.count_files()?, "file"),
            if history.is_empty() { "" } else { "\n" }
        );
        // The most rows of each list that fit (at least one, so that paging moves on).
        // A list's title, its rows, and the line saying a list is done on earlier pages.
        let size = |k: usize| -> usize {
            lists
                .iter()
                .map(|(title, n, rows)| {
                    let done = if window.offset >= *n && *n > 0 { EARLIER.len() } else { 0 };
                    title.len() + 1 + done + rows.iter().take(k).map(|r| r.len() + 3).sum::<usize>()
                })
                .sum()
        };
        // Room for the lists: the budget less the head, the tail and the longest line that
        // can close the lists.
        let footer =
            format!("... {} of the lists go on (cut at the answer budget); next page: offset={}\n", lists.len(), window.offset + 100_000);
        let room = self.summary_budget.saturating_sub(out.len() + tail.len() + footer.len());
        let longest = lists.iter().map(|l| l.2.len()).max().unwrap_or(0);
        let k = (1..=longest).rev().find(|k| size(*k) <= room).unwrap_or(1);
        // When even one row of each list is too long for the budget, rows are cut (their
        // place goes first), so that the page still ends with the way to the next one.
        let titles: usize = lists.iter().map(|(t, _, _)| t.len() + 4).sum();
        let row_room = if size(1) > room { room.saturating_sub(titles) / lists.len().max(1) } else { usize::MAX };
        for (title, n, rows) in &lists {
            out.push_str(title);
            out.push('\n');
            for row in rows.iter().take(k) {
                let row = if row.len() > row_room {
                    let mut end = row_room.max(8).min(row.len());
                    while !row.is_char_boundary(end) {
                        end -= 1;
                    }
                    format!("{}...", &row[..end])
                } else {
                    row.clone()
                };
                let _ = writeln!(out, "  {row}");
            }
            if window.offset >= *n && *n > 0 {
                out.push_str(EARLIER);
            }
        }
        let next = window.offset + k;
        let left = lists.iter().filter(|(_, n, _)| *n > next).count();
        if left > 0 {
            let why = if k < window.limit { "cut at the answer budget".to_string() } else { format!("limit={}", window.limit) };
            let _ = writeln!(out, "... {left} of the lists go on ({why}); next page: offset={next}");
        }
        out.push_str(&tail);
        Ok(cap(out, self.summary_budget))
    }

    pub(super) fn dependency_graph(&self, store: &Store, a: GraphArgs) -> Answer {
        let level = self.level_for(store, a.level.as_deref(), &[&a.target])?;
        let (out_dir, in_dir) = match a.direction.as_deref().unwrap_or("both") {
            "both" => (true, true),
            "out" => (true, false),
            "in" => (false, true),
            other => return fail(format!("direction must be both, out or in (got {})", echo(other))),
        };
        let depth = clamp_checked(a.depth, 1, 1, 5, "depth")?;
        let window = self.graph_window(a.limit, a.offset);
        let graph = self.graph(store, level)?;
        if level == Level::Symbol {
            let members = self.member_target(store, &a.target)?;
            if !members.is_empty() {
                return self.member_graph(store, &graph, &members, (out_dir, in_dir), depth, window);
            }
        }
        let start = self.node(store, &graph, &a.target)?;
        let (label, loc) = self.node_label(store, &start)?;
        let facts = self.node_facts(store, &graph, &start)?;
        let usual = facts.as_ref().map(|f| f.modified.clone()).unwrap_or_default();
        let reached = graph.neighbourhood(&start, out_dir, in_dir, depth);
        let held = if out_dir { self.held_types(store, &graph, &start)? } else { HashMap::new() };
        let mut out = heading(&label, &loc, facts.as_ref(), level, (depth != 1).then_some(depth));
        let _ = writeln!(
            out,
            "out: {}, in: {} (ring 1){}",
            plural(graph.degree(&start, petgraph::Direction::Outgoing), "dependency"),
            plural(graph.degree(&start, petgraph::Direction::Incoming), "dependent"),
            self.guesses_note(store, &start, true)?
        );
        self.neighbourhood_page(out, store, &graph, &reached, (out_dir, in_dir), depth, window, &usual, &held)
    }

    /// What a type holds as collaborators: the repository types of its fields and of its
    /// constructors' parameters (and what else its constructors name), as graph nodes, with
    /// the fields' names (`constructor` for a constructor's). Empty for other nodes.
    fn held_types(&self, store: &Store, graph: &Graph, start: &Node) -> Result<HashMap<Node, String>, ToolError> {
        let Node::Symbol(id) = start else { return Ok(HashMap::new()) };
        let members: Vec<SymbolInfo> =
            store.children(*id)?.into_iter().filter(|m| matches!(m.kind, SymbolKind::Field | SymbolKind::Constructor)).collect();
        if members.is_empty() {
            return Ok(HashMap::new());
        }
        let name: HashMap<i64, &str> =
            members.iter().map(|m| (m.id, if m.kind == SymbolKind::Field { m.name.as_str() } else { "constructor" })).collect();
        let ids: Vec<i64> = members.iter().map(|m| m.id).collect();
        let mut by_node: HashMap<Node, Vec<&str>> = HashMap::new();
        for row in store.reference_targets(&ids)? {
            let (Some(source), true) = (row.source, row.kind == RefKind::UsesType && row.target > 0) else { continue };
            let Some(node) = graph.node_of_symbol(row.target).filter(|n| n != start) else { continue };
            let Some(field) = name.get(&source) else { continue };
            let names = by_node.entry(node).or_default();
            if !names.contains(field) {
                names.push(field);
            }
        }
        Ok(by_node.into_iter().map(|(node, names)| (node, names.join(", "))).collect())
    }

    /// The rows of a neighbourhood, by direction (and ring when deeper than 1), or what an
    /// empty one means.
    #[allow(clippy::too_many_arguments)]
    fn neighbourhood_page(
        &self,
        mut out: String,
        store: &Store,
        graph: &Graph,
        reached: &[Reached],
        (out_dir, in_dir): (bool, bool),
        depth: usize,
        window: Window,
        usual: &str,
        held: &HashMap<Node, String>,
    ) -> Answer {
        if reached.is_empty() {
            out.push_str(match (out_dir, in_dir) {
                (true, true) => "nothing depends on it and it depends on nothing in the index",
                (true, false) => "it depends on nothing in the index",
                _ => "nothing in the index depends on it",
            });
            return Ok(out);
        }
        let section = |r: &Reached| {
            let what = if r.incoming { "dependents" } else { "dependencies" };
            if depth == 1 {
                format!("{what}:")
            } else {
                format!("{what}, ring {}:", r.distance)
            }
        };
        self.reached_page(&mut out, store, graph, reached, window, &section, usual, None, held)?;
        Ok(out)
    }

    /// The members a symbol-level handle names (a method, a field, every overload of a
    /// name), or none when it names a type, a module or a file.
    pub(super) fn member_target(&self, store: &Store, target: &str) -> Result<Vec<SymbolInfo>, ToolError> {
        Ok(match self.resolve(store, target)? {
            Handle::Symbol(s) if !s.kind.is_type() && s.parent.is_some() && s.kind != SymbolKind::Module => vec![s],
            Handle::Overloads(all) => all,
            _ => Vec::new(),
        })
    }

    /// `dependency_graph` of a member, for the member: what it references (ring by ring
    /// through what those reference), and what references it or calls a method it overrides
    /// (`via`), each a row of its own.
    fn member_graph(
        &self,
        store: &Store,
        graph: &Graph,
        members: &[SymbolInfo],
        (out_dir, in_dir): (bool, bool),
        depth: usize,
        window: Window,
    ) -> Answer {
        let ids: Vec<i64> = members.iter().map(|m| m.id).collect();
        let own: rustc_hash::FxHashSet<Node> = ids.iter().map(|id| Node::Symbol(*id)).collect();
        let mut reached: Vec<Reached> = Vec::new();
        if out_dir {
            // The member itself and every symbol of an earlier ring.
            let mut seen: HashSet<i64> = ids.iter().copied().collect();
            let mut frontier = ids.clone();
            for distance in 1..=depth {
                let mut ring: Vec<Reached> = Vec::new();
                let mut ring_index: HashMap<Node, usize> = HashMap::new();
                for row in store.reference_targets(&frontier)? {
                    if row.target > 0 && seen.contains(&row.target) {
                        continue;
                    }
                    let node = if row.target > 0 { Node::Symbol(row.target) } else { Node::External(-row.target) };
                    let slot = *ring_index.entry(node.clone()).or_insert_with(|| {
                        ring.push(Reached { node, distance, edges: Vec::new(), via: None, overrides: None, incoming: false });
                        ring.len() - 1
                    });
                    ring[slot].edges.push((row.kind, row.count));
                }
                frontier = ring
                    .iter()
                    .filter_map(|r| if let Node::Symbol(id) = r.node { Some(id) } else { None })
                    .filter(|id| seen.insert(*id))
                    .collect();
                for r in &mut ring {
                    crate::graph::merge_kinds(&mut r.edges);
                }
                reached.extend(ring);
                if frontier.is_empty() {
                    break;
                }
            }
        }
        if in_dir {
            let dependents = self.dependents(store)?;
            let hits = dependents.impact(&ids, false, depth);
            reached.extend(graph.roll_up(hits, &own, true));
        }
        let ring1 = |incoming: bool| reached.iter().filter(|r| r.incoming == incoming && r.distance == 1).count();
        let (label, loc) = match members {
            [m] => (format!("{} {}", m.kind, m.signature_handle()), location(m)),
            [m, ..] => (format!("{} overloads of {} {}", members.len(), m.kind, m.qname), String::new()),
            [] => unreachable!("a member target has members"),
        };
        // Rows leave out the (first) member's date; overloads put no facts in the heading.
        let facts = self.node_facts(store, graph, &Node::Symbol(members[0].id))?;
        let usual = facts.as_ref().map(|f| f.modified.clone()).unwrap_or_default();
        let facts = facts.filter(|_| members.len() == 1);
        let mut out = heading(&label, &loc, facts.as_ref(), Level::Symbol, (depth != 1).then_some(depth));
        let files: Vec<i64> = members.iter().map(|m| m.file_id).collect();
        let _ = writeln!(
            out,
            "out: {}, in: {} (ring 1){}",
            plural(ring1(false), "dependency"),
            plural(ring1(true), "dependent"),
            self.guesses_of(store, &ids, &files, true)?
        );
        self.neighbourhood_page(out, store, graph, &reached, (out_dir, in_dir), depth, window, &usual, &HashMap::new())
    }

    /// The page's `Window` from a tool's `limit` and `offset`.
    pub(super) fn window(&self, limit: Option<u32>, offset: Option<u32>, default: usize, max: usize) -> Window {
        Window { offset: offset.unwrap_or(0) as usize, limit: clamp(limit, default, 1, max), budget: self.summary_budget, page_bytes: None }
    }

    /// A graph answer's page: without `limit`, a default page of `DEFAULT_PAGE` bytes (its
    /// last line says so and where the next starts); with one, that many rows (at most 200)
    /// within the answer budget.
    pub(super) fn graph_window(&self, limit: Option<u32>, offset: Option<u32>) -> Window {
        let page_bytes = limit.is_none().then_some(DEFAULT_PAGE);
        Window { page_bytes, ..self.window(limit, offset, 200, 200) }
    }

    /// Lists reached nodes compactly, one page of them: by section (ring, direction), then
    /// grouped by module (Java package, Rust module; for files, their folder) with the
    /// heaviest group first, the heaviest node first within it. A row gives the node's name
    /// relative to its group, the edge kinds and counts, its place relative to the group's
    /// folder, loc and complexity, the date when it is not `usual`, and `via` / `[test]`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn reached_page(
        &self,
        out: &mut String,
        store: &Store,
        graph: &Graph,
        reached: &[Reached],
        window: Window,
        section: &dyn Fn(&Reached) -> String,
        usual: &str,
        tests: Option<&HashSet<Node>>,
        held: &HashMap<Node, String>,
    ) -> Result<(), ToolError> {
        // What sorting and grouping need of every node, without reading the index row by row
        // (a ring of a few thousand nodes read one by one took 100 ms on java.base): the
        // graph knows each node's file, the per-generation file table its module and path.
        // The rows of the page read the rest.
        let files = self.all_files(store)?;
        // Members outside the repository are folded into their types, one row a type:
        // `java.lang.String: length, format  calls 3` (the repository's own code leads).
        let (folded, mut labels) = self.fold_externals(store, reached, section)?;
        let reached: Vec<&Reached> = reached.iter().filter(|r| !matches!(r.node, Node::External(_))).chain(folded.iter()).collect();
        // Plain data types (fields and accessors) folded into one row a package, after the
        // code that does the work: `com.shop.model: 18 types (Order, OrderItem, ..)`.
        // Only a neighbourhood's (`tests` is None) dependencies: what depends on a change is a
        // row of its own, data or not.
        let (data_rows, data_labels, data_places, folded_away) =
            if tests.is_none() { self.fold_data(store, graph, &reached, section, &files)? } else { Default::default() };
        labels.extend(data_labels);
        let reached: Vec<&Reached> = reached.into_iter().filter(|r| !folded_away.contains(&r.node)).chain(data_rows.iter()).collect();
        let mut placed: Vec<Placed> = Vec::with_capacity(reached.len());
        let mut sections: Vec<String> = Vec::new();
        let mut groups: Vec<String> = Vec::new();
        let mut group_of: HashMap<String, usize> = HashMap::new();
        let mut group_of_file: HashMap<i64, usize> = HashMap::new();
        for r in reached.iter().copied() {
            let title = section(r);
            let section = match sections.iter().position(|s| *s == title) {
                Some(k) => k,
                None => {
                    sections.push(title);
                    sections.len() - 1
                }
            };
            let weight = r.edges.iter().map(|(_, w)| u64::from(*w)).sum();
            // One heading a file (most nodes share their file's): made once per file.
            let file = graph.file_of(&r.node);
            let group = match file.and_then(|f| group_of_file.get(&f)) {
                Some(g) => *g,
                None => {
                    let heading = match (&r.node, file.and_then(|f| files.get(&f))) {
                        _ if data_places.contains_key(&r.node) => DATA_HEADING.to_string(),
                        (Node::Symbol(_), Some(f)) => module_heading(&f.module, &f.path),
                        (Node::File(_), Some(f)) => format!("{}/", f.path.rsplit_once('/').map_or("", |(d, _)| d)),
                        (Node::External(_), _) => "outside the repository".to_string(),
                        _ => String::new(),
                    };
                    let next = groups.len();
                    let group = *group_of.entry(heading.clone()).or_insert_with(|| {
                        groups.push(heading);
                        next
                    });
                    if let Some(f) = file {
                        group_of_file.insert(f, group);
                    }
                    group
                }
            };
            placed.push(Placed { reached: r, section, group, weight, group_weight: 0 });
        }
        // Heaviest group first within a section, heaviest node first within a group; the
        // sections keep the order the graph gave (ring by ring).
        let mut group_weight: HashMap<(usize, usize), u64> = HashMap::new();
        for p in &placed {
            *group_weight.entry((p.section, p.group)).or_default() += p.weight;
        }
        for p in &mut placed {
            p.group_weight = group_weight[&(p.section, p.group)];
        }
        // A type's fields and constructor parameters lead: their groups first, and they first
        // within them.
        let holding: HashSet<(usize, usize)> =
            placed.iter().filter(|p| held.contains_key(&p.reached.node)).map(|p| (p.section, p.group)).collect();
        // Code first, then the folded data types, then what is outside the repository.
        let order = |p: &Placed| match p.reached.node {
            Node::External(_) => 3,
            _ if data_places.contains_key(&p.reached.node) => 2,
            _ if holding.contains(&(p.section, p.group)) => 0,
            _ => 1,
        };
        placed.sort_by(|a, b| {
            let key = |p: &Placed| (p.section, order(p), std::cmp::Reverse(p.group_weight));
            key(a)
                .cmp(&key(b))
                .then_with(|| groups[a.group].cmp(&groups[b.group]))
                .then_with(|| held.contains_key(&b.reached.node).cmp(&held.contains_key(&a.reached.node)))
                .then_with(|| b.weight.cmp(&a.weight))
                .then_with(|| a.reached.node.cmp(&b.reached.node))
        });
        let rows = placed.iter().skip(window.offset).map(|p| {
            let r = p.reached;
            let (name, place) = match labels.get(&r.node) {
                Some(label) => (label.clone(), data_places.get(&r.node).cloned().unwrap_or_default()),
                None => self.row_name(store, &r.node, &files)?,
            };
            let edges: Vec<String> = r
                .edges
                .iter()
                .map(|(k, w)| if *k == RefKind::Declares { "declared in the manifest, not used".to_string() } else { format!("{k} {w}") })
                .collect();
            let mut text = name;
            if !edges.is_empty() {
                let _ = write!(text, "  {}", edges.join(", "));
            }
            if !place.is_empty() {
                let _ = write!(text, "  {place}");
            }
            if data_places.contains_key(&r.node) {
                // A package's data types: no facts of one node.
            } else if let Some(f) = self.node_facts(store, graph, &r.node)? {
                let _ = write!(text, "  {}", f.row(usual));
            }
            if graph.level == Level::Service {
                text.push_str(&self.bean_markers(store, &r.node)?);
            }
            if let Some(fields) = held.get(&r.node) {
                let _ = write!(text, "  held: {fields}");
            }
            if let Some(v) = &r.via {
                let _ = write!(text, "  via {}", self.node_label(store, v)?.0);
            }
            if let Some(o) = &r.overrides {
                let _ = write!(text, "  overrides {} (changes with its signature)", self.node_label(store, o)?.0);
            }
            if tests.is_some_and(|t| t.contains(&r.node)) {
                text.push_str("  [test]");
            }
            let mut headings = vec![sections[p.section].clone()];
            if !groups[p.group].is_empty() {
                headings.push(groups[p.group].clone());
            }
            Ok::<_, ToolError>(Row::under(headings, text))
        });
        write_page(out, rows, reached.len(), window)
    }

    /// At symbol level, the dependencies that hold only data (`Graph::holds_only_data`:
    /// classes, records, enums, structs and unions that call nothing of the repository but
    /// themselves; no exception or error type) folded into one row per section and package:
    /// the rows (each stands as a node of its own, listed after the code), their labels
    /// (`com.shop.model: 18 types (Order, OrderItem, ..)`, or a lone type's qualified name),
    /// each row's place (the package's folder, a lone type's file), and the nodes folded away.
    #[allow(clippy::type_complexity)]
    fn fold_data(
        &self,
        store: &Store,
        graph: &Graph,
        reached: &[&Reached],
        section: &dyn Fn(&Reached) -> String,
        files: &HashMap<i64, FileInfo>,
    ) -> Result<(Vec<Reached>, HashMap<Node, String>, HashMap<Node, String>, HashSet<Node>), ToolError> {
        let mut rows = Vec::new();
        let (mut labels, mut places, mut away) = (HashMap::new(), HashMap::new(), HashSet::new());
        if graph.level != Level::Symbol {
            return Ok((rows, labels, places, away));
        }
        let candidates: HashMap<i64, &Reached> = reached
            .iter()
            .filter_map(|r| match r.node {
                Node::Symbol(id) if !r.incoming && graph.holds_only_data(&r.node) => Some((id, *r)),
                _ => None,
            })
            .collect();
        let ids: Vec<i64> = candidates.keys().copied().collect();
        /// A data type of a package, as its row or its share of the package's row.
        struct DataType<'a> {
            weight: u64,
            /// Relative to the package.
            name: String,
            reached: &'a Reached,
            qname: String,
            place: String,
        }
        // (section, package) -> its types and the package's folder.
        let mut by_package: std::collections::BTreeMap<(String, String), (Vec<DataType>, String)> = Default::default();
        for s in store.symbols_by_ids(&ids)? {
            // An exception or error type says what can go wrong: a row of its own.
            let thrown = s.name.ends_with("Exception") || s.name.ends_with("Error");
            if thrown
                || !matches!(s.kind, SymbolKind::Class | SymbolKind::Record | SymbolKind::Enum | SymbolKind::Struct | SymbolKind::Union)
            {
                continue;
            }
            let r = candidates[&s.id];
            let module = files.get(&s.file_id).map_or("", |f| f.module.as_str());
            let name = [".", "::"]
                .iter()
                .find_map(|sep| s.qname.strip_prefix(module).and_then(|rest| rest.strip_prefix(sep)))
                .filter(|_| !module.is_empty())
                .unwrap_or(&s.name)
                .to_string();
            let weight = r.edges.iter().map(|(_, w)| u64::from(*w)).sum();
            let folder = format!("{}/", s.path.rsplit_once('/').map_or("", |(d, _)| d));
            let entry = by_package.entry((section(r), module.to_string())).or_insert_with(|| (Vec::new(), folder));
            entry.0.push(DataType { weight, name, reached: r, qname: s.qname.clone(), place: location(&s) });
        }
        for ((_, module), (mut types, folder)) in by_package {
            types.sort_by(|a, b| b.weight.cmp(&a.weight).then_with(|| a.name.cmp(&b.name)));
            let first = types[0].reached;
            let package = if module.is_empty() { "(default package)".to_string() } else { module };
            let node = Node::Module(format!("{package} data types {}", rows.len()));
            let mut edges: Vec<(RefKind, u32)> = types.iter().flat_map(|t| t.reached.edges.iter().copied()).collect();
            crate::graph::merge_kinds(&mut edges);
            if let [one] = types.as_slice() {
                labels.insert(node.clone(), one.qname.clone());
                places.insert(node.clone(), one.place.clone());
            } else {
                let mut names: Vec<&str> = types.iter().take(FOLDED_NAMES).map(|t| t.name.as_str()).collect();
                if types.len() > FOLDED_NAMES {
                    names.push("..");
                }
                labels.insert(node.clone(), format!("{package}: {} ({})", plural(types.len(), "type"), names.join(", ")));
                places.insert(node.clone(), folder);
            }
            away.extend(types.iter().map(|t| t.reached.node.clone()));
            rows.push(Reached { node, edges, ..first.clone() });
        }
        Ok((rows, labels, places, away))
    }

    /// The reached externals folded by section into one row a type (its members named after
    /// it), and each row's label; the row stands at the type's first external.
    fn fold_externals(
        &self,
        store: &Store,
        reached: &[Reached],
        section: &dyn Fn(&Reached) -> String,
    ) -> Result<(Vec<Reached>, HashMap<Node, String>), ToolError> {
        let mut rows: Vec<(String, Reached, Vec<String>)> = Vec::new();
        // (section, owner) -> its row.
        let mut row_of: HashMap<(String, String), usize> = HashMap::new();
        for r in reached {
            let Node::External(id) = r.node else { continue };
            let qname = store.external_qname(id)?.unwrap_or_default();
            let (owner, member) = external_owner(&qname);
            let key = (section(r), owner.clone());
            match row_of.get(&key) {
                Some(&i) => {
                    let (_, row, members) = &mut rows[i];
                    row.edges.extend(r.edges.iter().copied());
                    if let Some(m) = member.filter(|m| !members.contains(m)) {
                        members.push(m);
                    }
                }
                None => {
                    row_of.insert(key, rows.len());
                    rows.push((owner, r.clone(), member.into_iter().collect()));
                }
            }
        }
        let mut labels = HashMap::new();
        let mut folded = Vec::new();
        for (owner, mut row, members) in rows {
            crate::graph::merge_kinds(&mut row.edges);
            let label = if members.is_empty() { owner } else { format!("{owner}: {}", members.join(", ")) };
            labels.insert(row.node.clone(), label);
            folded.push(row);
        }
        Ok((folded, labels))
    }

    /// A row's name relative to its group and its place relative to the group's folder.
    fn row_name(&self, store: &Store, node: &Node, files: &HashMap<i64, FileInfo>) -> Result<(String, String), ToolError> {
        Ok(match node {
            Node::Symbol(id) => match store.symbol(*id)? {
                Some(s) => {
                    let (_, name, place) = grouped_in(&s, files.get(&s.file_id).map_or("", |f| f.module.as_str()));
                    (name, place)
                }
                None => (format!("symbol #{id}"), String::new()),
            },
            Node::File(id) => match files.get(id) {
                Some(f) => (f.path.rsplit('/').next().unwrap_or(&f.path).to_string(), String::new()),
                None => (format!("file #{id}"), String::new()),
            },
            Node::External(id) => (store.external_qname(*id)?.unwrap_or_default(), String::new()),
            Node::Module(m) => (format!("module {}", if m.is_empty() { "(default)" } else { m }), String::new()),
            Node::Unit(u) => (self.unit_label(store, *u)?, String::new()),
        })
    }

    /// The overview's entry points by kind: HTTP endpoints counted per handler class (the
    /// class is the handle: `search_symbols` with `kind=endpoint` and a path lists them),
    /// then each framework-called method (`@Scheduled`, listeners) and `main`.
    pub(super) fn entry_rows(&self, store: &Store, entries: &[SymbolInfo]) -> Result<(String, Vec<String>), ToolError> {
        // Handler class -> (endpoints, its place).
        let mut controllers: Vec<(String, usize, String)> = Vec::new();
        let mut others: Vec<String> = Vec::new();
        let mut kinds: Vec<(String, usize)> = Vec::new();
        let mut count = |kind: &str| match kinds.iter_mut().find(|(k, _)| k == kind) {
            Some(k) => k.1 += 1,
            None => kinds.push((kind.to_string(), 1)),
        };
        for e in entries {
            if e.kind == SymbolKind::Endpoint {
                count("HTTP endpoint");
                let handler = match e.parent {
                    Some(p) => store.symbol(p)?,
                    None => None,
                };
                let class = match handler.as_ref().and_then(|h| h.parent) {
                    Some(c) => store.symbol(c)?,
                    None => None,
                };
                // By handler class; a free handler function (Rust) by its file.
                let (name, place) = match (&class, &handler) {
                    (Some(c), _) => (c.qname.clone(), location(c)),
                    (None, Some(h)) => (h.path.clone(), String::new()),
                    (None, None) => (e.qname.clone(), location(e)),
                };
                match controllers.iter_mut().find(|(n, _, _)| *n == name) {
                    Some(c) => c.1 += 1,
                    None => controllers.push((name, 1, place)),
                }
                continue;
            }
            let marker = crate::frameworks::entry_annotations().find(|(a, _)| e.modifiers.contains(&format!("@{a}")));
            match marker {
                Some((annotation, kind)) => {
                    count(kind);
                    // The marker's detail, as the modifiers carry it: `@Scheduled(cron=...)`.
                    let detail = crate::frameworks::marker_value(&e.modifiers, annotation);
                    let detail = detail.filter(|d| !d.is_empty()).map(|d| format!("  {d}")).unwrap_or_default();
                    others.push(format!("{kind} @{annotation} {}{detail}  {}", e.signature_handle(), location(e)));
                }
                None => {
                    count("main");
                    others.push(format!("main {} {}  {}", e.kind, e.qname, location(e)));
                }
            }
        }
        let mut rows: Vec<String> = controllers
            .into_iter()
            .map(|(name, n, place)| format!("http {name}  {}  {place}", plural(n, "endpoint")).trim_end().to_string())
            .collect();
        rows.extend(others);
        let summary: Vec<String> = kinds.iter().map(|(k, n)| plural(*n, k)).collect();
        Ok((format!("entry points ({}):", summary.join(", ")), rows))
    }

    pub(super) fn dependency_path(&self, store: &Store, a: PathArgs) -> Answer {
        let level = self.level_for(store, a.level.as_deref(), &[&a.from, &a.to])?;
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
            if h.edge.kind == RefKind::Declares {
                let _ = writeln!(out, "  {from} -[declares, uses nothing of it]-> {to}");
            } else if h.dispatch {
                // Down from an interface to what runs: the implementation's own edge.
                let _ = writeln!(out, "  {from} =[dispatch]=> {to}  ({} at {path}:{})", h.edge.kind, h.edge.line);
            } else {
                let _ = writeln!(out, "  {from} -[{}]-> {to}  at {path}:{}", h.edge.kind, h.edge.line);
            }
        }
        Ok(cap(out.trim_end().to_string(), self.summary_budget))
    }

    pub(super) fn change_impact(&self, store: &Store, a: ImpactArgs) -> Answer {
        let level = self.level_for(store, a.level.as_deref(), &[&a.target])?;
        let depth = clamp_checked(a.depth, 3, 1, 10, "depth")?;
        let graph = self.graph(store, level)?;
        if let Some(spec) = a.target.trim().strip_prefix("git:") {
            return self.git_impact(store, &graph, spec.trim(), depth, self.graph_window(a.limit, a.offset));
        }
        // A member (method, field; every overload of a name) at symbol level: its own
        // dependents, not its type's.
        // A MyBatis statement (or fragment) by its mapper XML place: what runs it changes with it.
        let statement = if level == Level::Symbol { self.statement_impact(store, &a.target)? } else { None };
        let members: Vec<SymbolInfo> = match &statement {
            Some((_, _, runs)) => runs.clone(),
            None if level == Level::Symbol => self.member_target(store, &a.target)?,
            None => Vec::new(),
        };
        // (label, place, reached, guesses, the heading's facts, the date rows leave out)
        let (label, loc, reached, guesses, facts, usual) = match (&statement, members.as_slice()) {
            (Some((label, loc, _)), runs) => {
                let reached = self.member_impact(store, &graph, runs, depth)?;
                let ids: Vec<i64> = runs.iter().map(|m| m.id).collect();
                let files: Vec<i64> = runs.iter().map(|m| m.file_id).collect();
                let guesses = self.guesses_of(store, &ids, &files, false)?;
                // Rows leave out the date of the first method that runs it.
                let usual = match runs.first() {
                    Some(m) => self.node_facts(store, &graph, &Node::Symbol(m.id))?.map(|f| f.modified).unwrap_or_default(),
                    None => String::new(),
                };
                (label.clone(), loc.clone(), reached, guesses, None, usual)
            }
            (None, []) => {
                let target = self.node(store, &graph, &a.target)?;
                let (label, loc) = self.node_label(store, &target)?;
                let guesses = self.guesses_note(store, &target, false)?;
                let facts = self.node_facts(store, &graph, &target)?;
                let usual = facts.as_ref().map(|f| f.modified.clone()).unwrap_or_default();
                let reached = self.node_impact(store, &graph, &target, depth)?;
                (label, loc, reached, guesses, facts, usual)
            }
            (None, [s]) => {
                let reached = self.member_impact(store, &graph, members.as_slice(), depth)?;
                let guesses = self.guesses_of(store, &[s.id], &[s.file_id], false)?;
                let facts = self.node_facts(store, &graph, &Node::Symbol(s.id))?;
                let usual = facts.as_ref().map(|f| f.modified.clone()).unwrap_or_default();
                (format!("{} {}", s.kind, s.signature_handle()), location(s), reached, guesses, facts, usual)
            }
            (None, [s, ..]) => {
                let reached = self.member_impact(store, &graph, members.as_slice(), depth)?;
                let ids: Vec<i64> = members.iter().map(|m| m.id).collect();
                let files: Vec<i64> = members.iter().map(|m| m.file_id).collect();
                let guesses = self.guesses_of(store, &ids, &files, false)?;
                let places: Vec<String> = members.iter().map(|m| format!("{}:{}", m.path, m.start_line)).collect();
                // No facts in the heading (they would be one overload's); rows still leave out
                // its date.
                let usual = self.node_facts(store, &graph, &Node::Symbol(s.id))?.map(|f| f.modified).unwrap_or_default();
                (format!("{} overloads of {} {}", members.len(), s.kind, s.qname), places.join(", "), reached, guesses, None, usual)
            }
        };
        let test_nodes = self.test_nodes(store, &reached)?;
        let mut test_files: Vec<i64> = Vec::new();
        for r in reached.iter().filter(|r| test_nodes.contains(&r.node)) {
            test_files.extend(self.node_file(store, &r.node)?.map(|f| f.id));
        }
        if level == Level::Unit {
            // A unit's change runs the test files of the unit and of every unit it reaches.
            let start = self.node(store, &graph, &a.target)?;
            let units: HashSet<&Node> = reached.iter().map(|r| &r.node).chain([&start]).collect();
            test_files = self.unit_test_files(store, &units)?;
        }
        // A file's or module's own tests (Rust's `#[cfg(test)] mod tests` beside the code):
        // they test what changes, and run with the rest.
        let mut own_tests = 0;
        if statement.is_none() && members.is_empty() && level != Level::Unit {
            let files: Vec<i64> = match self.node(store, &graph, &a.target).ok() {
                Some(Node::File(f)) => vec![f],
                Some(Node::Module(m)) => self.all_files(store)?.values().filter(|f| f.module == m).map(|f| f.id).collect(),
                _ => Vec::new(),
            };
            let test_symbols = self.test_symbols(store)?;
            for f in files {
                let n = store.file_symbols(f)?.iter().filter(|s| s.kind.is_callable() && test_symbols.contains(&s.id)).count();
                if n > 0 {
                    own_tests += n;
                    test_files.push(f);
                }
            }
        }
        test_files.sort_unstable();
        test_files.dedup();
        let tests = if level == Level::Unit { test_files.len() } else { reached.iter().filter(|r| test_nodes.contains(&r.node)).count() };
        let own = if own_tests > 0 { format!(", and {own_tests} of its own") } else { String::new() };
        let mut out = format!("change_impact {}", heading(&label, &loc, facts.as_ref(), level, (depth != 3).then_some(depth)));
        let beyond =
            if reached.iter().any(|r| r.distance > depth) { format!(" (tests followed past ring {depth})") } else { String::new() };
        let _ = writeln!(out, "affected: {}; tests: {tests}{own}{beyond}{guesses}", rings(&reached, "nothing depends on it"));
        match &statement {
            // The statement's own code: the mapper method and the methods running it by id.
            Some(_) if members.is_empty() => {
                out.push_str("runs for: no method in the index runs it (no mapper method, no call by its id)\n")
            }
            Some(_) => {
                for m in &members {
                    let _ = writeln!(out, "run by: {} {}  {}", m.kind, m.signature_handle(), location(m));
                }
            }
            None => out.push_str(&self.member_extras(store, &members)?),
        }
        let section = |r: &Reached| format!("ring {}:", r.distance);
        let window = self.graph_window(a.limit, a.offset);
        // The commands that run the tests reached close the first page.
        let mut tail = String::new();
        if window.offset == 0 && !test_files.is_empty() {
            tail = self.run_lines(store, &test_files)?;
        }
        let window = window.less(tail.len() + 1);
        self.reached_page(&mut out, store, &graph, &reached, window, &section, &usual, Some(&test_nodes), &HashMap::new())?;
        let mut out = out.trim_end().to_string();
        if !tail.is_empty() {
            out.push('\n');
            out.push_str(tail.trim_end());
        }
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

    /// What a change to a member reaches: its callers and readers, the callers of every
    /// method it overrides or implements (dispatch: marked `via`), the methods that override
    /// or implement it (they change with its signature), then what depends on those, member
    /// by member. At symbol level each member is a row of its own.
    pub(super) fn member_impact(
        &self,
        store: &Store,
        graph: &Graph,
        members: &[SymbolInfo],
        depth: usize,
    ) -> Result<Vec<Reached>, ToolError> {
        let starts: Vec<i64> = members.iter().map(|m| m.id).collect();
        let own = members.iter().map(|m| Node::Symbol(m.id)).collect();
        let signature = members.iter().any(|m| m.kind.is_callable());
        self.code_impact(store, graph, &starts, signature, graph.level == Level::Symbol, &own, depth)
    }

    /// What a change to a node reaches: at code levels, what depends on any of its
    /// declarations, member by member; build units and beans by the reverse closure of their
    /// graph.
    pub(super) fn node_impact(&self, store: &Store, graph: &Graph, target: &Node, depth: usize) -> Result<Vec<Reached>, ToolError> {
        if matches!(graph.level, Level::Unit | Level::Service) {
            return Ok(graph.impact(std::slice::from_ref(target), depth));
        }
        let dependents = self.dependents(store)?;
        let starts = self.starts_of(store, &dependents, target)?;
        let own = [target.clone()].into_iter().collect();
        self.code_impact(store, graph, &starts, false, false, &own, depth)
    }

    /// The lines a member's impact adds beyond the graph: the endpoints it serves (their
    /// callers are outside the repository) and the mapper statements bound to it.
    fn member_extras(&self, store: &Store, members: &[SymbolInfo]) -> Result<String, ToolError> {
        let mut out = String::new();
        for m in members {
            for e in store.children(m.id)?.into_iter().filter(|c| c.kind == SymbolKind::Endpoint) {
                let _ = writeln!(
                    out,
                    "serves: endpoint {}  {} (clients outside the repository are not seen; requests by URL in its tests are)",
                    e.qname,
                    location(&e)
                );
            }
            out.push_str(&self.statement_lines(store, m, "runs: statement ")?);
        }
        Ok(out)
    }

    /// `change_impact` of the working tree's changes against `HEAD` (`working-tree`) or a
    /// revision: the changed symbols (innermost declarations overlapping changed lines),
    /// then what depends on them, then the test files among both.
    pub(super) fn git_impact(&self, store: &Store, graph: &Graph, spec: &str, depth: usize, window: Window) -> Answer {
        let (base, against) = match spec {
            "" => return fail("git: needs a revision: git:working-tree (uncommitted changes) or git:<rev> (changes since a revision)"),
            "working-tree" | "worktree" | "HEAD" => (crate::git::diff::Base::Head, "HEAD".to_string()),
            rev => (crate::git::diff::Base::Rev(rev), rev.to_string()),
        };
        let files = store.files_under("")?;
        let mut paths: Vec<String> = files.iter().map(|f| f.path.clone()).collect();
        // MyBatis mapper files: a changed statement changes what runs it.
        let mappers: HashSet<String> = self.statement_view(store)?.statements.iter().map(|s| s.file.clone()).collect();
        paths.extend(mappers.iter().cloned());
        let tracked = |p: &str| crate::lang::for_path(p).is_some() || mappers.contains(p);
        let changes = crate::git::diff::changes(&self.root, base, &paths, &tracked).map_err(|e| ToolError(format!("git: {e:#}")))?;
        let by_path: HashMap<&str, &FileInfo> = files.iter().map(|f| (f.path.as_str(), f)).collect();
        let view = self.unit_view(store)?;
        let mut test_ids: Vec<i64> = Vec::new();
        let mut nodes: Vec<Node> = Vec::new();
        // The changed declarations (symbol level): where the member-level walk starts.
        let mut starts: Vec<i64> = Vec::new();
        let mut changed_items = Vec::new();
        let mut tests: std::collections::BTreeSet<String> = Default::default();
        for c in &changes {
            let letter = c.kind.letter();
            if mappers.contains(&c.path) && c.kind != crate::git::diff::ChangeKind::Deleted {
                // The statements on changed lines stand for the methods that run them.
                for (label, loc, runs) in self.statements_changed(store, &c.path, &c.lines)? {
                    let names: Vec<String> = runs.iter().map(|m| m.signature_handle()).collect();
                    let runs_for =
                        if names.is_empty() { "run by no method in the index".to_string() } else { format!("run by {}", names.join(", ")) };
                    changed_items.push(format!("  {letter} {label}  {loc}  ({runs_for})"));
                    for m in runs {
                        starts.push(m.id);
                        nodes.extend(self.changed_node(store, graph, &m)?);
                    }
                }
                continue;
            }
            let Some(file) = by_path.get(c.path.as_str()) else {
                changed_items.push(format!("  {letter} {}  (deleted: what used it now has unresolved references)", c.path));
                continue;
            };
            if view.is_test(file) {
                tests.insert(file.path.clone());
                test_ids.push(file.id);
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
                Level::Unit => match self.unit_view(store)?.of_file.get(&file.id) {
                    Some(u) => {
                        nodes.push(Node::Unit(*u));
                        changed_items.push(format!("  {letter} {}:{}  {}", file.path, ranges.join(","), self.unit_label(store, *u)?));
                    }
                    None => changed_items.push(format!("  {letter} {}:{}  (in no build unit)", file.path, ranges.join(","))),
                },
                Level::Symbol | Level::Service => {
                    let symbols = store.file_symbols(file.id)?;
                    let hit = changed_declarations(&symbols, &c.lines, c.kind == crate::git::diff::ChangeKind::Added);
                    if hit.is_empty() {
                        changed_items.push(format!(
                            "  {letter} {}:{}  (no declaration: imports, comments or blank lines)",
                            file.path,
                            ranges.join(",")
                        ));
                    }
                    for s in hit {
                        starts.push(s.id);
                        nodes.extend(self.changed_node(store, graph, s)?);
                        changed_items.push(format!("  {letter} {} {}  {}", s.kind, s.signature_handle(), location(s)));
                    }
                }
            }
        }
        nodes.sort();
        nodes.dedup();
        let reached = match graph.level {
            Level::Unit | Level::Service => graph.impact(&nodes, depth),
            // Member by member, as a method's own impact: rows are the methods that reach the
            // change (a caller in the changed method's own class too), not their classes.
            Level::Symbol => {
                let own = starts.iter().map(|id| Node::Symbol(*id)).collect();
                self.code_impact(store, graph, &starts, false, true, &own, depth)?
            }
            Level::File | Level::Module => {
                let dependents = self.dependents(store)?;
                for n in &nodes {
                    starts.extend(self.starts_of(store, &dependents, n)?);
                }
                let own = nodes.iter().cloned().collect();
                self.code_impact(store, graph, &starts, false, false, &own, depth)?
            }
        };
        let test_nodes = self.test_nodes(store, &reached)?;
        for r in &reached {
            if test_nodes.contains(&r.node) {
                if let Some(file) = self.node_file(store, &r.node)? {
                    tests.insert(file.path);
                    test_ids.push(file.id);
                }
            }
        }
        let mut out = format!("change_impact git:{spec} (working tree against {against})");
        if graph.level != Level::Symbol {
            let _ = write!(out, "  level={}", graph.level.as_str());
        }
        if depth != 3 {
            let _ = write!(out, "  depth={depth}");
        }
        out.push('\n');
        if changes.is_empty() {
            out.push_str("no changes to indexed files");
            return Ok(out);
        }
        let count = |k: crate::git::diff::ChangeKind| changes.iter().filter(|c| c.kind == k).count();
        use crate::git::diff::ChangeKind::{Added, Deleted, Modified};
        let _ = writeln!(
            out,
            "changed: {} (M {}, A {}, D {}), {}",
            plural(changes.len(), "file"),
            count(Modified),
            count(Added),
            count(Deleted),
            plural(nodes.len(), graph.level.as_str())
        );
        // The changes and the tests to run head the first page; `offset` pages the affected.
        let first = window.offset == 0;
        if first {
            page(&mut out, &changed_items, changed_items.len(), self.summary_budget / 2, "use level=file for fewer lines");
            out.push('\n');
        }
        let beyond =
            if reached.iter().any(|r| r.distance > depth) { format!(" (tests followed past ring {depth})") } else { String::new() };
        let _ = writeln!(out, "affected: {}; tests: {}{beyond}", rings(&reached, "nothing depends on them"), tests.len());
        let test_lines: Vec<String> = tests.iter().map(|t| format!("  {t}")).collect();
        let mut tail = String::new();
        if first && !tests.is_empty() {
            tail.push_str("\ntests to run:\n");
            page(&mut tail, &test_lines, test_lines.len(), self.summary_budget / 4, "");
            let run = self.run_lines(store, &test_ids)?;
            if !run.is_empty() {
                if !tail.ends_with('\n') {
                    tail.push('\n');
                }
                tail.push_str(run.trim_end());
            }
        }
        let section = |r: &Reached| format!("ring {}:", r.distance);
        let window = window.less(tail.len());
        // Rows leave out the date of the newest change (the one most rows share after an edit).
        // A mapper file is no indexed file: its time is read from the file system.
        let mapper_time = |path: &str| {
            let modified = std::fs::metadata(self.root.join(path)).and_then(|m| m.modified()).ok()?;
            modified.duration_since(std::time::UNIX_EPOCH).ok().map(|d| d.as_nanos() as i64)
        };
        let usual = changes
            .iter()
            .filter_map(|c| match by_path.get(c.path.as_str()) {
                Some(f) => Some(f.mtime_ns),
                None if mappers.contains(&c.path) => mapper_time(&c.path),
                None => None,
            })
            .max()
            .map(date_of)
            .unwrap_or_default();
        self.reached_page(&mut out, store, graph, &reached, window, &section, &usual, Some(&test_nodes), &HashMap::new())?;
        out.push_str(&tail);
        Ok(cap(out, self.summary_budget))
    }

    /// The graph node a changed declaration stands for: its bean at service level, else its
    /// own node (or its type's).
    fn changed_node(&self, store: &Store, graph: &Graph, s: &SymbolInfo) -> Result<Option<Node>, ToolError> {
        Ok(match graph.level {
            Level::Service => self.bean_of(store, graph, s)?,
            _ => graph.node_of_symbol(s.id),
        })
    }

    /// The file a node lives in, if it is a symbol or a file.
    pub(super) fn node_file(&self, store: &Store, node: &Node) -> Result<Option<FileInfo>, ToolError> {
        let id = match node {
            Node::Symbol(id) => match store.symbol(*id)? {
                Some(s) => s.file_id,
                None => return Ok(None),
            },
            Node::File(id) => *id,
            _ => return Ok(None),
        };
        Ok(self.all_files(store)?.get(&id).cloned())
    }

    /// The reached nodes that are tests (by path, or Rust `tests` modules), read in one query.
    pub(super) fn test_nodes(&self, store: &Store, reached: &[Reached]) -> Result<HashSet<Node>, ToolError> {
        let tests = self.tests(store, reached.iter().any(|r| matches!(r.node, Node::File(_))))?;
        Ok(reached.iter().map(|r| &r.node).filter(|n| tests.contains(n)).cloned().collect())
    }

    /// What tells a test node: the test symbols, and with `files` the test files.
    pub(super) fn tests(&self, store: &Store, files: bool) -> Result<TestNodes, ToolError> {
        let mut test_files = HashSet::new();
        if files {
            let view = self.unit_view(store)?;
            test_files.extend(store.files_under("")?.into_iter().filter(|f| view.is_test(f)).map(|f| f.id));
        }
        Ok(TestNodes { symbols: self.test_symbols(store)?, files: test_files })
    }
}

/// Which nodes are tests: symbols in test files or Rust `tests` modules (and marked as
/// tests), and test files.
pub(super) struct TestNodes {
    symbols: Arc<HashSet<i64>>,
    files: HashSet<i64>,
}

impl TestNodes {
    pub(super) fn contains(&self, node: &Node) -> bool {
        match node {
            Node::Symbol(id) => self.symbols.contains(id),
            Node::File(f) => self.files.contains(f),
            _ => false,
        }
    }
}

/// A reached node placed for listing: its section (an index into the answer's sections),
/// its group, its total edge weight and its group's.
struct Placed<'a> {
    reached: &'a Reached,
    section: usize,
    /// An index into the answer's group headings.
    group: usize,
    weight: u64,
    group_weight: u64,
}

/// The declarations a change of these line ranges of a file changes: the innermost ones
/// touched (those without a member also touched), or for a new file its outermost ones;
/// an item declared inside a function's body (a `const`, a nested `fn`) stands for the
/// outermost function around it, which is what its callers see change.
fn changed_declarations<'a>(symbols: &'a [SymbolInfo], lines: &[(u32, u32)], added: bool) -> Vec<&'a SymbolInfo> {
    let overlaps = |s: &SymbolInfo, (a, b): (u32, u32)| s.start_line <= b && s.end_line >= a;
    let mut hit: Vec<&SymbolInfo> = Vec::new();
    if added {
        // A new file: its outermost declarations stand for all of it.
        hit.extend(symbols.iter().filter(|s| !symbols.iter().any(|p| Some(p.id) == s.parent)));
    }
    let ranges_to_map: &[(u32, u32)] = if hit.is_empty() { lines } else { &[] };
    for &range in ranges_to_map {
        for s in symbols.iter().filter(|s| overlaps(s, range)) {
            let inner = symbols.iter().any(|o| o.parent == Some(s.id) && overlaps(o, range));
            if !inner && !hit.iter().any(|h| h.id == s.id) {
                hit.push(s);
            }
        }
    }
    let by_id: HashMap<i64, &SymbolInfo> = symbols.iter().map(|s| (s.id, s)).collect();
    let mut outer: Vec<&SymbolInfo> = Vec::new();
    for s in hit {
        let mut top = s;
        let mut up = s.parent.and_then(|p| by_id.get(&p).copied());
        while let Some(p) = up {
            if p.kind.is_callable() {
                top = p;
            }
            up = p.parent.and_then(|q| by_id.get(&q).copied());
        }
        if !outer.iter().any(|o| o.id == top.id) {
            outer.push(top);
        }
    }
    outer
}

/// The first line of a graph answer: the node, its place and facts (the date there is the
/// one rows leave out), the level unless it is `symbol`, the depth unless it is the default.
fn heading(label: &str, loc: &str, facts: Option<&Facts>, level: Level, depth: Option<usize>) -> String {
    let mut out = label.to_string();
    for part in [loc.to_string(), facts.map(|f| f.compact("")).unwrap_or_default()] {
        if !part.is_empty() {
            out.push_str("  ");
            out.push_str(&part);
        }
    }
    if level != Level::Symbol {
        let _ = write!(out, "  level={}", level.as_str());
    }
    if let Some(d) = depth {
        let _ = write!(out, "  depth={d}");
    }
    out.push('\n');
    out
}

/// An external's type and member: `java.lang.String#length` -> (`java.lang.String`,
/// `length`), `std::sync::Arc::new` -> (`std::sync::Arc`, `new`), a variant to its enum
/// (`std::result::Result::Ok`); a type is its own owner.
fn external_owner(qname: &str) -> (String, Option<String>) {
    if let Some((owner, member)) = qname.split_once('#') {
        return (owner.to_string(), Some(member.to_string()));
    }
    if let Some((owner, last)) = qname.rsplit_once("::") {
        let owner_is_type = owner.rsplit("::").next().is_some_and(|s| s.starts_with(|c: char| c.is_uppercase()));
        if owner_is_type {
            return (owner.to_string(), Some(last.to_string()));
        }
    }
    (qname.to_string(), None)
}

/// `12 (ring 1: 3, ring 2: 9)`, or `0 (<none>)`.
fn rings(reached: &[Reached], none: &str) -> String {
    let mut by_distance: Vec<(usize, usize)> = Vec::new();
    for r in reached {
        match by_distance.last_mut() {
            Some((d, n)) if *d == r.distance => *n += 1,
            _ => by_distance.push((r.distance, 1)),
        }
    }
    if by_distance.is_empty() {
        return format!("0 ({none})");
    }
    let rings: Vec<String> = by_distance.iter().map(|(d, n)| format!("ring {d}: {n}")).collect();
    format!("{} ({})", reached.len(), rings.join(", "))
}
