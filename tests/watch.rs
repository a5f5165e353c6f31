//! Watch mode with a real file watcher on temp copies of the fixtures: after each edit an
//! editor or a tool would make, and after a few hundred random edits, the watched index
//! must equal a fresh full index of the same tree (whole store dumps are compared).

use std::fs;
use std::path::Path;
use std::time::Duration;

use repochart::index::{index, Options};
use repochart::store::Store;
use repochart::watch::{Watch, WatchOptions};

use crate::util::{files_under, index_rows, temp_copy};

const SETTLE: Duration = Duration::from_secs(20);

fn start(root: &Path) -> Watch {
    let opts = WatchOptions { watch: true, debounce: Duration::from_millis(20) };
    let watch = Watch::start(root, Options { threads: 2, ..Options::default() }, opts, Box::new(|_| {})).unwrap();
    assert!(watch.settle(SETTLE), "start-up reconcile did not finish");
    watch
}

fn dump(root: &Path) -> String {
    Store::open_read(&root.canonicalize().unwrap()).unwrap().dump().unwrap()
}

/// A fresh full index of a copy of the tree as it is now: its dump and its symbols' rows
/// (`index_rows`).
fn fresh_dump_of(root: &Path) -> (String, String) {
    let copy = tempfile::tempdir().unwrap();
    for rel in files_under(root).into_iter().filter(|r| !r.starts_with(".repochart/")) {
        let to = copy.path().join(&rel);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(root.join(&rel), to).unwrap();
    }
    index(copy.path(), &Options { threads: 2, ..Options::default() }, &|_, _| {}).unwrap();
    (dump(copy.path()), index_rows(copy.path()))
}

fn check(watch: &Watch, root: &Path, what: &str) {
    assert!(watch.settle(SETTLE), "{what}: the watcher did not settle");
    let watched = dump(root);
    let watched_rows = index_rows(root);
    let (fresh, fresh_rows) = fresh_dump_of(root);
    if watched != fresh {
        let diff: Vec<String> = fresh
            .lines()
            .filter(|l| !watched.contains(*l))
            .map(|l| format!("missing: {l}"))
            .chain(watched.lines().filter(|l| !fresh.contains(*l)).map(|l| format!("extra:   {l}")))
            .take(20)
            .collect();
        let files: Vec<String> = files_under(root).into_iter().filter(|f| f.contains("/R")).collect();
        let mut contents = String::new();
        for f in &files {
            contents.push_str(&format!("--- {f}\n{}", fs::read_to_string(root.join(f)).unwrap()));
        }
        panic!("{what}: watched index differs from a fresh one:\n{}\n{contents}", diff.join("\n"));
    }
    assert_eq!(watched_rows, fresh_rows, "{what}: the watched index's symbol rows differ from a fresh one's");
}

/// java-shop: a new class that extends an indexed one.
fn add_refund(pay: &Path) {
    fs::write(
        pay.join("Refund.java"),
        "package com.acme.pay;\n\npublic class Refund extends PaymentException {\n    public Refund() { super(\"r\"); }\n}\n",
    )
    .unwrap();
}

/// java-shop: an indexed interface gains a method that takes the new class.
fn use_refund_in_gateway(pay: &Path) {
    let gateway = fs::read_to_string(pay.join("PaymentGateway.java")).unwrap();
    fs::write(pay.join("PaymentGateway.java"), gateway.replace("default boolean", "void refund(Refund r);\n\n    default boolean"))
        .unwrap();
}

