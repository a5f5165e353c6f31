//! Rust's name resolution on the world: the module tree, `crate`/`self`/`super`, `use`
//! aliases, globs and `pub use` chains, workspace crates and the prelude, impl members,
//! fields and calls through a receiver's type (a type parameter's trait bound, call chains
//! through declared return types), `macro_rules!` by textual scope.
//!
//! Methods of `World`, on its private state. It must not touch the store or know Java.

use super::*;

impl World {
    pub(super) fn resolve_rust(&self, r: &RefQuery) -> (Target, Confidence, bool) {
        let module = self.module_of(r.file, r.enclosing);
        let want = match r.kind {
            RefKind::Calls => Want::Callable,
            RefKind::Imports | RefKind::Expands | RefKind::Accesses => Want::Any,
            _ => Want::Type,
        };
        if r.kind == RefKind::UsesField {
            // A field of a type the receiver names; otherwise no reference is kept.
            if let Receiver::Type(t) = r.receiver {
                if let Some(id) = self.rust_receiver_type(t, r.file, &module, r.enclosing) {
                    if let Some(m) = self.member(id, r.name, Want::Field, 0) {
                        return (Target::Symbol(m), Confidence::Exact, true);
                    }
                }
            }
            return (Target::Nothing, Confidence::Unresolved, false);
        }
        if r.kind == RefKind::MethodRef {
            return self.rust_function_value(r, &module);
        }
        if r.kind == RefKind::Imports {
            if r.glob {
                return match self.rust_path(r.name, &module, 0) {
                    Some(PathHit::Symbol(id)) => (Target::Symbol(id), Confidence::Exact, true),
                    Some(PathHit::External(q)) => (Target::External(q), Confidence::External, true),
                    _ => (Target::Nothing, Confidence::Exact, true),
                };
            }
            return self.hit_to_target(self.rust_path(r.name, &module, 0), r.name, want);
        }
        if r.kind == RefKind::Calls && !r.name.contains("::") {
            match r.receiver {
                // `ms.pop().unwrap()`: a container's element call gives an `Option`, whose
                // `unwrap` it is (the extractor's chain passes through it to the element).
                Receiver::Type(t) if lang::spec(Language::Rust).transparent_calls.contains(&r.name) && self.on_element_option(t, r) => {
                    return (Target::External(format!("std::option::Option::{}", r.name)), Confidence::External, true);
                }
                Receiver::Type(t) if t.contains('#') || t.ends_with('@') => {
                    return match self.rust_receiver_type(t, r.file, &module, r.enclosing).and_then(|id| self.rust_method(id, r.name)) {
                        Some(m) => (Target::Symbol(m), Confidence::Exact, true),
                        None => self.guess(Language::Rust, r.name, Want::Callable),
                    };
                }
                Receiver::Type(t) => {
                    return match self.rust_path(crate::model::without_element(t), &module, 0) {
                        Some(PathHit::Symbol(id)) if self.syms[&id].kind.is_type() => match self.rust_method(id, r.name) {
                            Some(m) => (Target::Symbol(m), Confidence::Exact, true),
                            None => self.guess(Language::Rust, r.name, Want::Callable),
                        },
                        Some(PathHit::External(q)) => (Target::External(format!("{q}::{}", r.name)), Confidence::External, true),
                        _ => self.guess(Language::Rust, r.name, Want::Callable),
                    };
                }
                Receiver::Unknown => return self.guess(Language::Rust, r.name, Want::Callable),
                // A free function (`f()`, `Ok(x)`): resolved as a path below.
                Receiver::Implicit => {}
            }
        }
        // A `macro_rules!` macro is in scope in the modules after it, its own and those it
        // declares (textual scope, which comes before paths): the nearest enclosing module
        // defining one of that name.
        if r.kind == RefKind::Expands && !r.name.contains("::") {
            let mut m = module.clone();
            loop {
                let q = if m.is_empty() { r.name.to_string() } else { format!("{m}::{}", r.name) };
                let found =
                    self.by_qname.get(q.as_str()).and_then(|ids| ids.iter().copied().find(|id| self.syms[id].kind == SymbolKind::Macro));
                if let Some(id) = found {
                    return (Target::Symbol(id), Confidence::Exact, true);
                }
                if m.is_empty() {
                    break;
                }
                m = parent_module(&m);
            }
            // A macro of another module of the crate, brought in by `#[macro_use] mod
            // macros;` (the integration tests' usual layout): the crate's only one of that
            // name. Not for the standard library's names (`writeln!`), which a module-local
            // macro of the same name does not shadow elsewhere.
            let krate = module.split("::").next().unwrap_or("");
            let std_name = crate::lang::spec(Language::Rust).implicit_names.iter().any(|(n, _)| *n == r.name)
                || crate::lang::spec(Language::Rust).code_macros.contains(&r.name);
            let in_crate: Vec<SymbolId> = self
                .by_name
                .get(r.name)
                .into_iter()
                .flatten()
                .copied()
                .filter(|id| {
                    let s = &self.syms[id];
                    s.kind == SymbolKind::Macro && (&*s.qname == krate || s.qname.starts_with(&format!("{krate}::")))
                })
                .collect();
            if let ([id], false) = (in_crate.as_slice(), std_name) {
                return (Target::Symbol(*id), Confidence::Exact, true);
            }
        }
        let hit = self.rust_path(r.name, &module, 0);
        // Macros live in a namespace of their own: a function or module of the same name
        // (`fn debug()` of a test file beside `use tracing::debug;`) is never the macro
        // invoked. The macro is the one a `use` of that name brings in, else unknown.
        if r.kind == RefKind::Expands {
            if let Some(PathHit::Symbol(id)) = hit {
                if self.syms[&id].kind != SymbolKind::Macro {
                    let imported = if r.name.contains("::") { None } else { self.macro_through_import(&module, r.name) };
                    return match imported {
                        Some(hit) => self.hit_to_target(Some(hit), r.name, want),
                        None => (Target::Nothing, Confidence::Unresolved, true),
                    };
                }
            }
        }
        // `a::b::f()`: the qualifier `a::b` names a module, which is no dependency of its own
        // (the call is); a type (`Searcher::new()`) is.
        if r.kind == RefKind::Accesses && last_segment(r.name).starts_with(|c: char| c.is_lowercase()) {
            let keep = match &hit {
                Some(PathHit::Symbol(id)) => self.syms[id].kind != SymbolKind::Module,
                Some(PathHit::External(_)) | Some(PathHit::ModulePath(_)) | None => false,
            };
            if !keep {
                return (Target::Nothing, Confidence::Unresolved, false);
            }
        }
        // `Type::method` where the method comes from a trait the type implements.
        if hit.is_none() {
            if let Some((owner, member)) = r.name.rsplit_once("::") {
                if let Some(PathHit::Symbol(t)) = self.rust_path(owner, &module, 0) {
                    if self.syms[&t].kind.is_type() {
                        if let Some(m) = self.member(t, member, Want::Callable, 0) {
                            return (Target::Symbol(m), Confidence::Exact, true);
                        }
                    }
                }
            }
        }
        self.hit_to_target(hit, r.name, want)
    }

