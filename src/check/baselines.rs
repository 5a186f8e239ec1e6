//! Stage 3 of check for directories: render each checked directory's
//! baseline from its chain's prepared sizes, judge it (a cut, `--warn-at`,
//! the same file loaded twice) and, when asked, assemble its report with
//! the one baseline assembler (`baseline::assemble`).

use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::chains::{Checker, Link, Root, is_found};
use super::prepared::View;
use super::{Detail, DirBaseline, Finding, Received, ReceivedFile};
use crate::baseline::{self, FileShape, Shape};
use crate::discovery::sha1_hex;
use crate::render::{self, Plan};

impl Checker<'_> {
    /// Renders the baseline of a session in `node`'s directory. A cut is an
    /// error, a baseline past `--warn-at` a warning; both go at `at`, first
    /// in the directory's group. Its sizes come from the chain's prepared
    /// files (no text is built unless the directory's report is asked for).
    /// With no `at`, the directory holds no file of its own and gets
    /// `chain`'s baseline: it is reported, never judged.
    pub(super) fn judge_baseline(
        &mut self,
        node_path: &Path,
        root: &Root,
        chain: &Rc<Link>,
        shown_dir: &str,
        at: Option<usize>,
    ) {
        self.sync(chain);
        let max_bytes = self.opts.settings.max_bytes.value;
        let view = View::of(
            self.user_global.as_ref(),
            &self.ug_files,
            &self.stack,
            chain,
        );
        let plan = render::plan(&view, render::INTRO, render::COMPACT, max_bytes);
        let Some(at) = at else {
            let (_, mut r) = self.directory(&view, &plan, node_path, root, shown_dir);
            r.also = true;
            self.received.push(r);
            return;
        };
        let bytes = plan.bytes;
        let directory = self
            .opts
            .directories
            .then(|| self.directory(&view, &plan, node_path, root, shown_dir));
        let twice = self.judge_twice(&view, chain, shown_dir);
        if self.recording {
            let limit = max_bytes.limit();
            let lists = (&mut self.cuts, &mut self.excesses);
            self.work += Self::record_cut(&view, &plan, shown_dir, limit, lists);
        }
        let found = self.near_budget(&plan, bytes, shown_dir);
        let mut work = 2;
        work += u64::from(view.n.checked_ilog2().unwrap_or(0)) * 4;
        self.work += work;
        self.checked += 1;
        if self.largest.as_ref().is_none_or(|(b, _)| bytes > *b) {
            self.largest = Some((bytes, shown_dir.to_owned()));
        }
        if let Some((d, r)) = directory {
            self.work += d.baseline.files.len() as u64;
            self.directories.push(d);
            self.received.push(r);
        }
        if let Some(detail) = found {
            let d = &chain.dir;
            let file = d
                .loaded()
                .next()
                .or_else(|| d.candidates.iter().find(|c| is_found(c)))
                .map_or_else(|| shown_dir.to_owned(), |c| self.shown(&c.path));
            let finding = Finding::new(shown_dir.to_owned(), file, detail);
            self.findings.insert(at, finding);
        }
        for (path, finding) in twice {
            if self.judged.insert(path) {
                self.findings.push(finding);
            }
        }
        chain.judged.set(true);
    }

    /// The report of a session in `node_path` (JSON, summary, `--base`):
    /// its baseline, assembled as `render` assembles it (at most max-bytes
    /// of text are built), with its identity and the digest of its text.
    fn directory(
        &self,
        view: &View<'_>,
        plan: &Plan,
        node_path: &Path,
        root: &Root,
        shown_dir: &str,
    ) -> (DirBaseline, Received) {
        let mut settings = self.dir_settings.clone();
        settings.cwd.value = node_path.to_path_buf();
        let identity = settings.identity(&root.path);
        let precedence = self.opts.settings.precedence.value;
        let max_bytes = self.opts.settings.max_bytes.value;
        let fit = baseline::assemble(view, plan, render::INTRO, render::COMPACT, max_bytes);
        let n = view.n;
        let files = (0..n).map(|i| {
            let (d, c, _) = view.at(i);
            let text = c.text();
            FileShape {
                path: c.display.clone(),
                scope: d.scope_key_of(c, precedence),
                digest: text.map(|t| t.digest().to_owned()).unwrap_or_default(),
                bytes: text.map_or(0, |t| t.text.len()),
                represented: false,
            }
        });
        let shape = Shape::of(&fit, identity, &root.path, max_bytes, files);
        let text_digest = fit.text.as_deref().map(|t| sha1_hex(t.as_bytes()));
        let shown = |i: usize| view.at(i).2.shown.to_string();
        let received = Received {
            dir: shown_dir.to_owned(),
            bytes: plan.bytes,
            whole_bytes: plan.whole,
            max_bytes: Some(max_bytes),
            files: shape
                .files
                .iter()
                .enumerate()
                .map(|(i, f)| ReceivedFile {
                    path: shown(i),
                    bytes: f.bytes,
                    digest: f.digest.clone(),
                })
                .collect(),
            omitted: (0..plan.omitted).map(shown).collect(),
            truncated: plan.truncated.iter().map(|_| shown(n - 1)).collect(),
            text_digest: text_digest.clone(),
            also: false,
        };
        let baseline = DirBaseline {
            dir: shown_dir.to_owned(),
            whole_bytes: plan.whole,
            baseline: shape,
            text_digest,
        };
        (baseline, received)
    }

    /// The `--warn-at` warning of a baseline that fits but nearly fills the budget.
    fn near_budget(&self, plan: &Plan, bytes: usize, shown_dir: &str) -> Option<Detail> {
        let percent = self.opts.warn_at?;
        if plan.omitted > 0 || plan.truncated.is_some() {
            return None;
        }
        let max_bytes = self.opts.settings.max_bytes.value;
        near_budget(percent, bytes, max_bytes, shown_dir, "max-bytes")
    }

    /// A symlinked candidate whose real file also loads under another name
    /// in this baseline (the caller warns once per file). Below a judged
    /// parent only pairs with a file of this directory are new: the rest
    /// were judged in the parent's baseline.
    fn judge_twice(
        &self,
        view: &View<'_>,
        chain: &Link,
        shown_dir: &str,
    ) -> Vec<(PathBuf, Finding)> {
        let start = match &chain.up {
            Some(up) if up.judged.get() => chain.before.files,
            _ => 0,
        };
        let first_real = |p: &Path| self.real_at.get(p).and_then(|v| v.first().copied());
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for a in start..view.n {
            let (_, c, _) = view.at(a);
            if let Some(r) = c.link.as_ref().and_then(|l| l.resolved.as_ref()) {
                pairs.extend(first_real(r).map(|b| (a, b)));
            }
        }
        if start > 0 {
            for b in start..view.n {
                let (_, c, _) = view.at(b);
                if c.link.is_some() || first_real(&c.path) != Some(b) {
                    continue;
                }
                let above = self.links_to.get(&c.path).into_iter().flatten();
                pairs.extend(above.filter(|&&a| a < start).map(|&a| (a, b)));
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        pairs
            .into_iter()
            .map(|(a, b)| {
                let (_, c, fa) = view.at(a);
                let same_as = fb_shown(view, b);
                let bytes = c.text().map_or(0, |t| t.text.len());
                let detail = Detail::LoadsTwice { same_as, bytes };
                let finding = Finding::new(shown_dir.to_owned(), fa.shown.to_string(), detail);
                (c.path.clone(), finding)
            })
            .collect()
    }
}

/// The `--warn-at` warning of a session of `shown_dir` that gets `bytes`
/// of a budget `max_bytes` (the setting named `setting`), when that reaches
/// `percent`% of it and fits.
pub(crate) fn near_budget(
    percent: u32,
    bytes: usize,
    max_bytes: crate::jsnum::MaxBytes,
    shown_dir: &str,
    setting: &'static str,
) -> Option<Detail> {
    let headroom = max_bytes.headroom(bytes)?;
    if headroom < 0 {
        return None;
    }
    // Byte counts are exact in an f64 below 2^53 (8 PiB).
    #[allow(clippy::cast_precision_loss)]
    let used = bytes as f64 * 100.0;
    if used < f64::from(percent) * max_bytes.0 {
        return None;
    }
    // A whole percentage, rounded down, of a finite positive budget.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let share = (used / max_bytes.0).floor() as u64;
    Some(Detail::NearBudget {
        bytes,
        max_bytes,
        percent: u32::try_from(share).unwrap_or(u32::MAX),
        session: shown_dir.to_owned(),
        warn_at: percent,
        setting,
    })
}

fn fb_shown(view: &View<'_>, pos: usize) -> String {
    view.at(pos).2.shown.to_string()
}
