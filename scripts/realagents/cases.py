#!/usr/bin/env python3
"""Real-agent cases for the codex, gemini, opencode and copilot rules of PROFILES.md's issue-25
revision: one or more per rule changed. Run with ../shared/realagents/run_agents.py (format: its
examples.py):

    bash ../shared/realagents/setup.sh /tmp/realagents
    python3 ../shared/realagents/run_agents.py --prefix /tmp/realagents \
        --agentctx target/release/agentctx --work "$(mktemp -d)" --fixtures scripts/realagents/cases.py

The gemini cases named `-secure` need a root-owned directory that no group or other may write
(gemini reads system settings only from such a place): they use /opt/agentctx-gemsec-*, created
here by the runner (run as root, umask 022); `gm-sys-group-writable` needs its directory made
first: `mkdir -m 775 /opt/agentctx-gemsec-gw` (the runner keeps an existing directory's mode).
"""

CASES = []


def case(name, agent, tree, cwd, note, **kw):
    CASES.append(dict(name=name, agent=agent, tree=tree, cwd=cwd, note=note, **kw))


G = ("git", "proj")
GLOBAL = ("f", "codexhome/AGENTS.md", "Global codex rules.\n")


def trust(*pairs):
    """A codex [projects] table: (relative dir, level) pairs."""
    return "\n".join(f'[projects."{{CASE}}/{d}"]\ntrust_level = "{level}"' for d, level in pairs)


# ---------------------------------------------------------------- codex: the header (10.3.9)
case("cx-head-global-only", "codex", [G, GLOBAL], "proj",
     "global text alone: the header has no ` for {cwd}`")
case("cx-head-budget-zero", "codex", [G, GLOBAL, ("f", "proj/AGENTS.md", "Project text.\n")], "proj",
     "project_doc_max_bytes = 0: global only, header without the cwd",
     conf={"toml": "project_doc_max_bytes = 0"})
case("cx-head-blank-project", "codex", [G, GLOBAL, ("f", "proj/AGENTS.md", "  \n\t\n")], "proj",
     "a whitespace-only project doc gives no text: header without the cwd")
case("cx-head-empty-override", "codex", [G, GLOBAL, ("f", "proj/AGENTS.override.md", ""),
                                         ("f", "proj/AGENTS.md", "Hidden by the empty override.\n")], "proj",
     "an empty AGENTS.override.md wins and yields nothing: header without the cwd")
case("cx-head-project", "codex", [G, ("f", "proj/AGENTS.md", "Project only.\n")], "proj",
     "a project doc gives text: header with the cwd")
case("cx-head-loop-abort", "codex", [G, GLOBAL, ("l", "proj/AGENTS.override.md", "AGENTS.override.md"),
                                     ("f", "proj/AGENTS.md", "never\n")], "proj",
     "a link loop aborts project discovery: global only, header without the cwd")

# ---------------------------------------------------------------- codex: trust and project layers (10.3.0)
case("cx-trust-layer-budget", "codex", [G, ("f", "proj/.codex/config.toml", "project_doc_max_bytes = 4\n"),
                                        ("f", "proj/AGENTS.md", "root doc long\n")], "proj",
     "a trusted project's .codex/config.toml sets the budget",
     conf={"toml_tail": trust(("proj", "trusted"))})
case("cx-trust-layers-nearest", "codex", [G,
     ("f", "proj/.codex/config.toml", 'project_doc_max_bytes = 4\nproject_doc_fallback_filenames = ["N.md"]\n'),
     ("f", "proj/AGENTS.md", "root doc long\n"),
     ("f", "proj/u/.codex/config.toml", "project_doc_max_bytes = 9\n"),
     ("f", "proj/u/N.md", "u fallback\n")], "proj/u",
     "root and cwd layers: the nearest key wins, the user config is below both",
     conf={"toml": "project_doc_max_bytes = 100", "toml_tail": trust(("proj", "trusted"))})
