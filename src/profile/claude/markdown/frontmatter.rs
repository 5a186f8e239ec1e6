//! Rule 5 [CL-fm]: the frontmatter of a memory file and its `paths`.

/// The text after its frontmatter, and the `paths` patterns of a rule
/// (None: unconditional) [CL-fm].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Frontmatter<'a> {
    pub body: &'a str,
    pub paths: Option<Vec<String>>,
}

/// Rule 5: when the text (after a BOM) starts with `---`, optional spaces
/// or tabs and a line break, and a later line is `---` with optional
/// spaces or tabs, everything through that line (and its line break) goes.
pub(crate) fn frontmatter(text: &str) -> Frontmatter<'_> {
    let unchanged = Frontmatter {
        body: text,
        paths: None,
    };
    let rest = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(after) = rest.strip_prefix("---") else {
        return unchanged;
    };
    let after = after.trim_start_matches([' ', '\t']);
    let Some(after) = after
        .strip_prefix("\r\n")
        .or_else(|| after.strip_prefix('\n'))
        .or_else(|| after.strip_prefix('\r'))
    else {
        return unchanged;
    };
    let mut pos = 0;
    while pos <= after.len() {
        let (line, next) = line_at_any(after, pos);
        if line
            .strip_prefix("---")
            .is_some_and(|t| t.trim_matches([' ', '\t']).is_empty())
        {
            let yaml = &after[..pos];
            return Frontmatter {
                body: &after[next..],
                paths: paths_of(yaml).and_then(|v| conditional(&v)),
            };
        }
        if next >= after.len() {
            break;
        }
        pos = next;
    }
    unchanged
}

/// The line at `pos` (without its break) and where the next one starts;
/// a break is CR LF, LF or CR.
fn line_at_any(text: &str, pos: usize) -> (&str, usize) {
    let rest = &text[pos..];
    match rest.find(['\n', '\r']) {
        Some(i) => {
            let skip = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
            (&rest[..i], pos + i + skip)
        }
        None => (rest, text.len()),
    }
}

/// The `paths` key of the frontmatter's YAML, as its list of strings: a
/// string, a flow list `[a, b]` or a block list of `- item` lines. None
/// when the key is absent or empty.
fn paths_of(yaml: &str) -> Option<Vec<String>> {
    let lines: Vec<&str> = yaml.lines().collect();
    let at = lines.iter().position(|l| l.starts_with("paths:"))?;
    let value = lines[at]["paths:".len()..].trim();
    if value.is_empty() {
        let items: Vec<String> = lines[at + 1..]
            .iter()
            .take_while(|l| l.starts_with([' ', '\t', '-']))
            .filter_map(|l| l.trim_start().strip_prefix('-'))
            .filter_map(|item| string_scalar(item.trim()))
            .collect();
        return (!items.is_empty()).then_some(items);
    }
    if let Some(inner) = value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
        return Some(
            split_outside_braces(inner)
                .into_iter()
                .filter_map(|s| string_scalar(&s))
                .collect(),
        );
    }
    let scalar = string_scalar(value)?;
    (!scalar.is_empty()).then(|| vec![scalar])
}

/// A plain YAML scalar that is not a string (core schema: null, booleans,
/// numbers): Claude Code reads no pattern from it.
fn typed_scalar(s: &str) -> bool {
    let s = s.trim();
    matches!(
        s,
        "" | "~"
            | "null"
            | "Null"
            | "NULL"
            | "true"
            | "True"
            | "TRUE"
            | "false"
            | "False"
            | "FALSE"
            | ".inf"
            | "-.inf"
            | "+.inf"
            | ".nan"
            | ".NaN"
            | ".NAN"
    ) || s.parse::<f64>().is_ok()
        || s.strip_prefix("0x")
            .is_some_and(|h| !h.is_empty() && h.bytes().all(|c| c.is_ascii_hexdigit()))
        || s.strip_prefix("0o")
            .is_some_and(|o| !o.is_empty() && o.bytes().all(|c| (b'0'..=b'7').contains(&c)))
}

/// A YAML scalar as a string pattern, or None when it is typed otherwise.
fn string_scalar(s: &str) -> Option<String> {
    let t = s.trim();
    if !(t.starts_with('"') || t.starts_with('\'')) && typed_scalar(t) {
        return None;
    }
    Some(unquote(t))
}

fn unquote(s: &str) -> String {
    let s = s.trim();
    for q in ['"', '\''] {
        if let Some(inner) = s.strip_prefix(q).and_then(|t| t.strip_suffix(q)) {
            return inner.to_owned();
        }
    }
    s.to_owned()
}

/// Splits on `,` outside braces, each part trimmed, empty parts dropped.
fn split_outside_braces(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in text.chars() {
        match c {
            '{' => {
                depth += 1;
                cur.push(c);
            }
            '}' => {
                depth -= 1;
                cur.push(c);
            }
            ',' if depth == 0 => {
                let t = cur.trim();
                if !t.is_empty() {
                    out.push(t.to_owned());
                }
                cur.clear();
            }
            _ => cur.push(c),
        }
    }
    let t = cur.trim();
    if !t.is_empty() {
        out.push(t.to_owned());
    }
    out
}

/// `{a,b}` expanded, first group first (a pattern without braces as is).
fn expand_braces(pattern: &str) -> Vec<String> {
    let (Some(open), Some(_)) = (pattern.find('{'), pattern.find('}')) else {
        return vec![pattern.to_owned()];
    };
    let Some(close) = pattern[open..].find('}').map(|i| open + i) else {
        return vec![pattern.to_owned()];
    };
    if close == open + 1 {
        return vec![pattern.to_owned()];
    }
    let (head, inner, tail) = (
        &pattern[..open],
        &pattern[open + 1..close],
        &pattern[close + 1..],
    );
    inner
        .split(',')
        .flat_map(|alt| expand_braces(&format!("{head}{}{tail}", alt.trim())))
        .collect()
}

/// Rule 4: the patterns of `paths`, or None when they leave the rule
/// unconditional (none left, or all `**`).
fn conditional(items: &[String]) -> Option<Vec<String>> {
    let patterns: Vec<String> = items
        .iter()
        .flat_map(|item| split_outside_braces(item))
        .flat_map(|p| expand_braces(&p))
        .map(|p| p.strip_suffix("/**").map(str::to_owned).unwrap_or(p))
        .filter(|p| !p.is_empty())
        .collect();
    if patterns.iter().all(|p| p == "**") {
        None
    } else {
        Some(patterns)
    }
}
