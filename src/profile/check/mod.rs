//! `check` for the harnesses besides dsh (SPEC 10.8): each session
//! directory of the one walk (`check::Report::sessions`) loaded as that
//! harness would from there, and what it found as `check` findings, in the
//! same shape as dsh's: anchored on the file, with a rule, a hint and, for
//! a budget, the blast radius. A harness plugs in with one [`Harness`]
//! (its `profile::Definition::check` makes it).

use std::collections::{HashMap, HashSet};
use std::hash::BuildHasher;
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::{FileEntry, HarnessReport, Profile, Status};
use crate::check::budget::Excess;
use crate::check::{self, Detail, Finding, Largest, Severity};
use crate::jsnum::MaxBytes;
use crate::settings::Settings;

/// One harness `check` judges besides dsh: the names that make a
/// directory one of its session directories, and what a session started
/// there receives.
pub trait Harness: Sync {
    fn profile(&self) -> Profile;
    /// File names (last components) that make a directory a session
    /// directory of this harness.
    fn names(&self) -> &[String];
    /// Paths (relative to a directory, `/`-separated) of the project files
    /// besides instruction files that decide what it loads (config files),
    /// for `--base` to bring from the revision.
    fn config_names(&self) -> &[&'static str] {
        &[]
    }
    /// Whether it reads instruction files under `/dev` (so `--base` may
    /// mirror a revision into memory, `/dev/shm`, for it).
    fn reads_under_dev(&self) -> bool {
        true
    }
    /// Whether `path` (as the harness writes it) is one of its global
    /// (user-level) files, outside every repository.
    fn is_global(&self, path: &str, entry: &FileEntry) -> bool;
    /// The setting holding its byte budget for project files, when it has
    /// one (codex: `project_doc_max_bytes`).
    fn budget_setting(&self) -> Option<&'static str> {
        None
    }
    /// What it loads with `dir` as the cwd.
    ///
    /// # Errors
    ///
    /// The harness's inputs are unusable (as its loader says).
    fn load(&self, dir: &Path) -> Result<HarnessReport>;
}

/// The last components of configured names, each once (`docs/X.md` is
/// looked for as `X.md` in listings): a [`Harness::names`].
pub fn last_names(all: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut seen = HashSet::new();
    all.into_iter()
        .map(|n| {
            n.rsplit('/')
                .find(|s| !s.is_empty())
                .unwrap_or(&n)
                .to_owned()
        })
        .filter(|n| seen.insert(n.clone()))
        .collect()
}

/// How to check one harness.
#[derive(Debug)]
pub struct Options<'a> {
    /// Where check was started: shown paths are relative to it.
    pub base: &'a Path,
    /// The home directory: files below it (outside `base`) show as `~/...`.
    pub home: Option<&'a Path>,
    /// dsh's settings: the root markers and realms a symlink is judged by.
    pub settings: &'a Settings,
    /// The trees walked and how many directories the walk saw.
    pub paths: Vec<String>,
    pub walked: usize,
    /// Also judge the harness's global files.
    pub include_user_global: bool,
    /// Fill `received` (JSON, `--summary`, `--base`).
    pub directories: bool,
    pub warn_at: Option<u32>,
    /// `--base`: the mirror of the revision and the work tree it stands
    /// for. What a harness sends holds absolute paths: measured as a
    /// checkout at the work tree's place would send it.
    pub alias: Option<(String, String)>,
}

mod findings;
mod links;
mod received;
mod secrets;
mod show;

use findings::findings_of;
pub use findings::{Explained, explain_findings};
use links::Links;
use received::{budget_findings, received_of, sent};
pub use secrets::mark_secrets;
use show::Shower;

/// The directory a shown file's findings are grouped under.
pub(super) fn dir_of(file: &str) -> String {
    match file.rsplit_once('/') {
        Some((dir, _)) if !dir.is_empty() => dir.to_owned(),
        _ => ".".to_owned(),
    }
}

/// One finding of one session directory, before the directories are
/// put together: a budget cut is kept apart, to be counted per file.
pub(super) enum Raw {
    Plain { file: String, found: Box<Detail> },
    Cut(CutFacts),
}

/// What one session lost of one file (codex's budget).
pub(super) struct CutFacts {
    pub(super) file: String,
    pub(super) original: usize,
    pub(super) kept: usize,
    pub(super) max: u64,
}

