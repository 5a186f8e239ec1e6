//! The patch algorithm (CONFIG 11.4), as dsh's `applyEntryPatches` runs it
//! (dsh:vendor/include/src/index.ts:58-128): one pass over every layer's
//! entries, in order, over an empty list; rows are shared objects, so a
//! patch replaces a key of the very row an index entry points at.

use std::collections::HashMap;

use super::Warning;
use super::builtin::LOADER;
use super::yaml::{Node, Value};

/// JSON.stringify of a scalar, for warnings (`%C`).
fn quoted(node: Option<&Node>) -> String {
    match node.map(|n| &n.value) {
        None => "undefined".to_owned(),
        Some(Value::String(s)) => serde_json::Value::String(s.clone()).to_string(),
        Some(v) => v.js_string(),
    }
}

/// The key an id indexes under (JS `Map` keys: strings and numbers differ).
fn id_key(value: &Value) -> String {
    match value {
        Value::String(s) => format!("s:{s}"),
        other => format!("v:{}", other.js_string()),
    }
}

fn index(map: &mut HashMap<String, Node>, entries: &[Node]) {
    for entry in entries {
        if let Some(id) = entry.value.get("id").filter(|n| n.value.truthy()) {
            map.insert(id_key(&id.value), entry.clone());
        }
        if entry.value.get("group").is_some_and(|g| g.value.truthy()) {
            if let Some(Node {
                value: Value::List(list),
                ..
            }) = entry.value.get("config")
            {
                let children = list.borrow().clone();
                index(map, &children);
            }
        }
    }
}

fn set(row: &Node, key: &str, value: Node) {
    if let Value::Map(map) = &row.value {
        let mut map = map.borrow_mut();
        match map.iter_mut().find(|(k, _)| k == key) {
            Some((_, slot)) => *slot = value,
            None => map.push((key.to_owned(), value)),
        }
    }
}

fn warn(warnings: &mut Vec<Warning>, patch: &Node, message: String) {
    warnings.push(Warning {
        file: patch.origin.file(),
        line: Some(patch.line),
        message,
    });
}

/// Applies `patches` (every layer's entries, in order) over an empty list;
/// returns the top-level rows. Skipped patches are warnings, in dsh's words.
pub fn apply(patches: &[Node], warnings: &mut Vec<Warning>) -> Vec<Node> {
    let mut data: Vec<Node> = Vec::new();
    let mut map: HashMap<String, Node> = HashMap::new();
    for patch in patches {
        let id = patch.value.get("id").filter(|n| n.value.truthy());
        let name = patch.value.get("name");
        if let Some(insert) = patch.value.get("insert").filter(|n| n.value.truthy()) {
            insert_rows(patch, &insert, id.as_ref(), &mut data, &mut map, warnings);
        } else {
            update_row(patch, id, name, &map, warnings);
        }
    }
    data
}

/// An `insert` patch: its rows appended to the group `id` names, else to
/// the top level; then indexed by id.
fn insert_rows(
    patch: &Node,
    insert: &Node,
    id: Option<&Node>,
    data: &mut Vec<Node>,
    map: &mut HashMap<String, Node>,
    warnings: &mut Vec<Warning>,
) {
    let Value::List(rows) = &insert.value else {
        warn(
            warnings,
            patch,
            "patch insert: `insert` is not a list; agentctx skips it (not modelled)".to_owned(),
        );
        return;
    };
    let rows = rows.borrow().clone();
    if let Some(id) = id {
        let Some(target) = map.get(&id_key(&id.value)).cloned() else {
            warn(
                warnings,
                patch,
                format!("patch insert: entry {} not found", quoted(Some(id))),
            );
            return;
        };
        if !target.value.get("group").is_some_and(|g| g.value.truthy()) {
            warn(
                warnings,
                patch,
                format!("patch insert: entry {} is not a group", quoted(Some(id))),
            );
            return;
        }
        let list = match target.value.get("config") {
            Some(Node {
                value: Value::List(list),
                ..
            }) => list,
            _ => {
                let node = Node {
                    value: Value::List(std::rc::Rc::default()),
                    line: insert.line,
                    origin: insert.origin.clone(),
                };
                set(&target, "config", node.clone());
                match node.value {
                    Value::List(list) => list,
                    _ => return,
                }
            }
        };
        list.borrow_mut().extend(rows.iter().cloned());
    } else {
        data.extend(rows.iter().cloned());
    }
    index(map, &rows);
}

