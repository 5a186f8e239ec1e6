//! `check` (SPEC 7): every directory of a tree, against the byte budget.
//!
//! The algorithm, in the same three stages as discovery:
//!
//! 1. **Walk** (`walk`). Walk each target once with check's own walk
//!    (each listing read whole on entering), sorted by file name, never
//!    into `.git`, nor into directories named by `--exclude` or
//!    ignored by `.gitignore` / `.agentctxignore` rules. Each directory
//!    becomes a node that remembers which configured names (candidates and
//!    plain root markers) its listing holds; nothing is stat-ed during the
//!    walk.
//! 2. **Scan** (`chains`). Visit the nodes in walk order (parents before
//!    children). A node's project root is its parent's, unless a root marker
//!    in its own listing makes it a new root (SPEC 2.2); the walk's top node
//!    takes the root found upward from it, and its chain starts with the
//!    directories between that root and it. A node whose listing holds a
//!    candidate name is scanned with `discovery::scan_dir_listed` and joins
//!    its children's chain; the chain is shared (`Rc`), never rebuilt.
//! 3. **Render and judge**. When a directory joins a chain its loaded
//!    files are measured once (`prepared`). For every node holding a
//!    candidate, the budget is planned over its chain (the user-global file
//!    first when asked) with `render::plan`, exactly as `render --cwd DIR`
//!    decides, and its report, when asked, is built by the one baseline
//!    assembler, `baseline::assemble` (`baselines`). Whatever a cut costs
//!    each file becomes one over-budget finding on it (`losses`); each
//!    candidate file is judged once, in the directory that holds it
//!    (`file_rules`, with `links` for symlinks).
//!
//! Every finding's rule, title and severity come from one table
//! (`rules::RULES`, listed in docs/check.md); `finding` holds the types.
//! A target is a directory (its whole tree) or an instruction file (its
//! directory and the directories below it in the same project root: those
//! whose baseline it is part of). `impact` compares the directories of a
//! git revision with the working tree; `summary` shapes reports.
//! Everything here returns data, never a sentence: `output::check` words
//! and presents it.

mod baselines;
pub mod budget;
mod chains;
mod file_rules;
mod finding;
pub mod git;
pub mod ignorefile;
pub mod impact;
mod links;
mod losses;
mod prepared;
pub mod received;
mod rules;
pub mod summary;
mod walk;

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use serde::Serialize;

use crate::baseline::Shape;
use crate::discovery::{find_root, os_error};
use crate::jsnum::MaxBytes;
use crate::settings::{Settings, is_plain_name};

pub(crate) use baselines::near_budget;
pub use budget::Radius;
pub use file_rules::{pointer_to, stub_finding, stub_target};
pub use finding::{Detail, Finding, Reach, Said, Severity};
pub use links::link_finding;
pub use prepared::Omitted;
pub use received::{Received, ReceivedFile};
pub use rules::{RULES, Rule};
pub use walk::AGENTCTX_IGNORE;

/// What to check and how: the request [`check`] serves (dsh's walk; one
/// harness's check takes `profile::check::Options`).
#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub settings: &'a Settings,
    /// What to walk (see [`targets`]).
    pub targets: Vec<Target>,
    /// The directory shown paths are relative to (where check was started).
    pub base: PathBuf,
    /// Directory names, or paths relative to a target, not to descend into.
    pub exclude: &'a [String],
    /// Whether `.gitignore` and `.agentctxignore` rules apply.
    pub ignore: bool,
    pub include_user_global: bool,
    /// Also collect every checked directory's baseline (JSON, summary, impact).
    pub directories: bool,
    /// A baseline reaching this percentage of max-bytes is a warning.
    pub warn_at: Option<u32>,
    /// Whether dsh's own baselines are judged (`--profile` without dsh:
    /// the walk runs for the other harnesses only).
    pub dsh: bool,
    /// The file names of the other harnesses checked in the same walk
    /// (one list each, bit i of [`Report::sessions`] masks): a directory
    /// whose listing holds one is a session directory of that harness.
    pub harness_names: Vec<Vec<String>>,
    /// Directories to render as well though they hold no instruction file
    /// (absolute; `--base`: those that hold one on the other side). Their
    /// sessions are reported (`directories`, `received`), not judged.
    pub also: HashSet<PathBuf>,
    /// Where the other harnesses' session directories of whole-tree targets
    /// go as the walk finishes them (with their harness mask), so that
    /// their loads overlap the walk; [`Report::sessions`] lists them all
    /// in walk order either way.
    pub sink: Option<std::sync::mpsc::Sender<(PathBuf, u32)>>,
}

