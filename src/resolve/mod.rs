//! Resolution: turns the names references are written with into symbol ids, following
//! each language's rules (Java: nested types, single-type imports, same package,
//! on-demand imports, `java.lang`; Rust: module tree, `use` with aliases, globs and
//! re-exports through several hops, `crate`/`self`/`super`, workspace crates, prelude).
//! A name that leaves the repository becomes an external target; a bare name match is
//! kept only when it is unique, and marked as a guess. This module touches no SQL: the
//! `World` is filled by `index` from the store.

use std::sync::Arc;

use crate::lang;

pub mod load;
mod overload;
use crate::model::{last_segment, Confidence, Language, Receiver, RefKind, SymbolKind};
use overload::Pick;

/// The world's maps hash short strings and ids millions of times per run: FxHash (rustc's)
/// instead of SipHash, since keys come from the repository, not from an attacker on the network.
type HashMap<K, V> = rustc_hash::FxHashMap<K, V>;
/// Unit key -> the unit keys it reaches by declared dependencies (`units::reach`).
type UnitReach = std::collections::HashMap<u64, std::collections::HashSet<u64>>;

/// The symbols under one name: most names are one symbol's, held without an allocation.
type Ids = smallvec::SmallVec<[SymbolId; 1]>;

pub use crate::model::{FileId, SymbolId};

#[derive(Clone, Debug)]
pub struct Sym {
    pub file: FileId,
    pub parent: Option<SymbolId>,
    pub kind: SymbolKind,
    /// Shared with the world's name and qualified-name keys (names are held once each).
    pub name: Arc<str>,
    pub qname: Arc<str>,
    /// Rust impl members: the impl's self type as written, and the inline module the impl
    /// is in when it is not the file's.
    pub impl_type: Option<Box<str>>,
    pub impl_module: Option<Box<str>>,
    /// Callables: the declared return type as written (see `Symbol::returns`).
    pub returns: Option<Box<str>>,
    /// Java callables: the erased parameter types (see `Symbol::params`).
    pub params: Option<Box<str>>,
    /// Who may use it: overload resolution leaves out what the call site cannot see.
    pub access: Access,
    /// A Rust member of a trait impl (`impl Trait for T { fn m() }`): an inherent member of
    /// the same name comes first, as in rustc's method lookup.
    pub from_trait: bool,
}

/// A symbol's declared access (Java's four levels; Rust's `pub` is public, the rest private).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Private,
    Package,
    Protected,
    Public,
}

