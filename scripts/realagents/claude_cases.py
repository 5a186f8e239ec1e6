#!/usr/bin/env python3
"""agentctx's Claude Code cases for ../shared/realagents (format: its examples.py).

    python3 ../shared/realagents/run_agents.py --prefix PREFIX --agents claude \\
        --agentctx $CARGO_TARGET_DIR/release/agentctx --work "$(mktemp -d)" \\
        --fixtures scripts/realagents/claude_cases.py

Two sets: `vec-*`, every claude case of tests/vectors-profiles (the tree and
setup of each conformance vector, run through the real claude-code 2.1.332),
and `cl-*`, hand cases for the rules the vectors cannot pin (listing order,
links, approval, markdown forms). docs/profiles.md says what they showed.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.join(HERE, "..", "..", "tests", "vectors-profiles-claude", "cases")

CASES = []


def case(name, tree, cwd, note, **kw):
    CASES.append(dict(name=name, agent="claude", tree=tree, cwd=cwd, note=note, **kw))


def from_vector(name):
    """A vector's tree as a realagents case (HOME and env kept, @TREE@ -> {CASE})."""
    d = os.path.join(VECTORS, name)
    with open(os.path.join(d, "case.json")) as f:
        c = json.load(f)
    if c["args"]:  # a flag the real agent has no counterpart for: the variable instead
        if c["args"][:1] == ["--claude-config-dir"]:
            c["env"] = dict(c["env"], CLAUDE_CONFIG_DIR=c["args"][1])
        else:
            return
    tree = []
    root = os.path.join(d, "tree")
    for base, dirs, files in os.walk(root):
        dirs.sort()
        for fn in sorted(files):
            p = os.path.join(base, fn)
            with open(p, "rb") as f:
                tree.append(("f", os.path.relpath(p, root), f.read()))
    s = c["setup"]
    for rel in s["empty_dirs"]:
        tree.append(("git", rel[: -len("/.git")] or ".") if rel.endswith(".git") else ("d", rel))
    for rel, text in s["files"].items():
        tree.append(("f", rel, text.replace("@TREE@", "{CASE}")))
    for rel, target in s.get("symlinks", {}).items():
        tree.append(("l", rel, target))
    env = {k: v.replace("@TREE@", "{CASE}") for k, v in c["env"].items()}
    home = env.pop("HOME").replace("{CASE}/", "")
    case("vec-" + name, tree, c["cwd"], c["description"], home=home, env=env)


if os.path.isdir(VECTORS):
    for n in sorted(os.listdir(VECTORS)):
        if n.startswith("cl-"):
            from_vector(n)

G = ("git", "r")

# ---------------------------------------------------------------- rules folders (rule 4)
case("cl-rules-order", [G] + [("f", f"r/.claude/rules/{n}.md", f"rule {n}\n") for n in
                               ["b", "a", "zz", "m", "c1", "Q"]] +
     [("f", "r/.claude/rules/sub/x.md", "sub x\n"), ("f", "r/.claude/rules/sub/a.md", "sub a\n")],
     "r", "many rules: the order the OS lists the folder (readdir), directories walked where met")
case("cl-rules-linked-dir-inside", [G, ("f", "r/s/shared/one.md", "linked rules dir, inside the cwd\n"),
                                    ("l", "r/s/.claude/rules", "../shared")],
     "r/s", "a rules folder that is a link into the cwd: read, at the real paths")
case("cl-rules-linked-dir-outside", [G, ("f", "elsewhere/one.md", "linked rules dir outside\n"),
                                     ("f", "r/CLAUDE.md", "root\n"),
                                     ("l", "r/.claude/rules", "../../elsewhere")],
     "r", "a rules folder that is a link out of the cwd: not read")
case("cl-rules-linked-dotclaude", [G, ("f", "elsewhere/rules/one.md", "linked .claude\n"),
                                   ("f", "r/CLAUDE.md", "root\n"), ("l", "r/.claude", "../elsewhere")],
     "r", "a .claude that is a link out of the cwd: its rules are not read")
