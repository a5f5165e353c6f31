//! A reference row as the writer is about to write it (`RefRow`), the key that says two
//! rows are the same but for the line (`RefKey`), and a changed file's old rows read as keys
//! (`OldRefs`, `old_refs`) for `Writer::write_file_refs` to match with its new ones.
//!
//! Owns the row's columns in key order and how a key is made from either side (a row about
//! to be written, SQLite's stored values), which must agree. It must not decide ids or
//! which rows are kept (`ref_ids` does), nor write (the writer in `store` does).

use rusqlite::Transaction;

use super::{encode_receiver, Resolved, Result, FLAG_BLANKET, FLAG_GLOB, FLAG_REEXPORT, FLAG_STATIC};
use crate::model::SymbolId;

/// A file whose references are written over its old ones (`Writer::write_file_refs`): a new
/// reference equal to an old one but for the line keeps that row (an update of its line at
/// most), and the old ones not kept go, those past the last new one in
/// `Writer::finish_rewrites`. The ids are in the file's order, as a fresh build's are, but
/// not the same numbers.
#[derive(Default)]
pub(super) struct Rewrite {
    /// The lowest id still to write.
    pub next: i64,
    /// The old rows: read as the file is stored (`Writer::read_old_refs`), or else when its
    /// first new reference is written.
    pub old: Option<OldRefs>,
}

/// A file's old references in id order (as the table gives them: ids grow through a
/// file), each taken out when it is kept, written over or deleted. A sorted list, not a map:
/// a file's tens of thousands of rows are read in order, and a map cost a hash and an
/// insertion each.
#[derive(Default)]
pub(super) struct OldRefs {
    ids: Vec<i64>,
    rows: Vec<Option<OldRef>>,
}

impl OldRefs {
    fn at(&self, id: i64) -> Option<usize> {
        self.ids.binary_search(&id).ok()
    }

    pub fn remove(&mut self, id: i64) -> Option<OldRef> {
        self.at(id).and_then(|i| self.rows[i].take())
    }

    /// The rows still here, from id `from` on, in order.
    pub fn from(&self, from: i64) -> impl Iterator<Item = (i64, &OldRef)> {
        let start = self.ids.partition_point(|&id| id < from);
        self.ids[start..].iter().zip(&self.rows[start..]).filter_map(|(&id, row)| Some((id, row.as_ref()?)))
    }
}

/// A stored reference: its key (`RefKey`) and its line.
pub(super) struct OldRef {
    pub key: u128,
    pub line: i64,
}

/// A reference row's columns but its id, file, line and name keys (made from the name,
/// receiver and subject), as about to be written.
pub(super) struct RefRow<'a> {
    pub enclosing: Option<i64>,
    pub source: Option<i64>,
    pub kind: i64,
    pub name: &'a str,
    pub simple: Option<&'a str>,
    pub receiver: Option<&'a str>,
    pub subject: Option<&'a str>,
    pub alias: Option<&'a str>,
    pub flags: i64,
    pub target: Option<i64>,
    pub external: Option<i64>,
    pub confidence: i64,
    pub args: Option<&'a str>,
}

impl RefRow<'_> {
    /// The row's key (`RefKey`) with its other candidates, sorted and without repeats.
    pub fn key(&self, alts: &[i64], key: &mut RefKey) -> u128 {
        key.start();
        key.maybe_int(self.enclosing);
        key.maybe_int(self.source);
        key.int(self.kind);
        key.text(self.name.as_bytes());
        key.maybe_text(self.simple);
        key.maybe_text(self.receiver);
        key.maybe_text(self.subject);
        key.maybe_text(self.alias);
        key.int(self.flags);
        key.maybe_int(self.target);
        key.maybe_int(self.external);
        key.int(self.confidence);
        key.maybe_text(self.args);
        key.finish(alts)
    }
}

/// What says that an old reference row and a new one are the same but for the line, without
/// keeping the old row's strings (a 400-file update read 60,000 rows as strings to compare
/// them once): a 128-bit hash (XXH3) of the columns `RefRow` holds, in its order, each
/// tagged with its type, and then of the other candidates (`ref_alts`). Made alike from the
/// stored row (`old_refs`, from SQLite's values) and from the row about to be written. Two
/// different rows share a key with a chance of 2^-128; a shared key keeps the old row,
/// with its line set to the new one's.
#[derive(Default)]
pub(super) struct RefKey {
    bytes: Vec<u8>,
}

impl RefKey {
    fn start(&mut self) {
        self.bytes.clear();
    }

