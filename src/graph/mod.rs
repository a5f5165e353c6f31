//! The dependency graph: petgraph built from store rows at four levels (symbol/type,
//! file, module, build unit), with neighbourhoods, shortest paths, the reverse closure of a
//! node, the roll-up of member-level change impact (`impact`) to a level's nodes, and fan-in
//! rankings. It does no IO: `store` hands it plain rows.

pub mod impact;

use std::collections::VecDeque;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;

use crate::model::{EdgeRow, FileRow, RefKind, SymbolKind, SymbolRow};

/// Which nodes the graph is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Types (and free functions, which have no type around them).
    Symbol,
    File,
    /// Java packages, Rust modules.
    Module,
    /// Build units: Maven modules, Gradle projects, Cargo packages.
    Unit,
    /// Beans (Spring stereotypes, `@Bean` methods) and the injections between them.
    Service,
}

impl Level {
    pub fn parse(s: &str) -> Option<Level> {
        match s {
            "symbol" | "type" => Some(Level::Symbol),
            "service" | "bean" => Some(Level::Service),
            "file" => Some(Level::File),
            "module" | "package" => Some(Level::Module),
            "unit" | "build-unit" => Some(Level::Unit),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Symbol => "symbol",
            Level::Service => "service",
            Level::File => "file",
            Level::Module => "module",
            Level::Unit => "unit",
        }
    }
}

/// A node of some level.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Node {
    Symbol(i64),
    External(i64),
    File(i64),
    Module(String),
    /// A build unit, by its index in `units::Units::units`.
    Unit(u32),
}

/// What an edge of the graph carries.
#[derive(Clone, Debug)]
pub struct Edge {
    pub kind: RefKind,
    pub weight: u32,
    /// Where the first reference that makes this edge is: file id and line.
    pub file: i64,
    pub line: u32,
}

pub struct Graph {
    pub level: Level,
    graph: DiGraph<Node, Edge>,
    index: HashMap<Node, NodeIndex>,
    /// Symbol id -> the key in `nodes` of the node of this level that stands for it.
    rollup: IdTable,
    /// Every node a symbol rolls up to, and the external ones, by key.
    nodes: Vec<Node>,
    /// Every node with dependents, most distinct dependents first (computed on first use).
    fan_in_ranking: std::sync::OnceLock<Vec<(Node, usize)>>,
    /// The file of every symbol (answers group nodes by file), at symbol and service level.
    symbol_files: IdTable,
    /// File id -> the key in `nodes` of its node, at file, module and unit level.
    file_nodes: HashMap<i64, u32>,
}

/// The kinds and weights of the edges between a node and the previous ring.
type EdgeKinds = Vec<(RefKind, u32)>;

/// A node reached from a start, with how far and through which edges.
#[derive(Clone, Debug)]
pub struct Reached {
    pub node: Node,
    pub distance: usize,
    /// Edges between this node and the previous ring (kind, weight).
    pub edges: EdgeKinds,
    /// Change impact only: the method whose call reaches this node through dispatch (the
    /// node calls it, and an affected method overrides or implements it).
    pub via: Option<Node>,
    /// Change impact only: the changed method this node overrides or implements (it
    /// changes with its signature).
    pub overrides: Option<Node>,
    /// For neighbourhoods: true when the node depends on the start (incoming).
    pub incoming: bool,
}

/// A hop of a path.
#[derive(Clone, Debug)]
pub struct Hop {
    pub from: Node,
    pub to: Node,
    pub edge: Edge,
    /// From an interface or superclass to an implementation of it (the edge is the
    /// implementation's `implements`/`extends`): how a call through the interface reaches
    /// the code that runs.
    pub dispatch: bool,
}

