//! `repochart map`: the index as a picture. The build units and their dependencies (the
//! modules, when the repository has one unit or none) as a layered drawing, arrows pointing
//! down from a unit to what it uses; cycles and uses a manifest does not declare in red,
//! declared dependencies nothing uses dotted. As DOT or Mermaid for docs and pull requests,
//! as SVG, or as one self-contained HTML page: the drawing with a legend of its edge styles,
//! the repository's external systems, each unit's modules (its own drawing, under the units
//! when the unit is opened), entry points, external systems, size, most depended-upon types,
//! hot spots and last commit, and a search over the symbols, every name a link to its file
//! and line. Arrows leave and reach a node at points spread over its width, with heads of
//! one size. Read from the same store and graphs the tools answer from.
//!
//! The layout is a small layered (Sugiyama-style) one written here, because the crates that
//! draw graphs either shell out to Graphviz or pull a renderer in: edges that close a cycle
//! are turned around for layering, a node's layer is the longest path down to it from the
//! nodes nothing uses, and four barycenter sweeps order each layer. At most `MAX_NODES` are
//! drawn at once (the largest); the rest are listed beside the drawing.
//!
//! Owns the map's drawings and page. It must not write the store; it adds no MCP tool.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write;

use super::lines::plural;
use super::{Atlas, ToolError};
use crate::graph::{Level, Node};
use crate::model::RefKind;
use crate::store::Store;

/// Nodes drawn at once; the others are listed.
pub const MAX_NODES: usize = 60;
/// Symbols the page's search holds (types first, then callables).
const MAX_SEARCH_SYMBOLS: usize = 60_000;

/// What `repochart map` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapFormat {
    Html,
    Svg,
    Dot,
    Mermaid,
}

impl MapFormat {
    pub fn parse(s: &str) -> Option<MapFormat> {
        Some(match s {
            "html" => MapFormat::Html,
            "svg" => MapFormat::Svg,
            "dot" => MapFormat::Dot,
            "mermaid" => MapFormat::Mermaid,
            _ => return None,
        })
    }
}

/// How an edge is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EdgeStyle {
    Used,
    /// A use the manifest does not declare.
    Undeclared,
    /// Declared in the manifest, used by nothing.
    Unused,
}

#[derive(Clone, Debug)]
struct MapNode {
    /// A stable id: the unit's folder or the module's name.
    key: String,
    label: String,
    /// Files, for ordering and the size shown.
    files: usize,
    loc: u64,
}

#[derive(Clone, Debug)]
struct MapEdge {
    from: usize,
    to: usize,
    weight: u32,
    style: EdgeStyle,
    /// Part of a cycle (both ends in one strongly connected component).
    cycle: bool,
}

/// One drawing: nodes, edges among them, and the nodes left out.
#[derive(Clone, Debug, Default)]
struct Drawing {
    title: String,
    nodes: Vec<MapNode>,
    edges: Vec<MapEdge>,
    left_out: Vec<MapNode>,
}

impl Drawing {
    /// `3 more not drawn: a, b, c`.
    fn left_out_line(&self) -> String {
        format!("{} more not drawn: {}", self.left_out.len(), self.left_out.iter().map(|n| n.label.as_str()).collect::<Vec<_>>().join(", "))
    }
}

impl Atlas {
    /// The map in `format`; `link` is the URL template of names (`{path}`, `{line}`,
    /// `{commit}`), else `[map] link` of `.repochart.toml`, else a `file://` link.
    pub fn map(&self, format: MapFormat, link: Option<&str>) -> Result<String, ToolError> {
        let store = self.store()?;
        let result = self.map_with(&store, format, link);
        self.pool.lock().expect("pool lock").push(store);
        result
    }

    fn map_with(&self, store: &Store, format: MapFormat, link: Option<&str>) -> Result<String, ToolError> {
        let top = self.top_drawing(store)?;
        Ok(match format {
            MapFormat::Dot => dot(&top),
            MapFormat::Mermaid => mermaid(&top),
            MapFormat::Svg => svg(&top, "top"),
            MapFormat::Html => self.page(store, &top, link)?,
        })
    }

