//! Issue 21 item 12: `check` on a chain of nested directories, each with an
//! `AGENTS.md`, does near-linear work (it was cubic: every directory rebuilt
//! its whole baseline, copied every ancestor's text and listed every omitted
//! file by its path) and prints bounded lines: since issue 26 one finding
//! per file that loses bytes, naming a few of the directories that lose it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use agentctx::check::{self, Request};
use agentctx::env::Env;
use agentctx::settings::{Overrides, Settings};
use common::Tree;

/// A project root holding `depth` nested directories `a/a/...`, each with
/// an `AGENTS.md` of about 700 bytes: the budget is exceeded deep down.
fn chain(tree: &Tree, depth: usize) -> PathBuf {
    let root = tree.path("p");
    fs::create_dir_all(root.join(".git")).unwrap();
    let mut dir = root.clone();
    for level in 0..depth {
        dir.push("a");
        fs::create_dir(&dir).unwrap();
        let body = format!(
            "level {level}\n{}\n",
            "Follow the rules of this directory. ".repeat(20)
        );
        fs::write(dir.join("AGENTS.md"), body).unwrap();
    }
    root
}

/// `check` of `root` through the library: the report and its work count.
fn counted(tree: &Tree, root: &Path, directories: bool) -> (check::Report, u64) {
    let env = Env {
        process_cwd: Ok(root.to_path_buf()),
        home: Some(tree.path("home")),
        dsh_home: None,
        dsh_profile: None,
        no_color: true,
        clicolor_force: false,
        stdout_tty: false,
        stderr_tty: false,
        vars: agentctx::profile::Vars::default(),
    };
    let settings = Settings::resolve(&env, &Overrides::default(), None, None).unwrap();
    let selection = check::targets(&settings, root, &[], &[]).unwrap();
    let opts = Request {
        settings: &settings,
        targets: selection.targets,
        base: root.to_path_buf(),
        exclude: &[],
        ignore: true,
        include_user_global: false,
        directories,
        warn_at: None,
        dsh: true,
        harness_names: Vec::new(),
        also: std::collections::HashSet::new(),
        sink: None,
    };
    check::check_counted(&opts).unwrap()
}

#[test]
fn a_deep_chain_costs_near_linear_work() {
    let mut works = Vec::new();
    for depth in [100, 200, 400] {
        let tree = Tree::new();
        let root = chain(&tree, depth);
        let (report, work) = counted(&tree, &root, false);
        assert_eq!(report.checked, depth);
        let (listed, _) = counted(&tree, &root, true);
        // The budget (64 KiB) is exceeded deep down, in every deeper
        // directory: one error per file that some session loses (omitted
        // or truncated), not one per directory.
        let lost: std::collections::HashSet<&str> = listed
            .directories
            .iter()
            .flatten()
            .flat_map(|d| {
                let b = &d.baseline;
                b.omitted
                    .iter()
                    .map(String::as_str)
                    .chain(b.truncated.iter().map(|t| t.path.as_str()))
            })
            .collect();
        assert!(lost.len() > depth / 20, "depth {depth}");
        assert_eq!(report.errors, lost.len());
        works.push(work);
    }
    eprintln!("work at depth 100, 200, 400: {works:?}");
    for pair in works.windows(2) {
        assert!(
            pair[1] <= 3 * pair[0],
            "doubling the depth more than triples the work: {works:?}"
        );
    }
}

#[test]
fn each_omitted_file_names_the_directories_whose_sessions_omit_it() {
    let tree = Tree::new();
    let root = chain(&tree, 300);
    let (report, _) = counted(&tree, &root, true);
    let dirs = report.directories.as_ref().unwrap();
    // The root-most file is omitted by every directory that omits anything.
    let omitting: Vec<&str> = dirs
        .iter()
        .filter(|d| !d.baseline.omitted.is_empty())
        .map(|d| d.dir.as_str())
        .collect();
    let first = report.findings.first().unwrap();
    assert_eq!(first.file, "a/AGENTS.md");
    let check::Detail::OverBudget {
        directories,
        omitted_in,
        truncated_in,
        ..
    } = &first.detail
    else {
        panic!("not over budget: {first:?}");
    };
    assert_eq!(directories.names(), omitting);
    assert_eq!((*omitted_in, *truncated_in), (omitting.len(), 0));
    // And each file by the directories whose baselines list it.
    for f in &report.findings {
        let check::Detail::OverBudget { directories, .. } = &f.detail else {
            panic!("not over budget: {f:?}");
        };
        let display = f.file.clone();
        let expected: Vec<&str> = dirs
            .iter()
            .filter(|d| {
                let b = &d.baseline;
                b.omitted.contains(&display) || b.truncated.iter().any(|t| t.path == display)
            })
            .map(|d| d.dir.as_str())
            .collect();
        assert_eq!(directories.names(), expected, "{}", f.file);
    }
}

#[test]
fn text_output_names_a_few_directories_per_lost_file() {
    let depth = 200;
    let tree = Tree::new();
    chain(&tree, depth);
    let out = common::check(&tree, "p", &["--color", "never"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let longest_path = "a/".repeat(depth).len() + "AGENTS.md".len();
    let lines: Vec<&str> = stdout.lines().collect();
    // Per lost file at most: its directory, the finding, the fix, a blank.
    assert!(lines.len() <= 4 * depth + 5, "{} lines", lines.len());
    for line in &lines {
        // The file, three directories and words.
        assert!(
            line.len() <= 6 * longest_path + 400,
            "{} bytes: {line:.200}",
            line.len()
        );
    }
    assert!(stdout.contains(" more"), "{stdout:.2000}");
}