#[test]
fn watched_index_follows_editor_and_tool_operations() {
    let repo = temp_copy("java-shop");
    let root = repo.path();
    let pay = root.join("src/main/java/com/acme/pay");
    let watch = start(root);
    check(&watch, root, "start");
    // Settled means prepared for updates too: the indexes a first build leaves out exist.
    let store = Store::open_read(root).unwrap();
    let indexes: i64 =
        store.conn().query_row("SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'refs'", [], |r| r.get(0)).unwrap();
    assert_eq!(indexes, 12);
    drop(store);

    add_refund(&pay);
    check(&watch, root, "create a file");
    assert!(dump(root).contains("ref src/main/java/com/acme/pay/Refund.java:3 extends PaymentException from=com.acme.pay.Refund to=com.acme.pay.PaymentException (exact)"));

    use_refund_in_gateway(&pay);
    check(&watch, root, "edit in place");

    fs::rename(pay.join("Refund.java"), pay.join("Refund2.java")).unwrap();
    check(&watch, root, "rename a file");

    fs::remove_file(pay.join("Refund2.java")).unwrap();
    check(&watch, root, "delete a file");

    fs::rename(root.join("src/main/java/com/acme/legacy"), root.join("src/main/java/com/acme/old")).unwrap();
    check(&watch, root, "rename a directory");

    // Safe write: a temp file next to the target, then renamed over it (vim, IntelliJ, VS Code).
    let order = root.join("src/main/java/com/acme/order/Order.java");
    let text = fs::read_to_string(&order).unwrap().replace("public class Order {", "public class Order implements Comparable<Order> {");
    let text = text.replace("    /** One line", "    public int compareTo(Order o) { return 0; }\n\n    /** One line");
    fs::write(root.join("src/main/java/com/acme/order/.Order.java.swp"), &text).unwrap();
    fs::rename(root.join("src/main/java/com/acme/order/.Order.java.swp"), &order).unwrap();
    check(&watch, root, "write a temp file and rename it over");
    assert!(dump(root).contains("implements Comparable from=com.acme.order.Order to=ext:java.lang.Comparable"));

    fs::create_dir_all(root.join("src/main/java/com/acme/ship/rates")).unwrap();
    fs::write(
        root.join("src/main/java/com/acme/ship/rates/Rate.java"),
        "package com.acme.ship.rates;\n\nimport com.acme.common.Money;\n\npublic record Rate(Money price) {}\n",
    )
    .unwrap();
    check(&watch, root, "a new directory tree");

    // The ignore file changes: what is indexed is evaluated again.
    fs::write(root.join(".repochartignore"), "generated/\nsrc/main/java/com/acme/ship/\n").unwrap();
    check(&watch, root, "an ignore file changes");
    assert!(!dump(root).contains("com/acme/ship/"));

    // Many files at once (a checkout): one coalesced batch, same result.
    for i in 0..60 {
        fs::write(pay.join(format!("Gen{i}.java")), format!("package com.acme.pay;\n\nclass Gen{i} implements PaymentGateway {{\n    public String charge(String a, java.math.BigDecimal m) {{ return a; }}\n}}\n")).unwrap();
    }
    check(&watch, root, "sixty files at once");
    for i in 0..60 {
        fs::remove_file(pay.join(format!("Gen{i}.java"))).unwrap();
    }
    check(&watch, root, "sixty deletions at once");
}

