//! Paging and budgets: how a list is cut to its answer budget, and the line that says
//! where the next page starts. Must not know what the items are.

use std::fmt::Write;

use super::FOOTER_ROOM;

/// Appends list items while the budget allows, then a line saying what was cut.
/// `offset` is the tool's `offset` argument, for tools that page with one.
pub(super) fn page(out: &mut String, items: &[String], total: usize, offset: Option<usize>, budget: usize, hint: &str) {
    page_counted(out, items.iter().map(|item| (item.as_str(), 1)), total, offset, budget, hint);
}

/// `page` for rows that stand for several items each: (row, how many).
pub(super) fn page_counted<'a>(
    out: &mut String,
    items: impl IntoIterator<Item = (&'a str, usize)>,
    total: usize,
    offset: Option<usize>,
    budget: usize,
    hint: &str,
) {
    let paged = offset.is_some();
    let offset = offset.unwrap_or(0);
    let mut shown = 0;
    for (item, n) in items {
        if out.len() + item.len() + 1 + FOOTER_ROOM > budget {
            break;
        }
        out.push_str(item);
        out.push('\n');
        shown += n;
    }
    let remaining = total.saturating_sub(offset + shown);
    if remaining > 0 {
        if paged {
            let _ = write!(out, "... {remaining} more; next page: offset={}", offset + shown);
        } else {
            let _ = write!(out, "... {remaining} more not shown");
        }
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