case("cl-rules-linked-dir-outside-approved",
     [G, ("f", "elsewhere/one.md", "linked rules dir outside, approved\n"),
      ("f", "r/CLAUDE.md", "root\n"), ("l", "r/.claude/rules", "../../elsewhere"),
      ("f", "home/.claude.json", '{"projects": {"{CASE}/r": {"hasClaudeMdExternalIncludesApproved": true}}}')],
     "r", "the same link with external imports approved: read")
case("cl-rules-linked-file-in-subdir", [G, ("f", "r/s/real.md", "linked rule inside\n"),
                                        ("l", "r/s/.claude/rules/l.md", "../../real.md")],
     "r/s", "a rule that is a link to a file inside the cwd: read at its real path")
case("cl-rules-above-cwd", [G, ("f", "r/.claude/rules/top.md", "rule of the root\n"),
                            ("f", "r/s/t/CLAUDE.md", "t\n")],
     "r/s/t", "a rules folder of an ancestor is read")
case("cl-rules-conditional-imports", [G, ("f", "r/.claude/rules/scoped.md",
                                          "---\npaths: src/**/*.py\n---\nscoped @./inc.md\n"),
                                      ("f", "r/.claude/rules/inc.md", "imported by a scoped rule\n")],
     "r", "a paths: rule is left out at start; its import is loaded")
case("cl-rules-paths-forms", [G,
                              ("f", "r/.claude/rules/a.md", "---\npaths: \"**/**\"\n---\nall twice\n"),
                              ("f", "r/.claude/rules/b.md", "---\npaths: \"{**,**}\"\n---\nbraces\n"),
                              ("f", "r/.claude/rules/c.md", "---\npaths: \"\"\n---\nempty string\n"),
                              ("f", "r/.claude/rules/d.md", "---\npaths: 3\n---\nnumber\n"),
                              ("f", "r/.claude/rules/e.md", "---\npaths: [src/**, \"**\"]\n---\nmixed\n")],
     "r", "paths: values that are and are not all **")
case("cl-rules-non-md", [G, ("f", "r/.claude/rules/a.markdown", "no\n"), ("f", "r/.claude/rules/b.md.txt", "no\n"),
                         ("f", "r/.claude/rules/.hidden.md", "hidden rule\n"), ("d", "r/.claude/rules/dir.md")],
     "r", "only names ending in .md; a dotfile counts; a directory named x.md is walked")
case("cl-rules-empty-and-comment", [G, ("f", "r/.claude/rules/e.md", ""),
                                    ("f", "r/.claude/rules/c.md", "<!-- only -->\n"),
                                    ("f", "r/.claude/rules/ok.md", "ok\n")],
     "r", "empty and comment-only rules give no entry")

# ---------------------------------------------------------------- imports (rules 3, 7, 9)
case("cl-import-linked-base", [G, ("f", "r/docs/real.md", "real @./x.md\n"), ("f", "r/docs/x.md", "x in docs\n"),
                               ("f", "r/x.md", "x in root\n"), ("l", "r/CLAUDE.md", "docs/real.md")],
     "r", "a linked CLAUDE.md: its imports resolve against its real directory")
case("cl-import-link-out", [G, ("f", "out.md", "outside\n"), ("f", "r/CLAUDE.md", "r @./l.md\n"),
                            ("l", "r/l.md", "../out.md")],
     "r", "an import inside the cwd that is a link out of it: skipped")
case("cl-import-path-out-link-in", [G, ("f", "r/in.md", "inside\n"), ("f", "r/s/CLAUDE.md", "s @../l.md\n"),
                                    ("l", "l.md", "r/in.md")],
     "r/s", "an import outside the cwd that links back into it: skipped")
