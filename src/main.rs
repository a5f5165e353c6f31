//! The `codeatlas` command: parses arguments and dispatches to the library. No logic here.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "codeatlas",
    version,
    about = "A map of one code repository for AI coding agents."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Index the repository into <repo>/.codeatlas/index.db (incremental).
    ///
    /// Example: codeatlas index --repo ~/src/my-service
    Index {
        /// The repository root.
        #[arg(long, default_value = ".")]
        repo: PathBuf,
        /// Largest file indexed, in bytes.
        #[arg(long, default_value_t = codeatlas::index::DEFAULT_MAX_FILE_SIZE)]
        max_file_size: u64,
        /// Parser threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Print the whole index as sorted text after indexing (for debugging).
        #[arg(long, hide = true)]
        dump: bool,
    },
}

fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("CODEATLAS_LOG")
                .unwrap_or_else(|_| "warn".into()),
        )
        .init();
    let cli = Cli::parse();
    match cli.command {
        Command::Index {
            repo,
            max_file_size,
            threads,
            dump,
        } => run_index(repo, max_file_size, threads, dump),
    }
}

fn run_index(
    repo: PathBuf,
    max_file_size: u64,
    threads: Option<usize>,
    dump: bool,
) -> anyhow::Result<()> {
    let mut opts = codeatlas::index::Options {
        max_file_size,
        ..Default::default()
    };
    if let Some(t) = threads {
        opts.threads = t;
    }
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} parsing {pos}/{len} files [{bar:30}] {per_sec} eta {eta}",
            )
            .expect("static template")
            .progress_chars("=> "),
        );
        Some(bar)
    } else {
        None
    };
    let last_line = std::cell::Cell::new(0usize);
    let progress = |done: usize, total: usize| match &bar {
        Some(bar) => {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        }
        None => {
            // Plain lines when not a terminal: one every 1,000 files and at the end.
            if done == total || done >= last_line.get() + 1000 {
                last_line.set(done);
                eprintln!("parsed {done}/{total} files");
            }
        }
    };
    let summary = codeatlas::index::index(&repo, &opts, &progress)
        .with_context(|| format!("indexing {}", repo.display()))?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    println!(
        "indexed {} files ({} parsed, {} unchanged, {} removed): {} LOC, {} symbols, {} references, {} edges, {} parse errors in {:.2}s",
        summary.files,
        summary.parsed,
        summary.unchanged,
        summary.removed,
        summary.loc,
        summary.symbols,
        summary.references,
        summary.edges,
        summary.parse_errors,
        summary.elapsed.as_secs_f64()
    );
    if !summary.skipped.is_empty() {
        println!("skipped {} files:", summary.skipped.len());
        for (path, reason) in summary.skipped.iter().take(20) {
            println!("  {path}: {reason}");
        }
        if summary.skipped.len() > 20 {
            println!("  ... and {} more", summary.skipped.len() - 20);
        }
    }
    if dump {
        let store = codeatlas::store::Store::open_read(&repo.canonicalize()?)?;
        print!("{}", store.dump()?);
    }
    Ok(())
}
