//! The baseline a new session receives: the loaded files of a workspace,
//! rendered under the budget, with the persisted source (SPEC 4.4).
//!
//! This is the one assembler of a baseline: [`render`] (render, diff,
//! explain) and check's judging both plan the budget with
//! [`render::plan`], build the text with [`assemble`] and describe it with
//! [`Shape`]; check plans from sizes it keeps per chain, and assembles only
//! the directories whose report is asked for.

use std::path::Path;

use serde::Serialize;

use crate::discovery::{Candidate, Dir, Text, Workspace};
use crate::jsnum::MaxBytes;
use crate::render::{self, Fit, Item, Plan, Sizes, Step, Truncation};
use crate::settings::Settings;
use crate::text::LazyDigest;

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
#[derive(Debug, Clone)]
pub struct File {
    pub scope: String,
    pub path: String,
    pub text: String,
    /// Of `text`, which is never changed after.
    digest: LazyDigest,
    /// Index of its directory in `Workspace::dirs`.
    pub dir: usize,
    /// The lexical absolute path it was read from.
    pub abs_path: std::path::PathBuf,
}

impl File {
    /// Lowercase hex SHA-1 of the text's UTF-8 bytes.
    #[must_use]
    pub fn digest(&self) -> &str {
        self.digest.of(self.text.as_bytes())
    }
}

/// Files are equal when all but the digest are: it is the text's.
impl PartialEq for File {
    fn eq(&self, other: &File) -> bool {
        let File {
            scope,
            path,
            text,
            digest: _,
            dir,
            abs_path,
        } = self;
        (scope, path, text, dir, abs_path)
            == (
                &other.scope,
                &other.path,
                &other.text,
                &other.dir,
                &other.abs_path,
            )
    }
}

impl Eq for File {}

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
        let shapes = files.iter().map(|f| FileShape {
            path: f.path.clone(),
            scope: f.scope.clone(),
            digest: f.digest().to_owned(),
            bytes: f.text.len(),
            represented: false,
        });
        Shape::of(fit, identity, root, max_bytes, shapes)
    }

    /// The shape of a fitted baseline whose loaded files are given as
    /// shapes in order (their `represented` is the fit's).
    #[must_use]
    pub fn of(
        fit: &Fit,
        identity: String,
        root: &Path,
        max_bytes: MaxBytes,
        files: impl IntoIterator<Item = FileShape>,
    ) -> Self {
        // `max-bytes <= 0` disables loading: then no file counts as loaded.
        let loaded = if max_bytes.is_enabled() {
            usize::MAX
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
            files: files
                .into_iter()
                .take(loaded)
                .zip(&fit.represented)
                .map(|(f, r)| FileShape {
                    represented: *r,
                    ..f
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
        digest: Some(f.digest().to_owned()),
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
    let (text, digest) = c.text().cloned().map(Text::into_parts).unwrap_or_default();
    File {
        scope: dir.scope_key_of(c, precedence),
        path: c.display.clone(),
        text,
        digest,
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
    let fit = fit(&files, intro, settings.max_bytes.value);
    Baseline {
        identity: settings.identity(ws.root()),
        files,
        fit,
    }
}

/// Fits the files of a baseline (in order) into `max` bytes under `intro`:
/// the budget planned from their sizes, then the text assembled once.
#[must_use]
pub fn fit(files: &[File], intro: &str, max: MaxBytes) -> Fit {
    let items = items(files);
    let sizes = Measured::new(&items);
    let plan = render::plan(&sizes, intro, render::COMPACT, max);
    assemble(&sizes, &plan, intro, render::COMPACT, max)
}

/// Items with their escaped sizes summed once, so each prefix the plan
/// asks for is a look-up.
struct Measured<'a> {
    items: &'a [Item<'a>],
    /// `prefix[k]`: escaped bytes of the first `k` items (sections, paths).
    prefix: Vec<(usize, usize)>,
}

impl<'a> Measured<'a> {
    fn new(items: &'a [Item<'a>]) -> Self {
        let mut prefix = Vec::with_capacity(items.len() + 1);
        let mut sums = (0, 0);
        prefix.push(sums);
        for i in items {
            sums.0 += render::escaped_bytes(&i.head) + render::escaped_bytes(i.content);
            sums.1 += render::escaped_bytes(i.path);
            prefix.push(sums);
        }
        Measured { items, prefix }
    }
}

impl Sizes for Measured<'_> {
    fn count(&self) -> usize {
        self.items.len()
    }

    fn prefix(&self, k: usize) -> (usize, usize) {
        self.prefix[k]
    }

    fn item(&self, i: usize) -> Item<'_> {
        self.items[i].clone()
    }
}

