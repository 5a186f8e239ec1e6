//! Stage 3 of check: render each directory's baseline and judge it, and
//! judge every candidate file once, from what the probe recorded.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::budget::{self, Cut, Excess, Loss, Lost, NAMED};
use super::chains::{Checker, Link, Root, is_found};
use super::{Detail, DirBaseline, Finding, Received, ReceivedFile, is_plain_name};
use crate::baseline::{self, FileShape, Shape};
use crate::discovery::{
    Candidate, Dir, Fate, Load, Place, Probe, TierKind, Unreadable, js_trim, sha1_hex,
};
use crate::render::{self, Item, Plan};
use crate::settings::Precedence;

/// A finding's detail, its message and its hint.
pub type Found = (Detail, String, String);

/// A loaded file of a chain link with text, prepared once when its link
/// joins a chain: every baseline below shares it.
#[derive(Debug)]
pub(super) struct Prepared {
    /// Index in its directory's candidates.
    pub cand: usize,
    /// As check shows it (relative to where check was started).
    pub shown: Rc<str>,
    /// Escaped bytes of its section (heading and content).
    pub section: usize,
    /// Escaped bytes of its display path.
    pub path: usize,
    /// Bytes of its text.
    pub bytes: usize,
    /// The directory its findings are grouped under, as shown.
    pub group: Rc<str>,
    /// What the budget's cuts did to it while it was in the chain.
    pub loss: RefCell<Loss>,
}

/// Sums over a run of prepared files.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Sums {
    pub files: usize,
    pub sections: usize,
    pub paths: usize,
}

impl Sums {
    fn with(self, files: &[Prepared]) -> Self {
        files.iter().fold(self, |s, f| Sums {
            files: s.files + 1,
            sections: s.sections + f.section,
            paths: s.paths + f.path,
        })
    }
}

/// The shown paths of one link's files, below those of the links above:
/// a persistent list, so a baseline's omitted files are a count, not a copy.
#[derive(Debug)]
pub struct NameNode {
    names: Vec<Rc<str>>,
    up: Option<Rc<NameNode>>,
}

impl NameNode {
    pub(super) fn new(files: &[Prepared], up: Option<Rc<NameNode>>) -> Option<Rc<NameNode>> {
        if files.is_empty() {
            return up;
        }
        Some(Rc::new(NameNode {
            names: files.iter().map(|f| Rc::clone(&f.shown)).collect(),
            up,
        }))
    }
}

/// The files a cut baseline omits (the first `len` of its chain), shown
/// relative to where check was started; shared with the chain, listed
/// only when printed.
#[derive(Clone)]
pub struct Omitted {
    node: Option<Rc<NameNode>>,
    len: usize,
}

impl Omitted {
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The names, broadest first.
    #[must_use]
    pub fn names(&self) -> Vec<&str> {
        let mut nodes = Vec::new();
        let mut at = self.node.as_deref();
        while let Some(n) = at {
            nodes.push(n);
            at = n.up.as_deref();
        }
        nodes
            .iter()
            .rev()
            .flat_map(|n| n.names.iter().map(|s| &**s))
            .take(self.len)
            .collect()
    }
}

impl From<Vec<String>> for Omitted {
    fn from(names: Vec<String>) -> Self {
        let len = names.len();
        let node = Rc::new(NameNode {
            names: names.into_iter().map(Rc::from).collect(),
            up: None,
        });
        Omitted {
            node: Some(node),
            len,
        }
    }
}

impl std::fmt::Debug for Omitted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

impl PartialEq for Omitted {
    fn eq(&self, other: &Self) -> bool {
        self.names() == other.names()
    }
}

impl Eq for Omitted {}

impl serde::Serialize for Omitted {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.names())
    }
}

