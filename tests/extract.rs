//! Extraction snapshots: every fixture file in, one line per symbol and reference out.
//! Update with `UPDATE_EXPECT=1 cargo test`.

use expect_test::expect_file;
use repochart::{extract, lang};

use crate::util::{files_under, fixture};

fn render_fixture(name: &str, module_of: impl Fn(&str) -> String) -> String {
    let root = fixture(name);
    let mut out = String::new();
    for rel in files_under(&root) {
        let Some(spec) = lang::for_path(&rel) else {
            continue;
        };
        let source = std::fs::read_to_string(root.join(&rel)).unwrap();
        let extract = extract::extract(spec, &source, &module_of(&rel));
        out.push_str(&format!("=== {rel}\n{}", extract::render(&extract)));
    }
    out
}

#[test]
fn java_shop_extraction() {
    let actual = render_fixture("java-shop", |_| String::new());
    expect_file!["snapshots/java-shop.extract.txt"].assert_eq(&actual);
}

#[test]
fn rust_shop_extraction() {
    // Module paths come from the index's crate layout; here a fixed stand-in per file.
    let actual = render_fixture("rust-shop", |rel| {
        let module = rel.trim_end_matches(".rs").replace("/src/", "::").replace('/', "::").replace('-', "_");
        module.trim_start_matches("crates::").trim_end_matches("::lib").trim_end_matches("::mod").trim_end_matches("::main").to_string()
    });
    expect_file!["snapshots/rust-shop.extract.txt"].assert_eq(&actual);
}

/// The matcher extraction runs and tree-sitter's own query engine give the same extract for
/// every fixture file (the matcher's reason to exist is speed, never another answer).
#[test]
fn matcher_agrees_with_tree_sitter_on_every_fixture() {
    let root = fixture("");
    let mut compared = 0;
    for rel in files_under(&root) {
        let Some(spec) = lang::for_path(&rel) else {
            continue;
        };
        let source = std::fs::read_to_string(root.join(&rel)).unwrap();
        let ours = extract::extract_with(spec, &source, "m", extract::Engine::Matcher);
        let theirs = extract::extract_with(spec, &source, "m", extract::Engine::TreeSitter);
        assert_eq!(extract::render(&ours), extract::render(&theirs), "{rel}");
        assert_eq!(ours, theirs, "{rel}");
        compared += 1;
    }
    assert!(compared >= 40, "only {compared} fixture files compared");
}
