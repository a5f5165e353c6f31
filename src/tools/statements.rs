//! MyBatis statements in answers: the mapper XML files the walk admits, read once per index
//! generation (`mapper_xml`), each statement linked to its mapper interface's method
//! (`namespace#id`). `get_symbol` on a mapper method names its statement, `read_symbol`
//! shows the statement's lines (and the fragments it includes) after the Java source,
//! `search_symbols kind=statement` lists statements and the methods they belong to (by
//! name, path or table), `find_references` on a type adds the mapper XML lines naming it,
//! and a mapper XML place (`path:line`) is a handle for `get_symbol` and `read_symbol`, its
//! file one for `file_outline`.
//!
//! Owns the tools' view of mapper files. It must not write the store.

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::Arc;

use super::lines::plural;
use super::paging::{echo, write_page, Row, Window};
use super::source_reads::fence_for;
use super::{per_generation, Atlas, ToolError};
use crate::frameworks::mybatis::{self, Statement};
use crate::store::{Store, SymbolInfo};

/// Every mapper file's statements, the types they name, and the files that did not parse.
pub(super) struct StatementView {
    pub statements: Vec<Statement>,
    /// (type as written, file, line).
    pub types: Vec<(String, String, u32)>,
    /// `file:line: error`.
    pub errors: Vec<String>,
    pub files: usize,
    /// Statement id (`namespace.id`) -> the methods that run it by that string
    /// (`sqlSession.selectList("ns.id")`), by place.
    pub run_by_id: HashMap<String, Vec<SymbolInfo>>,
}

/// A statement or fragment for `change_impact`: its label, its place, and the methods that
/// run it.
pub(super) type StatementRuns = (String, String, Vec<SymbolInfo>);

/// How many callers by id a statement's line names before "and N more".
const SHOWN_CALLERS: usize = 5;

impl Atlas {
    pub(super) fn statement_view(&self, store: &Store) -> Result<Arc<StatementView>, ToolError> {
        per_generation(store, &self.statement_view, || {
            let mut view =
                StatementView { statements: Vec::new(), types: Vec::new(), errors: Vec::new(), files: 0, run_by_id: HashMap::new() };
            for (rel, text) in self.read_text_files(|rel| rel.ends_with(".xml"))? {
                if !mybatis::is_mapper(&rel, &text) {
                    continue;
                }
                view.files += 1;
                let file = mybatis::read(&rel, &text);
                if let Some((line, message)) = file.error {
                    view.errors.push(format!("{rel}:{line}: {message}"));
                }
                view.types.extend(file.types.into_iter().map(|(t, line)| (t, rel.clone(), line)));
                view.statements.extend(file.statements);
            }
            let marker = mybatis::session_marker();
            for caller in store.symbols_by_ids(&self.session_callers(store, marker)?)? {
                for id in crate::frameworks::marker_values(&caller.modifiers, marker) {
                    view.run_by_id.entry(id.to_string()).or_default().push(caller.clone());
                }
            }
            for callers in view.run_by_id.values_mut() {
                callers.sort_by(|a, b| (&a.path, a.start_line).cmp(&(&b.path, b.start_line)));
                callers.dedup_by_key(|c| c.id);
            }
            Ok(view)
        })
    }

    /// The symbols marked as running a statement by its id (`marker`), kept by file: a scan
    /// of every symbol's modifiers took 85-100 ms on the whole JDK after every save.
    fn session_callers(&self, store: &Store, marker: &str) -> Result<Vec<i64>, ToolError> {
        let mut marked = self.session_callers.lock().expect("session callers lock");
        store.snapshot(|store| {
            let (stamp, files) = (store.stamp()?, store.graph_files()?);
            marked.update(&stamp, &files, |file| store.marked_with(&[marker], file))
        })?;
        Ok(marked.ids().collect())
    }

    /// The statements a mapper method runs (its interface is the namespace, its name the id).
    pub(super) fn statements_of(&self, store: &Store, s: &SymbolInfo) -> Result<Vec<Statement>, ToolError> {
        if s.kind != crate::model::SymbolKind::Method {
            return Ok(Vec::new());
        }
        let Some((owner, _)) = s.qname.rsplit_once('#') else { return Ok(Vec::new()) };
        let view = self.statement_view(store)?;
        Ok(view.statements.iter().filter(|st| !mybatis::is_fragment(st) && st.namespace == owner && st.id == s.name).cloned().collect())
    }

