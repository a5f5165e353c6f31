//! Rust module paths of files: from Cargo's targets (each `[lib]`, `[[bin]]`, `[[test]]`,
//! `[[example]]`, `[[bench]]` and build script is a crate root with its own module tree,
//! declared or auto-discovered as Cargo does), the crate layout (`src/`, `mod.rs`) and the
//! `#[path = "..."]` attributes that move a module to another file.
//!
//! Owns the reading of manifests' targets, the scan of a file's text for `#[path]` module
//! declarations and the map from file to module path. It must not parse with tree-sitter
//! (it runs before parsing, on changed files only), run `cargo`, nor touch the store: the
//! indexer persists what it finds.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// What a Cargo target builds; also the order in which targets sharing a module folder
/// claim the files in it that are no target's root (`src/` is the library's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TargetKind {
    Lib,
    Bin,
    Test,
    Bench,
    Example,
    Build,
}

/// One crate root of a package: its kind, its crate name (dashes as underscores) and its
/// root file, relative to the repository root.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    pub kind: TargetKind,
    pub name: String,
    /// The name as the manifest spells it (`--bin my-tool`), dashes kept.
    pub target: String,
    pub root: String,
    /// The modules its root file declares (`mod common;`): which of several targets sharing
    /// a folder (`tests/`) a file of that folder belongs to.
    pub mods: Vec<String>,
}

impl Target {
    /// The folder of the target's module tree: its root file's folder.
    fn module_dir(&self) -> &str {
        self.root.rsplit_once('/').map_or("", |(d, _)| d)
    }
}

/// The targets of the package at `dir` (relative, "" for the root) as Cargo reads its
/// manifest: the declared `[lib]`, `[[bin]]`, `[[test]]`, `[[example]]`, `[[bench]]` with
/// their paths (or Cargo's default paths), the auto-discovered ones unless `autolib`,
/// `autobins`, `autotests`, `autoexamples` or `autobenches` is false, and the build script.
/// Files are looked for under `root`. A virtual manifest (no `[package]`) has none.
pub fn cargo_targets(root: &Path, dir: &str, manifest: &toml::Table) -> Vec<Target> {
    let Some(package) = manifest.get("package").and_then(|p| p.as_table()) else { return Vec::new() };
    let Some(package_name) = package.get("name").and_then(|n| n.as_str()) else { return Vec::new() };
    let rel = |p: &str| normalize(&if dir.is_empty() { p.to_string() } else { format!("{dir}/{p}") });
    let exists = |p: &str| rel(p).is_some_and(|r| root.join(r).is_file());
    let auto = |key: &str| package.get(key).and_then(|v| v.as_bool()).unwrap_or(true);
    let crate_name = |name: &str| name.replace('-', "_");
    let mut out: Vec<Target> = Vec::new();
    let push = |out: &mut Vec<Target>, kind: TargetKind, name: &str, path: &str| {
        if let Some(root) = rel(path) {
            if !out.iter().any(|t| t.kind == kind && t.root == root) {
                out.push(Target { kind, name: crate_name(name), target: name.to_string(), root, mods: Vec::new() });
            }
        }
    };
    // The library.
    let lib = manifest.get("lib").and_then(|l| l.as_table());
    let lib_path = lib.and_then(|l| l.get("path")).and_then(|p| p.as_str());
    match lib_path {
        Some(path) => {
            push(&mut out, TargetKind::Lib, lib.and_then(|l| l.get("name")).and_then(|n| n.as_str()).unwrap_or(package_name), path)
        }
        None if (lib.is_some() || auto("autolib")) && exists("src/lib.rs") => {
            push(&mut out, TargetKind::Lib, lib.and_then(|l| l.get("name")).and_then(|n| n.as_str()).unwrap_or(package_name), "src/lib.rs")
        }
        None => {}
    }
    // Declared targets of the other kinds, with Cargo's default paths.
    for (key, kind, folder) in [
        ("bin", TargetKind::Bin, "src/bin"),
        ("test", TargetKind::Test, "tests"),
        ("example", TargetKind::Example, "examples"),
        ("bench", TargetKind::Bench, "benches"),
    ] {
        for entry in manifest.get(key).and_then(|v| v.as_array()).into_iter().flatten() {
            let Some(name) = entry.get("name").and_then(|n| n.as_str()) else { continue };
            let path = match entry.get("path").and_then(|p| p.as_str()) {
                Some(p) => p.to_string(),
                None if kind == TargetKind::Bin && name == package_name && exists("src/main.rs") => "src/main.rs".to_string(),
                None if exists(&format!("{folder}/{name}.rs")) => format!("{folder}/{name}.rs"),
                None => format!("{folder}/{name}/main.rs"),
            };
            push(&mut out, kind, name, &path);
        }
    }
    // Auto-discovered ones: `src/main.rs`, then `<folder>/*.rs` and `<folder>/*/main.rs`.
    for (switch, kind, folder) in [
        ("autobins", TargetKind::Bin, "src/bin"),
        ("autotests", TargetKind::Test, "tests"),
        ("autoexamples", TargetKind::Example, "examples"),
        ("autobenches", TargetKind::Bench, "benches"),
    ] {
        if !auto(switch) {
            continue;
        }
        if kind == TargetKind::Bin && exists("src/main.rs") {
            push(&mut out, kind, package_name, "src/main.rs");
        }
        let Some(folder_rel) = rel(folder) else { continue };
        let Ok(entries) = std::fs::read_dir(root.join(&folder_rel)) else { continue };
        let mut found: Vec<(String, String)> = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            let path = entry.path();
            if path.is_file() {
                if let Some(stem) = name.strip_suffix(".rs") {
                    found.push((stem.to_string(), format!("{folder}/{name}")));
                }
            } else if path.join("main.rs").is_file() {
                found.push((name.clone(), format!("{folder}/{name}/main.rs")));
            }
        }
        found.sort();
        for (name, path) in found {
            push(&mut out, kind, &name, &path);
        }
    }
    // The build script: `build = "path"`, `build = false`, or `build.rs` when it exists.
    match package.get("build") {
        Some(toml::Value::String(path)) => push(&mut out, TargetKind::Build, "build_script_build", path),
        Some(toml::Value::Boolean(false)) => {}
        _ if exists("build.rs") => push(&mut out, TargetKind::Build, "build_script_build", "build.rs"),
        _ => {}
    }
    for t in &mut out {
        t.mods = std::fs::read_to_string(root.join(&t.root)).map(|text| declared_mods(&text)).unwrap_or_default();
    }
    out
}

