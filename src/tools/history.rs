//! History in answers: a file's or symbol's `modified` date from its last commit (or "in
//! the working tree"), a symbol's last commits, churn and hot spots, and the line saying
//! where dates come from when git history is missing, cut or still being read. Reads what
//! `history::refresh` stored.
//!
//! Owns the tools' view of history. It must not read git's commit graph nor write the store.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use super::lines::{date_of, plural};
use super::{Atlas, ToolError};
use crate::git::history::{ranges_meet, working_lines, HistoryState, LINE_DEPTH};
use crate::store::{ChangeRow, CommitRow, FileInfo, Store, SymbolInfo};

/// Where a file or symbol stands against history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Dated {
    /// Its last commit.
    Commit(CommitRow),
    /// Changed in the working tree (uncommitted, or never committed).
    Working,
    /// Not changed within the commits read: older than this (the oldest commit's time).
    Before(i64),
    /// No history: the file's time (nanoseconds).
    FileTime(i64),
}

impl Dated {
    /// `2026-11-30`, `working tree`, `before 2024-12-01`.
    pub(super) fn short(&self) -> String {
        match self {
            Dated::Commit(c) => crate::text::date_of_seconds(c.time),
            Dated::Working => "working tree".to_string(),
            Dated::Before(t) => format!("before {}", crate::text::date_of_seconds(*t)),
            Dated::FileTime(ns) => date_of(*ns),
        }
    }
}

/// `a1b2c3d4 2026-11-30 Alice: subject`.
pub(super) fn commit_line(c: &CommitRow) -> String {
    let mut subject = c.subject.clone();
    if subject.chars().count() > SUBJECT_CHARS {
        subject = subject.chars().take(SUBJECT_CHARS - 3).collect::<String>() + "...";
    }
    format!("{} {} {}: {subject}", c.short_id(), crate::text::date_of_seconds(c.time), c.author)
}

/// A commit subject is cut to this many characters in answers.
const SUBJECT_CHARS: usize = 72;

impl Atlas {
    /// The stored history's state; "reading" while the first read runs.
    pub(super) fn history(&self, store: &Store) -> Result<HistoryState, ToolError> {
        let stored = crate::git::history::read_state(store).map_err(|e| ToolError(format!("{e:#}")))?;
        Ok(match stored {
            Some(s) if s.is_ready() || !self.status.history_reading.load(Ordering::Relaxed) => s,
            _ if self.status.history_reading.load(Ordering::Relaxed) => {
                HistoryState { status: "reading".into(), ..HistoryState::default() }
            }
            // Nothing stored yet: where there is nothing to read, say so at once (as the
            // state will), whatever the order of the first answer and the first read.
            _ if !self.history_config.enabled => HistoryState {
                status: "disabled".into(),
                why: "history.enabled = false in .repochart.toml".into(),
                ..HistoryState::default()
            },
            _ if !*self.in_git.get_or_init(|| gix::discover(&self.root).is_ok()) => {
                HistoryState { status: "none".into(), why: "not a git repository".into(), ..HistoryState::default() }
            }
            _ => HistoryState { status: "unread".into(), ..HistoryState::default() },
        })
    }

    /// A file's newest changes, and whether its content differs from `HEAD`'s.
    fn file_changes(&self, store: &Store, file: &FileInfo) -> Result<(Vec<ChangeRow>, bool), ToolError> {
        let changes = store.path_changes(&file.path, LINE_DEPTH)?;
        let head_blob = changes.first().and_then(|c| c.new_blob.clone());
        let working = match head_blob {
            Some(blob) => self.content_blob(file) != blob,
            // Never committed (or deleted in HEAD and written again).
            None => true,
        };
        Ok((changes, working))
    }

    /// When a file, or the lines `range` of it, last changed.
    pub(super) fn dated(&self, store: &Store, file: &FileInfo, range: Option<(u32, u32)>) -> Result<Dated, ToolError> {
        let state = self.history(store)?;
        if !state.is_ready() {
            return Ok(Dated::FileTime(file.mtime_ns));
        }
        let (changes, working) = self.file_changes(store, file)?;
        let Some(newest) = changes.first() else {
            // In the index but in no commit read: new, or older than the walk.
            return Ok(if state.cut.is_empty() && !state.shallow { Dated::Working } else { Dated::Before(state.oldest_time) });
        };
        let Some((start, end)) = range else {
            return Ok(if working { Dated::Working } else { self.commit_of(store, newest.idx)? });
        };
        match self.commits_meeting(store, file, &changes, working, start, end, 1)? {
            (true, _, _) => Ok(Dated::Working),
            (false, found, _) if !found.is_empty() => Ok(Dated::Commit(found[0].clone())),
            // Older than the changes compared line by line: no later than the oldest of them.
            _ => Ok(match changes.last().filter(|_| changes.len() >= LINE_DEPTH) {
                Some(oldest) => Dated::Before(store.commit(oldest.idx)?.map(|c| c.time).unwrap_or(state.oldest_time)),
                None => self.commit_of(store, newest.idx)?,
            }),
        }
    }

