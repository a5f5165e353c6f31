//! The JDK's public types, their direct supertypes, the types of their members and the
//! functional interfaces their methods take, as data (`grammars/java/jdk-types.txt`,
//! `jdk-members.txt` and `jdk-lambdas.txt`, written by
//! `grammars/java/JdkTypes.java` from a JDK's own classes): what the resolver knows of the
//! JDK when the repository is not the JDK. Overloads are chosen by JDK-typed arguments
//! (`close(out)`, `out` a `FileOutputStream`, takes `close(Closeable)` over
//! `close(AutoCloseable)`), and chains run through what JDK methods return
//! (`toDate(date.atTime(t))`: a `LocalDateTime` or an `OffsetDateTime`, so no `LocalDate`).
//!
//! Owns reading the tables, the subtype closure and member lookup through supertypes. It
//! must not touch the world or the store.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::lang::{JDK_LAMBDAS, JDK_MEMBERS, JDK_TYPES};

pub struct JdkTypes {
    /// Canonical name -> its direct supertypes (`java.lang.Object` left out).
    supers: HashMap<&'static str, Vec<&'static str>>,
    /// Canonical name -> member name (a field's with a leading `.`) -> the types its
    /// overloads give, space-separated. Read on first use: an index of the JDK itself
    /// rarely needs it.
    members: OnceLock<Members>,
    /// Canonical name -> `name/arity/index` (`new` for a constructor) -> the functional
    /// interfaces taken there, space-separated (`jdk-lambdas.txt`). Read on first use.
    lambdas: OnceLock<Members>,
    /// The packages (and types, for their member types) that hold the types.
    packages: std::collections::HashSet<&'static str>,
    /// The interfaces: what a lambda may be converted to.
    interfaces: std::collections::HashSet<&'static str>,
}

type Members = HashMap<&'static str, HashMap<&'static str, &'static str>>;

pub fn table() -> &'static JdkTypes {
    static TABLE: OnceLock<JdkTypes> = OnceLock::new();
    TABLE.get_or_init(|| JdkTypes::parse(JDK_TYPES))
}

fn parse_members(text: &'static str) -> Members {
    let mut members: Members = HashMap::new();
    let mut current: Option<&mut HashMap<&'static str, &'static str>> = None;
    for line in text.lines() {
        if let Some(owner) = line.strip_prefix('=') {
            current = Some(members.entry(owner).or_default());
        } else if let (Some(map), Some((name, types))) = (current.as_deref_mut(), line.split_once(' ')) {
            map.insert(name, types);
        }
    }
    members
}

impl JdkTypes {
    fn parse(types: &'static str) -> JdkTypes {
        let mut supers = HashMap::new();
        let mut interfaces = std::collections::HashSet::new();
        for line in types.lines() {
            let mut words = line.split(' ');
            let (Some(name), Some(kind)) = (words.next(), words.next()) else { continue };
            if kind == "i" {
                interfaces.insert(name);
            }
            supers.insert(name, words.collect());
        }
        let packages = supers.keys().filter_map(|q: &&'static str| q.rsplit_once('.').map(|(p, _)| p)).collect();
        JdkTypes { supers, members: OnceLock::new(), lambdas: OnceLock::new(), packages, interfaces }
    }

    /// Whether `package` is a JDK package (or a JDK type holding member types): the table
    /// has every public type there.
    pub fn has_package(&self, package: &str) -> bool {
        self.packages.contains(package)
    }

    /// Every member name the table has for `owner` and its supertypes (a field's without
    /// its dot): what a repository type inherits from it by name.
    pub fn member_names(&self, owner: &str) -> Vec<String> {
        let members = self.members.get_or_init(|| parse_members(JDK_MEMBERS));
        let mut out = Vec::new();
        let mut stack = vec![owner, "java.lang.Object"];
        let mut seen: Vec<&str> = Vec::new();
        while let Some(t) = stack.pop() {
            if seen.contains(&t) {
                continue;
            }
            seen.push(t);
            out.extend(members.get(t).into_iter().flat_map(|m| m.keys()).map(|k| k.trim_start_matches('.').to_string()));
            stack.extend(self.supers.get(t).map(Vec::as_slice).unwrap_or(&[]));
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The functional interface a lambda passed at `index` to `owner`'s `name` (`new`: a
    /// constructor, the owner's own) with `arity` arguments implements, looked up in the
    /// owner, then its supertypes nearest first. None when unknown, or when overloads of
    /// that arity take different ones there (`submit(Runnable)`, `submit(Callable)`).
    pub fn lambda_parameter(&self, owner: &str, name: &str, arity: usize, index: usize) -> Option<&'static str> {
        let lambdas = self.lambdas.get_or_init(|| parse_members(JDK_LAMBDAS));
        let key = format!("{name}/{arity}/{index}");
        let types = if name == "new" { lambdas.get(owner)?.get(key.as_str()).copied() } else { self.nearest(lambdas, owner, &key) }?;
        (!types.contains(' ')).then_some(types)
    }

    /// What `table` holds under `key` for `owner` or, failing that, for the nearest of its
    /// supertypes that has it (breadth first: an override hides what it overrides).
    fn nearest(&self, table: &Members, owner: &str, key: &str) -> Option<&'static str> {
        let mut queue = std::collections::VecDeque::from([owner]);
        let mut seen: Vec<&str> = vec![owner];
        while let Some(t) = queue.pop_front() {
            if let Some(found) = table.get(t).and_then(|m| m.get(key)) {
                return Some(found);
            }
            for s in self.supers.get(t).map(Vec::as_slice).unwrap_or(&[]) {
                if !seen.contains(s) {
                    seen.push(s);
                    queue.push_back(s);
                }
            }
        }
        None
    }

    /// `member_types` as owned names, empty when unknown.
    pub fn member_type_names(&self, owner: &str, name: &str, field: bool) -> Vec<String> {
        self.member_types(owner, name, field).map(|ts| ts.map(str::to_string).collect()).unwrap_or_default()
    }

    /// The types the JDK says a member of `owner` gives (a method's overloads of that name,
    /// or a field when `field`), looked up in `owner`, then its supertypes nearest first, then
    /// `Object`: the first that declares the name answers (an override's covariant return
    /// hides the overridden one's). Canonical names, primitives and arrays as Java writes
    /// them (`java.time.LocalDateTime`, `int`, `byte[]`). None when the table does not know
    /// the member, or its type depends on the receiver's type arguments.
    pub fn member_types(&self, owner: &str, name: &str, field: bool) -> Option<impl Iterator<Item = &'static str>> {
        let dotted;
        let key = if field {
            dotted = format!(".{name}");
            dotted.as_str()
        } else {
            name
        };
        let members = self.members.get_or_init(|| parse_members(JDK_MEMBERS));
        let types = self.nearest(members, owner, key).or_else(|| members.get("java.lang.Object")?.get(key).copied())?;
        (types != "?").then(|| types.split(' '))
    }