impl Graph {
    pub fn build(level: Level, symbols: &[SymbolRow], files: &[FileRow], edges: impl IntoIterator<Item = EdgeRow>) -> Graph {
        let mut by_id = IdTable::for_ids(symbols.iter().map(|s| s.id));
        for (i, s) in symbols.iter().enumerate() {
            by_id.insert(s.id, i as u32);
        }
        let module_of: HashMap<i64, &str> = files.iter().map(|f| (f.id, f.module.as_str())).collect();
        let unit_of: HashMap<i64, u32> = files.iter().filter_map(|f| Some((f.id, f.unit?))).collect();
        let mut symbol_files = IdTable::for_ids(symbols.iter().map(|s| s.id));
        // Every distinct node gets a small key, so that the merge of hundreds of thousands of
        // edge rows hashes three integers rather than two nodes (a module node is a string).
        let mut keys = NodeKeys::default();
        let mut symbol_key = IdTable::for_ids(symbols.iter().map(|s| s.id));
        for s in symbols {
            let node = match level {
                Level::Symbol | Level::Service => {
                    symbol_files.insert(s.id, s.file as u32);
                    Node::Symbol(type_ancestor(s, symbols, &by_id))
                }
                Level::File => Node::File(s.file),
                Level::Module => Node::Module(module_of.get(&s.file).copied().unwrap_or("").to_string()),
                Level::Unit => match unit_of.get(&s.file) {
                    Some(u) => Node::Unit(*u),
                    None => continue,
                },
            };
            symbol_key.insert(s.id, keys.key(&node));
        }
        let symbol_nodes = keys.nodes.len();
        let mut file_key: HashMap<i64, u32> = HashMap::default();
        if !matches!(level, Level::Symbol | Level::Service) {
            for f in files {
                let node = match level {
                    Level::File => Node::File(f.id),
                    Level::Unit => match f.unit {
                        Some(u) => Node::Unit(u),
                        None => continue,
                    },
                    _ => Node::Module(f.module.clone()),
                };
                file_key.insert(f.id, keys.key(&node));
            }
        }
        let mut g = Graph {
            level,
            graph: DiGraph::new(),
            index: HashMap::default(),
            rollup: symbol_key,
            nodes: Vec::new(),
            fan_in_ranking: Default::default(),
            symbol_files,
            file_nodes: HashMap::default(),
        };
        // Every node exists even without edges, so that lookups of isolated nodes work.
        match level {
            Level::Symbol | Level::Service => {
                let mut nodes: Vec<&Node> = keys.nodes[..symbol_nodes].iter().collect();
                nodes.sort();
                for n in nodes {
                    g.node(n.clone());
                }
            }
            Level::File => {
                for f in files {
                    g.node(Node::File(f.id));
                }
            }
            Level::Module => {
                let mut modules: Vec<&str> = files.iter().map(|f| f.module.as_str()).collect();
                modules.sort();
                modules.dedup();
                for m in modules {
                    g.node(Node::Module(m.to_string()));
                }
            }
            Level::Unit => {
                let mut units: Vec<u32> = files.iter().filter_map(|f| f.unit).collect();
                units.sort_unstable();
                units.dedup();
                for u in units {
                    g.node(Node::Unit(u));
                }
            }
        }
        // Rows of one (from, to, kind) are one edge: their counts summed, the first place kept.
        // Each file's rows are merged among themselves first (its sources roll up to the few
        // types it declares: a small sort that stays in cache), then all files' together, in
        // node order. A hash map of the whole JDK's 10^6 edges was half of building this graph.
        let mut merged: Vec<Merged> = Vec::new();
        let mut file_rows: Vec<Merged> = Vec::new();
        let mut file = None;
        for e in edges {
            if file != Some(e.file) {
                merge_into(&mut file_rows, &mut merged, |m| (m.from, m.to, m.edge.kind));
                file = Some(e.file);
            }
            let from = match (level, e.source) {
                (Level::Symbol | Level::Service, Some(s)) => g.rollup.get(s),
                (Level::Symbol | Level::Service, None) => None,
                (Level::File, _) => Some(*file_key.entry(e.file).or_insert_with(|| keys.key(&Node::File(e.file)))),
                (Level::Module | Level::Unit, _) => file_key.get(&e.file).copied(),
            };
            let to = match (e.target, e.external) {
                (Some(t), _) => g.rollup.get(t),
                (None, Some(x)) if matches!(level, Level::Symbol | Level::Service) => Some(keys.key(&Node::External(x))),
                _ => None,
            };
            let (Some(from), Some(to)) = (from, to) else {
                continue;
            };
            if from != to {
                file_rows.push(Merged { from, to, edge: Edge { kind: e.kind, weight: e.count, file: e.file, line: e.line } });
            }
        }
        merge_into(&mut file_rows, &mut merged, |m| (m.from, m.to, m.edge.kind));
        // Edges go in by (from, to, kind) in node order: the order neighbours are visited in,
        // and so the order of answers, does not depend on hashing or on the rows' order.
        let rank = keys.ranks();
        merge_into(&mut merged, &mut file_rows, |m| (rank[m.from as usize], rank[m.to as usize], m.edge.kind));
        let merged = file_rows;
        let mut placed: Vec<Option<NodeIndex>> = vec![None; keys.nodes.len()];
        let mut place = |k: u32, g: &mut Graph| *placed[k as usize].get_or_insert_with(|| g.node(keys.nodes[k as usize].clone()));
        for Merged { from, to, edge } in merged {
            let a = place(from, &mut g);
            let b = place(to, &mut g);
            g.graph.add_edge(a, b, edge);
        }
        g.nodes = keys.nodes;
        g.file_nodes = file_key;
        g
    }

