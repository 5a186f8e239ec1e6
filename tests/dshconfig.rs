//! dsh's own configuration deciding what the commands say (CONFIG 11,
//! issue 24): the loaded row's settings and their origins, a loader that is
//! not mounted, a configuration dsh refuses, the deployment flags, the
//! sessions root. Every output is compared whole.

mod common;

use common::{Tree, run};
use pretty_assertions::assert_eq;

const ROW: &str = "- id: agent-instructions\n";

/// A workspace `ws` (a git root holding one AGENTS.md) and a dsh home in
/// the tree's HOME.
fn tree() -> Tree {
    let t = Tree::new();
    t.dir("ws/.git").file("ws/AGENTS.md", "Root rule.\n");
    t
}

fn home_layer(t: &Tree, text: &str) {
    t.file("home/.dsh/cordis.patch.yml", text);
}

fn agentctx(t: &Tree, args: &[&str]) -> (String, String, i32) {
    let mut cmd = t.cmd();
    cmd.current_dir(t.path("ws")).args(args);
    run(&mut cmd)
}

#[test]
fn a_headless_home_layer_sets_the_budget_of_render() {
    let t = tree();
    home_layer(&t, &format!("{ROW}  config: {{maxBytes: 30}}\n"));
    let (out, err, code) = agentctx(&t, &["render", "--dsh-profile", "headless"]);
    assert_eq!((err.as_str(), code), ("", 0));
    // The 30-byte budget leaves room for the budget notice only.
    assert!(out.len() <= 30, "{out:?}");
    let (json, _, _) = agentctx(
        &t,
        &["render", "--dsh-profile", "headless", "--format", "json"],
    );
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        json["source"]["baselineIdentity"],
        serde_json::json!(
            "{\"projectRoot\":\"\",\"projectRootMarkers\":[\".git\"],\"maxBytes\":30,\"maxSourceBytes\":1048576,\"instructionFileCandidates\":[\"AGENTS.md\",\"CLAUDE.md\"],\"localInstructionFileCandidates\":[\"AGENTS.local.md\",\"CLAUDE.local.md\"]}"
        )
    );
}

#[test]
fn the_environment_names_the_profile() {
    let t = tree();
    home_layer(&t, &format!("{ROW}  disabled: true\n"));
    let mut cmd = t.cmd();
    cmd.current_dir(t.path("ws"))
        .env("AGENTCTX_DSH_PROFILE", "headless")
        .arg("render");
    let (out, err, code) = run(&mut cmd);
    let layer = t.path_str("home/.dsh/cordis.patch.yml");
    assert_eq!(
        (out.as_str(), err, code),
        (
            "",
            format!(
                "agentctx: {layer}:2: nothing is sent: the agent-instructions row is disabled, so a dsh --profile headless session receives no agent instructions\n"
            ),
            0
        )
    );
}

#[test]
fn a_disabled_row_sends_nothing_in_text_and_json() {
    let t = tree();
    home_layer(&t, &format!("{ROW}  disabled: true\n"));
    let layer = t.path_str("home/.dsh/cordis.patch.yml");
    let line = format!(
        "agentctx: {layer}:2: nothing is sent: the agent-instructions row is disabled, so a dsh --profile headless session receives no agent instructions\n"
    );
    let (out, err, code) = agentctx(&t, &["render", "--dsh-profile", "headless"]);
    assert_eq!((out.as_str(), err.as_str(), code), ("", line.as_str(), 0));
    let (out, err, code) = agentctx(
        &t,
        &["render", "--dsh-profile", "headless", "--format", "json"],
    );
    assert_eq!(
        (out, err.as_str(), code),
        (
            format!(
                "{{\n  \"parts\": [],\n  \"source\": null,\n  \"notMounted\": {{\n    \"file\": \"{layer}\",\n    \"line\": 2,\n    \"reason\": \"the agent-instructions row is disabled\",\n    \"profile\": \"headless\"\n  }}\n}}\n"
            ),
            line.as_str(),
            0
        )
    );
    // -q keeps stderr empty.
    let (out, err, code) = agentctx(&t, &["-q", "render", "--dsh-profile", "headless"]);
    assert_eq!((out.as_str(), err.as_str(), code), ("", "", 0));
}

