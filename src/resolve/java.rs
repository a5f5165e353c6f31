//! Java's name resolution on the world (JLS 6.4-6.5, 15.12): types through enclosing and
//! inherited member types, single-type imports, the package, on-demand imports and
//! `java.lang`; fields through scopes, inheritance and static imports; calls and creations
//! (overloads in `overload`); call chains through declared return types, and through the
//! JDK's (`jdk`) where they leave the repository.
//!
//! Methods of `World`, on its private state. It must not touch the store or know Rust.

use super::*;
use crate::model::{JAVA_ENUM, JAVA_OBJECT};

impl World {
    pub(super) fn resolve_java(&self, r: &RefQuery, package: &str) -> (Target, Confidence, bool) {
        if let Some((index, creation)) = r.argument {
            return self.java_lambda_argument(r, index, creation, package);
        }
        match r.kind {
            RefKind::Imports => self.java_import(r),
            RefKind::Calls if matches!(r.receiver, Receiver::Type(t) if t == crate::model::URL_RECEIVER) => self.url_handler(r.name),
            RefKind::Calls if matches!(r.name, "this" | "super") && r.args.is_some() => self.java_constructor_call(r),
            RefKind::Calls | RefKind::MethodRef => self.java_call(r, package),
            RefKind::UsesField => self.java_field(r, package),
            // A variable of that name hides the type (JLS 6.5.2): the name is a field then.
            RefKind::Accesses if !r.name.contains('.') && self.java_field_in_scope(r, r.name).is_some() => {
                (Target::Nothing, Confidence::Unresolved, false)
            }
            RefKind::Accesses => match self.java_type(r.name, r.file, r.enclosing, package) {
                Some(t) => (t.clone(), conf_of(&t), true),
                None => (Target::Nothing, Confidence::Unresolved, false),
            },
            RefKind::Instantiates => match self.java_type(r.name, r.file, r.enclosing, package) {
                Some(Target::Symbol(t)) => self.java_new(t, r),
                Some(t) => (t.clone(), conf_of(&t), true),
                None => self.guess(Language::Java, r.name, Want::Type),
            },
            _ => match self.java_type(r.name, r.file, r.enclosing, package) {
                Some(t) => (t.clone(), conf_of(&t), true),
                None => self.guess(Language::Java, r.name, Want::Type),
            },
        }
    }

    /// A lambda or method reference passed as an argument implements the type of the
    /// callee's parameter at `index` (the last one's for varargs), when the call resolves to
    /// one method of the repository: a repository interface, or a type from outside; or, for
    /// a JDK method or constructor, the functional interface the JDK's table says it takes
    /// there. Unresolved otherwise (a library's method), and kept: an edit may declare the
    /// callee.
    fn java_lambda_argument(&self, r: &RefQuery, index: usize, creation: bool, package: &str) -> (Target, Confidence, bool) {
        let nothing = (Target::Nothing, Confidence::Unresolved, true);
        let kind = if creation { RefKind::Instantiates } else { RefKind::Calls };
        let call = RefQuery { kind, argument: None, ..*r };
        let given = r.args.map_or(0, |a| overload::split_list(a).len());
        let callee = match self.resolve_java(&call, package) {
            (Target::Symbol(callee), Confidence::Exact, _) => callee,
            // A JDK method or constructor: the functional interface its table says it takes.
            (Target::External(q), Confidence::External, _) => {
                let (owner, name) = if creation { (q.as_str(), "new") } else { q.rsplit_once('#').unwrap_or((q.as_str(), "")) };
                return match super::jdk::table().lambda_parameter(owner, name, given, index) {
                    Some(t) => (Target::External(t.to_string()), Confidence::External, true),
                    None => nothing,
                };
            }
            _ => return nothing,
        };
        let Some(sym) = self.syms.get(&callee) else { return nothing };
        let declared = sym.params.as_deref().unwrap_or("");
        let params: Vec<&str> = if overload::takes_arity(declared, given) {
            overload::split_list(declared)
        } else {
            // A record's canonical constructor is no symbol: its parameters are the record's
            // components, its first fields (what the call resolved to has another arity).
            let record = match (creation, sym.kind) {
                (false, _) => None,
                // A record that declares no constructor: the type itself.
                (true, SymbolKind::Record) => Some(callee),
                (true, _) => sym.parent.filter(|p| self.syms[p].kind == SymbolKind::Record),
            };
            let Some(record) = record else { return nothing };
            let fields: Vec<&str> = self
                .children_of(record)
                .iter()
                .filter(|c| self.syms[*c].kind == SymbolKind::Field)
                .filter_map(|c| self.syms[c].returns.as_deref())
                .collect();
            match fields.get(..given) {
                Some(f) => f.iter().map(|t| crate::model::without_element(t)).collect(),
                None => return nothing,
            }
        };
        let param = match params.get(index) {
            Some(p) if index + 1 < params.len() || !p.ends_with("...") => *p,
            _ => match params.last().and_then(|p| p.strip_suffix("...")) {
                Some(p) => p,
                None => return nothing,
            },
        };
        let Some(ctx) = self.files.get(&sym.file) else { return nothing };
        match self.java_type(param, sym.file, Some(callee), &ctx.module) {
            Some(Target::Symbol(t)) if self.syms[&t].kind == SymbolKind::Interface => (Target::Symbol(t), Confidence::Exact, true),
            Some(Target::External(q)) if q != JAVA_OBJECT => (Target::External(q), Confidence::External, true),
            _ => nothing,
        }
    }

