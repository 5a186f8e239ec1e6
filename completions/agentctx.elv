
use builtin;
use str;

set edit:completion:arg-completer[agentctx] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'agentctx'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'agentctx'= {
            cand --color 'When to colour human-facing output'
            cand -q 'Print no warnings on stderr'
            cand --quiet 'Print no warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand render 'Print the exact baseline message a new session in the cwd receives'
            cand diff 'Print the workspace message that enters a resumed session'
            cand explain 'Explain which instruction files a session gets, and why'
            cand check 'Check every directory of a repository against the byte budget (the CI gate)'
            cand sessions 'List the session logs dsh stored for the cwd'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agentctx;render'= {
            cand --cwd 'The session''s working directory [default: the log header''s cwd, else the current directory]'
            cand --session 'Read the log dsh stored for session ID of the cwd (`latest`: the newest) instead of --log'
            cand --sessions-root 'Where dsh stores session logs [default: $DSH_HOME/sessions]'
            cand --log 'Take the cwd and settings from this session log (`-` reads stdin)'
            cand --dsh-home 'Home of the user-global AGENTS.md [default: $DSH_HOME if non-blank, else ~/.dsh]'
            cand --max-bytes 'UTF-8 byte cap of one rendered message: any number (600.5, 1e5); <= 0, nan or inf disables loading [default: 65536]'
            cand --max-source-bytes 'Per-file read cap in bytes, at least 1 [default: 1048576]'
            cand --candidates 'Ordered per-directory file names, comma separated [default: AGENTS.md,CLAUDE.md]'
            cand --local-candidates 'Ordered local-overlay names; an empty value disables them [default: AGENTS.local.md,CLAUDE.local.md]'
            cand --root-markers 'Names whose existence marks the project root; empty means none [default: .git]'
            cand --precedence 'How candidates of one directory compete [default: all; with --log, inferred from its scope keys]'
            cand --profile 'The harness to show: dsh, codex, gemini, opencode; claude and copilot with explain; with check also all, or a list (dsh,codex) [default: dsh]'
            cand --codex-home 'codex: its home [default: $CODEX_HOME if non-empty, else ~/.codex]'
            cand --project-doc-max-bytes 'codex: byte budget of the project docs, 0 disables them [default: config.toml, else 32768]'
            cand --project-doc-fallback-filenames 'codex: names tried after AGENTS.md, comma separated [default: config.toml, else none]'
            cand --project-root-markers 'codex: names marking the project root [default: config.toml, else .git]'
            cand --context-filename 'gemini: context file names [default: settings context.fileName, else GEMINI.md]'
            cand --memory-boundary-markers 'gemini: names marking the memory boundary [default: settings, else .git]'
            cand --touch 'gemini: a path a tool touched, for its just-in-time context (repeatable)'
            cand --opencode-config-dir 'opencode: its config directory [default: $XDG_CONFIG_HOME/opencode, else ~/.config/opencode]'
            cand --instructions 'opencode: instruction entries, comma separated; replaces the config files'' [default: config]'
            cand --source-kind 'The generation that resumes the log and the kind it persists [default: agent-instructions]'
            cand --format 'Output format: text (the exact message bytes) or json (parts, source, files, budget records)'
            cand --color 'When to colour human-facing output'
            cand --strict 'Parse every log line fully instead of only the lines that can matter'
            cand --untrusted 'gemini: the workspace is not trusted (no project memory, no workspace settings)'
            cand --disable-claude-code-prompt 'opencode: no CLAUDE.md files (also OPENCODE_DISABLE_CLAUDE_CODE_PROMPT=1|true)'
            cand --disable-project-config 'opencode: no project files or project config (also OPENCODE_DISABLE_PROJECT_CONFIG=1|true)'
            cand --check 'Exit 1 when anything was omitted or truncated by the byte budget'
            cand -q 'Print no warnings on stderr'
            cand --quiet 'Print no warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agentctx;diff'= {
            cand --log 'The session''s JSON event log, plain or dsh''s zstd container (`-` reads stdin)'
            cand --cwd 'The session''s working directory [default: the log header''s cwd, else the current directory]'
            cand --session 'Read the log dsh stored for session ID of the cwd (`latest`: the newest) instead of --log'
            cand --sessions-root 'Where dsh stores session logs [default: $DSH_HOME/sessions]'
            cand --touch 'Simulate a successful structured read/write/edit of PATH (repeatable)'
            cand --runtime 'A runtime-context section value NAME=TEXT to compare with the latest snapshot (repeatable)'
            cand --dsh-home 'Home of the user-global AGENTS.md [default: $DSH_HOME if non-blank, else ~/.dsh]'
            cand --max-bytes 'UTF-8 byte cap of one rendered message: any number (600.5, 1e5); <= 0, nan or inf disables loading [default: 65536]'
            cand --max-source-bytes 'Per-file read cap in bytes, at least 1 [default: 1048576]'
            cand --candidates 'Ordered per-directory file names, comma separated [default: AGENTS.md,CLAUDE.md]'
            cand --local-candidates 'Ordered local-overlay names; an empty value disables them [default: AGENTS.local.md,CLAUDE.local.md]'
            cand --root-markers 'Names whose existence marks the project root; empty means none [default: .git]'
            cand --precedence 'How candidates of one directory compete [default: all; with --log, inferred from its scope keys]'
            cand --profile 'The harness profile; diff replays dsh logs, so only dsh [default: dsh]'
            cand --source-kind 'The generation that resumes the log and the kind it persists [default: agent-instructions]'
            cand --format 'Output format: text (the exact message bytes) or json (decision, reason, parts, source, budget records)'
            cand --color 'When to colour human-facing output'
            cand --strict 'Parse every log line fully instead of only the lines that can matter'
            cand --exit-code 'Exit 1 when something would be sent'
            cand -q 'Print no warnings on stderr'
            cand --quiet 'Print no warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agentctx;explain'= {
            cand --cwd 'The session''s working directory [default: the log header''s cwd, else the current directory]'
            cand --session 'Read the log dsh stored for session ID of the cwd (`latest`: the newest) instead of --log'
            cand --sessions-root 'Where dsh stores session logs [default: $DSH_HOME/sessions]'
            cand --log 'Also explain this session log (plain or zstd): what a resumed session receives and why (`-` reads stdin)'
            cand --dsh-home 'Home of the user-global AGENTS.md [default: $DSH_HOME if non-blank, else ~/.dsh]'
            cand --max-bytes 'UTF-8 byte cap of one rendered message: any number (600.5, 1e5); <= 0, nan or inf disables loading [default: 65536]'
            cand --max-source-bytes 'Per-file read cap in bytes, at least 1 [default: 1048576]'
            cand --candidates 'Ordered per-directory file names, comma separated [default: AGENTS.md,CLAUDE.md]'
            cand --local-candidates 'Ordered local-overlay names; an empty value disables them [default: AGENTS.local.md,CLAUDE.local.md]'
            cand --root-markers 'Names whose existence marks the project root; empty means none [default: .git]'
            cand --precedence 'How candidates of one directory compete [default: all; with --log, inferred from its scope keys]'
            cand --profile 'The harness to show: dsh, codex, gemini, opencode; claude and copilot with explain; with check also all, or a list (dsh,codex) [default: dsh]'
            cand --codex-home 'codex: its home [default: $CODEX_HOME if non-empty, else ~/.codex]'
            cand --project-doc-max-bytes 'codex: byte budget of the project docs, 0 disables them [default: config.toml, else 32768]'
            cand --project-doc-fallback-filenames 'codex: names tried after AGENTS.md, comma separated [default: config.toml, else none]'
            cand --project-root-markers 'codex: names marking the project root [default: config.toml, else .git]'
            cand --context-filename 'gemini: context file names [default: settings context.fileName, else GEMINI.md]'
            cand --memory-boundary-markers 'gemini: names marking the memory boundary [default: settings, else .git]'
            cand --touch 'gemini: a path a tool touched, for its just-in-time context (repeatable)'
            cand --opencode-config-dir 'opencode: its config directory [default: $XDG_CONFIG_HOME/opencode, else ~/.config/opencode]'
            cand --instructions 'opencode: instruction entries, comma separated; replaces the config files'' [default: config]'
            cand --source-kind 'The generation that resumes the log and the kind it persists [default: agent-instructions]'
            cand --format 'Output format: a readable report, or one JSON document'
            cand --color 'When to colour human-facing output'
            cand --strict 'Parse every log line fully instead of only the lines that can matter'
            cand --untrusted 'gemini: the workspace is not trusted (no project memory, no workspace settings)'
            cand --disable-claude-code-prompt 'opencode: no CLAUDE.md files (also OPENCODE_DISABLE_CLAUDE_CODE_PROMPT=1|true)'
            cand --disable-project-config 'opencode: no project files or project config (also OPENCODE_DISABLE_PROJECT_CONFIG=1|true)'
            cand --full 'With --log, print the parts diff would send whole instead of their first lines'
            cand -q 'Print no warnings on stderr'
            cand --quiet 'Print no warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agentctx;check'= {
            cand --dsh-home 'Home of the user-global AGENTS.md [default: $DSH_HOME if non-blank, else ~/.dsh]'
            cand --max-bytes 'UTF-8 byte cap of one rendered message: any number (600.5, 1e5); <= 0, nan or inf disables loading [default: 65536]'
            cand --max-source-bytes 'Per-file read cap in bytes, at least 1 [default: 1048576]'
            cand --candidates 'Ordered per-directory file names, comma separated [default: AGENTS.md,CLAUDE.md]'
            cand --local-candidates 'Ordered local-overlay names; an empty value disables them [default: AGENTS.local.md,CLAUDE.local.md]'
            cand --root-markers 'Names whose existence marks the project root; empty means none [default: .git]'
            cand --precedence 'How candidates of one directory compete [default: all; with --log, inferred from its scope keys]'
            cand --profile 'The harness to show: dsh, codex, gemini, opencode; claude and copilot with explain; with check also all, or a list (dsh,codex) [default: dsh]'
            cand --codex-home 'codex: its home [default: $CODEX_HOME if non-empty, else ~/.codex]'
            cand --project-doc-max-bytes 'codex: byte budget of the project docs, 0 disables them [default: config.toml, else 32768]'
            cand --project-doc-fallback-filenames 'codex: names tried after AGENTS.md, comma separated [default: config.toml, else none]'
            cand --project-root-markers 'codex: names marking the project root [default: config.toml, else .git]'
            cand --context-filename 'gemini: context file names [default: settings context.fileName, else GEMINI.md]'
            cand --memory-boundary-markers 'gemini: names marking the memory boundary [default: settings, else .git]'
            cand --touch 'gemini: a path a tool touched, for its just-in-time context (repeatable)'
            cand --opencode-config-dir 'opencode: its config directory [default: $XDG_CONFIG_HOME/opencode, else ~/.config/opencode]'
            cand --instructions 'opencode: instruction entries, comma separated; replaces the config files'' [default: config]'
            cand --exclude 'Do not descend into directories with this name, or this path relative to PATH when it holds a `/` (repeatable)'
            cand --format 'Output format: text, json, github (workflow commands), sarif (SARIF 2.1.0) or markdown (a pull-request comment)'
            cand --warn-at 'Warn about a baseline that reaches PCT percent of max-bytes'
            cand --base 'Compare with git revision REV: what the change does to each directory''s baseline'
            cand --color 'When to colour human-facing output'
            cand --untrusted 'gemini: the workspace is not trusted (no project memory, no workspace settings)'
            cand --disable-claude-code-prompt 'opencode: no CLAUDE.md files (also OPENCODE_DISABLE_CLAUDE_CODE_PROMPT=1|true)'
            cand --disable-project-config 'opencode: no project files or project config (also OPENCODE_DISABLE_PROJECT_CONFIG=1|true)'
            cand --no-ignore 'Walk directories that .gitignore, .git/info/exclude or .agentctxignore ignore'
            cand --deny-warnings 'Exit 1 on warnings too, not only on errors'
            cand --include-user-global 'Include the user-global AGENTS.md in every baseline (and check it)'
            cand --summary 'Also list every directory that loads anything: bytes, share of max-bytes, largest file, headroom'
            cand -q 'Print no warnings on stderr'
            cand --quiet 'Print no warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agentctx;sessions'= {
            cand --cwd 'The directory whose sessions to list [default: the current directory]'
            cand --sessions-root 'Where dsh stores session logs [default: $DSH_HOME/sessions]'
            cand --dsh-home 'Home of the user-global AGENTS.md [default: $DSH_HOME if non-blank, else ~/.dsh]'
            cand --max-bytes 'UTF-8 byte cap of one rendered message: any number (600.5, 1e5); <= 0, nan or inf disables loading [default: 65536]'
            cand --max-source-bytes 'Per-file read cap in bytes, at least 1 [default: 1048576]'
            cand --candidates 'Ordered per-directory file names, comma separated [default: AGENTS.md,CLAUDE.md]'
            cand --local-candidates 'Ordered local-overlay names; an empty value disables them [default: AGENTS.local.md,CLAUDE.local.md]'
            cand --root-markers 'Names whose existence marks the project root; empty means none [default: .git]'
            cand --precedence 'How candidates of one directory compete [default: all; with --log, inferred from its scope keys]'
            cand --format 'Output format: a table, or one JSON document'
            cand --color 'When to colour human-facing output'
            cand --all 'List the sessions of every project under the root, with their cwd'
            cand --check-drift 'Read each log and say whether its visible baseline matches the workspace'
            cand -q 'Print no warnings on stderr'
            cand --quiet 'Print no warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agentctx;completions'= {
            cand --color 'When to colour human-facing output'
            cand -q 'Print no warnings on stderr'
            cand --quiet 'Print no warnings on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agentctx;help'= {
            cand render 'Print the exact baseline message a new session in the cwd receives'
            cand diff 'Print the workspace message that enters a resumed session'
            cand explain 'Explain which instruction files a session gets, and why'
            cand check 'Check every directory of a repository against the byte budget (the CI gate)'
            cand sessions 'List the session logs dsh stored for the cwd'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agentctx;help;render'= {
        }
        &'agentctx;help;diff'= {
        }
        &'agentctx;help;explain'= {
        }
        &'agentctx;help;check'= {
        }
        &'agentctx;help;sessions'= {
        }
        &'agentctx;help;completions'= {
        }
        &'agentctx;help;help'= {
        }
    ]
    $completions[$command]
}
