//! House rules checked as tests: every source file says what it owns in a `//!` header,
//! and every module is named in ARCHITECTURE.md's code map.

use std::path::Path;

use crate::util::files_under;

#[test]
fn every_source_file_starts_with_a_module_doc() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let missing: Vec<String> = files_under(&src)
        .into_iter()
        .filter(|f| f.ends_with(".rs"))
        .filter(|f| !std::fs::read_to_string(src.join(f)).unwrap().starts_with("//!"))
        .collect();
    assert_eq!(missing, Vec::<String>::new(), "files without a //! header");
}

#[test]
fn architecture_md_names_every_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let architecture = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let missing: Vec<String> = files_under(&root.join("src"))
        .into_iter()
        .map(|f| f.trim_end_matches(".rs").split('/').next().unwrap().to_string())
        .filter(|m| m != "main" && m != "lib")
        .filter(|m| !architecture.contains(&format!("`{m}`")))
        .collect();
    assert_eq!(missing, Vec::<String>::new(), "modules missing from ARCHITECTURE.md");
}

/// The layers of `src/`, bottom first. A module may use (`crate::...`) modules of its own
/// layer or below, never above; within a layer, no cycles. A new top-level module must be
/// placed here (the test says so). ARCHITECTURE.md shows the same table.
const LAYERS: &[(&str, &[&str])] = &[
    ("plain data and text", &["model", "text"]),
    ("settings and languages", &["config", "lang"]),
    ("build systems and frameworks", &["build", "frameworks"]),
    ("the store", &["store"]),
    ("extraction and resolution", &["extract", "resolve"]),
    ("the run", &["walk", "index", "git"]),
    ("the graph", &["graph"]),
    ("the tools", &["tools"]),
    ("the surfaces", &["watch", "mcp", "health", "setup"]),
];

/// The top-level modules each file names through `crate::` paths (in code, use trees and
/// macro arguments; not in comments or strings), as (file, module, named module).
fn crate_paths(src: &Path) -> Vec<(String, String, String)> {
    use proc_macro2::{Delimiter, TokenStream, TokenTree};
    fn scan(tokens: TokenStream, out: &mut Vec<String>) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        for (i, tree) in trees.iter().enumerate() {
            if let TokenTree::Group(g) = tree {
                scan(g.stream(), out);
            }
            let TokenTree::Ident(id) = tree else { continue };
            let colons = matches!((trees.get(i + 1), trees.get(i + 2)), (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) if a.as_char() == ':' && b.as_char() == ':');
            if id != "crate" || !colons {
                continue;
            }
            match trees.get(i + 3) {
                Some(TokenTree::Ident(next)) => out.push(next.to_string()),
                // `crate::{a::b, c}`: the first name of each item.
                Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                    let mut first = true;
                    for t in g.stream() {
                        match t {
                            TokenTree::Ident(name) if first => {
                                out.push(name.to_string());
                                first = false;
                            }
                            TokenTree::Punct(p) if p.as_char() == ',' => first = true,
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    for file in files_under(src).into_iter().filter(|f| f.ends_with(".rs")) {
        let module = file.trim_end_matches(".rs").split('/').next().unwrap().to_string();
        if module == "main" || module == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(src.join(&file)).unwrap();
        let tokens: TokenStream = text.parse().unwrap_or_else(|e| panic!("{file} does not lex: {e:?}"));
        let mut named = Vec::new();
        scan(tokens, &mut named);
        for n in named {
            if n != module {
                out.push((file.clone(), module.clone(), n));
            }
        }
    }
    out
}

#[test]
fn imports_only_point_down_the_layers_and_make_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let layer_of = |m: &str| LAYERS.iter().position(|(_, ms)| ms.contains(&m));
    let mut unplaced: Vec<String> = files_under(&src)
        .into_iter()
        .filter(|f| f.ends_with(".rs"))
        .map(|f| f.trim_end_matches(".rs").split('/').next().unwrap().to_string())
        .filter(|m| m != "main" && m != "lib" && layer_of(m).is_none())
        .collect();
    unplaced.dedup();
    assert_eq!(unplaced, Vec::<String>::new(), "modules not placed in a layer of tests/tidy.rs");

    let paths = crate_paths(&src);
    let upward: Vec<String> = paths
        .iter()
        .filter(|(_, from, to)| layer_of(to).is_some_and(|t| t > layer_of(from).unwrap()))
        .map(|(file, from, to)| {
            format!("src/{file}: {from} ({}) uses {to} ({})", LAYERS[layer_of(from).unwrap()].0, LAYERS[layer_of(to).unwrap()].0)
        })
        .collect();
    assert_eq!(upward, Vec::<String>::new(), "imports up the layers");

    // Within a layer: a depth-first search for a cycle among the modules.
    let mut edges: std::collections::BTreeMap<&str, std::collections::BTreeSet<&str>> = Default::default();
    for (_, from, to) in &paths {
        if layer_of(to).is_some() {
            edges.entry(from.as_str()).or_default().insert(to.as_str());
        }
    }
    fn cycle<'a>(
        at: &'a str,
        edges: &std::collections::BTreeMap<&'a str, std::collections::BTreeSet<&'a str>>,
        stack: &mut Vec<&'a str>,
        done: &mut std::collections::BTreeSet<&'a str>,
    ) -> Option<Vec<&'a str>> {
        if let Some(i) = stack.iter().position(|m| *m == at) {
            let mut found = stack[i..].to_vec();
            found.push(at);
            return Some(found);
        }
        if !done.insert(at) {
            return None;
        }
        stack.push(at);
        for next in edges.get(at).into_iter().flatten() {
            if let Some(found) = cycle(next, edges, stack, done) {
                return Some(found);
            }
        }
        stack.pop();
        None
    }
    let mut done = Default::default();
    for module in edges.keys() {
        assert_eq!(cycle(module, &edges, &mut Vec::new(), &mut done), None, "a cycle of modules");
    }
}

#[test]
fn the_layer_scan_reads_use_trees_and_macro_arguments_but_not_comments_or_strings() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("store")).unwrap();
    std::fs::write(
        dir.path().join("store/mod.rs"),
        "//! crate::tools in a comment\nuse crate::{model::X, text};\nfn f() { let _ = format!(\"{}\", crate::graph::g()); let _ = \"crate::mcp\"; }\n",
    )
    .unwrap();
    let found: Vec<String> = crate_paths(dir.path()).into_iter().map(|(_, _, to)| to).collect();
    assert_eq!(found, ["model", "text", "graph"]);
}

