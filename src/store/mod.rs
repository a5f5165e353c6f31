//! The SQLite store: schema, versioning, and every SQL statement in the program. Nothing
//! else writes SQL. The index is a cache under `<repo>/.repochart/index.db`: an old,
//! foreign or broken database is deleted and rebuilt, never a crash.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OpenFlags, OptionalExtension, Transaction};

use crate::model::{Confidence, FileId, Language, Receiver, RefKind, SymbolId, SymbolKind};

/// Bumped whenever the schema or the meaning of stored rows changes.
pub const SCHEMA_VERSION: i64 = 21;
pub const INDEX_DIR: &str = ".repochart";
/// The index folder of earlier versions (then called codeatlas): never read, indexed or
/// served; when a new index is built beside it, a notice says it can be deleted.
pub const LEGACY_INDEX_DIR: &str = ".codeatlas";
pub const INDEX_FILE: &str = "index.db";

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("no index at {0}; run `repochart index` first")]
    Missing(PathBuf),
}

pub type Result<T> = std::result::Result<T, Error>;

/// `refs.kind` codes as SQL text, for the statements that filter on them (statements are
/// string constants, so the codes are spelled here once; `sql_kind_codes_are_the_models`
/// pins each to `RefKind::code`, the one truth).
macro_rules! kind_sql {
    (imports) => {
        "7"
    };
    (expands) => {
        "10"
    };
    // Extends, Implements.
    (supertypes) => {
        "1, 2"
    };
    (annotates) => {
        "6"
    };
}

const SCHEMA: &str = concat!("
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files(
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    language TEXT NOT NULL,
    module TEXT NOT NULL,
    size INTEGER NOT NULL,
    hash TEXT NOT NULL,
    mtime_ns INTEGER NOT NULL,
    loc INTEGER NOT NULL,
    parse_errors INTEGER NOT NULL,
    -- Symbols declared in the file: the overview's counts without a join.
    symbols INTEGER NOT NULL,
    -- The generation that last wrote, changed or removed one of its references or symbols:
    -- a reader that cached the file's edges and symbol rows at an older generation reads
    -- them again.
    refs_gen INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE skipped(path TEXT PRIMARY KEY, reason TEXT NOT NULL);
CREATE TABLE symbols(
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id),
    parent_id INTEGER,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    qname TEXT NOT NULL,
    visibility TEXT NOT NULL,
    modifiers TEXT NOT NULL,
    signature TEXT NOT NULL,
    doc TEXT NOT NULL,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    impl_type TEXT,
    impl_trait TEXT,
    -- The qualified name as extracted (before impl members are attached): with the kind,
    -- the key that gives a symbol the same id when its file is parsed again.
    -- NULL when equal to qname.
    xqname TEXT,
    impl_simple TEXT,
    -- Callables: the declared return type's path (call chains' receivers).
    returns TEXT,
    -- Java callables: erased parameter types by simple name (`int,String...`).
    params TEXT,
    -- Rust impl members: the inline module the impl block is in, when not the file's.
    impl_module TEXT,
    -- A hash of what this row and its full-text rows were written from, lines left out
    -- (`row_hash`): an update keeps a row whose hash is the same and moves its lines.
    row_hash INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX symbols_file ON symbols(file_id);
CREATE INDEX symbols_qname ON symbols(qname);
CREATE INDEX symbols_name ON symbols(name COLLATE NOCASE);
CREATE INDEX symbols_parent ON symbols(parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX symbols_impl_simple ON symbols(impl_simple) WHERE impl_simple IS NOT NULL;
-- Endpoints whose paths name other files' constants (`frameworks::endpoints`, run after
-- every change): a few rows, never a scan of the table.
CREATE INDEX symbols_templates ON symbols(kind) WHERE modifiers LIKE 'template(%';
-- Rust functions that nest routers of other files (`@nests(/api=api::router)`).
CREATE INDEX symbols_nests ON symbols(kind) WHERE modifiers LIKE '%@nests(%';
-- Git history (`history.rs`, `store/history.rs`): the commits of a first-parent walk from
-- HEAD, newest the highest idx, and each indexed path's changes with the lines of HEAD's
-- version each last touched.
CREATE TABLE history_commits(idx INTEGER PRIMARY KEY, id TEXT NOT NULL, time INTEGER NOT NULL, author TEXT NOT NULL, subject TEXT NOT NULL);
CREATE TABLE history_changes(path TEXT NOT NULL, idx INTEGER NOT NULL, old_blob BLOB, new_blob BLOB, lines TEXT, PRIMARY KEY(path, idx)) WITHOUT ROWID;
CREATE TABLE externals(id INTEGER PRIMARY KEY, qname TEXT NOT NULL UNIQUE);
CREATE TABLE refs(
    -- The file's id times 2^24 plus a number within the file (`ref_ids_of`), in the
    -- file's order with gaps (`ref_ids`): a file's references are one range of the
    -- table, found without an index on file_id.
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id),
    enclosing_id INTEGER,
    source_id INTEGER,
    -- RefKind::code
    kind INTEGER NOT NULL,
    name TEXT NOT NULL,
    -- The last segment of name, NULL when that is name itself.
    simple TEXT,
    line INTEGER NOT NULL,
    receiver TEXT,
    subject TEXT,
    alias TEXT,
    -- Name segments the resolver starts from, indexed so that an update finds the
    -- references a changed name can affect without scanning.
    head TEXT,
    recv_head TEXT,
    recv_simple TEXT,
    subject_simple TEXT,
    flags INTEGER NOT NULL,
    -- Java calls and creations: argument types as far as known (`Reference::args`).
    args TEXT,
    target_id INTEGER,
    external_id INTEGER,
    -- Confidence::code
    confidence INTEGER NOT NULL
);
-- With the kind and file: counts by kind, subtypes and the per-file groups of
-- find_references are read from the index alone. Indexes on columns that are often NULL
-- are partial: `col = ?` and `col IN (...)` imply `col IS NOT NULL`, so they still apply.
CREATE INDEX refs_target ON refs(target_id, kind, file_id) WHERE target_id IS NOT NULL;
CREATE INDEX refs_external ON refs(external_id, kind, file_id) WHERE external_id IS NOT NULL;
CREATE INDEX refs_simple ON refs(COALESCE(simple, name));
CREATE INDEX refs_source ON refs(source_id) WHERE source_id IS NOT NULL;
-- A type's extends and implements (a few in a hundred references): what queries read by
-- source. The whole of `refs_source` is for updates only.
CREATE INDEX refs_supertypes ON refs(source_id) WHERE kind IN (", kind_sql!(supertypes), ");
-- Name-only guesses by target (a few in a thousand): graph answers count those they leave out.
CREATE INDEX refs_guesses ON refs(target_id) WHERE confidence = 1;
CREATE INDEX refs_alias ON refs(alias) WHERE alias IS NOT NULL;
CREATE INDEX refs_head ON refs(head) WHERE head IS NOT NULL;
CREATE INDEX refs_recv_head ON refs(recv_head) WHERE recv_head IS NOT NULL;
CREATE INDEX refs_recv_simple ON refs(recv_simple) WHERE recv_simple IS NOT NULL;
CREATE INDEX refs_subject_simple ON refs(subject_simple) WHERE subject_simple IS NOT NULL;
-- Receivers that are call chains of two links or more (half a percent of the references):
-- what an added, removed or retyped member can change beyond the chain's last link.
CREATE INDEX refs_chains ON refs(receiver) WHERE receiver LIKE '%#%#%';
-- An ambiguous reference (confidence 4) points at the lowest of its candidate overloads;
-- the others are here, so that each candidate's references include it.
CREATE TABLE ref_alts(target_id INTEGER NOT NULL, ref_id INTEGER NOT NULL, PRIMARY KEY(target_id, ref_id)) WITHOUT ROWID;
CREATE INDEX ref_alts_ref ON ref_alts(ref_id);
CREATE VIRTUAL TABLE symbols_fts USING fts5(words, owner, doc, place, tokenize = 'unicode61', content = '', contentless_delete = 1);
-- The words of each declaration's string literals and comments (docs left out), by symbol id.
CREATE VIRTUAL TABLE text_fts USING fts5(text, tokenize = 'unicode61', content = '', contentless_delete = 1);
CREATE VIEW edges AS
    SELECT source_id, target_id, external_id, kind, confidence, COUNT(*) AS weight
    FROM refs
    WHERE target_id IS NOT NULL OR external_id IS NOT NULL
    GROUP BY source_id, target_id, external_id, kind, confidence;
");

/// The meta key of the build units (`units::Units` as JSON), written by every full walk.
pub const UNITS_KEY: &str = "units";

pub const FLAG_GLOB: i64 = 1;
pub const FLAG_STATIC: i64 = 2;
pub const FLAG_REEXPORT: i64 = 4;
pub const FLAG_BLANKET: i64 = 8;

/// A symbol row as the resolver loads it (`resolve::load`).
pub struct WorldSymbol {
    pub id: SymbolId,
    pub file: FileId,
    pub parent: Option<SymbolId>,
    pub kind: SymbolKind,
    pub name: std::sync::Arc<str>,
    pub qname: std::sync::Arc<str>,
    pub impl_type: Option<Box<str>>,
    pub returns: Option<Box<str>>,
    pub params: Option<String>,
    pub visibility: String,
    pub impl_module: Option<String>,
    pub from_trait: bool,
    /// A trait implemented for every type by a blanket impl (`model::BLANKET`).
    pub blanket: bool,
}

pub struct Store {
    conn: Connection,
    root: PathBuf,
    /// Set while a new index is built in its side file (see `Store::open`): the path
    /// `publish` renames it to, and the build lock held until then.
    building: Option<(PathBuf, std::fs::File)>,
    /// The row lengths this connection's `symbols_rank` reads (`rank`), and whether the
    /// function is registered yet.
    lengths: std::sync::Arc<rank::Slot>,
    ranked: std::sync::atomic::AtomicBool,
}

/// Held (an advisory file lock) by the process building a new index, until it publishes:
/// another process that finds no index waits for it instead of building one beside it.
const BUILD_LOCK: &str = "build.lock";

/// A new index is built under this name and renamed to `INDEX_FILE` when its first build
/// commits, so that no reader (or later run) ever opens a half-built index.
const BUILD_SUFFIX: &str = ".new";

/// Where the index at `path` is built before `publish`.
fn side_file(path: &Path) -> PathBuf {
    PathBuf::from(format!("{}{BUILD_SUFFIX}", path.display()))
}

/// What the store remembers of a file, to tell whether it changed.
#[derive(Clone, Debug)]
pub struct FileState {
    pub id: FileId,
    pub size: i64,
    pub mtime_ns: i64,
    pub hash: String,
    pub module: String,
}

