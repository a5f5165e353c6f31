//! Line formatting shared by the tools: a symbol's place and handle, a node's label and
//! facts (loc, complexity, last modified), counts and dates. Must not query for lists.

pub use crate::text::{date_of, date_time_of, plural};
use std::sync::Arc;

use super::{Atlas, ToolError};
use crate::graph::{Graph, Node};
use crate::model::{Language, RefKind};
use crate::store::{FileInfo, Store, SymbolInfo};

/// Prefix sums over a file's lines: non-blank lines and branch words up to line `i`.
pub(super) struct LineStats {
    loc: Vec<u32>,
    branches: Vec<u32>,
    /// The content's git blob id (equal to `HEAD`'s when the file is unchanged), hashed
    /// only when git history asks (`Atlas::content_blob`).
    blob: std::sync::OnceLock<Vec<u8>>,
}

impl LineStats {
    /// Non-blank lines and branch words of the whole file.
    pub(super) fn lines(&self) -> (usize, usize) {
        (*self.loc.last().unwrap_or(&0) as usize, *self.branches.last().unwrap_or(&0) as usize)
    }
}

/// What graph answers tell of a symbol or file besides its place.
pub(super) struct Facts {
    pub loc: usize,
    /// 1-10, see `complexity`.
    pub complexity: u32,
    /// The file's last modification, `YYYY-MM-DD`.
    pub modified: String,
}

impl Facts {
    /// `loc 12 cx 3`, and the date unless it is `usual` (the answer's heading says it).
    pub(super) fn compact(&self, usual: &str) -> String {
        let mut out = format!("loc {} cx {}", self.loc, self.complexity);
        if self.modified != usual {
            out.push_str(" modified ");
            out.push_str(&self.modified);
        }
        out
    }
}

/// `Atlas::grouped` of a symbol whose file's module is known.
pub(super) fn grouped_in(s: &SymbolInfo, module: &str) -> (String, String, String) {
    let file = s.path.rsplit('/').next().unwrap_or(&s.path);
    let sep = if s.language == Language::Java { "." } else { "::" };
    let handle = s.signature_handle();
    let relative = if module.is_empty() { handle.as_str() } else { handle.strip_prefix(&format!("{module}{sep}")).unwrap_or(&handle) };
    (module_heading(module, &s.path), format!("{} {relative}", s.kind), format!("{file}:{}", lines_of(s)))
}

/// The heading of a module's rows: the module and the folder of the file, `java.util  java/util/`.
pub(super) fn module_heading(module: &str, path: &str) -> String {
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    format!("{}  {dir}/", if module.is_empty() { "(default package)" } else { module })
}

pub(super) fn location(s: &SymbolInfo) -> String {
    format!("{}:{}", s.path, lines_of(s))
}

pub(super) fn lines_of(s: &SymbolInfo) -> String {
    if s.start_line == s.end_line {
        s.start_line.to_string()
    } else {
        format!("{}-{}", s.start_line, s.end_line)
    }
}

pub(super) fn handle_of(s: &SymbolInfo) -> String {
    format!("{}:{}", s.path, s.start_line)
}

pub(super) fn format_counts(counts: &[(RefKind, usize)]) -> String {
    if counts.is_empty() {
        return "0".into();
    }
    counts.iter().map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", ")
}

/// Branch points in source lines: `if`, loops, `case`/match arms, `catch`, `&&`, `||`, `?`.
pub(super) fn count_branches(lines: &[&str]) -> usize {
    let mut n = 0;
    for line in lines {
        let code = line.split("//").next().unwrap_or("");
        for word in code.split(|c: char| !c.is_alphanumeric() && c != '_') {
            if matches!(word, "if" | "for" | "while" | "case" | "catch" | "loop") {
                n += 1;
            }
        }
        n += code.matches("&&").count() + code.matches("||").count() + code.matches("=>").count();
    }
    n
}

/// Complexity 1-10: `1 + log2(1 + loc/25) + log2(1 + branches/4) + log2(1 + fan_out/4)`,
/// rounded and clamped. Size, branching and fan-out each add about one point per doubling.
pub fn complexity(loc: usize, branches: usize, fan_out: usize) -> u32 {
    let term = |x: usize, scale: f64| (1.0 + x as f64 / scale).log2();
    let score = 1.0 + term(loc, 25.0) + term(branches, 4.0) + term(fan_out, 4.0);
    (score.round() as u32).clamp(1, 10)
}

