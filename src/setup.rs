//! `repochart init`: registers the server with MCP clients by writing or merging their
//! project configuration files (Claude Code `.mcp.json`, Cursor `.cursor/mcp.json`, VS Code
//! `.vscode/mcp.json`). Every other entry and key is kept as it was, in its order; our
//! entry is added once and updated in place, so running it twice changes nothing. An entry
//! an earlier version wrote under its old name (`codeatlas`, the same command shape) is
//! replaced by ours in its place; an entry of that name in any other shape is left alone.
//!
//! Owns those files' shapes only. It must not index or serve (`main` builds the index).

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

/// The name our entry has in every client's configuration.
pub const SERVER_NAME: &str = "repochart";
/// The name earlier versions gave their entry (the project was called codeatlas).
pub const LEGACY_SERVER_NAME: &str = "codeatlas";

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
    /// `uvx repochart@VERSION ...`: the PyPI wheel, fetched and cached by uv.
    Uvx,
    /// `npx -y repochart@VERSION ...`: the npm package.
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
    /// The entry an earlier version wrote under its old name was replaced by ours.
    Replaced,
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
        let legacy = servers.get(LEGACY_SERVER_NAME).is_some_and(written_by_an_earlier_version);
        let action = match servers.get(SERVER_NAME) {
            _ if legacy => Action::Replaced,
            Some(old) if *old == entry => Action::Unchanged,
            Some(_) => Action::Updated,
            None if existing.is_none() => Action::Created,
            None => Action::Added,
        };
        if action == Action::Replaced {
            // Ours takes the old entry's place (the insert below fills it in); the order of
            // the others is kept.
            *servers = std::mem::take(servers)
                .into_iter()
                .filter(|(name, _)| name != SERVER_NAME)
                .map(|(name, value)| if name == LEGACY_SERVER_NAME { (SERVER_NAME.to_string(), Value::Null) } else { (name, value) })
                .collect();
        }
        if action != Action::Unchanged {
            servers.insert(SERVER_NAME.to_string(), entry);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            let mut text = serde_json::to_string_pretty(&Value::Object(doc))?;
            text.push('\n');
            // Write beside, then rename: a crash never leaves half a client configuration.
            let tmp = path.with_extension("json.repochart-tmp");
            std::fs::write(&tmp, text)?;
            std::fs::rename(&tmp, &path)?;
        }
        changes.push(Change { client, path, action });
    }
    Ok(changes)
}

/// True for an entry of the shape an earlier version's `init` wrote: `{"type": "stdio",
/// "command", "args"}` starting its binary (by path), `uvx codeatlas@V` or `npx -y
/// codeatlas@V`, with `serve --repo DIR`. Anything else under that name is someone else's.
fn written_by_an_earlier_version(entry: &Value) -> bool {
    let Some(entry) = entry.as_object() else { return false };
    if entry.keys().any(|k| !matches!(k.as_str(), "type" | "command" | "args")) || entry.get("type").is_some_and(|t| t != "stdio") {
        return false;
    }
    let Some(command) = entry.get("command").and_then(Value::as_str) else { return false };
    let Some(args) = entry.get("args").and_then(Value::as_array) else { return false };
    let Some(args) = args.iter().map(Value::as_str).collect::<Option<Vec<&str>>>() else { return false };
    let [launch @ .., "serve", "--repo", _] = args.as_slice() else { return false };
    let package = |word: &str| word == LEGACY_SERVER_NAME || word.strip_prefix(LEGACY_SERVER_NAME).is_some_and(|v| v.starts_with('@'));
    let program = command.rsplit(['/', '\\']).next().unwrap_or(command);
    match launch {
        [] => program == LEGACY_SERVER_NAME || program == "codeatlas.exe",
        [word] => program == "uvx" && package(word),
        ["-y", word] => program == "npx" && package(word),
        _ => false,
    }
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
