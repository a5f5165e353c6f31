//! The MCP server: rmcp over stdio or Streamable HTTP, tool schemas and descriptions, the
//! overview resource, and turning tool failures into `isError` answers. The only module that
//! knows MCP; all query logic lives in `tools`. Logs go to stderr; stdout carries only
//! JSON-RPC. Over HTTP it binds loopback unless told otherwise and checks `Host` and
//! `Origin` against DNS rebinding.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ProgressNotificationParam, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};

use crate::tools::{Atlas, TOOLS};

pub const OVERVIEW_URI: &str = "repochart://overview";

/// Taught to the model once per session: walk down the tiers.
pub const INSTRUCTIONS: &str = "repochart maps this repository. Walk down the tiers: \
1) repo_overview, dependency_graph, dependency_path, change_impact for structure (compact summaries, a page at most 2,000 tokens); \
2) search_symbols, get_symbol, find_implementations, find_references, file_outline to locate symbols; \
3) read_symbol, read_source, search_text to read only the lines that matter. \
Symbols are named by qualified name or path:line, as the answers print them.";

/// How long a call made during the first index build waits for it.
const FIRST_BUILD_WAIT: Duration = Duration::from_secs(20);
/// Tool calls that may run at once; more wait for a slot.
const MAX_CONCURRENT_CALLS: usize = 8;
/// How long a call may wait for a slot before it is answered "busy".
const QUEUE_WAIT: Duration = Duration::from_secs(10);
/// How long one call may run before it is answered "timed out".
const CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// One MCP session's handler. Clones share the index, the call slots, the call counter
/// and the audit file: HTTP sessions of several agents draw on one warm index.
#[derive(Clone)]
pub struct Server {
    atlas: Arc<Atlas>,
    slots: Arc<tokio::sync::Semaphore>,
    next_call: Arc<AtomicU64>,
    audit: Option<Arc<Mutex<std::fs::File>>>,
}

impl Server {
    pub fn new(atlas: Arc<Atlas>) -> Server {
        Server {
            atlas,
            slots: Arc::new(tokio::sync::Semaphore::new(MAX_CONCURRENT_CALLS)),
            next_call: Arc::new(AtomicU64::new(1)),
            audit: None,
        }
    }

    /// Also appends every call's audit line to this file.
    pub fn with_audit_log(mut self, file: std::fs::File) -> Server {
        self.audit = Some(Arc::new(Mutex::new(file)));
        self
    }

    /// A call made while the first index of the repository is being built waits for it (up
    /// to `FIRST_BUILD_WAIT`; agents tend to give up on a tool after an early error), with
    /// progress notifications when the client asked for them with a `progressToken`.
    async fn wait_for_first_build(&self, context: &RequestContext<RoleServer>) {
        let status = &self.atlas.status;
        let building = || status.building.load(Ordering::Relaxed);
        if !building() || self.atlas.index_exists() {
            return;
        }
        let token = context.meta.get_progress_token();
        let deadline = std::time::Instant::now() + FIRST_BUILD_WAIT;
        while building() && !self.atlas.index_exists() && std::time::Instant::now() < deadline {
            if let Some(token) = &token {
                let (done, total) = (status.done.load(Ordering::Relaxed), status.total.load(Ordering::Relaxed));
                let note = ProgressNotificationParam::new(token.clone(), done as f64)
                    .with_total(total as f64)
                    .with_message(format!("building the index: {done}/{total} files parsed"));
                let _ = context.peer.notify_progress(note).await;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }

    async fn run_tool(&self, name: &str, args: serde_json::Value) -> (String, bool) {
        let Ok(Ok(permit)) = tokio::time::timeout(QUEUE_WAIT, self.slots.clone().acquire_owned()).await else {
            return (format!("busy: {MAX_CONCURRENT_CALLS} calls are running; retry in a moment"), true);
        };
        let atlas = self.atlas.clone();
        let tool = name.to_string();
        let task = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            atlas.call(&tool, args)
        });
        match tokio::time::timeout(CALL_TIMEOUT, task).await {
            Ok(Ok(Ok(text))) => (text, false),
            Ok(Ok(Err(e))) => (e.0, true),
            Ok(Err(e)) => (format!("internal error: {e}"), true),
            Err(_) => (format!("timed out after {} s; narrow the call (a smaller depth, limit or path)", CALL_TIMEOUT.as_secs()), true),
        }
    }
}

