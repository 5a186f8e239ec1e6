//! Unit tests for every rule of CONFIG.md 11.2-11.5. Messages marked
//! "real dsh" are what dsh rc.8 printed for the same layer (realdsh cases
//! `c24-*`, `stderr_line` after the loader prefix, and `dumped_row`).
// Settings read from YAML are exact JS numbers: compared bit for bit.
#![allow(clippy::float_cmp)]

use super::yaml::resolve_plain;
use super::*;
use pretty_assertions::assert_eq;

struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("home/.dsh/profiles/headless")).unwrap();
        std::fs::create_dir_all(dir.path().join("ws")).unwrap();
        Fixture { dir }
    }
    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }
    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }
    fn home_layer(&self, text: &str) -> PathBuf {
        self.write("home/.dsh/cordis.patch.yml", text)
    }
    fn input(&self, profile: &str) -> Input {
        Input {
            dsh_home: None,
            home: Some(self.path("home")),
            cwd: self.path("ws"),
            profile: profile.to_owned(),
            ..Input::default()
        }
    }
    fn read(&self) -> DshConfig {
        read(&self.input("headless"))
    }
}

fn loaded(config: &DshConfig) -> &Effective {
    match &config.outcome {
        Outcome::Loaded(e) => e,
        other => panic!("not loaded: {other:?}"),
    }
}

fn refused(config: &DshConfig) -> (String, Option<usize>, String) {
    match &config.outcome {
        Outcome::Refused {
            file,
            line,
            message,
        } => (file.clone(), *line, message.clone()),
        other => panic!("not refused: {other:?}"),
    }
}

const ROW: &str = "- id: agent-instructions\n";

fn layer(config: &str) -> String {
    format!("{ROW}  config:\n{config}")
}

#[test]
fn plain_scalars_resolve_as_js_yaml_json_schema() {
    let n = |x: f64| Value::Number(x);
    let s = |x: &str| Value::String(x.to_owned());
    let cases = [
        ("", Value::Null),
        ("~", Value::Null),
        ("NULL", Value::Null),
        ("nULL", s("nULL")),
        ("True", Value::Bool(true)),
        ("FALSE", Value::Bool(false)),
        ("yes", s("yes")),
        ("off", s("off")),
        ("012", n(12.0)),
        ("0x3e8", n(1000.0)),
        ("-0x1F", n(-31.0)),
        ("0o1750", n(1000.0)),
        ("0b101", n(5.0)),
        ("65_536", s("65_536")),
        ("1.5", n(1.5)),
        ("1.", n(1.0)),
        (".5", n(0.5)),
        ("-.5", s("-.5")),
        ("1e3", n(1000.0)),
        ("1e999", s("1e999")),
        ("-.inf", n(f64::NEG_INFINITY)),
        (".Inf", n(f64::INFINITY)),
        ("0x", s("0x")),
        ("<<", s("<<")),
    ];
    for (text, want) in cases {
        assert_eq!(resolve_plain(text), want, "{text:?}");
    }
    assert!(matches!(resolve_plain(".NaN"), Value::Number(x) if x.is_nan()));
    assert_eq!(resolve_plain("-.nan"), s("-.nan"));
}

#[test]
fn no_layers_headless_loads_the_base_bundle_row() {
    let f = Fixture::new();
    let c = f.read();
    let e = loaded(&c);
    assert_eq!(e.max_bytes.value, 65536.0);
    assert_eq!(
        e.max_bytes.origin.to_string(),
        "bundle:@deepseek-ai/dsh-base"
    );
    assert_eq!(e.max_source_bytes.origin, ConfigOrigin::Default);
    assert_eq!(e.user_global_display, "~/.dsh/AGENTS.md");
    let statuses: Vec<(LayerKind, LayerStatus)> = c
        .layers
        .iter()
        .map(|l| (l.kind.clone(), l.status.clone()))
        .collect();
    assert_eq!(
        statuses,
        vec![
            (
                LayerKind::Bundle(builtin::BASE.to_owned()),
                LayerStatus::BuiltIn
            ),
            (
                LayerKind::Bundle(builtin::HEADLESS.to_owned()),
                LayerStatus::BuiltIn
            ),
            (LayerKind::Profile, LayerStatus::Absent),
            (LayerKind::Home, LayerStatus::Absent),
        ]
    );
    assert_eq!(c.warnings, vec![]);
}

