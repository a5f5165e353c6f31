//! Java overload resolution as javac does it for what the index knows (JLS 15.12.2): the
//! candidates of a name in a type and its supertypes (an override hides what it
//! overrides), arity first (variable arity included), then argument types where the
//! extractor knew them, by phase (no boxing, then boxing, then variable arity), and the
//! most specific of what remains. When unknown argument types leave several candidates
//! standing, all of them are returned: never silently the first. Touches no SQL.

use super::{Access, SymbolId, Target, Want, World, MAX_HOPS};
use crate::model::{last_segment, Language, SymbolKind, LAMBDA_ARG};

/// The outcome of overload selection.
#[derive(Debug, PartialEq, Eq)]
pub enum Pick {
    One(SymbolId),
    /// Ids ascending.
    Many(Vec<SymbolId>),
}

/// How well an argument fits a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fit {
    Yes,
    /// The argument's type is not known well enough to say.
    Maybe,
    No,
}

const PRIMITIVES: &[&str] = &["byte", "short", "char", "int", "long", "float", "double", "boolean"];

fn is_primitive(t: &str) -> bool {
    PRIMITIVES.contains(&t)
}

/// JLS 5.1.2 widening primitive conversions (and identity).
fn widens(from: &str, to: &str) -> bool {
    if from == to {
        return true;
    }
    let targets: &[&str] = match from {
        "byte" => &["short", "int", "long", "float", "double"],
        "short" => &["int", "long", "float", "double"],
        "char" => &["int", "long", "float", "double"],
        "int" => &["long", "float", "double"],
        "long" => &["float", "double"],
        "float" => &["double"],
        _ => &[],
    };
    targets.contains(&to)
}

fn boxed(primitive: &str) -> &'static str {
    match primitive {
        "byte" => "Byte",
        "short" => "Short",
        "char" => "Character",
        "int" => "Integer",
        "long" => "Long",
        "float" => "Float",
        "double" => "Double",
        _ => "Boolean",
    }
}

fn unboxed(t: &str) -> Option<&'static str> {
    Some(match t {
        "Byte" => "byte",
        "Short" => "short",
        "Character" => "char",
        "Integer" => "int",
        "Long" => "long",
        "Float" => "float",
        "Double" => "double",
        "Boolean" => "boolean",
        _ => return None,
    })
}

/// Supertypes of common `java.lang` types, for when they are not in the repository.
fn known_supertypes(simple: &str) -> Option<&'static [&'static str]> {
    const NUMBER: &[&str] = &["Number", "Comparable", "Serializable", "Object", "Constable", "ConstantDesc"];
    Some(match simple {
        "String" => &["CharSequence", "Comparable", "Serializable", "Object", "Constable", "ConstantDesc"],
        "Integer" | "Long" | "Double" | "Float" | "Short" | "Byte" => NUMBER,
        "Character" | "Boolean" => &["Comparable", "Serializable", "Object", "Constable"],
        "Object" => &[],
        "Class" => &["Type", "GenericDeclaration", "AnnotatedElement", "Serializable", "Object"],
        _ => return None,
    })
}

/// Whether a JDK type `a` is `p` or a subtype of it, by the JDK's table (`jdk`): for an
/// argument from the JDK (resolved outside the repository, or a `java.lang` name) and a
/// parameter from the JDK. A JDK type is no subtype of a repository type.
fn jdk_fit(a: &Ty, p: &Ty) -> Option<Fit> {
    let table = super::jdk::table();
    let qa = match &a.target {
        Some(Target::External(q)) if table.knows(q) => q.clone(),
        None => table.java_lang(&a.simple)?,
        _ => return None,
    };
    let qp = match &p.target {
        Some(Target::External(q)) if table.knows(q) => q.clone(),
        Some(Target::Symbol(_)) => return Some(Fit::No),
        None => table.java_lang(&p.simple)?,
        _ => return None,
    };
    Some(if table.is_subtype(&qa, &qp) { Fit::Yes } else { Fit::No })
}

/// A type as written, with what it resolved to where it was written.
struct Ty {
    /// Array dimensions (`int[][]`: 2).
    dims: usize,
    /// The element type's simple name (`?` unknown, `null`, a primitive).
    simple: String,
    target: Option<Target>,
    /// A chain whose value is one of several types from outside the repository (the
    /// overloads of a JDK method: `date.atTime(t)`, a `LocalDateTime` or an
    /// `OffsetDateTime`): those types; else empty.
    one_of: Vec<Ty>,
}

