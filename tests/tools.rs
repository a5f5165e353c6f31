//! Snapshots of every tool's answer on both fixtures, error answers included. Dates in
//! answers (file modification, index time) are replaced by `<date>`, so the snapshots do
//! not age. Every answer is also checked against its budget.

use expect_test::expect_file;
use repochart::index::{index, Options};
use repochart::tools::{Atlas, READ_BUDGET, SUMMARY_BUDGET};
use serde_json::{json, Value};

use crate::util::temp_copy;

/// Replaces `YYYY-MM-DD[ HH:MM UTC]` with `<date>`.
pub fn scrub_dates(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let is_date =
        |s: &[u8]| s.len() >= 10 && s[..10].iter().enumerate().all(|(k, c)| if k == 4 || k == 7 { *c == b'-' } else { c.is_ascii_digit() });
    while i < bytes.len() {
        if is_date(&bytes[i..]) {
            out.push_str("<date>");
            i += 10;
            let rest = &text[i..];
            if rest.len() >= 10
                && rest.as_bytes()[0] == b' '
                && rest[1..6].chars().all(|c| c.is_ascii_digit() || c == ':')
                && rest[6..].starts_with(" UTC")
            {
                i += 10;
            }
        } else {
            let c = text[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

fn run_calls(fixture: &str, calls: &[(&str, Value)]) -> String {
    let tmp = temp_copy(fixture);
    index(tmp.path(), &Options { threads: 2, ..Options::default() }, &|_, _| {}).unwrap();
    let atlas = Atlas::new(&tmp.path().canonicalize().unwrap());
    let mut out = String::new();
    for (tool, args) in calls {
        let answer = atlas.call(tool, args.clone());
        let text = match &answer {
            Ok(t) => t.clone(),
            Err(e) => format!("ERROR: {}", e.0),
        };
        let budget = if tool.starts_with("read_") { READ_BUDGET } else { SUMMARY_BUDGET };
        assert!(text.len() <= budget, "{tool} {args}: {} bytes over budget {budget}", text.len());
        out.push_str(&format!("### {tool} {args}\n{}\n\n", scrub_dates(&text)));
    }
    out
}

#[test]
fn java_shop_tool_answers() {
    let calls = vec![
        ("repo_overview", json!({})),
        ("repo_overview", json!({"path": "src/main/java/com/acme/pay", "limit": 3})),
        ("dependency_graph", json!({"target": "OrderService"})),
        ("dependency_graph", json!({"target": "com.acme.order", "level": "module", "direction": "out"})),
        ("dependency_graph", json!({"target": "src/main/java/com/acme/order/Order.java", "level": "file", "direction": "in", "depth": 2})),
        ("dependency_path", json!({"from": "com.acme.Application", "to": "com.acme.pay.PaymentGateway"})),
        ("dependency_path", json!({"from": "PaymentGateway", "to": "com.acme.Application"})),
        ("change_impact", json!({"target": "com.acme.pay.StripeGateway"})),
        ("change_impact", json!({"target": "com.acme.common", "level": "module"})),
        // Without `level`, a file path is the file level and a package the module level; a
        // class beside a file stands for its file, a file beside a package for its package.
        ("change_impact", json!({"target": "src/main/java/com/acme/pay/PaymentService.java", "depth": 1})),
        ("dependency_path", json!({"from": "src/main/java/com/acme/order/OrderService.java", "to": "com.acme.pay.PaymentService"})),
        ("dependency_path", json!({"from": "com.acme.order", "to": "src/main/java/com/acme/pay/PaymentService.java"})),
        ("search_symbols", json!({"query": "paymnt"})),
        ("search_symbols", json!({"query": "gateway", "kind": "class", "limit": 2})),
        ("search_symbols", json!({"query": "gateway", "kind": "class", "limit": 2, "offset": 2})),
        ("search_symbols", json!({"query": "audit log"})),
        ("search_symbols", json!({"query": "' OR 1=1--"})),
        ("search_symbols", json!({"query": "%"})),
        ("get_symbol", json!({"symbol": "com.acme.pay.AbstractGateway"})),
        ("get_symbol", json!({"symbol": "src/main/java/com/acme/order/OrderService.java:25"})),
        ("get_symbol", json!({"symbol": "java.util.List"})),
        ("find_implementations", json!({"symbol": "com.acme.pay.PaymentGateway"})),
        ("find_implementations", json!({"symbol": "com.acme.pay.PaymentGateway", "transitive": true})),
        ("find_implementations", json!({"symbol": "com.acme.pay.PaymentGateway#charge"})),
        ("find_references", json!({"symbol": "com.acme.pay.PaymentService"})),
        ("find_references", json!({"symbol": "com.acme.pay.PaymentService", "limit": 2, "offset": 2})),
        ("find_references", json!({"symbol": "Order.total", "kind": "call"})),
        ("find_references", json!({"symbol": "com.acme.order.OrderService#payments", "kind": "field"})),
        ("find_references", json!({"symbol": "com.acme.user.User#id"})),
        ("find_references", json!({"symbol": "src/main/java/com/acme/user/User.java:11"})),
        ("file_outline", json!({"path": "src/main/java/com/acme/pay/PaymentService.java"})),
        ("read_source", json!({"path": "./src/main/java/com/acme/Application.java", "start_line": 1, "end_line": 4})),
        ("read_symbol", json!({"symbol": "com.acme.pay.PaymentService#pay", "context_lines": 1})),
        ("search_text", json!({"query": "gateway", "path": "src/main/java/com/acme/pay/Pay", "limit": 3})),
        ("search_text", json!({"query": "charge\\(", "regex": true, "case_sensitive": true})),
        // Errors the model can act on.
        ("no_such_tool", json!({})),
        ("get_symbol", json!({"symbol": "PaymentGatway"})),
        ("get_symbol", json!({"symbol": "User"})),
        ("get_symbol", json!({"symbol": "x", "extra": 1})),
        ("get_symbol", json!({})),
        ("read_source", json!({"path": "src/main/java/com/acme/Application.java", "start_line": 10, "end_line": 5})),
        ("read_source", json!({"path": "src/main/java/com/acme/Application.java", "start_line": 99, "end_line": 100})),
        ("read_source", json!({"path": "../../etc/passwd", "start_line": 1, "end_line": 5})),
        ("read_source", json!({"path": "/etc/passwd", "start_line": 1, "end_line": 5})),
        ("read_source", json!({"path": ".repochart/index.db", "start_line": 1, "end_line": 5})),
        ("read_source", json!({"path": "Application.java", "start_line": 1, "end_line": 5})),
        ("search_text", json!({"query": "(", "regex": true})),
        ("dependency_graph", json!({"target": "OrderService", "depth": 9})),
        ("dependency_graph", json!({"target": "OrderService", "depth": -1})),
        ("search_symbols", json!({"query": "x", "kind": "klass"})),
    ];
    expect_file!["snapshots/java-shop.tools.txt"].assert_eq(&run_calls("java-shop", &calls));
}

#[test]
fn rust_shop_tool_answers() {
    let calls = vec![
        ("repo_overview", json!({})),
        ("dependency_graph", json!({"target": "shop_core::order::OrderService", "depth": 2, "limit": 50})),
        ("dependency_path", json!({"from": "shop_cli::main", "to": "shop_core::pay::gateway::Gateway"})),
        ("change_impact", json!({"target": "shop_core::pay::gateway::Stripe"})),
        ("change_impact", json!({"target": "shop_core::inventory::store", "level": "module"})),
        ("search_symbols", json!({"query": "store"})),
        ("get_symbol", json!({"symbol": "shop_core::pay::gateway::Gateway"})),
        ("get_symbol", json!({"symbol": "pay::PaymentService"})),
        ("find_implementations", json!({"symbol": "Gateway"})),
        ("find_implementations", json!({"symbol": "shop_core::inventory::store::Store::count"})),
        ("find_references", json!({"symbol": "shop_core::pay::gateway::Gateway"})),
        ("find_references", json!({"symbol": "shop_core::order::Order::total", "kind": "field"})),
        ("find_references", json!({"symbol": "shop_core::pay::gateway::Gateway::charge", "kind": "call"})),
        ("file_outline", json!({"path": "crates/shop-core/src/pay/gateway.rs"})),
        ("read_symbol", json!({"symbol": "shop_core::inventory::Inventory::reserve"})),
        ("search_text", json!({"query": "impl .* for", "regex": true})),
        ("get_symbol", json!({"symbol": "PaymentGateway"})),
    ];
    expect_file!["snapshots/rust-shop.tools.txt"].assert_eq(&run_calls("rust-shop", &calls));
}

#[test]
fn long_reads_are_cut_with_a_continuation() {
    let tmp = tempfile::tempdir().unwrap();
    let mut body = String::from("pub fn long() {\n");
    for i in 0..1000 {
        body.push_str(&format!("    let v{i} = {i};\n"));
    }
    body.push_str("}\n");
    std::fs::create_dir_all(tmp.path().join("src")).unwrap();
    std::fs::write(tmp.path().join("src/lib.rs"), body).unwrap();
    index(tmp.path(), &Options::default(), &|_, _| {}).unwrap();
    let atlas = Atlas::new(&tmp.path().canonicalize().unwrap());
    let text = atlas.call("read_symbol", json!({"symbol": "long"})).unwrap();
    assert!(text.starts_with("src/lib.rs:1-1002 of 1002 lines (function crate::long)\n```\n   1| pub fn long() {\n"), "{}", &text[..200]);
    assert!(text.ends_with("```\ncut at line 400 (budget 400 lines / 16000 bytes); next: read_source {\"path\": \"src/lib.rs\", \"start_line\": 401, \"end_line\": 1002}"), "{}", &text[text.len() - 300..]);
    assert!(text.len() <= READ_BUDGET);
}

/// Pages of `find_references`, read with every `limit` and followed by `offset`, add up to
/// the whole list in the same order (pages start and end inside a file's group too).
#[test]
fn reference_pages_add_up_to_the_whole_list() {
    let tmp = temp_copy("java-shop");
    index(tmp.path(), &Options { threads: 2, ..Options::default() }, &|_, _| {}).unwrap();
    let atlas = Atlas::new(tmp.path());
    let rows = |text: &str| -> Vec<String> {
        let mut file = String::new();
        let mut out = Vec::new();
        for line in text.lines().skip(1) {
            if line.starts_with("... ") {
                break;
            }
            // A row counted `xN` stands for N references.
            match line.strip_prefix("  ") {
                Some(row) => match row.split_once("  in ").and_then(|(head, rest)| Some((head.rsplit_once(" x")?, rest))) {
                    Some(((head, n), rest)) => out.extend(std::iter::repeat_n(format!("{file}:{head}  in {rest}"), n.parse().unwrap())),
                    None => out.push(format!("{file}:{row}")),
                },
                None => file = line.to_string(),
            }
        }
        out
    };
    let text = atlas.call("find_references", json!({"symbol": "com.acme.common.Money"})).unwrap();
    assert!(text.contains("\n  9 uses_type x2  in "), "{text}");
    let whole = rows(&text);
    assert_eq!(whole.len(), 12);
    for limit in 1..=12 {
        let mut paged = Vec::new();
        // The pages the answers lead to: a page ends after a whole row (`x2` is not split),
        // so its "next page" offset may pass `offset + limit`.
        let mut offset = 0;
        loop {
            let page = atlas.call("find_references", json!({"symbol": "com.acme.common.Money", "limit": limit, "offset": offset})).unwrap();
            paged.extend(rows(&page));
            match page.split("next page: offset=").nth(1) {
                Some(next) => offset = next.trim().parse().unwrap(),
                None => break,
            }
        }
        assert_eq!(paged, whole, "limit {limit}");
    }
    let past = atlas.call("find_references", json!({"symbol": "com.acme.common.Money", "offset": 40})).unwrap();
    assert_eq!(rows(&past), Vec::<String>::new());
    // A kind filter: the total counts only that kind and the rows are that kind's; the
    // counts by kind in the header stay those of every kind.
    let mut by_kind = Vec::new();
    for kind in ["type", "import"] {
        let text = atlas.call("find_references", json!({"symbol": "com.acme.common.Money", "kind": kind})).unwrap();
        let listed = rows(&text);
        let header = text.lines().next().unwrap().to_string();
        assert!(header.starts_with(&format!("{} references to record com.acme.common.Money (", listed.len())), "{text}");
        assert!(header.ends_with("(accesses 1, imports 2, instantiates 2, uses_type 7)"), "{text}");
        by_kind.extend(listed);
    }
    by_kind.sort();
    let mut all = whole.clone();
    all.sort();
    assert_eq!(by_kind, all);
}

#[test]
fn blanket_and_foreign_impls_are_listed_by_place() {
    let out = run_calls(
        "rust-blanket-impls",
        &[
            ("find_implementations", json!({"symbol": "bl::Describe"})),
            ("find_implementations", json!({"symbol": "Named", "transitive": true})),
            ("change_impact", json!({"target": "bl::Named::name"})),
            ("change_impact", json!({"target": "bl::Dog::name"})),
        ],
    );
    expect_test::expect![[r####"
        ### find_implementations {"symbol":"bl::Describe"}
        1 implementation of trait bl::Describe
        impls for a type parameter or a type outside the repository:
          blanket impl for T  src/lib.rs:9

        ### find_implementations {"symbol":"Named","transitive":true}
        2 implementations of trait bl::Named (transitive)
        bl  src/
          struct Dog  lib.rs:15  (implements)
        impls for a type parameter or a type outside the repository:
          impl for Vec  src/lib.rs:23

        ### change_impact {"target":"bl::Named::name"}
        change_impact method bl::Named::name  src/lib.rs:6  loc 1 cx 1 modified <date>
        affected: 3 (ring 1: 3); tests: 0
        ring 1:
          bl  src/
            method <T as Describe>::describe  calls 1  lib.rs:10-12  loc 3 cx 2
            method Dog::name  lib.rs:18-20  loc 3 cx 1  overrides method bl::Named::name (changes with its signature)
            method Vec::name  lib.rs:24-26  loc 3 cx 1  overrides method bl::Named::name (changes with its signature)

        ### change_impact {"target":"bl::Dog::name"}
        change_impact method bl::Dog::name  src/lib.rs:18-20  loc 3 cx 1 modified <date>
        affected: 1 (ring 1: 1); tests: 0
        ring 1:
          bl  src/
            method <T as Describe>::describe  calls 1  lib.rs:10-12  loc 3 cx 2  via method bl::Named::name

    "####]]
    .assert_eq(&out);
}

#[test]
fn calls_inside_macros_resolve_like_code() {
    let out = run_calls(
        "rust-macro-calls",
        &[
            ("find_references", json!({"symbol": "mac::helper"})),
            ("find_references", json!({"symbol": "mac::total"})),
            ("find_references", json!({"symbol": "mac::Counter::bump"})),
            // The closure parameters' types are type uses; a macro of another module of the
            // crate (`#[macro_use] mod macros;`) is found, inside another macro's tokens too.
            ("find_references", json!({"symbol": "mac::Counter", "kind": "type"})),
            ("find_references", json!({"symbol": "shout"})),
        ],
    );
    expect_test::expect![[r####"
        ### find_references {"symbol":"mac::helper"}
        4 references to function mac::helper (calls 4)
        src/lib.rs
          14 calls  in mac::report
          15 calls  in mac::report
          35 calls  in mac::counted
        src/loud.rs
          2 calls  in mac::loud::loud

        ### find_references {"symbol":"mac::total"}
        1 reference to function mac::total (calls 1)
        src/lib.rs
          14 calls  in mac::report

        ### find_references {"symbol":"mac::Counter::bump"}
        2 references to method mac::Counter::bump (calls 2)
        src/lib.rs
          35 calls x2  in mac::counted

        ### find_references {"symbol":"mac::Counter","kind":"type"}
        2 references to struct mac::Counter (uses_type 2)
        src/lib.rs
          35 uses_type x2  in mac::counted

        ### find_references {"symbol":"shout"}
        2 references to macro mac::macros::shout (expands 2)
        src/lib.rs
          35 expands  in mac::counted
        src/loud.rs
          2 expands  in mac::loud::loud

    "####]]
    .assert_eq(&out);
}

/// A server's Atlas keeps the graph's rows across index generations and reads again only
/// the files whose references changed, and refreshes its caches after each batch: after
/// edits, its answers must be those of a new Atlas that reads everything.
#[test]
fn a_long_lived_atlas_graph_follows_edits() {
    let tmp = temp_copy("java-shop");
    let root = tmp.path().canonicalize().unwrap();
    let opts = Options { threads: 2, ..Options::default() };
    index(&root, &opts, &|_, _| {}).unwrap();
    let calls = [
        ("repo_overview", json!({})),
        ("dependency_graph", json!({"target": "com.acme.pay.PaymentService", "depth": 2, "limit": 50})),
        ("dependency_graph", json!({"target": "src/main/java/com/acme/order/OrderService.java", "level": "file"})),
        ("dependency_graph", json!({"target": "com.acme.pay", "level": "module"})),
        ("change_impact", json!({"target": "com.acme.common.Money", "depth": 3})),
        ("dependency_path", json!({"from": "com.acme.Application", "to": "com.acme.common.Money"})),
        ("search_symbols", json!({"query": "refunds"})),
        // What change impact's member index (override pairs) and sentence search's `uses`
        // field are made of is kept by file too.
        ("change_impact", json!({"target": "com.acme.pay.PaymentGateway#charge", "depth": 2})),
        ("search_symbols", json!({"query": "where is the gateway asked to charge an account"})),
    ];
    let answers = |atlas: &Atlas| -> Vec<String> {
        calls.iter().map(|(tool, args)| atlas.call(tool, args.clone()).unwrap_or_else(|e| format!("ERROR: {}", e.0))).collect()
    };
    let kept = Atlas::new(&root);
    let before = answers(&kept);
    // A new class that depends on payments, one dependency less in the order service, a
    // file gone, and a class that takes `Map` over `java.util.*` in an unchanged file
    // (PaymentService's references are resolved again, not parsed again).
    let pay = root.join("src/main/java/com/acme/pay");
    std::fs::write(pay.join("Map.java"), "package com.acme.pay;\n\npublic class Map<K, V> {}\n").unwrap();
    std::fs::write(
        pay.join("Refunds.java"),
        "package com.acme.pay;\n\npublic class Refunds {\n    private PaymentService payments;\n    Money total() { return null; }\n}\n",
    )
    .unwrap();
    std::fs::write(
        pay.join("AdyenGateway.java"),
        "package com.acme.pay;\n\nimport java.math.BigDecimal;\n\npublic class AdyenGateway implements PaymentGateway {\n    public String charge(String account, BigDecimal amount) { return account; }\n}\n",
    )
    .unwrap();
    // A test among the main sources: its own mark makes it one.
    std::fs::write(
        pay.join("GatewayCheck.java"),
        "package com.acme.pay;\n\nclass GatewayCheck {\n    @Test\n    void charges() { new PaypalGateway().charge(\"a\", null); }\n}\n",
    )
    .unwrap();
    let order = root.join("src/main/java/com/acme/order/OrderService.java");
    let text = std::fs::read_to_string(&order).unwrap();
    std::fs::write(&order, text.replace("private final InventoryService inventory;", "private final Object inventory;")).unwrap();
    std::fs::remove_file(root.join("src/main/java/com/acme/legacy/User.java")).unwrap();
    let summary = index(&root, &opts, &|_, _| {}).unwrap();
    assert_eq!((summary.parsed, summary.removed), (5, 1));
    // What the server's refresh thread does after a batch.
    assert_eq!(kept.stale_graphs().unwrap(), ["file", "module", "symbol"]);
    kept.refresh_caches();
    assert!(kept.stale_graphs().unwrap().is_empty());
    // And after its start-up reconcile: the symbol graph is built before any call.
    let fresh = Atlas::new(&root);
    fresh.refresh_caches();
    assert_eq!(fresh.built_graphs(), ["symbol"]);
    let after = answers(&kept);
    assert_ne!(after, before);
    // Rows name a type relative to its package heading.
    assert!(after[1].contains("\n    class Refunds  uses_type 1  Refunds.java:3-6"), "{}", after[1]);
    // A type that holds only data is a row of the data types, by its qualified name.
    assert!(
        !before[1].contains("com.acme.pay.Map")
            && after[1].contains("\n    com.acme.pay.Map  uses_type 1  src/main/java/com/acme/pay/Map.java:3\n"),
        "{}",
        after[1]
    );
    assert!(!before[6].contains("com.acme.pay.Refunds") && after[6].contains("class com.acme.pay.Refunds"), "{}", after[6]);
    // A new implementation overrides the interface's method, and uses the interface.
    let adyen = "method AdyenGateway#charge(String,BigDecimal)  AdyenGateway.java:6  loc 1 cx 1  overrides method com.acme.pay.PaymentGateway#charge(String,BigDecimal)";
    assert!(!before[7].contains("AdyenGateway") && after[7].contains(adyen), "{}", after[7]);
    // A test marked in a main source file is a test, and one in a test folder still is.
    assert!(after[7].contains("method GatewayCheck#charges()  calls 1  GatewayCheck.java:4-5  loc 2 cx 1  [test]\n"), "{}", after[7]);
    assert!(
        after[7].contains("method OrderServiceTest#placesAnOrder()  calls 1  OrderServiceTest.java:7-10  loc 4 cx 1  [test]"),
        "{}",
        after[7]
    );
    let adyen = "class com.acme.pay.AdyenGateway  src/main/java/com/acme/pay/AdyenGateway.java:5-7  [name: gateway; uses: gateway]";
    assert!(!before[8].contains("AdyenGateway") && after[8].contains(adyen), "{}", after[8]);
    assert_eq!(after, answers(&Atlas::new(&root)));
}

#[test]
fn a_long_lived_atlas_graph_follows_impl_members_to_a_new_type() {
    // An impl of a type that is not in the repository yet: its method stands for itself.
    let tmp = temp_copy("rust-shop");
    let root = tmp.path().canonicalize().unwrap();
    let src = root.join("crates/shop-core/src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    std::fs::write(src.join("lib.rs"), lib.replace("pub mod order;", "pub mod audit;\npub mod order;")).unwrap();
    std::fs::write(
        src.join("audit.rs"),
        "use crate::order::Audit;\n\nimpl Audit {\n    pub fn record(&self) -> crate::Cents {\n        0\n    }\n}\n",
    )
    .unwrap();
    let opts = Options { threads: 2, ..Options::default() };
    index(&root, &opts, &|_, _| {}).unwrap();
    let calls = [("dependency_graph", json!({"target": "shop_core::order::Audit", "depth": 1})), ("repo_overview", json!({}))];
    let answers = |atlas: &Atlas| -> Vec<String> {
        calls.iter().map(|(tool, args)| atlas.call(tool, args.clone()).unwrap_or_else(|e| format!("ERROR: {}", e.0))).collect()
    };
    let kept = Atlas::new(&root);
    let before = answers(&kept);
    // The type appears in another file: `audit.rs` is not parsed again, but its method now
    // belongs to the type, and so does the method's use of `Cents`.
    let order = std::fs::read_to_string(src.join("order.rs")).unwrap();
    std::fs::write(src.join("order.rs"), format!("{order}\npub struct Audit;\n")).unwrap();
    let summary = index(&root, &opts, &|_, _| {}).unwrap();
    assert_eq!(summary.parsed, 1);
    kept.refresh_caches();
    let after = answers(&kept);
    assert!(before[0].starts_with("ERROR"), "{}", before[0]);
    assert!(after[0].contains("\n  shop_core  crates/shop-core/src/\n    type_alias Cents  uses_type 1  lib.rs:12"), "{}", after[0]);
    assert_eq!(after, answers(&Atlas::new(&root)));
}

#[test]
fn a_long_lived_atlas_decides_again_the_overrides_of_subtypes_in_unchanged_files() {
    // The override pairs are kept by type across index runs: a file's change decides again
    // the types it touches and their subtypes, wherever those are.
    let tmp = temp_copy("java-dispatch");
    let root = tmp.path().canonicalize().unwrap();
    let opts = Options { threads: 2, ..Options::default() };
    index(&root, &opts, &|_, _| {}).unwrap();
    let calls = [
        ("change_impact", json!({"target": "shop.OrderService#create(String)"})),
        ("find_implementations", json!({"symbol": "shop.OrderService#create(String)"})),
    ];
    let answers = |atlas: &Atlas| -> Vec<String> { calls.iter().map(|(tool, args)| atlas.call(tool, args.clone()).unwrap()).collect() };
    let kept = Atlas::new(&root);
    let before = answers(&kept);
    let fast = "method FastOrders#create(String)  FastOrders.java:4-6  loc 3 cx 1  overrides method shop.OrderService#create(String) (changes with its signature)";
    let own = "method OrderServiceImpl#create(String)  OrderServiceImpl.java:6-9  loc 4 cx 1  overrides method shop.OrderService#create(String) (changes with its signature)";
    assert!(before[0].contains(own) && !before[0].contains("FastOrders"), "{}", before[0]);

    // A subclass of the implementation, in a new file.
    let src = root.join("src/shop");
    std::fs::write(
        src.join("FastOrders.java"),
        "package shop;\n\npublic class FastOrders extends OrderServiceImpl {\n    public Order create(String sku) {\n        return new Order();\n    }\n}\n",
    )
    .unwrap();
    assert_eq!(index(&root, &opts, &|_, _| {}).unwrap().parsed, 1);
    kept.refresh_caches();
    let after = answers(&kept);
    assert!(after[0].contains(fast) && after[0].contains(own), "{}", after[0]);
    assert_eq!(after, answers(&Atlas::new(&root)));

    // The implementation no longer implements the interface: neither its method nor the
    // subclass's (whose file did not change) overrides the interface's.
    let implementation = std::fs::read_to_string(src.join("OrderServiceImpl.java")).unwrap();
    std::fs::write(src.join("OrderServiceImpl.java"), implementation.replace(" implements OrderService", "")).unwrap();
    assert_eq!(index(&root, &opts, &|_, _| {}).unwrap().parsed, 1);
    kept.refresh_caches();
    let last = answers(&kept);
    assert!(!last[0].contains("overrides") && !last[1].contains("FastOrders"), "{}\n{}", last[0], last[1]);
    assert_eq!(last, answers(&Atlas::new(&root)));
}

#[test]
fn method_queries_follow_calls_through_interfaces() {
    let out = run_calls(
        "java-dispatch",
        &[
            ("find_references", json!({"symbol": "shop.OrderServiceImpl#create"})),
            ("find_references", json!({"symbol": "shop.OrderService#create"})),
            ("find_references", json!({"symbol": "shop.Reporter#info"})),
            ("change_impact", json!({"target": "shop.OrderServiceImpl#create"})),
            ("change_impact", json!({"target": "shop.OrderServiceImpl#cancel(long)"})),
            ("dependency_path", json!({"from": "shop.OrderController", "to": "shop.OrderMapper"})),
        ],
    );
    expect_test::expect![[r####"
        ### find_references {"symbol":"shop.OrderServiceImpl#create"}
        2 references to method shop.OrderServiceImpl#create(String) (calls 2)
        src/shop/OrderController.java
          11 calls  in shop.OrderController#post  via shop.OrderService#create(String)
        src/shop/OrderServiceImpl.java
          16 calls  in shop.OrderServiceImpl#audit

        ### find_references {"symbol":"shop.OrderService#create"}
        1 reference to method shop.OrderService#create(String) (calls 1)
        calls may reach 1 implementation: find_implementations {"symbol": "shop.OrderService#create(String)"}
        src/shop/OrderController.java
          11 calls  in shop.OrderController#post

        ### find_references {"symbol":"shop.Reporter#info"}
        no references to method shop.Reporter#info(String) (kind=all); all kinds: 0

        ### change_impact {"target":"shop.OrderServiceImpl#create"}
        change_impact method shop.OrderServiceImpl#create(String)  src/shop/OrderServiceImpl.java:6-9  loc 4 cx 1 modified <date>
        affected: 2 (ring 1: 2); tests: 0
        ring 1:
          shop  src/shop/
            method OrderController#post(String)  calls 1  OrderController.java:9-12  loc 4 cx 1  via method shop.OrderService#create(String)
            method OrderServiceImpl#audit()  calls 1  OrderServiceImpl.java:15-17  loc 3 cx 1

        ### change_impact {"target":"shop.OrderServiceImpl#cancel(long)"}
        change_impact method shop.OrderServiceImpl#cancel(long)  src/shop/OrderServiceImpl.java:11-13  loc 3 cx 1 modified <date>
        affected: 1 (ring 1: 1); tests: 0
        ring 1:
          shop  src/shop/
            method OrderController#delete(long)  calls 1  OrderController.java:14-16  loc 3 cx 1  via method shop.OrderService#cancel(long)

        ### dependency_path {"from":"shop.OrderController","to":"shop.OrderMapper"}
        class shop.OrderController -> class shop.OrderMapper: 3 hops (level=symbol)
          class shop.OrderController -[uses_type]-> interface shop.OrderService  at src/shop/OrderController.java:6
          interface shop.OrderService =[dispatch]=> class shop.OrderServiceImpl  (implements at src/shop/OrderServiceImpl.java:3)
          class shop.OrderServiceImpl -[uses_type]-> class shop.OrderMapper  at src/shop/OrderServiceImpl.java:4

    "####]]
    .assert_eq(&out);
}

#[test]
fn graph_answers_say_how_many_guesses_they_left_out() {
    let out = run_calls(
        "rust-facade",
        &[
            ("dependency_graph", json!({"target": "app::first_of_pair", "direction": "out", "limit": 3})),
            ("change_impact", json!({"target": "engine_core::search::Match::describe", "depth": 1})),
            ("find_references", json!({"symbol": "engine_core::search::Match::describe"})),
            // Reached through the facade's `pub extern crate engine_core as engine;`.
            ("find_references", json!({"symbol": "engine_core::search::Searcher::count"})),
        ],
    );
    expect_test::expect![[r####"
        ### dependency_graph {"target":"app::first_of_pair","direction":"out","limit":3}
        function app::first_of_pair  crates/app/src/main.rs:52-55  loc 4 cx 2 modified <date>
        out: 2 dependencies, in: 0 dependents (ring 1); name-only guesses left out: out 1, in 0 (find_references lists them)
        dependencies:
          engine_core::search  crates/engine-core/src/
            struct Searcher  uses_type 1, calls 1  search.rs:11-13  loc 3 cx 3
          outside the repository
            std::string::String  uses_type 1

        ### change_impact {"target":"engine_core::search::Match::describe","depth":1}
        change_impact method engine_core::search::Match::describe  crates/engine-core/src/search.rs:6-8  loc 3 cx 1 modified <date>  depth=1
        affected: 1 (ring 1: 1); tests: 0; 1 name-only guess left out (find_references lists it)
        ring 1:
          app  crates/app/src/
            function run  calls 3  main.rs:10-28  loc 19 cx 5

        ### find_references {"symbol":"engine_core::search::Match::describe"}
        4 references to method engine_core::search::Match::describe (calls 4)
        crates/app/src/main.rs
          17 calls  in app::run
          19 calls  in app::run
          25 calls  in app::run
          54 calls  in app::first_of_pair  [guess: name match only]

        ### find_references {"symbol":"engine_core::search::Searcher::count"}
        5 references to method engine_core::search::Searcher::count (calls 5)
        crates/app/src/main.rs
          15 calls  in app::run
          22 calls  in app::run
          31 calls  in app::found_len
          42 calls  in app::through_extern_crate
        crates/engine-core/src/search.rs
          59 calls  in engine_core::search::Searcher::tally

    "####]]
    .assert_eq(&out);
}

#[test]
fn overloads_are_one_answer_grouped_by_signature() {
    let out = run_calls(
        "java-overloads",
        &[
            ("get_symbol", json!({"symbol": "p.Customer#getAccount"})),
            ("find_references", json!({"symbol": "p.Customer#getAccount"})),
            ("get_symbol", json!({"symbol": "p.Customer#getAccount(java.lang.Integer)"})),
            ("find_references", json!({"symbol": "p.Customer#put(long, java.lang.String)", "limit": 1})),
            ("read_symbol", json!({"symbol": "p.Customer#tag"})),
            ("get_symbol", json!({"symbol": "p.Customer#tag(java.lang.String...)"})),
        ],
    );
    expect_test::expect![[r####"
        ### get_symbol {"symbol":"p.Customer#getAccount"}
        method p.Customer#getAccount: 2 overloads
          p.Customer#getAccount(String)  src/p/Customer.java:4-6  public Account getAccount(String key)
          p.Customer#getAccount(Integer)  src/p/Customer.java:8-10  public Account getAccount(Integer id)
        next: get_symbol {"symbol": "p.Customer#getAccount(String)"} for one

        ### find_references {"symbol":"p.Customer#getAccount"}
        3 references to 2 overloads of method p.Customer#getAccount (calls 3)
        p.Customer#getAccount(String): 1 reference
          src/p/Calls.java
            14 calls  in p.Calls#run
        p.Customer#getAccount(Integer): 2 references
          src/p/Calls.java
            13 calls  in p.Calls#run
            25 calls  in p.Calls#run

        ### get_symbol {"symbol":"p.Customer#getAccount(java.lang.Integer)"}
        method p.Customer#getAccount(Integer)
          at src/p/Customer.java:8-10
          signature: public Account getAccount(Integer id)
          visibility: public  modifiers: public
          parent: class p.Customer
          references: calls 2  implementations: 0
        next: read_symbol {"symbol": "src/p/Customer.java:8"}

        ### find_references {"symbol":"p.Customer#put(long, java.lang.String)","limit":1}
        1 reference to method p.Customer#put(long,String) (calls 1)
        src/p/Calls.java
          15 calls  in p.Calls#run

        ### read_symbol {"symbol":"p.Customer#tag"}
        ERROR: "p.Customer#tag" names 2 overloads; pass one handle:
          method p.Customer#tag(String...)  src/p/Customer.java:18-19
          method p.Customer#tag(String,int)  src/p/Customer.java:21-22

        ### get_symbol {"symbol":"p.Customer#tag(java.lang.String...)"}
        method p.Customer#tag(String...)
          at src/p/Customer.java:18-19
          signature: public void tag(String... tags)
          visibility: public  modifiers: public
          parent: class p.Customer
          references: calls 2  implementations: 0
        next: read_symbol {"symbol": "src/p/Customer.java:18"}

    "####]]
    .assert_eq(&out);
}

#[test]
fn rust_methods_of_one_name_are_told_apart_by_trait() {
    let out = run_calls(
        "rust-overloads",
        &[
            ("get_symbol", json!({"symbol": "ro::Lines::count"})),
            ("find_references", json!({"symbol": "ro::Lines::count"})),
            ("find_references", json!({"symbol": "<Lines as Matches>::count"})),
            ("get_symbol", json!({"symbol": "<T as Describe>::describe"})),
            // A trait and the associated types named like it: only the trait has implementations.
            ("find_implementations", json!({"symbol": "Matches"})),
            ("find_implementations", json!({"symbol": "Sink"})),
            // Blanket and foreign impls under their headers, not as unlabeled runs.
            ("file_outline", json!({"path": "src/lib.rs", "offset": 18, "limit": 9})),
            // An inherent method before a trait impl's of the same name, whatever their order.
            ("find_references", json!({"symbol": "ro::Early::count"})),
            ("find_references", json!({"symbol": "src/lib.rs:128"})),
            ("find_references", json!({"symbol": "src/lib.rs:123"})),
        ],
    );
    expect_test::expect![[r####"
        ### get_symbol {"symbol":"ro::Lines::count"}
        method ro::Lines::count: 2 overloads
          ro::Lines::count  src/lib.rs:15-17  pub fn count(&self) -> usize
          <ro::Lines as Matches>::count  src/lib.rs:21-23  fn count(&self) -> usize
        next: get_symbol {"symbol": "ro::Lines::count"} for one

        ### find_references {"symbol":"ro::Lines::count"}
        4 references to 2 overloads of method ro::Lines::count (calls 4)
        ro::Lines::count: 2 references
          src/lib.rs
            29 calls  in ro::Lines::matched
            40 calls  in ro::total
        <ro::Lines as Matches>::count: 2 references
          src/lib.rs
            35 calls  in ro::Lines::fmt  via ro::Matches::count
            40 calls  in ro::total  via ro::Matches::count

        ### find_references {"symbol":"<Lines as Matches>::count"}
        2 references to method <ro::Lines as Matches>::count (calls 2)
        src/lib.rs
          35 calls  in ro::Lines::fmt  via ro::Matches::count
          40 calls  in ro::total  via ro::Matches::count

        ### get_symbol {"symbol":"<T as Describe>::describe"}
        method ro::<T as Describe>::describe
          at src/lib.rs:77-79
          signature: fn describe(&self) -> String
          visibility: private
          parent: module ro
          references: 0  implementations: 0
        next: read_symbol {"symbol": "src/lib.rs:77"}

        ### find_implementations {"symbol":"Matches"}
        2 implementations of trait ro::Matches
        ro  src/
          struct Early  lib.rs:102  (implements)
          struct Lines  lib.rs:12  (implements)

        ### find_implementations {"symbol":"Sink"}
        4 implementations of trait ro::Sink
        ro  src/
          struct Lines  lib.rs:12  (implements)
          struct Wrapper  lib.rs:43  (implements)
        impls for a type parameter or a type outside the repository:
          blanket impl for &mut S  src/lib.rs:52
          blanket impl for Box<S>  src/lib.rs:59

        ### file_outline {"path":"src/lib.rs","offset":18,"limit":9}
        src/lib.rs (rust, 139 lines, module ro)
        impl Sink for Box<S>
          method 61-63  fn matched(&self) -> usize
        trait 66-68  pub trait Describe
          method 67  fn describe(&self) -> String
        impl Describe for std::io::Error
          method 71-73  fn describe(&self) -> String
        impl Describe for T
          method 77-79  fn describe(&self) -> String
        module 82-89  pub mod inner
          struct 83  pub struct Deep
          module 84-88  mod x
            impl Deep
              method 86  pub fn go(&self)
        ... 14 more (limit=9); next page: offset=27

        ### find_references {"symbol":"ro::Early::count"}
        3 references to 2 overloads of method ro::Early::count (calls 3)
        <ro::Early as Matches>::count: 2 references
          src/lib.rs
            35 calls  in ro::Lines::fmt  via ro::Matches::count
            40 calls  in ro::total  via ro::Matches::count
        ro::Early::count: 1 reference
          src/lib.rs
            117 calls  in ro::early

        ### find_references {"symbol":"src/lib.rs:128"}
        1 reference to function ro::lite::Lite (calls 1)
        src/lib.rs
          137 calls  in ro::uses_lite::make

        ### find_references {"symbol":"src/lib.rs:123"}
        4 references to struct ro::lite::Lite (imports 1, instantiates 1, uses_type 2)
        src/lib.rs
          128 uses_type  in ro::lite::Lite
          129 instantiates  in ro::lite::Lite
          134 imports  in ro::uses_lite
          136 uses_type  in ro::uses_lite::make

    "####]]
    .assert_eq(&out);
}

/// Each line of a list with the lines it sits under (by indentation): `a > b > row`.
fn paths<'a>(lines: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut out = Vec::new();
    for line in lines {
        let indent = line.len() - line.trim_start().len();
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        stack.push((indent, line.trim().to_string()));
        out.push(stack.iter().map(|(_, t)| t.as_str()).collect::<Vec<_>>().join(" > "));
    }
    out
}

/// The list lines of an answer: past its `header` lines, without fences, cut notes and
/// the lines after the list (`tail`); and the offset its "next page" line names.
fn list_of(answer: &str, header: usize, tail: usize) -> (Vec<String>, Option<usize>) {
    let lines: Vec<&str> = answer.lines().collect();
    let next = lines.iter().find_map(|l| l.split("next page: offset=").nth(1)).map(|n| n.parse().unwrap());
    let body = lines[header..lines.len() - tail]
        .iter()
        .copied()
        .filter(|l| !l.starts_with("```") && !l.starts_with("... ") && !l.trim_start().starts_with("(all on earlier pages)"));
    (paths(body), next)
}

/// Following the offsets from the first page to the last yields the whole list once, in
/// order, for every list tool, with budgets so small that most pages hold one or two rows.
#[test]
fn pages_add_up_to_the_whole_list_for_every_list_tool() {
    let cases: &[(&str, &str, Value, usize, usize)] = &[
        // (fixture, tool, arguments, header lines, lines after the list)
        ("java-shop", "repo_overview", json!({}), 3, 2),
        ("java-shop", "dependency_graph", json!({"target": "com.acme.order.OrderService", "depth": 2}), 2, 0),
        ("java-shop", "dependency_graph", json!({"target": "src/main/java/com/acme/order/Order.java", "level": "file", "depth": 3}), 2, 0),
        ("java-shop", "change_impact", json!({"target": "com.acme.common.Money"}), 2, 0),
        ("java-shop", "search_symbols", json!({"query": "pay"}), 1, 0),
        ("java-shop", "search_symbols", json!({"kind": "method"}), 1, 0),
        ("java-shop", "find_implementations", json!({"symbol": "com.acme.pay.PaymentGateway", "transitive": true}), 1, 0),
        ("java-shop", "find_references", json!({"symbol": "com.acme.common.Money"}), 1, 0),
        ("java-shop", "file_outline", json!({"path": "src/main/java/com/acme/pay/PaymentService.java"}), 1, 0),
        ("java-shop", "search_text", json!({"query": "pay"}), 1, 0),
        ("java-overloads", "find_references", json!({"symbol": "p.Customer#getAccount"}), 1, 0),
        ("rust-shop", "dependency_graph", json!({"target": "shop_core::order::OrderService", "depth": 2}), 2, 0),
        ("rust-shop", "find_references", json!({"symbol": "shop_core::Cents"}), 1, 0),
        ("rust-overloads", "file_outline", json!({"path": "src/lib.rs"}), 1, 0),
        ("rust-overloads", "find_implementations", json!({"symbol": "Sink"}), 1, 0),
    ];
    let mut cut_by_budget = 0;
    for (fixture, tool, args, header, tail) in cases {
        let tmp = temp_copy(fixture);
        index(tmp.path(), &Options { threads: 2, ..Options::default() }, &|_, _| {}).unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let mut whole_args = args.clone();
        whole_args["limit"] = json!(if *tool == "repo_overview" { 50 } else { 200 });
        let whole = Atlas::new(&root).with_budget(1_000_000).call(tool, whole_args).unwrap();
        let (whole_list, none) = list_of(&whole, *header, *tail);
        assert_eq!(none, None, "{tool} {args}: the whole list is one page\n{whole}");
        assert!(whole_list.len() > 3, "{tool} {args}: too short a list to page\n{whole}");
        // 720: room for the overview's fixed lines (counts, the index, where dates come from)
        // and one whole row of each list; less cuts rows (see `repo_overview`).
        for (budget, limit) in [(720, 50), (1_200, 1)] {
            let small = Atlas::new(&root).with_budget(budget);
            let (mut pages, mut offset, mut calls) = (Vec::<String>::new(), 0usize, 0);
            loop {
                let mut page_args = args.clone();
                page_args["offset"] = json!(offset);
                page_args["limit"] = json!(limit);
                let answer = small.call(tool, page_args).unwrap();
                cut_by_budget += answer.contains("(cut at the answer budget)") as usize;
                assert!(answer.len() <= budget, "{tool} {args} offset={offset}: {} bytes over {budget}\n{answer}", answer.len());
                let (list, next) = list_of(&answer, *header, *tail);
                // A page that starts inside a group repeats the group's headings first.
                let repeated = list.iter().take_while(|p| pages.contains(p)).count();
                pages.extend(list.into_iter().skip(repeated));
                calls += 1;
                match next {
                    Some(n) => {
                        assert!(n > offset, "{tool} {args}: offset {offset} -> {n}\n{answer}");
                        offset = n;
                    }
                    None => break,
                }
            }
            assert!(calls > 1 || limit > 1, "{tool} {args} budget {budget} limit {limit}: one page only");
            if *tool == "repo_overview" {
                // Its lists page side by side: each list's rows, in order, once.
                let by_list = |rows: &[String]| {
                    let mut rows: Vec<String> = rows.iter().filter(|r| r.contains(" > ")).cloned().collect();
                    rows.sort_by_key(|r| r.split(" > ").next().unwrap().to_string());
                    rows
                };
                assert_eq!(by_list(&pages), by_list(&whole_list), "{tool} {args} budget {budget} limit {limit}");
            } else {
                assert_eq!(pages, whole_list, "{tool} {args} budget {budget} limit {limit}");
            }
        }
    }
    // Most of the small-budget pages were cut by the budget, not the limit.
    assert!(cut_by_budget > 40, "{cut_by_budget} pages cut by the budget");
}

#[test]
fn outside_types_by_simple_name_and_caller_text_cut_short() {
    let tmp = temp_copy("java-shop");
    index(tmp.path(), &Options { threads: 2, ..Options::default() }, &|_, _| {}).unwrap();
    let atlas = Atlas::new(&tmp.path().canonicalize().unwrap());
    // A type outside the repository, named as code names it.
    let answer = atlas.call("find_references", json!({"symbol": "BigDecimal", "kind": "import"})).unwrap();
    assert!(answer.starts_with("5 references to external java.math.BigDecimal ("), "{answer}");
    // A graph node by a name that also names members: the type is meant.
    let graph = atlas.call("dependency_graph", json!({"target": "PaymentService"})).unwrap();
    assert!(graph.starts_with("class com.acme.pay.PaymentService  src/main/java/com/acme/pay/PaymentService.java:7-28"), "{graph}");
    // Text from the caller is echoed cut to 80 characters, in answers and errors alike.
    let long = "Zq".repeat(5_000);
    let search = atlas.call("search_symbols", json!({"query": long})).unwrap();
    assert_eq!(
        search,
        format!("no symbols match {:?}… (10000 characters); try fewer words, search_text for text in files, or repo_overview", &long[..80])
    );
    let missing = atlas.call("get_symbol", json!({"symbol": long})).unwrap_err().0;
    assert!(missing.len() < 400, "{} bytes: {missing}", missing.len());
    let text = atlas.call("search_text", json!({"query": long})).unwrap();
    assert!(text.len() < 300 && text.contains("… (10000 characters)"), "{text}");
}

/// First, middle and last pages of every list tool, exactly.
#[test]
fn paged_answers_first_middle_last() {
    let mut calls: Vec<(&str, Value)> = Vec::new();
    let lists: [(&str, Value, [usize; 3]); 8] = [
        ("repo_overview", json!({"limit": 3}), [0, 6, 15]),
        ("dependency_graph", json!({"target": "com.acme.order.OrderService", "limit": 4}), [0, 4, 12]),
        ("change_impact", json!({"target": "com.acme.common.Money", "limit": 3}), [0, 3, 6]),
        ("search_symbols", json!({"kind": "method", "limit": 5}), [0, 5, 20]),
        ("find_implementations", json!({"symbol": "com.acme.pay.PaymentGateway", "transitive": true, "limit": 1}), [0, 1, 2]),
        ("find_references", json!({"symbol": "com.acme.common.Money", "limit": 4}), [0, 4, 10]),
        ("file_outline", json!({"path": "src/main/java/com/acme/pay/PaymentService.java", "limit": 4}), [0, 4, 8]),
        ("search_text", json!({"query": "acme", "limit": 6}), [0, 6, 30]),
    ];
    for (tool, args, offsets) in &lists {
        for offset in offsets {
            let mut args = args.clone();
            args["offset"] = json!(offset);
            calls.push((tool, args));
        }
    }
    let out = run_calls("java-shop", &calls);
    expect_file!["snapshots/java-shop.pages.txt"].assert_eq(&out);
}

/// The text files `search_text` searches can be read on with `read_source`, indexed or not;
/// what the walk does not admit (ignored, secret-looking, binary, outside) cannot.
#[test]
fn text_files_the_walk_admits_are_readable() {
    let tmp = temp_copy("java-shop");
    let root = tmp.path();
    std::fs::write(root.join("pom.xml"), "<project>\n  <artifactId>shop</artifactId>\n</project>\n").unwrap();
    std::fs::write(root.join("credentials.json"), "{\"key\": \"x\"}\n").unwrap();
    std::fs::write(root.join("data.bin"), b"ab\0cd\n").unwrap();
    index(root, &Options { threads: 2, ..Options::default() }, &|_, _| {}).unwrap();
    let atlas = Atlas::new(&root.canonicalize().unwrap());
    let found = atlas.call("search_text", json!({"query": "artifactId"})).unwrap();
    assert_eq!(found, "1 matching line for \"artifactId\" in 19 text files\n```\npom.xml\n  2:   <artifactId>shop</artifactId>\n```");
    let read = atlas.call("read_source", json!({"path": "pom.xml", "start_line": 2, "end_line": 2})).unwrap();
    assert_eq!(read, "pom.xml:2-2 of 3 lines\n```\n2|   <artifactId>shop</artifactId>\n```");
    for refused in ["credentials.json", "generated/Generated.java", ".repochartignore", "data.bin", "../pom.xml"] {
        let err = atlas.call("read_source", json!({"path": refused, "start_line": 1, "end_line": 1})).unwrap_err().0;
        assert!(err.starts_with("no indexed file") || err.contains("refused"), "{refused}: {err}");
    }
}

/// Build units on the three build systems' fixtures: the overview leads with them, the
/// unit level of the graph tools, test commands per unit, undeclared uses, and errors.
#[test]
fn build_unit_answers() {
    let mut out = run_calls(
        "maven-multi",
        &[
            ("repo_overview", json!({})),
            ("dependency_graph", json!({"target": "shop-web", "level": "unit", "depth": 2})),
            ("dependency_graph", json!({"target": "web", "level": "unit", "direction": "out"})),
            ("dependency_path", json!({"from": "shop-app", "to": "shop-api", "level": "unit"})),
            ("change_impact", json!({"target": "com.acme.core.OrderService"})),
            ("change_impact", json!({"target": "shop-core", "level": "unit"})),
            ("change_impact", json!({"target": "com.acme.gen.OrderProto", "level": "unit"})),
            ("dependency_graph", json!({"target": "nope", "level": "unit"})),
        ],
    );
    out.push_str(&run_calls(
        "gradle-kts",
        &[
            ("repo_overview", json!({})),
            ("dependency_graph", json!({"target": ":lib:core", "level": "unit"})),
            ("change_impact", json!({"target": "com.k.util.Strings"})),
            ("change_impact", json!({"target": "util", "level": "unit"})),
        ],
    ));
    out.push_str(&run_calls(
        "rust-targets",
        &[
            ("repo_overview", json!({"limit": 3})),
            ("dependency_graph", json!({"target": "app-root", "level": "unit"})),
            ("change_impact", json!({"target": "app_root::engine::Engine"})),
        ],
    ));
    out.push_str(&run_calls("java-shop", &[("dependency_graph", json!({"target": "OrderService", "level": "unit"}))]));
    expect_file!["snapshots/build-units.txt"].assert_eq(&out);
}

/// Spring and JAX-RS on the spring-shop fixture: endpoints (class prefixes, arrays,
/// constants, `method=`, JAX-RS verbs; a Feign client's mappings are none), found by a
/// concrete URL with or without a verb, and entry points by kind.
#[test]
fn spring_shop_tool_answers() {
    let calls = vec![
        ("repo_overview", json!({})),
        ("file_outline", json!({"path": "order-service/src/main/java/com/shop/order/web/OrderController.java"})),
        ("search_symbols", json!({"kind": "endpoint"})),
        ("search_symbols", json!({"query": "GET /order/detail/42"})),
        ("search_symbols", json!({"query": "/orders/ping?x=1"})),
        ("search_symbols", json!({"query": "DELETE /order/create"})),
        ("search_symbols", json!({"query": "/items/7"})),
        ("search_symbols", json!({"query": "/stock/1"})),
        ("get_symbol", json!({"symbol": "POST /order/cancel"})),
        ("get_symbol", json!({"symbol": "com.shop.order.jobs.OrderJobs#purge"})),
        // The service graph: constructor, field, Lombok and @Bean-method injection; an
        // interface reaches its @Primary implementation; a repository stereotype.
        ("dependency_graph", json!({"target": "com.shop.order.web.OrderController", "level": "service", "depth": 2, "limit": 50})),
        ("dependency_graph", json!({"target": "com.shop.order.service.RefundService", "level": "service"})),
        ("dependency_graph", json!({"target": "com.shop.order.service.OrderService", "level": "service"})),
        (
            "dependency_path",
            json!({"from": "com.shop.order.web.OrderController", "to": "com.shop.order.config.PriceCalculator", "level": "service"}),
        ),
        ("change_impact", json!({"target": "com.shop.order.service.OrderServiceImpl", "level": "service"})),
        ("dependency_graph", json!({"target": "com.shop.order.service.OrderServiceImpl", "level": "service", "direction": "out"})),
        ("dependency_graph", json!({"target": "com.shop.order.service.LegacyOrderService", "level": "service"})),
        ("dependency_graph", json!({"target": "com.shop.order.jobs.OrderJobs", "level": "service"})),
        ("dependency_graph", json!({"target": "com.shop.common.Money", "level": "service"})),
        // Component scanning: a stereotype outside the scanned package is no bean and its job
        // never runs; an imported configuration there is one. Conditions show beside a bean.
        ("dependency_graph", json!({"target": "com.shop.tools.AuditJob", "level": "service"})),
        ("get_symbol", json!({"symbol": "com.shop.tools.AuditJob#audit"})),
        ("dependency_graph", json!({"target": "com.shop.order.cache.OrderCache", "level": "service", "direction": "out"})),
        ("find_references", json!({"symbol": "shop.cache.enabled"})),
        // Spring Boot's logback file reads keys by `<springProperty source>`.
        ("find_references", json!({"symbol": "logstash.host"})),
        // Configuration keys: values by profile (multi-document YAML, a profile's properties
        // file, a secret redacted), readers by @Value (nested defaults) and
        // @ConfigurationProperties (relaxed binding).
        // A URL written whole is its path: scheme, host, port and query string go.
        ("search_symbols", json!({"query": "GET http://localhost:8080/order/detail/42?verbose=1"})),
        ("search_symbols", json!({"kind": "config_key"})),
        // Pages follow the offset; `path` keeps the keys its files set or its code reads.
        ("search_symbols", json!({"kind": "config_key", "limit": 2, "offset": 2})),
        ("search_symbols", json!({"kind": "config_key", "path": "order-service/src/main/java", "query": "shop"})),
        // A scheduled job's cron placeholder reads its key.
        ("find_references", json!({"symbol": "shop.cleanup.cron"})),
        // ...in a class that is no bean: it never runs, and says so.
        ("get_symbol", json!({"symbol": "com.shop.order.jobs.LegacyCleanupJob#purge"})),
        ("get_symbol", json!({"symbol": "redis.key.orderId"})),
        ("get_symbol", json!({"symbol": "shop.order.timeout-seconds"})),
        ("find_references", json!({"symbol": "shop.order.timeoutSeconds"})),
        ("get_symbol", json!({"symbol": "spring.datasource.password"})),
        // A secret by its key's last words (`signing-key`), not by a word anywhere in it
        // (`token-validity-seconds: 14400` is shown).
        ("search_symbols", json!({"kind": "config_key", "query": "shop.auth"})),
        // A key named exactly comes before the symbols its words name.
        ("search_symbols", json!({"query": "shop.cache.enabled", "limit": 3})),
        // A list set by its items is that key too.
        ("search_symbols", json!({"query": "shop.order.currencies", "limit": 1})),
        ("get_symbol", json!({"symbol": "shop.missing.key"})),
        ("get_symbol", json!({"symbol": "shop.order.retries"})),
        // MyBatis: statements linked to their mapper methods, includes resolved, types the
        // XML names; an annotated statement is the method's own source.
        ("search_symbols", json!({"kind": "statement"})),
        // By a table its SQL names; under a path; a page past the first.
        ("search_symbols", json!({"kind": "statement", "query": "orders"})),
        ("search_symbols", json!({"kind": "statement", "path": "order-service", "limit": 1, "offset": 1})),
        ("search_symbols", json!({"kind": "statement", "path": "shop-common"})),
        // A mapper XML place is a handle; a mapper file has an outline.
        ("get_symbol", json!({"symbol": "order-service/src/main/resources/mapper/OrderMapper.xml:12"})),
        ("read_symbol", json!({"symbol": "order-service/src/main/resources/mapper/OrderMapper.xml:12"})),
        ("file_outline", json!({"path": "order-service/src/main/resources/mapper/OrderMapper.xml"})),
        ("get_symbol", json!({"symbol": "com.shop.order.mapper.OrderMapper#findAll"})),
        ("read_symbol", json!({"symbol": "com.shop.order.mapper.OrderMapper#findAll"})),
        ("read_symbol", json!({"symbol": "com.shop.order.mapper.OrderMapper#count"})),
        ("find_references", json!({"symbol": "com.shop.common.Money"})),
    ];
    expect_file!["snapshots/spring-shop.tools.txt"].assert_eq(&run_calls("spring-shop", &calls));
}

/// Rust routes: attributes (actix-web, Rocket) under their handlers, and routers assembled
/// in code (axum's `.route`/`.nest`, services mounted by `.route_service`/`.nest_service`,
/// `.fallback`, actix-web's `web::scope`, `.service`, `.configure`), prefixes carried
/// through nested functions of the file.
#[test]
fn rust_route_attributes_are_endpoints() {
    let calls = vec![
        ("search_symbols", json!({"kind": "endpoint"})),
        ("search_symbols", json!({"query": "GET /v2/api/users/7"})),
        ("search_symbols", json!({"query": "DELETE /v2/api/users/7"})),
        ("search_symbols", json!({"query": "GET /v1/users/7"})),
        // A service mounted under a path serves every path under it; the fallback every
        // path no route matches.
        ("search_symbols", json!({"query": "GET /v2/assets/css/site.css"})),
        ("search_symbols", json!({"query": "GET /v2/no/such/page"})),
        ("get_symbol", json!({"symbol": "POST /v1/orders"})),
        ("repo_overview", json!({})),
    ];
    expect_file!["snapshots/rust-web.tools.txt"].assert_eq(&run_calls("rust-web", &calls));
}

/// Change impact as a reviewer would sign it (issue 33), on `testdata/java-impact`: reverse
/// edges only (no walk up to `Person` and down to its other users, at symbol or unit level),
/// a declared-but-unused unit edge carries impact, an interface method's signature reaches
/// its implementation, a mapper method its statement, a handler its endpoint.
#[test]
fn change_impact_follows_dependents_only() {
    let out = run_calls(
        "java-impact",
        &[
            ("change_impact", json!({"target": "com.pets.owners.Owner#addPet(Pet)"})),
            ("change_impact", json!({"target": "com.pets.orders.OrderService#generateOrder"})),
            ("change_impact", json!({"target": "com.pets.orders.OrderServiceImpl#generateOrder"})),
            ("change_impact", json!({"target": "com.pets.orders.OrderMapper#insert"})),
            // A statement by its mapper XML place: what runs it, by mapper method or by its id
            // as a string; a fragment: what runs the statements including it.
            ("change_impact", json!({"target": "orders/src/main/resources/mapper/OrderMapper.xml:5"})),
            ("change_impact", json!({"target": "orders/src/main/resources/mapper/LegacyMapper.xml:4"})),
            ("get_symbol", json!({"symbol": "orders/src/main/resources/mapper/LegacyMapper.xml:6"})),
            ("search_symbols", json!({"kind": "statement"})),
            ("change_impact", json!({"target": "com.pets.orders.OrderController#create"})),
            ("change_impact", json!({"target": "com.pets.common.Person"})),
            ("change_impact", json!({"target": "pets-web", "level": "unit"})),
            ("change_impact", json!({"target": "pets-owners", "level": "unit"})),
            ("dependency_graph", json!({"target": "pets-owners", "level": "unit", "direction": "in"})),
            // A method's graph is the method's, not its class's.
            ("dependency_graph", json!({"target": "com.pets.orders.OrderServiceImpl#generateOrder"})),
            ("dependency_graph", json!({"target": "com.pets.owners.Owner#addPet", "direction": "in", "depth": 2})),
        ],
    );
    expect_test::expect![[r####"
        ### change_impact {"target":"com.pets.owners.Owner#addPet(Pet)"}
        change_impact method com.pets.owners.Owner#addPet(Pet)  owners/src/main/java/com/pets/owners/Owner.java:11-13  loc 3 cx 1 modified <date>
        affected: 3 (ring 1: 2, ring 2: 1); tests: 2
        ring 1:
          com.pets.owners  owners/src/main/java/com/pets/owners/
            method Owner#addPet(String)  calls 1  Owner.java:15-17  loc 3 cx 1
          com.pets.owners  owners/src/test/java/com/pets/owners/
            method OwnerTest#addsAPet()  calls 1  OwnerTest.java:4-6  loc 3 cx 1  [test]
        ring 2:
          com.pets.owners  owners/src/test/java/com/pets/owners/
            method OwnerNameTest#addsAPetByName()  calls 1  OwnerNameTest.java:4-6  loc 3 cx 1  [test]
        run:
          mvn -pl :pets-owners -am test -Dtest=OwnerNameTest,OwnerTest -Dsurefire.failIfNoSpecifiedTests=false

        ### change_impact {"target":"com.pets.orders.OrderService#generateOrder"}
        change_impact method com.pets.orders.OrderService#generateOrder(OrderParam)  orders/src/main/java/com/pets/orders/OrderService.java:4  loc 1 cx 1 modified <date>
        affected: 4 (ring 1: 2, ring 2: 2); tests: 1
        ring 1:
          com.pets.orders  orders/src/main/java/com/pets/orders/
            method OrderController#create(OrderParam)  calls 1  OrderController.java:15-18  loc 4 cx 1
            method OrderServiceImpl#generateOrder(OrderParam)  OrderServiceImpl.java:13-16  loc 4 cx 1  overrides method com.pets.orders.OrderService#generateOrder(OrderParam) (changes with its signature)
        ring 2:
          com.pets.orders  orders/src/test/java/com/pets/orders/
            method OrderControllerTest#creates(OrderController)  calls 1  OrderControllerTest.java:4-6  loc 3 cx 1  [test]
          com.pets.web  web/src/main/java/com/pets/web/
            method Visitor#order(OrderController)  calls 1  Visitor.java:9-11  loc 3 cx 1
        run:
          mvn -pl :pets-orders -am test -Dtest=OrderControllerTest -Dsurefire.failIfNoSpecifiedTests=false

        ### change_impact {"target":"com.pets.orders.OrderServiceImpl#generateOrder"}
        change_impact method com.pets.orders.OrderServiceImpl#generateOrder(OrderParam)  orders/src/main/java/com/pets/orders/OrderServiceImpl.java:13-16  loc 4 cx 1 modified <date>
        affected: 3 (ring 1: 1, ring 2: 2); tests: 1
        ring 1:
          com.pets.orders  orders/src/main/java/com/pets/orders/
            method OrderController#create(OrderParam)  calls 1  OrderController.java:15-18  loc 4 cx 1  via method com.pets.orders.OrderService#generateOrder(OrderParam)
        ring 2:
          com.pets.orders  orders/src/test/java/com/pets/orders/
            method OrderControllerTest#creates(OrderController)  calls 1  OrderControllerTest.java:4-6  loc 3 cx 1  [test]
          com.pets.web  web/src/main/java/com/pets/web/
            method Visitor#order(OrderController)  calls 1  Visitor.java:9-11  loc 3 cx 1
        run:
          mvn -pl :pets-orders -am test -Dtest=OrderControllerTest -Dsurefire.failIfNoSpecifiedTests=false

        ### change_impact {"target":"com.pets.orders.OrderMapper#insert"}
        change_impact method com.pets.orders.OrderMapper#insert(OrderParam)  orders/src/main/java/com/pets/orders/OrderMapper.java:4  loc 1 cx 1 modified <date>
        affected: 4 (ring 1: 1, ring 2: 1, ring 3: 2); tests: 1
        runs: statement insert  orders/src/main/resources/mapper/OrderMapper.xml:4-6
        also run by its id in: com.pets.orders.OrderArchive#copy(OrderParam)  orders/src/main/java/com/pets/orders/OrderArchive.java:19
        ring 1:
          com.pets.orders  orders/src/main/java/com/pets/orders/
            method OrderServiceImpl#generateOrder(OrderParam)  calls 1  OrderServiceImpl.java:13-16  loc 4 cx 1
        ring 2:
          com.pets.orders  orders/src/main/java/com/pets/orders/
            method OrderController#create(OrderParam)  calls 1  OrderController.java:15-18  loc 4 cx 1  via method com.pets.orders.OrderService#generateOrder(OrderParam)
        ring 3:
          com.pets.orders  orders/src/test/java/com/pets/orders/
            method OrderControllerTest#creates(OrderController)  calls 1  OrderControllerTest.java:4-6  loc 3 cx 1  [test]
          com.pets.web  web/src/main/java/com/pets/web/
            method Visitor#order(OrderController)  calls 1  Visitor.java:9-11  loc 3 cx 1
        run:
          mvn -pl :pets-orders -am test -Dtest=OrderControllerTest -Dsurefire.failIfNoSpecifiedTests=false

        ### change_impact {"target":"orders/src/main/resources/mapper/OrderMapper.xml:5"}
        change_impact statement insert "com.pets.orders.OrderMapper#insert"  orders/src/main/resources/mapper/OrderMapper.xml:4-6
        affected: 4 (ring 1: 1, ring 2: 1, ring 3: 2); tests: 1
        run by: method com.pets.orders.OrderArchive#copy(OrderParam)  orders/src/main/java/com/pets/orders/OrderArchive.java:19-21
        run by: method com.pets.orders.OrderMapper#insert(OrderParam)  orders/src/main/java/com/pets/orders/OrderMapper.java:4
        ring 1:
          com.pets.orders  orders/src/main/java/com/pets/orders/
            method OrderServiceImpl#generateOrder(OrderParam)  calls 1  OrderServiceImpl.java:13-16  loc 4 cx 1
        ring 2:
          com.pets.orders  orders/src/main/java/com/pets/orders/
            method OrderController#create(OrderParam)  calls 1  OrderController.java:15-18  loc 4 cx 1  via method com.pets.orders.OrderService#generateOrder(OrderParam)
        ring 3:
          com.pets.orders  orders/src/test/java/com/pets/orders/
            method OrderControllerTest#creates(OrderController)  calls 1  OrderControllerTest.java:4-6  loc 3 cx 1  [test]
          com.pets.web  web/src/main/java/com/pets/web/
            method Visitor#order(OrderController)  calls 1  Visitor.java:9-11  loc 3 cx 1
        run:
          mvn -pl :pets-orders -am test -Dtest=OrderControllerTest -Dsurefire.failIfNoSpecifiedTests=false

        ### change_impact {"target":"orders/src/main/resources/mapper/LegacyMapper.xml:4"}
        change_impact fragment "legacy#ById"  orders/src/main/resources/mapper/LegacyMapper.xml:4-4
        affected: 1 (ring 1: 1); tests: 1
        run by: method com.pets.orders.OrderArchive#archive(long)  orders/src/main/java/com/pets/orders/OrderArchive.java:15-17
        ring 1:
          com.pets.orders  orders/src/test/java/com/pets/orders/
            method OrderArchiveTest#archives(OrderArchive)  calls 1  OrderArchiveTest.java:4-6  loc 3 cx 1  [test]
        run:
          mvn -pl :pets-orders -am test -Dtest=OrderArchiveTest -Dsurefire.failIfNoSpecifiedTests=false

        ### get_symbol {"symbol":"orders/src/main/resources/mapper/LegacyMapper.xml:6"}
        statement update "legacy#archive"  orders/src/main/resources/mapper/LegacyMapper.xml:5-8
          runs for: no mapper method (run by its id)
          run by its id in: com.pets.orders.OrderArchive#archive(long)  orders/src/main/java/com/pets/orders/OrderArchive.java:15
          tables: orders
          includes: ById  orders/src/main/resources/mapper/LegacyMapper.xml:4-4
        next: read_symbol orders/src/main/resources/mapper/LegacyMapper.xml:5 shows its SQL

        ### search_symbols {"kind":"statement"}
        2 statements in 2 mapper files
        statement update "legacy#archive"  orders/src/main/resources/mapper/LegacyMapper.xml:5-8  -> run by its id in 1 method  tables: orders
        statement insert "com.pets.orders.OrderMapper#insert"  orders/src/main/resources/mapper/OrderMapper.xml:4-6  -> com.pets.orders.OrderMapper#insert(OrderParam), run by its id in 1 method  tables: orders

        ### change_impact {"target":"com.pets.orders.OrderController#create"}
        change_impact method com.pets.orders.OrderController#create(OrderParam)  orders/src/main/java/com/pets/orders/OrderController.java:15-18  loc 4 cx 1 modified <date>
        affected: 2 (ring 1: 2); tests: 1
        serves: endpoint POST /orders  orders/src/main/java/com/pets/orders/OrderController.java:15-18 (clients outside the repository are not seen; requests by URL in its tests are)
        ring 1:
          com.pets.orders  orders/src/test/java/com/pets/orders/
            method OrderControllerTest#creates(OrderController)  calls 1  OrderControllerTest.java:4-6  loc 3 cx 1  [test]
          com.pets.web  web/src/main/java/com/pets/web/
            method Visitor#order(OrderController)  calls 1  Visitor.java:9-11  loc 3 cx 1
        run:
          mvn -pl :pets-orders -am test -Dtest=OrderControllerTest -Dsurefire.failIfNoSpecifiedTests=false

        ### change_impact {"target":"com.pets.common.Person"}
        change_impact class com.pets.common.Person  common/src/main/java/com/pets/common/Person.java:3-9  loc 6 cx 2 modified <date>
        affected: 6 (ring 1: 4, ring 2: 2); tests: 3
        ring 1:
          com.pets.owners  owners/src/main/java/com/pets/owners/
            class Owner  extends 1  Owner.java:8-18  loc 9 cx 3
            class Vet  extends 1  Vet.java:5-9  loc 5 cx 2
          com.pets.owners  owners/src/test/java/com/pets/owners/
            class VetTest  calls 1  VetTest.java:3-9  loc 7 cx 2  [test]
          com.pets.web  web/src/main/java/com/pets/web/
            class Visitor  extends 1  Visitor.java:8-12  loc 5 cx 2
        ring 2:
          com.pets.owners  owners/src/test/java/com/pets/owners/
            class OwnerNameTest  instantiates 1  OwnerNameTest.java:3-7  loc 5 cx 2  [test]
            class OwnerTest  instantiates 1  OwnerTest.java:3-7  loc 5 cx 2  [test]
        run:
          mvn -pl :pets-owners -am test -Dtest=OwnerNameTest,OwnerTest,VetTest -Dsurefire.failIfNoSpecifiedTests=false

        ### change_impact {"target":"pets-web","level":"unit"}
        change_impact unit pets-web (maven, web)  level=unit
        affected: 0 (nothing depends on it); tests: 0

        ### change_impact {"target":"pets-owners","level":"unit"}
        change_impact unit pets-owners (maven, owners)  level=unit
        affected: 1 (ring 1: 1); tests: 3
        ring 1:
          unit pets-web (maven, web)  declared in the manifest, not used
        run:
          mvn -pl :pets-owners -am test -Dtest=OwnerNameTest,OwnerTest,VetTest -Dsurefire.failIfNoSpecifiedTests=false

        ### dependency_graph {"target":"pets-owners","level":"unit","direction":"in"}
        unit pets-owners (maven, owners)  level=unit
        out: 1 dependency, in: 1 dependent (ring 1)
        dependents:
          unit pets-web (maven, web)  declared in the manifest, not used

        ### dependency_graph {"target":"com.pets.orders.OrderServiceImpl#generateOrder"}
        method com.pets.orders.OrderServiceImpl#generateOrder(OrderParam)  orders/src/main/java/com/pets/orders/OrderServiceImpl.java:13-16  loc 4 cx 1 modified <date>
        out: 4 dependencies, in: 1 dependent (ring 1)
        dependencies:
          com.pets.orders  orders/src/main/java/com/pets/orders/
            method OrderMapper#insert(OrderParam)  calls 1  OrderMapper.java:4  loc 1 cx 1
            field OrderServiceImpl#mapper  uses_field 1  OrderServiceImpl.java:7  loc 1 cx 1
          plain data (fields and accessors), a row a package
            com.pets.orders.OrderParam  uses_type 1  orders/src/main/java/com/pets/orders/OrderParam.java:3-5
          outside the repository
            java.lang.Override  annotates 1
        dependents:
          com.pets.orders  orders/src/main/java/com/pets/orders/
            method OrderController#create(OrderParam)  calls 1  OrderController.java:15-18  loc 4 cx 1  via method com.pets.orders.OrderService#generateOrder(OrderParam)

        ### dependency_graph {"target":"com.pets.owners.Owner#addPet","direction":"in","depth":2}
        2 overloads of method com.pets.owners.Owner#addPet  depth=2
        out: 0 dependencies, in: 2 dependents (ring 1)
        dependents, ring 1:
          com.pets.owners  owners/src/test/java/com/pets/owners/
            method OwnerNameTest#addsAPetByName()  calls 1  OwnerNameTest.java:4-6  loc 3 cx 1
            method OwnerTest#addsAPet()  calls 1  OwnerTest.java:4-6  loc 3 cx 1

    "####]]
    .assert_eq(&out);
}

/// A Rust item by any public path (issue 33): through a crate root's `pub use`, a facade's
/// `pub extern crate .. as ..` and `pub use .. as ..`, and a glob re-export, members too.
#[test]
fn rust_public_paths_name_what_they_reexport() {
    let handles = [
        "engine_core::Searcher",
        "facade::engine::search::Searcher",
        "facade::Searcher",
        "facade::core::Searcher::count",
        "facade::engine::Searcher::count",
    ];
    let calls: Vec<(&str, Value)> = handles.iter().map(|h| ("get_symbol", json!({ "symbol": h }))).collect();
    let out = run_calls("rust-facade", &calls);
    let firsts: Vec<&str> = out.split("### ").skip(1).map(|block| block.lines().nth(1).unwrap_or("")).collect();
    assert_eq!(
        firsts,
        [
            "struct engine_core::search::Searcher",
            "struct engine_core::search::Searcher",
            "struct engine_core::search::Searcher",
            "method engine_core::search::Searcher::count",
            "method engine_core::search::Searcher::count",
        ]
    );
}

/// A method without parameter types in the index, named with `()`: an annotation element
/// (`Audited#value()`), a Rust method (`Inventory::reserve()`).
#[test]
fn empty_parentheses_name_methods_without_parameter_types() {
    let out = run_calls("java-shop", &[("get_symbol", json!({"symbol": "com.acme.common.Audited#value()"}))]);
    assert_eq!(out.lines().nth(1), Some("method com.acme.common.Audited#value"), "{out}");
    let out = run_calls("rust-shop", &[("get_symbol", json!({"symbol": "shop_core::inventory::Inventory::reserve()"}))]);
    assert_eq!(out.lines().nth(1), Some("method shop_core::inventory::Inventory::reserve"), "{out}");
}

/// Lombok: the members `@Data`, `@Builder`, `@Slf4j`, `@Getter`/`@Setter` generate are
/// symbols (the outline marks them), calls to them resolve (`Order.builder().id(..).build()`,
/// `order.getItems().get(0).getSku()`), a member the class writes itself wins (`setPaid`),
/// and `find_references` on a field lists its accessors' calls.
#[test]
fn lombok_members_are_symbols_and_a_fields_references_list_its_accessors() {
    let out = run_calls(
        "java-lombok",
        &[
            ("file_outline", json!({"path": "src/main/java/com/acme/lombok/Order.java"})),
            ("find_references", json!({"symbol": "com.acme.lombok.Order#discountId"})),
            ("find_references", json!({"symbol": "com.acme.lombok.Item#sku"})),
            ("dependency_graph", json!({"target": "com.acme.lombok.OrderService#discountOf(Order)", "direction": "out"})),
        ],
    );
    expect_test::expect![[r####"
        ### file_outline {"path":"src/main/java/com/acme/lombok/Order.java"}
        src/main/java/com/acme/lombok/Order.java (java, 24 lines, package com.acme.lombok)
        class 9-24  public class Order
          field 9  private static final org.slf4j.Logger log  [generated by @Slf4j]
          constructor 9  public Order(Long id, List<Item> items)  [generated by @Data]
          method 9  public static OrderBuilder builder()  [generated by @Builder]
          class 9  public static class OrderBuilder  [generated by @Builder]
            method 9  public Order build()  [generated by @Builder]
          field 13  private final Long id
          method 13  public Long getId()  [generated by @Data]
          method 13  public OrderBuilder id(Long id)  [generated by @Builder]
          field 14  private boolean paid
          method 14  public boolean isPaid()  [generated by @Data]
          method 14  public OrderBuilder paid(boolean paid)  [generated by @Builder]
          field 15-16  private List<Item> items
          method 15-16  public List<Item> getItems()  [generated by @Data]
          method 15-16  public void setItems(List<Item> items)  [generated by @Data]
          method 15-16  public OrderBuilder items(List<Item> items)  [generated by @Builder]
          field 17  private Long discountId
          method 17  public Long getDiscountId()  [generated by @Data]
          method 17  public void setDiscountId(Long discountId)  [generated by @Data]
          method 17  public OrderBuilder discountId(Long discountId)  [generated by @Builder]
          field 18  private static final int MAX_ITEMS = 50
          method 20-23  public void setPaid(boolean paid)

        ### find_references {"symbol":"com.acme.lombok.Order#discountId"}
        4 references to field com.acme.lombok.Order#discountId (calls 4)
        src/main/java/com/acme/lombok/OrderService.java
          7 calls  in com.acme.lombok.OrderService#discountOf  via OrderBuilder.discountId()
          7 calls  in com.acme.lombok.OrderService#discountOf  via getDiscountId()
          8 calls  in com.acme.lombok.OrderService#discountOf  via setDiscountId()
          13 calls  in com.acme.lombok.OrderService#discountOf  via getDiscountId()

        ### find_references {"symbol":"com.acme.lombok.Item#sku"}
        1 reference to field com.acme.lombok.Item#sku (calls 1)
        src/main/java/com/acme/lombok/OrderService.java
          10 calls  in com.acme.lombok.OrderService#discountOf  via getSku()

        ### dependency_graph {"target":"com.acme.lombok.OrderService#discountOf(Order)","direction":"out"}
        method com.acme.lombok.OrderService#discountOf(Order)  src/main/java/com/acme/lombok/OrderService.java:6-14  loc 9 cx 2 modified <date>
        out: 16 dependencies, in: 0 dependents (ring 1)
        dependencies:
          com.acme.lombok  src/main/java/com/acme/lombok/
            method Order#getDiscountId()  calls 2  Order.java:17  loc 1 cx 1
            method Item#getSku()  calls 1  Item.java:7-9  loc 3 cx 1
            constructor Order#Order(Long,List)  instantiates 1  Order.java:9  loc 1 cx 1
            method Order#getId()  calls 1  Order.java:13  loc 1 cx 1
            method Order#isPaid()  calls 1  Order.java:14  loc 1 cx 1
            method Order#getItems()  calls 1  Order.java:15-16  loc 2 cx 1
            method Order#setDiscountId(Long)  calls 1  Order.java:17  loc 1 cx 1
            method Order#builder()  calls 1  Order.java:9  loc 1 cx 1
            method Order.OrderBuilder#id(Long)  calls 1  Order.java:13  loc 1 cx 1
            method Order.OrderBuilder#discountId(Long)  calls 1  Order.java:17  loc 1 cx 1
            method Order.OrderBuilder#build()  calls 1  Order.java:9  loc 1 cx 1
          plain data (fields and accessors), a row a package
            com.acme.lombok.Order  uses_type 3, accesses 1  src/main/java/com/acme/lombok/Order.java:9-24
          outside the repository
            java.util.List: of, get  calls 2, accesses 1
            java.lang.Long  uses_type 1

    "####]].assert_eq(&out);
}

/// Spring Data: interfaces extending `Repository`, `JpaRepository` and kin (directly or
/// through a base interface of the repository) are beans that the framework implements and
/// controllers inject; a base marked `@NoRepositoryBean` is not one (it answers for the one
/// bean extending it); an entity is no bean, and the error says what a bean would need; a
/// `@Bean` method returning a type from outside (`PasswordEncoder`) is injected where it is;
/// a class a `@Bean` method creates is the bean that method stands for, with its `@Autowired`
/// fields as injection points (its constructor arguments are the method's, not injected).
#[test]
fn spring_data_repositories_are_beans() {
    let out = run_calls(
        "spring-data",
        &[
            ("dependency_graph", json!({"target": "org.acme.clinic.ClinicController", "level": "service", "direction": "out"})),
            ("dependency_graph", json!({"target": "org.acme.clinic.PetRepository", "level": "service", "direction": "in"})),
            ("dependency_graph", json!({"target": "org.acme.clinic.BaseRepository", "level": "service"})),
            ("dependency_graph", json!({"target": "org.acme.clinic.Pet", "level": "service"})),
            // A `@Bean` method of a type outside the repository is injected where that type is.
            (
                "dependency_graph",
                json!({"target": "org.acme.clinic.SecurityConfig#passwordEncoder()", "level": "service", "direction": "in"}),
            ),
            // A class a `@Bean` method creates: its `@Autowired` fields are the method's injections.
            ("dependency_graph", json!({"target": "org.acme.clinic.AuditFilter", "level": "service", "direction": "out"})),
        ],
    );
    expect_test::expect![[r####"
        ### dependency_graph {"target":"org.acme.clinic.ClinicController","level":"service","direction":"out"}
        class org.acme.clinic.ClinicController  src/main/java/org/acme/clinic/ClinicController.java:6-23  loc 15 cx 2 modified <date>  level=service
        out: 2 dependencies, in: 0 dependents (ring 1)
        dependencies:
          org.acme.clinic  src/main/java/org/acme/clinic/
            interface PetRepository  injects 1  PetRepository.java:5-7  loc 3 cx 1  held: pets, constructor
            interface VetRepository  injects 1  VetRepository.java:3-4  loc 2 cx 1  held: vets, constructor

        ### dependency_graph {"target":"org.acme.clinic.PetRepository","level":"service","direction":"in"}
        interface org.acme.clinic.PetRepository  src/main/java/org/acme/clinic/PetRepository.java:5-7  loc 3 cx 1 modified <date>  level=service
        out: 0 dependencies, in: 1 dependent (ring 1)
        dependents:
          org.acme.clinic  src/main/java/org/acme/clinic/
            class ClinicController  injects 1  ClinicController.java:6-23  loc 15 cx 2

        ### dependency_graph {"target":"org.acme.clinic.BaseRepository","level":"service"}
        interface org.acme.clinic.VetRepository  src/main/java/org/acme/clinic/VetRepository.java:3-4  loc 2 cx 1 modified <date>  level=service
        out: 0 dependencies, in: 1 dependent (ring 1)
        dependents:
          org.acme.clinic  src/main/java/org/acme/clinic/
            class ClinicController  injects 1  ClinicController.java:6-23  loc 15 cx 2

        ### dependency_graph {"target":"org.acme.clinic.Pet","level":"service"}
        ERROR: class org.acme.clinic.Pet is not a bean, nor implemented by one: no stereotype (@Service, @Component, @Repository, @Controller, @Configuration), no @Bean method returns it, no Spring Data repository interface

        ### dependency_graph {"target":"org.acme.clinic.SecurityConfig#passwordEncoder()","level":"service","direction":"in"}
        method org.acme.clinic.SecurityConfig#passwordEncoder()  src/main/java/org/acme/clinic/SecurityConfig.java:10-13  loc 4 cx 1 modified <date>  level=service
        out: 0 dependencies, in: 1 dependent (ring 1)
        dependents:
          org.acme.clinic  src/main/java/org/acme/clinic/
            class UserService  injects 1  UserService.java:6-13  loc 7 cx 2

        ### dependency_graph {"target":"org.acme.clinic.AuditFilter","level":"service","direction":"out"}
        method org.acme.clinic.SecurityConfig#auditFilter()  src/main/java/org/acme/clinic/SecurityConfig.java:15-18  loc 4 cx 2 modified <date>  level=service
        out: 1 dependency, in: 0 dependents (ring 1)
        dependencies:
          org.acme.clinic  src/main/java/org/acme/clinic/
            class UserService  injects 1  UserService.java:6-13  loc 7 cx 2

    "####]].assert_eq(&out);
}

/// Members inherited from a library's type (`JpaRepository`) are the repository
/// interface's: one outline row says what they are and how to name one, and a call through
/// a subinterface (`vets.findAll()` on `VetRepository extends BaseRepository<Vet>`) is theirs.
/// A member the interface declares itself (`PetRepository#findById`) is its own.
#[test]
fn members_inherited_from_library_types_are_the_repositorys() {
    let out = run_calls(
        "spring-data",
        &[
            ("file_outline", json!({"path": "src/main/java/org/acme/clinic/BaseRepository.java"})),
            ("find_references", json!({"symbol": "BaseRepository#findAll()"})),
            ("get_symbol", json!({"symbol": "BaseRepository#deleteAll(Iterable)"})),
            ("file_outline", json!({"path": "src/main/java/org/acme/clinic/PetRepository.java"})),
        ],
    );
    expect_test::expect![[r####"
        ### file_outline {"path":"src/main/java/org/acme/clinic/BaseRepository.java"}
        src/main/java/org/acme/clinic/BaseRepository.java (java, 8 lines, package org.acme.clinic)
        interface 6-8  public interface BaseRepository<T> extends JpaRepository<T, Long>
          method 7  31 members inherited from JpaRepository and its supertypes: flush, saveAndFlush, saveAllAndFlush, deleteInBatch, deleteAllInBatch, deleteAllByIdInBatch, getOne, getById, getReferenceById, findAll, saveAll, findAllById, .. 11 more (handles BaseRepository#<name>)

        ### find_references {"symbol":"BaseRepository#findAll()"}
        1 reference to method org.acme.clinic.BaseRepository#findAll() (calls 1)
        src/main/java/org/acme/clinic/ClinicController.java
          21 calls  in org.acme.clinic.ClinicController#vets

        ### get_symbol {"symbol":"BaseRepository#deleteAll(Iterable)"}
        method org.acme.clinic.BaseRepository#deleteAll(Iterable)
          at src/main/java/org/acme/clinic/BaseRepository.java:7
          signature: void deleteAll(Iterable<? extends T> entities)  [inherited from CrudRepository]
          visibility: public  modifiers: public inherited
          parent: interface org.acme.clinic.BaseRepository
          references: 0  implementations: 0
        next: read_symbol {"symbol": "src/main/java/org/acme/clinic/BaseRepository.java:7"}

        ### file_outline {"path":"src/main/java/org/acme/clinic/PetRepository.java"}
        src/main/java/org/acme/clinic/PetRepository.java (java, 7 lines, package org.acme.clinic)
        interface 5-7  public interface PetRepository extends Repository<Pet, Integer>
          method 6  Pet findById(Integer id)

    "####]].assert_eq(&out);
}

/// Anonymous classes and lambdas are implementations: an anonymous class is a class `$1`
/// under the method that creates it, with its members; a lambda or method reference is one
/// where its type is declared (a field, a local, a return type, a cast), not as a call's
/// argument (`register(event -> ..)`, whose parameter type the index does not take). A
/// default method is implemented by the anonymous class that overrides it, never by a
/// lambda. The impact of the interface's method reaches the methods holding them, and
/// their tests; a call inside an anonymous class is its creator's. A call the JDK makes
/// of a method (`compareTo` by `Collections.sort`) is a reference, marked as such.
#[test]
fn anonymous_classes_and_lambdas_are_implementations() {
    let out = run_calls(
        "java-nameless",
        &[
            ("find_implementations", json!({"symbol": "com.acme.events.Listener"})),
            ("find_implementations", json!({"symbol": "Listener#onEvent"})),
            ("find_implementations", json!({"symbol": "Listener#describe"})),
            // An interface from outside, when asked: the lambdas passed for one.
            ("find_implementations", json!({"symbol": "java.lang.Runnable"})),
            ("find_implementations", json!({"symbol": "java.util.function.Consumer"})),
            ("change_impact", json!({"target": "Listener#onEvent", "limit": 50})),
            ("change_impact", json!({"target": "Format#upper"})),
            ("file_outline", json!({"path": "src/main/java/com/acme/events/Bus.java"})),
            // A call the JDK makes: `Collections.sort` calls the elements' `compareTo`.
            ("find_references", json!({"symbol": "Priority#compareTo"})),
            ("change_impact", json!({"target": "Priority#compareTo"})),
        ],
    );
    expect_test::expect![[r####"
        ### find_implementations {"symbol":"com.acme.events.Listener"}
        8 implementations of interface com.acme.events.Listener
        com.acme.events  src/main/java/com/acme/events/
          class Bus#start.$1  Bus.java:17-27  (anonymous class)
          function Bus#audit.$1  Bus.java:8  (lambda: Listener = this::record)
          function Bus#logging.$1  Bus.java:11  (lambda: Listener = event -> ..)
          function Bus#start.$2  Bus.java:15  (lambda: Listener = event -> ..)
          function Bus#start.$3  Bus.java:28  (lambda: Listener = event -> ..)
          function Bus#start.$4  Bus.java:29  (lambda: register(event -> ..))
          function Bus#start.$6  Bus.java:30  (lambda: later(.., this::record))
          function Bus#start.$7  Bus.java:31  (lambda: Subscription(this::record))

        ### find_implementations {"symbol":"Listener#onEvent"}
        8 implementations of method com.acme.events.Listener#onEvent(String)
        com.acme.events  src/main/java/com/acme/events/
          function Bus#audit.$1  Bus.java:8  (lambda: Listener = this::record)
          function Bus#logging.$1  Bus.java:11  (lambda: Listener = event -> ..)
          function Bus#start.$2  Bus.java:15  (lambda: Listener = event -> ..)
          function Bus#start.$3  Bus.java:28  (lambda: Listener = event -> ..)
          function Bus#start.$4  Bus.java:29  (lambda: register(event -> ..))
          function Bus#start.$6  Bus.java:30  (lambda: later(.., this::record))
          function Bus#start.$7  Bus.java:31  (lambda: Subscription(this::record))
          method Bus#start.$1#onEvent(String)  Bus.java:18-21  (anonymous class)

        ### find_implementations {"symbol":"Listener#describe"}
        1 implementation of method com.acme.events.Listener#describe()
        com.acme.events  src/main/java/com/acme/events/
          method Bus#start.$1#describe()  Bus.java:23-26  (anonymous class)

        ### find_implementations {"symbol":"java.lang.Runnable"}
        1 implementation of external java.lang.Runnable
        com.acme.events  src/main/java/com/acme/events/
          function Bus#start.$5  Bus.java:30  (lambda: later(() -> ..))

        ### find_implementations {"symbol":"java.util.function.Consumer"}
        1 implementation of external java.util.function.Consumer
        com.acme.events  src/main/java/com/acme/events/
          function Bus#start.$8  Bus.java:32  (lambda: forEach(l -> ..))

        ### change_impact {"target":"Listener#onEvent","limit":50}
        change_impact method com.acme.events.Listener#onEvent(String)  src/main/java/com/acme/events/Listener.java:4  loc 1 cx 1 modified <date>
        affected: 12 (ring 1: 9, ring 2: 3); tests: 1
        ring 1:
          com.acme.events  src/main/java/com/acme/events/
            method Bus#start()  calls 1  Bus.java:14-33  loc 19 cx 2
            method Bus#start.$1#onEvent(String)  Bus.java:18-21  loc 4 cx 1  overrides method com.acme.events.Listener#onEvent(String) (changes with its signature)
            function Bus#audit.$1  Bus.java:8  loc 1 cx 1  overrides method com.acme.events.Listener#onEvent(String) (changes with its signature)
            function Bus#logging.$1  Bus.java:11  loc 1 cx 1  overrides method com.acme.events.Listener#onEvent(String) (changes with its signature)
            function Bus#start.$2  Bus.java:15  loc 1 cx 1  overrides method com.acme.events.Listener#onEvent(String) (changes with its signature)
            function Bus#start.$3  Bus.java:28  loc 1 cx 1  overrides method com.acme.events.Listener#onEvent(String) (changes with its signature)
            function Bus#start.$4  Bus.java:29  loc 1 cx 1  overrides method com.acme.events.Listener#onEvent(String) (changes with its signature)
            function Bus#start.$6  Bus.java:30  loc 1 cx 1  overrides method com.acme.events.Listener#onEvent(String) (changes with its signature)
            function Bus#start.$7  Bus.java:31  loc 1 cx 1  overrides method com.acme.events.Listener#onEvent(String) (changes with its signature)
        ring 2:
          com.acme.events  src/main/java/com/acme/events/
            field Bus#audit  instantiates 1  Bus.java:8  loc 1 cx 1
            method Bus#logging()  instantiates 1  Bus.java:10-12  loc 3 cx 1
          com.acme.events  src/test/java/com/acme/events/
            method BusTest#starts()  calls 1  BusTest.java:6-9  loc 4 cx 1  [test]

        ### change_impact {"target":"Format#upper"}
        change_impact method com.acme.events.Format#upper(String)  src/main/java/com/acme/events/Format.java:4-6  loc 3 cx 1 modified <date>
        affected: 2 (ring 1: 1, ring 2: 1); tests: 1
        ring 1:
          com.acme.events  src/main/java/com/acme/events/
            method Bus#start()  calls 1  Bus.java:14-33  loc 19 cx 2
        ring 2:
          com.acme.events  src/test/java/com/acme/events/
            method BusTest#starts()  calls 1  BusTest.java:6-9  loc 4 cx 1  [test]

        ### file_outline {"path":"src/main/java/com/acme/events/Bus.java"}
        src/main/java/com/acme/events/Bus.java (java, 44 lines, package com.acme.events)
        class 6-44  public class Bus
          field 7  private final List<Listener> listeners = new ArrayList<>()
          field 8  private final Listener audit = this::record
            function $1  8  Listener = this::record
          method 10-12  public Listener logging()
            function $1  11  Listener = event -> ..
          method 14-33  public void start()
            function $2  15  Listener = event -> ..
            class $1  17-27  new Listener() { .. }
              method 18-21  public void onEvent(String event)
              method 23-26  public String describe()
            function $3  28  Listener = event -> ..
            function $4  29  register(event -> ..)
            function $6  30  later(.., this::record)
            function $7  31  Subscription(this::record)
          method 35-37  void register(Listener listener)
          method 39-40  void later(Runnable task, Listener... done)
          method 42-43  void record(String event)

        ### find_references {"symbol":"Priority#compareTo"}
        1 reference to method com.acme.events.Priority#compareTo(Priority) (calls 1)
        src/main/java/com/acme/events/Schedule.java
          8 calls  in com.acme.events.Schedule#order  [implicit: via Collections.sort]

        ### change_impact {"target":"Priority#compareTo"}
        change_impact method com.acme.events.Priority#compareTo(Priority)  src/main/java/com/acme/events/Priority.java:6-9  loc 4 cx 1 modified <date>
        affected: 1 (ring 1: 1); tests: 0
        ring 1:
          com.acme.events  src/main/java/com/acme/events/
            method Schedule#order(List)  calls 1  Schedule.java:7-9  loc 3 cx 1

    "####]].assert_eq(&out);
}

/// Several applications serving one path: each endpoint names the applications serving it
/// (its own unit, or applications depending on its unit) with their `server.port`, and a
/// URL's port picks the application listening on it.
#[test]
fn endpoints_of_several_applications_name_them() {
    let out = run_calls(
        "spring-apps",
        &[
            ("search_symbols", json!({"query": "GET /users/7"})),
            ("search_symbols", json!({"query": "GET http://localhost:8085/users/7"})),
            ("search_symbols", json!({"query": "http://localhost:9999/users/7"})),
            ("search_symbols", json!({"query": "/health"})),
            // The literal template before the one with a variable, as Spring picks.
            ("search_symbols", json!({"query": "GET /users/me"})),
        ],
    );
    expect_test::expect![[r####"
        ### search_symbols {"query":"GET /users/7"}
        2 endpoints for "GET /users/7":
        endpoint GET /users/{id}  admin/src/main/java/com/acme/admin/AdminUserController.java:9-12  GET /users/{id} -> AdminUserController#user(long)  served by: apps-admin (server.port 8080)
        endpoint GET /users/{id}  portal/src/main/java/com/acme/portal/PortalUserController.java:9-12  GET /users/{id} -> PortalUserController#user(long)  served by: apps-portal (server.port 8085)

        ### search_symbols {"query":"GET http://localhost:8085/users/7"}
        1 endpoint for "GET /users/7" (port 8085: apps-portal):
        endpoint GET /users/{id}  portal/src/main/java/com/acme/portal/PortalUserController.java:9-12  GET /users/{id} -> PortalUserController#user(long)

        ### search_symbols {"query":"http://localhost:9999/users/7"}
        2 endpoints for "/users/7" (no application serving it listens on port 9999):
        endpoint GET /users/{id}  admin/src/main/java/com/acme/admin/AdminUserController.java:9-12  GET /users/{id} -> AdminUserController#user(long)  served by: apps-admin (server.port 8080)
        endpoint GET /users/{id}  portal/src/main/java/com/acme/portal/PortalUserController.java:9-12  GET /users/{id} -> PortalUserController#user(long)  served by: apps-portal (server.port 8085)

        ### search_symbols {"query":"/health"}
        1 endpoint for "/health":
        endpoint GET /health  shared/src/main/java/com/acme/shared/HealthController.java:9-12  GET /health -> HealthController#health()  served by: apps-admin (server.port 8080), apps-portal (server.port 8085)

        ### search_symbols {"query":"GET /users/me"}
        3 endpoints for "GET /users/me":
        endpoint GET /users/me  admin/src/main/java/com/acme/admin/AdminUserController.java:14-17  GET /users/me -> AdminUserController#me()  served by: apps-admin (server.port 8080)
        endpoint GET /users/{id}  admin/src/main/java/com/acme/admin/AdminUserController.java:9-12  GET /users/{id} -> AdminUserController#user(long)  served by: apps-admin (server.port 8080)
        endpoint GET /users/{id}  portal/src/main/java/com/acme/portal/PortalUserController.java:9-12  GET /users/{id} -> PortalUserController#user(long)  served by: apps-portal (server.port 8085)

    "####]]
    .assert_eq(&out);
}

/// The graph ranks (issue 51): declarations no word of the sentence finds join through the
/// best hits' edges and types, each with the hit next to it (`via`), in the walk's order:
/// what `Order#total` calls (`Money#plus`) before its type (`Money`) and the constant it
/// reads; what `OrderService#place` calls after those.
#[test]
fn a_sentence_walks_from_its_best_hits() {
    let out = run_calls(
        "java-shop",
        &[("search_symbols", json!({"query": "Fix rounding in Order.total when lines are empty", "limit": 6, "offset": 25}))],
    );
    expect_test::expect![[r####"
        ### search_symbols {"query":"Fix rounding in Order.total when lines are empty","limit":6,"offset":25}
        37 symbols match the words "rounding order total lines empty" (a sentence: stop words dropped, words stemmed; name, owner, doc, path, uses and text searched)
        method com.acme.common.Money#plus(Money)  src/main/java/com/acme/common/Money.java:9-11  [via com.acme.order.Order#total()]
        record com.acme.common.Money  src/main/java/com/acme/common/Money.java:6-12  [via com.acme.order.Order#total()]
        field com.acme.common.Money#ZERO  src/main/java/com/acme/common/Money.java:7  [via com.acme.order.Order#total()]
        method com.acme.inventory.InventoryService#reserve(String,int)  src/main/java/com/acme/inventory/InventoryService.java:13-15  [via com.acme.order.OrderService#place(Order)]
        method com.acme.pay.PaymentService#pay(String,Money)  src/main/java/com/acme/pay/PaymentService.java:15-18  [via com.acme.order.OrderService#place(Order)]
        method com.acme.user.User#id()  src/main/java/com/acme/user/User.java:11-13  [via com.acme.order.OrderService#place(Order)]
        ... 6 more (limit=6); next page: offset=31

    "####]]
    .assert_eq(&out);
}

/// An endpoint a test declares (a test's router, its handler a closure, as axum's tests
/// build them) weighs as a test in sentence search, below the router it checks.
#[test]
fn a_sentence_ranks_a_tests_endpoints_as_tests() {
    let tmp = temp_copy("rust-web");
    let api = tmp.path().join("src/api.rs");
    let text = std::fs::read_to_string(&api).unwrap();
    std::fs::write(
        &api,
        format!(
            "{text}\n#[cfg(test)]\nmod tests {{\n    #[test]\n    fn audit_answers() {{\n        let app = Router::new().route(\"/audit/replay\", get(|| async {{ \"replayed\" }}));\n    }}\n}}\n"
        ),
    )
    .unwrap();
    index(tmp.path(), &Options { threads: 2, ..Options::default() }, &|_, _| {}).unwrap();
    let atlas = Atlas::new(tmp.path());
    let answer = atlas.call("search_symbols", json!({"query": "where is the audit trail replayed", "limit": 4})).unwrap();
    expect_test::expect![[r#"
        6 symbols match the words "audit trail replayed" (a sentence: stop words dropped, words stemmed; name, owner, doc, path, uses and text searched)
        function rust_web::api::audit  src/api.rs:36  [name: audit]
        endpoint GET /v2/ops/audit  src/api.rs:36  [name: audit]
        endpoint GET /audit/replay  src/api.rs:49  [name: audit, replayed; text: audit, replayed]
        function rust_web::api::tests::audit_answers  src/api.rs:48-50  [name: audit]
        ... 2 more (limit=4); next page: offset=4"#]]
    .assert_eq(&answer);
}

/// A member written with its parameters in a sentence (`Account.Account()`) is that overload:
/// the overloads' row shows its lines (a setter's lines for `Element.text()` misled before).
#[test]
fn a_sentence_writing_a_call_names_its_overload() {
    let out = run_calls(
        "java-overloads",
        &[
            ("search_symbols", json!({"query": "Account.Account() should start with an empty balance", "limit": 1})),
            ("search_symbols", json!({"query": "Account.Account(String,int) should check the limit", "limit": 1})),
            // Parameters that no overload has: every overload is named.
            ("search_symbols", json!({"query": "Account.Account(long) should start with an empty balance", "limit": 1})),
        ],
    );
    expect_test::expect![[r####"
        ### search_symbols {"query":"Account.Account() should start with an empty balance","limit":1}
        11 symbols match the words "account start empty balance" (a sentence: stop words dropped, words stemmed, 3 related words added; name, owner, doc, path, uses and text searched)
        constructor p.Account#Account  src/p/Account.java:6-8 (3 overloads)  [name: account; owner: account; uses: account]
        ... 10 more (limit=1); next page: offset=1

        ### search_symbols {"query":"Account.Account(String,int) should check the limit","limit":1}
        22 symbols match the words "account string int check limit" (a sentence: stop words dropped, words stemmed, 8 related words added; name, owner, doc, path, uses and text searched)
        constructor p.Account#Account  src/p/Account.java:14-16 (3 overloads)  [name: account; owner: account; uses: account, string]
        ... 21 more (limit=1); next page: offset=1

        ### search_symbols {"query":"Account.Account(long) should start with an empty balance","limit":1}
        11 symbols match the words "account long start empty balance" (a sentence: stop words dropped, words stemmed, 4 related words added; name, owner, doc, path, uses and text searched)
        constructor p.Account#Account  src/p/Account.java:10-12 (3 overloads)  [name: account; owner: account]
        ... 10 more (limit=1); next page: offset=1

    "####]].assert_eq(&out);
}

/// Search by intent (issue 35): a task written as a sentence is searched by its content words
/// (stop words and task verbs dropped, stems folded, `Owner.member` taken as written), ranked
/// by how much of the sentence a symbol covers in its name, owner, path and doc, declarations
/// before their fields and constructors, production code before tests (Rust's `mod tests`
/// too), an area named before a colon first (`pay: ...`); the best hits bring
/// their callers and callees in (`via`), and each row says which words matched where.
#[test]
fn search_symbols_reads_a_sentence() {
    let java = run_calls(
        "java-shop",
        &[
            ("search_symbols", json!({"query": "Validate the order total before charging the payment", "limit": 6})),
            ("search_symbols", json!({"query": "Fix rounding in Order.total when lines are empty", "limit": 4})),
            // About tests: tests are not pushed back.
            ("search_symbols", json!({"query": "test placing an order", "limit": 3})),
            // Nothing but stop words: the name search answers.
            ("search_symbols", json!({"query": "the of and", "limit": 2})),
            // One word left: a sentence still (its words' pass has no second half).
            ("search_symbols", json!({"query": "where is the payment", "limit": 2})),
            // An area before a colon: its symbols first (`pay`: the payment package, and
            // `OrderService#payments`, whose name holds the word).
            ("search_symbols", json!({"query": "pay: validate the order total", "limit": 3})),
            // Found by what it uses: `Money#plus` adds `BigDecimal`s (an external) and reads
            // `amount()`; no name of its own holds these words.
            ("search_symbols", json!({"query": "keep a decimal amount exact when adding sums", "limit": 2})),
            // Found by its error message: `AbstractGateway#charge` throws "amount must be
            // positive".
            ("search_symbols", json!({"query": "refuse charges whose amount is not positive", "limit": 2})),
            // A type the sentence names: its members come first (above the class, which
            // the bonus leaves out), `place`, which uses `payments`, before those that only
            // sit in it.
            ("search_symbols", json!({"query": "Retry declined payments in OrderService", "limit": 5})),
        ],
    );
    let rust = run_calls(
        "rust-shop",
        &[
            ("search_symbols", json!({"query": "reserve stock in the inventory before placing orders", "limit": 5})),
            // A test in a `mod tests` is test code: it comes after the function it is about.
            ("search_symbols", json!({"query": "the empty order", "limit": 3})),
            // A member written `Owner::member` is named: it covers the whole sentence.
            ("search_symbols", json!({"query": "Log which gateway PaymentService::pay tried", "limit": 2})),
            // A member the type does not have: the answer says so, and searches its words.
            ("search_symbols", json!({"query": "Make PaymentService::refund return the receipt", "limit": 2})),
        ],
    );
    expect_test::expect![[r####"
        ### search_symbols {"query":"Validate the order total before charging the payment","limit":6}
        56 symbols match the words "validate order total charging payment" (a sentence: stop words dropped, words stemmed; name, owner, doc, path, uses and text searched)
        method com.acme.order.OrderValidator#requireLines(Order)  src/main/java/com/acme/order/OrderValidator.java:6-17  [owner: validate, order; uses: order, total; text: order]
        class com.acme.order.OrderValidator  src/main/java/com/acme/order/OrderValidator.java:3-18  [name: validate, order; owner: order]
        method com.acme.order.Order#total()  src/main/java/com/acme/order/Order.java:24-30  [name: total; owner: order]
        method com.acme.order.OrderService#place(Order)  src/main/java/com/acme/order/OrderService.java:23-32  [owner: order; uses: order, total, payment]
        constructor com.acme.order.OrderValidator#OrderValidator()  src/main/java/com/acme/order/OrderValidator.java:4  [name: validate, order; owner: validate, order]
        method com.acme.pay.AbstractGateway#charge(String,BigDecimal)  src/main/java/com/acme/pay/AbstractGateway.java:11-18  [name: charging; uses: charging, payment]
        ... 50 more (limit=6); next page: offset=6

        ### search_symbols {"query":"Fix rounding in Order.total when lines are empty","limit":4}
        37 symbols match the words "rounding order total lines empty" (a sentence: stop words dropped, words stemmed; name, owner, doc, path, uses and text searched)
        method com.acme.order.Order#total()  src/main/java/com/acme/order/Order.java:24-30  [name: total; owner: order; uses: lines]
        method com.acme.order.OrderValidator#requireLines(Order)  src/main/java/com/acme/order/OrderValidator.java:6-17  [name: lines; owner: order; uses: order, total, lines, empty; text: order, lines]
        method com.acme.order.OrderService#place(Order)  src/main/java/com/acme/order/OrderService.java:23-32  [owner: order; uses: order, total, lines]
        method com.acme.order.Order#lines()  src/main/java/com/acme/order/Order.java:20-22  [name: lines; owner: order; uses: lines]
        ... 33 more (limit=4); next page: offset=4

        ### search_symbols {"query":"test placing an order","limit":3}
        37 symbols match the words "test placing order" (a sentence: stop words dropped, words stemmed; name, owner, doc, path, uses and text searched)
        method com.acme.order.OrderServiceTest#placesAnOrder()  src/test/java/com/acme/order/OrderServiceTest.java:7-10  [name: placing, order; owner: test, order; uses: placing, order]
        class com.acme.order.OrderServiceTest  src/test/java/com/acme/order/OrderServiceTest.java:6-11  [name: test, order; owner: order]
        method com.acme.order.OrderService#place(Order)  src/main/java/com/acme/order/OrderService.java:23-32  [name: placing; owner: order; uses: order; text: placing]
        ... 34 more (limit=3); next page: offset=3

        ### search_symbols {"query":"the of and","limit":2}
        7 symbols match "the of and"
        close (some words, a typo away, doc words):
          method com.acme.pay.PaymentGateway#charge(String,BigDecimal)  src/main/java/com/acme/pay/PaymentGateway.java:10  String charge(String account, BigDecimal amount) throws PaymentException
          enum com.acme.pay.PaymentService.Status  src/main/java/com/acme/pay/PaymentService.java:21-27  public enum Status
        ... 5 more (limit=2); next page: offset=2

        ### search_symbols {"query":"where is the payment","limit":2}
        30 symbols match the words "payment" (a sentence: stop words dropped, words stemmed; name, owner, doc, path, uses and text searched)
        interface com.acme.pay.PaymentGateway  src/main/java/com/acme/pay/PaymentGateway.java:8-15  [name: payment]
        class com.acme.pay.PaymentService  src/main/java/com/acme/pay/PaymentService.java:7-28  [name: payment]
        ... 28 more (limit=2); next page: offset=2

        ### search_symbols {"query":"pay: validate the order total","limit":3}
        52 symbols match the words "pay validate order total" (a sentence: stop words dropped, words stemmed; name, owner, doc, path, uses and text searched)
        method com.acme.pay.PaymentService#pay(String,Money)  src/main/java/com/acme/pay/PaymentService.java:15-18  [name: pay; owner: pay; uses: pay]
        class com.acme.pay.PaypalGateway  src/main/java/com/acme/pay/PaypalGateway.java:5-10  [name: pay; owner: pay; uses: pay]
        interface com.acme.pay.PaymentGateway  src/main/java/com/acme/pay/PaymentGateway.java:8-15  [name: pay; owner: pay]
        ... 49 more (limit=3); next page: offset=3

        ### search_symbols {"query":"keep a decimal amount exact when adding sums","limit":2}
        19 symbols match the words "keep decimal amount exact sums" (a sentence: stop words dropped, words stemmed, 6 related words added; name, owner, doc, path, uses and text searched)
        method com.acme.common.Money#plus(Money)  src/main/java/com/acme/common/Money.java:9-11  [uses: decimal, amount]
        field com.acme.common.Money#amount  src/main/java/com/acme/common/Money.java:6  [name: amount; uses: decimal]
        ... 17 more (limit=2); next page: offset=2

        ### search_symbols {"query":"refuse charges whose amount is not positive","limit":2}
        30 symbols match the words "refuse charges whose amount positive" (a sentence: stop words dropped, words stemmed; name, owner, doc, path, uses and text searched)
        method com.acme.pay.AbstractGateway#charge(String,BigDecimal)  src/main/java/com/acme/pay/AbstractGateway.java:11-18  [name: charges; uses: charges; text: amount, positive]
        method com.acme.pay.PaymentService#pay(String,Money)  src/main/java/com/acme/pay/PaymentService.java:15-18  [uses: charges, amount]
        ... 28 more (limit=2); next page: offset=2

        ### search_symbols {"query":"Retry declined payments in OrderService","limit":5}
        54 symbols match the words "retry declined payments order service" (a sentence: stop words dropped, words stemmed, 2 related words added; name, owner, doc, path, uses and text searched)
        method com.acme.order.OrderService#place(Order)  src/main/java/com/acme/order/OrderService.java:23-32  [owner: order, service; uses: payments, order]
        constructor com.acme.order.OrderService#OrderService(PaymentService,InventoryService)  src/main/java/com/acme/order/OrderService.java:18-21  [name: order, service; owner: order, service; uses: payments, service]
        method com.acme.order.OrderService#max(Comparable,Comparable)  src/main/java/com/acme/order/OrderService.java:34-36  [owner: order, service]
        field com.acme.order.OrderService#payments  src/main/java/com/acme/order/OrderService.java:15  [name: payments; owner: order, service; uses: payments, service]
        class com.acme.order.OrderService  src/main/java/com/acme/order/OrderService.java:14-37  [name: order, service; owner: order; doc: payments, order]
        ... 49 more (limit=5); next page: offset=5

        ### search_symbols {"query":"reserve stock in the inventory before placing orders","limit":5}
        37 symbols match the words "reserve stock inventory placing orders" (a sentence: stop words dropped, words stemmed; name, owner, doc, path, uses and text searched)
        method shop_core::order::OrderService::place  crates/shop-core/src/order.rs:28-39  [name: placing; owner: orders; uses: reserve, stock, inventory, placing, orders]
        method shop_core::inventory::Inventory::reserve  crates/shop-core/src/inventory.rs:17-24  [name: reserve; owner: inventory]
        function shop_cli::main  crates/shop-cli/src/main.rs:12-19  [uses: inventory, placing, orders]
        struct shop_core::inventory::Inventory  crates/shop-core/src/inventory.rs:8-10  [name: inventory; owner: inventory; doc: reserve, stock]
        enum shop_core::order::PlaceError  crates/shop-core/src/order.rs:16-19  [name: placing; owner: orders]
        ... 32 more (limit=5); next page: offset=5

        ### search_symbols {"query":"the empty order","limit":3}
        23 symbols match the words "empty order" (a sentence: stop words dropped, words stemmed; name, owner, doc, path, uses and text searched)
        function shop_core::order::empty  crates/shop-core/src/order.rs:48-50  [name: empty; owner: order; uses: order]
        function shop_core::order::tests::empty_order_has_no_lines  crates/shop-core/src/order.rs:57-59  [name: empty, order; uses: empty]
        struct shop_core::order::Order  crates/shop-core/src/order.rs:9-13  [name: order; owner: order; doc: order]
        ... 20 more (limit=3); next page: offset=3

        ### search_symbols {"query":"Log which gateway PaymentService::pay tried","limit":2}
        40 symbols match the words "log gateway payment service pay tried" (a sentence: stop words dropped, words stemmed, 2 related words added; name, owner, doc, path, uses and text searched)
        method shop_core::pay::PaymentService::pay  crates/shop-core/src/pay/mod.rs:19-22  [name: pay; owner: payment, service, pay; uses: gateway]
        struct shop_core::pay::PaymentService  crates/shop-core/src/pay/mod.rs:10-12  [name: payment, service, pay; owner: pay; doc: gateway]
        ... 38 more (limit=2); next page: offset=2

        ### search_symbols {"query":"Make PaymentService::refund return the receipt","limit":2}
        32 symbols match the words "payment service refund return receipt" (a sentence: stop words dropped, words stemmed; name, owner, doc, path, uses and text searched)
        PaymentService has no member refund in the index: its words are searched as the sentence's
        method shop_core::order::OrderService::place  crates/shop-core/src/order.rs:28-39  [owner: service; uses: payment, receipt]
        struct shop_core::pay::PaymentService  crates/shop-core/src/pay/mod.rs:10-12  [name: payment, service]
        ... 30 more (limit=2); next page: offset=2

    "####]]
    .assert_eq(&format!("{java}{rust}"));
}

/// Rust (issue 49): impls of one trait for one generic type with other arguments (`impl
/// Format for Pretty<Full>`, `.. for Pretty<Compact>`) share the `<Type as Trait>::m`
/// handle, so each is listed by its place, and that place names it; `read_symbol` shows an
/// item with its outer attributes; an impl for an array keeps its written type.
#[test]
fn rust_handles_that_would_collide_are_places_and_reads_keep_attributes() {
    let repo = crate::resolve::write_fixture(
        r#"
//- Cargo.toml
[package]
name = "hd"
version = "0.1.0"
edition = "2021"
//- src/lib.rs
pub trait Format {
    fn format(&self) -> String;
}
pub struct Full;
pub struct Compact;
#[derive(Debug, Clone)]
#[cfg_attr(
    docsrs,
    doc(cfg(feature = "std"))
)]
pub struct Pretty<K>(K);
impl Format for Pretty<Full> {
    fn format(&self) -> String { "full".into() }
}
impl Format for Pretty<Compact> {
    fn format(&self) -> String { "compact".into() }
}
impl<K, const N: usize> Format for [(K, u8); N] {
    fn format(&self) -> String { String::new() }
}
#[macro_export]
macro_rules! metadata {
    () => {};
}
pub mod metadata {}
pub mod run;
pub mod exec;
pub use exec::run;
//- src/run.rs
pub struct Config;
//- src/exec.rs
pub fn run() {}
"#,
    );
    let root = repo.path();
    index(root, &Options::default(), &|_, _| {}).unwrap();
    let atlas = Atlas::new(&root.canonicalize().unwrap());
    let mut out = String::new();
    for (tool, args) in [
        ("get_symbol", json!({"symbol": "hd::Pretty::format"})),
        ("get_symbol", json!({"symbol": "src/lib.rs:16"})),
        ("read_symbol", json!({"symbol": "hd::Pretty"})),
        ("find_implementations", json!({"symbol": "hd::Format"})),
        // Rust's namespaces: a path naming a macro and a module, or a module and the function
        // a re-export of the same name brings in, names both.
        ("get_symbol", json!({"symbol": "hd::metadata"})),
        ("get_symbol", json!({"symbol": "hd::run"})),
        ("get_symbol", json!({"symbol": "src/lib.rs:22"})),
    ] {
        let answer = atlas.call(tool, args.clone()).unwrap_or_else(|e| format!("ERROR: {}", e.0));
        out.push_str(&format!("### {tool} {args}\n{}\n\n", scrub_dates(&answer)));
    }
    expect_test::expect![[r####"
        ### get_symbol {"symbol":"hd::Pretty::format"}
        method hd::Pretty::format: 2 overloads
          src/lib.rs:13  fn format(&self) -> String
          src/lib.rs:16  fn format(&self) -> String
        next: get_symbol {"symbol": "src/lib.rs:13"} for one

        ### get_symbol {"symbol":"src/lib.rs:16"}
        method <hd::Pretty as Format>::format
          at src/lib.rs:16
          signature: fn format(&self) -> String
          visibility: private
          parent: struct hd::Pretty
          references: 0  implementations: 0
        next: read_symbol {"symbol": "src/lib.rs:16"}

        ### read_symbol {"symbol":"hd::Pretty"}
        src/lib.rs:6-11 of 28 lines (struct hd::Pretty)
        ```
         6| #[derive(Debug, Clone)]
         7| #[cfg_attr(
         8|     docsrs,
         9|     doc(cfg(feature = "std"))
        10| )]
        11| pub struct Pretty<K>(K);
        ```

        ### find_implementations {"symbol":"hd::Format"}
        2 implementations of trait hd::Format
        hd  src/
          struct Pretty  lib.rs:11  (implements)
        impls for a type parameter or a type outside the repository:
          impl for [(K, u8); N]  src/lib.rs:18

        ### get_symbol {"symbol":"hd::metadata"}
        ERROR: "hd::metadata" is ambiguous (2 symbols); pass one of these handles:
          macro hd::metadata  src/lib.rs:22-24  (handle src/lib.rs:22)
          module hd::metadata  src/lib.rs:25  (handle src/lib.rs:25)

        ### get_symbol {"symbol":"hd::run"}
        ERROR: "hd::run" is ambiguous (2 symbols); pass one of these handles:
          module hd::run  src/lib.rs:26
          function hd::exec::run  src/exec.rs:1

        ### get_symbol {"symbol":"src/lib.rs:22"}
        macro hd::metadata
          at src/lib.rs:22-24
          signature: macro_rules! metadata
          visibility: pub
          parent: module hd
          references: 0  implementations: 0
        next: read_symbol {"symbol": "src/lib.rs:22"}

    "####]]
    .assert_eq(&out);
}

/// A class's dependency page leads with what it holds (its mapper and its payment client, by
/// field and constructor), then the rest of its code (what it throws), and folds the plain
/// data types of a package into one row (a lone one by its qualified name and place); what
/// depends on a type is never folded.
#[test]
fn a_dependency_page_folds_data_types_after_the_collaborators() {
    let out = run_calls(
        "java-data-types",
        &[
            ("dependency_graph", json!({"target": "com.shop.order.OrderService"})),
            ("dependency_graph", json!({"target": "com.shop.model.OrderItem", "direction": "in"})),
        ],
    );
    expect_test::expect![[r####"
        ### dependency_graph {"target":"com.shop.order.OrderService"}
        class com.shop.order.OrderService  src/main/java/com/shop/order/OrderService.java:9-31  loc 21 cx 4 modified <date>
        out: 8 dependencies, in: 0 dependents (ring 1)
        dependencies:
          com.shop.mapper  src/main/java/com/shop/mapper/
            interface OrderMapper  uses_type 2, calls 1  OrderMapper.java:5-7  loc 3 cx 1  held: mapper, constructor
          com.shop.pay  src/main/java/com/shop/pay/
            class PaymentClient  uses_type 2, calls 1  PaymentClient.java:6-14  loc 9 cx 2  held: payments, constructor
          com.shop.order  src/main/java/com/shop/order/
            class OrderException  instantiates 1  OrderException.java:3-7  loc 5 cx 2
          plain data (fields and accessors), a row a package
            com.shop.model: 3 types (Order, OrderItem, Status)  uses_type 3, instantiates 2, calls 4, accesses 1, uses_field 1  src/main/java/com/shop/model/
            com.shop.order.OrderParam  uses_type 1, calls 3  src/main/java/com/shop/order/OrderParam.java:3-14
          outside the repository
            java.util.List: add  calls 1

        ### dependency_graph {"target":"com.shop.model.OrderItem","direction":"in"}
        class com.shop.model.OrderItem  src/main/java/com/shop/model/OrderItem.java:3-18  loc 13 cx 2 modified <date>
        out: 1 dependency, in: 3 dependents (ring 1)
        dependents:
          com.shop.order  src/main/java/com/shop/order/
            class OrderService  uses_type 1, instantiates 1, calls 2  OrderService.java:9-31  loc 21 cx 4
          com.shop.model  src/main/java/com/shop/model/
            class Order  uses_type 2  Order.java:6-21  loc 13 cx 3
          com.shop.pay  src/main/java/com/shop/pay/
            class PaymentClient  uses_type 1, calls 1  PaymentClient.java:6-14  loc 9 cx 2

    "####]].assert_eq(&out);
}
