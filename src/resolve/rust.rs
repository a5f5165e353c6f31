//! Rust's name resolution on the world: the module tree, `crate`/`self`/`super`, `use`
//! aliases, globs and `pub use` chains, workspace crates and the prelude, impl members,
//! fields and calls through a receiver's type (a type parameter's trait bound, call chains
//! through declared return types), `macro_rules!` by textual scope.
//!
//! Methods of `World`, on its private state. It must not touch the store or know Java.

use super::*;

thread_local! {
    /// How many re-exports deep `macro_through_import` is following a macro's path.
    static MACRO_CHAIN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl World {
    pub(super) fn resolve_rust(&self, r: &RefQuery) -> (Target, Confidence, bool) {
        // A name an enclosing function declares as a local item (`fn handler()` inside a
        // test, called or passed as `get(handler)` there or in a sibling local function):
        // the item's own path, which the module's names would not find.
        if !matches!(r.kind, RefKind::Imports | RefKind::Expands) && matches!(r.receiver, Receiver::Implicit) {
            let mut segments = r.name.split("::");
            if let Some(mut id) = segments.next().and_then(|first| self.local_item(r.enclosing, first)) {
                for segment in segments {
                    match self.member(id, segment, Want::Any, 0) {
                        Some(m) => id = m,
                        None => return (Target::Nothing, Confidence::Unresolved, true),
                    }
                }
                let kind = self.syms[&id].kind;
                let fits = match r.kind {
                    RefKind::Calls => kind.is_callable() || kind.is_type() || kind == SymbolKind::Variant,
                    RefKind::MethodRef => kind.is_callable() || kind == SymbolKind::Variant,
                    RefKind::UsesField => matches!(kind, SymbolKind::Const | SymbolKind::Static),
                    _ => true,
                };
                return if fits {
                    (Target::Symbol(id), Confidence::Exact, true)
                } else {
                    (Target::Nothing, Confidence::Unresolved, !matches!(r.kind, RefKind::MethodRef | RefKind::UsesField))
                };
            }
        }
        self.resolve_rust_path_at(r)
    }

    /// The item `name` that a function around a place declares in its body (or one around
    /// it does), nearest first.
    pub(super) fn local_item(&self, enclosing: Option<SymbolId>, name: &str) -> Option<SymbolId> {
        let mut cur = enclosing;
        while let Some(id) = cur {
            let sym = self.syms.get(&id)?;
            if !sym.kind.is_callable() {
                return None;
            }
            if let Some(child) = self.children_of(id).iter().find(|c| *self.syms[c].name == *name && self.syms[c].kind != SymbolKind::Macro)
            {
                return Some(*child);
            }
            cur = sym.parent;
        }
        None
    }

    fn resolve_rust_path_at(&self, r: &RefQuery) -> (Target, Confidence, bool) {
        let module = self.module_of(r.file, r.enclosing);
        let want = match r.kind {
            RefKind::Calls => Want::Callable,
            RefKind::Imports | RefKind::Expands | RefKind::Accesses => Want::Any,
            _ => Want::Type,
        };
        if r.kind == RefKind::UsesField {
            // A constant or static read by its path (`Level::TRACE`, `MAX`, `Self::INFO`):
            // kept when the path names one (an external one only when written with a path).
            if let Receiver::Implicit = r.receiver {
                return match self.rust_path(r.name, &module, 0) {
                    Some(PathHit::Symbol(id)) if matches!(self.syms[&id].kind, SymbolKind::Const | SymbolKind::Static) => {
                        (Target::Symbol(id), Confidence::Exact, true)
                    }
                    Some(PathHit::External(q)) if r.name.contains("::") => (Target::External(q), Confidence::External, true),
                    _ => (Target::Nothing, Confidence::Unresolved, false),
                };
            }
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
            let hit = self.rust_path(r.name, &module, 0);
            // `use tracing::info;` of a macro a crate exports at its root.
            if hit.is_none() {
                if let Some(found) = r.name.rsplit_once("::").and_then(|(owner, name)| self.macro_by_path(owner, name, &module)) {
                    return self.hit_to_target(Some(found), r.name, want);
                }
            }
            return self.hit_to_target(hit, r.name, want);
        }
        if r.kind == RefKind::Calls && !r.name.contains("::") && !matches!(r.receiver, Receiver::Implicit) {
            return self.rust_method_call(r, &module);
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
        // A macro a `use` brings in (`use tracing::info;`, a crate's exported macro).
        if r.kind == RefKind::Expands && !r.name.contains("::") {
            if let Some(hit) = self.macro_through_import(&module, r.name) {
                return self.hit_to_target(Some(hit), r.name, want);
            }
        }
        // A macro by path (`tracing::info!`, `crate::feature!`): in the module the path
        // names, or, at a crate's root, the crate's macro of that name wherever it is
        // defined (`#[macro_export]` puts it there).
        if r.kind == RefKind::Expands {
            if let Some((owner, name)) = r.name.rsplit_once("::") {
                return match self.macro_by_path(owner, name, &module) {
                    Some(hit) => self.hit_to_target(Some(hit), r.name, want),
                    None => (Target::Nothing, Confidence::Unresolved, true),
                };
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

    /// A method call on a receiver (`x.m()`): by the receiver's type, through the element
    /// of a container, a function used as a value, or a type from outside the repository.
    fn rust_method_call(&self, r: &RefQuery, module: &str) -> (Target, Confidence, bool) {
        match r.receiver {
            // A name no variable declares (`handler.into_service()`): a function used as
            // a value has the methods of the traits implemented for every type (a
            // handler's `HandlerWithoutStateExt`), else nothing known.
            Receiver::Type(t) if t.starts_with(crate::model::FN_VALUE) => {
                let name = &t[crate::model::FN_VALUE.len()..];
                let function = self
                    .local_item(r.enclosing, name)
                    .filter(|f| self.syms[f].kind.is_callable())
                    .or_else(|| self.rust_function(name, module));
                match function.and_then(|_| self.blanket_method(r.name).or_else(|| self.function_blanket_method(r.name))) {
                    Some(m) => (Target::Symbol(m), Confidence::Exact, true),
                    None => self.guess(Language::Rust, r.name, Want::Callable),
                }
            }
            // `ms.pop().unwrap()`: a container's element call gives an `Option`, whose
            // `unwrap` it is (the extractor's chain passes through it to the element).
            Receiver::Type(t) if lang::spec(Language::Rust).transparent_calls.contains(&r.name) && self.on_element_option(t, r) => {
                (Target::External(format!("std::option::Option::{}", r.name)), Confidence::External, true)
            }
            Receiver::Type(t) if t.contains('#') || t.ends_with('@') || t.contains('~') || t.ends_with('!') => {
                match self.rust_receiver_type(t, r.file, module, r.enclosing).and_then(|id| self.rust_method(id, r.name)) {
                    Some(m) => (Target::Symbol(m), Confidence::Exact, true),
                    None => self.guess(Language::Rust, r.name, Want::Callable),
                }
            }
            Receiver::Type(t) => {
                // A type's path, or a constant's or static's (of its declared type).
                if let Some(id) = self.rust_receiver_type(t, r.file, module, r.enclosing) {
                    return match self.rust_method(id, r.name) {
                        Some(m) => (Target::Symbol(m), Confidence::Exact, true),
                        None => self.guess(Language::Rust, r.name, Want::Callable),
                    };
                }
                let written = crate::model::without_element(t);
                let hit = self.rust_path(written, module, 0);
                // A value of a type from outside the repository (`()`, `str`, `HeaderMap`,
                // a constant's `&'static str`) whose impl the repository has
                // (`impl IntoResponse for ()`): that impl's method.
                let foreign = match &hit {
                    Some(PathHit::Symbol(id)) if matches!(self.syms[id].kind, SymbolKind::Const | SymbolKind::Static) => {
                        self.syms[id].returns.as_deref().map(str::to_string)
                    }
                    Some(PathHit::Symbol(_)) => None,
                    _ => Some(written.to_string()),
                };
                if let Some(m) = foreign.and_then(|f| self.foreign_impl_method(&f, r.name)) {
                    return (Target::Symbol(m), Confidence::Exact, true);
                }
                match hit {
                    // A literal's type (`"x".into()`) is no path of an outside crate.
                    Some(PathHit::External(q)) if !matches!(written, "()" | "str" | "bool") => {
                        (Target::External(format!("{q}::{}", r.name)), Confidence::External, true)
                    }
                    _ => self.guess(Language::Rust, r.name, Want::Callable),
                }
            }
            Receiver::Unknown => self.guess(Language::Rust, r.name, Want::Callable),
            // A free function (`f()`, `Ok(x)`) is resolved as a path.
            Receiver::Implicit => (Target::Nothing, Confidence::Unresolved, true),
        }
    }

    /// The macro `owner::name` names: one defined in the module `owner` names, else, when
    /// `owner` is a crate's root, the crate's only macro of that name; or an external one.
    fn macro_by_path(&self, owner: &str, name: &str, module: &str) -> Option<PathHit> {
        let owner_module = match self.rust_path(owner, module, 0)? {
            PathHit::External(q) => return Some(PathHit::External(format!("{q}::{name}"))),
            PathHit::ModulePath(m) => m,
            PathHit::Symbol(id) if self.syms[&id].kind == SymbolKind::Module => self.syms[&id].qname.to_string(),
            PathHit::Symbol(_) => return None,
        };
        let is_macro = |id: &SymbolId| self.syms[id].kind == SymbolKind::Macro;
        let here = format!("{owner_module}::{name}");
        if let Some(id) = self.by_qname.get(here.as_str()).and_then(|ids| ids.iter().copied().find(is_macro)) {
            return Some(PathHit::Symbol(id));
        }
        // Re-exported (`pub use tracing_attributes::instrument;` beside `pub mod instrument;`).
        if let Some(hit) = self.macro_through_import(&owner_module, name) {
            return Some(hit);
        }
        if owner_module.contains("::") {
            return None;
        }
        let prefix = format!("{owner_module}::");
        let mut macros = self
            .by_name
            .get(name)
            .into_iter()
            .flatten()
            .copied()
            .filter(|id| self.is_exported_macro(*id) && self.syms[id].qname.starts_with(&prefix));
        match (macros.next(), macros.next()) {
            (Some(only), None) => Some(PathHit::Symbol(only)),
            _ => None,
        }
    }

    /// A macro at its crate's root whatever module defines it: a `#[macro_export]`
    /// `macro_rules!` or a proc macro (both public; a macro without the attribute is known
    /// only by textual scope and `use`s of it).
    fn is_exported_macro(&self, id: SymbolId) -> bool {
        let s = &self.syms[&id];
        s.kind == SymbolKind::Macro && s.access == super::Access::Public
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
                // The path names a module or function too (`tracing::instrument`): the
                // macro of that path, through the re-exports of the module it is in.
                _ => {
                    let chain = MACRO_CHAIN.with(|c| c.get());
                    if chain < MAX_HOPS {
                        if let Some((owner, last)) = path.rsplit_once("::") {
                            MACRO_CHAIN.with(|c| c.set(chain + 1));
                            let found = self.macro_by_path(owner, last, module);
                            MACRO_CHAIN.with(|c| c.set(chain));
                            if let Some(found) = found {
                                return Some(found);
                            }
                        }
                    }
                }
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
                .filter(|id| self.is_exported_macro(*id) && self.syms[id].qname.starts_with(&prefix));
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
        self.rust_own_method(t, name).or_else(|| self.blanket_method(name))
    }

    /// The method `name` of the repository's impl for a type from outside it (`impl
    /// IntoResponse for ()`, `.. for &'static str`, `.. for HeaderMap`), by the type's last
    /// segment as the impl writes it, when exactly one such impl has it.
    fn foreign_impl_method(&self, written: &str, name: &str) -> Option<SymbolId> {
        let simple = crate::model::last_segment(written.trim_start_matches('&').trim());
        if simple.is_empty() {
            return None;
        }
        let mut found = self.symbol_ids_named(name).iter().copied().filter(|id| {
            let s = &self.syms[id];
            s.kind.is_callable()
                && s.parent.is_none()
                && s.impl_type.as_deref().is_some_and(|t| crate::model::last_segment(t) == simple)
                && !self.shadowed(*id)
        });
        match (found.next(), found.next()) {
            (Some(only), None) => Some(only),
            _ => None,
        }
    }

    /// A method of a trait implemented for every type (`model::BLANKET`: extension traits
    /// such as `SubscriberExt::with`), when exactly one such trait has one of the name.
    fn blanket_method(&self, name: &str) -> Option<SymbolId> {
        let mut found = self.symbol_ids_named(name).iter().copied().filter(|id| {
            let s = &self.syms[id];
            s.kind.is_callable() && s.parent.and_then(|p| self.syms.get(&p)).is_some_and(|t| t.blanket) && !self.shadowed(*id)
        });
        match (found.next(), found.next()) {
            (Some(only), None) => Some(only),
            _ => None,
        }
    }

    /// A function value's method of a blanket trait, when several blanket traits have one of
    /// the name (`handler.into_make_service()`: `HandlerWithoutStateExt<T>: Handler<T, ()>`
    /// and `ServiceExt<R>: Service<R>`): the only one whose supertraits include a repository
    /// trait that is itself implemented for every type (`impl<F: FnOnce() -> Fut> Handler for
    /// F`), which a function can be; a supertrait from outside the repository is not known to be.
    fn function_blanket_method(&self, name: &str) -> Option<SymbolId> {
        let mut found = self.symbol_ids_named(name).iter().copied().filter(|id| {
            let s = &self.syms[id];
            s.kind.is_callable()
                && !self.shadowed(*id)
                && s.parent.and_then(|p| self.syms.get(&p).map(|t| (p, t))).is_some_and(|(p, t)| {
                    t.blanket
                        && self.supertypes.get(&p).is_some_and(|supers| {
                            supers.iter().any(|s| *s != p && self.syms.get(s).is_some_and(|t| t.kind == SymbolKind::Trait && t.blanket))
                        })
                })
        });
        match (found.next(), found.next()) {
            (Some(only), None) => Some(only),
            _ => None,
        }
    }

    /// `rust_method` without the blanket traits: the type's own, or through `Deref`.
    fn rust_own_method(&self, t: SymbolId, name: &str) -> Option<SymbolId> {
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
        // A function used as a value is of no type of the repository.
        if t.starts_with(crate::model::FN_VALUE) {
            return None;
        }
        // An element of a container (a loop's variable, a closure's parameter).
        if let Some(container) = t.strip_suffix('@') {
            return self.element_of(container, file, enclosing, 0);
        }
        // An element of a tuple (`let (s, handle) = mock().run_with_handle();`), at the end
        // of the receiver (a chain may go on from it: `pair()~0#with()`).
        if let Some((tuple, index)) = t.rsplit_once('~').filter(|(_, i)| i.bytes().all(|b| b.is_ascii_digit())) {
            return self.tuple_element(tuple, index.parse().ok()?, file, module, enclosing);
        }
        // A macro's value (`info_span!(..)`): what the macro's rules give, where it is defined.
        if let Some(path) = t.strip_suffix('!') {
            return self.macro_value(path, file, enclosing);
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
            // A function a function around declares in its body (`local().m()`).
            let local = if base.is_empty() { self.local_item(enclosing, name).filter(|f| self.syms[f].kind.is_callable()) } else { None };
            let Some(f) = local.or_else(|| self.rust_function(&path, module)) else {
                // A tuple struct's constructor (`Fut(x).instrument(..)`), one a function
                // around declares included.
                let local = if base.is_empty() { self.local_item(enclosing, name) } else { None };
                return match local.map(PathHit::Symbol).or_else(|| self.rust_path(&path, module, 0)) {
                    Some(PathHit::Symbol(id)) if self.syms[&id].kind == SymbolKind::Struct => Some(id),
                    _ => None,
                };
            };
            let sym = &self.syms[&f];
            return match self.rust_path(sym.returns.as_deref()?, &self.module_of(sym.file, Some(f)), 0) {
                Some(PathHit::Symbol(id)) if self.syms[&id].kind.is_type() => Some(id),
                _ => None,
            };
        }
        match self.rust_path(crate::model::without_element(t), module, 0) {
            Some(PathHit::Symbol(id)) if self.syms[&id].kind.is_type() => Some(id),
            // A constant or static (`TEST_META.fields()`, `CALLSITE.metadata()`): of its
            // declared type, where it is declared.
            Some(PathHit::Symbol(id)) if matches!(self.syms[&id].kind, SymbolKind::Const | SymbolKind::Static) => {
                let sym = &self.syms[&id];
                // An associated constant of type `Self` (`MethodFilter::GET`) is of its type.
                if sym.returns.as_deref() == Some("Self") {
                    return sym.parent.filter(|p| self.syms.get(p).is_some_and(|t| t.kind.is_type()));
                }
                match self.rust_path(sym.returns.as_deref()?, &self.module_of(sym.file, Some(id)), 0) {
                    Some(PathHit::Symbol(t)) if self.syms[&t].kind.is_type() && t != id => Some(t),
                    _ => None,
                }
            }
            // A type a function around declares in its body (`struct MyListener;` in a test).
            None if is_plain_name(t) => self.local_item(enclosing, t).filter(|id| self.syms[id].kind.is_type()),
            _ => None,
        }
    }

    /// The type of the value a macro invocation gives: the macro's `returns` (its rules'
    /// value, see `extract::macros`), read where the macro is defined, through macros that
    /// forward to others (`info_span!` to `span!`).
    fn macro_value(&self, path: &str, file: FileId, enclosing: Option<SymbolId>) -> Option<SymbolId> {
        let chain = MACRO_CHAIN.with(|c| c.get());
        if chain >= MAX_HOPS {
            return None;
        }
        let query = RefQuery {
            file,
            enclosing,
            kind: RefKind::Expands,
            name: path,
            receiver: &Receiver::Implicit,
            subject: None,
            is_static: false,
            glob: false,
            args: None,
            implicit: false,
            argument: None,
        };
        let (Target::Symbol(id), _, _) = self.resolve_rust(&query) else { return None };
        let sym = self.syms.get(&id).filter(|s| s.kind == SymbolKind::Macro)?;
        let returns = sym.returns.as_deref()?;
        MACRO_CHAIN.with(|c| c.set(chain + 1));
        let found = self.rust_receiver_type(returns, sym.file, &self.module_of(sym.file, Some(id)), Some(id));
        MACRO_CHAIN.with(|c| c.set(chain));
        found
    }

    /// The type of element `index` of a tuple: one written (`(A, B)`), or what a call
    /// returns (`fn run_with_handle(self) -> (impl Subscriber, MockHandle)`), resolved where
    /// it is written.
    fn tuple_element(&self, tuple: &str, index: usize, file: FileId, module: &str, enclosing: Option<SymbolId>) -> Option<SymbolId> {
        let (written, at) = if tuple.starts_with('(') {
            (tuple.to_string(), module.to_string())
        } else {
            let callee = self.rust_chain_callee(tuple, file, module, enclosing)?;
            let sym = &self.syms[&callee];
            (sym.returns.as_deref()?.to_string(), self.module_of(sym.file, Some(callee)))
        };
        let element = split_tuple(&written)?.into_iter().nth(index)?;
        // `impl Subscriber` and `dyn Layer` (their spaces gone) are values of the trait.
        let element = ["impl", "dyn"]
            .iter()
            .find_map(|w| element.strip_prefix(w).filter(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase())))
            .unwrap_or(element);
        match self.rust_path(crate::model::without_element(element.trim_start_matches('&')), &at, 0) {
            Some(PathHit::Symbol(id)) if self.syms[&id].kind.is_type() => Some(id),
            _ => None,
        }
    }

    /// The function or method a call chain's last link calls (`Owner#m()`, `#m()`, a
    /// module's function `path#f()`).
    fn rust_chain_callee(&self, chain: &str, file: FileId, module: &str, enclosing: Option<SymbolId>) -> Option<SymbolId> {
        let (base, method) = chain.strip_suffix("()")?.rsplit_once('#')?;
        if base.is_empty() {
            return self
                .enclosing_types(enclosing)
                .into_iter()
                .find_map(|t| self.member(t, method, Want::Callable, 0))
                .or_else(|| self.rust_function(method, module));
        }
        if let Some(t) = self.rust_receiver_type(base, file, module, enclosing) {
            return self.rust_method(t, method);
        }
        if base.contains('#') {
            return None;
        }
        self.rust_function(&format!("{base}::{method}"), module)
    }

    /// The function a path names in the value namespace: a module or type of the same path
    /// (`pub mod registry;` beside `pub fn registry()`) is passed over.
    fn rust_function(&self, path: &str, module: &str) -> Option<SymbolId> {
        match self.rust_path(path, module, 0)? {
            PathHit::Symbol(f) if self.syms[&f].kind.is_callable() => Some(f),
            PathHit::Symbol(other) => {
                self.lookup(&self.syms[&other].qname, Want::Callable).filter(|f| self.syms[f].kind.is_callable()).or_else(|| {
                    (self.syms[&other].kind == SymbolKind::Module).then(|| self.callable_beside_module(&self.syms[&other].qname)).flatten()
                })
            }
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
                let qname = &self.syms[&id].qname;
                // A function of the module's own path (`pub mod registry;` beside `pub fn
                // registry()`, which a macro's input may declare), else one a `use` brings in.
                match self
                    .lookup(qname, Want::Callable)
                    .filter(|f| self.syms[f].kind.is_callable())
                    .or_else(|| self.callable_beside_module(qname))
                {
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
        let named = imports.by_name.get(name).into_iter().flatten().find_map(|(file, idx)| {
            match self.rust_path(&self.imports[file][*idx].path, parent, 1) {
                Some(PathHit::Symbol(f)) if self.syms[&f].kind.is_callable() => Some(f),
                _ => None,
            }
        });
        // Or a glob brings it in (`mod filter_fn;` beside `pub use self::filter_fn::*;`).
        named.or_else(|| {
            imports.globs.iter().find_map(|(file, idx)| {
                match self.rust_path(&format!("{}::{name}", self.imports[file][*idx].path), parent, 1) {
                    Some(PathHit::Symbol(f)) if self.syms[&f].kind.is_callable() => Some(f),
                    _ => None,
                }
            })
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

/// The element types of a tuple type as written without spaces (`(implSubscriber,MockHandle)`):
/// split at its top-level commas; None for anything else.
fn split_tuple(written: &str) -> Option<Vec<&str>> {
    let inner = written.strip_prefix('(')?.strip_suffix(')')?;
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in inner.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < inner.len() {
        out.push(&inner[start..]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn tuples_split_at_their_top_level_commas() {
        assert_eq!(super::split_tuple("(implSubscriber,MockHandle)"), Some(vec!["implSubscriber", "MockHandle"]));
        assert_eq!(super::split_tuple("(Vec<(A,B)>,C,)"), Some(vec!["Vec<(A,B)>", "C"]));
        assert_eq!(super::split_tuple("Result<A,B>"), None);
    }
}

/// A name without a path, a call or an element (`MyListener`).
fn is_plain_name(t: &str) -> bool {
    !t.is_empty() && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}
