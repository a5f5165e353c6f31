//! Loading the resolver's world from the index: every file (with its place in the build
//! units), symbol, import and resolved supertype edge, read through the store's row
//! iterators. Run when an indexer opens an existing index and after a full walk.
//!
//! Owns the conversion of stored rows into the world's types. It must not write SQL (the
//! store reads the rows) or resolve anything.

use std::collections::HashMap;

use super::{Access, FileCtx, Import, Sym, SymbolId, World};
use crate::store::Store;

/// Fills `world` with everything in the index, replacing what it held (the unit reach it
/// was given is kept). `place` gives a file's build unit key and whether it lies outside
/// the unit's source roots, by its path.
pub fn load_world(store: &Store, world: &mut World, place: &dyn Fn(&str) -> (u64, bool)) -> crate::store::Result<()> {
    let reach = world.take_unit_reach();
    *world = World::default();
    world.set_unit_reach(reach);
    store.each_file_for_world(|id, language, module, path| {
        let (unit, outside_roots) = place(&path);
        world.add_file(id, FileCtx { language, module, unit, outside_roots });
    })?;
    // Parents before children, so that child lists are complete.
    store.each_symbol_for_world(|s| {
        world.add_symbol(
            s.id,
            Sym {
                file: s.file,
                parent: s.parent,
                kind: s.kind,
                name: s.name,
                qname: s.qname,
                impl_type: s.impl_type,
                returns: s.returns,
                params: s.params.map(Into::into),
                access: Access::from_visibility(&s.visibility),
                impl_module: s.impl_module.map(Into::into),
                from_trait: s.from_trait,
                blanket: s.blanket,
            },
        );
    })?;
    store.each_import(|file, enclosing, path, alias, glob, is_static| {
        world.add_import(Import { file, enclosing, path, alias, glob, is_static });
    })?;
    let mut supers: HashMap<SymbolId, Vec<SymbolId>> = HashMap::new();
    store.each_supertype_edge(|from, to| supers.entry(from).or_default().push(to))?;
    for (id, mut list) in supers {
        // Sorted as `Writer::supertypes_of_each` returns them, so that lookups through
        // inheritance visit supertypes in one order however the world was built.
        list.sort_unstable();
        list.dedup();
        world.set_supertypes(id, list);
    }
    let mut outside: HashMap<SymbolId, Vec<Box<str>>> = HashMap::new();
    store.each_outside_supertype_edge(|from, to| outside.entry(from).or_default().push(to.into()))?;
    for (id, list) in outside {
        world.set_outside_supertypes(id, list);
    }
    Ok(())
}