/// A stored reference, as the resolver needs it to resolve it again.
#[derive(Clone, Debug)]
pub struct StoredRef {
    pub id: i64,
    pub file: FileId,
    pub enclosing: Option<SymbolId>,
    /// The source the edge had before resolving again.
    pub source: Option<SymbolId>,
    pub kind: RefKind,
    pub name: String,
    pub receiver: Receiver,
    pub subject: Option<String>,
    pub flags: i64,
    pub args: Option<String>,
    pub alias: Option<String>,
}

impl StoredRef {
    /// The name an import brings into scope.
    pub fn alias_or_simple(&self) -> &str {
        self.alias.as_deref().unwrap_or_else(|| crate::model::last_segment(&self.name))
    }
}

/// An id no other index of this machine has: the clock and the process.
fn new_index_id() -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or_default();
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(format!("{nanos}/{}", std::process::id()).as_bytes()))
}

/// Deletes a database file and its companions (log, shared memory, rollback journal).
fn remove_database(path: &Path) -> Result<()> {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let p = PathBuf::from(format!("{}{suffix}", path.display()));
        match std::fs::remove_file(&p) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => return Err(Error::Io { path: p, source }),
        }
    }
    Ok(())
}

/// Whether a process is building a new index for this repository now (it holds the build
/// lock; see `Store::open`).
pub fn build_running(root: &Path) -> bool {
    let Ok(lock) = std::fs::File::open(root.join(INDEX_DIR).join(BUILD_LOCK)) else {
        return false;
    };
    matches!(lock.try_lock_shared(), Err(std::fs::TryLockError::WouldBlock))
}

pub fn index_path(root: &Path) -> PathBuf {
    root.join(INDEX_DIR).join(INDEX_FILE)
}

/// The first segment of a path with more than one (`Order` of `Order.Line`), else None.
fn first_segment(path: &str) -> Option<&str> {
    let end = path.find(['.', ':'])?;
    Some(&path[..end])
}

/// The names whose change can move a reference's receiver: for a call chain
/// (`Order#customer()#id()`), the type it starts from and the last method before this one;
/// for a container (`List<Pet>`, `Owner#getPets()@`), its element's type in place of the
/// container's.
fn receiver_keys(t: &str) -> (Option<&str>, Option<&str>) {
    let element_or_type = |t| crate::model::split_container(t).map_or(t, |(_, e)| e);
    let t = t.trim_end_matches('@');
    // An element of a tuple (`pair()~1`): the tuple's keys.
    let t = t.rsplit_once('~').filter(|(_, n)| n.bytes().all(|b| b.is_ascii_digit())).map_or(t, |(base, _)| base);
    if t.contains('#') {
        let base = element_or_type(t.split('#').next().unwrap_or(""));
        // A macro's value (`tracing::info_span!#entered()`) starts from the macro.
        if let Some(path) = base.strip_suffix('!') {
            let method = t.rsplit('#').next().map(|m| m.trim_end_matches('@').trim_end_matches("()"));
            return (Some(crate::model::last_segment(path)), method);
        }
        let method = t.rsplit('#').next().map(|m| m.trim_end_matches('@').trim_end_matches("()"));
        (Some(first_segment(base).unwrap_or(crate::model::last_segment(base))).filter(|b| !b.is_empty()), method)
    } else {
        let t = element_or_type(t).trim_end_matches('!');
        (first_segment(t), Some(crate::model::last_segment(t)))
    }
}

fn encode_receiver(r: &Receiver) -> Option<&str> {
    match r {
        Receiver::Implicit => None,
        Receiver::Unknown => Some("?"),
        Receiver::Type(t) => Some(t.as_str()),
    }
}

fn decode_receiver(r: Option<String>) -> Receiver {
    match r {
        None => Receiver::Implicit,
        Some(s) if s == "?" => Receiver::Unknown,
        Some(s) => Receiver::Type(s),
    }
}

/// The columns a reference row is written with, and how many rows an insert writes at once
/// (`insert_refs_sql`).
const REF_COLUMNS: usize = 20;
const REF_BATCH: usize = 32;

/// The insert of `n` reference rows, each of the `REF_COLUMNS` columns in order.
fn insert_refs_sql(n: usize) -> &'static str {
    static ONE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    static BATCH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let make = |n: usize| {
        let row = format!("({})", vec!["?"; REF_COLUMNS].join(", "));
        format!(
            "INSERT INTO refs(id, file_id, enclosing_id, source_id, kind, name, simple, line, receiver, subject, alias, flags, target_id, external_id, confidence,
                              head, recv_head, recv_simple, subject_simple, args) VALUES {}",
            vec![row; n].join(", ")
        )
    };
    match n {
        1 => ONE.get_or_init(|| make(1)),
        REF_BATCH => BATCH.get_or_init(|| make(REF_BATCH)),
        _ => unreachable!("inserts are of one row or of REF_BATCH"),
    }
}

impl Store {
    fn with_conn(conn: Connection, root: &Path, building: Option<(PathBuf, std::fs::File)>) -> Store {
        Store { conn, root: root.to_path_buf(), building, lengths: Default::default(), ranked: Default::default() }
    }

    /// Registers `symbols_rank` on the connection before its first ranked search (not when
    /// it opens: that reads the schema, and `status` reports an unreadable file its own way).
    fn ranked(&self) -> Result<()> {
        if !self.ranked.load(std::sync::atomic::Ordering::Relaxed) {
            rank::register(&self.conn, &self.lengths)?;
            self.ranked.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        Ok(())
    }

    /// Opens the index for writing, creating it, or rebuilding it when it is of another
    /// version, not a database, or unreadable.
    pub fn open(root: &Path) -> Result<Store> {
        let dir = root.join(INDEX_DIR);
        std::fs::create_dir_all(&dir).map_err(|source| Error::Io { path: dir.clone(), source })?;
        let ignore = dir.join(".gitignore");
        if !ignore.exists() {
            std::fs::write(&ignore, "*\n").map_err(|source| Error::Io { path: ignore.clone(), source })?;
        }
        let path = dir.join(INDEX_FILE);
        match Self::open_existing(&path) {
            Ok(Some(conn)) => return Ok(Store::with_conn(conn, root, None)),
            Ok(None) => {
                tracing::info!("creating a new index at {}", path.display());
                if root.join(LEGACY_INDEX_DIR).join(INDEX_FILE).exists() {
                    tracing::warn!(
                        "{LEGACY_INDEX_DIR}/ holds the index of an earlier version (then called codeatlas), which is no longer read: delete it"
                    );
                }
            }
            Err(e) => tracing::warn!("rebuilding the index at {}: {e}", path.display()),
        }
        let lock_path = dir.join(BUILD_LOCK);
        let io = |source| Error::Io { path: lock_path.clone(), source };
        let lock = std::fs::File::options().create(true).truncate(false).write(true).open(&lock_path).map_err(io)?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                tracing::info!("another process is building the index; waiting for it");
                lock.lock().map_err(io)?;
                if let Ok(Some(conn)) = Self::open_existing(&path) {
                    return Ok(Store::with_conn(conn, root, None));
                }
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
        }
        let side = side_file(&path);
        remove_database(&path)?;
        remove_database(&side)?;
        let conn = Connection::open(&side)?;
        // 16 KiB pages (set before the first table): fewer b-tree levels and splits. Measured
        // alone the gain is small (0.5% fewer instructions in a cold build of every 8th
        // java.base file, callgrind), the size on disk the same (4, 8 and 16 KiB tried).
        conn.pragma_update(None, "page_size", 16_384)?;
        // The side file is nobody's until `publish`: no write-ahead log (each page would be
        // written twice, to the log and then to the file: the commit of java.base's first
        // build took 0.2 s, now 0.08 s with the flush and rename) and no syncs until the end. The journal stays in
        // memory so that a failed build still rolls back; a crash leaves only a side file
        // the next run deletes.
        Self::configure(&conn, false)?;
        conn.execute_batch(SCHEMA)?;
        conn.execute("INSERT INTO meta(key, value) VALUES ('schema_version', ?1)", [SCHEMA_VERSION.to_string()])?;
        conn.execute("INSERT INTO meta(key, value) VALUES ('extractor', ?1)", [extractor_fingerprint()])?;
        // Generations count from zero again in a new index: readers' caches are keyed by
        // this id too (`Store::stamp`).
        conn.execute("INSERT INTO meta(key, value) VALUES ('index_id', ?1)", [new_index_id()])?;
        conn.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        Ok(Store::with_conn(conn, root, Some((path, lock))))
    }

    /// Makes a newly built index the repository's index: flushed to disk, then renamed over
    /// `INDEX_FILE` in one step, then opened like any existing index. Does nothing when the
    /// store was opened on an existing index.
    pub fn publish(&mut self) -> Result<()> {
        let Some((path, lock)) = self.building.take() else {
            return Ok(());
        };
        let side = side_file(&path);
        let io = |p: &Path| {
            let p = p.to_path_buf();
            move |source| Error::Io { path: p, source }
        };
        // Flushed while still open (a sync is per file, not per descriptor): a failure here
        // leaves the build as it was, to be published after the next run.
        if let Err(e) = std::fs::File::open(&side).and_then(|f| f.sync_all()) {
            self.building = Some((path, lock));
            return Err(io(&side)(e));
        }
        let conn = std::mem::replace(&mut self.conn, Connection::open_in_memory()?);
        conn.close().map_err(|(_, e)| e)?;
        let moved = remove_database(&path).and_then(|()| std::fs::rename(&side, &path).map_err(io(&path)));
        if let Err(e) = moved {
            let conn = Connection::open(&side)?;
            Self::configure(&conn, false)?;
            self.conn = conn;
            self.building = Some((path, lock));
            return Err(e);
        }
        let conn = Connection::open(&path)?;
        Self::configure(&conn, true)?;
        self.conn = conn;
        Ok(())
    }

