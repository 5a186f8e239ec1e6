//! The baseline a new session receives: the loaded files of a workspace,
//! rendered under the budget, with the persisted source (SPEC 4.4).

use std::path::Path;

use serde::Serialize;

use crate::discovery::{Candidate, Dir, Workspace};
use crate::jsnum::MaxBytes;
use crate::render::{self, Fit, Item, Truncation};
use crate::settings::Settings;

/// The source kind current dsh builds persist (since 2026-08-13, aacab0cafd);
/// design note 000 and earlier builds wrote `workspace-instructions`.
pub const DEFAULT_KIND: &str = "agent-instructions";

/// A persisted change entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Change {
    pub action: Action,
    pub scope: String,
    pub path: String,
    #[serde(
        rename = "previousPath",
        skip_serializing_if = "Option::is_none",
        default
    )]
    pub previous_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub digest: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    Set,
    Replace,
    Remove,
}

impl Action {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Set => "set",
            Action::Replace => "replace",
            Action::Remove => "remove",
        }
    }
}

/// The persisted source object of a workspace message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Source {
    pub kind: String,
    pub form: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<bool>,
    #[serde(rename = "baselineIdentity", skip_serializing_if = "Option::is_none")]
    pub baseline_identity: Option<String>,
    pub changes: Vec<Change>,
}

impl Source {
    #[must_use]
    pub fn new(kind: &str, identity: Option<String>, changes: Vec<Change>) -> Self {
        Source {
            kind: kind.to_owned(),
            form: "instructions",
            baseline: identity.as_ref().map(|_| true),
            baseline_identity: identity,
            changes,
        }
    }
}

/// One loaded file of the baseline, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    pub scope: String,
    pub path: String,
    pub text: String,
    pub digest: String,
    /// Index of its directory in `Workspace::dirs`.
    pub dir: usize,
    /// The lexical absolute path it was read from.
    pub abs_path: std::path::PathBuf,
}

/// The rendered baseline.
#[derive(Debug, Clone)]
pub struct Baseline {
    pub files: Vec<File>,
    pub fit: Fit,
    pub identity: String,
}

impl Baseline {
    /// `set` changes for every represented file.
    #[must_use]
    pub fn changes(&self) -> Vec<Change> {
        self.files
            .iter()
            .zip(&self.fit.represented)
            .filter(|(_, r)| **r)
            .map(|(f, _)| set_change(f))
            .collect()
    }

    /// Whether the budget omitted the file of scope `scope` in the
    /// directory at `dir_index` of the workspace (it omits a prefix).
    #[must_use]
    pub fn omits(&self, dir_index: Option<usize>, scope: &str) -> bool {
        let omitted = self.fit.omitted.len().min(self.files.len());
        self.files[..omitted]
            .iter()
            .any(|f| Some(f.dir) == dir_index && f.scope == scope)
    }

    /// Whether the file at `index` is represented in the text.
    #[must_use]
    pub fn represents(&self, scope: &str) -> bool {
        self.files
            .iter()
            .zip(&self.fit.represented)
            .any(|(f, r)| *r && f.scope == scope)
    }
}

/// One loaded file of a baseline as the JSON outputs list it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileShape {
    /// The display path the prompt shows (root-relative).
    pub path: String,
    pub scope: String,
    pub digest: String,
    pub bytes: usize,
    pub represented: bool,
}

/// The one JSON shape of a baseline, shared by `render --format json` and
/// every directory of `check --format json`, so both describe the same
/// directory the same way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Shape {
    pub identity: String,
    /// The project root, absolute.
    pub project_root: String,
    /// Bytes of the message sent.
    pub bytes: usize,
    pub max_bytes: MaxBytes,
    /// Display paths of the files the budget omitted.
    pub omitted: Vec<String>,
    /// The cut file (at most one).
    pub truncated: Vec<Truncation>,
    /// The files that load, in order. `max-bytes <= 0` disables loading, so
    /// then none counts as loaded.
    pub files: Vec<FileShape>,
}

impl Shape {
    #[must_use]
    pub fn new(
        files: &[File],
        fit: &Fit,
        identity: String,
        root: &Path,
        max_bytes: MaxBytes,
    ) -> Self {
        let loaded = if max_bytes.is_enabled() {
            files.len()
        } else {
            0
        };
        Shape {
            identity,
            project_root: root.to_string_lossy().into_owned(),
            bytes: fit.bytes(),
            max_bytes,
            omitted: fit.omitted.clone(),
            truncated: fit.truncated.iter().cloned().collect(),
            files: files[..loaded]
                .iter()
                .zip(&fit.represented)
                .map(|(f, r)| FileShape {
                    path: f.path.clone(),
                    scope: f.scope.clone(),
                    digest: f.digest.clone(),
                    bytes: f.text.len(),
                    represented: *r,
                })
                .collect(),
        }
    }
}

#[must_use]
pub fn set_change(f: &File) -> Change {
    Change {
        action: Action::Set,
        scope: f.scope.clone(),
        path: f.path.clone(),
        previous_path: None,
        digest: Some(f.digest.clone()),
    }
}

/// The loaded files of a workspace in baseline order.
pub fn files(ws: &Workspace, settings: &Settings) -> Vec<File> {
    let precedence = settings.precedence.value;
    ws.dirs
        .iter()
        .enumerate()
        .flat_map(|(i, d)| d.loaded().map(move |c| file_of(i, d, c, precedence)))
        .collect()
}

/// One loaded candidate of `dir` (index `dir_index` of its list) as a file.
#[must_use]
pub fn file_of(
    dir_index: usize,
    dir: &Dir,
    c: &Candidate,
    precedence: crate::settings::Precedence,
) -> File {
    let text = c.text().cloned().unwrap_or_else(|| crate::discovery::Text {
        text: String::new(),
        digest: String::new(),
        bom: false,
    });
    File {
        scope: dir.scope_key_of(c, precedence),
        path: c.display.clone(),
        text: text.text,
        digest: text.digest,
        dir: dir_index,
        abs_path: c.path.clone(),
    }
}

/// The baseline's files as the budget sees them: path, heading, content.
#[must_use]
pub fn items(files: &[File]) -> Vec<Item<'_>> {
    files
        .iter()
        .map(|f| Item {
            path: &f.path,
            head: render::baseline_head(&f.path),
            content: &f.text,
        })
        .collect()
}

/// Renders the baseline of a workspace with `intro` (INTRO, or REPLACE + INTRO).
pub fn render(ws: &Workspace, settings: &Settings, intro: &str) -> Baseline {
    let files = files(ws, settings);
    let items = items(&files);
    let fit = render::fit(&items, intro, render::COMPACT, settings.max_bytes.value);
    Baseline {
        identity: settings.identity(ws.root()),
        files,
        fit,
    }
}
