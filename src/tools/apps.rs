//! Applications in answers: the build units that run (a Java `main` in main code, the
//! entry points `repo_overview` lists), the port each listens on (`server.port` as the
//! configuration files of the unit set it), and which of them serve an endpoint (its own
//! unit, or an application unit that depends on the endpoint's unit, directly or through
//! others). `search_symbols` names them when several applications serve what a URL
//! matches, and a URL's port picks the application listening on it.
//!
//! Owns the tools' view of applications. It must not read source text.

use std::collections::{HashMap, HashSet};

use super::{Atlas, ToolError};
use crate::build::{self, UnitMap};
use crate::model::Language;
use crate::store::Store;

/// One application: its unit, the unit's name and the port its configuration sets.
pub(super) struct App {
    pub unit: u32,
    pub name: String,
    /// `server.port` in the unit's default profile (else its first profile's); None when
    /// no file of the unit sets it.
    pub port: Option<String>,
}

impl App {
    /// `mall-admin (server.port 8080)`, `shop (server.port unset: 8080)`.
    pub fn label(&self) -> String {
        match &self.port {
            Some(p) => format!("{} (server.port {p})", self.name),
            None => format!("{} (server.port unset: 8080)", self.name),
        }
    }

    /// Whether it listens on a port (an unset `server.port` is Spring Boot's 8080).
    pub fn listens_on(&self, port: &str) -> bool {
        self.port.as_deref().unwrap_or("8080") == port
    }
}

/// The port of a URL written whole (`GET http://localhost:8081/x` -> `8081`).
pub(super) fn url_port(query: &str) -> Option<&str> {
    let (_, after) = query.split_once("://")?;
    let authority = after.split(['/', '?', '#']).next()?;
    let (_, port) = authority.rsplit_once(':')?;
    (!port.is_empty() && port.chars().all(|c| c.is_ascii_digit())).then_some(port)
}

impl Atlas {
    /// The applications of the repository, in unit order, when there are several (one
    /// application names nothing). Java units only: a Rust binary's port is in its code,
    /// not in configuration.
    pub(super) fn apps(&self, store: &Store) -> Result<Vec<App>, ToolError> {
        let view = self.unit_view(store)?;
        let mut units: Vec<u32> = self
            .entry_points(store, "")?
            .iter()
            .filter(|s| s.name == "main" && s.language == Language::Java)
            .filter_map(|s| view.of_file.get(&s.file_id).copied())
            .collect();
        units.sort_unstable();
        units.dedup();
        if units.len() < 2 {
            return Ok(Vec::new());
        }
        let config = self.config_view(store)?;
        let map = UnitMap::new(&view.units);
        let ports = config.settings("server.port");
        Ok(units
            .into_iter()
            .filter_map(|unit| {
                let u = view.unit(unit)?;
                let mine: Vec<_> = ports.iter().filter(|s| s.key == "server.port" && map.unit_of(&s.file) == Some(unit as usize)).collect();
                // `settings` gives the default profile first.
                let port = mine.first().map(|s| s.value.clone());
                Some(App { unit, name: u.name.clone(), port })
            })
            .collect())
    }

    /// The applications serving the endpoints of files (file id -> indexes into `apps`):
    /// the file's own unit when it is one, and every application declaring a dependency on
    /// the file's unit.
    pub(super) fn serving(&self, store: &Store, apps: &[App], files: &[i64]) -> Result<HashMap<i64, Vec<usize>>, ToolError> {
        let view = self.unit_view(store)?;
        let reach = build::reach(&view.units);
        let mut out = HashMap::new();
        let mut done: HashSet<i64> = HashSet::new();
        for &file in files {
            if !done.insert(file) {
                continue;
            }
            let Some(&unit) = view.of_file.get(&file) else { continue };
            let serving: Vec<usize> = apps
                .iter()
                .enumerate()
                .filter(|(_, a)| a.unit == unit || build::declares(&view.units, &reach, a.unit as usize, unit as usize))
                .map(|(i, _)| i)
                .collect();
            out.insert(file, serving);
        }
        Ok(out)
    }
}
