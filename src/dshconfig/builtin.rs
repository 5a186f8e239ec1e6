//! What dsh rc.8 ships, built in for when no installed copy is found
//! (CONFIG 11.2 step 1, 11.5 presets).

use std::cell::RefCell;
use std::rc::Rc;

use super::ConfigOrigin;
use super::yaml::{Node, Value};

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

/// The entries of an in-box bundle's layer, as parsing [`bundle_layer`]'s
/// text gives them (a unit test holds the two equal), built without the
/// YAML parser: every command reads them, and parsing is most of its cost.
#[must_use]
pub fn bundle_entries(name: &str) -> Option<Vec<Node>> {
    let b = Build(Rc::new(ConfigOrigin::Bundle(name.to_owned())));
    match name {
        BASE => Some(vec![b.map(
            1,
            vec![(
                "insert",
                b.list(
                    2,
                    vec![
                        b.map(
                            2,
                            vec![
                                ("id", b.s(2, "session-persistence-jsonl")),
                                ("name", b.s(3, "@deepseek-ai/dsh-session-persistence-jsonl")),
                                (
                                    "config",
                                    b.map(5, vec![("root", b.expr(5, "dshHomePath('sessions')"))]),
                                ),
                            ],
                        ),
                        b.loader_row(6, 65536.0),
                    ],
                ),
            )],
        )]),
        WEB_APP => Some(vec![
            b.map(
                1,
                vec![
                    ("id", b.s(1, "agent-instructions")),
                    ("disabled", b.node(2, Value::Bool(true))),
                ],
            ),
            b.map(
                3,
                vec![(
                    "insert",
                    b.list(
                        4,
                        vec![b.map(
                            4,
                            vec![
                                ("id", b.s(4, "agent-presets")),
                                ("name", b.s(5, "@deepseek-ai/dsh-agent-presets")),
                                ("config", b.map(7, vec![("default", b.s(7, "standard"))])),
                            ],
                        )],
                    ),
                )],
            ),
        ]),
        HEADLESS => Some(Vec::new()),
        _ => None,
    }
}

/// A shipped preset's entries, as parsing [`preset`]'s text gives them.
#[must_use]
pub fn preset_entries(id: &str) -> Option<Vec<Node>> {
    let b = Build(Rc::new(ConfigOrigin::Preset(id.to_owned())));
    match id {
        "standard" | "code" | "cordis" => Some(vec![b.loader_row(1, 65536.0)]),
        "minimal" => Some(Vec::new()),
        _ => None,
    }
}

/// Builds nodes of one origin.
struct Build(Rc<ConfigOrigin>);

impl Build {
    fn node(&self, line: usize, value: Value) -> Node {
        Node {
            value,
            line,
            origin: self.0.clone(),
        }
    }

    fn s(&self, line: usize, text: &str) -> Node {
        self.node(line, Value::String(text.to_owned()))
    }

    fn expr(&self, line: usize, text: &str) -> Node {
        self.node(line, Value::Expr(text.to_owned()))
    }

    fn map(&self, line: usize, pairs: Vec<(&str, Node)>) -> Node {
        let pairs = pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
        self.node(line, Value::Map(Rc::new(RefCell::new(pairs))))
    }

    fn list(&self, line: usize, items: Vec<Node>) -> Node {
        self.node(line, Value::List(Rc::new(RefCell::new(items))))
    }

    /// The loader row with `config: {maxBytes: N}`, starting on `line`.
    fn loader_row(&self, line: usize, max_bytes: f64) -> Node {
        self.map(
            line,
            vec![
                ("id", self.s(line, "agent-instructions")),
                ("name", self.s(line + 1, LOADER)),
                (
                    "config",
                    self.map(
                        line + 3,
                        vec![("maxBytes", self.node(line + 3, Value::Number(max_bytes)))],
                    ),
                ),
            ],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str, origin: ConfigOrigin) -> Vec<Node> {
        match super::super::yaml::parse(text, &Rc::new(origin)) {
            Ok(Some(Node {
                value: Value::List(list),
                ..
            })) => list.borrow().clone(),
            Ok(None) => Vec::new(),
            other => panic!("{other:?}"),
        }
    }

    /// The built entries are exactly what the texts parse to, lines included.
    #[test]
    fn built_entries_are_the_parsed_texts() {
        for name in [BASE, WEB_APP, HEADLESS] {
            let text = bundle_layer(name).unwrap_or_default();
            assert_eq!(
                bundle_entries(name),
                Some(parsed(text, ConfigOrigin::Bundle(name.to_owned()))),
                "{name}"
            );
        }
        for id in ["standard", "code", "cordis", "minimal"] {
            let text = preset(id).unwrap_or_default();
            assert_eq!(
                preset_entries(id),
                Some(parsed(text, ConfigOrigin::Preset(id.to_owned()))),
                "{id}"
            );
        }
        assert_eq!(bundle_entries("@x/other"), None);
        assert_eq!(preset_entries("nope"), None);
    }
}
