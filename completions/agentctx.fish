# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_agentctx_global_optspecs
    string join \n color= q/quiet h/help V/version
end

function __fish_agentctx_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_agentctx_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_agentctx_using_subcommand
    set -l cmd (__fish_agentctx_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c agentctx -n "__fish_agentctx_needs_command" -l color -d 'When to colour human-facing output' -r -f -a "auto\t'Colour when the stream is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c agentctx -n "__fish_agentctx_needs_command" -s q -l quiet -d 'Print no warnings on stderr'
complete -c agentctx -n "__fish_agentctx_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentctx -n "__fish_agentctx_needs_command" -s V -l version -d 'Print version'
complete -c agentctx -n "__fish_agentctx_needs_command" -f -a "render" -d 'Print the exact baseline message a new session in the cwd receives'
complete -c agentctx -n "__fish_agentctx_needs_command" -f -a "diff" -d 'Print the workspace message that enters a resumed session'
complete -c agentctx -n "__fish_agentctx_needs_command" -f -a "explain" -d 'Explain which instruction files a session gets, and why'
complete -c agentctx -n "__fish_agentctx_needs_command" -f -a "check" -d 'Check every directory of a repository against the byte budget (the CI gate)'
complete -c agentctx -n "__fish_agentctx_needs_command" -f -a "sessions" -d 'List the dsh sessions of the cwd, as dsh\'s web sidebar lists them'
complete -c agentctx -n "__fish_agentctx_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c agentctx -n "__fish_agentctx_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l log -d 'Take the cwd and settings from this session log (`-` reads stdin)' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l cwd -d 'The session\'s working directory [default: the log header\'s cwd, else the current directory]' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l session -d 'Read the log dsh stored for session ID of the cwd (`latest`: the newest) instead of --log' -r -f -a 'latest (agentctx sessions --ids 2>/dev/null)'
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l sessions-root -d 'Where dsh stores session logs [default: $DSH_HOME/sessions]' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l profile -d 'The harness whose baseline to print [default: dsh]; a profile\'s own settings: --help-profile P' -r -f -a "dsh\t'DeepSeek Harness, the default'
codex\t'OpenAI Codex CLI (exact)'
gemini\t'Google Gemini CLI (exact)'
opencode\t'opencode, V1 engine (exact)'
claude\t'Claude Code 2.1.332 (exact)'"
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l help-profile -d 'Print the settings of --profile P (codex, gemini, opencode, claude) and exit' -r -f -a "codex\t'OpenAI Codex CLI'
gemini\t'Google Gemini CLI'
opencode\t'opencode'
claude\t'Claude Code'"
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l source-kind -d 'The generation that resumes the log and the kind it persists [default: agent-instructions]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l dsh-home -d 'Home of the user-global AGENTS.md, as the loader\'s dshHome [default: dsh\'s configuration, else $DSH_HOME if non-blank, else ~/.dsh]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l max-bytes -d 'UTF-8 byte cap of one rendered message: any number (600.5, 1e5); <= 0, nan or inf disables loading [default: 65536]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l max-source-bytes -d 'Per-file read cap in bytes, at least 1 [default: 1048576]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l candidates -d 'Ordered per-directory file names, comma separated [default: AGENTS.md,CLAUDE.md]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l local-candidates -d 'Ordered local-overlay names; an empty value disables them [default: AGENTS.local.md,CLAUDE.local.md]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l root-markers -d 'Names whose existence marks the project root; empty means none [default: .git]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l precedence -d 'How candidates of one directory compete [default: all; with --log, inferred from its scope keys]' -r -f -a "first\t'dsh before 2026-07-22: the first present candidate of each directory and tier wins'
all\t'dsh since 2026-07-22 (the default): every present candidate loads; same-content siblings collapse'"
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l dsh-profile -d 'The dsh profile whose configuration decides the settings, as `dsh --profile NAME` (`dsh web` is web) [default: $AGENTCTX_DSH_PROFILE, else web or headless from the log, else web]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l dsh-preset -d 'dsh web\'s agent preset [default: the log\'s, else agent-presets.default in $DSH_HOME/settings.yaml, else standard]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l patch -d 'An extra configuration layer after the home layer, as `dsh --patch FILE` (repeatable, in order)' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l settings-from -d 'Where settings not given as flags come from: dsh\'s configuration now, or the log\'s recorded identity [default: config; with --log, log]' -r -f -a "config\t'dsh\'s configuration as it is now (the default, and with --session)'
log\t'The identity the log recorded (the default with --log FILE)'"
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l format -d 'Output format' -r -f -a "text\t'The exact message bytes'
json\t'One JSON document: parts, source, files, budget records'"
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l codex-home -d 'The Codex home [default: $CODEX_HOME if non-empty, else ~/.codex]' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l project-doc-max-bytes -d 'Byte budget of Codex\'s project docs; 0 disables them [default: config.toml, else 32768]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l project-doc-fallback-filenames -d 'Names Codex tries after AGENTS.md, comma separated [default: config.toml, else none]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l project-root-markers -d 'Names marking Codex\'s project root [default: config.toml, else .git]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l context-filename -d 'Gemini CLI\'s context file names [default: settings context.fileName, else GEMINI.md]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l memory-boundary-markers -d 'Names marking Gemini CLI\'s memory boundary [default: settings, else .git]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l touch -d 'A path a Gemini CLI tool touched, for its just-in-time context (repeatable)' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l model -d 'The model, which picks the memory header [default: $GEMINI_MODEL, else settings model.name, else auto]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l opencode-config-dir -d 'opencode\'s config directory, as OPENCODE_CONFIG_DIR: its AGENTS.md replaces the global one, its config is the last layer [default: $OPENCODE_CONFIG_DIR]' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l instructions -d 'opencode\'s instruction entries, comma separated; replaces the config files\' [default: config]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l claude-config-dir -d 'Claude Code\'s config directory [default: $CLAUDE_CONFIG_DIR if non-empty, else ~/.claude]' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l color -d 'When to colour human-facing output' -r -f -a "auto\t'Colour when the stream is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l strict -d 'Parse every log line fully instead of only the lines that can matter'
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l cwd-as-given -d '--cwd handed over as written, as `codex -C DIR` (links kept) [default: as `cd DIR && agent`, links resolved]'
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l no-dsh-config -d 'Ignore every layer of dsh\'s configuration: what dsh ships only'
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l check -d 'Exit 1 when anything was omitted or truncated by the byte budget'
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l untrusted -d 'The workspace is not trusted: no project memory, no workspace settings'
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l disable-claude-code-prompt -d 'No CLAUDE.md files (also OPENCODE_DISABLE_CLAUDE_CODE_PROMPT=1|true)'
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -l disable-project-config -d 'No project files or project config (also OPENCODE_DISABLE_PROJECT_CONFIG=1|true)'
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -s q -l quiet -d 'Print no warnings on stderr'
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentctx -n "__fish_agentctx_using_subcommand render" -s V -l version -d 'Print version'
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l log -d 'The session\'s JSON event log, plain or dsh\'s zstd container (`-` reads stdin)' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l cwd -d 'The session\'s working directory [default: the log header\'s cwd, else the current directory]' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l session -d 'Read the log dsh stored for session ID of the cwd (`latest`: the newest) instead of --log' -r -f -a 'latest (agentctx sessions --ids 2>/dev/null)'
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l sessions-root -d 'Where dsh stores session logs [default: $DSH_HOME/sessions]' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l touch -d 'Simulate a successful structured read/write/edit of PATH (repeatable)' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l runtime -d 'A runtime-context section value NAME=TEXT to compare with the latest snapshot (repeatable)' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l profile -d 'The harness profile; diff replays dsh logs, so only dsh [default: dsh]' -r -f -a "dsh\t'DeepSeek Harness, the default'"
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l source-kind -d 'The generation that resumes the log and the kind it persists [default: agent-instructions]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l dsh-home -d 'Home of the user-global AGENTS.md, as the loader\'s dshHome [default: dsh\'s configuration, else $DSH_HOME if non-blank, else ~/.dsh]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l max-bytes -d 'UTF-8 byte cap of one rendered message: any number (600.5, 1e5); <= 0, nan or inf disables loading [default: 65536]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l max-source-bytes -d 'Per-file read cap in bytes, at least 1 [default: 1048576]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l candidates -d 'Ordered per-directory file names, comma separated [default: AGENTS.md,CLAUDE.md]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l local-candidates -d 'Ordered local-overlay names; an empty value disables them [default: AGENTS.local.md,CLAUDE.local.md]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l root-markers -d 'Names whose existence marks the project root; empty means none [default: .git]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l precedence -d 'How candidates of one directory compete [default: all; with --log, inferred from its scope keys]' -r -f -a "first\t'dsh before 2026-07-22: the first present candidate of each directory and tier wins'
all\t'dsh since 2026-07-22 (the default): every present candidate loads; same-content siblings collapse'"
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l dsh-profile -d 'The dsh profile whose configuration decides the settings, as `dsh --profile NAME` (`dsh web` is web) [default: $AGENTCTX_DSH_PROFILE, else web or headless from the log, else web]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l dsh-preset -d 'dsh web\'s agent preset [default: the log\'s, else agent-presets.default in $DSH_HOME/settings.yaml, else standard]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l patch -d 'An extra configuration layer after the home layer, as `dsh --patch FILE` (repeatable, in order)' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l settings-from -d 'Where settings not given as flags come from: dsh\'s configuration now, or the log\'s recorded identity [default: config; with --log, log]' -r -f -a "config\t'dsh\'s configuration as it is now (the default, and with --session)'
log\t'The identity the log recorded (the default with --log FILE)'"
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l format -d 'Output format' -r -f -a "text\t'The exact message bytes'
json\t'One JSON document: decision, reason, parts, source, budget records'"
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l color -d 'When to colour human-facing output' -r -f -a "auto\t'Colour when the stream is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l strict -d 'Parse every log line fully instead of only the lines that can matter'
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l no-dsh-config -d 'Ignore every layer of dsh\'s configuration: what dsh ships only'
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -l exit-code -d 'Exit 1 when something would be sent'
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -s q -l quiet -d 'Print no warnings on stderr'
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentctx -n "__fish_agentctx_using_subcommand diff" -s V -l version -d 'Print version'
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l log -d 'Also explain this session log (plain or zstd): what a resumed session receives and why (`-` reads stdin)' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l cwd -d 'The session\'s working directory [default: the log header\'s cwd, else the current directory]' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l session -d 'Read the log dsh stored for session ID of the cwd (`latest`: the newest) instead of --log' -r -f -a 'latest (agentctx sessions --ids 2>/dev/null)'
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l sessions-root -d 'Where dsh stores session logs [default: $DSH_HOME/sessions]' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l profile -d 'The harness to explain [default: dsh]; a profile\'s own settings: --help-profile P' -r -f -a "dsh\t'DeepSeek Harness, the default'
codex\t'OpenAI Codex CLI (exact)'
gemini\t'Google Gemini CLI (exact)'
opencode\t'opencode, V1 engine (exact)'
claude\t'Claude Code 2.1.332 (exact)'
copilot\t'GitHub Copilot CLI: documented behaviour, not byte-exact'"
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l help-profile -d 'Print the settings of --profile P (codex, gemini, opencode, claude) and exit' -r -f -a "codex\t'OpenAI Codex CLI'
gemini\t'Google Gemini CLI'
opencode\t'opencode'
claude\t'Claude Code'"
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l source-kind -d 'The generation that resumes the log and the kind it persists [default: agent-instructions]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l dsh-home -d 'Home of the user-global AGENTS.md, as the loader\'s dshHome [default: dsh\'s configuration, else $DSH_HOME if non-blank, else ~/.dsh]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l max-bytes -d 'UTF-8 byte cap of one rendered message: any number (600.5, 1e5); <= 0, nan or inf disables loading [default: 65536]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l max-source-bytes -d 'Per-file read cap in bytes, at least 1 [default: 1048576]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l candidates -d 'Ordered per-directory file names, comma separated [default: AGENTS.md,CLAUDE.md]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l local-candidates -d 'Ordered local-overlay names; an empty value disables them [default: AGENTS.local.md,CLAUDE.local.md]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l root-markers -d 'Names whose existence marks the project root; empty means none [default: .git]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l precedence -d 'How candidates of one directory compete [default: all; with --log, inferred from its scope keys]' -r -f -a "first\t'dsh before 2026-07-22: the first present candidate of each directory and tier wins'
all\t'dsh since 2026-07-22 (the default): every present candidate loads; same-content siblings collapse'"
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l dsh-profile -d 'The dsh profile whose configuration decides the settings, as `dsh --profile NAME` (`dsh web` is web) [default: $AGENTCTX_DSH_PROFILE, else web or headless from the log, else web]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l dsh-preset -d 'dsh web\'s agent preset [default: the log\'s, else agent-presets.default in $DSH_HOME/settings.yaml, else standard]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l patch -d 'An extra configuration layer after the home layer, as `dsh --patch FILE` (repeatable, in order)' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l settings-from -d 'Where settings not given as flags come from: dsh\'s configuration now, or the log\'s recorded identity [default: config; with --log, log]' -r -f -a "config\t'dsh\'s configuration as it is now (the default, and with --session)'
log\t'The identity the log recorded (the default with --log FILE)'"
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l format -d 'Output format' -r -f -a "text\t'A readable report'
json\t'One JSON document (its fields: docs/JSON.md)'"
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l codex-home -d 'The Codex home [default: $CODEX_HOME if non-empty, else ~/.codex]' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l project-doc-max-bytes -d 'Byte budget of Codex\'s project docs; 0 disables them [default: config.toml, else 32768]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l project-doc-fallback-filenames -d 'Names Codex tries after AGENTS.md, comma separated [default: config.toml, else none]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l project-root-markers -d 'Names marking Codex\'s project root [default: config.toml, else .git]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l context-filename -d 'Gemini CLI\'s context file names [default: settings context.fileName, else GEMINI.md]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l memory-boundary-markers -d 'Names marking Gemini CLI\'s memory boundary [default: settings, else .git]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l touch -d 'A path a Gemini CLI tool touched, for its just-in-time context (repeatable)' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l model -d 'The model, which picks the memory header [default: $GEMINI_MODEL, else settings model.name, else auto]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l opencode-config-dir -d 'opencode\'s config directory, as OPENCODE_CONFIG_DIR: its AGENTS.md replaces the global one, its config is the last layer [default: $OPENCODE_CONFIG_DIR]' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l instructions -d 'opencode\'s instruction entries, comma separated; replaces the config files\' [default: config]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l claude-config-dir -d 'Claude Code\'s config directory [default: $CLAUDE_CONFIG_DIR if non-empty, else ~/.claude]' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l color -d 'When to colour human-facing output' -r -f -a "auto\t'Colour when the stream is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l strict -d 'Parse every log line fully instead of only the lines that can matter'
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l cwd-as-given -d '--cwd handed over as written, as `codex -C DIR` (links kept) [default: as `cd DIR && agent`, links resolved]'
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l no-dsh-config -d 'Ignore every layer of dsh\'s configuration: what dsh ships only'
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l full -d 'With --log, print the parts diff would send whole instead of their first lines'
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l untrusted -d 'The workspace is not trusted: no project memory, no workspace settings'
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l disable-claude-code-prompt -d 'No CLAUDE.md files (also OPENCODE_DISABLE_CLAUDE_CODE_PROMPT=1|true)'
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -l disable-project-config -d 'No project files or project config (also OPENCODE_DISABLE_PROJECT_CONFIG=1|true)'
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -s q -l quiet -d 'Print no warnings on stderr'
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentctx -n "__fish_agentctx_using_subcommand explain" -s V -l version -d 'Print version'
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l exclude -d 'Do not descend into directories with this name, or this path relative to PATH when it holds a `/` (repeatable)' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l base -d 'Compare with git revision REV: what the change does to each directory\'s baseline' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l profile -d 'The harnesses to check, comma separated, or all [default: dsh]; a profile\'s own settings: --help-profile P' -r -f -a "dsh\t'DeepSeek Harness, the default'
codex\t'OpenAI Codex CLI (exact)'
gemini\t'Google Gemini CLI (exact)'
opencode\t'opencode, V1 engine (exact)'
claude\t'Claude Code 2.1.332 (exact)'
all\t'dsh and every harness with a check: codex, gemini, opencode and claude (check only)'"
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l help-profile -d 'Print the settings of --profile P (codex, gemini, opencode, claude) and exit' -r -f -a "codex\t'OpenAI Codex CLI'
gemini\t'Google Gemini CLI'
opencode\t'opencode'
claude\t'Claude Code'"
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l dsh-home -d 'Home of the user-global AGENTS.md, as the loader\'s dshHome [default: dsh\'s configuration, else $DSH_HOME if non-blank, else ~/.dsh]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l max-bytes -d 'UTF-8 byte cap of one rendered message: any number (600.5, 1e5); <= 0, nan or inf disables loading [default: 65536]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l max-source-bytes -d 'Per-file read cap in bytes, at least 1 [default: 1048576]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l candidates -d 'Ordered per-directory file names, comma separated [default: AGENTS.md,CLAUDE.md]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l local-candidates -d 'Ordered local-overlay names; an empty value disables them [default: AGENTS.local.md,CLAUDE.local.md]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l root-markers -d 'Names whose existence marks the project root; empty means none [default: .git]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l precedence -d 'How candidates of one directory compete [default: all; with --log, inferred from its scope keys]' -r -f -a "first\t'dsh before 2026-07-22: the first present candidate of each directory and tier wins'
all\t'dsh since 2026-07-22 (the default): every present candidate loads; same-content siblings collapse'"
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l dsh-profile -d 'The dsh profile whose configuration decides the settings, as `dsh --profile NAME` (`dsh web` is web) [default: $AGENTCTX_DSH_PROFILE, else web or headless from the log, else web]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l dsh-preset -d 'dsh web\'s agent preset [default: the log\'s, else agent-presets.default in $DSH_HOME/settings.yaml, else standard]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l patch -d 'An extra configuration layer after the home layer, as `dsh --patch FILE` (repeatable, in order)' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l settings-from -d 'Where settings not given as flags come from: dsh\'s configuration now, or the log\'s recorded identity [default: config; with --log, log]' -r -f -a "config\t'dsh\'s configuration as it is now (the default, and with --session)'
log\t'The identity the log recorded (the default with --log FILE)'"
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l format -d 'Output format: text, json, github (workflow commands), sarif (SARIF 2.1.0) or markdown (a pull-request comment)' -r -f -a "text\t'Findings grouped by directory, then a summary line'
json\t'One JSON document: the findings and every checked directory\'s baseline'
github\t'GitHub Actions workflow commands, so annotations land on the files'
sarif\t'SARIF 2.1.0, for GitHub code scanning and other SARIF viewers'
markdown\t'A pull-request comment: a summary line, a table, details per directory'"
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l warn-at -d 'Warn about a baseline that reaches PCT percent of max-bytes' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l codex-home -d 'The Codex home [default: $CODEX_HOME if non-empty, else ~/.codex]' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l project-doc-max-bytes -d 'Byte budget of Codex\'s project docs; 0 disables them [default: config.toml, else 32768]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l project-doc-fallback-filenames -d 'Names Codex tries after AGENTS.md, comma separated [default: config.toml, else none]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l project-root-markers -d 'Names marking Codex\'s project root [default: config.toml, else .git]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l context-filename -d 'Gemini CLI\'s context file names [default: settings context.fileName, else GEMINI.md]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l memory-boundary-markers -d 'Names marking Gemini CLI\'s memory boundary [default: settings, else .git]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l touch -d 'A path a Gemini CLI tool touched, for its just-in-time context (repeatable)' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l model -d 'The model, which picks the memory header [default: $GEMINI_MODEL, else settings model.name, else auto]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l opencode-config-dir -d 'opencode\'s config directory, as OPENCODE_CONFIG_DIR: its AGENTS.md replaces the global one, its config is the last layer [default: $OPENCODE_CONFIG_DIR]' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l instructions -d 'opencode\'s instruction entries, comma separated; replaces the config files\' [default: config]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l claude-config-dir -d 'Claude Code\'s config directory [default: $CLAUDE_CONFIG_DIR if non-empty, else ~/.claude]' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l color -d 'When to colour human-facing output' -r -f -a "auto\t'Colour when the stream is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l no-ignore -d 'Walk directories that .gitignore, .git/info/exclude or .agentctxignore ignore'
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l include-user-global -d 'Include the user-global AGENTS.md in every baseline (and check it)'
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l cwd-as-given -d '--cwd handed over as written, as `codex -C DIR` (links kept) [default: as `cd DIR && agent`, links resolved]'
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l no-dsh-config -d 'Ignore every layer of dsh\'s configuration: what dsh ships only'
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l deny-warnings -d 'Exit 1 on warnings too, not only on errors'
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l summary -d 'Also list every directory that loads anything: bytes, share of max-bytes, largest file, headroom'
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l untrusted -d 'The workspace is not trusted: no project memory, no workspace settings'
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l disable-claude-code-prompt -d 'No CLAUDE.md files (also OPENCODE_DISABLE_CLAUDE_CODE_PROMPT=1|true)'
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -l disable-project-config -d 'No project files or project config (also OPENCODE_DISABLE_PROJECT_CONFIG=1|true)'
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -s q -l quiet -d 'Print no warnings on stderr'
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentctx -n "__fish_agentctx_using_subcommand check" -s V -l version -d 'Print version'
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -l cwd -d 'The directory whose sessions to list [default: the current directory]' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -l sessions-root -d 'Where dsh stores session logs [default: $DSH_HOME/sessions]' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -l dsh-home -d 'Home of the user-global AGENTS.md, as the loader\'s dshHome [default: dsh\'s configuration, else $DSH_HOME if non-blank, else ~/.dsh]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -l max-bytes -d 'UTF-8 byte cap of one rendered message: any number (600.5, 1e5); <= 0, nan or inf disables loading [default: 65536]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -l max-source-bytes -d 'Per-file read cap in bytes, at least 1 [default: 1048576]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -l candidates -d 'Ordered per-directory file names, comma separated [default: AGENTS.md,CLAUDE.md]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -l local-candidates -d 'Ordered local-overlay names; an empty value disables them [default: AGENTS.local.md,CLAUDE.local.md]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -l root-markers -d 'Names whose existence marks the project root; empty means none [default: .git]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -l precedence -d 'How candidates of one directory compete [default: all; with --log, inferred from its scope keys]' -r -f -a "first\t'dsh before 2026-07-22: the first present candidate of each directory and tier wins'
all\t'dsh since 2026-07-22 (the default): every present candidate loads; same-content siblings collapse'"
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -l dsh-profile -d 'The dsh profile whose configuration decides the settings, as `dsh --profile NAME` (`dsh web` is web) [default: $AGENTCTX_DSH_PROFILE, else web or headless from the log, else web]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -l dsh-preset -d 'dsh web\'s agent preset [default: the log\'s, else agent-presets.default in $DSH_HOME/settings.yaml, else standard]' -r
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -l patch -d 'An extra configuration layer after the home layer, as `dsh --patch FILE` (repeatable, in order)' -r -F
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -l settings-from -d 'Where settings not given as flags come from: dsh\'s configuration now, or the log\'s recorded identity [default: config; with --log, log]' -r -f -a "config\t'dsh\'s configuration as it is now (the default, and with --session)'
log\t'The identity the log recorded (the default with --log FILE)'"
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -l format -d 'Output format' -r -f -a "text\t'A table, newest first'
json\t'One JSON array, an object per session'"
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -l color -d 'When to colour human-facing output' -r -f -a "auto\t'Colour when the stream is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -l no-dsh-config -d 'Ignore every layer of dsh\'s configuration: what dsh ships only'
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -l all -d 'List every session of every project under the root, hidden ones too, with their cwd'
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -l ids -d 'Print only the ids listed, one a line (for shell completion)'
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -l check-drift -d 'Read each log and say whether its visible baseline matches the workspace'
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -s q -l quiet -d 'Print no warnings on stderr'
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentctx -n "__fish_agentctx_using_subcommand sessions" -s V -l version -d 'Print version'
complete -c agentctx -n "__fish_agentctx_using_subcommand completions" -l color -d 'When to colour human-facing output' -r -f -a "auto\t'Colour when the stream is a terminal and NO_COLOR is not set'
always\t'Always colour'
never\t'Never colour'"
complete -c agentctx -n "__fish_agentctx_using_subcommand completions" -s q -l quiet -d 'Print no warnings on stderr'
complete -c agentctx -n "__fish_agentctx_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentctx -n "__fish_agentctx_using_subcommand completions" -s V -l version -d 'Print version'
complete -c agentctx -n "__fish_agentctx_using_subcommand help; and not __fish_seen_subcommand_from render diff explain check sessions completions help" -f -a "render" -d 'Print the exact baseline message a new session in the cwd receives'
complete -c agentctx -n "__fish_agentctx_using_subcommand help; and not __fish_seen_subcommand_from render diff explain check sessions completions help" -f -a "diff" -d 'Print the workspace message that enters a resumed session'
complete -c agentctx -n "__fish_agentctx_using_subcommand help; and not __fish_seen_subcommand_from render diff explain check sessions completions help" -f -a "explain" -d 'Explain which instruction files a session gets, and why'
complete -c agentctx -n "__fish_agentctx_using_subcommand help; and not __fish_seen_subcommand_from render diff explain check sessions completions help" -f -a "check" -d 'Check every directory of a repository against the byte budget (the CI gate)'
complete -c agentctx -n "__fish_agentctx_using_subcommand help; and not __fish_seen_subcommand_from render diff explain check sessions completions help" -f -a "sessions" -d 'List the dsh sessions of the cwd, as dsh\'s web sidebar lists them'
complete -c agentctx -n "__fish_agentctx_using_subcommand help; and not __fish_seen_subcommand_from render diff explain check sessions completions help" -f -a "completions" -d 'Print a shell completion script'
complete -c agentctx -n "__fish_agentctx_using_subcommand help; and not __fish_seen_subcommand_from render diff explain check sessions completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
