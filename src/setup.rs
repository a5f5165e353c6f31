//! `codeatlas init`: registers the server with MCP clients by writing or merging their
//! project configuration files (Claude Code `.mcp.json`, Cursor `.cursor/mcp.json`, VS Code
//! `.vscode/mcp.json`). Every other entry and key is kept as it was, in its order; our
//! entry is added once and updated in place, so running it twice changes nothing.
//!
//! Owns those files' shapes only. It must not index or serve (`main` builds the index).

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

/// The name our entry has in every client's configuration.
pub const SERVER_NAME: &str = "codeatlas";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Client {
    Claude,
    Cursor,
    Vscode,
}

impl Client {
    pub const ALL: [Client; 3] = [Client::Claude, Client::Cursor, Client::Vscode];

    pub fn parse(s: &str) -> Option<Vec<Client>> {
        Some(match s {
            "claude" => vec![Client::Claude],
            "cursor" => vec![Client::Cursor],
            "vscode" => vec![Client::Vscode],
            "all" => Client::ALL.to_vec(),
            _ => return None,
        })
    }

    /// The configuration file, relative to the repository root.
    pub fn file(self) -> &'static str {
        match self {
            Client::Claude => ".mcp.json",
            Client::Cursor => ".cursor/mcp.json",
            Client::Vscode => ".vscode/mcp.json",
        }
    }

    /// The key holding the servers: VS Code says `servers`, the others `mcpServers`.
    fn servers_key(self) -> &'static str {
        match self {
            Client::Vscode => "servers",
            _ => "mcpServers",
        }
    }

    /// Our entry. The repository is named by each client's own variable for the project
    /// directory, so the file can be committed and shared.
    fn entry(self, command: &str) -> Value {
        match self {
            // Claude Code starts project servers in the project directory; it expands `${VAR:-default}`.
            Client::Claude => json!({"type": "stdio", "command": command, "args": ["serve", "--repo", "${CLAUDE_PROJECT_DIR:-.}"]}),
            Client::Cursor => json!({"type": "stdio", "command": command, "args": ["serve", "--repo", "${workspaceFolder}"]}),
            Client::Vscode => json!({"type": "stdio", "command": command, "args": ["serve", "--repo", "${workspaceFolder}"]}),
        }
    }
}

/// What `init` did to one file.
#[derive(Debug, PartialEq, Eq)]
pub enum Action {
    Created,
    Added,
    Updated,
    Unchanged,
}

#[derive(Debug)]
pub struct Change {
    pub client: Client,
    pub path: PathBuf,
    pub action: Action,
}

/// Writes or merges our entry into each client's project configuration under `root`.
/// A file that is not a JSON object (or has comments) is left alone and reported as an
/// error naming the file, with the entry to add by hand.
pub fn init(root: &Path, clients: &[Client], command: &str) -> anyhow::Result<Vec<Change>> {
    let mut changes = Vec::new();
    for &client in clients {
        let path = root.join(client.file());
        let entry = client.entry(command);
        let existing = match std::fs::read_to_string(&path) {
            Ok(text) => Some(text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => anyhow::bail!("cannot read {}: {e}", path.display()),
        };
        let hand = || format!("add this under \"{}\" by hand: \"{SERVER_NAME}\": {entry}", client.servers_key());
        let mut doc: Map<String, Value> = match &existing {
            None => Map::new(),
            Some(text) if text.trim().is_empty() => Map::new(),
            Some(text) => match serde_json::from_str::<Value>(text) {
                Ok(Value::Object(map)) => map,
                Ok(_) => anyhow::bail!("{} is not a JSON object; left unchanged; {}", path.display(), hand()),
                Err(e) => anyhow::bail!("{} is not plain JSON ({e}); left unchanged; {}", path.display(), hand()),
            },
        };
        let servers = doc.entry(client.servers_key()).or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(servers) = servers else {
            anyhow::bail!("\"{}\" in {} is not an object; left unchanged; {}", client.servers_key(), path.display(), hand());
        };
        let action = match servers.get(SERVER_NAME) {
            Some(old) if *old == entry => Action::Unchanged,
            Some(_) => Action::Updated,
            None if existing.is_none() => Action::Created,
            None => Action::Added,
        };
        if action != Action::Unchanged {
            servers.insert(SERVER_NAME.to_string(), entry);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            let mut text = serde_json::to_string_pretty(&Value::Object(doc))?;
            text.push('\n');
            // Write beside, then rename: a crash never leaves half a client configuration.
            let tmp = path.with_extension("json.codeatlas-tmp");
            std::fs::write(&tmp, text)?;
            std::fs::rename(&tmp, &path)?;
        }
        changes.push(Change { client, path, action });
    }
    Ok(changes)
}

/// The command clients should run: `codeatlas` when that name on `PATH` is this very
/// program, else this program's absolute path.
pub fn server_command() -> String {
    let Ok(me) = std::env::current_exe().and_then(|p| p.canonicalize()) else { return SERVER_NAME.to_string() };
    let on_path = std::env::var_os("PATH")
        .and_then(|paths| std::env::split_paths(&paths).map(|dir| dir.join(SERVER_NAME)).find(|candidate| candidate.is_file()));
    match on_path.and_then(|p| p.canonicalize().ok()) {
        Some(found) if found == me => SERVER_NAME.to_string(),
        _ => me.to_string_lossy().into_owned(),
    }
}

/// The same registration as a `claude mcp add` line, for those who prefer it.
pub fn claude_add_line(command: &str) -> String {
    let quoted = if command.contains(char::is_whitespace) { format!("'{command}'") } else { command.to_string() };
    format!("claude mcp add --scope project {SERVER_NAME} -- {quoted} serve --repo .")
}
