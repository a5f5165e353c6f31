//! SQL of the git history the index keeps (`history.rs` reads git and decides what to
//! write): the commits of the first-parent walk (`history_commits`, newest the highest
//! `idx`), each indexed path's changes (`history_changes`: commit, blobs before and after,
//! and the lines of `HEAD`'s version where the code it changed is now), and the walk's state in
//! `meta`. Plain rows in and out; no git, no formatting.

use std::collections::HashMap;

use rusqlite::{params, Connection, OptionalExtension};

use super::{Result, Store};

/// Meta keys: the commit the stored history ends at, and the walk's state (JSON).
pub const HISTORY_HEAD: &str = "history_head";
pub const HISTORY_STATE: &str = "history_state";

/// One commit of the walk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommitRow {
    pub idx: i64,
    /// Full hex id.
    pub id: String,
    /// Committer time, seconds since the epoch.
    pub time: i64,
    pub author: String,
    pub subject: String,
}

impl CommitRow {
    pub fn short_id(&self) -> &str {
        &self.id[..self.id.len().min(8)]
    }
}

/// One change of a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChangeRow {
    pub idx: i64,
    /// The blob before (None: the commit added the path) and after (None: deleted it).
    pub old_blob: Option<Vec<u8>>,
    pub new_blob: Option<Vec<u8>>,
    /// The lines of `HEAD`'s version this change last touched (`3-5,9-9`; empty: none
    /// survive); None when not computed (older than the depth read per file).
    pub lines: Option<String>,
}

/// A store that history is written to: the published index, opened for writing.
pub struct HistoryWriter {
    conn: Connection,
}

impl Store {
    /// Opens the published index to write history into (another connection than the
    /// indexer's; SQLite serialises the writers).
    pub fn history_writer(&self) -> Result<HistoryWriter> {
        let conn = Connection::open(super::index_path(&self.root))?;
        conn.busy_timeout(std::time::Duration::from_secs(30))?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        Ok(HistoryWriter { conn })
    }

    /// The stored history's state (JSON), if any.
    pub fn history_state(&self) -> Result<Option<String>> {
        Ok(self.conn.query_row("SELECT value FROM meta WHERE key = ?1", [HISTORY_STATE], |r| r.get(0)).optional()?)
    }

    /// The changes of a path, newest first, at most `limit`.
    pub fn path_changes(&self, path: &str, limit: usize) -> Result<Vec<ChangeRow>> {
        path_changes(&self.conn, path, limit)
    }