case("cx-trust-none-layer-ignored", "codex", [G, ("f", "proj/.codex/config.toml", "project_doc_max_bytes = 3\n"),
                                              ("f", "proj/AGENTS.md", "full text, no trust entry\n")], "proj",
     "no trust entry: the project layer is not read")
case("cx-trust-other-value", "codex", [G, ("f", "proj/.codex/config.toml", "project_doc_max_bytes = 3\n"),
                                       ("f", "proj/AGENTS.md", "full text, odd trust level\n")], "proj",
     "trust_level neither trusted nor untrusted: no entry",
     conf={"toml_tail": trust(("proj", "maybe"))})
case("cx-trust-untrusted", "codex", [G, GLOBAL, ("f", "proj/AGENTS.md", "Project, untrusted.\n")], "proj",
     "trust_level untrusted: no project docs, the global text stays",
     conf={"toml_tail": trust(("proj", "untrusted"))})
case("cx-trust-untrusted-cwd", "codex", [G, GLOBAL, ("f", "proj/AGENTS.md", "Root, trusted.\n"),
                                         ("d", "proj/u")], "proj/u",
     "an untrusted cwd under a trusted root: no project docs",
     conf={"toml_tail": trust(("proj", "trusted"), ("proj/u", "untrusted"))})
case("cx-trust-trusted-cwd", "codex", [G, ("f", "proj/AGENTS.md", "root doc\n"),
                                       ("f", "proj/.codex/config.toml", "project_doc_max_bytes = 2\n"),
                                       ("f", "proj/u/.codex/config.toml", "project_doc_max_bytes = 5\n")], "proj/u",
     "a trusted cwd under an untrusted root: docs load, only the cwd layer",
     conf={"toml_tail": trust(("proj", "untrusted"), ("proj/u", "trusted"))})
case("cx-trust-marker-root", "codex", [G, ("d", "proj/h/.hg"), ("f", "proj/h/AGENTS.md", "h doc\n"),
                                       ("f", "proj/h/i/AGENTS.md", "i doc\n"),
                                       ("f", "proj/h/.codex/config.toml", "project_doc_max_bytes = 2\n")], "proj/h/i",
     "trust falls back to the project root found by the markers",
     conf={"toml": 'project_root_markers = [".hg"]', "toml_tail": trust(("proj/h", "trusted"))})
case("cx-trust-repo-root", "codex", [G, ("d", "proj/h/.hg"), ("f", "proj/h/AGENTS.md", "h doc long\n"),
                                     ("f", "proj/h/.codex/config.toml", "project_doc_max_bytes = 3\n")], "proj/h",
     "trust falls back to the repository root (.git) when the marker root has no entry",
     conf={"toml": 'project_root_markers = [".hg"]', "toml_tail": trust(("proj", "trusted"))})
case("cx-trust-mid-layer", "codex", [G, ("f", "proj/AGENTS.md", "root doc long\n"),
                                     ("f", "proj/u/.codex/config.toml", "project_doc_max_bytes = 3\n"),
                                     ("d", "proj/u/v")], "proj/u/v",
     "a layer between root and cwd trusted by its own entry",
     conf={"toml_tail": trust(("proj/u", "trusted"))})
case("cx-trust-no-root", "codex", [("f", "t/.codex/config.toml", "project_doc_max_bytes = 2\n"),
                                   ("f", "t/c/AGENTS.md", "cwd doc\n"),
                                   ("f", "t/c/.codex/config.toml", "project_doc_max_bytes = 3\n")], "t/c",
     "no project root: only the cwd layer",
     conf={"toml_tail": trust(("t/c", "trusted"), ("t", "trusted"))})
case("cx-trust-layer-markers-ignored", "codex", [G, ("d", "proj/h/.hg"), ("f", "proj/AGENTS.md", "root\n"),
                                                 ("f", "proj/h/AGENTS.md", "h\n"),
                                                 ("f", "proj/.codex/config.toml", 'project_root_markers = [".hg"]\n')],
     "proj/h", "a project layer's project_root_markers is ignored",
     conf={"toml_tail": trust(("proj", "trusted"))})
