//! Change impact in answers: the member-level reverse index (`graph::impact::Dependents`,
//! built once per index generation from the graph's cached rows and the override pairs
//! decided here), what a node's, a member's or a diff's change starts from, and the roll-up
//! of the walk to the asked level.
//!
//! It must not format answers (`graph_summaries` does) nor walk the graph itself (`graph`
//! does).

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};

use super::cache::{EdgeCache, MethodsCache};
use super::{Atlas, ToolError};
use crate::graph::impact::{Affected, Dependents};
use crate::graph::{Graph, Level, Node, Reached};
use crate::model::{FileRow, RefKind, SymbolRow};
use crate::store::{MethodRow, Stamp, Store};

/// How far change impact follows the chains that end in tests.
pub(super) const TEST_DEPTH: usize = 8;

impl Atlas {
    /// The member-level reverse index of the current index generation.
    pub(super) fn dependents(&self, store: &Store) -> Result<Arc<Dependents>, ToolError> {
        let mut slot = self.dependents.lock().expect("dependents lock");
        let started = std::time::Instant::now();
        let mut methods = self.methods_rows.lock().expect("methods cache lock");
        let fresh = store.snapshot(|store| {
            let stamp = store.stamp()?;
            if slot.as_ref().is_some_and(|(s, _)| *s == stamp) {
                return Ok(None);
            }
            let files = store.graph_files()?;
            self.update_edges(store, &stamp, &files)?;
            methods.update(store, &stamp, &files)?;
            Ok(Some((stamp, files)))
        })?;
        let Some((stamp, files)) = fresh else {
            return Ok(slot.as_ref().expect("a cached index").1.clone());
        };
        let cache = self.edges.read().expect("edge cache lock");
        let symbols: Vec<SymbolRow> = cache.by_file.iter().flat_map(|(file, rows)| rows.symbols.iter().map(|s| s.row(*file))).collect();
        let pairs = self.override_pairs.lock().expect("override pairs lock").update(&stamp, &files, &cache, &methods);
        let rows = cache.by_file.iter().flat_map(|(file, rows)| rows.edges.iter().map(|r| r.row(*file)));
        let count = cache.by_file.values().map(|rows| rows.edges.len()).sum::<usize>() + symbols.len();
        let d = Arc::new(Dependents::build(&symbols, rows, count, &pairs));
        tracing::debug!(ms = started.elapsed().as_millis() as u64, overrides = pairs.len(), "dependents built");
        *slot = Some((stamp, d.clone()));
        Ok(d)
    }

    /// The symbols a change of a node may be a change of: a type and its members, every
    /// declaration of a file or of a module's files.
    pub(super) fn starts_of(&self, store: &Store, dependents: &Dependents, node: &Node) -> Result<Vec<i64>, ToolError> {
        Ok(match node {
            Node::Symbol(id) => dependents.with_members(*id),
            Node::File(f) => dependents.in_files(&[*f].into_iter().collect()),
            Node::Module(m) => {
                let files = self.all_files(store)?;
                dependents.in_files(&files.values().filter(|f| &f.module == m).map(|f| f.id).collect())
            }
            Node::External(_) | Node::Unit(_) => Vec::new(),
        })
    }

    /// What depends on `starts`, walked member by member and rolled up to `graph`'s level
    /// (`members`: a member is a row of its own at symbol level). `own` is left out. Tests
    /// are followed further than `depth` (to `TEST_DEPTH`): a test reaches a change through
    /// a longer chain of calls than the code it checks, and it is what a reviewer runs.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn code_impact(
        &self,
        store: &Store,
        graph: &Graph,
        starts: &[i64],
        signature: bool,
        members: bool,
        own: &rustc_hash::FxHashSet<Node>,
        depth: usize,
    ) -> Result<Vec<Reached>, ToolError> {
        let dependents = self.dependents(store)?;
        // Past `depth` only tests are listed, by the node each hit rolls up to: a hub's walk
        // meets most of the repository in those rings, walked only to find the tests.
        let tests = self.tests(store, graph.level == Level::File)?;
        let keep = |distance: usize, item: Affected| distance <= depth || graph.hit_node(item, members).is_some_and(|n| tests.contains(&n));
        let hits = dependents.impact_keeping(starts, signature, depth.max(TEST_DEPTH), keep);
        Ok(graph.roll_up(hits, own, members))
    }
}

