//! The graphs' rows by file, kept across index generations so that a save re-reads only
//! the files it changed. Must not build graphs (that is `crate::graph`).

use std::collections::{HashMap, HashSet};

use crate::model::{EdgeRow, FileRow, SymbolRow};
use crate::store::{self, Stamp, Store};

/// What the dependency graphs are built from, by file (edge rows and symbol rows), as of
/// one index (id) and generation.
#[derive(Default)]
pub(super) struct EdgeCache {
    stamp: Stamp,
    pub(super) by_file: HashMap<i64, FileRows>,
}

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

impl EdgeCache {
    /// Brings the rows up to the index at `stamp`: files gone leave, files whose references
    /// or symbols changed since are read again; a different index, or changes in more than a
    /// quarter of the files (and more than 256), mean one read of everything.
    pub(super) fn refresh(&mut self, store: &Store, stamp: &Stamp, files: &[(FileRow, u64)]) -> Result<(), store::Error> {
        if self.stamp == *stamp {
            return Ok(());
        }
        let since = self.stamp.generation;
        let changed: Vec<i64> = if self.stamp.index_id == stamp.index_id && stamp.generation > since {
            files.iter().filter(|(_, g)| *g > since).map(|(f, _)| f.id).collect()
        } else {
            files.iter().map(|(f, _)| f.id).collect()
        };
        tracing::debug!(changed = changed.len(), files = files.len(), from = since, to = stamp.generation, "edge cache refresh");
        if changed.len() > 256 && changed.len() * 4 > files.len() {
            let mut by_file: HashMap<i64, (Vec<CachedEdge>, Vec<CachedSymbol>)> = HashMap::default();
            for row in store.graph_edges(None)? {
                by_file.entry(row.file).or_default().0.push(CachedEdge::of(&row));
            }
            for row in store.graph_symbols(None)? {
                by_file.entry(row.file).or_default().1.push(CachedSymbol::of(&row));
            }
            self.by_file = by_file
                .into_iter()
                .map(|(file, (edges, symbols))| (file, FileRows { edges: edges.into_boxed_slice(), symbols: symbols.into_boxed_slice() }))
                .collect();
        } else {
            let present: HashSet<i64> = files.iter().map(|(f, _)| f.id).collect();
            self.by_file.retain(|f, _| present.contains(f));
            for file in changed {
                let edges: Box<[CachedEdge]> = store.graph_edges(Some(file))?.iter().map(CachedEdge::of).collect();
                let symbols: Box<[CachedSymbol]> = store.graph_symbols(Some(file))?.iter().map(CachedSymbol::of).collect();
                if edges.is_empty() && symbols.is_empty() {
                    self.by_file.remove(&file);
                } else {
                    self.by_file.insert(file, FileRows { edges, symbols });
                }
            }
        }
        self.stamp = stamp.clone();
        Ok(())
    }
}
