//! Where users live: `init` for MCP clients, `.repochart.toml`, `status`, the HTTP
//! transport, git-aware `change_impact`, and Windows-style path arguments.

use std::io::{BufRead, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use repochart::index::{index, Options};
use repochart::setup::{self, Action, Client, Launcher};
use repochart::tools::Atlas;
use serde_json::{json, Value};

use crate::util::temp_copy;

fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_repochart"));
    // Errors are compared whole: no backtraces from a developer's environment.
    cmd.env_remove("RUST_BACKTRACE").env_remove("RUST_LIB_BACKTRACE");
    cmd
}

fn run(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

// ------------------------------------------------------------ init

#[test]
fn init_keeps_other_servers_and_is_idempotent() {
    let repo = temp_copy("java-shop");
    let root = repo.path();
    std::fs::create_dir_all(root.join(".vscode")).unwrap();
    let vscode_before = r#"{
  "inputs": [{"type": "promptString", "id": "token"}],
  "servers": {
    "github": {"type": "http", "url": "https://api.example.com/mcp"}
  }
}"#;
    std::fs::write(root.join(".vscode/mcp.json"), vscode_before).unwrap();
    std::fs::write(root.join(".mcp.json"), r#"{"mcpServers": {"db": {"command": "db-mcp", "args": ["--ro"]}}}"#).unwrap();

    let changes = setup::init(root, &Client::ALL, &Launcher::Program("repochart".into())).unwrap();
    let actions: Vec<(Client, &Action)> = changes.iter().map(|c| (c.client, &c.action)).collect();
    assert_eq!(actions, vec![(Client::Claude, &Action::Added), (Client::Cursor, &Action::Created), (Client::Vscode, &Action::Added)]);

    let claude = read_json(&root.join(".mcp.json"));
    assert_eq!(
        claude,
        json!({"mcpServers": {
            "db": {"command": "db-mcp", "args": ["--ro"]},
            "repochart": {"type": "stdio", "command": "repochart", "args": ["serve", "--repo", "${CLAUDE_PROJECT_DIR:-.}"]}
        }})
    );
    let vscode_text = std::fs::read_to_string(root.join(".vscode/mcp.json")).unwrap();
    // Other keys keep their order: `inputs` stays first.
    assert!(vscode_text.find("\"inputs\"").unwrap() < vscode_text.find("\"servers\"").unwrap(), "{vscode_text}");
    assert_eq!(
        serde_json::from_str::<Value>(&vscode_text).unwrap(),
        json!({
            "inputs": [{"type": "promptString", "id": "token"}],
            "servers": {
                "github": {"type": "http", "url": "https://api.example.com/mcp"},
                "repochart": {"type": "stdio", "command": "repochart", "args": ["serve", "--repo", "${workspaceFolder}"]}
            }
        })
    );
    assert_eq!(
        read_json(&root.join(".cursor/mcp.json")),
        json!({"mcpServers": {"repochart": {"type": "stdio", "command": "repochart", "args": ["serve", "--repo", "${workspaceFolder}"]}}})
    );

    // Again: nothing changes, byte for byte, and our entry is not duplicated.
    let before: Vec<String> = Client::ALL.iter().map(|c| std::fs::read_to_string(root.join(c.file())).unwrap()).collect();
    let again = setup::init(root, &Client::ALL, &Launcher::Program("repochart".into())).unwrap();
    assert!(again.iter().all(|c| c.action == Action::Unchanged), "{again:?}");
    let after: Vec<String> = Client::ALL.iter().map(|c| std::fs::read_to_string(root.join(c.file())).unwrap()).collect();
    assert_eq!(before, after);

    // A moved binary updates our entry in place.
    let moved = setup::init(root, &[Client::Claude], &Launcher::Program("/opt/bin/repochart".into())).unwrap();
    assert_eq!(moved[0].action, Action::Updated);
    let claude = read_json(&root.join(".mcp.json"));
    assert_eq!(claude["mcpServers"].as_object().unwrap().len(), 2);
    assert_eq!(claude["mcpServers"]["repochart"]["command"], "/opt/bin/repochart");
}

/// An entry an earlier version wrote under its old name (`codeatlas`: by path, `uvx` or
/// `npx`) is replaced by ours in its place; a `codeatlas` entry of another shape (someone
/// else's server of that name) and every other entry stay as they were.
#[test]
fn init_replaces_an_earlier_versions_entry_and_keeps_others() {
    let repo = temp_copy("rust-shop");
    let root = repo.path();
    std::fs::create_dir_all(root.join(".cursor")).unwrap();
    std::fs::create_dir_all(root.join(".vscode")).unwrap();
    let old_path =
        json!({"type": "stdio", "command": "/home/u/.cargo/bin/codeatlas", "args": ["serve", "--repo", "${CLAUDE_PROJECT_DIR:-.}"]});
    let db = json!({"command": "db-mcp", "args": ["--ro"]});
    let zz = json!({"command": "zz", "args": []});
    std::fs::write(root.join(".mcp.json"), json!({"mcpServers": {"db": db, "codeatlas": old_path, "zz": zz}}).to_string()).unwrap();
    let old_npx = json!({"type": "stdio", "command": "npx", "args": ["-y", "codeatlas@0.1.0", "serve", "--repo", "${workspaceFolder}"]});
    std::fs::write(root.join(".cursor/mcp.json"), json!({"mcpServers": {"codeatlas": old_npx}}).to_string()).unwrap();
    let foreign = json!({"type": "stdio", "command": "codeatlas", "args": ["--stdio"], "env": {"TOKEN": "x"}});
    std::fs::write(root.join(".vscode/mcp.json"), json!({"servers": {"codeatlas": foreign}}).to_string()).unwrap();

    let changes = setup::init(root, &Client::ALL, &Launcher::Program("/opt/bin/repochart".into())).unwrap();
    let actions: Vec<(Client, &Action)> = changes.iter().map(|c| (c.client, &c.action)).collect();
    assert_eq!(actions, vec![(Client::Claude, &Action::Replaced), (Client::Cursor, &Action::Replaced), (Client::Vscode, &Action::Added)]);
    let ours = |repo: &str| json!({"type": "stdio", "command": "/opt/bin/repochart", "args": ["serve", "--repo", repo]});
    let claude = read_json(&root.join(".mcp.json"));
    assert_eq!(claude, json!({"mcpServers": {"db": db, "repochart": ours("${CLAUDE_PROJECT_DIR:-.}"), "zz": zz}}));
    let order: Vec<&String> = claude["mcpServers"].as_object().unwrap().keys().collect();
    assert_eq!(order, ["db", "repochart", "zz"], "ours takes the old entry's place");
    assert_eq!(read_json(&root.join(".cursor/mcp.json")), json!({"mcpServers": {"repochart": ours("${workspaceFolder}")}}));
    assert_eq!(
        read_json(&root.join(".vscode/mcp.json")),
        json!({"servers": {"codeatlas": foreign, "repochart": ours("${workspaceFolder}")}})
    );

    // uvx's shape too, beside an entry of ours that an earlier run wrote: one entry left.
    let old_uvx = json!({"type": "stdio", "command": "uvx", "args": ["codeatlas@0.1.0", "serve", "--repo", "${workspaceFolder}"]});
    std::fs::write(
        root.join(".cursor/mcp.json"),
        json!({"mcpServers": {"repochart": ours("${workspaceFolder}"), "codeatlas": old_uvx}}).to_string(),
    )
    .unwrap();
    let changes = setup::init(root, &[Client::Cursor], &Launcher::Program("/opt/bin/repochart".into())).unwrap();
    assert_eq!(changes[0].action, Action::Replaced);
    assert_eq!(read_json(&root.join(".cursor/mcp.json")), json!({"mcpServers": {"repochart": ours("${workspaceFolder}")}}));

    let again = setup::init(root, &Client::ALL, &Launcher::Program("/opt/bin/repochart".into())).unwrap();
    assert!(again.iter().all(|c| c.action == Action::Unchanged), "{again:?}");

    // The command says what it did.
    std::fs::write(root.join(".mcp.json"), json!({"mcpServers": {"codeatlas": old_path}}).to_string()).unwrap();
    let (code, out, err) = run(bin().args(["init", "--no-index", "--client", "claude", "--repo"]).arg(root));
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out.lines().next().unwrap(),
        format!("replaced the codeatlas entry of an earlier version with repochart in {}", root.join(".mcp.json").display())
    );
}

