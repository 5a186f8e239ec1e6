//! Near-linear work on hostile shapes (issue 13): each case runs the real
//! binary on an input and on one four times as large, and bounds how much
//! more time the larger one takes (best of five runs, a generous factor:
//! linear work grows fourfold, the quadratic paths these cases caught grew
//! sixteenfold or more). No absolute time is asserted.
// Test code: a failed unwrap or expect is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fmt::Write as _;
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use agentctx::render::{self, COMPACT, INTRO, Item, Step};

use common::{Tree, header};
use serde_json::json;

/// The cases run one at a time: a timing taken while another case runs
/// would measure the other case.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The best of five runs of `cmd`, which must succeed.
fn best_of_five(mut cmd: impl FnMut() -> Command) -> Duration {
    (0..5)
        .map(|_| {
            let mut c = cmd();
            let start = Instant::now();
            let out = c.output().unwrap();
            let took = start.elapsed();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            took
        })
        .min()
        .unwrap()
}

/// Asserts that four times the input (`run(n)` vs `run(4n)`) takes at most
/// eight times as long: linear work grows fourfold, quadratic sixteenfold.
fn assert_near_linear(what: &str, n: usize, run: impl Fn(usize) -> Duration) {
    let _alone = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let (small, large) = (run(n), run(4 * n));
    assert!(
        large < small * 8 + Duration::from_millis(100),
        "{what}: {n} took {small:?}, {} took {large:?}",
        4 * n
    );
}

/// A session whose one visible event sets `n` scopes in distinct
/// directories below the root.
fn many_scopes(n: usize) -> Tree {
    let t = Tree::new();
    t.dir("proj/.git")
        .dir("home")
        .file("proj/AGENTS.md", "root\n");
    let changes: Vec<_> = (0..n)
        .map(|i| {
            json!({"action": "set", "scope": format!("d{i}\0AGENTS.md"),
                   "path": format!("d{i}/AGENTS.md"), "digest": "0"})
        })
        .collect();
    let event = json!({"type": "user/message", "seq": 1, "time": 0, "surfaceOp": "append",
        "data": {"role": "user", "content": [], "source":
            {"kind": "agent-instructions", "form": "instructions", "changes": changes}}});
    t.file("s.jsonl", format!("{}\n{event}\n", header(&t.path("proj"))));
    t
}

#[test]
fn diff_and_explain_with_many_visible_scopes_are_near_linear() {
    for command in ["diff", "explain"] {
        assert_near_linear(command, 1_000, |n| {
            let t = many_scopes(n);
            best_of_five(|| {
                let mut c = t.cmd();
                c.args([command, "--log", "s.jsonl"]);
                c
            })
        });
    }
}

#[test]
fn a_deep_touch_is_near_linear() {
    assert_near_linear("--touch", 150, |n| {
        let t = Tree::new();
        t.dir("proj/.git")
            .dir("home")
            .file("proj/AGENTS.md", "root\n");
        t.file("s.jsonl", format!("{}\n", header(&t.path("proj"))));
        let touch = format!("{}x.rs", "a/".repeat(n));
        best_of_five(|| {
            let mut c = t.cmd();
            c.args(["diff", "--log", "s.jsonl", "--touch", &touch]);
            c
        })
    });
}

/// Budget step 3 no longer rebuilds the message for every k (it was
/// quadratic: 100 levels of 1 MB files took 30 s).
#[test]
fn the_budget_suffix_search_is_near_linear() {
    let content = "x".repeat(20_000);
    assert_near_linear("render::fit", 75, |n| {
        let paths: Vec<String> = (0..n).map(|i| format!("d{i}/AGENTS.md")).collect();
        let items: Vec<Item<'_>> = paths
            .iter()
            .map(|p| Item {
                path: p,
                head: render::baseline_head(p),
                content: &content,
            })
            .collect();
        // Room for the last file only, so step 3 walks every k.
        let max = 2_000 + 40 * i64::try_from(n).unwrap() + 20_100;
        (0..5)
            .map(|_| {
                let t = Instant::now();
                let got = render::fit(
                    &items,
                    INTRO,
                    COMPACT,
                    agentctx::jsnum::MaxBytes(max as f64),
                );
                assert_eq!(got.step, Step::Suffix);
                assert_eq!(got.omitted.len(), n - 1);
                t.elapsed()
            })
            .min()
            .unwrap()
    });
}

/// explain's search for process-specific values in a system prompt (it was
/// quadratic: a 260 KB prompt of 16,000 URLs took 14 s).
#[test]
fn the_prompt_value_search_is_near_linear() {
    assert_near_linear("explain --log", 2_000, |n| {
        let t = Tree::new();
        t.dir("proj/.git").dir("home");
        let prompt = (0..n).fold(String::new(), |mut text, i| {
            let port = 1000 + i % 9000;
            write!(text, "see http://127.0.0.1:{port} and /srv/app{i}/data ").unwrap();
            text
        });
        let event = json!({"type": "system/message", "seq": 1, "time": 0,
            "data": {"content": [{"type": "text", "text": prompt}]}});
        t.file("s.jsonl", format!("{}\n{event}\n", header(&t.path("proj"))));
        best_of_five(|| {
            let mut c = t.cmd();
            c.args(["explain", "--log", "s.jsonl", "--format", "json"]);
            c
        })
    });
}

/// Claude Code's Markdown reading (SPEC 10.6.6-7) on hostile texts: unmatched
/// brackets and `<`, many script blocks after a comment, deep quotes (each
/// was quadratic or recursed without bound before).
/// A hostile CLAUDE.md of size `n`.
type Shape = fn(usize) -> String;

#[test]
fn the_claude_markdown_reader_is_near_linear() {
    let shapes: [(&str, Shape); 4] = [
        ("brackets", |n| "[a".repeat(n)),
        ("angles", |n| "<a".repeat(n)),
        ("scripts", |n| {
            format!("<!-- c -->\n{}", "<script>\na\n</script>\n".repeat(n))
        }),
        ("quotes", |n| format!("{}q\n<!-- c -->\n", "> ".repeat(n))),
    ];
    for (what, text) in shapes {
        assert_near_linear(what, 20_000, |n| {
            let t = Tree::new();
            t.dir("r/.git")
                .dir("home")
                .file("r/CLAUDE.md", format!("{}\n@./x.md\n", text(n)));
            let cwd = t.path_str("r");
            best_of_five(|| {
                let mut c = t.profile_cmd();
                c.args(["render", "--profile", "claude", "--cwd", &cwd]);
                c
            })
        });
    }
}
