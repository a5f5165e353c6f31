//! Build units: Maven modules, Gradle projects and Cargo packages as their build files
//! declare them: name, folder, source and test roots, the sibling units each declares a
//! dependency on, Cargo targets, and how to run a unit's tests. The defaults and command
//! templates of each build system are data (`grammars/build/*.toml`); this module reads
//! manifests with them (`roxmltree` for pom.xml, `toml` for Cargo.toml, patterns for
//! Gradle scripts, which are programs and so are read as far as their usual forms go).
//!
//! Owns manifest reading, the file -> unit map and test commands. It must not run Maven,
//! Gradle or cargo, parse source files, nor touch the store: the indexer persists what it
//! finds (one JSON value), the tools read it back.

pub mod rust_layout;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use rust_layout::TargetKind;

/// One build system's knowledge, from `grammars/build/<system>.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    pub system: String,
    #[serde(default)]
    pub settings: Vec<String>,
    pub manifests: Vec<String>,
    pub main_roots: Vec<String>,
    pub test_roots: Vec<String>,
    pub generated_roots: Vec<String>,
    #[serde(default)]
    pub add_main_goals: Vec<String>,
    #[serde(default)]
    pub add_test_goals: Vec<String>,
    #[serde(default)]
    pub test_scopes: Vec<String>,
    #[serde(default)]
    pub test_configurations: Vec<String>,
    #[serde(default)]
    pub test_tables: Vec<String>,
    #[serde(default)]
    pub properties: BTreeMap<String, String>,
    pub transitive: bool,
    pub tests: TestRules,
}

/// How a unit's tests are run: a command with `{unit}` and `{selectors}`, one selector per
/// test class or target.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestRules {
    pub command: String,
    /// Added to the command when tests are picked, with `{selectors}`.
    pub selectors: String,
    pub max_selectors: usize,
    pub selector: String,
    pub separator: String,
    #[serde(default)]
    pub lib: Option<String>,
    #[serde(default)]
    pub bin: Option<String>,
}

/// The rules files of `grammars/build/`, by file name (embedded at build time).
pub const RULES_FILES: &[(&str, &str)] = &[
    ("maven.toml", include_str!("../../grammars/build/maven.toml")),
    ("gradle.toml", include_str!("../../grammars/build/gradle.toml")),
    ("cargo.toml", include_str!("../../grammars/build/cargo.toml")),
];

/// Every build system's rules.
pub fn all_rules() -> &'static [Rules] {
    static ALL: OnceLock<Vec<Rules>> = OnceLock::new();
    ALL.get_or_init(|| {
        RULES_FILES
            .iter()
            .map(|(name, text)| toml::from_str(text).unwrap_or_else(|e| panic!("grammars/build/{name} is not valid: {e}")))
            .collect()
    })
}

/// The build systems repochart knows, by name.
pub fn rules(system: &str) -> &'static Rules {
    all_rules().iter().find(|r| r.system == system).unwrap_or_else(|| panic!("no build rules for {system}"))
}

/// The file names of every build system's manifests and settings files (`Cargo.toml`,
/// `pom.xml`, `build.gradle(.kts)`, `settings.gradle(.kts)`), from the rules files: the
/// walk collects them, and a change to one reconciles the whole index.
pub fn manifest_names() -> &'static [String] {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES.get_or_init(|| all_rules().iter().flat_map(|r| r.manifests.iter().chain(&r.settings)).cloned().collect())
}

/// What a source root holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RootKind {
    Main,
    Test,
    Generated,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceRoot {
    /// Relative to the repository root.
    pub path: String,
    pub kind: RootKind,
}

/// A declared dependency on another unit of the repository.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dep {
    /// The other unit's folder (its key).
    pub dir: String,
    /// Only tests (and examples, benches) compile against it.
    pub test: bool,
}

/// A Cargo target of a package.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitTarget {
    pub kind: String,
    /// Its crate name (dashes as underscores): the first segment of its files' modules.
    pub name: String,
    /// Its name as Cargo takes it on the command line.
    pub target: String,
    pub root: String,
}

