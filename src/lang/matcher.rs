//! The pattern matcher extraction runs: the subset of tree-sitter's query language that
//! `grammars/*.scm` use, compiled into a table by node kind and matched in one walk of the
//! tree.
//!
//! Why not tree-sitter's `QueryCursor`: on java.base its walk alone costs 2.4x a plain
//! `TreeCursor` walk (it computes each node's field, supertypes and sibling status for
//! every pending pattern state), and matching our ~90 patterns brought it to 3.7x: 0.69 s
//! against 0.19 s for a third of java.base on one core, more than half of the parse time.
//! Here a node only looks at the patterns rooted at its kind, and a pattern's children are
//! checked directly against the node's children.
//!
//! Supported: `(kind ...)`, `(_)`, `_`, `"anonymous"`, `[alternatives]`, `field: pattern`,
//! `!field`, the anchor `.` (before the first child, between two children, after the
//! last), the quantifier `?`, and captures `@name` (several on one node). Anything else is
//! an error naming the line, so a query file cannot silently mean something else here than
//! in tree-sitter. Node kinds and fields are checked against the grammar; a test compiles
//! every query with tree-sitter too, and another runs both engines over every fixture.
//!
//! Matches follow tree-sitter's semantics for this subset: each root node is tried against
//! the patterns of its kind in file order; a child step matches a direct child (with the
//! field, when one is named), later steps match later children; an anchored step matches
//! only up to the next named child; `?` takes the child when it matches (longest match);
//! `(_)` is any named node but an ERROR. Every combination is one match (the same captures
//! twice in a row are one).
//! **Invariant:** no knowledge of any language; never recurses deeper than a pattern.

use std::num::NonZeroU16;

use tree_sitter::{Language, Node, Tree};

/// A compiled query file.
pub struct Matcher {
    patterns_by_kind: Vec<Vec<usize>>,
    patterns: Vec<Step>,
    capture_names: Vec<String>,
}

#[derive(Debug)]
enum Test {
    Kind(u16),
    /// `(_)`: any named node that is not an ERROR.
    AnyNamed,
    /// `_`: any node.
    Any,
    Alternatives(Vec<Step>),
}

#[derive(Debug)]
struct Step {
    test: Test,
    field: Option<NonZeroU16>,
    captures: Vec<u32>,
    children: Vec<Child>,
    negated: Vec<NonZeroU16>,
    /// The child must be the last named child (an anchor after it).
    last: bool,
}

impl Step {
    /// A step that only tests the node: no field, captures or children yet.
    fn new(test: Test) -> Step {
        Step { test, field: None, captures: Vec::new(), children: Vec::new(), negated: Vec::new(), last: false }
    }
}

#[derive(Debug)]
struct Child {
    step: Step,
    /// An anchor before it: first child, or right after the previous child step.
    anchored: bool,
    optional: bool,
}

/// One node's children with their fields, collected once per node tried.
type Kids<'t> = Vec<(Node<'t>, Option<NonZeroU16>)>;

/// A match: (capture index, node) pairs.
/// A match's captures: the capture's number, the node, and that node's parent (the walk knows
/// it: `Node::parent` searches down from the tree's root).
pub type Captures<'t> = Vec<(u32, Node<'t>, Option<Node<'t>>)>;

#[derive(Debug, PartialEq)]
pub struct Error {
    pub line: usize,
    pub message: String,
}

impl Matcher {
    /// Compiles `source`. Captures are numbered in order of first appearance (as
    /// tree-sitter numbers them); `capture_names` gives the names.
    pub fn new(language: &Language, source: &str) -> Result<Matcher, Error> {
        let mut parser = Parser { src: source.as_bytes(), pos: 0, language, capture_names: Vec::new() };
        let mut patterns = Vec::new();
        loop {
            parser.skip_space();
            if parser.pos >= parser.src.len() {
                break;
            }
            let line = parser.line();
            let (step, optional) = parser.pattern()?;
            if optional {
                return Err(parser.error("a quantifier on a whole pattern"));
            }
            let mut kinds = Vec::new();
            root_kinds(&step, &mut kinds).map_err(|m| Error { line, message: m.to_string() })?;
            patterns.push((step, kinds));
        }
        let mut patterns_by_kind = vec![Vec::new(); language.node_kind_count()];
        for (i, (_, kinds)) in patterns.iter().enumerate() {
            for &k in kinds {
                if !patterns_by_kind[k as usize].contains(&i) {
                    patterns_by_kind[k as usize].push(i);
                }
            }
        }
        Ok(Matcher {
            patterns_by_kind,
            patterns: patterns.into_iter().map(|(step, _)| step).collect(),
            capture_names: parser.capture_names,
        })
    }

