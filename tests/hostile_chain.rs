//! Issue 21 item 12: `check` on a chain of nested directories, each with an
//! `AGENTS.md`, does near-linear work (it was cubic: every directory rebuilt
//! its whole baseline, copied every ancestor's text and listed every omitted
//! file by its path) and prints a bounded line per directory.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use agentctx::check::{self, Options};
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
        no_color: true,
        clicolor_force: false,
        stdout_tty: false,
        stderr_tty: false,
        vars: agentctx::profile::Vars::default(),
    };
    let settings = Settings::resolve(&env, &Overrides::default(), None, None).unwrap();
    let selection = check::targets(&settings, root, &[]).unwrap();
    let opts = Options {
        settings: &settings,
        targets: selection.targets,
        base: root.to_path_buf(),
        exclude: &[],
        ignore: true,
        include_user_global: false,
        directories,
        warn_at: None,
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
        // The budget (64 KiB) is exceeded deep down, in every deeper directory.
        assert!(
            report.errors >= depth - 80,
            "depth {depth}: {} errors",
            report.errors
        );
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
fn directories_report_the_same_omitted_files_as_the_findings() {
    let tree = Tree::new();
    let root = chain(&tree, 300);
    let (report, _) = counted(&tree, &root, true);
    let dirs = report.directories.as_ref().unwrap();
    let deepest = dirs.last().unwrap();
    let finding = report
        .findings
        .iter()
        .rfind(|f| f.rule == "AGX001")
        .unwrap();
    let check::Detail::OverBudget { omitted, bytes, .. } = &finding.detail else {
        panic!("not over budget: {finding:?}");
    };
    assert_eq!(finding.dir, deepest.dir);
    assert_eq!(*bytes, deepest.baseline.bytes);
    let shown: Vec<String> = deepest.baseline.omitted.clone();
    assert_eq!(
        omitted.names(),
        shown.iter().map(String::as_str).collect::<Vec<_>>()
    );
    assert!(omitted.len() > 100);
}

#[test]
fn text_output_names_a_few_omitted_files_per_directory() {
    let depth = 200;
    let tree = Tree::new();
    chain(&tree, depth);
    let out = common::check(&tree, "p", &["--color", "never"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let longest_path = "a/".repeat(depth).len() + "AGENTS.md".len();
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines.len() <= 3 * depth + 5, "{} lines", lines.len());
    for line in &lines {
        // The directory, its file, three omitted files, the cut file and words.
        assert!(
            line.len() <= 6 * longest_path + 400,
            "{} bytes: {line:.200}",
            line.len()
        );
    }
    assert!(stdout.contains(" more"), "{stdout:.2000}");
}
