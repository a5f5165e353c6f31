//! `symbols_rank`: FTS5's `bm25` for `symbols_fts`, the same score to the last bit, with
//! each row's length read from memory instead of the `symbols_fts_docsize` table.
//!
//! `bm25` reads a matching row's column sizes with one statement a row (a B-tree search and
//! a VDBE run each): on `java.base` a sentence's words match about 12,000 rows, and those
//! reads were 40% of the words' ranked search. The server keeps every row's total length
//! (`DocLengths`, one read of the docsize table per index generation) and hands it to its
//! connections (`Store::use_doc_lengths`); a row it does not hold (a connection that was
//! given none, a row written since) is measured as `bm25` measures it.
//!
//! `symbols_collect` and `Collected`: one pass over a query's matches that files each row's
//! instances of each phrase by column, from which `bm25` of any of those phrases under any
//! of those columns is made in Rust, to the same bits: a sentence's three searches (every
//! field, names alone, each word in names) in one pass, each phrase's matches counted from
//! the rows themselves rather than by a pass of their own (`xQueryPhrase`).
//!
//! Owns the functions' registration on a connection and their FFI; it must not rank in any
//! other way than `bm25` does: the tools' answers are held to it.

use std::ffi::{c_int, c_void};
use std::sync::{Arc, Mutex};

use rusqlite::ffi;
use rusqlite::Connection;

/// Every row's length in tokens (all columns), by rowid. Symbol ids are given in turn, so
/// the rowids are nearly dense: a length is read by its offset from the first rowid (a
/// binary search of 89,000 rowids was a sixth of the ranking's own time), unless they have
/// spread over more than four times their number.
#[derive(Default)]
pub struct DocLengths {
    /// The first rowid; `lengths[id - first]` when dense.
    first: i64,
    /// The rowids, when not dense (sorted); empty when dense.
    ids: Vec<i64>,
    /// Each row's length; `ABSENT` for a rowid of the dense range no row has.
    lengths: Vec<u32>,
    rows: usize,
}

const ABSENT: u32 = u32::MAX;

impl DocLengths {
    /// From the docsize table's rows: (rowid, the row's length, `total_size` of its `sz`).
    pub fn from_rows(mut rows: Vec<(i64, u32)>) -> DocLengths {
        rows.sort_unstable_by_key(|(id, _)| *id);
        let (Some(first), Some(last)) = (rows.first().map(|r| r.0), rows.last().map(|r| r.0)) else {
            return DocLengths::default();
        };
        let span = (last - first) as u64 + 1;
        if span <= 4 * rows.len() as u64 {
            let mut lengths = vec![ABSENT; span as usize];
            for (id, length) in &rows {
                lengths[(id - first) as usize] = *length;
            }
            DocLengths { first, ids: Vec::new(), lengths, rows: rows.len() }
        } else {
            let ids = rows.iter().map(|r| r.0).collect();
            let lengths = rows.iter().map(|r| r.1).collect();
            DocLengths { first, ids, lengths, rows: rows.len() }
        }
    }

    pub fn get(&self, id: i64) -> Option<u32> {
        if self.ids.is_empty() {
            let at = usize::try_from(id.checked_sub(self.first)?).ok()?;
            self.lengths.get(at).copied().filter(|n| *n != ABSENT)
        } else {
            self.ids.binary_search(&id).ok().map(|i| self.lengths[i])
        }
    }

    pub fn len(&self) -> usize {
        self.rows
    }

    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Heap bytes held.
    pub fn bytes(&self) -> usize {
        self.ids.capacity() * 8 + self.lengths.capacity() * 4
    }
}

/// The sum of a docsize blob's varints (FTS5's own encoding: 7 bits a byte, high bit set on
/// all but the last, at most 9 bytes), as `xColumnSize(-1)` sums the columns.
pub fn total_size(mut sz: &[u8]) -> u32 {
    let mut total: u32 = 0;
    while !sz.is_empty() {
        let mut n: u64 = 0;
        let mut used = 0;
        for (i, b) in sz.iter().enumerate().take(9) {
            used = i + 1;
            if i == 8 {
                n = (n << 8) | u64::from(*b);
                break;
            }
            n = (n << 7) | u64::from(b & 0x7f);
            if b & 0x80 == 0 {
                break;
            }
        }
        total = total.wrapping_add(n as u32);
        sz = &sz[used..];
    }
    total
}

