#!/usr/bin/env bash
# Builds the demo repository of the README's examples: /tmp/acme, its home
# directory /tmp/acme-home (with ~/.dsh/AGENTS.md) and /tmp/style, which a
# symlink in the repository points to. Removes and recreates all three.
# The files are committed (for `check --base HEAD`).
# Then: export HOME=/tmp/acme-home; cd /tmp/acme/packages/app; agentctx render
set -euo pipefail
rm -rf /tmp/acme /tmp/acme-home /tmp/style
mkdir -p /tmp/acme-home/.dsh /tmp/style /tmp/acme/packages/app /tmp/acme/packages/api /tmp/acme/docs
cd /tmp/acme
git init -q
printf 'Answer in English.\n' > /tmp/acme-home/.dsh/AGENTS.md
printf '# Acme\n\n- Run `make test` before every commit.\n' > AGENTS.md
ln -s AGENTS.md CLAUDE.md
printf '# App\n\n- UI strings live in src/i18n.\n' > packages/app/AGENTS.md
printf '# App\n\n- UI strings live in src/strings.\n' > packages/app/CLAUDE.md
printf 'My local port is 5173.\n' > packages/app/AGENTS.local.md
{
    printf '# API\n\n'
    for i in $(seq 0 899); do
        printf -- '- Endpoint %04d: keep the handler under 50 lines and document its errors.\n' "$i"
    done
} > packages/api/AGENTS.md
printf 'Write in plain English.\n' > /tmp/style/AGENTS.md
ln -s ../../style/AGENTS.md docs/AGENTS.md
git add -A
git -c user.name=acme -c user.email=acme@example.com -c commit.gpgsign=false commit -qm acme