/// All SQL lives in `store`: no other module of the product reaches its connection.
#[test]
fn no_sql_outside_the_store() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let outside: Vec<String> = files_under(&src)
        .into_iter()
        .filter(|f| f.ends_with(".rs") && !f.starts_with("store/"))
        .filter(|f| {
            let text = std::fs::read_to_string(src.join(f)).unwrap();
            text.contains(".conn()") || text.contains("rusqlite::Connection") || text.contains("prepare_cached(")
        })
        .collect();
    assert_eq!(outside, Vec::<String>::new(), "files outside store/ that reach SQLite");
}

/// No function is over 200 lines: a function that needs a comment per phase is a struct
/// with a method per phase (`index::run`, `Extractor::finish`).
#[test]
fn no_function_over_200_lines() {
    use syn::visit::Visit;
    struct Long<'a> {
        file: &'a str,
        found: Vec<String>,
    }
    impl Long<'_> {
        fn check(&mut self, name: &syn::Ident, span: proc_macro2::Span) {
            let lines = span.end().line - span.start().line + 1;
            if lines > 200 {
                self.found.push(format!("src/{}:{} {name}: {lines} lines", self.file, span.start().line));
            }
        }
    }
    impl<'ast> Visit<'ast> for Long<'_> {
        fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
            self.check(&f.sig.ident, syn::spanned::Spanned::span(f));
            syn::visit::visit_item_fn(self, f);
        }
        fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
            self.check(&f.sig.ident, syn::spanned::Spanned::span(f));
            syn::visit::visit_impl_item_fn(self, f);
        }
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for file in files_under(&src).into_iter().filter(|f| f.ends_with(".rs")) {
        let parsed = syn::parse_file(&std::fs::read_to_string(src.join(&file)).unwrap()).unwrap();
        let mut long = Long { file: &file, found: Vec::new() };
        long.visit_file(&parsed);
        found.extend(long.found);
    }
    assert_eq!(found, Vec::<String>::new(), "functions over 200 lines");
}

/// The extractor stays a house a newcomer can find their way in: no file of `src/extract/`
/// over 900 lines (it was one `impl` of 1,400; issue 48 split it by what each part extracts).
#[test]
fn no_extract_file_over_900_lines() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/extract");
    let long: Vec<String> = files_under(&dir)
        .into_iter()
        .filter(|f| f.ends_with(".rs"))
        .map(|f| (std::fs::read_to_string(dir.join(&f)).unwrap().lines().count(), f))
        .filter(|(lines, _)| *lines > 900)
        .map(|(lines, f)| format!("src/extract/{f}: {lines} lines"))
        .collect();
    assert_eq!(long, Vec::<String>::new(), "extract files over 900 lines");
}

/// README.md is the user's path: at most 350 lines; the two commands a newcomer pastes
/// (build and index a real repository, run the whole test suite) in its first 40 lines;
/// CI runs that same test command; every one of the twelve tools in its table, and every
/// kind `search_symbols` takes named there.
#[test]
fn readme_is_the_users_path() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let lines: Vec<&str> = readme.lines().collect();
    assert!(lines.len() <= 350, "README.md is {} lines; the limit is 350 (depth goes to docs/)", lines.len());
    let head = lines[..40.min(lines.len())].join("\n");
    let build = "cargo build --release && ./target/release/repochart index --repo .";
    let test = "cargo test";
    let missing: Vec<&str> = [build, test].into_iter().filter(|c| !head.contains(&format!("\n{c}\n"))).collect();
    assert_eq!(missing, Vec::<&str>::new(), "commands missing from the README's first 40 lines");
    let ci = std::fs::read_to_string(root.join(".ci/run")).unwrap();
    assert!(ci.lines().any(|l| l.trim().starts_with(test)), ".ci/run does not run the README's test command");
    let tools: Vec<&str> =
        repochart::tools::TOOLS.iter().map(|t| t.name).filter(|name| !readme.contains(&format!("| `{name}` |"))).collect();
    assert_eq!(tools, Vec::<&str>::new(), "tools missing from the README's table (a row starting | `name` |)");
    let kinds: Vec<&str> =
        repochart::model::SymbolKind::all().map(|k| k.as_str()).filter(|k| !readme.contains(&format!("`{k}`"))).collect();
    assert_eq!(kinds, Vec::<&str>::new(), "symbol kinds the README does not name");
}