    /// Capture names by number.
    pub fn capture_names(&self) -> &[String] {
        &self.capture_names
    }

    /// Every match in the tree, in a pre-order walk (a node's matches in pattern order).
    /// `on_match` gets the captures, the node the match is rooted at and that node's parent
    /// (known from the walk, where `Node::parent` would search down from the tree's root);
    /// it returns false to stop, and so does the walk, returning false.
    ///
    /// Each node's children are listed once, by one cursor pass, and serve both its patterns
    /// and the descent: a cursor walk of the tree plus a second listing of every pattern
    /// root's children took a fifth more instructions (tree-sitter's `goto_next_sibling`
    /// costs some 400 instructions a call).
    pub fn run<'t>(&self, tree: &'t Tree, on_match: &mut dyn FnMut(&Captures<'t>, Node<'t>, Option<Node<'t>>) -> bool) -> bool {
        self.run_marking(tree, on_match, None)
    }

    /// `run`, also listing in `marked.1` the nodes whose kind `marked.0` flags (indexed by
    /// kind id), in document order, the outermost only (a node inside a listed one is not
    /// listed): what another pass over the tree would look for, found by this walk (a
    /// second cursor walk for string literals and comments was an eighth of extraction).
    pub fn run_marking<'t>(
        &self,
        tree: &'t Tree,
        on_match: &mut dyn FnMut(&Captures<'t>, Node<'t>, Option<Node<'t>>) -> bool,
        mut marked: Option<(&[bool], &mut Vec<Node<'t>>)>,
    ) -> bool {
        // How many nodes on the path from the root are listed: their insides are not.
        let mut inside_marked = 0usize;
        let mut caps: Captures<'t> = Vec::new();
        let mut scratch = Scratch { pool: Vec::new(), cursor: tree.walk() };
        let mut last: Captures<'t> = Vec::new();
        let mut stop = false;
        // The path from the root to the node being visited: each node with its children and
        // the index of the next child to visit.
        let mut path: Vec<(Node<'t>, Kids<'t>, usize, bool)> = Vec::new();
        let mut next = Some(tree.root_node());
        loop {
            if let Some(node) = next.take() {
                let parent = path.last().map(|(n, _, _, _)| *n);
                let mut listed = false;
                if let Some((kinds, out)) = marked.as_mut() {
                    if inside_marked == 0 && kinds.get(node.kind_id() as usize).copied().unwrap_or(false) {
                        out.push(node);
                        listed = true;
                        inside_marked += 1;
                    }
                }
                let patterns = self.patterns_by_kind.get(node.kind_id() as usize).map(Vec::as_slice).unwrap_or(&[]);
                // A node without patterns needs its children only to go down: no fields.
                let mut kids = Some(children_of(node, &mut scratch, !patterns.is_empty()));
                for &p in patterns {
                    let step = &self.patterns[p];
                    caps.clear();
                    let mut any = false;
                    match_step(step, node, parent, &mut kids, &mut caps, &mut scratch, &mut |c: &mut Captures<'t>, _: &mut Scratch<'t>| {
                        // Steps without captures give the same captures twice (`(a (b) @x (c))`
                        // over b c c): one match, as tree-sitter reports.
                        if stop || (any && last == *c) {
                            return;
                        }
                        any = true;
                        last.clone_from(c);
                        stop = !on_match(c, node, parent);
                    });
                    if stop {
                        return false;
                    }
                }
                path.push((node, kids.expect("listed above"), 0, listed));
            }
            let Some((_, kids, i, _)) = path.last_mut() else {
                return true;
            };
            if let Some((kid, _)) = kids.get(*i) {
                next = Some(*kid);
                *i += 1;
            } else if let Some((_, kids, _, listed)) = path.pop() {
                inside_marked -= usize::from(listed);
                scratch.pool.push(kids);
            }
        }
    }
}

/// Buffers reused across nodes: child lists and a cursor to fill them.
struct Scratch<'t> {
    pool: Vec<Kids<'t>>,
    cursor: tree_sitter::TreeCursor<'t>,
}