fn name_hash(name: &str) -> u64 {
    std::hash::BuildHasher::hash_one(&rustc_hash::FxBuildHasher, name)
}

/// The methods of `owner` named as `m` is.
fn named_in<'a>(
    by_owner: &'a FxHashMap<i64, Vec<(u64, &'a MethodRow)>>,
    owner: &i64,
    m: &'a MethodRow,
) -> impl Iterator<Item = &'a MethodRow> + 'a {
    let h = name_hash(&m.name);
    by_owner.get(owner).into_iter().flatten().filter(move |(k, c)| *k == h && c.name == m.name).map(|(_, c)| *c)
}

/// (method, a method it overrides or implements) for every method of the repository: a
/// method of the same name in a supertype (transitively), with the same erased parameters,
/// or, when none has them, the one method of that name and arity there (a generic
/// supertype's `save(T)` is implemented by `save(Order)`). A Rust method implements only
/// the trait its impl block names.
#[cfg(test)]
pub(super) fn override_pairs(methods: &[&MethodRow], names: &HashMap<i64, &str>, supers: &HashMap<i64, Vec<i64>>) -> Vec<(i64, i64)> {
    let mut out: Vec<(i64, i64)> = decide(methods, names, supers, None).into_iter().map(|(_, m, o)| (m, o)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The owner `decide` gives a blanket impl's method (`impl<S: Sink> Sink for &mut S`): no
/// type of the repository, so it is decided every time.
const BLANKET: i64 = i64::MIN;

/// `override_pairs` as (owner, method, overridden): the owner is the method's type, a
/// lambda's own id, or `BLANKET`. `only`: decide only the methods of these owners (and of
/// these lambdas), and every blanket impl's.
fn decide<'a>(
    methods: &[&'a MethodRow],
    names: &HashMap<i64, &str>,
    supers: &HashMap<i64, Vec<i64>>,
    only: Option<&FxHashSet<i64>>,
) -> Vec<(i64, i64, i64)> {
    let wanted = |owner: &i64| only.is_none_or(|o| o.contains(owner));
    // What is read: the owners decided and their supertypes (with `only`), or every type.
    let read: Option<FxHashSet<i64>> = only.map(|only| {
        let mut read = FxHashSet::default();
        let mut queue: Vec<i64> = only.iter().copied().collect();
        while let Some(t) = queue.pop() {
            if read.insert(t) {
                queue.extend(supers.get(&t).into_iter().flatten());
            }
        }
        read
    });
    // Each type's methods with their names' hashes: a supertype's methods are scanned
    // for one name many times (the whole JDK's deep hierarchies, 10^6 scans), and the
    // hashes sit side by side where the rows do not.
    let mut by_owner: FxHashMap<i64, Vec<(u64, &MethodRow)>> = FxHashMap::default();
    let mut blanket: Vec<&MethodRow> = Vec::new();
    for &m in methods {
        match m.parent {
            Some(p) if read.as_ref().is_none_or(|r| r.contains(&p)) => by_owner.entry(p).or_default().push((name_hash(&m.name), m)),
            Some(_) => {}
            None => blanket.push(m),
        }
    }
    let named = |owner: &i64, m: &'a MethodRow| named_in(&by_owner, owner, m);
    let trait_name =
        |m: &MethodRow| m.impl_trait.as_deref().map(|t| crate::model::last_segment(t).split('<').next().unwrap_or(t).trim().to_string());
    let mut out = Vec::new();
    // A blanket impl's method implements the one trait of that name.
    for m in blanket {
        let Some(t) = trait_name(m) else { continue };
        let traits: Vec<i64> = names.iter().filter(|(_, n)| **n == t).map(|(id, _)| *id).collect();
        if let [t] = traits.as_slice() {
            out.extend(named(t, m).map(|c| (BLANKET, m.id, c.id)));
        }
    }
    let arity = |p: &Option<std::sync::Arc<str>>| p.as_deref().map(|p| if p.is_empty() { 0 } else { p.split(',').count() });
    for (owner, own) in &by_owner {
        let Some(first) = supers.get(owner).filter(|_| wanted(owner)) else { continue };
        // Every supertype, nearest first.
        let mut ups: Vec<i64> = Vec::new();
        let mut seen: rustc_hash::FxHashSet<i64> = std::iter::once(*owner).collect();
        let mut queue: VecDeque<i64> = first.iter().copied().collect();
        while let Some(t) = queue.pop_front() {
            if seen.insert(t) {
                ups.push(t);
                queue.extend(supers.get(&t).into_iter().flatten().copied());
            }
        }
        for (_, m) in own {
            let rust_trait = trait_name(m);
            for up in &ups {
                if let Some(t) = &rust_trait {
                    if names.get(up).copied() != Some(t.as_str()) {
                        continue;
                    }
                } else if m.params.is_none() {
                    // A Rust inherent method implements nothing.
                    continue;
                }
                // No list is made per (method, supertype): the whole JDK asks 10^6 of them.
                let same_name = || named(up, m);
                let mut exact = same_name().filter(|c| c.params == m.params).map(|c| (*owner, m.id, c.id)).peekable();
                if exact.peek().is_some() {
                    out.extend(exact);
                    continue;
                }
                let mut by_arity = same_name().filter(|c| arity(&c.params) == arity(&m.params));
                if let (Some(o), None) = (by_arity.next(), by_arity.next()) {
                    out.push((*owner, m.id, o.id));
                }
            }
        }
    }
    // A lambda implements the one method of its interface (or of a superinterface) that has
    // no body to inherit.
    for m in methods.iter().filter(|m| m.lambda && wanted(&m.id)) {
        let mut ups: Vec<i64> = Vec::new();
        let mut queue: VecDeque<i64> = supers.get(&m.id).into_iter().flatten().copied().collect();
        while let Some(t) = queue.pop_front() {
            if !ups.contains(&t) {
                ups.push(t);
                queue.extend(supers.get(&t).into_iter().flatten().copied());
            }
        }
        let bodiless: Vec<i64> =
            ups.iter().flat_map(|up| by_owner.get(up).into_iter().flatten()).filter(|(_, c)| c.abstract_like).map(|(_, c)| c.id).collect();
        if let [one] = bodiless.as_slice() {
            out.push((m.id, m.id, *one));
        }
    }
    out
}

/// The override pairs kept by owner across index generations (issue 52, item 4): deciding
/// them walks 10^6 (method, supertype) pairs on the whole JDK, 100 ms after every save,
/// though a save changes the pairs of the types it touches and of their subtypes only.
#[derive(Default)]
pub(super) struct KeptPairs {
    stamp: Stamp,
    /// Owner (a type, or a lambda by its own id) -> its (method, overridden) pairs.
    by_owner: FxHashMap<i64, Vec<(i64, i64)>>,
    /// File -> the owners its rows bear on: its types, its methods' types, its lambdas and
    /// the types its supertype references start from.
    touches: FxHashMap<i64, Box<[i64]>>,
    /// File -> its (type or lambda, the type it extends or implements) references.
    supers_by_file: FxHashMap<i64, Box<[(i64, i64)]>>,
    /// Type (or lambda) -> the types it extends or implements, as of `stamp`.
    supers: HashMap<i64, Vec<i64>>,
}

impl KeptPairs {
    /// Every (method, overridden) pair of the index at `stamp`, sorted (what
    /// `override_pairs` gives): the owners that a file changed since bears on, before or
    /// after, and their subtypes, before or after, are decided again; a different index, or
    /// changes in more than a quarter of the files (and more than 256), decide all.
    pub(super) fn update(&mut self, stamp: &Stamp, files: &[(FileRow, u64)], edges: &EdgeCache, methods: &MethodsCache) -> Vec<(i64, i64)> {
        let supers_of = |file: i64| -> Box<[(i64, i64)]> {
            let Some(rows) = edges.by_file.get(&file) else { return Box::default() };
            let rows = rows.edges.iter().map(|r| r.row(file));
            rows.filter_map(|e| match (e.source, e.target, e.kind) {
                (Some(s), Some(t), RefKind::Extends | RefKind::Implements) => Some((s, t)),
                _ => None,
            })
            .collect()
        };
        let touches_of = |file: i64, supers: &[(i64, i64)]| -> Box<[i64]> {
            let mut out: Vec<i64> = supers.iter().map(|(s, _)| *s).collect();
            if let Some(f) = methods.by_file.get(&file) {
                out.extend(f.types.iter().map(|(id, _)| *id));
                out.extend(f.methods.iter().filter_map(|m| m.parent));
                out.extend(f.methods.iter().filter(|m| m.lambda).map(|m| m.id));
            }
            out.sort_unstable();
            out.dedup();
            out.into_boxed_slice()
        };
        let (all, names) = methods.merged();
        // The changed files, and those gone since.
        let changed = super::cache::changed_files(&self.stamp, stamp, files).map(|mut changed| {
            let present: FxHashSet<i64> = files.iter().map(|(f, _)| f.id).collect();
            changed.extend(self.touches.keys().filter(|f| !present.contains(f)));
            changed
        });
        let blanket;
        match changed {
            Some(changed) => {
                // The owners whose own rows or supertypes' rows may differ: those the changed
                // files bear on, before and after, and what descends from them, before or
                // after.
                let mut start: Vec<i64> = Vec::new();
                for file in changed {
                    start.extend(self.touches.remove(&file).into_iter().flatten());
                    self.supers_by_file.remove(&file);
                    let ups = supers_of(file);
                    let now = touches_of(file, &ups);
                    start.extend(now.iter());
                    if !now.is_empty() {
                        self.touches.insert(file, now);
                    }
                    if !ups.is_empty() {
                        self.supers_by_file.insert(file, ups);
                    }
                }
                let supers = self.supers();
                let mut children: FxHashMap<i64, Vec<i64>> = FxHashMap::default();
                for map in [&self.supers, &supers] {
                    for (s, ts) in map {
                        for t in ts {
                            children.entry(*t).or_default().push(*s);
                        }
                    }
                }
                let mut dirty: FxHashSet<i64> = FxHashSet::default();
                while let Some(t) = start.pop() {
                    if dirty.insert(t) {
                        start.extend(children.get(&t).into_iter().flatten());
                    }
                }
                let triples = decide(&all, &names, &supers, Some(&dirty));
                for owner in &dirty {
                    self.by_owner.remove(owner);
                }
                blanket = self.keep(triples);
                self.supers = supers;
                tracing::debug!(owners = dirty.len(), "override pairs decided again");
            }
            None => {
                let mut known: FxHashSet<i64> = methods.by_file.keys().copied().collect();
                known.extend(edges.by_file.keys());
                self.supers_by_file = known.iter().map(|f| (*f, supers_of(*f))).filter(|(_, s)| !s.is_empty()).collect();
                self.touches = known
                    .into_iter()
                    .map(|f| (f, touches_of(f, self.supers_by_file.get(&f).map_or(&[], |s| s))))
                    .filter(|(_, t)| !t.is_empty())
                    .collect();
                let supers = self.supers();
                self.by_owner.clear();
                blanket = self.keep(decide(&all, &names, &supers, None));
                self.supers = supers;
            }
        }
        self.stamp = stamp.clone();
        let mut out: Vec<(i64, i64)> = self.by_owner.values().flatten().copied().chain(blanket).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Type (or lambda) -> the types it extends or implements, from the files' references.
    fn supers(&self) -> HashMap<i64, Vec<i64>> {
        let mut supers: HashMap<i64, Vec<i64>> = HashMap::new();
        for rows in self.supers_by_file.values() {
            for (s, t) in rows.iter() {
                supers.entry(*s).or_default().push(*t);
            }
        }
        supers
    }

    /// Keeps the decided pairs by owner; the blanket impls' are given back.
    fn keep(&mut self, triples: Vec<(i64, i64, i64)>) -> Vec<(i64, i64)> {
        let mut blanket = Vec::new();
        for (owner, m, o) in triples {
            if owner == BLANKET {
                blanket.push((m, o));
            } else {
                self.by_owner.entry(owner).or_default().push((m, o));
            }
        }
        blanket
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn method(id: i64, parent: i64, name: &str, params: Option<&str>, impl_trait: Option<&str>) -> MethodRow {
        MethodRow {
            id,
            parent: (parent > 0).then_some(parent),
            name: name.into(),
            params: params.map(Into::into),
            impl_trait: impl_trait.map(Into::into),
            abstract_like: true,
            lambda: false,
        }
    }

    #[test]
    fn a_lambda_implements_the_one_bodiless_method_of_its_interface() {
        // 1 interface Listener { 11 onEvent(String), 12 default describe() }
        // 5 method register() { 51 lambda implements Listener }
        // 6 method other() { 61 lambda implements Sink: 2 methods without a body, neither }
        let describe = MethodRow { abstract_like: false, ..method(12, 1, "describe", Some(""), None) };
        let lambda = |id, parent| MethodRow { lambda: true, abstract_like: false, ..method(id, parent, &format!("${id}"), None, None) };
        let methods = vec![
            method(11, 1, "onEvent", Some("String"), None),
            describe,
            method(21, 2, "put", Some("String"), None),
            method(22, 2, "flush", Some(""), None),
            lambda(51, 5),
            lambda(61, 6),
        ];
        let supers = HashMap::from([(51, vec![1]), (61, vec![2])]);
        assert_eq!(override_pairs(&methods.iter().collect::<Vec<_>>(), &HashMap::new(), &supers), vec![(51, 11)]);
    }

    #[test]
    fn overrides_match_parameters_then_the_one_of_that_arity() {
        // 1 interface Repo<T> { 11 save(T), 12 find(long), 13 find(String) }
        // 2 class OrderRepo implements Repo<Order> { 21 save(Order), 22 find(long), 23 find(int) }
        // 3 class Cached extends OrderRepo { 31 find(long) }
        let methods = vec![
            method(11, 1, "save", Some("T"), None),
            method(12, 1, "find", Some("long"), None),
            method(13, 1, "find", Some("String"), None),
            method(21, 2, "save", Some("Order"), None),
            method(22, 2, "find", Some("long"), None),
            method(23, 2, "find", Some("int"), None),
            method(31, 3, "find", Some("long"), None),
        ];
        let supers = HashMap::from([(2, vec![1]), (3, vec![2])]);
        let pairs = override_pairs(&methods.iter().collect::<Vec<_>>(), &HashMap::new(), &supers);
        // find(int) matches no parameters and two methods of its arity: it overrides nothing.
        assert_eq!(pairs, vec![(21, 11), (22, 12), (31, 12), (31, 22)]);
    }

    #[test]
    fn a_rust_method_implements_only_the_trait_its_impl_names() {
        // 1 trait Sink, 2 trait Other, both with on_match; 3 struct Printer: impl Sink (31),
        // and an inherent on_match (32).
        let methods = vec![
            method(11, 1, "on_match", None, None),
            method(21, 2, "on_match", None, None),
            method(31, 3, "on_match", None, Some("crate::Sink")),
            method(32, 3, "on_match", None, None),
            // `impl<S: Sink> Sink for &mut S`: no parent.
            method(41, 0, "on_match", None, Some("Sink")),
        ];
        let names = HashMap::from([(1, "Sink"), (2, "Other")]);
        let supers = HashMap::from([(3, vec![1, 2])]);
        assert_eq!(override_pairs(&methods.iter().collect::<Vec<_>>(), &names, &supers), vec![(31, 11), (41, 11)]);
    }
}