/// Checks one harness over its session directories (walk order) into a
/// report of the same shape as dsh's; a directory marked `true` is only
/// reported (`--base`: it holds an instruction file on the other side).
///
/// # Errors
///
/// The first error of [`Harness::load`].
pub fn check<S: BuildHasher>(
    h: &dyn Harness,
    dirs: &[(PathBuf, bool)],
    opts: &Options<'_>,
    pre: &mut HashMap<PathBuf, Result<HarnessReport>, S>,
) -> Result<check::Report> {
    let profile = h.profile();
    let shower = Shower::new(opts.base, opts.home);
    let mut links = Links::new(opts.settings);
    let mut gathered = Gathered::default();
    let mut received = Vec::new();
    let mut digests: HashMap<String, String> = HashMap::new();
    let mut largest: Option<(usize, String)> = None;
    let mut max_bytes = None;
    let mut checked = 0;
    for (dir, only_reported) in dirs {
        let report = match pre.remove(dir) {
            Some(loaded) => loaded?,
            None => load(h, dir)?,
        };
        let shown_dir = shower.show(&super::show(dir));
        if *only_reported {
            if opts.directories {
                let alias = opts.alias.as_ref();
                let mut r = received_of(h, &report, &shower, &shown_dir, None, &mut digests, alias);
                r.also = true;
                received.push(r);
            }
            continue;
        }
        checked += 1;
        let budget = h
            .budget_setting()
            .and_then(|name| setting_u64(&report, name));
        // A budget past what an f64 holds exactly admits everything.
        #[allow(clippy::cast_precision_loss)]
        let this = budget.map(|max| MaxBytes(max as f64));
        max_bytes = this.or(max_bytes);
        let (_, bytes) = sent(&report, opts.alias.as_ref());
        if largest.as_ref().is_none_or(|(b, _)| bytes > *b) {
            largest = Some((bytes, shown_dir.clone()));
        }
        let project = project_bytes(h, &report);
        let excess = budget.map(|max| Excess {
            whole: project,
            excess: project.saturating_sub(usize::try_from(max).unwrap_or(usize::MAX)),
        });
        let raws = findings_of(h, &report, &shower, &mut links, opts.include_user_global);
        let whole = excess.unwrap_or(Excess {
            whole: project,
            excess: 0,
        });
        let cut_here = gathered.take(raws, &shown_dir, whole);
        if let (Some(percent), Some(max), false) = (opts.warn_at, budget, cut_here) {
            let near = (percent, max, project);
            if let Some((file, found)) = near_budget(h, &report, &shower, near, &shown_dir) {
                gathered.push(file, found);
            }
        }
        if opts.directories {
            received.push(received_of(
                h,
                &report,
                &shower,
                &shown_dir,
                budget,
                &mut digests,
                opts.alias.as_ref(),
            ));
        }
    }
    let facts = Facts {
        checked,
        max_bytes,
        largest: largest.map(|(bytes, dir)| Largest { dir, bytes }),
        received,
    };
    Ok(report_of(profile, opts, facts, gathered.findings(h)))
}

/// What a check of one harness counted besides its findings.
struct Facts {
    checked: usize,
    max_bytes: Option<MaxBytes>,
    largest: Option<Largest>,
    received: Vec<check::Received>,
}

/// One harness's report, in the shape of dsh's.
fn report_of(
    profile: Profile,
    opts: &Options<'_>,
    facts: Facts,
    findings: Vec<Finding>,
) -> check::Report {
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    check::Report {
        harness: profile.name(),
        paths: opts.paths.clone(),
        walked: opts.walked,
        checked: facts.checked,
        max_bytes: facts.max_bytes,
        largest: facts.largest,
        errors,
        warnings: findings.len() - errors,
        findings,
        directories: None,
        received: facts.received,
        sessions: Vec::new(),
        unmatched_excludes: Vec::new(),
        ignore_warnings: Vec::new(),
    }
}