    /// The macro a named `use` of the module brings in under `name`, if one does. The path
    /// may name a function or module in the other namespaces (`tracing::debug` is also the
    /// re-exported `field::debug`); `#[macro_export]` puts a crate's macro at its root
    /// whatever module defines it, so then the crate's only macro of that name is the one.
    fn macro_through_import(&self, module: &str, name: &str) -> Option<PathHit> {
        let imports = self.module_imports.get(module)?;
        let mut exported = None;
        for (file, idx) in imports.by_name.get(name)? {
            let path = &self.imports[file][*idx].path;
            match self.rust_path(path, module, 1) {
                Some(PathHit::Symbol(m)) if self.syms[&m].kind == SymbolKind::Macro => return Some(PathHit::Symbol(m)),
                Some(PathHit::External(q)) => return Some(PathHit::External(q)),
                _ => {}
            }
            if exported.is_some() {
                continue;
            }
            let krate = match path.split("::").next().unwrap_or("") {
                "crate" | "self" | "super" => module.split("::").next().unwrap_or(""),
                first => first,
            };
            let prefix = format!("{krate}::");
            let mut macros = self
                .by_name
                .get(name)
                .into_iter()
                .flatten()
                .copied()
                .filter(|id| self.syms[id].kind == SymbolKind::Macro && self.syms[id].qname.starts_with(&prefix));
            if let (Some(only), None) = (macros.next(), macros.next()) {
                exported = Some(PathHit::Symbol(only));
            }
        }
        exported
    }

