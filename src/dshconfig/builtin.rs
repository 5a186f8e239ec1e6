//! What dsh rc.8 ships, built in for when no installed copy is found
//! (CONFIG 11.2 step 1, 11.5 presets).

/// The three in-box bundles.
pub const BASE: &str = "@deepseek-ai/dsh-base";
pub const WEB_APP: &str = "@deepseek-ai/dsh-web-app";
pub const HEADLESS: &str = "@deepseek-ai/dsh-headless";

/// The loader plugin's package name (the row's `name`).
pub const LOADER: &str = "@deepseek-ai/dsh-agent-instructions";

/// The layer an in-box bundle contributes, as YAML in the patch dialect
/// (only the rows agentctx reads: dsh:packages/bundle/*/cordis.patch.yml).
#[must_use]
pub fn bundle_layer(name: &str) -> Option<&'static str> {
    match name {
        BASE => Some(
            "- insert:\n    - id: session-persistence-jsonl\n      name: '@deepseek-ai/dsh-session-persistence-jsonl'\n      config:\n        root: !!js dshHomePath('sessions')\n    - id: agent-instructions\n      name: '@deepseek-ai/dsh-agent-instructions'\n      config:\n        maxBytes: 65536\n",
        ),
        WEB_APP => Some(
            "- id: agent-instructions\n  disabled: true\n- insert:\n    - id: agent-presets\n      name: '@deepseek-ai/dsh-agent-presets'\n      config:\n        default: standard\n",
        ),
        HEADLESS => Some(""),
        _ => None,
    }
}

/// The bundles of a profile without `package.json` (`None`: dsh refuses it).
#[must_use]
pub fn default_bundles(profile: &str) -> Option<Vec<String>> {
    match profile {
        "web" => Some(vec![BASE.to_owned(), WEB_APP.to_owned()]),
        "headless" => Some(vec![BASE.to_owned(), HEADLESS.to_owned()]),
        _ => None,
    }
}

/// A shipped web preset's entry list (only its loader row), by id.
#[must_use]
pub fn preset(id: &str) -> Option<&'static str> {
    match id {
        "standard" | "code" | "cordis" => Some(
            "- id: agent-instructions\n  name: '@deepseek-ai/dsh-agent-instructions'\n  config:\n    maxBytes: 65536\n",
        ),
        "minimal" => Some("[]\n"),
        _ => None,
    }
}