/// real dsh (c24-order): profile 300, home 1200 with candidates, --patch 900:
/// the dumped row is `config: {maxBytes: 900}`, candidates back to default.
#[test]
fn layers_apply_in_order_and_config_is_replaced_whole() {
    let f = Fixture::new();
    f.write(
        "home/.dsh/profiles/headless/cordis.patch.yml",
        &layer("    maxBytes: 300\n"),
    );
    f.home_layer(&layer(
        "    maxBytes: 1200\n    instructionFileCandidates: [CLAUDE.md]\n",
    ));
    let patch = f.write("patch-0.yml", &layer("    maxBytes: 900\n"));
    let mut input = f.input("headless");
    input.patches = vec![PathBuf::from("../patch-0.yml")];
    let c = read(&input);
    let e = loaded(&c);
    assert_eq!(e.max_bytes.value, 900.0);
    assert_eq!(e.max_bytes.origin, ConfigOrigin::Config(patch));
    assert_eq!(
        e.instruction_file_candidates,
        RowSetting {
            value: vec!["AGENTS.md".to_owned(), "CLAUDE.md".to_owned()],
            origin: ConfigOrigin::Default,
            line: None,
            expression: None
        }
    );
    // home beats profile without a --patch.
    let c = f.read();
    assert_eq!(loaded(&c).max_bytes.value, 1200.0);
    assert_eq!(
        loaded(&c).instruction_file_candidates.value,
        vec!["CLAUDE.md".to_owned()]
    );
}

/// real dsh (c24-only-maxsource, ex-cfg-no-maxbytes).
#[test]
fn a_patch_setting_only_max_source_bytes_drops_max_bytes() {
    let f = Fixture::new();
    let p = f.home_layer(&layer("    maxSourceBytes: 4096\n"));
    assert_eq!(
        refused(&f.read()),
        (
            p.display().to_string(),
            Some(3),
            "invalid config: - $.maxBytes missing required value (at maxBytes)".to_owned()
        )
    );
}

/// Every validation failure (the config lines after the row, the line and
/// real dsh's wording: c24-* cases).
const VALIDATION_FAILURES: [(&str, usize, &str); 16] = [
    (
        "  config:\n    maxBytes: '65536'\n",
        3,
        "invalid config: - $.maxBytes expected number but got 65536 (at maxBytes)",
    ),
    (
        "  config:\n    maxBytes: 1000\n    maxSourceBytes: 0\n",
        4,
        "invalid config: - $.maxSourceBytes expected number >= 1 but got 0 (at maxSourceBytes)",
    ),
    (
        "  config:\n    maxBytes: 1000\n    maxSourceBytes: 1.5\n",
        4,
        "invalid config: - $.maxSourceBytes expected number multiple of 1 but got 1.5 (at maxSourceBytes)",
    ),
    (
        "  config:\n    maxBytes: 1000\n    maxSourceBytes: .inf\n",
        4,
        "invalid config: - $.maxSourceBytes expected number multiple of 1 but got Infinity (at maxSourceBytes)",
    ),
    (
        "  config:\n    maxBytes: 1000\n    instructionFileCandidates: AGENTS.md\n",
        4,
        "invalid config: - $.instructionFileCandidates expected array but got AGENTS.md (at instructionFileCandidates)",
    ),
    (
        "  config:\n    maxBytes: 1000\n    instructionFileCandidates: [AGENTS.md, 5]\n",
        4,
        "invalid config: - $.instructionFileCandidates[1] expected string but got 5 (at instructionFileCandidates.1)",
    ),
    (
        "  config:\n    maxBytes: 1000\n    projectRootMarkers: {a: 1}\n",
        4,
        "invalid config: - $.projectRootMarkers expected array but got [object Object] (at projectRootMarkers)",
    ),
    (
        "  config:\n    maxBytes: 1000\n    dshHome: 5\n",
        4,
        "invalid config: - $.dshHome expected string but got 5 (at dshHome)",
    ),
    (
        "  config:\n    dshHome: 5\n    maxSourceBytes: 0\n",
        3,
        "invalid config: - $.dshHome expected string but got 5 (at dshHome)",
    ),
    (
        "  config: null\n",
        2,
        "invalid config: - $.maxBytes missing required value (at maxBytes)",
    ),
    (
        "  config: abc\n",
        2,
        "invalid config: - expected object but got abc",
    ),
    (
        "  config: [1]\n",
        2,
        "invalid config: - expected object but got 1",
    ),
    (
        "  config:\n    maxBytes: 65_536\n",
        3,
        "invalid config: - $.maxBytes expected number but got 65_536 (at maxBytes)",
    ),
    (
        "  config:\n    maxBytes: yes\n",
        3,
        "invalid config: - $.maxBytes expected number but got yes (at maxBytes)",
    ),
    (
        "  config:\n    maxBytes: True\n",
        3,
        "invalid config: - $.maxBytes expected number but got true (at maxBytes)",
    ),
    (
        "  config:\n    maxBytes: ~\n",
        3,
        "invalid config: - $.maxBytes missing required value (at maxBytes)",
    ),
];

