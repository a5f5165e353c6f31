//! MyBatis mapper XML: each statement (`<select id="...">` and the like) with its mapper
//! interface (`<mapper namespace>`), lines, the fragments it includes (`<include refid>`,
//! resolved within the file or by `namespace.id`), and the Java types the file names
//! (`resultType`, `parameterType`, `resultMap type`). The element and attribute names are
//! data (`grammars/frameworks/mybatis.toml`); XML is read with `roxmltree`.
//!
//! Owns the reading of mapper files. It must not touch the store: the tools read the
//! files the walk admits when a mapper method is asked for.

use std::sync::OnceLock;

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Rules {
    root: String,
    namespace: String,
    statements: Vec<String>,
    fragments: Vec<String>,
    include: String,
    include_ref: String,
    type_attributes: Vec<String>,
    session_methods: Vec<String>,
    session_types: Vec<String>,
    session_getters: Vec<String>,
    session_marker: String,
}

/// Whether a call runs a statement by its id: a session method (`selectList`) on a receiver
/// whose type is a session (`SqlSession`), or what a session getter returns. The marker it
/// leaves on the calling method (`SqlSession`).
pub fn session_call(method: &str, receiver_type: &str) -> Option<&'static str> {
    let r = rules();
    super::names_by_string(method, receiver_type, (&r.session_methods, &r.session_types, &r.session_getters))
        .then_some(r.session_marker.as_str())
}

/// The marker a session call leaves on its caller (`SqlSession`).
pub fn session_marker() -> &'static str {
    &rules().session_marker
}

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| toml::from_str(super::rules_source("mybatis.toml")).expect("grammars/frameworks/mybatis.toml is valid"))
}

/// One statement or fragment of a mapper file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// The mapper interface, fully qualified.
    pub namespace: String,
    pub id: String,
    /// `select`, `insert`, ..., or `sql` for a fragment.
    pub kind: String,
    pub file: String,
    pub start_line: u32,
    pub end_line: u32,
    /// The `refid`s it includes, as written.
    pub includes: Vec<String>,
    /// The tables its SQL names (after `from`, `join`, `into`, `update`), lower case, in
    /// order of first mention.
    pub tables: Vec<String>,
}

impl Statement {
    /// The id code runs it by (`sqlSession.selectList("com.acme.OrderMapper.list")`).
    pub fn string_id(&self) -> String {
        format!("{}.{}", self.namespace, self.id)
    }
}

/// The tables a statement's SQL text names: the word after `from`, `join`, `into` and
/// `update` (and after each comma of a `from` list), without quotes or schema, lower case.
/// Dynamic parts (`${table}`, `#{id}`) and subqueries are no tables.
pub fn tables(sql: &str) -> Vec<String> {
    let words: Vec<String> = sql
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .filter(|w| !w.is_empty())
        .flat_map(|w| {
            // `a,b` and `a,` split, the comma kept as a word of its own.
            let mut parts = Vec::new();
            for (i, p) in w.split(',').enumerate() {
                if i > 0 {
                    parts.push(",".to_string());
                }
                if !p.is_empty() {
                    parts.push(p.to_string());
                }
            }
            parts
        })
        .collect();
    let mut out: Vec<String> = Vec::new();
    let mut in_from = false;
    let mut i = 0;
    while i < words.len() {
        let w = words[i].to_ascii_lowercase();
        let takes = matches!(w.as_str(), "from" | "join" | "into" | "update") || (in_from && w == ",");
        if matches!(w.as_str(), "where" | "on" | "set" | "values" | "select" | "group" | "order" | "limit" | "union") {
            in_from = false;
        }
        if w == "from" {
            in_from = true;
        }
        if takes {
            if let Some(next) = words.get(i + 1) {
                let name = next.trim_matches(|c| c == '`' || c == '"' || c == '\'' || c == '[' || c == ']');
                let name = name.rsplit('.').next().unwrap_or(name).to_ascii_lowercase();
                let keyword = matches!(name.as_str(), "select" | "dual" | "," | "");
                if !keyword && !name.contains(['$', '#', '{', '<', '=']) && !out.contains(&name) {
                    out.push(name);
                }
            }
        }
        i += 1;
    }
    out
}

/// What one mapper file holds.
#[derive(Clone, Debug, Default)]
pub struct MapperFile {
    pub statements: Vec<Statement>,
    /// (type, line) of each Java type an attribute names.
    pub types: Vec<(String, u32)>,
    /// `line: error` when the file is no well-formed XML.
    pub error: Option<(u32, String)>,
}

/// Whether a text looks like a mapper file (cheap, before parsing).
pub fn is_mapper(path: &str, text: &str) -> bool {
    path.ends_with(".xml") && text.contains(&format!("<{}", rules().root)) && text.contains(&rules().namespace)
}

fn line_of(text: &str, byte: usize) -> u32 {
    crate::text::line_of(text, byte) as u32
}

