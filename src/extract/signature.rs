//! Signature and doc text: what a declaration says of itself: its one-line signature
//! (annotations left out), modifiers and visibility, whether it is a test, its doc
//! summary (the first sentence), and the words of the string literals and comments inside
//! it (`FileExtract::texts`, for search).
//!
//! Methods of the extractor and plain functions over text. It must not make symbols or
//! references, or do IO.

use super::fields::Fields;
use super::*;
use std::borrow::Cow;

/// Longest one-line signature kept, in characters.
const MAX_SIGNATURE: usize = 200;

/// Longest doc summary kept, in characters.
const MAX_DOC: usize = 240;

/// At most this many distinct words of body text are kept per declaration.
const MAX_TEXT_WORDS: usize = 64;

/// A literal or comment longer than this is data (a table, a licence), not words about the code.
const MAX_TEXT_NODE: usize = 2000;

impl<'t> Extractor<'t> {
    pub(super) fn signature(&self, node: Node) -> String {
        let end = node.field("body").map(|b| b.start_byte()).unwrap_or(node.end_byte());
        // Annotations are not the signature: a long `@RequestMapping(...)` would push the
        // name past the cut. The modifier words stay.
        let mut start = node.start_byte();
        let mut words: Vec<&str> = Vec::new();
        let mut cursor = node.walk();
        if let Some(modifiers) = node.children(&mut cursor).find(|c| self.kind(*c) == "modifiers") {
            let mut inner = modifiers.walk();
            for word in modifiers.children(&mut inner) {
                // A comment between annotations (`@Service /** Docs. */ @Profile("dev")`) is
                // the doc's, not the signature's.
                if !self.kind(word).ends_with("annotation") && !self.spec.comment_kinds.contains(&self.kind(word)) {
                    words.extend(self.text(word).split_whitespace());
                }
            }
            start = modifiers.end_byte();
        }
        // A comment between the modifiers and the name (`@DataJpaTest // @TestPropertySource(..)
        // class T`) is no part of it: its bytes are left out.
        let mut kept = std::borrow::Cow::Borrowed(&self.src[start..end.max(start)]);
        let mut cursor = node.walk();
        let comments: Vec<(usize, usize)> = node
            .children(&mut cursor)
            .filter(|c| self.spec.comment_kinds.contains(&self.kind(*c)) && c.start_byte() >= start && c.end_byte() <= end)
            .map(|c| (c.start_byte() - start, c.end_byte() - start))
            .collect();
        if !comments.is_empty() {
            let mut text = String::with_capacity(kept.len());
            let mut from = 0;
            for (a, b) in comments {
                text.push_str(&kept[from..a]);
                text.push(' ');
                from = b;
            }
            text.push_str(&kept[from..]);
            kept = std::borrow::Cow::Owned(text);
        }
        // Trailing braces, semicolons and spaces off, words joined by one space, and no more
        // words read than the cut keeps (a field's initializer can be a table of thousands).
        let text = kept.trim_end_matches(|c: char| c == '{' || c == ';' || c.is_whitespace());
        let mut out = String::new();
        let mut chars = 0;
        for word in words.into_iter().chain(text.split_whitespace()) {
            if !out.is_empty() {
                out.push(' ');
                chars += 1;
            }
            out.push_str(word);
            chars += word.chars().count();
            if chars > MAX_SIGNATURE {
                break;
            }
        }
        truncate_chars(out, MAX_SIGNATURE)
    }