    /// The build units (two or more) or else the modules, with their dependencies.
    fn top_drawing(&self, store: &Store) -> Result<Drawing, ToolError> {
        let view = self.unit_view(store)?;
        if view.units.units.len() < 2 {
            return self.module_drawing(store, None);
        }
        let files = self.all_files(store)?;
        let mut size: HashMap<u32, (usize, u64)> = HashMap::new();
        for f in files.values() {
            if let Some(u) = view.of_file.get(&f.id) {
                let s = size.entry(*u).or_default();
                s.0 += 1;
                s.1 += u64::from(f.loc);
            }
        }
        let all: Vec<(u32, MapNode)> = view
            .units
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| {
                let (files, loc) = size.get(&(i as u32)).copied().unwrap_or_default();
                let key = if u.dir.is_empty() { ".".to_string() } else { u.dir.clone() };
                (i as u32, MapNode { key, label: u.name.clone(), files, loc })
            })
            .collect();
        let graph = self.graph(store, Level::Unit)?;
        let mut weights: HashMap<(u32, u32), u32> = HashMap::new();
        for (from, to, edges) in graph.node_edges() {
            if let (Node::Unit(a), Node::Unit(b)) = (from, to) {
                let used: Vec<_> = edges.iter().filter(|e| e.kind != RefKind::Declares).collect();
                if a != b && !used.is_empty() {
                    *weights.entry((*a, *b)).or_default() += used.iter().map(|e| e.weight).sum::<u32>();
                }
            }
        }
        let undeclared: HashSet<(u32, u32)> = self.undeclared(store)?.iter().map(|u| (u.from, u.to)).collect();
        let mut pairs: Vec<((u32, u32), u32, EdgeStyle)> =
            weights.iter().map(|(k, w)| (*k, *w, if undeclared.contains(k) { EdgeStyle::Undeclared } else { EdgeStyle::Used })).collect();
        // Declared (main code) dependencies nothing uses.
        for (i, u) in view.units.units.iter().enumerate() {
            for d in u.deps.iter().filter(|d| !d.test) {
                if let Some(j) = view.units.units.iter().position(|o| o.dir == d.dir) {
                    let key = (i as u32, j as u32);
                    if i != j && !weights.contains_key(&key) {
                        pairs.push((key, 0, EdgeStyle::Unused));
                    }
                }
            }
        }
        Ok(assemble(format!("build units ({})", all.len()), all, pairs))
    }

    /// The modules (Java packages, Rust modules) of one unit, or of the whole repository.
    fn module_drawing(&self, store: &Store, unit: Option<u32>) -> Result<Drawing, ToolError> {
        let view = self.unit_view(store)?;
        let files = self.all_files(store)?;
        let mut size: BTreeMap<String, (usize, u64)> = BTreeMap::new();
        for f in files.values() {
            if unit.is_some() && view.of_file.get(&f.id).copied() != unit {
                continue;
            }
            let s = size.entry(f.module.clone()).or_default();
            s.0 += 1;
            s.1 += u64::from(f.loc);
        }
        let all: Vec<(String, MapNode)> = size
            .iter()
            .map(|(m, (files, loc))| {
                let label = if m.is_empty() { "(default)".to_string() } else { m.clone() };
                (m.clone(), MapNode { key: format!("m:{m}"), label, files: *files, loc: *loc })
            })
            .collect();
        let graph = self.graph(store, Level::Module)?;
        let mut pairs: Vec<((String, String), u32, EdgeStyle)> = Vec::new();
        for (from, to, edges) in graph.node_edges() {
            if let (Node::Module(a), Node::Module(b)) = (from, to) {
                if a != b && size.contains_key(a) && size.contains_key(b) {
                    pairs.push(((a.clone(), b.clone()), edges.iter().map(|e| e.weight).sum(), EdgeStyle::Used));
                }
            }
        }
        Ok(assemble(format!("modules ({})", all.len()), all, pairs))
    }

    /// The HTML page.
    fn page(&self, store: &Store, top: &Drawing, link: Option<&str>) -> Result<String, ToolError> {
        let view = self.unit_view(store)?;
        let name = self.root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let state = self.history(store)?;
        // `--link`, else `[map] link` of `.repochart.toml`, else `file://` links.
        let link = match link.map(str::to_string).or_else(|| self.map_link.clone()) {
            Some(l) => l,
            None => format!("file://{}/{{path}}", self.root.display()),
        };
        let commit = if state.is_ready() { state.head.clone() } else { String::new() };
        // The details of each node of the top drawing, keyed like the nodes.
        let mut details = serde_json::Map::new();
        let by_units = view.units.units.len() >= 2;
        let graph = self.graph(store, Level::Symbol)?;
        let files = self.all_files(store)?;
        let top_types = graph.top_fan_in(5_000);
        let hot_all = self.hot_spots(store, "", 200)?.1;
        // A hot spot row starts with its path.
        let file_of_path: HashMap<&str, i64> = files.values().map(|f| (f.path.as_str(), f.id)).collect();
        let unit_rows = if by_units { self.unit_rows(store, "")? } else { Vec::new() };
        for n in top.nodes.iter().chain(&top.left_out) {
            let mut d = serde_json::Map::new();
            let (prefix, unit, module) = if by_units {
                let i = view.units.units.iter().position(|u| (if u.dir.is_empty() { "." } else { u.dir.as_str() }) == n.key);
                let u = i.and_then(|i| view.unit(i as u32));
                (u.map(|u| u.dir.clone()).unwrap_or_default(), i.map(|i| i as u32), None)
            } else {
                (String::new(), None, Some(n.key.trim_start_matches("m:").to_string()))
            };
            let in_node = |file: i64| -> bool {
                match (unit, &module) {
                    (Some(u), _) => view.of_file.get(&file) == Some(&u),
                    (None, Some(m)) => files.get(&file).is_some_and(|f| &f.module == m),
                    _ => false,
                }
            };
            if let Some(u) = unit {
                if let Some(row) = unit_rows.get(u as usize) {
                    d.insert("summary".into(), row.clone().into());
                }
                let sub = self.module_drawing(store, Some(u))?;
                d.insert("svg".into(), svg(&sub, &format!("u{u}")).into());
                let left: Vec<serde_json::Value> = sub.left_out.iter().map(|m| format!("{} ({} files)", m.label, m.files).into()).collect();
                d.insert("more".into(), left.into());
            } else {
                d.insert("summary".into(), format!("{}: {} files, {} LOC", n.label, n.files, n.loc).into());
            }
            let entries: Vec<crate::store::SymbolInfo> =
                self.entry_points(store, &prefix)?.into_iter().filter(|e| in_node(e.file_id)).collect();
            if !entries.is_empty() {
                let (title, rows) = self.entry_rows(store, &entries)?;
                d.insert("entries_title".into(), title.into());
                d.insert("entries".into(), rows.into_iter().take(50).map(serde_json::Value::from).collect::<Vec<_>>().into());
            }
            let mut types = Vec::new();
            for (node, n) in &top_types {
                let Node::Symbol(id) = node else { continue };
                let Some(file) = graph.file_of(node) else { continue };
                if !in_node(file) {
                    continue;
                }
                if let Some(s) = store.symbol(*id)? {
                    types
                        .push(serde_json::json!({"name": format!("{} {}", s.kind, s.qname), "n": n, "path": s.path, "line": s.start_line}));
                }
                if types.len() == 10 {
                    break;
                }
            }
            d.insert("types".into(), types.into());
            let hot: Vec<serde_json::Value> = hot_all
                .iter()
                .filter(|row| row.split("  ").next().and_then(|path| file_of_path.get(path)).is_some_and(|id| in_node(*id)))
                .take(5)
                .map(|r| r.clone().into())
                .collect();
            d.insert("hot".into(), hot.into());
            details.insert(n.key.clone(), d.into());
        }
        // Each unit's external systems (the whole repository's head the page).
        if by_units {
            for u in &view.units.units {
                let key = if u.dir.is_empty() { ".".to_string() } else { u.dir.clone() };
                let Some(serde_json::Value::Object(d)) = details.get_mut(&key) else { continue };
                let prefix = if u.dir.is_empty() { String::new() } else { format!("{}/", u.dir) };
                // The root unit's folder holds the others: only its own files.
                let rows = if u.dir.is_empty() { Vec::new() } else { self.external_systems(store, &prefix)? };
                if !rows.is_empty() {
                    d.insert("external".into(), rows.into_iter().map(|r| r.trim().to_string()).collect::<Vec<_>>().into());
                }
            }
        }
        let external = self.external_systems(store, "")?;
        let symbols = store.map_symbols(MAX_SEARCH_SYMBOLS)?;
        let symbols_json: Vec<serde_json::Value> =
            symbols.iter().map(|(kind, qname, path, line)| serde_json::json!([kind, qname, path, line])).collect();
        let data = serde_json::json!({
            "repo": name,
            "link": link,
            "commit": commit,
            "history": state.describe(),
            "details": details,
            "left_out": top.left_out.iter().map(|n| serde_json::json!({"key": n.key, "label": n.label, "files": n.files})).collect::<Vec<_>>(),
            "symbols": symbols_json,
            "symbols_cut": symbols.len() >= MAX_SEARCH_SYMBOLS,
        });
        // `</` cannot end the script element from inside the data.
        let data = serde_json::to_string(&data).map_err(|e| ToolError(e.to_string()))?.replace("</", "<\\/");
        let mut out = String::with_capacity(data.len() + 20_000);
        out.push_str(PAGE_HEAD);
        let _ = write!(out, "<title>{} - repochart map</title>\n</head>\n<body>\n", escape(&name));
        let _ = writeln!(
            out,
            "<header><h1>{}</h1><span>{}</span><input id=\"q\" type=\"search\" placeholder=\"search symbols\" autocomplete=\"off\"></header>",
            escape(&name),
            escape(&top.title)
        );
        out.push_str("<main><section id=\"drawing\">");
        out.push_str(&svg(top, "top"));
        out.push_str(LEGEND);
        if !top.left_out.is_empty() {
            let _ = write!(out, "<p class=\"more\">{} more not drawn (click to open): ", top.left_out.len());
            for n in &top.left_out {
                let _ = write!(out, "<a href=\"#\" data-key=\"{}\">{}</a> ", escape(&n.key), escape(&n.label));
            }
            out.push_str("</p>");
        }
        // The opened unit's modules, at a size one can read, under the drawing.
        out.push_str("<div id=\"modules\"></div>");
        if !external.is_empty() {
            let _ = write!(out, "<h3>external systems ({})</h3><ul class=\"external\">", external.len());
            for row in &external {
                let _ = write!(out, "<li>{}</li>", escape(row.trim()));
            }
            out.push_str("</ul>");
        }
        out.push_str("</section><aside id=\"panel\"><p>Click a box to see its modules, entry points, external systems, most depended-upon types and hot spots.</p></aside>");
        out.push_str("<section id=\"results\"></section></main>\n<footer id=\"history\"></footer>\n");
        let _ = write!(
            out,
            "<script id=\"data\" type=\"application/json\">{data}</script>\n<script>{PAGE_SCRIPT}</script>\n</body>\n</html>\n"
        );
        Ok(out)
    }
}

