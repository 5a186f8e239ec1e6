//! `check` for the harnesses besides dsh (SPEC 10.8): each session
//! directory of the one walk (`check::Report::sessions`) loaded as that
//! harness would from there, and what it found as `check` findings, in the
//! same shape as dsh's: anchored on the file, with a rule, a hint and, for
//! a budget, the blast radius. A harness plugs in with one [`Harness`]
//! (`cmd::profile::check` lists them).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::{FileEntry, ImportProblem, Note, NoteKind, Profile, Report, Status, Via, Why};
use crate::check::budget::{self, Excess, Lost, Radius};
use crate::check::{
    self, Detail, Finding, Found, Largest, Received, ReceivedFile, Severity, link_finding,
    pointer_to, stub_finding, stub_target,
};
use crate::discovery::{Place, Realms, probe_link};
use crate::jsnum::MaxBytes;
use crate::settings::Settings;
use crate::text::sha1_hex;

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
    fn load(&self, dir: &Path) -> Result<Report>;
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

/// The text a harness sends for one session (its parts, each after its
/// kind), with `alias` applied, and its bytes.
fn sent(report: &Report, alias: Option<&(String, String)>) -> (String, usize) {
    let mut text = String::new();
    let mut bytes = 0;
    for p in &report.parts {
        let part = match alias {
            Some((from, to)) => p.text.replace(from.as_str(), to),
            None => p.text.clone(),
        };
        bytes += part.len();
        text.push_str(&p.kind);
        text.push('\n');
        text.push_str(&part);
        text.push('\n');
    }
    (text, bytes)
}

/// Shows the harness's paths relative to where check was started.
struct Shower {
    /// Paths as the harness writes them (explain), not relative.
    absolute: bool,
    base: PathBuf,
    base_real: Option<PathBuf>,
    home: Option<PathBuf>,
    home_real: Option<PathBuf>,
}

impl Shower {
    fn new(base: &Path, home: Option<&Path>) -> Self {
        Shower {
            absolute: false,
            base: base.to_path_buf(),
            base_real: crate::bounded::canonicalize(base)
                .ok()
                .filter(|r| r != base),
            home: home.map(Path::to_path_buf),
            home_real: home
                .and_then(|h| crate::bounded::canonicalize(h).ok())
                .filter(|r| Some(r.as_path()) != home),
        }
    }

    /// `text` (a harness's error message) with the start directory's
    /// absolute paths in it shown relative (`'/r/a/x.md'` as `'a/x.md'`).
    fn within(&self, text: &str) -> String {
        if self.absolute {
            return text.to_owned();
        }
        let mut out = text.to_owned();
        for base in std::iter::once(&self.base).chain(&self.base_real) {
            let prefix = format!("{}/", base.to_string_lossy().trim_end_matches('/'));
            out = out.replace(&prefix, "");
        }
        out
    }

    /// `a/AGENTS.md` inside the start directory, `~/.codex/AGENTS.md` in
    /// the home directory, else absolute (`/proc/self/environ`).
    fn show(&self, path: &str) -> String {
        if path.is_empty() || self.absolute {
            return path.to_owned();
        }
        let p = crate::paths::normalize(&self.base, Path::new(path));
        for base in std::iter::once(&self.base).chain(&self.base_real) {
            if p.starts_with(base) {
                return crate::paths::relative(base, &p);
            }
        }
        for home in self.home.iter().chain(&self.home_real) {
            if let Ok(rel) = p.strip_prefix(home) {
                return format!("~/{}", rel.to_string_lossy());
            }
        }
        super::show(&p)
    }
}

/// The directory a shown file's findings are grouped under.
fn dir_of(file: &str) -> String {
    match file.rsplit_once('/') {
        Some((dir, _)) if !dir.is_empty() => dir.to_owned(),
        _ => ".".to_owned(),
    }
}

/// One finding of one session directory, before the directories are
/// put together: a budget cut is kept apart, to be counted per file.
enum Raw {
    Plain { file: String, found: Box<Found> },
    Cut(CutFacts),
}

/// What one session lost of one file (codex's budget).
struct CutFacts {
    file: String,
    original: usize,
    kept: usize,
    max: u64,
}

