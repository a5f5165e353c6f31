//! Spring configuration files as keys: `application*.yml|yaml|properties` and
//! `bootstrap*` flattened to `a.b.c` keys (list items as `a.b[0]`), each with its value,
//! profile (from the file name, `application-prod.yml`, or a YAML document's
//! `spring.config.activate.on-profile` / `spring.profiles`), file and line; values that look
//! like secrets redacted. YAML is read with `yaml-rust2` (its event parser gives each
//! scalar's line), properties with `java-properties` (continuations, escapes, `:` and `=`).
//! A file that does not parse gives the keys before the error and the error (file, line).
//!
//! Owns the reading of configuration files. It must not touch the store: the tools read the
//! files the walk admits when a key is asked for.

use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;

/// One key as one file sets it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    pub key: String,
    /// `<redacted>` when the key or value looks like a secret.
    pub value: String,
    /// `default` when no profile applies.
    pub profile: String,
    pub file: String,
    pub line: u32,
}

/// A configuration file that did not parse (the keys before the error are kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub file: String,
    pub line: u32,
    pub message: String,
}

/// Whether a path is a Spring configuration file, and its profile from the name.
pub fn config_file(path: &str) -> Option<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let (stem, ext) = name.rsplit_once('.')?;
    if !matches!(ext, "yml" | "yaml" | "properties") {
        return None;
    }
    for base in ["application", "bootstrap"] {
        if stem == base {
            return Some("default".to_string());
        }
        if let Some(profile) = stem.strip_prefix(base).and_then(|r| r.strip_prefix('-')) {
            return (!profile.is_empty()).then(|| profile.to_string());
        }
    }
    None
}

/// The last words of a key's last segment that make its value a secret
/// (`spring.datasource.password`, `jwt.signing-key`, `aws.secretAccessKey`), one word or two.
const SECRET_LAST_WORDS: &[&[&str]] = &[
    &["password"],
    &["passwd"],
    &["pwd"],
    &["passphrase"],
    &["secret"],
    &["secrets"],
    &["credential"],
    &["credentials"],
    &["privatekey"],
    &["apikey"],
    &["accesskey"],
    &["private", "key"],
    &["api", "key"],
    &["access", "key"],
    &["secret", "key"],
    &["signing", "key"],
    &["encryption", "key"],
    &["master", "key"],
];

/// A key whose value is a secret only when the value is no number, duration or boolean
/// (`auth.token` is; `auth.token-validity-seconds: 14400` is not, by its last words either).
const TOKEN_LAST_WORDS: &[&str] = &["token", "tokens"];

/// The words of a key's last segment, lower case: split at `-`, `_` and camelCase humps
/// (`secretAccessKey` -> secret access key).
fn last_words(key: &str) -> Vec<String> {
    let segment = key.rsplit('.').next().unwrap_or(key);
    let segment = segment.split('[').next().unwrap_or(segment);
    let mut words: Vec<String> = Vec::new();
    for part in segment.split(['-', '_']).filter(|p| !p.is_empty()) {
        let mut word = String::new();
        let mut previous_lower = false;
        for c in part.chars() {
            if c.is_uppercase() && previous_lower && !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            previous_lower = c.is_lowercase() || c.is_ascii_digit();
            word.extend(c.to_lowercase());
        }
        if !word.is_empty() {
            words.push(word);
        }
    }
    words
}

/// A number, a duration (`30s`, `PT1H`, `500ms`, `10m`) or a boolean: no secret.
fn plain_value(value: &str) -> bool {
    let v = value.trim().to_ascii_lowercase();
    if matches!(v.as_str(), "true" | "false" | "yes" | "no" | "on" | "off") || v.parse::<f64>().is_ok() {
        return true;
    }
    if let Some(iso) = v.strip_prefix("pt").or_else(|| v.strip_prefix('p')) {
        return !iso.is_empty() && iso.chars().all(|c| c.is_ascii_digit() || matches!(c, 'd' | 'h' | 'm' | 's' | 't' | '.'));
    }
    let digits = v.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = &v[digits.len()..];
    !digits.is_empty() && digits.parse::<f64>().is_ok() && matches!(unit, "ns" | "us" | "ms" | "s" | "m" | "h" | "d" | "w" | "y")
}