    /// The existing database if it is ours and of this version; None if there is none.
    fn open_existing(path: &Path) -> std::result::Result<Option<Connection>, String> {
        if !path.exists() {
            return Ok(None);
        }
        let conn = Connection::open(path).map_err(|e| e.to_string())?;
        Self::configure(&conn, true).map_err(|e| e.to_string())?;
        let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).map_err(|e| e.to_string())?;
        if version != SCHEMA_VERSION {
            return Err(format!("schema version {version}, expected {SCHEMA_VERSION}"));
        }
        let stored: Option<String> = conn
            .query_row("SELECT value FROM meta WHERE key = 'schema_version'", [], |r| r.get(0))
            .optional()
            .map_err(|e| e.to_string())?;
        if stored.as_deref() != Some(SCHEMA_VERSION.to_string().as_str()) {
            return Err("missing or foreign meta table".into());
        }
        let extractor: Option<String> =
            conn.query_row("SELECT value FROM meta WHERE key = 'extractor'", [], |r| r.get(0)).optional().map_err(|e| e.to_string())?;
        if extractor.as_deref() != Some(extractor_fingerprint().as_str()) {
            return Err("made from other grammar queries or by another version".into());
        }
        Ok(Some(conn))
    }

    /// Connection settings; `published` is false for the side file of a first build.
    fn configure(conn: &Connection, published: bool) -> rusqlite::Result<()> {
        if published {
            conn.pragma_update(None, "journal_mode", "WAL")?;
            conn.pragma_update(None, "synchronous", "NORMAL")?;
            // Not inside a commit: the server checkpoints after each batch, once readers can
            // see it (`checkpoint`), and SQLite does when the last connection closes.
            conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        } else {
            conn.pragma_update(None, "journal_mode", "MEMORY")?;
            conn.pragma_update(None, "synchronous", "OFF")?;
        }
        conn.pragma_update(None, "foreign_keys", "OFF")?;
        conn.pragma_update(None, "cache_size", -64_000)?;
        conn.pragma_update(None, "temp_store", "MEMORY")?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        Ok(())
    }

    /// Opens an existing index read-only (for queries).
    pub fn open_read(root: &Path) -> Result<Store> {
        let path = index_path(root);
        if !path.exists() {
            return Err(Error::Missing(path));
        }
        let conn = Connection::open_with_flags(&path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        // Pages are read through a memory map (shared with the OS page cache) instead of a
        // read() copy each time a query touches them.
        conn.pragma_update(None, "mmap_size", 1i64 << 30)?;
        Ok(Store::with_conn(conn, root, None))
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Copies what the last commits wrote to the log (the WAL) into the database file, so
    /// that the next batch reads its pages from the file's memory map instead of from the
    /// log, one read call each, and the log starts again from its beginning. Passive:
    /// readers are never waited for; what they still hold is copied next time. The writer's
    /// commits never checkpoint (`wal_autocheckpoint = 0`): a 400-file batch of `java.base`
    /// writes 1,700-2,700 pages, past SQLite's 1,000, and copying them inside the commit
    /// made an agent wait for it.
    pub fn checkpoint(&self) {
        let started = std::time::Instant::now();
        match self.conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| Ok((r.get::<_, i64>(1)?, r.get::<_, i64>(2)?))) {
            Ok((log, copied)) => tracing::debug!(ms = started.elapsed().as_millis() as u64, log, copied, "checkpointed"),
            Err(e) => tracing::warn!("checkpointing the index: {e}"),
        }
    }

    /// Gives back what the connection holds for reads it may not make again: its page cache,
    /// and the pages of its memory map (mapped pages count in the process's RSS, once per
    /// connection that touched them; the OS page cache keeps them, so the next read maps
    /// them again without going to disk).
    pub fn release_memory(&self) {
        let released = self.conn.execute_batch("PRAGMA shrink_memory").and_then(|_| {
            let mapped: i64 = self.conn.pragma_query_value(None, "mmap_size", |r| r.get(0))?;
            if mapped > 0 {
                self.conn.pragma_update(None, "mmap_size", 0)?;
                self.conn.pragma_update(None, "mmap_size", mapped)?;
            }
            Ok(())
        });
        if let Err(e) = released {
            tracing::warn!("releasing the database's memory: {e}");
        }
    }

    /// The connection, for tests and benches that inspect the database itself. The product
    /// asks the store's methods: no SQL outside `store` (`tests/tidy.rs` checks `src/`).
    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    pub fn file_states(&self) -> Result<HashMap<String, FileState>> {
        let mut stmt = self.conn.prepare("SELECT id, path, size, mtime_ns, hash, module FROM files")?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, String>(1)?,
                FileState { id: r.get(0)?, size: r.get(2)?, mtime_ns: r.get(3)?, hash: r.get(4)?, module: r.get(5)? },
            ))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The next free symbol and file ids. Ids are never reused: a reference still pointing
    /// at a deleted symbol must not silently point at a new one.
    pub fn next_ids(&self) -> Result<(i64, i64)> {
        let stored = |key: &str| -> Result<i64> { Ok(self.meta(key)?.and_then(|v| v.parse().ok()).unwrap_or(0)) };
        let sym: i64 = self.conn.query_row("SELECT COALESCE(MAX(id), 0) + 1 FROM symbols", [], |r| r.get(0))?;
        let file: i64 = self.conn.query_row("SELECT COALESCE(MAX(id), 0) + 1 FROM files", [], |r| r.get(0))?;
        Ok((sym.max(stored("next_symbol_id")?), file.max(stored("next_file_id")?)))
    }

    /// Every file as the resolver loads it: (id, language, module, path).
    pub fn each_file_for_world(&self, mut f: impl FnMut(FileId, Language, String, String)) -> Result<()> {
        let mut stmt = self.conn.prepare("SELECT id, language, module, path FROM files")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let lang: String = r.get(1)?;
            let Some(language) = Language::parse(&lang) else {
                continue;
            };
            f(r.get(0)?, language, r.get(2)?, r.get(3)?);
        }
        Ok(())
    }

    /// Every symbol as the resolver loads it, parents before children (in id order).
    pub fn each_symbol_for_world(&self, mut f: impl FnMut(WorldSymbol)) -> Result<()> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT id, file_id, parent_id, kind, name, qname, impl_type, returns, params, visibility, impl_module, impl_trait IS NOT NULL,
                        kind = 'trait' AND (' ' || modifiers || ' ') LIKE '% {} %' FROM symbols ORDER BY id",
            crate::model::BLANKET
        ))?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let kind: String = r.get(3)?;
            let Some(kind) = SymbolKind::parse(&kind) else {
                continue;
            };
            f(WorldSymbol {
                id: r.get(0)?,
                file: r.get(1)?,
                parent: r.get(2)?,
                kind,
                name: r.get(4)?,
                qname: r.get(5)?,
                impl_type: r.get(6)?,
                returns: r.get(7)?,
                params: r.get(8)?,
                visibility: r.get(9)?,
                impl_module: r.get(10)?,
                from_trait: r.get(11)?,
                blanket: r.get(12)?,
            });
        }
        Ok(())
    }

    /// Every `macro_rules!` macro of the index: (file path, the module it is in, first and
    /// last line), in id order.
    pub fn macro_definitions(&self) -> Result<Vec<(String, String, u32, u32)>> {
        let mut stmt = self.conn.prepare(
            "SELECT f.path, s.qname, s.start_line, s.end_line FROM symbols s JOIN files f ON f.id = s.file_id
             WHERE s.kind = 'macro' AND s.signature LIKE 'macro_rules!%' ORDER BY s.id",
        )?;
        let rows = stmt.query_map([], |r| {
            let qname: String = r.get(1)?;
            let module = qname.rsplit_once("::").map_or(String::new(), |(m, _)| m.to_string());
            Ok((r.get(0)?, module, r.get(2)?, r.get(3)?))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The files that invoke a macro of one of these names (by the last segment of the name
    /// as written).
    pub fn files_invoking(&self, names: &[String]) -> Result<Vec<FileId>> {
        let mut stmt = self.conn.prepare(concat!(
            "SELECT DISTINCT file_id FROM refs WHERE kind = ",
            kind_sql!(expands),
            " AND COALESCE(simple, name) IN (SELECT value FROM json_each(?1)) ORDER BY file_id"
        ))?;
        let list = serde_json::to_string(names).expect("names serialize");
        let rows = stmt.query_map([list], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every import in id order: (file, enclosing symbol, path, alias, glob, static).
    pub fn each_import(&self, mut f: impl FnMut(FileId, Option<SymbolId>, String, Option<String>, bool, bool)) -> Result<()> {
        let mut stmt = self.conn.prepare(concat!(
            "SELECT file_id, enclosing_id, name, alias, flags FROM refs WHERE kind = ",
            kind_sql!(imports),
            " ORDER BY id"
        ))?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let flags: i64 = r.get(4)?;
            f(r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, flags & FLAG_GLOB != 0, flags & FLAG_STATIC != 0);
        }
        Ok(())
    }

    /// Every resolved supertype edge (type, supertype), in reference id order.
    pub fn each_supertype_edge(&self, mut f: impl FnMut(SymbolId, SymbolId)) -> Result<()> {
        let mut stmt = self.conn.prepare(concat!(
            "SELECT source_id, target_id FROM refs WHERE kind IN (",
            kind_sql!(supertypes),
            ") AND source_id IS NOT NULL AND target_id IS NOT NULL AND alias IS NULL ORDER BY id"
        ))?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            f(r.get(0)?, r.get(1)?);
        }
        Ok(())
    }

    /// Every supertype edge to a type outside the repository (type, canonical name; `?` for
    /// one that did not resolve).
    pub fn each_outside_supertype_edge(&self, mut f: impl FnMut(SymbolId, String)) -> Result<()> {
        let mut stmt = self.conn.prepare(concat!(
            "SELECT r.source_id, COALESCE(e.qname, '?') FROM refs r LEFT JOIN externals e ON e.id = r.external_id WHERE r.kind IN (",
            kind_sql!(supertypes),
            ") AND r.source_id IS NOT NULL AND r.target_id IS NULL AND r.alias IS NULL ORDER BY r.id"
        ))?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            f(r.get(0)?, r.get(1)?);
        }
        Ok(())
    }

    /// The whole index as sorted text, independent of row ids: two indexes of the same
    /// tree dump the same, however they were built.
    pub fn dump(&self) -> Result<String> {
        let mut lines: Vec<String> = Vec::new();
        let mut stmt = self.conn.prepare("SELECT path, language, module, loc, parse_errors FROM files")?;
        let rows = stmt.query_map([], |r| {
            Ok(format!(
                "file {} {} module={} loc={} errors={}",
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, i64>(4)?
            ))
        })?;
        for row in rows {
            lines.push(row?);
        }
        let mut stmt = self.conn.prepare(
            "SELECT f.path, s.kind, s.qname || COALESCE('(' || s.params || ')', ''), s.start_line, s.end_line, COALESCE(p.qname, '-'), s.visibility, s.signature
             FROM symbols s JOIN files f ON f.id = s.file_id LEFT JOIN symbols p ON p.id = s.parent_id",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(format!(
                "symbol {}:{}-{} {} {} parent={} vis={} sig={}",
                r.get::<_, String>(0)?,
                r.get::<_, i64>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(5)?,
                r.get::<_, String>(6)?,
                r.get::<_, String>(7)?
            ))
        })?;
        for row in rows {
            lines.push(row?);
        }
        let mut stmt = self.conn.prepare(
            "SELECT f.path, r.line, r.kind, r.name, COALESCE(src.qname, '-'),
                    COALESCE(t.qname || COALESCE('(' || t.params || ')', ''), 'ext:' || e.qname, '-'), r.confidence,
                    (SELECT group_concat(a.qname || COALESCE('(' || a.params || ')', ''), '\n') FROM ref_alts x JOIN symbols a ON a.id = x.target_id
                     WHERE x.ref_id = r.id),
                    CASE WHEN r.kind = 5 AND r.alias IS NOT NULL THEN ' via=' || r.alias ELSE '' END
             FROM refs r JOIN files f ON f.id = r.file_id
             LEFT JOIN symbols src ON src.id = r.source_id
             LEFT JOIN symbols t ON t.id = r.target_id
             LEFT JOIN externals e ON e.id = r.external_id",
        )?;
        let rows = stmt.query_map([], |r| {
            // An ambiguous reference names all its candidates, sorted (which of them is the
            // row's target depends on symbol ids, which depend on the order of builds).
            let mut to = vec![r.get::<_, String>(5)?];
            let alts: Option<String> = r.get(7)?;
            to.extend(alts.iter().flat_map(|a| a.split('\n')).map(str::to_string));
            to.sort();
            Ok(format!(
                "ref {}:{} {} {} from={} to={} ({}){}",
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                RefKind::from_code(r.get(2)?).map_or("?", RefKind::as_str),
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                to.join(" | "),
                Confidence::from_code(r.get(6)?).map_or("?", Confidence::as_str),
                r.get::<_, String>(8)?
            ))
        })?;
        for row in rows {
            lines.push(row?);
        }
        lines.sort();
        lines.push(String::new());
        Ok(lines.join("\n"))
    }

    /// A cold build inserts every reference at once: maintaining these indexes row by row
    /// costs more than building them once at the end (a sort). The supertypes pass of a
    /// first build takes what it resolved from memory rather than through an index.
    /// (`refs_supertypes` holds a few rows in a hundred: kept up as they come, it costs less
    /// than the scan that would build it.)
    const BULK_INDEXES: &'static [&'static str] = &[
        "refs_source",
        "refs_target",
        "refs_external",
        "refs_alias",
        "refs_simple",
        "refs_head",
        "refs_recv_head",
        "refs_recv_simple",
        "refs_subject_simple",
        "refs_chains",
    ];

    /// The indexes only updates read: which stored references a changed name can affect
    /// (`refs_to_recheck`). A first build leaves them out, so that its index answers
    /// queries 0.5 s sooner on java.base; the first update builds them
    /// (`Writer::ensure_update_indexes`), and the server does so right after its first
    /// build, while tools already answer.
    const UPDATE_INDEXES: &'static [&'static str] =
        &["refs_source", "refs_simple", "refs_head", "refs_recv_head", "refs_recv_simple", "refs_subject_simple", "refs_chains"];

    pub fn transaction(&mut self) -> Result<Writer<'_>> {
        Ok(Writer {
            tx: self.conn.transaction()?,
            externals: Default::default(),
            touched_files: Default::default(),
            place: None,
            rewrites: Default::default(),
        })
    }

    /// Replaces the skipped rows at or under `targets` with `skipped`.
    pub fn update_skipped(&mut self, targets: &[String], skipped: &[(String, String)]) -> Result<()> {
        let tx = self.conn.transaction()?;
        {
            let mut delete = tx.prepare("DELETE FROM skipped WHERE path = ?1 OR path LIKE ?2 ESCAPE '\\'")?;
            for t in targets {
                delete.execute(params![t, format!("{}/%", queries::like_escape(t))])?;
            }
            let mut insert = tx.prepare("INSERT OR REPLACE INTO skipped(path, reason) VALUES (?1, ?2)")?;
            for (path, reason) in skipped {
                insert.execute(params![path, reason])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    pub fn set_skipped(&mut self, skipped: &[(String, String)]) -> Result<()> {
        let tx = self.conn.transaction()?;
        tx.execute("DELETE FROM skipped", [])?;
        {
            let mut stmt = tx.prepare("INSERT OR REPLACE INTO skipped(path, reason) VALUES (?1, ?2)")?;
            for (path, reason) in skipped {
                stmt.execute(params![path, reason])?;
            }
        }
        tx.commit()?;
        Ok(())
    }
}

/// The names and ids whose references an update resolves again. `name` has no type on
/// purpose: a TEXT column gives the IN comparison an affinity that the expression index on
/// COALESCE(simple, name) does not have, and SQLite then scanned every reference (46 ms of
/// each single-file update on java.base).
const RECHECK_TABLES: &str = "CREATE TEMP TABLE IF NOT EXISTS recheck_names(name PRIMARY KEY); DELETE FROM recheck_names;
     CREATE TEMP TABLE IF NOT EXISTS recheck_ids(id INTEGER PRIMARY KEY); DELETE FROM recheck_ids;";

fn stored_ref(r: &rusqlite::Row) -> rusqlite::Result<StoredRef> {
    let kind: i64 = r.get(3)?;
    Ok(StoredRef {
        id: r.get(0)?,
        file: r.get(1)?,
        enclosing: r.get(2)?,
        kind: RefKind::from_code(kind).unwrap_or(RefKind::UsesType),
        name: r.get(4)?,
        receiver: decode_receiver(r.get(5)?),
        subject: r.get(6)?,
        flags: r.get(7)?,
        source: r.get(8)?,
        args: r.get(9)?,
        alias: r.get(10)?,
    })
}

/// The references those names and ids can affect; every branch is an index search.
const RECHECK_SQL: &str =
    "SELECT id, file_id, enclosing_id, kind, name, receiver, subject, flags, source_id, args, alias FROM refs WHERE id IN (
         SELECT id FROM refs WHERE COALESCE(simple, name) IN (SELECT name FROM recheck_names)
         UNION SELECT id FROM refs WHERE alias IN (SELECT name FROM recheck_names)
         UNION SELECT id FROM refs WHERE head IN (SELECT name FROM recheck_names)
         UNION SELECT id FROM refs WHERE recv_head IN (SELECT name FROM recheck_names)
         UNION SELECT id FROM refs WHERE recv_simple IN (SELECT name FROM recheck_names)
         UNION SELECT id FROM refs WHERE subject_simple IN (SELECT name FROM recheck_names)
         UNION SELECT id FROM refs WHERE target_id IN (SELECT id FROM recheck_ids)
         UNION SELECT id FROM refs WHERE source_id IN (SELECT id FROM recheck_ids)
         UNION SELECT ref_id FROM ref_alts WHERE target_id IN (SELECT id FROM recheck_ids))
     ORDER BY id";

/// A type's resolved supertypes in id order: what `load_world` and the tools read.
/// A Java lambda passed as an argument implements its callee's parameter (`alias`
/// `arg:N`): an edge for the tools, no supertype of the resolver's world (the rest pass
/// writes it).
const SUPERTYPES_SQL: &str = concat!(
    "SELECT DISTINCT target_id FROM refs INDEXED BY refs_supertypes WHERE source_id = ?1 AND kind IN (",
    kind_sql!(supertypes),
    ") AND target_id IS NOT NULL AND alias IS NULL ORDER BY target_id"
);

/// A symbol's supertypes: those of the repository, and those outside it by canonical name.
pub type Supertypes = (Vec<SymbolId>, Vec<Box<str>>);

/// One write transaction. Nothing is visible to readers until `commit`.
pub struct Writer<'c> {
    tx: Transaction<'c>,
    externals: rustc_hash::FxHashMap<String, i64>,
    /// Files whose references or symbols this transaction wrote, changed or removed
    /// (`stamp_files`).
    touched_files: rustc_hash::FxHashSet<FileId>,
    /// The last file whose place words were asked for, and those words (a file's symbols are
    /// written together).
    place: Option<(FileId, String)>,
    /// Files parsed again whose old references stay until the new ones are written over
    /// them (`keep_refs`).
    rewrites: rustc_hash::FxHashMap<FileId, Rewrite>,
}

