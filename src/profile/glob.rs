//! opencode's `instructions` globs (SPEC 10.5.6): node-glob with `dot: true`,
//! `nodir: true` and `follow: false`, as opencode 1.18.33 calls it.
//!
//! A pattern is brace-expanded (`{a,b}`, `{1..3}`, `{a..c}`), split on `/`
//! and matched one segment per directory level: `*`, `?`, `[...]` (with `!`
//! or `^` negation, ranges and POSIX classes), `\` escapes, and `**` for any
//! number of directories. Dotfiles match; directories never do (a link
//! counts as a file, whatever it points to). Literal and wildcard segments
//! go through linked directories; a `**` only when it is neither the
//! pattern's first segment nor its last, and the link then takes the `**`'s
//! place (observed on opencode 1.18.33, realagents cases
//! `oc-glob-star-link-dir`, `oc-glob-leading-star-link`,
//! `oc-glob-last-star-links`). The matches of one directory
//! come in the reverse of the order the OS lists it; deeper matches follow
//! breadth first (opencode's own order there depends on the timing of its
//! parallel reads: [`Matches::timing`] says when that can matter).

use std::collections::{HashSet, VecDeque};
use std::fs::FileType;
use std::path::{Path, PathBuf};

/// One token of a segment.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Char(char),
    /// `?`: one character.
    One,
    /// `*`: any run of characters.
    Any,
    /// `[...]`: one character in (or, negated, not in) the set.
    Class {
        negated: bool,
        items: Vec<Item>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Item {
    Char(char),
    Range(char, char),
    Posix(&'static str),
}

/// One `/`-separated segment of a pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Seg {
    /// No magic: looked up by name (`.` and `..` included).
    Literal(String),
    Glob(Vec<Tok>),
    /// `**` alone: zero or more directories.
    Globstar,
}

/// What a pattern matched in one directory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Matches {
    pub files: Vec<PathBuf>,
    /// The pattern has magic before its last segment (or a `**`) and
    /// matched more than one file: opencode's order among them is not fixed.
    pub timing: bool,
}

/// Whether `pattern` holds glob magic (`*`, `?`, a class, a brace set).
#[must_use]
pub fn has_magic(pattern: &str) -> bool {
    let alts = expand_braces(pattern);
    alts.len() > 1
        || alts.iter().any(|a| {
            a.split('/')
                .any(|s| matches!(segment(s), Seg::Glob(_) | Seg::Globstar))
        })
}

/// Whether `pattern` uses an extglob (`+(a|b)`, `!(x)`, ...), which agentctx
/// does not model.
#[must_use]
pub fn has_extglob(pattern: &str) -> bool {
    let b = pattern.as_bytes();
    b.windows(2)
        .any(|w| matches!(w[0], b'+' | b'*' | b'?' | b'@' | b'!') && w[1] == b'(')
}

/// The files `pattern` (relative) matches under `dir`, in opencode's order.
#[must_use]
pub fn glob(dir: &Path, pattern: &str) -> Matches {
    if pattern.is_empty() || pattern.ends_with('/') {
        // A trailing `/` matches directories only, and nodir drops them.
        return Matches::default();
    }
    let alts: Vec<Vec<Seg>> = expand_braces(pattern)
        .iter()
        .map(|alt| {
            let alt = alt.strip_prefix("./").unwrap_or(alt);
            alt.split('/')
                .filter(|s| !s.is_empty())
                .map(segment)
                .collect()
        })
        .filter(|segs: &Vec<Seg>| !segs.is_empty())
        .collect();
    let deep = alts.iter().any(|segs| {
        segs.contains(&Seg::Globstar)
            || segs[..segs.len() - 1]
                .iter()
                .any(|s| !matches!(s, Seg::Literal(_)))
    });
    let files = walk(dir, &alts);
    Matches {
        timing: deep && files.len() > 1,
        files,
    }
}

/// A state: alternative `.0` has matched its first `.1` segments.
type State = (usize, usize);