/// A value that looks like a key or password whatever its key is called: a long run of
/// letters and digits (base64, hex) with no spaces, dots or URL syntax, mixing both.
fn looks_random(value: &str) -> bool {
    let v = value.trim();
    if v.len() < 32 || !v.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=' | '_' | '-')) {
        return false;
    }
    let letters = v.chars().filter(|c| c.is_ascii_alphabetic()).count();
    let digits = v.chars().filter(|c| c.is_ascii_digit()).count();
    let mut seen = [false; 128];
    v.bytes().for_each(|b| seen[b as usize] = true);
    letters > 0 && digits > 0 && seen.iter().filter(|s| **s).count() >= 12
}

/// Whether a key's value is a secret: by the key's last words, or by the value's look.
pub fn is_secret(key: &str, value: &str) -> bool {
    let words = last_words(key);
    let ends_with = |tail: &[&str]| words.len() >= tail.len() && words[words.len() - tail.len()..].iter().zip(tail).all(|(w, t)| w == t);
    SECRET_LAST_WORDS.iter().any(|tail| ends_with(tail))
        || (TOKEN_LAST_WORDS.iter().any(|t| ends_with(&[t])) && !plain_value(value))
        || looks_random(value)
}

fn redact(key: &str, value: &str) -> String {
    // A placeholder is no secret (`${DB_PASSWORD}`), but its default may be one
    // (`${MYSQL_PASS:petclinic}`).
    if let Some(inner) = value.strip_prefix("${").and_then(|r| r.strip_suffix('}')) {
        return match inner.split_once(':') {
            Some((name, default)) if !default.is_empty() && is_secret(key, default) => format!("${{{name}:<redacted>}}"),
            _ => value.to_string(),
        };
    }
    if !value.is_empty() && is_secret(key, value) {
        return "<redacted>".to_string();
    }
    redact_in_url(value)
}

/// A password written inside a URL: its user info (`redis://user:pw@host`) and a
/// `password=` parameter (`jdbc:mysql://h/db?user=u&password=pw`).
fn redact_in_url(value: &str) -> String {
    let mut out = value.to_string();
    if let Some(scheme_end) = out.find("://") {
        let rest = &out[scheme_end + 3..];
        let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        if let Some(at) = rest[..authority_end].rfind('@') {
            if let Some(colon) = rest[..at].find(':') {
                let (from, to) = (scheme_end + 3 + colon + 1, scheme_end + 3 + at);
                if from < to {
                    out.replace_range(from..to, "<redacted>");
                }
            }
        }
    }
    let lower = out.to_ascii_lowercase();
    if let Some(at) = ["password=", "pwd=", "passwd="].iter().filter_map(|p| lower.find(p).map(|i| i + p.len())).min() {
        let end = out[at..].find(['&', ';']).map_or(out.len(), |e| at + e);
        if at < end {
            out.replace_range(at..end, "<redacted>");
        }
    }
    out
}

/// The keys a configuration file sets.
pub fn read(path: &str, text: &str) -> (Vec<Setting>, Option<ConfigError>) {
    let profile = config_file(path).unwrap_or_else(|| "default".to_string());
    if path.ends_with(".properties") {
        return read_properties(path, text, &profile);
    }
    read_yaml(path, text, &profile)
}

fn read_properties(path: &str, text: &str, profile: &str) -> (Vec<Setting>, Option<ConfigError>) {
    let mut out = Vec::new();
    for line in java_properties::PropertiesIter::new(text.as_bytes()) {
        match line {
            Ok(line) => {
                let number = line.line_number() as u32;
                if let java_properties::LineContent::KVPair(k, v) = line.consume_content() {
                    out.push(Setting { value: redact(&k, &v), key: k, profile: profile.to_string(), file: path.to_string(), line: number });
                }
            }
            Err(e) => {
                let error = ConfigError { file: path.to_string(), line: e.line_number().unwrap_or(0) as u32, message: e.to_string() };
                return (out, Some(error));
            }
        }
    }
    (out, None)
}

enum Frame {
    Map { prefix: String, key: Option<(String, u32)> },
    Seq { prefix: String, index: usize },
}

struct Flattener {
    stack: Vec<Frame>,
    /// This document's settings, given their profile at its end.
    document: Vec<(String, String, u32)>,
    out: Vec<(String, String, u32, Option<String>)>,
}

impl Flattener {
    /// The key of the next value in the innermost frame (and the frame moves on).
    fn next_path(&mut self) -> Option<(String, u32)> {
        match self.stack.last_mut()? {
            Frame::Map { key, .. } => key.take(),
            Frame::Seq { prefix, index } => {
                let path = format!("{prefix}[{index}]");
                *index += 1;
                Some((path, 0))
            }
        }
    }
}

