//! The index end to end: store snapshots of both fixtures, incremental runs that must
//! equal a fresh full index, the walker's rules, and a broken index being rebuilt.

use std::fs;
use std::path::Path;

use expect_test::expect_file;
use repochart::index::{index, Options, Summary};
use repochart::store::Store;

use crate::util::{index_rows, temp_copy};

fn run(root: &Path) -> Summary {
    index(root, &Options { threads: 2, ..Options::default() }, &|_, _| {}).unwrap()
}

fn dump(root: &Path) -> String {
    Store::open_read(&root.canonicalize().unwrap()).unwrap().dump().unwrap()
}

/// How many references the index holds, after checking that each one's id lies in its
/// file's range (the file's id times 2^24 plus a number): lookups by file read that range.
fn refs_in_their_files_ranges(root: &Path) -> i64 {
    let store = Store::open_read(&root.canonicalize().unwrap()).unwrap();
    let count = |sql: &str| -> i64 { store.conn().query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(count("SELECT COUNT(*) FROM refs WHERE id >> 24 != file_id"), 0);
    count("SELECT COUNT(*) FROM refs")
}

/// The first column of a query's rows, as text.
fn names(root: &Path, sql: &str) -> Vec<String> {
    let store = Store::open_read(&root.canonicalize().unwrap()).unwrap();
    let mut stmt = store.conn().prepare(sql).unwrap();
    stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
}

/// Indexes the tree from nothing and returns the dump, after checking that the symbols'
/// rows and full-text rows (`index_rows`) are those of the index it replaces.
fn fresh_dump(root: &Path) -> String {
    let before = index_rows(root);
    fs::remove_dir_all(root.join(".repochart")).unwrap();
    run(root);
    assert_eq!(before, index_rows(root), "the symbols' rows of the index before and of a fresh one");
    dump(root)
}

#[test]
fn java_shop_store_snapshot() {
    let tmp = temp_copy("java-shop");
    let summary = run(tmp.path());
    assert_eq!((summary.files, summary.parsed, summary.parse_errors), (17, 17, 0));
    assert_eq!(refs_in_their_files_ranges(tmp.path()), 209);
    expect_file!["snapshots/java-shop.store.txt"].assert_eq(&dump(tmp.path()));
}

#[test]
fn rust_shop_store_snapshot() {
    let tmp = temp_copy("rust-shop");
    let summary = run(tmp.path());
    assert_eq!((summary.files, summary.parsed, summary.parse_errors), (7, 7, 0));
    expect_file!["snapshots/rust-shop.store.txt"].assert_eq(&dump(tmp.path()));
}

#[test]
fn second_run_on_an_unchanged_tree_parses_nothing() {
    let tmp = temp_copy("java-shop");
    run(tmp.path());
    let before = dump(tmp.path());
    let again = run(tmp.path());
    assert_eq!((again.parsed, again.unchanged, again.removed, again.rechecked), (0, 17, 0, 0));
    assert_eq!(dump(tmp.path()), before);
}

#[test]
fn incremental_java_edits_equal_a_fresh_index() {
    let tmp = temp_copy("java-shop");
    let root = tmp.path();
    let pay = root.join("src/main/java/com/acme/pay");
    run(root);

    // Edit: a new method on the interface, called from the service.
    let gateway = fs::read_to_string(pay.join("PaymentGateway.java")).unwrap();
    fs::write(pay.join("PaymentGateway.java"), gateway.replace("default boolean", "void refund(String receipt);\n\n    default boolean"))
        .unwrap();
    // Addition: a third gateway.
    fs::write(
        pay.join("AdyenGateway.java"),
        "package com.acme.pay;\n\nimport java.math.BigDecimal;\n\npublic class AdyenGateway extends AbstractGateway {\n    protected String doCharge(String a, BigDecimal m) { return a; }\n}\n",
    )
    .unwrap();
    // Deletion: the legacy user goes.
    fs::remove_file(root.join("src/main/java/com/acme/legacy/User.java")).unwrap();
    // Rename: the Stripe gateway moves to another file and class name.
    fs::remove_file(pay.join("StripeGateway.java")).unwrap();
    fs::write(
        pay.join("StripeV2Gateway.java"),
        "package com.acme.pay;\n\nimport java.math.BigDecimal;\n\npublic class StripeV2Gateway extends AbstractGateway {\n    protected String doCharge(String a, BigDecimal m) { return a; }\n}\n",
    )
    .unwrap();
    let summary = run(root);
    assert_eq!((summary.parsed, summary.removed), (3, 2));
    // The edited interface's references were written again between other files' ranges.
    assert_eq!(refs_in_their_files_ranges(root), summary.references as i64);
    let incremental = dump(root);
    assert!(incremental.contains("ref src/main/java/com/acme/Application.java:6 imports com.acme.pay.StripeGateway from=- to=ext:com.acme.pay.StripeGateway (external)"), "{incremental}");
    assert_eq!(incremental, fresh_dump(root));

    // And back: the class the application imports exists again.
    fs::rename(pay.join("StripeV2Gateway.java"), pay.join("StripeGateway.java")).unwrap();
    let text = fs::read_to_string(pay.join("StripeGateway.java")).unwrap();
    fs::write(pay.join("StripeGateway.java"), text.replace("StripeV2Gateway", "StripeGateway")).unwrap();
    run(root);
    let incremental = dump(root);
    assert!(incremental.contains("imports com.acme.pay.StripeGateway from=- to=com.acme.pay.StripeGateway (exact)"));
    assert_eq!(incremental, fresh_dump(root));
}

/// An update keeps the rows of symbols that did not change but for their lines, and writes
/// again those whose doc, body text, signature or owner changed: either way the rows and
/// their full-text rows are a fresh index's (`fresh_dump` compares them).
#[test]
fn an_update_keeps_unchanged_symbols_and_rewrites_changed_ones() {
    let tmp = temp_copy("java-shop");
    let root = tmp.path();
    let service = root.join("src/main/java/com/acme/order/OrderService.java");
    run(root);
    let original = fs::read_to_string(&service).unwrap();
    let edited = original
        // Every symbol below moves down two lines.
        .replace("import com.acme.common.Audited;", "import com.acme.common.Audited;\nimport java.util.List;\n")
        // The class's doc, a literal in `place`'s body, a field's type.
        .replace("Places orders: reserves stock", "Places orders: holds stock")
        .replace("\"out of stock: \"", "\"sold out: \"")
        .replace("private final InventoryService inventory;", "private final InventoryService inventory;\n    private List<String> notes;");
    assert_ne!(edited, original);
    fs::write(&service, &edited).unwrap();
    let summary = run(root);
    assert_eq!(summary.parsed, 1);
    let rows = index_rows(root);
    for line in [
        "src/main/java/com/acme/order/OrderService.java field com.acme.order.OrderService#notes:19-19 ",
        "src/main/java/com/acme/order/OrderService.java method com.acme.order.OrderService#max(Comparable,Comparable):37-39 ",
    ] {
        assert!(rows.contains(line), "{line}\n{rows}");
    }
    assert!(rows.contains("doc:2:holds doc:3:stock"), "{rows}");
    assert!(rows.contains(" text=0:place 1:sold 2:out"), "{rows}");
    assert_eq!(dump(root), fresh_dump(root));
    // And back: every symbol moves up again, the old words return.
    fs::write(&service, &original).unwrap();
    run(root);
    assert!(!index_rows(root).contains("holds"));
    assert_eq!(dump(root), fresh_dump(root));
}

#[test]
fn incremental_rust_edits_equal_a_fresh_index() {
    let tmp = temp_copy("rust-shop");
    let root = tmp.path();
    let core = root.join("crates/shop-core/src");
    run(root);

    // A re-export changes: the alias now points at another trait.
    let lib = fs::read_to_string(core.join("lib.rs")).unwrap();
    fs::write(
        core.join("lib.rs"),
        lib.replace(
            "pub use pay::gateway::Gateway as PaymentGateway;",
            "pub use pay::gateway::Gateway as PaymentGateway;\npub use inventory::Store as StockStore;",
        ),
    )
    .unwrap();
    // The gateway module moves into a new directory module.
    fs::create_dir_all(core.join("pay/gateway")).unwrap();
    fs::rename(core.join("pay/gateway.rs"), core.join("pay/gateway/mod.rs")).unwrap();
    // A new impl in another file attaches to a type declared elsewhere.
    fs::write(core.join("extra.rs"), "use crate::pay::gateway::Stripe;\n\nimpl Stripe {\n    pub fn region(&self) -> &str { \"eu\" }\n}\n")
        .unwrap();
    let lib = fs::read_to_string(core.join("lib.rs")).unwrap();
    fs::write(core.join("lib.rs"), lib.replace("pub mod pay;", "pub mod pay;\nmod extra;")).unwrap();
    run(root);
    let incremental = dump(root);
    assert!(incremental.contains("symbol crates/shop-core/src/extra.rs:4-4 method shop_core::pay::gateway::Stripe::region parent=shop_core::pay::gateway::Stripe"), "{incremental}");
    assert_eq!(incremental, fresh_dump(root));

    // The type the impl attaches to is deleted: the member falls back to its own module.
    let gateway = fs::read_to_string(core.join("pay/gateway/mod.rs")).unwrap();
    fs::write(core.join("pay/gateway/mod.rs"), gateway.replace("pub struct Stripe;", "")).unwrap();
    run(root);
    let incremental = dump(root);
    assert!(incremental.contains("method shop_core::extra::Stripe::region parent=-"), "{incremental}");
    assert_eq!(incremental, fresh_dump(root));
}

#[test]
fn walker_honours_ignore_files_and_skips_what_it_must() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    fs::create_dir_all(root.join("src")).unwrap();
    fs::create_dir_all(root.join("target")).unwrap();
    fs::create_dir_all(root.join("gen")).unwrap();
    fs::write(root.join(".gitignore"), "target/\n").unwrap();
    fs::write(root.join(".repochartignore"), "gen/\n").unwrap();
    fs::write(root.join("src/lib.rs"), "pub fn kept() {}\n").unwrap();
    fs::write(root.join("target/out.rs"), "pub fn ignored_by_git() {}\n").unwrap();
    fs::write(root.join("gen/out.rs"), "pub fn ignored_by_repochart() {}\n").unwrap();
    fs::write(root.join("src/big.rs"), format!("// {}\n", "x".repeat(2000))).unwrap();
    fs::write(root.join("src/bin.rs"), b"fn a() {}\0\0binary").unwrap();
    #[cfg(unix)]
    {
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("secret.rs"), "pub fn outside() {}\n").unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.rs"), root.join("src/link.rs")).unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("linked_dir")).unwrap();
    }
    let summary = index(root, &Options { max_file_size: 1000, threads: 1, ..Options::default() }, &|_, _| {}).unwrap();
    let mut skipped: Vec<String> = summary.skipped.iter().map(|(p, r)| format!("{p}: {r}")).collect();
    skipped.sort();
    assert_eq!(skipped, vec!["src/big.rs: too large: 2004 bytes (limit 1000)".to_string(), "src/bin.rs: binary (NUL byte)".to_string()]);
    let dump = dump(root);
    let files: Vec<&str> = dump.lines().filter(|l| l.starts_with("file ")).collect();
    assert_eq!(files, vec!["file src/lib.rs rust module=crate loc=1 errors=0"]);
}

