#!/usr/bin/env bash
# Claude Code's managed files (/etc/claude-code) through the real agent, without
# touching the machine's /etc: a private mount namespace lays an overlay on /etc
# and writes the managed files there.
#   sudo unshare -m --propagation private bash scripts/realagents/claude_managed.sh SCENARIO PREFIX AGENTCTX
# SCENARIO: plain (CLAUDE.md, an import, a rule), writable (the same, mode 666),
# settings (plus managed-settings.json with claudeMd). Cases: claude_managed.py.
set -euo pipefail
scenario=${1:?scenario}; prefix=${2:?prefix}; agentctx=${3:?agentctx}
here=$(cd "$(dirname "$0")" && pwd)
ov=$(mktemp -d); mkdir -p "$ov/up" "$ov/wk"
mount -t overlay overlay -o "lowerdir=/etc,upperdir=$ov/up,workdir=$ov/wk" /etc
mkdir -p /etc/claude-code/.claude/rules
printf 'managed @./inc.md @/etc/claude-code/inc.md\n' > /etc/claude-code/CLAUDE.md
printf 'managed import\n' > /etc/claude-code/inc.md
printf 'managed rule\n' > /etc/claude-code/.claude/rules/m.md
case "$scenario" in
  plain) ;;
  writable) chmod 666 /etc/claude-code/CLAUDE.md ;;
  settings) printf '{"claudeMd": "policy text from settings"}' > /etc/claude-code/managed-settings.json ;;
  *) echo "unknown scenario $scenario" >&2; exit 2 ;;
esac
work=$(mktemp -d)
python3 "${REALAGENTS:-../shared/realagents}/run_agents.py" --prefix "$prefix" --agents claude \
  --agentctx "$agentctx" --work "$work" --fixtures "$here/claude_managed.py"
