//! Maven, as the rules in `grammars/build/maven.toml` describe it: each `pom.xml` read as
//! XML (roxmltree, never by running Maven) into a unit with its modules, source roots
//! (build-helper's added roots too) and dependencies on the repository's other modules.
//!
//! Owns reading `pom.xml` files. It must not read source files.

use super::*;

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

pub(super) fn maven(manifests: &[&String], read: &Read, out: &mut Units) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_malformed_pom_is_an_error_with_its_line_and_the_default_layout() {
        let pom = read_pom("core/pom.xml", "<project>\n  <artifactId>core</artifactId>\n  <modules>\n</project>\n");
        let e = pom.error.expect("an error");
        assert_eq!((e.file.as_str(), e.line), ("core/pom.xml", 4));
        assert!(e.message.contains("expected 'modules' tag"), "{}", e.message);
        assert_eq!(pom.roots.iter().map(|r| r.path.as_str()).collect::<Vec<_>>()[..2], ["core/src/main/java", "core/src/main/kotlin"]);
    }
}