/// Builds a drawing from keyed nodes and weighted pairs: the `MAX_NODES` largest nodes are
/// drawn, edges among them kept, cycles marked.
fn assemble<K: std::hash::Hash + Eq + Clone>(title: String, all: Vec<(K, MapNode)>, pairs: Vec<((K, K), u32, EdgeStyle)>) -> Drawing {
    let mut order: Vec<usize> = (0..all.len()).collect();
    order.sort_by(|a, b| all[*b].1.files.cmp(&all[*a].1.files).then(all[*a].1.label.cmp(&all[*b].1.label)));
    let drawn: HashSet<usize> = order.iter().take(MAX_NODES).copied().collect();
    let mut nodes = Vec::new();
    let mut left_out = Vec::new();
    let mut index: HashMap<K, usize> = HashMap::new();
    for (i, (k, n)) in all.into_iter().enumerate() {
        if drawn.contains(&i) {
            index.insert(k, nodes.len());
            nodes.push(n);
        } else {
            left_out.push(n);
        }
    }
    left_out.sort_by(|a, b| b.files.cmp(&a.files).then(a.label.cmp(&b.label)));
    let mut edges: Vec<MapEdge> = pairs
        .into_iter()
        .filter_map(|((a, b), weight, style)| Some(MapEdge { from: *index.get(&a)?, to: *index.get(&b)?, weight, style, cycle: false }))
        .collect();
    edges.sort_by_key(|e| (e.from, e.to));
    edges.dedup_by_key(|e| (e.from, e.to));
    // Cycles: edges inside one strongly connected component.
    let mut g = petgraph::graph::DiGraph::<(), ()>::new();
    let ids: Vec<_> = (0..nodes.len()).map(|_| g.add_node(())).collect();
    for e in edges.iter().filter(|e| e.style != EdgeStyle::Unused) {
        g.add_edge(ids[e.from], ids[e.to], ());
    }
    let mut component = vec![0usize; nodes.len()];
    for (c, scc) in petgraph::algo::tarjan_scc(&g).iter().enumerate() {
        for n in scc {
            component[n.index()] = if scc.len() > 1 { c + 1 } else { 0 };
        }
    }
    for e in &mut edges {
        e.cycle = e.style != EdgeStyle::Unused && component[e.from] != 0 && component[e.from] == component[e.to];
    }
    Drawing { title, nodes, edges, left_out }
}

