//! The tools' argument types and their lean JSON schemas. Owns what a caller may pass;
//! must not know how a tool answers. Every byte here is context in every conversation:
//! `offset` is described only where it means more than "items to skip" (the overview's
//! lists), and a closed set of values is an `enum` the schema names.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OverviewArgs {
    /// Path prefix
    pub path: Option<String>,
    /// Items per list (default 10)
    pub limit: Option<u32>,
    /// Skip per list
    pub offset: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GraphArgs {
    /// Symbol, file path or module
    pub target: String,
    /// symbol (default), file, module, unit, service
    pub level: Option<String>,
    /// both (default), out or in
    pub direction: Option<String>,
    /// 1-5 (default 1)
    pub depth: Option<u32>,
    /// Rows (default: ~1,500 bytes)
    pub limit: Option<u32>,
    pub offset: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PathArgs {
    /// Symbol, file path or module
    pub from: String,
    /// Symbol, file path or module
    pub to: String,
    /// symbol (default), file, module, unit, service
    pub level: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImpactArgs {
    /// Symbol, file, module; or git:working-tree, git:<rev>
    pub target: String,
    /// 1-10 (default 3)
    pub depth: Option<u32>,
    /// symbol (default), file, module, unit, service
    pub level: Option<String>,
    /// Rows (default: ~1,500 bytes)
    pub limit: Option<u32>,
    pub offset: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArgs {
    /// Name, qualified name, URL, or a task sentence
    pub query: Option<String>,
    /// Without query, lists all of it
    #[serde(default)]
    #[schemars(schema_with = "symbol_kind_schema")]
    pub kind: Option<String>,
    /// java or rust
    pub language: Option<String>,
    /// Path prefix
    pub path: Option<String>,
    /// Default 20
    pub limit: Option<u32>,
    pub offset: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SymbolArgs {
    /// Qualified name, simple name or path:line
    pub symbol: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImplArgs {
    /// Type or method
    pub symbol: String,
    /// Include indirect ones
    pub transitive: Option<bool>,
    /// Default 50
    pub limit: Option<u32>,
    pub offset: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RefsArgs {
    /// Qualified name, simple name or path:line
    pub symbol: String,
    /// all (default), call, type, field or import
    pub kind: Option<String>,
    /// Default 50
    pub limit: Option<u32>,
    pub offset: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutlineArgs {
    /// Repo-relative path
    pub path: String,
    /// Default 200
    pub limit: Option<u32>,
    pub offset: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadArgs {
    /// Repo-relative path
    pub path: String,
    /// 1-based
    pub start_line: u32,
    /// Inclusive
    pub end_line: u32,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadSymbolArgs {
    /// Qualified name, simple name or path:line
    pub symbol: String,
    /// Lines around it (default 0)
    pub context_lines: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TextArgs {
    /// Text, or a regex if regex is true
    pub query: String,
    /// Query is a regex
    pub regex: Option<bool>,
    /// Path prefix
    pub path: Option<String>,
    /// Default false
    pub case_sensitive: Option<bool>,
    /// Default 50
    pub limit: Option<u32>,
    pub offset: Option<u32>,
}

/// `search_symbols`'s `kind`: every kind of symbol the index holds, named in the schema
/// itself (an `enum`), so a client sees `endpoint`, `config_key` and `statement` without
/// first making a call that fails.
fn symbol_kind_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let kinds: Vec<&str> = crate::model::SymbolKind::all().map(|k| k.as_str()).collect();
    schemars::json_schema!({ "type": "string", "enum": kinds })
}

/// The JSON schema of an argument type, without the noise clients pay for in every
/// conversation (`$schema`, titles, integer formats, `null` alternatives).
pub fn lean_schema<T: JsonSchema>() -> serde_json::Map<String, Value> {
    let schema = schemars::schema_for!(T);
    let mut value = serde_json::to_value(schema).unwrap_or(Value::Null);
    strip(&mut value);
    match value {
        Value::Object(map) => map,
        _ => serde_json::Map::new(),
    }
}

pub(super) fn strip(value: &mut Value) {
    if let Value::Object(map) = value {
        for key in ["$schema", "title", "format", "minimum", "default", "additionalProperties"] {
            map.remove(key);
        }
        if let Some(Value::Array(types)) = map.get("type") {
            let non_null: Vec<Value> = types.iter().filter(|t| t.as_str() != Some("null")).cloned().collect();
            if non_null.len() == 1 {
                map.insert("type".into(), non_null[0].clone());
            }
        }
        for v in map.values_mut() {
            strip(v);
        }
    } else if let Value::Array(items) = value {
        for v in items {
            strip(v);
        }
    }
}
