//! The indexing and tool-latency benchmark: one command, one table.
//!
//! Usage: cargo run --release --example index_bench -- <source tree> [calls per tool] [--tools-only]
//!
//! After the tools it prints the scaling curve (cold index time per 1,000 lines on every
//! k-th file of the tree, at four sizes) and the idle RSS of `repochart serve` on the tree
//! (the release binary beside this example).
//!
//! `BENCH_SERVE_LOG=1` lets that server's log (`REPOCHART_LOG`) through to stderr.
//!
//! `--tools-only` skips the indexing measures and times the tools on the tree in place
//! (bringing its index up to date first): the quick loop for tool work and profiling.
//!
//! On a temp copy of the tree it measures (timings: the median of three runs, with their
//! range): the cold full index (wall, CPU, peak RSS,
//! files/s, lines/s), the indexes a first build leaves for later (those only updates read),
//! the index size with them, the parse-only floor (every file parsed on all cores,
//! nothing else), the same with extraction (nothing stored or resolved), `ctags -R` on the same tree when Universal Ctags is installed, the
//! no-op re-index of the unchanged tree, and p50/p95/p99 latency of a fixed mix of calls
//! of all twelve tools. Ratios of the cold index to the floor and to ctags are printed.

use std::path::Path;
use std::time::{Duration, Instant};

use repochart::index::{index, Options};
use repochart::tools::Atlas;
use repochart::walk::walk;

#[path = "common.rs"]
mod common;
use common::{copy_tree, percentile, sync_disk};
use serde_json::json;

/// Runs of each timed measure (cold index, floors, ctags); the table gives the median and
/// the range, and the ratios are of medians: on this machine one run of the same build
/// varies by 10% from the next.
const ROUNDS: usize = 3;

/// The median and range of a measure's runs, in seconds.
struct Spread {
    median: f64,
    min: f64,
    max: f64,
}

impl Spread {
    fn of(mut runs: Vec<f64>) -> Spread {
        runs.sort_by(f64::total_cmp);
        Spread { median: runs[runs.len() / 2], min: runs[0], max: runs[runs.len() - 1] }
    }
}

impl std::fmt::Display for Spread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "median of {ROUNDS}; {:.2}-{:.2} s", self.min, self.max)
    }
}

/// Peak resident set size of this process so far, in MB (Linux).
fn peak_rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .unwrap_or(0.0)
        / 1024.0
}

/// CPU time of this process so far (user + system), from /proc (Linux).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

/// Bytes of every file under `path`.
fn dir_size(path: &Path) -> u64 {
    let mut total = 0;
    if let Ok(entries) = std::fs::read_dir(path) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                total += dir_size(&p);
            } else if let Ok(m) = e.metadata() {
                total += m.len();
            }
        }
    }
    total
}

