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
    fn entry(self, launcher: &Launcher) -> Value {
        let repo = match self {
            // Claude Code starts project servers in the project directory; it expands `${VAR:-default}`.
            Client::Claude => "${CLAUDE_PROJECT_DIR:-.}",
            Client::Cursor | Client::Vscode => "${workspaceFolder}",
        };
        let (command, args) = launcher.command(&["serve", "--repo", repo]);
        json!({"type": "stdio", "command": command, "args": args})
    }
}

/// How a client starts the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Launcher {
    /// A program: by default the absolute path of the running binary (a cold `uvx` or
    /// `npx` download can exceed a client's start-up timeout).
    Program(String),
    /// `uvx codeatlas@VERSION ...`: the PyPI wheel, fetched and cached by uv.
    Uvx,
    /// `npx -y codeatlas@VERSION ...`: the npm package.
    Npx,
}

impl Launcher {
    /// `--launcher`: `path` (the running binary), `uvx` or `npx`.
    pub fn parse(s: &str) -> Option<Launcher> {
        Some(match s {
            "path" => Launcher::Program(server_command()),
            "uvx" => Launcher::Uvx,
            "npx" => Launcher::Npx,
            _ => return None,
        })
    }

    /// The command and its arguments, `args` after ours. The packages are pinned to this
    /// version, so that a team that commits the file runs one version (and one index format).
    pub fn command(&self, args: &[&str]) -> (String, Vec<String>) {
        let pinned = format!("{SERVER_NAME}@{}", env!("CARGO_PKG_VERSION"));
        let (command, mut all): (&str, Vec<String>) = match self {
            Launcher::Program(p) => (p.as_str(), Vec::new()),
            Launcher::Uvx => ("uvx", vec![pinned]),
            Launcher::Npx => ("npx", vec!["-y".to_string(), pinned]),
        };
        all.extend(args.iter().map(|a| a.to_string()));
        (command.to_string(), all)
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
pub fn init(root: &Path, clients: &[Client], launcher: &Launcher) -> anyhow::Result<Vec<Change>> {
    let mut changes = Vec::new();
    for &client in clients {
        let path = root.join(client.file());
        let entry = client.entry(launcher);
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

/// The running binary's absolute path (what clients run by default).
pub fn server_command() -> String {
    match std::env::current_exe().and_then(|p| p.canonicalize()) {
        Ok(me) => me.to_string_lossy().into_owned(),
        Err(_) => SERVER_NAME.to_string(),
    }
}

/// The same registration as a `claude mcp add` line, for those who prefer it.
pub fn claude_add_line(launcher: &Launcher) -> String {
    let (command, args) = launcher.command(&["serve", "--repo", "."]);
    let quote = |s: &str| if s.contains(char::is_whitespace) { format!("'{s}'") } else { s.to_string() };
    let words: Vec<String> = std::iter::once(command).chain(args).map(|w| quote(&w)).collect();
    format!("claude mcp add --scope project {SERVER_NAME} -- {}", words.join(" "))
}
