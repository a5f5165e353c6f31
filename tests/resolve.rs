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
    std::fs::remove_dir_all(root.join(".repochart")).unwrap();
    reindex(root);
    assert_eq!(incremental, dump(root));
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
/// `Map`, `collect`) stays unknown, and so does a name used for lambdas over two element
/// types in one method. An edit of the element type re-resolves as a fresh index does.
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
        ref src/clinic/Use.java:10 calls forEach from=clinic.Use#run to=- (unresolved)
        ref src/clinic/Use.java:10 calls getPets from=clinic.Use#run to=clinic.Owner#getPets() (exact)
        ref src/clinic/Use.java:10 calls getType from=clinic.Use#run to=clinic.Pet#getType() (exact)
        ref src/clinic/Use.java:11 calls getPets from=clinic.Use#run to=clinic.Owner#getPets() (exact)
        ref src/clinic/Use.java:12 calls getType from=clinic.Use#run to=clinic.Pet#getType() (exact)
        ref src/clinic/Use.java:14 calls findPet from=clinic.Use#run to=clinic.Owner#findPet(String) (exact)
        ref src/clinic/Use.java:14 calls isNew from=clinic.Use#run to=clinic.Pet#isNew() (exact)
        ref src/clinic/Use.java:14 calls orElseThrow from=clinic.Use#run to=- (unresolved)
        ref src/clinic/Use.java:15 calls anyMatch from=clinic.Use#run to=- (unresolved)
        ref src/clinic/Use.java:15 calls getLastName from=clinic.Use#run to=clinic.Vet#getLastName() (exact)
        ref src/clinic/Use.java:15 calls isEmpty from=clinic.Use#run to=- (unresolved)
        ref src/clinic/Use.java:15 calls stream from=clinic.Use#run to=ext:java.util.List#stream (external)
        ref src/clinic/Use.java:16 calls forEach from=clinic.Use#run to=ext:java.util.Map#forEach (external)
        ref src/clinic/Use.java:16 calls isNew from=clinic.Use#run to=- (unresolved)
        ref src/clinic/Use.java:20 calls forEach from=clinic.Use#twice to=- (unresolved)
        ref src/clinic/Use.java:20 calls getPets from=clinic.Use#twice to=clinic.Owner#getPets() (exact)
        ref src/clinic/Use.java:20 calls isNew from=clinic.Use#twice to=- (unresolved)
        ref src/clinic/Use.java:21 calls forEach from=clinic.Use#twice to=ext:java.util.List#forEach (external)
        ref src/clinic/Use.java:21 calls isNew from=clinic.Use#twice to=- (unresolved)
        ref src/clinic/Use.java:8 calls get from=clinic.Use#run to=- (unresolved)
        ref src/clinic/Use.java:8 calls getName from=clinic.Use#run to=clinic.PetType#getName() (exact)
        ref src/clinic/Use.java:8 calls getPets from=clinic.Use#run to=clinic.Owner#getPets() (exact)
        ref src/clinic/Use.java:8 calls getType from=clinic.Use#run to=clinic.Pet#getType() (exact)
        ref src/clinic/Use.java:9 calls count from=clinic.Use#run to=- (unresolved)
        ref src/clinic/Use.java:9 calls filter from=clinic.Use#run to=- (unresolved)
        ref src/clinic/Use.java:9 calls getPets from=clinic.Use#run to=clinic.Owner#getPets() (exact)
        ref src/clinic/Use.java:9 calls isNew from=clinic.Use#run to=clinic.Pet#isNew() (exact)
        ref src/clinic/Use.java:9 calls stream from=clinic.Use#run to=- (unresolved)"#]]
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

/// Java: an enum constant written with arguments (`SUCCESS(200, "ok")`) calls its enum's
/// constructor, the overload its arguments pick, as `new` does (JLS 8.9.1).
#[test]
fn java_enum_constants_with_arguments_call_their_constructor() {
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
        ref src/api/ResultCode.java:5 instantiates ResultCode from=api.ResultCode#FAILED to=api.ResultCode#ResultCode(long) (exact)"#]]
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
}