/// What an earlier version (then called codeatlas) left in a repository: its ignore files
/// are still honoured, its settings file read with a notice to rename it, and its index
/// folder left alone, never read or walked, with a notice that it can be deleted.
#[test]
fn an_earlier_versions_files_are_honoured_or_left_alone() {
    let repo = temp_copy("rust-shop");
    let root = repo.path();
    std::fs::write(root.join(".codeatlasignore"), "shop-cli/\n").unwrap();
    std::fs::write(root.join(".codeatlas.toml"), "exclude = [\"**/inventory/**\"]\n").unwrap();
    std::fs::create_dir_all(root.join(".codeatlas")).unwrap();
    std::fs::write(root.join(".codeatlas/index.db"), "an old index").unwrap();
    let (code, out, err) = run(bin().args(["index", "--repo"]).arg(root));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("indexed 5 files (5 parsed, 0 unchanged, 0 removed)"), "{out}");
    let notices: Vec<&str> = err.lines().filter(|l| l.contains(" WARN ")).map(|l| l.split_once(": ").unwrap().1).collect();
    assert_eq!(
        notices,
        [
            "reading .codeatlas.toml, the name of earlier versions: rename it to .repochart.toml",
            ".codeatlas/ holds the index of an earlier version (then called codeatlas), which is no longer read: delete it"
        ]
    );
    assert_eq!(std::fs::read_to_string(root.join(".codeatlas/index.db")).unwrap(), "an old index");
    // The new name wins over the old one.
    std::fs::write(root.join(".repochart.toml"), "").unwrap();
    let (code, out, err) = run(bin().args(["index", "--repo"]).arg(root));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("indexed 6 files (1 parsed, 5 unchanged, 0 removed)"), "{out}");
    assert!(!err.contains("WARN"), "{err}");
}

/// `--launcher uvx|npx`: the package runners, pinned to this version, in every client's
/// file; the default is the running binary's absolute path.
#[test]
fn init_launchers_write_package_runners() {
    let version = env!("CARGO_PKG_VERSION");
    for (launcher, command, first) in
        [("uvx", "uvx", vec![format!("repochart@{version}")]), ("npx", "npx", vec!["-y".to_string(), format!("repochart@{version}")])]
    {
        let repo = temp_copy("rust-shop");
        let root = repo.path();
        let (code, out, err) = run(bin().args(["init", "--no-index", "--launcher", launcher, "--repo"]).arg(root));
        assert_eq!(code, 0, "{out}{err}");
        for (client, repo_arg) in
            [(Client::Claude, "${CLAUDE_PROJECT_DIR:-.}"), (Client::Cursor, "${workspaceFolder}"), (Client::Vscode, "${workspaceFolder}")]
        {
            let doc = read_json(&root.join(client.file()));
            let key = if client == Client::Vscode { "servers" } else { "mcpServers" };
            let mut args = first.clone();
            args.extend(["serve".to_string(), "--repo".to_string(), repo_arg.to_string()]);
            assert_eq!(doc[key]["repochart"], json!({"type": "stdio", "command": command, "args": args}), "{launcher} {client:?}");
        }
        let line = format!(
            "or, for Claude Code from the command line: claude mcp add --scope project repochart -- {command} {} serve --repo .",
            first.join(" ")
        );
        assert!(out.lines().any(|l| l == line), "{out}");
    }
    // The default: this binary, by its absolute path.
    let repo = temp_copy("rust-shop");
    let root = repo.path();
    let (code, _, _) = run(bin().args(["init", "--no-index", "--client", "cursor", "--repo"]).arg(root));
    assert_eq!(code, 0);
    let me = std::path::PathBuf::from(env!("CARGO_BIN_EXE_repochart")).canonicalize().unwrap();
    assert_eq!(read_json(&root.join(".cursor/mcp.json"))["mcpServers"]["repochart"]["command"], json!(me.to_string_lossy()));
    let (code, _, err) = run(bin().args(["init", "--launcher", "brew", "--repo"]).arg(root));
    assert_eq!((code, err.trim()), (1, "Error: --launcher \"brew\": expected path, uvx or npx"));
}

#[test]
fn init_leaves_a_file_it_cannot_parse_alone() {
    let repo = temp_copy("java-shop");
    let root = repo.path();
    std::fs::create_dir_all(root.join(".vscode")).unwrap();
    let jsonc = "{\n  // my servers\n  \"servers\": {}\n}\n";
    std::fs::write(root.join(".vscode/mcp.json"), jsonc).unwrap();
    let err = setup::init(root, &[Client::Vscode], &Launcher::Program("repochart".into())).unwrap_err().to_string();
    assert!(err.contains(".vscode/mcp.json is not plain JSON"), "{err}");
    assert!(err.contains("add this under \"servers\" by hand: \"repochart\": {\"type\":\"stdio\""), "{err}");
    assert_eq!(std::fs::read_to_string(root.join(".vscode/mcp.json")).unwrap(), jsonc);
}

#[test]
fn init_command_writes_config_and_builds_the_index() {
    let repo = temp_copy("rust-shop");
    let root = repo.path();
    let (code, out, err) = run(bin().args(["init", "--client", "claude", "--repo"]).arg(root));
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], format!("created {}", root.join(".mcp.json").display()));
    assert!(lines[1].starts_with("or, for Claude Code from the command line: claude mcp add --scope project repochart -- "), "{out}");
    assert!(lines[2].starts_with("indexed 7 files (7 parsed, 0 unchanged, 0 removed)"), "{out}");
    assert!(root.join(".repochart/index.db").exists());
    assert!(!root.join(".cursor").exists() && !root.join(".vscode").exists());
    let (code, out, _) = run(bin().args(["init", "--client", "claude", "--repo"]).arg(root));
    assert_eq!(code, 0);
    assert!(out.starts_with(&format!("already set up: {}\n", root.join(".mcp.json").display())), "{out}");
    let (code, _, err) = run(bin().args(["init", "--client", "emacs", "--repo"]).arg(root));
    assert_eq!((code, err.trim()), (1, "Error: --client \"emacs\": expected claude, cursor, vscode or all"));
}