impl Ty {
    fn new(dims: usize, simple: String, target: Option<Target>) -> Ty {
        Ty { dims, simple, target, one_of: Vec::new() }
    }
}

/// A candidate with its parameter list.
struct Candidate {
    id: SymbolId,
    params: Vec<Ty>,
    varargs: bool,
}

impl World {
    /// The methods named `name` that a type has, declared or inherited, most derived first;
    /// an inherited method with the same parameters as one already found is overridden.
    pub(super) fn java_methods_named(&self, t: SymbolId, name: &str) -> Vec<SymbolId> {
        let mut out: Vec<SymbolId> = Vec::new();
        let mut seen_params: Vec<&str> = Vec::new();
        let mut queue = vec![(t, 0usize)];
        let mut visited = vec![t];
        let mut i = 0;
        while i < queue.len() {
            let (ty, depth) = queue[i];
            i += 1;
            // Through whichever list is shorter: the type's members or the symbols of the name.
            let (kids, named) = (self.children_of(ty), self.symbol_ids_named(name));
            let mut here: Vec<SymbolId> = if named.len() <= kids.len() {
                named.iter().copied().filter(|c| self.syms[c].parent == Some(ty) && self.is_java_callable_member(*c)).collect()
            } else {
                kids.iter().copied().filter(|c| *self.syms[c].name == *name && self.is_java_callable_member(*c)).collect()
            };
            here.sort_unstable();
            for id in here {
                let params = self.syms[&id].params.as_deref().unwrap_or("");
                if !seen_params.contains(&params) {
                    seen_params.push(params);
                    out.push(id);
                }
            }
            if depth < MAX_HOPS {
                for s in self.supertypes.get(&ty).map(Vec::as_slice).unwrap_or(&[]) {
                    if !visited.contains(s) {
                        visited.push(*s);
                        queue.push((*s, depth + 1));
                    }
                }
            }
            // Every class and interface has the members of `java.lang.Object` (JLS 4.3.2,
            // 9.2), which the index knows when the repository is the JDK.
            if i == queue.len() {
                if let Some(object) = self.lookup("java.lang.Object", Want::Type).filter(|o| !visited.contains(o)) {
                    visited.push(object);
                    queue.push((object, depth + 1));
                }
            }
        }
        out
    }

    /// Whether code at `enclosing` in `file` may call member `m` (JLS 6.6): private members
    /// within their top level type, package-private ones within their package; protected
    /// ones are taken as accessible. Interface members are public unless declared private.
    fn accessible(&self, m: SymbolId, file: i64, enclosing: Option<SymbolId>) -> bool {
        let sym = &self.syms[&m];
        let in_interface =
            sym.parent.and_then(|p| self.syms.get(&p)).is_some_and(|p| matches!(p.kind, SymbolKind::Interface | SymbolKind::Annotation));
        match sym.access {
            Access::Private if in_interface => self.outermost(Some(m)) == self.outermost(enclosing),
            _ if in_interface => true,
            Access::Public | Access::Protected => true,
            Access::Package => {
                let package = |f: i64| self.files.get(&f).map(|c| c.module.as_str());
                package(sym.file) == package(file)
            }
            Access::Private => self.outermost(Some(m)) == self.outermost(enclosing),
        }
    }

    fn outermost(&self, mut at: Option<SymbolId>) -> Option<SymbolId> {
        let mut top = None;
        while let Some(id) = at {
            let Some(sym) = self.syms.get(&id) else { break };
            if sym.kind.is_type() {
                top = Some(id);
            }
            at = sym.parent;
        }
        top
    }

    /// The candidates the call site can see; all of them if it can see none (the index may
    /// miss a nesting or a package).
    pub(super) fn visible_from(&self, candidates: Vec<SymbolId>, file: i64, enclosing: Option<SymbolId>) -> Vec<SymbolId> {
        let visible: Vec<SymbolId> = candidates.iter().copied().filter(|m| self.accessible(*m, file, enclosing)).collect();
        if visible.is_empty() {
            candidates
        } else {
            visible
        }
    }

    /// A method, or a record component (called as its accessor).
    fn is_java_callable_member(&self, id: SymbolId) -> bool {
        let sym = &self.syms[&id];
        match sym.kind {
            SymbolKind::Method => true,
            SymbolKind::Field => sym.parent.is_some_and(|p| self.syms.get(&p).is_some_and(|s| s.kind == SymbolKind::Record)),
            _ => false,
        }
    }

