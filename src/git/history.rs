//! History from git, read in-process with `gix` (no `git` process): which commits changed
//! each indexed file and, for the newest changes of each file, which lines of `HEAD`'s
//! version each one touched (where the code it changed is now). The tools turn this into `modified=` dates, a symbol's
//! last commits, churn and hot spots.
//!
//! How: one first-parent walk from `HEAD` (a merged pull request counts as its merge
//! commit), newest first, bounded by `[history]` in `.repochart.toml` (10,000 commits or
//! two years before `HEAD` by default); each commit's tree is compared with its first
//! parent's (trees only, no contents). Then, per file the walk saw change, its last
//! `LINE_DEPTH` versions are compared line by line, newest first, carrying a map from each
//! older version's lines to `HEAD`'s: a symbol's commits are the changes whose lines meet its
//! range. When `HEAD` moves, only the new commits are walked (and the files they touched
//! compared again); a `HEAD` that no longer descends from the stored one starts over.
//!
//! Owns reading git history and deciding what to store. It must not answer questions
//! (`tools` reads what it stored) nor touch the symbol tables.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::Instant;

use gix::bstr::ByteSlice;
use serde::{Deserialize, Serialize};

use crate::config::HistoryConfig;
use crate::store::{ChangeRow, CommitRow, HistoryWriter, Store, HISTORY_HEAD, HISTORY_STATE};

/// How many of a file's newest changes are compared line by line (a symbol's commits are
/// found among these; the file's own dates and churn use every change of the walk).
pub const LINE_DEPTH: usize = 30;

/// What the stored history is, for answers and `status`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryState {
    /// `ready`, `none` (no git repository), `unborn` (no commit yet), `disabled`, `failed`;
    /// the tools add `reading` (the first read runs) and `unread` (never read).
    pub status: String,
    /// Why it is not `ready`, in words.
    #[serde(default)]
    pub why: String,
    /// The commit the history ends at.
    #[serde(default)]
    pub head: String,
    /// Its committer time.
    #[serde(default)]
    pub head_time: i64,
    /// Commits stored.
    #[serde(default)]
    pub commits: usize,
    /// The oldest stored commit's time.
    #[serde(default)]
    pub oldest_time: i64,
    /// What cut the walk (`10000 commits`, `730 days`), empty when it reached the first commit.
    #[serde(default)]
    pub cut: String,
    /// A shallow clone: the oldest commit stands for everything before it.
    #[serde(default)]
    pub shallow: bool,
    /// The last refresh: commits walked and milliseconds taken.
    #[serde(default)]
    pub walked: usize,
    #[serde(default)]
    pub ms: u64,
}

impl HistoryState {
    fn not_ready(status: &str, why: String) -> HistoryState {
        HistoryState { status: status.to_string(), why, ..HistoryState::default() }
    }

    pub fn is_ready(&self) -> bool {
        self.status == "ready"
    }

    /// One line for answers: where dates come from (empty when history was never read).
    pub fn describe(&self) -> String {
        match self.status.as_str() {
            "ready" => {
                let mut out = format!(
                    "history: {} commit{} to {} ({})",
                    self.commits,
                    if self.commits == 1 { "" } else { "s" },
                    &self.head[..self.head.len().min(8)],
                    crate::text::date_of_seconds(self.head_time)
                );
                if self.shallow {
                    out = format!(
                        "history: shallow clone, dates from the last {} commit{}",
                        self.commits,
                        if self.commits == 1 { "" } else { "s" }
                    );
                } else if !self.cut.is_empty() {
                    out.push_str(&format!(
                        "; cut at {}, older changes dated before {}",
                        self.cut,
                        crate::text::date_of_seconds(self.oldest_time)
                    ));
                }
                out
            }
            "reading" => "history: still being read; dates are file times".to_string(),
            // Never read (an index built without it): nothing to say beyond the dates.
            "unread" => String::new(),
            _ => format!("no git history ({}); dates are file times", self.why),
        }
    }
}