/// Records a loaded file at `pos` of the current chain's baseline: its
/// path when it is no symlink, its resolved path when it is one.
pub(super) fn index(
    real_at: &mut HashMap<PathBuf, Vec<usize>>,
    links_to: &mut HashMap<PathBuf, Vec<usize>>,
    cand: &Candidate,
    pos: usize,
) {
    match &cand.link {
        None => real_at.entry(cand.path.clone()).or_default().push(pos),
        Some(link) => {
            if let Some(r) = &link.resolved {
                links_to.entry(r.clone()).or_default().push(pos);
            }
        }
    }
}

/// Undoes [`index`] (positions leave in the reverse order they came).
fn unindex(
    real_at: &mut HashMap<PathBuf, Vec<usize>>,
    links_to: &mut HashMap<PathBuf, Vec<usize>>,
    cand: &Candidate,
) {
    let (map, key) = match &cand.link {
        None => (real_at, &cand.path),
        Some(link) => match &link.resolved {
            Some(r) => (links_to, r),
            None => return,
        },
    };
    if let Some(v) = map.get_mut(key) {
        v.pop();
        if v.is_empty() {
            map.remove(key);
        }
    }
}

/// A chain's baseline as positions: the user-global file, then the links.
struct View<'a> {
    ug: Option<&'a Dir>,
    ug_files: &'a [Prepared],
    stack: &'a [Rc<Link>],
    n: usize,
}

impl<'a> View<'a> {
    /// The directory, candidate and prepared data at `pos`.
    fn at(&self, pos: usize) -> (&'a Dir, &'a Candidate, &'a Prepared) {
        if pos < self.ug_files.len() {
            let f = &self.ug_files[pos];
            let dir = self
                .ug
                .unwrap_or_else(|| unreachable!("user-global files without a dir"));
            return (dir, &dir.candidates[f.cand], f);
        }
        let link = self.link_of(pos);
        let f = &link.files[pos - link.before.files];
        (&link.dir, &link.dir.candidates[f.cand], f)
    }

    /// The link holding `pos` (past the user-global files).
    fn link_of(&self, pos: usize) -> &'a Link {
        let i = self.stack.partition_point(|l| l.before.files <= pos);
        &self.stack[i - 1]
    }

    fn text(&self, pos: usize) -> &'a str {
        self.at(pos).1.text().map_or("", |t| t.text.as_str())
    }
}

impl render::Sizes for View<'_> {
    fn count(&self) -> usize {
        self.n
    }

    fn prefix(&self, k: usize) -> (usize, usize) {
        let sums = if k <= self.ug_files.len() {
            Sums::default().with(&self.ug_files[..k])
        } else {
            let link = self.link_of(k - 1);
            link.before.with(&link.files[..k - link.before.files])
        };
        (sums.sections, sums.paths)
    }

    fn item(&self, i: usize) -> Item<'_> {
        let (_, c, _) = self.at(i);
        Item {
            path: &c.display,
            head: render::baseline_head(&c.display),
            content: self.text(i),
        }
    }
}