/// The names of the `mod name;` declarations of a file (those that load another file).
fn declared_mods(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let mut line = line.trim();
            if let Some(rest) = line.strip_prefix("pub") {
                line = rest.trim_start();
                if let Some(scope) = line.strip_prefix('(') {
                    line = scope.split_once(')')?.1.trim_start();
                }
            }
            let name = line.strip_prefix("mod ")?.trim().strip_suffix(';')?.trim();
            (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')).then(|| name.to_string())
        })
        .collect()
}

/// A `#[path = "target"] mod name;` in one file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PathMod {
    pub name: String,
    /// The file it names, relative to the repository root, normalised.
    pub target: String,
}

/// Where a Rust file's module path comes from: crates and `#[path]` declarations.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Directory (relative, `/`-separated, "" for the root) -> crate name.
    pub crates: HashMap<String, String>,
    /// Every package's targets: their roots start module trees of their own.
    pub targets: Vec<Target>,
    /// Declaring file -> its `#[path]` module declarations.
    pub path_mods: BTreeMap<String, Vec<PathMod>>,
    /// File or directory (a moved `mod.rs` takes its directory along) -> module path.
    moved: HashMap<String, String>,
}

impl Layout {
    pub fn with_path_mods(path_mods: BTreeMap<String, Vec<PathMod>>) -> Layout {
        Layout { path_mods, ..Layout::default() }
    }

    /// Recomputes where `#[path]` declarations move files; true if that changed.
    pub fn settle(&mut self) -> bool {
        let before = std::mem::take(&mut self.moved);
        // A declaring file may itself have moved: repeat until nothing changes (bounded,
        // as cycles of `#[path]` declarations are possible in broken code).
        for _ in 0..8 {
            let mut next: HashMap<String, String> = HashMap::new();
            for (file, mods) in &self.path_mods {
                let parent = self.module(file);
                for m in mods.iter().filter(|m| !borrows_library_file(file, &m.target, &self.crates)) {
                    let module = format!("{parent}::{}", m.name);
                    if let Some(dir) = m.target.strip_suffix("/mod.rs") {
                        next.insert(format!("{dir}/"), module.clone());
                    }
                    next.insert(m.target.clone(), module);
                }
            }
            if next == self.moved {
                break;
            }
            self.moved = next;
        }
        before != self.moved
    }