/// The words of a file's place, for search: its folders and file name without extension,
/// each split as an identifier (`crates/ignore/src/walk.rs` -> `crates ignore src walk`).
pub fn place_words(path: &str) -> String {
    let stem = path.rsplit_once('.').filter(|(_, ext)| !ext.contains('/')).map_or(path, |(p, _)| p);
    let mut words: Vec<String> = Vec::new();
    for part in stem.split(['/', '.', '-']).filter(|p| !p.is_empty()) {
        for w in crate::model::name_words(part).split_whitespace() {
            if !words.iter().any(|x| x == w) {
                words.push(w.to_string());
            }
        }
    }
    words.join(" ")
}

/// How many bits of a reference id number it within its file.
const REF_ID_BITS: u32 = 24;

/// The range of reference ids of a file, both ends included. Every lookup of a file's
/// references is a range of the table itself: a build saves the index on `file_id` (0.12 s
/// of java.base's first build), and an update its upkeep.
pub(crate) fn ref_ids_of(file: FileId) -> (i64, i64) {
    (file << REF_ID_BITS, ((file + 1) << REF_ID_BITS) - 1)
}

/// The id of an external name, added when new (`cache` holds those seen in this run).
fn external_id(tx: &Transaction, cache: &mut rustc_hash::FxHashMap<String, i64>, qname: &str) -> Result<i64> {
    if let Some(id) = cache.get(qname) {
        return Ok(*id);
    }
    tx.prepare_cached("INSERT OR IGNORE INTO externals(qname) VALUES (?1)")?.execute([qname])?;
    let id: i64 = tx.prepare_cached("SELECT id FROM externals WHERE qname = ?1")?.query_row([qname], |r| r.get(0))?;
    cache.insert(qname.to_string(), id);
    Ok(id)
}

/// Deletes the references with ids from `lo` to `hi` and their other candidates.
fn delete_refs(tx: &Transaction, lo: i64, hi: i64) -> Result<()> {
    tx.prepare_cached("DELETE FROM refs WHERE id BETWEEN ?1 AND ?2")?.execute([lo, hi])?;
    tx.prepare_cached("DELETE FROM ref_alts WHERE ref_id BETWEEN ?1 AND ?2")?.execute([lo, hi])?;
    Ok(())
}

