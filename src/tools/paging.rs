//! Paging and budgets: how a list is cut to its answer budget, and the line that says
//! where the next page starts. Must not know what the items are.

use std::fmt::Write;

use super::FOOTER_ROOM;

/// Appends the items of a list that has no `offset` (a part of a larger answer) while the
/// budget allows, then a line saying how many were cut and what shows them.
pub(super) fn page(out: &mut String, items: &[String], total: usize, budget: usize, hint: &str) {
    let mut shown = 0;
    for item in items {
        if out.len() + item.len() + 1 + FOOTER_ROOM > budget {
            break;
        }
        out.push_str(item);
        out.push('\n');
        shown += 1;
    }
    if total > shown {
        let _ = write!(out, "... {} more not shown", total - shown);
        if !hint.is_empty() {
            let _ = write!(out, " ({hint})");
        }
    }
    while out.ends_with('\n') {
        out.pop();
    }
}

/// Cuts a free-form answer at its budget, on a line boundary.
pub(super) fn cap(mut text: String, budget: usize) -> String {
    if text.len() <= budget {
        return text;
    }
    let mut cut = budget - FOOTER_ROOM;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let cut = text[..cut].rfind('\n').unwrap_or(cut);
    text.truncate(cut);
    text.push_str("\n... cut at the answer budget");
    text
}

/// One row of a paged list: the headings it sits under, outermost first (each printed once
/// above its run of rows, and again at the top of a page that starts inside the run), its
/// text, and how many list items it stands for (a references row may stand for several).
pub(super) struct Row {
    pub groups: Vec<String>,
    pub text: String,
    pub count: usize,
}

impl Row {
    pub(super) fn new(text: String) -> Row {
        Row { groups: Vec::new(), text, count: 1 }
    }

    pub(super) fn under(groups: Vec<String>, text: String) -> Row {
        Row { groups, text, count: 1 }
    }
}

/// Where a page starts and what may end it.
#[derive(Clone, Copy)]
pub(super) struct Window {
    /// Items to skip (the tool's `offset`).
    pub offset: usize,
    /// Items at most (the tool's `limit`).
    pub limit: usize,
    /// Bytes the whole answer may take.
    pub budget: usize,
    /// A default page's size in bytes (a graph answer called without `limit`): the rows stop
    /// there, with room for a few rows past a long heading, and the last line says so.
    pub page_bytes: Option<usize>,
}

impl Window {
    /// The window less `bytes` (what the answer adds after its rows), from its budget and its
    /// default page alike.
    pub(super) fn less(self, bytes: usize) -> Window {
        Window { budget: self.budget.saturating_sub(bytes), page_bytes: self.page_bytes.map(|b| b.saturating_sub(bytes)), ..self }
    }
}

/// A graph answer's default page, in bytes (about 375 tokens): the heading and the heaviest
/// rows; `limit` asks for more rows a page.
pub(super) const DEFAULT_PAGE: usize = 1_500;

/// What the last line of a default page says cut it (`DEFAULT_PAGE` as people write it).
const DEFAULT_PAGE_CUT: &str = "a default page of about 1,500 bytes; limit sets its rows";

/// How much a default page leaves for rows past a heading longer than its size.
const PAST_HEADING: usize = 400;

/// Appends the rows of one page to `out`, from `rows` (which starts at `window.offset`),
/// until `limit` items are shown or the next row would break the budget, then the line that
/// says what is left and which `offset` shows it, and whether the limit or the budget cut.
/// Following the offsets from 0 yields every item once, in order. Rows are made lazily:
/// the rows past the page are never formatted.
pub(super) fn write_page<E>(
    out: &mut String,
    rows: impl IntoIterator<Item = Result<Row, E>>,
    total: usize,
    window: Window,
) -> Result<(), E> {
    let mut shown = 0;
    let mut by_budget = false;
    let mut open: Vec<String> = Vec::new();
    // A default page holds rows up to its size and its last line comes on top (so it stays
    // about that size); the answer budget keeps room for that line.
    let (budget, room) = match window.page_bytes {
        Some(bytes) if bytes.max(out.len() + PAST_HEADING) + FOOTER_ROOM <= window.budget => (bytes.max(out.len() + PAST_HEADING), 0),
        _ => (window.budget, FOOTER_ROOM),
    };
    if window.offset >= total && total > 0 {
        let _ = write!(out, "offset={} is past the end: the list has {total}; offset=0 starts it", window.offset);
        return Ok(());
    }
    for row in rows {
        if shown >= window.limit {
            break;
        }
        let row = row?;
        // The headings this row needs that are not open already.
        let same = open.iter().zip(&row.groups).take_while(|(a, b)| a == b).count();
        let mut text = String::new();
        for (depth, g) in row.groups.iter().enumerate().skip(same) {
            let _ = writeln!(text, "{}{g}", "  ".repeat(depth));
        }
        let _ = writeln!(text, "{}{}", "  ".repeat(row.groups.len()), row.text);
        if out.len() + text.len() + room > budget {
            by_budget = true;
            if shown > 0 {
                break;
            }
            // Not even one row fits: the first is cut to fit, so that paging still moves on.
            let left = budget.saturating_sub(out.len() + room + 4);
            let mut end = left.min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.truncate(end);
            text.push_str("…\n");
        }
        out.push_str(&text);
        // The row itself heads the rows nested under it (an outline's members).
        open = row.groups;
        open.push(row.text);
        shown += row.count;
    }
    let next = window.offset + shown;
    if next < total {
        let why = match (by_budget, window.page_bytes) {
            (true, Some(_)) if budget < window.budget => DEFAULT_PAGE_CUT.to_string(),
            (true, _) => "cut at the answer budget".to_string(),
            (false, _) => format!("limit={}", window.limit),
        };
        let _ = write!(out, "... {} more ({why}); next page: offset={next}", total - next);
    }
    while out.ends_with('\n') {
        out.pop();
    }
    Ok(())
}

/// Caller text (a query, a handle, a path) as answers and errors echo it: quoted, and cut
/// to about 80 characters so that a huge argument cannot fill the answer.
pub(super) fn echo(text: &str) -> String {
    const MAX: usize = 80;
    if text.chars().count() <= MAX {
        return format!("{text:?}");
    }
    let cut: String = text.chars().take(MAX).collect();
    format!("{cut:?}… ({} characters)", text.chars().count())
}
