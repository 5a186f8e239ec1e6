//! The facts `agentctx explain` reports (SPEC 1, 7), gathered as plain data.
//!
//! `gather` runs the same stages as render and diff, but keeps every decision
//! on the way instead of only the result:
//!
//! 1. **Settings**: each resolved value with its origin, and the candidate
//!    entries that were ignored.
//! 2. **Root search**: every directory tested and the marker that decided.
//! 3. **Candidates** (`candidates`): discovery with `probe_all`, so that a
//!    `first` winner's shadowed siblings are probed and read too; each
//!    candidate gets one outcome, its bytes and digest when read, and its
//!    symlink target.
//! 4. **Budget**: the fresh baseline rendered under max-bytes.
//!    **Not in the baseline**: inside a project, the candidates below the
//!    cwd, each of which loads once the session touches its directory (a
//!    walk as bounded as [`BELOW_DIRS`]); with no root marker found, the
//!    candidates of the directories above the cwd the chain skipped.
//! 5. **Session** (`session`, with a log): the visible baseline, the visible
//!    scopes with the seq that set them, the workspace events compaction
//!    shadowed, and the decision `diff` would make with the parts it would
//!    send.
//! 6. **Prompt** (with a log): the system-prompt and runtime-context report.
//!
//! Nothing here prints; `cmd::explain` presents the `Explanation` as text or JSON.

mod candidates;
mod session;

use std::path::Path;

use serde::Serialize;

use crate::baseline::{self, Baseline};
use crate::discovery;
use crate::jsnum::MaxBytes;
use crate::log::Log;
use crate::prompt::{self, PromptReport};
use crate::render::{self, Step, Truncation};
use crate::settings::{NameList, Origin, Precedence, Setting, Settings};

pub use candidates::{
    CandidateReport, DirReport, InMessage, LinkReport, MarkerReport, NotText, Outcome, RootReport,
    ScopeReport, ScopeState, SecretLink, Stage, TierName,
};
pub use session::{
    IgnoredKind, PartReport, PartRole, SessionReport, ShadowedEvent, VisibleBaseline, VisibleScope,
};

use candidates::dir_report;
use session::session_report;

/// Everything explain reports, in the order it is shown.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Explanation {
    pub settings: SettingsReport,
    pub dsh_home: DshHome,
    pub root_search: RootReport,
    /// The user-global directory first, then the chain, broadest first.
    pub directories: Vec<DirReport>,
    pub budget: BudgetReport,
    /// The baseline identity of a session in this cwd (SPEC 2.5).
    pub identity: String,
    /// Instruction files that are not in the baseline.
    pub not_loaded: NotLoaded,
    /// The session view, with `--log`.
    pub session: Option<SessionReport>,
    /// System prompt stability and runtime context (SPEC 8), with `--log`.
    pub prompt: Option<PromptReport>,
    /// dsh's configuration (CONFIG 11.7), filled in by the command.
    pub dsh_config: Option<crate::dshconfig::report::ConfigReport>,
}

/// Instruction files a person may expect in the baseline that are not in
/// it (issue 27).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NotLoaded {
    /// Inside a project: the candidates in the directories below the cwd,
    /// in walk order. Each loads only once the session reads, writes or
    /// edits a file in its directory (SPEC 6, `--touch`).
    pub below: Vec<Nested>,
    /// Whether the walk below the cwd stopped at [`BELOW_DIRS`] directories
    /// (more may exist).
    pub below_stopped: bool,
    /// With no root marker found (the chain is the cwd alone): the
    /// candidates of the directories above the cwd, nearest first.
    pub above: Vec<String>,
}

/// A candidate below the cwd.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Nested {
    /// Its display path (root-relative, as messages name it).
    pub path: String,
    /// The directory whose touch loads it, root-relative, with a final `/`.
    pub touch: String,
}

/// The most directories the walk below the cwd visits.
pub const BELOW_DIRS: usize = 10_000;

/// The resolved settings, each with where it came from.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SettingsReport {
    pub cwd: Setting<String>,
    pub dsh_home: Setting<String>,
    pub max_bytes: Setting<MaxBytes>,
    pub max_source_bytes: Setting<i64>,
    pub candidates: ListSetting,
    pub local_candidates: ListSetting,
    pub root_markers: Setting<Vec<String>>,
    pub precedence: Setting<Precedence>,
}

/// A candidate list: the usable names and the ignored entries.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListSetting {
    pub value: Vec<String>,
    /// Entries dropped because they are empty, `.`, `..` or hold `/` or `\`.
    pub ignored: Vec<String>,
    pub origin: Origin,
}

impl ListSetting {
    fn new(s: &Setting<NameList>) -> Self {
        ListSetting {
            value: s.value.names.clone(),
            ignored: s.value.ignored.clone(),
            origin: s.origin.clone(),
        }
    }
}

/// The dsh home and how the user-global file is named in messages.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DshHome {
    pub path: String,
    /// The user-global file's absolute path.
    pub file: String,
    /// `~/.dsh/AGENTS.md` or `$DSH_HOME/AGENTS.md` (SPEC 2.1).
    pub display: String,
}

