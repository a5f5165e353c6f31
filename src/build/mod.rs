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

mod cargo;
mod gradle;
mod maven;
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
    /// A declared dependency's re-exports of its own dependencies are usable (Rust's `pub
    /// use`): a use of a unit reached through declared ones is declared enough.
    #[serde(default)]
    pub reexports: bool,
    /// Build plugins that write code at build time from outside the repository (an OpenAPI
    /// generator's interfaces), by the name the manifest writes, with what their output
    /// declares that the index cannot see ("routes": HTTP mappings).
    #[serde(default)]
    pub code_generators: BTreeMap<String, String>,
    pub tests: TestRules,
}

/// The code generator a manifest's text names (`openapi-generator-maven-plugin`), and what
/// its output declares (`routes`), by the system's rules.
pub fn code_generator<'a>(rules: &'a Rules, manifest: &str) -> Option<(&'a str, &'a str)> {
    rules.code_generators.iter().find(|(name, _)| manifest.contains(name.as_str())).map(|(n, what)| (n.as_str(), what.as_str()))
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
    /// Cargo: the tests of a library's or binary's files are run with a command of their
    /// own, narrowed to their modules: `{module}` one filter (a module path within the
    /// crate), `{filter}` one of them after the selector, `{filters}` several.
    #[serde(default)]
    pub module_filter: Option<String>,
    #[serde(default)]
    pub one_filter: Option<String>,
    #[serde(default)]
    pub many_filters: Option<String>,
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
    cargo::cargo(root, &by_name("Cargo.toml"), &read, &mut out, &mut found);
    // Maven.
    maven::maven(&by_name("pom.xml"), &read, &mut out);
    // Gradle.
    let gradle_settings: Vec<&String> = rules("gradle").settings.iter().flat_map(|s| by_name(s)).collect();
    let gradle_builds: Vec<&String> = rules("gradle").manifests.iter().flat_map(|s| by_name(s)).collect();
    gradle::gradle(root, &gradle_settings, &gradle_builds, &read, &mut out);
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

/// The commands that run these test files of a unit: one selector per class or target;
/// Cargo's library and binary unit tests each in a command of their own, narrowed to the
/// files' modules (`cargo test -p globset --lib glob::`), the test targets in another
/// (`cargo test -p ignore --test gitignore_skip_bom`).
pub fn test_commands(unit: &Unit, files: &[TestFile]) -> Vec<String> {
    let rules = rules(&unit.system);
    let filter = rules.tests.module_filter.as_deref();
    if unit.system != "cargo" || filter.is_none() {
        return vec![test_command(unit, files)];
    }
    // Per library or binary target: its selector and the modules of its files (None: the
    // crate's root, whose tests are every test of the target).
    let mut units: Vec<(String, Option<std::collections::BTreeSet<String>>)> = Vec::new();
    let mut targets: Vec<TestFile> = Vec::new();
    for f in files {
        let krate = f.module.split("::").next().unwrap_or("");
        let Some(target) = unit.targets.iter().find(|t| t.name == krate) else { continue };
        let selector = match target.kind.as_str() {
            "lib" => rules.tests.lib.clone().unwrap_or_default(),
            "bin" => rules.tests.bin.clone().unwrap_or_default().replace("{target}", &target.target),
            _ => {
                targets.push(TestFile { path: f.path, module: f.module });
                continue;
            }
        };
        let index = match units.iter().position(|(s, _)| *s == selector) {
            Some(i) => i,
            None => {
                units.push((selector, Some(Default::default())));
                units.len() - 1
            }
        };
        match f.module.split_once("::") {
            Some((_, module)) => {
                if let Some(modules) = units[index].1.as_mut() {
                    modules.insert(filter.unwrap_or_default().replace("{module}", module));
                }
            }
            None => units[index].1 = None,
        }
    }
    let base = rules.tests.command.replace("{unit}", &unit.name);
    let mut out = Vec::new();
    for (selector, modules) in units {
        let mut command = format!("{base} {selector}");
        let modules: Vec<String> = modules.map(|m| m.into_iter().collect()).unwrap_or_default();
        match modules.as_slice() {
            [] => {}
            [one] => command.push_str(&rules.tests.one_filter.as_deref().unwrap_or(" {filter}").replace("{filter}", one)),
            many if many.len() <= rules.tests.max_selectors => {
                command.push_str(&rules.tests.many_filters.as_deref().unwrap_or(" {filters}").replace("{filters}", &many.join(" ")))
            }
            _ => {}
        }
        out.push(command);
    }
    if !targets.is_empty() {
        out.push(test_command(unit, &targets));
    }
    out
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
/// dependencies on, or re-exports them (Cargo: `facade::Frame` is `core::Frame` to a crate
/// that declares only `facade`).
pub fn declares(units: &Units, reach: &HashMap<u64, HashSet<u64>>, unit: usize, other: usize) -> bool {
    let (u, target) = (&units.units[unit], &units.units[other].dir);
    let rules = rules(&u.system);
    if rules.transitive || rules.reexports {
        reach.get(&unit_key(Some(&u.dir))).is_some_and(|r| r.contains(&unit_key(Some(target))))
    } else {
        u.deps.iter().any(|d| &d.dir == target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Cargo crate reaches what its declared dependencies re-export (`facade::Frame` is
    /// `core::Frame` to `app`, which declares only `facade`), never what depends on it; a
    /// Gradle or Maven unit is transitive by its own rules.
    #[test]
    fn a_cargo_crate_may_use_what_its_dependencies_reexport() {
        let unit = |dir: &str, deps: &[&str]| Unit {
            name: dir.into(),
            system: "cargo".into(),
            dir: dir.into(),
            manifest: format!("{dir}/Cargo.toml"),
            group: String::new(),
            roots: Vec::new(),
            deps: deps.iter().map(|d| Dep { dir: d.to_string(), test: false }).collect(),
            targets: Vec::new(),
            fallback: false,
        };
        let units = Units { units: vec![unit("app", &["facade"]), unit("facade", &["core"]), unit("core", &[])], errors: Vec::new() };
        let reach = reach(&units);
        assert!(declares(&units, &reach, 0, 1));
        assert!(declares(&units, &reach, 0, 2), "app uses core through facade's re-exports");
        assert!(!declares(&units, &reach, 2, 0));
        assert!(!declares(&units, &reach, 1, 0));
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