// ------------------------------------------------------------ .repochart.toml

#[test]
fn config_file_filters_what_is_indexed() {
    let repo = temp_copy("java-shop");
    let root = repo.path();
    std::fs::write(root.join("server.pem"), "-----BEGIN PRIVATE KEY-----\n").unwrap();
    std::fs::write(
        root.join(".repochart.toml"),
        "exclude = [\"src/test/**\"]\nmax_file_size = 100000\n\n[secrets]\npatterns = [\"**/legacy/*.java\"]\nallow = [\"server.pem\"]\n",
    )
    .unwrap();
    let summary = index(root, &Options::for_repo(root).unwrap(), &|_, _| {}).unwrap();
    assert_eq!(
        summary.skipped,
        vec![(
            "src/main/java/com/acme/legacy/User.java".to_string(),
            "looks like a secret (**/legacy/*.java, from .repochart.toml); not indexed".to_string()
        )]
    );
    let atlas = Atlas::new(root);
    let outline = atlas.call("file_outline", json!({"path": "src/test/java/com/acme/order/OrderServiceTest.java"})).unwrap_err().0;
    assert!(outline.starts_with("no indexed file \"src/test/java/com/acme/order/OrderServiceTest.java\""), "{outline}");
    assert!(atlas.call("file_outline", json!({"path": "src/main/java/com/acme/order/Order.java"})).is_ok());

    // Only Rust: the Java files leave the index.
    std::fs::write(root.join(".repochart.toml"), "languages = [\"rust\"]\n").unwrap();
    let summary = index(root, &Options::for_repo(root).unwrap(), &|_, _| {}).unwrap();
    assert_eq!((summary.files, summary.removed), (0, 15));
}

#[test]
fn a_bad_config_file_is_a_clear_error() {
    let repo = temp_copy("java-shop");
    let root = repo.path();
    std::fs::write(root.join(".repochart.toml"), "# settings\nexclude = [\"gen/**\"]\ndebounce = 20\n").unwrap();
    let (code, out, err) = run(bin().args(["index", "--repo"]).arg(root));
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        err.trim(),
        "Error: .repochart.toml:3: unknown field `debounce`, expected one of `include`, `exclude`, `languages`, `max_file_size`, `debounce_ms`, `answer_budget`, `audit_log`, `secrets`, `history`, `map`"
    );
    std::fs::write(root.join(".repochart.toml"), "languages = [\"java\", \"kotlin\"]\n").unwrap();
    let (code, _, err) = run(bin().args(["query", "repo_overview", "--repo"]).arg(root));
    assert_eq!((code, err.trim()), (1, "Error: .repochart.toml:1: languages: unknown language \"kotlin\"; languages: java, rust"));
}

#[test]
fn answer_budget_from_the_config_caps_answers() {
    let repo = temp_copy("java-shop");
    let root = repo.path();
    std::fs::write(root.join(".repochart.toml"), "answer_budget = 2000\n").unwrap();
    let methods: String = (0..150).map(|i| format!("    int method{i}() {{ return {i}; }}\n")).collect();
    std::fs::write(root.join("src/main/java/com/acme/Big.java"), format!("package com.acme;\n\nclass Big {{\n{methods}}}\n")).unwrap();
    index(root, &Options::for_repo(root).unwrap(), &|_, _| {}).unwrap();
    let (code, out, _) = run(bin().args(["query", "search_text", "query=a", "limit=200", "--repo"]).arg(root));
    assert_eq!(code, 0);
    assert!(out.len() <= 2001, "{} bytes", out.len());
    assert!(out.contains(" more (cut at the answer budget); next page: offset="), "{out}");
    let (_, read, _) = run(bin()
        .args(["query", "read_source", "path=src/main/java/com/acme/Big.java", "start_line=1", "end_line=154", "--repo"])
        .arg(root));
    assert!(read.len() <= 4001, "{} bytes", read.len());
    assert!(read.ends_with("\ncut at line 97 (budget 400 lines / 4000 bytes); next: read_source {\"path\": \"src/main/java/com/acme/Big.java\", \"start_line\": 98, \"end_line\": 154}\n"), "{read}");
}

// ------------------------------------------------------------ status

#[test]
fn status_reports_health_and_fails_on_a_broken_index() {
    let repo = temp_copy("java-shop");
    let root = repo.path();
    let (code, out, _) = run(bin().args(["status", "--repo"]).arg(root));
    let never = format!(
        "repository: {0}\nindex: {0}/.repochart/index.db (not built yet)\nstatus: not indexed yet: run `repochart index --repo {0}` (or start `repochart serve`, which builds it)\n",
        root.display()
    );
    assert_eq!((code, out), (1, never));
    // While another process builds the first index.
    let building = repochart::index::Indexer::open(root, &Options::for_repo(root).unwrap()).unwrap();
    let (code, out, _) = run(bin().args(["status", "--repo"]).arg(root));
    assert_eq!((code, out.lines().nth(2)), (1, Some("status: not indexed yet: another process is building it")));
    drop(building);

    index(root, &Options::for_repo(root).unwrap(), &|_, _| {}).unwrap();
    std::fs::write(root.join("src/main/java/com/acme/New.java"), "package com.acme;\nclass New {}\n").unwrap();
    std::fs::remove_file(root.join("src/main/java/com/acme/legacy/User.java")).unwrap();
    let (code, out, _) = run(bin().args(["status", "--repo"]).arg(root));
    assert_eq!(code, 0, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], format!("repository: {}", root.display()));
    assert_eq!(lines[2], "status: ok (schema version 21)");
    assert_eq!(lines[3], "contents: 17 files, 75 symbols, 209 references (209 resolved)");
    assert!(lines[4].starts_with("last update: ") && lines[4].ends_with(" ago"), "{out}");
    assert_eq!(
        lines[5],
        "pending: 1 new, 0 changed, 1 removed files not yet indexed (e.g. new src/main/java/com/acme/New.java, removed src/main/java/com/acme/legacy/User.java); `repochart index` or a running server catches up"
    );
    assert_eq!(lines[6], "syntax errors: 0 files (indexed with tree-sitter's recovery)");
    assert_eq!(lines[7], "skipped: none");
    assert!(lines[8].starts_with("watcher: needs "), "{out}");

    std::fs::write(root.join(".repochart/index.db"), b"this is not a database, it is a text file that is long enough").unwrap();
    let _ = std::fs::remove_file(root.join(".repochart/index.db-wal"));
    let _ = std::fs::remove_file(root.join(".repochart/index.db-shm"));
    let (code, out, _) = run(bin().args(["status", "--repo"]).arg(root));
    assert_eq!(code, 1, "{out}");
    assert!(out.lines().nth(2).unwrap().starts_with("status: BROKEN: the index is unreadable (file is not a database)"), "{out}");
}

// ------------------------------------------------------------ HTTP

/// One HTTP/1.0 exchange (the server closes the connection after the answer).
fn http(port: u16, headers: &[(&str, &str)], body: &Value) -> (u16, String, String) {
    let body = body.to_string();
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    let mut request = format!(
        "POST /mcp HTTP/1.0\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\n",
        body.len()
    );
    if !headers.iter().any(|(k, _)| *k == "Host") {
        request.push_str(&format!("Host: 127.0.0.1:{port}\r\n"));
    }
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(&body);
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head.to_string(), body.to_string())
}

