//! `.repochart.toml`, the optional per-repository settings: which files are indexed
//! (include/exclude globs, languages, size cap, secret patterns and their allow-list), the
//! watcher's debounce, the answer budget, the audit log and how much git history is read.
//! Every key has a default; an unknown key or a bad value is an error naming the key and
//! its line.
//!
//! Owns parsing and validation only. It must not index, watch or answer: the walker,
//! watcher and tools take the values it produces.

use std::path::Path;
use std::sync::Arc;

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Deserialize;
use toml::Spanned;

use crate::model::Language;
use crate::text::line_of;

/// The file name, at the repository root.
pub const CONFIG_FILE: &str = ".repochart.toml";
/// The name earlier versions (then called codeatlas) read: still read when there is no
/// `.repochart.toml`, with a notice to rename it.
pub const LEGACY_CONFIG_FILE: &str = ".codeatlas.toml";

pub const DEFAULT_MAX_FILE_SIZE: u64 = 1024 * 1024;
pub const DEFAULT_DEBOUNCE_MS: u64 = 50;
/// Answer budget of tiers 1 and 2, in bytes (about 2,000 tokens); tier-3 reads get twice this.
pub const DEFAULT_ANSWER_BUDGET: usize = 8_000;
const BUDGET_RANGE: (usize, usize) = (2_000, 64_000);
const DEBOUNCE_RANGE: (u64, u64) = (0, 10_000);

/// How much git history is read (`[history]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryConfig {
    pub enabled: bool,
    /// The walk stops after this many commits...
    pub max_commits: usize,
    /// ...or at commits older than this many days before `HEAD`'s.
    pub max_days: u32,
    /// Churn counts the commits of this many days up to `HEAD`'s.
    pub churn_days: u32,
}

impl Default for HistoryConfig {
    fn default() -> Self {
        HistoryConfig { enabled: true, max_commits: 10_000, max_days: 730, churn_days: 90 }
    }
}

/// The settings of one repository, defaults filled in.
#[derive(Clone, Debug)]
pub struct Config {
    pub filter: Arc<Filter>,
    pub max_file_size: u64,
    pub debounce_ms: u64,
    pub answer_budget: usize,
    pub audit_log: bool,
    pub history: HistoryConfig,
    /// `[map] link`: the URL template of names in `repochart map` and `serve --http`'s page
    /// (`{path}`, `{line}`, `{commit}`); `file://` links when None.
    pub map_link: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            filter: Arc::new(Filter::default()),
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            debounce_ms: DEFAULT_DEBOUNCE_MS,
            answer_budget: DEFAULT_ANSWER_BUDGET,
            audit_log: false,
            history: HistoryConfig::default(),
            map_link: None,
        }
    }
}

/// Which files the walk keeps, beyond the ignore files.
#[derive(Debug, Default)]
pub struct Filter {
    /// When set, only paths matching one of these are indexed.
    include: Option<GlobSet>,
    exclude: Option<GlobSet>,
    /// When set, only these languages are indexed.
    languages: Option<Vec<Language>>,
    /// Extra secret patterns: (the glob as written, its matcher), tried on the path and the file name.
    secrets: Vec<(String, globset::GlobMatcher)>,
    /// Paths never taken for secrets.
    allow: Option<GlobSet>,
}

impl Filter {
    /// True when the include/exclude globs keep this relative path.
    pub fn keeps_path(&self, rel: &str) -> bool {
        self.include.as_ref().is_none_or(|g| g.is_match(rel)) && !self.exclude.as_ref().is_some_and(|g| g.is_match(rel))
    }

    pub fn keeps_language(&self, language: Language) -> bool {
        self.languages.as_ref().is_none_or(|l| l.contains(&language))
    }