#[test]
fn a_patch_that_drops_max_bytes_is_refused_as_dsh_refuses_it() {
    let t = tree();
    home_layer(&t, &format!("{ROW}  config: {{maxSourceBytes: 4096}}\n"));
    let layer = t.path_str("home/.dsh/cordis.patch.yml");
    for cmd in ["render", "diff"] {
        let mut args = vec![cmd, "--dsh-profile", "headless"];
        let log;
        if cmd == "diff" {
            log = t.session_log("s.jsonl", "ws", &[] as &[&str]);
            args.extend(["--log", log.as_str()]);
        }
        let (out, err, code) = agentctx(&t, &args);
        assert_eq!(
            (out.as_str(), err, code),
            (
                "",
                format!(
                    "agentctx: {layer}:2: dsh would refuse to start: invalid config: - $.maxBytes missing required value (at maxBytes)\n"
                ),
                2
            ),
            "{cmd}"
        );
    }
}

#[test]
fn a_bad_profile_name_is_bad_usage() {
    let t = tree();
    let (out, err, code) = agentctx(&t, &["render", "--dsh-profile", "../x"]);
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "",
            "agentctx: --dsh-profile: invalid dsh profile name \"../x\"\n",
            2
        )
    );
    let (_, err, code) = agentctx(&t, &["render", "--dsh-profile", "mine"]);
    let pkg = t.path_str("home/.dsh/profiles/mine/package.json");
    assert_eq!(
        (err, code),
        (
            format!("agentctx: {pkg}: dsh would refuse to start: profile mine does not exist\n"),
            2
        )
    );
}

#[test]
fn a_missing_patch_file_is_bad_usage() {
    let t = tree();
    let (out, err, code) = agentctx(&t, &["render", "--patch", "nope.yml"]);
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "",
            "agentctx: --patch nope.yml: No such file or directory (os error 2)\n",
            2
        )
    );
}

#[test]
fn web_says_a_home_layer_does_not_apply_to_it() {
    let t = tree();
    home_layer(&t, &format!("{ROW}  config: {{maxBytes: 30}}\n"));
    let layer = t.path_str("home/.dsh/cordis.patch.yml");
    let (out, err, code) = agentctx(&t, &["render"]);
    assert_eq!(code, 0);
    assert!(out.contains("Root rule."), "{out}");
    assert_eq!(
        err,
        format!(
            "agentctx: warning: {layer}: its agent-instructions patch applies to dsh --profile headless and custom profiles, not to dsh web, whose agent preset decides (pass --dsh-profile headless, or set AGENTCTX_DSH_PROFILE)\n"
        )
    );
}

#[test]
fn explain_has_a_dsh_configuration_section() {
    let t = tree();
    home_layer(
        &t,
        &format!(
            "{ROW}  config:\n    maxBytes: 700\n    precedence: first\n    maxSourceBytes: !!js '1 << 20'\n"
        ),
    );
    let (out, err, code) = agentctx(&t, &["explain", "--dsh-profile", "headless"]);
    let home = t.path_str("home/.dsh");
    let layer = format!("{home}/cordis.patch.yml");
    assert_eq!(code, 0);
    assert_eq!(err, "");
    let section = out
        .split("\n\n")
        .find(|s| s.starts_with("dsh configuration"))
        .expect("the section");
    let profile = format!("{home}/profiles/headless/cordis.patch.yml");
    let pad = |s: &str, n: usize| format!("{s:<n$}");
    let w = profile
        .len()
        .max(layer.len())
        .max("bundle:@deepseek-ai/dsh-headless".len());
    let v = "AGENTS.local.md, CLAUDE.local.md"
        .len()
        .max("1048576 (set by !!js 1 << 20, not evaluated)".len());
    let key = |k: &str, value: &str, origin: &str| {
        format!("    {}  {}  {origin}\n", pad(k, 30), pad(value, v))
    };
    let want = format!(
        "dsh configuration\n  profile    headless  (--dsh-profile)\n  dsh home   {home}\n  layers\n    bundle @deepseek-ai/dsh-base      {}  built in\n    bundle @deepseek-ai/dsh-headless  {}  built in\n    profile                           {}  absent\n    home                              {}  read\n  loader row\n{}{}{}{}{}{}  ignored    precedence (dsh does not read them)\n  outcome    loaded\n  settings   from config  (default)\n  warning: {layer}:5: maxSourceBytes is set by an expression (1 << 20): agentctx does not evaluate it\n  warning: {layer}:4: config key precedence is not one dsh reads: ignored",
        pad("bundle:@deepseek-ai/dsh-base", w),
        pad("bundle:@deepseek-ai/dsh-headless", w),
        pad(&profile, w),
        pad(&layer, w),
        key("maxBytes", "700", &format!("config:{layer}:3")),
        key(
            "maxSourceBytes",
            "1048576 (set by !!js 1 << 20, not evaluated)",
            &format!("config:{layer}:5")
        ),
        key("projectRootMarkers", ".git", "default"),
        key(
            "instructionFileCandidates",
            "AGENTS.md, CLAUDE.md",
            "default"
        ),
        key(
            "localInstructionFileCandidates",
            "AGENTS.local.md, CLAUDE.local.md",
            "default"
        ),
        key("dshHome", &home, "default"),
    );
    assert_eq!(section, want);
}