/// Reads one mapper file.
pub fn read(path: &str, text: &str) -> MapperFile {
    let r = rules();
    let mut out = MapperFile::default();
    // Mapper files carry a DOCTYPE; roxmltree reads it when allowed.
    let options = roxmltree::ParsingOptions { allow_dtd: true, ..Default::default() };
    let doc = match roxmltree::Document::parse_with_options(text, options) {
        Ok(d) => d,
        Err(e) => {
            out.error = Some((e.pos().row, e.to_string()));
            return out;
        }
    };
    let root = doc.root_element();
    if root.tag_name().name() != r.root {
        return out;
    }
    let namespace = root.attribute(r.namespace.as_str()).unwrap_or("").to_string();
    for node in root.descendants().filter(|n| n.is_element()) {
        for attr in &r.type_attributes {
            if let Some(t) = node.attribute(attr.as_str()) {
                out.types.push((t.to_string(), line_of(text, node.range().start)));
            }
        }
    }
    for node in root.children().filter(|n| n.is_element()) {
        let kind = node.tag_name().name();
        if !r.statements.iter().chain(&r.fragments).any(|s| s == kind) {
            continue;
        }
        let Some(id) = node.attribute("id") else { continue };
        let range = node.range();
        let includes = node
            .descendants()
            .filter(|n| n.is_element() && n.tag_name().name() == r.include)
            .filter_map(|n| n.attribute(r.include_ref.as_str()).map(str::to_string))
            .collect();
        let sql: Vec<&str> = node.descendants().filter(|n| n.is_text()).filter_map(|n| n.text()).collect();
        out.statements.push(Statement {
            namespace: namespace.clone(),
            id: id.to_string(),
            kind: kind.to_string(),
            file: path.to_string(),
            start_line: line_of(text, range.start),
            end_line: line_of(text, range.end.saturating_sub(1)),
            includes,
            tables: tables(&sql.join(" ")),
        });
    }
    out
}

/// The fragment a `refid` names: in the statement's own file by id, or `namespace.id`.
pub fn fragment<'a>(all: &'a [Statement], from: &Statement, refid: &str) -> Option<&'a Statement> {
    let is_fragment = |s: &&Statement| rules().fragments.contains(&s.kind);
    all.iter().filter(is_fragment).find(|s| s.namespace == from.namespace && s.id == refid).or_else(|| {
        let (ns, id) = refid.rsplit_once('.')?;
        all.iter().filter(is_fragment).find(|s| s.namespace == ns && s.id == id)
    })
}

/// Whether a statement is a fragment (`<sql>`), which no method runs by itself.
pub fn is_fragment(s: &Statement) -> bool {
    rules().fragments.contains(&s.kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_the_words_after_from_join_into_and_update() {
        assert_eq!(
            tables("select a.id, b.name from `oms_order` a left join oms_order_item b on a.id = b.order_id where x in (select id from pms_sku)"),
            ["oms_order", "oms_order_item", "pms_sku"]
        );
        assert_eq!(
            tables("SELECT p.* FROM pms_product p, pms_sku_stock s WHERE p.id = s.product_id AND s.sku_code = #{code}"),
            ["pms_product", "pms_sku_stock"]
        );
        assert_eq!(tables("insert into db.ums_admin (id) values (#{id})"), ["ums_admin"]);
        assert_eq!(tables("UPDATE pms_product SET name = #{name}"), ["pms_product"]);
        assert_eq!(tables("delete from ${table} where id = #{id}"), Vec::<String>::new());
    }

    #[test]
    fn statements_fragments_includes_and_types() {
        let text = r#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE mapper PUBLIC "-//mybatis.org//DTD Mapper 3.0//EN" "http://mybatis.org/dtd/mybatis-3-mapper.dtd">
<mapper namespace="com.shop.OrderMapper">
  <resultMap id="Base" type="com.shop.Order">
    <id column="id" property="id"/>
  </resultMap>
  <sql id="Cols">id, item</sql>
  <select id="selectById" resultMap="Base" parameterType="java.lang.Long">
    select <include refid="Cols"/> from orders
    where id = #{id}
  </select>
</mapper>
"#;
        let f = read("OrderMapper.xml", text);
        assert_eq!(f.error, None);
        let rows: Vec<String> = f
            .statements
            .iter()
            .map(|s| format!("{} {}#{} {}-{} {:?}", s.kind, s.namespace, s.id, s.start_line, s.end_line, s.includes))
            .collect();
        assert_eq!(rows, ["sql com.shop.OrderMapper#Cols 7-7 []", "select com.shop.OrderMapper#selectById 8-11 [\"Cols\"]"]);
        assert_eq!(f.types, [("com.shop.Order".to_string(), 4), ("java.lang.Long".to_string(), 8)]);
        assert_eq!(fragment(&f.statements, &f.statements[1], "Cols").map(|s| s.start_line), Some(7));
        let broken = read("x.xml", "<mapper namespace=\"a\">\n<select id=\"s\">\n</mapper>\n");
        assert_eq!(broken.error.map(|e| e.0), Some(3));
    }
}