    /// Adds an edge from one existing node to another where none is (a declared dependency
    /// its code does not use); nothing when either node is missing or an edge exists.
    pub fn add_declared(&mut self, from: &Node, to: &Node) {
        let (Some(&a), Some(&b)) = (self.index.get(from), self.index.get(to)) else { return };
        if a != b && self.graph.find_edge(a, b).is_none() {
            self.graph.add_edge(a, b, Edge { kind: RefKind::Declares, weight: 1, file: 0, line: 0 });
        }
    }

    fn node(&mut self, n: Node) -> NodeIndex {
        if let Some(i) = self.index.get(&n) {
            return *i;
        }
        let i = self.graph.add_node(n.clone());
        self.index.insert(n, i);
        i
    }

    /// The node standing for a symbol at this level.
    pub fn node_of_symbol(&self, id: i64) -> Option<Node> {
        self.rollup.get(id).map(|k| self.nodes[k as usize].clone())
    }

    /// The file a node lies in: a symbol node's, a file node's own; None for the others.
    pub fn file_of(&self, n: &Node) -> Option<i64> {
        match n {
            Node::Symbol(id) => self.symbol_files.get(*id).map(i64::from),
            Node::File(id) => Some(*id),
            _ => None,
        }
    }

    /// Whether a node holds only data, as far as its edges tell: nothing it holds calls,
    /// creates, reads or writes anything of the repository outside its own file and its own
    /// supertypes (its other edges out are type uses and annotations, or go outside the
    /// repository), and it implements no interface or trait of the repository. Fields and
    /// accessors, a record, an enum of constants; not a service, which calls its
    /// collaborators, nor a store that implements the repository's `Store` trait.
    pub fn holds_only_data(&self, n: &Node) -> bool {
        let Some(&i) = self.index.get(n) else { return false };
        let mut supertypes: HashSet<NodeIndex> = HashSet::default();
        for e in self.graph.edges_directed(i, Direction::Outgoing) {
            match e.weight().kind {
                RefKind::Implements if !matches!(self.graph[e.target()], Node::External(_)) => return false,
                RefKind::Extends | RefKind::Implements => {
                    supertypes.insert(e.target());
                }
                _ => {}
            }
        }
        let file = self.file_of(n);
        self.graph.edges_directed(i, Direction::Outgoing).all(|e| {
            let target = &self.graph[e.target()];
            matches!(
                e.weight().kind,
                RefKind::UsesType | RefKind::Annotates | RefKind::Extends | RefKind::Implements | RefKind::Imports | RefKind::Declares
            ) || matches!(target, Node::External(_))
                || supertypes.contains(&e.target())
                || (file.is_some() && self.file_of(target) == file)
        })
    }

    /// Every pair of nodes with edges from the first to the second, with those edges.
    pub fn node_edges(&self) -> Vec<(&Node, &Node, Vec<&Edge>)> {
        let mut pairs: std::collections::BTreeMap<(NodeIndex, NodeIndex), Vec<&Edge>> = Default::default();
        for e in self.graph.edge_references() {
            pairs.entry((e.source(), e.target())).or_default().push(e.weight());
        }
        pairs.into_iter().map(|((a, b), edges)| (&self.graph[a], &self.graph[b], edges)).collect()
    }

    pub fn contains(&self, n: &Node) -> bool {
        self.index.contains_key(n)
    }

    pub fn node_count(&self) -> usize {
        self.graph.node_count()
    }

    pub fn edge_count(&self) -> usize {
        self.graph.edge_count()
    }

    /// Distinct nodes with an edge into `n` / out of `n`.
    pub fn degree(&self, n: &Node, dir: Direction) -> usize {
        let Some(i) = self.index.get(n) else { return 0 };
        self.graph.neighbors_directed(*i, dir).collect::<HashSet<_>>().len()
    }

    /// Rings around `start`: out-edges (dependencies), in-edges (dependents) or both,
    /// breadth first up to `depth`. The start is not included.
    pub fn neighbourhood(&self, start: &Node, out: bool, inc: bool, depth: usize) -> Vec<Reached> {
        self.rings(std::slice::from_ref(start), out, inc, depth)
    }