/// Checks one harness over its session directories (walk order) into a
/// report of the same shape as dsh's; a directory marked `true` is only
/// reported (`--base`: it holds an instruction file on the other side).
///
/// # Errors
///
/// The first error of [`Harness::load`].
pub fn check(
    h: &dyn Harness,
    dirs: &[(PathBuf, bool)],
    opts: &Options<'_>,
    pre: &mut HashMap<PathBuf, Result<Report>>,
) -> Result<check::Report> {
    let profile = h.profile();
    let shower = Shower::new(opts.base, opts.home);
    let mut links = Links::new(opts.settings, profile);
    let mut plain: Vec<(String, Found)> = Vec::new();
    let mut seen: HashSet<(&'static str, String, String)> = HashSet::new();
    let mut groups: Vec<String> = Vec::new();
    let mut cuts: Vec<(String, CutFacts, Excess)> = Vec::new();
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
        if let Some(max) = budget {
            // A budget past what an f64 holds exactly admits everything.
            #[allow(clippy::cast_precision_loss)]
            let max = MaxBytes(max as f64);
            max_bytes = Some(max);
        }
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
        let mut cut_here = false;
        for raw in raws {
            match raw {
                Raw::Plain { file, found } => {
                    // An ignored CLAUDE.md is one finding, whichever
                    // AGENTS.md each directory's session finds first.
                    let message = match found.0 {
                        Detail::IgnoredName { .. } => String::new(),
                        _ => found.1.clone(),
                    };
                    let key = (found.0.rule().id, file.clone(), message);
                    if seen.insert(key) {
                        note_group(&mut groups, &dir_of(&file));
                        plain.push((file, *found));
                    }
                }
                Raw::Cut(facts) => {
                    cut_here = true;
                    note_group(&mut groups, &dir_of(&facts.file));
                    let e = excess.unwrap_or(Excess {
                        whole: project,
                        excess: 0,
                    });
                    cuts.push((shown_dir.clone(), facts, e));
                }
            }
        }
        if let (Some(percent), Some(max), false) = (opts.warn_at, budget, cut_here) {
            #[allow(clippy::cast_precision_loss)]
            let max = MaxBytes(max as f64);
            let setting = h.budget_setting().unwrap_or("max-bytes");
            if let Some(found) =
                crate::check::near_budget(percent, project, max, &shown_dir, setting)
            {
                let file = report
                    .files
                    .iter()
                    .rev()
                    .find(|f| f.included && !h.is_global(&f.path, f))
                    .map_or_else(String::new, |f| shower.show(&f.path));
                note_group(&mut groups, &dir_of(&file));
                plain.push((file, found));
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
    let mut findings = budget_findings(h, cuts, &groups);
    for (file, (detail, message, hint)) in plain {
        let dir = dir_of(&file);
        findings.push((
            group_index(&groups, &dir),
            1,
            Finding::new(dir, file, detail, message, hint),
        ));
    }
    // Stable: each group's budget findings first, then the others in the
    // order they were met.
    findings.sort_by_key(|(g, budget_last, _)| (*g, *budget_last));
    let findings: Vec<Finding> = findings.into_iter().map(|(_, _, f)| f).collect();
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    Ok(check::Report {
        harness: profile.name(),
        paths: opts.paths.clone(),
        walked: opts.walked,
        checked,
        max_bytes,
        largest: largest.map(|(bytes, dir)| Largest { dir, bytes }),
        errors,
        warnings: findings.len() - errors,
        findings,
        directories: None,
        received,
        sessions: Vec::new(),
        unmatched_excludes: Vec::new(),
        ignore_warnings: Vec::new(),
    })
}

/// What `h` loads for `dir`, its secrets noted: the load a check judges
/// (run on any thread).
///
/// # Errors
///
/// As [`Harness::load`].
pub fn load(h: &dyn Harness, dir: &Path) -> Result<Report> {
    let mut report = h.load(dir)?;
    mark_secrets(&mut report);
    Ok(report)
}

fn note_group(groups: &mut Vec<String>, dir: &str) {
    if !groups.iter().any(|g| g == dir) {
        groups.push(dir.to_owned());
    }
}

fn group_index(groups: &[String], dir: &str) -> usize {
    groups.iter().position(|g| g == dir).unwrap_or(usize::MAX)
}

/// A whole-number setting of a report (`project_doc_max_bytes`).
fn setting_u64(report: &Report, name: &str) -> Option<u64> {
    report
        .settings
        .0
        .iter()
        .find(|(n, _)| n == name)
        .and_then(|(_, s)| s.value.as_u64())
}

/// Bytes of the project files that count against the budget: those it
/// loads, cuts or drops for the budget, by size (not the global ones).
fn project_bytes(h: &dyn Harness, report: &Report) -> usize {
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

/// What a session in `shown_dir` receives, in the terms every harness
/// shares.
fn received_of(
    h: &dyn Harness,
    report: &Report,
    shower: &Shower,
    shown_dir: &str,
    budget: Option<u64>,
    digests: &mut HashMap<String, String>,
    alias: Option<&(String, String)>,
) -> Received {
    let (text, bytes) = sent(report, alias);
    let mut files = Vec::new();
    let mut omitted = Vec::new();
    let mut truncated = Vec::new();
    let mut cut = 0;
    for f in &report.files {
        let size = usize::try_from(f.bytes.unwrap_or(0)).unwrap_or(usize::MAX);
        match f.status {
            Status::OverBudget => {
                omitted.push(shower.show(&f.path));
                cut += size;
            }
            Status::Truncated => {
                truncated.push(shower.show(&f.path));
                cut += size.saturating_sub(usize::try_from(f.truncated.unwrap_or(0)).unwrap_or(0));
            }
            _ => {}
        }
        if !(f.included || f.status == Status::OverBudget) || f.status == Status::UrlNotFetched {
            continue;
        }
        let digest = digests
            .entry(f.path.clone())
            .or_insert_with(|| {
                super::read_file(Path::new(&f.path), None)
                    .map(|b| sha1_hex(&b))
                    .unwrap_or_default()
            })
            .clone();
        files.push(ReceivedFile {
            path: shower.show(&f.path),
            bytes: size,
            digest,
        });
    }
    let _ = h;
    #[allow(clippy::cast_precision_loss)]
    Received {
        dir: shown_dir.to_owned(),
        bytes,
        whole_bytes: bytes + cut,
        max_bytes: budget.map(|m| MaxBytes(m as f64)),
        files,
        omitted,
        truncated,
        text_digest: (!report.parts.is_empty()).then(|| sha1_hex(text.as_bytes())),
        also: false,
    }
}

/// One finding per file a budget cut, with the directories whose sessions
/// lost bytes of it (in walk order), keyed for ordering by its group.
fn budget_findings(
    h: &dyn Harness,
    cuts: Vec<(String, CutFacts, Excess)>,
    groups: &[String],
) -> Vec<(usize, usize, Finding)> {
    let mut by_file: Vec<(Lost, Vec<String>, Vec<Excess>, u64)> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    for (dir, facts, excess) in cuts {
        let i = *at.entry(facts.file.clone()).or_insert_with(|| {
            by_file.push((
                Lost {
                    file: facts.file.clone(),
                    dir: dir_of(&facts.file),
                    pos: 0,
                    bytes: facts.original,
                    count: 0,
                    truncated: 0,
                    kept_max: 0,
                    kept_min: usize::MAX,
                    worst: (0, 0),
                    first: Vec::new(),
                    spans: Vec::new(),
                },
                Vec::new(),
                Vec::new(),
                facts.max,
            ));
            by_file.len() - 1
        });
        let (lost, dirs, excesses, _) = &mut by_file[i];
        lost.count += 1;
        if facts.kept > 0 {
            lost.truncated += 1;
            lost.kept_max = lost.kept_max.max(facts.kept);
            lost.kept_min = lost.kept_min.min(facts.kept);
        }
        if excesses.is_empty() || excess.excess > lost.worst.0 {
            lost.worst = (excess.excess, dirs.len());
        }
        dirs.push(dir);
        excesses.push(excess);
    }
    let setting = h.budget_setting().unwrap_or("max-bytes");
    by_file
        .into_iter()
        .map(|(lost, dirs, excesses, max)| {
            let worst = excesses[lost.worst.1];
            let worst_dir = dirs[lost.worst.1].clone();
            let radius = Radius::from(dirs);
            let message = budget::cut_message(lost.bytes, &lost, &radius);
            let hint = budget::cut_hint(setting, &budget::thousands(max), &worst_dir, worst);
            #[allow(clippy::cast_precision_loss)]
            let detail = Detail::OverBudget {
                bytes: lost.bytes,
                kept_bytes: if lost.truncated > 0 { lost.kept_max } else { 0 },
                max_bytes: MaxBytes(max as f64),
                directories: radius,
                omitted_in: lost.count - lost.truncated,
                truncated_in: lost.truncated,
                worst: worst_dir,
                whole_bytes: worst.whole,
                excess: worst.excess,
                pushes_out: Vec::new(),
                grew_from: None,
            };
            let group = group_index(groups, &lost.dir);
            (
                group,
                0,
                Finding::new(lost.dir, lost.file, detail, message, hint),
            )
        })
        .collect()
}

/// What `check` judges of a symlinked or stub candidate of any harness:
/// the same rules as dsh's (a secret, a link leaving the project, a
/// symlink checked out as text), each path once.
struct Links<'a> {
    settings: &'a Settings,
    who: String,
    realms: HashMap<PathBuf, Realms>,
    /// The project root of each directory seen (dsh's root search, each
    /// directory's markers `stat`-ed once).
    roots: HashMap<PathBuf, Option<PathBuf>>,
    done: HashMap<String, Vec<Found>>,
}

impl<'a> Links<'a> {
    fn new(settings: &'a Settings, profile: Profile) -> Self {
        Links {
            settings,
            who: format!("{profile} sessions"),
            realms: HashMap::new(),
            roots: HashMap::new(),
            done: HashMap::new(),
        }
    }

    /// `discovery::find_root(dir)`, remembering every directory's answer:
    /// the nearest ancestor-or-self holding a root marker, else `dir`.
    fn root_of(&mut self, dir: &Path) -> PathBuf {
        self.marked(dir).unwrap_or_else(|| dir.to_path_buf())
    }

    fn marked(&mut self, dir: &Path) -> Option<PathBuf> {
        if let Some(known) = self.roots.get(dir) {
            return known.clone();
        }
        let markers = &self.settings.root_markers.value;
        let here = markers
            .iter()
            .any(|m| crate::bounded::metadata(dir.join(m)).is_ok());
        let found = if here {
            Some(dir.to_path_buf())
        } else {
            dir.parent().and_then(|p| self.marked(p))
        };
        self.roots.insert(dir.to_path_buf(), found.clone());
        found
    }

    /// The link and stub findings of a file the harness loads.
    fn judge(&mut self, path: &str, shower: &Shower) -> Vec<Found> {
        if let Some(found) = self.done.get(path) {
            return found.clone();
        }
        let p = Path::new(path);
        let dir = p.parent().unwrap_or(Path::new("/")).to_path_buf();
        let root = self.root_of(&dir);
        let settings = self.settings;
        let realms = self
            .realms
            .entry(root.clone())
            .or_insert_with(|| Realms::new(Some(&root), settings));
        let mut found = Vec::new();
        let (probe, link) = probe_link(p, Some(realms));
        if let Some(link) = &link {
            let readable = matches!(probe, crate::discovery::Probe::File { .. });
            let shown_root = shower.show(&super::show(&root));
            found.extend(link_finding(link, readable, Some(&shown_root), &self.who));
        } else if let Some(name) = p.file_name().and_then(|n| n.to_str()) {
            // A text stub is short: read only a small file.
            if super::file_size(p).is_some_and(|n| n <= 256) {
                if let Ok(bytes) = super::read_file(p, Some(256)) {
                    let text = String::from_utf8_lossy(&bytes);
                    if let Some(sibling) = stub_target(&dir, name, &text) {
                        let shown = shower.show(&super::show(&dir.join(sibling)));
                        found.push(stub_finding(&shown, &self.who));
                    }
                }
            }
        }
        self.done.insert(path.to_owned(), found.clone());
        found
    }
}

/// Notes every secret the report's harness reads ([`NoteKind::Secret`]):
/// each file it sends (a candidate, a global file, an `instructions`
/// entry, a `context.fileName`), judged by its real path, and each
/// `instructions` glob, judged by its own text. Gemini's imports are noted
/// as they are read. The one classifier is `discovery::secret_place`.
pub fn mark_secrets(report: &mut Report) {
    let mut found = Vec::new();
    for f in report.files.iter().filter(|f| f.included) {
        if let Some((real, place)) = super::secret_of(Path::new(&f.path)) {
            found.push(Note {
                path: f.path.clone(),
                kind: NoteKind::Secret {
                    real,
                    place,
                    via: Via::File,
                },
            });
        }
    }
    for note in &report.notes {
        if note.kind != NoteKind::Glob {
            continue;
        }
        if let Some(place) = crate::discovery::secret_place(Path::new(&note.path), None) {
            found.push(Note {
                path: note.path.clone(),
                kind: NoteKind::Secret {
                    real: note.path.clone(),
                    place,
                    via: Via::Glob,
                },
            });
        }
    }
    report.notes.extend(found);
}

/// The sentence for a secret the harness reads, without the path: the
/// finding of check (render and explain prefix the path).
fn secret_words(profile: Profile, path: &str, real: &str, place: Place, via: &Via) -> String {
    let place_words = place.words();
    let at = if place == Place::System || real == path {
        place_words.to_owned()
    } else {
        format!("it resolves to {real} {place_words}")
    };
    match via {
        Via::File => format!("reads a secret: {at}, so {profile} sends what it holds to the model"),
        Via::Import(token) => format!(
            "import @{token} reads a secret: {at}, so {profile} sends what it holds to the model"
        ),
        Via::Glob => format!(
            "instructions entry {path}: a glob into a secret: {at}, so {profile} sends what it matches to the model"
        ),
    }
}

/// The sentence for a secret the harness reads: the warning of render and
/// explain (dsh's secret-link wording).
fn secret_message(profile: Profile, path: &str, real: &str, place: Place, via: &Via) -> String {
    let words = secret_words(profile, path, real, place, via);
    match via {
        Via::Glob => words,
        _ => format!("{path}: {words}"),
    }
}

/// The warnings render and explain print for the secrets a report reads.
#[must_use]
pub fn secret_warnings(report: &Report) -> Vec<String> {
    report
        .notes
        .iter()
        .filter_map(|note| match &note.kind {
            NoteKind::Secret { real, place, via } => Some(secret_message(
                report.profile,
                &note.path,
                real,
                *place,
                via,
            )),
            _ => None,
        })
        .collect()
}

/// The findings of one report as `explain --profile` lists them: the
/// file as the harness writes it, the severity, the message.
#[must_use]
pub fn explain_findings(h_profile: Profile, report: &Report) -> Vec<(Severity, String, String)> {
    let shower = Shower {
        absolute: true,
        base: PathBuf::from("/"),
        base_real: None,
        home: None,
        home_real: None,
    };
    let plain = Plain(h_profile);
    findings_of(&plain, report, &shower, &mut None, true)
        .into_iter()
        .map(|raw| match raw {
            Raw::Plain { file, found } => (found.0.severity(), file, found.1),
            Raw::Cut(c) => (
                Severity::Error,
                c.file,
                format!(
                    "over budget: cut from {} to {} bytes (project_doc_max_bytes {})",
                    budget::bytes(c.original),
                    budget::bytes(c.kept),
                    budget::thousands(c.max)
                ),
            ),
        })
        .collect()
}

/// A harness known only by its profile (for explain's list of findings).
struct Plain(Profile);

impl Harness for Plain {
    fn profile(&self) -> Profile {
        self.0
    }
    fn names(&self) -> &[String] {
        &[]
    }
    fn is_global(&self, _: &str, _: &FileEntry) -> bool {
        false
    }
    fn load(&self, _: &Path) -> Result<Report> {
        anyhow::bail!("not loadable")
    }
}

/// The link judge of a check, or none (explain: links are not judged).
trait MaybeLinks {
    fn judge_path(&mut self, path: &str, shower: &Shower) -> Vec<Found>;
}

impl MaybeLinks for Links<'_> {
    fn judge_path(&mut self, path: &str, shower: &Shower) -> Vec<Found> {
        self.judge(path, shower)
    }
}

impl MaybeLinks for Option<()> {
    fn judge_path(&mut self, _: &str, _: &Shower) -> Vec<Found> {
        Vec::new()
    }
}

/// Whether opencode's "CLAUDE.md ignored" is a false alarm: the CLAUDE.md
/// is a symlink to the AGENTS.md beside it (or the one that won), holds
/// the same text, only points at it, or is a symlink to it checked out as
/// text (`AGENTS.md`, which dsh's stub rule reports).
fn same_as_agents(claude: &str, by: &str) -> bool {
    let claude = Path::new(claude);
    let sibling = claude.with_file_name("AGENTS.md");
    let agents = if super::file_size(&sibling).is_some() {
        sibling
    } else {
        PathBuf::from(by)
    };
    mirrors(claude, &agents)
}

/// Whether `claude` is `agents` under another name: a symlink to it, the
/// same text, or only a pointer at it.
fn mirrors(claude: &Path, agents: &Path) -> bool {
    let real = |p: &Path| crate::bounded::canonicalize(p).ok();
    if real(claude).is_some() && real(claude) == real(agents) {
        return true;
    }
    let text = |p: &Path| {
        super::read_file(p, Some(super::bounded::MAX_FILE_BYTES))
            .ok()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    };
    match (text(claude), text(agents)) {
        (Some(c), Some(a)) => {
            let c = crate::text::js_trim(&c);
            c == crate::text::js_trim(&a) || c == "AGENTS.md" || pointer_to(c, "AGENTS.md")
        }
        (Some(c), None) => pointer_to(&c, "AGENTS.md"),
        _ => false,
    }
}

/// The findings of one report (10.8): a budget cut apart, each other one
/// with its file shown.
fn findings_of(
    h: &dyn Harness,
    report: &Report,
    shower: &Shower,
    links: &mut dyn MaybeLinks,
    include_global: bool,
) -> Vec<Raw> {
    let profile = report.profile;
    let mut out: Vec<Raw> = Vec::new();
    let plain = |file: String, detail: Detail, message: String, hint: String| Raw::Plain {
        file,
        found: Box::new((detail, message, hint)),
    };
    for w in &report.warnings {
        // A URL's warning is its file's finding (AGX021), said once.
        let url = report.files.iter().any(|f| {
            f.status == Status::UrlNotFetched && *w == super::opencode::url_warning(&f.path)
        });
        if url {
            continue;
        }
        out.push(plain(
            String::new(),
            Detail::HarnessWarning {},
            w.clone(),
            format!("fix the setting or file the warning names, as {profile} reads it"),
        ));
    }
    let global = |path: &str| {
        report
            .files
            .iter()
            .find(|f| f.path == path)
            .is_some_and(|f| h.is_global(path, f))
    };
    let mut linked: HashSet<String> = HashSet::new();
    for f in &report.files {
        let skip = !include_global && h.is_global(&f.path, f);
        let file = shower.show(&f.path);
        if f.included {
            for found in links.judge_path(&f.path, shower) {
                if skip && !matches!(found.0, Detail::SecretSymlink { .. }) {
                    continue;
                }
                if matches!(found.0, Detail::SecretSymlink { .. }) {
                    linked.insert(f.path.clone());
                }
                out.push(Raw::Plain {
                    file: file.clone(),
                    found: Box::new(found),
                });
            }
        }
        // An AGENTS.md Claude Code holds back that loses nothing is no finding.
        let mirrored = profile == Profile::Claude && claude_mirrored(report, f);
        if !(skip || mirrored) {
            out.extend(file_finding(profile, f, file, shower));
        }
    }
    for note in &report.notes {
        let file = shower.show(&note.path);
        // A global file is the user's, judged with --include-user-global;
        // a secret is judged always (a repository's setting may reach it).
        let secret = matches!(note.kind, NoteKind::Secret { .. });
        if !include_global && global(&note.path) && !secret {
            continue;
        }
        let (detail, message, hint) = match &note.kind {
            NoteKind::Secret { real, place, via } => {
                if linked.contains(&note.path) && *via == Via::File {
                    continue;
                }
                let message = secret_words(profile, &note.path, real, *place, via);
                let detail = Detail::SecretSymlink {
                    target: file.clone(),
                    resolved: real.clone(),
                    place: place.name(),
                };
                let hint = match via {
                    Via::File => {
                        "replace it with a regular file inside the project that holds only instructions"
                            .to_owned()
                    }
                    Via::Import(token) => format!("remove the import @{token}"),
                    Via::Glob => format!("remove the instructions entry {}", note.path),
                };
                let file = if *via == Via::Glob {
                    String::new()
                } else {
                    file
                };
                out.push(plain(file, detail, message, hint));
                continue;
            }
            NoteKind::LongMemory { chars } => (
                Detail::HarnessWarning {},
                super::claude::long_memory_words(*chars),
                format!(
                    "cut {file} to {} characters or fewer (or move parts into .claude/rules): Claude Code sends it with every request",
                    super::claude::WARN_CHARS
                ),
            ),
            NoteKind::NonRegular => {
                let kind = crate::bounded::metadata(&note.path).map_or("special file", |m| {
                    crate::discovery::kind_name(m.file_type())
                });
                (
                    Detail::NotRegular { file_type: kind },
                    format!("not a regular file (a {kind}): {profile} skips it"),
                    format!(
                        "rename or remove the {kind} {file}, or make it a regular file with instructions"
                    ),
                )
            }
            NoteKind::IgnoredName { by, name } => {
                if !(note.path.ends_with("CLAUDE.md") && name == "AGENTS.md") {
                    continue;
                }
                if same_as_agents(&note.path, by) {
                    continue;
                }
                let sibling = Path::new(&note.path).with_file_name("AGENTS.md");
                let by = if super::file_size(&sibling).is_some() {
                    shower.show(&super::show(&sibling))
                } else {
                    shower.show(by)
                };
                (
                    Detail::IgnoredName { by: by.clone() },
                    format!(
                        "ignored by opencode: an AGENTS.md exists in the chain ({by}), and the first name found wins for every directory"
                    ),
                    format!(
                        "merge what it says into {by} and make it a symlink to it (or a pointer: @AGENTS.md)"
                    ),
                )
            }
            NoteKind::HiddenByEmptyOverride { by } => {
                let by = shower.show(by);
                (
                    Detail::HiddenByOverride { by: by.clone() },
                    format!("hidden by the empty {by}: codex loads nothing from this directory"),
                    format!("delete the empty {by}, or give it the instructions"),
                )
            }
            NoteKind::SameFile { first } => {
                let first = shower.show(first);
                (
                    Detail::LoadsOnce {
                        first: first.clone(),
                    },
                    format!("the same file as {first} (device and inode): gemini loads it once"),
                    format!("keep one name for it: delete {file} or {first}"),
                )
            }
            NoteKind::Import { token, problem } => {
                let (kind, error, message, hint) = match problem {
                    ImportProblem::Traversal => (
                        "traversal",
                        None,
                        format!(
                            "import @{token} leaves the project root: gemini writes a path traversal comment instead"
                        ),
                        format!("import a file inside the project instead of @{token}"),
                    ),
                    ImportProblem::Cycle => (
                        "cycle",
                        None,
                        format!(
                            "import @{token} is already being imported (a cycle): gemini writes a comment instead"
                        ),
                        format!("remove the import @{token}: it imports itself"),
                    ),
                    ImportProblem::Failed(why) => (
                        "failed",
                        Some(shower.within(why)),
                        format!("import @{token} failed: {}", shower.within(why)),
                        format!("fix the import @{token} (the error says why), or remove it"),
                    ),
                    ImportProblem::DepthLimit => (
                        "depth",
                        None,
                        format!(
                            "import @{token} is deeper than {} levels: gemini leaves it as text",
                            super::gemini::imports::MAX_DEPTH
                        ),
                        format!(
                            "flatten the imports: gemini stops after {} levels",
                            super::gemini::imports::MAX_DEPTH
                        ),
                    ),
                };
                (
                    Detail::ImportProblem {
                        token: token.clone(),
                        problem: kind,
                        error,
                    },
                    message,
                    hint,
                )
            }
            NoteKind::Glob => continue,
        };
        out.push(plain(file, detail, message, hint));
    }
    out
}

/// The finding of one probed file, by its status.
fn file_finding(profile: Profile, f: &FileEntry, file: String, shower: &Shower) -> Option<Raw> {
    if profile == Profile::Claude {
        return claude_finding(f, file, shower);
    }
    let max = match f.why {
        Why::Budget(max) => max,
        _ => 0,
    };
    let original = usize::try_from(f.bytes.unwrap_or(0)).unwrap_or(usize::MAX);
    let (detail, message, hint) = match (profile, f.status) {
        (_, Status::Truncated | Status::OverBudget) if matches!(f.why, Why::Budget(_)) => {
            let kept = if f.status == Status::Truncated {
                usize::try_from(f.truncated.unwrap_or(0)).unwrap_or(usize::MAX)
            } else {
                0
            };
            // An empty file past the budget loses nothing.
            if original <= kept {
                return None;
            }
            return Some(Raw::Cut(CutFacts {
                file,
                original,
                kept,
                max,
            }));
        }
        (_, Status::Aborted) => (
            Detail::Aborted {},
            format!("dropped: {profile}'s project doc discovery failed, so no project doc loads"),
            "fix the path the harness warning names (its permissions, a symlink loop)".to_owned(),
        ),
        (_, Status::Duplicate) => (
            Detail::LoadsOnce {
                first: String::new(),
            },
            format!("the same file as one loaded earlier: {profile} loads it once"),
            format!("keep one name for it: {file} is loaded under another"),
        ),
        (_, Status::UrlNotFetched) => (
            Detail::NotExact { reason: "url" },
            super::opencode::url_warning(&f.path),
            "keep the instructions in a file of the repository to have them checked".to_owned(),
        ),
        (_, Status::Unreadable) => {
            let error = match &f.why {
                Why::Error(e) => shower.within(e),
                _ => "cannot be read".to_owned(),
            };
            (
                Detail::Unavailable {
                    error: error.clone(),
                },
                format!("unreadable ({error}): {profile} sends nothing from it"),
                if error.starts_with("too large") {
                    format!("cut {file} below the cap the error names, or split it")
                } else {
                    format!("make {file} readable (its permissions, or what it links to)")
                },
            )
        }
        (_, _) if f.why == Why::InvalidUtf8 => (
            Detail::LossyUtf8 {},
            format!("invalid UTF-8: {profile} replaces each bad sequence with U+FFFD"),
            format!("re-encode {file} as UTF-8"),
        ),
        _ => return None,
    };
    let file = if f.status == Status::UrlNotFetched {
        String::new()
    } else {
        file
    };
    Some(Raw::Plain {
        file,
        found: Box::new((detail, message, hint)),
    })
}

/// Whether an AGENTS.md Claude Code holds back loses nothing: the same
/// file also loads (a CLAUDE.md imports it), or the CLAUDE.md beside it is
/// it under another name (a symlink, the same text, a pointer).
fn claude_mirrored(report: &Report, f: &FileEntry) -> bool {
    if f.status != Status::HeldBack {
        return false;
    }
    let loaded = report.files.iter().any(|g| g.included && g.path == f.path);
    // A pointer or a copy speaks for the AGENTS.md beside it only.
    let agents = Path::new(&f.path);
    let sibling = agents.with_file_name("CLAUDE.md");
    loaded || (super::file_size(&sibling).is_some() && mirrors(&sibling, agents))
}

/// The finding of one file Claude Code skips or holds back (real agent:
/// the realagents claude cases), each a warning as Claude Code goes on.
fn claude_finding(f: &FileEntry, file: String, shower: &Shower) -> Option<Raw> {
    let by = f.imported_by.as_deref().map(|b| shower.show(b));
    let of = |what: String| match &by {
        Some(by) => format!("{what} (imported by {by})"),
        None => what,
    };
    let import = |problem: &'static str, error: Option<String>| Detail::ImportProblem {
        token: file.clone(),
        problem,
        error,
    };
    let (detail, message, hint) = match f.status {
        Status::TooLarge => {
            let bytes = f.bytes.unwrap_or(0);
            (
                Detail::Unavailable {
                    error: format!("over {} bytes ({bytes})", super::claude::MAX_BYTES),
                },
                of(format!(
                    "over {} bytes ({bytes}); Claude Code skips it",
                    super::claude::MAX_BYTES
                )),
                format!(
                    "cut {file} to {} bytes or fewer, or split it",
                    super::claude::MAX_BYTES
                ),
            )
        }
        Status::NotText => (
            import("not-text", None),
            of("not a text file by its extension; Claude Code skips the import".to_owned()),
            format!("import a text file (.md) instead of {file}, or remove the import"),
        ),
        Status::TooDeep => (
            import("depth", None),
            of("an import deeper than four levels; Claude Code does not read it".to_owned()),
            "flatten the imports: Claude Code stops after four levels".to_owned(),
        ),
        Status::Outside => (
            import("outside", None),
            of("outside the cwd; Claude Code skips it unless the project approves external imports (hasClaudeMdExternalIncludesApproved)".to_owned()),
            format!("move {file} inside the project, or approve external imports for it in Claude Code"),
        ),
        Status::HeldBack => {
            let holder = match &f.why {
                Why::By(b) => shower.show(b),
                _ => "a CLAUDE.md".to_owned(),
            };
            (
                Detail::IgnoredName { by: holder.clone() },
                format!(
                    "not loaded: {holder} holds AGENTS.md back (Claude Code reads AGENTS.md only where no CLAUDE.md gives text)"
                ),
                format!(
                    "merge what it says into {holder}, or make {holder} a pointer to it (@AGENTS.md)"
                ),
            )
        }
        Status::Unreadable if f.imported_by.is_some() => {
            let error = match &f.why {
                Why::Error(e) => Some(shower.within(e)),
                _ => None,
            };
            let why = error.as_ref().map(|e| format!(": {e}")).unwrap_or_default();
            (
                import("failed", error),
                of(format!(
                    "an import that cannot be resolved{why}; Claude Code skips it"
                )),
                format!("fix the import of {file} (the error says why), or remove it"),
            )
        }
        Status::Unreadable => {
            let error = match &f.why {
                Why::Error(e) => shower.within(e),
                _ => "cannot be read".to_owned(),
            };
            (
                Detail::Unavailable { error },
                "cannot be read; contributes nothing".to_owned(),
                format!("make {file} readable (its permissions, or what it links to)"),
            )
        }
        _ => return None,
    };
    Some(Raw::Plain {
        file,
        found: Box::new((detail, message, hint)),
    })
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
        let args = crate::cli::ProfileArgs::default();
        let harnesses: Vec<Box<dyn Harness>> = crate::cmd::profile::check::HARNESSES
            .iter()
            .map(|e| (e.new)(&env, &args, &top).unwrap())
            .collect();
        let opts = crate::check::Options {
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
