//! Tier 3, line-range source reads: `read_source`, `read_symbol` and `search_text`. The
//! only tools that return file text: fenced, numbered, confined to indexed files inside the
//! root, and cut at the read budget.

use std::fmt::Write;

use super::args::{ReadArgs, ReadSymbolArgs, TextArgs};
use super::handles::normalize_path;
use super::lines::plural;
use super::paging::{echo, write_page, Row, Window};
use super::{clamp, fail, Answer, Atlas, ToolError, FOOTER_ROOM, READ_LINES};
use crate::store::{FileInfo, Store};

/// A code fence longer than any run of backticks in `lines` (at least three).
pub(super) fn fence_for(lines: &[&str]) -> String {
    let mut longest = 0;
    for line in lines {
        let mut run = 0;
        for c in line.chars() {
            run = if c == '`' { run + 1 } else { 0 };
            longest = longest.max(run);
        }
    }
    "`".repeat((longest + 1).max(3))
}

impl Atlas {
    pub(super) fn indexed_file(&self, store: &Store, path: &str) -> Result<FileInfo, ToolError> {
        let path = normalize_path(path)?;
        match store.file_by_path(&path)? {
            Some(f) => Ok(f),
            None => {
                let name = path.rsplit('/').next().unwrap_or(&path);
                let similar: Vec<String> = store
                    .files_under("")?
                    .into_iter()
                    .filter(|f| f.path.ends_with(&format!("/{name}")) || f.path == name)
                    .map(|f| f.path)
                    .take(5)
                    .collect();
                if similar.is_empty() {
                    fail(format!(
                        "no indexed file {path:?}; paths are relative to the repository root (search_symbols or repo_overview find them)"
                    ))
                } else {
                    fail(format!("no indexed file {path:?}; did you mean: {}", similar.join(", ")))
                }
            }
        }
    }