/// Reads what changed since the stored history and stores it. Never fails for git's
/// reasons: a missing repository, an unborn branch or an unreadable object become the
/// stored state (the error is returned only when the index cannot be written).
pub fn refresh(store: &Store, config: &HistoryConfig) -> anyhow::Result<HistoryState> {
    let started = Instant::now();
    let mut writer = store.history_writer()?;
    let root = store.root().to_path_buf();
    let state = match walk_and_store(&root, &mut writer, config) {
        Ok(Some(state)) => state,
        // HEAD has not moved.
        Ok(None) => return Ok(read_state(store)?.unwrap_or_default()),
        Err(Skip(state)) => {
            writer.clear()?;
            *state
        }
    };
    let mut state = state;
    state.ms = started.elapsed().as_millis() as u64;
    writer.set_meta(&[(HISTORY_STATE, serde_json::to_string(&state)?)])?;
    Ok(state)
}

/// The stored state, if history was ever read.
pub fn read_state(store: &Store) -> anyhow::Result<Option<HistoryState>> {
    Ok(store.history_state()?.and_then(|s| serde_json::from_str(&s).ok()))
}

/// A state other than `ready`: nothing is stored.
struct Skip(Box<HistoryState>);

impl<E: std::fmt::Display> From<E> for Skip {
    fn from(e: E) -> Skip {
        skip("failed", format!("cannot read git history: {e}"))
    }
}

fn skip(status: &str, why: String) -> Skip {
    Skip(Box::new(HistoryState::not_ready(status, why)))
}

/// A change of a path: (path, commit idx, blob before, blob after).
type Change = (String, i64, Option<Vec<u8>>, Option<Vec<u8>>);

/// One commit the walk took: its row, tree, and first parent (None: a root commit, or the
/// edge of a shallow clone).
struct Walked {
    id: gix::ObjectId,
    row: CommitRow,
    tree: gix::ObjectId,
    parent: Option<gix::ObjectId>,
}