    /// The declared constructors of a type, ids ascending.
    pub(super) fn java_constructors(&self, t: SymbolId) -> Vec<SymbolId> {
        let mut out: Vec<SymbolId> = self.children_of(t).iter().copied().filter(|c| self.syms[c].kind == SymbolKind::Constructor).collect();
        out.sort_unstable();
        out
    }

    /// Picks the overloads a call with `args` (None: not known, as for a method reference)
    /// may mean, among `candidates`, the call written in `file` inside `enclosing`.
    pub(super) fn pick_overload(&self, candidates: &[SymbolId], args: Option<&str>, file: i64, enclosing: Option<SymbolId>) -> Pick {
        if candidates.len() == 1 {
            return Pick::One(candidates[0]);
        }
        let Some(args) = args else {
            return many(candidates.to_vec());
        };
        let arity = split_list(args).len();
        // By arity alone first, from the text (no type is resolved for those it rules out).
        let fits_arity = |id: &&SymbolId| takes_arity(self.syms[*id].params.as_deref().unwrap_or(""), arity);
        let by_arity_ids: Vec<SymbolId> = candidates.iter().filter(fits_arity).copied().collect();
        match by_arity_ids.len() {
            0 => return many(candidates.to_vec()),
            1 => return Pick::One(by_arity_ids[0]),
            _ => {}
        }
        let args: Vec<Ty> = split_list(args).into_iter().map(|a| self.ty(a, file, enclosing)).collect();
        let cands: Vec<Candidate> = by_arity_ids
            .iter()
            .map(|&id| {
                let sym = &self.syms[&id];
                let raw = sym.params.as_deref().unwrap_or("");
                let varargs = raw.ends_with("...");
                let params = split_list(raw)
                    .into_iter()
                    .map(|p| {
                        let p = p.strip_suffix("...").map(|e| (e, true)).unwrap_or((p, false));
                        let mut ty = self.ty(p.0, sym.file, Some(id));
                        if p.1 {
                            ty.dims += 1;
                        }
                        ty
                    })
                    .collect();
                Candidate { id, params, varargs }
            })
            .collect();
        // By arity alone first: what types cannot sort out is at most this.
        let by_arity: Vec<&Candidate> =
            cands.iter().filter(|c| c.params.len() == args.len() || (c.varargs && args.len() + 1 >= c.params.len())).collect();
        if by_arity.len() == 1 {
            return Pick::One(by_arity[0].id);
        }
        if by_arity.is_empty() {
            return many(candidates.to_vec());
        }
        // Phases 1-3 (JLS 15.12.2.2-4): strict, loose (boxing), variable arity.
        for phase in 1..=3 {
            let mut applicable: Vec<(&Candidate, Vec<Fit>)> = Vec::new();
            for c in &by_arity {
                if phase < 3 && c.params.len() != args.len() {
                    continue;
                }
                if phase == 3 && !c.varargs {
                    continue;
                }
                let fits: Vec<Fit> = args.iter().enumerate().map(|(i, a)| self.fit(a, &param_at(c, i, phase == 3), phase >= 2)).collect();
                if fits.iter().all(|f| *f != Fit::No) {
                    applicable.push((c, fits));
                }
            }
            if applicable.is_empty() {
                continue;
            }
            if applicable.len() == 1 {
                return Pick::One(applicable[0].0.id);
            }
            // The most specific (JLS 15.12.2.5): more specific than every other one.
            let n = args.len();
            let more_specific = |m1: &Candidate, m2: &Candidate| -> bool {
                (0..n.max(1)).all(|i| {
                    if n == 0 {
                        return true;
                    }
                    let (p1, p2) = (param_at(m1, i, phase == 3), param_at(m2, i, phase == 3));
                    self.fit(&p1, &p2, false) == Fit::Yes
                })
            };
            let maximal: Vec<usize> = (0..applicable.len())
                .filter(|&i| (0..applicable.len()).all(|j| i == j || more_specific(applicable[i].0, applicable[j].0)))
                .collect();
            if let [best] = maximal[..] {
                // Where an argument's type is unknown, the others could still be meant unless
                // every candidate takes the same type there.
                let unsure = (0..n).any(|i| {
                    applicable.iter().any(|(_, fits)| fits[i] == Fit::Maybe) && {
                        let first = param_at(applicable[0].0, i, phase == 3);
                        applicable.iter().any(|(c, _)| {
                            let p = param_at(c, i, phase == 3);
                            p.simple != first.simple || p.dims != first.dims
                        })
                    }
                });
                if !unsure {
                    return Pick::One(applicable[best].0.id);
                }
            }
            return many(applicable.iter().map(|(c, _)| c.id).collect());
        }
        // Nothing fits the types as the index sees them: arity is what is left to go by.
        many(by_arity.iter().map(|c| c.id).collect())
    }

