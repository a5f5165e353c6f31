//! Parsing alone, or parsing and extraction, of every k-th file of a tree on one thread,
//! nothing stored: the instructions extraction adds to tree-sitter's own parse, measured
//! without this machine's noise under callgrind.
//!
//! Usage: cargo run --release --example extract_cost -- <source tree> [parse|extract] [k]
//!
//! `valgrind --tool=callgrind ./target/release/examples/extract_cost <java.base> extract 16`
//! against the same with `parse`: the difference is extraction's own count. Files are read
//! before the clock starts; the wall time printed is of the parse or extract loop.

use repochart::walk::walk;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(root) = args.get(1) else {
        eprintln!("usage: extract_cost <source tree> [parse|extract] [k]");
        std::process::exit(2);
    };
    let extract = args.get(2).is_none_or(|m| m != "parse");
    let step: usize = args.get(3).and_then(|v| v.parse().ok()).unwrap_or(1).max(1);
    let opts = repochart::index::Options::default();
    let files = walk(std::path::Path::new(root), &opts.filter, opts.max_file_size, None).files;
    let texts: Vec<_> = files.iter().step_by(step).filter_map(|f| Some((f.spec, std::fs::read_to_string(&f.abs).ok()?))).collect();
    let t0 = std::time::Instant::now();
    for (spec, text) in &texts {
        if extract {
            drop(repochart::extract::extract(spec, text, ""));
        } else {
            drop(repochart::extract::parse(spec, text));
        }
    }
    let what = if extract { "parsed and extracted" } else { "parsed" };
    println!("{what} {} files in {:.2} s", texts.len(), t0.elapsed().as_secs_f64());
}
