//! The entry-list YAML dialect (CONFIG 11.3): YAML read as js-yaml 4 reads it
//! with `JSON_SCHEMA` plus `!!js`. Parsed with `saphyr-parser`'s event API,
//! which gives every scalar's style and tag and every node's line, so plain
//! scalars resolve by js-yaml's own rules and quoted ones stay strings.
//!
//! Mappings and lists are shared (`Rc`) as JavaScript objects are: an alias
//! is the same object as its anchor, and the patch algorithm (11.4) mutates
//! rows in place the way dsh's `applyEntryPatches` does.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use saphyr_parser::{Event, Parser, ScalarStyle, Tag};

use super::ConfigOrigin;

/// One YAML node: its value, the line it starts on (1-based) and the layer
/// it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: Value,
    pub line: usize,
    pub origin: Rc<ConfigOrigin>,
}

/// A mapping: keys in file order (js-yaml builds a plain object).
pub type Map = Rc<RefCell<Vec<(String, Node)>>>;
/// A sequence.
pub type List = Rc<RefCell<Vec<Node>>>;

/// A resolved value (JSON plus the `!!js` expression).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    /// A `!!js` scalar: an expression dsh evaluates; agentctx never does.
    Expr(String),
    List(List),
    Map(Map),
}

impl Value {
    /// The value of `key` when this is a mapping.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<Node> {
        match self {
            Value::Map(map) => map
                .borrow()
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone()),
            _ => None,
        }
    }

    /// JavaScript truthiness of the literal (`0`, `""`, `NaN`, null are false).
    #[must_use]
    pub fn truthy(&self) -> bool {
        match self {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::Number(n) => *n != 0.0 && !n.is_nan(),
            Value::String(s) => !s.is_empty(),
            Value::Expr(_) | Value::List(_) | Value::Map(_) => true,
        }
    }

    /// `String(value)` in JavaScript, as dsh's validation messages print it.
    #[must_use]
    pub fn js_string(&self) -> String {
        match self {
            Value::Null => "null".to_owned(),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => crate::jsnum::to_string(*n),
            Value::String(s) => s.clone(),
            Value::Expr(_) | Value::Map(_) => "[object Object]".to_owned(),
            Value::List(list) => list
                .borrow()
                .iter()
                .map(|n| match n.value {
                    Value::Null => String::new(),
                    ref v => v.js_string(),
                })
                .collect::<Vec<_>>()
                .join(","),
        }
    }

    /// Whether this value is, or contains, a `!!js` expression.
    #[must_use]
    pub fn has_expr(&self) -> bool {
        match self {
            Value::Expr(_) => true,
            Value::List(list) => list.borrow().iter().any(|n| n.value.has_expr()),
            Value::Map(map) => map.borrow().iter().any(|(_, n)| n.value.has_expr()),
            _ => false,
        }
    }
}

/// A YAML error: the line and what js-yaml would reject.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    pub line: usize,
    /// 1-based, as js-yaml's `(line:column)` counts.
    pub column: usize,
    pub message: String,
}

/// Parses one file. `Ok(None)` for a stream with no document (js-yaml's
/// `undefined`: not a list, so the caller refuses it).
///
/// # Errors
/// Invalid YAML, more than one document, a duplicate key, an unknown tag or
/// a tag whose value does not resolve.
pub fn parse(text: &str, origin: &Rc<ConfigOrigin>) -> Result<Option<Node>, YamlError> {
    let mut builder = Builder {
        origin: Rc::clone(origin),
        anchors: HashMap::new(),
        stack: Vec::new(),
        root: None,
        documents: 0,
    };
    for event in Parser::new_from_str(text) {
        let (event, span) = event.map_err(|e| YamlError {
            line: e.marker().line(),
            column: e.marker().col() + 1,
            message: e.info().to_owned(),
        })?;
        builder.event(event, span.start.line(), span.start.col() + 1)?;
    }
    Ok(builder.root)
}

enum Open {
    List(List, usize, usize),
    Map(Map, usize, usize, Option<(String, usize, usize)>),
}

struct Builder {
    origin: Rc<ConfigOrigin>,
    anchors: HashMap<usize, Node>,
    stack: Vec<Open>,
    root: Option<Node>,
    documents: usize,
}