    /// A written type with its resolution, in the context of `file` and `enclosing`.
    fn ty(&self, text: &str, file: i64, enclosing: Option<SymbolId>) -> Ty {
        let mut base = text;
        let mut dims = 0;
        while let Some(b) = base.strip_suffix("[]") {
            base = b;
            dims += 1;
        }
        let package = self.files.get(&file).filter(|f| f.language == Language::Java).map(|f| f.module.as_str()).unwrap_or("");
        // A chain ending in a method or field of a primitive type (`c.size()`) or an array
        // of one (`big.data`, an `int[]`): that type, and its dimensions.
        let primitive = if base.contains('#') { self.java_chain_primitive(base, file, enclosing, package) } else { None };
        let base = match primitive {
            Some((p, d)) => {
                dims += d;
                p
            }
            None => base,
        };
        // A chain, or an element of a container (`pets@`): known by what it resolves to.
        let derived = |t: &str| t.contains('#') || t.ends_with('@');
        let simple = if derived(base) { base } else { last_segment(crate::model::without_element(base)) };
        let target = if base == "?" || base == "null" || base == LAMBDA_ARG || is_primitive(base) {
            None
        } else {
            self.java_type(base, file, enclosing, package)
        };
        // A chain's type is what it resolved to.
        let simple = match (&target, derived(simple)) {
            (Some(Target::Symbol(id)), true) => self.syms[id].name.to_string(),
            (Some(Target::External(q)), true) => last_segment(q).to_string(),
            _ => simple.to_string(),
        };
        // A chain of a primitive type, or of one of several types, from outside the
        // repository (`s.length()`, `date.atTime(t)`).
        if target.is_none() && primitive.is_none() && base.contains('#') {
            let receiver = base.strip_suffix("()").unwrap_or(base).rsplit_once('#').map_or("", |(r, _)| r);
            let receiver = if receiver.is_empty() { None } else { self.java_type(receiver, file, enclosing, package) };
            let mut one_of: Vec<Ty> =
                self.java_chain_outside(base, receiver.as_ref(), enclosing).iter().map(|t| self.outside_ty(t)).collect();
            for t in &mut one_of {
                t.dims += dims;
            }
            if one_of.len() == 1 {
                return one_of.remove(0);
            }
            if !one_of.is_empty() {
                return Ty { dims, simple, target, one_of };
            }
        }
        Ty::new(dims, simple, target)
    }

    /// A type the JDK's table names, by its canonical name, a primitive or an array of them
    /// (`java.time.LocalDateTime`, `int`, `byte[]`): outside, or the repository's own when the
    /// repository is the JDK.
    fn outside_ty(&self, name: &str) -> Ty {
        let mut base = name;
        let mut dims = 0;
        while let Some(b) = base.strip_suffix("[]") {
            base = b;
            dims += 1;
        }
        let target = if is_primitive(base) { None } else { Some(self.outside_type(base)) };
        Ty::new(dims, last_segment(base).to_string(), target)
    }