    /// `{lead}select  path:8-11 (includes Cols)` lines: `get_symbol`'s (`  statement: `),
    /// `change_impact`'s (`runs: statement `).
    pub(super) fn statement_lines(&self, store: &Store, s: &SymbolInfo, lead: &str) -> Result<String, ToolError> {
        let mut out = String::new();
        let view = self.statement_view(store)?;
        for st in self.statements_of(store, s)? {
            let includes = if st.includes.is_empty() { String::new() } else { format!(" (includes {})", st.includes.join(", ")) };
            let _ = writeln!(out, "{lead}{}  {}:{}-{}{includes}", st.kind, st.file, st.start_line, st.end_line);
            let indent = &lead[..lead.len() - lead.trim_start().len()];
            out.push_str(&callers_by_id(&view, &st, &format!("{indent}also run by its id in: ")));
        }
        Ok(out)
    }

    /// The statement lines `read_symbol` adds after a mapper method's source: each
    /// statement and the fragments it includes, numbered, within what the budget leaves.
    pub(super) fn statement_source(&self, store: &Store, s: &SymbolInfo, room: usize) -> Result<String, ToolError> {
        let statements = self.statements_of(store, s)?;
        if statements.is_empty() {
            return Ok(String::new());
        }
        let view = self.statement_view(store)?;
        let mut parts: Vec<&Statement> = Vec::new();
        for st in &statements {
            parts.push(view.statements.iter().find(|v| v == &st).expect("a statement of the view"));
            for refid in &st.includes {
                if let Some(f) = mybatis::fragment(&view.statements, st, refid) {
                    if !parts.contains(&f) {
                        parts.push(f);
                    }
                }
            }
        }
        self.statement_blocks(&parts, room)
    }

    /// The numbered lines of statements and fragments, each fenced, within `room` bytes.
    fn statement_blocks(&self, parts: &[&Statement], room: usize) -> Result<String, ToolError> {
        let root = self.root.canonicalize()?;
        let mut out = String::new();
        for part in parts.iter().copied() {
            let Ok(text) = std::fs::read_to_string(root.join(&part.file)) else { continue };
            let lines: Vec<&str> = text.lines().collect();
            let (a, b) = (part.start_line as usize, (part.end_line as usize).min(lines.len()));
            if a == 0 || a > b {
                continue;
            }
            let fence = fence_for(&lines[a - 1..b]);
            let mut block = format!("\n{}:{a}-{b} ({} {}#{})\n{fence}\n", part.file, part.kind, part.namespace, part.id);
            let width = b.to_string().len();
            for (n, line) in lines[a - 1..b].iter().enumerate() {
                let _ = writeln!(block, "{:>width$}| {line}", a + n);
            }
            block.push_str(&fence);
            if out.len() + block.len() > room {
                let _ = write!(out, "\n(statement {}:{a}-{b} left out: the answer budget; read_source reads it)", part.file);
                break;
            }
            out.push_str(&block);
        }
        Ok(out)
    }

    /// The methods of a mapper XML place's statement, for `change_impact`: the mapper method
    /// it runs for and the methods that run it by its id; for a fragment, those of every
    /// statement including it. None when the place is no mapper file's.
    pub(super) fn statement_impact(&self, store: &Store, handle: &str) -> Result<Option<StatementRuns>, ToolError> {
        let Some((view, i)) = self.statement_at(store, handle)? else { return Ok(None) };
        let s = &view.statements[i];
        let runs: Vec<&Statement> = if mybatis::is_fragment(s) {
            view.statements.iter().filter(|o| !mybatis::is_fragment(o) && statement_includes(&view, o, s, 0)).collect()
        } else {
            vec![s]
        };
        let mut members: Vec<SymbolInfo> = Vec::new();
        for st in runs {
            let method = format!("{}#{}", st.namespace, st.id);
            members.extend(store.symbols_by_qname(&method)?.into_iter().filter(|m| m.kind == crate::model::SymbolKind::Method));
            members.extend(view.run_by_id.get(&st.string_id()).into_iter().flatten().cloned());
        }
        members.sort_by_key(|m| m.id);
        members.dedup_by_key(|m| m.id);
        let name = echo(&format!("{}#{}", s.namespace, s.id));
        let label = if mybatis::is_fragment(s) { format!("fragment {name}") } else { format!("statement {} {name}", s.kind) };
        Ok(Some((label, format!("{}:{}-{}", s.file, s.start_line, s.end_line), members)))
    }

    /// The statements and fragments of a mapper file on these changed lines, each as
    /// `statement_impact` gives it.
    pub(super) fn statements_changed(&self, store: &Store, path: &str, lines: &[(u32, u32)]) -> Result<Vec<StatementRuns>, ToolError> {
        let view = self.statement_view(store)?;
        let mut out = Vec::new();
        for st in view.statements.iter().filter(|s| s.file == path) {
            if lines.iter().any(|&(a, b)| st.start_line <= b && st.end_line >= a) {
                out.extend(self.statement_impact(store, &format!("{}:{}", st.file, st.start_line))?);
            }
        }
        Ok(out)
    }