/// One build unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// artifactId, Gradle project path (`:app`) or Cargo package name.
    pub name: String,
    /// `maven`, `gradle` or `cargo`.
    pub system: String,
    /// Its folder, relative ("" for the root): the unit's key.
    pub dir: String,
    pub manifest: String,
    /// Maven groupId (also inherited from the parent), empty elsewhere.
    #[serde(default)]
    pub group: String,
    pub roots: Vec<SourceRoot>,
    pub deps: Vec<Dep>,
    #[serde(default)]
    pub targets: Vec<UnitTarget>,
    /// The manifest could not be read: the unit is its folder with the default layout.
    #[serde(default)]
    pub fallback: bool,
}

impl Unit {
    /// Where the unit's files are: its folder and any root outside it.
    fn claims(&self) -> Vec<&str> {
        let mut out = vec![self.dir.as_str()];
        for r in &self.roots {
            if !under(&r.path, &self.dir) {
                out.push(r.path.as_str());
            }
        }
        for t in &self.targets {
            let dir = t.root.rsplit_once('/').map_or("", |(d, _)| d);
            if !under(dir, &self.dir) {
                out.push(dir);
            }
        }
        out
    }

    /// The unit as a handle and a label: `core (maven, services/core)`.
    pub fn label(&self) -> String {
        let dir = if self.dir.is_empty() { "." } else { self.dir.as_str() };
        format!("{} ({}, {dir})", self.name, self.system)
    }
}

/// A manifest that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestError {
    pub file: String,
    pub line: u32,
    pub message: String,
}

/// Every unit of the repository and the manifests that could not be read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Units {
    pub units: Vec<Unit>,
    pub errors: Vec<ManifestError>,
}

/// `path` is `dir` or inside it.
fn under(path: &str, dir: &str) -> bool {
    dir.is_empty() || path == dir || path.strip_prefix(dir).is_some_and(|rest| rest.starts_with('/'))
}

/// `dir/rel`, normalised (`..` and `.` resolved); None when it leaves the root.
fn join(dir: &str, rel: &str) -> Option<String> {
    let rel = rel.trim().replace('\\', "/");
    rust_layout::normalize(&if dir.is_empty() { rel } else { format!("{dir}/{rel}") })
}

fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

/// What reading the manifests gives: the units, and for the Rust module layout each
/// package's crate name by folder and every Cargo target (each manifest is read once).
pub struct Discovered {
    pub units: Units,
    /// Package folder (relative, "" for the root) -> crate name (the library's name, else
    /// the package's, dashes as underscores).
    pub crates: HashMap<String, String>,
    /// Every target of every package, by root and kind.
    pub targets: Vec<rust_layout::Target>,
}

/// Reads the units of the manifests a walk found (paths relative to `root`).
pub fn discover(root: &Path, manifests: &[String]) -> Discovered {
    let mut out = Units::default();
    let mut found = Discovered { units: Units::default(), crates: HashMap::new(), targets: Vec::new() };
    let by_name = |name: &str| -> Vec<&String> { manifests.iter().filter(|m| m.rsplit('/').next() == Some(name)).collect() };
    let read = |rel: &str| std::fs::read_to_string(root.join(rel));
    // Cargo.
    cargo(root, &by_name("Cargo.toml"), &read, &mut out, &mut found);
    // Maven.
    maven(&by_name("pom.xml"), &read, &mut out);
    // Gradle.
    let gradle_settings: Vec<&String> = rules("gradle").settings.iter().flat_map(|s| by_name(s)).collect();
    let gradle_builds: Vec<&String> = rules("gradle").manifests.iter().flat_map(|s| by_name(s)).collect();
    gradle(root, &gradle_settings, &gradle_builds, &read, &mut out);
    // One unit per folder: the first system read claims it (a repository building one
    // folder with two systems is rare; Cargo, then Maven, then Gradle).
    let mut seen = HashSet::new();
    out.units.retain(|u| seen.insert(u.dir.clone()));
    out.units.sort_by(|a, b| a.dir.cmp(&b.dir));
    let known: HashSet<String> = out.units.iter().map(|u| u.dir.clone()).collect();
    for u in &mut out.units {
        let own = u.dir.clone();
        u.deps.retain(|d| d.dir != own && known.contains(&d.dir));
        // One row per unit: a main dependency wins over a test one.
        u.deps.sort_by(|a, b| (&a.dir, a.test).cmp(&(&b.dir, b.test)));
        u.deps.dedup_by(|b, a| a.dir == b.dir);
    }
    out.errors.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    found.units = out;
    found.targets.sort_by(|a, b| (&a.root, a.kind).cmp(&(&b.root, b.kind)));
    found
}

type Read<'a> = dyn Fn(&str) -> std::io::Result<String> + 'a;

