//! Change impact at member precision: what depends on a set of symbols, transitively, along
//! reverse edges only, from the member that holds each reference (a caller is the method
//! that calls, not its class). The one step through a supertype is dispatch: when a method
//! is affected, the callers of every method it overrides or implements are too (a call
//! through the interface runs it), marked with that method. Nothing is ever reached through
//! what an affected symbol *uses*, nor from a member to its type's other dependents.
//!
//! Owns the member-level reverse index and the walk; it knows no names (the override pairs
//! are handed in) and does no IO. `Graph::roll_up` turns its hits into a level's nodes.

use rustc_hash::FxHashMap as HashMap;

use super::IdTable;
use crate::model::{EdgeRow, RefKind, SymbolKind, SymbolRow};

/// What a hop of the walk reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Affected {
    Symbol(i64),
    /// A reference that belongs to no declaration (an `import`/`use` line) of this file.
    FileLevel(i64),
}

/// Why a hit is affected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Why {
    /// It references an affected symbol.
    Refers,
    /// It calls a method an affected method overrides or implements (the method, by id).
    Dispatch(i64),
    /// It overrides or implements the changed method: it changes with its signature.
    Overrides(i64),
}

/// One affected symbol (or file-level reference), its distance from the change, the edges
/// between it and the previous ring (kind, weight) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    pub item: Affected,
    pub distance: usize,
    pub edges: Vec<(RefKind, u32)>,
    pub why: Why,
}

/// Rows keyed by a slot, in one array (compressed sparse rows).
struct Csr<T> {
    start: Vec<u32>,
    items: Vec<T>,
}

impl<T: Copy> Csr<T> {
    /// Each slot's items in the order `pairs` gives them: a counting sort (a comparison
    /// sort of the whole JDK's 1.4 M reverse edges was two thirds of building the index).
    fn build(slots: usize, pairs: Vec<(u32, T)>) -> Csr<T> {
        let mut start = vec![0u32; slots + 1];
        for (k, _) in &pairs {
            start[*k as usize + 1] += 1;
        }
        for i in 0..slots {
            start[i + 1] += start[i];
        }
        let Some(&(_, first)) = pairs.first() else { return Csr { start, items: Vec::new() } };
        let mut items = vec![first; pairs.len()];
        let mut next = start.clone();
        for (k, v) in pairs {
            items[next[k as usize] as usize] = v;
            next[k as usize] += 1;
        }
        Csr { start, items }
    }

    fn of(&self, slot: u32) -> &[T] {
        let (a, b) = (self.start[slot as usize] as usize, self.start[slot as usize + 1] as usize);
        &self.items[a..b]
    }
}

/// A reverse edge: who references a slot, and how. 12 bytes: the whole JDK has 1.4 M, built
/// again after every save, and with the file's id in each (24 bytes) writing them was a
/// fifth of building the index.
#[derive(Clone, Copy)]
struct Rev {
    /// The referencing symbol's slot, or `FILE_LEVEL` plus an index into
    /// `Dependents::ref_files` for a reference that belongs to no declaration (an import).
    source: u32,
    count: u32,
    kind: RefKind,
}

/// Marks `Rev::source` as a file's file-level references.
const FILE_LEVEL: u32 = 1 << 31;

const NONE: u32 = u32::MAX;

/// The member-level reverse index change impact walks.
pub struct Dependents {
    slot: IdTable,
    ids: Vec<i64>,
    files: Vec<i64>,
    kinds: Vec<SymbolKind>,
    /// `NONE`: no parent.
    parents: Vec<u32>,
    rev: Csr<Rev>,
    /// The files of file-level references (`FILE_LEVEL`).
    ref_files: Vec<i64>,
    children: Csr<u32>,
    /// Method slot -> the methods it overrides or implements.
    overrides: Csr<u32>,
    /// Method slot -> the methods that override or implement it.
    overriders: Csr<u32>,
}

