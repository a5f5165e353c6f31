//! Rows derived from the index, kept by file across index generations so that a save
//! re-reads only the files it changed (`ByFile`): the graphs' edge and symbol rows, the
//! symbols' users (sentence search's `uses` field), the override candidates (change
//! impact's index), the symbols marked as tests, the callers of MyBatis statements by id.
//! Must not build graphs or indexes from them (that is `crate::graph` and `tools::impact`).

use std::collections::{HashMap, HashSet};

use crate::model::{EdgeRow, FileRow, SymbolRow};
use crate::store::{self, Stamp, Store};

/// What the dependency graphs are built from, by file (edge rows and symbol rows).
pub(super) type EdgeCache = ByFile<FileRows>;

#[derive(Default)]
pub(super) struct FileRows {
    pub(super) edges: Box<[CachedEdge]>,
    pub(super) symbols: Box<[CachedSymbol]>,
}

/// A symbol row as the cache keeps it, its file the key.
#[derive(Clone, Copy)]
pub(super) struct CachedSymbol {
    id: i64,
    /// -1: no parent.
    parent: i64,
    kind: crate::model::SymbolKind,
}

impl CachedSymbol {
    pub(super) fn id(&self) -> i64 {
        self.id
    }

    fn of(row: &SymbolRow) -> CachedSymbol {
        CachedSymbol { id: row.id, parent: row.parent.unwrap_or(-1), kind: row.kind }
    }

    pub(super) fn row(&self, file: i64) -> SymbolRow {
        SymbolRow { id: self.id, file, parent: (self.parent >= 0).then_some(self.parent), kind: self.kind }
    }
}

/// An edge row as the cache keeps it, its file the key: 32 bytes instead of an `EdgeRow`'s
/// 72 (java.base has 380k rows; the server keeps them).
#[derive(Clone, Copy)]
pub(super) struct CachedEdge {
    /// -1: no source symbol.
    source: i64,
    /// Negative: an external's id.
    target: i64,
    count: u32,
    line: u32,
    kind: crate::model::RefKind,
}

impl CachedEdge {
    fn of(row: &EdgeRow) -> CachedEdge {
        let target = match (row.target, row.external) {
            (Some(t), _) => t,
            (None, Some(x)) => -x,
            (None, None) => 0,
        };
        CachedEdge { source: row.source.unwrap_or(-1), target, count: row.count, line: row.line, kind: row.kind }
    }

    pub(super) fn row(&self, file: i64) -> EdgeRow {
        EdgeRow {
            file,
            source: (self.source >= 0).then_some(self.source),
            target: (self.target > 0).then_some(self.target),
            external: (self.target < 0).then_some(-self.target),
            kind: self.kind,
            count: self.count,
            line: self.line,
        }
    }
}

/// Rows derived from the index, by file, as of one index (id) and generation: what a
/// refresh keeps across generations so that a save re-reads only the files it changed.
pub(super) struct ByFile<T> {
    stamp: Stamp,
    pub(super) by_file: HashMap<i64, T>,
}

impl<T> Default for ByFile<T> {
    fn default() -> Self {
        ByFile { stamp: Stamp::default(), by_file: HashMap::default() }
    }
}

/// The files whose rows changed since the index generation `since` (`files`: each file
/// with the generation that last changed it), or None when everything is to be read again:
/// another index, or changes in more than a quarter of the files (and more than 256).
pub(super) fn changed_files(since: &Stamp, stamp: &Stamp, files: &[(FileRow, u64)]) -> Option<Vec<i64>> {
    if since.index_id.is_empty() || since.index_id != stamp.index_id || stamp.generation < since.generation {
        return None;
    }
    let changed: Vec<i64> = files.iter().filter(|(_, g)| *g > since.generation).map(|(f, _)| f.id).collect();
    (changed.len() <= 256 || changed.len() * 4 <= files.len()).then_some(changed)
}

impl<T> ByFile<T> {
    /// Whether the rows are those of the index at `stamp`.
    pub(super) fn is_at(&self, stamp: &Stamp) -> bool {
        self.stamp == *stamp
    }