    /// `new T(...)`: the constructor overload, or the type when it declares none.
    pub(super) fn java_new(&self, t: SymbolId, r: &RefQuery) -> (Target, Confidence, bool) {
        let constructors = self.visible_from(self.java_constructors(t), r.file, r.enclosing);
        if constructors.is_empty() {
            return (Target::Symbol(t), Confidence::Exact, true);
        }
        pick_to_target(self.pick_overload(&constructors, r.args, r.file, r.enclosing))
    }

    /// `this(...)` and `super(...)` in a constructor.
    pub(super) fn java_constructor_call(&self, r: &RefQuery) -> (Target, Confidence, bool) {
        let Some(own) = self.enclosing_types(r.enclosing).into_iter().next() else {
            return (Target::Nothing, Confidence::Unresolved, false);
        };
        let class = if r.name == "this" {
            own
        } else {
            match self.java_superclass(r.enclosing) {
                Some(c) => c,
                // `Object`, when the class extends nothing (the subject says so).
                None if r.subject == Some(JAVA_OBJECT) => return self.java_implicit_super_call(r, JAVA_OBJECT),
                // A superclass from outside the repository, named in the subject: its
                // constructor, outside.
                None => return self.java_outside_super_call(r).unwrap_or((Target::Nothing, Confidence::Unresolved, false)),
            }
        };
        self.java_new(class, r)
    }

    /// The superclass of the innermost type enclosing a reference, when the repository
    /// declares it.
    pub(super) fn java_superclass(&self, enclosing: Option<SymbolId>) -> Option<SymbolId> {
        let own = self.enclosing_types(enclosing).into_iter().next()?;
        self.supertypes
            .get(&own)?
            .iter()
            .copied()
            .find(|s| matches!(self.syms[s].kind, SymbolKind::Class | SymbolKind::Enum | SymbolKind::Record))
    }

    pub(super) fn java_import(&self, r: &RefQuery) -> (Target, Confidence, bool) {
        if r.glob {
            // An on-demand import names a package or a type; only a type is a node.
            return match self.lookup(r.name, Want::Type) {
                Some(id) => (Target::Symbol(id), Confidence::Exact, true),
                None if self.modules.contains_key(r.name) => (Target::Nothing, Confidence::Exact, true),
                None => (Target::External(r.name.to_string()), Confidence::External, true),
            };
        }
        if let Some(id) = self.lookup(r.name, Want::Type) {
            return (Target::Symbol(id), Confidence::Exact, true);
        }
        if r.is_static {
            if let Some((owner, member)) = r.name.rsplit_once('.') {
                if let Some(t) = self.lookup(owner, Want::Type) {
                    if let Some(m) = self.member(t, member, Want::Any, 0) {
                        return (Target::Symbol(m), Confidence::Exact, true);
                    }
                }
                return (Target::External(format!("{owner}#{member}")), Confidence::External, true);
            }
        }
        (Target::External(r.name.to_string()), Confidence::External, true)
    }

