//! Java's hooks in the extractor: `import` declarations as references (single-type,
//! on-demand, static), and the numeric promotion of argument types (JLS 5.6) that
//! overload resolution compares.
//!
//! Plain functions over text. It must not do IO or know Rust.

use super::*;

pub(super) fn java_import(text: &str, line: u32) -> Option<Reference> {
    let mut body = text.trim().strip_prefix("import")?.trim().trim_end_matches(';').trim().to_string();
    let is_static = body.starts_with("static ") || body.starts_with("static\t");
    if is_static {
        body = body["static".len()..].to_string();
    }
    let path = strip_space(&body);
    let glob = path.ends_with(".*");
    let path = path.trim_end_matches(".*").to_string();
    if path.is_empty() {
        return None;
    }
    let mut reference = Reference::new(RefKind::Imports, path, line, None);
    reference.glob = glob;
    reference.is_static = is_static;
    Some(reference)
}

pub(super) const NUMERIC: &[&str] = &["byte", "short", "char", "int", "long", "float", "double"];

/// A unary operand's type after promotion: `byte`, `short` and `char` become `int`.
pub(super) fn numeric(t: &str) -> String {
    match t {
        "byte" | "short" | "char" => "int".to_string(),
        t if NUMERIC.contains(&t) => t.to_string(),
        _ => "?".to_string(),
    }
}

/// Binary numeric promotion (JLS 5.6.2) of two operand types, `?` unless both are known
/// primitives (a boxed operand may be unboxed too).
pub(super) fn promote(a: &str, b: &str) -> String {
    let unbox = |t: &str| {
        match t {
            "Integer" => "int",
            "Long" => "long",
            "Double" => "double",
            "Float" => "float",
            "Short" => "short",
            "Byte" => "byte",
            "Character" => "char",
            t => t,
        }
        .to_string()
    };
    let (a, b) = (unbox(a), unbox(b));
    if a == "boolean" && b == "boolean" {
        return a;
    }
    let (Some(i), Some(j)) = (NUMERIC.iter().position(|n| *n == a), NUMERIC.iter().position(|n| *n == b)) else {
        return "?".to_string();
    };
    NUMERIC[i.max(j).max(3)].to_string()
}