impl Dependents {
    /// From the symbol rows, the edge rows (externals are left out: nothing outside the
    /// repository is affected) and (method, the method it overrides or implements) pairs.
    /// `edges` holds about `edge_count` rows (room for their reverse edges is made at once:
    /// the whole JDK has 1.4 M).
    pub fn build(
        symbols: &[SymbolRow],
        edges: impl IntoIterator<Item = EdgeRow>,
        edge_count: usize,
        overrides: &[(i64, i64)],
    ) -> Dependents {
        let mut slot = IdTable::for_ids(symbols.iter().map(|s| s.id));
        for (i, s) in symbols.iter().enumerate() {
            slot.insert(s.id, i as u32);
        }
        let n = symbols.len();
        // Symbols fit below `FILE_LEVEL` (2^31 of them would not fit in memory).
        assert!(symbols.len() < FILE_LEVEL as usize, "too many symbols for change impact's index");
        let mut ref_files: Vec<i64> = Vec::new();
        let mut file_index: HashMap<i64, u32> = HashMap::default();
        let mut reverse = |e: EdgeRow| {
            let target = e.target.and_then(|t| slot.get(t))?;
            let source = match e.source {
                Some(s) => slot.get(s).filter(|s| *s != target)?,
                None => {
                    let next = ref_files.len() as u32;
                    let i = *file_index.entry(e.file).or_insert(next);
                    if i == next {
                        ref_files.push(e.file);
                    }
                    FILE_LEVEL | i
                }
            };
            Some((target, Rev { source, kind: e.kind, count: e.count }))
        };
        let mut rev = Vec::with_capacity(edge_count);
        rev.extend(edges.into_iter().filter_map(&mut reverse));
        // Code declared inside a method's body or a field's initializer (a local or anonymous
        // class and its members, a lambda) is that member's: what reaches it reaches the
        // outermost method or field around it (as an `instantiates` edge: that member makes
        // it), as the calls in its body are that member's.
        let parents: Vec<u32> = symbols.iter().map(|s| s.parent.and_then(|p| slot.get(p)).unwrap_or(NONE)).collect();
        for (i, &first) in parents.iter().enumerate() {
            let mut holder = NONE;
            let mut up = first;
            while up != NONE {
                if symbols[up as usize].kind.is_callable() || symbols[up as usize].kind == SymbolKind::Field {
                    holder = up;
                }
                up = parents[up as usize];
            }
            if holder != NONE {
                rev.push((i as u32, Rev { source: holder, kind: RefKind::Instantiates, count: 1 }));
            }
        }
        let children = symbols.iter().enumerate().filter_map(|(i, s)| Some((slot.get(s.parent?)?, i as u32))).collect();
        let pairs: Vec<(u32, u32)> = overrides.iter().filter_map(|(m, o)| Some((slot.get(*m)?, slot.get(*o)?))).collect();
        let overriders = pairs.iter().map(|(m, o)| (*o, *m)).collect();
        Dependents {
            ids: symbols.iter().map(|s| s.id).collect(),
            files: symbols.iter().map(|s| s.file).collect(),
            kinds: symbols.iter().map(|s| s.kind).collect(),
            parents,
            rev: Csr::build(n, rev),
            ref_files,
            children: Csr::build(n, children),
            overrides: Csr::build(n, pairs),
            overriders: Csr::build(n, overriders),
            slot,
        }
    }

    /// A symbol and everything declared inside it (a type's change may be any member's).
    pub fn with_members(&self, id: i64) -> Vec<i64> {
        let Some(s) = self.slot.get(id) else { return Vec::new() };
        let mut out = vec![s];
        let mut i = 0;
        while i < out.len() {
            out.extend_from_slice(self.children.of(out[i]));
            i += 1;
        }
        out.into_iter().map(|s| self.ids[s as usize]).collect()
    }

    /// Every symbol declared in one of these files.
    pub fn in_files(&self, files: &rustc_hash::FxHashSet<i64>) -> Vec<i64> {
        self.ids.iter().zip(&self.files).filter(|(_, f)| files.contains(f)).map(|(id, _)| *id).collect()
    }

    /// The methods that override or implement a method.
    pub fn overriders_of(&self, id: i64) -> Vec<i64> {
        self.slot.get(id).map(|s| self.overriders.of(s).iter().map(|o| self.ids[*o as usize]).collect()).unwrap_or_default()
    }