/// The JSON-RPC message of an SSE answer (its last `data:` line that holds JSON).
fn sse_message(body: &str) -> Value {
    body.lines().filter_map(|l| l.strip_prefix("data: ")).filter_map(|d| serde_json::from_str(d).ok()).next_back().expect(body)
}

struct Killed(std::process::Child);
impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn serves_mcp_over_http_and_refuses_foreign_origins() {
    let repo = temp_copy("java-shop");
    let root = repo.path();
    index(root, &Options::for_repo(root).unwrap(), &|_, _| {}).unwrap();
    let mut child = bin()
        .args(["serve", "--no-watch", "--http", "0", "--repo"])
        .arg(root)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let server = Killed(child);
    let mut line = String::new();
    let port: u16 = loop {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "the server ended before listening");
        if let Some(rest) = line.trim().strip_prefix("repochart: serving MCP at http://127.0.0.1:") {
            break rest.strip_suffix("/mcp").unwrap().parse().unwrap();
        }
    };
    // Keep draining stderr (audit lines) so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in stderr.lines() {});

    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}});
    let (status, head, body) = http(port, &[], &init);
    assert_eq!(status, 200, "{head}");
    let reply = sse_message(&body);
    assert_eq!(reply["result"]["serverInfo"]["name"], "repochart");
    let session = head.lines().find_map(|l| l.strip_prefix("mcp-session-id: ")).expect(&head).trim().to_string();
    let (status, _, _) = http(port, &[("mcp-session-id", &session)], &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    assert_eq!(status, 202);
    let call =
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_symbol", "arguments": {"symbol": "Money"}}});
    // The first answers may carry a freshness line while the start-up reconcile runs.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let reply = loop {
        let (status, _, body) = http(port, &[("mcp-session-id", &session), ("Origin", "http://localhost:5173")], &call);
        assert_eq!(status, 200);
        let reply = sse_message(&body);
        if !reply["result"]["content"][0]["text"].as_str().unwrap().contains("[index updating") || std::time::Instant::now() > deadline {
            break reply;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(reply["result"]["isError"], false);
    let want = Atlas::new(root).call("get_symbol", json!({"symbol": "Money"})).unwrap();
    assert_eq!(reply["result"]["content"][0]["text"], want);

    // DNS rebinding: a page on another origin, or a request for another host name.
    let (status, _, body) = http(port, &[("Origin", "http://evil.example")], &init);
    assert_eq!((status, body.as_str()), (403, "Forbidden: Origin header is not allowed"));
    let (status, _, _) = http(port, &[("Host", "evil.example")], &init);
    assert_eq!(status, 403);

    // The map page at `/`, under the same rules.
    let get = |host: &str| -> (u16, String) {
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream.write_all(format!("GET / HTTP/1.0\r\nHost: {host}\r\n\r\n").as_bytes()).unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap();
        (head.split(' ').nth(1).unwrap().parse().unwrap(), body.to_string())
    };
    let (status, page) = get(&format!("127.0.0.1:{port}"));
    assert_eq!(status, 200);
    assert!(
        page.starts_with("<!DOCTYPE html>") && page.contains("<svg") && page.contains("com.acme.pay"),
        "{}",
        &page[..200.min(page.len())]
    );
    assert_eq!(get("evil.example").0, 403);
    drop(server);

    // Not on a public address without saying so.
    let (code, _, err) = run(bin().args(["serve", "--http", "0.0.0.0:0", "--repo"]).arg(root));
    assert_eq!(code, 1);
    assert!(err.contains("0.0.0.0:0 is not a loopback address; the server has no authentication, so pass --allow-remote"), "{err}");
}

// ------------------------------------------------------------ git

fn git(root: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args([
            "-c",
            "user.name=repochart",
            "-c",
            "user.email=test@repochart.invalid",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(root)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

#[test]
fn change_impact_of_the_working_tree() {
    let repo = temp_copy("java-shop");
    let root = repo.path();
    git(root, &["init", "-q"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "first"]);
    index(root, &Options::for_repo(root).unwrap(), &|_, _| {}).unwrap();
    let atlas = Atlas::new(root);
    let clean = atlas.call("change_impact", json!({"target": "git:working-tree"})).unwrap();
    assert_eq!(clean, "change_impact git:working-tree (working tree against HEAD)\nno changes to indexed files");

    // An uncommitted edit inside Money#plus, and a new file.
    let money = root.join("src/main/java/com/acme/common/Money.java");
    let text = std::fs::read_to_string(&money)
        .unwrap()
        .replace("amount.add(other.amount()), currency)", "amount.add(other.amount()), other.currency())");
    std::fs::write(&money, text).unwrap();
    std::fs::write(
        root.join("src/main/java/com/acme/common/Clock.java"),
        "package com.acme.common;\n\npublic class Clock {\n    long now() { return 0; }\n}\n",
    )
    .unwrap();
    index(root, &Options::for_repo(root).unwrap(), &|_, _| {}).unwrap();
    let answer = atlas.call("change_impact", json!({"target": "git:working-tree", "depth": 2})).unwrap();
    // The changes, then what they reach by ring, grouped by package (heaviest first), the
    // date left out where it is the newest change's, then the tests to run.
    assert_eq!(
        answer,
        "change_impact git:working-tree (working tree against HEAD)  depth=2
changed: 2 files (M 1, A 1, D 0), 2 symbols
  A class com.acme.common.Clock  src/main/java/com/acme/common/Clock.java:3-5
  M method com.acme.common.Money#plus(Money)  src/main/java/com/acme/common/Money.java:9-11
affected: 4 (ring 1: 1, ring 2: 2, ring 3: 1); tests: 1 (tests followed past ring 2)
ring 1:
  com.acme.order  src/main/java/com/acme/order/
    method Order#total()  calls 1  Order.java:24-30  loc 7 cx 2
ring 2:
  com.acme.order  src/main/java/com/acme/order/
    method OrderService#place(Order)  calls 1  OrderService.java:23-32  loc 10 cx 2
    method OrderValidator#requireLines(Order)  calls 1  OrderValidator.java:6-17  loc 12 cx 2
ring 3:
  com.acme.order  src/test/java/com/acme/order/
    method OrderServiceTest#placesAnOrder()  calls 1  OrderServiceTest.java:7-10  loc 4 cx 1  [test]
tests to run:
  src/test/java/com/acme/order/OrderServiceTest.java"
    );

    // Since a revision: commit, change again, compare with the first commit.
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "second"]);
    std::fs::remove_file(root.join("src/main/java/com/acme/legacy/User.java")).unwrap();
    index(root, &Options::for_repo(root).unwrap(), &|_, _| {}).unwrap();
    let answer = atlas.call("change_impact", json!({"target": "git:HEAD~1", "level": "file", "depth": 1})).unwrap();
    let lines: Vec<&str> = answer.lines().collect();
    assert_eq!(lines[0], "change_impact git:HEAD~1 (working tree against HEAD~1)  level=file  depth=1");
    assert_eq!(lines[1], "changed: 3 files (M 1, A 1, D 1), 2 files");
    assert_eq!(lines[2], "  A src/main/java/com/acme/common/Clock.java:1-5");
    assert_eq!(lines[3], "  M src/main/java/com/acme/common/Money.java:10");
    assert_eq!(lines[4], "  D src/main/java/com/acme/legacy/User.java  (deleted: what used it now has unresolved references)");

    let err = atlas.call("change_impact", json!({"target": "git:no-such-branch"})).unwrap_err().0;
    assert!(err.starts_with("git: unknown revision \"no-such-branch\""), "{err}");
}

/// Code generated at build time from outside the repository is said, not silent (issue 50,
/// item 11): a controller implementing the interface an OpenAPI generator makes (the pom's
/// plugin, `grammars/build/maven.toml`) says so and that its routes are unknown; without the
/// plugin, the same type is only external, and a JDK supertype never is generated.
#[test]
fn supertypes_a_build_time_generator_makes_are_said() {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    let write = |path: &str, text: &str| write_file(root, path, text);
    let pom = |plugins: &str| {
        format!("<project><modelVersion>4.0.0</modelVersion><groupId>com.shop</groupId><artifactId>shop</artifactId><version>1</version><build><plugins>{plugins}</plugins></build></project>\n")
    };
    write(
        "pom.xml",
        &pom("<plugin><groupId>org.openapitools</groupId><artifactId>openapi-generator-maven-plugin</artifactId><configuration><inputSpec>https://specs.example.com/orders.yaml</inputSpec></configuration></plugin>"),
    );
    write(
        "src/main/java/com/shop/web/OrdersController.java",
        "package com.shop.web;\n\nimport com.shop.api.OrdersApi;\nimport java.io.Serializable;\n\npublic class OrdersController implements OrdersApi, Serializable {\n}\n",
    );
    let supertypes = || {
        index(root, &Options::for_repo(root).unwrap(), &|_, _| {}).unwrap();
        let answer = Atlas::new(root).call("get_symbol", json!({"symbol": "com.shop.web.OrdersController"})).unwrap();
        answer.lines().find(|l| l.trim_start().starts_with("supertypes:")).unwrap_or_default().to_string()
    };
    assert_eq!(
        supertypes(),
        "  supertypes: com.shop.api.OrdersApi (implements; generated at build time by openapi-generator-maven-plugin, not in the repository: its routes are unknown), java.io.Serializable (implements, external)"
    );
    write("pom.xml", &pom(""));
    assert_eq!(supertypes(), "  supertypes: com.shop.api.OrdersApi (implements, external), java.io.Serializable (implements, external)");
}

/// External systems neither invented nor missed (issue 50, item 7): a JDBC driver only the
/// build declares is "declared only", and the `JdbcTemplate` the code uses is the configured
/// database's, not every declared one's; object stores, payment gateways and log shippers
/// are found by their keys, client types and artifacts.
#[test]
fn external_systems_declared_only_and_found_by_keys_types_and_artifacts() {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    let write = |path: &str, text: &str| write_file(root, path, text);
    let dependency =
        |group: &str, artifact: &str| format!("<dependency><groupId>{group}</groupId><artifactId>{artifact}</artifactId></dependency>");
    write(
        "pom.xml",
        &format!(
            "<project><modelVersion>4.0.0</modelVersion><groupId>com.shop</groupId><artifactId>shop</artifactId><version>1</version><dependencies>{}{}{}{}</dependencies></project>\n",
            dependency("org.postgresql", "postgresql"),
            dependency("com.mysql", "mysql-connector-j"),
            dependency("software.amazon.awssdk", "s3"),
            dependency("net.logstash.logback", "logstash-logback-encoder"),
        ),
    );
    write(
        "src/main/resources/application.yml",
        "spring:\n  datasource:\n    url: jdbc:mysql://db:3306/shop\nlogstash:\n  host: logs.internal:5000\nalipay:\n  gatewayUrl: https://openapi.alipay.com/gateway.do\n",
    );
    write(
        "src/main/java/com/shop/Orders.java",
        "package com.shop;\n\nimport com.alipay.api.AlipayClient;\nimport org.springframework.jdbc.core.JdbcTemplate;\n\npublic class Orders {\n    private JdbcTemplate jdbc;\n    private AlipayClient alipay;\n}\n",
    );
    index(root, &Options::for_repo(root).unwrap(), &|_, _| {}).unwrap();
    let overview = Atlas::new(root).call("repo_overview", json!({})).unwrap();
    let systems: Vec<&str> = overview.lines().skip_while(|l| !l.starts_with("external systems")).take(6).collect();
    assert_eq!(
        systems,
        [
            "external systems (5, from configuration, code and build files):",
            "  MySQL (database)  default=db:3306/shop; set in src/main/resources/application.yml:3; code: 1 file (JdbcTemplate)",
            "  PostgreSQL (database)  declared only, in pom.xml (postgresql): no configuration names it",
            "  Amazon S3 (object storage)  not configured here (its client's defaults); declared in pom.xml (s3)",
            "  Alipay (payment gateway)  default=openapi.alipay.com/gateway.do; set in src/main/resources/application.yml:7; code: 1 file (AlipayClient)",
            "  Logstash (log shipper)  default=logs.internal:5000; set in src/main/resources/application.yml:5",
        ]
    );
}

/// Every Spring condition shows on its bean (issue 50, item 6): Spring Boot's own
/// (`@ConditionalOnMissingBean`, `@ConditionalOnClass(name = ..)`, `@ConditionalOnExpression`),
/// `matchIfMissing` (on when the key is unset), a project's own composed condition
/// (`@ConditionalOnMissingProfile`, built on `@Conditional`); an expression's placeholders
/// are keys it reads. A Javadoc between two annotations is the doc, not a modifier, and the
/// annotation after it is kept.
#[test]
fn spring_conditions_show_on_their_beans() {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    let write = |path: &str, text: &str| write_file(root, path, text);
    write(
        "src/main/java/com/shop/ConditionalOnMissingProfile.java",
        "package com.shop;\n\nimport org.springframework.context.annotation.Conditional;\n\n@Conditional(OnMissingProfileCondition.class)\npublic @interface ConditionalOnMissingProfile {\n    String[] value();\n}\n",
    );
    write("src/main/java/com/shop/AuditTrail.java", "package com.shop;\n\npublic class AuditTrail {}\n");
    write(
        "src/main/java/com/shop/AuditConfig.java",
        r#"package com.shop;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration
@ConditionalOnClass(name = "com.rabbitmq.client.Channel")
// @Import(LegacyAuditConfig.class)
public class AuditConfig {
    @Bean
    @ConditionalOnMissingBean(AuditTrail.class)
    /** The trail every event is written to. */
    @ConditionalOnProperty(prefix = "shop.audit", name = "enabled", matchIfMissing = true)
    public AuditTrail auditTrail() {
        return new AuditTrail();
    }

    @Bean
    @ConditionalOnMissingProfile("prod")
    @ConditionalOnExpression("${shop.audit.verbose:false} and ${shop.audit.enabled:true}")
    public AuditTrail verboseTrail() {
        return new AuditTrail();
    }

    @Bean
    public Runnable auditReader(AuditTrail trail) {
        return () -> {};
    }
}
"#,
    );
    index(root, &Options::for_repo(root).unwrap(), &|_, _| {}).unwrap();
    let atlas = Atlas::new(root);
    let call = |tool: &str, args: Value| atlas.call(tool, args).unwrap();
    let answers = [
        call("get_symbol", json!({"symbol": "com.shop.AuditConfig"})),
        call("get_symbol", json!({"symbol": "com.shop.AuditConfig#auditTrail"})),
        call("get_symbol", json!({"symbol": "com.shop.AuditConfig#verboseTrail"})),
        call("find_references", json!({"symbol": "shop.audit.enabled"})),
    ];
    let modifiers: Vec<&str> =
        answers.iter().flat_map(|a| a.lines()).filter(|l| l.contains("modifiers:") || l.trim_start().starts_with("doc:")).collect();
    assert_eq!(
        modifiers,
        [
            "  visibility: public  modifiers: public @Configuration @ConditionalOnClass(com.rabbitmq.client.Channel)",
            "  visibility: public  modifiers: public @Bean @ConditionalOnMissingBean(AuditTrail) @ConditionalOnProperty(shop.audit.enabled=!false|unset)",
            "  doc: The trail every event is written to.",
            "  visibility: public  modifiers: public @Bean @ConditionalOnMissingProfile(prod) @ConditionalOnExpression(${shop.audit.verbose:false}and${shop.audit.enabled:true})",
        ]
    );
    assert_eq!(
        answers[3],
        "2 readers of config_key \"shop.audit.enabled\"
@ConditionalOnProperty method com.shop.AuditConfig#auditTrail  src/main/java/com/shop/AuditConfig.java:14-20
@ConditionalOnExpression method com.shop.AuditConfig#verboseTrail  src/main/java/com/shop/AuditConfig.java:22-27"
    );
    // A `@Bean` method's class's condition holds for its bean; a project's own condition
    // says what it is built on.
    let conditions: Vec<&str> = answers.iter().flat_map(|a| a.lines()).filter(|l| l.starts_with("  conditions:")).collect();
    assert_eq!(
        conditions,
        [
            "  conditions: class AuditConfig: @ConditionalOnClass(com.rabbitmq.client.Channel)",
            "  conditions: @ConditionalOnMissingProfile(@Conditional(OnMissingProfileCondition)); class AuditConfig: @ConditionalOnClass(com.rabbitmq.client.Channel)",
        ]
    );
    // In the service graph the row says it too, once: the project's own condition by its
    // name, as its modifiers show it.
    let graph = call("dependency_graph", json!({"target": "com.shop.AuditConfig#auditReader", "level": "service"}));
    let row = graph.lines().find(|l| l.contains("verboseTrail")).unwrap_or_default();
    assert!(
        row.ends_with("  @ConditionalOnMissingProfile(prod) @ConditionalOnExpression(${shop.audit.verbose:false}and${shop.audit.enabled:true}) [class AuditConfig: @ConditionalOnClass(com.rabbitmq.client.Channel)]"),
        "{graph}"
    );
    assert!(answers[1].contains("  signature: public AuditTrail auditTrail()\n"), "{}", answers[1]);
    // A comment between the annotations and the class is not its signature either.
    assert!(answers[0].contains("  signature: public class AuditConfig\n"), "{}", answers[0]);
}

/// A project's own annotation that carries a condition makes the beans it annotates
/// conditional, whatever its name (issue 50, item 6): `@OnlyInProduction`, itself
/// `@Profile("prod")`, and `@ProdService`, itself `@OnlyInProduction`, show on their beans in
/// `get_symbol` and in the service graph; an annotation without one adds nothing.
#[test]
fn spring_conditions_through_a_projects_own_annotations() {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    let write = |path: &str, text: &str| write_file(root, path, text);
    write(
        "src/main/java/com/shop/OnlyInProduction.java",
        "package com.shop;\n\nimport org.springframework.context.annotation.Profile;\n\n@Profile(\"prod\")\npublic @interface OnlyInProduction {\n}\n",
    );
    write("src/main/java/com/shop/ProdService.java", "package com.shop;\n\n@OnlyInProduction\npublic @interface ProdService {\n}\n");
    write("src/main/java/com/shop/Audited.java", "package com.shop;\n\npublic @interface Audited {\n}\n");
    write(
        "src/main/java/com/shop/Billing.java",
        r#"package com.shop;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.stereotype.Service;

@Configuration
class MailConfig {
    @Bean
    @OnlyInProduction
    Mailer mailer(Billing billing) {
        return new Mailer();
    }
}

class Mailer {
}

@Service
@ProdService
@Audited
class Billing {
}

@Service
@Audited
class Ledger {
}
"#,
    );
    index(root, &Options::for_repo(root).unwrap(), &|_, _| {}).unwrap();
    let atlas = Atlas::new(root);
    let call = |tool: &str, args: Value| atlas.call(tool, args).unwrap();
    let conditions: Vec<String> = ["com.shop.MailConfig#mailer", "com.shop.Billing", "com.shop.Ledger"]
        .iter()
        .map(|s| {
            let answer = call("get_symbol", json!({ "symbol": s }));
            answer.lines().find(|l| l.starts_with("  conditions:")).unwrap_or("-").to_string()
        })
        .collect();
    assert_eq!(
        conditions,
        ["  conditions: @OnlyInProduction(@Profile(prod))", "  conditions: @ProdService(@OnlyInProduction(@Profile(prod)))", "-"]
    );
    let graph = call("dependency_graph", json!({"target": "com.shop.Billing", "level": "service"}));
    let row = graph.lines().find(|l| l.contains("MailConfig#mailer")).unwrap_or_default();
    assert!(row.ends_with("  @OnlyInProduction(@Profile(prod))"), "{graph}");
}

/// A `@Bean` method depends on the beans its parameters name and on the `@Bean` methods it
/// calls (a `@Configuration` class's call returns that bean), not on a type its body makes
/// itself (issue 50's QA: `redisSerializer()` with a local `new ObjectMapper()` "injected"
/// the application's `ObjectMapper` bean, and `redisCacheManager` calling `redisSerializer()`
/// was no dependency).
#[test]
fn bean_methods_depend_on_their_parameters_and_the_bean_methods_they_call() {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    write_file(
        root,
        "src/main/java/com/shop/RedisConfig.java",
        r#"package com.shop;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration
public class RedisConfig {
    @Bean
    public ObjectMapper objectMapper() {
        return new ObjectMapper();
    }

    @Bean
    public Serializer serializer() {
        ObjectMapper mapper = new ObjectMapper();
        return new Serializer(mapper);
    }

    @Bean
    public CacheManager cacheManager() {
        return new CacheManager(serializer());
    }

    @Bean
    public Template template(Serializer serializer) {
        return new Template(serializer);
    }
}

class Serializer {
    Serializer(ObjectMapper mapper) {}
}

class CacheManager {
    CacheManager(Serializer serializer) {}
}

class Template {
    Template(Serializer serializer) {}
}
"#,
    );
    index(root, &Options::for_repo(root).unwrap(), &|_, _| {}).unwrap();
    let atlas = Atlas::new(root);
    let graph = atlas.call("dependency_graph", json!({"target": "com.shop.RedisConfig#serializer", "level": "service"})).unwrap();
    let rows: Vec<&str> = graph.lines().skip(1).map(|l| l.split("  RedisConfig.java").next().unwrap_or(l)).collect();
    assert_eq!(
        rows,
        [
            "out: 0 dependencies, in: 2 dependents (ring 1)",
            "dependents:",
            "  com.shop  src/main/java/com/shop/",
            "    method RedisConfig#cacheManager()  injects 1",
            "    method RedisConfig#template(Serializer)  injects 1",
        ],
        "{graph}"
    );
}

/// Working-tree impact is member by member (issue 50): an edit of a private helper reaches
/// the method of its own class that calls it, and through it the test; rows are methods,
/// not their classes.
#[test]
fn working_tree_impact_rows_are_methods_and_same_class_callers_count() {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    let write = |path: &str, text: &str| write_file(root, path, text);
    write(
        "src/main/java/com/acme/Prices.java",
        "package com.acme;\n\npublic class Prices {\n    public int total(int n) {\n        return n * unit();\n    }\n\n    private int unit() {\n        return 3;\n    }\n\n    public int other() {\n        return 1;\n    }\n}\n",
    );
    write(
        "src/test/java/com/acme/PricesTest.java",
        "package com.acme;\n\nclass PricesTest {\n    void totals() {\n        new Prices().total(2);\n    }\n\n    void others() {\n        new Prices().other();\n    }\n}\n",
    );
    let answer = impact_of_an_edit(root, "src/main/java/com/acme/Prices.java", "return 3;", "return 4;");
    assert_eq!(
        answer,
        "change_impact git:working-tree (working tree against HEAD)
changed: 1 file (M 1, A 0, D 0), 1 symbol
  M method com.acme.Prices#unit()  src/main/java/com/acme/Prices.java:8-10
affected: 2 (ring 1: 1, ring 2: 1); tests: 1
ring 1:
  com.acme  src/main/java/com/acme/
    method Prices#total(int)  calls 1  Prices.java:4-6  loc 3 cx 1
ring 2:
  com.acme  src/test/java/com/acme/
    method PricesTest#totals()  calls 1  PricesTest.java:4-6  loc 3 cx 1  [test]
tests to run:
  src/test/java/com/acme/PricesTest.java"
    );
}

/// Rust (issue 49): an edit inside an item a function declares in its body (a `const`)
/// is a change of that function; what reaches it includes the crate's in-file tests
/// (`#[cfg(test)] mod tests`) and its integration tests, each with the command that runs
/// it (`cargo test -p lim --lib limits::` for the unit tests of one module).
#[test]
fn rust_change_impact_of_a_nested_item_reaches_in_file_and_integration_tests() {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    let write = |path: &str, text: &str| write_file(root, path, text);
    write("Cargo.toml", "[package]\nname = \"lim\"\nversion = \"0.1.0\"\nedition = \"2021\"\n");
    write("src/lib.rs", "pub mod limits;\npub mod body;\n");
    write(
        "src/limits.rs",
        "pub fn with_limit() -> usize {\n    const DEFAULT_LIMIT: usize = 5;\n    DEFAULT_LIMIT\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn limit_is_five() {\n        assert_eq!(super::with_limit(), 5);\n    }\n}\n",
    );
    write("src/body.rs", "pub fn read() -> usize {\n    crate::limits::with_limit()\n}\n");
    write("tests/reading.rs", "#[test]\nfn reads() {\n    assert_eq!(lim::body::read(), 5);\n}\n");
    let answer = impact_of_an_edit(root, "src/limits.rs", "usize = 5;", "usize = 7;");
    assert_eq!(
        answer,
        "change_impact git:working-tree (working tree against HEAD)
changed: 1 file (M 1, A 0, D 0), 1 symbol
  M function lim::limits::with_limit  src/limits.rs:1-4
affected: 3 (ring 1: 2, ring 2: 1); tests: 2
ring 1:
  lim::body  src/
    function read  calls 1  body.rs:1-3  loc 3 cx 1
  lim::limits  src/
    function tests::limit_is_five  calls 1  limits.rs:9-11  loc 3 cx 1  [test]
ring 2:
  reading  tests/
    function reads  calls 1  reading.rs:2-4  loc 3 cx 2  [test]
tests to run:
  src/limits.rs
  tests/reading.rs
run:
  cargo test -p lim --lib limits::
  cargo test -p lim --test reading"
    );
}

/// A MyBatis mapper file is no code file, but an edit of its SQL changes what runs the
/// statement: the mapper method and the code running it by its id.
#[test]
fn change_impact_of_an_edited_mapper_statement() {
    let repo = temp_copy("java-impact");
    let root = repo.path();
    git(root, &["init", "-q"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "first"]);
    let legacy = root.join("orders/src/main/resources/mapper/LegacyMapper.xml");
    let text = std::fs::read_to_string(&legacy).unwrap().replace("archived = 1", "archived = 1, archived_at = now()");
    std::fs::write(&legacy, text).unwrap();
    index(root, &Options::for_repo(root).unwrap(), &|_, _| {}).unwrap();
    let answer = Atlas::new(root).call("change_impact", json!({"target": "git:working-tree"})).unwrap();
    assert_eq!(
        answer,
        "change_impact git:working-tree (working tree against HEAD)
changed: 1 file (M 1, A 0, D 0), 1 symbol
  M statement update \"legacy#archive\"  orders/src/main/resources/mapper/LegacyMapper.xml:5-8  (run by com.pets.orders.OrderArchive#archive(long))
affected: 1 (ring 1: 1); tests: 1
ring 1:
  com.pets.orders  orders/src/test/java/com/pets/orders/
    method OrderArchiveTest#archives(OrderArchive)  calls 1  OrderArchiveTest.java:4-6  loc 3 cx 1  [test]
tests to run:
  orders/src/test/java/com/pets/orders/OrderArchiveTest.java
run:
  mvn -pl :pets-orders -am test -Dtest=OrderArchiveTest -Dsurefire.failIfNoSpecifiedTests=false"
    );
}

#[test]
fn change_impact_outside_git_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("plain");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("A.java"), "class A {}\n").unwrap();
    index(&root, &Options::default(), &|_, _| {}).unwrap();
    let err = Atlas::new(&root).call("change_impact", json!({"target": "git:working-tree"})).unwrap_err().0;
    assert!(err.starts_with(&format!("git: {} is not in a git repository", root.canonicalize().unwrap().display())), "{err}");
}

