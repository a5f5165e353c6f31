//! Git history in answers, on repositories built here with fixed commit dates
//! (`GIT_AUTHOR_DATE`/`GIT_COMMITTER_DATE`, so commit ids are the same on every run):
//! `modified` dates, a symbol's last commits, churn and hot spots, uncommitted changes,
//! incremental reads when `HEAD` moves, a cut walk, a shallow clone, no git at all.

use std::path::Path;
use std::process::{Command, Stdio};

use repochart::config::HistoryConfig;
use repochart::git::history::{refresh, HistoryState};
use repochart::index::{index, Options};
use repochart::store::Store;
use repochart::tools::Atlas;
use serde_json::json;

fn git(root: &Path, args: &[&str], date: &str, author: &str) {
    let status = Command::new("git")
        .args(["-c", "user.email=test@repochart.invalid", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"])
        .args(["-c", &format!("user.name={author}")])
        .args(args)
        .env("GIT_AUTHOR_DATE", date)
        .env("GIT_COMMITTER_DATE", date)
        .env("GIT_AUTHOR_NAME", author)
        .env("GIT_COMMITTER_NAME", author)
        .current_dir(root)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

fn commit(root: &Path, date: &str, author: &str, message: &str) {
    git(root, &["add", "-A"], date, author);
    git(root, &["commit", "-q", "-m", message], date, author);
}

const A1: &str =
    "package p;\n\npublic class A {\n    int alpha() {\n        return 1;\n    }\n\n    int beta() {\n        return 2;\n    }\n}\n";

fn write(root: &Path, path: &str, text: &str) {
    let p = root.join(path);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// Indexes, reads history with `config`, and returns the state and an atlas on the repo.
fn read(root: &Path, config: &HistoryConfig) -> (HistoryState, Atlas) {
    index(root, &Options { threads: 2, ..Options::default() }, &|_, _| {}).unwrap();
    let store = Store::open_read(&root.canonicalize().unwrap()).unwrap();
    let state = refresh(&store, config).unwrap();
    (state, Atlas::new(&root.canonicalize().unwrap()))
}

fn ask(atlas: &Atlas, tool: &str, args: serde_json::Value) -> String {
    match atlas.call(tool, args) {
        Ok(t) => t,
        Err(e) => format!("ERROR: {}", e.0),
    }
}

/// The index's own time in `repo_overview` (not a commit date).
fn last_indexed(overview: &str) -> String {
    overview.lines().find_map(|l| l.split_once("last indexed ").map(|(_, t)| t.to_string())).unwrap()
}

/// The history lines of `get_symbol` (after `references:`, before `next:`).
fn symbol_history(atlas: &Atlas, symbol: &str) -> String {
    let text = ask(atlas, "get_symbol", json!({ "symbol": symbol }));
    // Without get_symbol's two-space indent (expect! strips a common indent).
    text.lines()
        .skip_while(|l| !l.starts_with("  references:"))
        .skip(1)
        .take_while(|l| !l.starts_with("next:"))
        .map(|l| l.strip_prefix("  ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `repochart query` reads history as `index` does, from where it was left: a repository
/// never indexed answers with its commits, and a commit made since is in the next answer.
#[test]
fn query_reads_history_first() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    git(root, &["init", "-q"], "2024-01-01T12:00:00Z", "Ann");
    write(root, "src/p/A.java", A1);
    commit(root, "2024-01-01T12:00:00Z", "Ann", "Add A");
    let query = || {
        let out = Command::new(env!("CARGO_BIN_EXE_repochart"))
            .args(["query", "--repo", root.to_str().unwrap(), "get_symbol", "symbol=p.A#alpha"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines().filter(|l| l.starts_with("    ") && l.contains(": ")).map(str::trim).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(query(), "825b51f6 2024-01-01 Ann: Add A");
    write(root, "src/p/A.java", &A1.replace("return 1;", "return 11;"));
    commit(root, "2024-02-01T12:00:00Z", "Bob", "Alpha returns 11");
    assert_eq!(query(), "8a3bfc10 2024-02-01 Bob: Alpha returns 11\n825b51f6 2024-01-01 Ann: Add A");
}

/// Four commits: `alpha` changed in the third, `beta` in the second, `B.java` in the
/// fourth; then an uncommitted edit; then a fifth commit read incrementally.
#[test]
fn dates_last_commits_churn_and_incremental_reads() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    git(root, &["init", "-q"], "2024-01-01T12:00:00Z", "Ann");
    // Churn over the 30 days to HEAD (the tools read it from here).
    write(root, ".repochart.toml", "[history]\nchurn_days = 30\n");
    write(root, "src/p/A.java", A1);
    write(root, "src/p/B.java", "package p;\n\nclass B {\n}\n");
    commit(root, "2024-01-01T12:00:00Z", "Ann", "Add A and B");
    write(root, "src/p/A.java", &A1.replace("return 2;", "return 22;"));
    commit(root, "2024-03-01T12:00:00Z", "Bob", "Beta returns 22");
    write(root, "src/p/A.java", &A1.replace("return 2;", "return 22;").replace("return 1;", "return 11;"));
    write(root, "src/p/C.java", "package p;\n\nclass C {\n}\n");
    commit(root, "2024-03-20T12:00:00Z", "Cid", "Alpha returns 11; add C");
    write(root, "src/p/B.java", "package p;\n\nclass B {\n    int b;\n}\n");
    commit(root, "2024-03-25T12:00:00Z", "Dee", "B gets a field");
    let config = HistoryConfig { churn_days: 30, ..HistoryConfig::default() };
    let (state, atlas) = read(root, &config);
    assert_eq!((state.status.as_str(), state.commits, state.walked, state.cut.as_str(), state.shallow), ("ready", 4, 4, "", false));
    expect_test::expect![[r#"
        last commits:
          a9a2010d 2024-03-20 Cid: Alpha returns 11; add C
          f35f03c9 2024-01-01 Ann: Add A and B"#]]
    .assert_eq(&symbol_history(&atlas, "p.A#alpha"));
    expect_test::expect![[r#"
        last commits:
          49a8abae 2024-03-01 Bob: Beta returns 22
          f35f03c9 2024-01-01 Ann: Add A and B"#]]
    .assert_eq(&symbol_history(&atlas, "p.A#beta"));
    // `modified` of tier-1 lines: the file's last commit, a symbol's own.
    let impact = ask(&atlas, "change_impact", json!({"target": "p.A#beta"}));
    assert!(impact.starts_with("change_impact method p.A#beta()  src/p/A.java:8-10  loc 3 cx 1 modified 2024-03-01"), "{impact}");
    let graph = ask(&atlas, "dependency_graph", json!({"target": "p.A"}));
    assert!(graph.starts_with("class p.A  src/p/A.java:3-11  loc 8 cx 1 modified 2024-03-20"), "{graph}");
    let graph = ask(&atlas, "dependency_graph", json!({"target": "src/p/B.java", "level": "file"}));
    assert!(graph.starts_with("file src/p/B.java  loc 4 cx 1 modified 2024-03-25"), "{graph}");
    // Hot spots: commits in the 30 days to HEAD (2024-02-24..2024-03-25) x complexity; each
    // unit's last commit; where the dates come from.
    let overview = ask(&atlas, "repo_overview", json!({}));
    let tail: Vec<&str> = overview.lines().skip_while(|l| !l.starts_with("hot spots")).collect();
    expect_test::expect![[r#"
        hot spots (commits in the 30 days to 2024-03-25 x complexity):
          src/p/A.java  2 commits x cx 1  last 2024-03-20
          src/p/B.java  1 commit x cx 1  last 2024-03-25
          src/p/C.java  1 commit x cx 1  last 2024-03-20
        index: 3 files, last indexed <indexed>
        history: 4 commits to a236e30b (2024-03-25)
        next: dependency_graph {target}, search_symbols {query}, file_outline {path}"#]]
    .assert_eq(&tail.join("\n").replace(&last_indexed(&overview), "<indexed>"));

    // Uncommitted: a line above both methods and a change to `beta`. `alpha` keeps its
    // commits (its lines mapped back to HEAD's), `beta` is modified in the working tree.
    let edited = format!("// edited\n{}", A1.replace("return 2;", "return 3;").replace("return 1;", "return 11;"));
    write(root, "src/p/A.java", &edited);
    let (_, atlas) = read(root, &config);
    expect_test::expect![[r#"
        last commits:
          a9a2010d 2024-03-20 Cid: Alpha returns 11; add C
          f35f03c9 2024-01-01 Ann: Add A and B"#]]
    .assert_eq(&symbol_history(&atlas, "p.A#alpha"));
    expect_test::expect![[r#"
        modified in the working tree (uncommitted)
        last commits:
          49a8abae 2024-03-01 Bob: Beta returns 22
          f35f03c9 2024-01-01 Ann: Add A and B"#]]
    .assert_eq(&symbol_history(&atlas, "p.A#beta"));
    let impact = ask(&atlas, "change_impact", json!({"target": "p.A#beta"}));
    assert!(impact.starts_with("change_impact method p.A#beta()  src/p/A.java:9-11  loc 3 cx 1 modified working tree"), "{impact}");

    // A fifth commit: only it is walked; `beta`'s newest commit is it.
    commit(root, "2024-04-01T12:00:00Z", "Eve", "Beta returns 3");
    let (state, atlas) = read(root, &config);
    assert_eq!((state.commits, state.walked), (5, 1));
    let incremental = (symbol_history(&atlas, "p.A#alpha"), symbol_history(&atlas, "p.A#beta"), ask(&atlas, "repo_overview", json!({})));
    expect_test::expect![[r#"
        last commits:
          a047033f 2024-04-01 Eve: Beta returns 3
          49a8abae 2024-03-01 Bob: Beta returns 22
          f35f03c9 2024-01-01 Ann: Add A and B"#]]
    .assert_eq(&symbol_history(&atlas, "p.A#beta"));
    // HEAD unchanged: nothing is walked.
    let store = Store::open_read(&root.canonicalize().unwrap()).unwrap();
    assert_eq!(refresh(&store, &config).unwrap().walked, 1, "the stored state is returned as it was");
    // The same history read from scratch gives the same answers.
    drop(store);
    std::fs::remove_dir_all(root.join(".repochart")).unwrap();
    let (fresh, atlas) = read(root, &config);
    assert_eq!((fresh.commits, fresh.walked), (5, 5));
    assert_eq!(
        incremental,
        (symbol_history(&atlas, "p.A#alpha"), symbol_history(&atlas, "p.A#beta"), ask(&atlas, "repo_overview", json!({})))
    );
}

/// A walk cut by `max_commits`: files not changed within it are dated "before" the oldest
/// commit read, and the answers say the walk was cut.
#[test]
fn a_cut_walk_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    git(root, &["init", "-q"], "2024-01-01T12:00:00Z", "Ann");
    write(root, "src/p/A.java", A1);
    write(root, "src/p/B.java", "package p;\n\nclass B {\n}\n");
    commit(root, "2024-01-01T12:00:00Z", "Ann", "Add A and B");
    for (i, day) in ["2024-02-01", "2024-03-01"].iter().enumerate() {
        write(root, "src/p/B.java", &format!("package p;\n\nclass B {{\n    int b{i};\n}}\n"));
        commit(root, &format!("{day}T12:00:00Z"), "Bob", &format!("B {i}"));
    }
    let (state, atlas) = read(root, &HistoryConfig { max_commits: 2, ..HistoryConfig::default() });
    assert_eq!((state.commits, state.cut.as_str()), (2, "2 commits"));
    let graph = ask(&atlas, "dependency_graph", json!({"target": "src/p/A.java", "level": "file"}));
    assert!(graph.starts_with("file src/p/A.java  loc 9 cx 1 modified before 2024-02-01"), "{graph}");
    assert!(ask(&atlas, "repo_overview", json!({})).contains("history: 2 commits to "), "cut line");
    assert!(
        ask(&atlas, "repo_overview", json!({})).contains("; cut at 2 commits, older changes dated before 2024-02-01"),
        "{}",
        ask(&atlas, "repo_overview", json!({}))
    );
    expect_test::expect!["last commits: none since 2024-02-01"].assert_eq(&symbol_history(&atlas, "p.A#alpha"));
}

/// No git, an unborn branch, a shallow clone: answers say where dates come from and never fail.
#[test]
fn missing_unborn_and_shallow_history() {
    let config = HistoryConfig::default();
    let tmp = tempfile::tempdir().unwrap();
    let plain = tmp.path().join("plain");
    write(&plain, "src/p/A.java", A1);
    let (state, atlas) = read(&plain, &config);
    assert_eq!(state.describe(), "no git history (not a git repository); dates are file times");
    // Said once, in the overview; not in every answer.
    expect_test::expect![""].assert_eq(&symbol_history(&atlas, "p.A#alpha"));
    assert!(ask(&atlas, "repo_overview", json!({})).contains("\nno git history (not a git repository); dates are file times\n"));

    let unborn = tmp.path().join("unborn");
    write(&unborn, "src/p/A.java", A1);
    git(&unborn, &["init", "-q"], "2024-01-01T12:00:00Z", "Ann");
    let (state, _) = read(&unborn, &config);
    assert_eq!(state.describe(), "no git history (the branch has no commit yet); dates are file times");

    let origin = tmp.path().join("origin");
    write(&origin, "src/p/A.java", A1);
    git(&origin, &["init", "-q"], "2024-01-01T12:00:00Z", "Ann");
    commit(&origin, "2024-01-01T12:00:00Z", "Ann", "Add A");
    write(&origin, "src/p/A.java", &A1.replace("return 2;", "return 22;"));
    commit(&origin, "2024-02-01T12:00:00Z", "Bob", "Beta returns 22");
    let url = format!("file://{}", origin.display());
    git(tmp.path(), &["clone", "-q", "--depth", "1", &url, "shallow"], "2024-03-01T12:00:00Z", "Cid");
    let shallow = tmp.path().join("shallow");
    let (state, atlas) = read(&shallow, &config);
    assert_eq!((state.commits, state.shallow), (1, true));
    assert_eq!(state.describe(), "history: shallow clone, dates from the last 1 commit");
    expect_test::expect![[r#"
        last commits:
          cb7a43fb 2024-02-01 Bob: Beta returns 22
        (shallow clone: older commits are not in the repository)"#]]
    .assert_eq(&symbol_history(&atlas, "p.A#alpha"));
}

/// `serve` reads history on its own thread once the index is ready, and again when `HEAD`
/// moves: `get_symbol` first says history is being read (or already has it), then lists the
/// commits, then, after a new commit, that one first.
#[test]
fn serve_reads_history_in_the_background_and_follows_head() {
    use std::io::{BufRead, Write};
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    git(root, &["init", "-q"], "2024-01-01T12:00:00Z", "Ann");
    write(root, "src/p/A.java", A1);
    commit(root, "2024-01-01T12:00:00Z", "Ann", "Add A");
    let mut child = crate::util::serve_raw(root, Stdio::piped(), Stdio::null(), None);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut send = |v: serde_json::Value| writeln!(stdin, "{v}").unwrap();
    let [init, initialized, _] = crate::util::first_call("get_symbol", json!({}));
    send(init);
    send(initialized);
    let mut id = 10;
    let mut ask_alpha = |send: &mut dyn FnMut(serde_json::Value)| -> String {
        id += 1;
        send(
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "get_symbol", "arguments": {"symbol": "p.A#alpha"}}}),
        );
        let mut line = String::new();
        loop {
            line.clear();
            assert!(stdout.read_line(&mut line).unwrap() > 0, "the server closed its output");
            let v: serde_json::Value = serde_json::from_str(&line).unwrap();
            if v["id"] == id {
                return v["result"]["content"][0]["text"].as_str().unwrap_or_default().to_string();
            }
        }
    };
    let until = |what: &str, ask: &mut dyn FnMut() -> String| -> String {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            let text = ask();
            if text.contains(what) {
                return text;
            }
            // Meanwhile: the index is being built, or history read (and the answer says so).
            assert!(text.contains("history: still being read") || text.contains("index") || text.contains("last commits"), "{text}");
            assert!(std::time::Instant::now() < deadline, "never saw {what:?}: {text}");
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    };
    let text = until("Ann: Add A", &mut || ask_alpha(&mut send));
    assert!(text.contains("  last commits:\n"), "{text}");
    write(root, "src/p/A.java", &A1.replace("return 1;", "return 11;"));
    commit(root, "2024-02-01T12:00:00Z", "Bob", "Alpha returns 11");
    // HEAD moved: read again within a few polls (the working tree now equals HEAD).
    let text = until("Bob: Alpha returns 11", &mut || ask_alpha(&mut send));
    assert!(text.find("Bob: Alpha returns 11").unwrap() < text.find("Ann: Add A").unwrap(), "{text}");
    drop(stdin);
    child.wait().unwrap();
}

const GATE: &str = "package shop;\n\n/** Lets requests in. */\npublic class Gate {\n    boolean admit(String user) {\n        return true;\n    }\n\n    int capacity() {\n        return 10;\n    }\n}\n";
const LOGIN: &str = "package shop;\n\npublic class Login {\n    void signIn(String user) {\n    }\n}\n";

/// A git repository whose first commit adds `GATE` and `LOGIN`.
fn shop() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    git(root, &["init", "-q"], "2024-01-01T12:00:00Z", "Ann");
    write(root, "src/shop/Gate.java", GATE);
    write(root, "src/shop/Login.java", LOGIN);
    commit(root, "2024-01-01T12:00:00Z", "Ann", "Add the gate and the login");
    tmp
}

/// Search by intent reads past commits (issue 35): a sentence's words that no name, doc or
/// path holds, but a past commit's subject does, find what that commit changed (its
/// innermost declarations, not their class); a commit whose subject holds one of the words
/// only lends nothing; each row says which words matched in `commits:`, and that it changed
/// within the newest commits (all three here).
#[test]
fn a_sentence_finds_what_past_commits_about_its_words_changed() {
    let tmp = shop();
    let root = tmp.path();
    write(root, "src/shop/Gate.java", &GATE.replace("return true;", "return user.length() < 64;"));
    commit(root, "2024-02-01T12:00:00Z", "Bob", "Throttle repeated sign-in attempts");
    write(root, "src/shop/Gate.java", &GATE.replace("return true;", "return user.length() < 64;").replace("return 10;", "return 20;"));
    commit(root, "2024-03-01T12:00:00Z", "Cid", "More attempts fit the gate");
    let (_, atlas) = read(root, &HistoryConfig::default());
    expect_test::expect![[r#"
        4 symbols match the words "throttling attempts sign" (a sentence: stop words dropped, words stemmed; name, owner, doc, path, uses, text and past commits searched)
        method shop.Gate#admit(String)  src/shop/Gate.java:5-7  [commits: throttling, attempts, sign; changed recently]
        method shop.Login#signIn(String)  src/shop/Login.java:4-5  [name: sign; changed recently]
        class shop.Gate  src/shop/Gate.java:4-12
        class shop.Login  src/shop/Login.java:3-6"#]]
    .assert_eq(&ask(&atlas, "search_symbols", json!({"query": "throttling the attempts to sign in", "limit": 5})));
}

/// A declaration's history is searched as one more field: words of a sentence spread over
/// several commits that changed it (no one subject holds two of them, so no single commit
/// lends it) find it together; a declaration whose commits hold one of the words is no
/// candidate.
#[test]
fn a_sentence_finds_what_commits_about_its_words_changed_together() {
    let tmp = shop();
    let root = tmp.path();
    let gate = GATE.replace("return true;", "return user.length() < 64;");
    write(root, "src/shop/Gate.java", &gate);
    commit(root, "2024-02-01T12:00:00Z", "Bob", "Throttle callers");
    let gate = gate.replace("< 64;", "< 32;");
    write(root, "src/shop/Gate.java", &gate);
    commit(root, "2024-03-01T12:00:00Z", "Cid", "Count attempts per user");
    write(root, "src/shop/Gate.java", &gate.replace("return 10;", "return 20;"));
    commit(root, "2024-04-01T12:00:00Z", "Cid", "More attempts fit");
    let (_, atlas) = read(root, &HistoryConfig::default());
    expect_test::expect![[r#"
        2 symbols match the words "throttle attempts" (a sentence: stop words dropped, words stemmed; name, owner, doc, path, uses, text and past commits searched)
        method shop.Gate#admit(String)  src/shop/Gate.java:5-7  [commits: throttle, attempts; changed recently]
        class shop.Gate  src/shop/Gate.java:4-12"#]].assert_eq(&ask(&atlas, "search_symbols", json!({"query": "throttle the attempts", "limit": 5})));
}

/// A declaration's last change is the commit that made it, with its author, as `git blame`
/// finds it: one a merged branch made (the main line lists the merge, by its merger), and
/// one older than the walk (cut at one commit here), which the main line does not list.
#[test]
fn last_change_is_the_commit_that_made_it_through_merges_and_past_the_walk() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    git(root, &["init", "-q"], "2024-01-01T12:00:00Z", "Ann");
    write(root, "src/p/A.java", A1);
    commit(root, "2024-01-01T12:00:00Z", "Ann", "Add A");
    git(root, &["checkout", "-q", "-b", "feature"], "2024-02-01T12:00:00Z", "Bob");
    write(root, "src/p/A.java", &A1.replace("return 2;", "return 22;"));
    commit(root, "2024-02-01T12:00:00Z", "Bob", "Beta returns 22");
    git(root, &["checkout", "-q", "main"], "2024-02-02T12:00:00Z", "Mia");
    write(root, "src/p/B.java", "package p;\n\nclass B {\n}\n");
    commit(root, "2024-02-02T12:00:00Z", "Mia", "Add B");
    git(root, &["merge", "-q", "--no-ff", "-m", "Merge feature", "feature"], "2024-02-03T12:00:00Z", "Mia");
    let (_, atlas) = read(root, &HistoryConfig::default());
    expect_test::expect![[r#"
        last change: cb7a43fb 2024-02-01 Bob: Beta returns 22
        last commits:
          383bae68 2024-02-03 Mia: Merge feature
          825b51f6 2024-01-01 Ann: Add A"#]]
    .assert_eq(&symbol_history(&atlas, "p.A#beta"));
    // A walk of one commit (the merge), from nothing, has never seen `alpha`'s commit.
    std::fs::remove_dir_all(root.join(".repochart")).unwrap();
    let (state, atlas) = read(root, &HistoryConfig { max_commits: 1, ..HistoryConfig::default() });
    assert_eq!(state.commits, 1);
    expect_test::expect!["last change: 825b51f6 2024-01-01 Ann: Add A"].assert_eq(&symbol_history(&atlas, "p.A#alpha"));
}