    /// The statement (or fragment) of a mapper XML place, `path:line`: the view, and its
    /// index in the view's statements. None when the place is no mapper file's.
    fn statement_at(&self, store: &Store, handle: &str) -> Result<Option<(Arc<StatementView>, usize)>, ToolError> {
        let Some((path, line)) = handle.trim().rsplit_once(':') else { return Ok(None) };
        let (Some(line), true) = (line.parse::<u32>().ok(), path.ends_with(".xml")) else { return Ok(None) };
        let path = path.trim_start_matches("./");
        let view = self.statement_view(store)?;
        // The innermost: a fragment inside a statement's lines is not possible in MyBatis, so
        // the one whose lines hold the line.
        let found = view.statements.iter().position(|s| s.file == path && s.start_line <= line && line <= s.end_line);
        Ok(found.map(|i| (view, i)))
    }

    /// `get_symbol` of a mapper XML place: the statement there, the method it runs for,
    /// its tables and fragments.
    pub(super) fn statement_details(&self, store: &Store, handle: &str) -> Result<Option<String>, ToolError> {
        let Some((view, i)) = self.statement_at(store, handle)? else { return Ok(None) };
        let s = &view.statements[i];
        let method = format!("{}#{}", s.namespace, s.id);
        let mut out = format!(
            "statement {} {}  {}:{}-{}
",
            s.kind,
            echo(&method),
            s.file,
            s.start_line,
            s.end_line
        );
        if !mybatis::is_fragment(s) {
            match store.symbols_by_qname(&method)?.into_iter().find(|m| m.kind == crate::model::SymbolKind::Method) {
                Some(m) => {
                    let _ = writeln!(out, "  runs for: {}  {}:{}", m.signature_handle(), m.path, m.start_line);
                }
                None if view.run_by_id.contains_key(&s.string_id()) => out.push_str("  runs for: no mapper method (run by its id)\n"),
                None => out.push_str(
                    "  runs for: no such method in the index, and no code runs it by its id (\"ns.id\" built at run time, or stale)\n",
                ),
            }
            out.push_str(&callers_by_id(&view, s, "  run by its id in: "));
        }
        if !s.tables.is_empty() {
            let _ = writeln!(out, "  tables: {}", s.tables.join(", "));
        }
        for refid in &s.includes {
            match mybatis::fragment(&view.statements, s, refid) {
                Some(f) => {
                    let _ = writeln!(out, "  includes: {refid}  {}:{}-{}", f.file, f.start_line, f.end_line);
                }
                None => {
                    let _ = writeln!(out, "  includes: {refid}  (no such fragment)");
                }
            }
        }
        let _ = write!(out, "next: read_symbol {}:{} shows its SQL", s.file, s.start_line);
        Ok(Some(out))
    }

    /// `read_symbol` of a mapper XML place: the statement's lines and its fragments'.
    pub(super) fn statement_read(&self, store: &Store, handle: &str, room: usize) -> Result<Option<String>, ToolError> {
        let Some((view, i)) = self.statement_at(store, handle)? else { return Ok(None) };
        let s = &view.statements[i];
        let mut parts = vec![s];
        for refid in &s.includes {
            if let Some(f) = mybatis::fragment(&view.statements, s, refid) {
                if !parts.contains(&f) {
                    parts.push(f);
                }
            }
        }
        Ok(Some(self.statement_blocks(&parts, room)?.trim_start().to_string()))
    }

    /// `file_outline` of a mapper XML file: its statements and fragments by line.
    pub(super) fn mapper_outline(&self, store: &Store, path: &str) -> Result<Option<String>, ToolError> {
        let path = path.trim().trim_start_matches("./");
        if !path.ends_with(".xml") {
            return Ok(None);
        }
        let view = self.statement_view(store)?;
        let here: Vec<&Statement> = view.statements.iter().filter(|s| s.file == path).collect();
        let Some(first) = here.first() else { return Ok(None) };
        let fragments = here.iter().filter(|s| mybatis::is_fragment(s)).count();
        let mut out = format!(
            "{path} (MyBatis mapper of {}, {}, {})\n",
            first.namespace,
            plural(here.len() - fragments, "statement"),
            plural(fragments, "fragment")
        );
        for s in here {
            let tables = if s.tables.is_empty() { String::new() } else { format!("  tables: {}", s.tables.join(", ")) };
            let _ = writeln!(out, "  {} {}  {}-{}{tables}", s.kind, s.id, s.start_line, s.end_line);
        }
        Ok(Some(out.trim_end().to_string()))
    }