    /// The module path of a Rust file.
    pub fn module(&self, path: &str) -> String {
        if let Some(m) = self.moved.get(path) {
            return m.clone();
        }
        // The deepest moved directory holding the file, then the layout below it.
        let mut dir = path;
        while let Some((d, _)) = dir.rsplit_once('/') {
            dir = d;
            if let Some(m) = self.moved.get(&format!("{dir}/")) {
                return join_segments(m.clone(), &path[dir.len() + 1..]);
            }
        }
        target_module(path, &self.targets).unwrap_or_else(|| layout_module(path, &self.crates))
    }
}

/// The module path a file has in a Cargo target: a root is its target's crate; another file
/// belongs to the target with the deepest module folder holding it (the first by kind when
/// several share one: `src/` is the library's), below that folder by its own path. Build
/// scripts hold only their root. None when no target holds the file.
pub fn target_module(path: &str, targets: &[Target]) -> Option<String> {
    if let Some(t) = targets.iter().filter(|t| t.root == path).min_by_key(|t| t.kind) {
        return Some(t.name.clone());
    }
    let holds = |t: &&Target| {
        let dir = t.module_dir();
        t.kind != TargetKind::Build && (dir.is_empty() || path.strip_prefix(dir).is_some_and(|rest| rest.starts_with('/')))
    };
    // The deepest folder; then a target whose root declares the file's module; then by kind.
    let declares = |t: &Target| {
        let dir = t.module_dir();
        let rest = if dir.is_empty() { path } else { &path[dir.len() + 1..] };
        let first = rest.split('/').next().unwrap_or(rest).trim_end_matches(".rs");
        t.mods.iter().any(|m| m == first)
    };
    let t = targets.iter().filter(holds).max_by(|a, b| {
        a.module_dir()
            .len()
            .cmp(&b.module_dir().len())
            .then(declares(a).cmp(&declares(b)))
            .then(b.kind.cmp(&a.kind))
            .then(b.root.cmp(&a.root))
    })?;
    let dir = t.module_dir();
    let rest = if dir.is_empty() { path } else { &path[dir.len() + 1..] };
    Some(join_segments(t.name.clone(), rest))
}

/// A test, bench or example that includes a file of its crate's library (`#[path =
/// "../src/lexical/mod.rs"]`): the file stays in the library's module; one file has one
/// module here.
fn borrows_library_file(file: &str, target: &str, crates: &HashMap<String, String>) -> bool {
    let src = |path: &str| {
        let dir = crate_dir(path, crates);
        let inner = path[dir.len()..].trim_start_matches('/');
        inner.starts_with("src/")
    };
    src(target) && !(src(file) && crate_dir(file, crates) == crate_dir(target, crates))
}

/// The directory of the crate a file belongs to ("" when none holds it).
fn crate_dir<'p>(path: &'p str, crates: &HashMap<String, String>) -> &'p str {
    let mut dir = path;
    loop {
        dir = match dir.rsplit_once('/') {
            Some((d, _)) => d,
            None => "",
        };
        if crates.contains_key(dir) || dir.is_empty() {
            return dir;
        }
    }
}

/// The module path the file layout alone gives.
pub fn layout_module(path: &str, crates: &HashMap<String, String>) -> String {
    let crate_dir = crate_dir(path, crates);
    let krate = crates.get(crate_dir).cloned().unwrap_or_else(|| "crate".to_string());
    let inner = path[crate_dir.len()..].trim_start_matches('/');
    let inner = inner.strip_prefix("src/").unwrap_or(inner);
    if matches!(inner, "lib.rs" | "main.rs") {
        return krate;
    }
    join_segments(krate, inner)
}

/// `base` followed by the module segments of a relative file path (`a/b.rs`, `a/mod.rs`).
fn join_segments(mut module: String, rel: &str) -> String {
    let rel = rel.trim_end_matches(".rs");
    let mut segments: Vec<&str> = rel.split('/').filter(|s| !s.is_empty()).collect();
    if matches!(segments.last(), Some(&"mod")) {
        segments.pop();
    }
    for s in segments {
        module.push_str("::");
        module.push_str(&s.replace('-', "_"));
    }
    module
}

/// The `#[path = "..."] mod name;` declarations in a file's text. Paths are relative to
/// the declaring file's directory (the reference's rule outside inline module blocks,
/// which this scan does not tell apart); targets outside the root are dropped.
pub fn scan_path_mods(file: &str, text: &str) -> Vec<PathMod> {
    let mut out = Vec::new();
    let dir = file.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
    let mut rest = text;
    while let Some(at) = rest.find("#[path") {
        let line_start = rest[..at].rfind('\n').map(|i| i + 1).unwrap_or(0);
        let in_comment = rest[line_start..at].contains("//");
        rest = &rest[at + "#[path".len()..];
        if in_comment {
            continue;
        }
        let Some((value, after)) = attr_value(rest) else { continue };
        let Some(name) = mod_name(after) else { continue };
        if let Some(target) = normalize(&format!("{dir}/{value}")) {
            out.push(PathMod { name: name.to_string(), target });
        }
    }
    out
}