    fn commit_of(&self, store: &Store, idx: i64) -> Result<Dated, ToolError> {
        Ok(store.commit(idx)?.map(Dated::Commit).unwrap_or(Dated::FileTime(0)))
    }

    /// The lines `start..=end` of a file (the working tree's) as `HEAD`'s version numbers
    /// them, and whether any of them differs from `HEAD` now. None when none of them is in
    /// `HEAD` (then they count as changed).
    fn to_head(&self, file: &FileInfo, changes: &[ChangeRow], working: bool, start: u32, end: u32) -> (bool, Option<(u32, u32)>) {
        if !working {
            return (false, Some((start, end)));
        }
        let head = self.head_text(changes).unwrap_or_default();
        let now = std::fs::read(self.root.join(&file.path)).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
        let (changed, to_head) = working_lines(head.as_str(), &now);
        let changed_now = changed.iter().any(|l| (start..=end).contains(l));
        let mapped: Vec<u32> =
            (start..=end).filter_map(|l| (l as usize).checked_sub(1).and_then(|i| to_head.get(i)).copied().flatten()).collect();
        match (mapped.first(), mapped.last()) {
            (Some(a), Some(b)) => (changed_now, Some((*a, *b))),
            _ => (true, None),
        }
    }

    /// The commit that last changed lines of a file in `HEAD` (`git::blame`).
    fn last_change(&self, file: &FileInfo, start: u32, end: u32) -> Option<CommitRow> {
        match crate::git::blame::last_change(&self.root, &file.path, start, end) {
            Ok(c) => c,
            Err(e) => {
                tracing::debug!("blame of {}: {e:#}", file.path);
                None
            }
        }
    }

    /// The newest `n` commits whose changes meet the lines `start..=end` of a file (in the
    /// working tree's lines: mapped to `HEAD`'s when the file differs), whether those lines
    /// differ from `HEAD` now, and whether older commits were not compared.
    #[allow(clippy::too_many_arguments)]
    fn commits_meeting(
        &self,
        store: &Store,
        file: &FileInfo,
        changes: &[ChangeRow],
        working: bool,
        start: u32,
        end: u32,
        n: usize,
    ) -> Result<(bool, Vec<CommitRow>, bool), ToolError> {
        let (changed_now, range) = self.to_head(file, changes, working, start, end);
        let (found, uncompared) = self.commits_on_head_lines(store, changes, range, n)?;
        Ok((changed_now, found, uncompared))
    }

    /// The newest `n` commits whose changes meet `HEAD`'s lines `range`, and whether older
    /// commits were not compared (none for no range).
    fn commits_on_head_lines(
        &self,
        store: &Store,
        changes: &[ChangeRow],
        range: Option<(u32, u32)>,
        n: usize,
    ) -> Result<(Vec<CommitRow>, bool), ToolError> {
        let Some((start, end)) = range else { return Ok((Vec::new(), false)) };
        let mut found = Vec::new();
        for c in changes {
            match &c.lines {
                Some(lines) if ranges_meet(lines, start, end) => {
                    if let Some(row) = store.commit(c.idx)? {
                        found.push(row);
                    }
                    if found.len() == n {
                        break;
                    }
                }
                _ => {}
            }
        }
        let uncompared = found.len() < n && (changes.len() >= LINE_DEPTH || changes.iter().any(|c| c.lines.is_none()));
        Ok((found, uncompared))
    }

