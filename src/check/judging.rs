//! Stage 3 of check: render each directory's baseline and judge it, and
//! judge every candidate file once, from what the probe recorded.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::chains::{Checker, Link, Root, is_found};
use super::{Detail, DirBaseline, Finding, is_plain_name};
use crate::baseline::{self, Shape};
use crate::discovery::{
    Candidate, Dir, Fate, Load, Place, Probe, TierKind, Unreadable, js_trim, sha1_hex,
};
use crate::render::{self, Fit, Truncation};
use crate::settings::Precedence;

/// How many omitted files a message names before it counts the rest.
const NAMED: usize = 3;

/// `a, b, c and 496 more` (the whole list stays in the finding's detail).
fn abbreviated(names: &[String]) -> String {
    let shown = names[..names.len().min(NAMED)].join(", ");
    match names.len().saturating_sub(NAMED) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}

/// A finding's detail and its message.
type Found = (Detail, String);

impl Checker<'_> {
    /// Renders the baseline of a session in `node`'s directory. A cut is an
    /// error, a baseline past `--warn-at` a warning; both go at `at`, first
    /// in the directory's group.
    pub(super) fn judge_baseline(
        &mut self,
        node_path: &Path,
        root: &Root,
        chain: Option<&Rc<Link>>,
        shown_dir: &str,
        at: usize,
    ) {
        let mut dirs: Vec<&Dir> = Vec::new();
        let mut link = chain;
        while let Some(l) = link {
            dirs.push(&l.dir);
            link = l.up.as_ref();
        }
        dirs.extend(self.user_global.as_ref());
        dirs.reverse();
        let precedence = self.opts.settings.precedence.value;
        let loaded: Vec<(&Dir, &Candidate)> = dirs
            .iter()
            .flat_map(|d| {
                d.loaded()
                    .filter(|c| c.text().is_some())
                    .map(move |c| (*d, c))
            })
            .collect();
        let files: Vec<baseline::File> = loaded
            .iter()
            .map(|(d, c)| baseline::file_of(0, d, c, precedence))
            .collect();
        let items = baseline::items(&files);
        let max_bytes = self.opts.settings.max_bytes.value;
        let fit = render::fit(&items, render::INTRO, render::COMPACT, max_bytes);
        let bytes = fit.bytes();
        let whole_bytes = if items.is_empty() {
            0
        } else if fit.text.is_some() && !fit.is_cut() {
            bytes
        } else {
            let parts = items.iter().map(|i| (i.head.as_str(), i.content));
            render::build("", render::INTRO, parts).len()
        };
        self.checked += 1;
        if self.largest.as_ref().is_none_or(|(b, _)| bytes > *b) {
            self.largest = Some((bytes, shown_dir.to_owned()));
        }
        if self.opts.directories {
            self.dir_settings.cwd.value = node_path.to_path_buf();
            let identity = self.dir_settings.identity(&root.path);
            self.directories.push(DirBaseline {
                dir: shown_dir.to_owned(),
                whole_bytes,
                baseline: Shape::new(&files, &fit, identity, &root.path, max_bytes),
                text_digest: fit.text.as_deref().map(|t| sha1_hex(t.as_bytes())),
            });
        }
        let twice = self.judge_twice(&loaded, shown_dir);
        let own = chain.map(|l| &l.dir);
        let found = self
            .budget(&loaded, &fit, shown_dir, whole_bytes)
            .or_else(|| self.near_budget(bytes, shown_dir));
        if let Some((detail, message)) = found {
            let file = own
                .and_then(|d| {
                    d.loaded()
                        .next()
                        .or_else(|| d.candidates.iter().find(|c| is_found(c)))
                        .map(|c| self.shown(&c.path))
                })
                .unwrap_or_else(|| shown_dir.to_owned());
            let finding = Finding::new(shown_dir.to_owned(), file, detail, message);
            self.findings.insert(at, finding);
        }
        for (path, finding) in twice {
            if self.judged.insert(path) {
                self.findings.push(finding);
            }
        }
    }

    /// The over-budget error of a cut baseline.
    fn budget(
        &self,
        loaded: &[(&Dir, &Candidate)],
        fit: &Fit,
        shown_dir: &str,
        whole_bytes: usize,
    ) -> Option<Found> {
        if !fit.is_cut() {
            return None;
        }
        let bytes = fit.bytes();
        let max_bytes = self.opts.settings.max_bytes.value;
        let shown_item = |(d, c): &(&Dir, &Candidate)| self.shown_file(d, c);
        let omitted: Vec<String> = loaded[..fit.omitted.len()].iter().map(shown_item).collect();
        let truncated: Vec<Truncation> = fit
            .truncated
            .iter()
            .map(|t| Truncation {
                path: loaded.last().map(shown_item).unwrap_or_default(),
                ..t.clone()
            })
            .collect();
        let mut parts = Vec::new();
        if !omitted.is_empty() {
            parts.push(format!("omitted {}", abbreviated(&omitted)));
        }
        for t in &truncated {
            parts.push(format!(
                "truncated {} from {} to {} bytes",
                t.path, t.original_bytes, t.included_bytes
            ));
        }
        let message = format!(
            "over budget: a session in {shown_dir} gets {bytes} of max {max_bytes} bytes, its whole baseline needs {whole_bytes}: {}",
            parts.join("; ")
        );
        let detail = Detail::OverBudget {
            bytes,
            whole_bytes,
            max_bytes,
            omitted,
            truncated,
        };
        Some((detail, message))
    }

    /// The `--warn-at` warning of a baseline that fits but nearly fills the budget.
    fn near_budget(&self, bytes: usize, shown_dir: &str) -> Option<Found> {
        let percent = self.opts.warn_at?;
        let max_bytes = self.opts.settings.max_bytes.value;
        let headroom = max_bytes.headroom(bytes)?;
        // Byte counts are exact in an f64 below 2^53 (8 PiB).
        #[allow(clippy::cast_precision_loss)]
        let used = bytes as f64 * 100.0;
        if used < f64::from(percent) * max_bytes.0 {
            return None;
        }
        // A whole percentage, rounded down, of a finite positive budget.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let share = (used / max_bytes.0).floor() as u64;
        let message = format!(
            "near budget: a session in {shown_dir} gets {bytes} of max {max_bytes} bytes ({share}%, warn at {percent}%), {headroom} bytes of headroom"
        );
        let detail = Detail::NearBudget {
            bytes,
            max_bytes,
            percent: u32::try_from(share).unwrap_or(u32::MAX),
        };
        Some((detail, message))
    }

    /// A symlinked candidate whose real file also loads under another name
    /// in this baseline (the caller warns once per file).
    fn judge_twice(
        &self,
        loaded: &[(&Dir, &Candidate)],
        shown_dir: &str,
    ) -> Vec<(PathBuf, Finding)> {
        let mut out = Vec::new();
        let mut real: HashMap<PathBuf, usize> = HashMap::new();
        for (i, (_, c)) in loaded.iter().enumerate() {
            if c.link.is_none() {
                real.entry(c.path.clone()).or_insert(i);
            }
        }
        for (i, (d, c)) in loaded.iter().enumerate() {
            let Some(resolved) = c.link.as_ref().and_then(|l| l.resolved.as_ref()) else {
                continue;
            };
            let other = match real.get(resolved) {
                Some(&j) if j != i => j,
                _ => continue,
            };
            let (od, oc) = loaded[other];
            let same_as = self.shown_file(od, oc);
            let bytes = c.text().map_or(0, |t| t.text.len());
            let message = format!(
                "loads twice: a symlink to {same_as}, which a session in {shown_dir} also loads, so it gets the same {bytes} bytes twice"
            );
            let detail = Detail::LoadsTwice { same_as, bytes };
            let file = self.shown_file(d, c);
            let finding = Finding::new(shown_dir.to_owned(), file, detail, message);
            out.push((c.path.clone(), finding));
        }
        out
    }

    /// Judges one candidate file, once, in the directory that holds it.
    /// `root` is its project root (`None` for the user-global file).
    pub(super) fn judge_file(
        &mut self,
        dir: &Dir,
        cand: &Candidate,
        shown_dir: &str,
        root: Option<&Root>,
    ) {
        let mut found: Vec<Found> = Vec::new();
        found.extend(self.judge_probe(cand));
        found.extend(self.judge_link(cand, root));
        if let Some(text) = cand.text() {
            let shadowed = matches!(cand.fate, Fate::Shadowed { .. });
            // A shadowed file is never read by sessions in `first` mode, so
            // a stub there is no symlink checked out as text to them.
            let stub = root
                .filter(|_| !shadowed)
                .and_then(|_| stub_target(dir, cand, &text.text));
            if let Some(sibling) = &stub {
                let shown = self.shown(&dir.path.join(sibling));
                found.push((
                    Detail::SymlinkStub {
                        sibling: shown.clone(),
                    },
                    format!(
                        "symlink checked out as text: the whole content is the name of its sibling {shown}, so sessions get the name instead of the instructions"
                    ),
                ));
            } else if !(shadowed && stub_target(dir, cand, &text.text).is_some()) {
                found.extend(self.differs(dir, cand));
            }
            found.extend(judge_text(&text.text));
        }
        let file = self.shown_file(dir, cand);
        for (detail, message) in found {
            self.findings.push(Finding::new(
                shown_dir.to_owned(),
                file.clone(),
                detail,
                message,
            ));
        }
    }

    /// What the probe and the read say: broken link, not a file, unreadable, oversized.
    fn judge_probe(&self, cand: &Candidate) -> Option<Found> {
        let max_source_bytes = self.opts.settings.max_source_bytes.value;
        match (cand.probe.as_ref()?, &cand.load) {
            (Probe::Missing(_), _) => {
                let target = cand.link.as_ref()?.target.clone();
                let message = format!(
                    "dangling symlink: points to {target}, which does not exist, so sessions load nothing from it"
                );
                Some((Detail::DanglingSymlink { target }, message))
            }
            (Probe::NotRegular(kind), _) => Some((
                Detail::NotRegular { file_type: kind },
                format!("not a regular file (a {kind}): sessions skip it"),
            )),
            (Probe::Unavailable(error), _)
            | (Probe::File { .. }, Some(Load::Unreadable(Unreadable::Error(error)))) => Some((
                Detail::Unavailable {
                    error: error.clone(),
                },
                format!("unreadable ({error}): sessions skip it"),
            )),
            (
                Probe::File { .. },
                Some(Load::Unreadable(why @ Unreadable::InvalidUtf8 { offset, .. })),
            ) => Some((
                Detail::InvalidUtf8 { offset: *offset },
                format!(
                    "{why}: dsh reads instruction files as strict UTF-8, so sessions never load it"
                ),
            )),
            (Probe::File { .. }, Some(Load::Unreadable(why @ Unreadable::Binary { offset }))) => {
                Some((
                    Detail::Binary { offset: *offset },
                    format!("{why}: dsh takes it for a binary file, so sessions never load it"),
                ))
            }
            (Probe::File { .. }, Some(Load::Oversized { bytes, grew })) => {
                let what = if *grew {
                    format!("{bytes} bytes when probed, but it grew while read")
                } else {
                    format!("{bytes} bytes")
                };
                Some((
                    Detail::Oversized {
                        bytes: *bytes,
                        max_source_bytes,
                    },
                    format!(
                        "too large: {what}, over max-source-bytes {max_source_bytes}, so sessions do not load it"
                    ),
                ))
            }
            (Probe::File { .. }, _) => None,
        }
    }

    /// Where a symlinked candidate resolves, as the probe recorded it: a
    /// secret location is an error, outside the project root a warning.
    fn judge_link(&self, cand: &Candidate, root: Option<&Root>) -> Option<Found> {
        let link = cand.link.as_ref()?;
        // A secret matters only where sessions would read it: a regular file.
        let readable = matches!(cand.probe, Some(Probe::File { .. }));
        let target = link.target.clone();
        let resolved = link
            .resolved
            .as_deref()
            .map_or_else(String::new, |r| r.to_string_lossy().into_owned());
        match link.place {
            place if readable && place.is_secret() => {
                // A path under /proc names a process: the link text says it.
                let message = match place {
                    Place::System => format!(
                        "symlink to a secret: points to {target}, in /proc, /sys or /dev, so sessions send what it holds to the model"
                    ),
                    Place::Home => format!(
                        "symlink to a secret: points to {target}, which resolves to {resolved} in the home directory outside the project, so sessions send what it holds to the model"
                    ),
                    _ if resolved == target => format!(
                        "symlink to a secret: points to {target}, {}, so sessions send what it holds to the model",
                        place.words()
                    ),
                    _ => format!(
                        "symlink to a secret: points to {target}, which resolves to {resolved} {}, so sessions send what it holds to the model",
                        place.words()
                    ),
                };
                let detail = Detail::SecretSymlink {
                    target,
                    resolved,
                    place: place.name(),
                };
                Some((detail, message))
            }
            Place::GitDir | Place::Credentials if link.outside_root != Some(true) => None,
            Place::Outside
            | Place::System
            | Place::Home
            | Place::Secrets
            | Place::GitDir
            | Place::Credentials => {
                let shown_root = self.shown(&root?.path);
                let message = format!(
                    "symlink leaves the project: points to {target}, which resolves outside its project root ({shown_root})"
                );
                let detail = Detail::SymlinkLeavesTree {
                    target,
                    project_root: shown_root,
                };
                Some((detail, message))
            }
            Place::Inside | Place::Unknown => None,
        }
    }

    /// Drift (`first`: a shadowed file that differs from its winner) or two
    /// sources of truth (`all`: a later sibling of the same tier that loads
    /// too, so its trimmed content differs).
    fn differs(&self, dir: &Dir, cand: &Candidate) -> Option<Found> {
        let text = cand.text()?;
        match (&cand.fate, self.opts.settings.precedence.value) {
            (Fate::Shadowed { by }, Precedence::First) => {
                let winner = dir
                    .candidates
                    .iter()
                    .find(|c| c.tier == cand.tier && &c.display == by)?;
                let won = winner.text()?;
                // Equal, or the winner is a stub naming this file (that
                // finding says it all).
                if js_trim(&won.text) == js_trim(&text.text)
                    || stub_target(dir, winner, &won.text).is_some_and(|n| n == cand.name)
                {
                    return None;
                }
                let shown = self.shown(&winner.path);
                Some((
                    Detail::Drift {
                        winner: shown.clone(),
                    },
                    format!(
                        "drift: differs from {shown}, which wins, so sessions never see this file"
                    ),
                ))
            }
            (Fate::Loaded, Precedence::All) => {
                let first = dir
                    .candidates
                    .iter()
                    .find(|c| c.tier == cand.tier && c.fate == Fate::Loaded)?;
                if std::ptr::eq(first, cand) {
                    return None;
                }
                let shown = self.shown(&first.path);
                let overlap_bytes = overlap(&first.text()?.text, &text.text);
                Some((
                    Detail::TwoSources {
                        sibling: shown.clone(),
                        overlap_bytes,
                    },
                    format!(
                        "two sources of truth: differs from {shown} and both load; {overlap_bytes} bytes of overlapping instructions"
                    ),
                ))
            }
            _ => None,
        }
    }

    /// A candidate as shown; the user-global file by its display path.
    pub(super) fn shown_file(&self, dir: &Dir, cand: &Candidate) -> String {
        if cand.tier == TierKind::UserGlobal {
            cand.display.clone()
        } else {
            self.shown(&dir.path.join(&cand.name))
        }
    }
}

