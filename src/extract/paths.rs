//! Names and paths as written: white space, generic arguments, references, `mut`, `dyn`
//! and qualified-path brackets dropped (`normalize_path`); `Self` replaced; scopes joined;
//! the standard library's paths recognised.
//!
//! Plain functions over text. They must not look at a tree or do IO.

pub(super) fn join(scope: &str, sep: &str, name: &str) -> String {
    if scope.is_empty() {
        name.to_string()
    } else {
        format!("{scope}{sep}{name}")
    }
}

/// A path into the standard library as written (`std::io::Error`): no repository type.
pub(super) fn std_path(path: &str) -> bool {
    ["std::", "core::", "alloc::"].iter().any(|p| path.starts_with(p))
}

pub(super) fn strip_space(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// A path as written, without white space, generic arguments or turbofish.
pub(super) fn normalize_path(text: &str) -> String {
    // Most paths are plain names (`List`, `java.util.Map`, `crate::a::B`): nothing to drop.
    let plain = text.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'$'))
        && (!text.contains(':') || (!text.ends_with("::") && !text.contains("::::")))
        && !text.strip_prefix("dyn").is_some_and(|rest| rest.starts_with(char::is_uppercase));
    if plain {
        return text.to_string();
    }
    // A qualified path: `<T as Trait>::m` names the trait's item (its impl for `T` is
    // reached through dispatch); `<T>::m` names `T::m`.
    if let Some(rest) = text.trim_start().strip_prefix('<') {
        let mut depth = 1;
        let end = rest.char_indices().find_map(|(i, c)| {
            match c {
                '<' => depth += 1,
                '>' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(i)
        });
        if let Some(end) = end {
            let inner = &rest[..end];
            let owner = inner.rsplit_once(" as ").map_or(inner, |(_, tr)| tr);
            return normalize_path(&format!("{}{}", owner.trim(), &rest[end + 1..]));
        }
    }
    // `&mut T`, `*mut T`: the keyword goes (but not the start of `mutex`).
    let owned;
    let text = if text.contains("mut") {
        owned = text
            .split_whitespace()
            .map(|t| match t.strip_suffix("mut") {
                Some(prefix) if prefix.chars().all(|c| c == '&' || c == '*') => prefix,
                _ => t,
            })
            .collect::<Vec<_>>()
            .join(" ");
        owned.as_str()
    } else {
        text
    };
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            _ if depth > 0 || c.is_whitespace() => {}
            '&' | '[' | ']' | '\'' => {}
            _ => out.push(c),
        }
    }
    let out = out.replace("::::", "::");
    let out = out.trim_end_matches("::").to_string();
    out.strip_prefix("dyn").filter(|rest| rest.starts_with(char::is_uppercase)).map(str::to_string).unwrap_or(out)
}

pub(super) fn replace_self(name: &str, replacement: &str) -> String {
    if name == "Self" {
        replacement.to_string()
    } else if let Some(rest) = name.strip_prefix("Self::") {
        format!("{replacement}::{rest}")
    } else {
        name.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::normalize_path;

    #[test]
    fn paths_lose_generics_references_and_mut_but_not_names_starting_with_mut() {
        assert_eq!(normalize_path("&mut Vec<u8>"), "Vec");
        assert_eq!(normalize_path("mutex"), "mutex");
        assert_eq!(normalize_path("mutable_state"), "mutable_state");
        assert_eq!(normalize_path("dyn Store"), "Store");
        assert_eq!(normalize_path("dynamo"), "dynamo");
    }
}