fn closure(alts: &[Vec<Seg>], states: impl IntoIterator<Item = State>) -> Vec<State> {
    let mut out: Vec<State> = Vec::new();
    let mut stack: Vec<State> = states.into_iter().collect();
    while let Some(s) = stack.pop() {
        if out.contains(&s) {
            continue;
        }
        out.push(s);
        if alts[s.0].get(s.1) == Some(&Seg::Globstar) {
            stack.push((s.0, s.1 + 1));
        }
    }
    out
}

/// Breadth-first walk from `dir` with every alternative at once.
fn walk(dir: &Path, alts: &[Vec<Seg>]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let start = closure(alts, (0..alts.len()).map(|a| (a, 0)));
    let mut queue: VecDeque<(PathBuf, Vec<State>)> = VecDeque::from([(dir.to_path_buf(), start)]);
    while let Some((here, states)) = queue.pop_front() {
        let live: Vec<State> = states
            .iter()
            .copied()
            .filter(|(a, i)| *i < alts[*a].len())
            .collect();
        if live.is_empty() {
            continue;
        }
        for (name, ftype) in entries(&here, alts, &live) {
            let path = here.join(&name);
            let mut by_seg: Vec<State> = Vec::new();
            let mut by_star: Vec<State> = Vec::new();
            let mut accept = false;
            for &(a, i) in &live {
                let segs = &alts[a];
                match &segs[i] {
                    Seg::Globstar => {
                        by_star.push((a, i));
                        if i + 1 == segs.len() {
                            accept = true;
                        }
                    }
                    seg if seg_matches(seg, &name) => by_seg.push((a, i + 1)),
                    _ => {}
                }
            }
            let by_seg = closure(alts, by_seg);
            accept |= by_seg.iter().any(|(a, i)| *i == alts[*a].len());
            let is_link = ftype.is_some_and(|t| t.is_symlink());
            let real_dir = ftype.is_some_and(|t| t.is_dir());
            if accept && !real_dir && seen.insert(path.clone()) {
                out.push(crate::paths::normalize(Path::new("/"), &path));
            }
            let mut next: Vec<State> = Vec::new();
            let any_live = |s: &[State]| s.iter().any(|(a, i)| *i < alts[*a].len());
            if any_live(&by_seg) && (real_dir || is_link && path.is_dir()) {
                next.extend(by_seg);
            }
            if real_dir {
                next.extend(by_star);
            } else if is_link && path.is_dir() {
                // A `**` that is neither the pattern's first segment nor its
                // last follows a linked directory, which then takes its
                // place (only the rest applies inside).
                next.extend(
                    by_star
                        .into_iter()
                        .filter(|(a, i)| *i > 0 && i + 1 < alts[*a].len())
                        .map(|(a, i)| (a, i + 1)),
                );
            }
            if !next.is_empty() {
                queue.push_back((path, closure(alts, next)));
            }
        }
    }
    out
}

/// The entries of `here` the live states look at, each with its type by
/// `lstat`: the listing (reversed) when a state needs one, and literal names
/// looked up directly.
fn entries(here: &Path, alts: &[Vec<Seg>], live: &[State]) -> Vec<(String, Option<FileType>)> {
    let listed = live
        .iter()
        .any(|(a, i)| !matches!(alts[*a][*i], Seg::Literal(_)));
    // (name, type by lstat)
    let mut entries: Vec<(String, Option<FileType>)> = Vec::new();
    if listed {
        if let Ok(rd) = crate::bounded::read_dir(here) {
            let mut names: Vec<(String, Option<FileType>)> = rd
                .filter_map(Result::ok)
                .map(|e| {
                    (
                        e.file_name().to_string_lossy().into_owned(),
                        e.file_type().ok(),
                    )
                })
                .collect();
            names.reverse();
            entries = names;
        }
    }
    // Literal names a listing does not hold (`.`, `..`), or every
    // literal when nothing needs a listing: looked up directly.
    for (a, i) in live {
        if let Seg::Literal(name) = &alts[*a][*i] {
            if (!listed || name == "." || name == "..") && !entries.iter().any(|(n, _)| n == name) {
                if let Ok(meta) = crate::bounded::symlink_metadata(here.join(name)) {
                    entries.push((name.clone(), Some(meta.file_type())));
                }
            }
        }
    }
    entries
}