    /// Rings around every node of `starts` at once (those the graph lacks are skipped); the
    /// starts are never in the answer.
    fn rings(&self, starts: &[Node], out: bool, inc: bool, depth: usize) -> Vec<Reached> {
        let mut frontier: Vec<NodeIndex> = starts.iter().filter_map(|s| self.index.get(s).copied()).collect();
        frontier.sort();
        frontier.dedup();
        let mut seen: HashMap<NodeIndex, usize> = frontier.iter().map(|s| (*s, 0)).collect();
        let mut result = Vec::new();
        for distance in 1..=depth {
            if frontier.is_empty() {
                break;
            }
            let mut next_ring: Vec<(NodeIndex, bool, EdgeKinds)> = Vec::new();
            let mut ring_index: HashMap<(NodeIndex, bool), usize> = HashMap::default();
            for &n in &frontier {
                for (dir, enabled, incoming) in [(Direction::Outgoing, out, false), (Direction::Incoming, inc, true)] {
                    if !enabled {
                        continue;
                    }
                    for e in self.graph.edges_directed(n, dir) {
                        let other = if incoming { e.source() } else { e.target() };
                        if seen.get(&other).is_some_and(|d| *d < distance) {
                            continue;
                        }
                        let slot = *ring_index.entry((other, incoming)).or_insert_with(|| {
                            next_ring.push((other, incoming, Vec::new()));
                            next_ring.len() - 1
                        });
                        next_ring[slot].2.push((e.weight().kind, e.weight().weight));
                    }
                }
            }
            let mut frontier_next = Vec::new();
            next_ring.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| self.graph[a.0].cmp(&self.graph[b.0])));
            for (n, incoming, mut edges) in next_ring {
                merge_kinds(&mut edges);
                if seen.insert(n, distance).is_none() {
                    frontier_next.push(n);
                }
                result.push(Reached { node: self.graph[n].clone(), distance, edges, via: None, overrides: None, incoming });
            }
            frontier = frontier_next;
        }
        result
    }

    /// The shortest chain of dependencies from `from` to `to`, following edge direction,
    /// and from an interface or superclass down to its implementations (dispatch hops: a
    /// controller uses a service interface, whose implementation uses the mapper). A path
    /// of dependencies alone is preferred: dispatch hops are tried only when there is none.
    pub fn path(&self, from: &Node, to: &Node) -> Option<Vec<Hop>> {
        // Dispatch (down from an interface to an implementation) connects code; a build
        // unit or a module does not depend on another because a type of one implements a
        // type both use (mall-admin and mall-portal both extend mall-common's
        // BaseSwaggerConfig).
        let dispatch = matches!(self.level, Level::Symbol | Level::File);
        self.path_with(from, to, false).or_else(|| if dispatch { self.path_with(from, to, true) } else { None })
    }

    fn path_with(&self, from: &Node, to: &Node, dispatch: bool) -> Option<Vec<Hop>> {
        let (&a, &b) = (self.index.get(from)?, self.index.get(to)?);
        // Each reached node: the edge it was reached by, and whether backwards (dispatch).
        let mut prev: HashMap<NodeIndex, (petgraph::graph::EdgeIndex, bool)> = HashMap::default();
        let mut queue = VecDeque::from([a]);
        let mut seen = HashSet::from_iter([a]);
        while let Some(n) = queue.pop_front() {
            if n == b {
                break;
            }
            // A type outside the repository ends a path, never carries one: two classes that
            // both implement `Comparable` do not depend on each other through it.
            if n != a && matches!(self.graph[n], Node::External(_)) {
                continue;
            }
            let mut out: Vec<_> = self.graph.edges_directed(n, Direction::Outgoing).collect();
            out.sort_by_key(|e| (self.graph[e.target()].clone(), e.weight().kind));
            for e in out {
                if seen.insert(e.target()) {
                    prev.insert(e.target(), (e.id(), false));
                    queue.push_back(e.target());
                }
            }
            if !dispatch {
                continue;
            }
            let mut down: Vec<_> = self
                .graph
                .edges_directed(n, Direction::Incoming)
                .filter(|e| matches!(e.weight().kind, RefKind::Implements | RefKind::Extends))
                .collect();
            down.sort_by_key(|e| (self.graph[e.source()].clone(), e.weight().kind));
            for e in down {
                if seen.insert(e.source()) {
                    prev.insert(e.source(), (e.id(), true));
                    queue.push_back(e.source());
                }
            }
        }
        if a != b && !prev.contains_key(&b) {
            return None;
        }
        let mut hops = Vec::new();
        let mut cur = b;
        while cur != a {
            let (e, dispatch) = prev[&cur];
            let (s, t) = self.graph.edge_endpoints(e)?;
            let (from, to) = if dispatch { (t, s) } else { (s, t) };
            hops.push(Hop { from: self.graph[from].clone(), to: self.graph[to].clone(), edge: self.graph[e].clone(), dispatch });
            cur = from;
        }
        hops.reverse();
        Some(hops)
    }

    /// What depends on the `targets`, transitively, by distance, along reverse edges only:
    /// the closure the unit and service levels answer with (code and symbol levels walk
    /// members: `impact::Dependents`, then `roll_up`). The targets are never in the answer.
    pub fn impact(&self, targets: &[Node], depth: usize) -> Vec<Reached> {
        self.rings(targets, false, true, depth)
    }

    /// The node a member-level impact hit rolls up to (see `roll_up`).
    pub fn hit_node(&self, item: impact::Affected, members: bool) -> Option<Node> {
        use impact::Affected;
        match (item, self.level) {
            (Affected::Symbol(id), Level::Symbol | Level::Service) if members => Some(Node::Symbol(id)),
            (Affected::Symbol(id), _) => self.node_of_symbol(id),
            (Affected::FileLevel(_), Level::Symbol | Level::Service) => None,
            (Affected::FileLevel(f), _) => self.file_nodes.get(&f).map(|k| self.nodes[*k as usize].clone()),
        }
    }

    /// Member-level impact hits as this level's nodes: each node at the nearest ring any of
    /// its hits is at, with the edges of those hits, reached directly if any of them is.
    /// With `members` (symbol level), a member is its own row; otherwise it stands for its
    /// type. `own` (the changed nodes) and file-level hits at symbol level are left out.
    pub fn roll_up(&self, hits: Vec<impact::Hit>, own: &HashSet<Node>, members: bool) -> Vec<Reached> {
        use impact::Why;
        let mut out: Vec<Reached> = Vec::new();
        let mut at: HashMap<Node, usize> = HashMap::default();
        for h in hits {
            let Some(node) = self.hit_node(h.item, members).filter(|n| !own.contains(n)) else { continue };
            let (via, overrides) = match h.why {
                Why::Refers => (None, None),
                Why::Dispatch(m) => (Some(Node::Symbol(m)), None),
                Why::Overrides(m) => (None, Some(Node::Symbol(m))),
            };
            match at.get(&node) {
                Some(&i) if out[i].distance == h.distance => {
                    let r = &mut out[i];
                    r.edges.extend_from_slice(&h.edges);
                    if via.is_none() {
                        r.via = None;
                    }
                    if overrides.is_none() {
                        r.overrides = None;
                    }
                }
                Some(_) => {}
                None => {
                    at.insert(node.clone(), out.len());
                    out.push(Reached { node, distance: h.distance, edges: h.edges, via, overrides, incoming: true });
                }
            }
        }
        for r in &mut out {
            merge_kinds(&mut r.edges);
        }
        // Ring by ring; in a ring what refers directly, then what overrides, then dispatch.
        let rank = |r: &Reached| (r.distance, r.via.is_some(), r.overrides.is_none());
        out.sort_by(|a, b| rank(a).cmp(&rank(b)).then_with(|| a.node.cmp(&b.node)));
        out
    }

    /// Nodes with the most distinct dependents, most first (externals excluded).
    pub fn top_fan_in(&self, limit: usize) -> Vec<(Node, usize)> {
        // Ranked once per graph (the graph is rebuilt when the index changes).
        let all = self.fan_in_ranking.get_or_init(|| {
            let mut all: Vec<(Node, usize)> = self
                .graph
                .node_indices()
                .filter(|i| !matches!(self.graph[*i], Node::External(_)))
                .map(|i| (self.graph[i].clone(), self.graph.neighbors_directed(i, Direction::Incoming).collect::<HashSet<_>>().len()))
                .filter(|(_, n)| *n > 0)
                .collect();
            all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            all
        });
        all.iter().take(limit).cloned().collect()
    }
}