case("cx-trust-link-entry", "codex", [G, ("f", "proj/.codex/config.toml", "project_doc_max_bytes = 3\n"),
                                      ("f", "proj/AGENTS.md", "linked project\n"), ("l", "alias", "proj")], "alias",
     "a trust entry for a link's path does not match `cd LINK` (the real path)",
     conf={"toml_tail": trust(("alias", "trusted"))})

# ---------------------------------------------------------------- codex: fallback names (10.3.5)
case("cx-fallback-slash", "codex", [G, ("f", "proj/docs/X.md", "docs x\n"), ("f", "proj/X.md", "plain x\n")], "proj",
     "a fallback name with / is ignored; the next one is used",
     conf={"toml": 'project_doc_fallback_filenames = ["docs/X.md", "./X.md", "X.md"]'})
case("cx-fallback-slash-only", "codex", [G, ("f", "proj/docs/AI.md", "docs ai\n")], "proj",
     "only a fallback with /: nothing is loaded",
     conf={"toml": 'project_doc_fallback_filenames = ["docs/AI.md"]'})
case("cx-fallback-trusted-slash", "codex", [G, ("f", "proj/.codex/config.toml",
                                                'project_doc_fallback_filenames = ["docs/X.md", "X.md"]\n'),
                                            ("f", "proj/docs/X.md", "docs x\n"), ("f", "proj/X.md", "plain x\n")],
     "proj", "a trusted layer's fallback with a slash is ignored",
     conf={"toml_tail": trust(("proj", "trusted"))})

# ---------------------------------------------------------------- codex: cwd (10.1)
LINKED = [G, ("f", "proj/AGENTS.md", "Root.\n"), ("f", "proj/real/AGENTS.md", "Linked directory.\n"),
          ("l", "proj/alias", "real")]
case("cx-cwd-cd-link", "codex", LINKED, "proj/alias", "`cd LINK && codex`: the real path")
case("cx-cwd-C-link", "codex", LINKED, "proj/alias", "`codex -C LINK`: the link kept (--cwd-as-given)",
     conf={"cd": True})
case("cx-cwd-linked-parent", "codex", [G, ("f", "proj/AGENTS.md", "top\n"), ("f", "proj/real/sub/AGENTS.md", "sub\n"),
                                       ("l", "proj/ln", "real")], "proj/ln/sub",
     "a linked directory above the cwd resolves too")

# ---------------------------------------------------------------- gemini: the model decides the header (10.4.8)
GEM = [G, ("f", "home/.gemini/AGENTS.md", "Global agents.\n"), ("f", "proj/AGENTS.md", "Project agents.\n")]
AG = {"context": {"fileName": ["AGENTS.md"]}}
case("gm-model-legacy-flag", "gemini", GEM, "proj", "-m gemini-2.5-flash: legacy header (GEMINI.md)",
     conf={"model": "gemini-2.5-flash", "settings": AG})
case("gm-model-legacy-env", "gemini", GEM, "proj", "GEMINI_MODEL=gemini-2.5-pro: legacy header",
     conf={"model": None, "settings": AG}, env={"GEMINI_MODEL": "gemini-2.5-pro"})
case("gm-model-legacy-settings", "gemini", GEM, "proj", "settings model.name (padded): legacy header",
     conf={"model": None, "settings": {"model": {"name": " gemini-2.0-flash "}, **AG}})
case("gm-model-flag-beats-env", "gemini", GEM, "proj", "-m beats GEMINI_MODEL",
     conf={"model": "gemini-3-flash-preview", "settings": AG}, env={"GEMINI_MODEL": "gemini-2.5-pro"})
case("gm-model-env-beats-settings", "gemini", GEM, "proj", "GEMINI_MODEL beats model.name",
     conf={"model": None, "settings": {"model": {"name": "gemini-2.5-pro"}, **AG}},
     env={"GEMINI_MODEL": "gemini-3-flash-preview"})
case("gm-model-alias-flash", "gemini", GEM, "proj", "alias flash: a gemini-3 model",
     conf={"model": "flash", "settings": AG})