fn seg_matches(seg: &Seg, name: &str) -> bool {
    match seg {
        Seg::Literal(lit) => lit == name,
        Seg::Glob(toks) => {
            let chars: Vec<char> = name.chars().collect();
            toks_match(toks, &chars)
        }
        Seg::Globstar => true,
    }
}

/// Iterative wildcard match with backtracking to the last `*`.
fn toks_match(toks: &[Tok], s: &[char]) -> bool {
    let (mut t, mut i) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while i < s.len() {
        match toks.get(t) {
            Some(Tok::Any) => {
                star = Some((t, i));
                t += 1;
            }
            Some(tok) if one_matches(tok, s[i]) => {
                t += 1;
                i += 1;
            }
            _ => match star {
                Some((st, si)) => {
                    t = st + 1;
                    i = si + 1;
                    star = Some((st, si + 1));
                }
                None => return false,
            },
        }
    }
    toks[t..].iter().all(|x| *x == Tok::Any)
}

fn one_matches(tok: &Tok, c: char) -> bool {
    match tok {
        Tok::Char(x) => *x == c,
        Tok::One => true,
        Tok::Any => false,
        Tok::Class { negated, items } => {
            let hit = items.iter().any(|item| match item {
                Item::Char(x) => *x == c,
                Item::Range(lo, hi) => *lo <= c && c <= *hi,
                Item::Posix(class) => posix(class, c),
            });
            hit != *negated
        }
    }
}

fn posix(class: &str, c: char) -> bool {
    match class {
        "alnum" => c.is_alphanumeric(),
        "alpha" => c.is_alphabetic(),
        "ascii" => c.is_ascii(),
        "blank" => c == ' ' || c == '\t',
        "cntrl" => c.is_control(),
        "digit" => c.is_ascii_digit(),
        "graph" => !c.is_whitespace() && !c.is_control(),
        "lower" => c.is_lowercase(),
        "print" => !c.is_control(),
        "punct" => c.is_ascii_punctuation(),
        "space" => c.is_whitespace(),
        "upper" => c.is_uppercase(),
        "word" => c.is_alphanumeric() || c == '_',
        "xdigit" => c.is_ascii_hexdigit(),
        _ => false,
    }
}

const POSIX: [&str; 14] = [
    "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct",
    "space", "upper", "word", "xdigit",
];

/// Parses one segment.
fn segment(text: &str) -> Seg {
    if text == "**" {
        return Seg::Globstar;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut toks = Vec::new();
    let mut magic = false;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' if i + 1 < chars.len() => {
                toks.push(Tok::Char(chars[i + 1]));
                i += 2;
                continue;
            }
            '*' => {
                magic = true;
                if toks.last() != Some(&Tok::Any) {
                    toks.push(Tok::Any);
                }
            }
            '?' => {
                magic = true;
                toks.push(Tok::One);
            }
            '[' => {
                if let Some((tok, end)) = class(&chars, i) {
                    magic = true;
                    toks.push(tok);
                    i = end;
                    continue;
                }
                toks.push(Tok::Char('['));
            }
            c => toks.push(Tok::Char(c)),
        }
        i += 1;
    }
    if magic {
        Seg::Glob(toks)
    } else {
        Seg::Literal(
            toks.iter()
                .map(|t| match t {
                    Tok::Char(c) => *c,
                    _ => '?',
                })
                .collect(),
        )
    }
}