    /// The configured secret pattern this path matches, unless the allow-list exempts it.
    pub fn extra_secret(&self, rel: &str) -> Option<String> {
        if self.allowed(rel) {
            return None;
        }
        let name = rel.rsplit('/').next().unwrap_or(rel);
        self.secrets.iter().find(|(_, m)| m.is_match(rel) || m.is_match(name)).map(|(p, _)| p.clone())
    }

    /// True when the allow-list exempts this path from the secret patterns.
    pub fn allowed(&self, rel: &str) -> bool {
        self.allow.as_ref().is_some_and(|g| g.is_match(rel))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
struct Raw {
    include: Option<Spanned<Vec<String>>>,
    exclude: Option<Spanned<Vec<String>>>,
    languages: Option<Spanned<Vec<String>>>,
    max_file_size: Option<Spanned<u64>>,
    debounce_ms: Option<Spanned<u64>>,
    answer_budget: Option<Spanned<usize>>,
    audit_log: Option<bool>,
    secrets: Option<RawSecrets>,
    history: Option<RawHistory>,
    map: Option<RawMap>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMap {
    link: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHistory {
    enabled: Option<bool>,
    max_commits: Option<Spanned<usize>>,
    max_days: Option<Spanned<u32>>,
    churn_days: Option<Spanned<u32>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSecrets {
    patterns: Option<Spanned<Vec<String>>>,
    allow: Option<Spanned<Vec<String>>>,
}

/// A configuration error, already worded for the user: `.repochart.toml:LINE: key: reason`.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

impl Config {
    /// Reads `<root>/.repochart.toml`, else `<root>/.codeatlas.toml` (with a notice on
    /// stderr, once a process); defaults when there is neither.
    pub fn load(root: &Path) -> Result<Config, ConfigError> {
        for file in [CONFIG_FILE, LEGACY_CONFIG_FILE] {
            match std::fs::read_to_string(root.join(file)) {
                Ok(text) => {
                    if file == LEGACY_CONFIG_FILE {
                        static NOTICE: std::sync::Once = std::sync::Once::new();
                        NOTICE.call_once(|| {
                            tracing::warn!("reading {LEGACY_CONFIG_FILE}, the name of earlier versions: rename it to {CONFIG_FILE}")
                        });
                    }
                    return Config::parse_file(&text, file);
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(ConfigError(format!("{file}: cannot read: {e}"))),
            }
        }
        Ok(Config::default())
    }

    /// Parses the text of a `.repochart.toml`.
    pub fn parse(text: &str) -> Result<Config, ConfigError> {
        Config::parse_file(text, CONFIG_FILE)
    }

    /// Parses the text of the settings file `file` (named in the errors).
    fn parse_file(text: &str, file: &str) -> Result<Config, ConfigError> {
        let raw: Raw = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| line_of(text, s.start)).map(|l| format!("{l}: ")).unwrap_or_default();
            ConfigError(format!("{file}:{line}{}", e.message().trim_end()))
        })?;
        let err = |key: &str, span: std::ops::Range<usize>, msg: String| {
            ConfigError(format!("{file}:{}: {key}: {msg}", line_of(text, span.start)))
        };
        let globs = |key: &str, v: &Option<Spanned<Vec<String>>>| -> Result<Option<GlobSet>, ConfigError> {
            let Some(v) = v else { return Ok(None) };
            let mut set = GlobSetBuilder::new();
            for g in v.get_ref() {
                set.add(Glob::new(g).map_err(|e| err(key, v.span(), format!("bad glob {g:?}: {}", e.kind())))?);
            }
            set.build().map(Some).map_err(|e| err(key, v.span(), e.to_string()))
        };
        let include = globs("include", &raw.include)?;
        let exclude = globs("exclude", &raw.exclude)?;
        let languages = match &raw.languages {
            None => None,
            Some(v) => {
                let mut out = Vec::new();
                for l in v.get_ref() {
                    match Language::parse(l) {
                        Some(lang) => out.push(lang),
                        None => return Err(err("languages", v.span(), format!("unknown language {l:?}; languages: java, rust"))),
                    }
                }
                Some(out)
            }
        };
        let (mut secrets, mut allow) = (Vec::new(), None);
        if let Some(s) = &raw.secrets {
            if let Some(p) = &s.patterns {
                for g in p.get_ref() {
                    let glob = Glob::new(g).map_err(|e| err("secrets.patterns", p.span(), format!("bad glob {g:?}: {}", e.kind())))?;
                    secrets.push((g.clone(), glob.compile_matcher()));
                }
            }
            allow = globs("secrets.allow", &s.allow)?;
        }
        let max_file_size = match raw.max_file_size {
            Some(v) if *v.get_ref() == 0 => return Err(err("max_file_size", v.span(), "must be at least 1 byte".into())),
            Some(v) => v.into_inner(),
            None => DEFAULT_MAX_FILE_SIZE,
        };
        let debounce_ms = in_range(text, file, "debounce_ms", raw.debounce_ms, DEBOUNCE_RANGE, DEFAULT_DEBOUNCE_MS)?;
        let answer_budget = in_range(text, file, "answer_budget", raw.answer_budget, BUDGET_RANGE, DEFAULT_ANSWER_BUDGET)?;
        let d = HistoryConfig::default();
        let history = match raw.history {
            None => d,
            Some(h) => HistoryConfig {
                enabled: h.enabled.unwrap_or(true),
                max_commits: in_range(text, file, "history.max_commits", h.max_commits, (1, 10_000_000), d.max_commits)?,
                max_days: in_range(text, file, "history.max_days", h.max_days, (1, 36_500), d.max_days)?,
                churn_days: in_range(text, file, "history.churn_days", h.churn_days, (1, 36_500), d.churn_days)?,
            },
        };
        let map_link = match raw.map.and_then(|m| m.link) {
            Some(l) if !l.get_ref().contains("{path}") => {
                return Err(err("map.link", l.span(), "the template must contain {path} (and may contain {line} and {commit})".into()))
            }
            Some(l) => Some(l.into_inner()),
            None => None,
        };
        Ok(Config {
            filter: Arc::new(Filter { include, exclude, languages, secrets, allow }),
            max_file_size,
            debounce_ms,
            answer_budget,
            audit_log: raw.audit_log.unwrap_or(false),
            history,
            map_link,
        })
    }
}

/// A numeric key's value, its default when absent, or an error when outside `range`.
fn in_range<T: Copy + PartialOrd + std::fmt::Display>(
    text: &str,
    file: &str,
    key: &str,
    value: Option<Spanned<T>>,
    (low, high): (T, T),
    default: T,
) -> Result<T, ConfigError> {
    match value {
        None => Ok(default),
        Some(v) if (low..=high).contains(v.get_ref()) => Ok(v.into_inner()),
        Some(v) => {
            Err(ConfigError(format!("{file}:{}: {key}: {} is out of range {low}..={high}", line_of(text, v.span().start), v.get_ref())))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_when_empty() {
        let c = Config::parse("").unwrap();
        assert_eq!((c.max_file_size, c.debounce_ms, c.answer_budget, c.audit_log), (1024 * 1024, 50, 8_000, false));
        assert!(c.filter.keeps_path("anything/at/all.rs"));
        assert!(c.filter.keeps_language(Language::Java));
        assert_eq!(c.filter.extra_secret("src/Keys.java"), None);
    }

    #[test]
    fn every_key() {
        let c = Config::parse(
            r#"
include = ["src/**"]
exclude = ["**/generated/**"]
languages = ["java"]
max_file_size = 2000
debounce_ms = 200
answer_budget = 4000
audit_log = true

[secrets]
patterns = ["*.secret", "config/Keys.java"]
allow = ["testdata/**"]

[history]
max_commits = 500
max_days = 30
churn_days = 7
"#,
        )
        .unwrap();
        assert_eq!(c.history, HistoryConfig { enabled: true, max_commits: 500, max_days: 30, churn_days: 7 });
        assert!(!Config::parse("[history]\nenabled = false\n").unwrap().history.enabled);
        let link = "https://git.example/o/r/blob/{commit}/{path}#L{line}";
        assert_eq!(Config::parse(&format!("[map]\nlink = \"{link}\"\n")).unwrap().map_link.as_deref(), Some(link));
        assert_eq!((c.max_file_size, c.debounce_ms, c.answer_budget, c.audit_log), (2000, 200, 4000, true));
        assert!(c.filter.keeps_path("src/a/B.java"));
        assert!(!c.filter.keeps_path("lib/B.java"));
        assert!(!c.filter.keeps_path("src/generated/B.java"));
        assert!(c.filter.keeps_language(Language::Java));
        assert!(!c.filter.keeps_language(Language::Rust));
        assert_eq!(c.filter.extra_secret("deploy/prod.secret").as_deref(), Some("*.secret"));
        assert_eq!(c.filter.extra_secret("config/Keys.java").as_deref(), Some("config/Keys.java"));
        assert_eq!(c.filter.extra_secret("testdata/prod.secret"), None);
        assert!(c.filter.allowed("testdata/server.pem"));
    }

    #[test]
    fn errors_name_the_key_and_line() {
        let cases = [
            ("languages = [\"java\"]\nlanguage = [\"rust\"]\n", ".repochart.toml:2: unknown field `language`, expected one of `include`, `exclude`, `languages`, `max_file_size`, `debounce_ms`, `answer_budget`, `audit_log`, `secrets`, `history`, `map`"),
            ("[map]\nlink = \"https://x/{line}\"\n", ".repochart.toml:2: map.link: the template must contain {path} (and may contain {line} and {commit})"),
            ("[history]\nmax_commits = 0\n", ".repochart.toml:2: history.max_commits: 0 is out of range 1..=10000000"),
            ("\n\nlanguages = [\"go\"]\n", ".repochart.toml:3: languages: unknown language \"go\"; languages: java, rust"),
            ("exclude = [\"a/**\", \"b/[\"]\n", ".repochart.toml:1: exclude: bad glob \"b/[\": unclosed character class; missing ']'"),
            ("answer_budget = 10\n", ".repochart.toml:1: answer_budget: 10 is out of range 2000..=64000"),
            ("debounce_ms = 60000\n", ".repochart.toml:1: debounce_ms: 60000 is out of range 0..=10000"),
            ("max_file_size = 0\n", ".repochart.toml:1: max_file_size: must be at least 1 byte"),
            ("max_file_size = \"big\"\n", ".repochart.toml:1: invalid type: string \"big\", expected u64"),
            ("audit_log = 1\n", ".repochart.toml:1: invalid type: integer `1`, expected a boolean"),
            ("[secrets]\nallowed = []\n", ".repochart.toml:2: unknown field `allowed`, expected `patterns` or `allow`"),
            ("include = [\n", ".repochart.toml:1: unclosed array, expected `]`"),
        ];
        for (text, want) in cases {
            assert_eq!(Config::parse(text).unwrap_err().to_string(), want, "for {text:?}");
        }
    }

    #[test]
    fn the_old_name_is_read_when_the_new_one_is_absent() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(LEGACY_CONFIG_FILE), "debounce_ms = 300\n").unwrap();
        assert_eq!(Config::load(dir.path()).unwrap().debounce_ms, 300);
        std::fs::write(dir.path().join(LEGACY_CONFIG_FILE), "debounce_ms = 60000\n").unwrap();
        assert_eq!(Config::load(dir.path()).unwrap_err().to_string(), ".codeatlas.toml:1: debounce_ms: 60000 is out of range 0..=10000");
        std::fs::write(dir.path().join(CONFIG_FILE), "debounce_ms = 20\n").unwrap();
        assert_eq!(Config::load(dir.path()).unwrap().debounce_ms, 20, "the new name wins");
    }
}