case("gm-model-alias-pro", "gemini", GEM, "proj", "alias pro: a gemini-3 model",
     conf={"model": "pro", "settings": AG})
case("gm-model-auto-2-5", "gemini", GEM, "proj", "auto-gemini-2.5 resolves to gemini-2.5-pro: legacy",
     conf={"model": "auto-gemini-2.5", "settings": AG})
case("gm-model-custom", "gemini", GEM, "proj", "a model not named gemini-*: modern header",
     conf={"model": "gemma-4-31b-it", "settings": AG})
case("gm-model-3-5", "gemini", GEM, "proj", "gemini-3.5-flash is a gemini-3 model",
     conf={"model": "gemini-3.5-flash", "settings": AG})
case("gm-model-legacy-global-only", "gemini", [G, ("f", "home/.gemini/GEMINI.md", "Global gemini.\n"),
                                               ("f", "home/.gemini/AGENTS.md", "Global agents.\n")], "proj",
     "legacy header with two global files",
     conf={"model": "gemini-2.5-flash", "settings": AG})

# ---------------------------------------------------------------- gemini: system files count only when secure (10.1)
GEMSYS = [G, ("f", "home/.gemini/AGENTS.md", "Global agents.\n"), ("f", "proj/AGENTS.md", "Project agents.\n")]
case("gm-sysdefaults-insecure", "gemini", GEMSYS, "proj", "system-defaults under the temp dir: skipped",
     conf={"system_defaults": AG})
case("gm-syssettings-insecure", "gemini", GEMSYS, "proj", "system settings under the temp dir: skipped",
     conf={"system_settings": AG})
case("gm-sysdefaults-secure", "gemini", GEMSYS, "proj", "system-defaults in a root-owned 755 directory: read",
     conf={"system_defaults": AG, "system_defaults_dir": "/opt/agentctx-gemsec-d"})
case("gm-syssettings-secure", "gemini", GEMSYS, "proj", "system settings in a root-owned 755 directory: read",
     conf={"system_settings": AG, "system_defaults_dir": "/opt/agentctx-gemsec-s"})
case("gm-sys-group-writable", "gemini", GEMSYS, "proj", "a group-writable directory above: skipped",
     conf={"system_settings": AG, "system_defaults_dir": "/opt/agentctx-gemsec-gw"})
case("gm-syssettings-beats-user", "gemini", GEMSYS + [("f", "proj/CTX.md", "Project ctx.\n")], "proj",
     "a secure system file beats the user settings",
     conf={"settings": {"context": {"fileName": ["CTX.md"]}}, "system_settings": AG,
           "system_defaults_dir": "/opt/agentctx-gemsec-b"})

# ---------------------------------------------------------------- opencode: config layers (10.5.5)
OCL = [G,
       ("f", "home/.opencode/opencode.json", '{"instructions": ["H.md"]}'),
       ("f", "proj/H.md", "h\n"), ("f", "proj/R.md", "r\n"), ("f", "proj/G.md", "g\n"), ("f", "proj/J.md", "j\n"),
       ("f", "proj/C.md", "c\n"), ("f", "proj/s/Q.md", "q\n"), ("f", "proj/s/S.md", "s\n"),
       ("f", "proj/opencode.jsonc", '{"instructions": ["C.md"]}'),
       ("f", "proj/opencode.json", '{"instructions": ["J.md"]}'),
       ("f", "proj/s/opencode.json", '{"instructions": ["S.md"]}'),
       ("f", "proj/s/.opencode/opencode.jsonc", '{\n // c\n "instructions": ["Q.md",],\n}'),
       ("f", "proj/.opencode/opencode.json", '{"instructions": ["R.md"]}')]
case("oc-layers-order", "opencode", OCL, "proj/s",
     "X, project files root first, .opencode nearest first, ~/.opencode",
     conf={"config": {"instructions": ["G.md"]}})