    /// The member a chain's link names (a call `Owner#m()`, `#m()`, or a field
    /// `Owner#f`), its owner resolved by `owner`, then the type the method returns or the
    /// field holds, resolved where the member is declared. A field link that names a
    /// member type instead (`Outer#Inner`) is that type.
    /// A call on a container that gives an element (`List<Pet>#get()`) is that element.
    pub(super) fn chain_type(
        &self,
        chain: &str,
        file: FileId,
        enclosing: Option<SymbolId>,
        owner: impl Fn(&str) -> Option<SymbolId>,
    ) -> Option<SymbolId> {
        let (link, want) = match chain.strip_suffix("()") {
            Some(call) => (call, Want::Callable),
            None => (chain, Want::Field),
        };
        let (base, method) = link.rsplit_once('#')?;
        let owner_type = match base {
            "" => None,
            _ => match owner(base) {
                Some(t) => Some(t),
                None if want == Want::Callable => return self.element_call(base, method, file, enclosing),
                None => return None,
            },
        };
        let rust = self.files.get(&file).is_some_and(|f| f.language == Language::Rust);
        let m = match owner_type {
            None => self.enclosing_types(enclosing).into_iter().find_map(|t| self.member(t, method, want, 0)),
            // Rust: a method as rustc looks it up (through `Deref`, and the blanket traits).
            Some(t) if rust && want == Want::Callable => self.rust_method(t, method),
            Some(t) => match self.member(t, method, want, 0) {
                Some(m) => Some(m),
                None if want == Want::Field => return self.member(t, method, Want::Type, 0),
                None => None,
            },
        }?;
        // Java overloads of the link's name: a chain goes on from a value with members, so a
        // `void` overload, or one giving an array of a primitive type, is not the one called
        // (`example.or().andIdEqualTo(1)` beside `void or(Criteria)`, `a.subtract(b).abs()`
        // beside `static int[] subtract(int[], int[])`); the others must agree on what they
        // return.
        let memberless = |r: &str| r == "void" || r.ends_with("[]");
        let m = match (want, self.syms.get(&m)) {
            (Want::Callable, Some(s))
                if s.returns.as_deref().is_none_or(memberless)
                    && s.parent.is_some()
                    && self.files.get(&s.file).is_some_and(|f| f.language == Language::Java) =>
            {
                let valued: Vec<SymbolId> = self
                    .java_methods_named(s.parent?, method)
                    .into_iter()
                    .filter(|o| self.syms[o].returns.as_deref().is_some_and(|r| !memberless(r)))
                    .collect();
                match valued.first() {
                    Some(first) if valued.iter().all(|o| self.syms[o].returns == self.syms[first].returns) => *first,
                    _ => m,
                }
            }
            _ => m,
        };
        let sym = self.syms.get(&m)?;
        if matches!(sym.kind, SymbolKind::EnumConstant | SymbolKind::Variant) {
            // `Code.SUCCESS.getCode()`, `Error::Io(err).with_path(p)`: a constant, or a
            // variant's value, is of its enum's type.
            return sym.parent.filter(|p| self.syms.get(p).is_some_and(|e| e.kind == SymbolKind::Enum));
        }
        let returns = sym.returns.as_deref()?;
        let file = self.files.get(&sym.file)?;
        let found = match file.language {
            Language::Java => match self.java_type(returns, sym.file, Some(m), &file.module)? {
                Target::Symbol(id) => Some(id),
                _ => None,
            },
            Language::Rust => {
                if returns == "Self" && sym.impl_type.is_none() {
                    // A trait's method returning `Self` (`E::from_parts(s)` under a bound,
                    // `T::default()`): a value of some implementor, which has the trait's
                    // methods.
                    return sym.parent.filter(|p| self.syms.get(p).is_some_and(|t| t.kind == SymbolKind::Trait));
                }
                let returns = if returns == "Self" { sym.impl_type.as_deref().or_else(|| sym.parent.map(|_| ""))? } else { returns };
                match self.rust_path(returns, &self.module_of(sym.file, Some(m)), 0) {
                    Some(PathHit::Symbol(id)) => Some(id),
                    _ => None,
                }
            }
        }?;
        self.syms.get(&found).is_some_and(|s| s.kind.is_type()).then_some(found)
    }