impl Builder {
    fn event(&mut self, event: Event<'_>, line: usize, column: usize) -> Result<(), YamlError> {
        let err = |message: String| YamlError {
            line,
            column,
            message,
        };
        match event {
            Event::DocumentStart(_) => {
                self.documents += 1;
                if self.documents > 1 {
                    return Err(err(
                        "expected a single document in the stream, but found more".to_owned(),
                    ));
                }
            }
            Event::Alias(id) => {
                let node = self
                    .anchors
                    .get(&id)
                    .cloned()
                    .ok_or_else(|| err("unidentified alias".to_owned()))?;
                self.push(node, column)?;
            }
            Event::Scalar(text, style, anchor, tag) => {
                let value = scalar(&text, style, tag.as_deref()).map_err(err)?;
                let node = self.node(value, line);
                self.anchor(anchor, &node);
                self.push(node, column)?;
            }
            Event::SequenceStart(anchor, tag) => {
                collection_tag(tag.as_deref(), "seq").map_err(err)?;
                self.stack
                    .push(Open::List(Rc::new(RefCell::new(Vec::new())), anchor, line));
            }
            Event::MappingStart(anchor, tag) => {
                collection_tag(tag.as_deref(), "map").map_err(err)?;
                self.stack.push(Open::Map(
                    Rc::new(RefCell::new(Vec::new())),
                    anchor,
                    line,
                    None,
                ));
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let node = match self.stack.pop() {
                    Some(Open::List(list, anchor, line)) => {
                        let node = self.node(Value::List(list), line);
                        self.anchor(anchor, &node);
                        node
                    }
                    Some(Open::Map(map, anchor, line, _)) => {
                        let node = self.node(Value::Map(map), line);
                        self.anchor(anchor, &node);
                        node
                    }
                    None => return Err(err("unbalanced collection".to_owned())),
                };
                self.push(node, column)?;
            }
            Event::Nothing | Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => {}
        }
        Ok(())
    }

    fn node(&self, value: Value, line: usize) -> Node {
        Node {
            value,
            line,
            origin: Rc::clone(&self.origin),
        }
    }

    fn anchor(&mut self, anchor: usize, node: &Node) {
        if anchor != 0 {
            self.anchors.insert(anchor, node.clone());
        }
    }

    fn push(&mut self, node: Node, column: usize) -> Result<(), YamlError> {
        match self.stack.last_mut() {
            None => self.root = Some(node),
            Some(Open::List(list, ..)) => list.borrow_mut().push(node),
            Some(Open::Map(map, _, _, pending)) => match pending.take() {
                None => *pending = Some((key_string(&node)?, node.line, column)),
                Some((key, line, column)) => {
                    let mut map = map.borrow_mut();
                    if map.iter().any(|(k, _)| *k == key) {
                        return Err(YamlError {
                            line,
                            column,
                            message: "duplicated mapping key".to_owned(),
                        });
                    }
                    map.push((key, node));
                }
            },
        }
        Ok(())
    }
}

/// A mapping key as js-yaml turns it into a property name.
fn key_string(node: &Node) -> Result<String, YamlError> {
    match &node.value {
        Value::List(_) | Value::Map(_) => Err(YamlError {
            line: node.line,
            column: 1,
            message: "a mapping or sequence as a mapping key is not supported".to_owned(),
        }),
        v => Ok(v.js_string()),
    }
}

const CORE: &str = "tag:yaml.org,2002:";

fn collection_tag(tag: Option<&Tag>, kind: &str) -> Result<(), String> {
    match tag {
        None => Ok(()),
        Some(t) if t.handle == "!" && t.suffix.is_empty() => Ok(()),
        Some(t) if t.handle == CORE && t.suffix == kind => Ok(()),
        Some(t) if t.handle == CORE && t.suffix == "js" => Err(format!(
            "unacceptable node kind for !<{CORE}js> tag; it should be \"scalar\", not \"{}\"",
            if kind == "seq" { "sequence" } else { "mapping" }
        )),
        Some(t) => Err(format!("unknown tag !<{}{}>", t.handle, t.suffix)),
    }
}

