_agentctx() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="agentctx"
                ;;
            agentctx,check)
                cmd="agentctx__subcmd__check"
                ;;
            agentctx,completions)
                cmd="agentctx__subcmd__completions"
                ;;
            agentctx,diff)
                cmd="agentctx__subcmd__diff"
                ;;
            agentctx,explain)
                cmd="agentctx__subcmd__explain"
                ;;
            agentctx,help)
                cmd="agentctx__subcmd__help"
                ;;
            agentctx,render)
                cmd="agentctx__subcmd__render"
                ;;
            agentctx,sessions)
                cmd="agentctx__subcmd__sessions"
                ;;
            agentctx__subcmd__help,check)
                cmd="agentctx__subcmd__help__subcmd__check"
                ;;
            agentctx__subcmd__help,completions)
                cmd="agentctx__subcmd__help__subcmd__completions"
                ;;
            agentctx__subcmd__help,diff)
                cmd="agentctx__subcmd__help__subcmd__diff"
                ;;
            agentctx__subcmd__help,explain)
                cmd="agentctx__subcmd__help__subcmd__explain"
                ;;
            agentctx__subcmd__help,help)
                cmd="agentctx__subcmd__help__subcmd__help"
                ;;
            agentctx__subcmd__help,render)
                cmd="agentctx__subcmd__help__subcmd__render"
                ;;
            agentctx__subcmd__help,sessions)
                cmd="agentctx__subcmd__help__subcmd__sessions"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        agentctx)
            opts="-q -h -V --color --quiet --help --version render diff explain check sessions completions help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        agentctx__subcmd__check)
            opts="-q -h -V --exclude --no-ignore --include-user-global --base --profile --help-profile --cwd-as-given --dsh-home --max-bytes --max-source-bytes --candidates --local-candidates --root-markers --precedence --dsh-profile --dsh-preset --patch --no-dsh-config --settings-from --format --deny-warnings --summary --warn-at --codex-home --project-doc-max-bytes --project-doc-fallback-filenames --project-root-markers --context-filename --memory-boundary-markers --untrusted --touch --model --opencode-config-dir --instructions --disable-claude-code-prompt --disable-project-config --claude-config-dir --color --quiet --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --exclude)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -W "dsh codex gemini opencode claude all" -- "${cur}"))
                    return 0
                    ;;
                --help-profile)
                    COMPREPLY=($(compgen -W "codex gemini opencode claude" -- "${cur}"))
                    return 0
                    ;;
                --dsh-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-source-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --candidates)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --local-candidates)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root-markers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --precedence)
                    COMPREPLY=($(compgen -W "first all" -- "${cur}"))
                    return 0
                    ;;
                --dsh-profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dsh-preset)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --patch)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --settings-from)
                    COMPREPLY=($(compgen -W "config log" -- "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json github sarif markdown" -- "${cur}"))
                    return 0
                    ;;
                --warn-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --codex-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-doc-max-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-doc-fallback-filenames)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-root-markers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context-filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --memory-boundary-markers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --touch)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --opencode-config-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --instructions)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --claude-config-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        agentctx__subcmd__completions)
            opts="-q -h -V --color --quiet --help --version bash elvish fish powershell zsh"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        agentctx__subcmd__diff)
            opts="-q -h -V --log --cwd --strict --session --sessions-root --touch --runtime --profile --source-kind --dsh-home --max-bytes --max-source-bytes --candidates --local-candidates --root-markers --precedence --dsh-profile --dsh-preset --patch --no-dsh-config --settings-from --format --exit-code --color --quiet --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cwd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -W "latest $("$1" sessions --ids 2>/dev/null)" -- "${cur}"))
                    return 0
                    ;;
                --sessions-root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --touch)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --runtime)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -W "dsh" -- "${cur}"))
                    return 0
                    ;;
                --source-kind)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dsh-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-source-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --candidates)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --local-candidates)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root-markers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --precedence)
                    COMPREPLY=($(compgen -W "first all" -- "${cur}"))
                    return 0
                    ;;
                --dsh-profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dsh-preset)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --patch)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --settings-from)
                    COMPREPLY=($(compgen -W "config log" -- "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        agentctx__subcmd__explain)
            opts="-q -h -V --log --cwd --strict --session --sessions-root --profile --help-profile --cwd-as-given --source-kind --dsh-home --max-bytes --max-source-bytes --candidates --local-candidates --root-markers --precedence --dsh-profile --dsh-preset --patch --no-dsh-config --settings-from --full --format --codex-home --project-doc-max-bytes --project-doc-fallback-filenames --project-root-markers --context-filename --memory-boundary-markers --untrusted --touch --model --opencode-config-dir --instructions --disable-claude-code-prompt --disable-project-config --claude-config-dir --color --quiet --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cwd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -W "latest $("$1" sessions --ids 2>/dev/null)" -- "${cur}"))
                    return 0
                    ;;
                --sessions-root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -W "dsh codex gemini opencode claude copilot" -- "${cur}"))
                    return 0
                    ;;
                --help-profile)
                    COMPREPLY=($(compgen -W "codex gemini opencode claude" -- "${cur}"))
                    return 0
                    ;;
                --source-kind)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dsh-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-source-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --candidates)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --local-candidates)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root-markers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --precedence)
                    COMPREPLY=($(compgen -W "first all" -- "${cur}"))
                    return 0
                    ;;
                --dsh-profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dsh-preset)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --patch)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --settings-from)
                    COMPREPLY=($(compgen -W "config log" -- "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --codex-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-doc-max-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-doc-fallback-filenames)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-root-markers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context-filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --memory-boundary-markers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --touch)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --opencode-config-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --instructions)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --claude-config-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        agentctx__subcmd__help)
            opts="render diff explain check sessions completions help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        agentctx__subcmd__help__subcmd__check)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        agentctx__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        agentctx__subcmd__help__subcmd__diff)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        agentctx__subcmd__help__subcmd__explain)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        agentctx__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        agentctx__subcmd__help__subcmd__render)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        agentctx__subcmd__help__subcmd__sessions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        agentctx__subcmd__render)
            opts="-q -h -V --log --cwd --strict --session --sessions-root --profile --help-profile --cwd-as-given --source-kind --dsh-home --max-bytes --max-source-bytes --candidates --local-candidates --root-markers --precedence --dsh-profile --dsh-preset --patch --no-dsh-config --settings-from --check --format --codex-home --project-doc-max-bytes --project-doc-fallback-filenames --project-root-markers --context-filename --memory-boundary-markers --untrusted --touch --model --opencode-config-dir --instructions --disable-claude-code-prompt --disable-project-config --claude-config-dir --color --quiet --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cwd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --session)
                    COMPREPLY=($(compgen -W "latest $("$1" sessions --ids 2>/dev/null)" -- "${cur}"))
                    return 0
                    ;;
                --sessions-root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -W "dsh codex gemini opencode claude" -- "${cur}"))
                    return 0
                    ;;
                --help-profile)
                    COMPREPLY=($(compgen -W "codex gemini opencode claude" -- "${cur}"))
                    return 0
                    ;;
                --source-kind)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dsh-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-source-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --candidates)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --local-candidates)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root-markers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --precedence)
                    COMPREPLY=($(compgen -W "first all" -- "${cur}"))
                    return 0
                    ;;
                --dsh-profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dsh-preset)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --patch)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --settings-from)
                    COMPREPLY=($(compgen -W "config log" -- "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --codex-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-doc-max-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-doc-fallback-filenames)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --project-root-markers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context-filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --memory-boundary-markers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --touch)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --opencode-config-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --instructions)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --claude-config-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        agentctx__subcmd__sessions)
            opts="-q -h -V --cwd --sessions-root --dsh-home --max-bytes --max-source-bytes --candidates --local-candidates --root-markers --precedence --dsh-profile --dsh-preset --patch --no-dsh-config --settings-from --all --ids --check-drift --format --color --quiet --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --cwd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sessions-root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dsh-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-source-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --candidates)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --local-candidates)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root-markers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --precedence)
                    COMPREPLY=($(compgen -W "first all" -- "${cur}"))
                    return 0
                    ;;
                --dsh-profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dsh-preset)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --patch)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --settings-from)
                    COMPREPLY=($(compgen -W "config log" -- "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _agentctx -o nosort -o bashdefault -o default agentctx
else
    complete -F _agentctx -o bashdefault -o default agentctx
fi
