//! The real binary as an MCP server over stdio, driven by rmcp's client: the tool list,
//! every tool (answers must equal what `Atlas::call` gives in-process), the overview
//! resource, and errors (unknown tool, unknown and ambiguous symbols, bad range, path
//! escape).

use std::process::Stdio;

use repochart::index::{index, Options};
use repochart::tools::{Atlas, TOOLS};
use rmcp::model::{CallToolRequestParams, ReadResourceRequestParams};
use rmcp::transport::TokioChildProcess;
use rmcp::ServiceExt;
use serde_json::{json, Value};

use crate::util::temp_copy;

fn text_of(result: &rmcp::model::CallToolResult) -> String {
    result.content.iter().filter_map(|c| c.as_text().map(|t| t.text.clone())).collect::<Vec<_>>().join("\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serves_every_tool_over_stdio() {
    let repo = temp_copy("java-shop");
    index(repo.path(), &Options::default(), &|_, _| {}).unwrap();
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_repochart"));
    let mut command = command;
    command.arg("serve").arg("--repo").arg(repo.path());
    let (transport, _) = TokioChildProcess::builder(command).stderr(Stdio::null()).spawn().unwrap();
    let client = ().serve(transport).await.unwrap();

    let info = client.peer_info().unwrap();
    assert_eq!(info.server_info.as_ref().map(|s| s.name.as_str()), Some("repochart"));
    assert!(info.instructions.as_deref().unwrap_or("").contains("Walk down the tiers"));

    // The tool list: twelve tools, read-only, small.
    let tools = client.list_tools(None).await.unwrap().tools;
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, TOOLS.iter().map(|t| t.name).collect::<Vec<_>>());
    // Its size as clients count it: the Python SDK writes the result with `json.dumps(...,
    // separators=(",", ":"))`, which escapes every non-ASCII character (6 bytes, 12 beyond
    // the BMP), and adds its own result defaults (`ttlMs`, `cacheScope`, `resultType`: 57
    // bytes in mcp 2.3). The budget is 6,000 bytes in all; .ci/sdk_tools.py measures it
    // with the SDK itself. 5,900 leaves the SDK's fields and a little room.
    let listed = serde_json::to_string(&json!({ "tools": tools })).unwrap();
    let as_python_writes_it: usize = listed
        .chars()
        .map(|c| {
            if c.is_ascii() {
                1
            } else if (c as u32) < 0x10000 {
                6
            } else {
                12
            }
        })
        .sum();
    assert!(as_python_writes_it <= 5_900, "tools/list is {as_python_writes_it} bytes as the Python SDK writes it");
    // `search_symbols` names every kind it takes in its schema, so a model need not learn
    // them from an error.
    let search = tools.iter().find(|t| t.name == "search_symbols").unwrap();
    let kinds =
        search.input_schema["properties"]["kind"]["enum"].as_array().map(|a| a.iter().map(|k| k.as_str().unwrap()).collect::<Vec<_>>());
    assert_eq!(kinds, Some(repochart::model::SymbolKind::all().map(|k| k.as_str()).collect::<Vec<_>>()));
    assert_eq!(kinds.unwrap()[20..], ["endpoint", "config_key", "statement"]);
    for t in &tools {
        let a = t.annotations.as_ref().unwrap();
        assert_eq!((a.read_only_hint, a.idempotent_hint, a.open_world_hint), (Some(true), None, Some(false)), "{}", t.name);
        assert!(t.description.as_ref().unwrap().len() <= 100);
    }

    // The server reconciles the index in the background at start; wait until it is done.
    let call = |name: &'static str, args: Value| {
        let params = CallToolRequestParams::new(name).with_arguments(args.as_object().unwrap().clone());
        client.call_tool(params)
    };
    // Up to 30 s: a loaded CI machine builds even this small index slowly in debug.
    let mut settled = false;
    for _ in 0..600 {
        let r = call("repo_overview", json!({})).await.unwrap();
        if !text_of(&r).contains("[index updating") {
            settled = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(settled, "the server's first index did not finish in 30 s");

    let atlas = Atlas::new(&repo.path().canonicalize().unwrap());
    let calls: Vec<(&str, Value, bool)> = vec![
        ("repo_overview", json!({}), false),
        ("dependency_graph", json!({"target": "com.acme.order.OrderService", "direction": "out"}), false),
        ("dependency_path", json!({"from": "com.acme.Application", "to": "com.acme.pay.PaymentGateway"}), false),
        ("change_impact", json!({"target": "com.acme.pay.StripeGateway"}), false),
        ("search_symbols", json!({"query": "gateway"}), false),
        ("get_symbol", json!({"symbol": "com.acme.pay.PaymentGateway"}), false),
        ("find_implementations", json!({"symbol": "com.acme.pay.PaymentGateway", "transitive": true}), false),
        ("find_references", json!({"symbol": "com.acme.pay.PaymentService"}), false),
        ("file_outline", json!({"path": "src/main/java/com/acme/order/Order.java"}), false),
        ("read_source", json!({"path": "src/main/java/com/acme/Application.java", "start_line": 8, "end_line": 13}), false),
        ("read_symbol", json!({"symbol": "com.acme.order.OrderService#place"}), false),
        ("search_text", json!({"query": "throws PaymentException"}), false),
        ("get_symbol", json!({"symbol": "NoSuchThing"}), true),
        ("get_symbol", json!({"symbol": "User"}), true),
        ("read_source", json!({"path": "src/main/java/com/acme/Application.java", "start_line": 20, "end_line": 10}), true),
        ("read_source", json!({"path": "../../etc/passwd", "start_line": 1, "end_line": 3}), true),
        ("find_references", json!({"symbol": 42}), true),
    ];
    let mut seen = std::collections::HashSet::new();
    for (name, args, is_error) in calls {
        seen.insert(name);
        let result = call(name, args.clone()).await.unwrap();
        assert_eq!(result.is_error, Some(is_error), "{name} {args}: {}", text_of(&result));
        let expected = match atlas.call(name, args.clone()) {
            Ok(t) => t,
            Err(e) => e.0,
        };
        assert_eq!(text_of(&result), expected, "{name} {args}");
    }
    assert_eq!(seen.len(), 12, "every tool is called");

    // Exact answers for a few, so that the comparison above is not vacuous.
    let r = call("find_implementations", json!({"symbol": "com.acme.pay.PaymentGateway"})).await.unwrap();
    assert_eq!(
        text_of(&r),
        "2 implementations of interface com.acme.pay.PaymentGateway\ncom.acme.pay  src/main/java/com/acme/pay/\n  class AbstractGateway  AbstractGateway.java:8-21  (implements)\n  class PaypalGateway  PaypalGateway.java:5-10  (implements)"
    );
    let r = call("read_source", json!({"path": "../../etc/passwd", "start_line": 1, "end_line": 3})).await.unwrap();
    assert_eq!(text_of(&r), "\"../../etc/passwd\" leaves the repository root; refused");
    let r = call("get_symbol", json!({"symbol": "User"})).await.unwrap();
    assert!(text_of(&r).starts_with("\"User\" is ambiguous (2 symbols); pass one of these handles:\n  class com.acme.legacy.User"));

    // An unknown tool is a protocol error.
    assert!(call("drop_tables", json!({})).await.is_err());

    // The overview is also a resource.
    let resource = client.read_resource(ReadResourceRequestParams::new("repochart://overview")).await.unwrap();
    let text = match &resource.contents[0] {
        rmcp::model::ResourceContents::TextResourceContents { text, .. } => text.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(text, atlas.call("repo_overview", json!({})).unwrap());
    client.cancel().await.unwrap();
}

/// Both protocol eras over raw JSON-RPC lines: `initialize` (2025-11-25), then a
/// stateless 2026-07-28 request carrying its metadata inline. Every line on stdout must
/// be JSON-RPC.
#[test]
fn speaks_both_protocol_eras_and_only_json_on_stdout() {
    use std::io::{BufRead, BufReader, Write};
    let repo = temp_copy("java-shop");
    index(repo.path(), &Options::default(), &|_, _| {}).unwrap();
    let run = |lines: &[Value]| -> Vec<Value> {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_repochart"))
            .arg("serve")
            .arg("--repo")
            .arg(repo.path())
            .env("REPOCHART_LOG", "debug")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        for line in lines {
            writeln!(stdin, "{line}").unwrap();
        }
        let expected = lines.iter().filter(|l| l.get("id").is_some()).count();
        let mut out = Vec::new();
        let mut reader = BufReader::new(child.stdout.take().unwrap());
        while out.len() < expected {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap() == 0 {
                break;
            }
            out.push(serde_json::from_str::<Value>(&line).unwrap_or_else(|e| panic!("not JSON on stdout: {line:?}: {e}")));
        }
        drop(stdin);
        child.wait().unwrap();
        out
    };
    let args = json!({"symbol": "com.acme.pay.PaymentGateway"});
    let expected_start =
        "2 implementations of interface com.acme.pay.PaymentGateway\ncom.acme.pay  src/main/java/com/acme/pay/\n  class AbstractGateway";

    let classic = run(&crate::util::first_call("find_implementations", json!({"arguments": args})));
    assert_eq!(classic[0]["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(classic[0]["result"]["serverInfo"]["name"], "repochart");
    assert_eq!(classic[1]["result"]["isError"], false);
    assert!(classic[1]["result"]["content"][0]["text"].as_str().unwrap().starts_with(expected_start), "{}", classic[1]);

    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"}
    });
    let stateless = run(&[
        json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "find_implementations", "arguments": args, "_meta": meta}}),
    ]);
    assert_eq!(stateless[0]["id"], 7);
    assert_eq!(stateless[0]["result"]["isError"], false);
    assert!(stateless[0]["result"]["content"][0]["text"].as_str().unwrap().starts_with(expected_start), "{}", stateless[0]);
}