    fn null(&mut self) {
        self.bytes.push(0);
    }

    fn int(&mut self, v: i64) {
        self.bytes.push(1);
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    fn text(&mut self, v: &[u8]) {
        self.bytes.push(2);
        self.bytes.extend_from_slice(&(v.len() as u64).to_le_bytes());
        self.bytes.extend_from_slice(v);
    }

    /// A nullable column, as SQLite gives it back (`value`).
    fn maybe_int(&mut self, v: Option<i64>) {
        match v {
            Some(v) => self.int(v),
            None => self.null(),
        }
    }

    fn maybe_text(&mut self, v: Option<&str>) {
        match v {
            Some(v) => self.text(v.as_bytes()),
            None => self.null(),
        }
    }

    /// A stored value: SQLite gives back what was written (integers in integer columns,
    /// text in text ones); anything else is tagged apart, so it matches no new row.
    fn value(&mut self, v: rusqlite::types::ValueRef<'_>) {
        use rusqlite::types::ValueRef;
        match v {
            ValueRef::Null => self.null(),
            ValueRef::Integer(i) => self.int(i),
            ValueRef::Text(t) => self.text(t),
            ValueRef::Real(_) | ValueRef::Blob(_) => self.bytes.push(3),
        }
    }

    /// The key of the row so far with its other candidates (sorted, without repeats).
    fn finish(&mut self, alts: &[i64]) -> u128 {
        if !alts.is_empty() {
            self.bytes.push(4);
            for alt in alts {
                self.bytes.extend_from_slice(&alt.to_le_bytes());
            }
        }
        xxhash_rust::xxh3::xxh3_128(&self.bytes)
    }
}

/// The row `insert_refs` writes for a reference (`external` is its external name's id).
pub(super) fn ref_row<'a>(
    enclosing: Option<SymbolId>,
    reference: &'a crate::model::Reference,
    res: &Resolved,
    external: Option<i64>,
) -> RefRow<'a> {
    let flags = (reference.glob as i64) * FLAG_GLOB
        + (reference.is_static as i64) * FLAG_STATIC
        + (reference.reexport as i64) * FLAG_REEXPORT
        + (reference.blanket as i64) * FLAG_BLANKET;
    RefRow {
        enclosing,
        source: res.source,
        kind: reference.kind.code(),
        name: &reference.name,
        simple: Some(reference.simple_name()).filter(|s| *s != reference.name),
        receiver: encode_receiver(&reference.receiver),
        subject: reference.subject.as_deref(),
        alias: reference.alias.as_deref(),
        flags,
        target: res.target,
        external,
        confidence: res.confidence.code(),
        args: reference.args.as_deref(),
    }
}

/// A file's stored references in id order (`Rewrite::old`), as keys (`RefKey`).
pub(super) fn old_refs(tx: &Transaction, lo: i64, hi: i64) -> Result<OldRefs> {
    // The other candidates first, so that each row's key is made as the row is read.
    let mut alts: Vec<(i64, i64)> = Vec::new();
    let mut stmt = tx.prepare_cached("SELECT ref_id, target_id FROM ref_alts WHERE ref_id BETWEEN ?1 AND ?2 ORDER BY ref_id, target_id")?;
    let mut rows = stmt.query([lo, hi])?;
    while let Some(r) = rows.next()? {
        alts.push((r.get(0)?, r.get(1)?));
    }
    let mut out = OldRefs::default();
    let mut key = RefKey::default();
    // Columns 1 to 13 in `RefRow`'s order, as `RefRow::key` takes them.
    let mut stmt = tx.prepare_cached(
        "SELECT id, enclosing_id, source_id, kind, name, simple, receiver, subject, alias, flags, target_id, external_id, confidence, args, line
         FROM refs WHERE id BETWEEN ?1 AND ?2 ORDER BY id",
    )?;
    let mut rows = stmt.query([lo, hi])?;
    let mut next_alt = 0;
    let mut its_alts: Vec<i64> = Vec::new();
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        key.start();
        for column in 1..=13 {
            key.value(r.get_ref(column)?);
        }
        while alts.get(next_alt).is_some_and(|&(of, _)| of < id) {
            next_alt += 1;
        }
        its_alts.clear();
        while let Some(&(_, alt)) = alts.get(next_alt).filter(|(of, _)| *of == id) {
            its_alts.push(alt);
            next_alt += 1;
        }
        out.ids.push(id);
        out.rows.push(Some(OldRef { key: key.finish(&its_alts), line: r.get(14)? }));
    }
    Ok(out)
}
