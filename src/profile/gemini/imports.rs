//! Gemini's `@file` imports (SPEC 10.4 rule 9): tokens, code regions, the
//! traversal check against the real import root, the cycle check, Node's
//! error messages, and depth 5.

use std::collections::{HashMap, HashSet};
use std::io;
use std::path::{Component, Path, PathBuf};

use super::super::{ImportProblem, Note, NoteKind, Via};
use crate::paths;

/// The deepest import level that is still expanded.
pub const MAX_DEPTH: usize = 5;

/// Bytes one memory file's expansion may produce before agentctx stops
/// expanding its imports (k imports per file over five levels is k^5
/// copies): 16 MiB, 256 times codex's default budget and as much as one
/// file may hold. Past it the rest of the `@` tokens stay as written, with
/// a note, and the profile is no longer exact.
pub const MAX_EXPANDED_BYTES: usize = 16 << 20;

/// One `@path` token: byte range of `@path` and the path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub start: usize,
    pub end: usize,
    pub path: String,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The import tokens: `@` at the start or after space, tab, CR or LF, up to
/// the next of those; the path must start with `.`, `/` or an ASCII letter.
#[must_use]
pub fn tokens(content: &str) -> Vec<Token> {
    let bytes = content.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(at) = memchr::memchr(b'@', &bytes[i.min(bytes.len())..]).map(|o| o + i) {
        if at > 0 && !is_space(bytes[at - 1]) {
            i = at + 1;
            continue;
        }
        let mut j = at + 1;
        while j < bytes.len() && !is_space(bytes[j]) {
            j += 1;
        }
        let path = &content[at + 1..j];
        if path
            .bytes()
            .next()
            .is_some_and(|c| c == b'.' || c == b'/' || c.is_ascii_alphabetic())
        {
            out.push(Token {
                start: at,
                end: j,
                path: path.to_owned(),
            });
        }
        i = j + 1;
    }
    out
}

/// The matches of ``/(`+)([\s\S]*?)\1/g`` as byte ranges, with the regex's
/// backtracking: at each start the longest opening run is tried first, then
/// shorter ones; a closing run may be part of a longer run.
#[must_use]
pub fn code_regions(content: &str) -> Vec<(usize, usize)> {
    let bytes = content.as_bytes();
    // Runs of backticks: (start, len), and for each run the longest run at
    // or after it, to skip opening lengths that cannot close.
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut k = 0;
    while k < bytes.len() {
        if bytes[k] == b'`' {
            let s = k;
            while k < bytes.len() && bytes[k] == b'`' {
                k += 1;
            }
            runs.push((s, k - s));
        } else {
            k += 1;
        }
    }
    let mut longest_after = vec![0; runs.len() + 1];
    for r in (0..runs.len()).rev() {
        longest_after[r] = longest_after[r + 1].max(runs[r].1);
    }
    let mut regions = Vec::new();
    let mut pos = 0;
    let mut r = 0;
    while r < runs.len() {
        let (rs, rl) = runs[r];
        let start = rs.max(pos);
        if start >= rs + rl {
            r += 1;
            continue;
        }
        let mut matched = None;
        for open in start..rs + rl {
            let avail = rs + rl - open;
            for n in (1..=avail).rev() {
                if let Some(e) = find_ticks(&runs, &longest_after, r, open + n, n) {
                    matched = Some((open, e + n));
                    break;
                }
            }
            if matched.is_some() {
                break;
            }
        }
        match matched {
            Some((s, e)) => {
                regions.push((s, e));
                pos = e;
                while r < runs.len() && runs[r].0 + runs[r].1 <= pos {
                    r += 1;
                }
            }
            None => r += 1,
        }
    }
    regions
}