/// The byte budget of the fresh baseline (SPEC 4.3).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BudgetReport {
    pub max_bytes: MaxBytes,
    /// Bytes of the rendered message (0 when none).
    pub used_bytes: usize,
    /// used / max in percent, one decimal; `null` when max <= 0.
    pub percent: Option<f64>,
    /// max - used; `null` when max <= 0.
    pub headroom_bytes: Option<i64>,
    /// How many files load.
    pub files: usize,
    /// Whether a message is sent at all.
    pub sent: bool,
    pub step: Step,
    pub omitted: Vec<String>,
    pub truncated: Option<Truncation>,
}

/// Gathers the report for the resolved settings and an optional log
/// resumed by the generation of `kind`.
pub fn gather(settings: &Settings, log: Option<&Log>, kind: &str) -> Explanation {
    let ws = discovery::discover(settings, true);
    let fresh = baseline::render(&ws, settings, render::INTRO);
    let root = ws.root().to_path_buf();
    let directories = ws
        .dirs
        .iter()
        .enumerate()
        .map(|(i, d)| dir_report(d, i, settings, &fresh))
        .collect();
    let session = log.map(|log| session_report(settings, &ws, log, kind));
    Explanation {
        settings: settings_report(settings),
        dsh_home: DshHome {
            path: lossy(&settings.dsh_home.value),
            file: lossy(&settings.user_global_path()),
            display: settings.user_global_display().to_owned(),
        },
        root_search: RootReport {
            markers: settings.root_markers.value.clone(),
            walked: ws.search.walked.iter().map(|p| lossy(p)).collect(),
            marker: ws.search.marker.as_ref().map(|m| MarkerReport {
                name: m.name.clone(),
                dir: lossy(&m.dir),
                is_dir: m.is_dir,
            }),
            root: lossy(&root),
        },
        directories,
        budget: budget_report(settings, &fresh),
        identity: fresh.identity.clone(),
        not_loaded: not_loaded(settings, &ws),
        session,
        prompt: log.map(prompt::analyze),
        dsh_config: None,
    }
}

/// The candidates below the cwd (inside a project) and above it (with no
/// root marker found).
fn not_loaded(settings: &Settings, ws: &discovery::Workspace) -> NotLoaded {
    let names: Vec<&str> = settings
        .candidates
        .value
        .names
        .iter()
        .chain(&settings.local_candidates.value.names)
        .map(String::as_str)
        .collect();
    let cwd = &settings.cwd.value;
    let mut report = NotLoaded::default();
    if ws.search.marker.is_none() {
        for dir in ws.search.walked.iter().skip(1) {
            for name in &names {
                let path = dir.join(name);
                if std::fs::symlink_metadata(&path).is_ok_and(|m| !m.is_dir()) {
                    report.above.push(lossy(&path));
                }
            }
        }
        return report;
    }
    let walk = ignore::WalkBuilder::new(cwd)
        .standard_filters(false)
        .git_ignore(true)
        .git_exclude(true)
        .parents(true)
        .require_git(true)
        .add_custom_ignore_filename(crate::check::AGENTCTX_IGNORE)
        .filter_entry(|e| e.file_name() != ".git")
        .sort_by_file_name(std::cmp::Ord::cmp)
        .build();
    let mut dirs = 0usize;
    for entry in walk.flatten() {
        let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
        if is_dir {
            dirs += 1;
            if dirs > BELOW_DIRS {
                report.below_stopped = true;
                break;
            }
            continue;
        }
        // Files of the cwd itself are the chain's.
        if entry.depth() < 2 {
            continue;
        }
        let name = entry.file_name().to_string_lossy();
        if !names.contains(&name.as_ref()) {
            continue;
        }
        let Some(dir) = entry.path().parent() else {
            continue;
        };
        let shown = crate::paths::dir_display(ws.root(), dir);
        report.below.push(Nested {
            path: crate::paths::file_display(&shown, &name),
            touch: format!("{shown}/"),
        });
    }
    report
}

pub(super) fn lossy(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

fn settings_report(s: &Settings) -> SettingsReport {
    let path = |p: &Setting<std::path::PathBuf>| Setting::new(lossy(&p.value), p.origin.clone());
    SettingsReport {
        cwd: path(&s.cwd),
        dsh_home: path(&s.dsh_home),
        max_bytes: s.max_bytes.clone(),
        max_source_bytes: s.max_source_bytes.clone(),
        candidates: ListSetting::new(&s.candidates),
        local_candidates: ListSetting::new(&s.local_candidates),
        root_markers: s.root_markers.clone(),
        precedence: s.precedence.clone(),
    }
}

fn budget_report(settings: &Settings, fresh: &Baseline) -> BudgetReport {
    let max = settings.max_bytes.value;
    let used = fresh.fit.bytes();
    BudgetReport {
        max_bytes: max,
        used_bytes: used,
        percent: max.percent(used),
        headroom_bytes: max.headroom(used),
        files: fresh.files.len(),
        sent: fresh.fit.text.is_some(),
        step: fresh.fit.step,
        omitted: fresh.fit.omitted.clone(),
        truncated: fresh.fit.truncated.clone(),
    }
}