    /// The types from outside the repository a chain's last link may give, as canonical
    /// names, primitives or arrays (`int`, `byte[]`), given what its receiver resolved to
    /// (`base`; None for a link without one, or one that did not resolve): what the JDK's
    /// table says of a JDK member, or the declared type of a repository member when that
    /// type is from outside (one type, which every overload of the name declares). Empty
    /// when unknown.
    pub(super) fn java_chain_outside(&self, chain: &str, base: Option<&Target>, enclosing: Option<SymbolId>) -> Vec<String> {
        let (link, want) = match chain.strip_suffix("()") {
            Some(call) => (call, Want::Callable),
            None => (chain, Want::Field),
        };
        let Some((receiver, name)) = link.rsplit_once('#') else { return Vec::new() };
        let member = match base {
            Some(Target::External(q)) => return super::jdk::table().member_type_names(q, name, want == Want::Field),
            Some(Target::Symbol(t)) => match self.member(*t, name, want, 0) {
                Some(m) => Some(m),
                // Inherited from outside: the JDK's table says what it gives.
                None => return self.outside_member(*t, name, want == Want::Field).map(|(_, types)| types).unwrap_or_default(),
            },
            None if receiver.is_empty() => self.enclosing_types(enclosing).into_iter().find_map(|t| self.member(t, name, want, 0)),
            _ => None,
        };
        let Some(sym) = member.and_then(|m| self.syms.get(&m)) else {
            // `getClass()`: final in `Object`, so every class's is that one.
            if receiver.is_empty() && name == "getClass" && want == Want::Callable {
                return super::jdk::table().member_type_names(JAVA_OBJECT, name, false);
            }
            return Vec::new();
        };
        let Some(ctx) = self.files.get(&sym.file).filter(|f| f.language == Language::Java) else { return Vec::new() };
        let Some(returns) = sym.returns.as_deref().filter(|r| !r.ends_with(']')) else { return Vec::new() };
        if want == Want::Callable {
            let same = |o: &SymbolId| self.syms.get(o).is_some_and(|o| o.returns.as_deref() == Some(returns));
            if !sym.parent.is_some_and(|p| self.java_methods_named(p, name).iter().all(same)) {
                return Vec::new();
            }
        }
        match self.java_type(returns, sym.file, member, &ctx.module) {
            Some(Target::External(q)) => vec![q],
            _ => Vec::new(),
        }
    }

    /// The supertypes from outside the repository of `t` and of its repository supertypes,
    /// nearest first; None when one of them did not resolve (the closure is not known).
    pub(super) fn outside_closure(&self, t: SymbolId) -> Option<Vec<&str>> {
        let mut out: Vec<&str> = Vec::new();
        let mut queue = std::collections::VecDeque::from([(t, 0)]);
        let mut seen = vec![t];
        while let Some((x, depth)) = queue.pop_front() {
            for q in self.outside_supertypes.get(&x).map(Vec::as_slice).unwrap_or(&[]) {
                if &**q == super::UNKNOWN_SUPERTYPE {
                    return None;
                }
                if !out.contains(&&**q) {
                    out.push(q);
                }
            }
            for s in self.supertypes.get(&x).map(Vec::as_slice).unwrap_or(&[]) {
                if depth < super::MAX_HOPS && !seen.contains(s) {
                    seen.push(*s);
                    queue.push_back((*s, depth + 1));
                }
            }
        }
        Some(out)
    }

    /// What a member a repository type inherits from outside gives, by the JDK's table
    /// (`e.getMessage()`, `e` an `ApiException extends RuntimeException`: a `String`), and
    /// the outside type that has it. None when the table knows no such member there.
    pub(super) fn outside_member(&self, t: SymbolId, name: &str, field: bool) -> Option<(&str, Vec<String>)> {
        let table = super::jdk::table();
        self.outside_closure(t)?.into_iter().find_map(|q| {
            let types = table.member_type_names(q, name, field);
            (!types.is_empty()).then_some((q, types))
        })
    }

    /// A method a repository type inherits from outside, by the JDK's table: the outside
    /// supertype's (`ext:java.lang.RuntimeException#getMessage`), the repository's own when
    /// the repository is the JDK.
    fn outside_call(&self, t: SymbolId, name: &str) -> Option<(Target, Confidence, bool)> {
        let (q, _) = self.outside_member(t, name, false)?;
        Some(match self.outside_type(q) {
            Target::Symbol(id) => match self.member(id, name, Want::Callable, 0) {
                Some(m) => (Target::Symbol(m), Confidence::Exact, true),
                None => return None,
            },
            _ => (Target::External(format!("{q}#{name}")), Confidence::External, true),
        })
    }

    /// A type the JDK's table names (`java.lang.Class`): the repository's own when the
    /// repository is the JDK, else outside.
    pub(super) fn outside_type(&self, qualified: &str) -> Target {
        match self.java_type_by_qname(qualified) {
            Some(id) => Target::Symbol(id),
            None => Target::External(qualified.to_string()),
        }
    }