/// Sorts (kind, weight) pairs and adds up the weights of equal kinds.
pub fn merge_kinds(edges: &mut Vec<(RefKind, u32)>) {
    edges.sort();
    edges.dedup_by(|a, b| {
        if a.0 == b.0 {
            b.1 += a.1;
            true
        } else {
            false
        }
    });
}

/// Symbol id -> a small number. Ids are handed out in order and never reused, so they are
/// mostly consecutive: a table indexed by id is a fraction of a hash map's size and lookups
/// (two per edge row, 760k on java.base) do not miss the cache. Hashed when ids are spread.
enum IdTable {
    Dense { base: i64, slots: Vec<u32> },
    Hashed(HashMap<i64, u32>),
}

impl IdTable {
    const NONE: u32 = u32::MAX;

    fn for_ids(ids: impl Iterator<Item = i64>) -> IdTable {
        let (mut min, mut max, mut n) = (i64::MAX, i64::MIN, 0usize);
        for id in ids {
            min = min.min(id);
            max = max.max(id);
            n += 1;
        }
        if n == 0 {
            return IdTable::Dense { base: 0, slots: Vec::new() };
        }
        let span = max.abs_diff(min).saturating_add(1);
        if span <= 8 * n as u64 + 65_536 {
            IdTable::Dense { base: min, slots: vec![Self::NONE; span as usize] }
        } else {
            IdTable::Hashed(HashMap::with_capacity_and_hasher(n, Default::default()))
        }
    }

