//! The resolver as data: a repository written inline (`//- path` lines, each followed by
//! its file's text, as rust-analyzer's tests write fixtures), indexed from nothing, and
//! what its references resolve to (the `ref` lines of `Store::dump`: place, kind, name,
//! from, to, confidence) checked with `expect![[...]]`. No SQL: the test says what the
//! code is and what it must resolve to. `UPDATE_EXPECT=1 cargo test` rewrites a snapshot.

use std::path::Path;

use repochart::index::{index, Options};
use repochart::store::Store;

/// A repository made of an inline fixture, in a temp dir (removed when dropped).
pub fn write_fixture(fixture: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut current: Option<(String, String)> = None;
    let mut files: Vec<(String, String)> = Vec::new();
    for line in fixture.split_inclusive('\n') {
        if let Some(path) = line.strip_prefix("//- ") {
            files.extend(current.take());
            current = Some((path.trim().to_string(), String::new()));
        } else if let Some((_, text)) = current.as_mut() {
            text.push_str(line);
        } else {
            assert!(line.trim().is_empty(), "fixture text before the first `//- path` line: {line:?}");
        }
    }
    files.extend(current);
    assert!(!files.is_empty(), "a fixture names its files with `//- path` lines");
    for (path, text) in files {
        let full = dir.path().join(&path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }
    dir
}

fn dump(root: &Path) -> String {
    Store::open_read(&root.canonicalize().unwrap()).unwrap().dump().unwrap()
}

fn reindex(root: &Path) {
    index(root, &Options::default(), &|_, _| {}).unwrap();
}

/// The references of files under `prefix` whose kind is one of `kinds`, as the index
/// resolves them, one per line in the dump's order.
fn resolved(root: &Path, prefix: &str, kinds: &[&str]) -> String {
    dump(root)
        .lines()
        .filter(|l| l.starts_with(&format!("ref {prefix}")) && kinds.iter().any(|k| l.contains(&format!(" {k} "))))
        .collect::<Vec<_>>()
        .join("\n")
}

/// After an incremental update the index equals one built from nothing.
fn assert_incremental_is_fresh(root: &Path) {
    let incremental = dump(root);
    let rows = crate::util::index_rows(root);
    std::fs::remove_dir_all(root.join(".repochart")).unwrap();
    reindex(root);
    assert_eq!(incremental, dump(root));
    assert_eq!(rows, crate::util::index_rows(root));
}

#[test]
fn the_fixture_helper_writes_each_file_and_refuses_loose_text() {
    let dir = write_fixture("//- a/B.java\nclass B {}\n//- c.rs\nfn c() {}\n");
    assert_eq!(std::fs::read_to_string(dir.path().join("a/B.java")).unwrap(), "class B {}\n");
    assert_eq!(std::fs::read_to_string(dir.path().join("c.rs")).unwrap(), "fn c() {}\n");
    assert!(std::panic::catch_unwind(|| write_fixture("class Loose {}\n")).is_err());
}

/// Field and qualifier references that need Java's scoping rules (issue 5's regression
/// cases, once the `java-field-references` fixture folder): a local or lambda parameter
/// hides a field; a field inherited from a superclass in another file; a statically
/// imported constant; `Outer.this.f`; a static call's type qualifier; a field named like a
/// type hides the type; an array's `length` is no field of its element type; a field whose
/// name starts with `mut` (`mutex`) keeps its name; a call chain (`Base.make().self().count`)
/// takes each link's receiver from the return type before it.
#[test]
fn field_and_qualifier_references_follow_java_scoping() {
    let repo = write_fixture(
        r#"
//- src/p/Base.java
package p;

public class Base {
    protected int count;
    public static final int LIMIT = 10;
    public static Base make() { return new Base(); }
    public Base self() { return this; }
}
//- src/p/Child.java
package p;

import static q.Consts.NAME;

import java.util.function.IntUnaryOperator;

class Child extends Base {
    int size;
    Base Base;
    final Object mutex = new Object();

    int shadowed(int size) {
        return size + count;
    }

    IntUnaryOperator lambda() {
        return size -> size + LIMIT;
    }

    String imported() {
        return NAME;
    }

    int qualified() {
        Base.make();
        p.Base.make();
        return Base.count;
    }

    int later() {
        return extra; // declared by a later edit of Base
    }

    int arrays(String[] names) {
        return names.length;
    }

    void locked() {
        synchronized (mutex) {
            size++;
        }
    }

    int chained() {
        return Base.make().self().count;
    }

    class Inner {
        int size;

        int outer() {
            return Child.this.size + this.size;
        }
    }
}
//- src/q/Consts.java
package q;

public final class Consts {
    public static final String NAME = "n";
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/p/Child.java:13 uses_field count from=p.Child#shadowed to=p.Base#count (exact)
        ref src/p/Child.java:17 uses_field LIMIT from=p.Child#lambda to=p.Base#LIMIT (exact)
        ref src/p/Child.java:21 uses_field NAME from=p.Child#imported to=q.Consts#NAME (exact)
        ref src/p/Child.java:25 calls make from=p.Child#qualified to=p.Base#make() (exact)
        ref src/p/Child.java:25 uses_field Base from=p.Child#qualified to=p.Child#Base (exact)
        ref src/p/Child.java:26 calls make from=p.Child#qualified to=p.Base#make() (guess)
        ref src/p/Child.java:26 uses_field p from=p.Child#qualified to=- (unresolved)
        ref src/p/Child.java:27 uses_field Base from=p.Child#qualified to=p.Child#Base (exact)
        ref src/p/Child.java:27 uses_field count from=p.Child#qualified to=p.Base#count (exact)
        ref src/p/Child.java:31 uses_field extra from=p.Child#later to=- (unresolved)
        ref src/p/Child.java:39 uses_field mutex from=p.Child#locked to=p.Child#mutex (exact)
        ref src/p/Child.java:40 uses_field size from=p.Child#locked to=p.Child#size (exact)
        ref src/p/Child.java:45 calls make from=p.Child#chained to=p.Base#make() (exact)
        ref src/p/Child.java:45 calls self from=p.Child#chained to=p.Base#self() (exact)
        ref src/p/Child.java:45 uses_field Base from=p.Child#chained to=p.Child#Base (exact)
        ref src/p/Child.java:45 uses_field count from=p.Child#chained to=p.Base#count (exact)
        ref src/p/Child.java:52 accesses Child from=p.Child.Inner#outer to=p.Child (exact)
        ref src/p/Child.java:52 uses_field size from=p.Child.Inner#outer to=p.Child#size (exact)
        ref src/p/Child.java:52 uses_field size from=p.Child.Inner#outer to=p.Child.Inner#size (exact)"#]]
    .assert_eq(&resolved(root, "src/p/Child.java:", &["uses_field", "accesses", "calls"]));
    // Adding a field to the superclass makes a bare name in the subclass refer to it.
    let base = root.join("src/p/Base.java");
    std::fs::write(&base, std::fs::read_to_string(&base).unwrap().replace("protected int count;", "protected int count;\n    int extra;"))
        .unwrap();
    reindex(root);
    assert!(dump(root).contains("ref src/p/Child.java:31 uses_field extra from=p.Child#later to=p.Base#extra (exact)"));
    assert_incremental_is_fresh(root);
}

/// Rust: a `pub use` re-export names the item it re-exports, a trait's method is called
/// through a type parameter's bound (`S: Sink`) and through a field of that type, and a
/// call on a concrete type picks its impl's method.
#[test]
fn rust_reexports_bounds_and_impl_methods() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[package]
name = "shop"
version = "0.1.0"
edition = "2021"
//- src/lib.rs
pub mod sink;
pub use sink::Sink;
use sink::Count;

pub struct Searcher<S: Sink> {
    sink: S,
}

impl<S: Sink> Searcher<S> {
    pub fn run(&mut self, s: &mut S) {
        s.on_match(1);
        self.sink.on_match(2);
    }
}

pub fn count() -> u32 {
    let mut c = Count(0);
    c.on_match(3);
    c.total()
}
//- src/sink.rs
pub trait Sink {
    fn on_match(&mut self, n: u32);
}

pub struct Count(pub u32);

impl Count {
    pub fn total(&self) -> u32 {
        self.0
    }
}

impl Sink for Count {
    fn on_match(&mut self, n: u32) {
        self.0 += n;
    }
}
"#,
    );
    let root = repo.path();
    reindex(root);
    // Lines 18-19: a tuple struct's constructor call (`Count(0)`) gives the local its type,
    // so `c.on_match(3)` is the impl's method (two methods share the name) and `c.total()`
    // is exact, no longer a guess by name.
    expect_test::expect![[r#"
        ref src/lib.rs:11 calls on_match from=shop::Searcher::run to=shop::sink::Sink::on_match (exact)
        ref src/lib.rs:12 calls on_match from=shop::Searcher::run to=shop::sink::Sink::on_match (exact)
        ref src/lib.rs:12 uses_field sink from=shop::Searcher::run to=shop::Searcher::sink (exact)
        ref src/lib.rs:17 calls Count from=shop::count to=shop::sink::Count (exact)
        ref src/lib.rs:18 calls on_match from=shop::count to=shop::sink::Count::on_match (exact)
        ref src/lib.rs:19 calls total from=shop::count to=shop::sink::Count::total (exact)
        ref src/lib.rs:2 imports sink::Sink from=- to=shop::sink::Sink (exact)
        ref src/lib.rs:3 imports sink::Count from=- to=shop::sink::Count (exact)"#]]
    .assert_eq(&resolved(root, "src/lib.rs:", &["calls", "imports", "uses_field"]));
    // The re-export goes: the bound `S: Sink` names nothing, its calls are unresolved.
    let lib = root.join("src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap().replace("pub use sink::Sink;", "");
    std::fs::write(&lib, text).unwrap();
    reindex(root);
    expect_test::expect!["ref src/lib.rs:11 calls on_match from=shop::Searcher::run to=- (unresolved)"].assert_eq(&resolved(
        root,
        "src/lib.rs:11 ",
        &["calls"],
    ));
    assert_incremental_is_fresh(root);
}

/// Rust (issue 49): re-exports of every form are followed to the item: a nested group
/// (`pub use self::{codec::{Frame, FrameKind}, error::Error};`), a `#[doc(inline)]` glob of
/// another member crate, a chain across crates (`facade::Frame` -> `wire::Frame` ->
/// `wire::codec::Frame`), `pub extern crate .. as ..`. Two items of the workspace share the
/// simple name `Error`: the path decides which, never a guess by name. When the nested group
/// drops `Error`, the path through it names nothing, incrementally as fresh.
#[test]
fn rust_reexports_of_every_form_reach_the_item() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[workspace]
members = ["wire", "facade", "app"]
//- wire/Cargo.toml
[package]
name = "wire"
version = "0.1.0"
edition = "2021"
//- wire/src/lib.rs
mod codec;
mod error;
pub use self::{
    codec::{Frame, FrameKind},
    error::Error,
};
//- wire/src/codec.rs
pub struct Frame;
pub enum FrameKind { Data }
impl Frame {
    pub fn kind(&self) -> FrameKind { FrameKind::Data }
}
//- wire/src/error.rs
pub struct Error;
impl Error {
    pub fn code(&self) -> u32 { 1 }
}
//- facade/Cargo.toml
[package]
name = "facade"
version = "0.1.0"
edition = "2021"
[dependencies]
wire = { path = "../wire" }
//- facade/src/lib.rs
#[doc(inline)]
pub use wire::*;
pub extern crate wire as proto;
//- app/Cargo.toml
[package]
name = "app"
version = "0.1.0"
edition = "2021"
[dependencies]
facade = { path = "../facade" }
//- app/src/lib.rs
use facade::{Frame, FrameKind};
pub struct Error;
impl Error {
    pub fn code(&self) -> u32 { 2 }
}
pub fn handle(f: Frame, e: facade::Error, mine: Error) -> u32 {
    let _k: FrameKind = f.kind();
    let _p: facade::proto::Frame = Frame;
    e.code() + mine.code()
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref app/src/lib.rs:1 imports facade::Frame from=- to=wire::codec::Frame (exact)
        ref app/src/lib.rs:1 imports facade::FrameKind from=- to=wire::codec::FrameKind (exact)
        ref app/src/lib.rs:6 uses_type Error from=app::handle to=app::Error (exact)
        ref app/src/lib.rs:6 uses_type Frame from=app::handle to=wire::codec::Frame (exact)
        ref app/src/lib.rs:6 uses_type facade::Error from=app::handle to=wire::error::Error (exact)
        ref app/src/lib.rs:7 calls kind from=app::handle to=wire::codec::Frame::kind (exact)
        ref app/src/lib.rs:7 uses_type FrameKind from=app::handle to=wire::codec::FrameKind (exact)
        ref app/src/lib.rs:8 uses_type facade::proto::Frame from=app::handle to=wire::codec::Frame (exact)
        ref app/src/lib.rs:9 calls code from=app::handle to=app::Error::code (exact)
        ref app/src/lib.rs:9 calls code from=app::handle to=wire::error::Error::code (exact)"#]]
    .assert_eq(&resolved(root, "app/src/lib.rs:", &["calls", "imports", "uses_type"]));
    let lib = root.join("wire/src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap().replace("    error::Error,\n", "");
    std::fs::write(&lib, text).unwrap();
    reindex(root);
    expect_test::expect![[r#"
        ref app/src/lib.rs:6 uses_type Error from=app::handle to=app::Error (exact)
        ref app/src/lib.rs:6 uses_type Frame from=app::handle to=wire::codec::Frame (exact)
        ref app/src/lib.rs:6 uses_type facade::Error from=app::handle to=- (unresolved)"#]]
    .assert_eq(&resolved(root, "app/src/lib.rs:6", &["uses_type"]));
    assert_incremental_is_fresh(root);
}

/// Rust: a call by a name that is both a module and the function a `use` brings in beside it
/// (`mod parse;` + `pub use parse::parse;`, then `flags::parse()`, as ripgrep's `main` does)
/// is the function's; without the `use`, nothing callable is there. An incremental update
/// that drops the `use` equals a fresh index.
#[test]
fn rust_calls_prefer_the_function_over_a_module_of_its_name() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[package]
name = "rg"
version = "0.1.0"
edition = "2021"
//- src/main.rs
mod flags;

fn main() {
    flags::parse();
}
//- src/flags/mod.rs
mod parse;

pub(crate) use parse::parse;
//- src/flags/parse.rs
pub(crate) fn parse() -> u32 {
    1
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/main.rs:4 calls flags::parse from=rg::main to=rg::flags::parse::parse (exact)"#]]
    .assert_eq(&resolved(root, "src/main.rs:", &["calls"]));
    std::fs::write(root.join("src/flags/mod.rs"), "mod parse;\n").unwrap();
    reindex(root);
    assert_incremental_is_fresh(root);
}

/// Java calls issue 33 lists as missed or wrong: `super.m(..)` is the superclass's method,
/// not the class's own override; a receiver declared as an interface calls the interface's
/// method, not a sub-interface's of the same name; an enum constant argument picks the
/// overload of the enum's type; a call on an enum constant is the enum's method; a name-only
/// guess needs the argument count to fit (`dates.next().getTime()` is no `getTime(Date)`);
/// `this.repo` is the field even where a local of that name is being declared.
#[test]
fn java_super_calls_declared_receivers_and_enum_arguments() {
    let repo = write_fixture(
        r#"
//- src/shop/Base.java
package shop;

public class Base {
    public String name() { return "base"; }
}
//- src/shop/Child.java
package shop;

public class Child extends Base {
    @Override
    public String name() { return super.name() + "!"; }
}
//- src/shop/Repo.java
package shop;

public interface Repo {
    void save(String s);

    String label();
}
//- src/shop/FastRepo.java
package shop;

public interface FastRepo extends Repo {
    void save(String s);
}
//- src/shop/Code.java
package shop;

public enum Code {
    SUCCESS, FAILED;

    public int getCode() { return 0; }
}
//- src/shop/Result.java
package shop;

public class Result {
    public static Result fail(String message) { return null; }

    public static Result fail(Code code) { return null; }
}
//- src/shop/Clock.java
package shop;

public class Clock {
    public long getTime(java.util.Date when) { return 0; }
}
//- src/shop/Use.java
package shop;

import java.util.Date;
import java.util.Iterator;

public class Use {
    private Repo repo;

    void run(Iterator<Date> dates) {
        repo.save("a");
        Result.fail(Code.FAILED);
        Result.fail("x");
        Code.SUCCESS.getCode();
        dates.next().getTime();
    }

    void shadow() {
        String repo = this.repo.label();
    }
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/shop/Child.java:5 calls name from=shop.Child#name to=shop.Base#name() (exact)
        ref src/shop/Use.java:10 calls save from=shop.Use#run to=shop.Repo#save(String) (exact)
        ref src/shop/Use.java:11 calls fail from=shop.Use#run to=shop.Result#fail(Code) (exact)
        ref src/shop/Use.java:12 calls fail from=shop.Use#run to=shop.Result#fail(String) (exact)
        ref src/shop/Use.java:13 calls getCode from=shop.Use#run to=shop.Code#getCode() (exact)
        ref src/shop/Use.java:14 calls getTime from=shop.Use#run to=- (unresolved)
        ref src/shop/Use.java:14 calls next from=shop.Use#run to=ext:java.util.Iterator#next (external)
        ref src/shop/Use.java:18 calls label from=shop.Use#shadow to=shop.Repo#label() (exact)"#]]
    .assert_eq(&resolved(root, "src/shop/", &["calls"]));
}

/// Rust: a call on a receiver typed `&dyn Trait`, `impl Trait`, `Box<dyn Trait>` or a type
/// parameter with a `where` bound is the trait's method (and reaches its impls through
/// dispatch), never a same-named method of an unrelated type.
#[test]
fn rust_trait_object_and_impl_trait_receivers_call_the_trait() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[package]
name = "sk"
version = "0.1.0"
edition = "2021"
//- src/lib.rs
pub trait Sink {
    fn on_match(&mut self, n: u32);
}

pub struct Other;

impl Other {
    pub fn on_match(&mut self, n: u32) {}
}

pub fn by_dyn(s: &mut dyn Sink) {
    s.on_match(1);
}

pub fn by_impl(mut s: impl Sink) {
    s.on_match(2);
}

pub fn by_box(mut s: Box<dyn Sink>) {
    s.on_match(3);
}

pub fn by_where<S>(s: &mut S)
where
    S: Sink,
{
    s.on_match(4);
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/lib.rs:12 calls on_match from=sk::by_dyn to=sk::Sink::on_match (exact)
        ref src/lib.rs:16 calls on_match from=sk::by_impl to=sk::Sink::on_match (exact)
        ref src/lib.rs:20 calls on_match from=sk::by_box to=sk::Sink::on_match (exact)
        ref src/lib.rs:27 calls on_match from=sk::by_where to=sk::Sink::on_match (exact)"#]]
    .assert_eq(&resolved(root, "src/lib.rs:", &["calls"]));
    // The trait's method renamed: no call is the trait's any more, only name guesses remain.
    let lib = root.join("src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap().replace("    fn on_match(&mut self, n: u32);", "    fn on_hit(&mut self, n: u32);");
    std::fs::write(&lib, text).unwrap();
    reindex(root);
    expect_test::expect![[r#"
        ref src/lib.rs:12 calls on_match from=sk::by_dyn to=sk::Other::on_match (guess)
        ref src/lib.rs:16 calls on_match from=sk::by_impl to=sk::Other::on_match (guess)
        ref src/lib.rs:20 calls on_match from=sk::by_box to=sk::Other::on_match (guess)
        ref src/lib.rs:27 calls on_match from=sk::by_where to=sk::Other::on_match (guess)"#]]
    .assert_eq(&resolved(root, "src/lib.rs:", &["calls"]));
    assert_incremental_is_fresh(root);
}

/// Rust: auto-deref through the repository's `Deref` impls: a method the wrapper lacks is
/// the target's (`w.hello()` on a `Wrapper` that derefs to `Inner`), while the wrapper's own
/// method of a name still wins; an incremental update that drops the impl equals a fresh
/// index.
#[test]
fn rust_calls_auto_deref_through_the_repositorys_deref_impls() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[package]
name = "dr"
version = "0.1.0"
edition = "2021"
//- src/lib.rs
mod wrap;
use wrap::Wrapper;

pub struct Inner;

impl Inner {
    pub fn hello(&self) -> u32 { 1 }
    pub fn name(&self) -> u32 { 2 }
}

pub fn run(w: &Wrapper) -> u32 {
    w.hello() + w.name()
}
//- src/wrap.rs
use std::ops::Deref;

use crate::Inner;

pub struct Wrapper {
    inner: Inner,
}

impl Wrapper {
    pub fn name(&self) -> u32 { 3 }
}

impl Deref for Wrapper {
    type Target = Inner;
    fn deref(&self) -> &Inner { &self.inner }
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/lib.rs:12 calls hello from=dr::run to=dr::Inner::hello (exact)
        ref src/lib.rs:12 calls name from=dr::run to=dr::wrap::Wrapper::name (exact)"#]]
    .assert_eq(&resolved(root, "src/lib.rs:", &["calls"]));
    let wrap = std::fs::read_to_string(root.join("src/wrap.rs")).unwrap();
    let without = &wrap[..wrap.find("impl Deref").unwrap()];
    std::fs::write(root.join("src/wrap.rs"), without).unwrap();
    reindex(root);
    assert!(!resolved(root, "src/lib.rs:", &["calls"]).contains("hello from=dr::run to=dr::Inner::hello (exact)"));
    assert_incremental_is_fresh(root);
}

/// Java: the element type of a generic collection, stream or optional is followed
/// (`grammars/java/elements.toml`): `list.get(0)`, a getter's `List<Pet>`, the parameter of
/// a lambda passed to `forEach`/`filter`/`anyMatch` down a `stream()`, `for (var p : ..)`,
/// `Optional#orElseThrow`. A lambda of a call that does not pass elements (`map` of a
/// `Map`, `collect`) stays unknown; a name used for lambdas over two element types in one
/// method is each lambda's own (a variable's type is the binding's before its use). An edit
/// of the element type re-resolves as a fresh index does.
#[test]
fn java_calls_follow_the_element_types_of_collections_streams_and_optionals() {
    let repo = write_fixture(
        r#"
//- src/clinic/PetType.java
package clinic;

public class PetType {
    public String getName() { return ""; }
}
//- src/clinic/Pet.java
package clinic;

public class Pet {
    public PetType getType() { return null; }
    public boolean isNew() { return true; }
}
//- src/clinic/Vet.java
package clinic;

public class Vet {
    public String getLastName() { return ""; }
    public boolean isNew() { return false; }
}
//- src/clinic/Owner.java
package clinic;

import java.util.List;
import java.util.Optional;

public class Owner {
    private List<Pet> pets;

    public List<Pet> getPets() { return pets; }

    public Optional<Pet> findPet(String name) { return Optional.empty(); }

    public Pet first() {
        return pets.get(0);
    }
}
//- src/clinic/Use.java
package clinic;

import java.util.List;
import java.util.Map;

public class Use {
    void run(Owner owner, List<Vet> vets, Map<String, Pet> byName) {
        owner.getPets().get(0).getType().getName();
        owner.getPets().stream().filter(p -> p.isNew()).count();
        owner.getPets().forEach(pet -> pet.getType());
        for (var each : owner.getPets()) {
            each.getType();
        }
        owner.findPet("x").orElseThrow().isNew();
        vets.stream().anyMatch(v -> v.getLastName().isEmpty());
        byName.forEach((k, named) -> named.isNew());
    }

    void twice(Owner owner, List<Vet> vets) {
        owner.getPets().forEach(x -> x.isNew());
        vets.forEach(x -> x.isNew());
    }
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/clinic/Owner.java:11 calls empty from=clinic.Owner#findPet to=ext:java.util.Optional#empty (external)
        ref src/clinic/Owner.java:14 calls get from=clinic.Owner#first to=ext:java.util.List#get (external)
        ref src/clinic/Use.java:10 calls forEach from=clinic.Use#run to=ext:java.util.List#forEach (external)
        ref src/clinic/Use.java:10 calls getPets from=clinic.Use#run to=clinic.Owner#getPets() (exact)
        ref src/clinic/Use.java:10 calls getType from=clinic.Use#run to=clinic.Pet#getType() (exact)
        ref src/clinic/Use.java:11 calls getPets from=clinic.Use#run to=clinic.Owner#getPets() (exact)
        ref src/clinic/Use.java:12 calls getType from=clinic.Use#run to=clinic.Pet#getType() (exact)
        ref src/clinic/Use.java:14 calls findPet from=clinic.Use#run to=clinic.Owner#findPet(String) (exact)
        ref src/clinic/Use.java:14 calls isNew from=clinic.Use#run to=clinic.Pet#isNew() (exact)
        ref src/clinic/Use.java:14 calls orElseThrow from=clinic.Use#run to=ext:java.util.Optional#orElseThrow (external)
        ref src/clinic/Use.java:15 calls anyMatch from=clinic.Use#run to=ext:java.util.stream.Stream#anyMatch (external)
        ref src/clinic/Use.java:15 calls getLastName from=clinic.Use#run to=clinic.Vet#getLastName() (exact)
        ref src/clinic/Use.java:15 calls isEmpty from=clinic.Use#run to=ext:java.lang.String#isEmpty (external)
        ref src/clinic/Use.java:15 calls stream from=clinic.Use#run to=ext:java.util.List#stream (external)
        ref src/clinic/Use.java:16 calls forEach from=clinic.Use#run to=ext:java.util.Map#forEach (external)
        ref src/clinic/Use.java:16 calls isNew from=clinic.Use#run to=- (unresolved)
        ref src/clinic/Use.java:20 calls forEach from=clinic.Use#twice to=ext:java.util.List#forEach (external)
        ref src/clinic/Use.java:20 calls getPets from=clinic.Use#twice to=clinic.Owner#getPets() (exact)
        ref src/clinic/Use.java:20 calls isNew from=clinic.Use#twice to=clinic.Pet#isNew() (exact)
        ref src/clinic/Use.java:21 calls forEach from=clinic.Use#twice to=ext:java.util.List#forEach (external)
        ref src/clinic/Use.java:21 calls isNew from=clinic.Use#twice to=clinic.Vet#isNew() (exact)
        ref src/clinic/Use.java:8 calls get from=clinic.Use#run to=ext:java.util.List#get (external)
        ref src/clinic/Use.java:8 calls getName from=clinic.Use#run to=clinic.PetType#getName() (exact)
        ref src/clinic/Use.java:8 calls getPets from=clinic.Use#run to=clinic.Owner#getPets() (exact)
        ref src/clinic/Use.java:8 calls getType from=clinic.Use#run to=clinic.Pet#getType() (exact)
        ref src/clinic/Use.java:9 calls count from=clinic.Use#run to=ext:java.util.stream.Stream#count (external)
        ref src/clinic/Use.java:9 calls filter from=clinic.Use#run to=ext:java.util.stream.Stream#filter (external)
        ref src/clinic/Use.java:9 calls getPets from=clinic.Use#run to=clinic.Owner#getPets() (exact)
        ref src/clinic/Use.java:9 calls isNew from=clinic.Use#run to=clinic.Pet#isNew() (exact)
        ref src/clinic/Use.java:9 calls stream from=clinic.Use#run to=ext:java.util.List#stream (external)"#]]
    .assert_eq(&resolved(root, "src/clinic/", &["calls"]));
    // The element type changes: the chain follows it, as a fresh index does.
    let owner = std::fs::read_to_string(root.join("src/clinic/Owner.java")).unwrap();
    std::fs::write(root.join("src/clinic/Owner.java"), owner.replace("public List<Pet> getPets()", "public List<Vet> getPets()")).unwrap();
    reindex(root);
    let after = resolved(root, "src/clinic/Use.java:9", &["calls"]);
    assert!(after.contains("calls isNew from=clinic.Use#run to=clinic.Vet#isNew() (exact)"), "{after}");
    assert_incremental_is_fresh(root);
}

/// Rust: the element type of a `Vec`, a slice or an iterator over them is followed
/// (`grammars/rust/elements.toml`): `for m in &ms`, `for m in self.ms.iter()`, closures of
/// `iter().map(..)`/`filter(..)`, `ms.get(0).unwrap()`, `ms.last()?`.
#[test]
fn rust_calls_follow_the_element_types_of_vecs_slices_and_iterators() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[package]
name = "el"
version = "0.1.0"
edition = "2021"
//- src/lib.rs
pub struct Match {
    start: usize,
}

impl Match {
    pub fn start(&self) -> usize { self.start }
    pub fn is_empty(&self) -> bool { false }
}

pub struct Matches {
    ms: Vec<Match>,
}

impl Matches {
    pub fn all(&self) -> &[Match] { &self.ms }

    pub fn total(&self) -> usize {
        let mut n = 0;
        for m in self.ms.iter() {
            n += m.start();
        }
        n
    }
}

pub fn sum(ms: &[Match]) -> usize {
    let mut n = 0;
    for m in ms {
        n += m.start();
    }
    n + ms.iter().map(|m| m.start()).sum::<usize>()
}

pub fn first(found: &Matches) -> Option<usize> {
    let k = found.all().iter().filter(|m| !m.is_empty()).count();
    let last = found.all().last()?;
    Some(found.all().get(0).unwrap().start() + last.start() + k)
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/lib.rs:19 calls iter from=el::Matches::total to=ext:std::vec::Vec::iter (external)
        ref src/lib.rs:20 calls start from=el::Matches::total to=el::Match::start (exact)
        ref src/lib.rs:29 calls start from=el::sum to=el::Match::start (exact)
        ref src/lib.rs:31 calls iter from=el::sum to=ext:slice::iter (external)
        ref src/lib.rs:31 calls map from=el::sum to=- (unresolved)
        ref src/lib.rs:31 calls start from=el::sum to=el::Match::start (exact)
        ref src/lib.rs:31 calls sum from=el::sum to=- (unresolved)
        ref src/lib.rs:35 calls all from=el::first to=el::Matches::all (exact)
        ref src/lib.rs:35 calls count from=el::first to=- (unresolved)
        ref src/lib.rs:35 calls filter from=el::first to=- (unresolved)
        ref src/lib.rs:35 calls is_empty from=el::first to=el::Match::is_empty (exact)
        ref src/lib.rs:35 calls iter from=el::first to=- (unresolved)
        ref src/lib.rs:36 calls all from=el::first to=el::Matches::all (exact)
        ref src/lib.rs:36 calls last from=el::first to=- (unresolved)
        ref src/lib.rs:37 calls Some from=el::first to=ext:std::option::Option::Some (external)
        ref src/lib.rs:37 calls all from=el::first to=el::Matches::all (exact)
        ref src/lib.rs:37 calls get from=el::first to=- (unresolved)
        ref src/lib.rs:37 calls start from=el::first to=el::Match::start (exact)
        ref src/lib.rs:37 calls start from=el::first to=el::Match::start (exact)
        ref src/lib.rs:37 calls unwrap from=el::first to=ext:std::option::Option::unwrap (external)"#]]
    .assert_eq(&resolved(root, "src/lib.rs:", &["calls"]));
    assert_incremental_is_fresh(root);
}

/// Java: an enum constant calls its enum's constructor, the overload its arguments pick
/// (`SUCCESS(200, "ok")`), the one without parameters when it has none (`UNKNOWN`), as `new`
/// does (JLS 8.9.1).
#[test]
fn java_enum_constants_call_their_constructor() {
    let repo = write_fixture(
        r#"
//- src/api/ResultCode.java
package api;

public enum ResultCode {
    SUCCESS(200, "ok"),
    FAILED(500),
    UNKNOWN;

    private final long code;

    ResultCode() { this(0); }

    ResultCode(long code) { this.code = code; }

    ResultCode(long code, String message) { this.code = code; }
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/api/ResultCode.java:10 calls this from=api.ResultCode#ResultCode to=api.ResultCode#ResultCode(long) (exact)
        ref src/api/ResultCode.java:4 instantiates ResultCode from=api.ResultCode#SUCCESS to=api.ResultCode#ResultCode(long,String) (exact)
        ref src/api/ResultCode.java:5 instantiates ResultCode from=api.ResultCode#FAILED to=api.ResultCode#ResultCode(long) (exact)
        ref src/api/ResultCode.java:6 instantiates ResultCode from=api.ResultCode#UNKNOWN to=api.ResultCode#ResultCode() (exact)"#]]
    .assert_eq(&resolved(root, "src/api/", &["instantiates", "calls"]));
}

/// Java: a chain goes on from a value, so a link named by overloads of which one is `void`
/// continues with the others' return type (MyBatis Generator's `example.or().andIdEqualTo(1)`
/// beside `void or(Criteria)`).
#[test]
fn java_chains_pass_over_void_overloads() {
    let repo = write_fixture(
        r#"
//- src/db/OrderExample.java
package db;

public class OrderExample {
    public void or(Criteria criteria) { }

    public Criteria or() { return new Criteria(); }

    public static class Criteria {
        public Criteria andIdEqualTo(Integer id) { return this; }
    }
}
//- src/db/Use.java
package db;

public class Use {
    void run(OrderExample example) {
        example.or().andIdEqualTo(1);
    }
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/db/Use.java:5 calls andIdEqualTo from=db.Use#run to=db.OrderExample.Criteria#andIdEqualTo(Integer) (exact)
        ref src/db/Use.java:5 calls or from=db.Use#run to=db.OrderExample#or() (exact)"#]]
    .assert_eq(&resolved(root, "src/db/Use", &["calls"]));
}

/// Java: an array of a primitive type is a type of its own, written before or after the
/// name (`int[] words;`, `int data[];`): a field of one passed as an argument picks the
/// overload taking the array (`mult(big.data, big.len, v0, v1, out)` beside `mult(int[],
/// int, int[], int, int[])`), and a chain goes on past an overload giving one (`a.sub(b)
/// .abs()` beside `static int[] sub(int[], int[])`). A local declared again in another block
/// is that block's (`Big big` after an earlier block's `long big`). Incremental == fresh
/// after the field becomes an `int`.
#[test]
fn java_primitive_arrays_pick_overloads_and_chains_pass_over_them() {
    let repo = write_fixture(
        r#"
//- src/m/Big.java
package m;

public class Big {
    int data[];
    int[] words;
    int len;

    static void mult(int[] a, int alen, int[] b, int blen, int[] out) { }
    static void mult(int[] a, int alen, int v0, int v1, int[] out) { }
    static int[] sub(int[] a, int[] b) { return a; }
    Big sub(Big other) { return this; }
    Big abs() { return this; }

    static void run(boolean small, int v0, int v1, Big other) {
        if (small) {
            long big = 5L;
        } else {
            Big big = other;
            int[] out = new int[3];
            mult(big.data, big.len, v0, v1, out);
            mult(big.words, big.len, other.words, other.len, out);
            big.sub(other).abs();
        }
    }
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/m/Big.java:20 calls mult from=m.Big#run to=m.Big#mult(int[],int,int,int,int[]) (exact)
        ref src/m/Big.java:21 calls mult from=m.Big#run to=m.Big#mult(int[],int,int[],int,int[]) (exact)
        ref src/m/Big.java:22 calls abs from=m.Big#run to=m.Big#abs() (exact)
        ref src/m/Big.java:22 calls sub from=m.Big#run to=m.Big#sub(Big) (exact)"#]]
    .assert_eq(&resolved(root, "src/m/Big.java:2", &["calls"]));
    let big = root.join("src/m/Big.java");
    let text = std::fs::read_to_string(&big).unwrap().replace("    int data[];", "    int data;");
    std::fs::write(&big, text).unwrap();
    reindex(root);
    expect_test::expect!["ref src/m/Big.java:20 calls mult from=m.Big#run to=m.Big#mult(int[],int,int,int,int[]) | m.Big#mult(int[],int,int[],int,int[]) (ambiguous)"].assert_eq(&resolved(root, "src/m/Big.java:20 ", &["calls"]));
    assert_incremental_is_fresh(root);
}

/// Rust (issue 49): calls through generic bounds. A field whose type is a parameter the impl
/// block bounds (`self.sink.matched()` inside `impl<S: Sink> Core<S>`), a path through a
/// bounded type parameter (`E::from_parts(s)`, also as a chain's first link), and the
/// variable of a `for mut` loop over trait objects all call the trait's method, exactly; an
/// unbounded parameter's field gives no name guess. An edit that drops the bound, indexed
/// incrementally, equals a fresh index.
#[test]
fn rust_calls_through_generic_bounds_call_the_traits_method() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[package]
name = "gb"
version = "0.1.0"
edition = "2021"
//- src/lib.rs
pub trait Sink {
    fn matched(&mut self, n: u32) -> bool;
}
pub trait FromParts<S> {
    fn from_parts(s: &S) -> Self;
    fn check(&self) -> bool;
}
pub struct Core<S> {
    sink: S,
}
impl<S: Sink> Core<S> {
    pub fn step(&mut self) {
        self.sink.matched(1);
    }
}
pub struct Loose<T> {
    inner: T,
}
impl<T> Loose<T> {
    pub fn poke(&mut self) {
        self.inner.matched(2);
    }
}
pub fn run<E: FromParts<S>, S>(s: &S) -> bool {
    E::from_parts(s).check()
}
pub fn many(v: Vec<Box<dyn Sink>>) {
    for mut s in v {
        s.matched(5);
    }
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/lib.rs:13 calls matched from=gb::Core::step to=gb::Sink::matched (exact)
        ref src/lib.rs:21 calls matched from=gb::Loose::poke to=gb::Sink::matched (guess)
        ref src/lib.rs:25 calls FromParts::from_parts from=gb::run to=gb::FromParts::from_parts (exact)
        ref src/lib.rs:25 calls check from=gb::run to=gb::FromParts::check (exact)
        ref src/lib.rs:29 calls matched from=gb::many to=gb::Sink::matched (exact)"#]]
    .assert_eq(&resolved(root, "src/lib.rs:", &["calls"]));
    let lib = root.join("src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap().replace("impl<S: Sink> Core<S>", "impl<S> Core<S>");
    std::fs::write(&lib, text).unwrap();
    reindex(root);
    assert!(resolved(root, "src/lib.rs:13 ", &["calls"]).ends_with("(guess)"), "{}", resolved(root, "src/lib.rs:13 ", &["calls"]));
    assert_incremental_is_fresh(root);
}

/// Java (issue 50): test libraries' identity calls (`grammars/java/elements.toml`): a mock
/// checked or stubbed through Mockito is its own type, so `verify(service, times(2))
/// .findLatest(..)`, `Mockito.verify(..)`, `doReturn(x).when(service)..`,
/// `then(service).should()..` and `spy(service)..` call `OrderService#findLatest` exactly.
/// `when(service.findLatest(..))` calls it inside; a `verify` on a value is no such call.
/// After `findLatest` is renamed, incremental == fresh.
#[test]
fn java_mocks_checked_and_stubbed_call_their_types_methods() {
    let repo = write_fixture(
        r#"
//- src/main/java/com/x/OrderService.java
package com.x;

public class OrderService {
    public String findLatest(String customer) { return customer; }
}
//- src/test/java/com/x/Checker.java
package com.x;

class Checker {
    Checker verify(Object o) { return this; }
    void findLatest(String s) {}
}
//- src/test/java/com/x/OrderServiceTest.java
package com.x;

import static org.mockito.Mockito.*;
import static org.mockito.BDDMockito.then;

import org.mockito.Mockito;

class OrderServiceTest {
    private OrderService service = mock(OrderService.class);
    private Checker checker = new Checker();

    void checks() {
        when(service.findLatest("a")).thenReturn("b");
        verify(service, times(2)).findLatest("a");
        Mockito.verify(service).findLatest("b");
        doReturn("x").when(service).findLatest("c");
        then(service).should().findLatest("d");
        spy(service).findLatest("e");
        checker.verify(service).findLatest("f");
    }
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/test/java/com/x/OrderServiceTest.java:13 calls findLatest from=com.x.OrderServiceTest#checks to=com.x.OrderService#findLatest(String) (exact)
        ref src/test/java/com/x/OrderServiceTest.java:13 calls thenReturn from=com.x.OrderServiceTest#checks to=- (unresolved)
        ref src/test/java/com/x/OrderServiceTest.java:13 calls when from=com.x.OrderServiceTest#checks to=- (unresolved)
        ref src/test/java/com/x/OrderServiceTest.java:14 calls findLatest from=com.x.OrderServiceTest#checks to=com.x.OrderService#findLatest(String) (exact)
        ref src/test/java/com/x/OrderServiceTest.java:14 calls times from=com.x.OrderServiceTest#checks to=- (unresolved)
        ref src/test/java/com/x/OrderServiceTest.java:14 calls verify from=com.x.OrderServiceTest#checks to=- (unresolved)
        ref src/test/java/com/x/OrderServiceTest.java:15 calls findLatest from=com.x.OrderServiceTest#checks to=com.x.OrderService#findLatest(String) (exact)
        ref src/test/java/com/x/OrderServiceTest.java:15 calls verify from=com.x.OrderServiceTest#checks to=ext:org.mockito.Mockito#verify (external)
        ref src/test/java/com/x/OrderServiceTest.java:16 calls doReturn from=com.x.OrderServiceTest#checks to=- (unresolved)
        ref src/test/java/com/x/OrderServiceTest.java:16 calls findLatest from=com.x.OrderServiceTest#checks to=com.x.OrderService#findLatest(String) (exact)
        ref src/test/java/com/x/OrderServiceTest.java:16 calls when from=com.x.OrderServiceTest#checks to=- (unresolved)
        ref src/test/java/com/x/OrderServiceTest.java:17 calls findLatest from=com.x.OrderServiceTest#checks to=com.x.OrderService#findLatest(String) (exact)
        ref src/test/java/com/x/OrderServiceTest.java:17 calls should from=com.x.OrderServiceTest#checks to=- (unresolved)
        ref src/test/java/com/x/OrderServiceTest.java:17 calls then from=com.x.OrderServiceTest#checks to=ext:org.mockito.BDDMockito#then (external)
        ref src/test/java/com/x/OrderServiceTest.java:18 calls findLatest from=com.x.OrderServiceTest#checks to=com.x.OrderService#findLatest(String) (exact)
        ref src/test/java/com/x/OrderServiceTest.java:18 calls spy from=com.x.OrderServiceTest#checks to=- (unresolved)
        ref src/test/java/com/x/OrderServiceTest.java:19 calls findLatest from=com.x.OrderServiceTest#checks to=com.x.Checker#findLatest(String) (exact)
        ref src/test/java/com/x/OrderServiceTest.java:19 calls verify from=com.x.OrderServiceTest#checks to=com.x.Checker#verify(Object) (exact)
        ref src/test/java/com/x/OrderServiceTest.java:9 calls mock from=com.x.OrderServiceTest#service to=- (unresolved)"#]].assert_eq(&resolved(root, "src/test/java/com/x/OrderServiceTest.java:", &["calls"]));
    let service = root.join("src/main/java/com/x/OrderService.java");
    std::fs::write(&service, std::fs::read_to_string(&service).unwrap().replace("findLatest", "latest")).unwrap();
    reindex(root);
    assert_incremental_is_fresh(root);
}

/// Java (issue 50): a test that requests one of the application's URLs calls the handler
/// serving it: MockMvc's `get(template, vars)` and `post(..)` (static imports), a concrete
/// URL, TestRestTemplate's `getForObject`, WebTestClient's `get().uri(..)`, RestAssured's
/// `given().when().get(..)`; a map's `get("/owners/1")` is no request, and a URL no endpoint
/// serves names nothing. When the mapping moves, incremental == fresh.
#[test]
fn java_tests_requesting_a_url_call_its_handler() {
    let repo = write_fixture(
        r#"
//- src/main/java/com/x/OwnerController.java
package com.x;

import org.springframework.web.bind.annotation.*;

@RestController
@RequestMapping("/owners")
class OwnerController {
    @GetMapping("/{ownerId}")
    String show(@PathVariable int ownerId) { return ""; }

    @PostMapping("/new")
    String create() { return ""; }

    @GetMapping("/**")
    String fallback() { return ""; }
}
//- src/test/java/com/x/OwnerControllerTests.java
package com.x;

import static io.restassured.RestAssured.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import java.util.Map;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.servlet.MockMvc;

class OwnerControllerTests {
    MockMvc mockMvc;
    TestRestTemplate rest;
    WebTestClient client;
    Map<String, String> pages;

    void requests() throws Exception {
        mockMvc.perform(get("/owners/{ownerId}", 1));
        mockMvc.perform(get("/owners/7?tab=pets"));
        mockMvc.perform(post("/owners/new"));
        rest.getForObject("/owners/3", String.class);
        client.get().uri("/owners/{id}", 4).exchange();
        given().when().get("/owners/5");
        pages.get("/owners/1");
        mockMvc.perform(get("/vets"));
        mockMvc.perform(get("/owners/a/b"));
    }
}
"#,
    );
    let root = repo.path();
    reindex(root);
    let requests = |root: &Path| {
        dump(root)
            .lines()
            .filter(|l| l.starts_with("ref src/test/") && l.contains(" calls ") && l.contains(" /"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    expect_test::expect![[r#"
        ref src/test/java/com/x/OwnerControllerTests.java:19 calls GET /owners/{ownerId} from=com.x.OwnerControllerTests#requests to=com.x.OwnerController#show(int) (exact)
        ref src/test/java/com/x/OwnerControllerTests.java:20 calls GET /owners/7 from=com.x.OwnerControllerTests#requests to=com.x.OwnerController#show(int) (exact)
        ref src/test/java/com/x/OwnerControllerTests.java:21 calls POST /owners/new from=com.x.OwnerControllerTests#requests to=com.x.OwnerController#create() (exact)
        ref src/test/java/com/x/OwnerControllerTests.java:22 calls GET /owners/3 from=com.x.OwnerControllerTests#requests to=com.x.OwnerController#show(int) (exact)
        ref src/test/java/com/x/OwnerControllerTests.java:23 calls GET /owners/{id} from=com.x.OwnerControllerTests#requests to=com.x.OwnerController#show(int) (exact)
        ref src/test/java/com/x/OwnerControllerTests.java:24 calls GET /owners/5 from=com.x.OwnerControllerTests#requests to=com.x.OwnerController#show(int) (exact)
        ref src/test/java/com/x/OwnerControllerTests.java:26 calls GET /vets from=com.x.OwnerControllerTests#requests to=- (unresolved)
        ref src/test/java/com/x/OwnerControllerTests.java:27 calls GET /owners/a/b from=com.x.OwnerControllerTests#requests to=com.x.OwnerController#fallback() (exact)"#]].assert_eq(&requests(root));
    let controller = root.join("src/main/java/com/x/OwnerController.java");
    std::fs::write(&controller, std::fs::read_to_string(&controller).unwrap().replace("@PostMapping(\"/new\")", "@PostMapping(\"/add\")"))
        .unwrap();
    reindex(root);
    expect_test::expect![[r#"
        ref src/test/java/com/x/OwnerControllerTests.java:21 calls POST /owners/new from=com.x.OwnerControllerTests#requests to=- (unresolved)
        ref src/test/java/com/x/OwnerControllerTests.java:21 calls perform from=com.x.OwnerControllerTests#requests to=ext:org.springframework.test.web.servlet.MockMvc#perform (external)
        ref src/test/java/com/x/OwnerControllerTests.java:21 calls post from=com.x.OwnerControllerTests#requests to=ext:org.springframework.test.web.servlet.request.MockMvcRequestBuilders#post (external)"#]].assert_eq(&resolved(root, "src/test/java/com/x/OwnerControllerTests.java:21", &["calls"]));
    // A controller that comes later serves a request made before it.
    std::fs::write(
        root.join("src/main/java/com/x/VetController.java"),
        "package com.x;\n\n@RestController\nclass VetController {\n    @GetMapping(\"/vets\")\n    String list() { return \"\"; }\n}\n",
    )
    .unwrap();
    reindex(root);
    expect_test::expect![[r#"
        ref src/test/java/com/x/OwnerControllerTests.java:26 calls GET /vets from=com.x.OwnerControllerTests#requests to=com.x.VetController#list() (exact)
        ref src/test/java/com/x/OwnerControllerTests.java:26 calls get from=com.x.OwnerControllerTests#requests to=ext:org.springframework.test.web.servlet.request.MockMvcRequestBuilders#get (external)
        ref src/test/java/com/x/OwnerControllerTests.java:26 calls perform from=com.x.OwnerControllerTests#requests to=ext:org.springframework.test.web.servlet.MockMvc#perform (external)"#]].assert_eq(&resolved(root, "src/test/java/com/x/OwnerControllerTests.java:26", &["calls"]));
    assert_incremental_is_fresh(root);
}

/// Rust: an inherent method comes before a trait impl's method of the same name, wherever
/// each is declared (rustc's method lookup). tracing-subscriber implements its own
/// `RecordFields` for tracing-core's `Event`, whose inherent `record` its calls mean: on a
/// value, through a path (`Event::record(self, ..)` inside the impl), and in the crate that
/// declares the trait. A type without an inherent method of the name takes the impl's.
/// Incremental == fresh after the inherent method is removed, when the impl's is the call.
#[test]
fn rust_inherent_methods_come_before_a_trait_impls_of_another_crate() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[workspace]
members = ["core", "sub"]
//- core/Cargo.toml
[package]
name = "core"
version = "0.1.0"
edition = "2021"
//- core/src/lib.rs
pub struct Event;
impl Event {
    pub fn record(&self, n: u32) {}
}
pub struct Plain;
//- sub/Cargo.toml
[package]
name = "sub"
version = "0.1.0"
edition = "2021"
[dependencies]
core = { path = "../core" }
//- sub/src/lib.rs
use core::{Event, Plain};
pub trait RecordFields {
    fn record(&self, n: u32);
}
impl RecordFields for Event {
    fn record(&self, n: u32) {
        Event::record(self, n)
    }
}
impl RecordFields for Plain {
    fn record(&self, n: u32) {}
}
pub fn format(event: &Event, plain: &Plain) {
    event.record(1);
    plain.record(2);
}
"#,
    );
    let root = repo.path();
    reindex(root);
    // The dump names an impl's member by its type (`core::Event::record` for both): the
    // handles of `find_references` tell them apart.
    let references = |handle: &str| {
        let atlas = repochart::tools::Atlas::new(&root.canonicalize().unwrap());
        atlas.call("find_references", serde_json::json!({ "symbol": handle })).map_err(|e| e.0).unwrap()
    };
    expect_test::expect![[r#"
        ref sub/src/lib.rs:14 calls record from=sub::format to=core::Event::record (exact)
        ref sub/src/lib.rs:15 calls record from=sub::format to=core::Plain::record (exact)
        ref sub/src/lib.rs:7 calls Event::record from=core::Event::record to=core::Event::record (exact)"#]]
    .assert_eq(&resolved(root, "sub/src/lib.rs:", &["calls"]));
    expect_test::expect![[r#"
        2 references to method core::Event::record (calls 2)
        sub/src/lib.rs
          7 calls  in core::Event::record
          14 calls  in sub::format"#]]
    .assert_eq(&references("core/src/lib.rs:3"));
    expect_test::expect!["no references to method <core::Event as RecordFields>::record (kind=all); all kinds: 0"]
        .assert_eq(&references("sub/src/lib.rs:6"));
    let core = root.join("core/src/lib.rs");
    let text = std::fs::read_to_string(&core).unwrap().replace("    pub fn record(&self, n: u32) {}\n", "");
    std::fs::write(&core, text).unwrap();
    reindex(root);
    expect_test::expect![[r#"
        2 references to method <core::Event as RecordFields>::record (calls 2)
        sub/src/lib.rs
          7 calls  in core::Event::record
          14 calls  in sub::format"#]]
    .assert_eq(&references("sub/src/lib.rs:6"));
    assert_incremental_is_fresh(root);
}

/// Rust (issue 49): functions and methods used as values are references of their own kind
/// (`method_ref`, as Java's method references): an argument (`route(create)`,
/// `.map(Self::parse)`, `.and_then(parse_line)`), a struct field's value, a `let` and an
/// array element; a variant passed as a value is a use of it (a tuple variant is its
/// constructor). A name bound as a variable where it is passed (a `let` without a type,
/// a closure parameter, a pattern) is the variable, and a constant is no function:
/// neither is a reference. Incremental == fresh after the handler is renamed.
#[test]
fn rust_functions_used_as_values_are_method_refs() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[package]
name = "fv"
version = "0.1.0"
edition = "2021"
//- src/lib.rs
pub mod handlers;
use handlers::{create, parse_line, P};
pub const LIMIT: u32 = 3;
pub enum Kind { Plain }
pub struct Router { on_exit: fn() -> u32 }
pub fn route(f: fn() -> u32) -> u32 { f() }
pub fn take<T>(t: T) -> T { t }
pub fn wire(v: Vec<&str>) {
    route(create);
    let _ = Some("1").and_then(parse_line);
    let _ = P::all(v);
    let _r = Router { on_exit: handlers::create };
    let f = create;
    let fs = [create, handlers::create];
    take(LIMIT);
    take(Kind::Plain);
    let parse_line = 4;
    take(parse_line);
    let _ = [1].iter().map(|create| take(create));
}
//- src/handlers.rs
pub fn create() -> u32 { 1 }
pub fn parse_line(s: &str) -> Option<u32> { s.parse().ok() }
pub struct P;
impl P {
    fn parse(s: &str) -> u32 { s.len() as u32 }
    pub fn all(v: Vec<&str>) -> Vec<u32> {
        v.into_iter().map(Self::parse).collect()
    }
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/handlers.rs:7 method_ref P::parse from=fv::handlers::P::all to=fv::handlers::P::parse (exact)
        ref src/lib.rs:10 method_ref parse_line from=fv::wire to=fv::handlers::parse_line (exact)
        ref src/lib.rs:12 method_ref handlers::create from=fv::wire to=fv::handlers::create (exact)
        ref src/lib.rs:13 method_ref create from=fv::wire to=fv::handlers::create (exact)
        ref src/lib.rs:14 method_ref create from=fv::wire to=fv::handlers::create (exact)
        ref src/lib.rs:14 method_ref handlers::create from=fv::wire to=fv::handlers::create (exact)
        ref src/lib.rs:16 method_ref Kind::Plain from=fv::wire to=fv::Kind::Plain (exact)
        ref src/lib.rs:9 method_ref create from=fv::wire to=fv::handlers::create (exact)"#]]
    .assert_eq(&resolved(root, "src/", &["method_ref"]));
    let handlers = root.join("src/handlers.rs");
    let text = std::fs::read_to_string(&handlers).unwrap().replace("pub fn create()", "pub fn make()");
    std::fs::write(&handlers, text).unwrap();
    reindex(root);
    assert_eq!(resolved(root, "src/lib.rs:9 ", &["method_ref"]), "");
    assert_incremental_is_fresh(root);
}

/// Rust (issue 49): a function used as a value is a receiver (`handler.into_service()`):
/// its methods are those of the traits implemented for every type. Where two blanket
/// traits have the method (`HandlerExt<T>: Handler<T>` and `ServiceExt: Service`, a trait
/// from outside the repository), it is the one whose supertrait the repository implements
/// for every type (`impl<F: FnOnce() -> u32> Handler<()> for F`), as a function can be;
/// when that impl or that supertrait goes, the call is ambiguous and unresolved,
/// incrementally as fresh.
#[test]
fn rust_function_values_take_the_blanket_traits_methods() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[package]
name = "fvm"
version = "0.1.0"
edition = "2021"
//- src/lib.rs
pub mod handler;
pub mod service;
use handler::HandlerExt;
use service::ServiceExt;
pub fn serve() {
    let _ = index.into_service();
    let _ = index.into_make_service();
}
async fn index() -> u32 { 1 }
//- src/handler.rs
pub trait Handler<T>: Clone {
    fn call(self) -> u32;
}
impl<F: FnOnce() -> u32 + Clone> Handler<()> for F {
    fn call(self) -> u32 { self() }
}
pub trait HandlerExt<T>: Handler<T> {
    fn into_service(self) -> u32;
    fn into_make_service(self) -> u32;
}
impl<H: Handler<T>, T> HandlerExt<T> for H {
    fn into_service(self) -> u32 { self.call() }
    fn into_make_service(self) -> u32 { self.call() }
}
//- src/service.rs
pub trait ServiceExt: tower::Service<u32> + Sized {
    fn into_make_service(self) -> u32;
}
impl<S: tower::Service<u32>> ServiceExt for S {
    fn into_make_service(self) -> u32 { 0 }
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/lib.rs:6 calls into_service from=fvm::serve to=fvm::handler::HandlerExt::into_service (exact)
        ref src/lib.rs:7 calls into_make_service from=fvm::serve to=fvm::handler::HandlerExt::into_make_service (exact)"#]]
    .assert_eq(&resolved(root, "src/lib.rs:", &["calls"]));
    let handler = root.join("src/handler.rs");
    let text = std::fs::read_to_string(&handler)
        .unwrap()
        .replace("impl<F: FnOnce() -> u32 + Clone> Handler<()> for F {", "impl Handler<()> for u32 {");
    std::fs::write(&handler, text).unwrap();
    reindex(root);
    expect_test::expect!["ref src/lib.rs:7 calls into_make_service from=fvm::serve to=- (unresolved)"].assert_eq(&resolved(
        root,
        "src/lib.rs:7 ",
        &["calls"],
    ));
    assert_incremental_is_fresh(root);
    // The impl back, and the supertrait gone: ambiguous again.
    let text = std::fs::read_to_string(&handler)
        .unwrap()
        .replace("impl Handler<()> for u32 {", "impl<F: FnOnce() -> u32 + Clone> Handler<()> for F {")
        .replace("pub trait HandlerExt<T>: Handler<T> {", "pub trait HandlerExt<T>: Clone {");
    std::fs::write(&handler, text).unwrap();
    reindex(root);
    expect_test::expect!["ref src/lib.rs:7 calls into_make_service from=fvm::serve to=- (unresolved)"].assert_eq(&resolved(
        root,
        "src/lib.rs:7 ",
        &["calls"],
    ));
    assert_incremental_is_fresh(root);
}

/// Rust (issue 49): macros live in a namespace of their own. A test file's `fn debug()`
/// beside `use lg::debug;` is never what `debug!(..)` invokes: the macro the `use` brings
/// in is, from another crate of the workspace; the function keeps its own calls. Where the
/// path also names a module of the crate (`pub mod debug`), `debug!` is the crate's
/// `#[macro_export]` macro, wherever it is defined, and `debug::emit()` the module's.
#[test]
fn rust_macro_invocations_never_resolve_to_a_function_of_the_name() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[workspace]
members = ["lg", "app"]
//- lg/Cargo.toml
[package]
name = "lg"
version = "0.1.0"
edition = "2021"
//- lg/src/lib.rs
pub mod debug {
    pub fn emit() {}
}
#[macro_use]
mod macros {
    #[macro_export]
    macro_rules! debug {
        ($($t:tt)*) => {};
    }
}
//- app/Cargo.toml
[package]
name = "app"
version = "0.1.0"
edition = "2021"
[dependencies]
lg = { path = "../lg" }
//- app/src/lib.rs
pub mod other;
use lg::debug;
pub fn debug() {}
pub fn run() {
    debug!("x");
    debug();
}
//- app/src/other.rs
use lg::debug;
pub fn run() {
    debug!("y");
    debug::emit();
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref app/src/lib.rs:5 expands debug from=app::run to=lg::macros::debug (exact)
        ref app/src/lib.rs:6 calls debug from=app::run to=app::debug (exact)
        ref app/src/other.rs:3 expands debug from=app::other::run to=lg::macros::debug (exact)
        ref app/src/other.rs:4 calls debug::emit from=app::other::run to=lg::debug::emit (exact)"#]]
    .assert_eq(&resolved(root, "app/src/", &["expands", "calls"]));
    // The macro no longer exported: `debug!` names nothing, the function keeps its call.
    let lg = root.join("lg/src/lib.rs");
    let text = std::fs::read_to_string(&lg).unwrap().replace("    #[macro_export]\n", "");
    std::fs::write(&lg, text).unwrap();
    reindex(root);
    expect_test::expect![[r#"
        ref app/src/lib.rs:5 expands debug from=app::run to=- (unresolved)
        ref app/src/lib.rs:6 calls debug from=app::run to=app::debug (exact)"#]]
    .assert_eq(&resolved(root, "app/src/lib.rs:", &["expands", "calls"]));
    assert_incremental_is_fresh(root);
}

/// Rust (issue 49): a code macro's input is read as code. The paths, fields and calls in
/// `log!(target: "t", parent: span.id(), Level::INFO, ..)`, `vec![..]` and a macro inside
/// another (`check!(format!(..))`) resolve as outside a macro; an item-level macro's items
/// (`cfg_if! { if #[cfg(..)] { .. } else { .. } }`, a crate's pass-through `feature! {
/// #![..] .. }`) are items of the module, and a constant inside a closure passed to a
/// macro stays local to it. An edit inside a macro's input, indexed incrementally, equals a
/// fresh index.
#[test]
fn rust_macro_inputs_are_read_as_code() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[package]
name = "mi"
version = "0.1.0"
edition = "2021"
//- src/lib.rs
#[macro_use]
mod macros;
pub mod level;
use level::Level;
pub struct Span { id: u32 }
impl Span {
    pub fn id(&self) -> u32 { self.id }
    pub fn new() -> Span { Span { id: 1 } }
}
pub struct Registry;
cfg_if::cfg_if! {
    if #[cfg(unix)] {
        pub fn registry() -> Registry { Registry }
    } else {
        pub fn registry() -> Registry { Registry }
    }
}
feature! {
    #![cfg(feature = "std")]
    pub fn make() -> Span { Span::new() }
}
pub fn run(span: &Span) -> Vec<Span> {
    log!(target: "t", parent: span.id(), Level::INFO, "x {}", span.id);
    check!(format!("{}", span.id()));
    registry();
    test_case!(|| {
        const LOCAL: u32 = 2;
        let _ = LOCAL;
    });
    vec![Span::new(), make()]
}
//- src/level.rs
pub struct Level(u8);
impl Level {
    pub const INFO: Level = Level(2);
}
//- src/macros.rs
macro_rules! log {
    ($($t:tt)*) => {};
}
macro_rules! check {
    ($e:expr) => {};
}
macro_rules! feature {
    (#![$meta:meta] $($item:item)*) => { $( #[$meta] $item )* };
}
macro_rules! test_case {
    ($e:expr) => {};
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/lib.rs:20 accesses Span from=mi::make to=mi::Span (exact)
        ref src/lib.rs:20 calls Span::new from=mi::make to=mi::Span::new (exact)
        ref src/lib.rs:23 accesses Level from=mi::run to=mi::level::Level (exact)
        ref src/lib.rs:23 calls id from=mi::run to=mi::Span::id (exact)
        ref src/lib.rs:23 uses_field Level::INFO from=mi::run to=mi::level::Level::INFO (exact)
        ref src/lib.rs:23 uses_field id from=mi::run to=mi::Span::id (exact)
        ref src/lib.rs:24 calls id from=mi::run to=mi::Span::id (exact)
        ref src/lib.rs:25 calls registry from=mi::run to=mi::registry (exact)
        ref src/lib.rs:30 accesses Span from=mi::run to=mi::Span (exact)
        ref src/lib.rs:30 calls Span::new from=mi::run to=mi::Span::new (exact)
        ref src/lib.rs:30 calls make from=mi::run to=mi::make (exact)
        ref src/lib.rs:7 uses_field id from=mi::Span::id to=mi::Span::id (exact)
        ref src/lib.rs:8 instantiates Span from=mi::Span::new to=mi::Span (exact)
        ref src/lib.rs:8 uses_field id from=mi::Span::new to=mi::Span::id (exact)"#]]
    .assert_eq(&resolved(root, "src/lib.rs:", &["calls", "uses_field", "accesses", "instantiates"]));
    let symbols: Vec<String> = dump(root)
        .lines()
        .filter(|l| l.starts_with("symbol src/lib.rs") && !l.contains(" field "))
        .map(|l| l.split(" sig=").next().unwrap().to_string())
        .collect();
    expect_test::expect![[r#"
        symbol src/lib.rs:10-10 struct mi::Registry parent=- vis=pub
        symbol src/lib.rs:13-13 function mi::registry parent=- vis=pub
        symbol src/lib.rs:15-15 function mi::registry parent=- vis=pub
        symbol src/lib.rs:2-2 module mi::macros parent=- vis=private
        symbol src/lib.rs:20-20 function mi::make parent=- vis=pub
        symbol src/lib.rs:22-31 function mi::run parent=- vis=pub
        symbol src/lib.rs:3-3 module mi::level parent=- vis=pub
        symbol src/lib.rs:5-5 struct mi::Span parent=- vis=pub
        symbol src/lib.rs:7-7 method mi::Span::id parent=mi::Span vis=pub
        symbol src/lib.rs:8-8 method mi::Span::new parent=mi::Span vis=pub"#]]
    .assert_eq(&symbols.join("\n"));
    let lib = root.join("src/lib.rs");
    let text =
        std::fs::read_to_string(&lib).unwrap().replace("check!(format!(\"{}\", span.id()));", "check!(format!(\"{}\", Span::new()));");
    std::fs::write(&lib, text).unwrap();
    reindex(root);
    assert!(resolved(root, "src/lib.rs:24 ", &["calls"]).contains("to=mi::Span::new"), "{}", resolved(root, "src/lib.rs:24 ", &["calls"]));
    assert_incremental_is_fresh(root);
}

/// Rust (issue 49): attributes that invoke macros (`#[instrument]`, `#[attrs::instrument]`)
/// and the derive macros `derive(..)` names are `expands` references of the item they
/// decorate; the attributes the compiler reads itself (`#[cfg]`, `#[inline]`, `#[test]`)
/// are none. A procedural macro's function is a macro, found through a re-export that a
/// module of the same name sits beside (`pub mod instrument;`).
#[test]
fn rust_attribute_and_derive_macros_are_uses_of_the_macro() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[workspace]
members = ["attrs", "lib"]
//- attrs/Cargo.toml
[package]
name = "attrs"
version = "0.1.0"
edition = "2021"
[lib]
proc-macro = true
//- attrs/src/lib.rs
use proc_macro::TokenStream;
#[proc_macro_attribute]
pub fn instrument(_args: TokenStream, item: TokenStream) -> TokenStream { item }
//- lib/Cargo.toml
[package]
name = "lib"
version = "0.1.0"
edition = "2021"
[dependencies]
attrs = { path = "../attrs" }
//- lib/src/lib.rs
pub mod instrument;
pub use attrs::instrument;
pub mod user;
//- lib/src/instrument.rs
pub fn helper() {}
//- lib/src/user.rs
use crate::instrument;
#[derive(Debug, Clone)]
pub struct Order;
#[instrument]
#[inline]
pub fn place() {}
#[crate::instrument(skip(x))]
#[cfg(test)]
pub fn refund(x: u32) {}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref lib/src/user.rs:2 expands Clone from=lib::user::Order to=ext:std::clone::Clone (external)
        ref lib/src/user.rs:2 expands Debug from=lib::user::Order to=ext:std::fmt::Debug (external)
        ref lib/src/user.rs:4 expands instrument from=lib::user::place to=attrs::instrument (exact)
        ref lib/src/user.rs:7 expands crate::instrument from=lib::user::refund to=attrs::instrument (exact)"#]]
    .assert_eq(&resolved(root, "lib/src/user.rs:", &["expands"]));
    expect_test::expect!["symbol attrs/src/lib.rs:3-3 macro attrs::instrument parent=- vis=pub sig=pub fn instrument(_args: TokenStream, item: TokenStream) -> TokenStream"]
    .assert_eq(&dump(root).lines().filter(|l| l.contains(" attrs::instrument ") && l.starts_with("symbol")).collect::<Vec<_>>().join("\n"));
    assert_incremental_is_fresh(root);
}

/// Rust (issue 49): a constant or static read as a value is a use of it (SCREAMING_CASE,
/// as Rust names them): an associated constant by its type's path (`Level::TRACE`, also as
/// `Self::INFO`), a module's constant bare or by path, in an argument, a comparison, a
/// `match` arm's value and a `return`; a lowercase name read as a value is a variable.
#[test]
fn rust_constants_read_as_values_are_uses() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[package]
name = "cv"
version = "0.1.0"
edition = "2021"
//- src/lib.rs
pub mod limits;
use limits::MAX;
pub struct Level(u8);
impl Level {
    pub const TRACE: Level = Level(0);
    pub const INFO: Level = Level(2);
    pub fn from(n: u8) -> Level {
        match n {
            0 => Self::TRACE,
            _ => Self::INFO,
        }
    }
}
pub fn take(l: Level) -> u8 { l.0 }
pub fn check(n: u8) -> bool {
    let max = 4;
    take(Level::TRACE);
    if n > MAX || n > limits::MIN || n > max {
        return limits::ON;
    }
    false
}
//- src/limits.rs
pub const MAX: u8 = 9;
pub const MIN: u8 = 1;
pub static ON: bool = true;
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/lib.rs:10 uses_field Level::INFO from=cv::Level::from to=cv::Level::INFO (exact)
        ref src/lib.rs:17 uses_field Level::TRACE from=cv::check to=cv::Level::TRACE (exact)
        ref src/lib.rs:18 uses_field MAX from=cv::check to=cv::limits::MAX (exact)
        ref src/lib.rs:18 uses_field limits::MIN from=cv::check to=cv::limits::MIN (exact)
        ref src/lib.rs:19 uses_field limits::ON from=cv::check to=cv::limits::ON (exact)
        ref src/lib.rs:9 uses_field Level::TRACE from=cv::Level::from to=cv::Level::TRACE (exact)"#]]
    .assert_eq(&resolved(root, "src/lib.rs:", &["uses_field"]));
    let limits = root.join("src/limits.rs");
    std::fs::write(&limits, std::fs::read_to_string(&limits).unwrap().replace("pub const MIN", "pub const LOW")).unwrap();
    reindex(root);
    assert_eq!(resolved(root, "src/lib.rs:18 ", &["uses_field"]).matches("MIN").count(), 0);
    assert_incremental_is_fresh(root);
}

/// Rust (issue 49): macros live in a namespace of their own. A module and a macro of one
/// name (`pub mod metadata;` beside `macro_rules! metadata`) do not hide each other:
/// `self::metadata::Level` goes through the module. A macro by path (`lg::info!`) is the
/// crate's exported macro wherever it is defined, and so is one a `use` brings in.
#[test]
fn rust_macros_by_path_and_beside_modules_of_their_name() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[workspace]
members = ["lg", "app"]
//- lg/Cargo.toml
[package]
name = "lg"
version = "0.1.0"
edition = "2021"
//- lg/src/lib.rs
#[macro_export]
macro_rules! metadata {
    () => {};
}
pub mod metadata;
pub use self::metadata::Level;
#[macro_use]
mod macros;
//- lg/src/metadata.rs
pub struct Level;
//- lg/src/macros.rs
#[macro_export]
macro_rules! info {
    ($($t:tt)*) => {};
}
//- app/Cargo.toml
[package]
name = "app"
version = "0.1.0"
edition = "2021"
[dependencies]
lg = { path = "../lg" }
//- app/src/lib.rs
use lg::info;
pub fn run(_l: lg::Level) {
    lg::info!("a");
    info!("b");
    lg::metadata!();
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref app/src/lib.rs:1 imports lg::info from=- to=lg::macros::info (exact)
        ref app/src/lib.rs:2 uses_type lg::Level from=app::run to=lg::metadata::Level (exact)
        ref app/src/lib.rs:3 expands lg::info from=app::run to=lg::macros::info (exact)
        ref app/src/lib.rs:4 expands info from=app::run to=lg::macros::info (exact)
        ref app/src/lib.rs:5 expands lg::metadata from=app::run to=lg::metadata (exact)
        ref lg/src/lib.rs:6 imports self::metadata::Level from=- to=lg::metadata::Level (exact)"#]]
    .assert_eq(&resolved(root, "", &["imports", "expands", "uses_type"]));
    assert_incremental_is_fresh(root);
}

/// Rust (issue 49): receivers typed as rustc types them beyond a name's declared type: an
/// element of a tuple a call returns (`let (s, handle) = mock().run_with_handle();`), a
/// static's declared type (`META.fields()`), a tuple struct's constructor (`Fut(1)`), a
/// tuple struct's field by position under the impl's bound (`self.0` of `Wrap<V>` with `V:
/// Visit`), a cast (`(self as &Event).is_root()`), and a function a function declares in
/// its body, called from a sibling local function.
#[test]
fn rust_receivers_through_tuples_statics_casts_and_local_items() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[package]
name = "rc"
version = "0.1.0"
edition = "2021"
//- src/lib.rs
pub struct Handle;
impl Handle {
    pub fn assert_finished(&self) {}
}
pub struct Mock;
impl Mock {
    pub fn run_with_handle(self) -> (Mock, Handle) { (self, Handle) }
}
pub fn mock() -> Mock { Mock }
pub struct Meta;
impl Meta {
    pub fn fields(&self) -> u32 { 0 }
}
pub static META: Meta = Meta;
pub struct Fut(u32);
impl Fut {
    pub fn poll(&self) -> u32 { self.0 }
}
pub trait Visit {
    fn record(&mut self);
}
pub struct Wrap<V>(V);
impl<V: Visit> Visit for Wrap<V> {
    fn record(&mut self) {
        self.0.record();
    }
}
pub struct Event;
impl Event {
    pub fn is_root(&self) -> bool { true }
}
pub fn run(e: &Event) {
    let (_subscriber, handle) = mock().run_with_handle();
    handle.assert_finished();
    META.fields();
    Fut(1).poll();
    (e as &Event).is_root();
    fn local() -> Handle { Handle }
    fn sibling() {
        local().assert_finished();
    }
    sibling();
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/lib.rs:25 calls record from=rc::Wrap::record to=rc::Visit::record (exact)
        ref src/lib.rs:33 calls mock from=rc::run to=rc::mock (exact)
        ref src/lib.rs:33 calls run_with_handle from=rc::run to=rc::Mock::run_with_handle (exact)
        ref src/lib.rs:34 calls assert_finished from=rc::run to=rc::Handle::assert_finished (exact)
        ref src/lib.rs:35 calls fields from=rc::run to=rc::Meta::fields (exact)
        ref src/lib.rs:36 calls Fut from=rc::run to=rc::Fut (exact)
        ref src/lib.rs:36 calls poll from=rc::run to=rc::Fut::poll (exact)
        ref src/lib.rs:37 calls is_root from=rc::run to=rc::Event::is_root (exact)
        ref src/lib.rs:40 calls assert_finished from=rc::run::sibling to=rc::Handle::assert_finished (exact)
        ref src/lib.rs:40 calls local from=rc::run::sibling to=rc::run::local (exact)
        ref src/lib.rs:42 calls sibling from=rc::run to=rc::run::sibling (exact)"#]]
    .assert_eq(&resolved(root, "src/lib.rs:", &["calls"]));
    let lib = root.join("src/lib.rs");
    let text =
        std::fs::read_to_string(&lib).unwrap().replace("-> (Mock, Handle) { (self, Handle) }", "-> (Handle, Mock) { (Handle, self) }");
    std::fs::write(&lib, text).unwrap();
    reindex(root);
    assert!(!resolved(root, "src/lib.rs:39 ", &["calls"]).contains("(exact)"), "{}", resolved(root, "src/lib.rs:39 ", &["calls"]));
    assert_incremental_is_fresh(root);
}

/// Rust (issue 49): an extension trait, implemented for every type by a blanket impl in
/// its file (`impl<S: Subscriber> SubscriberExt for S {}`), gives its methods to any
/// receiver whose own type has no method of that name, at every link of a chain
/// (`registry().with(layer).set_default()`). When the blanket impl goes, the calls are
/// unresolved again, incrementally as in a fresh index.
#[test]
fn rust_extension_traits_reach_every_type() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[package]
name = "et"
version = "0.1.0"
edition = "2021"
//- src/lib.rs
pub mod ext;
pub trait Subscriber {}
pub struct Registry;
impl Subscriber for Registry {}
pub struct Layered;
impl Subscriber for Layered {}
pub fn registry() -> Registry { Registry }
pub fn run() {
    use ext::{InitExt, SubscriberExt};
    registry().with(1).set_default();
}
//- src/ext.rs
use crate::{Layered, Subscriber};
pub trait SubscriberExt: Subscriber {
    fn with(self, layer: u32) -> Layered;
}
impl<S: Subscriber> SubscriberExt for S {
    fn with(self, _layer: u32) -> Layered { Layered }
}
pub trait InitExt {
    fn set_default(self);
}
impl<T> InitExt for T where T: Into<u32> {
    fn set_default(self) {}
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/lib.rs:10 calls registry from=et::run to=et::registry (exact)
        ref src/lib.rs:10 calls set_default from=et::run to=et::ext::InitExt::set_default (exact)
        ref src/lib.rs:10 calls with from=et::run to=et::ext::SubscriberExt::with (exact)"#]]
    .assert_eq(&resolved(root, "src/lib.rs:10", &["calls"]));
    let ext = root.join("src/ext.rs");
    let text = std::fs::read_to_string(&ext).unwrap().replace("impl<T> InitExt for T where T: Into<u32> {", "impl InitExt for u32 {");
    std::fs::write(&ext, text).unwrap();
    reindex(root);
    assert!(
        resolved(root, "src/lib.rs:10", &["calls"]).contains("set_default from=et::run to=- (unresolved)"),
        "{}",
        resolved(root, "src/lib.rs:10", &["calls"])
    );
    assert_incremental_is_fresh(root);
}

/// Rust (issue 49): what a `macro_rules!` macro gives as a value is what its rules end in
/// (`$crate::Span::new(..)`, through a macro that forwards to another: `info_span!` to
/// `span!`), so a value a macro makes is a receiver of that type (`let s = info_span!(..);
/// s.enter()`, `span!(..).in_scope()`). When the macro's rules change what they give,
/// incremental equals fresh.
#[test]
fn rust_macro_values_type_their_receivers() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[package]
name = "mv"
version = "0.1.0"
edition = "2021"
//- src/lib.rs
#[macro_use]
mod macros;
pub struct Span;
impl Span {
    pub fn new(_name: &str) -> Span { Span }
    pub fn enter(&self) {}
    pub fn in_scope(&self) {}
}
pub struct Other;
impl Other {
    pub fn make() -> Other { Other }
    pub fn enter(&self) {}
}
pub fn run() {
    let s = info_span!("a");
    s.enter();
    span!("b").in_scope();
}
//- src/macros.rs
#[macro_export]
macro_rules! span {
    ($name:expr) => {{
        let span = $crate::Span::new($name);
        span
    }};
}
#[macro_export]
macro_rules! info_span {
    ($name:expr) => {
        $crate::span!($name)
    };
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/lib.rs:16 calls enter from=mv::run to=mv::Span::enter (exact)
        ref src/lib.rs:17 calls in_scope from=mv::run to=mv::Span::in_scope (exact)"#]]
    .assert_eq(&resolved(root, "src/lib.rs:1", &["calls"]));
    let macros = root.join("src/macros.rs");
    let text =
        std::fs::read_to_string(&macros).unwrap().replace("let span = $crate::Span::new($name);", "let span = $crate::Other::make();");
    std::fs::write(&macros, text).unwrap();
    reindex(root);
    assert!(
        resolved(root, "src/lib.rs:16 ", &["calls"]).contains("to=mv::Other::enter"),
        "{}",
        resolved(root, "src/lib.rs:16 ", &["calls"])
    );
    assert_incremental_is_fresh(root);
}

/// Rust (issue 49): `Self::Rejection` in a trait impl's signature names the trait's
/// associated type (`<Self as FromParts>::Rejection`, as rust-analyzer resolves it), and a
/// binding in a bound's arguments (`L: Listener<Addr = Self>`) names the trait's.
#[test]
fn rust_associated_types_through_self_and_bindings_name_the_traits() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[package]
name = "at"
version = "0.1.0"
edition = "2021"
//- src/lib.rs
pub trait FromParts {
    type Rejection;
    fn from_parts() -> Result<Self, Self::Rejection> where Self: Sized;
}
pub trait Listener {
    type Addr;
}
pub struct Json;
impl FromParts for Json {
    type Rejection = u32;
    fn from_parts() -> Result<Self, Self::Rejection> { Ok(Json) }
}
pub fn serve<L: Listener<Addr = Json>>(_l: L) {}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/lib.rs:11 uses_type FromParts::Rejection from=at::Json::from_parts to=at::FromParts::Rejection (exact)
        ref src/lib.rs:11 uses_type Json from=at::Json::from_parts to=at::Json (exact)
        ref src/lib.rs:11 uses_type Result from=at::Json::from_parts to=ext:std::result::Result (external)
        ref src/lib.rs:13 uses_type Json from=at::serve to=at::Json (exact)
        ref src/lib.rs:13 uses_type Listener from=at::serve to=at::Listener (exact)
        ref src/lib.rs:13 uses_type Listener::Addr from=at::serve to=at::Listener::Addr (exact)
        ref src/lib.rs:3 uses_type FromParts::Rejection from=at::FromParts::from_parts to=at::FromParts::Rejection (exact)
        ref src/lib.rs:3 uses_type Result from=at::FromParts::from_parts to=ext:std::result::Result (external)
        ref src/lib.rs:3 uses_type Sized from=at::FromParts::from_parts to=ext:std::marker::Sized (external)"#]]
    .assert_eq(&resolved(root, "src/lib.rs:", &["uses_type"]));
    assert_incremental_is_fresh(root);
}

/// Rust (issue 49): an item-level invocation of one of the workspace's own `macro_rules!`
/// macros is expanded (matchers, fragments, repetitions; macros invoked in the output in
/// turn, across crates: `all_the_tuples!(impl_handler)` makes an `impl_handler!` per arity),
/// and what it makes is indexed as the items they are, at the invocation, marked
/// `generated:NAME!`: the impls that make every function a handler, test functions a
/// test macro writes. A change to the macro's definition re-extracts the files invoking it,
/// incrementally as in a fresh index.
#[test]
fn rust_workspace_macros_expand_into_the_items_they_make() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[workspace]
members = ["core", "web"]
//- core/Cargo.toml
[package]
name = "core"
version = "0.1.0"
edition = "2021"
//- core/src/lib.rs
#[macro_export]
macro_rules! all_the_tuples {
    ($name:ident) => {
        $name!([], T1);
        $name!([T1], T2);
    };
}
//- web/Cargo.toml
[package]
name = "web"
version = "0.1.0"
edition = "2021"
[dependencies]
core = { path = "../core" }
//- web/src/lib.rs
pub trait Handler<T> {
    fn call(self) -> u32;
}
macro_rules! impl_handler {
    ([$($ty:ident),*], $last:ident) => {
        impl<F, $($ty,)* $last> Handler<($($ty,)* $last,)> for F
        where
            F: FnOnce($($ty,)* $last) -> u32,
        {
            fn call(self) -> u32 { 0 }
        }
    };
}
core::all_the_tuples!(impl_handler);
macro_rules! check {
    ($name:ident, $value:expr) => {
        #[test]
        fn $name() {
            assert_eq!(double($value), $value * 2);
        }
    };
}
pub fn double(x: u32) -> u32 { x * 2 }
check!(doubles_one, 1);
check!(doubles_two, 2);
"#,
    );
    let root = repo.path();
    reindex(root);
    // What the macros made, as the outline and the implementations list show it.
    let generated = |root: &Path| -> String {
        let atlas = repochart::tools::Atlas::new(&root.canonicalize().unwrap());
        let outline = atlas.call("file_outline", serde_json::json!({"path": "web/src/lib.rs"})).unwrap();
        let impls = atlas.call("find_implementations", serde_json::json!({"symbol": "web::Handler"})).unwrap();
        format!("{outline}\n{impls}")
    };
    expect_test::expect![[r#"
        web/src/lib.rs (rust, 25 lines, module web)
        trait 1-3  pub trait Handler<T>
          method 2  fn call(self) -> u32
        macro 4-13  macro_rules! impl_handler
        impl Handler for F
          method 14  fn call(self) -> u32  [generated by impl_handler!]
          method 14  fn call(self) -> u32  [generated by impl_handler!]
        macro 15-22  macro_rules! check
        function 23  pub fn double(x: u32) -> u32
        function 24  fn doubles_one()  [generated by check!]
        function 25  fn doubles_two()  [generated by check!]
        2 implementations of trait web::Handler
        impls for a type parameter or a type outside the repository:
          blanket impl for F  web/src/lib.rs:14  [generated by impl_handler!]
          blanket impl for F  web/src/lib.rs:14  [generated by impl_handler!]"#]]
    .assert_eq(&generated(root));
    expect_test::expect![[r#"
        ref web/src/lib.rs:10 calls call from=web::impl_handler to=- (unresolved)
        ref web/src/lib.rs:14 implements Handler from=- to=web::Handler (exact)
        ref web/src/lib.rs:14 implements Handler from=- to=web::Handler (exact)
        ref web/src/lib.rs:19 calls assert_eq from=web::check to=- (unresolved)
        ref web/src/lib.rs:19 calls double from=web::check to=web::double (guess)
        ref web/src/lib.rs:24 calls double from=web::doubles_one to=web::double (exact)
        ref web/src/lib.rs:25 calls double from=web::doubles_two to=web::double (exact)
        ref web/src/lib.rs:6 calls Handler from=web::impl_handler to=- (unresolved)
        ref web/src/lib.rs:8 calls FnOnce from=web::impl_handler to=- (unresolved)"#]]
    .assert_eq(&resolved(root, "web/src/lib.rs:", &["calls", "implements"]));
    let core = root.join("core/src/lib.rs");
    let text = std::fs::read_to_string(&core).unwrap().replace("        $name!([T1], T2);\n", "");
    std::fs::write(&core, text).unwrap();
    reindex(root);
    assert_eq!(generated(root).matches("[generated by impl_handler!]").count(), 2, "{}", generated(root));
    assert_incremental_is_fresh(root);
}

/// Rust (issue 49): a `let` that shadows a variable retypes it from its statement on, and
/// its own initializer still reads the variable before it (`let span = span.child();`).
#[test]
fn rust_shadowing_lets_retype_a_variable_from_where_they_bind() {
    let repo = write_fixture(
        r#"
//- Cargo.toml
[package]
name = "sh"
version = "0.1.0"
edition = "2021"
//- src/lib.rs
pub struct Expect;
impl Expect {
    pub fn named(self) -> Expect { self }
    pub fn child(&self) -> Span { Span }
}
pub struct Span;
impl Span {
    pub fn enter(&self) {}
}
pub fn run() {
    let span = Expect.named();
    let span = span.child();
    span.enter();
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/lib.rs:11 calls named from=sh::run to=sh::Expect::named (exact)
        ref src/lib.rs:12 calls child from=sh::run to=sh::Expect::child (exact)
        ref src/lib.rs:13 calls enter from=sh::run to=sh::Span::enter (exact)"#]]
    .assert_eq(&resolved(root, "src/lib.rs:1", &["calls"]));
    assert_incremental_is_fresh(root);
}

/// Java: members inherited from a library supertype the file imports (Spring Data's
/// `JpaRepository`, MyBatis-Plus's `ServiceImpl`) are the repository type's, their type
/// parameters replaced by its arguments: `orders.findById(id)` calls
/// `OrderRepository#findById(Long)`, a chain runs through its `Optional<Order>`, and a
/// same-named type not imported from the library gives nothing.
#[test]
fn java_calls_of_members_inherited_from_library_supertypes() {
    let repo = write_fixture(
        r#"
//- src/shop/Order.java
package shop;

public class Order {
    public String getName() { return ""; }
}
//- src/shop/OrderRepository.java
package shop;

import org.springframework.data.jpa.repository.*;

public interface OrderRepository extends JpaRepository<Order, Long> {
    List<Order> findByName(String name);
}
//- src/shop/User.java
package shop;

public class User {}
//- src/shop/UserMapper.java
package shop;

import com.baomidou.mybatisplus.core.mapper.BaseMapper;

public interface UserMapper extends BaseMapper<User> {}
//- src/shop/UserService.java
package shop;

import com.baomidou.mybatisplus.extension.service.impl.ServiceImpl;

public class UserService extends ServiceImpl<UserMapper, User> {
    int users() {
        return baseMapper.selectList(null).size();
    }
}
//- src/shop/CrudRepository.java
package shop;

public interface CrudRepository<T> {
    void keep(T t);
}
//- src/shop/Local.java
package shop;

public interface Local extends CrudRepository<Order> {}
//- src/shop/Use.java
package shop;

public class Use {
    private OrderRepository orders;
    private UserService users;
    private Local local;

    String run(Long id, Order order) {
        orders.save(order);
        orders.findAll();
        orders.findByName("a");
        users.getById(id);
        local.findById(id);
        return orders.findById(id).orElseThrow().getName();
    }
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/shop/Use.java:10 calls findAll from=shop.Use#run to=shop.OrderRepository#findAll() (exact)
        ref src/shop/Use.java:11 calls findByName from=shop.Use#run to=shop.OrderRepository#findByName(String) (exact)
        ref src/shop/Use.java:12 calls getById from=shop.Use#run to=shop.UserService#getById(Serializable) (exact)
        ref src/shop/Use.java:13 calls findById from=shop.Use#run to=- (unresolved)
        ref src/shop/Use.java:14 calls findById from=shop.Use#run to=shop.OrderRepository#findById(Long) (exact)
        ref src/shop/Use.java:14 calls getName from=shop.Use#run to=shop.Order#getName() (exact)
        ref src/shop/Use.java:14 calls orElseThrow from=shop.Use#run to=ext:java.util.Optional#orElseThrow (external)
        ref src/shop/Use.java:9 calls save from=shop.Use#run to=shop.OrderRepository#save(Order) (exact)
        ref src/shop/UserService.java:7 calls selectList from=shop.UserService#users to=shop.UserMapper#selectList(Wrapper) (exact)
        ref src/shop/UserService.java:7 calls size from=shop.UserService#users to=ext:java.util.List#size (external)"#]]
    .assert_eq(&resolved(root, "src/shop/", &["calls"]));
    let dump = dump(root);
    let members_of = |parent: &str| dump.lines().filter(|l| l.starts_with("symbol ") && l.contains(&format!(" parent={parent} "))).count();
    assert_eq!(members_of("shop.Local"), 0, "a same-named type of the repository is no library's");
    assert_eq!(members_of("shop.UserMapper"), 19);
    let field: Vec<&str> = dump.lines().filter(|l| l.contains("shop.UserService#baseMapper")).collect();
    assert_eq!(
        field,
        [
            "ref src/shop/UserService.java:7 uses_field baseMapper from=shop.UserService#users to=shop.UserService#baseMapper (exact)",
            "symbol src/shop/UserService.java:5-5 field shop.UserService#baseMapper parent=shop.UserService vis=protected sig=UserMapper baseMapper  [inherited from ServiceImpl]"
        ]
    );
    assert_incremental_is_fresh(root);
}

/// Java: the calls the JDK makes of what code gives it (`elements.toml`'s callbacks) are
/// calls from that code, at its line, marked with what makes them: sorting calls the
/// elements' `compareTo`, hash collections their `hashCode` and `equals`, a thread or an
/// executor the task's `run`, a try-with-resources the resource's `close`. A callback on a
/// type from outside (`List<String>`) is no reference.
#[test]
fn java_calls_the_jdk_makes_of_the_values_it_is_given() {
    let repo = write_fixture(
        r#"
//- src/geo/Region.java
package geo;

public class Region implements Comparable<Region> {
    public int compareTo(Region o) { return 0; }
    public boolean equals(Object o) { return false; }
    public int hashCode() { return 0; }
}
//- src/geo/Worker.java
package geo;

public class Worker implements Runnable {
    public void run() {}
}
//- src/geo/Conn.java
package geo;

public class Conn implements AutoCloseable {
    public void close() {}
}
//- src/geo/Use.java
package geo;

import java.util.*;
import java.util.concurrent.ExecutorService;

public class Use {
    private ExecutorService executor;

    void run(List<Region> regions, Region[] array, Worker worker, List<String> names) throws Exception {
        Collections.sort(regions);
        Collections.sort(names);
        Arrays.sort(array);
        regions.stream().sorted();
        Set<Region> seen = new HashSet<>();
        new TreeSet<Region>();
        new Thread(worker).start();
        executor.submit(worker);
        try (Conn c = new Conn()) {
        }
    }
}
"#,
    );
    let root = repo.path();
    reindex(root);
    let implicit: Vec<String> =
        dump(root).lines().filter(|l| l.starts_with("ref src/geo/Use.java") && l.contains(" via=")).map(str::to_string).collect();
    expect_test::expect![[r#"
        ref src/geo/Use.java:10 calls compareTo from=geo.Use#run to=geo.Region#compareTo(Region) (exact) via=Collections.sort
        ref src/geo/Use.java:12 calls compareTo from=geo.Use#run to=geo.Region#compareTo(Region) (exact) via=Arrays.sort
        ref src/geo/Use.java:13 calls compareTo from=geo.Use#run to=geo.Region#compareTo(Region) (exact) via=sorted
        ref src/geo/Use.java:14 calls equals from=geo.Use#run to=geo.Region#equals(Object) (exact) via=new HashSet
        ref src/geo/Use.java:14 calls hashCode from=geo.Use#run to=geo.Region#hashCode() (exact) via=new HashSet
        ref src/geo/Use.java:15 calls compareTo from=geo.Use#run to=geo.Region#compareTo(Region) (exact) via=new TreeSet
        ref src/geo/Use.java:16 calls run from=geo.Use#run to=geo.Worker#run() (exact) via=new Thread
        ref src/geo/Use.java:17 calls call from=geo.Use#run to=- (unresolved) via=submit
        ref src/geo/Use.java:17 calls run from=geo.Use#run to=geo.Worker#run() (exact) via=submit
        ref src/geo/Use.java:18 calls close from=geo.Use#run to=geo.Conn#close() (exact) via=try"#]]
    .assert_eq(&implicit.join("\n"));
    assert_incremental_is_fresh(root);
}

/// Java: arguments typed by the JDK choose overloads by the JDK's own hierarchy
/// (`grammars/java/jdk-types.txt`): a `FileOutputStream` takes `close(Closeable)` over
/// `close(AutoCloseable)`, a `StringBuilder` `log(CharSequence)` over `log(Object)`, an
/// `IOException` `fail(Exception)` and no `fail(RuntimeException)`.
#[test]
fn java_overloads_by_the_jdks_types() {
    let repo = write_fixture(
        r#"
//- src/io/Io.java
package io;

import java.io.Closeable;
import java.io.FileOutputStream;
import java.io.IOException;

public class Io {
    static void close(Closeable c) {}
    static void close(AutoCloseable c) {}
    static void log(CharSequence c) {}
    static void log(Object o) {}
    static void fail(RuntimeException e) {}
    static void fail(Exception e) {}

    void run(FileOutputStream out, StringBuilder sb, IOException e) {
        close(out);
        log(sb);
        fail(e);
    }
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/io/Io.java:16 calls close from=io.Io#run to=io.Io#close(Closeable) (exact)
        ref src/io/Io.java:17 calls log from=io.Io#run to=io.Io#log(CharSequence) (exact)
        ref src/io/Io.java:18 calls fail from=io.Io#run to=io.Io#fail(Exception) (exact)"#]]
    .assert_eq(&resolved(root, "src/io/", &["calls"]));
}

/// Java: chains run through what JDK methods return and JDK fields hold
/// (`grammars/java/jdk-members.txt`), and through a repository method's declared type from
/// outside: `date.atTime(t)` is a `LocalDateTime` or an `OffsetDateTime`, so no `LocalDate`;
/// `s.length()` is an `int`; `user.getName().trim()` is `String`'s. A type named through
/// several on-demand imports is the one JDK package's that has it (`OutputStream`, from
/// `java.io.*` beside `java.util.*`), or else the one package that is not the JDK's
/// (`DeleteObjectRequest`): a chain from it is outside, and no `key` of the repository is
/// guessed for it.
#[test]
fn java_chains_run_through_the_jdks_returns() {
    let repo = write_fixture(
        r#"
//- src/time/User.java
package time;

public class User {
    public String getName() { return ""; }
    public User key(String k) { return this; }
}
//- src/time/Dates.java
package time;

import com.amazonaws.model.*;
import java.io.*;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.*;

public class Dates {
    static Date toDate(LocalDate d) { return null; }
    static Date toDate(LocalDateTime t) { return null; }
    static String pad(int width) { return ""; }
    static String pad(String text) { return text; }
    static void close(Closeable c) {}
    static void close(AutoCloseable c) {}

    void run(LocalDate date, String s, User user, OutputStream os) {
        toDate(date.atTime(LocalTime.now()));
        pad(s.length());
        pad(user.getName().trim());
        user.getName().trim();
        close(os);
        System.out.println(s);
        DeleteObjectRequest.builder().key(s);
    }
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/time/Dates.java:19 calls atTime from=time.Dates#run to=ext:java.time.LocalDate#atTime (external)
        ref src/time/Dates.java:19 calls now from=time.Dates#run to=ext:java.time.LocalTime#now (external)
        ref src/time/Dates.java:19 calls toDate from=time.Dates#run to=time.Dates#toDate(LocalDateTime) (exact)
        ref src/time/Dates.java:20 calls length from=time.Dates#run to=ext:java.lang.String#length (external)
        ref src/time/Dates.java:20 calls pad from=time.Dates#run to=time.Dates#pad(int) (exact)
        ref src/time/Dates.java:21 calls getName from=time.Dates#run to=time.User#getName() (exact)
        ref src/time/Dates.java:21 calls pad from=time.Dates#run to=time.Dates#pad(String) (exact)
        ref src/time/Dates.java:21 calls trim from=time.Dates#run to=ext:java.lang.String#trim (external)
        ref src/time/Dates.java:22 calls getName from=time.Dates#run to=time.User#getName() (exact)
        ref src/time/Dates.java:22 calls trim from=time.Dates#run to=ext:java.lang.String#trim (external)
        ref src/time/Dates.java:23 calls close from=time.Dates#run to=time.Dates#close(Closeable) (exact)
        ref src/time/Dates.java:24 calls println from=time.Dates#run to=ext:java.io.PrintStream#println (external)
        ref src/time/Dates.java:25 calls builder from=time.Dates#run to=ext:com.amazonaws.model.DeleteObjectRequest#builder (external)
        ref src/time/Dates.java:25 calls key from=time.Dates#run to=- (unresolved)"#]]
    .assert_eq(&resolved(root, "src/time/Dates", &["calls"]));
    // The repository's type of that name now: its member, resolved again on the edit.
    std::fs::write(root.join("src/time/User.java"), "package time;\n\npublic class User {\n    public Name getName() { return null; }\n    public User key(String k) { return this; }\n}\nclass Name {\n    String trim() { return \"\"; }\n}\n").unwrap();
    reindex(root);
    expect_test::expect![[r#"
        ref src/time/Dates.java:19 calls atTime from=time.Dates#run to=ext:java.time.LocalDate#atTime (external)
        ref src/time/Dates.java:19 calls now from=time.Dates#run to=ext:java.time.LocalTime#now (external)
        ref src/time/Dates.java:19 calls toDate from=time.Dates#run to=time.Dates#toDate(LocalDateTime) (exact)
        ref src/time/Dates.java:20 calls length from=time.Dates#run to=ext:java.lang.String#length (external)
        ref src/time/Dates.java:20 calls pad from=time.Dates#run to=time.Dates#pad(int) (exact)
        ref src/time/Dates.java:21 calls getName from=time.Dates#run to=time.User#getName() (exact)
        ref src/time/Dates.java:21 calls pad from=time.Dates#run to=time.Dates#pad(String) (exact)
        ref src/time/Dates.java:21 calls trim from=time.Dates#run to=time.Name#trim() (exact)
        ref src/time/Dates.java:22 calls getName from=time.Dates#run to=time.User#getName() (exact)
        ref src/time/Dates.java:22 calls trim from=time.Dates#run to=time.Name#trim() (exact)
        ref src/time/Dates.java:23 calls close from=time.Dates#run to=time.Dates#close(Closeable) (exact)
        ref src/time/Dates.java:24 calls println from=time.Dates#run to=ext:java.io.PrintStream#println (external)
        ref src/time/Dates.java:25 calls builder from=time.Dates#run to=ext:com.amazonaws.model.DeleteObjectRequest#builder (external)
        ref src/time/Dates.java:25 calls key from=time.Dates#run to=- (unresolved)"#]]
    .assert_eq(&resolved(root, "src/time/Dates", &["calls"]));
    assert_incremental_is_fresh(root);
}

/// Java: a type that extends nothing has `Object`'s members and constructor (an enum,
/// `Enum`'s): `super()`, `hashCode()` and `super.hashCode()` there are `Object`'s, found in
/// the innermost class (JLS 15.12.1), not an enclosing class's `hashCode`; `getClass()` is
/// `Object`'s in any class (it is final), so `getClass().getSimpleName()` is `Class`'s;
/// `this.getClass()` is `getClass()`, and a string literal is a `String`. In a class that
/// extends one from outside, `super()` and `super.hashCode()` are that class's, outside, and
/// `hashCode()` is left unresolved (that class may declare its own).
#[test]
fn java_calls_of_the_superclass_a_type_does_not_name() {
    let repo = write_fixture(
        r#"
//- src/model/Outer.java
package model;

import lib.Base;

public class Outer {
    public int hashCode() { return 1; }

    static class Criteria {
        protected Criteria() {
            super();
        }

        int hash() {
            return hashCode() + super.hashCode() + getClass().getSimpleName().length();
        }

        boolean no(String s) {
            return "NO".equals(s) && this.getClass() != null;
        }
    }

    static class Sub extends Base {
        Sub() {
            super();
        }

        int hash() {
            return hashCode() + super.hashCode();
        }
    }

    enum Level {
        LOW;

        int rank() {
            return ordinal();
        }
    }
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/model/Outer.java:10 calls super from=model.Outer.Criteria#Criteria to=ext:java.lang.Object#Object (external)
        ref src/model/Outer.java:14 calls getClass from=model.Outer.Criteria#hash to=ext:java.lang.Object#getClass (external)
        ref src/model/Outer.java:14 calls getSimpleName from=model.Outer.Criteria#hash to=ext:java.lang.Class#getSimpleName (external)
        ref src/model/Outer.java:14 calls hashCode from=model.Outer.Criteria#hash to=ext:java.lang.Object#hashCode (external)
        ref src/model/Outer.java:14 calls hashCode from=model.Outer.Criteria#hash to=ext:java.lang.Object#hashCode (external)
        ref src/model/Outer.java:14 calls length from=model.Outer.Criteria#hash to=ext:java.lang.String#length (external)
        ref src/model/Outer.java:18 calls equals from=model.Outer.Criteria#no to=ext:java.lang.String#equals (external)
        ref src/model/Outer.java:18 calls getClass from=model.Outer.Criteria#no to=ext:java.lang.Object#getClass (external)
        ref src/model/Outer.java:24 calls super from=model.Outer.Sub#Sub to=ext:lib.Base#Base (external)
        ref src/model/Outer.java:28 calls hashCode from=model.Outer.Sub#hash to=ext:lib.Base#hashCode (external)
        ref src/model/Outer.java:28 calls hashCode from=model.Outer.Sub#hash to=ext:lib.Base#hashCode (external)
        ref src/model/Outer.java:36 calls ordinal from=model.Outer.Level#rank to=ext:java.lang.Enum#ordinal (external)"#]]
    .assert_eq(&resolved(root, "src/model/", &["calls"]));
}

/// Java: a chain from a method a static import brings from outside the repository
/// (AssertJ's `assertThat(total).isEqualTo(5)`) is outside: no method of the repository is
/// guessed for its links by name; the repository's own chain still resolves.
#[test]
fn java_chains_from_a_static_import_from_outside_are_not_guessed() {
    let repo = write_fixture(
        r#"
//- src/shop/Money.java
package shop;

public class Money {
    public boolean isEqualTo(Money other) { return true; }
    public int total() { return 5; }
}
//- src/shop/MoneyTest.java
package shop;

import static org.assertj.core.api.Assertions.assertThat;

class MoneyTest {
    void totals(Money m) {
        assertThat(m.total()).isEqualTo(5);
        m.isEqualTo(m);
    }
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/shop/MoneyTest.java:7 calls assertThat from=shop.MoneyTest#totals to=ext:org.assertj.core.api.Assertions#assertThat (external)
        ref src/shop/MoneyTest.java:7 calls isEqualTo from=shop.MoneyTest#totals to=- (unresolved)
        ref src/shop/MoneyTest.java:7 calls total from=shop.MoneyTest#totals to=shop.Money#total() (exact)
        ref src/shop/MoneyTest.java:8 calls isEqualTo from=shop.MoneyTest#totals to=shop.Money#isEqualTo(Money) (exact)"#]]
    .assert_eq(&resolved(root, "src/shop/MoneyTest", &["calls"]));
}

/// Java: a call without a receiver in an anonymous class's body is first a method of that
/// class, its own or inherited from what it is created from (`{{ setName("Dog"); }}`), then
/// one of the classes around it; the call is still made from the enclosing method.
#[test]
fn java_calls_in_an_anonymous_class_find_its_members_first() {
    let repo = write_fixture(
        r#"
//- src/pets/Named.java
package pets;

public class Named {
    public void setName(String name) {}
}
//- src/pets/Task.java
package pets;

public interface Task {
    void run();
}
//- src/pets/Use.java
package pets;

public class Use {
    void make() {
        new Named() {{
            setName("Dog");
        }};
        Task t = new Task() {
            public void run() {
                step();
                helper();
            }

            void step() {}
        };
    }

    void step() {}

    void helper() {}
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/pets/Use.java:10 calls step from=pets.Use#make to=pets.Use#make.$2#step() (exact)
        ref src/pets/Use.java:11 calls helper from=pets.Use#make to=pets.Use#helper() (exact)
        ref src/pets/Use.java:6 calls setName from=pets.Use#make to=pets.Named#setName(String) (exact)"#]]
    .assert_eq(&resolved(root, "src/pets/Use", &["calls"]));
    assert_incremental_is_fresh(root);
}

/// Java: a lambda or method reference passed as an argument implements the callee's
/// parameter type: a repository interface (a method's, a constructor's, a varargs
/// parameter's, a record's canonical constructor's) or one from outside (`Runnable`). One
/// passed to a JDK method or constructor implements what the JDK's table says it takes there
/// (`forEach`: a `Consumer`; `new Thread(..)`: a `Runnable`), nothing where overloads
/// disagree (`submit`: a `Runnable` or a `Callable`). An edit of the callee's parameter in
/// another file retypes it, incrementally as fresh.
#[test]
fn java_lambdas_passed_as_arguments_implement_the_parameters_type() {
    let repo = write_fixture(
        r#"
//- src/bus/Listener.java
package bus;

public interface Listener {
    void onEvent(String event);
}
//- src/bus/Hub.java
package bus;

public class Hub {
    public void register(Listener listener) {}

    public static void later(Runnable task, Listener... done) {}

    public void register(int priority, Listener listener) {}
}
//- src/bus/Subscription.java
package bus;

public class Subscription {
    public Subscription(Listener listener) {}
}
//- src/bus/Route.java
package bus;

public record Route(String path, Listener handler) {
    public Route(Listener handler) { this("/", handler); }
}
//- src/app/App.java
package app;

import bus.Hub;
import bus.Subscription;
import java.util.List;

public class App {
    void start(Hub hub, List<String> names) {
        hub.register(event -> log(event));
        hub.register(2, this::log);
        Hub.later(() -> log("later"), this::log, e -> log(e));
        new Subscription(this::log);
        names.forEach(n -> log(n));
        new bus.Route("/a", this::log);
        new Thread(() -> log("t"));
        java.util.concurrent.Executors.newSingleThreadExecutor().submit(() -> log("s"));
    }

    void log(String s) {}
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/app/App.java:10 implements register from=app.App#start.$2 to=bus.Listener (exact)
        ref src/app/App.java:11 implements later from=app.App#start.$3 to=ext:java.lang.Runnable (external)
        ref src/app/App.java:11 implements later from=app.App#start.$4 to=bus.Listener (exact)
        ref src/app/App.java:11 implements later from=app.App#start.$5 to=bus.Listener (exact)
        ref src/app/App.java:12 implements Subscription from=app.App#start.$6 to=bus.Listener (exact)
        ref src/app/App.java:13 implements forEach from=app.App#start.$7 to=ext:java.util.function.Consumer (external)
        ref src/app/App.java:14 implements bus.Route from=app.App#start.$8 to=bus.Listener (exact)
        ref src/app/App.java:15 implements Thread from=app.App#start.$9 to=ext:java.lang.Runnable (external)
        ref src/app/App.java:16 implements submit from=app.App#start.$10 to=- (unresolved)
        ref src/app/App.java:9 implements register from=app.App#start.$1 to=bus.Listener (exact)"#]]
    .assert_eq(&resolved(root, "src/app/", &["implements"]));
    // The constructor's parameter becomes a `Runnable`: the method reference implements it.
    std::fs::write(
        root.join("src/bus/Subscription.java"),
        "package bus;\n\npublic class Subscription {\n    public Subscription(Runnable task) {}\n}\n",
    )
    .unwrap();
    reindex(root);
    expect_test::expect!["ref src/app/App.java:12 implements Subscription from=app.App#start.$6 to=ext:java.lang.Runnable (external)"]
        .assert_eq(&resolved(root, "src/app/App.java:12 ", &["implements"]));
    assert_incremental_is_fresh(root);
}

/// Java: a lambda fits a parameter of an interface type only, so `toArray(i -> ..)` beside
/// `toArray(Object[])` and `start(Thread)` beside `start(Runnable)` take the interface's
/// overload; a lambda assigned to a declared variable or field, or chosen by a conditional,
/// implements its type; an intersection cast gives each of its types.
#[test]
fn java_lambdas_pick_interface_overloads_and_follow_assignments_and_conditionals() {
    let repo = write_fixture(
        r#"
//- src/run/Pool.java
package run;

import java.io.Serializable;
import java.util.Comparator;
import java.util.function.IntFunction;

public class Pool {
    private Runnable task;

    Object[] toArray(Object[] a) { return a; }

    Object[] toArray(IntFunction<Object[]> make) { return make.apply(0); }

    void start(Thread t) {}

    void start(Runnable r) {}

    void run(boolean quick) {
        toArray(i -> new Object[i]);
        start(() -> {});
        Runnable later;
        later = quick ? () -> {} : this::stop;
        this.task = () -> stop();
        Comparator<String> c = (Comparator<String> & Serializable) (a, b) -> 0;
    }

    void stop() {}
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/run/Pool.java:12 calls apply from=run.Pool#toArray to=ext:java.util.function.IntFunction#apply (external)
        ref src/run/Pool.java:19 calls toArray from=run.Pool#run to=run.Pool#toArray(IntFunction) (exact)
        ref src/run/Pool.java:19 implements toArray from=run.Pool#run.$1 to=ext:java.util.function.IntFunction (external)
        ref src/run/Pool.java:20 calls start from=run.Pool#run to=run.Pool#start(Runnable) (exact)
        ref src/run/Pool.java:20 implements start from=run.Pool#run.$2 to=ext:java.lang.Runnable (external)
        ref src/run/Pool.java:22 implements Runnable from=run.Pool#run.$3 to=ext:java.lang.Runnable (external)
        ref src/run/Pool.java:22 implements Runnable from=run.Pool#run.$4 to=ext:java.lang.Runnable (external)
        ref src/run/Pool.java:23 calls stop from=run.Pool#run to=run.Pool#stop() (exact)
        ref src/run/Pool.java:23 implements Runnable from=run.Pool#run.$5 to=ext:java.lang.Runnable (external)
        ref src/run/Pool.java:24 implements Comparator from=run.Pool#run.$6 to=ext:java.util.Comparator (external)
        ref src/run/Pool.java:24 implements Serializable from=run.Pool#run.$6 to=ext:java.io.Serializable (external)"#]]
    .assert_eq(&resolved(root, "src/run/", &["implements", "calls"]));
}

/// Java: what a repository type inherits from a JDK supertype is known by the JDK's table:
/// `e.getMessage()` on an `ApiException extends RuntimeException` is a `String` (so
/// `failed(String)` is taken) and `Throwable`'s method, outside; `hashCode()` without a
/// receiver is its superclass's. An entity that implements only `Serializable` is no `List`,
/// so `toDto(E)` is taken over `toDto(List)`. An edit of a supertype in its own file
/// rechecks the calls given that type elsewhere, incrementally as fresh.
#[test]
fn java_members_and_subtypes_from_jdk_supertypes() {
    let repo = write_fixture(
        r#"
//- src/app/ApiException.java
package app;

public class ApiException extends RuntimeException {
    public ApiException(String message) { super(message); }

    public int code() { return hashCode(); }
}
//- src/app/Result.java
package app;

public class Result {
    public static Result failed(String message) { return new Result(); }

    public static Result failed(Code code) { return new Result(); }
}
//- src/app/Code.java
package app;

public interface Code {}
//- src/app/Entity.java
package app;

import java.io.Serializable;

public class Entity implements Serializable {}
//- src/app/Mapper.java
package app;

import java.util.List;

public class Mapper<E> {
    public String toDto(E entity) { return ""; }

    public String toDto(List<E> list) { return ""; }
}
//- src/app/Dept.java
package app;

import java.util.ArrayList;

public class Dept extends ArrayList<String> {}
//- src/app/Handler.java
package app;

import java.util.List;

public class Handler {
    Result on(ApiException e, Mapper<Entity> m, Entity x, Dept d) {
        m.toDto(x);
        handle(d);
        return Result.failed(e.getMessage());
    }

    void handle(List<String> names) {}

    void handle(Runnable task) {}
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/app/ApiException.java:4 calls super from=app.ApiException#ApiException to=ext:java.lang.RuntimeException#RuntimeException (external)
        ref src/app/ApiException.java:6 calls hashCode from=app.ApiException#code to=ext:java.lang.RuntimeException#hashCode (external)
        ref src/app/Handler.java:7 calls toDto from=app.Handler#on to=app.Mapper#toDto(Object) (exact)
        ref src/app/Handler.java:8 calls handle from=app.Handler#on to=app.Handler#handle(List) (exact)
        ref src/app/Handler.java:9 calls failed from=app.Handler#on to=app.Result#failed(String) (exact)
        ref src/app/Handler.java:9 calls getMessage from=app.Handler#on to=ext:java.lang.RuntimeException#getMessage (external)"#]]
    .assert_eq(&resolved(root, "src/app/", &["calls"]));
    // `Dept` becomes a `Runnable`: `handle(d)` takes the other overload.
    std::fs::write(
        root.join("src/app/Dept.java"),
        "package app;\n\npublic class Dept implements Runnable {\n    public void run() {}\n}\n",
    )
    .unwrap();
    reindex(root);
    expect_test::expect!["ref src/app/Handler.java:8 calls handle from=app.Handler#on to=app.Handler#handle(Runnable) (exact)"]
        .assert_eq(&resolved(root, "src/app/Handler.java:8 ", &["calls"]));
    assert_incremental_is_fresh(root);
}

/// Java: a map's values and an entry's value are its elements (`maps` in
/// `grammars/java/elements.toml`): `map.get(k)`, `map.getOrDefault(..)`, `map.values()` and
/// `entry.getValue()` give an `Order`, and so does `getValue()` on an element of
/// `map.entrySet()`, through a loop, an iterator or a stream; `map.forEach((key, value) -> ..)` types neither
/// parameter (the first is a key), and a value that is itself generic is not followed.
#[test]
fn java_calls_follow_the_values_of_maps_and_entries() {
    let repo = write_fixture(
        r#"
//- src/a/Order.java
package a;

public class Order {
    public String getName() { return ""; }
}
//- src/a/Key.java
package a;

public class Key {
    public String getName() { return ""; }
}
//- src/a/S.java
package a;

import java.util.List;
import java.util.Map;

public class S {
    void f(Map<Key, Order> map, Map<String, List<Order>> groups) {
        map.get(null).getName();
        map.getOrDefault(null, null).getName();
        map.values().stream().forEach(o -> o.getName());
        for (Map.Entry<Key, Order> e : map.entrySet()) {
            e.getValue().getName();
        }
        map.forEach((k, v) -> k.getName());
        groups.get("x").get(0).getName();
        for (var e : map.entrySet()) {
            e.getValue().getName();
        }
        map.entrySet().iterator().next().getValue().getName();
        map.entrySet().stream().forEach(e -> e.getValue().getName());
    }
}
"#,
    );
    let root = repo.path();
    reindex(root);
    expect_test::expect![[r#"
        ref src/a/S.java:10 calls getName from=a.S#f to=a.Order#getName() (exact)
        ref src/a/S.java:12 calls getName from=a.S#f to=a.Order#getName() (exact)
        ref src/a/S.java:14 calls getName from=a.S#f to=- (unresolved)
        ref src/a/S.java:15 calls getName from=a.S#f to=- (unresolved)
        ref src/a/S.java:17 calls getName from=a.S#f to=a.Order#getName() (exact)
        ref src/a/S.java:19 calls getName from=a.S#f to=a.Order#getName() (exact)
        ref src/a/S.java:20 calls getName from=a.S#f to=a.Order#getName() (exact)
        ref src/a/S.java:8 calls getName from=a.S#f to=a.Order#getName() (exact)
        ref src/a/S.java:9 calls getName from=a.S#f to=a.Order#getName() (exact)"#]]
    .assert_eq(&resolved(root, "src/a/S.java", &["calls"]).lines().filter(|l| l.contains(" getName ")).collect::<Vec<_>>().join("\n"));
}