fn walk_and_store(root: &Path, writer: &mut HistoryWriter, config: &HistoryConfig) -> Result<Option<HistoryState>, Skip> {
    if !config.enabled {
        return Err(skip("disabled", "history.enabled = false in .repochart.toml".into()));
    }
    let repo = gix::discover(root).map_err(|_| skip("none", "not a git repository".into()))?;
    let Some(workdir) = repo.workdir() else {
        return Err(skip("none", "a bare repository".into()));
    };
    let workdir = workdir.canonicalize()?;
    let root = root.canonicalize()?;
    let prefix = root.strip_prefix(&workdir).map(|p| p.to_string_lossy().replace('\\', "/")).unwrap_or_default();
    let prefix = if prefix.is_empty() { String::new() } else { format!("{prefix}/") };
    let head = match repo.head_id() {
        Ok(id) => id.detach(),
        Err(_) => return Err(skip("unborn", "the branch has no commit yet".into())),
    };
    let stored_head = writer.meta(HISTORY_HEAD).map_err(Skip::from)?;
    if stored_head.as_deref() == Some(head.to_string().as_str()) {
        return Ok(None);
    }
    let shallow = repo.is_shallow().unwrap_or(false);
    let stop_at: Option<gix::ObjectId> = stored_head.as_deref().and_then(|h| gix::ObjectId::from_hex(h.as_bytes()).ok());

    // The walk, newest first.
    let head_time = repo.find_commit(head)?.time()?.seconds;
    let cutoff = head_time - i64::from(config.max_days) * 86_400;
    let mut walked: Vec<Walked> = Vec::new();
    let mut cut = String::new();
    let mut met_stored = false;
    for info in repo.rev_walk([head]).first_parent_only().all()? {
        let info = match info {
            Ok(i) => i,
            // A missing parent (a shallow clone's edge, a damaged repository): the walk ends.
            Err(e) => {
                tracing::warn!("git history: the walk stopped: {e}");
                break;
            }
        };
        if Some(info.id) == stop_at {
            met_stored = true;
            break;
        }
        if walked.len() >= config.max_commits {
            cut = format!("{} commits", config.max_commits);
            break;
        }
        let commit = info.object()?;
        let time = commit.time()?.seconds;
        if time < cutoff {
            cut = format!("{} days", config.max_days);
            break;
        }
        let author = commit.author()?.name.to_str_lossy().into_owned();
        let subject = commit.message()?.summary().to_str_lossy().into_owned();
        let parent = commit.parent_ids().next().map(|p| p.detach()).filter(|p| repo.has_object(p));
        walked.push(Walked {
            id: info.id,
            row: CommitRow { idx: 0, id: info.id.to_string(), time, author, subject },
            tree: commit.tree_id()?.detach(),
            parent,
        });
    }
    // Going on from the stored history needs its head to be an ancestor the walk met.
    let fresh = !met_stored;
    let base = if fresh { 0 } else { writer.max_idx().map_err(Skip::from)? };
    let n = walked.len() as i64;
    for (i, w) in walked.iter_mut().enumerate() {
        w.row.idx = base + n - i as i64;
    }

    // Each commit's changes to indexed paths, against its first parent's tree.
    let indexed: HashSet<String> = writer.indexed_paths().map_err(Skip::from)?.into_iter().collect();
    let mut changes: Vec<Change> = Vec::new();
    let mut state = gix::diff::tree::State::default();
    let empty = gix::ObjectId::empty_tree(repo.object_hash());
    let (mut buf_old, mut buf_new) = (Vec::new(), Vec::new());
    let mut in_buf_old: Option<gix::ObjectId> = None;
    for (i, w) in walked.iter().enumerate() {
        // The first parent is the next commit walked (a first-parent walk), unless the walk
        // stopped there.
        let old_tree = match w.parent {
            Some(p) => match walked.get(i + 1).filter(|next| next.id == p) {
                Some(next) => next.tree,
                None => repo.find_commit(p)?.tree_id()?.detach(),
            },
            None => empty,
        };
        // This commit's tree was the one before's parent tree: read already.
        if in_buf_old == Some(w.tree) {
            std::mem::swap(&mut buf_new, &mut buf_old);
        } else {
            read_tree(&repo, w.tree, &mut buf_new)?;
        }
        read_tree(&repo, old_tree, &mut buf_old)?;
        in_buf_old = Some(old_tree);
        let mut recorder = gix::diff::tree::Recorder::default();
        gix::diff::tree(
            gix::objs::TreeRefIter::from_bytes(&buf_old, repo.object_hash()),
            gix::objs::TreeRefIter::from_bytes(&buf_new, repo.object_hash()),
            &mut state,
            &repo.objects,
            &mut recorder,
        )?;
        for change in recorder.records {
            use gix::diff::tree::recorder::Change;
            let (path, old_blob, new_blob) = match change {
                Change::Addition { entry_mode, oid, path, .. } if entry_mode.is_blob() => (path, None, Some(oid)),
                Change::Deletion { entry_mode, oid, path, .. } if entry_mode.is_blob() => (path, Some(oid), None),
                Change::Modification { previous_entry_mode, previous_oid, entry_mode, oid, path } => {
                    (path, previous_entry_mode.is_blob().then_some(previous_oid), entry_mode.is_blob().then_some(oid))
                }
                _ => continue,
            };
            let path = path.to_str_lossy();
            let Some(rel) = path.strip_prefix(prefix.as_str()) else { continue };
            if indexed.contains(rel) {
                changes.push((
                    rel.to_string(),
                    w.row.idx,
                    old_blob.map(|o| o.as_bytes().to_vec()),
                    new_blob.map(|o| o.as_bytes().to_vec()),
                ));
            }
        }
    }

    // The lines of HEAD each of a touched file's newest changes last touched.
    let mut by_path: HashMap<&str, Vec<ChangeRow>> = HashMap::new();
    for (path, idx, old, new) in &changes {
        by_path.entry(path.as_str()).or_default().push(ChangeRow { idx: *idx, old_blob: old.clone(), new_blob: new.clone(), lines: None });
    }
    let mut lines: Vec<(String, i64, String)> = Vec::new();
    for (path, mut rows) in by_path {
        if !fresh && rows.len() < LINE_DEPTH {
            rows.extend(writer.path_changes(path, LINE_DEPTH - rows.len()).map_err(Skip::from)?);
        }
        rows.sort_by_key(|r| std::cmp::Reverse(r.idx));
        rows.truncate(LINE_DEPTH);
        for (idx, text) in attribute(&repo, &rows) {
            lines.push((path.to_string(), idx, text));
        }
    }

    // Going on: the walk's start and its cut stay the stored one's.
    let (oldest_time, commits, cut) = if fresh {
        (walked.last().map(|w| w.row.time).unwrap_or(head_time), walked.len(), cut)
    } else {
        let before = previous_state(writer);
        (before.oldest_time, before.commits + walked.len(), before.cut)
    };
    let rows: Vec<CommitRow> = walked.into_iter().map(|w| w.row).collect();
    let state = HistoryState {
        status: "ready".into(),
        why: String::new(),
        head: head.to_string(),
        head_time,
        commits,
        oldest_time,
        cut,
        shallow,
        walked: rows.len(),
        ms: 0,
    };
    writer
        .write(fresh, &rows, &changes, &lines, &[(HISTORY_HEAD, head.to_string()), (HISTORY_STATE, serde_json::to_string(&state)?)])
        .map_err(Skip::from)?;
    Ok(Some(state))
}