    /// Resolves a type name as written in a Java file.
    pub(super) fn java_type(&self, name: &str, file: FileId, enclosing: Option<SymbolId>, package: &str) -> Option<Target> {
        if name == "super" {
            // The receiver `super`: the enclosing class's superclass, when it is in the
            // repository.
            return self.java_superclass(enclosing).map(Target::Symbol);
        }
        // An element of a container (a lambda's parameter, a loop's variable).
        if let Some(container) = name.strip_suffix('@') {
            return self.element_of(container, file, enclosing, 0).map(Target::Symbol);
        }
        if name.contains('#') {
            // The chain's receiver, resolved once (each link's resolution is the next one's
            // start: resolving it twice a link would double the work with every link).
            let (base, member) = name.strip_suffix("()").unwrap_or(name).rsplit_once('#')?;
            let base_target = if base.is_empty() { None } else { self.java_type(base, file, enclosing, package) };
            let owner = |b: &str| {
                let t = if b == base { base_target.clone() } else { self.java_type(b, file, enclosing, package) };
                match t {
                    Some(Target::Symbol(id)) => Some(id),
                    _ => None,
                }
            };
            if let Some(id) = self.chain_type(name, file, enclosing, owner) {
                return Some(Target::Symbol(id));
            }
            // A value of one type from outside the repository (`user.getName()`, a `String`;
            // `LocalDate.now()`, by the JDK's table).
            if let [only] = &self.java_chain_outside(name, base_target.as_ref(), enclosing)[..] {
                if only.contains('.') && !only.ends_with(']') {
                    return Some(self.outside_type(only));
                }
            }
            // A field of a type from outside that the table does not know: named like a
            // nested type of it, as before fields were followed.
            if name.ends_with("()") {
                return None;
            }
            return match base_target? {
                Target::External(q) => Some(Target::External(format!("{q}.{member}"))),
                _ => None,
            };
        }
        // `List<Pet>`: the type is `List`.
        let name = crate::model::without_element(name);
        let mut segments = name.split('.');
        let first = segments.next()?;
        let rest: Vec<&str> = segments.collect();
        let base = self.java_simple_type(first, file, enclosing, package);
        match base {
            Some(Target::Symbol(mut id)) => {
                for (i, seg) in rest.iter().enumerate() {
                    match self.member(id, seg, Want::Type, 0) {
                        Some(next) => id = next,
                        None => return Some(Target::External(format!("{}.{}", self.syms[&id].qname, rest[i..].join(".")))),
                    }
                }
                Some(Target::Symbol(id))
            }
            Some(Target::External(q)) if rest.is_empty() => Some(Target::External(q)),
            Some(Target::External(q)) => Some(Target::External(format!("{q}.{}", rest.join(".")))),
            _ if rest.is_empty() => None,
            _ => {
                // A fully qualified name: the longest prefix that is a type, then nested types.
                let parts: Vec<&str> = name.split('.').collect();
                for cut in (1..=parts.len()).rev() {
                    let prefix = parts[..cut].join(".");
                    if let Some(mut id) = self.lookup(&prefix, Want::Type) {
                        for seg in &parts[cut..] {
                            id = self.member(id, seg, Want::Type, 0)?;
                        }
                        return Some(Target::Symbol(id));
                    }
                }
                if first.starts_with(char::is_lowercase) {
                    Some(Target::External(name.to_string()))
                } else {
                    None
                }
            }
        }
    }

    pub(super) fn java_simple_type(&self, name: &str, file: FileId, enclosing: Option<SymbolId>, package: &str) -> Option<Target> {
        let known = super::TYPES.with(|t| match &*t.borrow() {
            Some((f, memo)) if *f == file => Some(memo.get(&enclosing).and_then(|m| m.get(name)).cloned()),
            _ => None,
        });
        match known {
            Some(Some(target)) => target,
            // A scope is open on this file: resolve and remember.
            Some(None) => {
                let target = self.java_simple_type_uncached(name, file, enclosing, package);
                super::TYPES.with(|t| {
                    if let Some((_, memo)) = &mut *t.borrow_mut() {
                        memo.entry(enclosing).or_default().insert(name.to_string(), target.clone());
                    }
                });
                target
            }
            None => self.java_simple_type_uncached(name, file, enclosing, package),
        }
    }

