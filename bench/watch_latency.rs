//! Save-to-queryable latency in watch mode, measured the way a user feels it: a method is
//! added to a file, and the clock stops when a separate read connection can find it.
//!
//! Usage: cargo run --release --example watch_latency -- <source tree> [edits]
//! (for the JDK: unzip java.base from the JDK's lib/src.zip and pass that directory).
//! The tree is copied to a temp directory first; the original is not touched.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use repochart::index::Options;

#[path = "common.rs"]
mod common;
use common::{copy_tree, percentile};
use repochart::store::Store;
use repochart::watch::{Watch, WatchOptions};

/// Adds `public void NAME() {}` before the file's last closing brace.
fn add_method(path: &Path, name: &str) -> bool {
    let text = std::fs::read_to_string(path).unwrap();
    let Some(end) = text.rfind('}') else { return false };
    let new = format!("{}    public void {name}() {{}}\n{}", &text[..end], &text[end..]);
    std::fs::write(path, new).unwrap();
    true
}

fn count(store: &Store, sql: &str) -> i64 {
    store.conn().query_row(sql, [], |r| r.get(0)).unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(source) = args.get(1) else {
        eprintln!("usage: watch_latency <source tree> [edits]");
        std::process::exit(2);
    };
    let edits: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(200);
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("tree");
    std::fs::create_dir_all(&root).unwrap();
    let copied = copy_tree(Path::new(source), &root);
    let root = root.canonicalize().unwrap();

    let started = Instant::now();
    let watch = Watch::start(&root, Options::default(), WatchOptions::default(), Box::new(|_| {})).unwrap();
    assert!(watch.settle(Duration::from_secs(600)));
    println!("tree: {copied} files copied; initial index + watcher ready in {:.2} s", started.elapsed().as_secs_f64());

    let files: Vec<PathBuf> = ignore::WalkBuilder::new(&root)
        .build()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "java" || x == "rs"))
        // package-info/module-info have no class body to add a method to.
        .filter(|e| !e.file_name().to_string_lossy().ends_with("-info.java"))
        .map(|e| e.into_path())
        .collect();
    let reader = Store::open_read(&root).unwrap();

    // Single-file edits, one at a time.
    let mut latencies = Vec::new();
    let mut misses = 0;
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for i in 0..edits {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let file = &files[(seed % files.len() as u64) as usize];
        let name = format!("repochartProbe{i}");
        if !add_method(file, &name) {
            continue;
        }
        let t0 = Instant::now();
        let sql = format!("SELECT COUNT(*) FROM symbols WHERE name = '{name}'");
        loop {
            if count(&reader, &sql) > 0 {
                break;
            }
            if t0.elapsed() > Duration::from_secs(3) {
                // The last `}` was not a type's (an enum without `;`, a trailing comment).
                eprintln!("edit {i} ({}) did not add a method the grammar sees; not counted", file.display());
                misses += 1;
                break;
            }
            std::thread::sleep(Duration::from_micros(500));
        }
        if t0.elapsed() < Duration::from_secs(3) {
            latencies.push(t0.elapsed());
        }
        std::thread::sleep(Duration::from_millis(60));
    }
    latencies.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "single-file save-to-queryable over {} edits ({misses} not counted; debounce 50 ms included): p50 {:.1} ms, p95 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        latencies.len(),
        ms(percentile(&latencies, 0.50)),
        ms(percentile(&latencies, 0.95)),
        ms(percentile(&latencies, 0.99)),
        ms(*latencies.last().unwrap())
    );

    // A batch of 1,000 files changed at once (a branch switch).
    let batch: Vec<&PathBuf> = files.iter().rev().take(1000).collect();
    let t0 = Instant::now();
    let mut written = 0;
    for (i, file) in batch.iter().enumerate() {
        if add_method(file, &format!("repochartBatch{i}")) {
            written += 1;
        }
    }
    let write_time = t0.elapsed();
    // Queryable when the watcher is idle again; the clock stops at the last change of the
    // count of batch methods (some files take no method: their last `}` is not a type's).
    std::thread::sleep(Duration::from_millis(200));
    let mut last = -1;
    let mut last_change = Instant::now();
    loop {
        let now = count(&reader, "SELECT COUNT(*) FROM symbols WHERE name LIKE 'repochartBatch%'");
        if now != last {
            last = now;
            last_change = Instant::now();
        } else if watch.is_idle() && last_change.elapsed() > Duration::from_millis(300) {
            break;
        }
        if t0.elapsed() > Duration::from_secs(300) {
            eprintln!("the batch did not finish in 5 minutes");
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let done = last_change - t0;
    println!(
        "{written}-file batch: {last} new methods queryable {:.0} ms after the first write ({:.0} ms of it writing the files)",
        ms(done),
        ms(write_time)
    );
    drop(watch);

    // The first save of a session: a server started on the index as it is (a new agent
    // session), then one edit a second after it is ready.
    let mut firsts = Vec::new();
    for round in 0..5 {
        let watch = Watch::start(&root, Options::default(), WatchOptions::default(), Box::new(|_| {})).unwrap();
        assert!(watch.settle(Duration::from_secs(600)));
        std::thread::sleep(Duration::from_secs(1));
        let name = format!("repochartFirst{round}");
        let file = files.iter().find(|f| f.ends_with("ArrayList.java") || f.ends_with("lib.rs")).unwrap_or(&files[0]);
        add_method(file, &name);
        let t0 = Instant::now();
        let sql = format!("SELECT COUNT(*) FROM symbols WHERE name = '{name}'");
        while count(&reader, &sql) == 0 && t0.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_micros(500));
        }
        firsts.push(format!("{:.0}", ms(t0.elapsed())));
    }
    println!("first save after a restart on the existing index, queryable after (ms, 5 restarts): {}", firsts.join(", "));
}
