//! A chain's loaded files, prepared once when their directory joins a
//! chain (sizes, shown paths, loss records), and a baseline as positions
//! over them: what the budget plan and the assembler read.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

use super::budget::Loss;
use super::chains::{Checker, Link};
use crate::discovery::{Candidate, Dir, Fate};
use crate::render::{self, Item};

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
pub(super) fn unindex(
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
pub(super) struct View<'a> {
    ug: Option<&'a Dir>,
    ug_files: &'a [Prepared],
    stack: &'a [Rc<Link>],
    pub n: usize,
}

impl<'a> View<'a> {
    /// The baseline of the chain ending in `chain`, once `stack` is it.
    pub(super) fn of(
        ug: Option<&'a Dir>,
        ug_files: &'a [Prepared],
        stack: &'a [Rc<Link>],
        chain: &Link,
    ) -> Self {
        View {
            ug,
            ug_files,
            stack,
            n: chain.before.files + chain.files.len(),
        }
    }

    /// The directory, candidate and prepared data at `pos`.
    pub(super) fn at(&self, pos: usize) -> (&'a Dir, &'a Candidate, &'a Prepared) {
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

    pub(super) fn text(&self, pos: usize) -> &'a str {
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
}
