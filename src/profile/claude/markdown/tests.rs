use super::*;
use pretty_assertions::assert_eq;

fn strip(text: &str) -> String {
    strip_comments(text).unwrap_or_else(|| text.to_owned())
}

#[test]
fn frontmatter_forms() {
    assert_eq!(
        frontmatter("\u{feff}---\r\nt: x\r\n---\r\nbody").body,
        "body"
    );
    assert_eq!(frontmatter("---\nt\n...\nx").body, "---\nt\n...\nx");
    assert_eq!(frontmatter("  ---\nt\n---\nx").body, "  ---\nt\n---\nx");
    assert_eq!(frontmatter("---\nt: x\n---").body, "");
    assert_eq!(frontmatter("---\n---\nbody").body, "body");
    assert_eq!(frontmatter("---\nfoo: [unclosed\n---\nb").body, "b");
}

#[test]
fn paths_decide_conditional_rules() {
    let p = |t: &str| frontmatter(t).paths;
    assert_eq!(p("---\npaths: \"**\"\n---\nx"), None);
    assert_eq!(p("---\npaths: []\n---\nx"), None);
    assert_eq!(
        p("---\npaths:\n  - \"src/**/*.ts\"\n---\nx"),
        Some(vec!["src/**/*.ts".to_owned()])
    );
    assert_eq!(
        p("---\npaths: src/{a,b}/**, **\n---\nx"),
        Some(vec![
            "src/a".to_owned(),
            "src/b".to_owned(),
            "**".to_owned()
        ])
    );
    assert_eq!(
        p("---\npaths: docs/**\n---\nx"),
        Some(vec!["docs".to_owned()])
    );
}

#[test]
fn comment_blocks_where_a_block_starts() {
    assert_eq!(
        strip("p1\n<!-- c1 -->\n\n\n\np2\n\nEND\n"),
        "p1\np2\n\nEND\n"
    );
    assert_eq!(strip("   <!-- three -->\nx\n"), "x\n");
    assert_eq!(strip("<!-- unclosed\nx\n"), "<!-- unclosed\nx\n");
    assert_eq!(
        strip("<div>\n<!-- in div -->\n</div>\n"),
        "<div>\n<!-- in div -->\n</div>\n"
    );
    assert_eq!(strip("> q\n<!-- after quote -->\nz\n"), "> q\nz\n");
    assert_eq!(strip("# H\n<!-- c -->\nz\n"), "# H\nz\n");
    assert_eq!(strip("- a\n<!-- c -->\nz\n"), "- a\nz\n");
    assert_eq!(
        strip("x\n    <!-- four -->\ny\n"),
        "x\n    <!-- four -->\ny\n"
    );
    assert_eq!(
        strip("x\n\n    <!-- code -->\n\ny\n"),
        "x\n\n    <!-- code -->\n\ny\n"
    );
    assert_eq!(strip("<!-- a --><!-- b -->\ntext\n"), "text\n");
    assert_eq!(strip("<!-- a -->text after\nnext\n"), "text after\nnext\n");
    assert_eq!(strip("x\n<!-- c -->\n  \ny\n"), "x\n  \ny\n");
    assert_eq!(
        strip("```\n<!-- f -->\n```\n<!-- r -->\nz\n"),
        "```\n<!-- f -->\n```\nz\n"
    );
    assert_eq!(strip("1. one\n<!-- c -->\nz\n"), "1. one\nz\n");
    assert_eq!(strip("<!--\n-->\nz\n"), "z\n");
    assert_eq!(strip("x\r\n<!-- c -->\r\ny\r\n"), "x\ny\n");
    assert_eq!(
        strip("- item\n  <!-- in -->\nend\n"),
        "- item\n  <!-- in -->\nend\n"
    );
    assert_eq!(
        strip("c <!-- i --> d\n  <!-- ind -->\n<!-- x --> trailing\n"),
        "c <!-- i --> d\n  <!-- ind -->\n trailing\n"
    );
}