    /// What depends on `starts`, ring by ring up to `depth`. With `signature`, the methods
    /// that override or implement a start are ring 1 too (they change with its signature).
    /// The starts are never hits; each hit is listed once, at its nearest ring, reached
    /// directly if any of its edges from that ring is direct.
    pub fn impact(&self, starts: &[i64], signature: bool, depth: usize) -> Vec<Hit> {
        self.impact_keeping(starts, signature, depth, |_, _| true)
    }

    /// `impact`, listing only the hits `keep` (given a hit's ring and item) keeps. The walk
    /// still goes through the others: what a caller drops (rings past the depth asked for,
    /// walked further only to find the tests) costs no edges and no row.
    pub fn impact_keeping(&self, starts: &[i64], signature: bool, depth: usize, keep: impl Fn(usize, Affected) -> bool) -> Vec<Hit> {
        let mut seen = vec![false; self.ids.len()];
        let mut frontier: Vec<u32> = starts.iter().filter_map(|id| self.slot.get(*id)).collect();
        frontier.sort_unstable();
        frontier.dedup();
        for s in &frontier {
            seen[*s as usize] = true;
        }
        let mut seen_files: rustc_hash::FxHashSet<i64> = Default::default();
        let mut out = Vec::new();
        // A ring's entries: each symbol's place by its slot (a hub's walk meets 10^5 of them:
        // no hash map), each file's by a small map; their edges listed apart.
        let mut at_slot: Vec<u32> = vec![NONE; self.ids.len()];
        for distance in 1..=depth {
            let mut ring =
                Ring { ids: &self.ids, at_slot: &mut at_slot, at_file: HashMap::default(), entries: Vec::new(), edges: Vec::new() };
            for &n in &frontier {
                for r in self.rev.of(n) {
                    self.reach(r, Why::Refers, &seen, &seen_files, &mut ring);
                }
                // `new T(..)` and `T { a, b }` name the type: a changed constructor or field
                // reaches them.
                let parent = self.parents[n as usize];
                if matches!(self.kinds[n as usize], SymbolKind::Constructor | SymbolKind::Field) && parent != NONE {
                    for r in self.rev.of(parent).iter().filter(|r| r.kind == RefKind::Instantiates) {
                        self.reach(r, Why::Refers, &seen, &seen_files, &mut ring);
                    }
                }
                // Dispatch: a call of a method `n` overrides may run `n` (unless that method
                // is affected itself: its callers are reached directly).
                for &o in self.overrides.of(n).iter().filter(|o| !seen[**o as usize]) {
                    for r in self.rev.of(o) {
                        if matches!(r.kind, RefKind::Calls | RefKind::MethodRef) {
                            self.reach(r, Why::Dispatch(self.ids[o as usize]), &seen, &seen_files, &mut ring);
                        }
                    }
                }
                // An overrider is reached by no edge: it has none to list.
                if signature && distance == 1 && self.kinds[n as usize].is_callable() {
                    for &m in self.overriders.of(n) {
                        if !seen[m as usize] {
                            ring.add(Place::Slot(m), None, Why::Overrides(self.ids[n as usize]));
                        }
                    }
                }
            }
            // Each entry's edges, in the order they came.
            let Ring { at_slot, entries, edges: listed, .. } = ring;
            let kept: Vec<bool> = entries.iter().map(|(item, _, _)| keep(distance, *item)).collect();
            let mut edges: Vec<Vec<(RefKind, u32)>> = vec![Vec::new(); entries.len()];
            for (e, edge) in listed {
                if kept[e as usize] {
                    edges[e as usize].push(edge);
                }
            }
            let mut order: Vec<u32> = (0..entries.len() as u32).collect();
            order.sort_by_key(|e| {
                let (item, why, _) = entries[*e as usize];
                (why != Why::Refers, item)
            });
            let mut next = Vec::new();
            for e in order {
                let (item, why, slot) = entries[e as usize];
                match item {
                    Affected::Symbol(_) => {
                        seen[slot as usize] = true;
                        at_slot[slot as usize] = NONE;
                        next.push(slot);
                    }
                    Affected::FileLevel(f) => {
                        seen_files.insert(f);
                    }
                }
                if kept[e as usize] {
                    let mut edges = std::mem::take(&mut edges[e as usize]);
                    super::merge_kinds(&mut edges);
                    out.push(Hit { item, distance, edges, why });
                }
            }
            frontier = next;
            if frontier.is_empty() {
                break;
            }
        }
        out
    }

