
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'agentctx' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'agentctx'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'agentctx' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human-facing output')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Print the exact baseline message a new session in the cwd receives')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Print the workspace message that enters a resumed session')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain which instruction files a session gets, and why')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check every directory of a repository against the byte budget (the CI gate)')
            [CompletionResult]::new('sessions', 'sessions', [CompletionResultType]::ParameterValue, 'List the dsh sessions of the cwd, as dsh''s web sidebar lists them')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agentctx;render' {
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Take the cwd and settings from this session log (`-` reads stdin)')
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'The session''s working directory [default: the log header''s cwd, else the current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Read the log dsh stored for session ID of the cwd (`latest`: the newest) instead of --log')
            [CompletionResult]::new('--sessions-root', '--sessions-root', [CompletionResultType]::ParameterName, 'Where dsh stores session logs [default: $DSH_HOME/sessions]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The harness whose baseline to print [default: dsh]; a profile''s own settings: --help-profile P')
            [CompletionResult]::new('--help-profile', '--help-profile', [CompletionResultType]::ParameterName, 'Print the settings of --profile P (codex, gemini, opencode, claude) and exit')
            [CompletionResult]::new('--source-kind', '--source-kind', [CompletionResultType]::ParameterName, 'The generation that resumes the log and the kind it persists [default: agent-instructions]')
            [CompletionResult]::new('--dsh-home', '--dsh-home', [CompletionResultType]::ParameterName, 'Home of the user-global AGENTS.md, as the loader''s dshHome [default: dsh''s configuration, else $DSH_HOME if non-blank, else ~/.dsh]')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'UTF-8 byte cap of one rendered message: any number (600.5, 1e5); <= 0, nan or inf disables loading [default: 65536]')
            [CompletionResult]::new('--max-source-bytes', '--max-source-bytes', [CompletionResultType]::ParameterName, 'Per-file read cap in bytes, at least 1 [default: 1048576]')
            [CompletionResult]::new('--candidates', '--candidates', [CompletionResultType]::ParameterName, 'Ordered per-directory file names, comma separated [default: AGENTS.md,CLAUDE.md]')
            [CompletionResult]::new('--local-candidates', '--local-candidates', [CompletionResultType]::ParameterName, 'Ordered local-overlay names; an empty value disables them [default: AGENTS.local.md,CLAUDE.local.md]')
            [CompletionResult]::new('--root-markers', '--root-markers', [CompletionResultType]::ParameterName, 'Names whose existence marks the project root; empty means none [default: .git]')
            [CompletionResult]::new('--precedence', '--precedence', [CompletionResultType]::ParameterName, 'How candidates of one directory compete [default: all; with --log, inferred from its scope keys]')
            [CompletionResult]::new('--dsh-profile', '--dsh-profile', [CompletionResultType]::ParameterName, 'The dsh profile whose configuration decides the settings, as `dsh --profile NAME` (`dsh web` is web) [default: $AGENTCTX_DSH_PROFILE, else web or headless from the log, else web]')
            [CompletionResult]::new('--dsh-preset', '--dsh-preset', [CompletionResultType]::ParameterName, 'dsh web''s agent preset [default: the log''s, else agent-presets.default in $DSH_HOME/settings.yaml, else standard]')
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'An extra configuration layer after the home layer, as `dsh --patch FILE` (repeatable, in order)')
            [CompletionResult]::new('--settings-from', '--settings-from', [CompletionResultType]::ParameterName, 'Where settings not given as flags come from: dsh''s configuration now, or the log''s recorded identity [default: config; with --log, log]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--codex-home', '--codex-home', [CompletionResultType]::ParameterName, 'The Codex home [default: $CODEX_HOME if non-empty, else ~/.codex]')
            [CompletionResult]::new('--project-doc-max-bytes', '--project-doc-max-bytes', [CompletionResultType]::ParameterName, 'Byte budget of Codex''s project docs; 0 disables them [default: config.toml, else 32768]')
            [CompletionResult]::new('--project-doc-fallback-filenames', '--project-doc-fallback-filenames', [CompletionResultType]::ParameterName, 'Names Codex tries after AGENTS.md, comma separated [default: config.toml, else none]')
            [CompletionResult]::new('--project-root-markers', '--project-root-markers', [CompletionResultType]::ParameterName, 'Names marking Codex''s project root [default: config.toml, else .git]')
            [CompletionResult]::new('--context-filename', '--context-filename', [CompletionResultType]::ParameterName, 'Gemini CLI''s context file names [default: settings context.fileName, else GEMINI.md]')
            [CompletionResult]::new('--memory-boundary-markers', '--memory-boundary-markers', [CompletionResultType]::ParameterName, 'Names marking Gemini CLI''s memory boundary [default: settings, else .git]')
            [CompletionResult]::new('--touch', '--touch', [CompletionResultType]::ParameterName, 'A path a Gemini CLI tool touched, for its just-in-time context (repeatable)')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The model, which picks the memory header [default: $GEMINI_MODEL, else settings model.name, else auto]')
            [CompletionResult]::new('--opencode-config-dir', '--opencode-config-dir', [CompletionResultType]::ParameterName, 'opencode''s config directory, as OPENCODE_CONFIG_DIR: its AGENTS.md replaces the global one, its config is the last layer [default: $OPENCODE_CONFIG_DIR]')
            [CompletionResult]::new('--instructions', '--instructions', [CompletionResultType]::ParameterName, 'opencode''s instruction entries, comma separated; replaces the config files'' [default: config]')
            [CompletionResult]::new('--claude-config-dir', '--claude-config-dir', [CompletionResultType]::ParameterName, 'Claude Code''s config directory [default: $CLAUDE_CONFIG_DIR if non-empty, else ~/.claude]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human-facing output')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Parse every log line fully instead of only the lines that can matter')
            [CompletionResult]::new('--cwd-as-given', '--cwd-as-given', [CompletionResultType]::ParameterName, '--cwd handed over as written, as `codex -C DIR` (links kept) [default: as `cd DIR && agent`, links resolved]')
            [CompletionResult]::new('--no-dsh-config', '--no-dsh-config', [CompletionResultType]::ParameterName, 'Ignore every layer of dsh''s configuration: what dsh ships only')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Exit 1 when anything was omitted or truncated by the byte budget')
            [CompletionResult]::new('--untrusted', '--untrusted', [CompletionResultType]::ParameterName, 'The workspace is not trusted: no project memory, no workspace settings')
            [CompletionResult]::new('--disable-claude-code-prompt', '--disable-claude-code-prompt', [CompletionResultType]::ParameterName, 'No CLAUDE.md files (also OPENCODE_DISABLE_CLAUDE_CODE_PROMPT=1|true)')
            [CompletionResult]::new('--disable-project-config', '--disable-project-config', [CompletionResultType]::ParameterName, 'No project files or project config (also OPENCODE_DISABLE_PROJECT_CONFIG=1|true)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentctx;diff' {
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'The session''s JSON event log, plain or dsh''s zstd container (`-` reads stdin)')
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'The session''s working directory [default: the log header''s cwd, else the current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Read the log dsh stored for session ID of the cwd (`latest`: the newest) instead of --log')
            [CompletionResult]::new('--sessions-root', '--sessions-root', [CompletionResultType]::ParameterName, 'Where dsh stores session logs [default: $DSH_HOME/sessions]')
            [CompletionResult]::new('--touch', '--touch', [CompletionResultType]::ParameterName, 'Simulate a successful structured read/write/edit of PATH (repeatable)')
            [CompletionResult]::new('--runtime', '--runtime', [CompletionResultType]::ParameterName, 'A runtime-context section value NAME=TEXT to compare with the latest snapshot (repeatable)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The harness profile; diff replays dsh logs, so only dsh [default: dsh]')
            [CompletionResult]::new('--source-kind', '--source-kind', [CompletionResultType]::ParameterName, 'The generation that resumes the log and the kind it persists [default: agent-instructions]')
            [CompletionResult]::new('--dsh-home', '--dsh-home', [CompletionResultType]::ParameterName, 'Home of the user-global AGENTS.md, as the loader''s dshHome [default: dsh''s configuration, else $DSH_HOME if non-blank, else ~/.dsh]')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'UTF-8 byte cap of one rendered message: any number (600.5, 1e5); <= 0, nan or inf disables loading [default: 65536]')
            [CompletionResult]::new('--max-source-bytes', '--max-source-bytes', [CompletionResultType]::ParameterName, 'Per-file read cap in bytes, at least 1 [default: 1048576]')
            [CompletionResult]::new('--candidates', '--candidates', [CompletionResultType]::ParameterName, 'Ordered per-directory file names, comma separated [default: AGENTS.md,CLAUDE.md]')
            [CompletionResult]::new('--local-candidates', '--local-candidates', [CompletionResultType]::ParameterName, 'Ordered local-overlay names; an empty value disables them [default: AGENTS.local.md,CLAUDE.local.md]')
            [CompletionResult]::new('--root-markers', '--root-markers', [CompletionResultType]::ParameterName, 'Names whose existence marks the project root; empty means none [default: .git]')
            [CompletionResult]::new('--precedence', '--precedence', [CompletionResultType]::ParameterName, 'How candidates of one directory compete [default: all; with --log, inferred from its scope keys]')
            [CompletionResult]::new('--dsh-profile', '--dsh-profile', [CompletionResultType]::ParameterName, 'The dsh profile whose configuration decides the settings, as `dsh --profile NAME` (`dsh web` is web) [default: $AGENTCTX_DSH_PROFILE, else web or headless from the log, else web]')
            [CompletionResult]::new('--dsh-preset', '--dsh-preset', [CompletionResultType]::ParameterName, 'dsh web''s agent preset [default: the log''s, else agent-presets.default in $DSH_HOME/settings.yaml, else standard]')
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'An extra configuration layer after the home layer, as `dsh --patch FILE` (repeatable, in order)')
            [CompletionResult]::new('--settings-from', '--settings-from', [CompletionResultType]::ParameterName, 'Where settings not given as flags come from: dsh''s configuration now, or the log''s recorded identity [default: config; with --log, log]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human-facing output')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Parse every log line fully instead of only the lines that can matter')
            [CompletionResult]::new('--no-dsh-config', '--no-dsh-config', [CompletionResultType]::ParameterName, 'Ignore every layer of dsh''s configuration: what dsh ships only')
            [CompletionResult]::new('--exit-code', '--exit-code', [CompletionResultType]::ParameterName, 'Exit 1 when something would be sent')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentctx;explain' {
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Also explain this session log (plain or zstd): what a resumed session receives and why (`-` reads stdin)')
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'The session''s working directory [default: the log header''s cwd, else the current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Read the log dsh stored for session ID of the cwd (`latest`: the newest) instead of --log')
            [CompletionResult]::new('--sessions-root', '--sessions-root', [CompletionResultType]::ParameterName, 'Where dsh stores session logs [default: $DSH_HOME/sessions]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The harness to explain [default: dsh]; a profile''s own settings: --help-profile P')
            [CompletionResult]::new('--help-profile', '--help-profile', [CompletionResultType]::ParameterName, 'Print the settings of --profile P (codex, gemini, opencode, claude) and exit')
            [CompletionResult]::new('--source-kind', '--source-kind', [CompletionResultType]::ParameterName, 'The generation that resumes the log and the kind it persists [default: agent-instructions]')
            [CompletionResult]::new('--dsh-home', '--dsh-home', [CompletionResultType]::ParameterName, 'Home of the user-global AGENTS.md, as the loader''s dshHome [default: dsh''s configuration, else $DSH_HOME if non-blank, else ~/.dsh]')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'UTF-8 byte cap of one rendered message: any number (600.5, 1e5); <= 0, nan or inf disables loading [default: 65536]')
            [CompletionResult]::new('--max-source-bytes', '--max-source-bytes', [CompletionResultType]::ParameterName, 'Per-file read cap in bytes, at least 1 [default: 1048576]')
            [CompletionResult]::new('--candidates', '--candidates', [CompletionResultType]::ParameterName, 'Ordered per-directory file names, comma separated [default: AGENTS.md,CLAUDE.md]')
            [CompletionResult]::new('--local-candidates', '--local-candidates', [CompletionResultType]::ParameterName, 'Ordered local-overlay names; an empty value disables them [default: AGENTS.local.md,CLAUDE.local.md]')
            [CompletionResult]::new('--root-markers', '--root-markers', [CompletionResultType]::ParameterName, 'Names whose existence marks the project root; empty means none [default: .git]')
            [CompletionResult]::new('--precedence', '--precedence', [CompletionResultType]::ParameterName, 'How candidates of one directory compete [default: all; with --log, inferred from its scope keys]')
            [CompletionResult]::new('--dsh-profile', '--dsh-profile', [CompletionResultType]::ParameterName, 'The dsh profile whose configuration decides the settings, as `dsh --profile NAME` (`dsh web` is web) [default: $AGENTCTX_DSH_PROFILE, else web or headless from the log, else web]')
            [CompletionResult]::new('--dsh-preset', '--dsh-preset', [CompletionResultType]::ParameterName, 'dsh web''s agent preset [default: the log''s, else agent-presets.default in $DSH_HOME/settings.yaml, else standard]')
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'An extra configuration layer after the home layer, as `dsh --patch FILE` (repeatable, in order)')
            [CompletionResult]::new('--settings-from', '--settings-from', [CompletionResultType]::ParameterName, 'Where settings not given as flags come from: dsh''s configuration now, or the log''s recorded identity [default: config; with --log, log]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--codex-home', '--codex-home', [CompletionResultType]::ParameterName, 'The Codex home [default: $CODEX_HOME if non-empty, else ~/.codex]')
            [CompletionResult]::new('--project-doc-max-bytes', '--project-doc-max-bytes', [CompletionResultType]::ParameterName, 'Byte budget of Codex''s project docs; 0 disables them [default: config.toml, else 32768]')
            [CompletionResult]::new('--project-doc-fallback-filenames', '--project-doc-fallback-filenames', [CompletionResultType]::ParameterName, 'Names Codex tries after AGENTS.md, comma separated [default: config.toml, else none]')
            [CompletionResult]::new('--project-root-markers', '--project-root-markers', [CompletionResultType]::ParameterName, 'Names marking Codex''s project root [default: config.toml, else .git]')
            [CompletionResult]::new('--context-filename', '--context-filename', [CompletionResultType]::ParameterName, 'Gemini CLI''s context file names [default: settings context.fileName, else GEMINI.md]')
            [CompletionResult]::new('--memory-boundary-markers', '--memory-boundary-markers', [CompletionResultType]::ParameterName, 'Names marking Gemini CLI''s memory boundary [default: settings, else .git]')
            [CompletionResult]::new('--touch', '--touch', [CompletionResultType]::ParameterName, 'A path a Gemini CLI tool touched, for its just-in-time context (repeatable)')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The model, which picks the memory header [default: $GEMINI_MODEL, else settings model.name, else auto]')
            [CompletionResult]::new('--opencode-config-dir', '--opencode-config-dir', [CompletionResultType]::ParameterName, 'opencode''s config directory, as OPENCODE_CONFIG_DIR: its AGENTS.md replaces the global one, its config is the last layer [default: $OPENCODE_CONFIG_DIR]')
            [CompletionResult]::new('--instructions', '--instructions', [CompletionResultType]::ParameterName, 'opencode''s instruction entries, comma separated; replaces the config files'' [default: config]')
            [CompletionResult]::new('--claude-config-dir', '--claude-config-dir', [CompletionResultType]::ParameterName, 'Claude Code''s config directory [default: $CLAUDE_CONFIG_DIR if non-empty, else ~/.claude]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human-facing output')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Parse every log line fully instead of only the lines that can matter')
            [CompletionResult]::new('--cwd-as-given', '--cwd-as-given', [CompletionResultType]::ParameterName, '--cwd handed over as written, as `codex -C DIR` (links kept) [default: as `cd DIR && agent`, links resolved]')
            [CompletionResult]::new('--no-dsh-config', '--no-dsh-config', [CompletionResultType]::ParameterName, 'Ignore every layer of dsh''s configuration: what dsh ships only')
            [CompletionResult]::new('--full', '--full', [CompletionResultType]::ParameterName, 'With --log, print the parts diff would send whole instead of their first lines')
            [CompletionResult]::new('--untrusted', '--untrusted', [CompletionResultType]::ParameterName, 'The workspace is not trusted: no project memory, no workspace settings')
            [CompletionResult]::new('--disable-claude-code-prompt', '--disable-claude-code-prompt', [CompletionResultType]::ParameterName, 'No CLAUDE.md files (also OPENCODE_DISABLE_CLAUDE_CODE_PROMPT=1|true)')
            [CompletionResult]::new('--disable-project-config', '--disable-project-config', [CompletionResultType]::ParameterName, 'No project files or project config (also OPENCODE_DISABLE_PROJECT_CONFIG=1|true)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentctx;check' {
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Do not descend into directories with this name, or this path relative to PATH when it holds a `/` (repeatable)')
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'Compare with git revision REV: what the change does to each directory''s baseline')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The harnesses to check, comma separated, or all [default: dsh]; a profile''s own settings: --help-profile P')
            [CompletionResult]::new('--help-profile', '--help-profile', [CompletionResultType]::ParameterName, 'Print the settings of --profile P (codex, gemini, opencode, claude) and exit')
            [CompletionResult]::new('--dsh-home', '--dsh-home', [CompletionResultType]::ParameterName, 'Home of the user-global AGENTS.md, as the loader''s dshHome [default: dsh''s configuration, else $DSH_HOME if non-blank, else ~/.dsh]')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'UTF-8 byte cap of one rendered message: any number (600.5, 1e5); <= 0, nan or inf disables loading [default: 65536]')
            [CompletionResult]::new('--max-source-bytes', '--max-source-bytes', [CompletionResultType]::ParameterName, 'Per-file read cap in bytes, at least 1 [default: 1048576]')
            [CompletionResult]::new('--candidates', '--candidates', [CompletionResultType]::ParameterName, 'Ordered per-directory file names, comma separated [default: AGENTS.md,CLAUDE.md]')
            [CompletionResult]::new('--local-candidates', '--local-candidates', [CompletionResultType]::ParameterName, 'Ordered local-overlay names; an empty value disables them [default: AGENTS.local.md,CLAUDE.local.md]')
            [CompletionResult]::new('--root-markers', '--root-markers', [CompletionResultType]::ParameterName, 'Names whose existence marks the project root; empty means none [default: .git]')
            [CompletionResult]::new('--precedence', '--precedence', [CompletionResultType]::ParameterName, 'How candidates of one directory compete [default: all; with --log, inferred from its scope keys]')
            [CompletionResult]::new('--dsh-profile', '--dsh-profile', [CompletionResultType]::ParameterName, 'The dsh profile whose configuration decides the settings, as `dsh --profile NAME` (`dsh web` is web) [default: $AGENTCTX_DSH_PROFILE, else web or headless from the log, else web]')
            [CompletionResult]::new('--dsh-preset', '--dsh-preset', [CompletionResultType]::ParameterName, 'dsh web''s agent preset [default: the log''s, else agent-presets.default in $DSH_HOME/settings.yaml, else standard]')
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'An extra configuration layer after the home layer, as `dsh --patch FILE` (repeatable, in order)')
            [CompletionResult]::new('--settings-from', '--settings-from', [CompletionResultType]::ParameterName, 'Where settings not given as flags come from: dsh''s configuration now, or the log''s recorded identity [default: config; with --log, log]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: text, json, github (workflow commands), sarif (SARIF 2.1.0) or markdown (a pull-request comment)')
            [CompletionResult]::new('--warn-at', '--warn-at', [CompletionResultType]::ParameterName, 'Warn about a baseline that reaches PCT percent of max-bytes')
            [CompletionResult]::new('--codex-home', '--codex-home', [CompletionResultType]::ParameterName, 'The Codex home [default: $CODEX_HOME if non-empty, else ~/.codex]')
            [CompletionResult]::new('--project-doc-max-bytes', '--project-doc-max-bytes', [CompletionResultType]::ParameterName, 'Byte budget of Codex''s project docs; 0 disables them [default: config.toml, else 32768]')
            [CompletionResult]::new('--project-doc-fallback-filenames', '--project-doc-fallback-filenames', [CompletionResultType]::ParameterName, 'Names Codex tries after AGENTS.md, comma separated [default: config.toml, else none]')
            [CompletionResult]::new('--project-root-markers', '--project-root-markers', [CompletionResultType]::ParameterName, 'Names marking Codex''s project root [default: config.toml, else .git]')
            [CompletionResult]::new('--context-filename', '--context-filename', [CompletionResultType]::ParameterName, 'Gemini CLI''s context file names [default: settings context.fileName, else GEMINI.md]')
            [CompletionResult]::new('--memory-boundary-markers', '--memory-boundary-markers', [CompletionResultType]::ParameterName, 'Names marking Gemini CLI''s memory boundary [default: settings, else .git]')
            [CompletionResult]::new('--touch', '--touch', [CompletionResultType]::ParameterName, 'A path a Gemini CLI tool touched, for its just-in-time context (repeatable)')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The model, which picks the memory header [default: $GEMINI_MODEL, else settings model.name, else auto]')
            [CompletionResult]::new('--opencode-config-dir', '--opencode-config-dir', [CompletionResultType]::ParameterName, 'opencode''s config directory, as OPENCODE_CONFIG_DIR: its AGENTS.md replaces the global one, its config is the last layer [default: $OPENCODE_CONFIG_DIR]')
            [CompletionResult]::new('--instructions', '--instructions', [CompletionResultType]::ParameterName, 'opencode''s instruction entries, comma separated; replaces the config files'' [default: config]')
            [CompletionResult]::new('--claude-config-dir', '--claude-config-dir', [CompletionResultType]::ParameterName, 'Claude Code''s config directory [default: $CLAUDE_CONFIG_DIR if non-empty, else ~/.claude]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human-facing output')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'Walk directories that .gitignore, .git/info/exclude or .agentctxignore ignore')
            [CompletionResult]::new('--include-user-global', '--include-user-global', [CompletionResultType]::ParameterName, 'Include the user-global AGENTS.md in every baseline (and check it)')
            [CompletionResult]::new('--cwd-as-given', '--cwd-as-given', [CompletionResultType]::ParameterName, '--cwd handed over as written, as `codex -C DIR` (links kept) [default: as `cd DIR && agent`, links resolved]')
            [CompletionResult]::new('--no-dsh-config', '--no-dsh-config', [CompletionResultType]::ParameterName, 'Ignore every layer of dsh''s configuration: what dsh ships only')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Exit 1 on warnings too, not only on errors')
            [CompletionResult]::new('--summary', '--summary', [CompletionResultType]::ParameterName, 'Also list every directory that loads anything: bytes, share of max-bytes, largest file, headroom')
            [CompletionResult]::new('--untrusted', '--untrusted', [CompletionResultType]::ParameterName, 'The workspace is not trusted: no project memory, no workspace settings')
            [CompletionResult]::new('--disable-claude-code-prompt', '--disable-claude-code-prompt', [CompletionResultType]::ParameterName, 'No CLAUDE.md files (also OPENCODE_DISABLE_CLAUDE_CODE_PROMPT=1|true)')
            [CompletionResult]::new('--disable-project-config', '--disable-project-config', [CompletionResultType]::ParameterName, 'No project files or project config (also OPENCODE_DISABLE_PROJECT_CONFIG=1|true)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentctx;sessions' {
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'The directory whose sessions to list [default: the current directory]')
            [CompletionResult]::new('--sessions-root', '--sessions-root', [CompletionResultType]::ParameterName, 'Where dsh stores session logs [default: $DSH_HOME/sessions]')
            [CompletionResult]::new('--dsh-home', '--dsh-home', [CompletionResultType]::ParameterName, 'Home of the user-global AGENTS.md, as the loader''s dshHome [default: dsh''s configuration, else $DSH_HOME if non-blank, else ~/.dsh]')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'UTF-8 byte cap of one rendered message: any number (600.5, 1e5); <= 0, nan or inf disables loading [default: 65536]')
            [CompletionResult]::new('--max-source-bytes', '--max-source-bytes', [CompletionResultType]::ParameterName, 'Per-file read cap in bytes, at least 1 [default: 1048576]')
            [CompletionResult]::new('--candidates', '--candidates', [CompletionResultType]::ParameterName, 'Ordered per-directory file names, comma separated [default: AGENTS.md,CLAUDE.md]')
            [CompletionResult]::new('--local-candidates', '--local-candidates', [CompletionResultType]::ParameterName, 'Ordered local-overlay names; an empty value disables them [default: AGENTS.local.md,CLAUDE.local.md]')
            [CompletionResult]::new('--root-markers', '--root-markers', [CompletionResultType]::ParameterName, 'Names whose existence marks the project root; empty means none [default: .git]')
            [CompletionResult]::new('--precedence', '--precedence', [CompletionResultType]::ParameterName, 'How candidates of one directory compete [default: all; with --log, inferred from its scope keys]')
            [CompletionResult]::new('--dsh-profile', '--dsh-profile', [CompletionResultType]::ParameterName, 'The dsh profile whose configuration decides the settings, as `dsh --profile NAME` (`dsh web` is web) [default: $AGENTCTX_DSH_PROFILE, else web or headless from the log, else web]')
            [CompletionResult]::new('--dsh-preset', '--dsh-preset', [CompletionResultType]::ParameterName, 'dsh web''s agent preset [default: the log''s, else agent-presets.default in $DSH_HOME/settings.yaml, else standard]')
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'An extra configuration layer after the home layer, as `dsh --patch FILE` (repeatable, in order)')
            [CompletionResult]::new('--settings-from', '--settings-from', [CompletionResultType]::ParameterName, 'Where settings not given as flags come from: dsh''s configuration now, or the log''s recorded identity [default: config; with --log, log]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human-facing output')
            [CompletionResult]::new('--no-dsh-config', '--no-dsh-config', [CompletionResultType]::ParameterName, 'Ignore every layer of dsh''s configuration: what dsh ships only')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'List every session of every project under the root, hidden ones too, with their cwd')
            [CompletionResult]::new('--ids', '--ids', [CompletionResultType]::ParameterName, 'Print only the ids listed, one a line (for shell completion)')
            [CompletionResult]::new('--check-drift', '--check-drift', [CompletionResultType]::ParameterName, 'Read each log and say whether its visible baseline matches the workspace')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentctx;completions' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour human-facing output')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentctx;help' {
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Print the exact baseline message a new session in the cwd receives')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Print the workspace message that enters a resumed session')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain which instruction files a session gets, and why')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check every directory of a repository against the byte budget (the CI gate)')
            [CompletionResult]::new('sessions', 'sessions', [CompletionResultType]::ParameterValue, 'List the dsh sessions of the cwd, as dsh''s web sidebar lists them')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agentctx;help;render' {
            break
        }
        'agentctx;help;diff' {
            break
        }
        'agentctx;help;explain' {
            break
        }
        'agentctx;help;check' {
            break
        }
        'agentctx;help;sessions' {
            break
        }
        'agentctx;help;completions' {
            break
        }
        'agentctx;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