impl Checker<'_> {
    /// A chain link for `dir` below `up`, its loaded files prepared.
    pub(super) fn link(&mut self, dir: Dir, up: Option<Rc<Link>>, group: &str) -> Rc<Link> {
        let files = self.prepare(&dir, group);
        let (depth, before, names_up) = match &up {
            Some(l) => (l.depth + 1, l.before.with(&l.files), l.names.clone()),
            None => (
                0,
                Sums::default().with(&self.ug_files),
                self.ug_names.clone(),
            ),
        };
        let names = NameNode::new(&files, names_up);
        Rc::new(Link {
            dir,
            up,
            depth,
            files,
            before,
            names,
            judged: Cell::new(false),
        })
    }

    /// The loaded files of `dir` that have text, measured once; `group`
    /// is the directory their findings are grouped under.
    pub(super) fn prepare(&mut self, dir: &Dir, group: &str) -> Vec<Prepared> {
        let mut files = Vec::new();
        let group: Rc<str> = Rc::from(group);
        for (cand, c) in dir.candidates.iter().enumerate() {
            let Some(text) = c.text().filter(|_| c.fate == Fate::Loaded) else {
                continue;
            };
            self.work += 1;
            files.push(Prepared {
                cand,
                shown: Rc::from(self.shown_file(dir, c)),
                section: render::escaped_bytes(&render::baseline_head(&c.display))
                    + render::escaped_bytes(&text.text),
                path: render::escaped_bytes(&c.display),
                bytes: text.text.len(),
                group: Rc::clone(&group),
                loss: RefCell::new(Loss {
                    since: self.cuts.len(),
                    ..Loss::default()
                }),
            });
        }
        files
    }

    /// The loss record of chain position `pos` of the current stack.
    fn loss_at(&self, pos: usize) -> &RefCell<Loss> {
        if pos < self.ug_files.len() {
            return &self.ug_files[pos].loss;
        }
        let i = self.stack.partition_point(|l| l.before.files <= pos);
        let link = &self.stack[i - 1];
        &link.files[pos - link.before.files].loss
    }

    /// A file leaves the chain: its losses become final, and what it
    /// counted for deeper positions passes to the next broader one.
    fn finish(&mut self, f: &Prepared, pos: usize) -> (usize, Option<(usize, usize)>) {
        let loss = f.loss.take();
        if loss.pending == 0 {
            return (0, None);
        }
        let worst = loss.pending_worst.unwrap_or((0, 0));
        self.lost.push(Lost {
            file: f.shown.to_string(),
            dir: f.group.to_string(),
            pos,
            bytes: f.bytes,
            count: loss.pending,
            truncated: loss.truncated,
            kept_max: loss.kept_max,
            kept_min: loss.kept_min,
            worst,
            first: loss.first,
            spans: vec![(loss.since, self.cuts.len())],
        });
        (loss.pending, loss.pending_worst)
    }

    /// Hands a finished position's counts to position `pos`.
    fn hand_down(cell: &RefCell<Loss>, (count, worst): (usize, Option<(usize, usize)>)) {
        let mut loss = cell.borrow_mut();
        loss.pending += count;
        loss.pending_worst = max_worst(loss.pending_worst, worst);
    }

    /// Pops the stack down to `keep` links, finishing their files.
    pub(super) fn unwind(&mut self, keep: usize) {
        while self.stack.len() > keep {
            let Some(l) = self.stack.pop() else { break };
            for (j, f) in l.files.iter().enumerate().rev() {
                self.work += 1;
                unindex(
                    &mut self.real_at,
                    &mut self.links_to,
                    &l.dir.candidates[f.cand],
                );
                let pos = l.before.files + j;
                let handed = self.finish(f, pos);
                if handed.0 == 0 {
                    continue;
                }
                if j > 0 {
                    Self::hand_down(&l.files[j - 1].loss, handed);
                } else if pos > 0 {
                    Self::hand_down(self.loss_at(pos - 1), handed);
                }
            }
        }
    }

    /// Finishes the user-global files (after every chain left).
    pub(super) fn finish_user_global(&mut self) {
        let files = std::mem::take(&mut self.ug_files);
        for (pos, f) in files.iter().enumerate().rev() {
            let handed = self.finish(f, pos);
            if handed.0 > 0 && pos > 0 {
                Self::hand_down(&files[pos - 1].loss, handed);
            }
        }
        self.ug_files = files;
    }

    /// Records the cut of a directory's baseline: the first `lost`
    /// positions of its chain lose bytes. O(log n) plus the names filled;
    /// returns that work.
    fn record_cut(
        view: &View<'_>,
        plan: &Plan,
        shown_dir: &str,
        limit: Option<usize>,
        (cuts, excesses): (&mut Vec<Cut>, &mut Vec<Excess>),
    ) -> u64 {
        if plan.omitted == 0 && plan.truncated.is_none() {
            return 0;
        }
        let Some(limit) = limit else {
            return 0;
        };
        let n = view.n;
        let lost = if plan.truncated.is_some() {
            n
        } else {
            plan.omitted
        };
        let idx = cuts.len();
        let excess = plan.whole.saturating_sub(limit);
        cuts.push(Cut {
            dir: shown_dir.to_owned(),
            lost,
        });
        excesses.push(Excess {
            whole: plan.whole,
            excess,
        });
        let loss = |pos: usize| &view.at(pos).2.loss;
        {
            let mut top = loss(lost - 1).borrow_mut();
            top.pending += 1;
            top.pending_worst = max_worst(top.pending_worst, Some((excess, idx)));
        }
        if let Some((_, included)) = plan.truncated {
            let mut last = loss(n - 1).borrow_mut();
            if last.truncated == 0 {
                last.kept_min = included;
            }
            last.truncated += 1;
            last.kept_max = last.kept_max.max(included);
            last.kept_min = last.kept_min.min(included);
        }
        // The positions still short of names are a suffix of [0, lost):
        // every cut fills a prefix, and a broader position was in the
        // chain whenever a deeper one was.
        let mut lo = 0;
        let mut hi = lost;
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if loss(mid).borrow().first.len() >= NAMED {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for pos in lo..lost {
            loss(pos).borrow_mut().first.push(idx);
        }
        (lost - lo) as u64 + u64::from(lost.checked_ilog2().unwrap_or(0))
    }

    /// Makes `stack` the chain ending in `chain`: the links it shares with
    /// the chain last judged stay, the rest are replaced.
    fn sync(&mut self, chain: &Rc<Link>) {
        let mut missing = Vec::new();
        let mut at = Some(chain);
        while let Some(l) = at {
            if self.stack.get(l.depth).is_some_and(|s| Rc::ptr_eq(s, l)) {
                break;
            }
            missing.push(Rc::clone(l));
            at = l.up.as_ref();
        }
        let keep = at.map_or(0, |l| l.depth + 1);
        self.unwind(keep);
        for l in missing.into_iter().rev() {
            for (j, f) in l.files.iter().enumerate() {
                self.work += 1;
                let cand = &l.dir.candidates[f.cand];
                index(
                    &mut self.real_at,
                    &mut self.links_to,
                    cand,
                    l.before.files + j,
                );
            }
            self.stack.push(l);
        }
    }

    /// Renders the baseline of a session in `node`'s directory. A cut is an
    /// error, a baseline past `--warn-at` a warning; both go at `at`, first
    /// in the directory's group. Its sizes come from the chain's prepared
    /// files (no text is built unless the directory's report is asked for).
    pub(super) fn judge_baseline(
        &mut self,
        node_path: &Path,
        root: &Root,
        chain: &Rc<Link>,
        shown_dir: &str,
        at: usize,
    ) {
        self.sync(chain);
        let max_bytes = self.opts.settings.max_bytes.value;
        let view = View {
            ug: self.user_global.as_ref(),
            ug_files: &self.ug_files,
            stack: &self.stack,
            n: chain.before.files + chain.files.len(),
        };
        let plan = render::plan(&view, render::INTRO, render::COMPACT, max_bytes);
        let bytes = plan.bytes;
        let directory = self.opts.directories.then(|| {
            let mut settings = self.dir_settings.clone();
            settings.cwd.value = node_path.to_path_buf();
            let identity = settings.identity(&root.path);
            self.directory(&view, &plan, identity, root, shown_dir)
        });
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
        if let Some((detail, message, hint)) = found {
            let d = &chain.dir;
            let file = d
                .loaded()
                .next()
                .or_else(|| d.candidates.iter().find(|c| is_found(c)))
                .map_or_else(|| shown_dir.to_owned(), |c| self.shown(&c.path));
            let finding = Finding::new(shown_dir.to_owned(), file, detail, message, hint);
            self.findings.insert(at, finding);
        }
        for (path, finding) in twice {
            if self.judged.insert(path) {
                self.findings.push(finding);
            }
        }
        chain.judged.set(true);
    }

    /// The report of a session in `node_path` that gets `chain`'s baseline
    /// though it holds no file of its own: reported, never judged.
    pub(super) fn report_only(
        &mut self,
        node_path: &Path,
        root: &Root,
        chain: &Rc<Link>,
        shown_dir: &str,
    ) {
        self.sync(chain);
        let max_bytes = self.opts.settings.max_bytes.value;
        let view = View {
            ug: self.user_global.as_ref(),
            ug_files: &self.ug_files,
            stack: &self.stack,
            n: chain.before.files + chain.files.len(),
        };
        let plan = render::plan(&view, render::INTRO, render::COMPACT, max_bytes);
        let mut settings = self.dir_settings.clone();
        settings.cwd.value = node_path.to_path_buf();
        let identity = settings.identity(&root.path);
        let (_, mut r) = self.directory(&view, &plan, identity, root, shown_dir);
        r.also = true;
        self.received.push(r);
    }

    /// The directory's report (JSON, summary, `--base`): its baseline,
    /// assembled as `render` assembles it (at most max-bytes of text are
    /// built), and the digest of its text.
    fn directory(
        &self,
        view: &View<'_>,
        plan: &Plan,
        identity: String,
        root: &Root,
        shown_dir: &str,
    ) -> (DirBaseline, Received) {
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
                digest: text.map(|t| t.digest.clone()).unwrap_or_default(),
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
    fn near_budget(&self, plan: &Plan, bytes: usize, shown_dir: &str) -> Option<Found> {
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
                let message = format!(
                    "loads twice: a symlink to {same_as}, which a session in {shown_dir} also loads, so it gets the same {bytes} bytes twice"
                );
                let hint = format!(
                    "delete the symlink {} or stop loading {same_as} under its own name: one of them is enough",
                    fa.shown
                );
                let detail = Detail::LoadsTwice { same_as, bytes };
                let finding = Finding::new(
                    shown_dir.to_owned(),
                    fa.shown.to_string(),
                    detail,
                    message,
                    hint,
                );
                (c.path.clone(), finding)
            })
            .collect()
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
        let file = self.shown_file(dir, cand);
        let mut found: Vec<Found> = Vec::new();
        found.extend(self.judge_probe(cand, &file));
        if let Some(link) = &cand.link {
            // A secret matters only where sessions would read it: a regular file.
            let readable = matches!(cand.probe, Some(Probe::File { .. }));
            let shown_root = root.map(|r| self.shown(&r.path));
            found.extend(link_finding(
                link,
                readable,
                shown_root.as_deref(),
                "sessions",
            ));
        }
        if let Some(text) = cand.text() {
            let shadowed = matches!(cand.fate, Fate::Shadowed { .. });
            // A shadowed file is never read by sessions in `first` mode, so
            // a stub there is no symlink checked out as text to them.
            let stub = root
                .filter(|_| !shadowed)
                .and_then(|_| stub_target(&dir.path, &cand.name, &text.text));
            if let Some(sibling) = &stub {
                let shown = self.shown(&dir.path.join(sibling));
                found.push(stub_finding(&shown, "sessions"));
            } else if !(shadowed && stub_target(&dir.path, &cand.name, &text.text).is_some()) {
                found.extend(self.differs(dir, cand, &file));
            }
            found.extend(judge_text(&text.text));
        }
        for (detail, message, hint) in found {
            self.findings.push(Finding::new(
                shown_dir.to_owned(),
                file.clone(),
                detail,
                message,
                hint,
            ));
        }
    }

    /// What the probe and the read say: broken link, not a file, unreadable, oversized.
    fn judge_probe(&self, cand: &Candidate, file: &str) -> Option<Found> {
        let max_source_bytes = self.opts.settings.max_source_bytes.value;
        match (cand.probe.as_ref()?, &cand.load) {
            (Probe::Missing(_), _) => {
                let target = cand.link.as_ref()?.target.clone();
                let message = format!(
                    "dangling symlink: points to {target}, which does not exist, so sessions load nothing from it"
                );
                let hint = format!("point the link at an existing file, or delete {file}");
                Some((Detail::DanglingSymlink { target }, message, hint))
            }
            (Probe::NotRegular(kind), _) => Some((
                Detail::NotRegular { file_type: kind },
                format!("not a regular file (a {kind}): sessions skip it"),
                format!(
                    "rename or remove the {kind} {file}, or make it a regular file with instructions"
                ),
            )),
            (Probe::Unavailable(error), _)
            | (Probe::File { .. }, Some(Load::Unreadable(Unreadable::Error(error)))) => Some((
                Detail::Unavailable {
                    error: error.clone(),
                },
                format!("unreadable ({error}): sessions skip it"),
                format!("make {file} readable (its permissions, or what it links to)"),
            )),
            (
                Probe::File { .. },
                Some(Load::Unreadable(why @ Unreadable::InvalidUtf8 { offset, .. })),
            ) => Some((
                Detail::InvalidUtf8 { offset: *offset },
                format!(
                    "{why}: dsh reads instruction files as strict UTF-8, so sessions never load it"
                ),
                format!(
                    "re-encode {file} as UTF-8: the first bad sequence is at byte {}",
                    budget::thousands(*offset)
                ),
            )),
            (Probe::File { .. }, Some(Load::Unreadable(why @ Unreadable::Binary { offset }))) => {
                Some((
                    Detail::Binary { offset: *offset },
                    format!("{why}: dsh takes it for a binary file, so sessions never load it"),
                    format!(
                        "remove the NUL byte at byte {} of {file} (save it as UTF-8 text)",
                        budget::thousands(*offset)
                    ),
                ))
            }
            (Probe::File { .. }, Some(Load::Oversized { bytes, grew })) => {
                let what = if *grew {
                    format!("{bytes} bytes when probed, but it grew while read")
                } else {
                    format!("{bytes} bytes")
                };
                let max = u64::try_from(max_source_bytes).unwrap_or(0);
                let hint = format!(
                    "cut {} bytes from {file}, or raise max-source-bytes (now {}) to {}",
                    budget::thousands(bytes.saturating_sub(max)),
                    budget::thousands(max),
                    budget::thousands(*bytes)
                );
                Some((
                    Detail::Oversized {
                        bytes: *bytes,
                        max_source_bytes,
                    },
                    format!(
                        "too large: {what}, over max-source-bytes {max_source_bytes}, so sessions do not load it"
                    ),
                    hint,
                ))
            }
            (Probe::File { .. }, _) => None,
        }
    }

    /// Drift (`first`: a shadowed file that differs from its winner) or two
    /// sources of truth (`all`: a later sibling of the same tier that loads
    /// too, so its trimmed content differs). A pointer to the other file
    /// (`@AGENTS.md`, `See AGENTS.md.`) is neither.
    fn differs(&self, dir: &Dir, cand: &Candidate, file: &str) -> Option<Found> {
        let text = cand.text()?;
        match (&cand.fate, self.opts.settings.precedence.value) {
            (Fate::Shadowed { by }, Precedence::First) => {
                let winner = dir
                    .candidates
                    .iter()
                    .find(|c| c.tier == cand.tier && &c.display == by)?;
                let won = winner.text()?;
                // Equal, the winner is a stub naming this file (that finding
                // says it all), or either points at the other.
                if js_trim(&won.text) == js_trim(&text.text)
                    || stub_target(&dir.path, &winner.name, &won.text)
                        .is_some_and(|n| n == cand.name)
                    || pointer_to(&text.text, &winner.name)
                    || pointer_to(&won.text, &cand.name)
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
                    format!(
                        "delete {file}, or make it a symlink to {shown} (or a pointer: @{})",
                        winner.name
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
                let first_text = first.text()?;
                if pointer_to(&text.text, &first.name) || pointer_to(&first_text.text, &cand.name) {
                    return None;
                }
                let shown = self.shown(&first.path);
                let overlap_bytes = overlap(&first_text.text, &text.text);
                Some((
                    Detail::TwoSources {
                        sibling: shown.clone(),
                        overlap_bytes,
                    },
                    format!(
                        "two sources of truth: differs from {shown} and both load; {overlap_bytes} bytes of overlapping instructions"
                    ),
                    format!(
                        "merge {file} into {shown} and make it a symlink to it (or a pointer: @{})",
                        first.name
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

/// The `--warn-at` warning of a session of `shown_dir` that gets `bytes`
/// of a budget `max_bytes` (the setting named `setting`), when that reaches
/// `percent`% of it and fits.
pub(crate) fn near_budget(
    percent: u32,
    bytes: usize,
    max_bytes: crate::jsnum::MaxBytes,
    shown_dir: &str,
    setting: &str,
) -> Option<Found> {
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
    let message = format!(
        "near budget: a session in {shown_dir} gets {bytes} of max {max_bytes} bytes ({share}%, warn at {percent}%), {headroom} bytes of headroom"
    );
    let hint = format!(
        "{} bytes of headroom left: cut from what a session in {shown_dir} loads before it grows, or raise {setting} (now {})",
        budget::thousands(u64::try_from(headroom).unwrap_or(0)),
        budget::budget(max_bytes)
    );
    let detail = Detail::NearBudget {
        bytes,
        max_bytes,
        percent: u32::try_from(share).unwrap_or(u32::MAX),
    };
    Some((detail, message, hint))
}

/// The larger excess, the earlier cut on a tie.
fn max_worst(a: Option<(usize, usize)>, b: Option<(usize, usize)>) -> Option<(usize, usize)> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.0 > x.0 || (y.0 == x.0 && y.1 < x.1) {
            y
        } else {
            x
        }),
        (x, None) => x,
        (None, y) => y,
    }
}

fn fb_shown(view: &View<'_>, pos: usize) -> String {
    view.at(pos).2.shown.to_string()
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
            format!("remove or reword the </system-reminder> on line {line}"),
        ));
    }
    if js_trim(text).is_empty() {
        let whitespace = !text.is_empty();
        let message = if whitespace {
            "only whitespace: sessions get an empty section"
        } else {
            "empty file: sessions get an empty section"
        };
        found.push((
            Detail::Empty { whitespace },
            message.to_owned(),
            "add instructions to it, or delete it".to_owned(),
        ));
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

/// The sibling a file named `name` in `dir` names when its whole (trimmed)
/// content is the name of another regular file there: a symlink checked
/// out as a text stub.
#[must_use]
pub fn stub_target(dir: &Path, name: &str, text: &str) -> Option<String> {
    let target = js_trim(text);
    if !is_plain_name(target) || target.len() > 255 || target.contains(['\n', '\r', '\0']) {
        return None;
    }
    if target == name {
        return None;
    }
    fs::metadata(dir.join(target))
        .ok()
        .filter(fs::Metadata::is_file)
        .map(|_| target.to_owned())
}

/// The symlink-stub finding: the whole content is the name of `sibling`
/// (shown), so `who` (`sessions`, `codex`) get the name instead.
#[must_use]
pub fn stub_finding(sibling: &str, who: &str) -> Found {
    (
        Detail::SymlinkStub {
            sibling: sibling.to_owned(),
        },
        format!(
            "symlink checked out as text: the whole content is the name of its sibling {sibling}, so {who} get the name instead of the instructions"
        ),
        format!(
            "check it out as a symlink (git config core.symlinks true, then check out again), or replace the text with {sibling}'s content"
        ),
    )
}

/// Longest text (trimmed) a pointer stub may have: a line or two of
/// boilerplate around the reference.
pub const POINTER_MAX: usize = 512;

/// Whether `text` is a pointer to the file named `sibling`: a short file
/// that defers to it, as `@AGENTS.md` (Claude Code's import), `See
/// AGENTS.md.`, `[AGENTS.md](./AGENTS.md)` or a heading and a line naming
/// it, and so no second source of truth. That is: at most [`POINTER_MAX`]
/// bytes once trimmed, naming `sibling` as a word of its own (after `@`,
/// `./`, `(`, `[`, a quote or a space; before punctuation, a space or the
/// end), not as part of a longer path.
#[must_use]
pub fn pointer_to(text: &str, sibling: &str) -> bool {
    let text = js_trim(text);
    if text.len() > POINTER_MAX || sibling.is_empty() || text == sibling {
        return false;
    }
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(i) = text[from..].find(sibling) {
        let at = from + i;
        let end = at + sibling.len();
        let before = &text[..at];
        let before = before.strip_suffix("./").unwrap_or(before);
        let opens = before
            .chars()
            .next_back()
            .is_none_or(|c| c.is_whitespace() || "@([<`\"'".contains(c));
        let closes = bytes
            .get(end)
            .is_none_or(|&b| b.is_ascii_whitespace() || b".,;:!?)]>`\"'#".contains(&b));
        if opens && closes {
            return true;
        }
        from = at + 1;
    }
    false
}

/// Where a symlinked candidate resolves, as the probe recorded it
/// ([`Symlink`](crate::discovery::Symlink)): a secret location is an
/// error when the candidate is `readable` (a regular file: where it is
/// read), outside the project root (`shown_root`) a warning; `who` reads
/// it (`sessions`, `codex`). The one wording for dsh and every profile.
#[must_use]
pub fn link_finding(
    link: &crate::discovery::Symlink,
    readable: bool,
    shown_root: Option<&str>,
    who: &str,
) -> Option<Found> {
    let target = link.target.clone();
    let resolved = link
        .resolved
        .as_deref()
        .map_or_else(String::new, |r| r.to_string_lossy().into_owned());
    let fix = "replace the symlink with a regular file that holds only instructions";
    match link.place {
        place if readable && place.is_secret() => {
            // A path under /proc names a process: the link text says it.
            let message = match place {
                Place::System => format!(
                    "symlink to a secret: points to {target}, in /proc, /sys or /dev, so {who} send what it holds to the model"
                ),
                Place::Home => format!(
                    "symlink to a secret: points to {target}, which resolves to {resolved} in the home directory outside the project, so {who} send what it holds to the model"
                ),
                _ if resolved == target => format!(
                    "symlink to a secret: points to {target}, {}, so {who} send what it holds to the model",
                    place.words()
                ),
                _ => format!(
                    "symlink to a secret: points to {target}, which resolves to {resolved} {}, so {who} send what it holds to the model",
                    place.words()
                ),
            };
            let detail = Detail::SecretSymlink {
                target,
                resolved,
                place: place.name(),
            };
            Some((detail, message, fix.to_owned()))
        }
        Place::GitDir | Place::Credentials if link.outside_root != Some(true) => None,
        Place::Outside
        | Place::System
        | Place::Home
        | Place::Secrets
        | Place::GitDir
        | Place::Credentials => {
            let shown_root = shown_root?.to_owned();
            let message = format!(
                "symlink leaves the project: points to {target}, which resolves outside its project root ({shown_root})"
            );
            let hint = format!(
                "copy the instructions into the project, or point the link at a file inside its project root ({shown_root}), so that every checkout gets the same text"
            );
            let detail = Detail::SymlinkLeavesTree {
                target,
                project_root: shown_root,
            };
            Some((detail, message, hint))
        }
        Place::Inside | Place::Unknown => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn overlap_counts_the_lines_both_files_hold() {
        assert_eq!(overlap("a\nshared line\n\nb\n", "shared line\nc\n  \n"), 11);
        assert_eq!(overlap("x\n", "y\n"), 0);
    }
}
