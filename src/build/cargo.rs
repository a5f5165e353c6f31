//! Cargo, as the rules in `grammars/build/cargo.toml` describe it: a workspace's members
//! and their manifests read with the toml crate (never by running cargo) into units, with
//! their dependencies and every target (`rust_layout::cargo_targets`), and the crate roots
//! the Rust module layout starts from.
//!
//! Owns reading `Cargo.toml` files. It must not read source files.

use super::*;

pub(super) fn cargo(root: &Path, manifests: &[&String], read: &Read, out: &mut Units, layout: &mut Discovered) {
    let mut parsed: Vec<(String, toml::Table)> = Vec::new();
    for m in manifests {
        let dir = dir_of(m).to_string();
        let Ok(text) = read(m) else { continue };
        match text.parse::<toml::Table>() {
            Ok(t) => parsed.push((dir, t)),
            Err(e) => {
                let line = e.span().map_or(1, |s| crate::text::line_of(&text, s.start) as u32);
                out.errors.push(ManifestError { file: m.to_string(), line, message: e.message().to_string() });
                if let Some(name) = text.lines().find_map(|l| {
                    l.trim().strip_prefix("name").map(|v| v.trim_start_matches([' ', '=']).trim().trim_matches('"').to_string())
                }) {
                    out.units.push(Unit {
                        name,
                        system: "cargo".into(),
                        dir: dir.clone(),
                        manifest: m.to_string(),
                        group: String::new(),
                        roots: vec![SourceRoot { path: join(&dir, "src").unwrap_or_default(), kind: RootKind::Main }],
                        deps: Vec::new(),
                        targets: Vec::new(),
                        fallback: true,
                    });
                }
            }
        }
    }
    // `[workspace.dependencies]` with a path, by the workspace root's folder.
    let mut workspace_deps: Vec<(String, HashMap<String, String>)> = Vec::new();
    for (dir, t) in &parsed {
        let Some(deps) = t.get("workspace").and_then(|w| w.get("dependencies")).and_then(|d| d.as_table()) else { continue };
        let mut paths = HashMap::new();
        for (name, spec) in deps {
            if let Some(p) = spec.get("path").and_then(|p| p.as_str()).and_then(|p| join(dir, p)) {
                paths.insert(name.clone(), p);
            }
        }
        workspace_deps.push((dir.clone(), paths));
    }
    let test_tables = &rules("cargo").test_tables;
    for (dir, t) in &parsed {
        let Some(package) = t.get("package").and_then(|p| p.as_table()) else { continue };
        let Some(name) = package.get("name").and_then(|n| n.as_str()) else { continue };
        let mut deps = Vec::new();
        let mut tables: Vec<(&str, &toml::Table)> = Vec::new();
        for key in ["dependencies", "dev-dependencies", "build-dependencies"] {
            if let Some(d) = t.get(key).and_then(|d| d.as_table()) {
                tables.push((key, d));
            }
        }
        // `[target.'cfg(..)'.dependencies]`.
        for (_, spec) in t.get("target").and_then(|x| x.as_table()).into_iter().flatten() {
            for key in ["dependencies", "dev-dependencies", "build-dependencies"] {
                if let Some(d) = spec.get(key).and_then(|d| d.as_table()) {
                    tables.push((key, d));
                }
            }
        }
        for (key, table) in tables {
            let test = test_tables.iter().any(|k| k == key);
            for (dep_name, spec) in table {
                let path = match spec.get("path").and_then(|p| p.as_str()) {
                    Some(p) => join(dir, p),
                    None if spec.get("workspace").and_then(|w| w.as_bool()) == Some(true) => {
                        let real = spec.get("package").and_then(|p| p.as_str()).unwrap_or(dep_name);
                        // The nearest workspace root above the package.
                        workspace_deps
                            .iter()
                            .filter(|(w, _)| under(dir, w))
                            .max_by_key(|(w, _)| w.len())
                            .and_then(|(_, paths)| paths.get(dep_name).or_else(|| paths.get(real)).cloned())
                    }
                    None => None,
                };
                if let Some(path) = path {
                    deps.push(Dep { dir: path, test });
                }
            }
        }
        let lib_name = t.get("lib").and_then(|l| l.get("name")).and_then(|n| n.as_str());
        layout.crates.insert(dir.clone(), lib_name.unwrap_or(name).replace('-', "_"));
        let cargo_targets = rust_layout::cargo_targets(root, dir, t);
        let targets: Vec<UnitTarget> = cargo_targets
            .iter()
            .map(|x| UnitTarget {
                kind: target_kind(x.kind).to_string(),
                name: x.name.clone(),
                target: x.target.clone(),
                root: x.root.clone(),
            })
            .collect();
        layout.targets.extend(cargo_targets);
        let mut roots: Vec<SourceRoot> = Vec::new();
        for x in &targets {
            // A build script is its file alone; another target, its root's folder.
            let path = if x.kind == "build" { x.root.clone() } else { dir_of(&x.root).to_string() };
            let kind = if x.kind == "test" { RootKind::Test } else { RootKind::Main };
            if !roots.iter().any(|r| r.path == path) {
                roots.push(SourceRoot { path, kind });
            }
        }
        out.units.push(Unit {
            name: name.to_string(),
            system: "cargo".into(),
            dir: dir.clone(),
            manifest: if dir.is_empty() { "Cargo.toml".into() } else { format!("{dir}/Cargo.toml") },
            group: String::new(),
            roots,
            deps,
            targets,
            fallback: false,
        });
    }
}

fn target_kind(k: TargetKind) -> &'static str {
    match k {
        TargetKind::Lib => "lib",
        TargetKind::Bin => "bin",
        TargetKind::Test => "test",
        TargetKind::Bench => "bench",
        TargetKind::Example => "example",
        TargetKind::Build => "build",
    }
}