fn previous_state(writer: &HistoryWriter) -> HistoryState {
    writer.meta(HISTORY_STATE).ok().flatten().and_then(|s| serde_json::from_str(&s).ok()).unwrap_or_default()
}

/// A tree's bytes into `buf` (the empty tree is no object: no bytes).
fn read_tree(repo: &gix::Repository, id: gix::ObjectId, buf: &mut Vec<u8>) -> Result<(), Skip> {
    buf.clear();
    if !id.is_empty_tree() {
        buf.extend_from_slice(&repo.find_object(id)?.data);
    }
    Ok(())
}

/// For a file's newest changes (newest first, the first one's new blob `HEAD`'s version):
/// the lines of `HEAD`'s version each one last touched, as `3-5,9-9` (empty when none of
/// its lines survive). Stops where the versions stop following each other.
fn attribute(repo: &gix::Repository, rows: &[ChangeRow]) -> Vec<(i64, String)> {
    let read = |blob: &Option<Vec<u8>>| -> Option<String> {
        match blob {
            None => Some(String::new()),
            Some(b) => {
                let id = gix::ObjectId::try_from(b.as_slice()).ok()?;
                let data = repo.find_object(id).ok()?.detach().data;
                Some(String::from_utf8_lossy(&data).into_owned())
            }
        }
    };
    let mut out = Vec::new();
    let Some(first) = rows.first() else { return out };
    if first.new_blob.is_none() {
        return out; // deleted at HEAD
    }
    let Some(mut text) = read(&first.new_blob) else { return out };
    let mut blob = first.new_blob.clone();
    // Line i of the version in hand -> where it is in HEAD's version.
    let mut map: Vec<Option<Span>> = (1..=text.lines().count() as u32).map(|l| Some((l, l))).collect();
    for row in rows {
        if row.new_blob != blob {
            break;
        }
        let Some(old) = read(&row.old_blob) else { break };
        let (touched, older) = step(&old, &text, &map);
        out.push((row.idx, ranges_text(&touched)));
        map = older;
        text = old;
        blob = row.old_blob.clone();
        if blob.is_none() {
            break;
        }
    }
    out
}

/// Lines of `HEAD`'s version, first and last (1-based, inclusive).
pub type Span = (u32, u32);

/// One step back, from a version (`new`, whose lines `map` places in `HEAD`'s) to the one
/// before it (`old`): the spans of `HEAD` the change touched, and where `old`'s lines are
/// in `HEAD`. A line the change replaced lives on where its replacement is, and a deleted
/// one where the line after it is (the last line at the end): a change to lines a later
/// commit rewrote still counts for the code there now, as `git log -L` counts it.
pub fn step(old: &str, new: &str, map: &[Option<Span>]) -> (Vec<Span>, Vec<Option<Span>>) {
    let diff = similar::TextDiff::configure().algorithm(similar::Algorithm::Myers).diff_lines(old, new);
    let mut touched: Vec<Span> = Vec::new();
    let mut older: Vec<Option<Span>> = vec![None; old.lines().count()];
    let span_of = |range: std::ops::Range<usize>| -> Option<Span> {
        map.get(range)
            .unwrap_or(&[])
            .iter()
            .flatten()
            .fold(None, |acc: Option<Span>, s| Some(acc.map_or(*s, |a| (a.0.min(s.0), a.1.max(s.1)))))
    };
    let at = |i: usize| map.get(i).copied().flatten().or_else(|| i.checked_sub(1).and_then(|j| map.get(j).copied().flatten()));
    for op in diff.ops() {
        let (old_range, span) = match *op {
            similar::DiffOp::Equal { old_index, new_index, len } => {
                for k in 0..len {
                    if let Some(slot) = older.get_mut(old_index + k) {
                        *slot = map.get(new_index + k).copied().flatten();
                    }
                }
                continue;
            }
            similar::DiffOp::Delete { old_index, old_len, new_index } => (old_index..old_index + old_len, at(new_index)),
            similar::DiffOp::Insert { new_index, new_len, old_index } => (old_index..old_index, span_of(new_index..new_index + new_len)),
            similar::DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                (old_index..old_index + old_len, span_of(new_index..new_index + new_len))
            }
        };
        touched.extend(span);
        for slot in older.get_mut(old_range).unwrap_or(&mut []) {
            *slot = span;
        }
    }
    touched.sort_unstable();
    let mut merged: Vec<Span> = Vec::new();
    for (a, b) in touched {
        match merged.last_mut() {
            Some((_, end)) if a <= *end + 1 => *end = (*end).max(b),
            _ => merged.push((a, b)),
        }
    }
    (merged, older)
}