/// Every validation failure, with real dsh's wording (c24-* cases).
#[test]
fn validation_failures_use_dshs_own_wording() {
    for (text, line, message) in VALIDATION_FAILURES {
        let f = Fixture::new();
        let p = f.home_layer(&format!("{ROW}{text}"));
        assert_eq!(
            refused(&f.read()),
            (p.display().to_string(), Some(line), message.to_owned()),
            "{text}"
        );
    }
}

/// real dsh: c24-int-hex (1000), c24-int-octal-lead0 (1000 and 12),
/// c24-maxbytes-neg-inf (loaded, nothing sent), c24-no-config-key (bundle config kept).
#[test]
fn numbers_and_a_patch_without_config_load() {
    let f = Fixture::new();
    f.home_layer(&layer("    maxBytes: 0o1750\n    maxSourceBytes: 012\n"));
    let c = f.read();
    assert_eq!(
        (
            loaded(&c).max_bytes.value,
            loaded(&c).max_source_bytes.value
        ),
        (1000.0, 12.0)
    );
    f.home_layer(&layer("    maxBytes: -.inf\n"));
    assert_eq!(loaded(&f.read()).max_bytes.value, f64::NEG_INFINITY);
    f.home_layer(&format!("{ROW}  disabled: false\n"));
    let c = f.read();
    assert_eq!(
        loaded(&c).max_bytes.origin,
        ConfigOrigin::Bundle(builtin::BASE.to_owned())
    );
}

/// real dsh: ex-cfg-disabled and c24-disabled-str-false send nothing;
/// c24-disabled-zero and c24-disabled-js (`!!js 'false'`) send the baseline.
#[test]
fn disabled_follows_javascript_truthiness_and_names_the_deciding_file() {
    let f = Fixture::new();
    let p = f.home_layer(&format!("{ROW}  disabled: true\n"));
    assert_eq!(
        f.read().outcome,
        Outcome::NotMounted {
            file: p.display().to_string(),
            line: Some(2),
            reason: "the agent-instructions row is disabled".to_owned()
        }
    );
    f.home_layer(&format!("{ROW}  disabled: 'false'\n"));
    assert!(matches!(f.read().outcome, Outcome::NotMounted { .. }));
    f.home_layer(&format!("{ROW}  disabled: 0\n"));
    assert_eq!(loaded(&f.read()).max_bytes.value, 65536.0);
    f.home_layer(&format!("{ROW}  disabled: !!js 'false'\n"));
    let c = f.read();
    assert_eq!(loaded(&c).max_bytes.value, 65536.0);
    assert_eq!(
        c.warnings,
        vec![Warning {
            file: p.display().to_string(),
            line: Some(2),
            message: "disabled is set by an expression (false): agentctx cannot evaluate it and treats the row as enabled".to_owned()
        }]
    );
}