    /// `search_symbols kind=statement`: the statements under `prefix` whose `namespace#id`
    /// contains the query or whose SQL names it as a table (with its fragments'), paged.
    pub(super) fn search_statements(&self, store: &Store, query: &str, prefix: &str, window: Window) -> Result<String, ToolError> {
        let view = self.statement_view(store)?;
        let q = query.to_ascii_lowercase();
        let names_table = |s: &Statement| {
            s.tables.contains(&q)
                || s.includes.iter().filter_map(|r| mybatis::fragment(&view.statements, s, r)).any(|f| f.tables.contains(&q))
        };
        let found: Vec<&Statement> = view
            .statements
            .iter()
            .filter(|s| !mybatis::is_fragment(s) && s.file.starts_with(prefix))
            .filter(|s| format!("{}#{}", s.namespace, s.id).to_ascii_lowercase().contains(&q) || names_table(s))
            .collect();
        let mut out = format!(
            "{} in {}{}\n",
            plural(found.len(), "statement"),
            plural(view.files, "mapper file"),
            if prefix.is_empty() { String::new() } else { format!(" (under {})", echo(prefix)) }
        );
        let rows = found.iter().skip(window.offset).map(|s| {
            let method = format!("{}#{}", s.namespace, s.id);
            let by_id = view.run_by_id.get(&s.string_id()).map_or(0, Vec::len);
            let linked = match store.symbols_by_qname(&method)?.into_iter().find(|m| m.kind == crate::model::SymbolKind::Method) {
                Some(m) if by_id > 0 => format!("-> {}, run by its id in {}", m.signature_handle(), plural(by_id, "method")),
                Some(m) => format!("-> {}", m.signature_handle()),
                None if by_id > 0 => format!("-> run by its id in {}", plural(by_id, "method")),
                None => "-> no such method in the index".to_string(),
            };
            let tables = if s.tables.is_empty() { String::new() } else { format!("  tables: {}", s.tables.join(", ")) };
            Ok::<_, ToolError>(Row::new(format!(
                "statement {} {}  {}:{}-{}  {linked}{tables}",
                s.kind,
                echo(&method),
                s.file,
                s.start_line,
                s.end_line
            )))
        });
        write_page(&mut out, rows, found.len(), window)?;
        Ok(out)
    }

    /// `; also named in mapper XML: file:line, ...` for a type's references.
    pub(super) fn mapper_type_uses(&self, store: &Store, s: &SymbolInfo) -> Result<String, ToolError> {
        if !s.kind.is_type() {
            return Ok(String::new());
        }
        let view = self.statement_view(store)?;
        let places: Vec<String> = view.types.iter().filter(|(t, _, _)| *t == s.qname).map(|(_, f, l)| format!("{f}:{l}")).collect();
        if places.is_empty() {
            return Ok(String::new());
        }
        let shown: Vec<&str> = places.iter().take(5).map(String::as_str).collect();
        let more = if places.len() > 5 { format!(" and {} more", places.len() - 5) } else { String::new() };
        Ok(format!("\nalso named in mapper XML ({}): {}{more}", places.len(), shown.join(", ")))
    }

    /// `file:line: error` of mapper files that did not parse, for `repochart status`.
    pub(super) fn mapper_errors(&self, store: &Store) -> Result<(usize, usize, Vec<String>), ToolError> {
        let view = self.statement_view(store)?;
        let statements = view.statements.iter().filter(|s| !mybatis::is_fragment(s)).count();
        Ok((view.files, statements, view.errors.clone()))
    }
}

/// `{lead}Owner#method  path:line, ...` for the methods running a statement by its id, at
/// most `SHOWN_CALLERS` of them, or nothing.
fn callers_by_id(view: &StatementView, st: &Statement, lead: &str) -> String {
    let Some(callers) = view.run_by_id.get(&st.string_id()) else { return String::new() };
    let shown: Vec<String> =
        callers.iter().take(SHOWN_CALLERS).map(|c| format!("{}  {}:{}", c.signature_handle(), c.path, c.start_line)).collect();
    let more = callers.len().saturating_sub(SHOWN_CALLERS);
    let more = if more > 0 { format!("; and {more} more (search_symbols kind=statement)") } else { String::new() };
    format!("{lead}{}{more}\n", shown.join(", "))
}

/// Whether a statement includes a fragment, directly or through fragments it includes.
fn statement_includes(view: &StatementView, st: &Statement, fragment: &Statement, depth: usize) -> bool {
    depth < 8
        && st
            .includes
            .iter()
            .filter_map(|r| mybatis::fragment(&view.statements, st, r))
            .any(|f| f == fragment || statement_includes(view, f, fragment, depth + 1))
}
