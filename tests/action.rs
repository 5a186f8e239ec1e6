//! `action.yml` (issue 26 item 7), run locally: each step's shell, with the
//! inputs and the `${{ }}` expressions it reads given as its environment,
//! as the runner would (`bash --noprofile --norc -eo pipefail`), on a
//! fixture repository whose last commit pushes a file over dsh's budget.
//!
//! No network: the `uses:` steps (the cache, the SARIF upload) are not
//! run, and the `cargo install --locked --path "$GITHUB_ACTION_PATH"` step
//! is skipped by the input `install: false`, with `binary` pointing at the
//! binary under test instead. What the skipped steps would get is checked:
//! the upload reads the file the SARIF step wrote, and that file is valid
//! SARIF.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use pretty_assertions::assert_eq;
use saphyr_parser::{Event, Parser};
use serde_json::{Map, Value, json};

use common::{Tree, git, git_commit_all};

/// A YAML document as JSON (scalars as strings: the action has no other).
fn yaml(text: &str) -> Value {
    enum Open {
        List(Vec<Value>),
        Map(Map<String, Value>, Option<String>),
    }
    let mut stack: Vec<Open> = Vec::new();
    let mut root = Value::Null;
    let push = |stack: &mut Vec<Open>, root: &mut Value, v: Value| match stack.last_mut() {
        Some(Open::List(l)) => l.push(v),
        Some(Open::Map(m, key)) => match key.take() {
            Some(k) => {
                m.insert(k, v);
            }
            None => *key = Some(v.as_str().unwrap().to_owned()),
        },
        None => *root = v,
    };
    for event in Parser::new_from_str(text) {
        let (event, _) = event.expect("action.yml parses");
        match event {
            Event::Scalar(s, ..) => push(&mut stack, &mut root, Value::String(s.into_owned())),
            Event::SequenceStart(..) => stack.push(Open::List(Vec::new())),
            Event::MappingStart(..) => stack.push(Open::Map(Map::new(), None)),
            Event::SequenceEnd | Event::MappingEnd => {
                let v = match stack.pop().unwrap() {
                    Open::List(l) => Value::Array(l),
                    Open::Map(m, _) => Value::Object(m),
                };
                push(&mut stack, &mut root, v);
            }
            _ => {}
        }
    }
    root
}

/// The value of one operand of a `${{ }}` expression or `if:`.
fn operand(term: &str, ctx: &BTreeMap<String, String>) -> String {
    let term = term.trim();
    if let Some(lit) = term.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
        return lit.to_owned();
    }
    ctx.get(term).cloned().unwrap_or_default()
}

/// `a || b`: the first non-empty operand, as GitHub's expressions give.
fn expression(expr: &str, ctx: &BTreeMap<String, String>) -> String {
    expr.split("||")
        .map(|t| operand(t, ctx))
        .find(|v| !v.is_empty())
        .unwrap_or_default()
}

/// An `if:` of the forms the action uses: comparisons joined by `&&`.
fn condition(cond: &str, ctx: &BTreeMap<String, String>) -> bool {
    cond.split("&&").all(|c| {
        if let Some((a, b)) = c.split_once("!=") {
            operand(a, ctx) != operand(b, ctx)
        } else if let Some((a, b)) = c.split_once("==") {
            operand(a, ctx) == operand(b, ctx)
        } else {
            panic!("unsupported condition {c}")
        }
    })
}