/// real dsh (c24-maxbytes-js) evaluates `!!js '500 + 200'`; agentctx never does.
#[test]
fn an_expression_is_a_warning_and_never_evaluated() {
    let f = Fixture::new();
    let p = f.home_layer(&layer("    maxBytes: !!js '500 + 200'\n"));
    let c = f.read();
    let e = loaded(&c);
    assert_eq!(
        e.max_bytes,
        RowSetting {
            value: 0.0,
            origin: ConfigOrigin::Config(p.clone()),
            line: Some(3),
            expression: Some("500 + 200".to_owned())
        }
    );
    assert_eq!(
        c.warnings,
        vec![Warning {
            file: p.display().to_string(),
            line: Some(3),
            message: "maxBytes is set by an expression (500 + 200): agentctx does not evaluate it"
                .to_owned()
        }]
    );
}

#[test]
fn dsh_home_forms() {
    let f = Fixture::new();
    let cases = [
        ("'~/altdsh'", f.path("home/altdsh"), "$DSH_HOME/AGENTS.md"),
        ("'~'", f.path("home"), "$DSH_HOME/AGENTS.md"),
        ("'~/.dsh'", f.path("home/.dsh"), "~/.dsh/AGENTS.md"),
        ("rel", f.path("ws/rel"), "$DSH_HOME/AGENTS.md"),
        ("''", f.path("ws"), "$DSH_HOME/AGENTS.md"),
        ("/abs/../x", PathBuf::from("/x"), "$DSH_HOME/AGENTS.md"),
    ];
    for (raw, want, display) in cases {
        f.home_layer(&layer(&format!("    maxBytes: 1000\n    dshHome: {raw}\n")));
        let c = f.read();
        let e = loaded(&c);
        assert_eq!(
            (&e.dsh_home.value, e.user_global_display.as_str()),
            (&want, display),
            "{raw}"
        );
    }
    // $DSH_HOME decides where the layers are; blank is unset.
    let mut input = f.input("headless");
    input.dsh_home = Some("  ".to_owned());
    assert_eq!(dsh_home(&input), f.path("home/.dsh"));
    input.dsh_home = Some("~/other".to_owned());
    assert_eq!(dsh_home(&input), f.path("home/other"));
}

/// real dsh: c24-dup-key, c24-not-list, c24-empty-file, c24-yaml-error.
#[test]
fn a_layer_that_is_not_a_list_of_mappings_refuses_to_start() {
    let f = Fixture::new();
    let p = f.path("home/.dsh/cordis.patch.yml");
    let d = p.display();
    let cases = [
        (
            format!("{ROW}  config:\n    maxBytes: 1\n    maxBytes: 2\n"),
            Some(4),
            format!("failed to parse patches {d}: YAMLException: duplicated mapping key (4:5)"),
        ),
        (
            "id: agent-instructions\nconfig: {maxBytes: 5}\n".to_owned(),
            Some(1),
            format!("patches {d} must be a top-level YAML array of loader patch entries"),
        ),
        (
            String::new(),
            Some(1),
            format!("patches {d} must be a top-level YAML array of loader patch entries"),
        ),
        (
            "- 5\n".to_owned(),
            Some(1),
            format!("patches entry 1 in {d} must be a mapping (a loader patch entry)"),
        ),
    ];
    for (text, line, message) in cases {
        f.home_layer(&text);
        assert_eq!(refused(&f.read()), (d.to_string(), line, message), "{text}");
    }
    f.home_layer(&format!("{ROW}  config: {{maxBytes: 5\n"));
    let (_, line, message) = refused(&f.read());
    assert!(
        message.starts_with(&format!("failed to parse patches {d}: YAMLException: ")),
        "{message}"
    );
    assert_eq!(line, Some(3));
    let c = f.read();
    assert_eq!(
        c.layers.last().map(|l| l.status.clone()),
        Some(LayerStatus::Error)
    );
}