    fn insert(&mut self, id: i64, value: u32) {
        match self {
            IdTable::Dense { base, slots } => slots[(id - *base) as usize] = value,
            IdTable::Hashed(map) => {
                map.insert(id, value);
            }
        }
    }

    fn get(&self, id: i64) -> Option<u32> {
        match self {
            IdTable::Dense { base, slots } => {
                id.checked_sub(*base).and_then(|i| usize::try_from(i).ok()).and_then(|i| slots.get(i)).copied().filter(|v| *v != Self::NONE)
            }
            IdTable::Hashed(map) => map.get(&id).copied(),
        }
    }
}

/// Distinct nodes numbered in the order they were first seen.
#[derive(Default)]
struct NodeKeys {
    nodes: Vec<Node>,
    keys: HashMap<Node, u32>,
}

impl NodeKeys {
    fn key(&mut self, n: &Node) -> u32 {
        if let Some(k) = self.keys.get(n) {
            return *k;
        }
        let k = self.nodes.len() as u32;
        self.nodes.push(n.clone());
        self.keys.insert(n.clone(), k);
        k
    }

    /// Each key's position among the nodes in `Node` order.
    fn ranks(&self) -> Vec<u32> {
        let mut order: Vec<u32> = (0..self.nodes.len() as u32).collect();
        order.sort_unstable_by(|a, b| self.nodes[*a as usize].cmp(&self.nodes[*b as usize]));
        let mut rank = vec![0u32; order.len()];
        for (pos, k) in order.into_iter().enumerate() {
            rank[k as usize] = pos as u32;
        }
        rank
    }
}

/// An edge between two node keys while a graph is built.
struct Merged {
    from: u32,
    to: u32,
    edge: Edge,
}

/// Sorts `rows` by `key` and appends them to `out` with the rows of one key made one: their
/// weights summed, the first place (file, line) kept. `rows` is left empty.
fn merge_into<K: Ord>(rows: &mut Vec<Merged>, out: &mut Vec<Merged>, key: impl Fn(&Merged) -> K) {
    rows.sort_unstable_by_key(|m| key(m));
    let mut last: Option<K> = None;
    for m in rows.drain(..) {
        let k = key(&m);
        match out.last_mut() {
            Some(prev) if last.as_ref() == Some(&k) => {
                prev.edge.weight += m.edge.weight;
                if (m.edge.file, m.edge.line) < (prev.edge.file, prev.edge.line) {
                    prev.edge.file = m.edge.file;
                    prev.edge.line = m.edge.line;
                }
            }
            _ => out.push(m),
        }
        last = Some(k);
    }
}

