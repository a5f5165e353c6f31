//! Element types of containers, for both languages, by the lists in
//! `grammars/<lang>/elements.toml`: what `list.get(0)`, `pets.stream().filter(p -> ..)`,
//! `owner.getPets().get(0)` and `for m in &matches` give.
//!
//! Receivers (as the extractor writes them) carry a container's element after its type,
//! `List<Pet>`, `slice<Match>`, also in declared return types; and a trailing `@` takes an
//! element of the container before it (`Owner#getPets()#stream()@` is a lambda's parameter).
//! A call that gives an element (`get`, `next`) is an ordinary chain link (`List<Pet>#get()`)
//! that this module answers when the container is not a repository type with such a member.
//!
//! Methods of `World`, on its private state. It must not touch the store or syntax.

use super::*;
use crate::model::split_container;

impl World {
    /// The repository type of an element of the container `container` names (a receiver
    /// as written at `file`/`enclosing`), when one is known.
    pub(super) fn element_of(&self, container: &str, file: FileId, enclosing: Option<SymbolId>, depth: usize) -> Option<SymbolId> {
        let language = self.files.get(&file)?.language;
        let elements = lang::spec(language).elements();
        // One of a map's entries: its element is the map's value.
        if let Some(value) = entry_value(elements, container) {
            return self.type_at(value, file, enclosing);
        }
        // An element of an element: containers of containers are not followed.
        if depth > MAX_HOPS || container.ends_with('@') {
            return None;
        }
        let Some((base, link)) = container.rsplit_once('#') else {
            // `List<Pet>`: the element as written in this file.
            if let Some((_, element)) = split_container(container) {
                return self.type_at(element, file, enclosing);
            }
            // A Rust constant or static of a container type (`FLAGS.iter()`).
            if language != Language::Rust {
                return None;
            }
            let Some(PathHit::Symbol(id)) = self.rust_path(container, &self.module_of(file, enclosing), 0) else { return None };
            let sym = self.syms.get(&id).filter(|s| matches!(s.kind, SymbolKind::Const | SymbolKind::Static))?;
            let element = split_container(sym.returns.as_deref()?)?.1;
            return self.type_at(element, sym.file, Some(id));
        };
        let (name, want) = match link.strip_suffix("()") {
            Some(call) => (call, Want::Callable),
            None => (link, Want::Field),
        };
        // The member the link names, on a repository type: its declared type, when that is a
        // container (`Owner#getPets()`: `List<Pet>` where `getPets` is declared).
        let owner = if base.is_empty() { None } else { self.value_type(base, file, enclosing) };
        let member = match owner {
            None if base.is_empty() => self.enclosing_types(enclosing).into_iter().find_map(|t| self.member(t, name, want, 0)),
            None => None,
            Some(t) => self.member(t, name, want, 0),
        };
        if let Some(m) = member {
            let sym = self.syms.get(&m)?;
            let element = split_container(sym.returns.as_deref()?)?.1;
            return self.type_at(element, sym.file, Some(m));
        }
        // A call on the container itself that keeps its elements (`pets.stream()`).
        if want == Want::Callable && owner.is_none() && !base.is_empty() && elements.keeps_elements(name) {
            return self.element_of(base, file, enclosing, depth + 1);
        }
        None
    }

    /// `container#name()` where `name` gives one element (`get`, `next`, `orElseThrow`):
    /// that element's type, unless the container is a repository type, whose own members
    /// answer.
    pub(super) fn element_call(&self, container: &str, name: &str, file: FileId, enclosing: Option<SymbolId>) -> Option<SymbolId> {
        let language = self.files.get(&file)?.language;
        if container.is_empty() || !lang::spec(language).elements().gives_element(name) {
            return None;
        }
        self.element_of(container, file, enclosing, 0)
    }

    /// The repository type a receiver (a type, a chain or an element) is of.
    pub(super) fn value_type(&self, t: &str, file: FileId, enclosing: Option<SymbolId>) -> Option<SymbolId> {
        let ctx = self.files.get(&file)?;
        match ctx.language {
            Language::Java => match self.java_type(t, file, enclosing, &ctx.module)? {
                Target::Symbol(id) => Some(id),
                _ => None,
            },
            Language::Rust => self.rust_receiver_type(t, file, &self.module_of(file, enclosing), enclosing),
        }
    }

    /// A type name as written at a place, when it is a repository type.
    fn type_at(&self, name: &str, file: FileId, enclosing: Option<SymbolId>) -> Option<SymbolId> {
        let ctx = self.files.get(&file)?;
        let found = match ctx.language {
            Language::Java => match self.java_type(name, file, enclosing, &ctx.module)? {
                Target::Symbol(id) => id,
                _ => return None,
            },
            Language::Rust => match self.rust_path(name, &self.module_of(file, enclosing), 0)? {
                PathHit::Symbol(id) => id,
                _ => return None,
            },
        };
        self.syms.get(&found).is_some_and(|s| s.kind.is_type()).then_some(found)
    }
}

/// The value type written for a map whose entry `entry` is (`Map<Order>#firstEntry()`, an
/// element of `Map<Order>#entrySet()`, also through calls that keep the elements:
/// `Map<Order>#entrySet()#iterator()#next()`), when it is one.
fn entry_value<'a>(elements: &lang::Elements, entry: &'a str) -> Option<&'a str> {
    let map_value = |map: &'a str| elements.map_value(map);
    let call = |link: &'a str| link.strip_suffix("()");
    if let Some((map, link)) = entry.rsplit_once('#') {
        if call(link).is_some_and(|c| elements.gives_entry(c)) {
            return map_value(map);
        }
    }
    // An element of a container of entries: `S@`, or `S#next()`.
    let mut set = match entry.strip_suffix('@') {
        Some(s) => s,
        None => {
            let (s, link) = entry.rsplit_once('#')?;
            if !call(link).is_some_and(|c| elements.gives_element(c)) {
                return None;
            }
            s
        }
    };
    loop {
        let (base, link) = set.rsplit_once('#')?;
        let name = call(link)?;
        if elements.gives_entries(name) {
            return map_value(base);
        }
        if !elements.keeps_elements(name) {
            return None;
        }
        set = base;
    }
}
