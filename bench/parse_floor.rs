//! The floor under a cold index: tree-sitter parsing every Java and Rust file of a tree and
//! nothing else (no extraction, no store), on as many threads as the index uses. What the
//! index costs beyond this is ours; this part is the grammar's (issue 36 compares both with
//! `ctags -R`).
//!
//!     cargo run --release --example parse_floor -- TREE [THREADS]

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let root = PathBuf::from(args.next().expect("usage: parse_floor TREE [THREADS]"));
    let threads: usize = match args.next() {
        Some(n) => n.parse()?,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let files: Vec<PathBuf> = ignore::WalkBuilder::new(&root)
        .build()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "java" || e == "rs"))
        .collect();
    let next = AtomicUsize::new(0);
    let bytes = AtomicUsize::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut java = tree_sitter::Parser::new();
                java.set_language(&tree_sitter_java::LANGUAGE.into()).expect("java grammar");
                let mut rust = tree_sitter::Parser::new();
                rust.set_language(&tree_sitter_rust::LANGUAGE.into()).expect("rust grammar");
                while let Some(path) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let Ok(text) = std::fs::read(path) else { continue };
                    let parser = if path.extension().is_some_and(|e| e == "java") { &mut java } else { &mut rust };
                    if let Some(tree) = parser.parse(&text, None) {
                        std::hint::black_box(tree.root_node().child_count());
                    }
                    bytes.fetch_add(text.len(), Ordering::Relaxed);
                }
            });
        }
    });
    let wall = started.elapsed().as_secs_f64();
    let mb = bytes.load(Ordering::Relaxed) as f64 / 1e6;
    println!("{} files, {mb:.1} MB parsed on {threads} threads in {wall:.2} s wall ({:.1} MB/s)", files.len(), mb / wall);
    Ok(())
}
