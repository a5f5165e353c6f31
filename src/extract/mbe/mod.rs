//! The repository's own `macro_rules!` macros expanded, macro by example: a rule's matcher
//! (literal tokens, delimited groups, fragments `$x:ident`, `$e:expr`, `$t:ty`, ..., and
//! repetitions `$(..),*` with their separator) is matched against an invocation's tokens,
//! and its transcriber writes the output with the fragments put in, repetitions repeated
//! and `$crate` replaced by the defining crate's name; a macro of the table invoked in the
//! output is expanded in turn (`all_the_tuples!(impl_handler)` makes one `impl_handler!` per
//! arity). The output is text for the grammar, with each of its lines mapped to the line of
//! the file its tokens came from (the invocation's own line for the macro's tokens).
//!
//! Tokens are tree-sitter's: a macro's rules and an invocation's input are read from their
//! token trees. A fragment is parsed by where it ends rather than by Rust's grammar: Rust
//! lets an `expr` be followed only by `=>`, `,` or `;`, a `ty` or `path` only by a few more,
//! so a fragment runs to the first of those (or of the token the rule writes next) outside
//! any group and, for types, outside `<..>`.
//!
//! Pure computation on text: no IO, no store, no resolution (a macro is found by its name,
//! its own crate's first).

use crate::extract::fields::Fields;
use rustc_hash::FxHashMap as HashMap;
use tree_sitter::Node;

use crate::lang::LanguageSpec;

mod render;
pub(super) use render::render;

/// How deep macros invoked in an expansion are expanded in turn.
const MAX_DEPTH: usize = 8;
/// The most tokens one invocation may expand to (every nested expansion included).
const MAX_TOKENS: usize = 200_000;

/// One token tree: a leaf token or a delimited group, with the byte in the invoking file
/// it came from (None: written by the macro).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tt {
    Leaf { text: Box<str>, kind: Leaf, at: Option<u32> },
    Group { open: u8, items: Vec<Tt>, at: Option<u32> },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Leaf {
    Ident,
    Lifetime,
    Literal,
    Punct,
}

#[derive(Clone, Debug)]
enum Pat {
    Tok(Box<str>),
    Group(u8, Vec<Pat>),
    Var(Box<str>, Frag),
    Rep(Vec<Pat>, Option<Box<str>>, Op),
}

#[derive(Clone, Debug)]
enum Tmpl {
    Tok(Tt),
    Group(u8, Vec<Tmpl>),
    Var(Box<str>),
    Crate,
    Rep(Vec<Tmpl>, Option<Box<str>>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Frag {
    Ident,
    Lifetime,
    Literal,
    Tt,
    Block,
    Vis,
    Expr,
    Ty,
    Path,
    Pat,
    Stmt,
    Item,
    Meta,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Many,
    OneOrMore,
    Optional,
}

/// One `macro_rules!` macro: its name, the crate that defines it (what `$crate` is) and its
/// rules (matcher, transcriber).
#[derive(Debug)]
pub struct MacroDef {
    pub name: String,
    pub krate: String,
    rules: Vec<(Vec<Pat>, Vec<Tmpl>)>,
    /// A hash of the definition's text and crate (what a change of it is told by).
    hash: u64,
}

/// The repository's `macro_rules!` macros by name.
#[derive(Debug, Default)]
pub struct MacroTable {
    by_name: HashMap<String, Vec<MacroDef>>,
}

impl MacroTable {
    /// The macros these definitions write (each the text of a `macro_rules!` item, with the
    /// qualified name of the module it is in, whose first segment is its crate).
    pub fn from_sources<'a>(spec: &'static LanguageSpec, defs: impl IntoIterator<Item = (&'a str, &'a str)>) -> MacroTable {
        let mut table = MacroTable::default();
        for (module, text) in defs {
            let krate = module.split("::").next().unwrap_or(module).to_string();
            for def in parse_definitions(spec, text, &krate) {
                table.by_name.entry(def.name.clone()).or_default().push(def);
            }
        }
        table
    }

    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// Each name's definitions as one hash, by name: what tells a run that a macro changed.
    pub fn hashes(&self) -> std::collections::BTreeMap<String, String> {
        self.by_name
            .iter()
            .map(|(name, defs)| {
                let mut each: Vec<u64> = defs.iter().map(|d| d.hash).collect();
                each.sort_unstable();
                let bytes: Vec<u8> = each.iter().flat_map(|h| h.to_le_bytes()).collect();
                (name.clone(), format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&bytes)))
            })
            .collect()
    }

    /// The macro an invocation by this name in `krate` expands: the crate's own, else the
    /// only one of the name.
    pub(super) fn find(&self, name: &str, krate: &str) -> Option<&MacroDef> {
        let defs = self.by_name.get(name)?;
        defs.iter().find(|d| d.krate == krate).or(if defs.len() == 1 { defs.first() } else { None })
    }
}

