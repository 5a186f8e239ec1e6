//! The top-level module graph of the crate keeps its direction (issue 23):
//! no cycle, nothing in the core naming `app`/`cli`/`cmd`/`output`, `output`
//! never naming `app`/`cli`/`cmd`, `cli` never naming `cmd`.
//!
//! A top-level module is `src/X.rs` or `src/X/`; an edge X -> Y is a
//! `crate::Y` path in X's files outside `#[cfg(test)]` modules and
//! `tests.rs`/`tests/` files. The violations that remain are listed in
//! `tests/modgraph.allow`; the test fails on any other one, and on a listed
//! one that is gone, so the list only shrinks.

#![allow(clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const UPPER: [&str; 4] = ["app", "cli", "cmd", "output"];
const ENTRY: [&str; 2] = ["lib", "main"];

type Edges = BTreeSet<(String, String)>;

/// The file without its `#[cfg(test)] mod NAME { ... }` blocks and comments.
fn strip(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "#[cfg(test)]".len()..];
        let trimmed = after.trim_start();
        let is_mod = trimmed.starts_with("mod ")
            || trimmed.starts_with("pub mod ")
            || trimmed.starts_with("pub(crate) mod ");
        match (is_mod, after.find(['{', ';'])) {
            (true, Some(open)) if after.as_bytes()[open] == b'{' => {
                let mut depth = 0usize;
                let mut end = after.len();
                for (i, c) in after[open..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = open + i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                rest = &after[end..];
            }
            _ => rest = after,
        }
    }
    out.push_str(rest);
    out.lines()
        .map(|l| l.split_once("//").map_or(l, |(code, _)| code))
        .collect::<Vec<_>>()
        .join("\n")
}

fn modules(src: &Path) -> BTreeMap<String, Vec<PathBuf>> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).expect("read src") {
            let path = entry.expect("entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if name != "tests" {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "rs") && name != "tests.rs" {
                out.push(path);
            }
        }
    }
    let mut mods = BTreeMap::new();
    for entry in fs::read_dir(src).expect("read src") {
        let path = entry.expect("entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if let Some(stem) = name.strip_suffix(".rs") {
            mods.entry(stem.to_owned())
                .or_insert_with(Vec::new)
                .push(path.clone());
        } else if path.is_dir() {
            let mut files = Vec::new();
            walk(&path, &mut files);
            mods.entry(name.to_owned())
                .or_insert_with(Vec::new)
                .extend(files);
        }
    }
    mods
}

/// Module names a text refers to as `crate::NAME` or inside `crate::{...}`.
fn targets(text: &str) -> BTreeSet<String> {
    let ident = |s: &str| {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect::<String>()
    };
    let mut out = BTreeSet::new();
    for (at, _) in text.match_indices("crate::") {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &text[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for item in group.split(',') {
                out.insert(ident(item.trim()));
            }
        } else {
            out.insert(ident(rest));
        }
    }
    out
}

fn edges(mods: &BTreeMap<String, Vec<PathBuf>>) -> Edges {
    let mut found = Edges::new();
    for (name, files) in mods {
        for file in files {
            let text = strip(&fs::read_to_string(file).expect("read"));
            for t in targets(&text) {
                if &t != name && mods.contains_key(&t) {
                    found.insert((name.clone(), t));
                }
            }
        }
    }
    found
}

/// The strongly connected components of more than one module.
fn cycles(mods: &BTreeMap<String, Vec<PathBuf>>, found: &Edges) -> Vec<BTreeSet<String>> {
    // Reachability by repeated search: the graph has a few dozen nodes.
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_owned()];
        while let Some(n) = stack.pop() {
            for (s, t) in found {
                if *s == n && seen.insert(t.clone()) {
                    stack.push(t.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> = mods.keys().map(|m| (m, reach(m))).collect();
    let mut out: Vec<BTreeSet<String>> = Vec::new();
    for m in mods.keys() {
        let comp: BTreeSet<String> = mods
            .keys()
            .filter(|n| *n == m || (reaches[m].contains(*n) && reaches[n].contains(m)))
            .cloned()
            .collect();
        if comp.len() > 1 && !out.contains(&comp) {
            out.push(comp);
        }
    }
    out
}

fn violations(found: &Edges, comps: &[BTreeSet<String>]) -> BTreeMap<(String, String), String> {
    let mut bad = BTreeMap::new();
    for (s, t) in found {
        if ENTRY.contains(&s.as_str()) {
            continue;
        }
        let upper = |m: &str| UPPER.contains(&m);
        let why = if !upper(s) && upper(t) {
            Some("the core names a layer above it".to_owned())
        } else if s == "output" && t != "output" && upper(t) {
            Some("output names a command layer".to_owned())
        } else if s == "cli" && t == "cmd" {
            Some("cli names cmd".to_owned())
        } else {
            comps
                .iter()
                .find(|c| c.contains(s) && c.contains(t))
                .map(|c| {
                    format!(
                        "in a cycle: {}",
                        c.iter().cloned().collect::<Vec<_>>().join(" ")
                    )
                })
        };
        if let Some(why) = why {
            bad.insert((s.clone(), t.clone()), why);
        }
    }
    bad
}

#[test]
fn the_module_graph_keeps_its_direction() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mods = modules(&root.join("src"));
    let found = edges(&mods);
    let comps = cycles(&mods, &found);
    let bad = violations(&found, &comps);
    let allow_text = fs::read_to_string(root.join("tests/modgraph.allow")).expect("allow list");
    let allowed: BTreeSet<(String, String)> = allow_text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (s, t) = l.split_once("->").expect("X -> Y");
            (s.trim().to_owned(), t.trim().to_owned())
        })
        .collect();
    let mut problems: Vec<String> = bad
        .iter()
        .filter(|(edge, _)| !allowed.contains(*edge))
        .map(|((s, t), why)| format!("{s} -> {t}: {why}"))
        .collect();
    problems.extend(
        allowed
            .iter()
            .filter(|edge| !bad.contains_key(*edge))
            .map(|(s, t)| {
                format!("{s} -> {t} is no longer a violation: remove it from tests/modgraph.allow")
            }),
    );
    assert_eq!(problems, Vec::<String>::new());
}

/// The checker itself: it finds a cycle and an upward edge in a made-up
/// graph, and reads grouped and commented paths as rustc does.
#[test]
fn the_checker_finds_cycles_and_upward_edges() {
    let text = "use crate::{a, b::c};\n// crate::commented\nfn f() { crate::d::x(); }\n#[cfg(test)]\nmod tests { use crate::e; }\n";
    let got = targets(&strip(text));
    let want: BTreeSet<String> = ["a", "b", "d"].iter().map(|s| (*s).to_owned()).collect();
    assert_eq!(got, want);
    let mods: BTreeMap<String, Vec<PathBuf>> = ["a", "b", "output", "cmd"]
        .iter()
        .map(|m| ((*m).to_owned(), Vec::new()))
        .collect();
    let e = |s: &str, t: &str| (s.to_owned(), t.to_owned());
    let found: Edges = [
        e("a", "b"),
        e("b", "a"),
        e("a", "output"),
        e("output", "cmd"),
    ]
    .into_iter()
    .collect();
    let comps = cycles(&mods, &found);
    let bad = violations(&found, &comps);
    let keys: Vec<(String, String)> = bad.keys().cloned().collect();
    assert_eq!(
        keys,
        vec![
            e("a", "b"),
            e("a", "output"),
            e("b", "a"),
            e("output", "cmd")
        ]
    );
}