/// One thing to walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// A directory: absolute and normalised.
    pub path: PathBuf,
    /// `false` for an instruction file's directory: nested project roots
    /// below it are left out (that file is not part of their baselines).
    pub nested_roots: bool,
}

/// The targets of `check [PATH]...`, and whether a user-global file was named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    pub targets: Vec<Target>,
    pub user_global: bool,
}

/// Resolves the PATH arguments (relative to `base`): a directory is walked
/// whole; an instruction file (present or deleted) selects its directory
/// and the same-root directories below it; the user-global file selects the
/// whole project of `base` with the user-global file included; any other
/// file is skipped. No argument is the project root of `base`.
///
/// # Errors
///
/// A PATH argument that does not exist (or cannot be read) and is neither a
/// directory, an instruction file nor the user-global file.
pub fn targets(
    settings: &Settings,
    base: &Path,
    args: &[PathBuf],
    harness_names: &[Vec<String>],
) -> Result<Selection> {
    let project = || Target {
        path: find_root(base, &settings.root_markers.value).root,
        nested_roots: true,
    };
    if args.is_empty() {
        return Ok(Selection {
            targets: vec![project()],
            user_global: false,
        });
    }
    let names = walk::Names::new(settings);
    let user_global = crate::paths::normalize(base, &settings.user_global_path());
    let mut sel = Selection {
        targets: Vec::new(),
        user_global: false,
    };
    for arg in args {
        let path = crate::paths::normalize(base, arg);
        let meta = fs::metadata(&path);
        if meta.as_ref().is_ok_and(fs::Metadata::is_dir) {
            sel.targets.push(Target {
                path,
                nested_roots: true,
            });
            continue;
        }
        if path == user_global {
            sel.user_global = true;
            sel.targets.push(project());
            continue;
        }
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let parent = path.parent().filter(|p| walk::is_dir(p));
        match (name, parent) {
            (Some(name), Some(parent))
                if names.is_candidate_name(&name)
                    || harness_names.iter().flatten().any(|n| *n == name) =>
            {
                sel.targets.push(Target {
                    path: parent.to_path_buf(),
                    nested_roots: false,
                });
            }
            _ if meta.is_ok() => {}
            _ => {
                let err = meta.err().map_or_else(String::new, |e| os_error(&e));
                bail!("check {}: {err}", path.display());
            }
        }
    }
    sel.targets = minimal(sel.targets);
    Ok(sel)
}

/// Drops targets another one covers: anything below a whole-tree target,
/// and repeats. Sorted by path, so reports come in one order.
fn minimal(mut targets: Vec<Target>) -> Vec<Target> {
    targets.sort_by(|a, b| {
        a.path
            .cmp(&b.path)
            .then(b.nested_roots.cmp(&a.nested_roots))
    });
    targets.dedup_by(|b, a| a.path == b.path);
    let trees: Vec<PathBuf> = targets
        .iter()
        .filter(|t| t.nested_roots)
        .map(|t| t.path.clone())
        .collect();
    targets
        .into_iter()
        .filter(|t| {
            !trees
                .iter()
                .any(|tree| t.path.starts_with(tree) && (t.path != *tree || !t.nested_roots))
        })
        .collect()
}

/// The baseline a session started in one checked directory gets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DirBaseline {
    /// The directory, relative to where check was started.
    pub dir: String,
    /// Bytes the whole baseline would need.
    pub whole_bytes: usize,
    /// The same shape `render --format json` prints.
    #[serde(flatten)]
    pub baseline: Shape,
    /// Digest of the message text (to tell a changed text from an equal one).
    #[serde(skip)]
    pub text_digest: Option<String>,
}

/// The largest baseline of the tree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Largest {
    pub dir: String,
    pub bytes: usize,
}

/// A session directory of the other harnesses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub path: PathBuf,
    /// Bit i: a session directory of harness i.
    pub mask: u32,
    /// Bit i: only reported for harness i, not judged ([`Request::also`]).
    pub only: u32,
}