    /// Whether a value of type `a` can be passed for a parameter of type `p`; `boxing`
    /// allows boxing and unboxing conversions.
    fn fit(&self, a: &Ty, p: &Ty, boxing: bool) -> Fit {
        if !a.one_of.is_empty() {
            let fits: Vec<Fit> = a.one_of.iter().map(|t| self.fit(t, p, boxing)).collect();
            return if fits.iter().all(|f| *f == Fit::Yes) {
                Fit::Yes
            } else if fits.iter().all(|f| *f == Fit::No) {
                Fit::No
            } else {
                Fit::Maybe
            };
        }
        if a.simple == LAMBDA_ARG && a.dims == 0 {
            return self.lambda_fit(p);
        }
        if a.simple == "?" || ((a.simple.contains('#') || a.simple.ends_with('@')) && a.target.is_none()) {
            return Fit::Maybe;
        }
        if a.simple == "null" && a.dims == 0 {
            return if p.dims == 0 && is_primitive(&p.simple) { Fit::No } else { Fit::Yes };
        }
        if a.dims > 0 || p.dims > 0 {
            if p.dims == 0 {
                return if matches!(p.simple.as_str(), "Object" | "Cloneable" | "Serializable") { Fit::Yes } else { Fit::No };
            }
            if a.dims != p.dims {
                // `int[][]` for `Object[]`: an array of arrays is an array of objects.
                return if a.dims > p.dims && p.simple == "Object" { Fit::Yes } else { Fit::No };
            }
            if is_primitive(&a.simple) || is_primitive(&p.simple) {
                return if a.simple == p.simple { Fit::Yes } else { Fit::No };
            }
            return self.subtype(a, p);
        }
        match (is_primitive(&a.simple), is_primitive(&p.simple)) {
            (true, true) => {
                if widens(&a.simple, &p.simple) {
                    Fit::Yes
                } else {
                    Fit::No
                }
            }
            (true, false) => {
                if !boxing {
                    return Fit::No;
                }
                let b = boxed(&a.simple);
                let boxed_ty = Ty::new(0, b.to_string(), None);
                self.subtype(&boxed_ty, p)
            }
            (false, true) => {
                if !boxing {
                    return Fit::No;
                }
                match unboxed(&a.simple) {
                    Some(u) if widens(u, &p.simple) => Fit::Yes,
                    Some(_) => Fit::No,
                    // A type of the repository is no box; an unresolved name may be a type
                    // variable whose bound is a box.
                    None if matches!(a.target, Some(Target::Symbol(_))) || known_supertypes(&a.simple).is_some() => Fit::No,
                    None => Fit::Maybe,
                }
            }
            (false, false) => self.subtype(a, p),
        }
    }

    /// Whether a lambda or method reference can be passed for a parameter of type `p`: never
    /// for a primitive, an array, or a class (the repository's or the JDK's, `Object`
    /// included); maybe for an interface (its shape decides) or a type not known.
    fn lambda_fit(&self, p: &Ty) -> Fit {
        if p.dims > 0 || is_primitive(&p.simple) {
            return Fit::No;
        }
        match &p.target {
            Some(Target::Symbol(t)) if self.syms.get(t).is_some_and(|s| s.kind != SymbolKind::Interface) => Fit::No,
            Some(Target::External(q)) if super::jdk::table().is_not_interface(q) => Fit::No,
            _ => Fit::Maybe,
        }
    }

    /// Whether reference type `a` is `p` or a subtype of it.
    fn subtype(&self, a: &Ty, p: &Ty) -> Fit {
        if p.simple == "Object" || a.simple == p.simple {
            return Fit::Yes;
        }
        if let Some(fit) = jdk_fit(a, p) {
            return fit;
        }
        match (&a.target, &p.target) {
            (Some(Target::Symbol(ta)), Some(Target::Symbol(tp))) => {
                if self.is_subtype(*ta, *tp, 0) {
                    Fit::Yes
                } else if self.closure_has_name(*ta, &p.simple, 0) {
                    // Same simple name, resolved elsewhere: the index may have it wrong.
                    Fit::Maybe
                } else {
                    Fit::No
                }
            }
            // A type of the repository is no supertype of one from outside it.
            (Some(Target::External(_)), Some(Target::Symbol(_))) => Fit::No,
            // `String`, the boxes and `Class` are final: only they are themselves.
            (_, None | Some(Target::External(_))) if known_supertypes(&p.simple).is_some() => Fit::No,
            (_, Some(Target::Symbol(_))) if known_supertypes(&a.simple).is_some() => Fit::No,
            // A repository type against one from outside: its supertypes from outside, with
            // the JDK's table, say whether it is one, when every one of them is known.
            (Some(Target::Symbol(ta)), Some(Target::External(qp))) if !self.closure_has_name(*ta, &p.simple, 0) => {
                let table = super::jdk::table();
                match self.outside_closure(*ta) {
                    Some(c) if c.iter().any(|q| table.is_subtype(q, qp)) => Fit::Yes,
                    Some(c) if table.knows(qp) && c.iter().all(|q| table.knows(q)) => Fit::No,
                    _ => Fit::Maybe,
                }
            }
            (Some(Target::Symbol(ta)), _) => {
                if self.closure_has_name(*ta, &p.simple, 0) {
                    Fit::Yes
                } else {
                    Fit::Maybe
                }
            }
            _ => match known_supertypes(&a.simple) {
                Some(supers) if supers.contains(&p.simple.as_str()) => Fit::Yes,
                Some(_) => Fit::No,
                None => Fit::Maybe,
            },
        }
    }