/// Where each node goes: its layer and its place in the layer.
struct Layout {
    layer: Vec<usize>,
    /// x of each node's center, y of its top.
    x: Vec<f64>,
    y: Vec<f64>,
    width: Vec<f64>,
    size: (f64, f64),
}

const NODE_H: f64 = 34.0;
const LAYER_GAP: f64 = 90.0;
const NODE_GAP: f64 = 24.0;
const MARGIN: f64 = 20.0;

fn node_width(n: &MapNode) -> f64 {
    (n.label.chars().count() as f64 * 7.2 + 24.0).clamp(60.0, 320.0)
}

fn layout(d: &Drawing) -> Layout {
    let n = d.nodes.len();
    // Edges used for layering: a cycle's edges turned around where a depth-first walk
    // meets them going back.
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in d.edges.iter().filter(|e| e.style != EdgeStyle::Unused) {
        out[e.from].push(e.to);
    }
    let mut state = vec![0u8; n]; // 0 new, 1 on the stack, 2 done
    let mut down: Vec<(usize, usize)> = Vec::new();
    for start in 0..n {
        if state[start] != 0 {
            continue;
        }
        let mut stack = vec![(start, 0usize)];
        state[start] = 1;
        while let Some((v, i)) = stack.pop() {
            if i < out[v].len() {
                stack.push((v, i + 1));
                let w = out[v][i];
                match state[w] {
                    0 => {
                        down.push((v, w));
                        state[w] = 1;
                        stack.push((w, 0));
                    }
                    1 => down.push((w, v)), // back edge: turned around
                    _ => down.push((v, w)),
                }
            } else {
                state[v] = 2;
            }
        }
    }
    // Longest path from the nodes nothing uses.
    let mut layer = vec![0usize; n];
    for _ in 0..n {
        let mut changed = false;
        for (a, b) in &down {
            if layer[*b] < layer[*a] + 1 {
                layer[*b] = layer[*a] + 1;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let layers = layer.iter().max().map_or(0, |m| m + 1);
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); layers];
    for v in 0..n {
        rows[layer[v]].push(v);
    }
    // Barycenter sweeps: each node toward the mean place of its neighbours in other layers.
    let mut place = vec![0f64; n];
    for row in &rows {
        for (i, v) in row.iter().enumerate() {
            place[*v] = i as f64;
        }
    }
    let neighbours: Vec<Vec<usize>> = (0..n)
        .map(|v| {
            d.edges
                .iter()
                .filter_map(|e| {
                    if e.from == v {
                        Some(e.to)
                    } else if e.to == v {
                        Some(e.from)
                    } else {
                        None
                    }
                })
                .collect()
        })
        .collect();
    for _ in 0..4 {
        for row in rows.iter_mut() {
            let mut keyed: Vec<(f64, usize)> = row
                .iter()
                .map(|v| {
                    let ns = &neighbours[*v];
                    let b = if ns.is_empty() { place[*v] } else { ns.iter().map(|w| place[*w]).sum::<f64>() / ns.len() as f64 };
                    (b, *v)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal).then(a.1.cmp(&b.1)));
            *row = keyed.into_iter().map(|(_, v)| v).collect();
            for (i, v) in row.iter().enumerate() {
                place[*v] = i as f64;
            }
        }
    }
    let width: Vec<f64> = d.nodes.iter().map(node_width).collect();
    let row_width = |row: &Vec<usize>| row.iter().map(|v| width[*v]).sum::<f64>() + NODE_GAP * row.len().saturating_sub(1) as f64;
    let total = rows.iter().map(row_width).fold(0.0, f64::max);
    let (mut x, mut y) = (vec![0f64; n], vec![0f64; n]);
    for (l, row) in rows.iter().enumerate() {
        let mut at = MARGIN + (total - row_width(row)) / 2.0;
        for v in row {
            x[*v] = at + width[*v] / 2.0;
            y[*v] = MARGIN + l as f64 * (NODE_H + LAYER_GAP);
            at += width[*v] + NODE_GAP;
        }
    }
    let size = (total + 2.0 * MARGIN, MARGIN * 2.0 + layers as f64 * (NODE_H + LAYER_GAP) - LAYER_GAP);
    Layout { layer, x, y, width, size }
}

/// The drawing as SVG (ids prefixed with `id`, so that several can share a page).
fn svg(d: &Drawing, id: &str) -> String {
    let l = layout(d);
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"map\" viewBox=\"0 0 {:.0} {:.0}\" width=\"{:.0}\" height=\"{:.0}\" font-family=\"sans-serif\" font-size=\"12\">",
        l.size.0.max(100.0),
        l.size.1.max(60.0),
        l.size.0.max(100.0),
        l.size.1.max(60.0)
    );
    let _ = write!(
        out,
        "<defs><marker id=\"{id}-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerUnits=\"userSpaceOnUse\" markerWidth=\"9\" markerHeight=\"9\" orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\" fill=\"#555\"/></marker>\
         <marker id=\"{id}-red\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerUnits=\"userSpaceOnUse\" markerWidth=\"9\" markerHeight=\"9\" orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\" fill=\"#c62828\"/></marker></defs>"
    );
    // Where each edge leaves and arrives: spread over the node's width, in the order of the
    // other ends, so that arrows into one node do not meet at one point.
    let mut port_out: HashMap<usize, f64> = HashMap::new();
    let mut port_in: HashMap<usize, f64> = HashMap::new();
    for v in 0..d.nodes.len() {
        for (outgoing, ports) in [(true, &mut port_out), (false, &mut port_in)] {
            let mut mine: Vec<(f64, usize)> = d
                .edges
                .iter()
                .enumerate()
                .filter(|(_, e)| if outgoing { e.from == v } else { e.to == v })
                .map(|(k, e)| (l.x[if outgoing { e.to } else { e.from }], k))
                .collect();
            mine.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
            let span = (l.width[v] - 16.0).max(0.0);
            for (i, (_, k)) in mine.iter().enumerate() {
                let at = l.x[v] - span / 2.0 + span * (i as f64 + 1.0) / (mine.len() as f64 + 1.0);
                ports.insert(*k, at);
            }
        }
    }
    for (k, e) in d.edges.iter().enumerate() {
        let (x1, y1) = (port_out[&k], l.y[e.from] + NODE_H);
        let (x2, y2) = (port_in[&k], l.y[e.to]);
        let red = e.cycle || e.style == EdgeStyle::Undeclared;
        let (color, marker) = if red { ("#c62828", "red") } else { ("#555", "arrow") };
        let dash = match e.style {
            EdgeStyle::Undeclared => " stroke-dasharray=\"6 3\"",
            EdgeStyle::Unused => " stroke-dasharray=\"2 4\"",
            EdgeStyle::Used => "",
        };
        let stroke = 1.0 + (f64::from(e.weight.max(1))).log10();
        let path = if l.layer[e.to] > l.layer[e.from] {
            format!("M{x1:.1},{y1:.1} C{x1:.1},{:.1} {x2:.1},{:.1} {x2:.1},{y2:.1}", y1 + LAYER_GAP / 2.0, y2 - LAYER_GAP / 2.0)
        } else {
            // Up or sideways (a cycle): around the side.
            let (ya, yb) = (l.y[e.from] + NODE_H / 2.0, l.y[e.to] + NODE_H / 2.0);
            let (xa, xb) = (l.x[e.from] + l.width[e.from] / 2.0, l.x[e.to] + l.width[e.to] / 2.0);
            let out_x = xa.max(xb) + 40.0;
            format!("M{xa:.1},{ya:.1} C{out_x:.1},{ya:.1} {out_x:.1},{yb:.1} {xb:.1},{yb:.1}")
        };
        let what = match (e.style, e.cycle) {
            (EdgeStyle::Undeclared, _) => format!("{} references; not declared in the manifest", e.weight),
            (EdgeStyle::Unused, _) => "declared in the manifest, not used".to_string(),
            (EdgeStyle::Used, true) => format!("{} references; part of a cycle", e.weight),
            (EdgeStyle::Used, false) => format!("{} references", e.weight),
        };
        let _ = write!(
            out,
            "<path d=\"{path}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"{stroke:.1}\"{dash} marker-end=\"url(#{id}-{marker})\"><title>{} -&gt; {}: {}</title></path>",
            escape(&d.nodes[e.from].label),
            escape(&d.nodes[e.to].label),
            escape(&what)
        );
    }
    for (i, n) in d.nodes.iter().enumerate() {
        let (x, y, w) = (l.x[i] - l.width[i] / 2.0, l.y[i], l.width[i]);
        let mut label = n.label.clone();
        let fits = ((w - 16.0) / 7.2) as usize;
        if label.chars().count() > fits {
            label = label.chars().take(fits.saturating_sub(1)).collect::<String>() + "…";
        }
        let _ = write!(
            out,
            "<g class=\"node\" data-key=\"{}\"><rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{NODE_H}\" rx=\"5\" fill=\"#e8eef7\" stroke=\"#35618f\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text><title>{}: {} files, {} LOC</title></g>",
            escape(&n.key),
            l.x[i],
            y + NODE_H / 2.0 + 4.0,
            escape(&label),
            escape(&n.label),
            n.files,
            n.loc
        );
    }
    out.push_str("</svg>");
    out
}