    fn java_simple_type_uncached(&self, name: &str, file: FileId, enclosing: Option<SymbolId>, package: &str) -> Option<Target> {
        // 1. The enclosing types themselves, their member types and inherited member types.
        for t in self.enclosing_types(enclosing) {
            if *self.syms[&t].name == *name {
                return Some(Target::Symbol(t));
            }
            if let Some(id) = self.member(t, name, Want::Type, 0) {
                return Some(Target::Symbol(id));
            }
        }
        let imports = self.imports.get(&file).map(Vec::as_slice).unwrap_or(&[]);
        // 2. Single-type imports.
        if let Some(import) = imports.iter().find(|i| !i.glob && i.visible_name() == name) {
            return Some(match self.java_type_by_qname(&import.path) {
                Some(id) => Target::Symbol(id),
                None => Target::External(import.path.clone()),
            });
        }
        // 3. Top-level types of the same package.
        if let Some(id) = self.lookup(&join_java(package, name), Want::Type) {
            return Some(Target::Symbol(id));
        }
        // 4. On-demand imports (packages, or types whose member types are imported).
        for import in imports.iter().filter(|i| i.glob) {
            if let Some(id) = self.java_type_by_qname(&format!("{}.{}", import.path, name)) {
                return Some(Target::Symbol(id));
            }
        }
        // 5. java.lang, from the repository (the JDK itself) or by the implicit table.
        if let Some(id) = self.lookup(&format!("java.lang.{name}"), Want::Type) {
            return Some(Target::Symbol(id));
        }
        if let Some(q) = lang::spec(Language::Java).implicit(name) {
            return Some(Target::External(q.to_string()));
        }
        if let Some(q) = super::jdk::table().java_lang(name) {
            return Some(Target::External(q));
        }
        // 6. One on-demand import of a package outside the repository: it must come from there.
        let outside: Vec<&Import> = imports
            .iter()
            .filter(|i| i.glob && !i.is_static && !self.modules.contains_key(&i.path) && self.lookup(&i.path, Want::Type).is_none())
            .collect();
        if outside.len() == 1 && name.starts_with(char::is_uppercase) {
            return Some(Target::External(format!("{}.{}", outside[0].path, name)));
        }
        // 7. Of several, the one JDK package that has a type of that name (`import java.io.*;
        // import java.util.*;`, `OutputStream`): where another package had one too, the
        // name would be ambiguous (JLS 6.4.1), and the code would not compile.
        let table = super::jdk::table();
        let mut in_jdk = outside.iter().map(|i| format!("{}.{}", i.path, name)).filter(|q| table.knows(q));
        if let (Some(q), None) = (in_jdk.next(), in_jdk.next()) {
            return Some(Target::External(q));
        }
        // 8. Of several, the one package that is not the JDK's: the JDK's packages have no type
        // of that name, and the table knows all of theirs (`import software.amazon.awssdk
        // .services.s3.model.*; import java.util.*;`, `DeleteObjectRequest`).
        // Not for a name written as type parameters are (`T`, `ID`, `E2`): a declared type
        // whose parameter it is may be where it was read from (a member's return type).
        let parameter_like = name.len() <= 2 && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
        if parameter_like || !name.starts_with(char::is_uppercase) {
            return None;
        }
        let mut rest = outside.iter().filter(|i| !table.has_package(&i.path));
        match (rest.next(), rest.next()) {
            (Some(i), None) => Some(Target::External(format!("{}.{}", i.path, name))),
            _ => None,
        }
    }

    /// A type by its canonical name, where nested types may be written with dots.
    pub(super) fn java_type_by_qname(&self, qname: &str) -> Option<SymbolId> {
        if let Some(id) = self.lookup(qname, Want::Type) {
            return Some(id);
        }
        let (owner, last) = qname.rsplit_once('.')?;
        let owner = self.java_type_by_qname(owner)?;
        self.member(owner, last, Want::Type, 0)
    }