/// The first index `e >= from` with `n` backticks at `e..e+n`, searching
/// runs from index `r`.
fn find_ticks(
    runs: &[(usize, usize)],
    longest_after: &[usize],
    r: usize,
    from: usize,
    n: usize,
) -> Option<usize> {
    let mut i = r;
    while i < runs.len() {
        let (rs, rl) = runs[i];
        let s = rs.max(from);
        if s + n <= rs + rl {
            return Some(s);
        }
        if longest_after[i + 1] < n {
            return None;
        }
        i += 1;
    }
    None
}

/// `decodeURIComponent`, or None when it would throw.
#[must_use]
pub fn decode_uri_component(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_owned());
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The real path of `path`, resolving a missing tail through its parents
/// and following dangling links.
#[must_use]
pub fn real_path(path: &Path) -> PathBuf {
    real_path_bounded(path, 40)
}

fn real_path_bounded(path: &Path, links: usize) -> PathBuf {
    if let Ok(real) = crate::bounded::canonicalize(path) {
        return real;
    }
    if links > 0 {
        if let Ok(target) = std::fs::read_link(path) {
            let parent = path.parent().unwrap_or(Path::new("/"));
            return real_path_bounded(&paths::normalize(parent, &target), links - 1);
        }
    }
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) => real_path_bounded(parent, links).join(name),
        _ => path.to_path_buf(),
    }
}

/// Node's `isSubpath`: `path.relative(parent, child)` is not absolute and
/// does not start with `..`.
#[must_use]
pub fn is_subpath(parent: &Path, child: &Path) -> bool {
    match child.strip_prefix(parent) {
        Ok(rel) => match rel.components().next() {
            Some(Component::Normal(n)) => !n.to_string_lossy().starts_with(".."),
            Some(Component::ParentDir) => false,
            _ => true,
        },
        Err(_) => false,
    }
}

/// Node's error message for a failed `fs.access` or `fs.readFile`.
fn node_message(err: &io::Error, syscall: &str, path: &str) -> String {
    let code = err.raw_os_error();
    let (name, text) = match code {
        Some(libc::ENOENT) => ("ENOENT", "no such file or directory"),
        Some(libc::EACCES) => ("EACCES", "permission denied"),
        Some(libc::ELOOP) => ("ELOOP", "too many symbolic links encountered"),
        Some(libc::ENOTDIR) => ("ENOTDIR", "not a directory"),
        Some(libc::ENAMETOOLONG) => ("ENAMETOOLONG", "name too long"),
        Some(libc::EISDIR) => return "EISDIR: illegal operation on a directory, read".to_owned(),
        _ => return err.to_string(),
    };
    format!("{name}: {text}, {syscall} '{path}'")
}

/// Expands the imports of one memory file.
#[derive(Debug)]
pub struct Expander<'a> {
    /// The memory file, for notes.
    file: String,
    real_root: PathBuf,
    pub notes: &'a mut Vec<Note>,
    /// What reading each import gave (text, or Node's message): a file
    /// imported many times is read and checked once.
    reads: HashMap<PathBuf, Result<String, String>>,
    /// Traversal answers per (token, base directory).
    traversals: HashMap<(String, PathBuf), bool>,
    /// Bytes of content expanded so far (against [`MAX_EXPANDED_BYTES`]).
    expanded: usize,
    /// Whether the cap was reached: the rest is left as written.
    pub capped: bool,
}

impl<'a> Expander<'a> {
    /// `file`'s import root: the nearest ancestor of its directory holding a
    /// marker, else that directory; compared by real path.
    pub fn new(file: &Path, markers: &[String], notes: &'a mut Vec<Note>) -> Self {
        let dir = file.parent().unwrap_or(Path::new("/"));
        let root = super::find_root(dir, markers).unwrap_or_else(|| dir.to_path_buf());
        Expander {
            file: super::super::show(file),
            real_root: crate::bounded::canonicalize(&root).unwrap_or(root),
            notes,
            reads: HashMap::new(),
            traversals: HashMap::new(),
            expanded: 0,
            capped: false,
        }
    }