/// The `macro_rules!` definitions a source text holds (anywhere: in modules, functions,
/// other macros' inputs), each with its crate.
/// Their lines: a `macro_rules!` item, or one written in another macro's input
/// (`cfg_if! { .. { macro_rules! m { .. } } }`), by its first and last line.
pub fn definitions_in(spec: &'static LanguageSpec, source: &str) -> Vec<(u32, u32)> {
    let Some(tree) = super::parse(spec, source) else { return Vec::new() };
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    let line = |b: usize| source[..b].bytes().filter(|c| *c == b'\n').count() as u32 + 1;
    while let Some(n) = stack.pop() {
        if n.kind() == "macro_definition" {
            out.push((n.start_position().row as u32 + 1, n.end_position().row as u32 + 1));
            continue;
        }
        let mut c = n.walk();
        let children: Vec<Node> = n.children(&mut c).collect();
        if n.kind() == "token_tree" {
            // `macro_rules ! name { .. }` as tokens.
            for w in children.windows(4) {
                if &source[w[0].byte_range()] == "macro_rules" && &source[w[1].byte_range()] == "!" && w[3].kind() == "token_tree" {
                    out.push((line(w[0].start_byte()), line(w[3].end_byte())));
                }
            }
        }
        stack.extend(children);
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn parse_definitions(spec: &'static LanguageSpec, text: &str, krate: &str) -> Vec<MacroDef> {
    let Some(tree) = super::parse(spec, text) else { return Vec::new() };
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        if n.kind() == "macro_definition" {
            let name = n.field("name").map(|m| text[m.byte_range()].to_string()).unwrap_or_default();
            let mut rules = Vec::new();
            let mut c = n.walk();
            for rule in n.named_children(&mut c).filter(|r| r.kind() == "macro_rule") {
                if let (Some(left), Some(right)) = (rule.field("left"), rule.field("right")) {
                    rules.push((patterns(left, text), templates(right, text)));
                }
            }
            if !name.is_empty() && !rules.is_empty() {
                let hash = xxhash_rust::xxh3::xxh3_64(format!("{krate}\n{}", &text[n.byte_range()]).as_bytes());
                out.push(MacroDef { name, krate: krate.to_string(), rules, hash });
            }
            continue;
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    out
}

/// The children of a group node between its delimiters, lifetimes (`'` and a name) as one.
fn inner<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut c = node.walk();
    let all: Vec<Node<'t>> = node.children(&mut c).collect();
    if all.len() < 2 {
        return Vec::new();
    }
    all[1..all.len() - 1].to_vec()
}

fn open_of(node: Node, text: &str) -> u8 {
    text.as_bytes().get(node.start_byte()).copied().unwrap_or(b'(')
}

/// Leaf tokens as the grammar gives them, a lifetime's `'` joined to its name.
fn leaves<'t>(nodes: &[Node<'t>], text: &'t str) -> Vec<(Node<'t>, String, Leaf)> {
    let mut out: Vec<(Node<'t>, String, Leaf)> = Vec::new();
    let mut i = 0;
    while i < nodes.len() {
        let n = nodes[i];
        let t = &text[n.byte_range()];
        if t == "'" && nodes.get(i + 1).is_some_and(|m| m.start_byte() == n.end_byte()) {
            let m = nodes[i + 1];
            out.push((n, format!("'{}", &text[m.byte_range()]), Leaf::Lifetime));
            i += 2;
            continue;
        }
        let kind = if n.kind().ends_with("literal") || matches!(t, "true" | "false") {
            Leaf::Literal
        } else if t.starts_with(|c: char| c.is_alphabetic() || c == '_') {
            Leaf::Ident
        } else {
            Leaf::Punct
        };
        out.push((n, t.to_string(), kind));
        i += 1;
    }
    out
}

fn patterns(node: Node, text: &str) -> Vec<Pat> {
    let mut out = Vec::new();
    let nodes = inner(node);
    let mut plain: Vec<Node> = Vec::new();
    let flush = |plain: &mut Vec<Node>, out: &mut Vec<Pat>| {
        for (_, t, _) in leaves(plain, text) {
            out.push(Pat::Tok(t.into()));
        }
        plain.clear();
    };
    for n in nodes {
        match n.kind() {
            "token_tree_pattern" => {
                flush(&mut plain, &mut out);
                out.push(Pat::Group(open_of(n, text), patterns(n, text)));
            }
            "token_binding_pattern" => {
                flush(&mut plain, &mut out);
                let name = n.field("name").map(|m| &text[m.byte_range()]).unwrap_or("");
                let name = name.trim_start_matches('$');
                let frag = n.field("type").map(|t| &text[t.byte_range()]).unwrap_or("tt");
                out.push(Pat::Var(name.into(), fragment(frag)));
            }
            "token_repetition_pattern" => {
                flush(&mut plain, &mut out);
                let (body, sep, op) = repetition(n, text);
                let mut inner_pats = Vec::new();
                let mut run: Vec<Node> = Vec::new();
                for b in body {
                    match b.kind() {
                        "token_tree_pattern" | "token_binding_pattern" | "token_repetition_pattern" => {
                            for (_, t, _) in leaves(&run, text) {
                                inner_pats.push(Pat::Tok(t.into()));
                            }
                            run.clear();
                            // One node at a time through the same reading as above.
                            let wrapped = patterns_of_one(b, text);
                            inner_pats.extend(wrapped);
                        }
                        _ => run.push(b),
                    }
                }
                for (_, t, _) in leaves(&run, text) {
                    inner_pats.push(Pat::Tok(t.into()));
                }
                out.push(Pat::Rep(inner_pats, sep, op));
            }
            _ => plain.push(n),
        }
    }
    flush(&mut plain, &mut out);
    out
}

/// One structured matcher node (a group, binding or repetition) as patterns.
fn patterns_of_one(n: Node, text: &str) -> Vec<Pat> {
    match n.kind() {
        "token_tree_pattern" => vec![Pat::Group(open_of(n, text), patterns(n, text))],
        "token_binding_pattern" => {
            let name = n.field("name").map(|m| &text[m.byte_range()]).unwrap_or("").trim_start_matches('$');
            let frag = n.field("type").map(|t| &text[t.byte_range()]).unwrap_or("tt");
            vec![Pat::Var(name.into(), fragment(frag))]
        }
        _ => {
            let (body, sep, op) = repetition(n, text);
            let mut pats = Vec::new();
            let mut run: Vec<Node> = Vec::new();
            for b in body {
                if matches!(b.kind(), "token_tree_pattern" | "token_binding_pattern" | "token_repetition_pattern") {
                    pats.extend(leaves(&run, text).into_iter().map(|(_, t, _)| Pat::Tok(t.into())));
                    run.clear();
                    pats.extend(patterns_of_one(b, text));
                } else {
                    run.push(b);
                }
            }
            pats.extend(leaves(&run, text).into_iter().map(|(_, t, _)| Pat::Tok(t.into())));
            vec![Pat::Rep(pats, sep, op)]
        }
    }
}

/// A repetition's body nodes, its separator (the text between its `)` and its operator,
/// which the grammar keeps as no node) and its operator.
fn repetition<'t>(n: Node<'t>, text: &str) -> (Vec<Node<'t>>, Option<Box<str>>, Op) {
    let mut c = n.walk();
    let all: Vec<Node<'t>> = n.children(&mut c).collect();
    // `$`, `(`, body..., `)`, operator.
    let op_node = all.last().copied();
    let close = all.iter().rposition(|x| &text[x.byte_range()] == ")");
    let body = match close {
        Some(k) if k >= 2 => all[2..k].to_vec(),
        _ => Vec::new(),
    };
    let op = match op_node.map(|o| &text[o.byte_range()]) {
        Some("+") => Op::OneOrMore,
        Some("?") => Op::Optional,
        _ => Op::Many,
    };
    let sep = match (close, op_node) {
        (Some(k), Some(o)) => {
            let s = text[all[k].end_byte()..o.start_byte()].trim();
            (!s.is_empty()).then(|| s.into())
        }
        _ => None,
    };
    (body, sep, op)
}

