//! The walk: which files of the repository are indexed or readable. Honours `.gitignore`,
//! `.ignore`, `.git/info/exclude`, `.repochartignore` (and an earlier version's
//! `.codeatlasignore`) and the include/exclude globs of `.repochart.toml`; never follows
//! symlinks; skips `.git/`, the index folder, secret-looking files and files over the size
//! limit, and reports what it skipped. Finds the build manifests on the way.
//!
//! Owns the file list. It must not read file contents (beyond their metadata), parse or
//! store: `index` reads and extracts what it lists.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use crate::build;
use crate::config::{Filter, CONFIG_FILE};
use crate::lang::{self, LanguageSpec};
use crate::store;

/// An ignore file of our own, in `.gitignore` syntax, for what git tracks but the index should not.
pub const CUSTOM_IGNORE_FILE: &str = ".repochartignore";
/// The ignore file of earlier versions (then called codeatlas), still honoured: files a
/// user kept out of the index stay out after the rename.
pub const LEGACY_IGNORE_FILE: &str = ".codeatlasignore";

/// A source file the walk found.
#[derive(Clone)]
pub struct Candidate {
    pub path: String,
    pub abs: PathBuf,
    pub size: u64,
    pub mtime_ns: i64,
    pub spec: &'static LanguageSpec,
}

/// The result of walking the repository.
pub struct Walk {
    pub files: Vec<Candidate>,
    pub skipped: Vec<(String, String)>,
    /// Build manifests (`Cargo.toml`, `pom.xml`, Gradle scripts), relative, sorted.
    pub manifests: Vec<String>,
}

/// Walks the repository honouring `.gitignore`, `.ignore`, `.git/info/exclude` and
/// `.repochartignore`, never following symlinks, skipping the index directory.
pub fn walk(root: &Path, filter: &Filter, max_file_size: u64, targets: Option<&[PathBuf]>) -> Walk {
    let builder = walker(root, targets);
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    let mut manifests = Vec::new();
    for entry in builder.build() {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                skipped.push((String::new(), format!("walk error: {e}")));
                continue;
            }
        };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let abs = entry.path().to_path_buf();
        let Ok(rel) = abs.strip_prefix(root) else {
            continue;
        };
        let rel = rel.to_string_lossy().replace('\\', "/");
        if build::manifest_names().iter().any(|m| entry.file_name() == m.as_str()) {
            manifests.push(rel.clone());
        }
        if entry.file_name() == "Cargo.toml" {
            continue;
        }
        if !filter.keeps_path(&rel) {
            continue;
        }
        if let Some(pattern) = filter.extra_secret(&rel) {
            skipped.push((rel, format!("looks like a secret ({pattern}, from {CONFIG_FILE}); not indexed")));
            continue;
        }
        let Some(spec) = lang::for_path(&rel) else {
            // Not source code, so never indexed or readable; secret-looking files are named
            // in the report so that nobody wonders. (Source files are never taken for
            // secrets by the built-in patterns: `CredentialsProvider.java` is code.)
            if let Some(pattern) = secret_pattern(&rel).filter(|_| !filter.allowed(&rel)) {
                skipped.push((rel, format!("looks like a secret ({pattern}); not indexed")));
            }
            continue;
        };
        if !filter.keeps_language(spec.language) {
            continue;
        }
        let meta = match entry.metadata() {
            Ok(m) => m,
            Err(e) => {
                skipped.push((rel, format!("unreadable: {e}")));
                continue;
            }
        };
        if meta.len() > max_file_size {
            skipped.push((rel, format!("too large: {} bytes (limit {})", meta.len(), max_file_size)));
            continue;
        }
        let mtime_ns = meta.modified().ok().and_then(|t| t.duration_since(UNIX_EPOCH).ok()).map(|d| d.as_nanos() as i64).unwrap_or(0);
        files.push(Candidate { path: rel, abs, size: meta.len(), mtime_ns, spec });
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    manifests.sort();
    Walk { files, skipped, manifests }
}