    /// A function or method used as a value (`route(create)`, `.map(Self::parse)`): kept
    /// only when the path names one, in the repository (an inherent or trait method through
    /// its type included) or, written with a path, outside it (`String::from`); or a variant
    /// (`.map_err(Error::Io)`: a tuple variant is its constructor function, a unit variant a
    /// value of it). A bare name that names nothing is a variable the extractor could not
    /// see bound; a constant, a static, a type or a module is no function.
    fn rust_function_value(&self, r: &RefQuery, module: &str) -> (Target, Confidence, bool) {
        let dropped = (Target::Nothing, Confidence::Unresolved, false);
        match self.rust_path(r.name, module, 0) {
            Some(PathHit::Symbol(id)) if self.syms[&id].kind.is_callable() || self.syms[&id].kind == SymbolKind::Variant => {
                (Target::Symbol(id), Confidence::Exact, true)
            }
            Some(PathHit::External(q)) if r.name.contains("::") && last_segment(&q).starts_with(|c: char| c.is_lowercase()) => {
                (Target::External(q), Confidence::External, true)
            }
            Some(_) => dropped,
            None => {
                let Some((owner, member)) = r.name.rsplit_once("::") else { return dropped };
                match self.rust_path(owner, module, 0) {
                    Some(PathHit::Symbol(t)) if self.syms[&t].kind.is_type() => match self.member(t, member, Want::Callable, 0) {
                        Some(m) => (Target::Symbol(m), Confidence::Exact, true),
                        None => dropped,
                    },
                    _ => dropped,
                }
            }
        }
    }

    /// Whether a receiver ends in a call that gives a container's element as an `Option`
    /// (`ms.pop()`, `ms.iter().next()`), on a container that is no repository type.
    fn on_element_option(&self, t: &str, r: &RefQuery) -> bool {
        let Some((base, call)) = t.strip_suffix("()").and_then(|link| link.rsplit_once('#')) else { return false };
        !call.contains('#') && self.element_call(base, call, r.file, r.enclosing).is_some()
    }

    /// A method called on a value of type `t`: its own (or its traits'), else one of what its
    /// `Deref` impl derefs to (`w.hello()` on a wrapper whose `deref` returns `&Inner`), a few
    /// levels deep, as rustc's auto-deref finds it.
    pub(super) fn rust_method(&self, t: SymbolId, name: &str) -> Option<SymbolId> {
        let mut t = t;
        for _ in 0..3 {
            if let Some(m) = self.member(t, name, Want::Callable, 0) {
                return Some(m);
            }
            let deref = self.member(t, "deref", Want::Callable, 0).filter(|d| self.syms[d].from_trait && self.syms[d].parent == Some(t))?;
            let sym = &self.syms[&deref];
            let module = self.module_of(sym.file, Some(deref));
            match self.rust_path(sym.returns.as_deref()?, &module, 0)? {
                PathHit::Symbol(id) if self.syms[&id].kind.is_type() && id != t => t = id,
                _ => return None,
            }
        }
        None
    }