fn fragment(name: &str) -> Frag {
    match name {
        "ident" => Frag::Ident,
        "lifetime" => Frag::Lifetime,
        "literal" => Frag::Literal,
        "block" => Frag::Block,
        "vis" => Frag::Vis,
        "expr" | "expr_2021" => Frag::Expr,
        "ty" => Frag::Ty,
        "path" => Frag::Path,
        "pat" | "pat_param" => Frag::Pat,
        "stmt" => Frag::Stmt,
        "item" => Frag::Item,
        "meta" => Frag::Meta,
        _ => Frag::Tt,
    }
}

fn templates(node: Node, text: &str) -> Vec<Tmpl> {
    templates_of(&inner(node), text)
}

fn templates_of(nodes: &[Node], text: &str) -> Vec<Tmpl> {
    let mut out = Vec::new();
    let mut run: Vec<Node> = Vec::new();
    let flush = |run: &mut Vec<Node>, out: &mut Vec<Tmpl>| {
        for (_, t, kind) in leaves(run, text) {
            out.push(Tmpl::Tok(Tt::Leaf { text: t.into(), kind, at: None }));
        }
        run.clear();
    };
    for &n in nodes {
        match n.kind() {
            "token_tree" => {
                flush(&mut run, &mut out);
                out.push(Tmpl::Group(open_of(n, text), templates(n, text)));
            }
            "metavariable" => {
                flush(&mut run, &mut out);
                let name = text[n.byte_range()].trim_start_matches('$');
                out.push(if name == "crate" { Tmpl::Crate } else { Tmpl::Var(name.into()) });
            }
            "token_repetition" => {
                flush(&mut run, &mut out);
                let (body, sep, _) = repetition(n, text);
                out.push(Tmpl::Rep(templates_of(&body, text), sep));
            }
            _ => run.push(n),
        }
    }
    flush(&mut run, &mut out);
    out
}

