//! The `codeatlas` command: parses arguments and dispatches to the library. No logic here.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "codeatlas", version, about = "A map of one code repository for AI coding agents.")]
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
    /// Serve the repository to an MCP client over stdio (stdout carries only JSON-RPC).
    ///
    /// Example: claude mcp add codeatlas -- codeatlas serve --repo /path/to/repo
    Serve {
        /// The repository root.
        #[arg(long, default_value = ".")]
        repo: PathBuf,
        /// Do not follow file changes (the index is still reconciled at start).
        #[arg(long)]
        no_watch: bool,
        /// Quiet time before a batch of changes is indexed, in milliseconds.
        #[arg(long, default_value_t = 50)]
        debounce_ms: u64,
        /// Also append every tool call to .codeatlas/audit.log (it always goes to stderr).
        #[arg(long)]
        audit_log: bool,
    },
    /// Watch the repository and keep its index fresh, printing what each batch re-indexed.
    ///
    /// Example: codeatlas watch --repo ~/src/my-service
    Watch {
        /// The repository root.
        #[arg(long, default_value = ".")]
        repo: PathBuf,
        /// Quiet time before a batch of changes is indexed, in milliseconds.
        #[arg(long, default_value_t = 50)]
        debounce_ms: u64,
    },
    /// Run one tool and print its answer, exactly as an MCP client would get it.
    ///
    /// Example: codeatlas query find_implementations symbol=com.acme.pay.PaymentGateway transitive=true
    Query {
        /// The tool: repo_overview, dependency_graph, search_symbols, read_source, ...
        tool: String,
        /// Arguments as key=value (values are JSON when they parse as JSON, else text).
        args: Vec<String>,
        /// The repository root.
        #[arg(long, default_value = ".")]
        repo: PathBuf,
        /// Arguments as one JSON object instead of key=value pairs.
        #[arg(long)]
        json: Option<String>,
    },
    /// List the tools with their descriptions and argument schemas.
    Tools,
}

fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_env("CODEATLAS_LOG").unwrap_or_else(|_| "warn,codeatlas::mcp=info".into()))
        .init();
    let cli = Cli::parse();
    match cli.command {
        Command::Index { repo, max_file_size, threads, dump } => run_index(repo, max_file_size, threads, dump),
        Command::Serve { repo, no_watch, debounce_ms, audit_log } => {
            let root = repo.canonicalize().with_context(|| format!("cannot open repository {}", repo.display()))?;
            let watch = codeatlas::watch::WatchOptions { watch: !no_watch, debounce: std::time::Duration::from_millis(debounce_ms) };
            codeatlas::mcp::serve_stdio(&root, codeatlas::index::Options::default(), watch, audit_log)
        }
        Command::Watch { repo, debounce_ms } => run_watch(repo, debounce_ms),
        Command::Query { tool, args, repo, json } => run_query(tool, args, repo, json),
        Command::Tools => {
            let tools = codeatlas::mcp::tool_list();
            println!("{}", serde_json::to_string_pretty(&serde_json::json!({ "tools": tools }))?);
            Ok(())
        }
    }
}

fn run_index(repo: PathBuf, max_file_size: u64, threads: Option<usize>, dump: bool) -> anyhow::Result<()> {
    let mut opts = codeatlas::index::Options { max_file_size, ..Default::default() };
    if let Some(t) = threads {
        opts.threads = t;
    }
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} parsing {pos}/{len} files [{bar:30}] {per_sec} eta {eta}")
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
    let summary = codeatlas::index::index(&repo, &opts, &progress).with_context(|| format!("indexing {}", repo.display()))?;
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

fn run_query(tool: String, args: Vec<String>, repo: PathBuf, json: Option<String>) -> anyhow::Result<()> {
    let root = repo.canonicalize().with_context(|| format!("cannot open repository {}", repo.display()))?;
    let mut object = match json {
        Some(text) => match serde_json::from_str::<serde_json::Value>(&text).context("--json is not valid JSON")? {
            serde_json::Value::Object(map) => map,
            _ => anyhow::bail!("--json must be a JSON object"),
        },
        None => serde_json::Map::new(),
    };
    for arg in args {
        let Some((key, value)) = arg.split_once('=') else { anyhow::bail!("argument {arg:?} is not key=value") };
        let value = serde_json::from_str(value).unwrap_or_else(|_| serde_json::Value::String(value.to_string()));
        object.insert(key.to_string(), value);
    }
    if !codeatlas::store::index_path(&root).exists() {
        codeatlas::index::index(&root, &codeatlas::index::Options::default(), &|_, _| {})?;
    }
    let atlas = codeatlas::tools::Atlas::new(&root);
    match atlas.call(&tool, serde_json::Value::Object(object)) {
        Ok(text) => {
            // A closed pipe (`| head`) is not an error worth a panic.
            use std::io::Write;
            let _ = writeln!(std::io::stdout().lock(), "{text}");
            Ok(())
        }
        Err(e) => {
            eprintln!("error: {}", e.0);
            std::process::exit(1);
        }
    }
}

fn run_watch(repo: PathBuf, debounce_ms: u64) -> anyhow::Result<()> {
    use std::io::Write;
    let root = repo.canonicalize().with_context(|| format!("cannot open repository {}", repo.display()))?;
    let on_batch: codeatlas::watch::OnBatch = Box::new(|s| {
        let mut out = std::io::stdout().lock();
        if s.files > 0 {
            let _ =
                writeln!(out, "reconciled {} files ({} parsed, {} removed) in {} ms", s.files, s.parsed, s.removed, s.elapsed.as_millis());
            return;
        }
        if s.changed_paths.is_empty() && s.removed_paths.is_empty() {
            return;
        }
        let mut parts = Vec::new();
        if !s.changed_paths.is_empty() {
            parts.push(format!("re-indexed {}", s.changed_paths.join(", ")));
        }
        if !s.removed_paths.is_empty() {
            parts.push(format!("removed {}", s.removed_paths.join(", ")));
        }
        let _ = writeln!(out, "{} ({} references re-resolved) in {} ms", parts.join("; "), s.rechecked, s.elapsed.as_millis());
    });
    let opts = codeatlas::watch::WatchOptions { watch: true, debounce: std::time::Duration::from_millis(debounce_ms) };
    let _watch = codeatlas::watch::Watch::start(&root, codeatlas::index::Options::default(), opts, on_batch)?;
    eprintln!("watching {} (Ctrl-C to stop)", root.display());
    loop {
        std::thread::park();
    }
}