/// The type a symbol belongs to (itself if it is one), or its outermost ancestor when no
/// type encloses it (a Rust free function stands for itself).
fn type_ancestor(s: &SymbolRow, symbols: &[SymbolRow], by_id: &IdTable) -> i64 {
    let mut cur = s;
    let mut outermost = s.id;
    loop {
        if cur.kind.is_type() {
            return cur.id;
        }
        match cur.parent.and_then(|p| by_id.get(p)).map(|i| &symbols[i as usize]) {
            Some(p) => {
                outermost = p.id;
                cur = p;
            }
            None => return if s.kind == SymbolKind::Module { s.id } else { outermost },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_tables_answer_alike_dense_or_hashed() {
        // Consecutive ids with a gap (deleted symbols) are a table; ids far apart are hashed.
        for (ids, dense) in [(vec![5, 6, 7, 9], true), (vec![5, 6, 7, 9, 1 << 40], false)] {
            let mut table = IdTable::for_ids(ids.iter().copied());
            assert_eq!(matches!(table, IdTable::Dense { .. }), dense, "{ids:?}");
            for (i, id) in ids.iter().enumerate() {
                table.insert(*id, i as u32 * 10);
            }
            let got: Vec<Option<u32>> = [4, 5, 6, 7, 8, 9, 10, 1 << 40, -3].iter().map(|id| table.get(*id)).collect();
            let far = if dense { None } else { Some(40) };
            assert_eq!(got, vec![None, Some(0), Some(10), Some(20), None, Some(30), None, far, None]);
        }
    }

    fn sym(id: i64, parent: Option<i64>, kind: SymbolKind) -> SymbolRow {
        SymbolRow { id, file: id, parent, kind }
    }

    fn edge(source: i64, target: i64, kind: RefKind) -> EdgeRow {
        EdgeRow { file: source, source: Some(source), target: Some(target), external: None, kind, count: 1, line: 1 }
    }

    /// 1 interface Gateway, 2 class Impl implements Gateway, 3 class Service uses Gateway,
    /// 4 class Controller uses Service, 5 class ImplHelper used by Impl; 6 is a method of 2.
    fn sample() -> Graph {
        let symbols = vec![
            sym(1, None, SymbolKind::Interface),
            sym(2, None, SymbolKind::Class),
            sym(3, None, SymbolKind::Class),
            sym(4, None, SymbolKind::Class),
            sym(5, None, SymbolKind::Class),
            sym(6, Some(2), SymbolKind::Method),
        ];
        let edges =
            vec![edge(2, 1, RefKind::Implements), edge(3, 1, RefKind::UsesType), edge(4, 3, RefKind::Calls), edge(6, 5, RefKind::Calls)];
        Graph::build(Level::Symbol, &symbols, &[], edges)
    }

    #[test]
    fn rows_of_one_edge_merge_across_files_in_any_order() {
        use SymbolKind::{Class, Method};
        // Type 1 has a method in its own file and one in file 3 (a Rust impl elsewhere).
        let symbols = vec![
            sym(1, None, Class),
            sym(2, None, Class),
            SymbolRow { id: 11, file: 1, parent: Some(1), kind: Method },
            SymbolRow { id: 12, file: 3, parent: Some(1), kind: Method },
        ];
        let row =
            |file, source, kind, count, line| EdgeRow { file, source: Some(source), target: Some(2), external: None, kind, count, line };
        let rows = vec![
            row(1, 11, RefKind::Calls, 2, 9),
            row(3, 12, RefKind::Calls, 1, 4),
            row(1, 11, RefKind::UsesType, 1, 1),
            row(1, 11, RefKind::Calls, 1, 5),
        ];
        let g = Graph::build(Level::Symbol, &symbols, &[], rows);
        let edges: Vec<(&Node, &Node, Vec<(RefKind, u32, i64, u32)>)> =
            g.node_edges().into_iter().map(|(a, b, es)| (a, b, es.iter().map(|e| (e.kind, e.weight, e.file, e.line)).collect())).collect();
        assert_eq!(edges, vec![(&Node::Symbol(1), &Node::Symbol(2), vec![(RefKind::UsesType, 1, 1, 1), (RefKind::Calls, 4, 1, 5)])]);
    }

    #[test]
    fn members_roll_up_to_their_type() {
        let g = sample();
        assert_eq!(g.node_of_symbol(6), Some(Node::Symbol(2)));
        let out: Vec<Node> = g.neighbourhood(&Node::Symbol(2), true, false, 1).into_iter().map(|r| r.node).collect();
        assert_eq!(out, vec![Node::Symbol(1), Node::Symbol(5)]);
    }

    #[test]
    fn data_types_are_told_by_their_edges_out() {
        // 1 Order: its field's type 2 (OrderItem) and a call into 3 (its own file's nested
        // Criteria); 2 OrderItem extends 4 (BaseEntity) and calls its constructor; 5 Service
        // calls 1's accessor; 6 Money calls into 7 (a helper in another file).
        let mut symbols: Vec<SymbolRow> = (1..=7).map(|id| sym(id, None, SymbolKind::Class)).collect();
        symbols[2].file = 1;
        let edges = vec![
            edge(1, 2, RefKind::UsesType),
            EdgeRow { file: 1, source: Some(1), target: Some(3), external: None, kind: RefKind::Calls, count: 1, line: 1 },
            EdgeRow { file: 1, source: Some(1), target: None, external: Some(9), kind: RefKind::Calls, count: 1, line: 1 },
            edge(2, 4, RefKind::Extends),
            edge(2, 4, RefKind::Calls),
            edge(5, 1, RefKind::Calls),
            edge(6, 7, RefKind::Calls),
            // 8 MemoryStore implements 7 (a trait of the repository), calling nothing.
            edge(8, 7, RefKind::Implements),
        ];
        symbols.push(sym(8, None, SymbolKind::Struct));
        let g = Graph::build(Level::Symbol, &symbols, &[], edges);
        let data: Vec<i64> = (1..=8).filter(|id| g.holds_only_data(&Node::Symbol(*id))).collect();
        assert_eq!(data, vec![1, 2, 3, 4, 7]);
        assert!(!g.holds_only_data(&Node::Symbol(99)));
    }

    #[test]
    fn impact_follows_reverse_edges_only() {
        // The helper's user Impl is affected; Impl's own dependency, the interface, is not
        // (nothing walks up what an affected node uses), nor the interface's users.
        let g = sample();
        let impact: Vec<(Node, usize)> = g.impact(&[Node::Symbol(5)], 3).into_iter().map(|r| (r.node, r.distance)).collect();
        assert_eq!(impact, vec![(Node::Symbol(2), 1)]);
        let impact: Vec<(Node, usize)> = g.impact(&[Node::Symbol(1)], 3).into_iter().map(|r| (r.node, r.distance)).collect();
        assert_eq!(impact, vec![(Node::Symbol(2), 1), (Node::Symbol(3), 1), (Node::Symbol(4), 2)]);
    }

    #[test]
    fn paths_follow_edge_direction() {
        let g = sample();
        let hops: Vec<(Node, Node, RefKind, bool)> =
            g.path(&Node::Symbol(4), &Node::Symbol(1)).unwrap().into_iter().map(|h| (h.from, h.to, h.edge.kind, h.dispatch)).collect();
        assert_eq!(
            hops,
            vec![(Node::Symbol(4), Node::Symbol(3), RefKind::Calls, false), (Node::Symbol(3), Node::Symbol(1), RefKind::UsesType, false)]
        );
        assert!(g.path(&Node::Symbol(1), &Node::Symbol(4)).is_none());
    }

    #[test]
    fn paths_go_down_from_an_interface_to_its_implementations() {
        // Controller 4 -> Service 3 -> interface 1 <= Impl 2 -> helper 5.
        let g = sample();
        let hops: Vec<(Node, Node, RefKind, bool)> =
            g.path(&Node::Symbol(4), &Node::Symbol(5)).unwrap().into_iter().map(|h| (h.from, h.to, h.edge.kind, h.dispatch)).collect();
        assert_eq!(
            hops,
            vec![
                (Node::Symbol(4), Node::Symbol(3), RefKind::Calls, false),
                (Node::Symbol(3), Node::Symbol(1), RefKind::UsesType, false),
                (Node::Symbol(1), Node::Symbol(2), RefKind::Implements, true),
                (Node::Symbol(2), Node::Symbol(5), RefKind::Calls, false),
            ]
        );
    }

    #[test]
    fn paths_never_run_through_a_type_outside_the_repository() {
        // 10 and 11 both implement the outside type 99 (`Comparable`); 12 calls 11.
        let symbols = vec![sym(10, None, SymbolKind::Class), sym(11, None, SymbolKind::Class), sym(12, None, SymbolKind::Class)];
        let outside = |source: i64| EdgeRow { external: Some(99), target: None, ..edge(source, 0, RefKind::Implements) };
        let g = Graph::build(Level::Symbol, &symbols, &[], vec![outside(10), outside(11), edge(12, 11, RefKind::Calls)]);
        assert!(g.path(&Node::Symbol(10), &Node::Symbol(11)).is_none());
        assert!(g.path(&Node::Symbol(12), &Node::Symbol(10)).is_none());
        // The outside type itself is a path's end.
        let hops: Vec<(Node, Node, RefKind)> =
            g.path(&Node::Symbol(12), &Node::External(99)).unwrap().into_iter().map(|h| (h.from, h.to, h.edge.kind)).collect();
        assert_eq!(
            hops,
            vec![(Node::Symbol(12), Node::Symbol(11), RefKind::Calls), (Node::Symbol(11), Node::External(99), RefKind::Implements)]
        );
    }

    #[test]
    fn units_are_no_path_through_dispatch() {
        // Unit 0 (admin) and unit 2 (portal) each extend a class of unit 1 (common); admin
        // depends on common, not on portal. Symbols 1, 2, 3 are in files 1, 2, 3 of units 0, 1, 2.
        let symbols = vec![sym(1, None, SymbolKind::Class), sym(2, None, SymbolKind::Class), sym(3, None, SymbolKind::Class)];
        let files: Vec<FileRow> = (1..=3).map(|id| FileRow { id, module: format!("m{id}"), unit: Some(id as u32 - 1) }).collect();
        let edges = vec![edge(1, 2, RefKind::Extends), edge(3, 2, RefKind::Extends)];
        let units = Graph::build(Level::Unit, &symbols, &files, edges.clone());
        assert!(units.path(&Node::Unit(0), &Node::Unit(1)).is_some());
        assert!(units.path(&Node::Unit(0), &Node::Unit(2)).is_none());
        let modules = Graph::build(Level::Module, &symbols, &files, edges.clone());
        assert!(modules.path(&Node::Module("m1".into()), &Node::Module("m3".into())).is_none());
        // Between types, dispatch down from the common class is a path.
        let types = Graph::build(Level::Symbol, &symbols, &files, edges);
        assert_eq!(types.path(&Node::Symbol(1), &Node::Symbol(3)).map(|h| h.len()), Some(2));
    }

    #[test]
    fn fan_in_ranks_most_depended_upon_first() {
        let g = sample();
        assert_eq!(g.top_fan_in(2), vec![(Node::Symbol(1), 2), (Node::Symbol(3), 1)]);
    }
}