impl Access {
    pub fn from_visibility(visibility: &str) -> Access {
        match visibility {
            "private" => Access::Private,
            "package" => Access::Package,
            "protected" => Access::Protected,
            _ => Access::Public,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Import {
    pub file: FileId,
    pub enclosing: Option<SymbolId>,
    pub path: String,
    pub alias: Option<String>,
    pub glob: bool,
    pub is_static: bool,
}

impl Import {
    /// The name the import brings into scope.
    pub fn visible_name(&self) -> &str {
        self.alias.as_deref().unwrap_or_else(|| last_segment(&self.path))
    }
}

#[derive(Clone, Debug)]
pub struct FileCtx {
    pub language: Language,
    pub module: String,
    /// The build unit holding the file (`units::unit_key`; 0 for none): among symbols of one
    /// qualified name in several units (every crate's `tests/` target named `integration`),
    /// a reference takes its own unit's.
    pub unit: u64,
    /// Outside every source root of its unit: test data (`src/test/resources/**.java`),
    /// which a same-named class of compiled code wins over.
    pub outside_roots: bool,
}

/// Where a reference points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Symbol(SymbolId),
    External(String),
    /// Several overloads remain (ids ascending): the reference names each, marked ambiguous.
    Overloads(Vec<SymbolId>),
    Nothing,
}

/// A reference as the resolver needs it.
pub struct RefQuery<'a> {
    pub file: FileId,
    pub enclosing: Option<SymbolId>,
    pub kind: RefKind,
    pub name: &'a str,
    pub receiver: &'a Receiver,
    pub subject: Option<&'a str>,
    pub is_static: bool,
    pub glob: bool,
    /// Java calls and creations: the argument types (see `Reference::args`).
    pub args: Option<&'a str>,
}

pub struct Resolution {
    pub target: Target,
    pub confidence: Confidence,
    /// The symbol the edge starts from: the enclosing symbol, or the resolved subject.
    pub source: Option<SymbolId>,
    /// False when the reference turned out to be no reference at all (a local variable
    /// written like a type in `x.y`): the index drops it.
    pub keep: bool,
}

/// The symbol table of the whole repository, in memory.
#[derive(Default)]
pub struct World {
    pub syms: HashMap<SymbolId, Sym>,
    by_qname: HashMap<Arc<str>, Ids>,
    by_name: HashMap<Arc<str>, Ids>,
    by_file: HashMap<FileId, Vec<SymbolId>>,
    children: HashMap<SymbolId, Ids>,
    pub files: HashMap<FileId, FileCtx>,
    imports: HashMap<FileId, Vec<Import>>,
    /// Rust: imports by the module they are declared in, for re-export chains.
    module_imports: HashMap<String, ModuleImports>,
    pub supertypes: HashMap<SymbolId, Vec<SymbolId>>,
    /// Java packages and Rust module paths that files declare.
    modules: HashMap<String, usize>,
    /// Rust: (unit, crate name) -> files: the crates a build unit's targets make. Every
    /// package's `tests/` target may be a crate `integration`; in a unit, its own shadows
    /// the others'.
    unit_crates: HashMap<(u64, String), usize>,
    /// Unit key -> the units it declares a dependency on (transitively): after its own
    /// unit, a reference prefers those to others for a name several units declare.
    unit_reach: UnitReach,
}

/// A Rust module's imports (file, index into that file's imports): named ones by the name
/// they bring into scope, globs in declaration order.
#[derive(Default)]
struct ModuleImports {
    by_name: HashMap<String, Vec<(FileId, usize)>>,
    globs: Vec<(FileId, usize)>,
}

thread_local! {
    /// Rust: (module, name) lookups already answered during one resolution; also breaks
    /// cycles of glob imports (`use super::*` both ways). Cleared per reference. Per thread,
    /// so that one `World` can resolve on several threads at once.
    static MEMO: std::cell::RefCell<HashMap<(String, String), Option<PathHit>>> = Default::default();
    /// The build unit of the file whose reference is being resolved.
    static UNIT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

const MAX_HOPS: usize = 8;

/// The crate of a Rust module path or qualified name: its first segment.
fn crate_of(path: &str) -> &str {
    path.split("::").next().unwrap_or(path)
}

impl World {
    /// Which units each unit declares a dependency on (`units::reach`).
    pub fn set_unit_reach(&mut self, reach: UnitReach) {
        self.unit_reach = reach;
    }

    /// Takes the unit dependencies out (a reload of the world keeps them).
    pub fn take_unit_reach(&mut self) -> UnitReach {
        std::mem::take(&mut self.unit_reach)
    }

    pub fn add_file(&mut self, file: FileId, ctx: FileCtx) {
        *self.modules.entry(ctx.module.clone()).or_default() += 1;
        if ctx.language == Language::Rust {
            *self.unit_crates.entry((ctx.unit, crate_of(&ctx.module).to_string())).or_default() += 1;
        }
        self.files.insert(file, ctx);
    }

    pub fn add_symbol(&mut self, id: SymbolId, mut sym: Sym) {
        sym.qname = add_to(&mut self.by_qname, sym.qname, id);
        sym.name = add_to(&mut self.by_name, sym.name, id);
        self.by_file.entry(sym.file).or_default().push(id);
        if let Some(p) = sym.parent {
            self.children.entry(p).or_default().push(id);
        }
        self.syms.insert(id, sym);
    }

    pub fn add_import(&mut self, import: Import) {
        let file = import.file;
        let rust_module = self.files.get(&file).filter(|f| f.language == Language::Rust).map(|_| self.module_of(file, import.enclosing));
        let list = self.imports.entry(file).or_default();
        list.push(import);
        let idx = list.len() - 1;
        if let Some(module) = rust_module {
            let entry = self.module_imports.entry(module).or_default();
            let import = &self.imports[&file][idx];
            if import.glob {
                entry.globs.push((file, idx));
            } else {
                entry.by_name.entry(import.visible_name().to_string()).or_default().push((file, idx));
            }
        }
    }

    pub fn set_supertypes(&mut self, id: SymbolId, supers: Vec<SymbolId>) {
        if supers.is_empty() {
            self.supertypes.remove(&id);
        } else {
            self.supertypes.insert(id, supers);
        }
    }

    /// Forgets a file and everything it defined. Returns the removed symbol ids.
    pub fn remove_file(&mut self, file: FileId) -> Vec<SymbolId> {
        if let Some(ctx) = self.files.remove(&file) {
            if let Some(n) = self.modules.get_mut(&ctx.module) {
                *n -= 1;
                if *n == 0 {
                    self.modules.remove(&ctx.module);
                }
            }
            let key = (ctx.unit, crate_of(&ctx.module).to_string());
            if let Some(n) = self.unit_crates.get_mut(&key) {
                *n -= 1;
                if *n == 0 {
                    self.unit_crates.remove(&key);
                }
            }
        }
        if self.imports.remove(&file).is_some() {
            for m in self.module_imports.values_mut() {
                m.globs.retain(|(f, _)| *f != file);
                m.by_name.retain(|_, list| {
                    list.retain(|(f, _)| *f != file);
                    !list.is_empty()
                });
            }
            self.module_imports.retain(|_, m| !m.globs.is_empty() || !m.by_name.is_empty());
        }
        let ids = self.by_file.remove(&file).unwrap_or_default();
        for id in &ids {
            self.remove_symbol(*id);
        }
        ids
    }

    fn remove_symbol(&mut self, id: SymbolId) {
        let Some(sym) = self.syms.remove(&id) else {
            return;
        };
        remove_from(&mut self.by_qname, &sym.qname, id);
        remove_from(&mut self.by_name, &sym.name, id);
        if let Some(list) = self.by_file.get_mut(&sym.file) {
            list.retain(|x| *x != id);
        }
        if let Some(p) = sym.parent {
            if let Some(list) = self.children.get_mut(&p) {
                list.retain(|c| *c != id);
            }
        }
        // The list of its own children stays: members declared in other files (Rust impls)
        // still belong to the symbol when it is parsed again with the same id, and are
        // attached elsewhere by the indexer when it is gone for good.
        self.supertypes.remove(&id);
    }

    pub fn symbol_ids_named(&self, name: &str) -> &[SymbolId] {
        self.by_name.get(name).map(|ids| ids.as_slice()).unwrap_or(&[])
    }

    pub fn children_of(&self, id: SymbolId) -> &[SymbolId] {
        self.children.get(&id).map(|ids| ids.as_slice()).unwrap_or(&[])
    }

    /// Attaches a Rust impl member to the type its impl names, when that type is in the
    /// repository: the member's parent becomes the type and its qualified name follows.
    /// Returns the new (parent, qname) if it changed.
    pub fn attach_impl_member(&mut self, id: SymbolId) -> Option<(Option<SymbolId>, String)> {
        MEMO.with(|m| m.borrow_mut().clear());
        let sym = self.syms.get(&id)?;
        let impl_type = sym.impl_type.clone()?;
        let module = match &sym.impl_module {
            Some(m) => m.to_string(),
            None => self.module_of(sym.file, None),
        };
        // A blanket or foreign impl (`<&mut S as Sink>`) names no type: it keeps its form.
        let hit = if impl_type.starts_with('<') { None } else { self.rust_path(&impl_type, &module, 0) };
        let (new_parent, new_qname) = match hit {
            Some(PathHit::Symbol(t)) if self.syms[&t].kind.is_type() => (Some(t), format!("{}::{}", self.syms[&t].qname, sym.name)),
            _ => (None, format!("{}::{}::{}", module, crate::model::impl_owner(&impl_type), sym.name).trim_start_matches("::").to_string()),
        };
        if new_parent == sym.parent && *new_qname == *sym.qname {
            return None;
        }
        let mut sym = self.syms.get(&id)?.clone();
        self.remove_symbol(id);
        sym.parent = new_parent;
        sym.qname = new_qname.as_str().into();
        self.add_symbol(id, sym);
        Some((new_parent, new_qname))
    }

    /// The module a place is in: the innermost inline `mod`, else the file's module.
    fn module_of(&self, file: FileId, enclosing: Option<SymbolId>) -> String {
        let mut cur = enclosing;
        while let Some(id) = cur {
            let Some(sym) = self.syms.get(&id) else { break };
            if sym.kind == SymbolKind::Module {
                return sym.qname.to_string();
            }
            cur = sym.parent;
        }
        self.files.get(&file).map(|f| f.module.clone()).unwrap_or_default()
    }

    /// The innermost enclosing type (then the next one out, and so on).
    fn enclosing_types(&self, enclosing: Option<SymbolId>) -> Vec<SymbolId> {
        let mut out = Vec::new();
        let mut cur = enclosing;
        while let Some(id) = cur {
            let Some(sym) = self.syms.get(&id) else { break };
            if sym.kind.is_type() {
                out.push(id);
            }
            cur = sym.parent;
        }
        out
    }

    /// A Rust item of a crate that the reference's own unit also makes (by name: every
    /// package's `tests/` target may be the crate `integration`) but in another unit: out
    /// of the reference's reach.
    /// And test data of another unit (a Java file under its `src/test/resources/`, which
    /// no build compiles for others) is out of reach too.
    fn shadowed(&self, id: SymbolId) -> bool {
        let unit = UNIT.with(|u| u.get());
        let sym = &self.syms[&id];
        self.files.get(&sym.file).is_some_and(|f| {
            f.unit != unit
                && (f.outside_roots
                    || (f.language == Language::Rust && self.unit_crates.contains_key(&(unit, crate_of(&sym.qname).to_string()))))
        })
    }

    fn pick(&self, ids: &[SymbolId], want: Want) -> Option<SymbolId> {
        self.pick_from(ids.iter().copied(), want)
    }

    /// The lowest id among those of the wanted kind (never "the first found"), after the
    /// preferences below.
    fn pick_from(&self, ids: impl Iterator<Item = SymbolId>, want: Want) -> Option<SymbolId> {
        let unit = UNIT.with(|u| u.get());
        let ok = |id: &SymbolId| {
            let kind = self.syms[id].kind;
            if self.shadowed(*id) {
                return false;
            }
            match want {
                Want::Type => kind.is_type(),
                // Record components are called as accessor methods.
                Want::Callable => {
                    kind.is_callable()
                        || kind == SymbolKind::Variant
                        || kind.is_type()
                        || (kind == SymbolKind::Field
                            && self.syms[id].parent.is_some_and(|p| self.syms.get(&p).is_some_and(|s| s.kind == SymbolKind::Record)))
                }
                Want::Field => is_field(kind),
                Want::Any => true,
            }
        };
        // A call names a callable before a type of the same name (`pub fn Lite(..)` beside
        // `struct Lite`: `Lite(x)` calls the function), an inherent member before a trait
        // impl's.
        // And, among items of one name in several units (the same class in two modules),
        // compiled code before test data, then the reference's own unit, then the units it
        // declares a dependency on, then others.
        let reach = self.unit_reach.get(&unit);
        ids.filter(ok).min_by_key(|id| {
            let sym = &self.syms[id];
            let (outside, distance) = match self.files.get(&sym.file) {
                Some(f) if f.unit == unit => (f.outside_roots, 0),
                Some(f) if reach.is_some_and(|r| r.contains(&f.unit)) => (f.outside_roots, 1),
                Some(f) => (f.outside_roots, 2),
                None => (false, 2),
            };
            (outside, distance, want == Want::Callable && !sym.kind.is_callable(), sym.from_trait, *id)
        })
    }

    fn lookup(&self, qname: &str, want: Want) -> Option<SymbolId> {
        self.by_qname.get(qname).and_then(|ids| self.pick(ids, want))
    }

    /// A member named `name` of type `t` or, failing that, of its supertypes.
    fn member(&self, t: SymbolId, name: &str, want: Want, depth: usize) -> Option<SymbolId> {
        // Members of `t` named `name`: through whichever list is shorter, the type's
        // members or the symbols of that name (a symbol is in its parent's list exactly
        // when its parent is that symbol).
        let kids = self.children_of(t);
        let named = self.symbol_ids_named(name);
        let found = if named.len() <= kids.len() {
            self.pick_from(named.iter().copied().filter(|c| self.syms[c].parent == Some(t)), want)
        } else {
            self.pick_from(kids.iter().copied().filter(|c| *self.syms[c].name == *name), want)
        };
        if let Some(id) = found {
            return Some(id);
        }
        if depth >= MAX_HOPS {
            return None;
        }
        for s in self.supertypes.get(&t).map(Vec::as_slice).unwrap_or(&[]) {
            if let Some(id) = self.member(*s, name, want, depth + 1) {
                return Some(id);
            }
        }
        None
    }

    pub fn resolve(&self, r: &RefQuery) -> Resolution {
        MEMO.with(|m| m.borrow_mut().clear());
        let Some(file) = self.files.get(&r.file) else {
            return Resolution { target: Target::Nothing, confidence: Confidence::Unresolved, source: r.enclosing, keep: true };
        };
        UNIT.with(|u| u.set(file.unit));
        let (target, confidence, keep) = match file.language {
            Language::Java => self.resolve_java(r, &file.module),
            Language::Rust => self.resolve_rust(r),
        };
        let source = match r.subject {
            Some(subject) => match self.rust_path(subject, &self.module_of(r.file, r.enclosing), 0) {
                Some(PathHit::Symbol(id)) => Some(id),
                _ => r.enclosing,
            },
            None => r.enclosing,
        };
        Resolution { target, confidence, source, keep }
    }

    // ---------------------------------------------------------------- Java

    fn resolve_java(&self, r: &RefQuery, package: &str) -> (Target, Confidence, bool) {
        match r.kind {
            RefKind::Imports => self.java_import(r),
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

    /// `new T(...)`: the constructor overload, or the type when it declares none.
    fn java_new(&self, t: SymbolId, r: &RefQuery) -> (Target, Confidence, bool) {
        let constructors = self.visible_from(self.java_constructors(t), r.file, r.enclosing);
        if constructors.is_empty() {
            return (Target::Symbol(t), Confidence::Exact, true);
        }
        pick_to_target(self.pick_overload(&constructors, r.args, r.file, r.enclosing))
    }

    /// `this(...)` and `super(...)` in a constructor.
    fn java_constructor_call(&self, r: &RefQuery) -> (Target, Confidence, bool) {
        let Some(own) = self.enclosing_types(r.enclosing).into_iter().next() else {
            return (Target::Nothing, Confidence::Unresolved, false);
        };
        let class = if r.name == "this" {
            own
        } else {
            let superclass = self.supertypes.get(&own).and_then(|supers| {
                supers.iter().copied().find(|s| matches!(self.syms[s].kind, SymbolKind::Class | SymbolKind::Enum | SymbolKind::Record))
            });
            match superclass {
                Some(c) => c,
                // A superclass from outside the repository (or Object): nothing to point at.
                None => return (Target::Nothing, Confidence::Unresolved, false),
            }
        };
        self.java_new(class, r)
    }

    fn java_import(&self, r: &RefQuery) -> (Target, Confidence, bool) {
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
    fn chain_type(&self, chain: &str, enclosing: Option<SymbolId>, owner: impl Fn(&str) -> Option<SymbolId>) -> Option<SymbolId> {
        let (link, want) = match chain.strip_suffix("()") {
            Some(call) => (call, Want::Callable),
            None => (chain, Want::Field),
        };
        let (base, method) = link.rsplit_once('#')?;
        let owner_type = if base.is_empty() { None } else { Some(owner(base)?) };
        let m = match owner_type {
            None => self.enclosing_types(enclosing).into_iter().find_map(|t| self.member(t, method, want, 0)),
            Some(t) => match self.member(t, method, want, 0) {
                Some(m) => Some(m),
                None if want == Want::Field => return self.member(t, method, Want::Type, 0),
                None => None,
            },
        }?;
        let sym = self.syms.get(&m)?;
        let returns = sym.returns.as_deref()?;
        let file = self.files.get(&sym.file)?;
        let found = match file.language {
            Language::Java => match self.java_type(returns, sym.file, Some(m), &file.module)? {
                Target::Symbol(id) => Some(id),
                _ => None,
            },
            Language::Rust => {
                let returns = if returns == "Self" { sym.impl_type.as_deref().or_else(|| sym.parent.map(|_| ""))? } else { returns };
                match self.rust_path(returns, &self.module_of(sym.file, Some(m)), 0) {
                    Some(PathHit::Symbol(id)) => Some(id),
                    _ => None,
                }
            }
        }?;
        self.syms.get(&found).is_some_and(|s| s.kind.is_type()).then_some(found)
    }

    /// Resolves a type name as written in a Java file.
    fn java_type(&self, name: &str, file: FileId, enclosing: Option<SymbolId>, package: &str) -> Option<Target> {
        if name.contains('#') {
            let owner = |base: &str| match self.java_type(base, file, enclosing, package) {
                Some(Target::Symbol(id)) => Some(id),
                _ => None,
            };
            if let Some(id) = self.chain_type(name, enclosing, owner) {
                return Some(Target::Symbol(id));
            }
            // A field of a type from outside (`System#out`): named like a nested type of it,
            // as before fields were followed.
            let (base, field) = name.rsplit_once('#')?;
            if field.ends_with("()") {
                return None;
            }
            return match self.java_type(base, file, enclosing, package)? {
                Target::External(q) => Some(Target::External(format!("{q}.{field}"))),
                _ => None,
            };
        }
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

    fn java_simple_type(&self, name: &str, file: FileId, enclosing: Option<SymbolId>, package: &str) -> Option<Target> {
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
        // 6. One on-demand import of a package outside the repository: it must come from there.
        let outside: Vec<&Import> = imports
            .iter()
            .filter(|i| i.glob && !i.is_static && !self.modules.contains_key(&i.path) && self.lookup(&i.path, Want::Type).is_none())
            .collect();
        if outside.len() == 1 && name.starts_with(char::is_uppercase) {
            return Some(Target::External(format!("{}.{}", outside[0].path, name)));
        }
        None
    }

    /// A type by its canonical name, where nested types may be written with dots.
    fn java_type_by_qname(&self, qname: &str) -> Option<SymbolId> {
        if let Some(id) = self.lookup(qname, Want::Type) {
            return Some(id);
        }
        let (owner, last) = qname.rsplit_once('.')?;
        let owner = self.java_type_by_qname(owner)?;
        self.member(owner, last, Want::Type, 0)
    }

    fn java_call(&self, r: &RefQuery, package: &str) -> (Target, Confidence, bool) {
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
        match r.receiver {
            Receiver::Implicit => {
                // The innermost enclosing type with a method of that name is searched
                // (JLS 15.12.1), then overloads are resolved in it.
                for t in self.enclosing_types(r.enclosing) {
                    if let Some(pick) = self.java_member_call(t, name, r.args, r.file, r.enclosing) {
                        return pick_to_target(pick);
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
                    None => self.guess(Language::Java, name, Want::Callable),
                }
            }
            Receiver::Type(t) => match self.java_type(t, r.file, r.enclosing, package) {
                Some(Target::Symbol(id)) => match self.java_member_call(id, name, r.args, r.file, r.enclosing) {
                    Some(pick) => pick_to_target(pick),
                    None => self.guess_unless_outside(t, name),
                },
                Some(Target::External(q)) => (Target::External(format!("{q}#{name}")), Confidence::External, true),
                _ => self.guess_unless_outside(t, name),
            },
            Receiver::Unknown => self.guess(Language::Java, name, Want::Callable),
        }
    }

    /// A call on a receiver whose type is written: when that type is not found in the
    /// repository it comes from outside (a `Logger` field, a `String` local), and a method of
    /// that name here is no candidate. A chain whose type could not be followed is unknown.
    fn guess_unless_outside(&self, receiver_type: &str, name: &str) -> (Target, Confidence, bool) {
        if receiver_type.contains('#') {
            self.guess(Language::Java, name, Want::Callable)
        } else {
            (Target::Nothing, Confidence::Unresolved, true)
        }
    }

    /// A member brought in by a static import (`import static a.B.m;`, `import static a.B.*;`).
    fn java_static_import(&self, file: FileId, name: &str, want: Want) -> Option<Target> {
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
    fn java_field_in_scope(&self, r: &RefQuery, name: &str) -> Option<Target> {
        for t in self.enclosing_types(r.enclosing) {
            if let Some(m) = self.member(t, name, Want::Field, 0) {
                return Some(Target::Symbol(m));
            }
        }
        self.java_static_import(r.file, name, Want::Field)
    }

    /// `size`, `this.size`, `e.key`, `Foo.BAR`: a field, else an unresolved reference (a
    /// field of a class outside the repository, a variable the extractor could not see).
    fn java_field(&self, r: &RefQuery, package: &str) -> (Target, Confidence, bool) {
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
            None => (Target::Nothing, Confidence::Unresolved, !matches!(r.receiver, Receiver::Unknown)),
        }
    }

    /// A name match, kept only when exactly one symbol of the wanted sort has the name.
    fn guess(&self, language: Language, path: &str, want: Want) -> (Target, Confidence, bool) {
        let name = last_segment(path);
        // Names every codebase calls on values of every kind (`unwrap`, `toString`): a name
        // match says nothing there.
        if want == Want::Callable && lang::spec(language).is_ubiquitous_call(name) {
            return (Target::Nothing, Confidence::Unresolved, true);
        }
        let candidates: Vec<SymbolId> = self
            .symbol_ids_named(name)
            .iter()
            .filter(|id| !self.shadowed(**id))
            .filter(|id| match want {
                Want::Type => self.syms[*id].kind.is_type(),
                Want::Callable => self.syms[*id].kind.is_callable(),
                Want::Field => is_field(self.syms[*id].kind),
                Want::Any => true,
            })
            .copied()
            .collect();
        if candidates.len() == 1 {
            (Target::Symbol(candidates[0]), Confidence::Guess, true)
        } else {
            (Target::Nothing, Confidence::Unresolved, true)
        }
    }

    // ---------------------------------------------------------------- Rust

    fn resolve_rust(&self, r: &RefQuery) -> (Target, Confidence, bool) {
        let module = self.module_of(r.file, r.enclosing);
        let want = match r.kind {
            RefKind::Calls => Want::Callable,
            RefKind::Imports | RefKind::Expands | RefKind::Accesses => Want::Any,
            _ => Want::Type,
        };
        if r.kind == RefKind::UsesField {
            // A field of a type the receiver names; otherwise no reference is kept.
            if let Receiver::Type(t) = r.receiver {
                if let Some(id) = self.rust_receiver_type(t, &module, r.enclosing) {
                    if let Some(m) = self.member(id, r.name, Want::Field, 0) {
                        return (Target::Symbol(m), Confidence::Exact, true);
                    }
                }
            }
            return (Target::Nothing, Confidence::Unresolved, false);
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
                Receiver::Type(t) if t.contains('#') => {
                    return match self.rust_receiver_type(t, &module, r.enclosing).and_then(|id| self.member(id, r.name, Want::Callable, 0))
                    {
                        Some(m) => (Target::Symbol(m), Confidence::Exact, true),
                        None => self.guess(Language::Rust, r.name, Want::Callable),
                    };
                }
                Receiver::Type(t) => {
                    return match self.rust_path(t, &module, 0) {
                        Some(PathHit::Symbol(id)) if self.syms[&id].kind.is_type() => match self.member(id, r.name, Want::Callable, 0) {
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

    /// The type a receiver names: a path, or what a call chain returns.
    fn rust_receiver_type(&self, t: &str, module: &str, enclosing: Option<SymbolId>) -> Option<SymbolId> {
        if t.contains('#') {
            if let Some(id) = self.chain_type(t, enclosing, |base| self.rust_receiver_type(base, module, enclosing)) {
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
        match self.rust_path(t, module, 0) {
            Some(PathHit::Symbol(id)) if self.syms[&id].kind.is_type() => Some(id),
            _ => None,
        }
    }

    fn hit_to_target(&self, hit: Option<PathHit>, name: &str, want: Want) -> (Target, Confidence, bool) {
        match hit {
            // A call by a name that is a type and a function (`use super::Lite;` naming both
            // `struct Lite` and `fn Lite`): the function, the value namespace's.
            Some(PathHit::Symbol(id)) if want == Want::Callable && self.syms[&id].kind.is_type() => {
                let callable = self.lookup(&self.syms[&id].qname, Want::Callable).unwrap_or(id);
                (Target::Symbol(callable), Confidence::Exact, true)
            }
            Some(PathHit::Symbol(id)) => (Target::Symbol(id), Confidence::Exact, true),
            Some(PathHit::External(q)) => (Target::External(q), Confidence::External, true),
            Some(PathHit::ModulePath(_)) => (Target::Nothing, Confidence::Exact, true),
            None => self.guess(Language::Rust, name, want),
        }
    }

    /// Resolves a Rust path in a module. `depth` bounds re-export chains.
    fn rust_path(&self, path: &str, module: &str, depth: usize) -> Option<PathHit> {
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
    fn rust_first_segment(&self, first: &str, module: &str, depth: usize) -> Option<PathHit> {
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
    fn rust_in_module(&self, module: &str, name: &str, depth: usize) -> Option<PathHit> {
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

    fn rust_in_module_uncached(&self, module: &str, name: &str, depth: usize) -> Option<PathHit> {
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

/// What `Want::Field` accepts: fields, constants and enum constants.
fn is_field(kind: SymbolKind) -> bool {
    matches!(kind, SymbolKind::Field | SymbolKind::EnumConstant)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Want {
    Type,
    Callable,
    /// Fields, constants, enum constants.
    Field,
    Any,
}

#[derive(Clone, Debug)]
enum PathHit {
    Symbol(SymbolId),
    /// A module path known to exist (a file module or crate root without a `mod` symbol).
    ModulePath(String),
    External(String),
}

fn pick_to_target(pick: Pick) -> (Target, Confidence, bool) {
    match pick {
        Pick::One(id) => (Target::Symbol(id), Confidence::Exact, true),
        Pick::Many(ids) => (Target::Overloads(ids), Confidence::Ambiguous, true),
    }
}

fn conf_of(t: &Target) -> Confidence {
    match t {
        Target::Overloads(_) => Confidence::Ambiguous,
        Target::Symbol(_) => Confidence::Exact,
        Target::External(_) => Confidence::External,
        Target::Nothing => Confidence::Unresolved,
    }
}

fn join_java(package: &str, name: &str) -> String {
    if package.is_empty() {
        name.to_string()
    } else {
        format!("{package}.{name}")
    }
}

fn parent_module(module: &str) -> String {
    module.rsplit_once("::").map(|(p, _)| p.to_string()).unwrap_or_default()
}

/// Files `id` under `key`, and returns the map's own copy of the key for the symbol to hold.
fn add_to(map: &mut HashMap<Arc<str>, Ids>, key: Arc<str>, id: SymbolId) -> Arc<str> {
    match map.entry(key) {
        std::collections::hash_map::Entry::Occupied(mut e) => {
            e.get_mut().push(id);
            e.key().clone()
        }
        std::collections::hash_map::Entry::Vacant(e) => {
            let held = e.key().clone();
            e.insert(smallvec::smallvec![id]);
            held
        }
    }
}

fn remove_from(map: &mut HashMap<Arc<str>, Ids>, key: &str, id: SymbolId) {
    if let Some(list) = map.get_mut(key) {
        list.retain(|x| *x != id);
        if list.is_empty() {
            map.remove(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A world built by hand, no store: two Java files with a class `Gateway` each, one
    /// importing the other's.
    fn world() -> World {
        let mut w = World::default();
        let file = |module: &str| FileCtx { language: Language::Java, module: module.into(), unit: 0, outside_roots: false };
        w.add_file(1, file("com.acme.pay"));
        w.add_file(2, file("com.acme.order"));
        w.add_file(3, file("com.acme.web"));
        let class = |file: FileId, qname: &str| Sym {
            file,
            parent: None,
            kind: SymbolKind::Class,
            name: qname.rsplit('.').next().unwrap().into(),
            qname: qname.into(),
            impl_type: None,
            impl_module: None,
            returns: None,
            params: None,
            access: Access::Public,
            from_trait: false,
        };
        w.add_symbol(10, class(1, "com.acme.pay.Gateway"));
        w.add_symbol(20, class(2, "com.acme.order.Gateway"));
        w.add_symbol(21, class(2, "com.acme.order.OrderService"));
        w.add_import(Import { file: 2, enclosing: None, path: "com.acme.pay.Gateway".into(), alias: None, glob: false, is_static: false });
        w
    }

    fn resolve(w: &World, file: FileId, name: &str) -> (Target, Confidence) {
        let query = RefQuery {
            file,
            enclosing: None,
            kind: RefKind::UsesType,
            name,
            receiver: &Receiver::Implicit,
            subject: None,
            is_static: false,
            glob: false,
            args: None,
        };
        let r = w.resolve(&query);
        (r.target, r.confidence)
    }

    #[test]
    fn a_single_type_import_shadows_the_same_package_and_names_are_never_guessed_between_two() {
        let w = world();
        // JLS 6.4.1: the single-type import shadows the type of the same package.
        assert_eq!(resolve(&w, 2, "Gateway"), (Target::Symbol(10), Confidence::Exact));
        // Without an import, the file's own package.
        assert_eq!(resolve(&w, 1, "Gateway"), (Target::Symbol(10), Confidence::Exact));
        assert_eq!(resolve(&w, 1, "com.acme.order.OrderService"), (Target::Symbol(21), Confidence::Exact));
        // A simple name of another package, not imported: kept only when it is unique, as a guess.
        assert_eq!(resolve(&w, 1, "OrderService"), (Target::Symbol(21), Confidence::Guess));
        // Two classes of that name and no import: neither is picked.
        let (target, confidence) = resolve(&w, 3, "Gateway");
        assert!(!matches!(target, Target::Symbol(_)) && confidence == Confidence::Unresolved, "{target:?} {confidence:?}");
        // `java.lang` is implicit: an outside name.
        assert_eq!(resolve(&w, 1, "String").0, Target::External("java.lang.String".into()));
    }
}