impl Writer<'_> {
    /// Drops the reference indexes for a bulk load; `end_bulk` builds them again (but those
    /// only updates read). Both run inside the writer's transaction, so a crash leaves the
    /// previous index intact.
    pub fn begin_bulk(&self) -> Result<()> {
        for name in Store::BULK_INDEXES {
            self.tx.execute_batch(&format!("DROP INDEX IF EXISTS {name}"))?;
        }
        Ok(())
    }

    /// Builds the indexes a bulk load dropped, but for those only updates need.
    pub fn end_bulk(&self) -> Result<()> {
        let names: Vec<&str> = Store::BULK_INDEXES.iter().copied().filter(|n| !Store::UPDATE_INDEXES.contains(n)).collect();
        self.build_indexes(&names)
    }

    /// Builds the indexes updates read if a first build left them out, and merges the
    /// full-text index then; with them present this costs six schema lookups.
    pub fn ensure_update_indexes(&self) -> Result<()> {
        let mut stmt = self.tx.prepare_cached("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?1")?;
        let mut missing = Vec::new();
        for name in Store::UPDATE_INDEXES {
            if !stmt.exists([name])? {
                missing.push(*name);
            }
        }
        if !missing.is_empty() {
            let started = std::time::Instant::now();
            // First, so that the indexes reuse the pages the merge frees (4 MB on java.base).
            self.merge_search_index()?;
            self.build_indexes(&missing)?;
            tracing::info!(ms = started.elapsed().as_millis() as u64, "built the indexes updates read; merged the full-text index");
        }
        Ok(())
    }

    /// Merges the full-text index into one segment. A first build leaves several, and
    /// every update adds one (and marks deletions in the old): each is read, and its
    /// deletions checked, for every match. On java.base one segment makes a common word's
    /// lookup twice as fast as after ten saves (`string`: 1.41 -> 0.74 ms) and 30% faster
    /// than after the first build (1.05 -> 0.72 ms); the merge takes 85-130 ms.
    pub fn merge_search_index(&self) -> Result<()> {
        self.tx.execute_batch(
            "INSERT INTO symbols_fts(symbols_fts) VALUES ('optimize'); INSERT INTO text_fts(text_fts) VALUES ('optimize')",
        )?;
        Ok(())
    }

    /// Whether the full-text index is in more than one segment (`merge_search_index`).
    pub fn search_index_fragmented(&self) -> Result<bool> {
        Ok(self.tx.query_row("SELECT COUNT(DISTINCT segid) > 1 FROM symbols_fts_idx", [], |r| r.get(0))?)
    }

    /// One step of merging the full-text index: about 64 pages (1 MB) written, 4 ms on
    /// java.base, where after eight saves 16 steps make one segment (67 ms in all). If a
    /// step changes nothing while segments remain, the merge is finished in one go.
    pub fn merge_search_index_step(&self) -> Result<()> {
        let before = self.tx.total_changes();
        self.tx.execute("INSERT INTO symbols_fts(symbols_fts, rank) VALUES ('merge', -64)", [])?;
        self.tx.execute("INSERT INTO text_fts(text_fts, rank) VALUES ('merge', -64)", [])?;
        if self.tx.total_changes() == before {
            self.merge_search_index()?;
        }
        Ok(())
    }

    fn build_indexes(&self, names: &[&str]) -> Result<()> {
        // The index definitions are the schema's own lines, so the two cannot drift apart.
        self.tx.pragma_update(None, "threads", 2)?;
        // The sorter that builds an index takes as much memory as the page cache; sorting
        // in 4 MB runs and merging them is faster than one 16 MB in-memory sort: the ten
        // indexes of java.base took 1.0-1.2 s instead of 1.4-1.6 s (sqlite3 shell, 3 runs).
        self.tx.pragma_update(None, "cache_size", -4_000)?;
        for name in names {
            let line = SCHEMA
                .lines()
                .find(|l| l.starts_with(&format!("CREATE INDEX {name} ")))
                .unwrap_or_else(|| panic!("index {name} is in the schema"));
            self.tx.execute_batch(line)?;
        }
        self.tx.pragma_update(None, "cache_size", -64_000)?;
        Ok(())
    }
}

/// An endpoint whose path names constants of other files (`Writer::endpoint_templates`).
pub struct EndpointTemplate {
    pub id: SymbolId,
    pub file: FileId,
    pub name: String,
    pub modifiers: String,
    pub signature: String,
    pub doc: String,
    /// The name of the handler it is under.
    pub owner: String,
}

/// An endpoint's new name (`Writer::rename_endpoints`).
pub struct RenamedEndpoint {
    pub id: SymbolId,
    pub file: FileId,
    pub name: String,
    pub signature: String,
    pub doc: String,
    pub owner: String,
}

/// A parsed file's row, as `Writer::upsert_file` writes it.
pub struct NewFile<'a> {
    pub id: FileId,
    /// The id is the indexed version's: its row is updated in place.
    pub replaces: bool,
    pub path: &'a str,
    pub language: &'a str,
    pub module: &'a str,
    pub size: i64,
    pub hash: &'a str,
    pub mtime_ns: i64,
    pub loc: u32,
    pub parse_errors: u32,
    pub symbols: usize,
}

/// A row of the symbols table to insert.
pub struct NewSymbol<'a> {
    pub id: SymbolId,
    pub file: FileId,
    pub parent: Option<SymbolId>,
    pub qname: &'a str,
    /// The simple name of the type or module the symbol belongs to, for search.
    pub owner: &'a str,
    pub symbol: &'a crate::model::Symbol,
    /// The words of its string literals and comments (`FileExtract::texts`).
    pub text: Option<&'a str>,
}

impl NewSymbol<'_> {
    /// A hash of everything `insert_symbols` writes but the lines (the file's place words
    /// are the file id's). Two versions of a file whose symbol has the same id and hash
    /// would write the same rows but for `start_line` and `end_line`.
    pub fn row_hash(&self) -> i64 {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        let mut text = |t: Option<&str>| {
            match t {
                Some(t) => {
                    h.update(&(t.len() as u64 + 1).to_le_bytes());
                    h.update(t.as_bytes());
                }
                None => h.update(&0u64.to_le_bytes()),
            };
        };
        let sym = self.symbol;
        let impl_of = sym.impl_of.as_ref();
        for t in [
            Some(self.qname),
            Some(self.owner),
            self.text,
            Some(sym.kind.as_str()),
            Some(sym.name.as_str()),
            Some(sym.qname.as_str()),
            Some(sym.visibility.as_str()),
            Some(sym.modifiers.as_str()),
            Some(sym.signature.as_str()),
            Some(sym.doc.as_str()),
            sym.returns.as_deref(),
            sym.params.as_deref(),
            impl_of.map(|i| i.self_type.as_str()),
            impl_of.and_then(|i| i.trait_name.as_deref()),
            impl_of.and_then(|i| i.module.as_deref()),
        ] {
            text(t);
        }
        h.update(&self.file.to_le_bytes());
        h.update(&self.parent.map_or(-1, |p| p).to_le_bytes());
        h.digest() as i64
    }
}

/// A stored symbol as an update matches it (`Writer::symbol_keys`).
pub struct SymbolKey {
    pub id: SymbolId,
    pub kind: String,
    /// The extracted qualified name, with a Java callable's parameters.
    pub key: String,
    pub name: String,
    pub hash: i64,
    pub lines: (u32, u32),
}

/// The resolver's answer for one reference.
pub struct Resolved {
    pub source: Option<SymbolId>,
    pub target: Option<SymbolId>,
    pub external: Option<String>,
    pub confidence: Confidence,
    /// An ambiguous reference's other candidates (`target` is the lowest).
    pub alts: Vec<SymbolId>,
}