/// The drawing as Graphviz DOT.
fn dot(d: &Drawing) -> String {
    let mut out = String::from("digraph repochart {\n  rankdir=TB;\n  node [shape=box, style=rounded];\n");
    let _ = writeln!(out, "  // {}", d.title);
    for n in &d.nodes {
        let _ = writeln!(
            out,
            "  \"{}\" [label=\"{}\\n{}, {} LOC\"];",
            dot_escape(&n.key),
            dot_escape(&n.label),
            plural(n.files, "file"),
            n.loc
        );
    }
    for e in &d.edges {
        let mut attrs = vec![format!("label=\"{}\"", e.weight)];
        match e.style {
            EdgeStyle::Undeclared => {
                attrs.extend(["color=red".to_string(), "style=dashed".to_string(), "xlabel=\"undeclared\"".to_string()])
            }
            EdgeStyle::Unused => attrs = vec!["style=dotted".to_string(), "xlabel=\"declared, unused\"".to_string()],
            EdgeStyle::Used if e.cycle => attrs.extend(["color=red".to_string(), "xlabel=\"cycle\"".to_string()]),
            EdgeStyle::Used => {}
        }
        let _ =
            writeln!(out, "  \"{}\" -> \"{}\" [{}];", dot_escape(&d.nodes[e.from].key), dot_escape(&d.nodes[e.to].key), attrs.join(", "));
    }
    if !d.left_out.is_empty() {
        let _ = writeln!(out, "  // {}", d.left_out_line());
    }
    out.push_str("}\n");
    out
}