    /// A JDK type no lambda converts to: a class, an enum, a record, an annotation type
    /// (`java.lang.Object` included).
    pub fn is_not_interface(&self, qualified: &str) -> bool {
        self.knows(qualified) && !self.interfaces.contains(qualified)
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
        assert!(t.has_package("java.util") && t.has_package("java.util.Map") && t.has_package("javax.net.ssl"));
        assert!(!t.has_package("javax.servlet") && !t.has_package("java"));
    }

    #[test]
    fn lambdas_take_the_functional_interface_the_jdk_declares() {
        let t = table();
        // Declared; inherited from a supertype (`Iterable#forEach` for a `Set`); a constructor.
        assert_eq!(t.lambda_parameter("java.util.List", "sort", 1, 0), Some("java.util.Comparator"));
        assert_eq!(t.lambda_parameter("java.util.Set", "forEach", 1, 0), Some("java.util.function.Consumer"));
        assert_eq!(t.lambda_parameter("java.lang.Thread", "new", 1, 0), Some("java.lang.Runnable"));
        // Overloads that disagree; a parameter that takes none; a constructor is not inherited.
        assert_eq!(t.lambda_parameter("java.util.concurrent.ExecutorService", "submit", 1, 0), None);
        assert_eq!(t.lambda_parameter("java.util.List", "add", 1, 0), None);
        assert_eq!(t.lambda_parameter("java.util.concurrent.ForkJoinTask", "new", 0, 0), None);
        // What a type and its supertypes name, for a recheck when it becomes a supertype.
        let names = t.member_names("java.lang.RuntimeException");
        assert!(names.iter().any(|n| n == "getMessage") && names.iter().any(|n| n == "hashCode"), "{names:?}");
        assert!(t.is_not_interface("java.lang.Thread") && !t.is_not_interface("java.lang.Runnable"));
    }

    fn types_of(owner: &str, name: &str, field: bool) -> Vec<&'static str> {
        table().member_types(owner, name, field).map(Iterator::collect).unwrap_or_default()
    }

    #[test]
    fn members_give_their_declared_types_through_supertypes() {
        // Declared, overloads of two types.
        assert_eq!(types_of("java.time.LocalDate", "atTime", false), ["java.time.LocalDateTime", "java.time.OffsetDateTime"]);
        // Inherited through a public bridge of a class that is not public.
        assert_eq!(types_of("java.lang.StringBuilder", "length", false), ["int"]);
        // A covariant override hides what it overrides.
        assert_eq!(types_of("java.lang.StringBuilder", "append", false), ["java.lang.StringBuilder"]);
        // From an interface, and from `Object`.
        assert_eq!(types_of("java.util.ArrayList", "stream", false), ["java.util.stream.Stream"]);
        assert_eq!(types_of("java.util.Map.Entry", "toString", false), ["java.lang.String"]);
        assert_eq!(types_of("java.lang.System", "out", true), ["java.io.PrintStream"]);
        assert_eq!(types_of("java.lang.String", "getBytes", false), ["byte[]"]);
        // A method or field that is not there, and a type variable's value.
        assert!(table().member_types("java.lang.System", "out", false).is_none());
        assert!(table().member_types("java.util.List", "get", false).is_none());
        assert!(table().member_types("java.util.Optional", "orElse", false).is_none());
    }
}