/// The findings of one harness's directories as they are met: each
/// plain one once, the budget cuts apart (counted per file at the end),
/// and the order of the directories they are grouped under.
#[derive(Default)]
struct Gathered {
    plain: Vec<(String, Detail)>,
    seen: HashSet<(&'static str, String, String)>,
    groups: Vec<String>,
    cuts: Vec<(String, CutFacts, Excess)>,
}

impl Gathered {
    /// Takes one session directory's findings; whether a budget cut a file.
    fn take(&mut self, raws: Vec<Raw>, shown_dir: &str, excess: Excess) -> bool {
        let mut cut_here = false;
        for raw in raws {
            match raw {
                Raw::Plain { file, found } => {
                    // An ignored CLAUDE.md is one finding, whichever
                    // AGENTS.md each directory's session finds first; any
                    // other is one per file and facts (so per wording).
                    let facts = match *found {
                        Detail::IgnoredName { .. } => String::new(),
                        _ => format!("{found:?}"),
                    };
                    if self.seen.insert((found.rule().id, file.clone(), facts)) {
                        self.push(file, *found);
                    }
                }
                Raw::Cut(facts) => {
                    cut_here = true;
                    note_group(&mut self.groups, &dir_of(&facts.file));
                    self.cuts.push((shown_dir.to_owned(), facts, excess));
                }
            }
        }
        cut_here
    }

    fn push(&mut self, file: String, found: Detail) {
        note_group(&mut self.groups, &dir_of(&file));
        self.plain.push((file, found));
    }

    /// Every finding: each group's budget findings first, then the others
    /// in the order they were met.
    fn findings(self, h: &dyn Harness) -> Vec<Finding> {
        let mut findings = budget_findings(h, self.cuts, &self.groups);
        for (file, detail) in self.plain {
            let dir = dir_of(&file);
            findings.push((
                group_index(&self.groups, &dir),
                1,
                Finding::new(dir, file, detail).by(h.profile().name()),
            ));
        }
        findings.sort_by_key(|(g, budget_last, _)| (*g, *budget_last));
        findings.into_iter().map(|(_, _, f)| f).collect()
    }
}

/// `--warn-at`: a session near its budget, on the last project file it loads.
fn near_budget(
    h: &dyn Harness,
    report: &HarnessReport,
    shower: &Shower,
    (percent, max, project): (u32, u64, usize),
    shown_dir: &str,
) -> Option<(String, Detail)> {
    #[allow(clippy::cast_precision_loss)]
    let max = MaxBytes(max as f64);
    let setting = h.budget_setting().unwrap_or("max-bytes");
    let found = crate::check::near_budget(percent, project, max, shown_dir, setting)?;
    let file = report
        .files
        .iter()
        .rev()
        .find(|f| f.included && !h.is_global(&f.path, f))
        .map_or_else(String::new, |f| shower.show(&f.path));
    Some((file, found))
}

/// What `h` loads for `dir`, its secrets noted: the load a check judges
/// (run on any thread).
///
/// # Errors
///
/// As [`Harness::load`].
pub fn load(h: &dyn Harness, dir: &Path) -> Result<HarnessReport> {
    let mut report = h.load(dir)?;
    mark_secrets(&mut report);
    Ok(report)
}

fn note_group(groups: &mut Vec<String>, dir: &str) {
    if !groups.iter().any(|g| g == dir) {
        groups.push(dir.to_owned());
    }
}

pub(super) fn group_index(groups: &[String], dir: &str) -> usize {
    groups.iter().position(|g| g == dir).unwrap_or(usize::MAX)
}

/// A whole-number setting of a report (`project_doc_max_bytes`).
fn setting_u64(report: &HarnessReport, name: &str) -> Option<u64> {
    report
        .settings
        .0
        .iter()
        .find(|(n, _)| n == name)
        .and_then(|(_, s)| s.value.as_u64())
}

/// Bytes of the project files that count against the budget: those it
/// loads, cuts or drops for the budget, by size (not the global ones).
fn project_bytes(h: &dyn Harness, report: &HarnessReport) -> usize {
    report
        .files
        .iter()
        .filter(|f| !h.is_global(&f.path, f))
        .filter(|f| {
            matches!(
                f.status,
                Status::Loaded | Status::Truncated | Status::OverBudget
            )
        })
        .map(|f| usize::try_from(f.bytes.unwrap_or(0)).unwrap_or(usize::MAX))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use std::fs;

    /// A tree for the listing short cut: absent names, symlinked
    /// candidates (one dangling), directories named like candidates, a
    /// `.claude` that is a file, names in another case, an ignored
    /// directory and ignored files a harness reads, a name a filesystem's
    /// Unicode case folding could match, imports and instructions.
    fn fixture(root: &Path) {
        let file = |rel: &str, text: &str| {
            let p = root.join(rel);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, text).unwrap();
        };
        let link = |rel: &str, target: &str| {
            let p = root.join(rel);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::os::unix::fs::symlink(target, p).unwrap();
        };
        file("home/.codex/AGENTS.md", "global codex\n");
        file("r/.git/HEAD", "ref: refs/heads/main\n");
        file(
            "r/.gitignore",
            "ignored/\nAGENTS.override.md\nCLAUDE.local.md\n",
        );
        file("r/AGENTS.md", "root rules\n");
        file("r/a/AGENTS.override.md", "override, ignored by git\n");
        link("r/a/CLAUDE.md", "../AGENTS.md");
        file("r/a/b/GEMINI.md/x.md", "a directory named GEMINI.md\n");
        file("r/a/b/AGENTS.md/y.md", "a directory named AGENTS.md\n");
        file("r/a/b/c/agents.md", "lower case\n");
        file("r/a/b/c/Claude.md", "mixed case\n");
        file("r/d/.claude/CLAUDE.md", "dot claude\n");
        file("r/d/.claude/rules/one.md", "a rule\n");
        file(
            "r/d/.claude/rules/two.md",
            "---\npaths: src/**\n---\nlater\n",
        );
        file("r/d/CLAUDE.local.md", "local, ignored by git\n");
        file(
            "r/e/CLAUDE.md",
            "see @../d/CLAUDE.local.md, @missing.md and @./sub/x.md\n",
        );
        file("r/e/sub/keep", "");
        file("r/e/GEMINI.md", "@./none.md and @../AGENTS.md\n");
        link("r/f/AGENTS.md", "nowhere");
        file("r/f/CONTEXT.md", "context\n");
        file(
            "r/g/opencode.json",
            r#"{"instructions": ["../AGENTS.md", "missing/*.md", "gone.md"]}"#,
        );
        file("r/g/AGENTS.md", "g\n");
        file("r/ignored/AGENTS.md", "in an ignored directory\n");
        file("r/ignored/deep/CLAUDE.md", "deeper\n");
        file("r/h/\u{17f}/AGENTS.md", "below a long s\n");
        file("r/h/CLAUDE.md", "h\n");
        link("r/i", "a");
        file("r/j/.claude", "a file, not a directory\n");
        file("r/j/CLAUDE.md", "j\n");
        file("r/k/.codex/config.toml", "project_doc_max_bytes = 10\n");
        file("r/k/AGENTS.md", "k is over ten bytes\n");
    }