/// A `[...]` class starting at `start`: the token and the index after `]`;
/// None when it does not close (the `[` is then a plain character).
fn class(chars: &[char], start: usize) -> Option<(Tok, usize)> {
    let mut i = start + 1;
    let negated = matches!(chars.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut items = Vec::new();
    let first = i;
    while i < chars.len() {
        let c = chars[i];
        if c == ']' && i > first {
            return Some((Tok::Class { negated, items }, i + 1));
        }
        if c == '[' && chars.get(i + 1) == Some(&':') {
            let rest: String = chars[i + 2..].iter().collect();
            if let Some(name) = POSIX.iter().find(|n| rest.starts_with(&format!("{n}:]"))) {
                items.push(Item::Posix(name));
                i += name.len() + 4;
                continue;
            }
        }
        let c = if c == '\\' && i + 1 < chars.len() {
            i += 1;
            chars[i]
        } else {
            c
        };
        if chars.get(i + 1) == Some(&'-') && chars.get(i + 2).is_some_and(|x| *x != ']') {
            let hi = chars[i + 2];
            items.push(Item::Range(c, hi));
            i += 3;
        } else {
            items.push(Item::Char(c));
            i += 1;
        }
    }
    None
}

/// Brace expansion as the `brace-expansion` package does it: the first set
/// with a top-level comma (or a `x..y` sequence) expands, left to right; a
/// set without either stays literal.
#[must_use]
pub fn expand_braces(pattern: &str) -> Vec<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                i += 2;
                continue;
            }
            '{' => {
                if let Some((close, alts)) = brace_set(&chars, i) {
                    let pre: String = chars[..i].iter().collect();
                    let post: String = chars[close + 1..].iter().collect();
                    let posts = expand_braces(&post);
                    let mut out = Vec::new();
                    for alt in alts {
                        for a in expand_braces(&alt) {
                            for p in &posts {
                                out.push(format!("{pre}{a}{p}"));
                            }
                        }
                    }
                    return out;
                }
            }
            _ => {}
        }
        i += 1;
    }
    vec![pattern.to_owned()]
}

/// The set opening at `open`: the index of its `}` and its alternatives.
fn brace_set(chars: &[char], open: usize) -> Option<(usize, Vec<String>)> {
    let mut depth = 0;
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut i = open + 1;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if i + 1 < chars.len() => {
                current.push(c);
                current.push(chars[i + 1]);
                i += 2;
                continue;
            }
            '{' => depth += 1,
            '}' if depth == 0 => {
                parts.push(current);
                if parts.len() > 1 {
                    return Some((i, parts));
                }
                return sequence(&parts[0]).map(|alts| (i, alts));
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut current));
                i += 1;
                continue;
            }
            _ => {}
        }
        current.push(c);
        i += 1;
    }
    None
}

/// `a..b` (numbers, or single letters), with an optional `..step`.
fn sequence(body: &str) -> Option<Vec<String>> {
    let bits: Vec<&str> = body.split("..").collect();
    if !(2..=3).contains(&bits.len()) {
        return None;
    }
    let step: i64 = match bits.get(2) {
        Some(s) => s.parse::<i64>().ok()?.checked_abs()?.max(1),
        None => 1,
    };
    if let (Ok(a), Ok(b)) = (bits[0].parse::<i64>(), bits[1].parse::<i64>()) {
        let width = if [bits[0], bits[1]].iter().any(|s| {
            s.trim_start_matches('-').len() > 1 && s.trim_start_matches('-').starts_with('0')
        }) {
            bits[0].len().max(bits[1].len())
        } else {
            0
        };
        let mut out = Vec::new();
        let mut n = a;
        while if a <= b { n <= b } else { n >= b } {
            out.push(format!("{n:0width$}"));
            if out.len() > 10_000 {
                return None;
            }
            n = if a <= b { n + step } else { n - step };
        }
        return Some(out);
    }
    let (a, b) = (single(bits[0])?, single(bits[1])?);
    let (lo, hi) = (u32::from(a), u32::from(b));
    let step = u32::try_from(step).ok()?;
    let mut out = Vec::new();
    let mut n = lo;
    while if lo <= hi { n <= hi } else { n >= hi } {
        out.push(char::from_u32(n)?.to_string());
        if lo <= hi {
            n += step;
        } else {
            match n.checked_sub(step) {
                Some(x) => n = x,
                None => break,
            }
        }
    }
    Some(out)
}

