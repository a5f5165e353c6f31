//! What changed in the working tree against a git revision, per file and line range, read
//! with `gix` (no `git` process). `change_impact` maps these lines to symbols.
//!
//! Owns reading git: the revision's tree, blob contents, and the line diff against the
//! files on disk. It must not touch the index; callers pass the paths they know.

use std::collections::HashMap;
use std::path::Path;

use gix::bstr::ByteSlice;

/// How a file differs from the revision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    Added,
    Modified,
    Deleted,
}

impl ChangeKind {
    pub fn letter(self) -> char {
        match self {
            ChangeKind::Added => 'A',
            ChangeKind::Modified => 'M',
            ChangeKind::Deleted => 'D',
        }
    }
}

/// One changed file, relative to the repository root given to `changes`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileChange {
    pub path: String,
    pub kind: ChangeKind,
    /// Changed line ranges on the working-tree side, 1-based and inclusive. Lines deleted
    /// between two kept lines count as a change of the line after them.
    pub lines: Vec<(u32, u32)>,
}

/// The base a comparison starts from.
pub enum Base<'a> {
    /// `HEAD` (an unborn `HEAD` is the empty tree): uncommitted changes, staged or not.
    Head,
    /// Any revision git understands: `main`, `HEAD~3`, a commit id, a tag.
    Rev(&'a str),
}

/// Compares the working-tree files `current` (paths relative to `root`, which may be a
/// subdirectory of the git work tree) with the same paths in `base`. Files of the base
/// under `root` that are gone from disk and satisfy `tracked` are reported as deleted.
pub fn changes(root: &Path, base: Base<'_>, current: &[String], tracked: &dyn Fn(&str) -> bool) -> anyhow::Result<Vec<FileChange>> {
    let repo = gix::discover(root).map_err(|e| anyhow::anyhow!("{} is not in a git repository ({e})", root.display()))?;
    let workdir = repo.workdir().ok_or_else(|| anyhow::anyhow!("the git repository has no working tree (bare)"))?;
    let workdir = workdir.canonicalize()?;
    let root = root.canonicalize()?;
    let prefix = root.strip_prefix(&workdir).map_err(|_| anyhow::anyhow!("{} is outside the git work tree", root.display()))?;
    let prefix = prefix.to_string_lossy().replace('\\', "/");
    let prefix = if prefix.is_empty() { String::new() } else { format!("{prefix}/") };

    let tree = match base {
        Base::Head => {
            let id = repo.head_tree_id_or_empty().map_err(|e| anyhow::anyhow!("cannot read HEAD: {e}"))?;
            repo.find_object(id)?.peel_to_tree()?
        }
        Base::Rev(rev) => {
            let id = repo.rev_parse_single(rev).map_err(|e| anyhow::anyhow!("unknown revision {rev:?}: {e}"))?;
            repo.find_object(id)?.peel_to_tree().map_err(|e| anyhow::anyhow!("{rev:?} does not name a commit or tree: {e}"))?
        }
    };
    let mut recorder = gix::traverse::tree::Recorder::default();
    tree.traverse().breadthfirst(&mut recorder).map_err(|e| anyhow::anyhow!("cannot read the tree: {e}"))?;
    let mut blobs: HashMap<String, gix::ObjectId> = HashMap::new();
    for entry in recorder.records {
        if !entry.mode.is_blob() {
            continue;
        }
        let path = entry.filepath.to_str_lossy();
        if let Some(rel) = path.strip_prefix(prefix.as_str()) {
            blobs.insert(rel.to_string(), entry.oid);
        }
    }

    let hash_kind = repo.object_hash();
    let mut out = Vec::new();
    for path in current {
        let Ok(now) = std::fs::read(root.join(path)) else { continue };
        let Some(&old_id) = blobs.get(path) else {
            let lines = count_lines(&now);
            out.push(FileChange { path: path.clone(), kind: ChangeKind::Added, lines: vec![(1, lines.max(1))] });
            continue;
        };
        let now_id = super::blob_id_in(hash_kind, &now)?;
        if now_id == old_id {
            continue;
        }
        let old = repo.find_object(old_id)?.detach().data;
        let lines = changed_lines(&old, &now);
        if !lines.is_empty() {
            out.push(FileChange { path: path.clone(), kind: ChangeKind::Modified, lines });
        }
    }
    let current_set: std::collections::HashSet<&str> = current.iter().map(String::as_str).collect();
    let mut deleted: Vec<&String> =
        blobs.keys().filter(|p| !current_set.contains(p.as_str()) && tracked(p) && !root.join(p.as_str()).exists()).collect();
    deleted.sort();
    for path in deleted {
        out.push(FileChange { path: path.clone(), kind: ChangeKind::Deleted, lines: Vec::new() });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

fn count_lines(text: &[u8]) -> u32 {
    let n = text.iter().filter(|&&b| b == b'\n').count();
    (n + usize::from(!text.is_empty() && !text.ends_with(b"\n"))) as u32
}

/// The working-tree side's changed line ranges between two versions of a file.
pub fn changed_lines(old: &[u8], new: &[u8]) -> Vec<(u32, u32)> {
    let (old, new) = (String::from_utf8_lossy(old), String::from_utf8_lossy(new));
    let diff = similar::TextDiff::configure().algorithm(similar::Algorithm::Myers).diff_lines(old.as_ref(), new.as_ref());
    let last_line = count_lines(new.as_bytes()).max(1);
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    for op in diff.ops() {
        let (start, len) = match *op {
            similar::DiffOp::Equal { .. } => continue,
            similar::DiffOp::Delete { new_index, .. } => (new_index, 0),
            similar::DiffOp::Insert { new_index, new_len, .. } | similar::DiffOp::Replace { new_index, new_len, .. } => {
                (new_index, new_len)
            }
        };
        let first = (start as u32 + 1).min(last_line);
        let last = if len == 0 { first } else { start as u32 + len as u32 };
        match ranges.last_mut() {
            Some((_, end)) if first <= *end + 1 => *end = (*end).max(last),
            _ => ranges.push((first, last)),
        }
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::changed_lines;

    #[test]
    fn line_ranges() {
        assert_eq!(changed_lines(b"a\nb\nc\n", b"a\nb\nc\n"), vec![]);
        assert_eq!(changed_lines(b"a\nb\nc\n", b"a\nB\nc\n"), vec![(2, 2)]);
        assert_eq!(changed_lines(b"a\nb\nc\n", b"a\nb\nx\ny\nc\n"), vec![(3, 4)]);
        // A deletion marks the line that follows it; at the end, the last line.
        assert_eq!(changed_lines(b"a\nb\nc\n", b"a\nc\n"), vec![(2, 2)]);
        assert_eq!(changed_lines(b"a\nb\nc\n", b"a\nb\n"), vec![(2, 2)]);
        assert_eq!(changed_lines(b"a\nb\nc\nd\ne\n", b"A\nb\nc\nd\nE\n"), vec![(1, 1), (5, 5)]);
    }
}