    /// The type a receiver names: a path, or what a call chain returns.
    pub(super) fn rust_receiver_type(&self, t: &str, file: FileId, module: &str, enclosing: Option<SymbolId>) -> Option<SymbolId> {
        // An element of a container (a loop's variable, a closure's parameter).
        if let Some(container) = t.strip_suffix('@') {
            return self.element_of(container, file, enclosing, 0);
        }
        if t.contains('#') {
            if let Some(id) = self.chain_type(t, file, enclosing, |base| self.rust_receiver_type(base, file, module, enclosing)) {
                return Some(id);
            }
            // A function of a module (`make()`, `utils::make()`): the link names it by path.
            let (base, name) = t.strip_suffix("()")?.rsplit_once('#')?;
            if base.contains('#') {
                return None;
            }
            let path = if base.is_empty() { name.to_string() } else { format!("{base}::{name}") };
            let Some(PathHit::Symbol(f)) = self.rust_path(&path, module, 0) else { return None };
            let sym = self.syms.get(&f).filter(|s| s.kind.is_callable())?;
            return match self.rust_path(sym.returns.as_deref()?, &self.module_of(sym.file, Some(f)), 0) {
                Some(PathHit::Symbol(id)) if self.syms[&id].kind.is_type() => Some(id),
                _ => None,
            };
        }
        match self.rust_path(crate::model::without_element(t), module, 0) {
            Some(PathHit::Symbol(id)) if self.syms[&id].kind.is_type() => Some(id),
            _ => None,
        }
    }

    pub(super) fn hit_to_target(&self, hit: Option<PathHit>, name: &str, want: Want) -> (Target, Confidence, bool) {
        match hit {
            // A call by a name that is a type and a function (`use super::Lite;` naming both
            // `struct Lite` and `fn Lite`): the function, the value namespace's.
            Some(PathHit::Symbol(id)) if want == Want::Callable && self.syms[&id].kind.is_type() => {
                let callable = self.lookup(&self.syms[&id].qname, Want::Callable).unwrap_or(id);
                (Target::Symbol(callable), Confidence::Exact, true)
            }
            // A call by a name that is a module and a function a `use` brings in beside it
            // (`mod parse;` and `pub use parse::parse;`, then `flags::parse()`): modules
            // live in the type namespace, so the call is the function's.
            Some(PathHit::Symbol(id)) if want == Want::Callable && self.syms[&id].kind == SymbolKind::Module => {
                match self.callable_beside_module(&self.syms[&id].qname) {
                    Some(f) => (Target::Symbol(f), Confidence::Exact, true),
                    None => (Target::Symbol(id), Confidence::Exact, true),
                }
            }
            Some(PathHit::Symbol(id)) => (Target::Symbol(id), Confidence::Exact, true),
            Some(PathHit::External(q)) => (Target::External(q), Confidence::External, true),
            Some(PathHit::ModulePath(_)) => (Target::Nothing, Confidence::Exact, true),
            None => self.guess(Language::Rust, name, want),
        }
    }

    /// The function a `use` of the module's parent brings in under the module's own name.
    fn callable_beside_module(&self, module: &str) -> Option<i64> {
        let (parent, name) = module.rsplit_once("::")?;
        let imports = self.module_imports.get(parent)?;
        imports.by_name.get(name)?.iter().find_map(|(file, idx)| match self.rust_path(&self.imports[file][*idx].path, parent, 1) {
            Some(PathHit::Symbol(f)) if self.syms[&f].kind.is_callable() => Some(f),
            _ => None,
        })
    }

