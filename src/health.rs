//! `repochart status`: the index's health as a user needs it to decide whether to trust or
//! rebuild it: whether it opens and passes SQLite's check, its counts and age, files
//! changed on disk since it was written, why files were skipped, the database size, and
//! the inotify watches the watcher would need against the system's limit.
//!
//! Read-only: it must never write the index (a broken one is reported, not rebuilt).

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;
use std::path::Path;

use crate::index::Options;
use crate::store::{self, Store};
use crate::walk::walk;

#[derive(Debug, Default)]
pub struct Health {
    /// No index file at all: never built here (or deleted), which is no breakage.
    pub missing: bool,
    /// Why the index cannot be used, if it cannot.
    pub broken: Option<String>,
    pub schema_version: Option<i64>,
    pub files: usize,
    pub symbols: usize,
    pub references: usize,
    pub resolved: usize,
    /// Seconds since the epoch of the last completed index run.
    pub indexed_at: Option<u64>,
    /// Files on disk that are new, changed or gone since the last run.
    pub pending: Pending,
    pub syntax_error_files: usize,
    /// Skipped files by reason (the reason's first words).
    pub skipped: BTreeMap<String, usize>,
    pub db_bytes: u64,
    pub watches: Watches,
    /// Build units, unreadable manifests, undeclared dependencies, configuration problems.
    pub build: crate::tools::BuildReport,
}

#[derive(Debug, Default)]
pub struct Pending {
    pub new: usize,
    pub changed: usize,
    pub removed: usize,
    pub examples: Vec<String>,
}

#[derive(Debug, Default)]
pub struct Watches {
    /// Directories under the root: one inotify watch each.
    pub needed: usize,
    /// Watches all inotify instances on this machine hold now (those we can see).
    pub in_use: Option<usize>,
    pub max_user_watches: Option<usize>,
}

/// Examines the index of `root` without changing it.
pub fn check(root: &Path, opts: &Options) -> Health {
    let mut h = Health { watches: watches(root), ..Health::default() };
    let path = store::index_path(root);
    for suffix in ["", "-wal"] {
        h.db_bytes += std::fs::metadata(format!("{}{suffix}", path.display())).map(|m| m.len()).unwrap_or(0);
    }
    h.missing = !path.exists();
    if let Err(e) = examine(root, opts, &mut h) {
        h.broken = Some(e);
    }
    h
}

fn examine(root: &Path, opts: &Options, h: &mut Health) -> Result<(), String> {
    let store = Store::open_read(root).map_err(|e| match e {
        store::Error::Missing(_) if store::build_running(root) => "no index yet: another process is building it".to_string(),
        store::Error::Missing(_) => "no index yet; run `repochart index`".to_string(),
        e => format!("cannot open the index: {e}"),
    })?;
    let bad = |e: store::Error| {
        let why = match e {
            store::Error::Sqlite(e) => e.to_string(),
            e => e.to_string(),
        };
        format!("the index is unreadable ({why}); `repochart index` rebuilds it")
    };
    let version: i64 = store.schema_version().map_err(bad)?;
    h.schema_version = Some(version);
    if version != store::SCHEMA_VERSION {
        return Err(format!("schema version {version}, this program reads {}; `repochart index` rebuilds it", store::SCHEMA_VERSION));
    }
    let check = store.quick_check().map_err(bad)?;
    if check != "ok" {
        return Err(format!("SQLite's quick_check failed: {check}; `repochart index` rebuilds it"));
    }
    let counts = store.counts().map_err(bad)?;
    h.files = counts.files as usize;
    h.symbols = counts.symbols as usize;
    h.references = counts.references as usize;
    h.resolved = counts.resolved as usize;
    h.syntax_error_files = counts.files_with_parse_errors as usize;
    h.indexed_at = store.meta("indexed_at").map_err(|e| e.to_string())?.and_then(|v| v.parse().ok());
    for reason in store.skipped_reasons().map_err(bad)? {
        let key = reason.split([':', '(', ';']).next().unwrap_or(&reason).trim().to_string();
        *h.skipped.entry(key).or_default() += 1;
    }
    // What a reconcile would do: the same walk and the same size/mtime test.
    let states = store.file_states().map_err(|e| e.to_string())?;
    let walked = walk(root, &opts.filter, opts.max_file_size, None);
    let mut seen: HashMap<&str, ()> = HashMap::new();
    for c in &walked.files {
        seen.insert(c.path.as_str(), ());
        match states.get(&c.path) {
            None => {
                h.pending.new += 1;
                h.pending.examples.push(format!("new {}", c.path));
            }
            Some(s) if s.size != c.size as i64 || s.mtime_ns != c.mtime_ns => {
                h.pending.changed += 1;
                h.pending.examples.push(format!("changed {}", c.path));
            }
            Some(_) => {}
        }
    }
    let mut gone: Vec<&String> = states.keys().filter(|p| !seen.contains_key(p.as_str())).collect();
    gone.sort();
    h.pending.removed = gone.len();
    h.pending.examples.extend(gone.into_iter().map(|p| format!("removed {p}")));
    h.pending.examples.truncate(5);
    h.build = crate::tools::Atlas::new(root).build_report().map_err(|e| e.0)?;
    Ok(())
}