    /// The attributes of a Rust item (`attribute` nodes of the `#[...]` before it, nearest
    /// first; comments may sit between them).
    pub(super) fn attributes_before<'n>(&self, node: Node<'n>) -> Vec<Node<'n>>
    where
        't: 'n,
    {
        let mut out = Vec::new();
        self.siblings_before(node, |p| {
            if !p.is_named() {
                return true;
            }
            match self.kind(p) {
                "attribute_item" => out.extend(p.named_child(0)),
                "line_comment" | "block_comment" => {}
                _ => return false,
            }
            true
        });
        out
    }

    /// Lists the children of every definition's parent the matcher gave, once each, for
    /// `siblings_before` (a class's members share one list).
    pub(super) fn list_siblings(&mut self) {
        let mut lists: HashMap<usize, Vec<Node<'t>>> = HashMap::default();
        for parent in self.def_parents.values() {
            lists.entry(parent.id()).or_insert_with(|| {
                let mut cursor = parent.walk();
                parent.children(&mut cursor).collect()
            });
        }
        self.siblings = lists;
    }

    /// Calls `visit` with the siblings before a definition's node (anonymous ones too),
    /// nearest first, until it returns false: from its parent's children when
    /// `list_siblings` listed them, else by `prev_sibling`, which finds the parent by a walk
    /// down from the root at every call (4,000 of its 5,700 instructions a symbol on
    /// java.base).
    pub(super) fn siblings_before<'n>(&self, node: Node<'n>, mut visit: impl FnMut(Node<'n>) -> bool)
    where
        't: 'n,
    {
        let listed = self.def_parents.get(&node.id()).and_then(|p| self.siblings.get(&p.id()));
        let before = listed.and_then(|children| {
            let from = children.partition_point(|c| c.start_byte() < node.start_byte());
            let at = from + children[from..].iter().position(|c| c.id() == node.id())?;
            Some(&children[..at])
        });
        match before {
            Some(before) => {
                for &s in before.iter().rev() {
                    if !visit(s) {
                        return;
                    }
                }
            }
            None => {
                let mut sibling = node.prev_sibling();
                while let Some(s) = sibling {
                    if !visit(s) {
                        return;
                    }
                    sibling = s.prev_sibling();
                }
            }
        }
    }

    /// A Rust function that defines a procedural macro (`#[proc_macro]`,
    /// `#[proc_macro_attribute]`, `#[proc_macro_derive(Name)]`).
    pub(super) fn is_proc_macro(&self, node: Node<'t>) -> bool {
        self.spec.language == Language::Rust
            && self.attributes_before(node).iter().any(|attr| {
                attr.named_child(0)
                    .is_some_and(|path| matches!(self.text(path), "proc_macro" | "proc_macro_attribute" | "proc_macro_derive"))
            })
    }

    /// A function annotated (Java) or attributed (Rust) as a test (`grammars/<lang>/test-*`).
    pub(super) fn is_test_function(&self, node: Node) -> bool {
        match self.spec.language {
            Language::Java => {
                let mut cursor = node.walk();
                let Some(modifiers) = node.children(&mut cursor).find(|c| self.kind(*c) == "modifiers") else { return false };
                let mut inner = modifiers.walk();
                let found = modifiers.children(&mut inner).any(|a| {
                    self.kind(a).ends_with("annotation")
                        && a.field("name").is_some_and(|n| {
                            let name = self.text(n);
                            self.spec.is_test_marker(name.rsplit('.').next().unwrap_or(name))
                        })
                });
                found
            }
            Language::Rust => self
                .attributes_before(node)
                .iter()
                .any(|attr| attr.named_child(0).is_some_and(|path| self.spec.is_test_marker(self.text(path)))),
        }
    }

    pub(super) fn modifiers(&self, node: Node) -> (String, String) {
        let mut words: Vec<String> = Vec::new();
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if !self.spec.modifier_kinds.contains(&self.kind(child)) {
                continue;
            }
            if self.kind(child) == "visibility_modifier" {
                words.push(strip_space(self.text(child)));
                continue;
            }
            let mut inner = child.walk();
            for word in child.children(&mut inner) {
                if !self.kind(word).ends_with("annotation") && !self.spec.comment_kinds.contains(&self.kind(word)) {
                    words.push(strip_space(self.text(word)));
                }
            }
        }
        let visibility = words
            .iter()
            .find(|w| self.spec.visibilities.contains(&w.as_str()) || w.starts_with("pub("))
            .cloned()
            .unwrap_or_else(|| self.spec.default_visibility.to_string());
        (visibility, words.join(" "))
    }

    pub(super) fn doc(&self, node: Node) -> String {
        let mut lines: Vec<&str> = Vec::new();
        // A Java doc comment written between annotations sits inside the modifiers.
        let mut cursor = node.walk();
        let inside = node.children(&mut cursor).find(|c| self.kind(*c) == "modifiers").and_then(|m| {
            let mut inner = m.walk();
            // Bound before it is returned: the iterator borrows `inner`.
            let doc = m.children(&mut inner).find(|c| self.spec.comment_kinds.contains(&self.kind(*c)) && self.text(*c).starts_with("/**"));
            doc
        });
        if let Some(doc) = inside {
            lines.push(self.text(doc));
        } else {
            self.siblings_before(node, |s| {
                if self.spec.doc_skip_kinds.contains(&self.kind(s)) {
                    return true;
                }
                if !self.spec.comment_kinds.contains(&self.kind(s)) {
                    return false;
                }
                let text = self.text(s);
                if !self.spec.doc_prefixes.iter().any(|p| text.starts_with(p)) || text.starts_with("////") {
                    return false;
                }
                lines.push(text);
                !text.starts_with("/**")
            });
        }
        lines.reverse();
        // The first sentence, cut to MAX_DOC: reading stops once either is known (a
        // sentence ends where a word ending in '.' is followed by another).
        let mut words = String::new();
        let mut chars = 0;
        'comments: for raw in lines {
            for line in raw.lines() {
                let line = line.trim().trim_start_matches("/**").trim_end_matches("*/").trim_start_matches("///");
                let line = line.trim_start_matches('*').trim();
                if line.starts_with('@') || line.starts_with("# ") {
                    break;
                }
                for word in line.split_whitespace() {
                    if !words.is_empty() {
                        if words.ends_with('.') {
                            break 'comments;
                        }
                        words.push(' ');
                        chars += 1;
                    }
                    words.push_str(word);
                    chars += word.chars().count();
                    if chars > MAX_DOC {
                        break 'comments;
                    }
                }
            }
        }
        truncate_chars(first_sentence(&words), MAX_DOC)
    }
}