/// The arguments of a call as the audit log shows them: strings shortened, and values
/// that look like secrets (keys, tokens, passwords, private keys) replaced.
pub fn audit_summary(args: &serde_json::Value) -> String {
    fn looks_secret(s: &str) -> bool {
        let lower = s.to_lowercase();
        ["password", "passwd", "secret", "token", "apikey", "api_key", "-----begin", "akia", "ghp_", "xoxb-"]
            .iter()
            .any(|w| lower.contains(w))
            || (s.len() >= 32 && !s.contains(char::is_whitespace) && s.chars().filter(|c| c.is_ascii_digit()).count() >= 6)
    }
    fn clean(v: &serde_json::Value) -> serde_json::Value {
        match v {
            serde_json::Value::String(s) if looks_secret(s) => serde_json::Value::String("<redacted>".into()),
            serde_json::Value::String(s) if s.chars().count() > 80 => {
                serde_json::Value::String(format!("{}... ({} chars)", s.chars().take(60).collect::<String>(), s.chars().count()))
            }
            serde_json::Value::Object(map) => serde_json::Value::Object(map.iter().map(|(k, v)| (k.clone(), clean(v))).collect()),
            serde_json::Value::Array(items) => serde_json::Value::Array(items.iter().take(10).map(clean).collect()),
            other => other.clone(),
        }
    }
    clean(args).to_string()
}