    /// The primitive type a chain's last link has, when it has one, and the dimensions of
    /// an array of it (`int[] data`: `int`, 1); a type of the repository is what `java_type`
    /// resolves the chain to instead.
    fn java_chain_primitive(&self, chain: &str, file: i64, enclosing: Option<SymbolId>, package: &str) -> Option<(&'static str, usize)> {
        let (link, want) = match chain.strip_suffix("()") {
            Some(call) => (call, Want::Callable),
            None => (chain, Want::Field),
        };
        let (base, name) = link.rsplit_once('#')?;
        let owner = if base.is_empty() {
            None
        } else {
            match self.java_type(base, file, enclosing, package)? {
                Target::Symbol(id) => Some(id),
                _ => return None,
            }
        };
        let member = match owner {
            None => self.enclosing_types(enclosing).into_iter().find_map(|t| self.member(t, name, want, 0)),
            Some(t) => self.member(t, name, want, 0),
        }?;
        // Overloads of different return types: only a return type they all share is sure.
        let returns = self.syms[&member].returns.as_deref()?;
        let owner_id = self.syms[&member].parent?;
        let same_name = self.java_methods_named(owner_id, name);
        if want == Want::Callable && same_name.iter().any(|m| self.syms[m].returns.as_deref() != Some(returns)) {
            return None;
        }
        let mut element = returns.trim();
        let mut dims = 0;
        while let Some(e) = element.strip_suffix("[]") {
            element = e.trim_end();
            dims += 1;
        }
        PRIMITIVES.iter().copied().find(|p| *p == element).map(|p| (p, dims))
    }

    fn is_subtype(&self, t: SymbolId, of: SymbolId, depth: usize) -> bool {
        if t == of {
            return true;
        }
        depth < MAX_HOPS && self.supertypes.get(&t).map(Vec::as_slice).unwrap_or(&[]).iter().any(|s| self.is_subtype(*s, of, depth + 1))
    }

    fn closure_has_name(&self, t: SymbolId, name: &str, depth: usize) -> bool {
        if *self.syms[&t].name == *name {
            return true;
        }
        depth < MAX_HOPS
            && self.supertypes.get(&t).map(Vec::as_slice).unwrap_or(&[]).iter().any(|s| self.closure_has_name(*s, name, depth + 1))
    }

    /// A call's candidates in a type: constructors for `new`, else methods.
    pub(super) fn java_member_call(
        &self,
        t: SymbolId,
        name: &str,
        args: Option<&str>,
        file: i64,
        enclosing: Option<SymbolId>,
    ) -> Option<Pick> {
        let candidates = self.visible_from(self.java_methods_named(t, name), file, enclosing);
        if candidates.is_empty() {
            // Not a method: what a plain member lookup finds (a nested type called like one).
            return self.member(t, name, Want::Callable, 0).map(Pick::One);
        }
        Some(self.pick_overload(&candidates, args, file, enclosing))
    }
}

fn many(mut ids: Vec<SymbolId>) -> Pick {
    ids.sort_unstable();
    ids.dedup();
    if ids.len() == 1 {
        Pick::One(ids[0])
    } else {
        Pick::Many(ids)
    }
}

/// Whether a parameter list as stored (`Listener,int...`) takes `given` arguments: as many,
/// or, ending in varargs, as many less one or more.
pub(super) fn takes_arity(params: &str, given: usize) -> bool {
    let n = split_list(params).len();
    n == given || (params.ends_with("...") && given + 1 >= n)
}

pub(super) fn split_list(list: &str) -> Vec<&str> {
    if list.is_empty() {
        Vec::new()
    } else {
        list.split(',').collect()
    }
}

/// The parameter the `i`-th argument is passed for; in variable-arity invocation, the
/// element type of the last parameter for every argument from it on.
fn param_at(c: &Candidate, i: usize, expanded: bool) -> Ty {
    let last = c.params.len().saturating_sub(1);
    let p = &c.params[i.min(last)];
    let dims = if expanded && c.varargs && i >= last { p.dims.saturating_sub(1) } else { p.dims };
    Ty::new(dims, p.simple.clone(), p.target.clone())
}