    fn reach(&self, r: &Rev, why: Why, seen: &[bool], seen_files: &rustc_hash::FxHashSet<i64>, ring: &mut Ring) {
        if r.source & FILE_LEVEL != 0 {
            let file = self.ref_files[(r.source & !FILE_LEVEL) as usize];
            if !seen_files.contains(&file) {
                ring.add(Place::File(file), Some((r.kind, r.count)), why);
            }
        } else if !seen[r.source as usize] {
            ring.add(Place::Slot(r.source), Some((r.kind, r.count)), why);
        }
    }
}

/// Where a ring's hit is: a symbol by its slot, or a file's file-level references.
enum Place {
    Slot(u32),
    File(i64),
}

/// One ring of the walk as it is gathered: each hit once (the item, its best reason, its
/// slot), and the edges that reach each.
struct Ring<'a> {
    /// Slot -> symbol id.
    ids: &'a [i64],
    /// Slot -> its entry (`NONE`: none yet); put back to `NONE` once the ring is read.
    at_slot: &'a mut Vec<u32>,
    at_file: HashMap<i64, u32>,
    entries: Vec<(Affected, Why, u32)>,
    edges: Vec<(u32, (RefKind, u32))>,
}

impl Ring<'_> {
    fn add(&mut self, place: Place, edge: Option<(RefKind, u32)>, why: Why) {
        let next = self.entries.len() as u32;
        let e = match place {
            Place::Slot(s) => {
                let e = &mut self.at_slot[s as usize];
                if *e == NONE {
                    *e = next;
                    self.entries.push((Affected::Symbol(self.ids[s as usize]), why, s));
                }
                *e
            }
            Place::File(f) => {
                let e = *self.at_file.entry(f).or_insert(next);
                if e == next {
                    self.entries.push((Affected::FileLevel(f), why, NONE));
                }
                e
            }
        };
        let entry = &mut self.entries[e as usize];
        entry.1 = entry.1.min(why);
        if let Some(edge) = edge {
            self.edges.push((e, edge));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csr_lists_each_slot_in_the_order_given() {
        let csr = Csr::build(4, vec![(2, 'a'), (0, 'b'), (2, 'c'), (3, 'd'), (0, 'e'), (2, 'f')]);
        let slots: Vec<String> = (0..4).map(|s| csr.of(s).iter().collect()).collect();
        assert_eq!(slots, ["be", "", "acf", "d"]);
        assert!(Csr::<char>::build(3, Vec::new()).of(2).is_empty());
    }

    fn sym(id: i64, parent: Option<i64>, kind: SymbolKind) -> SymbolRow {
        SymbolRow { id, file: id, parent, kind }
    }

    fn edge(source: Option<i64>, target: i64, kind: RefKind) -> EdgeRow {
        EdgeRow { file: source.unwrap_or(99), source, target: Some(target), external: None, kind, count: 1, line: 1 }
    }

    /// 1 class Person { 11 getName() }, 2 class Owner extends Person { 21 addPet(), 22
    /// addPet(String) }, 3 class Vet extends Person { 31 specialties() }, 4 class OwnerTest { 41
    /// calls 21 }, 5 class VetTest { 51 calls 31, 52 calls 11 }, 6 interface Repo { 61 save() },
    /// 7 class JpaRepo implements Repo { 71 save() calls 22 }, 8 class Service { 81 calls 61 },
    /// file 99 imports Owner.
    fn sample() -> Dependents {
        use SymbolKind::{Class, Interface, Method};
        let symbols = vec![
            sym(1, None, Class),
            sym(11, Some(1), Method),
            sym(2, None, Class),
            sym(21, Some(2), Method),
            sym(22, Some(2), Method),
            sym(3, None, Class),
            sym(31, Some(3), Method),
            sym(4, None, Class),
            sym(41, Some(4), Method),
            sym(5, None, Class),
            sym(51, Some(5), Method),
            sym(52, Some(5), Method),
            sym(6, None, Interface),
            sym(61, Some(6), Method),
            sym(7, None, Class),
            sym(71, Some(7), Method),
            sym(8, None, Class),
            sym(81, Some(8), Method),
        ];
        let edges = vec![
            edge(Some(2), 1, RefKind::Extends),
            edge(Some(3), 1, RefKind::Extends),
            edge(Some(41), 21, RefKind::Calls),
            edge(Some(51), 31, RefKind::Calls),
            edge(Some(52), 11, RefKind::Calls),
            edge(Some(7), 6, RefKind::Implements),
            edge(Some(71), 22, RefKind::Calls),
            edge(Some(81), 61, RefKind::Calls),
            edge(None, 2, RefKind::Imports),
        ];
        Dependents::build(&symbols, edges, 9, &[(71, 61)])
    }

    fn hits(d: &Dependents, starts: &[i64], signature: bool) -> Vec<(Affected, usize, Why)> {
        d.impact(starts, signature, 5).into_iter().map(|h| (h.item, h.distance, h.why)).collect()
    }

    #[test]
    fn a_method_reaches_its_callers_and_dispatch_never_its_supertypes_users() {
        let d = sample();
        // Owner#addPet(String): JpaRepo#save calls it, and Service calls Repo#save, which
        // JpaRepo#save implements. Nothing through Person: VetTest is not affected.
        assert_eq!(hits(&d, &[22], false), vec![(Affected::Symbol(71), 1, Why::Refers), (Affected::Symbol(81), 2, Why::Dispatch(61))]);
        assert_eq!(hits(&d, &[21], false), vec![(Affected::Symbol(41), 1, Why::Refers)]);
    }

    #[test]
    fn a_type_reaches_its_subtypes_and_the_users_of_its_members() {
        let d = sample();
        let starts = d.with_members(1);
        assert_eq!(starts, vec![1, 11]);
        assert_eq!(
            hits(&d, &starts, false),
            vec![
                (Affected::Symbol(2), 1, Why::Refers),
                (Affected::Symbol(3), 1, Why::Refers),
                (Affected::Symbol(52), 1, Why::Refers),
                (Affected::FileLevel(99), 2, Why::Refers),
            ]
        );
    }

    #[test]
    fn hits_left_out_are_still_walked_through() {
        let d = sample();
        let starts = d.with_members(1);
        let past_ring_one: Vec<(Affected, usize, Why)> =
            d.impact_keeping(&starts, false, 3, |ring, _| ring > 1).into_iter().map(|h| (h.item, h.distance, h.why)).collect();
        assert_eq!(past_ring_one, vec![(Affected::FileLevel(99), 2, Why::Refers)]);
        let only_52: Vec<Affected> =
            d.impact_keeping(&starts, false, 3, |_, item| item == Affected::Symbol(52)).into_iter().map(|h| h.item).collect();
        assert_eq!(only_52, vec![Affected::Symbol(52)]);
    }

    #[test]
    fn file_level_references_keep_their_files() {
        let symbols = vec![sym(1, None, SymbolKind::Class), sym(2, None, SymbolKind::Class)];
        let import =
            |file, target| EdgeRow { file, source: None, target: Some(target), external: None, kind: RefKind::Imports, count: 1, line: 1 };
        let d = Dependents::build(&symbols, vec![import(70, 1), import(80, 2), import(90, 1), import(70, 2)], 4, &[]);
        assert_eq!(hits(&d, &[1], false), vec![(Affected::FileLevel(70), 1, Why::Refers), (Affected::FileLevel(90), 1, Why::Refers)]);
        assert_eq!(hits(&d, &[2], false), vec![(Affected::FileLevel(70), 1, Why::Refers), (Affected::FileLevel(80), 1, Why::Refers)]);
    }

    #[test]
    fn a_signature_change_reaches_the_implementations() {
        let d = sample();
        assert_eq!(d.overriders_of(61), vec![71]);
        assert_eq!(hits(&d, &[61], true), vec![(Affected::Symbol(81), 1, Why::Refers), (Affected::Symbol(71), 1, Why::Overrides(61))]);
        // Without the signature, only callers.
        assert_eq!(hits(&d, &[61], false), vec![(Affected::Symbol(81), 1, Why::Refers)]);
    }
}
