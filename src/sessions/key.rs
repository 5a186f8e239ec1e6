//! The names dsh gives session directories (its session-persistence-jsonl
//! package): `--<projectKey(cwd)>--/<encodeSegment(id)>`. Both walk UTF-16
//! code units, as JavaScript strings are.

/// Pushes a UTF-16 code unit as it is when it is in `[A-Za-z0-9._-]`, else
/// as `~` and four upper-case hex digits.
fn push_unit(unit: u16, out: &mut String) {
    use std::fmt::Write;
    match u8::try_from(unit) {
        Ok(b) if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-') => {
            out.push(char::from(b));
        }
        _ => {
            let _ = write!(out, "~{unit:04X}");
        }
    }
}

/// A session id as one path segment: `.` and `..` are spelled out, and every
/// code unit outside `[A-Za-z0-9._-]` (so `~` too) becomes `~` and four
/// upper-case hex digits.
#[must_use]
pub fn encode_segment(id: &str) -> String {
    match id {
        "." => return "~002E".to_owned(),
        ".." => return "~002E~002E".to_owned(),
        _ => {}
    }
    let mut out = String::with_capacity(id.len());
    for unit in id.encode_utf16() {
        push_unit(unit, &mut out);
    }
    out
}

/// The longest slug kept, in characters (the directory name adds four).
const SLUG_MAX: usize = 251;

/// The project directory name for a cwd: each run of `/`, `\` or `:` becomes
/// one `-`, `[A-Za-z0-9._-]` stay, any other code unit becomes `~XXXX`;
/// leading `-` are stripped, an empty slug is `root`, the slug is cut to 251
/// characters and wrapped as `--{slug}--`. Lossy: two cwds can share a key.
#[must_use]
pub fn project_key(cwd: &str) -> String {
    let mut slug = String::with_capacity(cwd.len());
    let mut in_separators = false;
    for unit in cwd.encode_utf16() {
        if matches!(unit, 0x2F | 0x5C | 0x3A) {
            if !in_separators {
                slug.push('-');
            }
            in_separators = true;
            continue;
        }
        in_separators = false;
        push_unit(unit, &mut slug);
    }
    let slug = slug.trim_start_matches('-');
    // Every character of the slug is ASCII, so bytes are characters.
    let slug = match slug {
        "" => "root",
        s => &s[..s.len().min(SLUG_MAX)],
    };
    format!("--{slug}--")
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn segments_escape_utf16_units_and_tilde() {
        for (id, want) in [
            ("abc-1.2_3", "abc-1.2_3"),
            (".", "~002E"),
            ("..", "~002E~002E"),
            ("...", "..."),
            ("a~b", "a~007Eb"),
            ("a b/c", "a~0020b~002Fc"),
            ("é", "~00E9"),
            ("会话", "~4F1A~8BDD"),
            // Outside the BMP: two UTF-16 code units, a surrogate pair.
            ("😀", "~D83D~DE00"),
        ] {
            assert_eq!(encode_segment(id), want, "{id:?}");
        }
    }

    #[test]
    fn project_keys_fold_separator_runs() {
        for (cwd, want) in [
            ("/home/u/proj", "--home-u-proj--"),
            ("C:\\Users\\u", "--C-Users-u--"),
            ("//a:/\\b/", "--a-b---"),
            ("/", "--root--"),
            ("", "--root--"),
            ("/home/~u/ça va", "--home-~007Eu-~00E7a~0020va--"),
            ("/tmp/😀", "--tmp-~D83D~DE00--"),
        ] {
            assert_eq!(project_key(cwd), want, "{cwd:?}");
        }
    }

    #[test]
    fn project_keys_are_lossy() {
        assert_eq!(project_key("/a/b"), project_key("/a:b"));
        assert_eq!(project_key("/a-b"), project_key("/a/b"));
    }

    #[test]
    fn long_project_keys_keep_251_characters() {
        let cwd = format!("/{}", "x".repeat(300));
        assert_eq!(project_key(&cwd), format!("--{}--", "x".repeat(251)));
        let cwd = format!("/{}é", "x".repeat(249));
        assert_eq!(project_key(&cwd), format!("--{}~0--", "x".repeat(249)));
    }
}