// ------------------------------------------------------------ paths

#[test]
fn windows_and_dot_paths_resolve_like_plain_ones() {
    let repo = temp_copy("java-shop");
    let root = repo.path();
    index(root, &Options::default(), &|_, _| {}).unwrap();
    let atlas = Atlas::new(root);
    let plain = "src/main/java/com/acme/order/Order.java";
    for (tool, key, extra) in [
        ("file_outline", "path", json!({})),
        ("read_source", "path", json!({"start_line": 1, "end_line": 5})),
        ("dependency_graph", "target", json!({"level": "file"})),
        ("search_text", "path", json!({"query": "Line"})),
    ] {
        let ask = |path: &str| {
            let mut args = extra.clone();
            args[key] = json!(path);
            atlas.call(tool, args).unwrap()
        };
        let want = ask(plain);
        for variant in [
            "./src/main/java/com/acme/order/Order.java",
            "src\\main\\java\\com\\acme\\order\\Order.java",
            ".\\src\\main\\java\\com\\acme\\order\\Order.java",
        ] {
            let got = ask(variant);
            assert_eq!(got, want, "{tool} {variant}");
            assert!(!got.contains('\\'), "{got}");
        }
    }
    let by_line = atlas.call("get_symbol", json!({"symbol": ".\\src\\main\\java\\com\\acme\\order\\Order.java:20"})).unwrap();
    assert_eq!(by_line, atlas.call("get_symbol", json!({"symbol": "src/main/java/com/acme/order/Order.java:20"})).unwrap());
}

