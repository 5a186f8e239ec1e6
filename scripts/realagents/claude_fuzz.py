#!/usr/bin/env python3
"""Seeded random CLAUDE.md texts for ../shared/realagents (format: its examples.py):
block comments and @imports among lists, quotes, fences, code, HTML and
headings, to hold agentctx's block reading (SPEC 10.6.6-7) against the real
claude-code 2.1.332. Same run line as claude_cases.py, with
`--fixtures scripts/realagents/claude_fuzz.py`.
"""
import random

CASES = []
FRAGMENTS = [
    "", "", "text", "more text @./a.md", "- item", "- item @./b.md", "  - nested", "  continued",
    "    indented", "1. one", "2) two", "* star", "+ plus", "> quote", "> > deep @./c.md", ">",
    "```", "~~~", "````", "<div>", "</div>", "<span>", "<!-- c -->", "<!-- c --> tail @./d.md",
    "<!--", "-->", "  <!-- two -->", "   <!-- three -->", "\t<!-- tab -->", "# H", "## H @./e.md",
    "Title", "===", "---", "* * *", "`x @./f.md`", "*@./a.md*", "[x](@./b.md)", "[@./c.md](u)",
    "@./d.md", "<b>@./e.md</b>", "<!-- a --><!-- b -->", "a <!-- inline --> b", "- <!-- in item -->",
    "  <!-- under item -->", "<?x ?>", "<![CDATA[ x ]]>", "<script>", "</script>", "[r]: http://x",
]
MORE = [
    "-", "10. ten", "- [ ] task @./a.md", "   - three", "\t- tab item", "    - four", "  1. n",
    "> <!-- q -->", ">     code", "- ```", "  ```", "<!DOCTYPE x>", "<DIV>", "</p>", "<p>", "<x-y a=\"1\">",
    "***", "___", "--- ", "= =", "<table>", "  </table>", "@a.md", "@./b.md.", "x @./c.md\\", "\\@./d.md",
    "<!-- x -->\t", "<!---->", "<!-- -- -->", " \t", "\t", "-->text", "a  ", "<br>",
]
TARGETS = ["a", "b", "c", "d", "e", "f"]


def batch(prefix, seed, count, fragments):
    rng = random.Random(seed)
    for i in range(count):
        lines = [rng.choice(fragments) for _ in range(rng.randint(3, 12))]
        text = "\n".join(lines) + rng.choice(["\n", "", "\n\n", "\r\n"])
        tree = [("git", "r"), ("f", "r/CLAUDE.md", text)]
        tree += [("f", f"r/{t}.md", f"target {t}\n") for t in TARGETS]
        CASES.append(dict(name=f"{prefix}-{i:03d}", agent="claude", tree=tree, cwd="r",
                          note="random markdown: " + repr(text)))


batch("clf", 25, 120, FRAGMENTS)
batch("clg", 26, 200, FRAGMENTS + MORE)

if __name__ == "__main__":
    print(len(CASES))