    fn note(&mut self, token: &str, problem: ImportProblem) {
        self.notes.push(Note {
            path: self.file.clone(),
            kind: NoteKind::Import {
                token: token.to_owned(),
                problem,
            },
        });
    }

    /// Expands `content` found in directory `base` at `depth`; `chain` holds
    /// the absolute paths imported on the way here.
    pub fn expand(
        &mut self,
        content: &str,
        base: &Path,
        depth: usize,
        chain: &mut HashSet<PathBuf>,
    ) -> String {
        let tokens = tokens(content);
        let regions = code_regions(content);
        self.expanded = self.expanded.saturating_add(content.len());
        if depth >= MAX_DEPTH {
            let live = tokens.iter().find(|t| !in_region(&regions, t.start));
            if let Some(t) = live {
                self.note(&t.path, ImportProblem::DepthLimit);
            }
            return content.to_owned();
        }
        let mut out = String::with_capacity(content.len());
        let mut last = 0;
        for t in &tokens {
            out.push_str(&content[last..t.start]);
            last = t.end;
            if in_region(&regions, t.start) || self.capped {
                out.push('@');
                out.push_str(&t.path);
                continue;
            }
            if self.expanded > MAX_EXPANDED_BYTES {
                self.capped = true;
                self.note(
                    &t.path,
                    ImportProblem::Failed(format!(
                        "not expanded: this file's imports pass {MAX_EXPANDED_BYTES} bytes, the most agentctx expands; the rest stay as written"
                    )),
                );
                out.push('@');
                out.push_str(&t.path);
                continue;
            }
            out.push_str(&self.import(&t.path, base, depth, chain));
        }
        out.push_str(&content[last..]);
        out
    }

    fn import(
        &mut self,
        token: &str,
        base: &Path,
        depth: usize,
        chain: &mut HashSet<PathBuf>,
    ) -> String {
        if self.traversal(token, base) {
            self.note(token, ImportProblem::Traversal);
            return format!("<!-- Import failed: {token} - Path traversal attempt -->");
        }
        let full = paths::normalize(base, Path::new(token));
        if chain.contains(&full) {
            self.note(token, ImportProblem::Cycle);
            return format!("<!-- File already processed: {token} -->");
        }
        let read = if let Some(read) = self.reads.get(&full) {
            read.clone()
        } else {
            let read = read_import(&full);
            // Said once per file read, however often it is imported.
            if read.is_ok() {
                if let Some((real, place)) = super::super::secret_of(&full) {
                    self.notes.push(Note {
                        path: self.file.clone(),
                        kind: NoteKind::Secret {
                            real,
                            place,
                            via: Via::Import(token.to_owned()),
                        },
                    });
                }
            }
            self.reads.insert(full.clone(), read.clone());
            read
        };
        match read {
            Err(message) => {
                self.note(token, ImportProblem::Failed(message.clone()));
                format!("<!-- Import failed: {token} - {message} -->")
            }
            Ok(text) => {
                chain.insert(full.clone());
                let dir = full.parent().unwrap_or(Path::new("/")).to_path_buf();
                let inner = self.expand(&text, &dir, depth + 1, chain);
                chain.remove(&full);
                format!(
                    "<!-- Imported from: {token} -->\n{inner}\n<!-- End of import from: {token} -->"
                )
            }
        }
    }

    /// A URL, or a path whose real path leaves the real import root
    /// (asked once per token and base).
    fn traversal(&mut self, token: &str, base: &Path) -> bool {
        let key = (token.to_owned(), base.to_path_buf());
        if let Some(&answer) = self.traversals.get(&key) {
            return answer;
        }
        let answer = self.traversal_uncached(token, base);
        self.traversals.insert(key, answer);
        answer
    }

    fn traversal_uncached(&self, token: &str, base: &Path) -> bool {
        if ["file://", "http://", "https://"]
            .iter()
            .any(|scheme| token.starts_with(scheme))
        {
            return true;
        }
        let decoded = decode_uri_component(token).unwrap_or_else(|| token.to_owned());
        let resolved = paths::normalize(base, Path::new(&decoded));
        !is_subpath(&self.real_root, &real_path(&resolved))
    }
}

