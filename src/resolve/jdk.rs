//! The JDK's public types and their direct supertypes, as data
//! (`grammars/java/jdk-types.txt`, written by `grammars/java/JdkTypes.java` from a JDK's own
//! classes): what overload resolution knows of argument and parameter types from the JDK
//! when the repository is not the JDK (`close(out)`, `out` a `FileOutputStream`, takes
//! `close(Closeable)` over `close(AutoCloseable)`).
//!
//! Owns reading the table and the subtype closure over it. It must not touch the world or
//! the store.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::lang::JDK_TYPES as SOURCE;

pub struct JdkTypes {
    /// Canonical name -> its direct supertypes (`java.lang.Object` left out).
    supers: HashMap<&'static str, Vec<&'static str>>,
}

pub fn table() -> &'static JdkTypes {
    static TABLE: OnceLock<JdkTypes> = OnceLock::new();
    TABLE.get_or_init(|| JdkTypes::parse(SOURCE))
}

impl JdkTypes {
    fn parse(text: &'static str) -> JdkTypes {
        let mut supers = HashMap::new();
        for line in text.lines() {
            let mut words = line.split(' ');
            let (Some(name), Some(_kind)) = (words.next(), words.next()) else { continue };
            supers.insert(name, words.collect());
        }
        JdkTypes { supers }
    }

    pub fn knows(&self, qualified: &str) -> bool {
        qualified == "java.lang.Object" || self.supers.contains_key(qualified)
    }

    /// The `java.lang` type of a simple name (`String`), when the table has it.
    pub fn java_lang(&self, simple: &str) -> Option<String> {
        let q = format!("java.lang.{simple}");
        self.knows(&q).then_some(q)
    }

    /// Whether `t` is `of` or one of its subtypes (every type is an `Object`).
    pub fn is_subtype(&self, t: &str, of: &str) -> bool {
        if t == of || of == "java.lang.Object" {
            return true;
        }
        let mut stack = vec![t];
        let mut seen = vec![t];
        while let Some(x) = stack.pop() {
            for s in self.supers.get(x).map(Vec::as_slice).unwrap_or(&[]) {
                if *s == of {
                    return true;
                }
                if !seen.contains(s) {
                    seen.push(s);
                    stack.push(s);
                }
            }
        }
        false
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.supers.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_the_jdk_hierarchy() {
        let t = table();
        assert!(t.len() > 4_000, "{}", t.len());
        assert!(t.is_subtype("java.io.FileOutputStream", "java.io.Closeable"));
        assert!(t.is_subtype("java.io.FileOutputStream", "java.lang.AutoCloseable"));
        assert!(t.is_subtype("java.io.Closeable", "java.lang.AutoCloseable"));
        assert!(!t.is_subtype("java.lang.AutoCloseable", "java.io.Closeable"));
        assert!(t.is_subtype("java.util.ArrayList", "java.util.Collection"));
        assert!(t.is_subtype("java.lang.IllegalArgumentException", "java.lang.RuntimeException"));
        assert!(!t.is_subtype("java.io.IOException", "java.lang.RuntimeException"));
        assert!(t.is_subtype("java.util.Map.Entry", "java.lang.Object"));
        assert_eq!(t.java_lang("StringBuilder").as_deref(), Some("java.lang.StringBuilder"));
        assert_eq!(t.java_lang("Order"), None);
    }
}