case("oc-layers-project-json-jsonc", "opencode", [G, ("f", "proj/A.md", "a\n"), ("f", "proj/B.md", "b\n"),
                                                  ("f", "proj/opencode.json", '{"instructions": ["A.md"]}'),
                                                  ("f", "proj/opencode.jsonc", '{"instructions": ["B.md"]}')],
     "proj", "one directory's opencode.json and opencode.jsonc: which first")
case("oc-layers-dotdir-json-jsonc", "opencode", [G, ("f", "proj/A.md", "a\n"), ("f", "proj/B.md", "b\n"),
                                                 ("f", "proj/.opencode/opencode.json", '{"instructions": ["A.md"]}'),
                                                 ("f", "proj/.opencode/opencode.jsonc", '{"instructions": ["B.md"]}')],
     "proj", "one .opencode directory's opencode.json and opencode.jsonc: which first")
case("oc-config-dir-env", "opencode", [G, ("f", "ocd/AGENTS.md", "from the config dir\n"),
                                       ("f", "ocd/opencode.json", '{"instructions": ["CD.md"]}'),
                                       ("f", "home/.config/opencode/AGENTS.md", "xdg global\n"),
                                       ("f", "proj/CD.md", "cd\n"), ("f", "proj/XD.md", "xd\n")], "proj",
     "OPENCODE_CONFIG_DIR: its AGENTS.md replaces the XDG one, its opencode.json is a late layer",
     conf={"config": {"instructions": ["XD.md"]}}, env={"OPENCODE_CONFIG_DIR": "{CASE}/ocd"})
case("oc-disabled-project", "opencode", [G, ("f", "home/.opencode/opencode.json", '{"instructions": ["G.md"]}'),
                                         ("f", "home/.config/opencode/G.md", "in the config dir\n"),
                                         ("f", "proj/G.md", "in the repo\n"),
                                         ("f", "proj/.opencode/opencode.json", '{"instructions": ["P.md"]}'),
                                         ("f", "proj/P.md", "p\n")], "proj",
     "project config disabled: ~/.opencode read, .opencode not, relative entries in the config dir",
     env={"OPENCODE_DISABLE_PROJECT_CONFIG": "1"})
case("oc-file-ref", "opencode", [G, ("f", "proj/A.md", "a\n"), ("f", "proj/AGENTS.md", "agents\n"),
                                 ("f", "proj/opencode.json", '{"instructions": ["A.md"], "x": "{file:./y}"}')], "proj",
     "{file:...} in a config: not expanded, exact false (the part is still equal here)")
case("oc-file-ref-list", "opencode", [G, ("f", "proj/A.md", "a from a file reference\n"),
                                      ("f", "proj/list.txt", "  A.md\n"),
                                      ("f", "proj/opencode.json", '{"instructions": ["{file:./list.txt}"]}')], "proj",
     "{file:PATH} is replaced by the file's trimmed text (JSON-escaped) before parsing")
case("oc-file-ref-commented", "opencode", [G, ("f", "proj/A.md", "a\n"),
                                           ("f", "proj/opencode.jsonc",
                                            '{\n  // "x": "{file:./missing.txt}",\n  "instructions": ["A.md"]\n}')],
     "proj", "a {file:...} on a // line is skipped (the file may be missing)")
case("oc-claude-global", "opencode", [G, ("f", "home/.claude/CLAUDE.md", "claude global\n"),
                                      ("f", "proj/AGENTS.md", "agents\n")], "proj",
     "no config-dir AGENTS.md: ~/.claude/CLAUDE.md is the global file")

# ---------------------------------------------------------------- opencode: instructions globs (10.5.6)
case("oc-glob-up", "opencode", [G, ("f", "proj/opencode.json", '{"instructions": ["rules/*.md"]}'),
                                ("f", "proj/rules/one.md", "root rule\n"), ("f", "proj/s/rules/two.md", "s rule\n"),
                                ("f", "proj/s/rules/x.txt", "no\n")], "proj/s",
     "relative glob: each directory from the cwd up to the worktree, nearest first")
