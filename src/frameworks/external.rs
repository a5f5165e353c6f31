//! External systems an application talks to (`grammars/frameworks/external-systems.toml`):
//! which configuration keys and values name a database, a cache, a broker or a store, and
//! which outside types the code talking to it uses. Plain matching on keys, values and
//! qualified names; the tools gather the settings and the type users.
//!
//! Owns the rules and their matching. It must not walk syntax trees nor touch the store.

use std::sync::OnceLock;

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    pub system: Vec<System>,
}

/// One kind of external system.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct System {
    pub name: String,
    pub kind: String,
    /// Keys naming it: equal to a file's key, or its last dot-separated parts.
    pub keys: Vec<String>,
    /// Value prefixes, when the keys are shared (JDBC URLs).
    #[serde(default)]
    pub schemes: Vec<String>,
    /// Outside types (qualified names) whose users talk to it.
    #[serde(default)]
    pub types: Vec<String>,
    /// Build dependencies (artifactId / module name) of its client or starter.
    #[serde(default)]
    pub artifacts: Vec<String>,
    /// Its client does nothing until a key names it (a JDBC driver, where a datasource URL
    /// picks the database): with no key, a declared client is listed as declared only, and
    /// code using its `types` (shared by every such database: `JdbcTemplate`) is not a use.
    #[serde(default)]
    pub needs_configuration: bool,
}

/// The artifacts of a system a build manifest declares (`<artifactId>x</artifactId>` in a
/// pom, `group:x:version` or `group:x` in a Gradle file), in the rules' order.
pub fn declared<'a>(system: &'a System, manifest: &str) -> Vec<&'a str> {
    // A pom's `<dependencyManagement>` sets versions; it declares no dependency.
    let mut text = manifest.to_string();
    while let Some(start) = text.find("<dependencyManagement>") {
        let end = text[start..].find("</dependencyManagement>").map_or(text.len(), |e| start + e + "</dependencyManagement>".len());
        text.replace_range(start..end, "");
    }
    let manifest = text.as_str();
    system
        .artifacts
        .iter()
        .filter(|a| {
            manifest.contains(&format!("<artifactId>{a}</artifactId>"))
                || [':', '"', '\''].iter().any(|end| manifest.contains(&format!(":{a}{end}")))
        })
        .map(String::as_str)
        .collect()
}

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| {
        toml::from_str(super::rules_source("external-systems.toml")).expect("grammars/frameworks/external-systems.toml is valid")
    })
}

/// Every system the rules know, in their order.
pub fn systems() -> &'static [System] {
    &rules().system
}

/// Whether a configuration key and its value name this system (`spring.datasource.url =
/// jdbc:mysql://db:3306/mall` names MySQL).
pub fn names(system: &System, key: &str, value: &str) -> bool {
    // By relaxed binding, as Spring reads keys (`alipay.gatewayUrl` is `alipay.gateway-url`).
    let key = super::config_keys::relaxed(key);
    let by_key = system.keys.iter().map(|k| super::config_keys::relaxed(k)).any(|k| key == k || key.ends_with(&format!(".{k}")));
    let value = defaulted(value).to_ascii_lowercase();
    by_key && (system.schemes.is_empty() || system.schemes.iter().any(|s| value.starts_with(s.as_str())))
}

/// A value as it is without its environment: `${MYSQL_URL:jdbc:mysql://localhost/db}` is
/// its default, `jdbc:mysql://localhost/db`; any other value as written.
fn defaulted(value: &str) -> &str {
    let v = value.trim();
    match v.strip_prefix("${").and_then(|r| r.strip_suffix('}')).and_then(|r| r.split_once(':')) {
        Some((name, default)) if !name.contains(['{', '}']) => default.trim(),
        _ => v,
    }
}

/// Where a value points, for a row: a URL's `host:port/database`, else the value, cut.
pub fn place(value: &str) -> String {
    let v = defaulted(value);
    let after = v.rsplit_once("://").map(|(_, a)| a).unwrap_or(v);
    let after = after.split(['?', ';']).next().unwrap_or(after);
    let mut out: String = after.chars().take(60).collect();
    if after.chars().count() > 60 {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_schemes_name_systems_and_urls_give_their_place() {
        let by = |key: &str, value: &str| systems().iter().filter(|s| names(s, key, value)).map(|s| s.name.as_str()).collect::<Vec<_>>();
        assert_eq!(by("spring.datasource.url", "jdbc:mysql://db:3306/mall?useSSL=false"), ["MySQL"]);
        assert_eq!(by("spring.datasource.druid.url", "jdbc:postgresql://pg/shop"), ["PostgreSQL"]);
        assert_eq!(by("spring.redis.host", "localhost"), ["Redis"]);
        // The default of a placeholder: what runs when the environment sets nothing.
        assert_eq!(by("spring.datasource.url", "${MYSQL_URL:jdbc:mysql://localhost/petclinic}"), ["MySQL"]);
        assert_eq!(place("${MYSQL_URL:jdbc:mysql://localhost/petclinic}"), "localhost/petclinic");
        assert_eq!(by("spring.data.redis.host", "cache"), ["Redis"]);
        assert_eq!(by("spring.rabbitmq.host", "mq"), ["RabbitMQ"]);
        assert!(by("spring.datasource.username", "root").is_empty());
        assert!(by("myredis.hostname", "x").is_empty());
        let redis = systems().iter().find(|s| s.name == "Redis").unwrap();
        assert_eq!(
            declared(redis, "<dependency><artifactId>spring-boot-starter-data-redis</artifactId></dependency>"),
            ["spring-boot-starter-data-redis"]
        );
        assert_eq!(declared(redis, "implementation 'org.redisson:redisson:3.27.0'"), ["redisson"]);
        assert_eq!(declared(redis, "implementation(\"redis.clients:jedis\")"), ["jedis"]);
        assert!(declared(redis, "<artifactId>jedis-mock</artifactId>").is_empty());
        let managed = "<dependencyManagement><dependencies><dependency><artifactId>jedis</artifactId></dependency></dependencies></dependencyManagement>";
        assert!(declared(redis, managed).is_empty());
        assert_eq!(place("jdbc:mysql://db:3306/mall?useSSL=false"), "db:3306/mall");
        assert_eq!(place("localhost"), "localhost");
    }
}
