//! Checks the matcher against tree-sitter's query engine on a real tree: every file is
//! extracted with both, the extracts must be equal; prints how many differ and each engine's
//! extraction time on one core (parse included).
//!
//! Usage: cargo run --release --example matcher_check -- <source tree>
use repochart::extract::{extract_with, Engine};
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let root = std::path::Path::new(&args[1]);
    let mut files = Vec::new();
    for e in ignore::WalkBuilder::new(root).build().flatten() {
        let p = e.path().to_string_lossy().to_string();
        if let Some(spec) = repochart::lang::for_path(&p) {
            files.push((spec, std::fs::read_to_string(e.path()).unwrap_or_default(), p));
        }
    }
    let mut diff = 0;
    let (mut ta, mut tb) = (0.0, 0.0);
    for (spec, src, p) in &files {
        let t = Instant::now();
        let a = extract_with(spec, src, "m", Engine::Matcher);
        ta += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let b = extract_with(spec, src, "m", Engine::TreeSitter);
        tb += t.elapsed().as_secs_f64();
        let (fa, fb) = (format!("{a:#?}"), format!("{b:#?}"));
        if fa != fb {
            diff += 1;
            if diff <= 3 {
                println!("DIFF {p}");
                let la: Vec<&str> = fa.lines().collect();
                let lb: Vec<&str> = fb.lines().collect();
                for (i, (x, y)) in la.iter().zip(&lb).enumerate() {
                    if x != y {
                        println!("  {i}: matcher {x}\n  {i}: ts      {y}");
                        break;
                    }
                }
                println!("  lines {} vs {}", la.len(), lb.len());
            }
        }
    }
    println!("{} files, {diff} differ; extract matcher {ta:.2}s, tree-sitter {tb:.2}s", files.len());
    if diff > 0 {
        std::process::exit(1);
    }
}