#[test]
fn the_watcher_follows_config_changes() {
    use std::time::Duration;
    let repo = temp_copy("java-shop");
    let root = repo.path();
    let (watch, atlas) = watched(root);
    let test_file = json!({"path": "src/test/java/com/acme/order/OrderServiceTest.java"});
    assert!(atlas.call("file_outline", test_file.clone()).is_ok());

    std::fs::write(root.join(".repochart.toml"), "exclude = [\"src/test/**\"]\n").unwrap();
    assert!(watch.settle(Duration::from_secs(30)));
    let err = atlas.call("file_outline", test_file.clone()).unwrap_err().0;
    assert!(err.starts_with("no indexed file \"src/test/java/com/acme/order/OrderServiceTest.java\""), "{err}");

    // A broken edit keeps the last good settings and says why in every answer.
    std::fs::write(root.join(".repochart.toml"), "exclude = \"src/test/**\"\n").unwrap();
    assert!(watch.settle(Duration::from_secs(30)));
    let answer = atlas.call("file_outline", json!({"path": "src/main/java/com/acme/common/Money.java"})).unwrap();
    assert!(
        answer.ends_with("\n[index update failed: .repochart.toml:1: invalid type: string \"src/test/**\", expected a sequence]"),
        "{answer}"
    );
    assert!(atlas.call("file_outline", test_file).is_err());
}

