# agentctx's own cases for ../shared/realdsh (the real dsh CLI against a
# loopback fake model). `run.sh` appends this file to a copy of that folder's
# make_cases.py, so it may use everything defined there (case, touch_case,
# config_case, layer, tool, M, BOM, text, ...). Each case names the rule of
# SPEC.md or CONFIG.md it pins; docs/reading.md lists what they showed.

# ---------------------------------------------------------------- issue 22: dsh's file reader
NUL = lambda at, n: b"a" * at + b"\x00" + b"a" * (n - at - 1) + b"\n"
case("r22-bom-leading", "tree", "AGENTS.md with a leading BOM: text and digest without it",
     {"ws/AGENTS.md": BOM + b"Root rule after a BOM.\n"})
case("r22-bom-twice", "tree", "two leading BOMs and one inside: only the first goes",
     {"ws/AGENTS.md": BOM + BOM + b"Two BOMs\xef\xbb\xbf here.\n"})
case("r22-bom-only-dup", "tree", "CLAUDE.md equal to AGENTS.md but for a BOM: one load (dedup on the stripped text)",
     {"ws/AGENTS.md": b"Same rule.\n", "ws/CLAUDE.md": BOM + b"Same rule.\n"})
case("r22-utf8-mid", "tree", "invalid UTF-8 in the middle: not loaded, sibling loads",
     {"ws/AGENTS.md": b"caf\xe9 rules\n", "ws/CLAUDE.md": b"Sibling.\n"})
case("r22-utf8-cut", "tree", "a sequence cut at the end of the file: not loaded",
     {"ws/AGENTS.md": b"cut emoji \xf0\x9f\x98", "ws/CLAUDE.md": b"Sibling.\n"})
case("r22-utf8-surrogate", "tree", "an encoded surrogate (ED A0 80): not loaded",
     {"ws/AGENTS.md": b"surrogate \xed\xa0\x80 here\n", "ws/CLAUDE.md": b"Sibling.\n"})
case("r22-nul-100", "tree", "a NUL at byte 100: binary, not loaded",
     {"ws/AGENTS.md": NUL(100, 9000), "ws/CLAUDE.md": b"Sibling.\n"})
case("r22-nul-8191", "tree", "a NUL at byte 8191: binary, not loaded",
     {"ws/AGENTS.md": NUL(8191, 9000), "ws/CLAUDE.md": b"Sibling.\n"})
case("r22-nul-8192", "tree", "a NUL at byte 8192: text, loaded",
     {"ws/AGENTS.md": NUL(8192, 9000), "ws/CLAUDE.md": b"Sibling.\n"})
case("r22-nul-bom-8191", "tree", "a BOM then a NUL at raw byte 8191: the sample counts the BOM",
     {"ws/AGENTS.md": BOM + b"a" * 8188 + b"\x00" + b"tail\n", "ws/CLAUDE.md": b"Sibling.\n"})
case("r22-user-global-invalid", "tree", "the user-global file is invalid UTF-8: not loaded",
     {"home/.dsh/AGENTS.md": b"home \xff rule\n", "ws/AGENTS.md": b"Project rule.\n"})
case("r22-user-global-bom", "tree", "the user-global file has a BOM",
     {"home/.dsh/AGENTS.md": BOM + b"Home rule.\n", "ws/AGENTS.md": b"Project rule.\n"})
case("r22-enotdir-link", "tree", "AGENTS.md links through a regular file (ENOTDIR)",
     {"ws/notes.txt": b"n\n", "ws/CLAUDE.md": b"Sibling.\n"},
     links={"ws/AGENTS.md": "notes.txt/AGENTS.md"})
case("r22-enotdir-dsh-home", "tree", "DSH_HOME names a regular file (ENOTDIR for the user-global file)",
     {"outside/homefile": b"not a dir\n", "ws/AGENTS.md": b"Project rule.\n"},
     dsh_home="{C}/outside/homefile", flags=["--dsh-home", "{C}/outside/homefile"])
config_case("r22-maxbytes-600.5", "maxBytes 600.5: the notice prints 600.5",
            ["--max-bytes", "600.5"], home_layer=layer(M("600.5")))
config_case("r22-maxbytes-1e3", "maxBytes 1e3 (a YAML float): the notice prints 1000",
            ["--max-bytes", "1e3"], home_layer=layer(M("1e3")))
config_case("r22-maxbytes-inf", "maxBytes .inf: loading disabled",
            ["--max-bytes", "inf"], home_layer=layer(M(".inf")))
