//! The `repochart` command: parses arguments and dispatches to the library. No logic here.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "repochart",
    version,
    about = "A map of one code repository for AI coding agents.",
    after_help = "Start with: repochart init --repo ~/src/my-service   (registers the MCP server with your clients and builds the index)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Index the repository into <repo>/.repochart/index.db (incremental).
    ///
    /// Example: repochart index --repo ~/src/my-service
    Index {
        /// The repository root.
        #[arg(long, default_value = ".")]
        repo: PathBuf,
        /// Largest file indexed, in bytes (default: max_file_size in .repochart.toml, else 1 MiB).
        #[arg(long)]
        max_file_size: Option<u64>,
        /// Parser threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Print the whole index as sorted text after indexing (for debugging).
        #[arg(long, hide = true)]
        dump: bool,
    },
    /// Serve the repository to an MCP client over stdio (stdout carries only JSON-RPC), or over HTTP.
    ///
    /// Example: repochart serve --repo ~/src/my-service
    ///
    /// Example: repochart serve --repo ~/src/my-service --http 127.0.0.1:7420   (clients connect to http://127.0.0.1:7420/mcp)
    Serve {
        /// The repository root.
        #[arg(long, default_value = ".")]
        repo: PathBuf,
        /// Serve MCP's Streamable HTTP transport at [HOST:]PORT (host 127.0.0.1 when omitted) instead of stdio.
        #[arg(long, value_name = "[HOST:]PORT")]
        http: Option<String>,
        /// Allow --http on a non-loopback address (there is no authentication).
        #[arg(long, requires = "http")]
        allow_remote: bool,
        /// Do not follow file changes (the index is still reconciled at start).
        #[arg(long)]
        no_watch: bool,
        /// Quiet time before a batch of changes is indexed, in milliseconds (default: .repochart.toml, else 50).
        #[arg(long)]
        debounce_ms: Option<u64>,
        /// Also append every tool call to .repochart/audit.log (it always goes to stderr).
        #[arg(long)]
        audit_log: bool,
    },
    /// Register the server with MCP clients for this repository and build the index.
    ///
    /// Writes or merges Claude Code's .mcp.json, Cursor's .cursor/mcp.json and VS Code's
    /// .vscode/mcp.json, keeping every other entry; running it again changes nothing.
    ///
    /// Example: repochart init --repo ~/src/my-service --client claude
    Init {
        /// The repository root.
        #[arg(long, default_value = ".")]
        repo: PathBuf,
        /// claude, cursor, vscode or all.
        #[arg(long, default_value = "all")]
        client: String,
        /// Only write the client configuration; do not build the index.
        #[arg(long)]
        no_index: bool,
        /// How clients start the server: path (this binary's absolute path), uvx
        /// (`uvx repochart@VERSION`) or npx (`npx -y repochart@VERSION`), for a file a team commits.
        #[arg(long, default_value = "path")]
        launcher: String,
    },
    /// Report the index's health; exits with 1 when the index is missing or broken.
    ///
    /// Example: repochart status --repo ~/src/my-service
    Status {
        /// The repository root.
        #[arg(long, default_value = ".")]
        repo: PathBuf,
    },
    /// Watch the repository and keep its index fresh, printing what each batch re-indexed.
    ///
    /// Example: repochart watch --repo ~/src/my-service
    Watch {
        /// The repository root.
        #[arg(long, default_value = ".")]
        repo: PathBuf,
        /// Quiet time before a batch of changes is indexed, in milliseconds (default: .repochart.toml, else 50).
        #[arg(long)]
        debounce_ms: Option<u64>,
    },
    /// Run one tool and print its answer, exactly as an MCP client would get it.
    ///
    /// Example: repochart query find_implementations symbol=com.acme.pay.PaymentGateway transitive=true
    ///
    /// Example: repochart query change_impact target=git:working-tree
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
    /// Draw the index: the build units (or modules) and their dependencies, as one
    /// self-contained HTML page (no network), or the graph alone as SVG, DOT or Mermaid.
    ///
    /// Example: repochart map --repo ~/src/my-service --out map.html
    ///
    /// Example: repochart map --format mermaid > docs/units.mmd
    Map {
        /// The repository root.
        #[arg(long, default_value = ".")]
        repo: PathBuf,
        /// Write here instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
        /// html, svg, dot or mermaid.
        #[arg(long, default_value = "html")]
        format: String,
        /// Links of names: a URL template with {path}, {line} and {commit}
        /// (https://host/org/repo/blob/{commit}/{path}#L{line}); file:// links by default.
        #[arg(long)]
        link: Option<String>,
    },
    /// List the tools with their descriptions and argument schemas, as MCP clients see them.
    ///
    /// Example: repochart tools
    Tools,
}