case("oc-glob-abs-last-segment", "opencode", [G, ("f", "g/two.md", "two\n"), ("f", "g/one/x.md", "one x\n")], "proj",
     "absolute glob: only the last segment is a pattern",
     conf={"config": {"instructions": ["{CASE}/g/*/x.md", "{CASE}/g/t?o.md"]}})
case("oc-glob-tilde-brace", "opencode", [G, ("f", "home/ins/a.md", "ha\n"), ("f", "home/ins/b.md", "hb\n"),
                                         ("f", "home/ins/z.txt", "no\n")], "proj",
     "~/ glob with a brace set and a class; two matches in one directory",
     conf={"config": {"instructions": ["~/ins/{a,b}.[m]d"]}})
case("oc-glob-dot-dir-dedupe", "opencode", [G, ("f", "proj/.hidden.md", "hidden\n"),
                                            ("f", "proj/AGENTS.md", "agents\n"), ("d", "proj/dir.mdx/x")], "proj",
     "dotfiles match, directories do not, a file already loaded is kept once",
     conf={"config": {"instructions": [".h*.md", "dir.md*", "AGENTS.m?"]}})
case("oc-glob-deep-one", "opencode", [G, ("f", "proj/d/x/n.txt", "no\n"), ("f", "proj/d/x/y/deep.md", "deep\n")],
     "proj", "a ** glob with one match", conf={"config": {"instructions": ["d/**/*.md"]}})
case("oc-glob-last-segment-many", "opencode", [G, ("f", "proj/rules/a.md", "rule a\n"),
                                               ("f", "proj/rules/b.md", "rule b\n"),
                                               ("f", "proj/rules/c.md", "rule c\n")], "proj",
     "three matches of a last-segment wildcard: reverse listing order",
     conf={"config": {"instructions": ["rules/*.md"]}})
case("oc-glob-deep-many", "opencode", [G, ("f", "proj/d/a.md", "deep a\n"), ("f", "proj/d/x/b.md", "deep b\n"),
                                       ("f", "proj/d/x/y/c.md", "deep c\n")], "proj",
     "several ** matches: opencode's order (agentctx: exact false)",
     conf={"config": {"instructions": ["d/**/*.md"]}})
case("oc-glob-star-link-dir", "opencode", [G, ("f", "other/z.md", "through a link\n"), ("l", "proj/d/ln", "../../other"),
                                           ("f", "proj/d/k.md", "plain k\n")], "proj",
     "** does not follow a linked directory",
     conf={"config": {"instructions": ["d/**/*.md"]}})
case("oc-glob-leading-star-link", "opencode", [G, ("f", "other/z.md", "behind a link\n"), ("l", "proj/ln", "../other"),
                                               ("f", "proj/k.md", "plain k\n")], "proj",
     "a leading ** does not follow a linked directory",
     conf={"config": {"instructions": ["**/*.md"]}})
case("oc-glob-last-star-links", "opencode", [G, ("f", "o1/one.md", "first link\n"), ("f", "o2/two.md", "second link\n"),
                                             ("l", "proj/d/l1", "../../o1"), ("l", "proj/d/l2", "../../o2"),
                                             ("f", "proj/d/k.md", "plain k\n")], "proj",
     "a last ** follows one linked directory only",
     conf={"config": {"instructions": ["d/**"]}})
case("oc-glob-literal-through-link", "opencode", [G, ("f", "other/z.md", "via literal link\n"),
                                                  ("l", "proj/ln", "../other")], "proj",
     "a literal segment goes through a linked directory",
     conf={"config": {"instructions": ["ln/*.md"]}})
case("oc-glob-link-file", "opencode", [G, ("f", "other/t.md", "link target\n"), ("l", "proj/lnk.md", "../other/t.md")],
     "proj", "a link to a file matches (a link counts as a file)",
     conf={"config": {"instructions": ["lnk.*"]}})

# ---------------------------------------------------------------- opencode: cwd (10.5.1)
OLINK = [G, ("f", "proj/AGENTS.md", "root\n"), ("f", "proj/real/AGENTS.md", "real\n"), ("l", "proj/alias", "real")]
case("oc-cwd-link", "opencode", OLINK, "proj/alias", "a linked cwd is resolved (process cwd)")
case("oc-cwd-link-dir", "opencode", OLINK, "proj/alias", "`opencode run --dir LINK`: resolved too",
     conf={"dir": True})