/// An import's text (lossy UTF-8), or Node's message for why not.
fn read_import(full: &Path) -> Result<String, String> {
    let shown = super::super::show(full);
    match crate::bounded::metadata(full) {
        Err(e) => Err(node_message(&e, "access", &shown)),
        Ok(m) if m.is_dir() => Err(node_message(
            &io::Error::from_raw_os_error(libc::EISDIR),
            "read",
            &shown,
        )),
        Ok(_) => super::super::read_file(full, None)
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
            .map_err(|e| node_message(&e, "open", &shown)),
    }
}

fn in_region(regions: &[(usize, usize)], at: usize) -> bool {
    let i = regions.partition_point(|(_, e)| *e <= at);
    regions.get(i).is_some_and(|(s, _)| *s <= at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths_of(content: &str) -> Vec<String> {
        tokens(content).into_iter().map(|t| t.path).collect()
    }

    #[test]
    fn tokens_need_a_boundary_and_a_path_start() {
        assert_eq!(
            paths_of("@a.md x@b.md @~/c @./d\r\n@/e\t@9"),
            ["a.md", "./d", "/e"]
        );
        assert_eq!(paths_of("@./a.md."), ["./a.md."]);
        assert_eq!(paths_of("\u{feff}@./a.md"), Vec::<String>::new());
        let t = &tokens("see @x.md\n")[0];
        assert_eq!((t.start, t.end), (4, 9));
    }

    #[test]
    fn code_regions_follow_the_regex() {
        assert_eq!(code_regions("a `b` c"), [(2, 5)]);
        assert_eq!(code_regions("```"), [(0, 2)]);
        assert_eq!(code_regions("``` a ``"), [(0, 8)]);
        assert_eq!(code_regions("x ` y `z`"), [(2, 7)]);
        assert_eq!(code_regions("~~~ a ~~~"), Vec::<(usize, usize)>::new());
        assert_eq!(code_regions("``a`b``"), [(0, 7)]);
        assert_eq!(code_regions("`a"), Vec::<(usize, usize)>::new());
    }

    #[test]
    fn regions_contain_starts() {
        let r = [(2, 5), (8, 9)];
        assert!(in_region(&r, 2) && in_region(&r, 4) && in_region(&r, 8));
        assert!(!in_region(&r, 5) && !in_region(&r, 0) && !in_region(&r, 9));
    }

    #[test]
    fn uri_decoding_falls_back_when_invalid() {
        assert_eq!(decode_uri_component("a%20b").as_deref(), Some("a b"));
        assert_eq!(decode_uri_component("%2e%2E/x").as_deref(), Some("../x"));
        assert_eq!(decode_uri_component("100%"), None);
        assert_eq!(decode_uri_component("%ff"), None);
    }

    #[test]
    fn subpaths_as_node_sees_them() {
        assert!(is_subpath(Path::new("/r"), Path::new("/r")));
        assert!(is_subpath(Path::new("/r"), Path::new("/r/a/b")));
        assert!(!is_subpath(Path::new("/r"), Path::new("/r2")));
        assert!(!is_subpath(Path::new("/r"), Path::new("/r/..x")));
        assert!(!is_subpath(Path::new("/r/a"), Path::new("/r")));
    }

    #[test]
    fn node_messages() {
        let e = io::Error::from_raw_os_error(libc::ENOENT);
        assert_eq!(
            node_message(&e, "access", "/p/a.md."),
            "ENOENT: no such file or directory, access '/p/a.md.'"
        );
        let e = io::Error::from_raw_os_error(libc::EISDIR);
        assert_eq!(
            node_message(&e, "read", "/p"),
            "EISDIR: illegal operation on a directory, read"
        );
    }
}