config_case("r22-maxbytes-nan", "maxBytes .nan: loading disabled",
            ["--max-bytes", "nan"], home_layer=layer(M(".nan")))
config_case("r22-maxbytes-neg", "maxBytes -1: loading disabled",
            ["--max-bytes", "-1"], home_layer=layer(M("-1")))
touch_case("r22-touch-becomes-invalid", "bash makes the loaded root AGENTS.md invalid UTF-8: no transition at the next step",
           [tool("bash", command="printf 'bad \\377\\n' >> AGENTS.md", description="break it"),
            tool("read", file_path="notes.txt")])
touch_case("r22-touch-becomes-bom", "bash prepends a BOM to the loaded root AGENTS.md: same digest, no transition",
           [tool("bash", command="printf '\\357\\273\\277' | cat - AGENTS.md > x && mv x AGENTS.md", description="add a BOM"),
            tool("read", file_path="notes.txt")])
touch_case("r22-touch-enotdir-frozen", "bash replaces src/util with a file: the loaded scope is frozen (no remove)",
           [tool("read", file_path="src/util/strings.txt"),
            tool("bash", command="rm -rf src/util && echo x > src/util", description="replace the dir"),
            tool("read", file_path="notes.txt")])

# ---------------------------------------------------------------- config: agentctx dshconfig (issue 24 core)
R = "- id: agent-instructions\n"
config_case("c24-maxbytes-string", "maxBytes '65536' (quoted): a string", None, home_layer=layer([("maxBytes", "'65536'")]))
config_case("c24-maxsource-zero", "maxSourceBytes 0", None, home_layer=layer(M(1000) + [("maxSourceBytes", "0")]))
config_case("c24-maxsource-frac", "maxSourceBytes 1.5", None, home_layer=layer(M(1000) + [("maxSourceBytes", "1.5")]))
config_case("c24-maxsource-inf", "maxSourceBytes .inf", None, home_layer=layer(M(1000) + [("maxSourceBytes", ".inf")]))
config_case("c24-cands-scalar", "instructionFileCandidates a scalar", None, home_layer=layer(M(1000) + [("instructionFileCandidates", "AGENTS.md")]))
config_case("c24-cands-elem", "instructionFileCandidates [5]", None, home_layer=layer(M(1000) + [("instructionFileCandidates", "[AGENTS.md, 5]")]))
config_case("c24-markers-map", "projectRootMarkers a mapping", None, home_layer=layer(M(1000) + [("projectRootMarkers", "{a: 1}")]))
config_case("c24-dshhome-num", "dshHome 5", None, home_layer=layer(M(1000) + [("dshHome", "5")]))
config_case("c24-two-errors", "dshHome 5 and maxBytes missing: which is named", None, home_layer=layer([("dshHome", "5"), ("maxSourceBytes", "0")]))
config_case("c24-config-null", "config: null", None, home_layer=R + "  config: null\n")
config_case("c24-config-string", "config: abc", None, home_layer=R + "  config: abc\n")
config_case("c24-config-list", "config: [1]", None, home_layer=R + "  config: [1]\n")
config_case("c24-no-config-key", "a patch with only disabled: false keeps the bundle config", None, home_layer=layer(disabled="false"))
config_case("c24-only-maxsource", "a patch that sets only maxSourceBytes drops maxBytes", None, home_layer=layer([("maxSourceBytes", "4096")]))
config_case("c24-int-hex", "maxBytes 0x3e8", None, home_layer=layer([("maxBytes", "0x3e8")]))
config_case("c24-int-octal-lead0", "maxBytes 0o1750 and maxSourceBytes 012", None, home_layer=layer([("maxBytes", "0o1750"), ("maxSourceBytes", "012")]))
config_case("c24-int-underscore", "maxBytes 65_536: a string", None, home_layer=layer([("maxBytes", "65_536")]))
config_case("c24-maxbytes-yes", "maxBytes yes: a string", None, home_layer=layer([("maxBytes", "yes")]))
config_case("c24-maxbytes-true", "maxBytes True: a bool", None, home_layer=layer([("maxBytes", "True")]))
config_case("c24-maxbytes-tilde", "maxBytes ~: null", None, home_layer=layer([("maxBytes", "~")]))
config_case("c24-disabled-zero", "disabled: 0 is enabled", None, home_layer=layer([("maxBytes", "700")], disabled="0"))
config_case("c24-disabled-str-false", "disabled: 'false' is truthy", None, home_layer=layer([("maxBytes", "700")], disabled="'false'"))
config_case("c24-disabled-js", "disabled: !!js 'false'", None, home_layer=layer([("maxBytes", "700")], disabled="!!js 'false'"))
config_case("c24-maxbytes-js", "maxBytes: !!js '500 + 200'", None, home_layer=layer([("maxBytes", "!!js '500 + 200'")]))
config_case("c24-name-mismatch", "a patch naming another plugin is skipped", None, home_layer=layer([("maxBytes", "700")], name="'@x/other'"))
config_case("c24-unknown-key", "precedence and a typo in config", None, home_layer=layer([("maxBytes", "700"), ("precedence", "nearest"), ("maxbytes", "5")]))
config_case("c24-order", "profile 300, home 1200 candidates, patch 900", None, profile_layer=layer([("maxBytes", "300")]), home_layer=layer([("maxBytes", "1200"), ("instructionFileCandidates", "[CLAUDE.md]")]), patches=[layer([("maxBytes", "900")])])
config_case("c24-dup-key", "a duplicate key", None, home_layer=R + "  config:\n    maxBytes: 1\n    maxBytes: 2\n")
config_case("c24-not-list", "a mapping at top level", None, home_layer="id: agent-instructions\nconfig: {maxBytes: 5}\n")
config_case("c24-yaml-error", "a YAML syntax error", None, home_layer=R + "  config: {maxBytes: 5\n")
config_case("c24-empty-file", "an empty home layer", None, home_layer="")
config_case("c24-insert-second", "a second loader row inserted", None, home_layer="- insert:\n  - id: ai2\n    name: '@deepseek-ai/dsh-agent-instructions'\n    config: {maxBytes: 800}\n")
config_case("c24-missing-id", "a patch for a row that does not exist", None, home_layer="- id: no-such-row\n  config: {maxBytes: 5}\n" + layer([("maxBytes", "700")]))
config_case("c24-dshhome-rel", "dshHome 'rel/dir': relative to the cwd", None, home_layer=layer([("maxBytes", "1000"), ("dshHome", "rel")]))
config_case("c24-dshhome-empty", "dshHome '': the cwd", None, home_layer=layer([("maxBytes", "1000"), ("dshHome", "''")]))
config_case("c24-maxbytes-neg-inf", "maxBytes -.inf: loaded, disabled", None, home_layer=layer([("maxBytes", "-.inf")]))
config_case("c24-anchor", "anchors and aliases resolve", None, home_layer="- id: agent-instructions\n  config: &c\n    maxBytes: 700\n- id: agent-instructions\n  config: *c\n")

