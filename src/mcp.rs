//! The MCP server: rmcp over stdio, tool schemas and descriptions, the overview resource,
//! and turning tool failures into `isError` answers. The only module that knows MCP; all
//! query logic lives in `tools`. Logs go to stderr; stdout carries only JSON-RPC.

use std::path::Path;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource, ResourceContents,
    ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};

use crate::tools::{Atlas, TOOLS};

pub const OVERVIEW_URI: &str = "codeatlas://overview";

/// Taught to the model once per session: walk down the tiers.
pub const INSTRUCTIONS: &str = "codeatlas maps this repository. Walk down the tiers: \
1) repo_overview, dependency_graph, dependency_path, change_impact for structure (~200 tokens each); \
2) search_symbols, get_symbol, find_implementations, find_references, file_outline to locate symbols; \
3) read_symbol, read_source, search_text to read only the lines that matter. \
Symbols are named by qualified name or path:line, as the answers print them.";

pub struct Server {
    atlas: Arc<Atlas>,
}

impl Server {
    pub fn new(atlas: Arc<Atlas>) -> Server {
        Server { atlas }
    }
}

/// The tool list as MCP declares it: short descriptions, lean schemas, read-only hints.
pub fn tool_list() -> Vec<Tool> {
    TOOLS
        .iter()
        .map(|t| {
            let mut tool = Tool::new(t.name, t.description, Arc::new((t.schema)()));
            tool.annotations = Some(ToolAnnotations::new().read_only(true).idempotent(true).open_world(false));
            tool
        })
        .collect()
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_resources().build())
            .with_server_info(Implementation::new("codeatlas", env!("CARGO_PKG_VERSION")))
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

    async fn call_tool(&self, request: CallToolRequestParams, _context: RequestContext<RoleServer>) -> Result<CallToolResponse, McpError> {
        let name = request.name.to_string();
        if !TOOLS.iter().any(|t| t.name == name) {
            return Err(McpError::invalid_params(format!("unknown tool {name:?}"), None));
        }
        let args = serde_json::Value::Object(request.arguments.unwrap_or_default());
        let atlas = self.atlas.clone();
        let started = std::time::Instant::now();
        let tool_name = name.clone();
        let result = tokio::task::spawn_blocking(move || atlas.call(&tool_name, args)).await;
        let result = match result {
            Ok(r) => r,
            Err(e) => Err(crate::tools::ToolError(format!("internal error: {e}"))),
        };
        let (text, is_error) = match result {
            Ok(text) => (text, false),
            Err(e) => (e.0, true),
        };
        tracing::info!(tool = %name, ms = started.elapsed().as_millis() as u64, bytes = text.len(), error = is_error, "tool call");
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

/// Serves the repository over stdio until the client goes away. The index is brought up
/// to date at start and then follows the file system (unless `watch.watch` is false);
/// tools answer from the last committed index meanwhile.
pub fn serve_stdio(root: &Path, opts: crate::index::Options, watch: crate::watch::WatchOptions) -> anyhow::Result<()> {
    let on_batch: crate::watch::OnBatch = Box::new(|s| {
        if !s.changed_paths.is_empty() || !s.removed_paths.is_empty() {
            tracing::info!(parsed = s.parsed, removed = s.removed, ms = s.elapsed.as_millis() as u64, "index updated");
        }
    });
    let watcher = crate::watch::Watch::start(root, opts, watch, on_batch)?;
    let atlas = Arc::new(Atlas::with_indexer(root, watcher.status.clone(), watcher.syncer()));
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    runtime.block_on(async move {
        let service = Server::new(atlas).serve(rmcp::transport::stdio()).await?;
        service.waiting().await?;
        anyhow::Ok(())
    })?;
    drop(watcher);
    Ok(())
}
