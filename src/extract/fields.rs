//! A node's child by field name at the cost of a field id: tree-sitter's
//! `child_by_field_name` finds the id by comparing the name with the grammar's field names
//! one by one (about 960 instructions a call; 82 M of extraction's 1.67 G instructions on
//! every 16th file of java.base). Here each (language, name) is looked up once per thread.
//!
//! Owns that cache only: no knowledge of any language or field.

use std::cell::RefCell;

use rustc_hash::FxHashMap as HashMap;
use tree_sitter::Node;

thread_local! {
    /// (language, the name's address and length) -> field id, 0 for a name the grammar
    /// does not have. Names are `&'static str`, so an address always holds the same text.
    static IDS: RefCell<HashMap<(usize, usize, usize), u16>> = RefCell::new(HashMap::default());
}

pub(crate) trait Fields<'t> {
    /// The child in field `name` (the first, when the field holds several), as
    /// `child_by_field_name` gives it.
    fn field(&self, name: &'static str) -> Option<Node<'t>>;
}

impl<'t> Fields<'t> for Node<'t> {
    #[inline]
    fn field(&self, name: &'static str) -> Option<Node<'t>> {
        // SAFETY: `ts_node_language` reads the tree's language pointer of a live node.
        let language = unsafe { tree_sitter::ffi::ts_node_language(self.into_raw()) } as usize;
        let key = (language, name.as_ptr() as usize, name.len());
        let id = IDS.with(|ids| {
            if let Some(id) = ids.borrow().get(&key) {
                return *id;
            }
            let id = self.language().field_id_for_name(name).map_or(0, |id| id.get());
            ids.borrow_mut().insert(key, id);
            id
        });
        if id == 0 {
            return None;
        }
        self.child_by_field_id(id)
    }
}

#[cfg(test)]
mod tests {
    use super::Fields;

    /// The same child as `child_by_field_name`, for every field of every node of a Java and
    /// a Rust file, and none for a name the grammar lacks.
    #[test]
    fn a_field_is_the_child_tree_sitter_names() {
        let cases: [(tree_sitter::Language, &str); 2] = [
            (tree_sitter_java::LANGUAGE.into(), "class A<T> extends B implements C { int f(int x) { return g(x).h; } }"),
            (tree_sitter_rust::LANGUAGE.into(), "impl<T: X> S<T> { fn f(&self, x: u8) -> u8 { let y = x + 1; g(y) } }"),
        ];
        const NAMES: [&str; 12] =
            ["name", "type", "body", "parameters", "arguments", "object", "function", "value", "left", "right", "superclass", "trait"];
        let mut compared = 0;
        for (language, source) in cases {
            let mut parser = tree_sitter::Parser::new();
            parser.set_language(&language).unwrap();
            let tree = parser.parse(source, None).unwrap();
            let mut stack = vec![tree.root_node()];
            while let Some(node) = stack.pop() {
                for name in NAMES {
                    let ours = node.field(name);
                    assert_eq!(ours, node.child_by_field_name(name), "{name} of {}", node.kind());
                    compared += usize::from(ours.is_some());
                }
                stack.extend((0..node.child_count()).filter_map(|i| node.child(i as u32)));
            }
        }
        assert!(compared > 20, "only {compared} fields present");
        // Java has no `trait` field, Rust no `superclass`.
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&tree_sitter_rust::LANGUAGE.into()).unwrap();
        let tree = parser.parse("struct S;", None).unwrap();
        assert_eq!(tree.root_node().child(0).unwrap().field("superclass"), None);
    }
}