fn main() -> anyhow::Result<()> {
    // Colour codes only on a terminal: logs captured by an MCP client are plain text.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_env("REPOCHART_LOG").unwrap_or_else(|_| "warn,repochart::mcp=info".into()))
        .init();
    let cli = Cli::parse();
    match cli.command {
        Command::Index { repo, max_file_size, threads, dump } => run_index(repo, max_file_size, threads, dump),
        Command::Serve { repo, http, allow_remote, no_watch, debounce_ms, audit_log } => {
            let root = open_repo(&repo)?;
            let config = repochart::config::Config::load(&root)?;
            let opts = repochart::mcp::ServeOptions {
                index: repochart::index::Options::for_repo(&root)?,
                watch: repochart::watch::WatchOptions {
                    watch: !no_watch,
                    debounce: std::time::Duration::from_millis(debounce_ms.unwrap_or(config.debounce_ms)),
                },
                audit_log: audit_log || config.audit_log,
                answer_budget: config.answer_budget,
            };
            match http {
                None => repochart::mcp::serve_stdio(&root, &opts),
                Some(addr) => repochart::mcp::serve_http(&root, parse_http_addr(&addr)?, allow_remote, &opts),
            }
        }
        Command::Init { repo, client, no_index, launcher } => run_init(repo, &client, no_index, &launcher),
        Command::Status { repo } => {
            let root = open_repo(&repo)?;
            let opts = repochart::index::Options::for_repo(&root)?;
            let health = repochart::health::check(&root, &opts);
            print!("{}", health.report(&root));
            if !health.is_ok() {
                std::process::exit(1);
            }
            Ok(())
        }
        Command::Watch { repo, debounce_ms } => run_watch(repo, debounce_ms),
        Command::Query { tool, args, repo, json } => run_query(tool, args, repo, json),
        Command::Map { repo, out, format, link } => {
            let root = open_repo(&repo)?;
            let format = repochart::tools::MapFormat::parse(&format)
                .with_context(|| format!("--format {format:?}: expected html, svg, dot or mermaid"))?;
            // Brought up to date first, quietly (standard output may be the map itself).
            let opts = repochart::index::Options::for_repo(&root)?;
            repochart::index::index(&root, &opts, &|_, _| {}).with_context(|| format!("indexing {}", root.display()))?;
            repochart::git::history::refresh(&repochart::store::Store::open_read(&root)?, &opts.history)?;
            let atlas = repochart::tools::Atlas::new(&root);
            let text = atlas.map(format, link.as_deref()).map_err(|e| anyhow::anyhow!(e.0))?;
            match out {
                Some(path) => {
                    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
                    eprintln!("wrote {}", path.display());
                }
                None => print!("{text}"),
            }
            Ok(())
        }
        Command::Tools => {
            let tools = repochart::mcp::tool_list();
            println!("{}", serde_json::to_string_pretty(&serde_json::json!({ "tools": tools }))?);
            Ok(())
        }
    }
}

fn open_repo(repo: &std::path::Path) -> anyhow::Result<PathBuf> {
    repo.canonicalize().with_context(|| format!("cannot open repository {}", repo.display()))
}

/// `PORT`, `HOST:PORT` or `[V6]:PORT`; the host defaults to loopback.
fn parse_http_addr(text: &str) -> anyhow::Result<std::net::SocketAddr> {
    use std::net::ToSocketAddrs;
    if let Ok(port) = text.parse::<u16>() {
        return Ok(std::net::SocketAddr::from(([127, 0, 0, 1], port)));
    }
    let with_host = if text.starts_with(':') { format!("127.0.0.1{text}") } else { text.to_string() };
    with_host
        .to_socket_addrs()
        .with_context(|| format!("--http {text:?}: expected PORT or HOST:PORT, e.g. 127.0.0.1:7420"))?
        .next()
        .with_context(|| format!("--http {text:?}: the host has no address"))
}