/// An invocation's input as token trees, each with its byte in the file.
pub(super) fn input_of(tree: Node, text: &str) -> Vec<Tt> {
    let nodes = inner(tree);
    let mut out = Vec::new();
    let mut run: Vec<Node> = Vec::new();
    let flush = |run: &mut Vec<Node>, out: &mut Vec<Tt>| {
        for (n, t, kind) in leaves(run, text) {
            out.push(Tt::Leaf { text: t.into(), kind, at: Some(n.start_byte() as u32) });
        }
        run.clear();
    };
    for n in nodes {
        if n.kind() == "token_tree" {
            flush(&mut run, &mut out);
            out.push(Tt::Group { open: open_of(n, text), items: input_of(n, text), at: Some(n.start_byte() as u32) });
        } else {
            run.push(n);
        }
    }
    flush(&mut run, &mut out);
    out
}

#[derive(Clone, Debug)]
enum Binding {
    One(Vec<Tt>),
    Seq(Vec<Binding>),
}

type Bindings = HashMap<Box<str>, Binding>;

fn leaf_text(t: &Tt) -> Option<&str> {
    match t {
        Tt::Leaf { text, .. } => Some(text),
        Tt::Group { .. } => None,
    }
}

/// Matches `pats` against a prefix of `toks`; the tokens it took. `follow` is the token the
/// matcher writes right after these (for a fragment ending the sequence).
fn match_seq(pats: &[Pat], toks: &[Tt], follow: Option<&str>, b: &mut Bindings, budget: &mut usize) -> Option<usize> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let mut pos = 0;
    for (i, p) in pats.iter().enumerate() {
        let next = match pats.get(i + 1) {
            Some(Pat::Tok(t)) => Some(&**t),
            Some(_) => None,
            None => follow,
        };
        match p {
            Pat::Tok(t) => {
                if leaf_text(toks.get(pos)?) != Some(t) {
                    return None;
                }
                pos += 1;
            }
            Pat::Group(open, inner) => match toks.get(pos)? {
                Tt::Group { open: o, items, .. } if o == open => {
                    if match_seq(inner, items, None, b, budget)? != items.len() {
                        return None;
                    }
                    pos += 1;
                }
                _ => return None,
            },
            Pat::Var(name, frag) => {
                let n = fragment_len(*frag, &toks[pos..], next)?;
                b.insert(name.clone(), Binding::One(toks[pos..pos + n].to_vec()));
                pos += n;
            }
            Pat::Rep(inner, sep, op) => {
                let inner_follow = sep.as_deref().or(next);
                let mut iterations: Vec<Bindings> = Vec::new();
                loop {
                    let mut start = pos;
                    if !iterations.is_empty() {
                        if let Some(s) = sep {
                            if toks.get(pos).and_then(leaf_text) != Some(s) {
                                break;
                            }
                            start += 1;
                        }
                    }
                    let mut one = Bindings::default();
                    match match_seq(inner, &toks[start.min(toks.len())..], inner_follow, &mut one, budget) {
                        Some(n) if n > 0 || (start > pos) => {
                            pos = start + n;
                            iterations.push(one);
                        }
                        _ => break,
                    }
                    if *op == Op::Optional || pos >= toks.len() {
                        break;
                    }
                }
                if *op == Op::OneOrMore && iterations.is_empty() {
                    return None;
                }
                let mut names = Vec::new();
                var_names(inner, &mut names);
                for name in names {
                    let seq = iterations.iter().map(|it| it.get(&name).cloned().unwrap_or(Binding::Seq(Vec::new()))).collect();
                    b.insert(name, Binding::Seq(seq));
                }
            }
        }
    }
    Some(pos)
}