case("cl-import-approved-rules", [G, ("f", "o.md", "outside from a rule\n"),
                                  ("f", "r/.claude/rules/a.md", "rule @../../../o.md\n"),
                                  ("f", "home/.claude.json", '{"projects": {"{CASE}/r": {"hasClaudeMdExternalIncludesApproved": true}}}')],
     "r", "approval lets a rule import from outside")
case("cl-import-approved-no-git", [("f", "o.md", "outside\n"), ("f", "r/CLAUDE.md", "r @../o.md\n"),
                                   ("f", "home/.claude.json", '{"projects": {"{CASE}/r": {"hasClaudeMdExternalIncludesApproved": true}}}')],
     "r", "no .git: the project key is the cwd")
case("cl-import-approved-false", [G, ("f", "o.md", "outside\n"), ("f", "r/CLAUDE.md", "r @../o.md\n"),
                                  ("f", "home/.claude.json", '{"projects": {"{CASE}/r": {"hasClaudeMdExternalIncludesApproved": "yes"}}}')],
     "r", "a non-boolean approval does not count")
case("cl-import-local-type", [G, ("f", "r/CLAUDE.local.md", "local @./inc.md\n"), ("f", "r/inc.md", "inc\n")],
     "r", "an import of CLAUDE.local.md is typed local")
case("cl-import-user-rule", [G, ("f", "home/.claude/rules/u.md", "user rule @~/x.md\n"), ("f", "home/x.md", "home x\n")],
     "r", "a user rule imports from home")
case("cl-import-twice-in-file", [G, ("f", "r/CLAUDE.md", "@./a.md @./a.md @a.md\n"), ("f", "r/a.md", "a\n")],
     "r", "the same import three times: once")
case("cl-import-empty-stops", [G, ("f", "r/CLAUDE.md", "r @./e.md\n"), ("f", "r/e.md", "<!-- c --> \n@./deep.md\n"),
                               ("f", "r/deep.md", "deep\n")],
     "r", "an import whose text is only a comment and an import: empty? (the import line stays)")
case("cl-import-of-empty", [G, ("f", "r/CLAUDE.md", "r @./e.md\n"), ("f", "r/e.md", "---\nx: 1\n---\n"),
                            ("f", "r/deep.md", "deep\n")],
     "r", "an import that is only frontmatter: no entry")
case("cl-import-frontmatter-at", [G, ("f", "r/CLAUDE.md", "---\nsee: @./fm.md\n---\nbody\n"), ("f", "r/fm.md", "fm\n")],
     "r", "an @ inside frontmatter is not an import")
case("cl-import-agents-imports", [G, ("f", "r/AGENTS.md", "agents @./a.md\n"), ("f", "r/a.md", "imported by AGENTS.md\n"),
                                  ("f", "r/s/CLAUDE.local.md", "")],
     "r/s", "AGENTS.md imports stay with it; an empty CLAUDE.local.md does not hold it back (cwd r/s: a.md outside)")
case("cl-import-agents-imports-cwd", [G, ("f", "r/AGENTS.md", "agents @./a.md\n"), ("f", "r/a.md", "imported by AGENTS.md\n")],
     "r", "AGENTS.md and its import in the cwd")

# ---------------------------------------------------------------- AGENTS.md (rule 8)
case("cl-agents-held-by-ancestor", [("git", "r/s"), ("f", "r/CLAUDE.md", "above the repo\n"),
                                    ("f", "r/s/AGENTS.md", "agents\n")],
     "r/s", "a CLAUDE.md above the repository holds AGENTS.md back")
case("cl-agents-held-by-link", [G, ("f", "shared.md", "linked claude\n"), ("l", "r/CLAUDE.md", "../shared.md"),
                                ("f", "r/AGENTS.md", "agents\n")],
     "r", "a CLAUDE.md that is a link holds AGENTS.md back")
case("cl-agents-not-held-by-frontmatter-only", [G, ("f", "r/CLAUDE.md", "---\na: 1\n---\n"),
                                                ("f", "r/AGENTS.md", "agents\n")],
     "r", "a frontmatter-only CLAUDE.md does not hold AGENTS.md back")