impl Atlas {
    /// A symbol as compact lists show it: the heading of its group (module and folder,
    /// written once above its run of rows), its kind and name relative to the module (with
    /// parameter types for a callable), and its place relative to the folder.
    pub(super) fn grouped(&self, store: &Store, s: &SymbolInfo) -> Result<(String, String, String), ToolError> {
        let module = store.file(s.file_id)?.map(|f| f.module).unwrap_or_default();
        Ok(grouped_in(s, &module))
    }

    pub(super) fn node_label(&self, store: &Store, node: &Node) -> Result<(String, String), ToolError> {
        Ok(match node {
            Node::Symbol(id) => match store.symbol(*id)? {
                Some(s) => (format!("{} {}", s.kind, s.signature_handle()), location(&s)),
                None => (format!("symbol #{id}"), String::new()),
            },
            Node::External(id) => (format!("external {}", store.external_qname(*id)?.unwrap_or_default()), String::new()),
            Node::File(id) => match store.file(*id)? {
                Some(f) => (format!("file {}", f.path), String::new()),
                None => (format!("file #{id}"), String::new()),
            },
            Node::Module(m) => (format!("module {}", if m.is_empty() { "(default)" } else { m }), String::new()),
            Node::Unit(u) => (self.unit_label(store, *u)?, String::new()),
        })
    }

    /// loc, complexity (1-10) and last-modified date of a node, where it has them.
    /// Per-line counts of a file (prefix sums), read once per file version: graph answers
    /// list dozens of nodes, often in the same large files.
    pub(super) fn line_stats(&self, file: &FileInfo) -> Arc<LineStats> {
        let mut cache = self.line_stats.lock().expect("line stats lock");
        if let Some((mtime, stats)) = cache.get(&file.id) {
            if *mtime == file.mtime_ns {
                return stats.clone();
            }
        }
        let bytes = std::fs::read(self.root.join(&file.path)).unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes);
        let (mut loc, mut branches) = (vec![0u32], vec![0u32]);
        for line in text.lines() {
            loc.push(loc.last().unwrap() + u32::from(!line.trim().is_empty()));
            branches.push(branches.last().unwrap() + count_branches(&[line]) as u32);
        }
        let stats = Arc::new(LineStats { loc, branches, blob: std::sync::OnceLock::new() });
        // Bounded: a long session over a huge tree does not keep every file's counts.
        if cache.values().map(|(_, s)| s.loc.len()).sum::<usize>() > 4_000_000 {
            cache.clear();
        }
        cache.insert(file.id, (file.mtime_ns, stats.clone()));
        stats
    }

    /// The git blob id of a file's content as its line counts were read (hashed once per
    /// version of the file).
    pub(super) fn content_blob(&self, file: &FileInfo) -> Vec<u8> {
        let stats = self.line_stats(file);
        stats.blob.get_or_init(|| crate::git::blob_id(&std::fs::read(self.root.join(&file.path)).unwrap_or_default())).clone()
    }

    /// loc, complexity (1-10) and last-modified date of a symbol's or file's lines.
    pub(super) fn node_facts(&self, store: &Store, graph: &Graph, node: &Node) -> Result<Option<Facts>, ToolError> {
        let (file, range) = match node {
            Node::Symbol(id) => match store.symbol(*id)? {
                Some(s) => (store.file(s.file_id)?, Some((s.start_line, s.end_line))),
                None => return Ok(None),
            },
            Node::File(id) => (store.file(*id)?, None),
            _ => return Ok(None),
        };
        let Some(file) = file else {
            return Ok(None);
        };
        let stats = self.line_stats(&file);
        let lines = stats.loc.len() as u32 - 1;
        let (start, end) = range.unwrap_or((1, lines));
        let (start, end) = (start.clamp(1, lines.max(1)) as usize, end.min(lines) as usize);
        let (loc, branches) = if lines == 0 || end < start {
            (0, 0)
        } else {
            ((stats.loc[end] - stats.loc[start - 1]) as usize, (stats.branches[end] - stats.branches[start - 1]) as usize)
        };
        let fan_out = graph.degree(node, petgraph::Direction::Outgoing);
        let modified = self.dated(store, &file, range)?.short();
        Ok(Some(Facts { loc, complexity: complexity(loc, branches, fan_out), modified }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(date_time_of(0), "1970-01-01 00:00 UTC");
        assert_eq!(date_time_of(1_795_996_800 * 1_000_000_000), "2026-11-30 00:00 UTC");
        assert_eq!(date_time_of(951_782_400 * 1_000_000_000), "2000-02-29 00:00 UTC");
    }

    #[test]
    fn complexity_grows_with_size_branches_and_fan_out() {
        assert_eq!(complexity(0, 0, 0), 1);
        assert_eq!(complexity(25, 4, 4), 4);
        assert_eq!(complexity(10_000, 1_000, 1_000), 10);
    }
}
