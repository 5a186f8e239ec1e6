#!/usr/bin/env bash
# Runs agentctx's own cases (cases.py) through the real dsh and compares:
#   bash scripts/realdsh/run.sh [NAME...]      (from the project root; needs root)
# It copies ../shared/realdsh to a temp dir, appends cases.py to its
# make_cases.py, runs only those cases (or NAME...) with the real dsh, and
# holds target/release/agentctx against them. Never run from .ci/run: it needs
# network namespaces, the npm-installed dsh (../shared/realdsh/setup.sh) and
# minutes. Results are cached by the shared harness in $REALDSH_CACHE.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
shared="$root/../shared/realdsh"
work="$(mktemp -d "${TMPDIR:-/tmp}/agentctx-realdsh.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp -r "$shared" "$work/realdsh"
chmod -R u+w "$work/realdsh"
cat "$root/scripts/realdsh/cases.py" >> "$work/realdsh/make_cases.py"
# The layout code must come after the cases: move the appended cases above it.
python3 - "$work/realdsh/make_cases.py" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
marker = "# ---------------------------------------------------------------- layout"
ours_at = s.rindex("# agentctx's own cases")
ours = s[ours_at:]
s = s[:ours_at]
i = s.index(marker)
open(p, "w").write(s[:i] + ours + "\n" + s[i:])
PY
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  mapfile -t names < <(python3 - "$root/scripts/realdsh/cases.py" <<'PY'
import re, sys
print("\n".join(re.findall(r'^\s*(?:case|touch_case|config_case|budget_case)\("([^"]+)"', open(sys.argv[1]).read(), re.M)))
PY
)
fi
bash "$shared/setup.sh" >/dev/null
python3 "$work/realdsh/run.py" "${names[@]}"
python3 "$work/realdsh/compare.py" --bin "$root/target/release/agentctx" "${names[@]}"