fn single(s: &str) -> Option<char> {
    let mut it = s.chars();
    let c = it.next()?;
    (it.next().is_none() && c.is_ascii_alphabetic()).then_some(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn braces_expand_like_brace_expansion() {
        assert_eq!(expand_braces("{a,b}.md"), ["a.md", "b.md"]);
        assert_eq!(expand_braces("x{a,b}{1,2}"), ["xa1", "xa2", "xb1", "xb2"]);
        assert_eq!(expand_braces("{a,{b,c}}"), ["a", "b", "c"]);
        assert_eq!(expand_braces("{a}"), ["{a}"]);
        assert_eq!(expand_braces("{a"), ["{a"]);
        assert_eq!(expand_braces("{1..3}"), ["1", "2", "3"]);
        assert_eq!(expand_braces("{c..a}"), ["c", "b", "a"]);
        assert_eq!(expand_braces("{a{b,c}}"), ["{ab}", "{ac}"]);
        assert_eq!(expand_braces("\\{a,b}"), ["\\{a,b}"]);
    }

    #[test]
    fn segments_match_like_minimatch() {
        let m = |p: &str, n: &str| seg_matches(&segment(p), n);
        assert!(m("*.md", ".hidden.md"));
        assert!(m("t?o.md", "two.md"));
        assert!(!m("t?o.md", "to.md"));
        assert!(m("[m]d", "md"));
        assert!(m("[!a]x", "bx"));
        assert!(!m("[!a]x", "ax"));
        assert!(m("[a-c]", "b"));
        assert!(m("[[:digit:]]*", "7up"));
        assert!(m("\\*", "*"));
        assert!(!m("\\*", "x"));
        assert!(m("a*b*c", "aXbYbc"));
        assert!(m("[", "["));
        assert_eq!(segment("plain.md"), Seg::Literal("plain.md".into()));
        assert!(has_magic("{a,b}.md") && has_magic("d/**") && !has_magic("a/b.md"));
        assert!(has_extglob("+(a|b).md") && !has_extglob("a(b).md"));
    }

    #[test]
    fn walks_breadth_first_without_directories_or_linked_globstar() {
        let t = tempfile::tempdir().unwrap();
        let top = std::fs::canonicalize(t.path()).unwrap();
        let mk = |p: &str| {
            let p = top.join(p);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "x").unwrap();
        };
        mk("d/a.md");
        mk("d/x/y/deep.md");
        mk("other/z.md");
        std::fs::create_dir_all(top.join("d/dir.md")).unwrap();
        std::os::unix::fs::symlink(top.join("other"), top.join("d/ln")).unwrap();
        std::os::unix::fs::symlink(top.join("other/z.md"), top.join("d/l.md")).unwrap();
        std::os::unix::fs::symlink(top.join("d/x"), top.join("other/back")).unwrap();
        let got = glob(&top, "d/**/*.md");
        let mut first: Vec<PathBuf> = got.files[..2].to_vec();
        first.sort();
        assert_eq!(first, [top.join("d/a.md"), top.join("d/l.md")]);
        // The link d/ln takes the `**`: only `*.md` applies inside it, so
        // other/back is not followed.
        let mut rest: Vec<PathBuf> = got.files[2..].to_vec();
        rest.sort();
        assert_eq!(rest, [top.join("d/ln/z.md"), top.join("d/x/y/deep.md")]);
        assert!(got.timing);
        let leading = glob(&top.join("d"), "**/z.md");
        assert_eq!(leading.files, Vec::<PathBuf>::new());
        let mut last = glob(&top, "d/**").files;
        last.sort();
        assert_eq!(
            last,
            [
                top.join("d/a.md"),
                top.join("d/l.md"),
                top.join("d/ln"),
                top.join("d/x/y/deep.md")
            ]
        );
        assert_eq!(glob(&top, "d/ln/*.md").files, [top.join("d/ln/z.md")]);
        assert_eq!(
            glob(&top, "d/x/y/deep.md").files,
            [top.join("d/x/y/deep.md")]
        );
        assert_eq!(glob(&top, "d/../d/a.md").files, [top.join("d/a.md")]);
        assert_eq!(glob(&top, "d/"), Matches::default());
        let one = glob(&top, "d/*/y/*.md");
        assert_eq!(
            (one.files, one.timing),
            (vec![top.join("d/x/y/deep.md")], false)
        );
    }
}