    pub(super) fn java_call(&self, r: &RefQuery, package: &str) -> (Target, Confidence, bool) {
        let name = r.name;
        // `Order::new`: a constructor of the type.
        if r.kind == RefKind::MethodRef && name == "new" {
            return match r.receiver {
                Receiver::Type(t) => match self.java_type(t, r.file, r.enclosing, package) {
                    Some(Target::Symbol(id)) => self.java_new(id, r),
                    Some(Target::External(q)) => (Target::External(format!("{q}#new")), Confidence::External, true),
                    _ => (Target::Nothing, Confidence::Unresolved, true),
                },
                _ => (Target::Nothing, Confidence::Unresolved, true),
            };
        }
        if let Some(sup) = r.subject.filter(|s| implicit_superclass(s)) {
            return self.java_implicit_super_call(r, sup);
        }
        if matches!(r.receiver, Receiver::Type(t) if t == "super") && self.java_superclass(r.enclosing).is_none() {
            if let Some(outside) = self.java_outside_super_call(r) {
                return outside;
            }
        }
        match r.receiver {
            Receiver::Implicit => {
                // Inside an anonymous class (`subject`, its qualified name), that class first.
                if let Some(anon) = r.subject.and_then(|q| self.lookup(q, Want::Type)) {
                    if let Some(pick) = self.java_member_call(anon, name, r.args, r.file, r.enclosing) {
                        return pick_to_target(pick);
                    }
                    if crate::model::java_object_method(name) {
                        return (Target::Nothing, Confidence::Unresolved, true);
                    }
                }
                // The innermost enclosing type with a method of that name is searched
                // (JLS 15.12.1), then overloads are resolved in it. Every class has
                // `Object`'s: the innermost one's, which its superclass from outside the
                // repository (a subject names one it does not write) may declare.
                for t in self.enclosing_types(r.enclosing) {
                    if let Some(pick) = self.java_member_call(t, name, r.args, r.file, r.enclosing) {
                        return pick_to_target(pick);
                    }
                    if let Some(outside) = self.outside_call(t, name) {
                        return outside;
                    }
                    if crate::model::java_object_method(name) {
                        return (Target::Nothing, Confidence::Unresolved, true);
                    }
                }
                match self.java_static_import(r.file, name, Want::Callable) {
                    Some(Target::Symbol(m)) => match self.syms[&m].parent {
                        Some(owner) => {
                            pick_to_target(self.java_member_call(owner, name, r.args, r.file, r.enclosing).unwrap_or(Pick::One(m)))
                        }
                        None => (Target::Symbol(m), Confidence::Exact, true),
                    },
                    Some(t) => (t.clone(), conf_of(&t), true),
                    None => self.guess_call(name, r.args),
                }
            }
            Receiver::Type(t) => match self.java_type(t, r.file, r.enclosing, package) {
                Some(Target::Symbol(id)) => match self.java_member_call(id, name, r.args, r.file, r.enclosing) {
                    Some(pick) => pick_to_target(pick),
                    None => self.outside_call(id, name).unwrap_or_else(|| self.guess_unless_outside(t, name, r, package)),
                },
                Some(Target::External(q)) => (Target::External(format!("{q}#{name}")), Confidence::External, true),
                _ => self.guess_unless_outside(t, name, r, package),
            },
            Receiver::Unknown => self.guess_call(name, r.args),
        }
    }

    /// A call in a type that extends nothing, of what it has from the superclass it does not
    /// name (`sup`, the reference's subject): `super.hashCode()`, or `hashCode()` that the type
    /// itself (or its repository supertypes) does not declare, is `sup`'s, as JLS 15.12.1 finds
    /// it in the innermost type; so is `super(..)`, `sup`'s constructor. `sup` is the
    /// repository's own type when the repository is the JDK, else outside.
    fn java_implicit_super_call(&self, r: &RefQuery, sup: &str) -> (Target, Confidence, bool) {
        let name = if r.name == "super" { last_segment(sup) } else { r.name };
        if matches!(r.receiver, Receiver::Implicit) && r.name != "super" {
            if let Some(own) = self.enclosing_types(r.enclosing).into_iter().next() {
                if let Some(pick) = self.java_member_call(own, name, r.args, r.file, r.enclosing) {
                    return pick_to_target(pick);
                }
            }
        }
        match self.lookup(sup, Want::Type) {
            Some(t) if r.name == "super" => self.java_new(t, r),
            Some(t) => match self.java_member_call(t, name, r.args, r.file, r.enclosing) {
                Some(pick) => pick_to_target(pick),
                None => (Target::Nothing, Confidence::Unresolved, true),
            },
            None => (Target::External(format!("{sup}#{name}")), Confidence::External, true),
        }
    }

    /// `super(..)` or `super.m()` in a class whose superclass, named in the reference's subject
    /// as written, is outside the repository: that type's constructor or method, outside.
    /// None when the subject names no such type.
    fn java_outside_super_call(&self, r: &RefQuery) -> Option<(Target, Confidence, bool)> {
        let written = r.subject.filter(|s| !implicit_superclass(s))?;
        let package = self.files.get(&r.file).map(|f| f.module.as_str()).unwrap_or("");
        let Some(Target::External(q)) = self.java_type(written, r.file, r.enclosing, package) else { return None };
        let name = if r.name == "super" { last_segment(&q).to_string() } else { r.name.to_string() };
        Some((Target::External(format!("{q}#{name}")), Confidence::External, true))
    }

