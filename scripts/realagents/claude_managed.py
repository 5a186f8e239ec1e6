"""Managed-file cases for claude_managed.sh (run inside its mount namespace)."""
CASES = []
def case(name, tree, cwd, note, **kw):
    CASES.append(dict(name=name, agent="claude", tree=tree, cwd=cwd, note=note, **kw))
G = ("git", "r")
case("clm-order", [G, ("f", "home/.claude/CLAUDE.md", "user\n"), ("f", "r/CLAUDE.md", "project\n"),
                   ("f", "r/AGENTS.md", "agents\n")], "r", "managed file, its import, managed rules, user, project")
case("clm-agents", [G, ("f", "r/AGENTS.md", "agents\n")], "r", "a managed CLAUDE.md does not hold AGENTS.md back")