fn root_kinds(step: &Step, out: &mut Vec<u16>) -> Result<(), &'static str> {
    match &step.test {
        Test::Kind(k) => out.push(*k),
        Test::Alternatives(alts) => {
            for a in alts {
                root_kinds(a, out)?;
            }
        }
        Test::AnyNamed | Test::Any => return Err("a pattern rooted at a wildcard is not supported by repochart's matcher"),
    }
    Ok(())
}

/// A node's children (anonymous ones too), with their fields when `fields`.
fn children_of<'t>(node: Node<'t>, scratch: &mut Scratch<'t>, fields: bool) -> Kids<'t> {
    let mut out = scratch.pool.pop().unwrap_or_default();
    out.clear();
    if node.child_count() == 0 {
        return out;
    }
    let cursor = &mut scratch.cursor;
    cursor.reset(node);
    if cursor.goto_first_child() {
        loop {
            out.push((cursor.node(), if fields { cursor.field_id() } else { None }));
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }
    out
}

/// Matches `step` at `node`, whose parent is `parent` (its own test, captures and
/// children); calls `k` once per combination with the captures so far.
fn match_step<'t>(
    step: &Step,
    node: Node<'t>,
    parent: Option<Node<'t>>,
    kids: &mut Option<Kids<'t>>,
    caps: &mut Captures<'t>,
    scratch: &mut Scratch<'t>,
    k: &mut dyn FnMut(&mut Captures<'t>, &mut Scratch<'t>),
) {
    let mark = caps.len();
    match &step.test {
        Test::Kind(kind) => {
            if node.kind_id() != *kind {
                return;
            }
        }
        Test::AnyNamed => {
            if !node.is_named() || node.is_error() {
                return;
            }
        }
        Test::Any => {}
        Test::Alternatives(alts) => {
            caps.extend(step.captures.iter().map(|&c| (c, node, parent)));
            for alt in alts {
                match_step(alt, node, parent, kids, caps, scratch, k);
            }
            caps.truncate(mark);
            return;
        }
    }
    if step.children.is_empty() && step.negated.is_empty() {
        caps.extend(step.captures.iter().map(|&c| (c, node, parent)));
        k(caps, scratch);
        caps.truncate(mark);
        return;
    }
    if kids.is_none() {
        *kids = Some(children_of(node, scratch, true));
    }
    let kids = kids.as_ref().expect("just filled");
    if step.negated.iter().any(|f| kids.iter().any(|(_, kf)| kf == &Some(*f))) {
        return;
    }
    caps.extend(step.captures.iter().map(|&c| (c, node, parent)));
    match_children(&step.children, node, kids, 0, caps, scratch, k);
    caps.truncate(mark);
}

/// Matches child steps against `kids[from..]`, the children of `parent` (`from` is just past
/// the kid the previous step took).
fn match_children<'t>(
    steps: &[Child],
    parent: Node<'t>,
    kids: &Kids<'t>,
    from: usize,
    caps: &mut Captures<'t>,
    scratch: &mut Scratch<'t>,
    k: &mut dyn FnMut(&mut Captures<'t>, &mut Scratch<'t>),
) {
    let Some((first, rest)) = steps.split_first() else {
        k(caps, scratch);
        return;
    };
    let mut took = false;
    for j in from..kids.len() {
        let (kid, field) = kids[j];
        let last_ok = !first.step.last || !kids[j + 1..].iter().any(|(n, _)| n.is_named());
        if last_ok && (first.step.field.is_none() || field == first.step.field) {
            let mut kid_kids = None;
            match_step(
                &first.step,
                kid,
                Some(parent),
                &mut kid_kids,
                caps,
                scratch,
                &mut |c: &mut Captures<'t>, scratch: &mut Scratch<'t>| {
                    took = true;
                    match_children(rest, parent, kids, j + 1, c, scratch, k);
                },
            );
            if let Some(list) = kid_kids {
                scratch.pool.push(list);
            }
        }
        // An anchored step cannot look past a named child.
        if first.anchored && kid.is_named() {
            break;
        }
    }
    if first.optional && !took {
        match_children(rest, parent, kids, from, caps, scratch, k);
    }
}