    /// Brings the rows up to the index at `stamp`: files gone leave, files whose references
    /// or symbols changed since are read again (`one`; None: the file has no rows); a
    /// different index, or changes in more than a quarter of the files (and more than 256),
    /// mean one read of everything (`all`).
    pub(super) fn refresh(
        &mut self,
        stamp: &Stamp,
        files: &[(FileRow, u64)],
        all: impl FnOnce() -> Result<HashMap<i64, T>, store::Error>,
        mut one: impl FnMut(i64) -> Result<Option<T>, store::Error>,
    ) -> Result<(), store::Error> {
        if self.stamp == *stamp {
            return Ok(());
        }
        let changed = changed_files(&self.stamp, stamp, files);
        tracing::debug!(
            rows = std::any::type_name::<T>().rsplit("::").next().unwrap_or(""),
            changed = changed.as_ref().map_or(files.len(), Vec::len),
            files = files.len(),
            from = self.stamp.generation,
            to = stamp.generation,
            "cache refresh"
        );
        if let Some(changed) = changed {
            let present: HashSet<i64> = files.iter().map(|(f, _)| f.id).collect();
            self.by_file.retain(|f, _| present.contains(f));
            for file in changed {
                match one(file)? {
                    Some(rows) => self.by_file.insert(file, rows),
                    None => self.by_file.remove(&file),
                };
            }
        } else {
            self.by_file = all()?;
        }
        self.stamp = stamp.clone();
        Ok(())
    }
}

impl EdgeCache {
    /// The graph's edge and symbol rows brought up to the index at `stamp`.
    pub(super) fn update(&mut self, store: &Store, stamp: &Stamp, files: &[(FileRow, u64)]) -> Result<(), store::Error> {
        let all = || {
            let mut by_file: HashMap<i64, (Vec<CachedEdge>, Vec<CachedSymbol>)> = HashMap::default();
            for row in store.graph_edges(None)? {
                by_file.entry(row.file).or_default().0.push(CachedEdge::of(&row));
            }
            for row in store.graph_symbols(None)? {
                by_file.entry(row.file).or_default().1.push(CachedSymbol::of(&row));
            }
            Ok(by_file
                .into_iter()
                .map(|(file, (edges, symbols))| (file, FileRows { edges: edges.into_boxed_slice(), symbols: symbols.into_boxed_slice() }))
                .collect())
        };
        let one = |file| {
            let edges: Box<[CachedEdge]> = store.graph_edges(Some(file))?.iter().map(CachedEdge::of).collect();
            let symbols: Box<[CachedSymbol]> = store.graph_symbols(Some(file))?.iter().map(CachedSymbol::of).collect();
            Ok((!edges.is_empty() || !symbols.is_empty()).then_some(FileRows { edges, symbols }))
        };
        self.refresh(stamp, files, all, one)
    }
}

/// One file's references to the repository's symbols (imports left out), as sentence
/// search's `uses` field and fan-in read them.
pub(super) struct FileUsers {
    /// (symbol, declaration referencing it), sorted, each once.
    pub(super) pairs: Box<[(i64, i64)]>,
    /// (symbol, how many references to it the file has), sorted.
    pub(super) counts: Box<[(i64, u32)]>,
}

impl FileUsers {
    fn of(mut pairs: Vec<(i64, i64)>, targets: Vec<i64>) -> FileUsers {
        pairs.sort_unstable();
        pairs.dedup();
        let counts = summed(targets.into_iter().map(|t| (t, 1)).collect());
        FileUsers { pairs: pairs.into_boxed_slice(), counts: counts.into_boxed_slice() }
    }
}

/// The symbols' users by file.
pub(super) type UsersCache = ByFile<FileUsers>;

impl UsersCache {
    /// The users' rows brought up to the index at `stamp`.
    pub(super) fn update(&mut self, store: &Store, stamp: &Stamp, files: &[(FileRow, u64)]) -> Result<(), store::Error> {
        let all = || {
            let mut by_file: HashMap<i64, (Vec<(i64, i64)>, Vec<i64>)> = HashMap::default();
            store.symbol_users(None, |file, target, source| {
                let rows = by_file.entry(file).or_default();
                rows.0.extend(source.map(|s| (target, s)));
                rows.1.push(target);
            })?;
            Ok(by_file.into_iter().map(|(file, (pairs, targets))| (file, FileUsers::of(pairs, targets))).collect())
        };
        let one = |file| {
            let (mut pairs, mut targets) = (Vec::new(), Vec::new());
            store.symbol_users(Some(file), |_, target, source| {
                pairs.extend(source.map(|s| (target, s)));
                targets.push(target);
            })?;
            Ok((!targets.is_empty()).then(|| FileUsers::of(pairs, targets)))
        };
        self.refresh(stamp, files, all, one)
    }