    /// Resolves a Rust path in a module. `depth` bounds re-export chains.
    pub(super) fn rust_path(&self, path: &str, module: &str, depth: usize) -> Option<PathHit> {
        if depth > MAX_HOPS {
            return None;
        }
        let mut segments = path.split("::").filter(|s| !s.is_empty());
        let first = segments.next()?;
        let rest: Vec<&str> = segments.collect();
        let crate_root = module.split("::").next().unwrap_or("").to_string();
        let mut current: PathHit = match first {
            "crate" => PathHit::ModulePath(crate_root),
            "self" => PathHit::ModulePath(module.to_string()),
            "super" => PathHit::ModulePath(parent_module(module)),
            _ => self.rust_first_segment(first, module, depth)?,
        };
        for seg in rest {
            current = match current {
                PathHit::ModulePath(m) => {
                    if seg == "super" {
                        PathHit::ModulePath(parent_module(&m))
                    } else {
                        self.rust_in_module(&m, seg, depth)?
                    }
                }
                PathHit::Symbol(id) => {
                    let sym = &self.syms[&id];
                    if sym.kind == SymbolKind::Module {
                        let m = sym.qname.clone();
                        self.rust_in_module(&m, seg, depth)?
                    } else {
                        match self.member(id, seg, Want::Any, 0) {
                            Some(m) => PathHit::Symbol(m),
                            None => return None,
                        }
                    }
                }
                PathHit::External(q) => PathHit::External(format!("{q}::{seg}")),
            };
        }
        Some(match current {
            PathHit::ModulePath(m) => match self.lookup(&m, Want::Any) {
                Some(id) => PathHit::Symbol(id),
                // A module without a `mod` symbol (a crate root, a file module): a path may
                // go on through it (`pub use engine_core as core;` then `core::Searcher`).
                None => PathHit::ModulePath(m),
            },
            other => other,
        })
    }

    /// The first segment of a relative path: an item of the module, a name a `use` brings
    /// in, a glob import, a crate of the workspace, the prelude, or an external crate.
    pub(super) fn rust_first_segment(&self, first: &str, module: &str, depth: usize) -> Option<PathHit> {
        if let Some(hit) = self.rust_in_module(module, first, depth) {
            return Some(hit);
        }
        if self.modules.contains_key(first) {
            return Some(PathHit::ModulePath(first.to_string()));
        }
        if let Some(q) = lang::spec(Language::Rust).implicit(first) {
            return Some(PathHit::External(q.to_string()));
        }
        if first.starts_with(char::is_lowercase) || matches!(first, "std" | "core" | "alloc") {
            // An external crate (`serde`, `std`), or a local module of the same name.
            return Some(PathHit::External(first.to_string()));
        }
        None
    }

    /// A name inside a module: its items, child modules, then its `use` declarations
    /// (named, then globs), which is also how re-exports are followed.
    pub(super) fn rust_in_module(&self, module: &str, name: &str, depth: usize) -> Option<PathHit> {
        let key = (module.to_string(), name.to_string());
        if let Some(known) = MEMO.with(|m| m.borrow().get(&key).cloned()) {
            return known;
        }
        // In progress: a cycle through glob imports finds nothing new.
        MEMO.with(|m| m.borrow_mut().insert(key.clone(), None));
        let hit = self.rust_in_module_uncached(module, name, depth);
        MEMO.with(|m| m.borrow_mut().insert(key, hit.clone()));
        hit
    }

    pub(super) fn rust_in_module_uncached(&self, module: &str, name: &str, depth: usize) -> Option<PathHit> {
        let qname = format!("{}::{name}", module);
        let qname = qname.trim_start_matches("::");
        if let Some(id) = self.lookup(qname, Want::Any) {
            return Some(PathHit::Symbol(id));
        }
        if self.modules.contains_key(qname) {
            return Some(PathHit::ModulePath(qname.to_string()));
        }
        let imports = self.module_imports.get(module)?;
        for (file, idx) in imports.by_name.get(name).map(Vec::as_slice).unwrap_or(&[]) {
            let import = &self.imports[file][*idx];
            if let Some(hit) = self.rust_path(&import.path, module, depth + 1) {
                return Some(hit);
            }
        }
        for (file, idx) in &imports.globs {
            let import = &self.imports[file][*idx];
            {
                let inner = format!("{}::{name}", import.path);
                // A glob only brings in what exists: an external guess through it is not a hit.
                match self.rust_path(&inner, module, depth + 1) {
                    Some(PathHit::External(_)) | None => {}
                    Some(hit) => return Some(hit),
                }
            }
        }
        None
    }
}
