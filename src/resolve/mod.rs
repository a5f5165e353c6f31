//! Resolution: turns the names references are written with into symbol ids, following
//! each language's rules (Java: nested types, single-type imports, same package,
//! on-demand imports, `java.lang`; Rust: module tree, `use` with aliases, globs and
//! re-exports through several hops, `crate`/`self`/`super`, workspace crates, prelude).
//! A name that leaves the repository becomes an external target; a bare name match is
//! kept only when it is unique, and marked as a guess. This module touches no SQL: the
//! `World` is filled by `index` from the store.

use std::sync::Arc;

use crate::lang;

mod elements;
mod java;
pub mod jdk;
pub mod load;
mod overload;
mod rust;
use crate::model::{last_segment, Confidence, Language, Receiver, RefKind, SymbolKind};
use overload::Pick;

/// The world's maps hash short strings and ids millions of times per run: FxHash (rustc's)
/// instead of SipHash, since keys come from the repository, not from an attacker on the network.
type HashMap<K, V> = rustc_hash::FxHashMap<K, V>;
/// Unit key -> the unit keys it reaches by declared dependencies (`units::reach`).
type UnitReach = std::collections::HashMap<u64, std::collections::HashSet<u64>>;

/// The symbols under one name: most names are one symbol's, held without an allocation.
type Ids = smallvec::SmallVec<[SymbolId; 1]>;

use crate::model::{FileId, SymbolId};

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
    /// A Rust trait a blanket impl implements for every type (`model::BLANKET`).
    pub blanket: bool,
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
#[derive(Clone, Copy)]
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
    /// A call the library makes (`extract::callbacks`): dropped when it reaches a method
    /// outside the repository.
    pub implicit: bool,
    /// A Java lambda passed as an argument (`model::lambda_argument_of`): the reference is
    /// its call's, and it implements the callee's parameter at that index.
    pub argument: Option<(usize, bool)>,
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
    /// A type's direct supertypes from outside the repository, by canonical name
    /// (`java.lang.RuntimeException`; `UNKNOWN_SUPERTYPE` for one that did not resolve):
    /// what the JDK's table says of them is what the type inherits from outside
    /// (`e.getMessage()`), and whether it may be passed as an outside type (`toDto(List)`
    /// takes no entity that implements only `Serializable`).
    pub outside_supertypes: HashMap<SymbolId, Vec<Box<str>>>,
    /// Java packages and Rust module paths that files declare.
    modules: HashMap<String, usize>,
    /// Rust: (unit, crate name) -> files: the crates a build unit's targets make. Every
    /// package's `tests/` target may be a crate `integration`; in a unit, its own shadows
    /// the others'.
    unit_crates: HashMap<(u64, String), usize>,
    /// Unit key -> the units it declares a dependency on (transitively): after its own
    /// unit, a reference prefers those to others for a name several units declare.
    unit_reach: UnitReach,
    /// The HTTP endpoints (what a test's request by URL resolves through).
    endpoints: std::collections::BTreeSet<SymbolId>,
}

/// A supertype that resolved to nothing, among a type's outside supertypes: its closure is
/// not known.
pub const UNKNOWN_SUPERTYPE: &str = "?";

/// A type's supertypes in the repository and from outside (`World::supers_snapshot`).
pub type SupersSnapshot = (Vec<SymbolId>, Vec<Box<str>>);

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
    /// Java simple type names already resolved in one file, by enclosing symbol, while a
    /// `FileScope` is open on this thread (`String` is looked up once per class, not once
    /// per use).
    static TYPES: std::cell::RefCell<Option<(FileId, TypeMemo)>> = const { std::cell::RefCell::new(None) };
}

type TypeMemo = HashMap<Option<SymbolId>, HashMap<String, Option<Target>>>;

/// While open, the Java simple type names this thread resolves in `file` are remembered.
/// Open it only where the world cannot change until it is dropped (around one file's
/// resolution, the world borrowed): a name's meaning depends on the world only.
pub struct FileScope;

impl FileScope {
    pub fn open(file: FileId) -> FileScope {
        TYPES.with(|t| *t.borrow_mut() = Some((file, HashMap::default())));
        FileScope
    }
}

impl Drop for FileScope {
    fn drop(&mut self) {
        TYPES.with(|t| *t.borrow_mut() = None);
    }
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
        if sym.kind == SymbolKind::Endpoint {
            self.endpoints.insert(id);
        }
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

    /// Sets a type's supertypes from outside the repository (sorted and deduplicated here,
    /// so that however the world was built it holds one list).
    pub fn set_outside_supertypes(&mut self, id: SymbolId, mut supers: Vec<Box<str>>) {
        supers.sort_unstable();
        supers.dedup();
        if supers.is_empty() {
            self.outside_supertypes.remove(&id);
        } else {
            self.outside_supertypes.insert(id, supers);
        }
    }