fn run_init(repo: PathBuf, client: &str, no_index: bool, launcher: &str) -> anyhow::Result<()> {
    use repochart::setup::{Action, Client, Launcher};
    let root = open_repo(&repo)?;
    let clients = Client::parse(client).with_context(|| format!("--client {client:?}: expected claude, cursor, vscode or all"))?;
    let launcher = Launcher::parse(launcher).with_context(|| format!("--launcher {launcher:?}: expected path, uvx or npx"))?;
    let command = launcher.clone();
    let changes = repochart::setup::init(&root, &clients, &launcher)?;
    for c in &changes {
        let what = match c.action {
            Action::Created => "created",
            Action::Added => "added repochart to",
            Action::Updated => "updated repochart in",
            Action::Replaced => "replaced the codeatlas entry of an earlier version with repochart in",
            Action::Unchanged => "already set up:",
        };
        println!("{what} {}", c.path.display());
    }
    println!("or, for Claude Code from the command line: {}", repochart::setup::claude_add_line(&command));
    if !no_index {
        if repochart::store::index_path(&root).exists() {
            println!("index: {} exists; the server keeps it fresh", repochart::store::index_path(&root).display());
        } else {
            run_index(root.clone(), None, None, false)?;
        }
    }
    println!("next: restart or reload your MCP client in {} and ask it to call repo_overview", root.display());
    Ok(())
}

fn run_index(repo: PathBuf, max_file_size: Option<u64>, threads: Option<usize>, dump: bool) -> anyhow::Result<()> {
    let mut opts = repochart::index::Options::for_repo(&open_repo(&repo)?)?;
    if let Some(m) = max_file_size {
        opts.max_file_size = m;
    }
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
    let summary = repochart::index::index(&repo, &opts, &progress).with_context(|| format!("indexing {}", repo.display()))?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    println!(
        "indexed {} files ({} parsed, {} unchanged, {} removed): {} LOC, {} symbols, {} references ({} resolved), {} parse errors in {:.2}s",
        summary.files,
        summary.parsed,
        summary.unchanged,
        summary.removed,
        summary.loc,
        summary.symbols,
        summary.references,
        summary.resolved,
        summary.parse_errors,
        summary.elapsed.as_secs_f64()
    );
    if summary.files == 0 {
        println!(
            "no source files of a supported language found: repochart reads {} (by extension: {})",
            repochart::lang::all().iter().map(|l| l.language.as_str()).collect::<Vec<_>>().join(", "),
            repochart::lang::all().iter().flat_map(|l| l.extensions.iter().map(|e| format!(".{e}"))).collect::<Vec<_>>().join(", ")
        );
    }
    if !summary.skipped.is_empty() {
        println!("skipped {} files:", summary.skipped.len());
        for (path, reason) in summary.skipped.iter().take(20) {
            println!("  {path}: {reason}");
        }
        if summary.skipped.len() > 20 {
            println!("  ... and {} more", summary.skipped.len() - 20);
        }
    }
    // Git history, after the index is complete (its time is not the index's).
    let store = repochart::store::Store::open_read(&repo.canonicalize()?)?;
    let state = repochart::git::history::refresh(&store, &opts.history)?;
    match state.is_ready() {
        true => println!("{} ({} walked in {:.2}s)", state.describe(), state.walked, state.ms as f64 / 1000.0),
        false => println!("{}", state.describe()),
    }
    if dump {
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
    // Answers are fresh: the index is brought up to date first (built, rebuilt when of an
    // old format, or reconciled: 0.2 s on an unchanged java.base), and so is git history
    // (read from where it was left: commits since, or the whole walk the first time), as
    // `index`, `map` and the server read it.
    let opts = repochart::index::Options::for_repo(&root)?;
    repochart::index::index(&root, &opts, &|_, _| {})?;
    repochart::git::history::refresh(&repochart::store::Store::open_read(&root)?, &opts.history)?;
    let atlas = repochart::tools::Atlas::new(&root).with_budget(repochart::config::Config::load(&root)?.answer_budget);
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

fn run_watch(repo: PathBuf, debounce_ms: Option<u64>) -> anyhow::Result<()> {
    use std::io::Write;
    let root = repo.canonicalize().with_context(|| format!("cannot open repository {}", repo.display()))?;
    let on_batch: repochart::watch::OnBatch = Box::new(|s| {
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
    let debounce_ms = debounce_ms.unwrap_or(repochart::config::Config::load(&root)?.debounce_ms);
    let opts = repochart::watch::WatchOptions { watch: true, debounce: std::time::Duration::from_millis(debounce_ms) };
    let _watch = repochart::watch::Watch::start(&root, repochart::index::Options::for_repo(&root)?, opts, on_batch)?;
    eprintln!("watching {} (Ctrl-C to stop)", root.display());
    loop {
        std::thread::park();
    }
}