#[test]
fn an_indexed_file_that_turns_binary_leaves_the_index() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    fs::create_dir_all(root.join("src")).unwrap();
    fs::write(root.join("src/lib.rs"), "pub fn kept() {}\n").unwrap();
    fs::write(root.join("src/data.rs"), "pub fn soon_binary() {}\n").unwrap();
    let opts = Options { threads: 1, ..Options::default() };
    index(root, &opts, &|_, _| {}).unwrap();
    assert!(dump(root).contains("soon_binary"));
    fs::write(root.join("src/data.rs"), b"pub fn soon_binary() {}\0\0 and now binary").unwrap();
    let summary = index(root, &opts, &|_, _| {}).unwrap();
    let skipped: Vec<String> = summary.skipped.iter().map(|(p, r)| format!("{p}: {r}")).collect();
    assert_eq!((skipped, summary.removed_paths), (vec!["src/data.rs: binary (NUL byte)".to_string()], vec!["src/data.rs".to_string()]));
    let dump = dump(root);
    assert!(!dump.contains("soon_binary"), "{dump}");
    assert_eq!(dump, fresh_dump(root));
}

#[test]
fn a_broken_or_foreign_index_is_rebuilt() {
    let tmp = temp_copy("rust-shop");
    let root = tmp.path();
    run(root);
    let expected = dump(root);
    let db = root.join(".repochart/index.db");
    for garbage in [&b""[..], b"not a database at all", b"SQLite format 3\0truncated"] {
        for suffix in ["-wal", "-shm"] {
            let _ = fs::remove_file(format!("{}{suffix}", db.display()));
        }
        fs::write(&db, garbage).unwrap();
        let summary = run(root);
        assert_eq!(summary.parsed, 7);
        assert_eq!(dump(root), expected);
    }
    // A database of another program (or an old schema) is rebuilt too.
    for suffix in ["-wal", "-shm"] {
        let _ = fs::remove_file(format!("{}{suffix}", db.display()));
    }
    fs::remove_file(&db).unwrap();
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("CREATE TABLE files(x); PRAGMA user_version = 99;").unwrap();
    drop(conn);
    run(root);
    assert_eq!(dump(root), expected);
    assert_eq!(fs::read_to_string(root.join(".repochart/.gitignore")).unwrap(), "*\n");
}

const ALL_REF_INDEXES: [&str; 12] = [
    "refs_alias",
    "refs_chains",
    "refs_external",
    "refs_guesses",
    "refs_head",
    "refs_recv_head",
    "refs_recv_simple",
    "refs_simple",
    "refs_source",
    "refs_subject_simple",
    "refs_supertypes",
    "refs_target",
];

/// The names of the indexes on the references table, sorted.
fn ref_indexes(root: &Path) -> Vec<String> {
    let store = Store::open_read(root).unwrap();
    let mut stmt = store.conn().prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'refs' ORDER BY name").unwrap();
    stmt.query_map([], |r| r.get(0)).unwrap().map(|r| r.unwrap()).collect()
}

#[test]
fn a_second_process_waits_for_a_first_build_and_opens_it() {
    let tmp = temp_copy("java-shop");
    let root = tmp.path().to_path_buf();
    // The first opens for a build and holds the build lock until it publishes.
    let mut first = repochart::index::Indexer::open(&root, &Options::default()).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let second = {
        let root = root.clone();
        std::thread::spawn(move || {
            let mut indexer = repochart::index::Indexer::open(&root, &Options::default()).unwrap();
            tx.send(()).unwrap();
            indexer.full(&|_, _| {}).unwrap()
        })
    };
    // However long the first takes, the second cannot open before it has published.
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(rx.try_recv().is_err());
    assert_eq!(first.full(&|_, _| {}).unwrap().parsed, 17);
    // It opened what the first published: nothing left to parse.
    let summary = second.join().unwrap();
    assert_eq!((summary.files, summary.parsed), (17, 0));
}

#[test]
fn the_server_prepares_a_first_build_for_updates() {
    let tmp = temp_copy("java-shop");
    let root = tmp.path();
    let mut indexer = repochart::index::Indexer::open(root, &Options::default()).unwrap();
    indexer.full(&|_, _| {}).unwrap();
    assert_eq!(ref_indexes(root).len(), 5);
    indexer.prepare_updates().unwrap();
    assert_eq!(ref_indexes(root), ALL_REF_INDEXES);
    // A second time finds them there.
    indexer.prepare_updates().unwrap();
    assert_eq!(ref_indexes(root), ALL_REF_INDEXES);
}