impl MarkedEventReceiver for Flattener {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        let line = mark.line() as u32;
        match ev {
            Event::DocumentStart => {
                self.stack.clear();
                self.document.clear();
            }
            Event::DocumentEnd => {
                let profile = self
                    .document
                    .iter()
                    .find(|(k, _, _)| k == "spring.config.activate.on-profile" || k == "spring.profiles")
                    .map(|(_, v, _)| v.clone());
                for (k, v, l) in self.document.drain(..) {
                    self.out.push((k, v, l, profile.clone()));
                }
            }
            Event::Scalar(value, ..) => match self.stack.last_mut() {
                Some(Frame::Map { prefix, key }) if key.is_none() => {
                    let full = if prefix.is_empty() { value } else { format!("{prefix}.{value}") };
                    *key = Some((full, line));
                }
                Some(_) => {
                    if let Some((path, key_line)) = self.next_path() {
                        self.document.push((path, value, if key_line == 0 { line } else { key_line }));
                    }
                }
                None => {}
            },
            Event::MappingStart(..) => {
                let prefix = match self.stack.is_empty() {
                    true => String::new(),
                    false => self.next_path().map(|(p, _)| p).unwrap_or_default(),
                };
                self.stack.push(Frame::Map { prefix, key: None });
            }
            Event::SequenceStart(..) => {
                let prefix = self.next_path().map(|(p, _)| p).unwrap_or_default();
                self.stack.push(Frame::Seq { prefix, index: 0 });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                self.stack.pop();
            }
            _ => {}
        }
    }
}

fn read_yaml(path: &str, text: &str, profile: &str) -> (Vec<Setting>, Option<ConfigError>) {
    let mut f = Flattener { stack: Vec::new(), document: Vec::new(), out: Vec::new() };
    let result = Parser::new_from_str(text).load(&mut f, true);
    let error = result.err().map(|e| ConfigError { file: path.to_string(), line: e.marker().line() as u32, message: e.info().to_string() });
    if error.is_some() {
        // The document cut short still counts as far as it went.
        let pending: Vec<_> = f.document.drain(..).collect();
        f.out.extend(pending.into_iter().map(|(k, v, l)| (k, v, l, None)));
    }
    let out = f
        .out
        .into_iter()
        .map(|(key, value, line, doc_profile)| Setting {
            value: redact(&key, &value),
            key,
            profile: doc_profile.unwrap_or_else(|| profile.to_string()),
            file: path.to_string(),
            line,
        })
        .collect();
    (out, error)
}

/// The keys a `@Value` expression reads and whether each has a default: `${a.b:x}` ->
/// (`a.b`, true); nested defaults (`${a:${b}}`) read both.
pub fn placeholder_keys(expr: &str) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = Vec::new();
    let mut rest = expr;
    while let Some(start) = rest.find("${") {
        rest = &rest[start + 2..];
        let end = rest.find([':', '}']).unwrap_or(rest.len());
        let key = rest[..end].trim();
        let has_default = rest[end..].starts_with(':');
        if !key.is_empty() && !out.iter().any(|(k, _)| k == key) {
            out.push((key.to_string(), has_default));
        }
        rest = &rest[end..];
    }
    out
}