/// Builds what `plan` (of `items`, under `intro` and `fallback_intro`)
/// decided: the message text, at most max bytes of it, and which files it
/// omits, cuts and represents; the same [`Fit`] as [`render::fit`] of the
/// same items (a property test pins it), with one text built.
#[must_use]
pub fn assemble(
    items: &(impl Sizes + ?Sized),
    plan: &Plan,
    intro: &str,
    fallback_intro: &str,
    max: MaxBytes,
) -> Fit {
    let n = items.count();
    let all: Vec<Item<'_>> = (0..n).map(|i| items.item(i)).collect();
    let paths: Vec<&str> = all.iter().map(|i| i.path).collect();
    let truncated = plan
        .truncated
        .map(|(original_bytes, included_bytes)| Truncation {
            path: paths[n - 1].to_owned(),
            original_bytes,
            included_bytes,
        });
    let mut represented = vec![false; n];
    let text = match plan.step {
        Step::Disabled => None,
        Step::Whole | Step::Suffix => {
            let k = plan.omitted;
            represented[k..].fill(true);
            let notice = render::notice(max, &paths[..k], None);
            let sections = all[k..].iter().map(|i| (i.head.as_str(), i.content));
            Some(render::build(&notice, intro, sections))
        }
        Step::Truncated | Step::Compact => {
            let intro = if plan.step == Step::Truncated {
                intro
            } else {
                fallback_intro
            };
            represented[n - 1] = plan.last_represented;
            let notice = render::notice(max, &paths[..n - 1], truncated.as_ref());
            let last = &all[n - 1];
            let included = truncated.as_ref().map_or(0, |t| t.included_bytes);
            let content = render::cut(last.content, included);
            Some(render::build(
                &notice,
                intro,
                [(last.head.as_str(), content)],
            ))
        }
        Step::Frameless => {
            represented[n - 1] = plan.last_represented;
            let notice = render::notice(max, &paths[..n - 1], truncated.as_ref());
            let with_head = render::escape(&format!("{notice}\n\n{}", all[n - 1].head));
            Some(if with_head.len() == plan.bytes {
                with_head
            } else {
                render::cut(&render::escape(&notice), plan.bytes).to_owned()
            })
        }
    };
    debug_assert_eq!(text.as_ref().map_or(0, String::len), plan.bytes);
    Fit {
        text,
        omitted: paths[..plan.omitted]
            .iter()
            .map(|p| (*p).to_owned())
            .collect(),
        truncated,
        represented,
        step: plan.step,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn file(path: &str, text: &str) -> File {
        File {
            scope: path.to_owned(),
            path: path.to_owned(),
            text: text.to_owned(),
            digest: LazyDigest::default(),
            dir: 0,
            abs_path: path.into(),
        }
    }

    proptest! {
        /// The one assembler builds what the reference fit builds, byte
        /// for byte, with every omission, cut and represented flag.
        #[test]
        fn the_assembled_baseline_is_the_reference_fit(
            contents in proptest::collection::vec("(?s).{0,80}|</system-reminder>|ééé", 0..7),
            intro in prop_oneof![Just(String::new()), Just(render::INTRO.to_owned()), Just(format!("{}{}", render::REPLACE, render::INTRO))],
            max in -5.0f64..900.0,
        ) {
            let files: Vec<File> = contents
                .iter()
                .enumerate()
                .map(|(i, c)| file(&format!("d{i}/é</system-reminder>/AGENTS.md"), c))
                .collect();
            let items = items(&files);
            let want = render::fit(&items, &intro, render::COMPACT, MaxBytes(max));
            prop_assert_eq!(fit(&files, &intro, MaxBytes(max)), want);
        }
    }
}