#[test]
fn a_first_build_appears_only_when_complete() {
    let tmp = temp_copy("rust-shop");
    let root = tmp.path();
    let dir = root.join(".repochart");
    // What a build killed half-way leaves: a side file, which the next build replaces.
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("index.db.new"), b"half a database").unwrap();
    let mut indexer = repochart::index::Indexer::open(root, &Options::default()).unwrap();
    // Opened for a first build: readers find no index yet rather than an empty one.
    assert!(!dir.join("index.db").exists());
    assert!(matches!(Store::open_read(root), Err(repochart::store::Error::Missing(_))));
    let summary = indexer.full(&|_, _| {}).unwrap();
    assert_eq!(summary.parsed, 7);
    // The indexes only updates read are left for the first update to build.
    assert_eq!(ref_indexes(root), ["refs_alias", "refs_external", "refs_guesses", "refs_supertypes", "refs_target"]);
    let mut names: Vec<String> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    // The side file became the index (its log and shared memory are the open writer's).
    assert_eq!(names, vec![".gitignore", "build.lock", "index.db", "index.db-shm", "index.db-wal"]);
    // The same indexer goes on updating the published index in place, in WAL mode.
    let extra = root.join("crates/shop-core/src/extra.rs");
    fs::write(&extra, "pub struct Extra;\n").unwrap();
    let summary = indexer.update(&[extra], &|_, _| {}).unwrap();
    assert_eq!(summary.parsed, 1);
    let store = Store::open_read(root).unwrap();
    let journal: String = store.conn().query_row("PRAGMA journal_mode", [], |r| r.get(0)).unwrap();
    assert_eq!(journal, "wal");
    assert_eq!(ref_indexes(root), ALL_REF_INDEXES);
    drop((store, indexer));
    let updated = dump(root);
    assert!(updated.contains("file crates/shop-core/src/extra.rs rust"), "{updated}");
    assert_eq!(updated, fresh_dump(root));
}

#[test]
fn rust_glob_import_cycles_resolve_and_terminate() {
    // Modules that glob-import each other (common in real crates: `use super::*` in
    // children and `pub use child::*` in parents) once sent resolution exponential.
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    fs::create_dir_all(root.join("src")).unwrap();
    fs::write(root.join("Cargo.toml"), "[package]\nname = \"cyc\"\nversion = \"0.1.0\"\n").unwrap();
    let mut lib = String::from("pub use a::*;\npub use f::*;\n");
    for m in ["a", "b", "c", "d", "e", "f"] {
        lib.push_str(&format!("pub mod {m} {{\n    use super::*;\n    pub use crate::{m}_next::*;\n    pub struct T{m};\n}}\npub mod {m}_next {{\n    pub use super::*;\n}}\n"));
    }
    lib.push_str("pub fn user(_: Tf, _: Missing) {}\n");
    fs::write(root.join("src/lib.rs"), lib).unwrap();
    run(root);
    let dump = dump(root);
    assert!(dump.contains("ref src/lib.rs:51 uses_type Tf from=cyc::user to=cyc::f::Tf (exact)"), "{dump}");
    assert!(dump.contains("ref src/lib.rs:51 uses_type Missing from=cyc::user to=- (unresolved)"), "{dump}");
}

/// A nested type's supertype inherited as a member type by its enclosing type resolves to
/// the repository's type, in a full build and after an incremental edit alike.
#[test]
fn supertypes_through_inherited_member_types() {
    let repo = temp_copy("java-inherited-member-type");
    let root = repo.path();
    run(root);
    let atlas = repochart::tools::Atlas::new(&root.canonicalize().unwrap());
    let ask = || atlas.call("find_implementations", serde_json::json!({"symbol": "p.Outer.Entry", "transitive": true})).unwrap();
    let want = "3 implementations of interface p.Outer.Entry (transitive)
p  src/p/
  class Base.Deeper.Leaf  Base.java:15-19  (implements)
  class Base.Simple  Base.java:5-9  (implements)
  class Base.View  Base.java:11-12  (extends, depth 2)";
    assert_eq!(ask(), want);
    let base = root.join("src/p/Base.java");
    fs::write(&base, fs::read_to_string(&base).unwrap().replace("return \"k\";", "return \"key\";")).unwrap();
    run(root);
    assert_eq!(ask(), want);
    assert_eq!(dump(root), fresh_dump(root));
}