# ---------------------------------------------------------------- gemini and codex: a linked cwd
case("gm-cwd-link", "gemini", [G, ("f", "proj/GEMINI.md", "root\n"), ("f", "proj/real/GEMINI.md", "real\n"),
                               ("l", "proj/alias", "real")], "proj/alias", "gemini: the workspace is the real path")

# ---------------------------------------------------------------- copilot: the listing (10.7)
case("cp-order", "copilot", [G,
     ("f", "home/.copilot/copilot-instructions.md", "cp-order user file\n"),
     ("f", "proj/.github/copilot-instructions.md", "cp-order repository file\n"),
     ("f", "proj/AGENTS.md", "cp-order root agents\n"), ("f", "proj/CLAUDE.md", "cp-order root claude\n"),
     ("f", "proj/GEMINI.md", "cp-order root gemini\n"),
     ("f", "proj/a/AGENTS.md", "cp-order middle agents\n"), ("f", "proj/a/GEMINI.md", "cp-order middle gemini\n"),
     ("f", "proj/a/b/AGENTS.md", "cp-order cwd agents\n"), ("f", "proj/a/b/CLAUDE.md", "cp-order cwd claude\n")],
     "proj/a/b", "user, repository, root, cwd, then the directories between")
case("cp-apply-to", "copilot", [G,
     ("f", "proj/.github/instructions/none.instructions.md", "cp-apply no frontmatter\n"),
     ("f", "proj/.github/instructions/all.instructions.md", '---\napplyTo: "**"\n---\ncp-apply all files\n'),
     ("f", "proj/.github/instructions/single.instructions.md", "---\napplyTo: '**'\n---\ncp-apply single quotes\n"),
     ("f", "proj/.github/instructions/src.instructions.md", '---\napplyTo: "src/**"\n---\ncp-apply src only\n'),
     ("f", "proj/.github/instructions/noapply.instructions.md", "---\ndescription: x\n---\ncp-apply no applyTo key\n"),
     ("f", "proj/.github/instructions/star.instructions.md", '---\napplyTo: "**/*"\n---\ncp-apply star star slash star\n'),
     ("f", "proj/.github/instructions/sub/deep.instructions.md", '---\napplyTo: "**"\n---\ncp-apply nested\n'),
     ("f", "proj/.github/instructions/plain.md", "cp-apply not an instructions file\n")], "proj",
     "path-specific files: applyTo forms, nesting, the suffix")
case("cp-order-mixed", "copilot", [G,
     ("f", "proj/.github/copilot-instructions.md", "cp-mixed repository file\n"),
     ("f", "proj/.github/instructions/x.instructions.md", "cp-mixed path-specific\n"),
     ("f", "proj/AGENTS.md", "cp-mixed root agents\n"), ("f", "proj/s/GEMINI.md", "cp-mixed cwd gemini\n")], "proj/s",
     "path-specific files come after the agent files")
case("cp-apply-forms", "copilot", [G, ("f", "proj/src/main.py", "print(1)\n"), ("f", "proj/README.md", "cp-forms readme\n"),
     ("f", "proj/.github/instructions/md.instructions.md", '---\napplyTo: "**/*.md"\n---\ncp-forms star star md\n'),
     ("f", "proj/.github/instructions/one.instructions.md", '---\napplyTo: "*"\n---\ncp-forms one star\n'),
     ("f", "proj/.github/instructions/py.instructions.md", '---\napplyTo: "**/*.py"\n---\ncp-forms python\n'),
     ("f", "proj/.github/instructions/srcdir.instructions.md", '---\napplyTo: "src/**"\n---\ncp-forms src exists\n'),
     ("f", "proj/.github/instructions/list.instructions.md", '---\napplyTo: "src/**,**"\n---\ncp-forms comma list\n'),
     ("f", "proj/.github/instructions/yaml.instructions.md", '---\napplyTo: ["**"]\n---\ncp-forms yaml list\n'),
     ("f", "proj/.github/instructions/slash.instructions.md", '---\napplyTo: "**/"\n---\ncp-forms slash\n'),
     ("f", "proj/.github/instructions/bare.instructions.md", '---\napplyTo: **\n---\ncp-forms bare\n'),
     ("f", "proj/.github/instructions/empty.instructions.md", '---\napplyTo: ""\n---\ncp-forms empty value\n'),
     ("f", "proj/.github/instructions/nofm.instructions.md", 'applyTo: "src/**"\ncp-forms not frontmatter\n')], "proj",
     "which applyTo values copilot sends at start")