#[test]
fn what_the_real_agent_showed_about_blocks() {
    // A quote's lazy line ends at indented HTML; a paragraph's does not.
    assert_eq!(strip("> q\n  <!-- two -->\nz\n"), "> q\nz\n");
    assert_eq!(strip("> q\nlazy\n  <!-- two -->\nz\n"), "> q\nlazy\nz\n");
    assert_eq!(strip("p\n  <!-- two -->\nz\n"), "p\n  <!-- two -->\nz\n");
    // A definition is a block of its own.
    assert_eq!(
        strip("[r]: http://x\n   <!-- three -->\nz\n"),
        "[r]: http://x\nz\n"
    );
    assert_eq!(
        strip("p\n[r]: http://x\n  <!-- two -->\nz\n"),
        "p\n[r]: http://x\n  <!-- two -->\nz\n"
    );
    // Only lower-case tags interrupt a paragraph.
    assert_eq!(strip("p\n<DIV>\n<!-- c -->\nz\n"), "p\n<DIV>\nz\n");
    assert_eq!(
        strip("p\n<div>\n<!-- c -->\nz\n"),
        "p\n<div>\n<!-- c -->\nz\n"
    );
    assert_eq!(import_tokens("p\n<DIV>\ny @./a.md\n"), ["./a.md"]);
}

#[test]
fn what_the_real_agent_showed_about_inline_runs() {
    let t = |s: &str| import_tokens(s);
    assert_eq!(t("*@./a.md and _@./b.md\n"), Vec::<String>::new());
    assert_eq!(
        t("*@./a.md* _@./b.md_ x_@./c.md_ *@./d.md *\n"),
        ["./a.md", "./b.md"]
    );
    assert_eq!(
        t("[@./a.md] [x](@./b.md) [y]( @./c.md) ![@./d.md](i.png)\n"),
        Vec::<String>::new()
    );
    assert_eq!(
        t("[@./a.md](u) [see @./b.md](u) [@./c.md][]\n"),
        ["./a.md", "./b.md"]
    );
    assert_eq!(t("[@./a.md][r]\n\n[r]: http://x\n"), ["./a.md"]);
    assert_eq!(t("\\\\@./a.md x\\_@./b.md\n"), ["./a.md", "./b.md"]);
}

#[test]
fn typed_yaml_paths_are_no_patterns() {
    let p = |t: &str| frontmatter(t).paths;
    for v in ["3", "true", "null", "~", "[3]", "[3, \"**\"]"] {
        assert_eq!(p(&format!("---\npaths: {v}\n---\nx")), None, "{v}");
    }
    assert_eq!(p("---\npaths: \"3\"\n---\nx"), Some(vec!["3".to_owned()]));
}

#[test]
fn any_text_is_read_without_panicking() {
    // Fragments with multi-byte characters next to every marker.
    let parts = [
        "\n",
        "\r",
        "\t",
        " ",
        "é",
        "😀",
        "<!--",
        "-->",
        "<",
        ">",
        "`",
        "```",
        "~~~",
        "*",
        "_",
        "[",
        "]",
        "(",
        ")",
        "\\",
        "@",
        "@./a.md",
        "- ",
        "1. ",
        "> ",
        "#",
        "---",
        "<div>",
        "<?",
        "?>",
        "<![CDATA[",
        "]]>",
        "[r]: ",
        "\u{a0}",
        "\u{2028}",
    ];
    let mut seed: u64 = 25;
    for _ in 0..3000 {
        let mut text = String::new();
        for _ in 0..24 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            text.push_str(parts[(seed >> 33) as usize % parts.len()]);
        }
        let fm = frontmatter(&text);
        let _ = strip_comments(fm.body);
        let _ = import_tokens(fm.body);
    }
}

#[test]
fn imports_in_text_runs_only() {
    let t = |s: &str| import_tokens(s);
    assert_eq!(
        t("see @docs/a.md and `@docs/no.md`\n```\n@./no2.md\n```\n    @./no3.md\n"),
        ["docs/a.md"]
    );
    assert_eq!(
        t("# @./h.md\n**@./b.md** and `c`@./c.md and x@./no.md\n"),
        ["./h.md", "./b.md", "./c.md"]
    );
    assert_eq!(
        t("@./a.md#frag @./my\\ file.md (@./p.md) @./q.md."),
        ["./a.md", "./my file.md", "./q.md."]
    );
    assert_eq!(t("@~/x @/ @/abs @#x @@y"), ["~/x", "/abs"]);
    assert_eq!(t("<!-- @./c.md -->\n"), Vec::<String>::new());
    assert_eq!(t("<!-- c --> @./after.md\n"), ["./after.md"]);
}
