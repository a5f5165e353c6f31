//! Gradle, as the rules in `grammars/build/gradle.toml` describe it: `settings.gradle(.kts)`
//! and `build.gradle(.kts)` read as text (never by running Gradle), Groovy and Kotlin
//! dialects alike, into units with their project dependencies (type-safe accessors too).
//!
//! Owns reading Gradle scripts. It must not read source files.

use super::*;

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

pub(super) fn gradle(root: &Path, settings: &[&String], builds: &[&String], read: &Read, out: &mut Units) {
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
}