/// The drawing as a Mermaid flowchart.
fn mermaid(d: &Drawing) -> String {
    let mut out = String::from("flowchart TD\n");
    let _ = writeln!(out, "  %% {}", d.title);
    for (i, n) in d.nodes.iter().enumerate() {
        let _ = writeln!(out, "  n{i}[\"{}<br/>{}, {} LOC\"]", mermaid_escape(&n.label), plural(n.files, "file"), n.loc);
    }
    let mut red = Vec::new();
    for (k, e) in d.edges.iter().enumerate() {
        let arrow = match e.style {
            EdgeStyle::Unused => "-.->|declared, unused|".to_string(),
            EdgeStyle::Undeclared => format!("-.->|{} undeclared|", e.weight),
            EdgeStyle::Used if e.cycle => format!("-->|{} cycle|", e.weight),
            EdgeStyle::Used => format!("-->|{}|", e.weight),
        };
        let _ = writeln!(out, "  n{} {arrow} n{}", e.from, e.to);
        if e.cycle || e.style == EdgeStyle::Undeclared {
            red.push(k.to_string());
        }
    }
    if !red.is_empty() {
        let _ = writeln!(out, "  linkStyle {} stroke:#c62828", red.join(","));
    }
    if !d.left_out.is_empty() {
        let _ = writeln!(out, "  %% {}", d.left_out_line());
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn mermaid_escape(s: &str) -> String {
    s.replace('"', "#quot;")
}

/// The page's head: no request leaves it (the policy allows nothing but its own inline
/// style and script).
const PAGE_HEAD: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: #1d2733; background: #fbfcfe; }
header { display: flex; gap: 16px; align-items: baseline; padding: 10px 16px; background: #20364f; color: #fff; }
header h1 { font-size: 18px; margin: 0; }
header input { margin-left: auto; width: 320px; padding: 5px 8px; border-radius: 4px; border: 0; font-size: 14px; }
main { display: grid; grid-template-columns: minmax(0, 1fr) 420px; gap: 12px; padding: 12px 16px; }
#drawing { overflow: auto; border: 1px solid #d5dde8; background: #fff; border-radius: 6px; padding: 6px; }
#panel { border: 1px solid #d5dde8; background: #fff; border-radius: 6px; padding: 8px 12px; overflow: auto; max-height: 85vh; }
#panel h2 { font-size: 16px; margin: 4px 0; }
#panel h3 { font-size: 13px; margin: 10px 0 4px; color: #35618f; }
#panel ul { margin: 0; padding-left: 18px; }
#modules svg { max-width: none; }
#drawing h3 { font-size: 13px; margin: 12px 0 4px; color: #35618f; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 12px; color: #444; margin: 6px 0; }
.legend svg { vertical-align: middle; margin-right: 4px; }
ul.external { margin: 0; padding-left: 18px; font-size: 13px; }
#panel li { margin: 2px 0; word-break: break-all; }
#results { grid-column: 1 / -1; }
#results li { font-family: ui-monospace, monospace; font-size: 12px; }
g.node { cursor: pointer; }
g.node:hover rect, g.node.selected rect { fill: #cfe0f5; }
.more { font-size: 12px; color: #555; }
.more a { margin-right: 6px; }
footer { padding: 6px 16px; color: #555; font-size: 12px; }
</style>
"#;

/// What the edge styles of a drawing mean, under it.
const LEGEND: &str = concat!(
    "<div class=\"legend\">",
    "<span><svg width=\"36\" height=\"10\"><path d=\"M2,5H34\" stroke=\"#555\" stroke-width=\"2\"/></svg>uses (arrow to what is used; wider: more references)</span>",
    "<span><svg width=\"36\" height=\"10\"><path d=\"M2,5H34\" stroke=\"#c62828\" stroke-width=\"2\"/></svg>part of a cycle</span>",
    "<span><svg width=\"36\" height=\"10\"><path d=\"M2,5H34\" stroke=\"#c62828\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/></svg>used, not declared in the manifest</span>",
    "<span><svg width=\"36\" height=\"10\"><path d=\"M2,5H34\" stroke=\"#555\" stroke-width=\"1\" stroke-dasharray=\"2 4\"/></svg>declared, not used</span>",
    "</div>"
);

/// The page's script: details of a clicked node, the search, links.
const PAGE_SCRIPT: &str = r#"
const DATA = JSON.parse(document.getElementById("data").textContent);
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
const href = (path, line) => DATA.link.replace("{path}", path).replace("{line}", line).replace("{commit}", DATA.commit);
const place = (path, line) => `<a href="${esc(href(path, line))}">${esc(path)}:${line}</a>`;
// `path/File.java:12-30` in a row becomes a link to its first line; a bare path to the file.
const linkify = (row) => esc(row).replace(/([\w.\/-]+\.[A-Za-z]+)(?::(\d+)(?:-\d+)?)?(?=\s|$)/g, (m, path, line) =>
  path.includes("/") ? `<a href="${esc(href(path, line || 1))}">${m}</a>` : m);
document.getElementById("history").textContent = DATA.history;
function show(key) {
  const d = DATA.details[key];
  if (!d) return;
  document.querySelectorAll("g.node").forEach((g) => g.classList.toggle("selected", g.dataset.key === key));
  let h = `<h2>${esc(d.summary)}</h2>`;
  let m = "";
  if (d.svg) m += `<h3>modules of ${esc(d.summary.split(" (")[0])}</h3>${d.svg}`;
  if (d.more && d.more.length) m += `<p class="more">${d.more.length} more modules: ${d.more.map(esc).join(", ")}</p>`;
  document.getElementById("modules").innerHTML = m;
  if (d.external) h += `<h3>external systems</h3><ul>${d.external.map((r) => `<li>${linkify(r)}</li>`).join("")}</ul>`;
  if (d.entries) h += `<h3>${esc(d.entries_title)}</h3><ul>${d.entries.map((e) => `<li>${linkify(e)}</li>`).join("")}</ul>`;
  if (d.types && d.types.length) h += `<h3>most depended-upon</h3><ul>${d.types.map((t) => `<li>${esc(t.name)} (${t.n}) ${place(t.path, t.line)}</li>`).join("")}</ul>`;
  if (d.hot && d.hot.length) h += `<h3>hot spots</h3><ul>${d.hot.map((r) => `<li>${linkify(r)}</li>`).join("")}</ul>`;
  document.getElementById("panel").innerHTML = h;
}
document.querySelectorAll("[data-key]").forEach((el) => el.addEventListener("click", (ev) => { ev.preventDefault(); show(el.dataset.key); }));
function search(q) {
  const out = document.getElementById("results");
  q = q.trim().toLowerCase();
  if (!q) { out.innerHTML = ""; return; }
  const found = [];
  for (const s of DATA.symbols) {
    if (s[1].toLowerCase().includes(q)) { found.push(s); if (found.length === 100) break; }
  }
  found.sort((a, b) => (a[1].toLowerCase().endsWith(q) ? 0 : 1) - (b[1].toLowerCase().endsWith(q) ? 0 : 1));
  out.innerHTML = `<h3 id="found">${found.length}${found.length === 100 ? "+" : ""} symbols match "${esc(q)}"${DATA.symbols_cut ? " (types and the first callables only)" : ""}</h3><ul>` +
    found.map((s) => `<li>${esc(s[0])} ${esc(s[1])} ${place(s[2], s[3])}</li>`).join("") + "</ul>";
}
const input = document.getElementById("q");
input.addEventListener("input", () => search(input.value));
const fromHash = new URLSearchParams(location.hash.slice(1));
if (fromHash.get("q")) { input.value = fromHash.get("q"); search(input.value); }
if (fromHash.get("open")) show(fromHash.get("open"));
window.addEventListener("load", () => { document.body.dataset.requests = String(performance.getEntriesByType("resource").length); });
"#;

#[cfg(test)]
mod tests {
    use super::*;

    fn node(label: &str, files: usize) -> MapNode {
        MapNode { key: label.to_string(), label: label.to_string(), files, loc: 10 }
    }

    #[test]
    fn layers_point_down_and_cycles_are_marked() {
        // app -> core -> util, app -> util, util -> core (a cycle), plugin declares core unused.
        let all = vec![("app", node("app", 3)), ("core", node("core", 5)), ("util", node("util", 2)), ("plugin", node("plugin", 1))];
        let pairs = vec![
            (("app", "core"), 4, EdgeStyle::Used),
            (("core", "util"), 2, EdgeStyle::Used),
            (("app", "util"), 1, EdgeStyle::Undeclared),
            (("util", "core"), 1, EdgeStyle::Used),
            (("plugin", "core"), 0, EdgeStyle::Unused),
        ];
        let d = assemble("units".into(), all, pairs);
        let l = layout(&d);
        let at = |name: &str| d.nodes.iter().position(|n| n.label == name).unwrap();
        assert!(l.layer[at("app")] < l.layer[at("core")], "a user is drawn above what it uses");
        let cycle: Vec<(String, String)> =
            d.edges.iter().filter(|e| e.cycle).map(|e| (d.nodes[e.from].label.clone(), d.nodes[e.to].label.clone())).collect();
        assert_eq!(cycle, [("core".to_string(), "util".to_string()), ("util".to_string(), "core".to_string())]);
        assert!(dot(&d).contains("\"app\" -> \"util\" [label=\"1\", color=red, style=dashed, xlabel=\"undeclared\"];"), "{}", dot(&d));
        assert!(mermaid(&d).contains("-.->|declared, unused|"), "{}", mermaid(&d));
    }

    #[test]
    fn at_most_sixty_nodes_are_drawn() {
        let all: Vec<(usize, MapNode)> = (0..70).map(|i| (i, node(&format!("m{i:02}"), 100 - i))).collect();
        let d = assemble("modules".into(), all, Vec::new());
        assert_eq!((d.nodes.len(), d.left_out.len()), (60, 10));
        assert_eq!(d.left_out[0].label, "m60");
    }
}