    /// With the check's memo, fed by the walk's listings, every harness
    /// loads for every directory of the tree (walked, ignored, or reached
    /// through a symlink) exactly the report it loads without one, as
    /// render gives it: whole reports compared.
    #[test]
    fn loads_with_the_walks_listings_equal_plain_loads() {
        let t = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(t.path()).unwrap();
        fixture(&root);
        let top = root.join("r");
        let mut env = crate::env::tests::env();
        env.home = Some(root.join("home"));
        env.process_cwd = Ok(top.clone());
        let overrides = crate::settings::Overrides::default();
        let settings = Settings::resolve(&env, &overrides, Some(&top), None).unwrap();
        let flags = super::super::FlagValues::default();
        let harnesses: Vec<Box<dyn Harness>> = super::super::HARNESSES
            .iter()
            .filter_map(|p| p.definition().check(&env, &flags, &top).unwrap())
            .collect();
        let opts = crate::check::Request {
            settings: &settings,
            targets: vec![crate::check::Target {
                path: top.clone(),
                nested_roots: true,
            }],
            base: top.clone(),
            exclude: &[],
            ignore: true,
            include_user_global: false,
            directories: false,
            warn_at: None,
            dsh: true,
            harness_names: harnesses.iter().map(|h| h.names().to_vec()).collect(),
            also: HashSet::new(),
            sink: None,
        };
        let memo = crate::bounded::Memo::new();
        memo.run(|| crate::check::check(&opts)).unwrap();
        let mut dirs: Vec<PathBuf> = walkdir::WalkDir::new(&top)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_dir() && !e.path().ends_with(".git"))
            .map(walkdir::DirEntry::into_path)
            .collect();
        dirs.push(top.join("i"));
        dirs.push(top.join("i/b"));
        for h in &harnesses {
            for dir in &dirs {
                let plain = load(h.as_ref(), dir).map_err(|e| format!("{e:#}"));
                let memoed = memo
                    .run(|| load(h.as_ref(), dir))
                    .map_err(|e| format!("{e:#}"));
                assert_eq!(memoed, plain, "{} in {}", h.profile(), dir.display());
            }
        }
        let answered = memo
            .absent_answers
            .load(std::sync::atomic::Ordering::Relaxed);
        assert!(answered > 100, "the listings answered {answered} lookups");
    }
}