    /// The file's text, read only if it is an indexed file inside the root.
    pub(super) fn read_file(&self, file: &FileInfo) -> Result<String, ToolError> {
        let root = self.root.canonicalize()?;
        let full = root
            .join(&file.path)
            .canonicalize()
            .map_err(|_| ToolError(format!("{} cannot be read (deleted or moved since indexing)", file.path)))?;
        if !full.starts_with(&root) {
            return fail(format!("{} resolves outside the repository; refused", file.path));
        }
        let bytes = std::fs::read(&full).map_err(|e| ToolError(format!("{}: {}", file.path, e.kind())))?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    pub(super) fn numbered(&self, file: &FileInfo, text: &str, start: u32, end: u32, what: &str) -> Answer {
        let lines: Vec<&str> = text.lines().collect();
        let total = lines.len() as u32;
        if total == 0 {
            return Ok(format!("{} is empty", file.path));
        }
        if start == 0 || start > total || end < start {
            return fail(format!("invalid range {start}-{end}: {} has lines 1-{total}; start_line <= end_line", file.path));
        }
        let end = end.min(total);
        let width = end.to_string().len();
        // File text is data: it goes inside a fence longer than any run of backticks in it,
        // so nothing in the file can close the block and speak as the answer.
        let fence = fence_for(&lines[(start - 1) as usize..end as usize]);
        let mut out = format!("{}:{start}-{end} of {total} lines{what}\n{fence}\n", file.path);
        let mut last = start - 1;
        for n in start..=end {
            let line = lines[(n - 1) as usize];
            let row = format!("{n:>width$}| {line}\n");
            if out.len() + row.len() + FOOTER_ROOM > self.read_budget || (n - start) as usize >= READ_LINES {
                break;
            }
            out.push_str(&row);
            last = n;
        }
        out.push_str(&fence);
        if last < end {
            let _ = write!(out, "\ncut at line {last} (budget {READ_LINES} lines / {} bytes); next: read_source {{\"path\": \"{}\", \"start_line\": {}, \"end_line\": {end}}}", self.read_budget, file.path, last + 1);
        }
        Ok(out)
    }

    pub(super) fn read_source(&self, store: &Store, a: ReadArgs) -> Answer {
        let mut file = match self.indexed_file(store, &a.path) {
            Ok(file) => file,
            // A text file the walk admits but no language indexes (`pom.xml`, `schema.sql`):
            // `search_text` finds lines there, so they can be read on.
            Err(e) => match self.admitted_text_file(&a.path)? {
                Some(file) => file,
                None => return Err(e),
            },
        };
        if file.id >= 0 && self.refresh(&file) {
            file = self.indexed_file(store, &a.path)?;
        }
        let text = self.read_file(&file)?;
        if file.id < 0 && text.contains('\0') {
            return fail(format!("{} is a binary file; refused", file.path));
        }
        self.numbered(&file, &text, a.start_line, a.end_line, "")
    }

    /// A file `search_text` searches that is not indexed, as a `FileInfo` without an id
    /// (-1): only what the walk admits (ignore files, includes and excludes, size limit, no
    /// secret-looking names), found by walking the folder it names alone.
    fn admitted_text_file(&self, path: &str) -> Result<Option<FileInfo>, ToolError> {
        let path = normalize_path(path)?;
        let opts = crate::index::Options::for_repo(&self.root).unwrap_or_default();
        let root = self.root.canonicalize()?;
        let found = crate::walk::text_files(&root, &opts.filter, opts.max_file_size, &path).into_iter().any(|(p, _)| p == path);
        Ok(found.then(|| FileInfo {
            id: -1,
            path,
            language: "text".into(),
            module: String::new(),
            size: 0,
            mtime_ns: 0,
            loc: 0,
            parse_errors: 0,
        }))
    }

    pub(super) fn read_symbol(&self, store: &Store, a: ReadSymbolArgs) -> Answer {
        let mut s = match self.resolve_symbol(store, &a.symbol) {
            Ok(s) => s,
            // A MyBatis statement by its mapper XML place: its SQL and its fragments'.
            Err(e) => return self.statement_read(store, &a.symbol, self.read_budget.saturating_sub(FOOTER_ROOM))?.ok_or(e),
        };
        let mut file = store.file(s.file_id)?.ok_or_else(|| ToolError("file vanished from the index".into()))?;
        if self.refresh(&file) {
            s = self.resolve_symbol(store, &a.symbol)?;
            file = store.file(s.file_id)?.ok_or_else(|| ToolError("file vanished from the index".into()))?;
        }
        let text = self.read_file(&file)?;
        let context = a.context_lines.unwrap_or(0).min(50);
        // A Rust item's outer attributes (`#[derive(..)]`, `#[cfg(..)]`) are part of it.
        let first = if file.language == "rust" { attributes_above(&text, s.start_line) } else { s.start_line };
        let start = first.saturating_sub(context).max(1);
        let end = s.end_line.saturating_add(context);
        let mut out = self.numbered(&file, &text, start, end, &format!(" ({} {})", s.kind, s.qname))?;
        // A mapper method: the statement it runs, after its Java source.
        let room = self.read_budget.saturating_sub(out.len() + FOOTER_ROOM);
        out.push_str(&self.statement_source(store, &s, room)?);
        Ok(out)
    }

    pub(super) fn search_text(&self, a: TextArgs) -> Answer {
        use grep_regex::RegexMatcherBuilder;
        use grep_searcher::{sinks, SearcherBuilder};
        if a.query.is_empty() {
            return fail("query is empty");
        }
        let limit = clamp(a.limit, 50, 1, 500);
        let matcher = RegexMatcherBuilder::new()
            .case_insensitive(!a.case_sensitive.unwrap_or(false))
            .fixed_strings(!a.regex.unwrap_or(false))
            .size_limit(1 << 20)
            .dfa_size_limit(1 << 22)
            .build(&a.query)
            .map_err(|e| {
                let e = e.to_string();
                let cut: String = e.chars().take(400).collect();
                ToolError(format!("invalid regex: {cut}{}", if cut.len() < e.len() { "…" } else { "" }))
            })?;
        let prefix = match &a.path {
            Some(p) => normalize_path(p)?,
            None => String::new(),
        };
        let opts = crate::index::Options::for_repo(&self.root).unwrap_or_default();
        let root = self.root.canonicalize()?;
        let files = crate::walk::text_files(&root, &opts.filter, opts.max_file_size, &prefix);
        let window = Window { offset: a.offset.unwrap_or(0) as usize, limit, budget: self.summary_budget, page_bytes: None };
        let mut searcher = SearcherBuilder::new().line_number(true).binary_detection(grep_searcher::BinaryDetection::quit(0)).build();
        // The page's lines, as (path, line, text); every match is counted.
        let mut hits: Vec<(usize, u64, String)> = Vec::new();
        let mut total = 0usize;
        for (index, (_, full)) in files.iter().enumerate() {
            let _ = searcher.search_path(
                &matcher,
                full,
                sinks::Lossy(|line, text| {
                    total += 1;
                    if total > window.offset && hits.len() < window.limit {
                        let text = text.trim_end();
                        let text: String =
                            if text.chars().count() > 200 { text.chars().take(199).chain(['…']).collect() } else { text.to_string() };
                        hits.push((index, line, text));
                    }
                    Ok(total < 100_000)
                }),
            );
        }
        if total == 0 {
            return Ok(format!("no lines match {} in {}", echo(&a.query), plural(files.len(), "text file")));
        }
        let capped = if total >= 100_000 { " (counting stopped at 100,000)" } else { "" };
        let mut out =
            format!("{}{capped} for {} in {}\n", plural(total, "matching line"), echo(&a.query), plural(files.len(), "text file"));
        // The lines found are data, fenced; headings and the closing remark stay outside.
        let fence = fence_for(&hits.iter().map(|h| h.2.as_str()).collect::<Vec<_>>());
        let rows =
            hits.iter().map(|(index, line, text)| Ok::<_, ToolError>(Row::under(vec![files[*index].0.clone()], format!("{line}: {text}"))));
        let mut body = String::new();
        let budget = Window { budget: window.budget.saturating_sub(out.len() + 2 * fence.len() + 4), ..window };
        write_page(&mut body, rows, total, budget)?;
        let (items, footer) = match body.rfind("\n... ") {
            Some(i) => (&body[..i], &body[i..]),
            None if body.starts_with("... ") || body.starts_with("offset=") => ("", body.as_str()),
            None => (body.as_str(), ""),
        };
        let _ = write!(out, "{fence}\n{items}\n{fence}{footer}");
        Ok(out)
    }
}

/// The first line of the outer attributes right above a line (1-based): `#[..]` lines, and
/// one attribute written over several lines (`#[cfg_attr(\n  ..,\n)]`); the line itself when
/// there are none.
fn attributes_above(text: &str, line: u32) -> u32 {
    let lines: Vec<&str> = text.lines().collect();
    let balanced = |s: &str| s.matches('[').count() == s.matches(']').count() && s.matches('(').count() == s.matches(')').count();
    let mut first = line as usize;
    while first > 1 {
        let above = lines.get(first - 2).map(|l| l.trim()).unwrap_or("");
        if above.starts_with("#[") && above.ends_with(']') && balanced(above) {
            first -= 1;
            continue;
        }
        if above.ends_with(']') {
            // The end of an attribute over several lines: its `#[` a few lines up.
            let start = (first.saturating_sub(32).max(1)..first - 1).rev().find(|&i| lines[i - 1].trim_start().starts_with("#["));
            if let Some(start) = start.filter(|&s| balanced(&lines[s - 1..first - 1].join("\n"))) {
                first = start;
                continue;
            }
        }
        break;
    }
    first as u32
}

#[cfg(test)]
mod tests {
    #[test]
    fn outer_attributes_belong_to_their_item() {
        let text = "use x;\n#[derive(Debug)]\n#[cfg_attr(\n    docsrs,\n    doc(cfg(feature = \"std\"))\n)]\npub struct S;\nfn f() {}\n";
        assert_eq!(super::attributes_above(text, 7), 2);
        assert_eq!(super::attributes_above(text, 8), 8);
        assert_eq!(super::attributes_above(text, 1), 1);
    }
}