/// The walker both walks use: ignore files honoured, hidden entries, symlinks, `.git/` and
/// the index directory skipped; only the `targets` subtrees when given.
fn walker(root: &Path, targets: Option<&[PathBuf]>) -> ignore::WalkBuilder {
    // A walk of a few paths enters only their ancestors and what lies under them. Sets, so
    // that each entry costs a lookup per component, not a comparison per target (143
    // targets of java.base: 95 ms of comparisons).
    let targets: Option<(HashSet<PathBuf>, HashSet<PathBuf>)> = targets.map(|ts| {
        let under: HashSet<PathBuf> = ts.iter().cloned().collect();
        let above: HashSet<PathBuf> = ts.iter().flat_map(|t| t.ancestors().skip(1)).map(Path::to_path_buf).collect();
        (under, above)
    });
    let mut builder = ignore::WalkBuilder::new(root);
    builder
        .hidden(true)
        .follow_links(false)
        .require_git(false)
        .git_ignore(true)
        .git_exclude(true)
        .ignore(true)
        .parents(false)
        .add_custom_ignore_filename(LEGACY_IGNORE_FILE)
        .add_custom_ignore_filename(CUSTOM_IGNORE_FILE)
        .filter_entry(move |e| {
            e.file_name() != store::INDEX_DIR
                && e.file_name() != store::LEGACY_INDEX_DIR
                && e.file_name() != ".git"
                && targets.as_ref().is_none_or(|(under, above)| above.contains(e.path()) || e.path().ancestors().any(|a| under.contains(a)))
        });
    builder
}

/// Every file under `prefix` that `search_text` may search: what the walk admits (ignore
/// files, `.repochart.toml` includes and excludes, the size limit), source or not (build
/// files, YAML, XML, SQL, Markdown), never a secret-looking file. Sorted by path; binary
/// files are left to the searcher, which stops at their first NUL byte.
pub fn text_files(root: &Path, filter: &Filter, max_file_size: u64, prefix: &str) -> Vec<(String, PathBuf)> {
    // Only the folder the prefix names (or the one it ends in) is walked.
    let folder = [root.join(prefix.rsplit_once('/').map_or("", |(dir, _)| dir))];
    let mut out = Vec::new();
    for entry in walker(root, Some(&folder)).build().flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Ok(rel) = entry.path().strip_prefix(root) else { continue };
        let rel = rel.to_string_lossy().replace('\\', "/");
        if !rel.starts_with(prefix)
            || !filter.keeps_path(&rel)
            || filter.extra_secret(&rel).is_some()
            || (secret_pattern(&rel).is_some() && !filter.allowed(&rel))
            || entry.metadata().map_or(true, |m| m.len() > max_file_size)
        {
            continue;
        }
        out.push((rel, entry.path().to_path_buf()));
    }
    out.sort();
    out
}

/// File names that usually hold secrets. Tools read only indexed source files, so these
/// are never readable; the walk reports them. A sorted table of (pattern, kind of match).
const SECRET_PATTERNS: &[(&str, Match)] = &[
    (".env", Match::Prefix),
    (".key", Match::Suffix),
    (".npmrc", Match::Exact),
    (".p12", Match::Suffix),
    (".pem", Match::Suffix),
    (".pypirc", Match::Exact),
    ("credentials", Match::Prefix),
    ("id_rsa", Match::Prefix),
];

#[derive(Clone, Copy)]
enum Match {
    Exact,
    Prefix,
    Suffix,
}

/// The secret pattern a path's file name matches, if any.
pub fn secret_pattern(path: &str) -> Option<String> {
    let name = path.rsplit('/').next().unwrap_or(path).to_lowercase();
    SECRET_PATTERNS.iter().find_map(|(p, how)| {
        let hit = match how {
            Match::Exact => name == *p,
            Match::Prefix => name.starts_with(p),
            Match::Suffix => name.ends_with(p),
        };
        hit.then(|| match how {
            Match::Exact => p.to_string(),
            Match::Prefix => format!("{p}*"),
            Match::Suffix => format!("*{p}"),
        })
    })
}