fn var_names(pats: &[Pat], out: &mut Vec<Box<str>>) {
    for p in pats {
        match p {
            Pat::Var(n, _) => out.push(n.clone()),
            Pat::Group(_, inner) | Pat::Rep(inner, _, _) => var_names(inner, out),
            Pat::Tok(_) => {}
        }
    }
}

/// How many tokens a fragment takes from the start of `toks` (None: it cannot start there).
fn fragment_len(frag: Frag, toks: &[Tt], next: Option<&str>) -> Option<usize> {
    let first = toks.first();
    fn leaf(t: Option<&Tt>) -> Option<(Leaf, &str)> {
        match t {
            Some(Tt::Leaf { kind, text, .. }) => Some((*kind, &**text)),
            _ => None,
        }
    }
    match frag {
        Frag::Ident => match leaf(first)? {
            (Leaf::Ident, t) if t != "_" => Some(1),
            _ => None,
        },
        Frag::Lifetime => (leaf(first)?.0 == Leaf::Lifetime).then_some(1),
        Frag::Literal => match leaf(first)? {
            (Leaf::Literal, _) => Some(1),
            (Leaf::Punct, "-") if leaf(toks.get(1)).is_some_and(|(k, _)| k == Leaf::Literal) => Some(2),
            _ => None,
        },
        Frag::Tt => first.map(|_| 1),
        Frag::Block => matches!(first?, Tt::Group { open: b'{', .. }).then_some(1),
        Frag::Vis => match leaf(first) {
            Some((_, "pub")) => Some(if matches!(toks.get(1), Some(Tt::Group { open: b'(', .. })) { 2 } else { 1 }),
            _ => Some(0),
        },
        Frag::Item => {
            let mut i = 0;
            while i < toks.len() {
                match &toks[i] {
                    Tt::Leaf { text, .. } if &**text == ";" => return Some(i + 1),
                    Tt::Group { open: b'{', .. } => {
                        let semi = toks.get(i + 1).and_then(leaf_text) == Some(";");
                        return Some(i + 1 + usize::from(semi));
                    }
                    _ => i += 1,
                }
            }
            (i > 0).then_some(i)
        }
        _ => {
            let stops: &[&str] = match frag {
                Frag::Ty | Frag::Path => &[",", "=>", "=", "|", ";", ":", "as", "where"],
                Frag::Pat => &[",", "=>", "=", "|", "if", "in"],
                Frag::Meta => &[","],
                _ => &[",", ";", "=>"],
            };
            let angles = matches!(frag, Frag::Ty | Frag::Path);
            let mut depth = 0i32;
            let mut i = 0;
            while i < toks.len() {
                if let Tt::Leaf { text, .. } = &toks[i] {
                    let t = &**text;
                    if angles {
                        match t {
                            "<" => depth += 1,
                            ">" if depth > 0 => depth -= 1,
                            ">>" if depth > 1 => depth -= 2,
                            _ => {}
                        }
                    }
                    if depth == 0 && (stops.contains(&t) || Some(t) == next) && i > 0 {
                        break;
                    }
                    if depth == 0 && Some(t) == next && i == 0 {
                        return None;
                    }
                } else if angles && depth == 0 && i > 0 && matches!(toks[i], Tt::Group { open: b'{', .. }) {
                    // A type followed by a block (`$t:ty { .. }`).
                    break;
                }
                i += 1;
            }
            (i > 0).then_some(i)
        }
    }
}

