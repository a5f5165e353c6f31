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
//! Owns the function's registration on a connection and its FFI; it must not rank in any
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
    /// From the docsize table's rows: (rowid, `sz`, the columns' sizes as SQLite varints).
    pub fn from_rows(mut rows: Vec<(i64, Vec<u8>)>) -> DocLengths {
        rows.sort_unstable_by_key(|(id, _)| *id);
        let (Some(first), Some(last)) = (rows.first().map(|r| r.0), rows.last().map(|r| r.0)) else {
            return DocLengths::default();
        };
        let span = (last - first) as u64 + 1;
        if span <= 4 * rows.len() as u64 {
            let mut lengths = vec![ABSENT; span as usize];
            for (id, sz) in &rows {
                lengths[(id - first) as usize] = total_size(sz);
            }
            DocLengths { first, ids: Vec::new(), lengths, rows: rows.len() }
        } else {
            let ids = rows.iter().map(|r| r.0).collect();
            let lengths = rows.iter().map(|r| total_size(&r.1)).collect();
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
fn total_size(mut sz: &[u8]) -> u32 {
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

/// What a connection's `symbols_rank` reads: the lengths (set per index generation), and
/// how many rows each phrase of the next query matches when the caller has counted them
/// already (`bm25` counts them itself, one pass over each phrase's matches a query).
#[derive(Default)]
pub struct Given {
    pub lengths: Option<Arc<DocLengths>>,
    pub hits: Option<Vec<i64>>,
}

pub type Slot = Mutex<Given>;

/// Registers `symbols_rank` on the connection; `slot` holds the lengths it reads.
pub fn register(conn: &Connection, slot: &Arc<Slot>) -> rusqlite::Result<()> {
    // SAFETY: the handle is this open connection's; the statement is finalized before the
    // function returns; `fts5_api_ptr` is the pointer type FTS5 documents for `fts5(?1)`.
    unsafe {
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
        let create = (*api).xCreateFunction.expect("FTS5 API v2 has xCreateFunction");
        let data = Arc::into_raw(slot.clone()) as *mut c_void;
        let rc = create(api, c"symbols_rank".as_ptr(), data, Some(symbols_rank), Some(drop_slot));
        if rc != ffi::SQLITE_OK {
            drop(Arc::from_raw(data as *const Slot));
            return Err(rusqlite::Error::SqliteFailure(ffi::Error::new(rc), Some("registering symbols_rank".into())));
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
    let (lengths, given) = match (*slot).lock() {
        Ok(mut g) => (g.lengths.clone(), g.hits.take()),
        Err(_) => (None, None),
    };
    let given = given.filter(|h| h.len() == phrases.max(0) as usize);
    let mut idf = Vec::with_capacity(phrases.max(0) as usize);
    for i in 0..phrases {
        let hits = match &given {
            Some(h) => h[i as usize],
            None => {
                let mut hits: i64 = 0;
                let rc = (api.xQueryPhrase.expect("xQueryPhrase"))(fts, i, (&mut hits as *mut i64).cast(), Some(count_row));
                if rc != ffi::SQLITE_OK {
                    return Err(rc);
                }
                hits
            }
        };
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
    const K1: f64 = 1.2;
    const B: f64 = 0.75;
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
        score += idf * ((freq * (K1 + 1.0)) / (freq + K1 * (1.0 - B + B * d / query.avgdl)));
    }
    ffi::sqlite3_result_double(ctx, -score);
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE VIRTUAL TABLE symbols_fts USING fts5(words, owner, doc, place, tokenize = 'unicode61', content = '', contentless_delete = 1);
             INSERT INTO symbols_fts(rowid, words, owner, doc, place) VALUES
               (7, 'order service', 'shop', 'creates and checks an order', 'shop service order'),
               (9, 'check stock', 'order service', 'checks the stock of every item of an order before it is created', 'shop'),
               (12, 'create', 'order', '', 'shop order'),
               (30, 'stock', 'inventory', 'what is left', 'shop inventory');",
        )
        .unwrap();
        let slot = Arc::new(Slot::default());
        register(&conn, &slot).unwrap();
        let rows: Vec<(i64, Vec<u8>)> = conn
            .prepare("SELECT id, sz FROM symbols_fts_docsize")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let lengths = DocLengths::from_rows(rows);
        // Each row's words, owner, doc and place, in tokens.
        assert_eq!([7, 9, 12, 30, 31].map(|id| lengths.get(id)), [Some(11), Some(18), Some(4), Some(7), None]);
        for expression in ["{words owner doc place} : (\"creat\"* OR \"check\"* OR \"order\"*)", "words : \"stock\"*", "\"order\""] {
            let from_index = scores(&conn, expression);
            slot.lock().unwrap().lengths = Some(Arc::new(DocLengths::from_rows(
                conn.prepare("SELECT id, sz FROM symbols_fts_docsize")
                    .unwrap()
                    .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
                    .unwrap()
                    .map(Result::unwrap)
                    .collect(),
            )));
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
        // Counts given for each phrase (under the expression's columns) are bm25's own.
        let count =
            |e: &str| conn.query_row("SELECT count(*) FROM symbols_fts WHERE symbols_fts MATCH ?1", [e], |r| r.get::<_, i64>(0)).unwrap();
        let counts = vec![count("words : \"stock\"*"), count("words : \"check\"*"), count("words : \"order\"*")];
        assert_eq!(counts, [2, 1, 1]);
        let expression = "{words} : (\"stock\"* OR \"check\"* OR \"order\"*)";
        let counted_by_fts5 = scores(&conn, expression);
        slot.lock().unwrap().hits = Some(counts);
        let given = scores(&conn, expression);
        assert!(slot.lock().unwrap().hits.is_none(), "the query took them");
        assert_eq!(given.len(), 3);
        for (id, bm25, rank) in &given {
            assert_eq!(bm25.to_bits(), rank.to_bits(), "row {id}");
        }
        assert_eq!(given, counted_by_fts5);
        // Counts are used as given: `stock` said to be in one row moves the two rows it is in.
        slot.lock().unwrap().hits = Some(vec![1, 1, 1]);
        let moved: Vec<i64> = scores(&conn, expression).into_iter().filter(|(_, bm25, rank)| bm25 != rank).map(|(id, _, _)| id).collect();
        assert_eq!(moved, [9, 30]);
        // The lengths given are the ones read: row 9 said to be 1 token long ranks first.
        slot.lock().unwrap().lengths = Some(Arc::new(DocLengths::from_rows(vec![(9, vec![1])])));
        let told = scores(&conn, "words : \"stock\"*");
        assert_eq!(told.iter().map(|(id, bm25, _)| (*id, *bm25)).collect::<Vec<_>>(), [(30, told[0].1), (9, told[1].1)]);
        let mut by_rank = told.clone();
        by_rank.sort_by(|a, b| a.2.total_cmp(&b.2));
        assert_eq!(by_rank.iter().map(|(id, _, _)| *id).collect::<Vec<_>>(), [9, 30]);
    }

    #[test]
    fn lengths_are_found_by_rowid_dense_or_not() {
        let rows = |ids: &[i64]| ids.iter().map(|id| (*id, vec![(*id % 100) as u8])).collect::<Vec<_>>();
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