/// dsh creates `$DSH_HOME/profiles/node_modules` at boot and dies when the
/// home is a regular file (realdsh case r22-enotdir-dsh-home); `--dsh-home`
/// names only where the user-global file is read, as the row's dshHome does.
#[test]
fn a_dsh_home_that_is_a_file_stops_dsh() {
    let t = tree();
    t.file("homefile", "x");
    let file = t.path_str("homefile");
    let mut cmd = t.cmd();
    cmd.current_dir(t.path("ws"))
        .env("DSH_HOME", &file)
        .arg("render");
    let (out, err, code) = run(&mut cmd);
    assert_eq!(
        (out.as_str(), err, code),
        (
            "",
            format!(
                "agentctx: {file}: dsh would refuse to start: Error: ENOTDIR: not a directory, mkdir '{file}/profiles/node_modules'\n"
            ),
            2
        )
    );
}

/// A log of `ws` whose baseline is what `render ARGS` gives now.
fn rendered_log(t: &Tree, args: &[&str]) -> String {
    let mut all = vec!["--cwd", "ws"];
    all.extend_from_slice(args);
    let rendered = common::render_json(t, &all);
    let event = common::message::rendered_baseline_event(&rendered);
    t.session_log("s.jsonl", "ws", &[event.to_string()])
}

#[test]
fn settings_come_from_the_log_with_log_and_from_the_configuration_on_request() {
    let t = tree();
    let log = rendered_log(&t, &["--dsh-profile", "headless"]);
    home_layer(&t, &format!("{ROW}  config: {{maxBytes: 30}}\n"));
    let layer = t.path_str("home/.dsh/cordis.patch.yml");
    // --log FILE: the log's identity decides; the resume sends nothing new.
    let (out, err, code) = agentctx(&t, &["diff", "--log", &log]);
    assert_eq!((out.as_str(), err.as_str(), code), ("", "", 0));
    // explain says the configuration now differs.
    let (_, err, _) = agentctx(&t, &["explain", "--log", &log]);
    assert_eq!(
        err,
        format!(
            "agentctx: warning: {log}: dsh's current configuration differs from what the log recorded (maxBytes: 65536 in the log, 30 now): a resume under it sends a replacement baseline; --settings-from config shows it\n"
        )
    );
    // --settings-from config: the configuration's budget, so a replacement.
    let (out, _, code) = agentctx(
        &t,
        &[
            "diff",
            "--log",
            &log,
            "--settings-from",
            "config",
            "--format",
            "json",
        ],
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["decision"].as_str(), v["identityDiff"].as_str(), code),
        (Some("replacement"), Some("maxBytes"), 0)
    );
    let (out, _, _) = agentctx(
        &t,
        &[
            "explain",
            "--log",
            &log,
            "--settings-from",
            "config",
            "--format",
            "json",
        ],
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["settings"]["maxBytes"],
        serde_json::json!({"value": 30, "origin": format!("config:{layer}")})
    );
}