#[test]
fn path_attributes_move_rust_modules() {
    let repo = temp_copy("rust-path-modules");
    let root = repo.path();
    run(root);
    let symbols = |root: &Path| -> Vec<String> {
        dump(root).lines().filter(|l| l.starts_with("symbol src/")).map(|l| l.split(" parent=").next().unwrap().to_string()).collect()
    };
    expect_test::expect![[r#"
        symbol src/lib.rs:11-11 module pathmods::shared
        symbol src/lib.rs:13-15 function pathmods::run
        symbol src/lib.rs:3-3 module pathmods::imp
        symbol src/lib.rs:6-6 module pathmods::imp
        symbol src/lib.rs:9-9 module pathmods::refs
        symbol src/moved/child.rs:1-3 function pathmods::refs::child::depth
        symbol src/moved/mod.rs:1-1 module pathmods::refs::child
        symbol src/moved/mod.rs:3-3 struct pathmods::refs::Update
        symbol src/shared.rs:1-3 function pathmods::shared::helper
        symbol src/sys/other_impl.rs:1-3 function pathmods::imp::ticks
        symbol src/sys/unix_impl.rs:1-3 function pathmods::imp::ticks"#]]
    .assert_eq(&symbols(root).join("\n"));
    // `run` calls into both moved modules.
    let calls: Vec<String> = dump(root).lines().filter(|l| l.contains(" calls ")).map(str::to_string).collect();
    expect_test::expect![[r#"
        ref src/lib.rs:14 calls imp::ticks from=pathmods::run to=pathmods::imp::ticks (exact)
        ref src/lib.rs:14 calls refs::child::depth from=pathmods::run to=pathmods::refs::child::depth (exact)
        ref src/lib.rs:4 calls not from=- to=- (unresolved)
        ref tests/borrow.rs:6 calls shared::helper from=borrow::helps to=pathmods::shared::helper (guess)"#]]
    .assert_eq(&calls.join("\n"));
    // Moving the module elsewhere re-extracts the files it names, though they did not
    // change, through the watcher's path (an update of the declaring file alone).
    let lib = root.join("src/lib.rs");
    fs::write(
        &lib,
        fs::read_to_string(&lib).unwrap().replace("pub mod refs;", "pub mod history;").replace("refs::child", "history::child"),
    )
    .unwrap();
    let mut indexer = repochart::index::Indexer::open(root, &Options { threads: 2, ..Options::default() }).unwrap();
    indexer.full(&|_, _| {}).unwrap();
    fs::write(&lib, fs::read_to_string(&lib).unwrap().replace("pub mod history;", "pub mod log;").replace("history::child", "log::child"))
        .unwrap();
    indexer.update(&[lib.canonicalize().unwrap()], &|_, _| {}).unwrap();
    assert!(
        symbols(root).contains(&"symbol src/moved/child.rs:1-3 function pathmods::log::child::depth".to_string()),
        "{:?}",
        symbols(root)
    );
    assert_eq!(dump(root), fresh_dump(root));
}

#[test]
fn a_read_connection_gives_back_its_memory_and_keeps_answering() {
    let tmp = temp_copy("java-shop");
    let root = tmp.path();
    index(root, &Options::default(), &|_, _| {}).unwrap();
    let store = Store::open_read(root).unwrap();
    let mapped = |store: &Store| -> i64 { store.conn().query_row("PRAGMA mmap_size", [], |r| r.get(0)).unwrap() };
    let names = |store: &Store| -> Vec<String> {
        let mut stmt = store.conn().prepare("SELECT qname FROM symbols WHERE kind = 'class' ORDER BY qname").unwrap();
        stmt.query_map([], |r| r.get(0)).unwrap().collect::<Result<_, _>>().unwrap()
    };
    let before = names(&store);
    assert_eq!(mapped(&store), 1 << 30);
    store.release_memory();
    // The map is dropped and set up again at the same size: later reads are mapped too.
    assert_eq!(mapped(&store), 1 << 30);
    assert_eq!(names(&store), before);
    assert!(before.contains(&"com.acme.order.OrderService".to_string()), "{before:?}");
}

/// Saves leave the full-text index in pieces; tidying merges them and changes no answer.
#[test]
fn tidying_merges_what_updates_left_in_pieces() {
    let tmp = temp_copy("java-shop");
    let root = tmp.path();
    let mut indexer = repochart::index::Indexer::open(root, &Options::default()).unwrap();
    indexer.full(&|_, _| {}).unwrap();
    indexer.prepare_updates().unwrap();
    assert!(!indexer.tidy().unwrap(), "a prepared first build is in one piece");
    let money = root.join("src/main/java/com/acme/common/Money.java");
    let text = fs::read_to_string(&money).unwrap();
    fs::write(&money, text.replace("public Money plus", "public Money minus(Money o) { return o; }\n\n    public Money plus")).unwrap();
    indexer.update(std::slice::from_ref(&money), &|_, _| {}).unwrap();
    let atlas = repochart::tools::Atlas::new(&root.canonicalize().unwrap());
    let before = atlas.call("search_symbols", serde_json::json!({"query": "money minus"})).unwrap();
    assert!(before.contains("method com.acme.common.Money#minus"), "{before}");
    assert!(indexer.tidy().unwrap(), "an update adds a segment");
    assert!(!indexer.tidy().unwrap());
    let atlas = repochart::tools::Atlas::new(&root.canonicalize().unwrap());
    assert_eq!(atlas.call("search_symbols", serde_json::json!({"query": "money minus"})).unwrap(), before);
}

#[test]
fn calls_and_creations_name_the_overload_javac_picks() {
    let repo = temp_copy("java-overloads");
    let root = repo.path();
    run(root);
    let refs = |root: &Path| -> String {
        dump(root)
            .lines()
            .filter(|l| l.starts_with("ref src/p/") && [" calls ", " instantiates ", " method_ref "].iter().any(|k| l.contains(k)))
            .collect::<Vec<_>>()
            .join("\n")
    };
    expect_test::expect![[r#"
        ref src/p/Account.java:15 calls this from=p.Account#Account to=p.Account#Account(String) (exact)
        ref src/p/Account.java:7 calls this from=p.Account#Account to=p.Account#Account(String) (exact)
        ref src/p/Calls.java:10 instantiates Customer from=p.Calls#customer to=p.Customer (exact)
        ref src/p/Calls.java:13 calls getAccount from=p.Calls#run to=p.Customer#getAccount(Integer) (exact)
        ref src/p/Calls.java:14 calls getAccount from=p.Calls#run to=p.Customer#getAccount(String) (exact)
        ref src/p/Calls.java:15 calls put from=p.Calls#run to=p.Customer#put(long,String) (exact)
        ref src/p/Calls.java:16 calls put from=p.Calls#run to=p.Customer#put(int,Object) (exact)
        ref src/p/Calls.java:17 calls tag from=p.Calls#run to=p.Customer#tag(String...) (exact)
        ref src/p/Calls.java:18 calls tag from=p.Calls#run to=p.Customer#tag(String,int) (exact)
        ref src/p/Calls.java:19 calls tag from=p.Calls#run to=p.Customer#tag(String...) (exact)
        ref src/p/Calls.java:20 calls remove from=p.Calls#run to=p.Customer#remove(int) (exact)
        ref src/p/Calls.java:21 calls remove from=p.Calls#run to=p.Customer#remove(Object) (exact)
        ref src/p/Calls.java:22 calls use from=p.Calls#run to=p.Customer#use(String) (exact)
        ref src/p/Calls.java:23 calls use from=p.Calls#run to=p.Customer#use(Object) (exact)
        ref src/p/Calls.java:24 calls use from=p.Calls#run to=p.Customer#use(String) (exact)
        ref src/p/Calls.java:25 calls getAccount from=p.Calls#run to=p.Customer#getAccount(Integer) (exact)
        ref src/p/Calls.java:26 calls amount from=p.Calls#run to=p.Customer#amount(Number) (exact)
        ref src/p/Calls.java:27 calls hashCode from=p.Calls#run to=- (unresolved)
        ref src/p/Calls.java:27 calls remove from=p.Calls#run to=p.Customer#remove(Object) | p.Customer#remove(int) (ambiguous)
        ref src/p/Calls.java:27 calls size from=p.Calls#run to=ext:java.util.List#size (external)
        ref src/p/Calls.java:28 calls remove from=p.Calls#run to=p.Customer#remove(Object) | p.Customer#remove(int) (ambiguous)
        ref src/p/Calls.java:28 calls unknown from=p.Calls#run to=p.Calls#unknown() (exact)
        ref src/p/Calls.java:29 instantiates Account from=p.Calls#run to=p.Account#Account(String,int) (exact)
        ref src/p/Calls.java:30 instantiates Account from=p.Calls#run to=p.Account#Account() (exact)
        ref src/p/Calls.java:31 instantiates Account from=p.Calls#run to=p.Account#Account(String) (exact)
        ref src/p/Calls.java:33 method_ref new from=p.Calls#run to=p.Account#Account() | p.Account#Account(String) | p.Account#Account(String,int) (ambiguous)
        ref src/p/Calls.java:34 method_ref getName from=p.Calls#run to=p.Account#getName() (exact)
        ref src/p/Calls.java:35 method_ref helper from=p.Calls#run to=p.Calls#helper() (exact)
        ref src/p/Calls.java:36 method_ref new from=p.Calls#run to=p.Customer (exact)
        ref src/p/Calls.java:37 calls info from=p.Calls#run to=ext:org.slf4j.Logger#info (external)
        ref src/p/Calls.java:39 calls sum from=p.Calls#run to=p.Customer#sum(int[]) (exact)
        ref src/p/Calls.java:40 calls sum from=p.Calls#run to=p.Customer#sum(long[]) (exact)
        ref src/p/Calls.java:41 calls count from=p.Calls#run to=p.Customer#count() (exact)
        ref src/p/Calls.java:41 calls remove from=p.Calls#run to=p.Customer#remove(int) (exact)
        ref src/p/Calls.java:42 calls count from=p.Calls#run to=p.Customer#count() (exact)
        ref src/p/Calls.java:42 calls tag from=p.Calls#run to=p.Customer#tag(String,int) (exact)
        ref src/p/Calls.java:42 instantiates Customer from=p.Calls#run to=p.Customer (exact)
        ref src/p/Calls.java:42 instantiates Customer from=p.Calls#run to=p.Customer (exact)
        ref src/p/Calls.java:43 calls use from=p.Calls#run to=p.Customer#use(String) (exact)
        ref src/p/Derived.java:5 calls note from=p.Derived#send to=p.Base#note(Object) (exact)
        ref src/p/Derived.java:6 calls amount from=p.Derived#send to=p.Customer#amount(Number) (exact)
        ref src/p/Derived.java:7 calls remove from=p.Derived#send to=p.Customer#remove(int) (exact)
        ref src/p/Derived.java:8 calls remove from=p.Derived#send to=p.Customer#remove(int) (exact)
        ref src/p/Special.java:5 calls super from=p.Special#Special to=p.Account#Account(String,int) (exact)"#]].assert_eq(&refs(root));
    // A new overload that fits better (no boxing): the call moves to it, as after a fresh index.
    let customer = root.join("src/p/Customer.java");
    fs::write(
        &customer,
        fs::read_to_string(&customer).unwrap().replace(
            "    public Account getAccount(Integer id) {",
            "    public Account getAccount(int id) {\n        return null;\n    }\n\n    public Account getAccount(Integer id) {",
        ),
    )
    .unwrap();
    run(root);
    assert!(
        refs(root).contains("ref src/p/Calls.java:13 calls getAccount from=p.Calls#run to=p.Customer#getAccount(int) (exact)"),
        "{}",
        refs(root)
    );
    assert_eq!(dump(root), fresh_dump(root));
}

#[test]
fn rust_calls_through_facades_chains_and_macro_arguments() {
    let repo = temp_copy("rust-facade");
    let root = repo.path();
    run(root);
    let refs = |root: &Path| -> String {
        dump(root)
            .lines()
            .filter(|l| l.starts_with("ref crates/app/") && [" calls ", " expands "].iter().any(|k| l.contains(k)))
            .chain(dump(root).lines().filter(|l| l.contains(" expands checked ") || l.contains(" calls hit ")))
            .map(str::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    };
    expect_test::expect![[r#"
        ref crates/app/src/main.rs:11 calls facade::core::Searcher::new from=app::run to=engine_core::search::Searcher::new (exact)
        ref crates/app/src/main.rs:12 calls search_path from=app::run to=engine_core::search::Searcher::search_path (exact)
        ref crates/app/src/main.rs:13 calls Searcher::builder from=app::run to=engine_core::search::Searcher::builder (exact)
        ref crates/app/src/main.rs:13 calls build from=app::run to=engine_core::search::SearcherBuilder::build (exact)
        ref crates/app/src/main.rs:13 calls line_number from=app::run to=engine_core::search::SearcherBuilder::line_number (exact)
        ref crates/app/src/main.rs:14 calls is_ok from=app::run to=- (unresolved)
        ref crates/app/src/main.rs:14 calls search_path from=app::run to=engine_core::search::Searcher::search_path (exact)
        ref crates/app/src/main.rs:14 expands assert from=app::run to=ext:std::assert (external)
        ref crates/app/src/main.rs:15 calls count from=app::run to=engine_core::search::Searcher::count (exact)
        ref crates/app/src/main.rs:15 expands assert_eq from=app::run to=ext:std::assert_eq (external)
        ref crates/app/src/main.rs:16 calls String::new from=app::run to=ext:std::string::String::new (external)
        ref crates/app/src/main.rs:17 calls describe from=app::run to=engine_core::search::Match::describe (exact)
        ref crates/app/src/main.rs:17 calls first from=app::run to=engine_core::search::Searcher::first (exact)
        ref crates/app/src/main.rs:17 calls ok from=app::run to=- (unresolved)
        ref crates/app/src/main.rs:17 calls unwrap from=app::run to=- (unresolved)
        ref crates/app/src/main.rs:17 expands write from=app::run to=ext:std::write (external)
        ref crates/app/src/main.rs:18 calls facade::Searcher::new from=app::run to=engine_core::search::Searcher::new (exact)
        ref crates/app/src/main.rs:18 calls first from=app::run to=engine_core::search::Searcher::first (exact)
        ref crates/app/src/main.rs:18 calls unwrap from=app::run to=- (unresolved)
        ref crates/app/src/main.rs:19 calls describe from=app::run to=engine_core::search::Match::describe (exact)
        ref crates/app/src/main.rs:19 expands twice from=app::run to=app::twice (exact)
        ref crates/app/src/main.rs:20 expands engine_core::hits from=app::run to=engine_core::hits (exact)
        ref crates/app/src/main.rs:21 calls Box::new from=app::run to=ext:std::boxed::Box::new (external)
        ref crates/app/src/main.rs:21 calls Searcher::new from=app::run to=engine_core::search::Searcher::new (exact)
        ref crates/app/src/main.rs:22 calls count from=app::run to=engine_core::search::Searcher::count (exact)
        ref crates/app/src/main.rs:24 calls iter from=app::run to=ext:std::vec::Vec::iter (external)
        ref crates/app/src/main.rs:25 calls describe from=app::run to=engine_core::search::Match::describe (exact)
        ref crates/app/src/main.rs:27 calls Ok from=app::run to=ext:std::result::Result::Ok (external)
        ref crates/app/src/main.rs:27 calls found_len from=app::run to=app::found_len (exact)
        ref crates/app/src/main.rs:31 calls count from=app::found_len to=engine_core::search::Searcher::count (exact)
        ref crates/app/src/main.rs:37 calls tally from=app::tally_of to=engine_core::search::Counted::tally (exact)
        ref crates/app/src/main.rs:42 calls count from=app::through_extern_crate to=engine_core::search::Searcher::count (exact)
        ref crates/app/src/main.rs:42 calls facade::engine::search::Searcher::new from=app::through_extern_crate to=engine_core::search::Searcher::new (exact)
        ref crates/app/src/main.rs:46 calls run from=app::main to=app::run (exact)
        ref crates/app/src/main.rs:47 calls through_extern_crate from=app::main to=app::through_extern_crate (exact)
        ref crates/app/src/main.rs:53 calls first from=app::first_of_pair to=engine_core::search::Searcher::first (exact)
        ref crates/app/src/main.rs:53 calls unwrap from=app::first_of_pair to=- (unresolved)
        ref crates/app/src/main.rs:54 calls describe from=app::first_of_pair to=engine_core::search::Match::describe (guess)
        ref crates/engine-core/src/search.rs:49 expands checked from=engine_core::search::Searcher::count to=engine_core::checked (exact)
        ref crates/engine-core/src/search.rs:80 calls hit from=engine_core::search::tests::hits to=engine_core::search::tests::Probe::hit (exact)
        ref crates/engine-core/src/search.rs:80 calls hit from=engine_core::search::tests::hits to=engine_core::search::tests::Probe::hit (exact)"#]].assert_eq(&refs(root));
    // The re-export goes: calls through it are no longer known, as after a fresh index (the
    // name alone still matches one method).
    let facade = root.join("crates/facade/src/lib.rs");
    fs::write(&facade, "pub use engine_core as engine;\npub use engine_core::search::*;\n").unwrap();
    run(root);
    assert!(
        refs(root).contains("calls facade::core::Searcher::new from=app::run to=engine_core::search::Searcher::new (guess)"),
        "{}",
        refs(root)
    );
    assert_eq!(dump(root), fresh_dump(root));
}

/// Name-only guesses stay in `find_references` but are no edges of the graph: the graph's
/// rows add up to the resolved references that are not guesses (imports only when they
/// re-export), and the fixture has some.
#[test]
fn name_only_guesses_are_no_graph_edges() {
    let repo = temp_copy("rust-facade");
    let root = repo.path();
    run(root);
    let store = Store::open_read(&root.canonicalize().unwrap()).unwrap();
    let count = |sql: &str| -> i64 { store.conn().query_row(sql, [], |r| r.get(0)).unwrap() };
    // Imports are no edges either, except re-exports (`pub use`).
    let resolved = "(target_id IS NOT NULL OR external_id IS NOT NULL) AND (kind != 7 OR (flags & 4) != 0)";
    let guesses = count(&format!("SELECT COUNT(*) FROM refs WHERE {resolved} AND confidence = 1"));
    let others = count(&format!("SELECT COUNT(*) FROM refs WHERE {resolved} AND confidence != 1"));
    assert_eq!(guesses, 1, "the fixture's call on a part of a tuple is a guess (the one inside the repository's `twice!` is read as code, the one on a Vec element follows its type)");
    let in_graph: i64 = store.graph_edges(None).unwrap().iter().map(|e| e.count as i64).sum();
    assert_eq!(in_graph, others);
}

/// Every Cargo target is a crate root with its own module tree, as Cargo reads the
/// manifest: a `[[bin]]` beside the workspace members, auto-discovered bins, examples,
/// tests and benches, the build script; and editing the manifest gives the index a fresh
/// build gives.
#[test]
fn cargo_targets_are_crate_roots() {
    let repo = temp_copy("rust-targets");
    let root = repo.path();
    run(root);
    let modules = |root: &Path| -> String {
        let store = repochart::store::Store::open_read(&root.canonicalize().unwrap()).unwrap();
        store.files_under("").unwrap().into_iter().map(|f| format!("{}  {}", f.path, f.module)).collect::<Vec<_>>().join("\n")
    };
    expect_test::expect![[r#"
        benches/speed.rs  speed
        build.rs  build_script_build
        crates/app/flags/mod.rs  app::flags
        crates/app/main.rs  app
        crates/util/src/lib.rs  util_lib
        crates/util/tests/common/mod.rs  integration::common
        crates/util/tests/it.rs  integration
        examples/demo.rs  demo
        src/bin/multi/helper.rs  multi::helper
        src/bin/multi/main.rs  multi
        src/bin/tool.rs  tool
        src/engine.rs  app_root::engine
        src/lib.rs  app_root
        tests/common/mod.rs  integration::common
        tests/it.rs  integration
        tests/other.rs  other"#]]
    .assert_eq(&modules(root));
    // `crate::` resolves in the bin's own tree; the bin reaches its package's library and a
    // workspace member by their names.
    let calls: Vec<String> =
        dump(root).lines().filter(|l| l.starts_with("ref crates/app/") && l.contains(" calls ")).map(str::to_string).collect();
    expect_test::expect![[r#"
        ref crates/app/flags/mod.rs:6 calls util_lib::helper from=app::flags::check to=util_lib::helper (exact)
        ref crates/app/main.rs:6 calls crate::flags::parse from=app::main to=app::flags::parse (exact)
        ref crates/app/main.rs:7 calls Engine::new from=app::main to=app_root::engine::Engine::new (exact)
        ref crates/app/main.rs:7 calls run from=app::main to=app_root::engine::Engine::run (exact)
        ref crates/app/main.rs:8 calls flags::check from=app::main to=app::flags::check (exact)"#]]
    .assert_eq(&calls.join("\n"));
    // Two packages' test targets are both the crate `integration`: each file reaches its own
    // package's `integration::common`, never the other's (not even as a guess).
    let shared: Vec<String> = dump(root)
        .lines()
        .filter(|l| l.starts_with("ref ") && l.contains("tests/it.rs") && l.contains(" common::"))
        .map(str::to_string)
        .collect();
    expect_test::expect![[r#"
        ref crates/util/tests/it.rs:5 calls common::setup from=integration::helps to=integration::common::setup (exact)
        ref crates/util/tests/it.rs:6 calls common::only_here from=integration::helps to=integration::common::only_here (exact)
        ref tests/it.rs:11 calls common::only_here from=integration::shadowed to=- (unresolved)
        ref tests/it.rs:5 calls common::setup from=integration::runs to=integration::common::setup (exact)"#]]
    .assert_eq(&shared.join("\n"));
    let store = Store::open_read(&root.canonicalize().unwrap()).unwrap();
    let target_file = |file: &str, line: u32| -> String {
        store
            .conn()
            .query_row(
                "SELECT tf.path FROM refs r JOIN files f ON f.id = r.file_id JOIN symbols s ON s.id = r.target_id JOIN files tf ON tf.id = s.file_id WHERE f.path = ?1 AND r.line = ?2 AND r.name = 'common::setup'",
                rusqlite::params![file, line],
                |r| r.get(0),
            )
            .unwrap()
    };
    assert_eq!(target_file("tests/it.rs", 5), "tests/common/mod.rs");
    assert_eq!(target_file("crates/util/tests/it.rs", 5), "crates/util/tests/common/mod.rs");
    drop(store);
    // A manifest edit: the bin renamed, autobins off (src/bin/ falls back to the library).
    let manifest = root.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replace("name = \"app\"", "name = \"application\"").replace("build = \"build.rs\"", "build = \"build.rs\"\nautobins = false"),
    )
    .unwrap();
    run(root);
    expect_test::expect![[r#"
        benches/speed.rs  speed
        build.rs  build_script_build
        crates/app/flags/mod.rs  application::flags
        crates/app/main.rs  application
        crates/util/src/lib.rs  util_lib
        crates/util/tests/common/mod.rs  integration::common
        crates/util/tests/it.rs  integration
        examples/demo.rs  demo
        src/bin/multi/helper.rs  app_root::bin::multi::helper
        src/bin/multi/main.rs  app_root::bin::multi::main
        src/bin/tool.rs  app_root::bin::tool
        src/engine.rs  app_root::engine
        src/lib.rs  app_root
        tests/common/mod.rs  integration::common
        tests/it.rs  integration
        tests/other.rs  other"#]]
    .assert_eq(&modules(root));
    assert_eq!(dump(root), fresh_dump(root));
}

/// The units an index holds, one line each, and the manifest errors.
fn units_of(root: &Path) -> String {
    let store = Store::open_read(&root.canonicalize().unwrap()).unwrap();
    let units = store.units().unwrap();
    let mut out: Vec<String> = units
        .units
        .iter()
        .map(|u| {
            let deps: Vec<String> = u.deps.iter().map(|d| format!("{}{}", d.dir, if d.test { " (test)" } else { "" })).collect();
            let roots: Vec<String> = u.roots.iter().map(|r| format!("{}={:?}", r.path, r.kind)).collect();
            format!(
                "{} {} {:?} deps [{}] roots [{}]{}",
                u.system,
                u.name,
                u.dir,
                deps.join(", "),
                roots.join(", "),
                if u.fallback { " FALLBACK" } else { "" }
            )
        })
        .collect();
    out.extend(units.errors.iter().map(|e| format!("error {}:{}: {}", e.file, e.line, e.message)));
    out.join("\n")
}

#[test]
fn maven_modules_are_units_and_manifest_edits_equal_a_fresh_index() {
    let tmp = temp_copy("maven-multi");
    let root = tmp.path();
    run(root);
    expect_test::expect![[r#"
        maven shop-parent "" deps [] roots [src/main/java=Main, src/main/kotlin=Main, src/test/java=Test, src/test/kotlin=Test, target/generated-sources=Generated, target/generated-test-sources=Generated]
        maven shop-api "api" deps [] roots [api/src/main/java=Main, api/src/main/kotlin=Main, api/src/test/java=Test, api/src/test/kotlin=Test, api/target/generated-sources=Generated, api/target/generated-test-sources=Generated]
        maven shop-app "app" deps [core (test), web] roots [app/src/main/java=Main, app/src/main/kotlin=Main, app/src/test/java=Test, app/src/test/kotlin=Test, app/target/generated-sources=Generated, app/target/generated-test-sources=Generated]
        maven shop-core "core" deps [api] roots [core/src/main/java=Main, core/src/main/kotlin=Main, core/target/generated-sources=Generated, core/target/generated-test-sources=Generated, core/src/it/java=Test, core/src/generated/java=Generated]
        maven shop-tools "tools" deps [] roots [tools/src/main/java=Main, tools/src/main/kotlin=Main, tools/src/test/java=Test, tools/src/test/kotlin=Test, tools/target/generated-sources=Generated, tools/target/generated-test-sources=Generated]
        maven shop-web "web" deps [core] roots [web/src/main/java=Main, web/src/main/kotlin=Main, web/src/test/java=Test, web/src/test/kotlin=Test, web/target/generated-sources=Generated, web/target/generated-test-sources=Generated]"#]]
    .assert_eq(&units_of(root));

    // Java files under core's test resources are test data: nothing outside core reaches
    // them, the api module's OrderApi wins over their copy, LegacyDom stays external.
    let data: Vec<String> = dump(root)
        .lines()
        .filter(|l| l.starts_with("ref ") && (l.contains(" OrderApi from=") || l.contains(" LegacyDom from=")))
        .map(str::to_string)
        .collect();
    expect_test::expect![[r#"
        ref core/src/main/java/com/acme/core/OrderService.java:6 implements OrderApi from=com.acme.core.OrderService to=com.acme.api.OrderApi (exact)
        ref web/src/main/java/com/acme/web/OrderController.java:13 uses_type LegacyDom from=com.acme.web.OrderController#post to=ext:com.acme.legacy.LegacyDom (external)
        ref web/src/main/java/com/acme/web/OrderController.java:9 uses_type OrderApi from=com.acme.web.OrderController#orders to=com.acme.api.OrderApi (exact)"#]]
    .assert_eq(&data.join("\n"));
    // Edits: web declares tools; the api is renamed (and core follows); a new module.
    let edit = |rel: &str, from: &str, to: &str| {
        let text = fs::read_to_string(root.join(rel)).unwrap();
        assert!(text.contains(from), "{rel}");
        fs::write(root.join(rel), text.replace(from, to)).unwrap();
    };
    edit(
        "web/pom.xml",
        "</dependencies>",
        "<dependency><groupId>com.acme</groupId><artifactId>shop-tools</artifactId></dependency>\n  </dependencies>",
    );
    edit("api/pom.xml", "shop-api", "shop-contract");
    edit("core/pom.xml", "shop-api", "shop-contract");
    edit("pom.xml", "<module>app</module>", "<module>app</module>\n    <module>batch</module>");
    fs::create_dir_all(root.join("batch/src/main/java/com/acme/batch")).unwrap();
    fs::write(root.join("batch/pom.xml"), "<project><artifactId>shop-batch</artifactId><dependencies><dependency><artifactId>shop-core</artifactId></dependency></dependencies></project>\n").unwrap();
    fs::write(
        root.join("batch/src/main/java/com/acme/batch/Nightly.java"),
        "package com.acme.batch;\n\nimport com.acme.core.OrderService;\n\npublic class Nightly {\n    void run() { new OrderService().place(\"x\"); }\n}\n",
    )
    .unwrap();
    run(root);
    let incremental = (units_of(root), dump(root));
    expect_test::expect![[r#"
        maven shop-parent "" deps []
        maven shop-contract "api" deps []
        maven shop-app "app" deps [core (test), web]
        maven shop-batch "batch" deps [core]
        maven shop-core "core" deps [api]
        maven shop-tools "tools" deps []
        maven shop-web "web" deps [core, tools]"#]]
    .assert_eq(&incremental.0.lines().map(|l| l.split(" roots ").next().unwrap()).collect::<Vec<_>>().join("\n"));
    let fresh = fresh_dump(root);
    assert_eq!(incremental, (units_of(root), fresh));

    // A malformed pom: its folder stays a unit with the default layout, and status names
    // the file, line and error.
    edit("web/pom.xml", "<dependencies>", "<dependencies><oops>");
    run(root);
    let units = units_of(root);
    assert!(units.contains("maven shop-web \"web\" deps [] roots [web/src/main/java=Main"), "{units}");
    assert!(units.contains("maven shop-app \"app\" deps [core (test), web]"), "{units}");
    assert!(units.contains(" FALLBACK"), "{units}");
    assert!(units.contains("error web/pom.xml:7: expected 'oops' tag, not 'dependencies' at 7:3"), "{units}");
    let health = repochart::health::check(&root.canonicalize().unwrap(), &Options::default());
    let report = health.report(root);
    assert!(
        report.contains("  manifest unreadable (its folder read with the default layout): web/pom.xml:7: expected 'oops' tag, not 'dependencies' at 7:3\n"),
        "{report}"
    );
}

#[test]
fn gradle_projects_are_units() {
    let tmp = temp_copy("gradle-kts");
    let root = tmp.path();
    run(root);
    expect_test::expect![[r#"
        gradle kshop "" deps [] roots [src/main/java=Main, src/main/kotlin=Main, src/test/java=Test, src/test/kotlin=Test, build/generated=Generated]
        gradle :app "app" deps [lib/core, libs/util (test)] roots [app/src/main/java=Main, app/src/main/kotlin=Main, app/src/test/java=Test, app/src/test/kotlin=Test, app/build/generated=Generated]
        gradle :lib:core "lib/core" deps [libs/util] roots [lib/core/src/main/java=Main, lib/core/src/main/kotlin=Main, lib/core/src/test/java=Test, lib/core/src/test/kotlin=Test, lib/core/build/generated=Generated]
        gradle :util "libs/util" deps [] roots [libs/util/src/main/java=Main, libs/util/src/main/kotlin=Main, libs/util/src/test/java=Test, libs/util/src/test/kotlin=Test, libs/util/build/generated=Generated]"#]]
    .assert_eq(&units_of(root));
    // A project moved in the settings: the same as a fresh index.
    let settings = fs::read_to_string(root.join("settings.gradle.kts")).unwrap();
    fs::write(root.join("settings.gradle.kts"), settings.replace("include(\":app\", \":lib:core\")", "include(\":app\")")).unwrap();
    run(root);
    let incremental = (units_of(root), dump(root));
    assert!(!incremental.0.contains(":lib:core"), "{}", incremental.0);
    let fresh = fresh_dump(root);
    assert_eq!(incremental, (units_of(root), fresh));
}

/// A configuration file that does not parse keeps the keys before the error, and `status`
/// names the file, line and error; a key read without a default and set nowhere is named.
#[test]
fn configuration_problems_are_in_status() {
    let tmp = temp_copy("spring-shop");
    let root = tmp.path();
    fs::write(root.join("order-service/src/main/resources/bootstrap.yml"), "spring:\n  application:\n    name: order\n  cloud: [a\n")
        .unwrap();
    let jobs = root.join("order-service/src/main/java/com/shop/order/jobs/OrderJobs.java");
    let text = fs::read_to_string(&jobs).unwrap();
    fs::write(&jobs, text.replace("${redis.key.orderId:order}", "${redis.key.none}")).unwrap();
    run(root);
    let report = repochart::health::check(&root.canonicalize().unwrap(), &Options::default()).report(root);
    let config: Vec<&str> =
        report.lines().skip_while(|l| !l.starts_with("configuration:")).take_while(|l| !l.starts_with("skipped:")).collect();
    expect_test::expect![[r#"
        configuration: 14 keys in 3 files
          unreadable past this line (keys before it kept): order-service/src/main/resources/bootstrap.yml:5: while parsing a flow sequence, expected ',' or ']'
          read in code, set in no configuration file: redis.key.none (@Value com.shop.order.jobs.OrderJobs#orderKey  order-service/src/main/java/com/shop/order/jobs/OrderJobs.java:16-17)
        mybatis: 2 statements in 1 mapper file"#]]
    .assert_eq(&config.join("\n"));
}

/// An endpoint whose path names another file's constants (`@RequestMapping(ApiPaths.REFUNDS)`,
/// `ApiPaths.API + "/{orderId}"`) is named with their values, and renamed when only the
/// constants' file changes; the incremental index equals a fresh one.
#[test]
fn endpoint_paths_follow_constants_of_other_files() {
    let tmp = temp_copy("spring-shop");
    let root = tmp.path();
    run(root);
    let endpoints = |root: &Path| names(root, "SELECT name FROM symbols WHERE kind = 'endpoint' AND name LIKE '%refunds%'");
    assert_eq!(endpoints(root), ["POST /api/v1/refunds/api/v1/{orderId}"]);
    let paths = root.join("common/src/main/java/com/shop/common/ApiPaths.java");
    let text = fs::read_to_string(&paths).unwrap();
    fs::write(&paths, text.replace("\"/api/v1\"", "\"/api/v2\"")).unwrap();
    assert_eq!(run(root).parsed, 1);
    assert_eq!(endpoints(root), ["POST /api/v2/refunds/api/v2/{orderId}"]);
    let incremental = dump(root);
    assert_eq!(incremental, fresh_dump(root));
    // A constant that is no longer a string literal: the name shows that constant.
    fs::write(&paths, text.replace("\"/api/v1\"", "System.getenv(\"API\")")).unwrap();
    run(root);
    assert_eq!(endpoints(root), ["POST /{ApiPaths.API}/refunds/{ApiPaths.API}/{orderId}"]);
}

/// A Rust router nested from another file (`.nest("/v2", api::router())` in `main.rs`): the
/// nested file's endpoints carry the prefix, and follow it when only the nesting file changes.
#[test]
fn rust_router_prefixes_follow_the_file_that_nests_them() {
    let tmp = temp_copy("rust-web");
    let root = tmp.path();
    run(root);
    let endpoints = |root: &Path| {
        names(root, "SELECT s.name FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.kind = 'endpoint' AND f.path = 'src/api.rs' ORDER BY s.name")
    };
    let want = |prefix: &str| -> Vec<String> {
        [
            "ANY /assets/{*rest}",
            "ANY /metrics",
            "ANY /{*fallback}",
            "DELETE /api/users/:id",
            "GET /api/admin/stats",
            "GET /api/users/:id",
            "GET /health",
            "GET /ops/audit",
            "POST /api/users",
        ]
        .iter()
        .map(|e| e.replacen(' ', &format!(" {prefix}"), 1))
        .collect()
    };
    assert_eq!(endpoints(root), want("/v2"));
    let main = root.join("src/main.rs");
    let text = fs::read_to_string(&main).unwrap();
    fs::write(&main, text.replace("nest(\"/v2\"", "nest(\"/v3\"")).unwrap();
    assert_eq!(run(root).parsed, 1);
    assert_eq!(endpoints(root), want("/v3"));
    assert_eq!(dump(root), fresh_dump(root));
    // Nested from nowhere: the router's own paths.
    fs::write(&main, text.replace(".nest(\"/v2\", api::router())", "")).unwrap();
    run(root);
    assert_eq!(endpoints(root), want(""));
}

/// Rust (issue 49): a long-lived indexer (a server's) keeps the repository's macros between
/// updates; an update of the file defining a macro re-extracts the files that invoke it,
/// however far, and the result equals a fresh index.
#[test]
fn a_macro_edit_in_a_long_lived_indexer_reextracts_its_invokers() {
    let repo = crate::resolve::write_fixture(
        r#"
//- Cargo.toml
[package]
name = "mx"
version = "0.1.0"
edition = "2021"
//- src/lib.rs
#[macro_use]
mod macros;
pub mod uses;
//- src/macros.rs
macro_rules! make {
    ($name:ident) => {
        pub fn $name() -> u32 { 1 }
    };
}
//- src/uses.rs
make!(first);
make!(second);
"#,
    );
    let root = repo.path().canonicalize().unwrap();
    let mut indexer = repochart::index::Indexer::open(&root, &Options::default()).unwrap();
    indexer.full(&|_, _| {}).unwrap();
    let functions = |root: &Path| names(root, "SELECT s.qname FROM symbols s WHERE s.kind = 'function' ORDER BY s.qname");
    assert_eq!(functions(&root), ["mx::uses::first", "mx::uses::second"]);
    let macros = root.join("src/macros.rs");
    fs::write(&macros, fs::read_to_string(&macros).unwrap().replace("pub fn $name() -> u32 { 1 }", "pub struct $name;")).unwrap();
    let summary = indexer.update(std::slice::from_ref(&macros), &|_, _| {}).unwrap();
    assert_eq!(summary.parsed, 2, "the macro's file and the file invoking it");
    assert_eq!(functions(&root), Vec::<String>::new());
    assert_eq!(
        names(&root, "SELECT s.qname FROM symbols s WHERE s.kind = 'struct' ORDER BY s.qname"),
        ["mx::uses::first", "mx::uses::second"]
    );
    assert_eq!(dump(&root), fresh_dump(&root));
}

/// A file's references in id order: (id within the file's range, "kind name line").
fn file_refs(root: &Path, path: &str) -> Vec<(i64, String)> {
    let store = Store::open_read(&root.canonicalize().unwrap()).unwrap();
    let mut stmt = store
        .conn()
        .prepare("SELECT r.id - (r.file_id << 24), r.kind || ' ' || r.name || ' ' || r.line FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ?1 ORDER BY r.id")
        .unwrap();
    stmt.query_map([path], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect()
}

/// The dump and rows of a fresh index of a copy of the tree (the tree's own index stays).
fn fresh_copy(root: &Path) -> (String, String) {
    let copy = tempfile::tempdir().unwrap();
    for rel in crate::util::files_under(root).into_iter().filter(|r| !r.starts_with(".repochart/")) {
        let to = copy.path().join(&rel);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(root.join(&rel), to).unwrap();
    }
    run(copy.path());
    (dump(copy.path()), index_rows(copy.path()))
}

/// References added in one place go between the old rows, which keep their ids (a fresh
/// build leaves 15 free ids between two references); where the free ids run out, the
/// nearest rows after them are written again. Each insertion adds a call and a use of
/// `Math` after `requireLines(order);` (id 255), before the earlier insertions.
#[test]
fn an_edit_that_adds_references_keeps_the_rows_around_them() {
    let tmp = temp_copy("java-shop");
    let root = tmp.path();
    let rel = "src/main/java/com/acme/order/OrderService.java";
    run(root);
    let mut text = fs::read_to_string(root.join(rel)).unwrap();
    // The rows between `requireLines` (255) and `Order.Line` (271). Written again, the
    // new rows would go after the last old one kept, 16 apart.
    let rounds = [
        ("Math.abs(1);", "260 abs, 265 Math"),
        ("Math.max(1, 2);", "256 max, 258 Math, 260 abs, 265 Math"),
        // No room before 256: max and its Math (256, 258) are written again, after.
        ("Math.min(1, 2);", "256 min, 257 Math, 258 max, 259 Math, 260 abs, 265 Math"),
        // The five rows from 256 to 260 are written again, spread up to 265.
        ("Math.floorDiv(1, 2);", "256 floorDiv, 257 Math, 258 min, 260 Math, 261 max, 262 Math, 263 abs, 265 Math"),
        ("Math.sqrt(2.0);", "256 sqrt, 257 Math, 258 floorDiv, 259 Math, 260 min, 261 Math, 262 max, 263 Math, 264 abs, 265 Math"),
    ];
    for (call, between) in rounds {
        let before = file_refs(root, rel);
        text = text.replacen("        requireLines(order);\n", &format!("        requireLines(order);\n        {call}\n"), 1);
        fs::write(root.join(rel), &text).unwrap();
        assert_eq!(run(root).parsed, 1);
        let after = file_refs(root, rel);
        let window: Vec<String> = after
            .iter()
            .filter(|(id, _)| (256..271).contains(id))
            .map(|(id, row)| format!("{id} {}", row.split(' ').nth(1).unwrap()))
            .collect();
        assert_eq!(window.join(", "), between, "{call}");
        // Every row outside the window keeps its id and content, its line moved down one.
        let outside = |rows: &[(i64, String)], shift: i64| -> Vec<String> {
            rows.iter()
                .filter(|(id, _)| !(256..271).contains(id))
                .map(|(id, row)| {
                    let (head, line) = row.rsplit_once(' ').unwrap();
                    let line: i64 = line.parse().unwrap();
                    format!("{id} {head} {}", if line > 25 { line + shift } else { line })
                })
                .collect()
        };
        assert_eq!(outside(&after, 0), outside(&before, 1), "{call}");
        assert_eq!((dump(root), index_rows(root)), fresh_copy(root), "{call}");
    }
}

/// An update keeps an old reference row only when its other candidates are the same too: a
/// call that cannot tell its overloads apart (its argument's type is unknown) lists the one
/// added below it, as a fresh index does, though nothing else of its row changed.
#[test]
fn an_update_rewrites_a_reference_whose_candidates_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let calc = root.join("src/p/Calc.java");
    fs::create_dir_all(calc.parent().unwrap()).unwrap();
    let two = "package p;\n\npublic class Calc {\n    void add(int a) {}\n    void add(long a) {}\n    void use(Unknown u) { add(u.value()); }\n}\n";
    fs::write(&calc, two).unwrap();
    run(root);
    let before = dump(root);
    let call = |dump: &str| dump.lines().filter(|l| l.contains("Calc.java:6 calls add")).collect::<Vec<_>>().join("\n");
    assert_eq!(call(&before), "ref src/p/Calc.java:6 calls add from=p.Calc#use to=p.Calc#add(int) | p.Calc#add(long) (ambiguous)");
    fs::write(&calc, two.replace("add(u.value()); }\n", "add(u.value()); }\n    void add(short a) {}\n")).unwrap();
    assert_eq!(run(root).parsed, 1);
    let after = dump(root);
    assert_eq!(
        call(&after),
        "ref src/p/Calc.java:6 calls add from=p.Calc#use to=p.Calc#add(int) | p.Calc#add(long) | p.Calc#add(short) (ambiguous)"
    );
    assert_eq!(after, fresh_dump(root));
}