/// The words of the string literals and comments (not docs) `texts` lists (document order,
/// the outermost only), each given to the innermost declaration whose lines hold it: lower
/// case, identifiers split, three letters or more, each once, at most `MAX_TEXT_WORDS` per
/// declaration.
pub(super) fn body_text(spec: &LanguageSpec, texts: &[Node], source: &str, symbols: &[Symbol]) -> Vec<(usize, String)> {
    let last = symbols.iter().map(|s| s.end_line as usize).max().unwrap_or(0);
    // The innermost declaration of each line: wider ones first, narrower ones over them.
    let mut by_width: Vec<usize> = (0..symbols.len()).filter(|&i| symbols[i].kind != SymbolKind::Package).collect();
    by_width.sort_by_key(|&i| std::cmp::Reverse(symbols[i].end_line.saturating_sub(symbols[i].start_line)));
    let mut inner: Vec<Option<usize>> = vec![None; last + 1];
    for i in by_width {
        for line in symbols[i].start_line as usize..=(symbols[i].end_line as usize).min(last) {
            inner[line] = Some(i);
        }
    }
    let mut words: Vec<(Vec<Cow<str>>, HashSet<Cow<str>>)> = vec![Default::default(); symbols.len()];
    for node in texts {
        let text = node.utf8_text(source.as_bytes()).unwrap_or("");
        let doc = spec.comment_kinds.contains(&node.kind())
            && spec.doc_prefixes.iter().chain(spec.inner_doc_prefixes).any(|p| text.starts_with(p));
        let line = node.start_position().row + 1;
        let (false, true, Some(Some(owner))) = (doc, text.len() <= MAX_TEXT_NODE, inner.get(line)) else {
            continue;
        };
        let (list, seen) = &mut words[*owner];
        // The cap ends the whole literal or comment, not only the word.
        'text: for w in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
            for part in crate::model::word_parts(w) {
                if list.len() >= MAX_TEXT_WORDS {
                    break 'text;
                }
                if part.chars().count() >= 3 && !part.chars().all(|c| c.is_ascii_digit()) && seen.insert(part.clone()) {
                    list.push(part);
                }
            }
        }
    }
    words.into_iter().enumerate().filter(|(_, (list, _))| !list.is_empty()).map(|(i, (list, _))| (i, list.join(" "))).collect()
}