/// Replaces every `${{ EXPR }}` of a value.
fn interpolate(value: &str, ctx: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(i) = rest.find("${{") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find("}}").unwrap() + i;
        out.push_str(&expression(&rest[i + 3..end], ctx));
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

/// What a run of the action left behind.
struct Run {
    /// Each step run: its name, exit status and stdout.
    steps: Vec<(String, i32, String)>,
    /// Names of the steps skipped by their `if:`, and of the `uses:` steps
    /// with their interpolated `with:`.
    skipped: Vec<String>,
    uses: Vec<(String, Map<String, Value>)>,
    summary: String,
    outputs: BTreeMap<String, String>,
}

/// The expression context before the first step: every input (its
/// default unless `inputs` sets it) and the `github` values.
fn context(
    action: &Value,
    inputs: &[(&str, &str)],
    github: &[(&str, &str)],
) -> BTreeMap<String, String> {
    let mut ctx: BTreeMap<String, String> = BTreeMap::new();
    for (name, spec) in action["inputs"].as_object().unwrap() {
        let default = spec["default"].as_str().unwrap_or_default();
        ctx.insert(format!("inputs.{name}"), default.to_owned());
    }
    for (k, v) in inputs {
        assert!(ctx.contains_key(&format!("inputs.{k}")), "no input {k}");
        ctx.insert(format!("inputs.{k}"), (*v).to_owned());
    }
    for (k, v) in github {
        ctx.insert(format!("github.{k}"), (*v).to_owned());
    }
    ctx
}

/// A step's `bash` as the runner starts it: a clean environment with the
/// runner's variables.
fn bash(
    script: &Path,
    workspace: &Path,
    temp: &Path,
    action_dir: &Path,
    output: &Path,
    summary: &Path,
) -> Command {
    let mut cmd = Command::new("bash");
    cmd.args(["--noprofile", "--norc", "-eo", "pipefail"])
        .arg(script)
        .current_dir(workspace)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", temp.join("home"))
        .env("GITHUB_ACTION_PATH", action_dir)
        .env("GITHUB_WORKSPACE", workspace)
        .env("GITHUB_OUTPUT", output)
        .env("GITHUB_STEP_SUMMARY", summary)
        .env("RUNNER_TEMP", temp)
        .env("RUNNER_OS", "Linux")
        .env("RUNNER_ARCH", "X64")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1");
    cmd
}

/// Runs the composite steps of `action.yml` in `workspace` with `inputs`
/// (the rest their defaults) and the `github` context `github`.
fn run_action(
    workspace: &Path,
    temp: &Path,
    inputs: &[(&str, &str)],
    github: &[(&str, &str)],
) -> Run {
    let action_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let action = yaml(&fs::read_to_string(action_dir.join("action.yml")).unwrap());
    assert_eq!(action["runs"]["using"], "composite");
    let mut ctx = context(&action, inputs, github);
    let summary = temp.join("summary.md");
    fs::write(&summary, "").unwrap();
    let mut run = Run {
        steps: Vec::new(),
        skipped: Vec::new(),
        uses: Vec::new(),
        summary: String::new(),
        outputs: BTreeMap::new(),
    };
    for (i, step) in action["runs"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        let name = step["name"].as_str().unwrap().to_owned();
        if let Some(cond) = step["if"].as_str() {
            if !condition(cond, &ctx) {
                run.skipped.push(name);
                continue;
            }
        }
        if let Some(uses) = step["uses"].as_str() {
            let mut with = Map::new();
            for (k, v) in step["with"].as_object().into_iter().flatten() {
                with.insert(k.clone(), json!(interpolate(v.as_str().unwrap(), &ctx)));
            }
            run.uses.push((uses.to_owned(), with));
            continue;
        }
        assert_eq!(step["shell"], "bash", "{name}");
        let script = temp.join(format!("step{i}.sh"));
        fs::write(&script, step["run"].as_str().unwrap()).unwrap();
        let output = temp.join(format!("output{i}"));
        fs::write(&output, "").unwrap();
        let mut cmd = bash(&script, workspace, temp, &action_dir, &output, &summary);
        for (k, v) in step["env"].as_object().into_iter().flatten() {
            cmd.env(k, interpolate(v.as_str().unwrap(), &ctx));
        }
        let out = cmd.output().unwrap();
        let code = out.status.code().unwrap_or(-1);
        run.steps.push((
            name,
            code,
            String::from_utf8_lossy(&out.stdout).into_owned(),
        ));
        for line in fs::read_to_string(&output).unwrap().lines() {
            let (k, v) = line.split_once('=').unwrap();
            if let Some(id) = step["id"].as_str() {
                ctx.insert(format!("steps.{id}.outputs.{k}"), v.to_owned());
                run.outputs.insert(format!("{id}.{k}"), v.to_owned());
            }
        }
        if code != 0 {
            // The runner stops at the first failing step.
            break;
        }
    }
    run.summary = fs::read_to_string(&summary).unwrap();
    run
}

/// A repository whose last commit grows `app/AGENTS.md` past the budget
/// given with `args`; its base commit's id.
fn fixture(t: &Tree) -> (PathBuf, String) {
    t.file("r/AGENTS.md", "Root rules.\n")
        .file("r/app/AGENTS.md", "App.\n")
        .file("r/app/src/main.rs", "fn main() {}\n")
        .dir("home");
    let repo = t.path("r");
    git_commit_all(&repo, "base");
    let base = git(&repo, &["rev-parse", "HEAD"]).trim().to_owned();
    t.file(
        "r/app/AGENTS.md",
        format!("App.\n{}\n", "More. ".repeat(80)),
    );
    git_commit_all(&repo, "grow");
    (repo, base)
}

#[test]
fn the_action_gates_a_pull_request_and_posts_its_impact() {
    let t = Tree::new();
    let (repo, base) = fixture(&t);
    let temp = t.path("runner");
    fs::create_dir_all(temp.join("home")).unwrap();
    let bin = env!("CARGO_BIN_EXE_agentctx");
    let run = run_action(
        &repo,
        &temp,
        &[
            ("install", "false"),
            ("binary", bin),
            ("sarif", "true"),
            ("args", "--max-bytes 500"),
        ],
        &[("event.pull_request.base.sha", &base)],
    );
    // The install steps are skipped (no network), the others ran in order.
    assert_eq!(
        run.skipped,
        vec!["Cache key", "Cache agentctx", "Install agentctx"]
    );
    let ran: Vec<(&str, i32)> = run.steps.iter().map(|(n, c, _)| (n.as_str(), *c)).collect();
    assert_eq!(ran, vec![("Job summary", 0), ("SARIF", 0), ("Gate", 1)]);
    // The gate's annotations, the summary line: the new error fails it.
    assert_eq!(
        run.steps[2].2,
        "\
::error file=app/AGENTS.md,line=1,title=Instruction budget exceeded::over budget: grew from 5 to 486 bytes and pushes AGENTS.md out of sessions in 1 directory (app); itself cut from 486 to 87 bytes for sessions in 1 directory (app)%0Afix: cut 338 bytes from what a session in app loads (the largest excess), or raise max-bytes (now 500) to 838
agentctx check: checked 2 of 3 directories; largest baseline: 500 bytes in app; 1 error, 0 warnings
"
    );
    assert_eq!(run.outputs["gate.exit-code"], "1");
    // The job summary is the Markdown impact against the base commit.
    assert_eq!(
        run.summary,
        format!(
            "\
### agentctx check

**1 directory changes what sessions receive** against `{base}`: 1 new error, 0 pre-existing.

| Directory | Before | After | Change | Files |
|---|---:|---:|---:|---|
| app (now over budget) | 357 | 500 | +143 | 1 changed, 1 newly omitted, 1 newly truncated |

<details><summary>app: 357 → 500 bytes</summary>

- changed: app/AGENTS.md
- newly omitted: AGENTS.md
- newly truncated: app/AGENTS.md

</details>

- new error: app/AGENTS.md: over budget: grew from 5 to 486 bytes and pushes AGENTS.md out of sessions in 1 directory (app); itself cut from 486 to 87 bytes for sessions in 1 directory (app)

| | File | Finding | Fix |
|---|---|---|---|
| error | app/AGENTS.md | over budget: grew from 5 to 486 bytes and pushes AGENTS.md out of sessions in 1 directory (app); itself cut from 486 to 87 bytes for sessions in 1 directory (app) | cut 338 bytes from what a session in app loads (the largest excess), or raise max-bytes (now 500) to 838 |

checked 2 of 3 directories; largest baseline: 500 bytes in app: 1 error, 0 warnings
"
        )
    );
    // The upload would read the SARIF the previous step wrote, and it is valid.
    let sarif_file = run.outputs["sarif.file"].clone();
    assert_eq!(
        run.uses,
        vec![(
            "github/codeql-action/upload-sarif@v3".to_owned(),
            serde_json::from_value(json!({"sarif_file": sarif_file, "category": "agentctx"}))
                .unwrap()
        )]
    );
    let sarif: Value = serde_json::from_str(&fs::read_to_string(&sarif_file).unwrap()).unwrap();
    let errors: Vec<String> = common::sarif_validator()
        .iter_errors(&sarif)
        .map(|e| e.to_string())
        .collect();
    assert_eq!(errors, Vec::<String>::new());
    assert_eq!(
        sarif["runs"][0]["results"][0]["baselineState"],
        json!("new")
    );
}

#[test]
fn the_action_passes_outside_a_pull_request_and_takes_profiles() {
    let t = Tree::new();
    let (repo, _) = fixture(&t);
    let temp = t.path("runner");
    fs::create_dir_all(temp.join("home")).unwrap();
    let bin = env!("CARGO_BIN_EXE_agentctx");
    let run = run_action(
        &repo,
        &temp,
        &[
            ("install", "false"),
            ("binary", bin),
            ("profile", "dsh,codex"),
            ("format", "text"),
            ("job-summary", "false"),
        ],
        &[],
    );
    let ran: Vec<(&str, i32)> = run.steps.iter().map(|(n, c, _)| (n.as_str(), *c)).collect();
    assert_eq!(ran, vec![("Gate", 0)]);
    assert_eq!(
        run.steps[0].2,
        "\
dsh: checked 2 of 3 directories; largest baseline: 838 bytes in app; 0 errors, 0 warnings
codex: checked 2 of 3 directories; largest baseline: 593 bytes in app; 0 errors, 0 warnings
"
    );
    assert_eq!(run.summary, "");
}
