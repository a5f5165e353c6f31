//! The commit that last changed some lines of a file, as `git blame` finds it (`gix`'s
//! blame, every parent followed): the commit that made the change, with its author, even
//! when a merge brought it to the main line, and however old it is. Read on demand for one
//! declaration (`get_symbol`); nothing is stored.
//!
//! Owns that one read of git. It must not answer tools nor touch the store.

use std::path::Path;

use gix::bstr::{BStr, ByteSlice};

use crate::store::CommitRow;

/// The newest commit among those that last changed the lines `start..=end` (1-based, in
/// `HEAD`'s version) of `path` (relative to `root`, which may be a folder of the
/// repository). None when the file is not in `HEAD` or the lines are past its end.
pub fn last_change(root: &Path, path: &str, start: u32, end: u32) -> anyhow::Result<Option<CommitRow>> {
    let repo = gix::discover(root)?;
    let Some(workdir) = repo.workdir() else { return Ok(None) };
    let prefix = root.canonicalize()?.strip_prefix(workdir.canonicalize()?).map(|p| p.to_string_lossy().replace('\\', "/"))?;
    let in_repo = if prefix.is_empty() { path.to_string() } else { format!("{prefix}/{path}") };
    let head = repo.head_id()?.detach();
    let options = gix::repository::blame_file::Options {
        ranges: gix_blame_ranges(start, end)?,
        // Through renames, as `git blame` goes (`grep-searcher/src/..` moved to `crates/`).
        rewrites: Some(gix::diff::Rewrites::default()),
        ..Default::default()
    };
    let outcome = match repo.blame_file(BStr::new(in_repo.as_bytes()), head, options) {
        Ok(o) => o,
        // Not in HEAD (a new file), or lines it does not have.
        Err(e) => {
            tracing::debug!("blame of {in_repo}:{start}-{end}: {e}");
            return Ok(None);
        }
    };
    tracing::debug!(entries = outcome.entries.len(), commits = outcome.statistics.commits_traversed, "blame of {in_repo}:{start}-{end}");
    let mut newest: Option<CommitRow> = None;
    let mut seen = std::collections::HashSet::new();
    for entry in &outcome.entries {
        if !seen.insert(entry.commit_id) {
            continue;
        }
        let commit = repo.find_commit(entry.commit_id)?;
        let time = commit.time()?.seconds;
        if newest.as_ref().is_some_and(|n| n.time >= time) {
            continue;
        }
        let author = commit.author()?.name.to_str_lossy().into_owned();
        let subject = commit.message()?.summary().to_str_lossy().into_owned();
        newest = Some(CommitRow { idx: 0, id: entry.commit_id.to_string(), time, author, subject });
    }
    Ok(newest)
}

fn gix_blame_ranges(start: u32, end: u32) -> anyhow::Result<gix::blame::BlameRanges> {
    gix::blame::BlameRanges::from_one_based_inclusive_range(start.max(1)..=end.max(start.max(1))).map_err(|e| anyhow::anyhow!("{e}"))
}