#[test]
fn check_finds_a_refused_configuration_in_every_format() {
    let t = tree();
    home_layer(&t, &format!("{ROW}  config: {{maxBytes: '65536'}}\n"));
    let layer = t.path_str("home/.dsh/cordis.patch.yml");
    let message = "invalid config: - $.maxBytes expected number but got 65536 (at maxBytes)";
    let hint = "fix the layer at that line: dsh's message says what it expects (maxBytes is required whenever a patch sets config)";
    let check = |format: &str| {
        agentctx(
            &t,
            &["check", "--dsh-profile", "headless", "--format", format],
        )
    };
    let (out, _, code) = check("text");
    assert_eq!(
        (out, code),
        (
            format!(
                ".\n  error: {layer}: dsh would refuse to start (line 2): {message}\n    fix: fix the layer at that line: dsh's message says what it expects (maxBytes is required whenever a patch sets config)\n\nchecked 1 of 1 directory; largest baseline: 315 bytes in .; 1 error, 0 warnings\n"
            ),
            1
        )
    );
    let (out, _, _) = check("github");
    assert_eq!(
        out,
        format!(
            "::error file={layer},line=2,title=dsh would refuse to start::dsh would refuse to start (line 2): {message}%0Afix: fix the layer at that line: dsh's message says what it expects (maxBytes is required whenever a patch sets config)\nagentctx check: checked 1 of 1 directory; largest baseline: 315 bytes in .; 1 error, 0 warnings\n"
        )
    );
    let (out, _, _) = check("json");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["findings"],
        serde_json::json!([{
            "severity": "error", "rule": "AGX026", "dir": ".", "file": layer,
            "title": "dsh would refuse to start",
            "message": format!("dsh would refuse to start (line 2): {message}"),
            "hint": "fix the layer at that line: dsh's message says what it expects (maxBytes is required whenever a patch sets config)",
            "kind": "dshConfigRefused", "line": 2, "dshMessage": message,
        }])
    );
    let (out, _, _) = check("sarif");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let errors: Vec<String> = common::sarif_validator()
        .iter_errors(&v)
        .map(|e| e.to_string())
        .collect();
    assert_eq!(errors, Vec::<String>::new());
    assert_eq!(
        v["runs"][0]["results"],
        serde_json::json!([{
            "level": "error",
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": format!("file://{layer}")},
                "region": {"startLine": 2},
            }}],
            "message": {"text": format!("dsh would refuse to start (line 2): {message}\nFix: {hint}")},
            "properties": {"hint": hint},
            "partialFingerprints": {"agentctxFinding/v1": v["runs"][0]["results"][0]["partialFingerprints"]["agentctxFinding/v1"]},
            "ruleId": "AGX026",
            // dsh's rules are listed AGX001-AGX017, then AGX026: the 18th.
            "ruleIndex": 17,
        }])
    );
}

#[test]
fn check_warns_when_no_loader_is_mounted() {
    let t = tree();
    home_layer(&t, &format!("{ROW}  disabled: true\n"));
    let layer = t.path_str("home/.dsh/cordis.patch.yml");
    let (out, _, code) = agentctx(&t, &["check", "--dsh-profile", "headless"]);
    assert_eq!(
        (out, code),
        (
            format!(
                ".\n  warning: {layer}: the agent-instructions row is disabled (line 2): a dsh --profile headless session receives no agent instructions\n    fix: remove the disabled: true at that line, or pick a preset that mounts the loader\n\nchecked 1 of 1 directory; largest baseline: 315 bytes in .; 0 errors, 1 warning\n"
            ),
            0
        )
    );
}

#[test]
fn a_web_preset_of_the_user_decides_for_web() {
    let t = tree();
    t.file(
        "home/.dsh/.agent-presets/mine/agent.cordis.yml",
        "- id: agent-instructions\n  name: '@deepseek-ai/dsh-agent-instructions'\n  config:\n    maxBytes: 20\n",
    );
    t.file(
        "home/.dsh/settings.yaml",
        "agent-presets:\n  default: mine\n",
    );
    let (out, _, _) = agentctx(&t, &["explain", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let preset = t.path_str("home/.dsh/.agent-presets/mine/agent.cordis.yml");
    assert_eq!(
        (&v["settings"]["maxBytes"], &v["dshConfig"]["preset"]),
        (
            &serde_json::json!({"value": 20, "origin": format!("preset:{preset}")}),
            &serde_json::json!("mine")
        )
    );
    // The minimal preset mounts no loader.
    let (out, err, code) = agentctx(&t, &["render", "--dsh-preset", "minimal"]);
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "",
            "agentctx: preset:minimal: nothing is sent: preset minimal has no agent-instructions row, so a dsh --profile web session receives no agent instructions\n",
            0
        )
    );
}

#[test]
fn sessions_are_found_under_the_persistence_rows_root() {
    let t = tree();
    home_layer(
        &t,
        "- id: session-persistence-jsonl\n  config:\n    root: ~/elsewhere\n",
    );
    let root = t.path_str("home/elsewhere");
    let ws = t.path_str("ws");
    let (out, err, code) = agentctx(&t, &["sessions"]);
    assert_eq!(
        (out.as_str(), err, code),
        (
            "",
            format!(
                "agentctx: no dsh session of {ws}: the sessions root {root} does not exist (dsh makes it when it stores its first session)\n"
            ),
            0
        )
    );
    let (out, err, code) = agentctx(&t, &["diff", "--session", "latest"]);
    assert_eq!(
        (out.as_str(), err, code),
        (
            "",
            format!("agentctx: no dsh session of {ws} under {root}\n"),
            2
        )
    );
}