/// Under a watching indexer the files the index does not parse are listed again only after
/// a run that saw one of them (or a folder) change, and the code running a statement by its
/// id is read again only where a file changed: both still follow the tree.
#[test]
fn a_watched_tree_follows_its_mapper_files_and_their_callers() {
    use std::sync::atomic::Ordering;
    use std::time::Duration;
    let repo = temp_copy("java-impact");
    let root = repo.path();
    let (watch, atlas) = watched(root);
    let mapper_files = |atlas: &Atlas| {
        let report = atlas.build_report().unwrap();
        (report.mapper_files, report.statements)
    };
    let run_by = |atlas: &Atlas| {
        let answer = atlas.call("get_symbol", json!({"symbol": "com.pets.orders.OrderMapper#insert"})).unwrap();
        answer.lines().filter(|l| l.contains("statement:") || l.contains("run by its id")).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(mapper_files(&atlas), (2, 2));
    assert_eq!(
        run_by(&atlas),
        "  statement: insert  orders/src/main/resources/mapper/OrderMapper.xml:4-6
  also run by its id in: com.pets.orders.OrderArchive#copy(OrderParam)  orders/src/main/java/com/pets/orders/OrderArchive.java:19"
    );
    let untracked = || watch.status.untracked_runs.load(Ordering::SeqCst);
    let before = untracked();

    // A new source file: no list walked again, and its call by id is found.
    write_file(
        root,
        "orders/src/main/java/com/pets/orders/OrderCopy.java",
        "package com.pets.orders;\n\nimport org.apache.ibatis.session.SqlSession;\n\npublic class OrderCopy {\n    private SqlSession session;\n\n    public int again(OrderParam param) {\n        return session.insert(\"com.pets.orders.OrderMapper.insert\", param);\n    }\n}\n",
    );
    assert!(watch.settle(Duration::from_secs(30)));
    assert_eq!(untracked(), before);
    assert_eq!(
        run_by(&atlas),
        "  statement: insert  orders/src/main/resources/mapper/OrderMapper.xml:4-6
  also run by its id in: com.pets.orders.OrderArchive#copy(OrderParam)  orders/src/main/java/com/pets/orders/OrderArchive.java:19, com.pets.orders.OrderCopy#again(OrderParam)  orders/src/main/java/com/pets/orders/OrderCopy.java:8"
    );

    // A mapper file in a new folder is listed; removed, it is gone.
    let extra = "orders/src/main/resources/mapper/extra/PurgeMapper.xml";
    write_file(
        root,
        extra,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<mapper namespace=\"purge\">\n  <delete id=\"all\">delete from orders</delete>\n</mapper>\n",
    );
    assert!(watch.settle(Duration::from_secs(30)));
    assert!(untracked() > before);
    assert_eq!(mapper_files(&atlas), (3, 3));
    std::fs::remove_file(root.join(extra)).unwrap();
    assert!(watch.settle(Duration::from_secs(30)));
    assert_eq!(mapper_files(&atlas), (2, 2));
}

#[test]
fn indexing_a_folder_without_sources_names_the_languages() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("notes.md"), "# notes\n").unwrap();
    let (code, out, _) = run(bin().args(["index", "--repo"]).arg(tmp.path()));
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        out.lines().nth(1),
        Some("no source files of a supported language found: repochart reads java, rust (by extension: .java, .rs)")
    );
}