struct Parser<'a> {
    src: &'a [u8],
    pos: usize,
    language: &'a Language,
    capture_names: Vec<String>,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> Error {
        Error { line: self.line(), message: format!("{what} is not supported by repochart's matcher") }
    }

    fn skip_space(&mut self) {
        while self.pos < self.src.len() {
            match self.src[self.pos] {
                b';' => {
                    while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                c if c.is_ascii_whitespace() => self.pos += 1,
                _ => break,
            }
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.src.get(self.pos).copied()
    }

    fn ident(&mut self) -> String {
        let start = self.pos;
        while self.pos < self.src.len() && (self.src[self.pos].is_ascii_alphanumeric() || b"_.-".contains(&self.src[self.pos])) {
            self.pos += 1;
        }
        String::from_utf8_lossy(&self.src[start..self.pos]).into_owned()
    }

    fn line(&self) -> usize {
        self.src[..self.pos.min(self.src.len())].iter().filter(|&&b| b == b'\n').count() + 1
    }

    fn field(&mut self, name: &str) -> Result<NonZeroU16, Error> {
        self.language.field_id_for_name(name).ok_or_else(|| Error { line: self.line(), message: format!("unknown field {name}") })
    }

    fn kind(&self, name: &str, named: bool) -> Result<u16, Error> {
        match self.language.id_for_node_kind(name, named) {
            0 => Err(Error { line: self.line(), message: format!("unknown node kind {name:?}") }),
            id if self.language.node_kind_is_supertype(id) => Err(self.error("a supertype")),
            id => Ok(id),
        }
    }

    /// One pattern with its quantifier and captures: (step, optional).
    fn pattern(&mut self) -> Result<(Step, bool), Error> {
        let mut step = match self.peek() {
            Some(b'(') => {
                self.pos += 1;
                self.skip_space();
                let test =
                    if self.src.get(self.pos) == Some(&b'_') && !self.src.get(self.pos + 1).is_some_and(|c| c.is_ascii_alphanumeric()) {
                        self.pos += 1;
                        Test::AnyNamed
                    } else if self.src.get(self.pos) == Some(&b'#') {
                        return Err(self.error("a predicate"));
                    } else {
                        let name = self.ident();
                        if name.is_empty() {
                            return Err(self.error("a grouping"));
                        }
                        Test::Kind(self.kind(&name, true)?)
                    };
                let mut step = Step::new(test);
                let mut anchored = false;
                loop {
                    match self.peek() {
                        Some(b')') => {
                            self.pos += 1;
                            if anchored {
                                match step.children.last_mut() {
                                    Some(c) => c.step.last = true,
                                    None => return Err(self.error("an anchor alone")),
                                }
                            }
                            break;
                        }
                        Some(b'.') => {
                            self.pos += 1;
                            anchored = true;
                        }
                        Some(b'!') => {
                            self.pos += 1;
                            let name = self.ident();
                            step.negated.push(self.field(&name)?);
                        }
                        None => return Err(self.error("an unclosed pattern")),
                        Some(c) if c.is_ascii_alphabetic() => {
                            let save = self.pos;
                            let name = self.ident();
                            if self.src.get(self.pos) == Some(&b':') {
                                self.pos += 1;
                                let field = self.field(&name)?;
                                let (mut child, optional) = self.pattern()?;
                                child.field = Some(field);
                                step.children.push(Child { step: child, anchored, optional });
                            } else {
                                self.pos = save;
                                return Err(self.error("a bare word inside a pattern"));
                            }
                            anchored = false;
                        }
                        Some(_) => {
                            let (child, optional) = self.pattern()?;
                            step.children.push(Child { step: child, anchored, optional });
                            anchored = false;
                        }
                    }
                }
                step
            }
            Some(b'[') => {
                self.pos += 1;
                let mut alts = Vec::new();
                loop {
                    match self.peek() {
                        Some(b']') => {
                            self.pos += 1;
                            break;
                        }
                        None => return Err(self.error("an unclosed alternation")),
                        _ => {
                            let (alt, optional) = self.pattern()?;
                            if optional {
                                return Err(self.error("a quantifier inside an alternation"));
                            }
                            alts.push(alt);
                        }
                    }
                }
                Step::new(Test::Alternatives(alts))
            }
            Some(b'"') => {
                self.pos += 1;
                let start = self.pos;
                while self.pos < self.src.len() && self.src[self.pos] != b'"' {
                    if self.src[self.pos] == b'\\' {
                        return Err(self.error("an escape in a string"));
                    }
                    self.pos += 1;
                }
                let name = String::from_utf8_lossy(&self.src[start..self.pos]).into_owned();
                self.pos += 1;
                Step::new(Test::Kind(self.kind(&name, false)?))
            }
            Some(b'_') => {
                self.pos += 1;
                Step::new(Test::Any)
            }
            _ => return Err(self.error("this syntax")),
        };
        let mut optional = false;
        loop {
            match self.peek() {
                Some(b'?') => {
                    self.pos += 1;
                    optional = true;
                }
                Some(b'*' | b'+') => return Err(self.error("a repetition")),
                Some(b'@') => {
                    self.pos += 1;
                    let name = self.ident();
                    if name.is_empty() {
                        return Err(self.error("an empty capture name"));
                    }
                    let index = match self.capture_names.iter().position(|n| *n == name) {
                        Some(i) => i,
                        None => {
                            self.capture_names.push(name);
                            self.capture_names.len() - 1
                        }
                    };
                    step.captures.push(index as u32);
                }
                _ => break,
            }
        }
        Ok((step, optional))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use streaming_iterator::StreamingIterator;

    /// Both engines' matches of `query` on `source`, each rendered as `capture=text` lists
    /// in match order; asserts they agree and returns ours.
    fn matches(language: Language, query: &str, source: &str) -> Vec<String> {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&language).unwrap();
        let tree = parser.parse(source, None).unwrap();
        let ts = tree_sitter::Query::new(&language, query).unwrap();
        let render = |names: &[&str], caps: &mut dyn Iterator<Item = (u32, Node)>| {
            let mut parts: Vec<String> = caps.map(|(i, n)| format!("{}={}", names[i as usize], &source[n.byte_range()])).collect();
            parts.sort();
            parts.join(" ")
        };
        let matcher = Matcher::new(&language, query).unwrap();
        let our_names: Vec<&str> = matcher.capture_names().iter().map(String::as_str).collect();
        assert_eq!(our_names, ts.capture_names());
        let mut ours = Vec::new();
        matcher.run(&tree, &mut |m, _, _| {
            // Each capture's parent is the one tree-sitter finds.
            for (_, node, parent) in m {
                assert_eq!(*parent, node.parent(), "the parent of {}", &source[node.byte_range()]);
            }
            ours.push(render(&our_names, &mut m.iter().map(|&(i, node, _)| (i, node))));
            true
        });
        let mut cursor = tree_sitter::QueryCursor::new();
        let mut theirs = Vec::new();
        let mut it = cursor.matches(&ts, tree.root_node(), source.as_bytes());
        while let Some(m) = it.next() {
            theirs.push(render(ts.capture_names(), &mut m.captures.iter().map(|c| (c.index, c.node))));
        }
        let (mut a, mut b) = (ours.clone(), theirs);
        a.sort();
        b.sort();
        assert_eq!(a, b, "matcher vs tree-sitter for {query}");
        ours
    }

    fn java() -> Language {
        tree_sitter_java::LANGUAGE.into()
    }

    fn rust() -> Language {
        tree_sitter_rust::LANGUAGE.into()
    }

    #[test]
    fn fields_negated_fields_and_alternations() {
        let src = "class A { void m() { f(x); o.g(y, z); new B(); new p.C<D>(); } }";
        assert_eq!(matches(java(), "(method_invocation !object name: (identifier) @name)", src), ["name=f"]);
        assert_eq!(matches(java(), "(method_invocation object: (_) @recv name: (identifier) @name)", src), ["name=g recv=o"]);
        assert_eq!(
            matches(java(), "(object_creation_expression type: [(type_identifier) (generic_type (scoped_type_identifier) @t)] @any)", src),
            ["any=B", "any=p.C<D> t=p.C"]
        );
    }

    #[test]
    fn every_child_that_matches_is_a_match_in_order() {
        let src = "class A { void m() { f(a, 1, b); int x = 1, y = 2; } }";
        assert_eq!(matches(java(), "(argument_list (identifier) @arg)", src), ["arg=a", "arg=b"]);
        assert_eq!(
            matches(java(), "(local_variable_declaration type: (_) @t declarator: (variable_declarator name: (identifier) @n))", src),
            ["n=x t=int", "n=y t=int"]
        );
    }

    #[test]
    fn anchors_skip_anonymous_nodes_only() {
        // First named child; immediate named sibling (the comma between is anonymous).
        let src = "fn f() { m!(a (1), b, (2), c d (3)); }";
        assert_eq!(matches(rust(), "(token_tree . (identifier) @first)", src), ["first=a"]);
        assert_eq!(matches(rust(), "(token_tree (identifier) @id . (token_tree . \"(\"))", src), ["id=a", "id=b", "id=d"]);
        assert_eq!(matches(rust(), "(token_tree (identifier) @last .)", src), [] as [&str; 0]);
        assert_eq!(matches(rust(), "(token_tree (token_tree) @last .)", src), ["last=(3)"]);
    }

    #[test]
    fn a_match_knows_its_roots_parent() {
        let src = "class A { java.util.List<B> f; }";
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&java()).unwrap();
        let tree = parser.parse(src, None).unwrap();
        let matcher = Matcher::new(&java(), "(type_identifier) @t").unwrap();
        let mut seen = Vec::new();
        matcher.run(&tree, &mut |m, root, parent| {
            let node = m[0].1;
            assert_eq!(root, node);
            assert_eq!(parent, node.parent());
            seen.push(format!("{} in {}", &src[node.byte_range()], parent.map(|p| p.kind()).unwrap_or("-")));
            true
        });
        assert_eq!(
            seen,
            ["java in scoped_type_identifier", "util in scoped_type_identifier", "List in scoped_type_identifier", "B in type_arguments"]
        );
    }

    #[test]
    fn the_walk_lists_marked_kinds_outermost_first_in_document_order() {
        // A block comment holding a string, a string holding an escape: each listed once,
        // as the outer node; the matches are the same as without marking.
        let src = "class A { /* \"x\" */ String s = \"a\\nb\"; // end\n int f() { return g(\"y\"); } }";
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&java()).unwrap();
        let tree = parser.parse(src, None).unwrap();
        let matcher = Matcher::new(&java(), "(string_literal) @s").unwrap();
        let kinds: Vec<bool> = (0..java().node_kind_count() as u16)
            .map(|id| matches!(java().node_kind_for_id(id), Some("string_literal" | "block_comment" | "line_comment" | "escape_sequence")))
            .collect();
        let mut listed = Vec::new();
        let mut matched = Vec::new();
        matcher.run_marking(
            &tree,
            &mut |m, _, _| {
                matched.push(&src[m[0].1.byte_range()]);
                true
            },
            Some((&kinds, &mut listed)),
        );
        let listed: Vec<&str> = listed.iter().map(|n| &src[n.byte_range()]).collect();
        assert_eq!(listed, ["/* \"x\" */", "\"a\\nb\"", "// end", "\"y\""]);
        assert_eq!(matched, ["\"a\\nb\"", "\"y\""]);
    }

    #[test]
    fn optional_children_take_the_longest_match() {
        let src = "impl T for S {} impl U {}";
        assert_eq!(matches(rust(), "(impl_item trait: (_)? @tr type: (_) @ty)", src), ["tr=T ty=S", "ty=U"]);
    }

    #[test]
    fn uncaptured_steps_do_not_repeat_a_match() {
        let src = "class A { void m() { f(a, b, c); } }";
        assert_eq!(matches(java(), "(argument_list (identifier) @first (identifier))", src), ["first=a", "first=b"]);
    }

    #[test]
    fn unsupported_syntax_is_an_error_with_its_line() {
        let err = |q: &str| Matcher::new(&java(), q).err().map(|e| format!("{}: {}", e.line, e.message));
        assert_eq!(
            err("(identifier) @x\n((identifier) @y (#eq? @y \"a\"))").unwrap(),
            "2: a grouping is not supported by repochart's matcher"
        );
        assert_eq!(err("(argument_list (identifier)* @x)").unwrap(), "1: a repetition is not supported by repochart's matcher");
        assert_eq!(err("(argument_list (#match? @x \"a\"))").unwrap(), "1: a predicate is not supported by repochart's matcher");
        assert_eq!(err("(expression) @x").unwrap(), "1: a supertype is not supported by repochart's matcher");
        assert_eq!(err("(_ (identifier)) @x").unwrap(), "1: a pattern rooted at a wildcard is not supported by repochart's matcher");
        assert_eq!(err("(nonsense) @x").unwrap(), "1: unknown node kind \"nonsense\"");
        assert!(err("(identifier) @x").is_none());
    }
}