    /// Paths by how many changes they had since `since`, most first: (path, count).
    pub fn churn_ranking(&self, since: i64, limit: usize) -> Result<Vec<(String, usize)>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT h.path, COUNT(*) n FROM history_changes h JOIN history_commits c ON c.idx = h.idx
             WHERE c.time >= ?1 AND h.path IN (SELECT path FROM files) GROUP BY h.path ORDER BY n DESC, h.path LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![since, limit as i64], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as usize)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Each path's newest change (commit idx).
    pub fn newest_changes(&self) -> Result<HashMap<String, i64>> {
        let mut stmt = self.conn.prepare_cached("SELECT path, MAX(idx) FROM history_changes GROUP BY path")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every stored commit's idx and subject, newest first.
    pub fn commit_subjects(&self) -> Result<Vec<(i64, String)>> {
        let mut stmt = self.conn.prepare_cached("SELECT idx, subject FROM history_commits ORDER BY idx DESC")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The changes of these commits that were compared line by line and still have lines in
    /// `HEAD`: (commit idx, path, lines as `3-5,9-9`).
    pub fn changed_lines_of(&self, idxs: &[i64]) -> Result<Vec<(i64, String, String)>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT idx, path, lines FROM history_changes WHERE idx IN (SELECT value FROM json_each(?1)) AND lines <> ''",
        )?;
        let rows = stmt.query_map([serde_json::to_string(idxs).unwrap_or_default()], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    pub fn commit(&self, idx: i64) -> Result<Option<CommitRow>> {
        Ok(self
            .conn
            .prepare_cached("SELECT idx, id, time, author, subject FROM history_commits WHERE idx = ?1")?
            .query_row([idx], commit_row)
            .optional()?)
    }
}

fn commit_row(r: &rusqlite::Row) -> rusqlite::Result<CommitRow> {
    Ok(CommitRow { idx: r.get(0)?, id: r.get(1)?, time: r.get(2)?, author: r.get(3)?, subject: r.get(4)? })
}

fn path_changes(conn: &Connection, path: &str, limit: usize) -> Result<Vec<ChangeRow>> {
    let mut stmt =
        conn.prepare_cached("SELECT idx, old_blob, new_blob, lines FROM history_changes WHERE path = ?1 ORDER BY idx DESC LIMIT ?2")?;
    let rows = stmt.query_map(params![path, limit as i64], |r| {
        Ok(ChangeRow { idx: r.get(0)?, old_blob: r.get(1)?, new_blob: r.get(2)?, lines: r.get(3)? })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

impl HistoryWriter {
    pub fn meta(&self, key: &str) -> Result<Option<String>> {
        Ok(self.conn.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0)).optional()?)
    }

    /// The indexed paths (history is kept for these only).
    pub fn indexed_paths(&self) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare("SELECT path FROM files")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    pub fn max_idx(&self) -> Result<i64> {
        Ok(self.conn.query_row("SELECT COALESCE(MAX(idx), 0) FROM history_commits", [], |r| r.get(0))?)
    }

    pub fn path_changes(&self, path: &str, limit: usize) -> Result<Vec<ChangeRow>> {
        path_changes(&self.conn, path, limit)
    }

    /// Writes a walk in one transaction: `fresh` replaces what was stored; commits, changes
    /// (path, idx, old, new), the lines of changes (path, idx, lines), and the meta keys.
    #[allow(clippy::type_complexity)]
    pub fn write(
        &mut self,
        fresh: bool,
        commits: &[CommitRow],
        changes: &[(String, i64, Option<Vec<u8>>, Option<Vec<u8>>)],
        lines: &[(String, i64, String)],
        meta: &[(&str, String)],
    ) -> Result<()> {
        let tx = self.conn.transaction()?;
        if fresh {
            tx.execute_batch("DELETE FROM history_commits; DELETE FROM history_changes;")?;
        }
        {
            let mut c =
                tx.prepare_cached("INSERT OR REPLACE INTO history_commits(idx, id, time, author, subject) VALUES (?1, ?2, ?3, ?4, ?5)")?;
            for row in commits {
                c.execute(params![row.idx, row.id, row.time, row.author, row.subject])?;
            }
            let mut h = tx.prepare_cached(
                "INSERT OR REPLACE INTO history_changes(path, idx, old_blob, new_blob, lines) VALUES (?1, ?2, ?3, ?4, NULL)",
            )?;
            for (path, idx, old, new) in changes {
                h.execute(params![path, idx, old, new])?;
            }
            let mut l = tx.prepare_cached("UPDATE history_changes SET lines = ?3 WHERE path = ?1 AND idx = ?2")?;
            for (path, idx, text) in lines {
                l.execute(params![path, idx, text])?;
            }
            let mut m = tx.prepare_cached("INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)")?;
            for (k, v) in meta {
                m.execute(params![k, v])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Only the meta keys (a state without a walk: no git, unborn, disabled).
    pub fn set_meta(&mut self, meta: &[(&str, String)]) -> Result<()> {
        self.write(false, &[], &[], &[], meta)
    }

    /// Forgets the stored history (its tables and head).
    pub fn clear(&mut self) -> Result<()> {
        self.conn.execute_batch(&format!(
            "BEGIN; DELETE FROM history_commits; DELETE FROM history_changes; DELETE FROM meta WHERE key = '{HISTORY_HEAD}'; COMMIT;"
        ))?;
        Ok(())
    }
}