/// `= "value"]` -> the value and the text after the `]`.
fn attr_value(text: &str) -> Option<(&str, &str)> {
    let text = text.trim_start().strip_prefix('=')?.trim_start().strip_prefix('"')?;
    let end = text.find('"')?;
    let after = text[end + 1..].trim_start().strip_prefix(']')?;
    Some((&text[..end], after))
}

/// After the attribute: more attributes, a visibility, then `mod name;`.
fn mod_name(mut text: &str) -> Option<&str> {
    loop {
        text = text.trim_start();
        if let Some(attr) = text.strip_prefix("#[") {
            text = &attr[attr.find(']')? + 1..];
        } else if let Some(vis) = text.strip_prefix("pub") {
            text = vis.trim_start();
            if let Some(scope) = text.strip_prefix('(') {
                text = &scope[scope.find(')')? + 1..];
            }
        } else {
            break;
        }
    }
    let text = text.strip_prefix("mod")?;
    if !text.starts_with(char::is_whitespace) {
        return None;
    }
    let text = text.trim_start();
    let end = text.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(text.len());
    let name = &text[..end];
    (!name.is_empty() && text[end..].trim_start().starts_with(';')).then_some(name)
}

/// `a/./b/../c.rs` -> `a/c.rs`; None when it climbs out of the root.
pub fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crates() -> HashMap<String, String> {
        [("crates/shop-core".to_string(), "shop_core".to_string()), ("".to_string(), "root".to_string())].into_iter().collect()
    }

    #[test]
    fn modules_follow_the_crate_layout() {
        let layout = Layout { crates: crates(), ..Layout::default() };
        assert_eq!(layout.module("crates/shop-core/src/lib.rs"), "shop_core");
        assert_eq!(layout.module("crates/shop-core/src/pay/mod.rs"), "shop_core::pay");
        assert_eq!(layout.module("crates/shop-core/src/pay/gateway.rs"), "shop_core::pay::gateway");
        assert_eq!(layout.module("crates/shop-core/tests/it.rs"), "shop_core::tests::it");
        assert_eq!(layout.module("src/main.rs"), "root");
        assert_eq!(layout.module("build.rs"), "root::build");
    }

    #[test]
    fn path_attributes_move_modules_and_their_children() {
        let text = "// #[path = \"no.rs\"] mod commented;\n#[cfg(unix)]\n#[path = \"update_refs/mod.rs\"]\n#[allow(dead_code)]\npub(crate) mod refs;\n#[path = \"../up.rs\"] mod up;\n#[path = \"x.rs\"]\nfn not_a_mod() {}\n";
        let found = scan_path_mods("src/fetch/mod.rs", text);
        assert_eq!(
            found,
            vec![
                PathMod { name: "refs".into(), target: "src/fetch/update_refs/mod.rs".into() },
                PathMod { name: "up".into(), target: "src/up.rs".into() },
            ]
        );
        let mut layout = Layout { crates: [("".to_string(), "gix".to_string())].into_iter().collect(), ..Layout::default() };
        layout.path_mods.insert("src/fetch/mod.rs".into(), found);
        // The declaring file is itself moved by another declaration: both hops count.
        layout.path_mods.insert("src/lib.rs".into(), vec![PathMod { name: "remote".into(), target: "src/fetch/mod.rs".into() }]);
        assert!(layout.settle());
        assert_eq!(layout.module("src/fetch/mod.rs"), "gix::remote");
        assert_eq!(layout.module("src/fetch/update_refs/mod.rs"), "gix::remote::refs");
        assert_eq!(layout.module("src/fetch/update_refs/tests.rs"), "gix::remote::refs::tests");
        assert_eq!(layout.module("src/up.rs"), "gix::remote::up");
        assert_eq!(layout.module("src/other.rs"), "gix::other");
        assert!(!layout.settle(), "settled: nothing changes the second time");
        assert_eq!(scan_path_mods("src/a.rs", "#[path = \"../../out.rs\"] mod out;"), vec![]);
        // An integration test including a library file leaves it in the library.
        layout.path_mods.insert("tests/lexical.rs".into(), vec![PathMod { name: "lexical".into(), target: "src/other.rs".into() }]);
        layout.settle();
        assert_eq!(layout.module("src/other.rs"), "gix::other");
    }
}