/// Everything check found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// The harness whose sessions these are: `dsh`, `codex`, ...
    pub harness: &'static str,
    /// The trees walked, absolute.
    pub paths: Vec<String>,
    /// Directories walked.
    pub walked: usize,
    /// Directories holding a candidate, whose baseline was rendered.
    pub checked: usize,
    /// The byte budget of the harness (`null`: it has none).
    pub max_bytes: Option<MaxBytes>,
    pub largest: Option<Largest>,
    pub errors: usize,
    pub warnings: usize,
    /// In walk order: the user-global file first, then per directory its
    /// budget finding and its files' findings in candidate order.
    pub findings: Vec<Finding>,
    /// Every checked directory in walk order (only when asked for; dsh).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub directories: Option<Vec<DirBaseline>>,
    /// What a session in every checked directory receives, in any
    /// harness's terms (only when asked for): the summary and `--base`
    /// compare these.
    #[serde(skip)]
    pub received: Vec<Received>,
    /// The session directories of the other harnesses of the walk, in walk
    /// order, each with the mask of the harnesses it is one for (bit i:
    /// [`Request::harness_names`] entry i) and whether it is only reported
    /// ([`Request::also`]).
    #[serde(skip)]
    pub sessions: Vec<Session>,
    /// `--exclude` entries that matched no directory.
    #[serde(skip)]
    pub unmatched_excludes: Vec<String>,
    /// Ignore files refused or cut (FIFO, device, over a cap), one line each.
    #[serde(skip)]
    pub ignore_warnings: Vec<String>,
}

impl Report {
    /// The exit status: 1 on an error, or a warning when warnings are denied.
    #[must_use]
    pub fn failed(&self, deny_warnings: bool) -> bool {
        self.errors > 0 || (deny_warnings && self.warnings > 0)
    }
}

impl Report {
    /// Puts what dsh's configuration says first (CONFIG 11.7): a refusal is
    /// an error on the layer file, a loader that is not mounted a warning.
    /// Files are shown relative to `base` when under it.
    pub fn add_dsh_config(&mut self, config: &crate::dshconfig::DshConfig, base: &Path) {
        let shown = |file: &str| {
            let path = Path::new(file);
            match path.strip_prefix(base) {
                Ok(rel) if !rel.as_os_str().is_empty() => rel.to_string_lossy().into_owned(),
                _ => file.to_owned(),
            }
        };
        let finding = match &config.outcome {
            crate::dshconfig::Outcome::Loaded(_) => return,
            crate::dshconfig::Outcome::Refused {
                file,
                line,
                message,
            } => Finding::new(
                ".".to_owned(),
                shown(file),
                Detail::DshConfigRefused {
                    line: *line,
                    dsh_message: message.clone(),
                },
            ),
            crate::dshconfig::Outcome::NotMounted { file, line, reason } => Finding::new(
                ".".to_owned(),
                if file.is_empty() {
                    config.dsh_home.to_string_lossy().into_owned()
                } else {
                    shown(file)
                },
                Detail::DshConfigNotMounted {
                    line: *line,
                    reason: reason.clone(),
                    profile: config.profile.clone(),
                },
            ),
        };
        match finding.severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
        }
        self.findings.insert(0, finding);
    }
}

/// Checks the targets of `opts`.
///
/// # Errors
///
/// A target that is not a directory or cannot be read.
pub fn check(opts: &Request<'_>) -> Result<Report> {
    Ok(check_counted(opts)?.0)
}

/// [`check`], with a deterministic count of the work its baseline judging
/// did (file entries visited), for tests that pin its growth.
///
/// # Errors
///
/// As [`check`].
#[doc(hidden)]
pub fn check_counted(opts: &Request<'_>) -> Result<(Report, u64)> {
    for target in &opts.targets {
        match fs::metadata(&target.path) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => bail!("check {}: not a directory", target.path.display()),
            Err(e) => bail!("check {}: {}", target.path.display(), os_error(&e)),
        }
    }
    Ok(chains::run_counted(opts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn targets_below_a_whole_tree_are_dropped() {
        let t = |p: &str, nested_roots| Target {
            path: PathBuf::from(p),
            nested_roots,
        };
        assert_eq!(
            minimal(vec![
                t("/r/a/b", false),
                t("/r/a", true),
                t("/r/c", false),
                t("/r/c", true),
                t("/r/d", false),
                t("/r/d/e", true),
                t("/r/d", false),
            ]),
            vec![
                t("/r/a", true),
                t("/r/c", true),
                t("/r/d", false),
                t("/r/d/e", true)
            ]
        );
    }
}
