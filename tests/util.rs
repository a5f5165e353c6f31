//! Helpers shared by the integration tests: fixture paths, temp copies of fixtures, and
//! raw MCP sessions over a `serve` process's stdio.

use std::path::{Path, PathBuf};

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata").join(name)
}

/// Every file under `dir`, as sorted paths relative to it, with `/` separators.
pub fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path.strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out.sort();
    out
}

/// A copy of a fixture in a fresh temp dir, under the fixture's own name (answers
/// that name the repository stay stable), removed when dropped.
pub struct TempRepo {
    _tmp: tempfile::TempDir,
    root: PathBuf,
}

impl TempRepo {
    pub fn path(&self) -> &Path {
        &self.root
    }
}

/// Copies a fixture into a fresh temp dir, so a test can edit it.
pub fn temp_copy(name: &str) -> TempRepo {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join(name);
    let src = fixture(name);
    // A fixture someone indexed or served by hand has an index of its own: not copied.
    for rel in files_under(&src).into_iter().filter(|r| !r.starts_with(".repochart/")) {
        let to = root.join(&rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(src.join(&rel), to).unwrap();
    }
    TempRepo { _tmp: tmp, root }
}

/// A `repochart serve --no-watch --repo <repo>` process with piped stdin, its stdout and
/// stderr as asked.
pub fn serve_raw(repo: &Path, stdout: std::process::Stdio, stderr: std::process::Stdio, log: Option<&str>) -> std::process::Child {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_repochart"));
    command.args(["serve", "--no-watch", "--repo"]).arg(repo).stdin(std::process::Stdio::piped()).stdout(stdout).stderr(stderr);
    if let Some(level) = log {
        command.env("REPOCHART_LOG", level);
    }
    command.spawn().unwrap()
}

/// The JSON-RPC lines of a session's start (`initialize`, `initialized`) and one call.
pub fn first_call(name: &str, params: serde_json::Value) -> [serde_json::Value; 3] {
    let mut call = serde_json::json!({"name": name});
    if let (Some(c), serde_json::Value::Object(extra)) = (call.as_object_mut(), params) {
        c.extend(extra);
    }
    [
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}),
        serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call}),
    ]
}

/// What `Store::dump` leaves out and an update may keep from before: every column of every
/// symbol (ids, and the row hash made of them, aside: by file, kind, name and lines, the
/// parent by name) with the terms of its full-text rows, each with its column and position
/// (read through `fts5vocab`, since the full-text tables keep no content), then every
/// column of every reference with its place among its file's. An incremental index must
/// equal a fresh one here too.
pub fn index_rows(root: &Path) -> String {
    let path = root.canonicalize().unwrap().join(".repochart/index.db");
    let conn = rusqlite::Connection::open_with_flags(&path, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE).unwrap();
    conn.execute_batch(
        "CREATE VIRTUAL TABLE temp.symbol_terms USING fts5vocab(main, 'symbols_fts', 'instance');
         CREATE VIRTUAL TABLE temp.text_terms USING fts5vocab(main, 'text_fts', 'instance');",
    )
    .unwrap();
    let key =
        "f.path || ' ' || s.kind || ' ' || s.qname || COALESCE('(' || s.params || ')', '') || ':' || s.start_line || '-' || s.end_line";
    let sql = format!(
        "SELECT {key} || ' parent=' || COALESCE(p.qname, '-') || ' name=' || s.name || ' vis=' || s.visibility || ' mods=' || s.modifiers
              || ' sig=' || s.signature || ' doc=' || s.doc || ' impl=' || COALESCE(s.impl_type, '-') || '/' || COALESCE(s.impl_trait, '-')
              || '/' || COALESCE(s.impl_simple, '-') || '/' || COALESCE(s.impl_module, '-') || ' xqname=' || COALESCE(s.xqname, '-')
              || ' returns=' || COALESCE(s.returns, '-')
              || ' words=' || COALESCE((SELECT group_concat(t, ' ') FROM (SELECT v.col || ':' || v.offset || ':' || v.term AS t
                     FROM symbol_terms v WHERE v.doc = s.id ORDER BY v.col, v.offset)), '-')
              || ' text=' || COALESCE((SELECT group_concat(t, ' ') FROM (SELECT v.offset || ':' || v.term AS t
                     FROM text_terms v WHERE v.doc = s.id ORDER BY v.offset)), '-')
         FROM symbols s JOIN files f ON f.id = s.file_id LEFT JOIN symbols p ON p.id = s.parent_id"
    );
    let mut stmt = conn.prepare(&sql).unwrap();
    let mut rows: Vec<String> = stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    rows.sort();
    // Every reference by its place among its file's (ids in order; not the ids themselves,
    // since an update deletes a stored reference that no longer resolves where a fresh
    // build never writes it, and leaves the gap). An ambiguous reference's candidates are
    // one sorted list, as `Store::dump` has them: which is the row's target depends on
    // symbol ids.
    let mut stmt = conn
        .prepare(
            "SELECT f.path || '#' || ROW_NUMBER() OVER (PARTITION BY r.file_id ORDER BY r.id) || ':' || r.line || ' ' || r.kind || ' ' || r.name || ' simple=' || COALESCE(r.simple, '-')
                 || ' recv=' || COALESCE(r.receiver, '-') || ' subject=' || COALESCE(r.subject, '-') || ' alias=' || COALESCE(r.alias, '-')
                 || ' flags=' || r.flags || ' args=' || COALESCE(r.args, '-') || ' in=' || COALESCE(enc.qname, '-') || ' from=' || COALESCE(src.qname, '-')
                 || ' to=' || (SELECT group_concat(q, ' | ') FROM (SELECT COALESCE(t.qname || COALESCE('(' || t.params || ')', ''), 'ext:' || e.qname, '-') AS q
                        UNION SELECT a.qname || COALESCE('(' || a.params || ')', '') FROM ref_alts x JOIN symbols a ON a.id = x.target_id WHERE x.ref_id = r.id
                        ORDER BY q))
                 || ' confidence=' || r.confidence
                 || ' keys=' || COALESCE(r.head, '-') || '/' || COALESCE(r.recv_head, '-') || '/' || COALESCE(r.recv_simple, '-') || '/' || COALESCE(r.subject_simple, '-')
             FROM refs r JOIN files f ON f.id = r.file_id LEFT JOIN symbols enc ON enc.id = r.enclosing_id LEFT JOIN symbols src ON src.id = r.source_id
             LEFT JOIN symbols t ON t.id = r.target_id LEFT JOIN externals e ON e.id = r.external_id",
        )
        .unwrap();
    let mut refs: Vec<String> = stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    refs.sort();
    rows.extend(refs);
    rows.join("\n")
}