/// The tool list as MCP declares it: short descriptions, lean schemas, read-only hints.
/// No `idempotentHint`: the specification gives it meaning only when `readOnlyHint` is
/// false, and it cost 264 bytes of every conversation's context.
pub fn tool_list() -> Vec<Tool> {
    TOOLS
        .iter()
        .map(|t| {
            let mut tool = Tool::new(t.name, t.description, Arc::new((t.schema)()));
            tool.annotations = Some(ToolAnnotations::new().read_only(true).open_world(false));
            tool
        })
        .collect()
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_resources().build())
            .with_server_info(Implementation::new("repochart", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(tool_list()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tool_list().into_iter().find(|t| t.name == name)
    }

    async fn call_tool(&self, request: CallToolRequestParams, context: RequestContext<RoleServer>) -> Result<CallToolResponse, McpError> {
        let name = request.name.to_string();
        if !TOOLS.iter().any(|t| t.name == name) {
            return Err(McpError::invalid_params(format!("unknown tool {name:?}"), None));
        }
        let args = serde_json::Value::Object(request.arguments.unwrap_or_default());
        self.wait_for_first_build(&context).await;
        let call_id = self.next_call.fetch_add(1, Ordering::Relaxed);
        let summary = audit_summary(&args);
        let started = std::time::Instant::now();
        let (text, is_error) = self.run_tool(&name, args).await;
        let ms = started.elapsed().as_millis() as u64;
        let outcome = if is_error { "error" } else { "ok" };
        tracing::info!(call = call_id, tool = %name, args = %summary, ms, bytes = text.len(), outcome, "tool call");
        if let Some(audit) = &self.audit {
            use std::io::Write;
            let line =
                serde_json::json!({"call": call_id, "tool": name, "args": summary, "ms": ms, "bytes": text.len(), "outcome": outcome});
            let _ = writeln!(audit.lock().expect("audit lock"), "{line}");
        }
        let content = vec![ContentBlock::text(text)];
        Ok(if is_error { CallToolResult::error(content) } else { CallToolResult::success(content) }.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let resource =
            Resource::new(OVERVIEW_URI, "overview").with_description("Languages, modules, entry points and most depended-upon types.");
        Ok(ListResourcesResult::with_all_items(vec![resource]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        if request.uri != OVERVIEW_URI {
            return Err(McpError::resource_not_found(format!("no resource {}; the only one is {OVERVIEW_URI}", request.uri), None));
        }
        let atlas = self.atlas.clone();
        let text = tokio::task::spawn_blocking(move || atlas.call("repo_overview", serde_json::json!({})))
            .await
            .map_err(|e| McpError::internal_error(e.to_string(), None))?
            .map_err(|e| McpError::internal_error(e.0, None))?;
        Ok(ReadResourceResult::new(vec![ResourceContents::text(text, OVERVIEW_URI)]).into())
    }
}

/// How `serve` runs, whichever the transport.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    pub index: crate::index::Options,
    pub watch: crate::watch::WatchOptions,
    /// Also append every call to `.repochart/audit.log`.
    pub audit_log: bool,
    /// Answer budget of tiers 1-2 in bytes (reads get twice this).
    pub answer_budget: usize,
}

/// Starts the indexer (and watcher) and the handler every session clones.
fn start(root: &Path, opts: &ServeOptions) -> anyhow::Result<(crate::watch::Watch, Server)> {
    // After the start-up reconcile, and after each batch that changed something, what calls
    // derive from the whole index is built or brought up to date on a thread of its own
    // (requests coalesce while one runs).
    crate::watch::tune_allocator();
    let (refresh_tx, refresh_rx) = crossbeam_channel::bounded::<()>(1);
    let first = std::sync::atomic::AtomicBool::new(true);
    let on_batch: crate::watch::OnBatch = Box::new(move |s| {
        let changed = !s.changed_paths.is_empty() || !s.removed_paths.is_empty();
        if changed {
            tracing::info!(parsed = s.parsed, removed = s.removed, ms = s.elapsed.as_millis() as u64, "index updated");
        }
        if first.swap(false, Ordering::SeqCst) || changed {
            let _ = refresh_tx.try_send(());
        }
    });
    let watcher = crate::watch::Watch::start(root, opts.index.clone(), opts.watch.clone(), on_batch)?;
    let atlas = Arc::new(Atlas::with_indexer(root, watcher.status.clone(), watcher.syncer()).with_budget(opts.answer_budget));
    let weak = Arc::downgrade(&atlas);
    // Ends when the watcher (which owns the sender) is dropped.
    std::thread::Builder::new().name("cache-refresh".into()).spawn(move || {
        while refresh_rx.recv().is_ok() {
            match weak.upgrade() {
                Some(atlas) => {
                    let started = std::time::Instant::now();
                    atlas.refresh_caches();
                    tracing::info!(ms = started.elapsed().as_millis() as u64, "graphs ready");
                    atlas.release_memory();
                    crate::watch::trim_heap();
                }
                None => break,
            }
        }
    })?;
    let mut server = Server::new(atlas);
    if opts.audit_log {
        let dir = root.join(crate::store::INDEX_DIR);
        std::fs::create_dir_all(&dir)?;
        let file = std::fs::OpenOptions::new().create(true).append(true).open(dir.join("audit.log"))?;
        server = server.with_audit_log(file);
    }
    Ok((watcher, server))
}

/// Serves the repository over stdio until the client goes away. The index is brought up
/// to date at start and then follows the file system (unless `watch.watch` is false);
/// tools answer from the last committed index meanwhile.
pub fn serve_stdio(root: &Path, opts: &ServeOptions) -> anyhow::Result<()> {
    let (watcher, server) = start(root, opts)?;
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    runtime.block_on(async move {
        let service = server.serve(rmcp::transport::stdio()).await?;
        service.waiting().await?;
        anyhow::Ok(())
    })?;
    drop(watcher);
    Ok(())
}

/// The `Host` names the map page answers to (as `/mcp`: loopback names and the bound address).
fn hosts_for_page(bound: &std::net::SocketAddr) -> Vec<String> {
    let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "[::1]".into(), "::1".into()];
    if !bound.ip().is_unspecified() {
        hosts.push(bound.ip().to_string());
    }
    hosts
}

/// `GET /`: the map page, or 403 for a `Host` or `Origin` that is not this machine's.
async fn map_page(atlas: Arc<Atlas>, hosts: &[String], headers: &axum::http::HeaderMap) -> axum::response::Response {
    use axum::http::{header, StatusCode};
    use axum::response::IntoResponse;
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    // `localhost:8080` -> `localhost`, `[::1]:8080` -> `[::1]`.
    let name = match host.rsplit_once(':') {
        Some((n, port)) if port.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() => n,
        _ => host,
    };
    let origin_ok = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()).is_none_or(|o| {
        ["http://localhost", "http://127.0.0.1", "http://[::1]"].iter().any(|p| o == *p || o.starts_with(&format!("{p}:")))
    });
    if !hosts.iter().any(|h| h == name) || !origin_ok {
        return (StatusCode::FORBIDDEN, "forbidden: not a loopback host or origin").into_response();
    }
    match tokio::task::spawn_blocking(move || atlas.map(crate::tools::MapFormat::Html, None)).await {
        Ok(Ok(page)) => ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response(),
        Ok(Err(e)) => (StatusCode::SERVICE_UNAVAILABLE, e.0).into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

/// The path MCP clients connect to over HTTP.
pub const HTTP_PATH: &str = "/mcp";

/// Serves the repository over MCP's Streamable HTTP transport at `http://ADDR/mcp` until
/// interrupted. Non-loopback addresses need `allow_remote` (there is no authentication).
/// Requests whose `Host` is not the bound address or a loopback name, or whose `Origin` is
/// not a loopback origin, are refused with 403 (DNS-rebinding protection).
pub fn serve_http(root: &Path, addr: std::net::SocketAddr, allow_remote: bool, opts: &ServeOptions) -> anyhow::Result<()> {
    use rmcp::transport::streamable_http_server::{session::local::LocalSessionManager, StreamableHttpServerConfig, StreamableHttpService};
    if !addr.ip().is_loopback() && !allow_remote {
        anyhow::bail!(
            "{addr} is not a loopback address; the server has no authentication, so pass --allow-remote to serve it beyond this machine"
        );
    }
    let (watcher, server) = start(root, opts)?;
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
        let bound = listener.local_addr()?;
        let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
        if !bound.ip().is_unspecified() {
            hosts.push(bound.ip().to_string());
        }
        let origins = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"];
        let cancel = tokio_util::sync::CancellationToken::new();
        let config = StreamableHttpServerConfig::default()
            .with_allowed_hosts(hosts)
            .with_allowed_origins(origins)
            .enforce_origin_validation()
            .with_cancellation_token(cancel.child_token());
        let atlas = server.atlas.clone();
        let service = StreamableHttpService::new(move || Ok(server.clone()), Arc::new(LocalSessionManager::default()), config);
        // The map page at `/` (`repochart map`), generated from the index as it is now, under
        // the same loopback rules as `/mcp`.
        let page_hosts = hosts_for_page(&bound);
        let page = axum::routing::get(move |headers: axum::http::HeaderMap| {
            let (atlas, hosts) = (atlas.clone(), page_hosts.clone());
            async move { map_page(atlas, &hosts, &headers).await }
        });
        let router = axum::Router::new().route("/", page).nest_service(HTTP_PATH, service);
        // The one line a wrapper script or test waits for (stderr: stdout stays clean).
        eprintln!("repochart: serving MCP at http://{bound}{HTTP_PATH}");
        axum::serve(listener, router)
            .with_graceful_shutdown(async move {
                let _ = tokio::signal::ctrl_c().await;
                cancel.cancel();
            })
            .await?;
        anyhow::Ok(())
    })?;
    drop(watcher);
    Ok(())
}