    /// A call on a receiver whose type is written: when that type is not found in the
    /// repository it comes from outside (a `Logger` field, a `String` local), and a method of
    /// that name here is no candidate. A chain whose type could not be followed is unknown.
    /// A chain that starts from a type outside the repository (`new ApiInfoBuilder().title(..)
    /// .description(..)`), or from a static import's method from outside
    /// (`assertThat(x).isEqualTo(y)`), stays outside: no method here is guessed for its links.
    pub(super) fn guess_unless_outside(&self, receiver_type: &str, name: &str, r: &RefQuery, package: &str) -> (Target, Confidence, bool) {
        let mut links = receiver_type.split('#');
        let head = links.next().unwrap_or("");
        let outside = if head.is_empty() {
            // A chain from a call without a receiver that a static import brings from outside
            // the repository (`assertThat(total).isEqualTo(5)`, AssertJ's): no method here is
            // guessed for its links.
            links.next().and_then(|l| l.split_once("()")).is_some_and(|(first, _)| {
                !self.enclosing_types(r.enclosing).into_iter().any(|t| self.member(t, first, Want::Callable, 0).is_some())
                    && matches!(self.java_static_import(r.file, first, Want::Callable), Some(Target::External(_)))
            })
        } else {
            matches!(self.java_type(head, r.file, r.enclosing, package), Some(Target::External(_)))
        };
        if receiver_type.contains('#') && !outside {
            self.guess_call(name, r.args)
        } else {
            (Target::Nothing, Confidence::Unresolved, true)
        }
    }

    /// A member brought in by a static import (`import static a.B.m;`, `import static a.B.*;`).
    pub(super) fn java_static_import(&self, file: FileId, name: &str, want: Want) -> Option<Target> {
        let imports = self.imports.get(&file).map(Vec::as_slice).unwrap_or(&[]);
        for import in imports.iter().filter(|i| i.is_static) {
            let owner = if import.glob {
                import.path.as_str()
            } else if last_segment(&import.path) == name {
                import.path.rsplit_once('.').map(|(o, _)| o).unwrap_or("")
            } else {
                continue;
            };
            match self.java_type_by_qname(owner) {
                Some(t) => {
                    if let Some(m) = self.member(t, name, want, 0) {
                        return Some(Target::Symbol(m));
                    }
                }
                None if !import.glob => return Some(Target::External(format!("{owner}#{name}"))),
                None => {}
            }
        }
        None
    }

    /// A field a bare name can mean at a place: of an enclosing type (declared or
    /// inherited), then statically imported.
    pub(super) fn java_field_in_scope(&self, r: &RefQuery, name: &str) -> Option<Target> {
        for t in self.enclosing_types(r.enclosing) {
            if let Some(m) = self.member(t, name, Want::Field, 0) {
                return Some(Target::Symbol(m));
            }
        }
        self.java_static_import(r.file, name, Want::Field)
    }

    /// `size`, `this.size`, `e.key`, `Foo.BAR`: a field, else an unresolved reference (a
    /// field of a class outside the repository, a variable the extractor could not see).
    pub(super) fn java_field(&self, r: &RefQuery, package: &str) -> (Target, Confidence, bool) {
        let found = match r.receiver {
            Receiver::Implicit if !r.name.contains('.') => self.java_field_in_scope(r, r.name),
            Receiver::Type(t) => match self.java_type(t, r.file, r.enclosing, package) {
                Some(Target::Symbol(id)) => self.member(id, r.name, Want::Field, 0).map(Target::Symbol),
                // `Encoder.table.length`: a type of the repository followed by a name it
                // has no member type of is a field chain, not a type from outside.
                Some(Target::External(_))
                    if t.split_once('.').is_some_and(|(head, _)| {
                        matches!(self.java_simple_type(head, r.file, r.enclosing, package), Some(Target::Symbol(_)))
                    }) =>
                {
                    None
                }
                Some(Target::External(q)) => Some(Target::External(format!("{q}#{}", r.name))),
                _ => None,
            },
            _ => None,
        };
        match found {
            Some(t) => (t.clone(), conf_of(&t), true),
            // A bare name that is a type is the qualifier of a static member (`Math.max`):
            // its `accesses` twin holds it.
            None if matches!(r.receiver, Receiver::Implicit) && self.java_type(r.name, r.file, r.enclosing, package).is_some() => {
                (Target::Nothing, Confidence::Unresolved, false)
            }
            // Kept when a field declared later could be meant, so that the update declaring
            // it finds this reference by name; an unknown receiver can mean anything.
            // A bare name the file declares nothing of (`p` of `p.Base.x`, a package) is
            // a field only if an enclosing type has it.
            None => {
                let bare_name = matches!(r.receiver, Receiver::Type(t) if t.starts_with('#') && !t.contains("()"));
                (Target::Nothing, Confidence::Unresolved, !matches!(r.receiver, Receiver::Unknown) && !bare_name)
            }
        }
    }
}

/// Whether a Java call's subject names the superclass a type has without writing it
/// (`model::JAVA_OBJECT`, `JAVA_ENUM`), not one written (`RuntimeException`) or an anonymous
/// class.
fn implicit_superclass(subject: &str) -> bool {
    [JAVA_OBJECT, JAVA_ENUM].contains(&subject)
}