/// What a connection's `symbols_rank` and `symbols_collect` read: the lengths (set per
/// index generation); and where `symbols_collect` files its rows.
#[derive(Default)]
pub struct Given {
    pub lengths: Option<Arc<DocLengths>>,
    /// Where `symbols_collect` puts the rows of the query it is called in (`Collected`).
    pub collect: Option<Collected>,
}

/// One pass over a query's matches (`symbols_collect`): each row's instances of each phrase
/// in each column, and its length. `bm25` of those phrases under any of those columns, with
/// any weights, is made from them (`Collected::best`), as `symbols_rank` would make it in
/// a query of its own: a sentence's search of every field, of names alone, and of each word
/// in names are one pass over the index instead of one each, and no phrase is counted by a
/// pass of its own.
#[derive(Default)]
pub struct Collected {
    pub phrases: usize,
    pub columns: usize,
    /// Rows and tokens in the table (`bm25`'s N and its average length's numerator).
    pub rows: i64,
    pub tokens: i64,
    pub ids: Vec<i64>,
    pub lengths: Vec<u32>,
    /// Row `i` holds `held[starts[i]..starts[i + 1]]`, by phrase and then column: only
    /// what it holds (a sentence of 75 words with their related words held 18 MB as a
    /// table of every phrase and column of every row).
    starts: Vec<u32>,
    held: Vec<Held>,
}

/// A row's instances of one phrase in one column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Held {
    pub phrase: u16,
    pub column: u16,
    pub count: u32,
}

impl Collected {
    /// An empty collection for a query of `phrases` phrases over `columns` columns (what a
    /// query that matches no row leaves).
    pub fn new(phrases: usize, columns: usize) -> Collected {
        Collected { phrases, columns, starts: vec![0], ..Collected::default() }
    }