/// Directories under the root (what a recursive inotify watch costs) and the machine's use
/// and limit of inotify watches (Linux; elsewhere unknown).
fn watches(root: &Path) -> Watches {
    fn count_dirs(dir: &Path) -> usize {
        let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
        1 + entries.flatten().filter(|e| e.file_type().is_ok_and(|t| t.is_dir())).map(|e| count_dirs(&e.path())).sum::<usize>()
    }
    let max_user_watches =
        std::fs::read_to_string("/proc/sys/fs/inotify/max_user_watches").ok().and_then(|s| s.trim().parse::<usize>().ok());
    let in_use = max_user_watches.map(|_| {
        let mut n = 0;
        for proc_dir in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            for fd in std::fs::read_dir(proc_dir.path().join("fdinfo")).into_iter().flatten().flatten() {
                if let Ok(text) = std::fs::read_to_string(fd.path()) {
                    n += text.lines().filter(|l| l.starts_with("inotify wd:")).count();
                }
            }
        }
        n
    });
    Watches { needed: count_dirs(root), in_use, max_user_watches }
}

impl Health {
    pub fn is_ok(&self) -> bool {
        self.broken.is_none()
    }

    /// The report `repochart status` prints.
    pub fn report(&self, root: &Path) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "repository: {}", root.display());
        if self.missing {
            let _ = writeln!(out, "index: {} (not built yet)", store::index_path(root).display());
            if store::build_running(root) {
                let _ = writeln!(out, "status: not indexed yet: another process is building it");
            } else {
                let _ = writeln!(
                    out,
                    "status: not indexed yet: run `repochart index --repo {}` (or start `repochart serve`, which builds it)",
                    root.display()
                );
            }
            return out;
        }
        let _ = writeln!(out, "index: {} ({})", store::index_path(root).display(), human_bytes(self.db_bytes));
        match &self.broken {
            Some(why) => {
                let _ = writeln!(out, "status: BROKEN: {why}");
            }
            None => {
                let _ = writeln!(out, "status: ok (schema version {})", self.schema_version.unwrap_or_default());
                let _ = writeln!(
                    out,
                    "contents: {} files, {} symbols, {} references ({} resolved)",
                    self.files, self.symbols, self.references, self.resolved
                );
                let age = self.indexed_at.map(|t| {
                    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(t);
                    format!("{} ago", human_duration(now.saturating_sub(t)))
                });
                let _ = writeln!(out, "last update: {}", age.unwrap_or_else(|| "unknown".into()));
                let p = &self.pending;
                if p.new + p.changed + p.removed == 0 {
                    let _ = writeln!(out, "pending: none (the index matches the files on disk)");
                } else {
                    let _ = writeln!(
                        out,
                        "pending: {} new, {} changed, {} removed files not yet indexed (e.g. {}); `repochart index` or a running server catches up",
                        p.new,
                        p.changed,
                        p.removed,
                        p.examples.join(", ")
                    );
                }
                let _ = writeln!(
                    out,
                    "syntax errors: {} (indexed with tree-sitter's recovery)",
                    crate::text::plural(self.syntax_error_files, "file")
                );
                let b = &self.build;
                if b.units > 0 || !b.manifest_errors.is_empty() {
                    let _ = writeln!(out, "build: {}", crate::text::plural(b.units, "unit"));
                }
                for e in &b.manifest_errors {
                    let _ = writeln!(out, "  manifest unreadable (its folder read with the default layout): {e}");
                }
                for u in &b.undeclared {
                    let _ = writeln!(out, "  undeclared dependency: {u}");
                }
                if b.config_files > 0 || !b.unset_keys.is_empty() {
                    let _ = writeln!(
                        out,
                        "configuration: {} in {}",
                        crate::text::plural(b.config_keys, "key"),
                        crate::text::plural(b.config_files, "file")
                    );
                }
                for e in &b.config_errors {
                    let _ = writeln!(out, "  unreadable past this line (keys before it kept): {e}");
                }
                for k in &b.unset_keys {
                    let _ = writeln!(out, "  read in code, set in no configuration file: {k}");
                }
                if b.mapper_files > 0 {
                    let _ = writeln!(
                        out,
                        "mybatis: {} in {}",
                        crate::text::plural(b.statements, "statement"),
                        crate::text::plural(b.mapper_files, "mapper file")
                    );
                }
                for e in &b.mapper_errors {
                    let _ = writeln!(out, "  mapper file unreadable: {e}");
                }
                if self.skipped.is_empty() {
                    let _ = writeln!(out, "skipped: none");
                } else {
                    let parts: Vec<String> = self.skipped.iter().map(|(r, n)| format!("{n} {r}")).collect();
                    let _ = writeln!(out, "skipped: {}", parts.join(", "));
                }
            }
        }
        let w = &self.watches;
        match (w.in_use, w.max_user_watches) {
            (Some(used), Some(max)) => {
                let room = if used + w.needed > max {
                    "  NOT ENOUGH: the watcher will fall back to polling every 2 s; raise fs.inotify.max_user_watches"
                } else {
                    ""
                };
                let _ = writeln!(out, "watcher: needs {} inotify watches; {used} of max_user_watches {max} in use{room}", w.needed);
            }
            _ => {
                let _ = writeln!(out, "watcher: needs {} directory watches (system limits unknown here)", w.needed);
            }
        }
        out
    }
}

fn human_bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 20 => format!("{:.1} MB", n as f64 / (1 << 20) as f64),
        n if n >= 1 << 10 => format!("{:.1} KB", n as f64 / 1024.0),
        n => format!("{n} bytes"),
    }
}

fn human_duration(secs: u64) -> String {
    match secs {
        s if s < 120 => format!("{s} s"),
        s if s < 7200 => format!("{} min", s / 60),
        s if s < 172_800 => format!("{} h", s / 3600),
        s => format!("{} days", s / 86_400),
    }
}