case("cl-agents-user-is-project", [("git", "r"), ("f", "r/.claude/CLAUDE.md", "user file in the repo\n"),
                                   ("f", "r/AGENTS.md", "agents\n")],
     "r", "HOME is the repository: its .claude/CLAUDE.md is the user file and does not hold AGENTS.md back",
     home="r")
case("cl-agents-placement-deep", [("git", "r"), ("f", "r/AGENTS.md", "root agents\n"),
                                  ("f", "r/s/.claude/rules/q.md", "s rule\n"), ("f", "r/s/t/AGENTS.md", "t agents\n"),
                                  ("f", "r/s/t/.claude/AGENTS.md", "t dot agents\n"),
                                  ("f", "r/s/t/.claude/rules/x.md", "t rule\n"),
                                  ("f", "home/.claude/CLAUDE.md", "user\n")],
     "r/s/t", "AGENTS.md groups placed between the directories' rules")
case("cl-agents-same-as-user", [G, ("f", "home/.claude/CLAUDE.md", "same\n"), ("f", "r/AGENTS.md", "same\n")],
     "r", "an AGENTS.md with the user file's text stays (only project and local texts count)")

# ---------------------------------------------------------------- comments and markdown (rules 5-7)
MD = {
    "cl-md-setext": "Title\n=====\n<!-- after setext -->\nz\n",
    "cl-md-setext-dash": "Title\n---\n<!-- after setext dash -->\nz\n",
    "cl-md-def": "[ref]: http://x\n<!-- after def -->\nz\n",
    "cl-md-tab-indent": "\t<!-- tab -->\nz\n",
    "cl-md-list-nested": "- a\n  - b\n<!-- after nested -->\nz\n",
    "cl-md-list-lazy": "- a\nlazy\n<!-- after lazy -->\nz\n",
    "cl-md-list-blank": "- a\n\n<!-- after blank -->\nz\n",
    "cl-md-list-blank-indented": "- a\n\n  <!-- indented after blank -->\nz\n",
    "cl-md-ol-two": "x\n2. two\n<!-- c -->\nz\n",
    "cl-md-quote-nested": "> > deep\n<!-- after nested quote -->\nz\n",
    "cl-md-quote-blank": "> q\n\n<!-- after quote and blank -->\nz\n",
    "cl-md-fence-unclosed": "```\n<!-- in open fence -->\n",
    "cl-md-fence-tilde": "~~~\n<!-- tilde -->\n~~~\n<!-- after -->\nz\n",
    "cl-md-fence-long": "````\n```\n<!-- still fenced -->\n````\n<!-- out -->\nz\n",
    "cl-md-html-block-blank": "<div>\nx\n\n<!-- after div -->\nz\n",
    "cl-md-html-type7": "<span>\n<!-- after span line -->\n\n<!-- after blank -->\nz\n",
    "cl-md-comment-multiline": "a\n\n<!-- one\ntwo\nthree -->\nz\n",
    "cl-md-comment-then-text-same-line": "<!-- c --> kept <!-- d --> also\nz\n",
    "cl-md-comment-spaces-after": "<!-- c -->   \nz\n",
    "cl-md-comment-short": "<!-->\nz\n<!--->\ny\n",
    "cl-md-comment-crlf-lone": "a\r\n\r\n<!-- c -->\rz\r\n",
    "cl-md-heading-closed": "## H ##\n<!-- after closed heading -->\nz\n",
    "cl-md-hr-star": "* * *\n<!-- after hr -->\nz\n",
    "cl-md-paragraph-tab-line": "x\n\t\n<!-- after tab line -->\nz\n",
    "cl-md-blank-spaces-then": "x\n   \n<!-- after spaces line -->\nz\n",
    "cl-md-script": "<script>\n<!-- in script -->\n</script>\n<!-- after script -->\nz\n",
}
for n, text in MD.items():
    case(n, [G, ("f", "r/CLAUDE.md", text + "\nEND\n")], "r", "comment removal: " + repr(text))