/// The nodes `text_kinds` flags (by kind id), the outermost only, in document order, by a
/// cursor walk of the tree: the list the matcher's own walk makes (`Matcher::run_marking`),
/// for the reference engine.
pub(super) fn text_nodes<'t>(text_kinds: &[bool], root: Node<'t>) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    let mut cursor = root.walk();
    let mut descend = true;
    loop {
        let node = cursor.node();
        let is_text = text_kinds.get(node.kind_id() as usize).copied().unwrap_or(false);
        if is_text && descend {
            out.push(node);
        }
        if descend && !is_text && cursor.goto_first_child() {
            continue;
        }
        if cursor.goto_next_sibling() {
            descend = true;
            continue;
        }
        if !cursor.goto_parent() {
            break;
        }
        descend = false;
    }
    out
}

/// Appends a word (`@Test`, `@Service`, `@Scheduled(cron=...)`) to a symbol's modifiers.
pub(super) fn add_modifier(modifiers: &mut String, word: &str) {
    if !modifiers.is_empty() {
        modifiers.push(' ');
    }
    modifiers.push_str(word);
}

fn first_sentence(text: &str) -> String {
    let end = text.find(". ").map_or(text.len(), |i| i + 1);
    text[..end].to_string()
}

fn truncate_chars(text: String, max: usize) -> String {
    if text.chars().count() <= max {
        return text;
    }
    let mut out: String = text.chars().take(max - 1).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn body_text_is_each_innermost_declarations_literals_and_comments_without_docs() {
        let java = "package p;\nclass Uploader {\n    /** Sends the file. */\n    void send() {\n        // Retry the upload once\n        throw new IllegalStateException(\"Quota exceeded: \" + quotaLeft);\n    }\n    String name = \"bulk uploader\";\n}\n";
        let out = crate::extract::extract(crate::lang::spec(crate::model::Language::Java), java, "p");
        let texts: Vec<(&str, &str)> = out.texts.iter().map(|(i, t)| (out.symbols[*i].qname.as_str(), t.as_str())).collect();
        assert_eq!(texts, [("p.Uploader#send", "retry the upload once quota exceeded"), ("p.Uploader#name", "bulk uploader")]);
        // Lower-case words as they are; others split as names are (`maxRetries`), each once.
        let java = "class A { void f() { // retry maxRetries times, then retry ÉTÉ\n } }";
        let out = crate::extract::extract(crate::lang::spec(crate::model::Language::Java), java, "p");
        assert_eq!(out.texts, [(1, "retry max retries maxretries times then été".to_string())]);
        let rust = "/// Docs.\nfn send() {\n    //! inner docs\n    let m = r#\"Disk full\"#; // keep going\n}\n";
        let out = crate::extract::extract(crate::lang::spec(crate::model::Language::Rust), rust, "shop");
        let texts: Vec<(&str, &str)> = out.texts.iter().map(|(i, t)| (out.symbols[*i].qname.as_str(), t.as_str())).collect();
        assert_eq!(texts, [("shop::send", "disk full keep going")]);
    }
}