# ---------------------------------------------------------------- config as the commands read it (issue 24)
config_case("c24-dshhome-tilde", "dshHome '~/altdsh': the user-global file from ~/altdsh", None,
            home_layer=layer(M(1000) + [("dshHome", "'~/altdsh'")]))
config_case("c24-dshhome-abs", "dshHome absolute: the user-global file from there", None,
            home_layer=layer(M(1000) + [("dshHome", "'{C}/home/altdsh'")]))
config_case("c24-dshhome-tilde-alone", "dshHome '~': the home itself (no AGENTS.md there)", None,
            home_layer=layer(M(1000) + [("dshHome", "'~'")]))
config_case("c24-profile-disabled-home-enables", "the profile layer disables, the home layer sets disabled: false", None,
            profile_layer=layer(disabled="true"), home_layer=layer(M(900), disabled="false"))
config_case("c24-home-disables-patch-config", "the home layer disables; a --patch sets only config: still disabled", None,
            home_layer=layer(disabled="true"), patches=[layer(M(900))])
config_case("c24-patch-replaces-home", "home sets candidates, a --patch sets only maxBytes: candidates back to default", None,
            home_layer=layer(M(500) + [("instructionFileCandidates", "[CLAUDE.md]")]), patches=[layer(M(800))])
config_case("c24-local-cands-empty", "localInstructionFileCandidates []: no overlay", None,
            home_layer=layer(M(2000) + [("localInstructionFileCandidates", "[]")]))
config_case("c24-markers-custom", "projectRootMarkers [.hg]: the root is the cwd's chain up to .hg (none: cwd)", None,
            home_layer=layer(M(2000) + [("projectRootMarkers", "[.hg]")]))
config_case("c24-maxsource-small", "maxSourceBytes 100: the 180-byte files are oversized", None,
            home_layer=layer(M(2000) + [("maxSourceBytes", "100")]))
config_case("c24-null-disabled", "disabled: ~ is enabled", None,
            home_layer=layer(M(700), disabled="~"))