fn percentile_ms(sorted: &[Duration], p: f64) -> f64 {
    percentile(sorted, p).as_secs_f64() * 1000.0
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(source) = args.get(1) else {
        eprintln!("usage: index_bench <source tree> [calls per tool]");
        std::process::exit(2);
    };
    let calls: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(50);
    if args.iter().any(|a| a == "--tools-only") {
        let root = Path::new(source).canonicalize().unwrap();
        let opts = Options::default();
        // Builds, rebuilds (old format) or reconciles the index in place, then prepares it as
        // the server does before its tools answer (`watch`: the indexes updates read, which
        // queries by a reference's source use too; the full-text index merged).
        index(&root, &opts, &|_, _| {}).unwrap();
        let mut indexer = repochart::index::Indexer::open(&root, &opts).unwrap();
        indexer.prepare_updates().unwrap();
        indexer.tidy().unwrap();
        drop(indexer);
        let files: Vec<String> = walk(&root, &opts.filter, opts.max_file_size, None).files.into_iter().map(|c| c.path).collect();
        tool_table(&root, &files, calls);
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("tree");
    std::fs::create_dir_all(&root).unwrap();
    copy_tree(Path::new(source), &root);
    let root = root.canonicalize().unwrap();
    let source_bytes = dir_size(&root);
    let opts = Options::default();

    // Cold full index, ROUNDS times (the index removed in between); the peak RSS is the
    // first round's.
    let mut colds = Vec::new();
    let mut cold_rss = 0.0;
    for round in 0..ROUNDS {
        if round > 0 {
            std::fs::remove_dir_all(root.join(".repochart")).unwrap();
            sync_disk();
        }
        let cpu0 = cpu_seconds();
        let t0 = Instant::now();
        let summary = index(&root, &opts, &|_, _| {}).unwrap();
        colds.push((t0.elapsed().as_secs_f64(), cpu_seconds() - cpu0, summary));
        if round == 0 {
            cold_rss = peak_rss_mb();
        }
    }
    let cold_walls = Spread::of(colds.iter().map(|c| c.0).collect());
    colds.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (cold, cold_cpu, summary) = colds.swap_remove(ROUNDS / 2);

    // What a first build leaves for later: the indexes only updates read. `serve` builds
    // them right after its first build, while tools answer; `index` on the first update.
    let t0 = Instant::now();
    repochart::index::Indexer::open(&root, &opts).unwrap().prepare_updates().unwrap();
    let update_indexes = t0.elapsed().as_secs_f64();
    let index_bytes = dir_size(&root.join(".repochart"));

    // No-op re-index.
    let t0 = Instant::now();
    index(&root, &opts, &|_, _| {}).unwrap();
    let noop = t0.elapsed().as_secs_f64();

    // Parse-only floor: every file parsed on all cores, nothing else. Then parsed and
    // extracted (symbols, references, imports) with nothing stored or resolved: what the
    // grammar queries cost on top of the parse.
    let files = walk(&root, &opts.filter, opts.max_file_size, None).files;
    let floors = Spread::of(
        (0..ROUNDS).map(|_| on_all_cores(&files, opts.threads, |spec, text| drop(repochart::extract::parse(spec, text)))).collect(),
    );
    let extracted = Spread::of(
        (0..ROUNDS).map(|_| on_all_cores(&files, opts.threads, |spec, text| drop(repochart::extract::extract(spec, text, "")))).collect(),
    );
    let floor = floors.median;

    // Universal Ctags, when installed, writing a tags file as its users do (into /dev/null
    // it fails on the whole JDK: it truncates the file it wrote). Outside the tree, so that
    // the next index does not walk it.
    let tags_dir = tempfile::tempdir().expect("temp dir for ctags");
    let tags = tags_dir.path().join("tags");
    let ctags_once = || -> Result<f64, String> {
        let t0 = Instant::now();
        let out = std::process::Command::new("ctags").arg("-R").arg("-f").arg(&tags).arg(".").current_dir(&root).output();
        match out {
            Ok(o) if o.status.success() => Ok(t0.elapsed().as_secs_f64()),
            Ok(o) => Err(format!("failed: {}", String::from_utf8_lossy(&o.stderr).lines().next().unwrap_or("").trim())),
            Err(_) => Err("not installed".to_string()),
        }
    };
    let ctags: Result<Spread, String> = (0..ROUNDS).map(|_| ctags_once()).collect::<Result<Vec<f64>, String>>().map(Spread::of);

    println!("tree: {} files, {} lines of code, {:.1} MB of source", summary.files, summary.loc, source_bytes as f64 / 1e6);
    println!("| measure | value |");
    println!("|---|---|");
    println!("| cold index, wall | {cold:.2} s ({cold_walls}) |");
    println!("| cold index, CPU (the median run's) | {cold_cpu:.2} s |");
    println!("| peak RSS (process, after the first cold index) | {cold_rss:.0} MB |");
    println!("| files/s, lines/s | {:.0}, {:.0} |", summary.files as f64 / cold, summary.loc as f64 / cold);
    println!("| index on disk | {:.1} MB ({:.2}x the source) |", index_bytes as f64 / 1e6, index_bytes as f64 / source_bytes as f64);
    println!("| parse-only floor ({} threads) | {floor:.2} s ({floors}) |", opts.threads);
    println!(
        "| parse and extract, nothing stored ({} threads) | {:.2} s ({extracted}; {:.1}x the floor) |",
        opts.threads,
        extracted.median,
        extracted.median / floor
    );
    match &ctags {
        Ok(c) => println!("| ctags -R | {:.2} s ({c}) |", c.median),
        Err(why) => println!("| ctags -R | {why} |"),
    }
    println!("| cold index / parse floor | {:.1}x |", cold / floor);
    if let Ok(c) = &ctags {
        println!("| cold index / ctags | {:.1}x |", cold / c.median);
    }
    println!("| then the indexes updates read (serve: in the background) | {update_indexes:.2} s |");
    println!("| cold index with them / parse floor | {:.1}x |", (cold + update_indexes) / floor);
    println!("| no-op re-index | {noop:.2} s |");

    let files: Vec<String> = files.into_iter().map(|c| c.path).collect();
    tool_table(&root, &files, calls);
    scaling_curve(&root, &files);
    idle_rss(&root, &files[0]);
}

/// Cold index time on every k-th file of the tree at four sizes (a similar mix of files at
/// each size), per 1,000 non-blank lines: flat means the cost grows linearly.
fn scaling_curve(root: &Path, files: &[String]) {
    println!();
    println!("| files | lines of code | cold index | ms per 1,000 lines |");
    println!("|---|---|---|---|");
    let n = files.len();
    for size in [n / 32, n / 8, n / 2, n].into_iter().filter(|&k| k >= 10) {
        let step = n as f64 / size as f64;
        let tmp = tempfile::tempdir().unwrap();
        let sub = tmp.path().join("tree");
        for i in 0..size {
            let rel = &files[((i as f64 * step) as usize).min(n - 1)];
            let to = sub.join(rel);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(root.join(rel), &to).unwrap();
        }
        // Rust crates keep their manifests, so module paths stay what they are.
        for entry in ignore::WalkBuilder::new(root).build().flatten().filter(|e| e.file_name() == "Cargo.toml") {
            let to = sub.join(entry.path().strip_prefix(root).unwrap());
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(entry.path(), &to).unwrap();
        }
        sync_disk();
        let t0 = Instant::now();
        let summary = index(&sub, &Options::default(), &|_, _| {}).unwrap();
        let secs = t0.elapsed().as_secs_f64();
        println!("| {} | {} | {:.2} s | {:.2} |", summary.files, summary.loc, secs, secs * 1e6 / summary.loc.max(1) as f64);
    }
}

/// Seconds to read every file and run `work` on its text, on `threads` threads.
fn on_all_cores(
    files: &[repochart::walk::Candidate],
    threads: usize,
    work: impl Fn(&'static repochart::lang::LanguageSpec, &str) + Sync,
) -> f64 {
    let t0 = Instant::now();
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(c) = files.get(i) else { break };
                let bytes = std::fs::read(&c.abs).unwrap_or_default();
                work(c.spec, &String::from_utf8_lossy(&bytes));
            });
        }
    });
    t0.elapsed().as_secs_f64()
}