/// What the text itself holds: a literal closing tag, nothing.
fn judge_text(text: &str) -> Vec<Found> {
    let mut found = Vec::new();
    if let Some(at) = text.find(render::CLOSE) {
        let line = 1 + text[..at].bytes().filter(|b| *b == b'\n').count();
        found.push((
            Detail::SystemReminder { line },
            format!(
                "literal </system-reminder> on line {line}: sessions see it escaped as <\\/system-reminder>"
            ),
        ));
    }
    if js_trim(text).is_empty() {
        let whitespace = !text.is_empty();
        let message = if whitespace {
            "only whitespace: sessions get an empty section"
        } else {
            "empty file: sessions get an empty section"
        };
        found.push((Detail::Empty { whitespace }, message.to_owned()));
    }
    found
}

/// Bytes of the non-blank lines of `text` that `other` holds too (trimmed).
fn overlap(other: &str, text: &str) -> usize {
    let lines: HashSet<&str> = other
        .lines()
        .map(js_trim)
        .filter(|l| !l.is_empty())
        .collect();
    text.lines()
        .filter(|l| lines.contains(js_trim(l)))
        .map(str::len)
        .sum()
}

/// The sibling a file names when its whole (trimmed) content is the name of
/// another file in its directory: a symlink checked out as a text stub.
fn stub_target(dir: &Dir, cand: &Candidate, text: &str) -> Option<String> {
    let name = js_trim(text);
    if !is_plain_name(name) || name.len() > 255 || name.contains(['\n', '\r', '\0']) {
        return None;
    }
    if name == cand.name {
        return None;
    }
    fs::metadata(dir.path.join(name))
        .ok()
        .filter(fs::Metadata::is_file)
        .map(|_| name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn long_lists_name_three_and_count_the_rest() {
        let names: Vec<String> = (1..=5).map(|i| format!("f{i}")).collect();
        assert_eq!(abbreviated(&names[..2]), "f1, f2");
        assert_eq!(abbreviated(&names[..3]), "f1, f2, f3");
        assert_eq!(abbreviated(&names), "f1, f2, f3 and 2 more");
    }

    #[test]
    fn overlap_counts_the_lines_both_files_hold() {
        assert_eq!(overlap("a\nshared line\n\nb\n", "shared line\nc\n  \n"), 11);
        assert_eq!(overlap("x\n", "y\n"), 0);
    }
}