IMP = {
    "cl-imp-list-code": ("- `x @./a.md`\n- see @./b.md\n", ["a.md`", "b.md"]),
    "cl-imp-emphasis-open": ("*@./a.md and _@./b.md\n", ["a.md", "b.md"]),
    "cl-imp-bracket": ("[@./a.md] and [x](@./b.md) and [y]( @./c.md)\n", ["a.md", "b.md", "c.md"]),
    "cl-imp-escape": ("\\*@./a.md and \\@./b.md\n", ["a.md", "b.md"]),
    "cl-imp-image": ("![@./a.md](x.png) ![alt @./b.md](y.png)\n", ["a.md", "b.md"]),
    "cl-imp-html-inline": ("<b>@./a.md</b> <!-- x -->@./b.md\n", ["a.md", "b.md"]),
    "cl-imp-autolink": ("<http://x>@./a.md <a@b.c> @./b.md\n", ["a.md", "b.md"]),
    "cl-imp-quote": ("> quoted @./a.md\n> > deeper @./b.md\n", ["a.md", "b.md"]),
    "cl-imp-html-block": ("<div>\n@./a.md\n</div>\n\n@./b.md\n", ["a.md", "b.md"]),
    "cl-imp-comment-block": ("<!-- c -->\n@./a.md\n\n<!-- x --> @./b.md\n", ["a.md", "b.md"]),
    "cl-imp-setext": ("@./a.md\n---\n", ["a.md"]),
    "cl-imp-nbsp": ("x\u00a0@./a.md x\u3000@./b.md\n", ["a.md", "b.md"]),
    "cl-imp-tilde": ("@~ @~/h.md\n", ["h.md"]),
    "cl-imp-strike": ("~~@./a.md~~ and $@./b.md\n", ["a.md", "b.md"]),
    "cl-imp-list-emph": ("- **@./a.md**\n- x `@./b.md`\n", ["a.md", "b.md"]),
    "cl-imp-ordered": ("1. @./a.md\n2) @./b.md\n", ["a.md", "b.md"]),
    "cl-imp-trailing-comma": ("see @./a.md, @./b.md; (@./c.md)\n", ["a.md", "a.md,", "b.md;", "c.md"]),
}
for n, (text, targets) in IMP.items():
    tree = [G, ("f", "r/CLAUDE.md", text)]
    for t in targets:
        if t == "h.md":
            tree.append(("f", "home/h.md", "target home h.md\n"))
        else:
            tree.append(("f", "r/" + t, f"target {t}\n"))
    case(n, tree, "r", "imports: " + repr(text))

# ---------------------------------------------------------------- sources and reading (rules 1-3, 10)
case("cl-src-fifo", [G, ("fifo", "r/CLAUDE.md"), ("f", "r/CLAUDE.local.md", "local\n")],
     "r", "a FIFO CLAUDE.md is skipped (never opened)")
case("cl-src-dir", [G, ("d", "r/CLAUDE.md"), ("f", "r/CLAUDE.local.md", "local\n")],
     "r", "a directory CLAUDE.md is skipped")
case("cl-src-large", [G, ("f", "r/CLAUDE.md", b"x" * 4194305), ("f", "r/CLAUDE.local.md", "local\n")],
     "r", "a CLAUDE.md over 4 MiB is skipped")
case("cl-src-at-limit", [G, ("f", "r/CLAUDE.md", b"y" * 4194304)],
     "r", "a CLAUDE.md of exactly 4 MiB is read")
case("cl-src-dangling", [G, ("l", "r/CLAUDE.md", "missing.md"), ("f", "r/CLAUDE.local.md", "local\n")],
     "r", "a dangling link is skipped")