/// RSS of `repochart serve` (watching) once it has reconciled the index and answered one
/// call, then sat idle for a second; again after a save of `edited` has been indexed.
fn idle_rss(root: &Path, edited: &str) {
    use std::io::{BufRead, Write};
    let exe = std::env::current_exe().unwrap();
    let binary = exe.parent().and_then(Path::parent).map(|d| d.join("repochart")).filter(|p| p.exists());
    let Some(binary) = binary else {
        println!("\nserver idle RSS: no release binary beside this example (cargo build --release)");
        return;
    };
    let mut child = std::process::Command::new(binary)
        .args(["serve", "--repo"])
        .arg(root)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(if std::env::var("BENCH_SERVE_LOG").is_ok() { std::process::Stdio::inherit() } else { std::process::Stdio::null() })
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut send = |v: serde_json::Value| writeln!(stdin, "{v}").unwrap();
    let mut line = String::new();
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}),
    );
    stdout.read_line(&mut line).unwrap();
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    // Wait out the start-up reconcile (or a save's update): answers carry a freshness
    // line until it is done.
    let mut next_id = 2;
    let mut settle = |send: &mut dyn FnMut(serde_json::Value)| {
        for _ in 0..600 {
            send(json!({"jsonrpc": "2.0", "id": next_id, "method": "tools/call", "params": {"name": "repo_overview", "arguments": {}}}));
            next_id += 1;
            line.clear();
            stdout.read_line(&mut line).unwrap();
            if !line.contains("[index updating") && !line.contains("waiting to be re-indexed") {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        std::thread::sleep(Duration::from_secs(1));
    };
    let rss = |when: &str| {
        let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap_or_default();
        let field = |name: &str| status.lines().find_map(|l| l.strip_prefix(name)).map(|v| v.trim().to_string()).unwrap_or_default();
        println!(
            "server idle RSS {when}: {} (anonymous {}, file-backed {}: the binary and mapped index pages), peak {}",
            field("VmRSS:"),
            field("RssAnon:"),
            field("RssFile:"),
            field("VmHWM:")
        );
    };
    println!();
    settle(&mut send);
    rss("after start-up and one repo_overview");
    // A save loads the resolver's world, which the server then keeps for the next ones.
    let saved = root.join(edited);
    let text = std::fs::read_to_string(&saved).unwrap();
    std::fs::write(&saved, format!("{text}\n// saved\n")).unwrap();
    std::thread::sleep(Duration::from_millis(500));
    settle(&mut send);
    rss("after one save and one more repo_overview");
    std::fs::write(&saved, text).unwrap();
    let _ = child.kill();
    let _ = child.wait();
}

/// A call's arguments, from its number in the mix.
type ArgsOf<'a> = Box<dyn Fn(usize) -> serde_json::Value + 'a>;

/// Tool latency over a fixed mix, on handles taken from the index itself.
fn tool_table(root: &Path, files: &[String], calls: usize) {
    let atlas = Atlas::new(root);
    let overview = atlas.call("repo_overview", json!({})).unwrap();
    let types: Vec<String> = overview
        .lines()
        .skip_while(|l| !l.starts_with("most depended-upon"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().nth(1).map(str::to_string))
        .collect();
    let paths: Vec<String> = files.iter().take(20).cloned().collect();
    let pick = |v: &Vec<String>, i: usize| v[i % v.len()].clone();
    // Sentences: the tree's newest commit subjects where it is a git work tree (sentence
    // search then reads its history too), else one made of each type's name.
    let subjects: Vec<String> = std::process::Command::new("git")
        .args(["log", "--no-merges", "--format=%s", "-n", "200"])
        .current_dir(root)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).lines().map(str::to_string).collect())
        .unwrap_or_default();
    let sentences: Vec<String> = if subjects.is_empty() {
        types.iter().map(|t| format!("where is the {} created and checked", t.rsplit(['.', ':']).next().unwrap_or("x"))).collect()
    } else {
        subjects
    };
    let mix: Vec<(&str, ArgsOf<'_>)> = vec![
        ("repo_overview", Box::new(|_| json!({}))),
        ("search_symbols (a sentence)", Box::new(|i| json!({"query": pick(&sentences, i)}))),
        ("dependency_graph", Box::new(|i| json!({"target": pick(&types, i), "depth": 3}))),
        ("dependency_path", Box::new(|i| json!({"from": pick(&types, i), "to": pick(&types, i + 1)}))),
        ("change_impact", Box::new(|i| json!({"target": pick(&types, i), "depth": 3}))),
        ("search_symbols", Box::new(|i| json!({"query": pick(&types, i).rsplit(['.', ':']).next().unwrap_or("x").to_lowercase()}))),
        ("get_symbol", Box::new(|i| json!({"symbol": pick(&types, i)}))),
        ("find_implementations", Box::new(|i| json!({"symbol": pick(&types, i)}))),
        ("find_references", Box::new(|i| json!({"symbol": pick(&types, i)}))),
        ("file_outline", Box::new(|i| json!({"path": pick(&paths, i)}))),
        ("read_source", Box::new(|i| json!({"path": pick(&paths, i), "start_line": 1, "end_line": 60}))),
        ("read_symbol", Box::new(|i| json!({"symbol": pick(&types, i)}))),
        ("search_text", Box::new(|i| json!({"query": pick(&types, i).rsplit(['.', ':']).next().unwrap_or("x")}))),
    ];
    println!();
    println!("| tool ({calls} calls each) | p50 | p95 | p99 | error answers |");
    println!("|---|---|---|---|---|");
    for (name, args) in &mix {
        let tool = name.split(' ').next().unwrap_or(name);
        let _ = atlas.call(tool, args(0)); // warm the graph and name caches
        let mut times = Vec::with_capacity(calls);
        let mut errors = 0;
        let mut first_error = String::new();
        for i in 0..calls {
            let t0 = Instant::now();
            let answer = atlas.call(tool, args(i));
            times.push(t0.elapsed());
            if let Err(e) = answer {
                errors += 1;
                if first_error.is_empty() {
                    first_error = e.0.lines().next().unwrap_or("").chars().take(60).collect();
                }
            }
        }
        times.sort();
        let errors = if errors == 0 { "0".to_string() } else { format!("{errors} ({first_error})") };
        println!(
            "| {name} | {:.2} ms | {:.2} ms | {:.2} ms | {errors} |",
            percentile_ms(&times, 0.5),
            percentile_ms(&times, 0.95),
            percentile_ms(&times, 0.99)
        );
    }

    // The calls above find the graph built. After a save the first graph call brings it
    // up to date, unless the server's refresh thread (`Atlas::refresh_caches`, run after
    // each batch) got there first: a file is changed and re-indexed, then one
    // change_impact is timed at once, ten times over.
    let saves = 10;
    let mut times = Vec::with_capacity(saves);
    for i in 0..saves {
        let path = root.join(pick(&paths, i));
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{text}\n// saved {i}\n")).unwrap();
        index(root, &Options::default(), &|_, _| {}).unwrap();
        let t0 = Instant::now();
        let _ = atlas.call("change_impact", json!({"target": pick(&types, i), "depth": 3}));
        times.push(t0.elapsed());
        std::fs::write(&path, text).unwrap();
    }
    index(root, &Options::default(), &|_, _| {}).unwrap();
    // As the server does once saves stop, so that a `--tools-only` run on this tree
    // measures a tidy index (`Indexer::tidy`).
    repochart::index::Indexer::open(root, &Options::default()).unwrap().tidy().unwrap();
    times.sort();
    println!(
        "| change_impact right after a save, the graph brought up to date in the call ({saves} saves) | {:.2} ms | {:.2} ms | {:.2} ms | |",
        percentile_ms(&times, 0.5),
        percentile_ms(&times, 0.95),
        percentile_ms(&times, 0.99)
    );
}