#[test]
fn fifos_devices_and_huge_layers_are_refused_without_reading() {
    let f = Fixture::new();
    let p = f.path("home/.dsh/cordis.patch.yml");
    let status = std::process::Command::new("mkfifo")
        .arg(&p)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(
        refused(&f.read()),
        (
            p.display().to_string(),
            None,
            format!("failed to read patches {}: not a regular file", p.display())
        )
    );
    std::fs::remove_file(&p).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &p).unwrap();
    assert_eq!(
        refused(&f.read()).2,
        format!("failed to read patches {}: not a regular file", p.display())
    );
    std::fs::remove_file(&p).unwrap();
    std::fs::write(
        &p,
        vec![b'#'; usize::try_from(MAX_LAYER_BYTES + 1).unwrap()],
    )
    .unwrap();
    assert_eq!(
        refused(&f.read()).2,
        format!(
            "failed to read patches {}: too large: 1048577 bytes, over the 1048576-byte cap agentctx reads",
            p.display()
        )
    );
    let mut input = f.input("headless");
    input.patches = vec![f.path("missing.yml")];
    std::fs::remove_file(&p).unwrap();
    assert_eq!(
        refused(&read(&input)).2,
        format!(
            "failed to read overlay {}: no such file or directory",
            f.path("missing.yml").display()
        )
    );
}

/// real dsh: c24-name-mismatch and c24-missing-id load with the other
/// patches applied; c24-unknown-key loads 700 and ignores the two keys.
#[test]
fn skipped_patches_and_unknown_keys_are_warnings() {
    let f = Fixture::new();
    let p = f.home_layer(&format!(
        "- id: no-such-row\n  config: {{maxBytes: 5}}\n{ROW}  name: '@x/other'\n  config: {{maxBytes: 9}}\n{ROW}  config:\n    maxBytes: 700\n    precedence: nearest\n    maxbytes: 5\n"
    ));
    let c = f.read();
    let e = loaded(&c);
    assert_eq!(
        (e.max_bytes.value, e.ignored.clone()),
        (700.0, vec!["precedence".to_owned(), "maxbytes".to_owned()])
    );
    let file = p.display().to_string();
    let w = |line, message: &str| Warning {
        file: file.clone(),
        line: Some(line),
        message: message.to_owned(),
    };
    assert_eq!(
        c.warnings,
        vec![
            w(1, "patch: entry \"no-such-row\" not found"),
            w(
                3,
                "patch: name mismatch for \"agent-instructions\" (expected \"@deepseek-ai/dsh-agent-instructions\", got \"@x/other\"), skipping"
            ),
            w(9, "config key precedence is not one dsh reads: ignored"),
            w(10, "config key maxbytes is not one dsh reads: ignored"),
        ]
    );
}

/// real dsh (c24-insert-second): two loaders mount; agentctx uses the last.
#[test]
fn several_enabled_loader_rows_warn_and_the_last_is_used() {
    let f = Fixture::new();
    f.home_layer("- insert:\n  - id: ai2\n    name: '@deepseek-ai/dsh-agent-instructions'\n    config: {maxBytes: 800}\n");
    let c = f.read();
    assert_eq!(loaded(&c).max_bytes.value, 800.0);
    assert_eq!(c.warnings.len(), 1);
    assert!(
        c.warnings[0]
            .message
            .starts_with("2 enabled agent-instructions rows")
    );
}