    /// What row `i` (in `ids`' order) holds, by phrase and then column.
    pub fn held(&self, i: usize) -> &[Held] {
        &self.held[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// Files a row: its id and length, its instances being the entries pushed onto `held`
    /// since the last row (in any order): sorted, and those of one phrase and column added
    /// up, in place.
    fn end_row(&mut self, id: i64, length: u32) {
        let start = *self.starts.last().unwrap_or(&0) as usize;
        self.held[start..].sort_unstable();
        let mut kept = start;
        for i in start..self.held.len() {
            let h = self.held[i];
            if kept > start && (self.held[kept - 1].phrase, self.held[kept - 1].column) == (h.phrase, h.column) {
                self.held[kept - 1].count += h.count;
            } else {
                self.held[kept] = h;
                kept += 1;
            }
        }
        self.held.truncate(kept);
        self.ids.push(id);
        self.lengths.push(length);
        self.starts.push(self.held.len() as u32);
    }

    /// The rows of two passes over the same table, this one's phrases first and then
    /// `other`'s: what one pass of all the phrases, in that order, would have collected.
    /// Each pass's rows are in rowid order, as an FTS5 scan gives them.
    pub fn merge(self, other: Collected) -> Collected {
        assert_eq!(self.columns, other.columns, "passes over one table");
        assert!(self.phrases + other.phrases <= usize::from(u16::MAX), "phrases fit a u16");
        let shift = self.phrases as u16;
        let mut out = Collected::new(self.phrases + other.phrases, self.columns);
        out.rows = self.rows.max(other.rows);
        out.tokens = self.tokens.max(other.tokens);
        let n = self.ids.len() + other.ids.len();
        out.ids.reserve(n);
        out.lengths.reserve(n);
        out.starts.reserve(n);
        out.held.reserve(self.held.len() + other.held.len());
        let (mut i, mut j) = (0, 0);
        while i < self.ids.len() || j < other.ids.len() {
            let (a, b) = (self.ids.get(i), other.ids.get(j));
            let take_a = b.is_none_or(|b| a.is_some_and(|a| a <= b));
            let take_b = a.is_none_or(|a| b.is_some_and(|b| b <= a));
            let (id, length) = if take_a { (self.ids[i], self.lengths[i]) } else { (other.ids[j], other.lengths[j]) };
            if take_a {
                out.held.extend_from_slice(self.held(i));
                i += 1;
            }
            if take_b {
                out.held.extend(other.held(j).iter().map(|h| Held { phrase: h.phrase + shift, ..*h }));
                j += 1;
            }
            out.ids.push(id);
            out.lengths.push(length);
            out.starts.push(out.held.len() as u32);
        }
        out
    }

    /// Each phrase's weighted frequency in row `i`, phrase by phrase (those it holds under a
    /// weighted column): the instances' weights summed, which any order gives alike when
    /// they are sums of halves.
    fn frequencies<'a>(&'a self, i: usize, weights: &'a [Option<f64>]) -> impl Iterator<Item = (usize, f64)> + 'a {
        self.held(i).chunk_by(|a, b| a.phrase == b.phrase).filter_map(move |run| {
            let mut f = 0.0;
            let mut here = false;
            for h in run {
                if let Some(Some(w)) = weights.get(usize::from(h.column)) {
                    here = true;
                    f += w * f64::from(h.count);
                }
            }
            here.then_some((usize::from(run[0].phrase), f))
        })
    }

    /// The rows `bm25` ranks first for the query of `phrases` (ascending) under the columns
    /// whose weight is given (`None`: a column the query leaves out): the rows where one of
    /// them is, best first (ties by rowid, as SQLite's sorter keeps a scan's order), at most
    /// `limit`. The same scores as `symbols_rank` to the last bit when the weights are sums
    /// of halves (as 4, 1 and 0.5 are), whatever order it adds a row's instances in.
    pub fn best(&self, phrases: &[usize], weights: &[Option<f64>], limit: usize) -> Vec<i64> {
        debug_assert!(phrases.windows(2).all(|w| w[0] < w[1]), "phrases ascending");
        // Each phrase's place in `phrases`, if there.
        let mut place: Vec<Option<usize>> = vec![None; self.phrases];
        for (j, &phrase) in phrases.iter().enumerate() {
            place[phrase] = Some(j);
        }
        let mut hits = vec![0i64; phrases.len()];
        for i in 0..self.ids.len() {
            for (phrase, _) in self.frequencies(i, weights) {
                if let Some(j) = place[phrase] {
                    hits[j] += 1;
                }
            }
        }
        let idf: Vec<f64> = hits.iter().map(|&hits| idf(self.rows, hits)).collect();
        let avgdl = self.tokens as f64 / self.rows as f64;
        let mut scored: Vec<(f64, i64)> = Vec::new();
        for i in 0..self.ids.len() {
            let d = f64::from(self.lengths[i]);
            // In `phrases`' order; a phrase the row does not hold adds 0 to `bm25`'s sum:
            // left out, the same bits.
            let mut score = 0.0;
            let mut held = false;
            for (phrase, f) in self.frequencies(i, weights) {
                if let Some(j) = place[phrase] {
                    held = true;
                    score += term(idf[j], f, d, avgdl);
                }
            }
            if held {
                scored.push((-score, self.ids[i]));
            }
        }
        first(scored, limit)
    }

    /// `best(&[phrase], weights, limit)` for each phrase in turn, in one sweep over the rows.
    pub fn best_each(&self, weights: &[Option<f64>], limit: usize) -> Vec<Vec<i64>> {
        // Each phrase's rows, with its weighted frequency in each.
        let mut holding: Vec<Vec<(usize, f64)>> = vec![Vec::new(); self.phrases];
        for i in 0..self.ids.len() {
            for (phrase, f) in self.frequencies(i, weights) {
                holding[phrase].push((i, f));
            }
        }
        let avgdl = self.tokens as f64 / self.rows as f64;
        holding
            .into_iter()
            .map(|rows| {
                let idf = idf(self.rows, rows.len() as i64);
                let scored = rows.iter().map(|&(i, f)| (-(0.0 + term(idf, f, f64::from(self.lengths[i]), avgdl)), self.ids[i])).collect();
                first(scored, limit)
            })
            .collect()
    }
}

const K1: f64 = 1.2;
const B: f64 = 0.75;

/// `bm25`'s IDF of a phrase `hits` of `rows` rows hold.
fn idf(rows: i64, hits: i64) -> f64 {
    let value = (((rows - hits) as f64 + 0.5) / (hits as f64 + 0.5)).ln();
    if value <= 0.0 {
        1e-6
    } else {
        value
    }
}

/// One phrase's part of `bm25`'s sum for a row `d` tokens long that holds it `f` times
/// (weighted), as `fts5Bm25Function` computes it.
fn term(idf: f64, f: f64, d: f64, avgdl: f64) -> f64 {
    idf * ((f * (K1 + 1.0)) / (f + K1 * (1.0 - B + B * d / avgdl)))
}

/// The ids of the `limit` best (lowest) scores, best first; ties by id, as SQLite's sorter
/// keeps a scan's rowid order.
fn first(mut scored: Vec<(f64, i64)>, limit: usize) -> Vec<i64> {
    let by = |a: &(f64, i64), b: &(f64, i64)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
    if scored.len() > limit {
        scored.select_nth_unstable_by(limit, by);
        scored.truncate(limit);
    }
    scored.sort_unstable_by(by);
    scored.into_iter().map(|(_, id)| id).collect()
}

pub type Slot = Mutex<Given>;

/// The connection's FTS5 API (version 2 or later).
///
/// # Safety
/// The pointer is valid while the connection is open.
unsafe fn fts5_api(conn: &Connection) -> rusqlite::Result<*mut ffi::fts5_api> {
    let db = conn.handle();
    let mut api: *mut ffi::fts5_api = std::ptr::null_mut();
    let mut stmt: *mut ffi::sqlite3_stmt = std::ptr::null_mut();
    let rc = ffi::sqlite3_prepare_v2(db, c"SELECT fts5(?1)".as_ptr(), -1, &mut stmt, std::ptr::null_mut());
    if rc != ffi::SQLITE_OK {
        return Err(rusqlite::Error::SqliteFailure(ffi::Error::new(rc), Some("preparing fts5(?1)".into())));
    }
    ffi::sqlite3_bind_pointer(stmt, 1, (&mut api as *mut *mut ffi::fts5_api).cast(), c"fts5_api_ptr".as_ptr(), None);
    ffi::sqlite3_step(stmt);
    ffi::sqlite3_finalize(stmt);
    if api.is_null() || (*api).iVersion < 2 {
        return Err(rusqlite::Error::SqliteFailure(ffi::Error::new(ffi::SQLITE_ERROR), Some("no FTS5 API".into())));
    }
    Ok(api)
}

/// The signature FTS5 calls an auxiliary function by.
type AuxFunction = unsafe extern "C" fn(
    *const ffi::Fts5ExtensionApi,
    *mut ffi::Fts5Context,
    *mut ffi::sqlite3_context,
    c_int,
    *mut *mut ffi::sqlite3_value,
);

/// Registers `symbols_rank` and `symbols_collect` on the connection; `slot` holds the lengths
/// they read and where `symbols_collect` files its rows.
pub fn register(conn: &Connection, slot: &Arc<Slot>) -> rusqlite::Result<()> {
    let functions: [(&std::ffi::CStr, AuxFunction); 2] = [(c"symbols_rank", symbols_rank), (c"symbols_collect", symbols_collect)];
    // SAFETY: the handle is this open connection's; the statement is finalized before the
    // function returns; `fts5_api_ptr` is the pointer type FTS5 documents for `fts5(?1)`.
    // Each function holds its own count of the slot, which FTS5 drops with the connection.
    unsafe {
        let api = fts5_api(conn)?;
        let create = (*api).xCreateFunction.expect("FTS5 API v2 has xCreateFunction");
        for (name, function) in functions {
            let data = Arc::into_raw(slot.clone()) as *mut c_void;
            let rc = create(api, name.as_ptr(), data, Some(function), Some(drop_slot));
            if rc != ffi::SQLITE_OK {
                drop(Arc::from_raw(data as *const Slot));
                return Err(rusqlite::Error::SqliteFailure(ffi::Error::new(rc), Some(format!("registering {name:?}"))));
            }
        }
    }
    Ok(())
}

unsafe extern "C" fn drop_slot(data: *mut c_void) {
    drop(Arc::from_raw(data as *const Slot));
}

/// What one query's rows share: `bm25`'s average length and IDFs, the lengths, and the
/// phrase frequencies' scratch.
struct Query {
    avgdl: f64,
    idf: Vec<f64>,
    freq: Vec<f64>,
    lengths: Option<Arc<DocLengths>>,
}

unsafe extern "C" fn drop_query(data: *mut c_void) {
    drop(Box::from_raw(data as *mut Query));
}

unsafe extern "C" fn count_row(_: *const ffi::Fts5ExtensionApi, _: *mut ffi::Fts5Context, data: *mut c_void) -> c_int {
    *(data as *mut i64) += 1;
    ffi::SQLITE_OK
}

/// `fts5Bm25GetData`: the query's shared values, made on its first row.
unsafe fn query_data(api: &ffi::Fts5ExtensionApi, fts: *mut ffi::Fts5Context) -> Result<*mut Query, c_int> {
    let existing = (api.xGetAuxdata.expect("xGetAuxdata"))(fts, 0) as *mut Query;
    if !existing.is_null() {
        return Ok(existing);
    }
    let phrases = (api.xPhraseCount.expect("xPhraseCount"))(fts);
    let mut rows: i64 = 0;
    let mut tokens: i64 = 0;
    let rc = (api.xRowCount.expect("xRowCount"))(fts, &mut rows);
    if rc != ffi::SQLITE_OK {
        return Err(rc);
    }
    let rc = (api.xColumnTotalSize.expect("xColumnTotalSize"))(fts, -1, &mut tokens);
    if rc != ffi::SQLITE_OK {
        return Err(rc);
    }
    let slot = (api.xUserData.expect("xUserData"))(fts) as *const Slot;
    let lengths = match (*slot).lock() {
        Ok(g) => g.lengths.clone(),
        Err(_) => None,
    };
    let mut idf = Vec::with_capacity(phrases.max(0) as usize);
    for i in 0..phrases {
        let mut hits: i64 = 0;
        let rc = (api.xQueryPhrase.expect("xQueryPhrase"))(fts, i, (&mut hits as *mut i64).cast(), Some(count_row));
        if rc != ffi::SQLITE_OK {
            return Err(rc);
        }
        let value = (((rows - hits) as f64 + 0.5) / (hits as f64 + 0.5)).ln();
        idf.push(if value <= 0.0 { 1e-6 } else { value });
    }
    let query = Box::into_raw(Box::new(Query { avgdl: tokens as f64 / rows as f64, freq: vec![0.0; idf.len()], idf, lengths }));
    let rc = (api.xSetAuxdata.expect("xSetAuxdata"))(fts, query.cast(), Some(drop_query));
    if rc != ffi::SQLITE_OK {
        // FTS5 has called the destructor on a failure.
        return Err(rc);
    }
    Ok(query)
}

/// `fts5Bm25Function`, with the row's length from the lengths when they hold the row.
unsafe extern "C" fn symbols_rank(
    api: *const ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    ctx: *mut ffi::sqlite3_context,
    n_val: c_int,
    values: *mut *mut ffi::sqlite3_value,
) {
    let api = &*api;
    let query = match query_data(api, fts) {
        Ok(q) => &mut *q,
        Err(rc) => return ffi::sqlite3_result_error_code(ctx, rc),
    };
    query.freq.iter_mut().for_each(|f| *f = 0.0);
    let mut inst: c_int = 0;
    let rc = (api.xInstCount.expect("xInstCount"))(fts, &mut inst);
    if rc != ffi::SQLITE_OK {
        return ffi::sqlite3_result_error_code(ctx, rc);
    }
    for i in 0..inst {
        let (mut phrase, mut column, mut offset): (c_int, c_int, c_int) = (0, 0, 0);
        let rc = (api.xInst.expect("xInst"))(fts, i, &mut phrase, &mut column, &mut offset);
        if rc != ffi::SQLITE_OK {
            return ffi::sqlite3_result_error_code(ctx, rc);
        }
        let w = if n_val > column { ffi::sqlite3_value_double(*values.add(column as usize)) } else { 1.0 };
        query.freq[phrase as usize] += w;
    }
    let rowid = (api.xRowid.expect("xRowid"))(fts);
    let known = if (api.xColumnCount.expect("xColumnCount"))(fts) == 4 { query.lengths.as_ref().and_then(|l| l.get(rowid)) } else { None };
    let d = match known {
        Some(n) => f64::from(n),
        None => {
            let mut n: c_int = 0;
            let rc = (api.xColumnSize.expect("xColumnSize"))(fts, -1, &mut n);
            if rc != ffi::SQLITE_OK {
                return ffi::sqlite3_result_error_code(ctx, rc);
            }
            f64::from(n)
        }
    };
    let mut score = 0.0;
    for (idf, freq) in query.idf.iter().zip(&query.freq) {
        score += term(*idf, *freq, d, query.avgdl);
    }
    ffi::sqlite3_result_double(ctx, -score);
}

/// `symbols_collect(fts)`: files the row into the slot's `Collected` (its instances by
/// phrase and column, and its length, read as `symbols_rank` reads it); returns NULL.
unsafe extern "C" fn symbols_collect(
    api: *const ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    ctx: *mut ffi::sqlite3_context,
    _: c_int,
    _: *mut *mut ffi::sqlite3_value,
) {
    let api = &*api;
    let slot = (api.xUserData.expect("xUserData"))(fts) as *const Slot;
    let Ok(mut given) = (*slot).lock() else {
        return ffi::sqlite3_result_error_code(ctx, ffi::SQLITE_MISUSE);
    };
    let lengths = given.lengths.clone();
    let Some(out) = given.collect.as_mut() else {
        return ffi::sqlite3_result_error_code(ctx, ffi::SQLITE_MISUSE);
    };
    let columns = (api.xColumnCount.expect("xColumnCount"))(fts).max(0) as usize;
    if out.ids.is_empty() {
        let phrases = (api.xPhraseCount.expect("xPhraseCount"))(fts).max(0) as usize;
        if (phrases, columns) != (out.phrases, out.columns) || phrases > usize::from(u16::MAX) {
            return ffi::sqlite3_result_error(ctx, c"symbols_collect: not the phrases and columns expected".as_ptr(), -1);
        }
        let rc = (api.xRowCount.expect("xRowCount"))(fts, &mut out.rows);
        if rc != ffi::SQLITE_OK {
            return ffi::sqlite3_result_error_code(ctx, rc);
        }
        let rc = (api.xColumnTotalSize.expect("xColumnTotalSize"))(fts, -1, &mut out.tokens);
        if rc != ffi::SQLITE_OK {
            return ffi::sqlite3_result_error_code(ctx, rc);
        }
    }
    let mut inst: c_int = 0;
    let rc = (api.xInstCount.expect("xInstCount"))(fts, &mut inst);
    if rc != ffi::SQLITE_OK {
        return ffi::sqlite3_result_error_code(ctx, rc);
    }
    for i in 0..inst {
        let (mut phrase, mut column, mut offset): (c_int, c_int, c_int) = (0, 0, 0);
        let rc = (api.xInst.expect("xInst"))(fts, i, &mut phrase, &mut column, &mut offset);
        if rc != ffi::SQLITE_OK {
            return ffi::sqlite3_result_error_code(ctx, rc);
        }
        out.held.push(Held { phrase: phrase as u16, column: column as u16, count: 1 });
    }
    let rowid = (api.xRowid.expect("xRowid"))(fts);
    let known = if columns == 4 { lengths.as_ref().and_then(|l| l.get(rowid)) } else { None };
    let d = match known {
        Some(n) => n,
        None => {
            let mut n: c_int = 0;
            let rc = (api.xColumnSize.expect("xColumnSize"))(fts, -1, &mut n);
            if rc != ffi::SQLITE_OK {
                return ffi::sqlite3_result_error_code(ctx, rc);
            }
            n.max(0) as u32
        }
    };
    out.end_row(rowid, d);
    ffi::sqlite3_result_null(ctx);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An in-memory `symbols_fts` (the index's own definition) with these rows
    /// (`(rowid, words, owner, doc, place), ...`), and our functions registered on it.
    fn symbols_fts(rows: &str) -> (Connection, Arc<Slot>) {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(&format!(
            "CREATE VIRTUAL TABLE symbols_fts USING fts5(words, owner, doc, place, tokenize = 'unicode61', content = '', contentless_delete = 1);
             INSERT INTO symbols_fts(rowid, words, owner, doc, place) VALUES {rows};"
        ))
        .unwrap();
        let slot = Arc::new(Slot::default());
        register(&conn, &slot).unwrap();
        (conn, slot)
    }

    /// Every row's length, as the server reads them (`Store::doc_lengths`).
    fn lengths_in(conn: &Connection) -> DocLengths {
        let mut stmt = conn.prepare("SELECT id, sz FROM symbols_fts_docsize").unwrap();
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, total_size(r.get_ref(1)?.as_blob()?)))).unwrap().map(Result::unwrap).collect();
        DocLengths::from_rows(rows)
    }