/// `[(3, 5), (9, 9)]` -> `3-5,9-9`.
pub fn ranges_text(spans: &[Span]) -> String {
    spans.iter().map(|(a, b)| format!("{a}-{b}")).collect::<Vec<_>>().join(",")
}

/// Whether `3-5,9-9` meets the lines `start..=end`.
pub fn ranges_meet(text: &str, start: u32, end: u32) -> bool {
    text.split(',').filter_map(|r| r.split_once('-')).any(|(a, b)| {
        let (a, b) = (a.parse::<u32>().unwrap_or(0), b.parse::<u32>().unwrap_or(0));
        a <= end && start <= b
    })
}

/// A file's working-tree lines mapped to `HEAD`'s version (`head`), and which of them
/// differ: what a symbol's range is in `HEAD`'s lines, and whether it is changed now.
pub fn working_lines(head: &str, working: &str) -> (Vec<u32>, Vec<Option<u32>>) {
    let diff = similar::TextDiff::configure().algorithm(similar::Algorithm::Myers).diff_lines(head, working);
    let mut to_head: Vec<Option<u32>> = vec![None; working.lines().count()];
    for op in diff.ops() {
        if let similar::DiffOp::Equal { old_index, new_index, len } = *op {
            for k in 0..len {
                if let Some(slot) = to_head.get_mut(new_index + k) {
                    *slot = Some((old_index + k) as u32 + 1);
                }
            }
        }
    }
    let changed: Vec<u32> = to_head.iter().enumerate().filter(|(_, m)| m.is_none()).map(|(i, _)| i as u32 + 1).collect();
    (changed, to_head)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_back_carry_lines_to_head() {
        // HEAD: a B c d; the change before it turned "b" into "B" and added "d".
        let map: Vec<Option<Span>> = (1..=4).map(|l| Some((l, l))).collect();
        let (touched, older) = step("a\nb\nc\n", "a\nB\nc\nd\n", &map);
        assert_eq!(touched, [(2, 2), (4, 4)]);
        // "b" lives on where "B" is.
        assert_eq!(older, [Some((1, 1)), Some((2, 2)), Some((3, 3))]);
        // One more step back: "b" and "c" were added after "a"; a change to "b" counts for
        // line 2 of HEAD, which rewrote it since.
        let (touched, older) = step("a\n", "a\nb\nc\n", &older);
        assert_eq!(touched, [(2, 3)]);
        assert_eq!(older, [Some((1, 1))]);
        // A deletion touches the line after it (the last line at the end); lines replaced
        // by several live on where all of those are.
        let (touched, _) = step("a\nx\nb\n", "a\nb\n", &[Some((1, 1)), Some((2, 2))]);
        assert_eq!(touched, [(2, 2)]);
        let (touched, _) = step("a\nb\nx\n", "a\nb\n", &[Some((1, 1)), Some((2, 2))]);
        assert_eq!(touched, [(2, 2)]);
        let (touched, older) = step("a\nx\nb\n", "a\ny\nz\nb\n", &[Some((1, 1)), Some((2, 2)), Some((3, 3)), Some((4, 4))]);
        assert_eq!((touched, older), (vec![(2, 3)], vec![Some((1, 1)), Some((2, 3)), Some((4, 4))]));
    }

    #[test]
    fn ranges() {
        assert_eq!(ranges_text(&[(3, 5), (9, 9)]), "3-5,9-9");
        assert_eq!(ranges_text(&[]), "");
        assert!(ranges_meet("3-5,9-9", 5, 7));
        assert!(!ranges_meet("3-5,9-9", 6, 8));
        assert!(!ranges_meet("", 1, 100));
    }

    #[test]
    fn working_lines_map_to_head() {
        let (changed, map) = working_lines("a\nb\nc\n", "a\nnew\nb\nc\n");
        assert_eq!(changed, [2]);
        assert_eq!(map, [Some(1), None, Some(2), Some(3)]);
    }
}