fn lookup<'b>(b: &'b Bindings, name: &str, idx: &[usize]) -> Option<&'b Binding> {
    let mut cur = b.get(name)?;
    for &i in idx {
        match cur {
            Binding::Seq(v) => cur = v.get(i)?,
            Binding::One(_) => return Some(cur),
        }
    }
    Some(cur)
}

/// How many times a repetition repeats: the length of the sequences its variables are bound
/// to at this depth (the shortest, where they differ).
fn iterations(tmpl: &[Tmpl], b: &Bindings, idx: &[usize]) -> usize {
    let mut n: Option<usize> = None;
    fn walk(t: &[Tmpl], b: &Bindings, idx: &[usize], n: &mut Option<usize>) {
        for x in t {
            match x {
                Tmpl::Var(name) => {
                    if let Some(Binding::Seq(v)) = lookup(b, name, idx) {
                        *n = Some(n.map_or(v.len(), |m| m.min(v.len())));
                    }
                }
                Tmpl::Group(_, inner) | Tmpl::Rep(inner, _) => walk(inner, b, idx, n),
                _ => {}
            }
        }
    }
    walk(tmpl, b, idx, &mut n);
    n.unwrap_or(0)
}

fn transcribe(tmpl: &[Tmpl], b: &Bindings, idx: &mut Vec<usize>, krate: &str, out: &mut Vec<Tt>, room: &mut usize) {
    for t in tmpl {
        if *room == 0 {
            return;
        }
        match t {
            Tmpl::Tok(tt) => {
                *room -= 1;
                out.push(tt.clone());
            }
            Tmpl::Group(open, inner) => {
                let mut items = Vec::new();
                transcribe(inner, b, idx, krate, &mut items, room);
                out.push(Tt::Group { open: *open, items, at: None });
            }
            Tmpl::Crate => out.push(Tt::Leaf { text: krate.into(), kind: Leaf::Ident, at: None }),
            Tmpl::Var(name) => match lookup(b, name, idx) {
                Some(Binding::One(tts)) => {
                    *room = room.saturating_sub(tts.len());
                    out.extend(tts.iter().cloned());
                }
                // Bound deeper than it is used, or not bound (a `$x` of a macro the
                // output defines): written as it is.
                _ => out.push(Tt::Leaf { text: format!("${name}").into(), kind: Leaf::Punct, at: None }),
            },
            Tmpl::Rep(inner, sep) => {
                let n = iterations(inner, b, idx);
                for i in 0..n {
                    if i > 0 {
                        if let Some(s) = sep {
                            out.push(Tt::Leaf { text: s.clone(), kind: Leaf::Punct, at: None });
                        }
                    }
                    idx.push(i);
                    transcribe(inner, b, idx, krate, out, room);
                    idx.pop();
                }
            }
        }
    }
}