    /// Every file's users as lists by symbol, and each symbol's count of references.
    ///
    /// A counting sort by symbol (symbol ids are given in turn, so they span little more
    /// than their number): a comparison sort of the 1.44 M pairs of the whole JDK took
    /// 120-145 ms after each save. Ids spread over more than four times the rows are sorted.
    pub(super) fn merged(&self) -> UserLists {
        let (mut lo, mut hi, mut rows) = (i64::MAX, i64::MIN, 0usize);
        for f in self.by_file.values() {
            for t in f.counts.iter().map(|c| c.0).chain(f.pairs.iter().map(|p| p.0)) {
                (lo, hi) = (lo.min(t), hi.max(t));
            }
            rows += f.pairs.len() + f.counts.len();
        }
        if lo > hi {
            return UserLists::default();
        }
        let span = usize::try_from(hi - lo).unwrap_or(usize::MAX).saturating_add(1);
        if span > 4 * rows + 1024 {
            return self.merged_by_sorting();
        }
        // Each symbol's slot: where its users start, and its count of references.
        let mut starts = vec![0u32; span + 1];
        let mut fan_in = vec![0u32; span];
        for f in self.by_file.values() {
            for &(t, _) in f.pairs.iter() {
                starts[(t - lo) as usize + 1] += 1;
            }
            for &(t, n) in f.counts.iter() {
                fan_in[(t - lo) as usize] += n;
            }
        }
        for i in 0..span {
            starts[i + 1] += starts[i];
        }
        let mut next = starts.clone();
        let mut users = vec![0i64; starts[span] as usize];
        for f in self.by_file.values() {
            for &(t, u) in f.pairs.iter() {
                let at = &mut next[(t - lo) as usize];
                users[*at as usize] = u;
                *at += 1;
            }
        }
        // Each symbol's users sorted and each once, closed up; the symbols that have any.
        let mut out = UserLists { users: Vec::new(), ..UserLists::default() };
        let mut kept = 0usize;
        for slot in 0..span {
            let (from, to) = (starts[slot] as usize, starts[slot + 1] as usize);
            if from == to {
                continue;
            }
            users[from..to].sort_unstable();
            out.symbols.push(lo + slot as i64);
            out.starts.push(kept as u32);
            let mut last = None;
            for i in from..to {
                if last != Some(users[i]) {
                    last = Some(users[i]);
                    users[kept] = users[i];
                    kept += 1;
                }
            }
        }
        out.starts.push(kept as u32);
        users.truncate(kept);
        out.users = users;
        out.fan_in = fan_in.iter().enumerate().filter(|(_, n)| **n > 0).map(|(i, n)| (lo + i as i64, *n)).collect();
        out
    }

    /// `merged` by one sort of every pair.
    fn merged_by_sorting(&self) -> UserLists {
        let mut pairs: Vec<(i64, i64)> = Vec::with_capacity(self.by_file.values().map(|f| f.pairs.len()).sum());
        let mut counts: Vec<(i64, u32)> = Vec::with_capacity(self.by_file.values().map(|f| f.counts.len()).sum());
        for f in self.by_file.values() {
            pairs.extend_from_slice(&f.pairs);
            counts.extend_from_slice(&f.counts);
        }
        pairs.sort_unstable();
        pairs.dedup();
        UserLists { fan_in: summed(counts), ..UserLists::from_pairs(&pairs) }
    }
}

/// The symbols' users as lists by symbol (`UsersCache::merged`).
#[derive(Default, Debug, PartialEq)]
pub(super) struct UserLists {
    /// The symbols that have users, ascending; `starts[i]..starts[i + 1]` are `symbols[i]`'s
    /// in `users`, ascending.
    pub(super) symbols: Vec<i64>,
    pub(super) starts: Vec<u32>,
    pub(super) users: Vec<i64>,
    /// How many references each symbol has (imports left out), ascending by symbol.
    pub(super) fan_in: Vec<(i64, u32)>,
}

impl UserLists {
    /// From (symbol, user) pairs sorted and each once; no counts.
    pub(super) fn from_pairs(pairs: &[(i64, i64)]) -> UserLists {
        let mut out = UserLists { users: Vec::with_capacity(pairs.len()), ..UserLists::default() };
        for &(symbol, user) in pairs {
            if out.symbols.last() != Some(&symbol) {
                out.symbols.push(symbol);
                out.starts.push(out.users.len() as u32);
            }
            out.users.push(user);
        }
        out.starts.push(out.users.len() as u32);
        out
    }
}

/// (symbol, count) rows sorted by symbol, each symbol once with its counts added.
fn summed(mut counts: Vec<(i64, u32)>) -> Vec<(i64, u32)> {
    counts.sort_unstable();
    let mut out: Vec<(i64, u32)> = Vec::with_capacity(counts.len());
    for (t, n) in counts {
        match out.last_mut() {
            Some((last, m)) if *last == t => *m += n,
            _ => out.push((t, n)),
        }
    }
    out
}

/// One file's part of deciding which method overrides which (`Store::override_candidates`).
#[derive(Default)]
pub(super) struct FileMethods {
    pub(super) methods: Vec<store::MethodRow>,
    /// The types the file's references extend or implement.
    pub(super) supertypes: Vec<i64>,
    /// The file's types by name.
    pub(super) types: Vec<(i64, String)>,
}

/// The override candidates by file.
pub(super) type MethodsCache = ByFile<FileMethods>;