/// A call made while the server builds a repository's first index waits for the build
/// (agents give up on a tool after an early error) and reports its progress to a client
/// that asked with a `progressToken`; then it answers from the new index.
#[test]
fn a_call_during_the_first_build_waits_for_it_with_progress() {
    use std::io::{BufRead, BufReader, Write};
    let tmp = tempfile::tempdir().unwrap();
    // Enough files that the build outlasts the first call's arrival.
    for i in 0..3_000 {
        let dir = tmp.path().join(format!("src/p{}", i % 30));
        std::fs::create_dir_all(&dir).unwrap();
        let body: String = (0..20).map(|m| format!("    int m{m}(int x) {{ return x + {m}; }}\n")).collect();
        std::fs::write(dir.join(format!("C{i}.java")), format!("package p{};\n\nclass C{i} {{\n{body}}}\n", i % 30)).unwrap();
    }
    let mut child = crate::util::serve_raw(tmp.path(), Stdio::piped(), Stdio::null(), None);
    let mut stdin = child.stdin.take().unwrap();
    for line in crate::util::first_call("repo_overview", json!({"arguments": {}, "_meta": {"progressToken": "first-build"}})) {
        writeln!(stdin, "{line}").unwrap();
    }
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut progress = Vec::new();
    let answer = loop {
        let mut line = String::new();
        assert!(reader.read_line(&mut line).unwrap() > 0, "the server closed stdout");
        let message: Value = serde_json::from_str(&line).unwrap();
        if message["method"] == "notifications/progress" {
            assert_eq!(message["params"]["progressToken"], "first-build");
            progress.push(message["params"]["progress"].as_f64().unwrap());
        } else if message["id"] == 2 {
            break message;
        }
    };
    drop(stdin);
    child.wait().unwrap();
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("repo "), "{text}");
    assert!(text.contains(": 3000 files,"), "{text}");
    assert!(!progress.is_empty(), "no progress notifications while the build ran");
    assert!(progress.windows(2).all(|w| w[0] <= w[1]), "progress went back: {progress:?}");
}