impl MacroDef {
    /// The first rule matching the input, transcribed.
    fn apply(&self, input: &[Tt], room: &mut usize) -> Option<Vec<Tt>> {
        for (pats, tmpl) in &self.rules {
            let mut b = Bindings::default();
            let mut budget = 100_000;
            if match_seq(pats, input, None, &mut b, &mut budget) == Some(input.len()) {
                let mut out = Vec::new();
                transcribe(tmpl, &b, &mut Vec::new(), &self.krate, &mut out, room);
                return Some(out);
            }
        }
        None
    }
}

/// What an invocation of `def` with this input expands to, the table's macros it invokes
/// expanded in turn; None when no rule matches.
pub(super) fn expand(table: &MacroTable, def: &MacroDef, input: &[Tt]) -> Option<Vec<Tt>> {
    let mut room = MAX_TOKENS;
    let out = def.apply(input, &mut room)?;
    let mut all = vec![by(&def.name)];
    all.extend(expand_nested(table, &def.krate, &def.name, out, 0, &mut room));
    Some(all)
}

/// A marker in an expansion: the tokens after it were written by this macro (the one
/// that wrote an item is what it is `generated by`). `render` writes no text for it.
pub(super) const BY: char = '\u{1}';

fn by(name: &str) -> Tt {
    Tt::Leaf { text: format!("{BY}{name}").into(), kind: Leaf::Punct, at: None }
}

