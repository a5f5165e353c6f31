//! An expansion as source text for the grammar: tokens joined as Rust is written (so that
//! the signatures of what a macro makes read well), each line mapped to the line of the
//! invoking file its tokens came from, and to the macro that wrote it.
//!
//! Pure text: no IO, no syntax trees.

use super::{Tt, BY};

/// Token trees as source text, each line mapped to a line of the invoking file: a token
/// from the input keeps its own line (found from its byte by `line_of`), the macro's own
/// tokens are on `home`'s.
pub(in crate::extract) fn render(tts: &[Tt], home: u32, line_of: &dyn Fn(u32) -> u32) -> (String, Vec<u32>, Vec<String>) {
    let mut text = String::new();
    let mut lines = vec![home];
    let mut writers = vec![String::new()];
    fn close(open: u8) -> char {
        match open {
            b'(' => ')',
            b'[' => ']',
            _ => '}',
        }
    }
    struct Out<'a> {
        text: &'a mut String,
        lines: &'a mut Vec<u32>,
        /// The macro that wrote each line's first token.
        writers: &'a mut Vec<String>,
        writer: String,
        last: String,
        /// How many `<` glued to a name (generic arguments) are open.
        angles: usize,
    }
    fn put(out: &mut Out, piece: &str, line: u32) {
        if let Some(name) = piece.strip_prefix(BY) {
            // Another macro writes from here: on a line of its own.
            out.writer = name.to_string();
            if !out.text.is_empty() && !out.text.ends_with('\n') {
                out.text.push('\n');
                out.lines.push(line);
                out.writers.push(out.writer.clone());
            } else if let Some(w) = out.writers.last_mut() {
                *w = out.writer.clone();
            }
            out.last.clear();
            return;
        }
        if out.text.is_empty() || out.text.ends_with('\n') {
            if out.text.is_empty() {
                out.lines[0] = line;
            }
        } else if *out.lines.last().unwrap_or(&line) != line {
            out.text.push('\n');
            out.lines.push(line);
            out.writers.push(out.writer.clone());
        } else if spaced(&out.last, piece, out.angles) {
            out.text.push(' ');
        }
        let name = |t: &str| t.starts_with(|c: char| c.is_alphanumeric() || c == '_');
        if piece == "<" && name(&out.last) {
            out.angles += 1;
        } else if piece == ">" && out.angles > 0 {
            out.angles -= 1;
        }
        out.text.push_str(piece);
        out.last = piece.to_string();
    }
    fn go(tts: &[Tt], home: u32, line_of: &dyn Fn(u32) -> u32, out: &mut Out) {
        for t in tts {
            match t {
                Tt::Leaf { text, at, .. } => put(out, text, at.map_or(home, line_of)),
                Tt::Group { open, items, at } => {
                    let line = at.map_or(home, line_of);
                    put(out, &(*open as char).to_string(), line);
                    go(items, home, line_of, out);
                    let end = *out.lines.last().unwrap_or(&line);
                    put(out, &close(*open).to_string(), end);
                }
            }
        }
    }
    let mut out = Out { text: &mut text, lines: &mut lines, writers: &mut writers, writer: String::new(), last: String::new(), angles: 0 };
    go(tts, home, line_of, &mut out);
    (text, lines, writers)
}

/// Whether a space goes between two tokens of an expansion, so that it reads as Rust is
/// written (`fn call(self) -> u32`, `Vec<u8>`, `a::b`), which its signatures show.
fn spaced(last: &str, next: &str, angles: usize) -> bool {
    let name = |t: &str| t.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '\'');
    const KEYWORDS: &[&str] = &["if", "while", "match", "in", "return", "for", "let", "as", "mut", "move", "dyn", "impl", "where", "else"];
    if matches!(last, "(" | "[" | "." | "::" | "#" | "&" | "$") || (last == "<" && angles > 0) {
        return false;
    }
    if last == "!" && matches!(next, "(" | "[" | "{") {
        return false;
    }
    match next {
        ")" | "]" | "," | ";" | "." | "::" | "?" | ":" => false,
        "(" | "[" => !(name(last) && !KEYWORDS.contains(&last) || matches!(last, ")" | "]" | ">")),
        "<" => !name(last),
        ">" => angles == 0,
        "!" => !name(last),
        _ => true,
    }
}