#[test]
fn serve_logs_carry_no_colour_codes_off_a_terminal() {
    use std::io::Write;
    let repo = temp_copy("java-shop");
    index(repo.path(), &Options::default(), &|_, _| {}).unwrap();
    let mut child = crate::util::serve_raw(repo.path(), Stdio::null(), Stdio::piped(), Some("debug"));
    let mut stdin = child.stdin.take().unwrap();
    for line in crate::util::first_call("repo_overview", json!({"arguments": {}})) {
        writeln!(stdin, "{line}").unwrap();
    }
    std::thread::sleep(std::time::Duration::from_millis(1500));
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let logs = String::from_utf8_lossy(&out.stderr);
    assert!(logs.contains("tool call"), "{logs}");
    assert!(!logs.contains('\u{1b}'), "colour codes in logs: {logs:?}");
}

/// A watching indexer on `root` (its first reconcile done) and an `Atlas` under it.
fn watched(root: &Path) -> (repochart::watch::Watch, Atlas) {
    use repochart::watch::{Watch, WatchOptions};
    let opts = WatchOptions { watch: true, debounce: std::time::Duration::from_millis(20) };
    let watch = Watch::start(root, Options { threads: 2, ..Options::for_repo(root).unwrap() }, opts, Box::new(|_| {})).unwrap();
    assert!(watch.settle(std::time::Duration::from_secs(30)));
    let atlas = Atlas::with_indexer(root, watch.status.clone(), watch.syncer());
    (watch, atlas)
}

/// Writes a file of a repository made in a test, its folders first.
fn write_file(root: &Path, path: &str, text: &str) {
    let full = root.join(path);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(full, text).unwrap();
}

/// `change_impact git:working-tree` after one edit (`from` replaced by `to` in `path`) of a
/// repository committed as it was written.
fn impact_of_an_edit(root: &Path, path: &str, from: &str, to: &str) -> String {
    git(root, &["init", "-q"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "first"]);
    let file = root.join(path);
    std::fs::write(&file, std::fs::read_to_string(&file).unwrap().replace(from, to)).unwrap();
    index(root, &Options::for_repo(root).unwrap(), &|_, _| {}).unwrap();
    Atlas::new(root).call("change_impact", json!({"target": "git:working-tree"})).unwrap()
}