/// A patch of the row `id` names: every key but `id`, `insert` and `name`
/// replaced whole, unless `name` mismatches.
fn update_row(
    patch: &Node,
    id: Option<Node>,
    name: Option<Node>,
    map: &HashMap<String, Node>,
    warnings: &mut Vec<Warning>,
) {
    let Some(id) = id else {
        warn(
            warnings,
            patch,
            "patch: id is required for non-insert patches".to_owned(),
        );
        return;
    };
    let Some(target) = map.get(&id_key(&id.value)).cloned() else {
        warn(
            warnings,
            patch,
            format!("patch: entry {} not found", quoted(Some(&id))),
        );
        return;
    };
    if let Some(name) = name.filter(|n| n.value.truthy()) {
        let current = target.value.get("name");
        if current.as_ref().map(|n| &n.value) != Some(&name.value) {
            warn(
                warnings,
                patch,
                format!(
                    "patch: name mismatch for {} (expected {}, got {}), skipping",
                    quoted(Some(&id)),
                    quoted(current.as_ref()),
                    quoted(Some(&name))
                ),
            );
            return;
        }
    }
    let overrides: Vec<(String, Node)> = match &patch.value {
        Value::Map(m) => m
            .borrow()
            .iter()
            .filter(|(k, _)| !matches!(k.as_str(), "id" | "insert" | "name"))
            .cloned()
            .collect(),
        _ => Vec::new(),
    };
    for (key, value) in overrides {
        set(&target, &key, value);
    }
}

/// A row by id, top level or inside groups.
#[must_use]
pub fn find_row(rows: &[Node], id: &str) -> Option<Node> {
    for row in rows {
        if row.value.get("id").map(|n| n.value) == Some(Value::String(id.to_owned())) {
            return Some(row.clone());
        }
        if let Some(Node {
            value: Value::List(list),
            ..
        }) = row.value.get("config")
        {
            if row.value.get("group").is_some_and(|g| g.value.truthy()) {
                let children = list.borrow().clone();
                if let Some(found) = find_row(&children, id) {
                    return Some(found);
                }
            }
        }
    }
    None
}

/// A preset's entry list is mounted as is (no patches).
#[must_use]
pub fn detach(entries: &[Node]) -> Vec<Node> {
    entries.to_vec()
}

/// One loader row of the composed tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub row: Node,
    pub enabled: bool,
    /// The `disabled` that turned it off (its own or an enclosing group's).
    pub decided_by: Option<Node>,
}

/// Whether `row` is disabled: `Some(node)` naming its `disabled`. A `!!js`
/// `disabled` is a warning and counts as enabled (11.6).
fn disabled(row: &Node, warnings: &mut Vec<Warning>) -> Option<Node> {
    let node = row.value.get("disabled")?;
    if let Value::Expr(expr) = &node.value {
        warnings.push(Warning {
            file: node.origin.file(),
            line: Some(node.line),
            message: format!(
                "disabled is set by an expression ({expr}): agentctx cannot evaluate it and treats the row as enabled"
            ),
        });
        return None;
    }
    node.value.truthy().then_some(node)
}

/// Every row named `@deepseek-ai/dsh-agent-instructions`, in tree order,
/// with whether it is enabled.
pub fn loader_rows(rows: &[Node], warnings: &mut Vec<Warning>) -> Vec<Found> {
    let mut found = Vec::new();
    walk(rows, None, warnings, &mut found);
    found
}

fn walk(
    rows: &[Node],
    group_off: Option<&Node>,
    warnings: &mut Vec<Warning>,
    found: &mut Vec<Found>,
) {
    for row in rows {
        let is_loader =
            row.value.get("name").map(|n| n.value) == Some(Value::String(LOADER.to_owned()));
        let is_group = row.value.get("group").is_some_and(|g| g.value.truthy());
        if !is_loader && !is_group {
            continue;
        }
        let own = disabled(row, warnings);
        let off = group_off.cloned().or(own);
        if is_loader {
            found.push(Found {
                row: row.clone(),
                enabled: off.is_none(),
                decided_by: off.clone(),
            });
        }
        if is_group {
            if let Some(Node {
                value: Value::List(list),
                ..
            }) = row.value.get("config")
            {
                let children = list.borrow().clone();
                walk(&children, off.as_ref(), warnings, found);
            }
        }
    }
}