#[test]
fn groups_insert_and_disable_their_children() {
    let f = Fixture::new();
    let p = f.home_layer(
        "- insert:\n  - id: g\n    name: cordis:group\n    group: true\n    config: []\n- id: g\n  insert:\n  - id: ai2\n    name: '@deepseek-ai/dsh-agent-instructions'\n    config: {maxBytes: 5}\n- id: agent-instructions\n  disabled: true\n- id: g\n  disabled: 1\n",
    );
    assert_eq!(
        f.read().outcome,
        Outcome::NotMounted {
            file: p.display().to_string(),
            line: Some(14),
            reason: "the agent-instructions row is disabled".to_owned()
        }
    );
}

/// real dsh (c24-anchor): an alias is the anchored mapping.
#[test]
fn anchors_and_aliases_resolve() {
    let f = Fixture::new();
    f.home_layer("- id: agent-instructions\n  config: &c\n    maxBytes: 700\n- id: agent-instructions\n  config: *c\n");
    assert_eq!(loaded(&f.read()).max_bytes.value, 700.0);
}

#[test]
fn a_custom_profile_needs_its_package_json() {
    let f = Fixture::new();
    let c = read(&f.input("mine"));
    assert_eq!(refused(&c).2, "profile mine does not exist");
    f.write(
        "home/.dsh/profiles/mine/package.json",
        r#"{"dsh":{"profile":{"bundles":["@deepseek-ai/dsh-base","@acme/extra"]}}}"#,
    );
    let c = read(&f.input("mine"));
    assert_eq!(loaded(&c).max_bytes.value, 65536.0);
    assert_eq!(c.warnings.len(), 1);
    assert_eq!(
        check_profile_name("a/b"),
        Err("invalid dsh profile name \"a/b\"".to_owned())
    );
    assert_eq!(check_profile_name("node_modules").is_err(), true);
    assert_eq!(check_profile_name("web"), Ok(()));
}

#[test]
fn web_reads_the_preset_not_the_layers() {
    let f = Fixture::new();
    let home = f.home_layer(&layer("    maxBytes: 500\n"));
    let c = read(&f.input("web"));
    assert_eq!(
        c.preset,
        Some((
            "standard".to_owned(),
            "agent-presets row (bundle:@deepseek-ai/dsh-web-app)".to_owned()
        ))
    );
    assert_eq!(
        loaded(&c).max_bytes.origin,
        ConfigOrigin::Preset("standard".to_owned())
    );
    assert_eq!(loaded(&c).max_bytes.value, 65536.0);
    assert_eq!(c.not_for_web, vec![ConfigOrigin::Config(home)]);

    let mut input = f.input("web");
    input.preset = Some("minimal".to_owned());
    assert!(matches!(read(&input).outcome, Outcome::NotMounted { .. }));

    let preset = f.write("home/.dsh/.agent-presets/mine/agent.cordis.yml", "- id: agent-instructions\n  name: '@deepseek-ai/dsh-agent-instructions'\n  config:\n    maxBytes: 4000\n");
    input.preset = Some("mine".to_owned());
    let c = read(&input);
    assert_eq!(
        loaded(&c).max_bytes.origin,
        ConfigOrigin::Preset(preset.display().to_string())
    );
    assert_eq!(loaded(&c).max_bytes.value, 4000.0);

    // includeUserRoot: false hides the user root: an unknown id.
    f.home_layer("- id: agent-presets\n  config: {default: standard, includeUserRoot: false}\n");
    assert_eq!(refused(&read(&input)).2, "unknown agent preset \"mine\"");

    // settings.yaml's default picks the preset.
    f.write(
        "home/.dsh/settings.yaml",
        "agent-presets:\n  default: minimal\n",
    );
    let c = read(&f.input("web"));
    assert_eq!(c.preset.map(|p| p.0), Some("minimal".to_owned()));
}

#[test]
fn no_dsh_config_ignores_every_user_layer() {
    let f = Fixture::new();
    f.home_layer("not: [valid");
    let mut input = f.input("headless");
    input.no_dsh_config = true;
    let c = read(&input);
    assert_eq!(loaded(&c).max_bytes.value, 65536.0);
    assert_eq!(c.layers[3].status, LayerStatus::Ignored);
}