    /// A type's supertypes, the repository's and those from outside: what a run compares
    /// before and after to tell that inheritance changed.
    pub fn supers_snapshot(&self, id: SymbolId) -> SupersSnapshot {
        (self.supertypes.get(&id).cloned().unwrap_or_default(), self.outside_supertypes.get(&id).cloned().unwrap_or_default())
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
        self.endpoints.remove(&id);
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
        self.outside_supertypes.remove(&id);
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
        // impl's, wherever each is declared (rustc's method lookup: tracing-subscriber's
        // `impl RecordFields for Event` does not hide tracing-core's `Event::record`).
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
            // A macro lives in a namespace of its own and is never a path's prefix: a
            // module, type or function of its name (`mod metadata` beside `macro_rules!
            // metadata`) comes first where any kind will do.
            let macro_last = want == Want::Any && sym.kind == SymbolKind::Macro;
            (macro_last, outside, sym.from_trait, distance, want == Want::Callable && !sym.kind.is_callable(), *id)
        })
    }

    /// A request by URL (`GET /owners/1`, as a test writes it): the handler of the endpoint
    /// its verb and path match (`GET /owners/{ownerId}`), the most specific pattern first (as
    /// Spring picks one: fewest wildcards, then fewest variables); handlers tied are each
    /// named, marked ambiguous.
    pub(super) fn url_handler(&self, request: &str) -> (Target, Confidence, bool) {
        let Some((verb, path)) = request.split_once(' ') else { return (Target::Nothing, Confidence::Unresolved, true) };
        let mut found: Vec<((usize, usize), SymbolId)> = Vec::new();
        for id in &self.endpoints {
            let sym = &self.syms[id];
            let Some((v, template)) = sym.name.split_once(' ') else { continue };
            if (v == verb || v == "ANY") && (template == path || crate::frameworks::template_matches(template, path)) {
                let wildcards = template.matches("**").count() + template.matches("{*").count();
                let variables = template.matches('{').count();
                if let Some(handler) = sym.parent {
                    found.push(((wildcards, variables), handler));
                }
            }
        }
        let Some(best) = found.iter().map(|(rank, _)| *rank).min() else { return (Target::Nothing, Confidence::Unresolved, true) };
        let mut handlers: Vec<SymbolId> = found.into_iter().filter(|(rank, _)| *rank == best).map(|(_, h)| h).collect();
        handlers.sort_unstable();
        handlers.dedup();
        match handlers.as_slice() {
            [one] => (Target::Symbol(*one), Confidence::Exact, true),
            _ => (Target::Overloads(handlers), Confidence::Ambiguous, true),
        }
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
        let (mut target, mut confidence, mut keep) = match file.language {
            Language::Java => self.resolve_java(r, &file.module),
            Language::Rust => self.resolve_rust(r),
        };
        // A call the library makes of a library type's method is no dependency of the
        // repository's; an unresolved one is kept, for an edit that declares its method.
        if r.implicit && matches!(target, Target::External(_) | Target::Overloads(_)) {
            keep = false;
        }
        // Nor is a method of that name guessed.
        if r.implicit && confidence == Confidence::Guess {
            (target, confidence) = (Target::Nothing, Confidence::Unresolved);
        }
        let source = match r.subject {
            // Java's subject (an anonymous class around a call) only scopes the lookup.
            Some(_) if file.language == Language::Java => r.enclosing,
            // A type a function declares in its body (`struct Probe; impl T for Probe {}` in a
            // test) is found there first.
            Some(subject) => {
                match (file.language == Language::Rust).then(|| self.local_item(r.enclosing, subject)).flatten().or_else(|| {
                    match self.rust_path(subject, &self.module_of(r.file, r.enclosing), 0) {
                        Some(PathHit::Symbol(id)) => Some(id),
                        _ => None,
                    }
                }) {
                    Some(id) => Some(id),
                    None => r.enclosing,
                }
            }
            None => r.enclosing,
        };
        Resolution { target, confidence, source, keep }
    }

    // ---------------------------------------------------------------- Java

    /// A name match for a Java call, kept only when exactly one method of the name takes as
    /// many arguments (`iter.next().getTime()` is no call of a one-argument `getTime(Date)`).
    fn guess_call(&self, path: &str, args: Option<&str>) -> (Target, Confidence, bool) {
        let Some(args) = args else { return self.guess(Language::Java, path, Want::Callable) };
        let given = overload::split_list(args).len();
        let fits = |id: &SymbolId| self.syms[id].params.as_deref().is_none_or(|p| overload::takes_arity(p, given));
        match self.guess(Language::Java, path, Want::Callable) {
            (Target::Symbol(id), Confidence::Guess, keep) if !fits(&id) => (Target::Nothing, Confidence::Unresolved, keep),
            other => other,
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
            blanket: false,
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
            implicit: false,
            argument: None,
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