impl Writer<'_> {
    pub fn commit(self) -> Result<()> {
        self.tx.commit()?;
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    /// Writes a file's row: a new one, or (`exists`) the row of a file parsed again.
    ///
    /// Never `INSERT OR REPLACE`: a statement that may replace rows opens a statement
    /// savepoint, and FTS5 flushes its pending terms at every savepoint, so a first build
    /// made one tiny full-text segment per file and spent 2.6% of its CPU flushing them.
    #[allow(clippy::too_many_arguments)]
    /// Writes a parsed file's row: a new one, or the indexed version's row updated in place
    /// (`replaces`), keeping its id.
    pub fn upsert_file(&self, f: &NewFile) -> Result<()> {
        let sql = if f.replaces {
            "UPDATE files SET language = ?3, module = ?4, size = ?5, hash = ?6, mtime_ns = ?7, loc = ?8, parse_errors = ?9, symbols = ?10
             WHERE id = ?1 AND path = ?2"
        } else {
            "INSERT INTO files(id, path, language, module, size, hash, mtime_ns, loc, parse_errors, symbols) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
        };
        self.tx.prepare_cached(sql)?.execute(params![
            f.id,
            f.path,
            f.language,
            f.module,
            f.size,
            f.hash,
            f.mtime_ns,
            f.loc,
            f.parse_errors,
            f.symbols as i64
        ])?;
        Ok(())
    }

    pub fn touch_file(&self, id: FileId, mtime_ns: i64) -> Result<()> {
        self.tx.prepare_cached("UPDATE files SET mtime_ns = ?2 WHERE id = ?1")?.execute(params![id, mtime_ns])?;
        Ok(())
    }

    /// Removes a file: its symbols, their full-text rows, its references and its row.
    pub fn remove_file(&mut self, id: FileId) -> Result<()> {
        self.tx.prepare_cached("DELETE FROM symbols_fts WHERE rowid IN (SELECT id FROM symbols WHERE file_id = ?1)")?.execute([id])?;
        self.tx.prepare_cached("DELETE FROM text_fts WHERE rowid IN (SELECT id FROM symbols WHERE file_id = ?1)")?.execute([id])?;
        self.tx.prepare_cached("DELETE FROM symbols WHERE file_id = ?1")?.execute([id])?;
        self.touched_files.insert(id);
        let (lo, hi) = ref_ids_of(id);
        delete_refs(&self.tx, lo, hi)?;
        self.tx.prepare_cached("DELETE FROM files WHERE id = ?1")?.execute([id])?;
        Ok(())
    }

    /// The simple names a file's symbols and imports bring into scope, before it changes.
    pub fn names_of_file(&self, id: FileId) -> Result<Vec<String>> {
        let mut out = Vec::new();
        let mut stmt = self.tx.prepare_cached("SELECT name FROM symbols WHERE file_id = ?1")?;
        for name in stmt.query_map([id], |r| r.get::<_, String>(0))? {
            out.push(name?);
        }
        let mut stmt = self.tx.prepare_cached(concat!(
            "SELECT COALESCE(simple, name), alias FROM refs WHERE id BETWEEN ?1 AND ?2 AND kind = ",
            kind_sql!(imports)
        ))?;
        let (lo, hi) = ref_ids_of(id);
        for row in stmt.query_map([lo, hi], |r| Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?)))? {
            let (simple, alias) = row?;
            out.push(alias.unwrap_or(simple));
        }
        Ok(out)
    }

    /// Writes symbols of one file, their search words and their body text; each with its
    /// `row_hash()`. Each table's statement is taken from the cache once for the file, not
    /// once a symbol (a lookup by the statement's text, and a reset when it goes back).
    pub fn insert_symbols(&mut self, rows: &[(NewSymbol, i64)]) -> Result<()> {
        let Some((first, _)) = rows.first() else {
            return Ok(());
        };
        let file = first.file;
        debug_assert!(rows.iter().all(|(s, _)| s.file == file), "one file's symbols");
        self.touched_files.insert(file);
        let place = self.place_of(file)?;
        // A row a statement: a statement of several rows opens a savepoint, at which FTS5
        // writes the terms it holds in memory out as a new segment (batches of eight symbols
        // flushed 521 times for 425 files, and the segments' merges cost more than the
        // batches saved).
        let mut stmt = self.tx.prepare_cached(
            "INSERT INTO symbols(id, file_id, parent_id, kind, name, qname, visibility, modifiers, signature, doc, start_line, end_line, impl_type, impl_trait, xqname, impl_simple, returns, params, impl_module, row_hash)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)",
        )?;
        for (s, hash) in rows {
            let sym = s.symbol;
            let (impl_type, impl_trait) = match &sym.impl_of {
                Some(info) => (Some(info.self_type.as_str()), info.trait_name.as_deref()),
                None => (None, None),
            };
            stmt.execute(params![
                s.id,
                s.file,
                s.parent,
                sym.kind.as_str(),
                sym.name,
                s.qname,
                sym.visibility,
                sym.modifiers,
                sym.signature,
                sym.doc,
                sym.start_line,
                sym.end_line,
                impl_type,
                impl_trait,
                (sym.qname != s.qname).then_some(sym.qname.as_str()),
                impl_type.map(crate::model::last_segment),
                sym.returns,
                sym.params,
                sym.impl_of.as_ref().and_then(|i| i.module.as_deref()),
                hash
            ])?;
        }
        let mut stmt = self.tx.prepare_cached("INSERT INTO symbols_fts(rowid, words, owner, doc, place) VALUES (?1, ?2, ?3, ?4, ?5)")?;
        for (s, _) in rows {
            stmt.execute(params![s.id, crate::model::name_words(&s.symbol.name), crate::model::name_words(s.owner), s.symbol.doc, place])?;
        }
        // A declaration's body text, for sentence search.
        let mut stmt = self.tx.prepare_cached("INSERT INTO text_fts(rowid, text) VALUES (?1, ?2)")?;
        for (s, _) in rows {
            if let Some(text) = s.text {
                stmt.execute(params![s.id, text])?;
            }
        }
        Ok(())
    }

    /// Moves symbols kept by an update (`NewSymbol::row_hash` unchanged) to their new lines:
    /// (id, lines its start moved by, lines its end moved by). One statement for each run
    /// of consecutive ids that moved alike: a file's symbols have consecutive ids in its
    /// order, and an edit moves every one after it by as many lines.
    pub fn move_symbols(&mut self, moved: &[(SymbolId, i64, i64)]) -> Result<()> {
        // `OR FAIL`: a statement that may change several rows and stop on a constraint opens
        // a savepoint (to undo its own rows), and at every savepoint FTS5 writes the terms it
        // holds in memory out as a new segment: one segment for each file of an update. No
        // constraint can fail here (lines are integers), and any error fails the whole run.
        let mut stmt = self.tx.prepare_cached(
            "UPDATE OR FAIL symbols SET start_line = start_line + ?3, end_line = end_line + ?4 WHERE id BETWEEN ?1 AND ?2",
        )?;
        for run in moved.chunk_by(|a, b| b.0 == a.0 + 1 && (a.1, a.2) == (b.1, b.2)) {
            let (first, last) = (run[0], run[run.len() - 1]);
            stmt.execute([first.0, last.0, first.1, first.2])?;
        }
        Ok(())
    }

    /// Removes one symbol's row and its full-text rows (an update found it gone or changed).
    pub fn delete_symbol(&mut self, id: SymbolId) -> Result<()> {
        self.tx.prepare_cached("DELETE FROM symbols_fts WHERE rowid = ?1")?.execute([id])?;
        self.tx.prepare_cached("DELETE FROM text_fts WHERE rowid = ?1")?.execute([id])?;
        self.tx.prepare_cached("DELETE FROM symbols WHERE id = ?1")?.execute([id])?;
        Ok(())
    }

    /// The place words of a file (`place_words` of its path), kept for the next symbol.
    fn place_of(&mut self, file: FileId) -> Result<String> {
        if let Some((id, words)) = &self.place {
            if *id == file {
                return Ok(words.clone());
            }
        }
        let path: String = self.tx.prepare_cached("SELECT path FROM files WHERE id = ?1")?.query_row([file], |r| r.get(0))?;
        let words = place_words(&path);
        self.place = Some((file, words.clone()));
        Ok(words)
    }

    /// Endpoints whose paths name constants their own file does not define (a
    /// `template(...)` in their modifiers, see `extract`), for `frameworks::endpoints`
    /// to name: found through a partial index, so an index without any costs nothing.
    pub fn endpoint_templates(&self) -> Result<Vec<EndpointTemplate>> {
        let rows = self
            .tx
            .prepare_cached(
                "SELECT s.id, s.file_id, s.name, s.modifiers, s.signature, s.doc, COALESCE(p.name, '') FROM symbols s
                 LEFT JOIN symbols p ON p.id = s.parent_id WHERE s.modifiers LIKE 'template(%' AND s.kind = 'endpoint'",
            )?
            .query_map([], |r| {
                Ok(EndpointTemplate {
                    id: r.get(0)?,
                    file: r.get(1)?,
                    name: r.get(2)?,
                    modifiers: r.get(3)?,
                    signature: r.get(4)?,
                    doc: r.get(5)?,
                    owner: r.get(6)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        Ok(rows)
    }

    /// Rust functions that nest routers of other files (`@nests(...)` in their modifiers):
    /// (qualified name, modifiers).
    pub fn router_nesting_functions(&self) -> Result<Vec<(String, String)>> {
        let mut stmt = self.tx.prepare_cached("SELECT qname, modifiers FROM symbols WHERE modifiers LIKE '%@nests(%'")?;
        let found = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?;
        Ok(found)
    }

    /// Fields of this simple name (any case of it as SQLite folds it): (name, signature,
    /// the name of the type declaring it).
    pub fn fields_named(&self, simple: &str) -> Result<Vec<(String, String, String)>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT f.name, f.signature, COALESCE(p.name, '') FROM symbols f LEFT JOIN symbols p ON p.id = f.parent_id
             WHERE f.name = ?1 COLLATE NOCASE AND f.kind = 'field'",
        )?;
        let found = stmt.query_map([simple], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<rusqlite::Result<_>>()?;
        Ok(found)
    }

    /// Gives endpoints their new names (and signatures), in the search index too.
    pub fn rename_endpoints(&mut self, renamed: &[RenamedEndpoint]) -> Result<()> {
        for e in renamed {
            self.tx
                .prepare_cached(
                    "UPDATE symbols SET name = ?2, xqname = NULLIF(COALESCE(xqname, qname), ?2), qname = ?2, signature = ?3 WHERE id = ?1",
                )?
                .execute(params![e.id, e.name, e.signature])?;
            self.tx.prepare_cached("DELETE FROM symbols_fts WHERE rowid = ?1")?.execute([e.id])?;
            let place = self.place_of(e.file)?;
            self.tx
                .prepare_cached("INSERT INTO symbols_fts(rowid, words, owner, doc, place) VALUES (?1, ?2, ?3, ?4, ?5)")?
                .execute(params![e.id, crate::model::name_words(&e.name), crate::model::name_words(&e.owner), e.doc, place])?;
            self.touched_files.insert(e.file);
        }
        Ok(())
    }

    pub fn update_symbol_owner(&mut self, id: SymbolId, parent: Option<SymbolId>, qname: &str) -> Result<()> {
        let file: Option<FileId> = self
            .tx
            .prepare_cached(
                "UPDATE symbols SET parent_id = ?2, xqname = NULLIF(COALESCE(xqname, qname), ?3), qname = ?3 WHERE id = ?1 RETURNING file_id",
            )?
            .query_row(params![id, parent, qname], |r| r.get(0))
            .optional()?;
        // The symbol graph rolls the member up to its new parent: the file's rows are read again.
        self.touched_files.extend(file);
        Ok(())
    }

    fn external_id(&mut self, qname: &str) -> Result<i64> {
        external_id(&self.tx, &mut self.externals, qname)
    }

    /// Writes references (file, enclosing symbol, reference, resolution), a file's at a
    /// time (`write_file_refs`): a first build writes half a million.
    pub fn insert_refs<'r>(
        &mut self,
        rows: impl IntoIterator<Item = (FileId, Option<SymbolId>, &'r crate::model::Reference, &'r Resolved)>,
    ) -> Result<()> {
        let mut file_rows: Vec<(Option<SymbolId>, &crate::model::Reference, &Resolved)> = Vec::new();
        let mut current = None;
        for (file, enclosing, reference, res) in rows {
            if current != Some(file) {
                if let Some(f) = current {
                    self.write_file_refs(f, &file_rows)?;
                }
                file_rows.clear();
                current = Some(file);
            }
            file_rows.push((enclosing, reference, res));
        }
        if let Some(f) = current {
            self.write_file_refs(f, &file_rows)?;
        }
        Ok(())
    }

    /// Writes references of one file after those already written, at the ids `ref_ids::place`
    /// gives. A file parsed again (`keep_refs`) is written over its old rows: its new
    /// references are matched with the old ones from the first not yet written over (a
    /// diff of the two lists, equal but for the line), a matched row is kept where the new
    /// references before it fit in the ids before it (an update of its line at most), and
    /// the old rows passed that are not kept go.
    fn write_file_refs(&mut self, file: FileId, rows: &[(Option<SymbolId>, &crate::model::Reference, &Resolved)]) -> Result<()> {
        let Writer { tx, externals, touched_files, rewrites, .. } = self;
        touched_files.insert(file);
        let (lo, hi) = ref_ids_of(file);
        let mut new: Vec<RefRow<'_>> = Vec::with_capacity(rows.len());
        for (enclosing, reference, res) in rows {
            let external = match &res.external {
                Some(q) => Some(external_id(tx, externals, q)?),
                None => None,
            };
            new.push(ref_row(*enclosing, reference, res, external));
        }
        let mut rewrite = rewrites.remove(&file);
        let (floor, old_ids, pairs) = match rewrite.as_mut() {
            Some(rw) => {
                if rw.old.is_none() {
                    rw.old = Some(old_refs(tx, lo, hi)?);
                }
                let old = rw.old.as_ref().expect("read above");
                let (mut key, mut alts) = (RefKey::default(), Vec::new());
                let now: Vec<u128> = new
                    .iter()
                    .zip(rows)
                    .map(|(row, (_, _, res))| {
                        alts.clone_from(&res.alts);
                        alts.sort_unstable();
                        alts.dedup();
                        row.key(&alts, &mut key)
                    })
                    .collect();
                let (old_ids, was): (Vec<i64>, Vec<u128>) = old.from(rw.next).map(|(id, o)| (id, o.key)).unzip();
                let pairs = ref_ids::matching(&was, &now);
                (rw.next, old_ids, pairs)
            }
            None => {
                let floor = tx
                    .prepare_cached("SELECT COALESCE(MAX(id) + 1, ?1) FROM refs WHERE id BETWEEN ?1 AND ?2")?
                    .query_row([lo, hi], |r| r.get(0))?;
                (floor, Vec::new(), Vec::new())
            }
        };
        let slots = ref_ids::place(floor, hi, &old_ids, &pairs, rows.len());
        if slots.len() < rows.len() {
            // 2^24 / GAP references need a source file of more than 2 MB, past the default
            // size cap (1 MiB); the ids close up to 2^24, and what is past that is dropped.
            tracing::warn!(file, "more than {} references in one file; the rest are not stored", 1 << REF_ID_BITS);
        }
        if let Some(rw) = rewrite.as_mut() {
            let old = rw.old.as_mut().expect("read above");
            let last = slots.last().map_or(floor - 1, |s| s.id);
            let kept: rustc_hash::FxHashSet<i64> = slots.iter().filter(|s| s.keep).map(|s| s.id).collect();
            for &id in old_ids.iter().take_while(|&&id| id <= last) {
                if !kept.contains(&id) {
                    delete_refs(tx, id, id)?;
                    old.remove(id);
                }
            }
            // The kept rows' lines, moved by one statement for each run of kept rows that
            // moved alike (an edit moves every row after it by as many lines): (first id,
            // last id, lines moved). Only kept rows are in a run's ids now: the others
            // were deleted above and the new ones are not written yet.
            let mut moved: Vec<(i64, i64, i64)> = Vec::new();
            for (slot, (_, reference, _)) in slots.iter().zip(rows) {
                if slot.keep {
                    let by = reference.line as i64 - old.remove(slot.id).expect("a kept row is an old one").line;
                    match moved.last_mut() {
                        Some((_, to, was)) if *was == by => *to = slot.id,
                        _ => moved.push((slot.id, slot.id, by)),
                    }
                }
            }
            for (from, to, by) in moved.into_iter().filter(|m| m.2 != 0) {
                // `OR FAIL`, no savepoint: as in `move_symbols`.
                tx.prepare_cached("UPDATE OR FAIL refs SET line = line + ?3 WHERE id BETWEEN ?1 AND ?2")?.execute([from, to, by])?;
            }
            rw.next = last + 1;
        }
        // Several rows a statement: SQLite's cursor then stays at the table's end from one
        // row to the next, where a statement a row searched the table for each named id.
        let written: Vec<usize> = (0..slots.len()).filter(|&i| !slots[i].keep).collect();
        let bind = |stmt: &mut rusqlite::CachedStatement<'_>, at: usize, i: usize| -> rusqlite::Result<()> {
            let (slot, row, reference) = (&slots[i], &new[i], rows[i].1);
            // For a call chain (`Order#customer()#id()`), the names whose change can move it:
            // the type it starts from and the last method before this one.
            let (recv_head, recv_simple) = match &reference.receiver {
                Receiver::Type(t) => receiver_keys(t),
                _ => (None, None),
            };
            let head = first_segment(&reference.name);
            let subject_simple = reference.subject.as_deref().map(crate::model::last_segment);
            // In `insert_refs_sql`'s column order.
            let values: [&dyn rusqlite::ToSql; REF_COLUMNS] = [
                &slot.id,
                &file,
                &row.enclosing,
                &row.source,
                &row.kind,
                &row.name,
                &row.simple,
                &reference.line,
                &row.receiver,
                &row.subject,
                &row.alias,
                &row.flags,
                &row.target,
                &row.external,
                &row.confidence,
                &head,
                &recv_head,
                &recv_simple,
                &subject_simple,
                &row.args,
            ];
            for (k, value) in values.into_iter().enumerate() {
                stmt.raw_bind_parameter(at * REF_COLUMNS + 1 + k, value)?;
            }
            Ok(())
        };
        let mut chunks = written.chunks_exact(REF_BATCH);
        if chunks.len() > 0 {
            let mut batch = tx.prepare_cached(insert_refs_sql(REF_BATCH))?;
            for chunk in chunks.by_ref() {
                for (at, &i) in chunk.iter().enumerate() {
                    bind(&mut batch, at, i)?;
                }
                batch.raw_execute()?;
            }
        }
        let mut one = tx.prepare_cached(insert_refs_sql(1))?;
        for &i in chunks.remainder() {
            bind(&mut one, 0, i)?;
            one.raw_execute()?;
        }
        let mut alts = tx.prepare_cached("INSERT OR IGNORE INTO ref_alts(target_id, ref_id) VALUES (?1, ?2)")?;
        for &i in &written {
            for alt in &rows[i].2.alts {
                alts.execute([*alt, slots[i].id])?;
            }
        }
        if let Some(rw) = rewrite {
            rewrites.insert(file, rw);
        }
        Ok(())
    }

    /// Marks a file about to be parsed again: its references stay, to be written over by
    /// the new ones (`insert_refs`), and what is left of them goes in `finish_rewrites`.
    pub fn keep_refs(&mut self, id: FileId) {
        self.touched_files.insert(id);
        self.rewrites.insert(id, Rewrite { next: ref_ids_of(id).0, old: None });
    }

    /// Reads the old references of a file marked by `keep_refs` (else they are read when
    /// its first new reference is written): the writer reads them while the parsers run.
    pub fn read_old_refs(&mut self, file: FileId) -> Result<()> {
        if let Some(rw) = self.rewrites.get_mut(&file).filter(|rw| rw.old.is_none()) {
            let (lo, hi) = ref_ids_of(file);
            rw.old = Some(old_refs(&self.tx, lo, hi)?);
        }
        Ok(())
    }

    /// After the supertypes pass: the old extends and implements references past those
    /// written go, so that a type's supertypes read from the table (`supertypes_of_each`) are
    /// its new ones.
    pub fn drop_old_supertypes(&mut self) -> Result<()> {
        for (file, rw) in &mut self.rewrites {
            let hi = ref_ids_of(*file).1;
            let sql = concat!("SELECT id FROM refs WHERE id BETWEEN ?1 AND ?2 AND kind IN (", kind_sql!(supertypes), ")");
            let ids: Vec<i64> = self.tx.prepare_cached(sql)?.query_map([rw.next, hi], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
            for id in ids {
                delete_refs(&self.tx, id, id)?;
                if let Some(old) = rw.old.as_mut() {
                    old.remove(id);
                }
            }
        }
        Ok(())
    }

    /// After the last pass: each rewritten file's old references past its new ones go.
    pub fn finish_rewrites(&mut self) -> Result<()> {
        for (file, rw) in std::mem::take(&mut self.rewrites) {
            let hi = ref_ids_of(file).1;
            delete_refs(&self.tx, rw.next, hi)?;
        }
        Ok(())
    }

    /// Resolves a stored reference of `file` again.
    pub fn update_ref(&mut self, file: FileId, id: i64, res: &Resolved) -> Result<()> {
        self.touched_files.insert(file);
        let external = match &res.external {
            Some(q) => Some(self.external_id(q)?),
            None => None,
        };
        self.tx
            .prepare_cached("UPDATE refs SET source_id = ?2, target_id = ?3, external_id = ?4, confidence = ?5 WHERE id = ?1")?
            .execute(params![id, res.source, res.target, external, res.confidence.code()])?;
        self.tx.prepare_cached("DELETE FROM ref_alts WHERE ref_id = ?1")?.execute([id])?;
        let mut alts = self.tx.prepare_cached("INSERT OR IGNORE INTO ref_alts(target_id, ref_id) VALUES (?1, ?2)")?;
        for alt in &res.alts {
            alts.execute([*alt, id])?;
        }
        Ok(())
    }

    pub fn delete_ref(&mut self, file: FileId, id: i64) -> Result<()> {
        self.touched_files.insert(file);
        delete_refs(&self.tx, id, id)
    }

    /// References that may resolve differently now: those that start from or end in one of
    /// `names` (by last segment, alias, first segment, receiver type or subject), and those
    /// whose target or source is one of `gone` (symbols that no longer exist). Every clause
    /// is answered from an index.
    pub fn refs_to_recheck(&self, names: &rustc_hash::FxHashSet<String>, gone: &[SymbolId]) -> Result<Vec<StoredRef>> {
        self.tx.execute_batch(RECHECK_TABLES)?;
        {
            let mut stmt = self.tx.prepare_cached("INSERT OR IGNORE INTO recheck_names(name) VALUES (?1)")?;
            for n in names {
                stmt.execute([n])?;
            }
            let mut stmt = self.tx.prepare_cached("INSERT OR IGNORE INTO recheck_ids(id) VALUES (?1)")?;
            for id in gone {
                stmt.execute([id])?;
            }
        }
        let mut stmt = self.tx.prepare_cached(RECHECK_SQL)?;
        let rows = stmt.query_map([], stored_ref)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// References whose receiver is a call chain of two links or more through a member of
    /// one of `links` (`Owner#getPets()#get()`), in id order; `refs_to_recheck` covers the
    /// last link. Every run that adds, removes or retypes a member asks (adding a method
    /// does): the chains are read through their partial index (`refs_chains`, 2,749 of
    /// java.base's 555,258 references), where a scan of the table took 49 ms, and only the
    /// rows that go through a link are read whole.
    pub fn chains_through(&self, links: &rustc_hash::FxHashSet<String>) -> Result<Vec<StoredRef>> {
        // No ORDER BY: with it SQLite scans the table in id order rather than sort 2,749 ids.
        let mut chains = self.tx.prepare_cached("SELECT id, receiver FROM refs WHERE receiver LIKE '%#%#%'")?;
        let mut ids: Vec<i64> = Vec::new();
        let mut rows = chains.query([])?;
        while let Some(row) = rows.next()? {
            // Only a type receiver holds a `#` (`encode_receiver`).
            let receiver: &str = row.get_ref(1)?.as_str().map_err(rusqlite::Error::from)?;
            if receiver.split('#').skip(1).any(|link| links.contains(link.trim_end_matches('@').trim_end_matches("()"))) {
                ids.push(row.get(0)?);
            }
        }
        ids.sort_unstable();
        let mut stmt = self.tx.prepare_cached(
            "SELECT id, file_id, enclosing_id, kind, name, receiver, subject, flags, source_id, args, alias FROM refs WHERE id = ?1",
        )?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            out.push(stmt.query_row([id], stored_ref)?);
        }
        Ok(out)
    }

    /// A file's symbols as stored (`SymbolKey`: id, kind, key, name, row hash, lines), in
    /// id order.
    /// Callables are keyed with their parameters: an overload whose parameters changed is
    /// another symbol.
    pub fn symbol_keys(&self, file: FileId) -> Result<Vec<SymbolKey>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id, kind, COALESCE(xqname, qname) || COALESCE('(' || params || ')', ''), name, row_hash, start_line, end_line
             FROM symbols WHERE file_id = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map([file], |r| {
            Ok(SymbolKey {
                id: r.get(0)?,
                kind: r.get(1)?,
                key: r.get(2)?,
                name: r.get(3)?,
                hash: r.get(4)?,
                lines: (r.get(5)?, r.get(6)?),
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// A file's imports: (name it brings into scope, path, flags).
    pub fn import_keys(&self, file: FileId) -> Result<Vec<(String, String, i64)>> {
        let mut stmt = self.tx.prepare_cached(concat!(
            "SELECT COALESCE(alias, simple, name), name, flags FROM refs WHERE id BETWEEN ?1 AND ?2 AND kind = ",
            kind_sql!(imports)
        ))?;
        let (lo, hi) = ref_ids_of(file);
        let rows = stmt.query_map([lo, hi], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Impl members whose impl type is written with one of the names last given to
    /// `refs_to_recheck`.
    pub fn impl_members_to_recheck(&self) -> Result<Vec<SymbolId>> {
        let mut stmt = self.tx.prepare_cached("SELECT id FROM symbols WHERE impl_simple IN (SELECT name FROM recheck_names)")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The supertypes of each of these symbols (those with none are absent): the resolved
    /// ones and those outside the repository by canonical name (`?` for one that did not
    /// resolve), each ascending and without repeats (as `load_world` reads them). One
    /// statement for all: asked one symbol at a time, the 11,000 symbols of 400 changed
    /// `java.base` files took about 70 ms, and SQLite went through each one's references by
    /// the full index on `source_id` rather than the partial one of supertypes.
    pub fn supertypes_of_each(&self, ids: &[SymbolId]) -> Result<rustc_hash::FxHashMap<SymbolId, Supertypes>> {
        let mut stmt = self.tx.prepare_cached(concat!(
            "SELECT r.source_id, r.target_id, COALESCE(e.qname, '?') FROM refs r INDEXED BY refs_supertypes
             LEFT JOIN externals e ON e.id = r.external_id
             WHERE r.source_id IN (SELECT value FROM json_each(?1)) AND r.kind IN (",
            kind_sql!(supertypes),
            ") AND r.alias IS NULL"
        ))?;
        let list = serde_json::to_string(ids).expect("ids serialize");
        let mut out: rustc_hash::FxHashMap<SymbolId, Supertypes> = Default::default();
        let mut rows = stmt.query([list])?;
        while let Some(r) = rows.next()? {
            let entry = out.entry(r.get(0)?).or_default();
            match r.get::<_, Option<SymbolId>>(1)? {
                Some(target) => entry.0.push(target),
                None => entry.1.push(r.get::<_, String>(2)?.into()),
            }
        }
        for (supers, outside) in out.values_mut() {
            supers.sort_unstable();
            supers.dedup();
            outside.sort_unstable();
            outside.dedup();
        }
        Ok(out)
    }

    /// References whose argument types name one of `types` (`ApiException`,
    /// `ApiException#getMessage()`): which overload they take may change when a type's
    /// supertypes do. A scan, for the rare run that edits an `extends` clause.
    pub fn refs_with_args_naming(&self, types: &rustc_hash::FxHashSet<String>) -> Result<Vec<StoredRef>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id, file_id, enclosing_id, kind, name, receiver, subject, flags, source_id, args, alias FROM refs
             WHERE args IS NOT NULL AND args != '' ORDER BY id",
        )?;
        let rows = stmt.query_map([], stored_ref)?;
        let mut out = Vec::new();
        for r in rows {
            let r = r?;
            let names = r.args.as_deref().unwrap_or_default().split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'));
            if names.into_iter().any(|w| types.contains(w)) {
                out.push(r);
            }
        }
        Ok(out)
    }

    /// Records `generation` on every file whose references or symbols this transaction touched.
    pub fn stamp_files(&mut self, generation: u64) -> Result<()> {
        let mut stmt = self.tx.prepare_cached("UPDATE files SET refs_gen = ?1 WHERE id = ?2")?;
        for file in self.touched_files.drain() {
            stmt.execute(params![generation as i64, file])?;
        }
        Ok(())
    }

    pub fn gc_externals(&self) -> Result<()> {
        self.tx.execute("DELETE FROM externals WHERE id NOT IN (SELECT external_id FROM refs WHERE external_id IS NOT NULL)", [])?;
        Ok(())
    }

    pub fn set_meta(&self, key: &str, value: &str) -> Result<()> {
        self.tx.prepare_cached("INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)")?.execute(params![key, value])?;
        Ok(())
    }
}
mod history;
mod queries;
mod rank;
mod ref_ids;
mod ref_rows;
pub use history::*;
pub use queries::*;
pub use rank::{Collected, DocLengths};
use ref_rows::{old_refs, ref_row, RefKey, RefRow, Rewrite};

/// What made an index's contents besides the schema: the program version and source (a
/// build of another commit may extract or resolve otherwise: `build.rs`), the grammar queries
/// and element lists, the framework rules and the JDK's types. An index made by others is
/// rebuilt.
fn extractor_fingerprint() -> String {
    let mut text = String::from(env!("CARGO_PKG_VERSION"));
    text.push_str(env!("REPOCHART_SOURCE_HASH"));
    for spec in crate::lang::all() {
        text.push_str(spec.query_source);
        text.push_str(spec.elements_source());
        text.push_str(spec.builtin_attributes_source);
        text.push_str(spec.ubiquitous_calls_source);
    }
    for (_, rules) in crate::frameworks::RULES_FILES {
        text.push_str(rules);
    }
    text.push_str(crate::lang::JDK_TYPES);
    text.push_str(crate::lang::JDK_MEMBERS);
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(text.as_bytes()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn place_words_are_the_folders_and_file_name_split() {
        assert_eq!(place_words("crates/ignore/src/walk.rs"), "crates ignore src walk");
        assert_eq!(place_words("src/main/java/com/acme/OrderService.java"), "src main java com acme order service orderservice");
        assert_eq!(place_words("grep-searcher/src/line_buffer.rs"), "grep searcher src line buffer line_buffer");
    }

    #[test]
    fn sql_kind_codes_are_the_models() {
        use crate::model::RefKind;
        assert_eq!(kind_sql!(imports), RefKind::Imports.code().to_string());
        assert_eq!(kind_sql!(expands), RefKind::Expands.code().to_string());
        assert_eq!(kind_sql!(supertypes), format!("{}, {}", RefKind::Extends.code(), RefKind::Implements.code()));
        assert_eq!(kind_sql!(annotates), RefKind::Annotates.code().to_string());
    }

    use super::*;

    /// Graph answers count the guesses they leave out on every call: through the small
    /// partial index of guesses, never the whole index of targets.
    #[test]
    fn guess_counts_read_the_guess_index() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(SCHEMA).unwrap();
        let mut stmt = conn
            .prepare(
                "EXPLAIN QUERY PLAN SELECT COUNT(*) FROM refs WHERE target_id IN (SELECT value FROM json_each('[1]')) AND confidence = 1",
            )
            .unwrap();
        let plan: Vec<String> = stmt.query_map([], |r| r.get::<_, String>(3)).unwrap().map(|r| r.unwrap()).collect();
        let refs_steps: Vec<&String> = plan.iter().filter(|l| l.contains("refs")).collect();
        assert_eq!(refs_steps.len(), 1, "{plan:#?}");
        assert!(refs_steps[0].starts_with("SEARCH refs USING") && refs_steps[0].contains("INDEX refs_guesses (target_id=?)"), "{plan:#?}");
    }

    /// What a type holds, by qualified name: its members and its nested types' members, in
    /// Java (`.`, `#`) and Rust (`::`), not a type whose name only begins the same.
    #[test]
    fn ids_inside_a_type_stop_at_a_separator() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        store
            .conn
            .execute("INSERT INTO files(id, path, language, module, size, hash, mtime_ns, loc, parse_errors, symbols) VALUES (1, 'A.java', 'java', '', 0, '', 0, 0, 0, 0)", [])
            .unwrap();
        let qnames = [
            "a.W3CDom",
            "a.W3CDom#convert",
            "a.W3CDom.W3CBuilder",
            "a.W3CDom.W3CBuilder#head",
            "a.W3CDomTest#convert",
            "a.W3CDo#x",
            "g::GlobSet",
            "g::GlobSet::new",
            "g::GlobSetBuilder::new",
        ];
        for (id, q) in qnames.iter().enumerate() {
            store
                .conn
                .execute(
                    "INSERT INTO symbols(id, file_id, kind, name, qname, visibility, modifiers, signature, doc, start_line, end_line) VALUES (?1, 1, 'method', 'x', ?2, '', '', '', '', 1, 1)",
                    params![id as i64 + 1, q],
                )
                .unwrap();
        }
        let inside = |q: &str, limit: usize| -> Vec<&str> {
            store.ids_inside(q, limit).unwrap().into_iter().map(|id| qnames[id as usize - 1]).collect()
        };
        assert_eq!(inside("a.W3CDom", 10), ["a.W3CDom#convert", "a.W3CDom.W3CBuilder", "a.W3CDom.W3CBuilder#head"]);
        assert_eq!(inside("a.W3CDom", 2), ["a.W3CDom#convert", "a.W3CDom.W3CBuilder"]);
        assert_eq!(inside("g::GlobSet", 10), ["g::GlobSet::new"]);
        assert!(inside("a.W3CDom#convert", 10).is_empty());
    }

    /// An update's recheck must never scan the reference table (it did, through a type
    /// affinity mismatch, and cost 46 ms per saved file on java.base).
    #[test]
    fn recheck_query_searches_indexes_only() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(SCHEMA).unwrap();
        conn.execute_batch(RECHECK_TABLES).unwrap();
        let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {RECHECK_SQL}")).unwrap();
        let plan: Vec<String> = stmt.query_map([], |r| r.get::<_, String>(3)).unwrap().map(|r| r.unwrap()).collect();
        let refs_steps: Vec<&String> = plan.iter().filter(|l| l.contains("refs")).collect();
        assert_eq!(refs_steps.len(), 9, "{plan:#?}");
        assert!(plan.iter().any(|l| l.starts_with("SEARCH ref_alts USING")), "{plan:#?}");
        assert!(refs_steps.iter().all(|l| l.starts_with("SEARCH refs USING")), "{plan:#?}");
    }
}