    /// (rowid, bm25, symbols_rank) of every row matching, best first by bm25.
    fn scores(conn: &Connection, expression: &str) -> Vec<(i64, f64, f64)> {
        let mut stmt = conn
            .prepare(
                "SELECT rowid, bm25(symbols_fts, 4.0, 1.0, 1.0, 0.5), symbols_rank(symbols_fts, 4.0, 1.0, 1.0, 0.5)
                 FROM symbols_fts WHERE symbols_fts MATCH ?1 ORDER BY 2, 1",
            )
            .unwrap();
        stmt.query_map([expression], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect()
    }

    #[test]
    fn the_rank_is_bm25_with_lengths_from_memory_or_from_the_index() {
        let (conn, slot) = symbols_fts(
            "(7, 'order service', 'shop', 'creates and checks an order', 'shop service order'),
             (9, 'check stock', 'order service', 'checks the stock of every item of an order before it is created', 'shop'),
             (12, 'create', 'order', '', 'shop order'),
             (30, 'stock', 'inventory', 'what is left', 'shop inventory')",
        );
        let lengths = lengths_in(&conn);
        // Each row's words, owner, doc and place, in tokens.
        assert_eq!([7, 9, 12, 30, 31].map(|id| lengths.get(id)), [Some(11), Some(18), Some(4), Some(7), None]);
        for expression in ["{words owner doc place} : (\"creat\"* OR \"check\"* OR \"order\"*)", "words : \"stock\"*", "\"order\""] {
            let from_index = scores(&conn, expression);
            slot.lock().unwrap().lengths = Some(Arc::new(lengths_in(&conn)));
            let from_memory = scores(&conn, expression);
            slot.lock().unwrap().lengths = None;
            for (id, bm25, rank) in from_index.iter().chain(&from_memory) {
                assert_eq!(bm25.to_bits(), rank.to_bits(), "{expression}: row {id}");
            }
            assert_eq!(from_index, from_memory);
        }
        let order = |e: &str| scores(&conn, e).into_iter().map(|(id, _, _)| id).collect::<Vec<_>>();
        assert_eq!(order("{words owner doc place} : (\"creat\"* OR \"check\"* OR \"order\"*)"), [7, 9, 12]);
        assert_eq!(order("words : \"stock\"*"), [30, 9]);
        // The lengths given are the ones read: row 9 said to be 1 token long ranks first.
        slot.lock().unwrap().lengths = Some(Arc::new(DocLengths::from_rows(vec![(9, 1)])));
        let told = scores(&conn, "words : \"stock\"*");
        assert_eq!(told.iter().map(|(id, bm25, _)| (*id, *bm25)).collect::<Vec<_>>(), [(30, told[0].1), (9, told[1].1)]);
        let mut by_rank = told.clone();
        by_rank.sort_by(|a, b| a.2.total_cmp(&b.2));
        assert_eq!(by_rank.iter().map(|(id, _, _)| *id).collect::<Vec<_>>(), [9, 30]);
    }

    #[test]
    fn one_pass_ranks_each_query_of_its_phrases_as_symbols_rank_does() {
        let (conn, slot) = symbols_fts(
            "(7, 'order service', 'shop', 'creates and checks an order', 'shop service order'),
             (9, 'check stock', 'order service', 'checks the stock of every item of an order before it is created', 'shop'),
             (12, 'create', 'order', '', 'shop order'),
             (30, 'stock', 'inventory', 'what is left', 'shop inventory'),
             (31, 'stock', 'inventory', 'what is left', 'shop inventory'),
             (33, 'check', 'order check', 'checked orders checked', 'shop check'),
             (35, 'stock', 'inventory', 'what is left', 'shop inventory'),
             (40, 'price', 'catalog', 'what an item costs', 'shop catalog')",
        );
        let phrases = "(\"creat\"* OR \"check\"* OR \"order\"* OR \"stock\"*)";
        let sql = |expression: &str, weights: &str, limit: usize| -> Vec<i64> {
            let query = format!(
                "SELECT rowid FROM symbols_fts WHERE symbols_fts MATCH ?1 ORDER BY symbols_rank(symbols_fts{weights}) LIMIT {limit}"
            );
            conn.prepare(&query).unwrap().query_map([expression], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
        };
        for lengths in [false, true] {
            if lengths {
                slot.lock().unwrap().lengths = Some(Arc::new(lengths_in(&conn)));
            }
            let collect = |expression: &str, phrases: usize| {
                slot.lock().unwrap().collect = Some(Collected::new(phrases, 4));
                let mut stmt = conn.prepare("SELECT symbols_collect(symbols_fts) FROM symbols_fts WHERE symbols_fts MATCH ?1").unwrap();
                let mut rows = stmt.query([expression]).unwrap();
                while rows.next().unwrap().is_some() {}
                drop(rows);
                slot.lock().unwrap().collect.take().unwrap()
            };
            let collected = collect(&format!("{{words owner doc place}} : {phrases}"), 4);
            // Every row holding a phrase anywhere (not 40), and row 30's instance of `stock`
            // once in its words.
            assert_eq!(collected.ids, [7, 9, 12, 30, 31, 33, 35]);
            // Two passes of two phrases each, merged, are the one pass of four; so with a pass
            // that matches nothing.
            let halves = collect("{words owner doc place} : (\"creat\"* OR \"check\"*)", 2)
                .merge(collect("{words owner doc place} : (\"order\"* OR \"stock\"*)", 2));
            let none = collect("{words owner doc place} : (\"zebra\"*)", 1);
            assert!(none.ids.is_empty());
            let with_none = collect(&format!("{{words owner doc place}} : {phrases}"), 4).merge(none);
            for merged in [&halves, &with_none] {
                assert_eq!((&merged.ids, &merged.lengths), (&collected.ids, &collected.lengths));
                assert_eq!((merged.rows, merged.tokens), (collected.rows, collected.tokens));
            }
            assert_eq!(with_none.phrases, 5);
            for i in 0..collected.ids.len() {
                assert_eq!((halves.held(i), with_none.held(i)), (collected.held(i), collected.held(i)));
            }
            // A pass told of other phrases than its expression has fails.
            slot.lock().unwrap().collect = Some(Collected::new(3, 4));
            let mut stmt = conn.prepare("SELECT symbols_collect(symbols_fts) FROM symbols_fts WHERE symbols_fts MATCH ?1").unwrap();
            assert!(stmt.query(["\"order\"*"]).unwrap().next().is_err());
            assert_eq!((collected.phrases, collected.columns, collected.rows), (4, 4, 8));
            assert_eq!(collected.held(3), [Held { phrase: 3, column: 0, count: 1 }]);
            // Row 9: `check` in its words and doc, `creat` in its doc, `order` in its owner
            // and doc, `stock` in its words and doc.
            let nine: Vec<(u16, u16, u32)> = collected.held(1).iter().map(|h| (h.phrase, h.column, h.count)).collect();
            assert_eq!(nine, [(0, 2, 1), (1, 0, 1), (1, 2, 1), (2, 1, 1), (2, 2, 1), (3, 0, 1), (3, 2, 1)]);
            let every = [Some(4.0), Some(1.0), Some(1.0), Some(0.5)];
            let names = [Some(1.0), None, None, None];
            for limit in [1, 2, 3, 5, 100] {
                let all = collected.best(&[0, 1, 2, 3], &every, limit);
                assert_eq!(all, sql(&format!("{{words owner doc place}} : {phrases}"), ", 4.0, 1.0, 1.0, 0.5", limit), "limit {limit}");
                assert_eq!(collected.best(&[0, 1, 2, 3], &names, limit), sql(&format!("words : {phrases}"), "", limit), "limit {limit}");
                // One phrase in names: the three `stock` rows alike tie, in rowid order.
                assert_eq!(collected.best(&[3], &names, limit), sql("words : \"stock\"*", "", limit), "limit {limit}");
                assert_eq!(collected.best(&[1], &names, limit), sql("words : \"check\"*", "", limit), "limit {limit}");
            }
            assert_eq!(collected.best(&[3], &names, 100), [30, 31, 35, 9]);
            for limit in [1, 2, 100] {
                let each: Vec<Vec<i64>> = (0..4).map(|i| collected.best(&[i], &names, limit)).collect();
                assert_eq!(collected.best_each(&names, limit), each);
                let each: Vec<Vec<i64>> = (0..4).map(|i| collected.best(&[i], &every, limit)).collect();
                assert_eq!(collected.best_each(&every, limit), each);
            }
            assert_eq!(collected.best(&[0, 1, 2, 3], &every, 3), [9, 33, 12]);
        }
    }

    #[test]
    fn lengths_are_found_by_rowid_dense_or_not() {
        let rows = |ids: &[i64]| ids.iter().map(|id| (*id, total_size(&[(*id % 100) as u8]))).collect::<Vec<_>>();
        // Dense: 5 rowids over a span of 7.
        let dense = DocLengths::from_rows(rows(&[13, 10, 11, 16, 14]));
        assert!(dense.ids.is_empty());
        assert_eq!(
            (9..=17).map(|id| dense.get(id)).collect::<Vec<_>>(),
            [None, Some(10), Some(11), None, Some(13), Some(14), None, Some(16), None]
        );
        // Sparse: 3 rowids over a span of 91.
        let sparse = DocLengths::from_rows(rows(&[10, 100, 55]));
        assert_eq!(sparse.ids, [10, 55, 100]);
        assert_eq!([10, 11, 55, 100, 101].map(|id| sparse.get(id)), [Some(10), None, Some(55), Some(0), None]);
        assert_eq!((dense.len(), sparse.len(), DocLengths::from_rows(Vec::new()).get(0)), (5, 3, None));
    }

    #[test]
    fn a_docsize_blob_is_the_sum_of_its_varints() {
        assert_eq!(total_size(&[]), 0);
        assert_eq!(total_size(&[3, 0, 7, 1]), 11);
        // 200 = 0b1_1001000: 0x81 0x48.
        assert_eq!(total_size(&[0x81, 0x48, 2]), 202);
        assert_eq!(total_size(&[0x82, 0x80, 0x00]), 32768);
    }
}