case("cl-src-user-link", [G, ("f", "elsewhere.md", "user file by a link\n"), ("l", "home/.claude/CLAUDE.md", "../../elsewhere.md")],
     "r", "a user CLAUDE.md that is a link")
case("cl-src-user-hardlink-like", [G, ("f", "home/.claude/CLAUDE.md", "user\n"), ("f", "r/CLAUDE.md", "user\n")],
     "r", "the same text in the user and project files: both")
case("cl-src-trim-unicode", [G, ("f", "r/CLAUDE.md", "\u2028\u00a0 text \u3000\ufeff\n\u0085")],
     "r", "ECMAScript trim of an entry (U+0085 stays)")
case("cl-src-config-dir-empty", [G, ("f", "home/.claude/CLAUDE.md", "home user\n")],
     "r", "CLAUDE_CONFIG_DIR empty: ~/.claude", env={"CLAUDE_CONFIG_DIR": ""})
case("cl-src-config-dir-json", [G, ("f", "cfg/CLAUDE.md", "cfg\n"), ("f", "o.md", "out\n"), ("f", "r/CLAUDE.md", "r @../o.md\n"),
                                ("f", "home/.claude.json", '{"projects": {"{CASE}/r": {"hasClaudeMdExternalIncludesApproved": true}}}')],
     "r", "with CLAUDE_CONFIG_DIR, ~/.claude.json is not read", env={"CLAUDE_CONFIG_DIR": "{CASE}/cfg"})
case("cl-src-disable-yes", [G, ("f", "r/CLAUDE.md", "r\n")], "r", "CLAUDE_CODE_DISABLE_CLAUDE_MDS=yes",
     env={"CLAUDE_CODE_DISABLE_CLAUDE_MDS": "yes"})
case("cl-src-disable-false", [G, ("f", "r/CLAUDE.md", "r\n")], "r", "CLAUDE_CODE_DISABLE_CLAUDE_MDS=false",
     env={"CLAUDE_CODE_DISABLE_CLAUDE_MDS": "false"})
case("cl-src-below-cwd-rules", [G, ("f", "r/s/.claude/rules/x.md", "below\n"), ("f", "r/CLAUDE.md", "r\n")],
     "r", "rules below the cwd are not read at start")
case("cl-src-no-git", [("f", "r/s/CLAUDE.md", "s\n"), ("f", "r/CLAUDE.md", "r\n")],
     "r/s", "no repository: every ancestor")
case("cl-src-dot-claude-md-and-rules-same", [G, ("f", "r/.claude/CLAUDE.md", "dot\n"),
                                             ("l", "r/.claude/rules/dot.md", "../CLAUDE.md")],
     "r", "a rule linked to .claude/CLAUDE.md: read once")



# ---------------------------------------------------------------- second round (after the first comparison)
case("cl-src-config-dir-empty-project", [G, ("f", "home/.claude/CLAUDE.md", "home user\n"), ("f", "r/CLAUDE.md", "r\n"),
                                         ("f", "r/rules/x.md", "rules under the cwd\n"), ("f", "r/s/CLAUDE.md", "s\n")],
     "r/s", "CLAUDE_CONFIG_DIR set but empty: the config dir is relative to the process cwd",
     env={"CLAUDE_CONFIG_DIR": ""})
case("cl-src-config-dir-relative", [G, ("f", "r/cfg/CLAUDE.md", "relative cfg\n"), ("f", "r/CLAUDE.md", "r\n")],
     "r", "CLAUDE_CONFIG_DIR relative: against the process cwd", env={"CLAUDE_CONFIG_DIR": "cfg"})
for i, v in enumerate(["1", "0", '""', '"false"', "null", "{}", "[]"]):
    case(f"cl-approved-truthy-{i}", [G, ("f", "o.md", "outside\n"), ("f", "r/CLAUDE.md", "r @../o.md\n"),
                                     ("f", "home/.claude.json", '{"projects": {"{CASE}/r": {"hasClaudeMdExternalIncludesApproved": %s}}}' % v)],
         "r", f"approval value {v}: JavaScript truthiness")
