//! Rust accuracy of the index against an independent parser (`syn`).
//!
//! Usage: cargo run --release --example accuracy_rust -- <dir of crates>
//!
//! For every package under the directory, the oracle asks Cargo for its targets (`cargo
//! metadata --no-deps --offline`: lib, bins, tests, examples, benches, build script, as
//! Cargo itself discovers them; a package it cannot read falls back to `src/lib.rs`) and
//! walks each target's module tree as rustc does: from the target's root, through `mod
//! name;` (honouring `#[path]`, then `name.rs`, then `name/mod.rs`) and inline `mod name {
//! }`, parsing each file with `syn`. A target's crate is named as the index names it: the
//! target's name with dashes as underscores, `build_script_build` for a build script. It records module-level items with their qualified names, the members
//! of `impl` blocks and traits (file, owner type, name), and `impl Trait for Type` pairs.
//! The directory is indexed with the release `repochart` beside this example and the
//! index's SQLite file is compared with the oracle, file by file (only files the module
//! tree reaches are compared; `cfg` is not evaluated, by either side). Prints precision
//! and recall per measure and the first misses.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

#[derive(Default)]
struct Oracle {
    /// (file, qualified name, kind) of module-level items.
    items: BTreeSet<(String, String, String)>,
    /// (file, owner type or trait, member name) of impl and trait members.
    members: BTreeSet<(String, String, String)>,
    /// (file, self type, trait) of `impl Trait for Type`.
    impls: BTreeSet<(String, String, String)>,
    files: BTreeSet<String>,
    unreadable: Vec<String>,
}

fn last_segment(path: &syn::Path) -> String {
    path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default()
}

/// The self type of an impl as the index names its owner: the last path segment without
/// generics, through references, slices, arrays and pointers; tuples element by element.
fn type_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) => Some(last_segment(&p.path)),
        syn::Type::Reference(r) => type_name(&r.elem),
        syn::Type::Paren(p) => type_name(&p.elem),
        syn::Type::Group(g) => type_name(&g.elem),
        syn::Type::Slice(s) => type_name(&s.elem),
        syn::Type::Array(a) => type_name(&a.elem),
        syn::Type::Ptr(p) => type_name(&p.elem),
        syn::Type::TraitObject(t) => t.bounds.iter().find_map(|b| match b {
            syn::TypeParamBound::Trait(t) => Some(last_segment(&t.path)),
            _ => None,
        }),
        syn::Type::Tuple(t) => {
            let elems: Option<Vec<String>> = t.elems.iter().map(type_name).collect();
            let elems = elems?;
            Some(if elems.len() == 1 { format!("({},)", elems[0]) } else { format!("({})", elems.join(",")) })
        }
        _ => None,
    }
}

fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find(|a| a.path().is_ident("path")).and_then(|a| match &a.meta {
        syn::Meta::NameValue(nv) => match &nv.value {
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

impl Oracle {
    /// Impls and traits declared inside a function body (`impl Visitor for V` in `fn
    /// deserialize`): not module items, but their members and trait impls are indexed.
    fn nested(&mut self, rel: &str, block: &syn::Block) {
        for stmt in &block.stmts {
            let syn::Stmt::Item(item) = stmt else { continue };
            match item {
                syn::Item::Fn(f) => self.nested(rel, &f.block),
                syn::Item::Impl(i) => self.impl_block(rel, i),
                syn::Item::Trait(t) => self.trait_block(rel, t),
                _ => {}
            }
        }
    }

    fn impl_block(&mut self, rel: &str, i: &syn::ItemImpl) {
        for ii in &i.items {
            if let syn::ImplItem::Fn(f) = ii {
                self.nested(rel, &f.block);
            }
        }
        let Some(owner) = type_name(&i.self_ty) else { return };
        for ii in &i.items {
            if let syn::ImplItem::Fn(f) = ii {
                self.members.insert((rel.to_string(), owner.clone(), f.sig.ident.to_string()));
            }
        }
        if let Some((_, path, _)) = &i.trait_ {
            self.impls.insert((rel.to_string(), owner, last_segment(path)));
        }
    }

    fn trait_block(&mut self, rel: &str, t: &syn::ItemTrait) {
        for ti in &t.items {
            if let syn::TraitItem::Fn(f) = ti {
                self.members.insert((rel.to_string(), t.ident.to_string(), f.sig.ident.to_string()));
                if let Some(body) = &f.default {
                    self.nested(rel, body);
                }
            }
        }
    }

    /// One module's items. `file` is the source file, `dir` where `mod x;` files are found.
    fn module(&mut self, root: &Path, file: &Path, module: &str, items: &[syn::Item], dir: &Path, depth: usize) {
        if depth > 32 {
            return;
        }
        let rel = file.strip_prefix(root).unwrap_or(file).to_string_lossy().replace('\\', "/");
        self.files.insert(rel.clone());
        for item in items {
            let (name, kind) = match item {
                syn::Item::Fn(f) => {
                    self.nested(&rel, &f.block);
                    (f.sig.ident.to_string(), "function")
                }
                syn::Item::Struct(s) => (s.ident.to_string(), "struct"),
                syn::Item::Enum(e) => (e.ident.to_string(), "enum"),
                syn::Item::Union(u) => (u.ident.to_string(), "union"),
                syn::Item::Trait(t) => {
                    self.trait_block(&rel, t);
                    (t.ident.to_string(), "trait")
                }
                syn::Item::Type(t) => (t.ident.to_string(), "type_alias"),
                syn::Item::Const(c) => (c.ident.to_string(), "const"),
                syn::Item::Static(s) => (s.ident.to_string(), "static"),
                syn::Item::Macro(m) => match &m.ident {
                    Some(ident) if m.mac.path.is_ident("macro_rules") => (ident.to_string(), "macro"),
                    _ => continue,
                },
                syn::Item::Impl(i) => {
                    self.impl_block(&rel, i);
                    continue;
                }
                syn::Item::Mod(m) => {
                    let name = m.ident.to_string();
                    let child = format!("{module}::{name}");
                    self.items.insert((rel.clone(), child.clone(), "module".into()));
                    match &m.content {
                        Some((_, inner)) => {
                            let inner_dir = match path_attr(&m.attrs) {
                                Some(p) => dir.join(p),
                                None => dir.join(&name),
                            };
                            self.module(root, file, &child, inner, &inner_dir, depth + 1);
                            self.files.insert(rel.clone());
                        }
                        None => {
                            let candidates: Vec<PathBuf> = match path_attr(&m.attrs) {
                                Some(p) => vec![file.parent().unwrap_or(dir).join(p)],
                                None => vec![dir.join(format!("{name}.rs")), dir.join(&name).join("mod.rs")],
                            };
                            let Some(found) = candidates.into_iter().find(|c| c.is_file()) else { continue };
                            // `#[path = "../src/lexical/mod.rs"]`: the file's own path, `..` resolved.
                            let found = found.canonicalize().unwrap_or(found);
                            let child_dir = if found.file_name().is_some_and(|n| n == "mod.rs") || path_attr(&m.attrs).is_some() {
                                found.parent().unwrap().to_path_buf()
                            } else {
                                dir.join(&name)
                            };
                            self.file(root, &found, &child, &child_dir, depth + 1);
                        }
                    }
                    continue;
                }
                _ => continue,
            };
            self.items.insert((rel.clone(), format!("{module}::{name}"), kind.to_string()));
        }
    }

    fn file(&mut self, root: &Path, file: &Path, module: &str, dir: &Path, depth: usize) {
        let parsed = std::fs::read_to_string(file).ok().and_then(|t| syn::parse_file(&t).ok());
        match parsed {
            Some(ast) => self.module(root, file, module, &ast.items, dir, depth),
            None => self.unreadable.push(file.display().to_string()),
        }
    }
}

/// `std::ffi::OsString` -> `OsString`, `Vec<T>` -> `Vec`; an impl owner the index names
/// as Rust does (`<&'_ std::ffi::OsStr as PartialEq>`, a type outside the crate or a
/// blanket impl's parameter) -> its self type's last segment (`OsStr`), as the oracle
/// names it.
fn simple(path: &str) -> String {
    let mut path = path.trim();
    if let Some(inner) = path.strip_prefix('<') {
        path = inner.split(" as ").next().unwrap_or(inner);
    }
    let path = path
        .split_whitespace()
        .map(|t| t.trim_start_matches('&'))
        .find(|t| !t.is_empty() && !t.starts_with('\'') && *t != "mut" && *t != "dyn")
        .unwrap_or(path);
    let head = path.split('<').next().unwrap_or(path);
    head.rsplit("::").next().unwrap_or(head).trim().to_string()
}

/// The targets of the package (or workspace) of a manifest as Cargo reads them: (crate
/// name, root file, kind).
fn cargo_targets(manifest: &Path) -> Option<Vec<(String, PathBuf, String)>> {
    let out = std::process::Command::new("cargo")
        .args(["metadata", "--no-deps", "--offline", "--format-version", "1", "--manifest-path"])
        .arg(manifest)
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    let mut found = Vec::new();
    for package in meta["packages"].as_array()? {
        for target in package["targets"].as_array()? {
            let kind = target["kind"][0].as_str()?.to_string();
            let name = target["name"].as_str()?;
            let src = PathBuf::from(target["src_path"].as_str()?);
            let src = src.canonicalize().unwrap_or(src);
            let (crate_name, kind) = match kind.as_str() {
                "custom-build" => ("build_script_build".to_string(), "build".to_string()),
                "lib" | "rlib" | "dylib" | "cdylib" | "staticlib" | "proc-macro" => (name.replace('-', "_"), "lib".to_string()),
                _ => (name.replace('-', "_"), kind),
            };
            found.push((crate_name, src, kind));
        }
    }
    Some(found)
}

fn crate_name(manifest: &Path) -> Option<String> {
    let value: toml::Table = std::fs::read_to_string(manifest).ok()?.parse().ok()?;
    let lib = value.get("lib").and_then(|l| l.get("name")).and_then(|n| n.as_str());
    let package = value.get("package")?.get("name")?.as_str()?;
    Some(lib.unwrap_or(package).replace('-', "_"))
}

fn report(label: &str, truth: &BTreeSet<(String, String, String)>, got: &BTreeSet<(String, String, String)>) {
    let tp = truth.intersection(got).count();
    let (fp, fn_) = (got.difference(truth).count(), truth.difference(got).count());
    let p = if tp + fp == 0 { 1.0 } else { tp as f64 / (tp + fp) as f64 };
    let r = if tp + fn_ == 0 { 1.0 } else { tp as f64 / (tp + fn_) as f64 };
    println!("| {label} | {tp} | {fp} | {fn_} | {p:.4} | {r:.4} |");
}

fn misses(label: &str, truth: &BTreeSet<(String, String, String)>, got: &BTreeSet<(String, String, String)>) {
    let missing: Vec<_> = truth.difference(got).take(6).collect();
    let extra: Vec<_> = got.difference(truth).take(6).collect();
    if !missing.is_empty() || !extra.is_empty() {
        println!("\n{label}:");
        for m in missing {
            println!("  missing {m:?}");
        }
        for e in extra {
            println!("  extra   {e:?}");
        }
    }
}

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: accuracy_rust <dir of crates>");
        std::process::exit(2);
    };
    let root = Path::new(&dir).canonicalize().unwrap();
    let mut oracle = Oracle::default();
    let mut crates = 0;
    let mut seen: BTreeSet<(PathBuf, String)> = BTreeSet::new();
    let mut by_kind: BTreeMap<String, usize> = BTreeMap::new();
    let mut fallbacks = 0;
    for entry in ignore::WalkBuilder::new(&root).build().flatten() {
        if entry.file_name() != "Cargo.toml" {
            continue;
        }
        let crate_dir = entry.path().parent().unwrap();
        let targets = match cargo_targets(entry.path()) {
            Some(t) => t,
            None => {
                // Cargo could not read it: the library at its default place, if any.
                let lib = crate_dir.join("src/lib.rs");
                match crate_name(entry.path()) {
                    Some(name) if lib.is_file() => {
                        fallbacks += 1;
                        vec![(name, lib, "lib".to_string())]
                    }
                    _ => Vec::new(),
                }
            }
        };
        for (name, src, kind) in targets {
            if !src.starts_with(&root) || !seen.insert((src.clone(), kind.clone())) {
                continue;
            }
            crates += 1;
            *by_kind.entry(kind).or_default() += 1;
            let dir = src.parent().unwrap().to_path_buf();
            oracle.file(&root, &src, &name, &dir, 0);
        }
    }

    let exe = std::env::current_exe().unwrap();
    let binary = exe.parent().and_then(Path::parent).map(|d| d.join("repochart")).expect("target dir");
    let status = std::process::Command::new(&binary).args(["index", "--repo"]).arg(&root).stdout(std::process::Stdio::null()).status();
    assert!(status.is_ok_and(|s| s.success()), "indexing with {} failed (cargo build --release first)", binary.display());
    let db = rusqlite::Connection::open(root.join(".repochart/index.db")).unwrap();

    let in_tree = |path: &str| oracle.files.contains(path);
    let mut items = BTreeSet::new();
    let mut members = BTreeSet::new();
    let mut stmt = db
        .prepare(
            "SELECT f.path, s.kind, s.qname, s.name, p.kind, COALESCE(p.name, s.impl_type), s.impl_type IS NOT NULL
             FROM symbols s JOIN files f ON f.id = s.file_id LEFT JOIN symbols p ON p.id = s.parent_id WHERE f.language = 'rust'",
        )
        .unwrap();
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, Option<String>>(4)?,
                r.get::<_, Option<String>>(5)?,
                r.get::<_, bool>(6)?,
            ))
        })
        .unwrap();
    let item_kinds = ["function", "struct", "enum", "union", "trait", "type_alias", "const", "static", "macro", "module"];
    for row in rows.flatten() {
        let (path, kind, qname, name, parent_kind, parent_name, in_impl) = row;
        if !in_tree(&path) {
            continue;
        }
        // Associated types and consts of impls are members, not module items.
        let at_module_level = matches!(parent_kind.as_deref(), None | Some("module")) && !in_impl;
        if at_module_level && item_kinds.contains(&kind.as_str()) {
            items.insert((path, qname, kind));
        } else if kind == "method" {
            if let Some(owner) = parent_name {
                members.insert((path, simple(&owner), name));
            }
        }
    }
    // Impl members whose type is declared elsewhere keep their impl's file; their parent is
    // the type (wherever it is), so the owner is the type's name either way.
    let mut impls = BTreeSet::new();
    let mut stmt = db
        .prepare(
            "SELECT f.path, COALESCE(r.subject, s.name, ''), r.name FROM refs r JOIN files f ON f.id = r.file_id
             LEFT JOIN symbols s ON s.id = r.source_id WHERE r.kind = 2 AND f.language = 'rust'", // RefKind::Implements
        )
        .unwrap();
    let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?))).unwrap();
    for (path, owner, trait_name) in rows.flatten() {
        if in_tree(&path) {
            impls.insert((path, simple(&owner), simple(&trait_name)));
        }
    }
    let oracle_items: BTreeSet<_> = oracle.items.iter().cloned().collect();
    let mut by_file: HashMap<&str, usize> = HashMap::new();
    for (f, _, _) in &oracle_items {
        *by_file.entry(f.as_str()).or_default() += 1;
    }

    let kinds: Vec<String> = by_kind.iter().map(|(k, n)| format!("{n} {k}")).collect();
    println!(
        "{crates} targets under {} ({}; {fallbacks} packages Cargo could not read, their src/lib.rs taken): {} files reached from their roots ({} unparsable by syn)",
        root.display(),
        kinds.join(", "),
        oracle.files.len(),
        oracle.unreadable.len()
    );
    println!("| measure | found | extra | missed | precision | recall |");
    println!("|---|---|---|---|---|---|");
    report("module-level items (file, qualified name, kind)", &oracle_items, &items);
    // A file several targets include (`mod common;` in each of `benches/*.rs`) has one
    // module in the index and one per target in the oracle: measured apart.
    let mut crates_of: HashMap<&str, BTreeSet<&str>> = HashMap::new();
    for (f, q, _) in &oracle_items {
        crates_of.entry(f.as_str()).or_default().insert(q.split("::").next().unwrap_or(q));
    }
    let single = |set: &BTreeSet<(String, String, String)>| -> BTreeSet<(String, String, String)> {
        set.iter().filter(|(f, _, _)| crates_of.get(f.as_str()).is_none_or(|c| c.len() == 1)).cloned().collect()
    };
    let shared = crates_of.values().filter(|c| c.len() > 1).count();
    report(&format!("  of files one target includes ({shared} files several include left out)"), &single(&oracle_items), &single(&items));
    report("impl and trait methods (file, owner, name)", &oracle.members, &members);
    report("impl Trait for Type (file, type, trait)", &oracle.impls, &impls);
    misses("items, first misses", &oracle_items, &items);
    misses("items of files one target includes, first misses", &single(&oracle_items), &single(&items));
    misses("methods, first misses", &oracle.members, &members);
    misses("impls, first misses", &oracle.impls, &impls);
}