/// Expands the table's macros invoked in `tts` (`name!(..)`, `$crate::name!(..)`), and in
/// the groups inside; a `;` right after one is dropped with it.
fn expand_nested(table: &MacroTable, krate: &str, writer: &str, tts: Vec<Tt>, depth: usize, room: &mut usize) -> Vec<Tt> {
    let mut out: Vec<Tt> = Vec::with_capacity(tts.len());
    let mut i = 0;
    while i < tts.len() {
        let is_call = matches!(&tts[i], Tt::Leaf { kind: Leaf::Ident, .. })
            && tts.get(i + 1).and_then(leaf_text) == Some("!")
            && matches!(tts.get(i + 2), Some(Tt::Group { .. }));
        if is_call && depth < MAX_DEPTH {
            let name = leaf_text(&tts[i]).unwrap_or("");
            if let (Some(def), Some(Tt::Group { items, .. })) = (table.find(name, krate), tts.get(i + 2)) {
                if let Some(expanded) = def.apply(items, room) {
                    // The path before the name (`$crate::`) goes with the invocation.
                    while out.len() >= 2
                        && out.last().and_then(leaf_text) == Some("::")
                        && matches!(out[out.len() - 2], Tt::Leaf { kind: Leaf::Ident, .. })
                    {
                        out.truncate(out.len() - 2);
                    }
                    out.push(by(&def.name));
                    out.extend(expand_nested(table, &def.krate, &def.name, expanded, depth + 1, room));
                    out.push(by(writer));
                    i += 3;
                    if tts.get(i).and_then(leaf_text) == Some(";") {
                        i += 1;
                    }
                    continue;
                }
            }
        }
        match &tts[i] {
            Tt::Group { open, items, at } => {
                let items = expand_nested(table, krate, writer, items.clone(), depth, room);
                out.push(Tt::Group { open: *open, items, at: *at });
            }
            leaf => out.push(leaf.clone()),
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(src: &str) -> MacroTable {
        MacroTable::from_sources(crate::lang::spec(crate::model::Language::Rust), [("app", src)])
    }

    fn expand_text(table: &MacroTable, name: &str, input: &str) -> String {
        let spec = crate::lang::spec(crate::model::Language::Rust);
        let src = format!("x!{input};");
        let tree = crate::extract::parse(spec, &src).unwrap();
        let mut stack = vec![tree.root_node()];
        let mut tt = None;
        while let Some(n) = stack.pop() {
            if n.kind() == "token_tree" {
                tt = Some(n);
                break;
            }
            let mut c = n.walk();
            stack.extend(n.children(&mut c));
        }
        let input = input_of(tt.unwrap(), &src);
        let out = expand(table, table.find(name, "app").unwrap(), &input).unwrap();
        render(&out, 1, &|_| 1).0.replace('\n', " ").trim_end().to_string()
    }

    #[test]
    fn rules_match_fragments_and_repetitions_and_nested_macros_expand() {
        let t = table(
            r#"
macro_rules! impl_handler {
    ([$($ty:ident),*], $last:ident) => {
        impl<F, $($ty,)* $last> Handler<($($ty,)* $last,)> for F {}
    };
}
macro_rules! all_the_tuples {
    ($name:ident) => {
        $name!([], T1);
        $name!([T1], T2);
    };
}
macro_rules! pairs {
    ($($k:expr => $v:ty),+ $(,)?) => { $( fn f() -> $v { $k } )+ };
}
macro_rules! with_crate {
    () => { $crate::Span::new() };
}
"#,
        );
        assert_eq!(expand_text(&t, "impl_handler", "([A, B], C)"), "impl<F, A, B, C> Handler<(A, B, C,)> for F { }");
        assert_eq!(
            expand_text(&t, "all_the_tuples", "(impl_handler)"),
            "impl<F, T1> Handler<(T1,)> for F { } impl<F, T1, T2> Handler<(T1, T2,)> for F { }"
        );
        assert_eq!(expand_text(&t, "pairs", "(1 + 2 => Vec<u8>, x.y() => u8,)"), "fn f() -> Vec<u8> { 1 + 2 } fn f() -> u8 { x.y() }");
        assert_eq!(expand_text(&t, "with_crate", "()"), "app::Span::new()");
    }

    #[test]
    fn lines_follow_the_input_and_the_invocation() {
        let out = vec![
            Tt::Leaf { text: "fn".into(), kind: Leaf::Ident, at: None },
            Tt::Leaf { text: "a".into(), kind: Leaf::Ident, at: Some(40) },
            Tt::Group { open: b'{', items: vec![Tt::Leaf { text: "'x".into(), kind: Leaf::Lifetime, at: None }], at: None },
        ];
        let (text, lines, _) = render(&out, 3, &|b| if b >= 40 { 5 } else { 3 });
        assert_eq!(text, "fn\na\n{ 'x }");
        assert_eq!(lines, vec![3, 5, 3]);
    }
}