fn default_roots(system: &str, dir: &str) -> Vec<SourceRoot> {
    let r = rules(system);
    let mut out = Vec::new();
    for (list, kind) in [(&r.main_roots, RootKind::Main), (&r.test_roots, RootKind::Test), (&r.generated_roots, RootKind::Generated)] {
        for p in list {
            if let Some(path) = join(dir, p) {
                out.push(SourceRoot { path, kind });
            }
        }
    }
    out
}

// --- Cargo ---------------------------------------------------------------------------

fn cargo(root: &Path, manifests: &[&String], read: &Read, out: &mut Units, layout: &mut Discovered) {
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

// --- Maven ---------------------------------------------------------------------------

/// What one pom.xml says.
#[derive(Default)]
struct Pom {
    dir: String,
    file: String,
    group: Option<String>,
    artifact: Option<String>,
    parent_group: Option<String>,
    modules: Vec<String>,
    /// (groupId, artifactId, test scope)
    deps: Vec<(Option<String>, String, bool)>,
    roots: Vec<SourceRoot>,
    error: Option<ManifestError>,
}

fn child<'a, 'i>(node: roxmltree::Node<'a, 'i>, name: &str) -> Option<roxmltree::Node<'a, 'i>> {
    node.children().find(|c| c.is_element() && c.tag_name().name() == name)
}

fn children<'a, 'i>(node: roxmltree::Node<'a, 'i>, name: &'a str) -> impl Iterator<Item = roxmltree::Node<'a, 'i>> + 'a {
    node.children().filter(move |c| c.is_element() && c.tag_name().name() == name)
}

fn text_of(node: Option<roxmltree::Node>) -> Option<String> {
    node.and_then(|n| n.text()).map(|t| t.trim().to_string()).filter(|t| !t.is_empty())
}

/// A path from a pom, `${project.basedir}/src/gen` and the like made relative to the module.
fn pom_path(dir: &str, raw: &str) -> Option<String> {
    let mut raw = raw.trim().to_string();
    for (prop, value) in &rules("maven").properties {
        let key = format!("${{{prop}}}");
        if let Some(rest) = raw.strip_prefix(&key) {
            raw = if value.is_empty() { rest.trim_start_matches('/').to_string() } else { format!("{value}{rest}") };
        }
    }
    if raw.contains("${") || raw.starts_with('/') {
        return None;
    }
    join(dir, raw.trim_start_matches('/'))
}

fn read_pom(file: &str, text: &str) -> Pom {
    let dir = dir_of(file).to_string();
    let mut pom = Pom { dir: dir.clone(), file: file.to_string(), ..Pom::default() };
    let doc = match roxmltree::Document::parse(text) {
        Ok(d) => d,
        Err(e) => {
            pom.error = Some(ManifestError { file: file.to_string(), line: e.pos().row, message: e.to_string() });
            pom.roots = default_roots("maven", &dir);
            // Its name still, when the text shows it: siblings keep their dependency on it.
            static ARTIFACT: OnceLock<regex::Regex> = OnceLock::new();
            let re = ARTIFACT
                .get_or_init(|| regex::Regex::new(r"(?s)<parent>.*?</parent>|<artifactId>\s*([^<\s]+)\s*</artifactId>").expect("regex"));
            pom.artifact = re.captures_iter(text).find_map(|c| c.get(1).map(|m| m.as_str().to_string()));
            return pom;
        }
    };
    let project = doc.root_element();
    pom.artifact = text_of(child(project, "artifactId"));
    pom.group = text_of(child(project, "groupId"));
    pom.parent_group = child(project, "parent").and_then(|p| text_of(child(p, "groupId")));
    let maven = rules("maven");
    let mut scopes: Vec<roxmltree::Node> = vec![project];
    if let Some(profiles) = child(project, "profiles") {
        scopes.extend(children(profiles, "profile"));
    }
    for scope in &scopes {
        if let Some(modules) = child(*scope, "modules") {
            pom.modules.extend(children(modules, "module").filter_map(|m| text_of(Some(m))));
        }
        if let Some(deps) = child(*scope, "dependencies") {
            for d in children(deps, "dependency") {
                let Some(artifact) = text_of(child(d, "artifactId")) else { continue };
                let test = text_of(child(d, "scope")).is_some_and(|s| maven.test_scopes.contains(&s));
                pom.deps.push((text_of(child(d, "groupId")), artifact, test));
            }
        }
    }
    let build = child(project, "build");
    let mut main = None;
    let mut test = None;
    if let Some(b) = build {
        main = text_of(child(b, "sourceDirectory")).and_then(|p| pom_path(&dir, &p));
        test = text_of(child(b, "testSourceDirectory")).and_then(|p| pom_path(&dir, &p));
    }
    let defaults = default_roots("maven", &dir);
    for r in defaults {
        let replaced = match r.kind {
            RootKind::Main => main.is_some(),
            RootKind::Test => test.is_some(),
            RootKind::Generated => false,
        };
        if !replaced {
            pom.roots.push(r);
        }
    }
    pom.roots.extend(main.map(|path| SourceRoot { path, kind: RootKind::Main }));
    pom.roots.extend(test.map(|path| SourceRoot { path, kind: RootKind::Test }));
    // build-helper-maven-plugin's added roots.
    for plugin in build.and_then(|b| child(b, "plugins")).into_iter().flat_map(|p| children(p, "plugin")) {
        for execution in child(plugin, "executions").into_iter().flat_map(|e| children(e, "execution")) {
            let goals: Vec<String> =
                child(execution, "goals").into_iter().flat_map(|g| children(g, "goal")).filter_map(|g| text_of(Some(g))).collect();
            let kind = if goals.iter().any(|g| maven.add_test_goals.contains(g)) {
                RootKind::Test
            } else if goals.iter().any(|g| maven.add_main_goals.contains(g)) {
                RootKind::Main
            } else {
                continue;
            };
            let sources = child(execution, "configuration").and_then(|c| child(c, "sources"));
            for s in sources.into_iter().flat_map(|s| children(s, "source")) {
                if let Some(path) = text_of(Some(s)).and_then(|p| pom_path(&dir, &p)) {
                    // A root under a generated-sources folder, or named so, is generated code.
                    let generated = pom.roots.iter().any(|r| r.kind == RootKind::Generated && under(&path, &r.path))
                        || path.split('/').any(|segment| segment.contains("generated"));
                    let kind = if generated { RootKind::Generated } else { kind };
                    if !pom.roots.iter().any(|r| r.path == path) {
                        pom.roots.push(SourceRoot { path, kind });
                    }
                }
            }
        }
    }
    pom
}

fn maven(manifests: &[&String], read: &Read, out: &mut Units) {
    let mut poms: HashMap<String, Pom> = HashMap::new();
    for m in manifests {
        let Ok(text) = read(m) else { continue };
        let pom = read_pom(m, &text);
        poms.insert(pom.dir.clone(), pom);
    }
    // The build's units: the top poms (none above them) and the modules they list, down.
    let mut dirs: Vec<String> = poms.keys().cloned().collect();
    dirs.sort();
    let mut queue: Vec<String> = dirs.iter().filter(|d| !dirs.iter().any(|o| o != *d && under(d, o))).cloned().collect();
    let mut included: Vec<String> = Vec::new();
    while let Some(d) = queue.pop() {
        if included.contains(&d) {
            continue;
        }
        included.push(d.clone());
        let Some(pom) = poms.get(&d) else { continue };
        for m in &pom.modules {
            let m = m.trim_end_matches('/');
            // A module may name its pom file rather than its folder.
            let m = if m.ends_with(".xml") { dir_of(m) } else { m };
            if let Some(sub) = join(&d, m) {
                if poms.contains_key(&sub) {
                    queue.push(sub);
                }
            }
        }
    }
    included.sort();
    // groupId:artifactId -> folder, for sibling dependencies.
    let group_of = |p: &Pom| p.group.clone().or_else(|| p.parent_group.clone()).unwrap_or_default();
    let mut by_artifact: HashMap<String, Vec<(String, String)>> = HashMap::new();
    for d in &included {
        let p = &poms[d];
        if let Some(a) = &p.artifact {
            by_artifact.entry(a.clone()).or_default().push((group_of(p), d.clone()));
        }
    }
    for d in &included {
        let p = &poms[d];
        let group = group_of(p);
        let mut deps = Vec::new();
        for (g, a, test) in &p.deps {
            let g = g.as_deref().map(|g| {
                if g.contains("${project.groupId}") || g.contains("${project.parent.groupId}") {
                    group.as_str()
                } else {
                    g
                }
            });
            for (candidate_group, dir) in by_artifact.get(a).into_iter().flatten() {
                // A pom that could not be read has no known group: its artifactId decides.
                if g.is_none_or(|g| candidate_group.is_empty() || g == candidate_group) {
                    deps.push(Dep { dir: dir.clone(), test: *test });
                }
            }
        }
        let name = p.artifact.clone().unwrap_or_else(|| d.rsplit('/').next().filter(|s| !s.is_empty()).unwrap_or("root").to_string());
        out.errors.extend(p.error.clone());
        out.units.push(Unit {
            name,
            system: "maven".into(),
            dir: d.clone(),
            manifest: p.file.clone(),
            group,
            roots: p.roots.clone(),
            deps,
            targets: Vec::new(),
            fallback: p.error.is_some(),
        });
    }
}

// --- Gradle --------------------------------------------------------------------------

fn quoted(text: &str) -> Vec<String> {
    static RE: OnceLock<regex::Regex> = OnceLock::new();
    let re = RE.get_or_init(|| regex::Regex::new(r#""([^"\n]*)"|'([^'\n]*)'"#).expect("regex"));
    re.captures_iter(text).filter_map(|c| c.get(1).or_else(|| c.get(2)).map(|m| m.as_str().to_string())).collect()
}

/// Line comments and block comments blanked (kept as spaces, so that lines stay put).
fn strip_comments(text: &str) -> String {
    static RE: OnceLock<regex::Regex> = OnceLock::new();
    let re = RE.get_or_init(|| regex::Regex::new(r"(?s)/\*.*?\*/|//[^\n]*").expect("regex"));
    re.replace_all(text, |c: &regex::Captures| c[0].chars().map(|ch| if ch == '\n' { '\n' } else { ' ' }).collect::<String>()).into_owned()
}

/// A Gradle project: path (`:a:b`) and folder.
struct GradleProject {
    path: String,
    dir: String,
    /// The root project's name (`rootProject.name`), for the root only.
    name: Option<String>,
}

fn read_settings(file: &str, text: &str) -> Vec<GradleProject> {
    static INCLUDE: OnceLock<regex::Regex> = OnceLock::new();
    static PROJECT_DIR: OnceLock<regex::Regex> = OnceLock::new();
    static ROOT_NAME: OnceLock<regex::Regex> = OnceLock::new();
    let include = INCLUDE.get_or_init(|| regex::Regex::new(r"(?m)^\s*include\b\s*\(?((?:[^)\n]|\n\s*[\x22'])*)").expect("regex"));
    let project_dir = PROJECT_DIR.get_or_init(|| {
        regex::Regex::new(r#"project\(\s*["'](:[^"']*)["']\s*\)\s*\.projectDir\s*=\s*(?:file\(\s*|new\s+File\(\s*(?:settingsDir|rootDir)\s*,\s*)["']([^"']+)["']"#).expect("regex")
    });
    let root_name = ROOT_NAME.get_or_init(|| regex::Regex::new(r#"rootProject\.name\s*=\s*["']([^"']+)["']"#).expect("regex"));
    let text = strip_comments(text);
    let dir = dir_of(file);
    let mut out =
        vec![GradleProject { path: String::new(), dir: dir.to_string(), name: root_name.captures(&text).map(|c| c[1].to_string()) }];
    for c in include.captures_iter(&text) {
        for p in quoted(&c[1]) {
            let path = if p.starts_with(':') { p.clone() } else { format!(":{p}") };
            let rel = path.trim_start_matches(':').replace(':', "/");
            if let Some(d) = join(dir, &rel) {
                if !out.iter().any(|o| o.path == path) {
                    out.push(GradleProject { path, dir: d, name: None });
                }
            }
        }
    }
    for c in project_dir.captures_iter(&text) {
        let path = &c[1];
        if let (Some(p), Some(d)) = (out.iter_mut().find(|p| p.path == path), join(dir, &c[2])) {
            p.dir = d;
        }
    }
    out
}

/// `implementation(project(":core"))`, `testImplementation project(path: ':x')`,
/// `api(projects.core)`: (configuration, project path or accessor) per dependency.
fn read_gradle_deps(text: &str) -> Vec<(String, String)> {
    static PROJECT: OnceLock<regex::Regex> = OnceLock::new();
    static ACCESSOR: OnceLock<regex::Regex> = OnceLock::new();
    let project =
        PROJECT.get_or_init(|| regex::Regex::new(r#"(\w+)\s*\(?\s*project\s*\(?\s*(?:path\s*[:=]\s*)?["'](:[^"']*)["']"#).expect("regex"));
    let accessor = ACCESSOR.get_or_init(|| regex::Regex::new(r"(\w+)\s*\(?\s*projects\.([\w.]+)").expect("regex"));
    let text = strip_comments(text);
    let mut out: Vec<(String, String)> = project.captures_iter(&text).map(|c| (c[1].to_string(), c[2].to_string())).collect();
    out.extend(accessor.captures_iter(&text).map(|c| (c[1].to_string(), format!("accessor:{}", &c[2]))));
    out
}

/// A type-safe accessor's name for a project path segment: `my-lib` -> `myLib`.
fn accessor_name(segment: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for ch in segment.chars() {
        if ch == '-' || ch == '_' || ch == '.' {
            upper = true;
        } else if upper {
            out.extend(ch.to_uppercase());
            upper = false;
        } else {
            out.push(ch);
        }
    }
    out
}

fn gradle(root: &Path, settings: &[&String], builds: &[&String], read: &Read, out: &mut Units) {
    let rules = rules("gradle");
    let mut projects: Vec<GradleProject> = Vec::new();
    let mut settings: Vec<&String> = settings.to_vec();
    settings.sort();
    for s in settings {
        let dir = dir_of(s);
        // `settings.gradle.kts` before `settings.gradle` in one folder: one build.
        if projects.iter().any(|p| p.path.is_empty() && p.dir == dir) {
            continue;
        }
        match read(s) {
            Ok(text) => projects.extend(read_settings(s, &text)),
            Err(e) => out.errors.push(ManifestError { file: s.to_string(), line: 1, message: e.to_string() }),
        }
    }
    // A build script with no settings above it is a single-project build.
    let build_dirs: Vec<&str> = builds.iter().map(|b| dir_of(b)).collect();
    for d in &build_dirs {
        if !projects.iter().any(|p| p.dir == *d) && !projects.iter().any(|p| p.path.is_empty() && under(d, &p.dir)) {
            projects.push(GradleProject { path: String::new(), dir: d.to_string(), name: None });
        }
    }
    // Project paths are per build: (build root folder, path) -> folder.
    let build_root = |p: &GradleProject| -> String {
        projects
            .iter()
            .filter(|r| r.path.is_empty() && under(&p.dir, &r.dir))
            .max_by_key(|r| r.dir.len())
            .map_or_else(String::new, |r| r.dir.clone())
    };
    let roots: Vec<String> = projects.iter().map(&build_root).collect();
    for (i, p) in projects.iter().enumerate() {
        let build_file = rules.manifests.iter().filter_map(|m| join(&p.dir, m)).find(|f| root.join(f).is_file());
        let mut deps = Vec::new();
        if let Some(f) = &build_file {
            match read(f) {
                Ok(text) => {
                    for (configuration, target) in read_gradle_deps(&text) {
                        let test = rules.test_configurations.contains(&configuration);
                        let found = projects.iter().enumerate().find(|(j, q)| {
                            roots[*j] == roots[i]
                                && match target.strip_prefix("accessor:") {
                                    Some(acc) => {
                                        let segments: Vec<String> = q.path.trim_start_matches(':').split(':').map(accessor_name).collect();
                                        !q.path.is_empty() && segments.join(".") == acc
                                    }
                                    None => q.path == target || (target == ":" && q.path.is_empty()),
                                }
                        });
                        if let Some((_, q)) = found {
                            deps.push(Dep { dir: q.dir.clone(), test });
                        }
                    }
                }
                Err(e) => out.errors.push(ManifestError { file: f.clone(), line: 1, message: e.to_string() }),
            }
        }
        let name = if p.path.is_empty() {
            p.name.clone().unwrap_or_else(|| p.dir.rsplit('/').next().filter(|s| !s.is_empty()).unwrap_or("root").to_string())
        } else {
            p.path.clone()
        };
        let manifest = build_file.unwrap_or_else(|| join(&p.dir, &rules.settings[0]).unwrap_or_default());
        out.units.push(Unit {
            name,
            system: "gradle".into(),
            dir: p.dir.clone(),
            manifest,
            group: String::new(),
            roots: default_roots("gradle", &p.dir),
            deps,
            targets: Vec::new(),
            fallback: false,
        });
    }
}

// --- Files and units -----------------------------------------------------------------

/// Which unit holds a file: the unit whose folder (or a root of it outside its folder) is
/// the deepest one holding the file.
#[derive(Default)]
pub struct UnitMap {
    claims: HashMap<String, usize>,
}

impl UnitMap {
    pub fn new(units: &Units) -> UnitMap {
        let mut claims = HashMap::new();
        for (i, u) in units.units.iter().enumerate() {
            for c in u.claims() {
                claims.entry(c.to_string()).or_insert(i);
            }
        }
        UnitMap { claims }
    }

    /// The folder (key) of the unit holding `path`, if any.
    pub fn unit_dir<'a>(&self, units: &'a Units, path: &str) -> Option<&'a str> {
        self.unit_of(path).map(|i| units.units[i].dir.as_str())
    }

    /// The index of the unit holding `path`, if any.
    pub fn unit_of(&self, path: &str) -> Option<usize> {
        let mut dir = path;
        loop {
            dir = match dir.rsplit_once('/') {
                Some((d, _)) => d,
                None if !dir.is_empty() => "",
                None => return None,
            };
            if let Some(i) = self.claims.get(dir) {
                return Some(*i);
            }
            if dir.is_empty() {
                return None;
            }
        }
    }
}

/// A unit folder as the resolver keys files by it: 0 for no unit.
pub fn unit_key(dir: Option<&str>) -> u64 {
    match dir {
        Some(d) => xxhash_rust::xxh3::xxh3_64(d.as_bytes()) | 1,
        None => 0,
    }
}

/// Where the resolver places a file: its unit's key and whether it lies outside every
/// source root of its unit (a Java file under `src/test/resources/` is test data that
/// the unit does not compile).
pub fn file_place(units: &Units, map: &UnitMap, path: &str) -> (u64, bool) {
    match map.unit_of(path) {
        Some(i) => {
            let u = &units.units[i];
            (unit_key(Some(&u.dir)), !u.roots.is_empty() && root_kind(u, path).is_none())
        }
        None => (0, false),
    }
}

/// Each unit's key -> the keys of the units it declares a dependency on, directly or
/// through others (the resolver's preference: a reference's own unit, then those).
pub fn reach(units: &Units) -> HashMap<u64, HashSet<u64>> {
    let index: HashMap<&str, usize> = units.units.iter().enumerate().map(|(i, u)| (u.dir.as_str(), i)).collect();
    let mut out = HashMap::new();
    for (i, u) in units.units.iter().enumerate() {
        let mut seen: HashSet<usize> = HashSet::new();
        let mut stack = vec![i];
        while let Some(j) = stack.pop() {
            for d in &units.units[j].deps {
                if let Some(&k) = index.get(d.dir.as_str()) {
                    if seen.insert(k) {
                        stack.push(k);
                    }
                }
            }
        }
        out.insert(unit_key(Some(&u.dir)), seen.into_iter().map(|k| unit_key(Some(&units.units[k].dir))).collect());
    }
    out
}

/// The kind of root a file of a unit is in: the deepest root holding it.
pub fn root_kind(unit: &Unit, path: &str) -> Option<RootKind> {
    unit.roots.iter().filter(|r| under(path, &r.path)).max_by_key(|r| r.path.len()).map(|r| r.kind)
}

/// What a test file is, to a unit's test command.
pub struct TestFile<'a> {
    pub path: &'a str,
    /// Java package or Rust module path of the file.
    pub module: &'a str,
}

/// The command that runs these test files of a unit (one selector per class or target).
pub fn test_command(unit: &Unit, files: &[TestFile]) -> String {
    let rules = rules(&unit.system);
    let mut selectors: Vec<String> = Vec::new();
    for f in files {
        let stem = f.path.rsplit('/').next().unwrap_or(f.path).split('.').next().unwrap_or("");
        let selector = if unit.system == "cargo" {
            // The target holding the file: its module path's crate.
            let krate = f.module.split("::").next().unwrap_or("");
            let target = unit.targets.iter().find(|t| t.name == krate);
            let Some(target) = target else { continue };
            match target.kind.as_str() {
                "lib" => rules.tests.lib.clone().unwrap_or_default(),
                "bin" => rules.tests.bin.clone().unwrap_or_default().replace("{target}", &target.target),
                "test" => rules.tests.selector.replace("{target}", &target.target),
                _ => continue,
            }
        } else {
            let qualified = if f.module.is_empty() { stem.to_string() } else { format!("{}.{stem}", f.module) };
            rules.tests.selector.replace("{class}", stem).replace("{qualified}", &qualified)
        };
        if !selector.is_empty() && !selectors.contains(&selector) {
            selectors.push(selector);
        }
    }
    let name = if unit.system == "gradle" && !unit.name.starts_with(':') { "" } else { unit.name.as_str() };
    let mut command = rules.tests.command.replace("{unit}", name);
    if !selectors.is_empty() && selectors.len() <= rules.tests.max_selectors {
        command.push(' ');
        command.push_str(&rules.tests.selectors.replace("{selectors}", &selectors.join(&rules.tests.separator)));
    }
    command
}

/// Whether `unit` may use `other` by what it declares: directly, or through declared
/// units (`reach`, `units::reach` of the same units) when the build system passes
/// dependencies on.
pub fn declares(units: &Units, reach: &HashMap<u64, HashSet<u64>>, unit: usize, other: usize) -> bool {
    let (u, target) = (&units.units[unit], &units.units[other].dir);
    if rules(&u.system).transitive {
        reach.get(&unit_key(Some(&u.dir))).is_some_and(|r| r.contains(&unit_key(Some(target))))
    } else {
        u.deps.iter().any(|d| &d.dir == target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gradle_settings_and_dependencies_in_both_dialects() {
        let kts = "rootProject.name = \"shop\"\n// include(\":old\")\ninclude(\":app\", \":lib:core\")\ninclude(\n    \":util\"\n)\nproject(\":util\").projectDir = file(\"libs/util\")\n";
        let projects = read_settings("settings.gradle.kts", kts);
        let rows: Vec<String> = projects.iter().map(|p| format!("{}={} {:?}", p.path, p.dir, p.name)).collect();
        assert_eq!(
            rows,
            [
                "=\"\" Some(\"shop\")".replace("\"\"", ""),
                ":app=app None".into(),
                ":lib:core=lib/core None".into(),
                ":util=libs/util None".into()
            ]
        );
        let groovy = "include 'a', 'b'\n";
        let rows: Vec<String> = read_settings("x/settings.gradle", groovy).iter().map(|p| format!("{}={}", p.path, p.dir)).collect();
        assert_eq!(rows, ["=x", ":a=x/a", ":b=x/b"]);
        let deps = read_gradle_deps(
            "dependencies {\n  implementation(project(\":lib:core\"))\n  testImplementation project(path: ':util')\n  api(projects.myLib)\n  // implementation(project(\":gone\"))\n}\n",
        );
        assert_eq!(
            deps,
            [
                ("implementation".to_string(), ":lib:core".to_string()),
                ("testImplementation".to_string(), ":util".to_string()),
                ("api".to_string(), "accessor:myLib".to_string())
            ]
        );
        assert_eq!(accessor_name("my-lib"), "myLib");
    }

    #[test]
    fn a_malformed_pom_is_an_error_with_its_line_and_the_default_layout() {
        let pom = read_pom("core/pom.xml", "<project>\n  <artifactId>core</artifactId>\n  <modules>\n</project>\n");
        let e = pom.error.expect("an error");
        assert_eq!((e.file.as_str(), e.line), ("core/pom.xml", 4));
        assert!(e.message.contains("expected 'modules' tag"), "{}", e.message);
        assert_eq!(pom.roots.iter().map(|r| r.path.as_str()).collect::<Vec<_>>()[..2], ["core/src/main/java", "core/src/main/kotlin"]);
    }

    #[test]
    fn unit_of_takes_the_deepest_claim() {
        let unit = |dir: &str| Unit {
            name: dir.into(),
            system: "maven".into(),
            dir: dir.into(),
            manifest: String::new(),
            group: String::new(),
            roots: Vec::new(),
            deps: Vec::new(),
            targets: Vec::new(),
            fallback: false,
        };
        let units = Units { units: vec![unit(""), unit("a"), unit("a/b")], errors: Vec::new() };
        let map = UnitMap::new(&units);
        assert_eq!(map.unit_of("x.java"), Some(0));
        assert_eq!(map.unit_of("a/src/X.java"), Some(1));
        assert_eq!(map.unit_of("a/b/src/X.java"), Some(2));
        assert_eq!(map.unit_of("ab/X.java"), Some(0));
        let only_sub = Units { units: vec![unit("a")], errors: Vec::new() };
        assert_eq!(UnitMap::new(&only_sub).unit_of("b/X.java"), None);
    }
}