EMPH = {
    "cl-emph-closed-star": "*@./a.md* x\n",
    "cl-emph-closed-under": "_@./a.md_ x\n",
    "cl-emph-intraword": "x_@./a.md_ y\n",
    "cl-emph-strong-unclosed": "**@./a.md x\n",
    "cl-emph-space-close": "*@./a.md *\n",
    "cl-emph-later-close": "*@./a.md and more* x\n",
    "cl-link-text-at": "[@./a.md](http://x) [see @./b.md](u)\n",
    "cl-link-ref": "[@./a.md][r]\n\n[r]: http://x\n",
    "cl-link-nolink": "[@./a.md][]\n",
    "cl-escape-then": "\\\\@./a.md x\\_@./b.md\n",
}
for n, text in EMPH.items():
    case(n, [G, ("f", "r/CLAUDE.md", text), ("f", "r/a.md", "target a\n"), ("f", "r/b.md", "target b\n")],
         "r", "inline runs: " + repr(text))
PATHS = {"cl-paths-list-number": "[3, \"**\"]", "cl-paths-true": "true", "cl-paths-null": "null",
         "cl-paths-tilde": "~", "cl-paths-quoted-number": "\"3\"", "cl-paths-list-only-number": "[3]"}
for n, v in PATHS.items():
    case(n, [G, ("f", "r/.claude/rules/p.md", f"---\npaths: {v}\n---\nrule with paths {v}\n")],
         "r", f"paths: {v}")


if __name__ == "__main__":
    import collections
    print(len(CASES), collections.Counter(c["name"].split("-")[0] for c in CASES))

# ---------------------------------------------------------------- third round (what the random texts showed)
QUOTE = {
    "cl-q-two": "> q\n  <!-- two -->\nz\n",
    "cl-q-three": "> q\n   <!-- three -->\nz\n",
    "cl-q-nested-two": "> > q\n  <!-- two -->\nz\n",
    "cl-q-nested-zero": "> > q\n<!-- zero -->\nz\n",
    "cl-q-list": "> - item\n  <!-- two -->\nz\n",
    "cl-q-lazy-then": "> q\nlazy\n  <!-- two -->\nz\n",
    "cl-p-two": "p\n  <!-- two -->\nz\n",
    "cl-def-then": "[r]: http://x\n   <!-- three -->\nz\n",
    "cl-def-title": "[r]: http://x \"t\"\n<!-- c -->\nz\n",
    "cl-def-in-paragraph": "p\n[r]: http://x\n  <!-- two -->\nz\n",
    "cl-pi-then-span": "<?x ?>\n<span>\n<!-- c -->\n\n<!-- d -->\nz\n",
    "cl-heading-then-two": "# H\n  <!-- two -->\nz\n",
    "cl-list-two-under-3": "1. one\n  <!-- two -->\nz\n",
    "cl-list-three-under-3": "1. one\n   <!-- three -->\nz\n",
}
for n, text in QUOTE.items():
    case(n, [G, ("f", "r/CLAUDE.md", text + "\nEND\n")], "r", "comment removal: " + repr(text))
CASE_HTML = {
    "cl-p-upper-div": "p\n<DIV>\ny @./a.md\n",
    "cl-p-lower-div": "p\n<div>\ny @./a.md\n",
    "cl-p-upper-comment-after": "p\n<DIV>\n<!-- c -->\nz\n",
    "cl-top-upper-div": "<DIV>\ny @./a.md\n",
    "cl-p-script-upper": "p\n<SCRIPT>\ny @./a.md\n",
}
for n, text in CASE_HTML.items():
    case(n, [G, ("f", "r/CLAUDE.md", text + "\nEND\n"), ("f", "r/a.md", "target a\n")], "r", "html case: " + repr(text))