    /// `HEAD`'s version of a file, from the blob its newest change wrote (read once per blob:
    /// a graph answer may list many symbols of one edited file).
    fn head_text(&self, changes: &[ChangeRow]) -> Option<Arc<String>> {
        let blob = changes.first()?.new_blob.clone()?;
        if let Some(text) = self.head_texts.lock().expect("head texts lock").get(&blob) {
            return Some(text.clone());
        }
        let repo = gix::discover(&self.root).ok()?;
        let id = gix::ObjectId::try_from(blob.as_slice()).ok()?;
        let data = repo.find_object(id).ok()?.detach().data;
        let text = Arc::new(String::from_utf8_lossy(&data).into_owned());
        let mut cache = self.head_texts.lock().expect("head texts lock");
        if cache.len() >= 256 {
            cache.clear();
        }
        cache.insert(blob, text.clone());
        Some(text)
    }

    /// `get_symbol`'s history lines: the last three commits that touched the symbol, or
    /// why there are none.
    pub(super) fn symbol_history(&self, store: &Store, s: &SymbolInfo) -> Result<String, ToolError> {
        let state = self.history(store)?;
        if !state.is_ready() {
            // While it is read, say so; without git, `repo_overview` says it once (not in
            // every answer).
            return Ok(if state.status == "reading" { format!("  {}\n", state.describe()) } else { String::new() });
        }
        let Some(file) = store.file(s.file_id)? else { return Ok(String::new()) };
        let (changes, working) = self.file_changes(store, &file)?;
        let mut out = String::new();
        if changes.is_empty() {
            let _ = std::fmt::Write::write_fmt(
                &mut out,
                format_args!(
                    "  last commits: none{}\n",
                    if state.cut.is_empty() && !state.shallow {
                        " (not committed)".to_string()
                    } else {
                        format!(" since {}", crate::text::date_of_seconds(state.oldest_time))
                    }
                ),
            );
            return Ok(out);
        }
        // `HEAD`'s lines of the symbol, mapped once for its commits and its last change.
        let (changed_now, range) = self.to_head(&file, &changes, working, s.start_line, s.end_line);
        let (found, uncompared) = self.commits_on_head_lines(store, &changes, range, 3)?;
        if changed_now {
            out.push_str("  modified in the working tree (uncommitted)\n");
        }
        // The commit that made its newest lines, with its author: a merge's branch commit,
        // and a declaration older than the changes compared line by line too.
        let last = range.filter(|_| !changed_now).and_then(|(a, b)| self.last_change(&file, a, b));
        // Said only when the main line's list does not: its newest entry is a merge, or
        // the declaration is older than what the walk compared.
        if let Some(c) = last.as_ref().filter(|c| found.first().is_none_or(|f| f.id != c.id)) {
            out.push_str("  last change: ");
            out.push_str(&commit_line(c));
            out.push('\n');
        }
        if found.is_empty() && last.is_some() {
            // Older than what the walk compared line by line: the last change says it.
        } else if found.is_empty() {
            out.push_str("  last commits: none among its file's last ");
            out.push_str(&plural(changes.len(), "change"));
            out.push('\n');
        } else {
            out.push_str("  last commits:\n");
            for c in &found {
                out.push_str("    ");
                out.push_str(&commit_line(c));
                out.push('\n');
            }
            if uncompared {
                out.push_str("    (older commits of its file not compared line by line)\n");
            }
        }
        if state.shallow {
            out.push_str("  (shallow clone: older commits are not in the repository)\n");
        }
        Ok(out)
    }

    /// `repo_overview`'s hot spots: the files under `prefix` with the most commits in the
    /// churn window, weighted by complexity (churn x complexity), each with its last change.
    pub(super) fn hot_spots(&self, store: &Store, prefix: &str, limit: usize) -> Result<(String, Vec<String>), ToolError> {
        let state = self.history(store)?;
        if !state.is_ready() {
            return Ok((String::new(), Vec::new()));
        }
        let days = self.history_config.churn_days;
        let since = state.head_time - i64::from(days) * 86_400;
        let mut scored: Vec<(usize, String)> = Vec::new();
        for (path, churn) in store.churn_ranking(since, 200)? {
            if !path.starts_with(prefix) {
                continue;
            }
            let Some(file) = store.file_by_path(&path)? else { continue };
            let stats = self.line_stats(&file);
            let lines = stats.lines();
            let cx = crate::tools::complexity(lines.0, lines.1, 0) as usize;
            let date = self.dated(store, &file, None)?.short();
            scored.push((churn * cx, format!("{path}  {} x cx {cx}  last {date}", plural(churn, "commit"))));
        }
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let title = format!("hot spots (commits in the {days} days to {} x complexity):", crate::text::date_of_seconds(state.head_time));
        Ok((title, scored.into_iter().take(limit).map(|(_, row)| row).collect()))
    }
}