impl MethodsCache {
    /// The rows brought up to the index at `stamp`.
    pub(super) fn update(&mut self, store: &Store, stamp: &Stamp, files: &[(FileRow, u64)]) -> Result<(), store::Error> {
        let group = |rows: store::OverrideRows| {
            let mut by_file: HashMap<i64, FileMethods> = HashMap::default();
            for (file, m) in rows.methods {
                by_file.entry(file).or_default().methods.push(m);
            }
            for (file, t) in rows.supertypes {
                by_file.entry(file).or_default().supertypes.push(t);
            }
            for (file, id, name) in rows.types {
                by_file.entry(file).or_default().types.push((id, name));
            }
            by_file
        };
        let all = || Ok(group(store.override_candidates(None)?));
        let one = |file| Ok(group(store.override_candidates(Some(file))?).remove(&file));
        self.refresh(stamp, files, all, one)
    }

    /// Every method, and the names of the types that some reference extends or implements.
    pub(super) fn merged(&self) -> (Vec<&store::MethodRow>, HashMap<i64, &str>) {
        let methods = self.by_file.values().flat_map(|f| f.methods.iter()).collect();
        let supertypes: HashSet<i64> = self.by_file.values().flat_map(|f| f.supertypes.iter().copied()).collect();
        let names = self
            .by_file
            .values()
            .flat_map(|f| f.types.iter())
            .filter(|(id, _)| supertypes.contains(id))
            .map(|(id, name)| (*id, name.as_str()))
            .collect();
        (methods, names)
    }
}

/// Symbols a query of the symbols' rows picks, by file: the symbols marked as tests wherever
/// they are (`Store::marked_tests`), the callers of MyBatis statements by their ids
/// (`Store::marked_with`).
pub(super) type IdsCache = ByFile<Box<[i64]>>;

impl IdsCache {
    /// The ids brought up to the index at `stamp`. `read` gives (file, symbol) rows of one
    /// file, or of every file for None.
    pub(super) fn update(
        &mut self,
        stamp: &Stamp,
        files: &[(FileRow, u64)],
        read: impl Fn(Option<i64>) -> Result<Vec<(i64, i64)>, store::Error>,
    ) -> Result<(), store::Error> {
        let all = || {
            let mut by_file: HashMap<i64, Vec<i64>> = HashMap::default();
            for (file, id) in read(None)? {
                by_file.entry(file).or_default().push(id);
            }
            Ok(by_file.into_iter().map(|(file, ids)| (file, ids.into_boxed_slice())).collect())
        };
        let one = |file| {
            let ids: Box<[i64]> = read(Some(file))?.into_iter().map(|(_, id)| id).collect();
            Ok((!ids.is_empty()).then_some(ids))
        };
        self.refresh(stamp, files, all, one)
    }

    /// Every id, in no particular order.
    pub(super) fn ids(&self) -> impl Iterator<Item = i64> + '_ {
        self.by_file.values().flat_map(|ids| ids.iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A users' cache of these files: (file, [(symbol, user)], [symbol referenced]).
    fn users(files: &[(i64, &[(i64, i64)], &[i64])]) -> UsersCache {
        let mut cache = UsersCache::default();
        for (file, pairs, targets) in files {
            cache.by_file.insert(*file, FileUsers::of(pairs.to_vec(), targets.to_vec()));
        }
        cache
    }

    #[test]
    fn users_merged_by_counting_are_those_merged_by_sorting() {
        // Symbol 7 is used from two files, by 40 and 41 in file 1 (41 twice) and by 12 in
        // file 2; symbol 9 only by a file-level reference (no user, a count).
        let cache = users(&[(1, &[(7, 41), (7, 40), (7, 41), (3, 40)], &[7, 7, 7, 3]), (2, &[(7, 12), (5, 12)], &[7, 5, 9])]);
        let merged = cache.merged();
        assert_eq!(
            merged,
            UserLists {
                symbols: vec![3, 5, 7],
                starts: vec![0, 1, 2, 5],
                users: vec![40, 12, 12, 40, 41],
                fan_in: vec![(3, 1), (5, 1), (7, 4), (9, 1)],
            }
        );
        assert_eq!(cache.merged_by_sorting(), merged);
        // Ids spread over more than four times the rows: sorted instead, the same lists.
        let sparse = users(&[(1, &[(7, 40)], &[7]), (2, &[(1_000_000, 12), (7, 12)], &[1_000_000, 7])]);
        let lists = sparse.merged();
        assert_eq!((lists.symbols.as_slice(), lists.users.as_slice()), ([7, 1_000_000].as_slice(), [12, 40, 12].as_slice()));
        assert_eq!(lists.fan_in, [(7, 2), (1_000_000, 1)]);
        assert_eq!(users(&[]).merged(), UserLists::default());
    }
}