fn scalar(text: &str, style: ScalarStyle, tag: Option<&Tag>) -> Result<Value, String> {
    let Some(tag) = tag else {
        return Ok(if style == ScalarStyle::Plain {
            resolve_plain(text)
        } else {
            Value::String(text.to_owned())
        });
    };
    if tag.handle == "!" && tag.suffix.is_empty() {
        return Ok(Value::String(text.to_owned()));
    }
    if tag.handle != CORE {
        return Err(format!("unknown tag !<{}{}>", tag.handle, tag.suffix));
    }
    let cannot = || {
        format!(
            "cannot resolve a node with !<{CORE}{}> explicit tag",
            tag.suffix
        )
    };
    match tag.suffix.as_str() {
        "str" => Ok(Value::String(text.to_owned())),
        "js" => Ok(Value::Expr(text.to_owned())),
        "null" => resolve_null(text).ok_or_else(cannot),
        "bool" => resolve_bool(text).ok_or_else(cannot),
        "int" => resolve_int(text).ok_or_else(cannot),
        "float" => resolve_float(text).ok_or_else(cannot),
        "seq" | "map" => Err(format!(
            "unacceptable node kind for !<{CORE}{}> tag; it should be \"{}\", not \"scalar\"",
            tag.suffix,
            if tag.suffix == "seq" {
                "sequence"
            } else {
                "mapping"
            }
        )),
        other => Err(format!("unknown tag !<{CORE}{other}>")),
    }
}

/// A plain scalar through js-yaml 4's `JSON_SCHEMA` implicit types, in their
/// order: null, bool, int, float; anything else is a string.
#[must_use]
pub fn resolve_plain(text: &str) -> Value {
    resolve_null(text)
        .or_else(|| resolve_bool(text))
        .or_else(|| resolve_int(text))
        .or_else(|| resolve_float(text))
        .unwrap_or_else(|| Value::String(text.to_owned()))
}

fn resolve_null(text: &str) -> Option<Value> {
    matches!(text, "" | "~" | "null" | "Null" | "NULL").then_some(Value::Null)
}

fn resolve_bool(text: &str) -> Option<Value> {
    match text {
        "true" | "True" | "TRUE" => Some(Value::Bool(true)),
        "false" | "False" | "FALSE" => Some(Value::Bool(false)),
        _ => None,
    }
}

/// js-yaml 4.3 `int`: optional sign, then `0b`/`0x`/`0o` digits or decimal
/// digits (a leading 0 stays decimal); no underscores; only finite values.
fn resolve_int(text: &str) -> Option<Value> {
    let (sign, body) = match text.as_bytes().first()? {
        b'-' => (-1.0, &text[1..]),
        b'+' => (1.0, &text[1..]),
        _ => (1.0, text),
    };
    let (radix, digits) = match body.as_bytes() {
        [b'0', b'b', ..] => (2, &body[2..]),
        [b'0', b'x', ..] => (16, &body[2..]),
        [b'0', b'o', ..] => (8, &body[2..]),
        _ => (10, body),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    // parseInt: the digits' exact value, rounded to a double.
    let mut value = 0.0_f64;
    for c in digits.chars() {
        value = value * f64::from(radix) + f64::from(c.to_digit(radix)?);
    }
    let value = if radix == 10 {
        digits.parse::<f64>().ok()?
    } else {
        value
    };
    value.is_finite().then_some(Value::Number(sign * value))
}

/// js-yaml 4.3 `float`: `[-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?`,
/// `\.[0-9]+([eE][-+]?[0-9]+)?` (no sign), `[-+]?.inf` and `.nan` in three
/// casings; a finite pattern whose value overflows is a string.
fn resolve_float(text: &str) -> Option<Value> {
    let (sign, body) = match text.as_bytes().first()? {
        b'-' => (-1.0, &text[1..]),
        b'+' => (1.0, &text[1..]),
        _ => (1.0, text),
    };
    if matches!(body, ".inf" | ".Inf" | ".INF") {
        return Some(Value::Number(sign * f64::INFINITY));
    }
    if matches!(text, ".nan" | ".NaN" | ".NAN") {
        return Some(Value::Number(f64::NAN));
    }
    let signed = body.len() != text.len();
    let bytes = body.as_bytes();
    let int_len = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let mut i = int_len;
    if int_len == 0 {
        // `.5`: a fraction alone, never signed.
        if signed || bytes.first() != Some(&b'.') {
            return None;
        }
        i = 1;
        let frac = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if frac == 0 {
            return None;
        }
        i += frac;
    } else if bytes.get(i) == Some(&b'.') {
        i += 1;
        i += bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let exp = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        if exp == 0 {
            return None;
        }
        i += exp;
    }
    if i != bytes.len() {
        return None;
    }
    let value: f64 = body.parse().ok()?;
    value.is_finite().then_some(Value::Number(sign * value))
}