case("cp-apply-catch-all", "copilot", [G,
     ("f", "proj/.github/instructions/a.instructions.md", '---\napplyTo: "**/**"\n---\ncp-all double globstar\n'),
     ("f", "proj/.github/instructions/b.instructions.md", '---\napplyTo: "./**"\n---\ncp-all dot slash\n'),
     ("f", "proj/.github/instructions/c.instructions.md", '---\napplyTo: " ** "\n---\ncp-all padded\n'),
     ("f", "proj/.github/instructions/d.instructions.md", '---\napplyTo: "*.*"\n---\ncp-all star dot star\n'),
     ("f", "proj/.github/instructions/e.instructions.md", '---\napplyTo: ["**", "*"]\n---\ncp-all list of two\n'),
     ("f", "proj/.github/instructions/f.instructions.md", '---\napplyTo: ["**", "src/**"]\n---\ncp-all list mixed\n'),
     ("f", "proj/.github/instructions/g.instructions.md", '---\napplyTo: "**, *"\n---\ncp-all comma two\n'),
     ("f", "proj/.github/instructions/h.instructions.md", "---\r\napplyTo: '**'\r\n---\r\ncp-all crlf\r\n"),
     ("f", "proj/.github/instructions/i.instructions.md", '---\nApplyTo: "src/**"\n---\ncp-all key case\n'),
     ("f", "proj/.github/instructions/j.instructions.md", '---\napplyTo: 7\n---\ncp-all number\n'),
     ("f", "proj/.github/instructions/k.instructions.md", '---\napplyTo: "**"\ncp-all unclosed\n'),
     ("f", "proj/.github/instructions/l.instructions.md", '\n---\napplyTo: "src/**"\n---\ncp-all leading blank line\n'),
     ("f", "proj/.github/instructions/m.instructions.md", '---\napplyTo: "**/*.*"\n---\ncp-all star star dot star\n')],
     "proj", "which applyTo values count as every file")
case("cp-sort", "copilot", [G,
     ("f", "proj/.github/instructions/a-b/x.instructions.md", "cp-sort dash dir\n"),
     ("f", "proj/.github/instructions/a/x.instructions.md", "cp-sort plain dir\n"),
     ("f", "proj/.github/instructions/B.instructions.md", "cp-sort capital B\n"),
     ("f", "proj/.github/instructions/a.instructions.md", "cp-sort small a\n")], "proj",
     "the order of path-specific files")
case("cp-no-git", "copilot", [("f", "top/AGENTS.md", "cp-nogit parent agents\n"),
                              ("f", "top/w/AGENTS.md", "cp-nogit cwd agents\n"),
                              ("f", "top/w/.github/copilot-instructions.md", "cp-nogit cwd repository file\n"),
                              ("f", "top/.github/copilot-instructions.md", "cp-nogit parent repository file\n")],
     "top/w", "no .git: the root is the cwd")
case("cp-blank", "copilot", [G, ("f", "proj/AGENTS.md", "  \n"), ("f", "proj/CLAUDE.md", "cp-blank claude\n"),
                             ("f", "proj/.github/copilot-instructions.md", "\n")], "proj",
     "blank files: listed empty (not locatable in the capture)")


if __name__ == "__main__":
    import collections
    print(collections.Counter(c["agent"] for c in CASES))