#[test]
fn watched_rust_workspace_follows_module_moves() {
    let repo = temp_copy("rust-shop");
    let root = repo.path();
    let core = root.join("crates/shop-core/src");
    let watch = start(root);
    fs::create_dir_all(core.join("pay/gateway")).unwrap();
    fs::rename(core.join("pay/gateway.rs"), core.join("pay/gateway/mod.rs")).unwrap();
    check(&watch, root, "a name.rs module becomes name/mod.rs");
    let lib = fs::read_to_string(core.join("lib.rs")).unwrap();
    fs::write(
        core.join("lib.rs"),
        lib.replace("pub use pay::gateway::Gateway as PaymentGateway;", "pub use pay::gateway::Stripe as PaymentGateway;"),
    )
    .unwrap();
    check(&watch, root, "a re-export now names another item");
    fs::write(root.join("crates/shop-cli/Cargo.toml"), "[package]\nname = \"shop-app\"\nversion = \"0.1.0\"\n").unwrap();
    check(&watch, root, "a crate is renamed in Cargo.toml");
    assert!(dump(root).contains("function shop_app::main"));
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const PACKAGES: &[&str] = &["com/acme/pay", "com/acme/order", "com/acme/common", "com/acme/rand"];
const TYPES: &[&str] = &["PaymentGateway", "Money", "Order", "PaymentService", "Repository", "InventoryService"];

fn random_class(rng: &mut Rng, name: &str, package: &str) -> String {
    let mut text = format!("package {};\n\n", package.replace('/', "."));
    for _ in 0..rng.below(3) {
        let (p, t) = match rng.below(4) {
            0 => ("com.acme.pay", "PaymentGateway"),
            1 => ("com.acme.common", "Money"),
            2 => ("com.acme.order", "Order"),
            _ => ("com.acme.rand", "R0"),
        };
        text.push_str(&format!("import {p}.{t};\n"));
    }
    let parent = match rng.below(3) {
        0 => " implements PaymentGateway".to_string(),
        1 => format!(" extends R{}", rng.below(6)),
        _ => String::new(),
    };
    text.push_str(&format!("\npublic class {name}{parent} {{\n"));
    for m in 0..rng.below(4) {
        let t = TYPES[rng.below(TYPES.len())];
        let other = format!("R{}", rng.below(6));
        text.push_str(&format!("    {t} m{m}({other} x) {{ x.m{}(null); return null; }}\n", rng.below(3)));
    }
    text.push_str("}\n");
    text
}

#[test]
fn random_edits_keep_the_watched_index_equal_to_a_fresh_one() {
    let repo = temp_copy("java-shop");
    let root = repo.path();
    let base = root.join("src/main/java");
    let watch = start(root);
    // REPOCHART_TEST_SEED runs other sequences (for stress runs by hand).
    let seed = std::env::var("REPOCHART_TEST_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed_c0de_1234_5678);
    let mut rng = Rng(seed);
    let mut live: Vec<(String, String)> = Vec::new(); // (package dir, class name)
    let mut edits = 0;
    for round in 0..25 {
        for _ in 0..12 {
            edits += 1;
            match rng.below(6) {
                // Add a class (or rewrite one: new methods, imports, supertypes).
                0..=2 => {
                    let name = format!("R{}", rng.below(8));
                    let package = PACKAGES[rng.below(PACKAGES.len())].to_string();
                    let dir = base.join(&package);
                    fs::create_dir_all(&dir).unwrap();
                    fs::write(dir.join(format!("{name}.java")), random_class(&mut rng, &name, &package)).unwrap();
                    if !live.contains(&(package.clone(), name.clone())) {
                        live.push((package, name));
                    }
                }
                // Move a class to another package.
                3 if !live.is_empty() => {
                    let i = rng.below(live.len());
                    let (from, name) = live[i].clone();
                    let to = PACKAGES[rng.below(PACKAGES.len())].to_string();
                    if from != to && !live.contains(&(to.clone(), name.clone())) {
                        let text = fs::read_to_string(base.join(&from).join(format!("{name}.java"))).unwrap();
                        let text = text.replacen(
                            &format!("package {};", from.replace('/', ".")),
                            &format!("package {};", to.replace('/', ".")),
                            1,
                        );
                        fs::create_dir_all(base.join(&to)).unwrap();
                        fs::write(base.join(&to).join(format!("{name}.java")), text).unwrap();
                        fs::remove_file(base.join(&from).join(format!("{name}.java"))).unwrap();
                        live[i] = (to, name);
                    }
                }
                // Rename a class (file and declaration).
                4 if !live.is_empty() => {
                    let i = rng.below(live.len());
                    let (package, name) = live[i].clone();
                    let new = format!("R{}", rng.below(8));
                    if !live.contains(&(package.clone(), new.clone())) {
                        let text = fs::read_to_string(base.join(&package).join(format!("{name}.java"))).unwrap();
                        fs::write(
                            base.join(&package).join(format!("{new}.java")),
                            text.replace(&format!("class {name}"), &format!("class {new}")),
                        )
                        .unwrap();
                        fs::remove_file(base.join(&package).join(format!("{name}.java"))).unwrap();
                        live[i] = (package, new);
                    }
                }
                // Delete a class.
                _ if !live.is_empty() => {
                    let (package, name) = live.swap_remove(rng.below(live.len()));
                    fs::remove_file(base.join(&package).join(format!("{name}.java"))).unwrap();
                }
                _ => {}
            }
            if rng.below(3) == 0 {
                std::thread::sleep(Duration::from_millis(rng.below(40) as u64));
            }
        }
        check(&watch, root, &format!("round {round} ({edits} edits)"));
    }
    assert_eq!(edits, 300);
}

/// Read-your-writes: with the watcher off, `read_symbol`, `read_source` and
/// `file_outline` still see a file changed a moment ago, because they re-index it first.
#[test]
fn reads_reindex_a_changed_file_before_answering() {
    let repo = temp_copy("java-shop");
    let root = repo.path().canonicalize().unwrap();
    let opts = WatchOptions { watch: false, debounce: Duration::from_millis(20) };
    let watch = Watch::start(&root, Options::default(), opts, Box::new(|_| {})).unwrap();
    assert!(watch.settle(SETTLE));
    let atlas = repochart::tools::Atlas::with_indexer(&root, watch.status.clone(), watch.syncer());
    let user = root.join("src/main/java/com/acme/user/User.java");
    let text = fs::read_to_string(&user).unwrap();
    // Two lines inserted above `id()`: its lines move from 11-13 to 13-15.
    fs::write(&user, text.replace("    public String id() {", "    // moved\n    // down\n    public String id() {")).unwrap();
    let answer = atlas.call("read_symbol", serde_json::json!({"symbol": "com.acme.user.User#id"})).unwrap_err();
    assert!(answer.0.starts_with("\"com.acme.user.User#id\" is ambiguous"), "{}", answer.0);
    let answer = atlas.call("read_symbol", serde_json::json!({"symbol": "src/main/java/com/acme/user/User.java:13"})).unwrap();
    assert_eq!(
        answer,
        "src/main/java/com/acme/user/User.java:13-15 of 16 lines (method com.acme.user.User#id)\n```\n13|     public String id() {\n14|         return id;\n15|     }\n```"
    );
    fs::write(&user, text.replace("public class User {", "public class Customer {")).unwrap();
    let outline = atlas.call("file_outline", serde_json::json!({"path": "src/main/java/com/acme/user/User.java"})).unwrap();
    assert!(outline.contains("\nclass 4-14  public class Customer"), "{outline}");
}

#[test]
fn a_server_started_on_an_existing_index_follows_edits() {
    // The resolver's world is then loaded from the store while the server idles, not built
    // by the start-up reconcile: a save must resolve the same against it.
    for fixture in ["java-shop", "rust-shop"] {
        let repo = temp_copy(fixture);
        let root = repo.path();
        index(root, &Options { threads: 2, ..Options::default() }, &|_, _| {}).unwrap();
        let watch = start(root);
        if fixture == "java-shop" {
            let pay = root.join("src/main/java/com/acme/pay");
            add_refund(&pay);
            check(&watch, root, "java: create a file that extends an indexed type");
            assert!(dump(root).contains("to=com.acme.pay.PaymentException (exact)"));
            use_refund_in_gateway(&pay);
            check(&watch, root, "java: edit in place");
        } else {
            let lib = root.join("crates/shop-core/src/lib.rs");
            let text = fs::read_to_string(&lib).unwrap();
            fs::write(
                &lib,
                text.replace("pub use pay::gateway::Gateway as PaymentGateway;", "pub use pay::gateway::Stripe as PaymentGateway;"),
            )
            .unwrap();
            check(&watch, root, "rust: a re-export now names another item");
        }
    }
}

/// The frames the log (the WAL) holds and how many of them are in the database file: the
/// wal-index header's `mxFrame` and its checkpoint info's `nBackfill` (the `-shm` file, in
/// the machine's byte order).
fn log_frames(root: &Path) -> (u32, u32) {
    let shm = fs::read(root.join(".repochart/index.db-shm")).unwrap();
    let word = |at: usize| u32::from_ne_bytes(shm[at..at + 4].try_into().unwrap());
    (word(16), word(96))
}

#[test]
fn a_batch_leaves_the_log_copied_into_the_database() {
    // The next batch then reads pages from the database file, not from the log; a commit
    // no longer copies the log itself (SQLite did once it passed 1,000 pages: a batch of a
    // few hundred files of the JDK).
    let repo = temp_copy("java-shop");
    let root = repo.path();
    let watch = start(root);
    let pay = root.join("src/main/java/com/acme/pay");
    add_refund(&pay);
    check(&watch, root, "a new file");
    let (frames, copied) = log_frames(root);
    assert!(frames > 0, "the batch wrote to the log");
    assert_eq!(copied, frames, "every frame of the log is in the database");
}