/// A key as relaxed binding compares it: `order-timeout`, `orderTimeout`, `order_timeout`
/// and `ORDER_TIMEOUT` are one key.
pub fn relaxed(key: &str) -> String {
    key.chars().filter(|c| *c != '-' && *c != '_').flat_map(char::to_lowercase).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(settings: &[Setting]) -> Vec<String> {
        settings.iter().map(|s| format!("{}={} [{}] {}:{}", s.key, s.value, s.profile, s.file, s.line)).collect()
    }

    /// A value is secret by its key's last words, or by its look; `token` only when the
    /// value is no number, duration or boolean (issue 50).
    #[test]
    fn secrets_by_the_keys_last_words_or_the_values_look() {
        let shown = |key: &str, value: &str| redact(key, value);
        let cases = [
            ("spring.datasource.password", "hunter2"),
            ("spring.datasource.password", "${DB_PASSWORD}"),
            ("auth.token-validity-seconds", "14400"),
            ("auth.token", "eyJhbGciOiJIUzI1NiJ9"),
            ("auth.token", "3600"),
            ("app.refresh-token", "PT1H"),
            ("app.refresh-token", "true"),
            ("app.refresh-token", "30s"),
            ("jwt.signing-key", "abc"),
            ("aws.secretAccessKey", "abc"),
            ("aws.accessKeyId", "AKIDEXAMPLE"),
            ("app.api_key", "abc"),
            ("mail.credentials", "abc"),
            ("security.password-policy.min-length", "12"),
            ("secret.enabled", "true"),
            ("app.cache.enabled", "true"),
            ("app.client-id", "7f3c9a1e0b6d4e2f8a5c3b1d9e7f6a4c"),
            ("app.banner", "spring-boot-starter-data-jpa-and-lombok"),
            ("logging.pattern", "%d{yyyy-MM-dd HH:mm:ss} [%thread] %-5level %logger{36} - %msg%n"),
            ("spring.datasource.url", "jdbc:mysql://localhost:3306/shop?useSSL=false"),
            ("spring.datasource.password", "${MYSQL_PASS:petclinic}"),
            ("spring.redis.url", "redis://cache:s3cret@redis.internal:6379/0"),
            ("spring.datasource.url", "jdbc:mysql://db/shop?user=shop&password=hunter2&useSSL=false"),
        ];
        let shown: Vec<String> = cases.iter().map(|(k, v)| format!("{k}: {}", shown(k, v))).collect();
        assert_eq!(
            shown,
            [
                "spring.datasource.password: <redacted>",
                "spring.datasource.password: ${DB_PASSWORD}",
                "auth.token-validity-seconds: 14400",
                "auth.token: <redacted>",
                "auth.token: 3600",
                "app.refresh-token: PT1H",
                "app.refresh-token: true",
                "app.refresh-token: 30s",
                "jwt.signing-key: <redacted>",
                "aws.secretAccessKey: <redacted>",
                "aws.accessKeyId: AKIDEXAMPLE",
                "app.api_key: <redacted>",
                "mail.credentials: <redacted>",
                "security.password-policy.min-length: 12",
                "secret.enabled: true",
                "app.cache.enabled: true",
                "app.client-id: <redacted>",
                "app.banner: spring-boot-starter-data-jpa-and-lombok",
                "logging.pattern: %d{yyyy-MM-dd HH:mm:ss} [%thread] %-5level %logger{36} - %msg%n",
                "spring.datasource.url: jdbc:mysql://localhost:3306/shop?useSSL=false",
                "spring.datasource.password: ${MYSQL_PASS:<redacted>}",
                "spring.redis.url: redis://cache:<redacted>@redis.internal:6379/0",
                "spring.datasource.url: jdbc:mysql://db/shop?user=shop&password=<redacted>&useSSL=false",
            ]
        );
    }

    #[test]
    fn yaml_documents_lists_and_profiles() {
        let text = "server:\n  port: 8080\nredis:\n  key:\n    orderId: 'oms:orderId'\n  hosts:\n    - a\n    - b\ndb:\n  password: hunter2\n---\nspring:\n  config:\n    activate:\n      on-profile: prod\nserver:\n  port: 80\n";
        let (settings, error) = read("src/main/resources/application.yml", text);
        assert_eq!(error, None);
        assert_eq!(
            rows(&settings),
            [
                "server.port=8080 [default] src/main/resources/application.yml:2",
                "redis.key.orderId=oms:orderId [default] src/main/resources/application.yml:5",
                "redis.hosts[0]=a [default] src/main/resources/application.yml:7",
                "redis.hosts[1]=b [default] src/main/resources/application.yml:8",
                "db.password=<redacted> [default] src/main/resources/application.yml:10",
                "spring.config.activate.on-profile=prod [prod] src/main/resources/application.yml:15",
                "server.port=80 [prod] src/main/resources/application.yml:17",
            ]
        );
    }

    #[test]
    fn properties_profiles_from_the_name_and_errors() {
        let (settings, _) = read("application-dev.properties", "# c\nserver.port = 9090\nmsg=a \\\n  b\n");
        assert_eq!(rows(&settings), ["server.port=9090 [dev] application-dev.properties:2", "msg=a b [dev] application-dev.properties:3"]);
        let (settings, error) = read("application.yml", "a:\n  b: 1\n  c: [\n");
        assert_eq!(rows(&settings), ["a.b=1 [default] application.yml:2"]);
        assert_eq!(error.map(|e| e.line), Some(4));
        assert_eq!(config_file("src/application-prod.yaml").as_deref(), Some("prod"));
        assert_eq!(config_file("src/applications.yml"), None);
        assert_eq!(placeholder_keys("${redis.key.orderId}"), [("redis.key.orderId".to_string(), false)]);
        assert_eq!(placeholder_keys("${a.b:${c.d:7}}"), [("a.b".to_string(), true), ("c.d".to_string(), true)]);
        assert_eq!(relaxed("order-timeout"), relaxed("orderTimeout"));
    }
}
