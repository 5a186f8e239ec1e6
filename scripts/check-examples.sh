#!/usr/bin/env bash
# Checks that the console examples of Markdown files print what the files
# show (tests/docs.rs runs it on README.md and docs/*.md).
#
#   scripts/check-examples.sh FILE...
#
# A console example is a ```console block: each line that begins with `$ `
# is a command, and the lines up to the next command are what it prints
# (stdout and stderr, as a terminal shows them; a final newline that the
# output lacks is added, as a terminal does). Every block runs in one bash,
# from the repository root, with HOME=/tmp/acme-home; the commands of a
# block share that shell (a `cd` or `$?` carries to the next command). Each
# file starts from a fresh demo repository (examples/make-acme.sh), so the
# blocks of one file see each other's changes and those of other files do
# not. agentctx is the one on PATH, or $AGENTCTX.
#
# Prints one line per block and a diff for each command whose output
# differs; exits 1 when any differs, 2 on bad usage.
set -euo pipefail

if [[ $# -eq 0 ]]; then
    echo "usage: scripts/check-examples.sh FILE..." >&2
    exit 2
fi
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ -n "${AGENTCTX:-}" ]]; then
    bin_dir="$(mktemp -d)"
    ln -s "$(cd "$(dirname "$AGENTCTX")" && pwd)/$(basename "$AGENTCTX")" "$bin_dir/agentctx"
    export PATH="$bin_dir:$PATH"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work" ${bin_dir:+"$bin_dir"}' EXIT
# The demo repository lives at fixed paths: one run at a time.
if command -v flock >/dev/null; then
    exec 9>/tmp/acme.lock
    flock 9
fi

failed=0
blocks=0
mark=$'\x1e'

# Runs the block whose commands are in $work/commands (one a line) and
# whose expected outputs are $work/expected.N; reports it as FILE:LINE.
run_block() {
    local where="$1" n script
    n=$(wc -l < "$work/commands")
    script="$work/block.sh"
    {
        echo 'exec 2>&1'
        local i=0
        while IFS= read -r command; do
            # The marker keeps the previous command's status for `$?`.
            printf '__s=$?; printf "\\n%s%d\\n"; (exit $__s)\n' "$mark" "$i"
            printf '%s\n' "$command"
            i=$((i + 1))
        done < "$work/commands"
        printf 'printf "\\n%s%d\\n"\n' "$mark" "$n"
    } > "$script"
    (cd "$repo" && HOME=/tmp/acme-home bash "$script") > "$work/actual" || true
    local i=0 ok=1
    while [[ $i -lt $n ]]; do
        # What the command printed: between its marker and the next one,
        # less the newline each marker begins with.
        awk -v start="${mark}${i}" -v stop="${mark}$((i + 1))" '
            $0 == start { on = 1; next }
            $0 == stop { exit }
            on { print }
        ' "$work/actual" > "$work/got.$i"
        # Drop the line the next marker began with; a final newline the
        # output lacked stays added.
        if [[ -s "$work/got.$i" ]]; then
            sed -i '$ { /^$/ d }' "$work/got.$i"
        fi
        if ! cmp -s "$work/expected.$i" "$work/got.$i"; then
            ok=0
            echo "$where: \$ $(sed -n "$((i + 1))p" "$work/commands")" >&2
            diff -u --label expected --label actual "$work/expected.$i" "$work/got.$i" >&2 || true
        fi
        i=$((i + 1))
    done
    blocks=$((blocks + 1))
    if [[ $ok -eq 1 ]]; then
        echo "ok    $where"
    else
        echo "DIFF  $where"
        failed=1
    fi
}

for file in "$@"; do
    path="$file"
    [[ "$path" = /* ]] || path="$repo/$path"
    (cd "$repo" && HOME=/tmp/acme-home bash examples/make-acme.sh)
    in_block=0
    line_no=0
    while IFS= read -r line || [[ -n "$line" ]]; do
        line_no=$((line_no + 1))
        if [[ $in_block -eq 0 ]]; then
            if [[ "$line" == '```console' ]]; then
                in_block=1
                start=$line_no
                : > "$work/commands"
                rm -f "$work"/expected.*
                count=0
            fi
            continue
        fi
        if [[ "$line" == '```' ]]; then
            in_block=0
            if [[ $count -gt 0 ]]; then
                run_block "$file:$start"
            fi
            continue
        fi
        if [[ "$line" == '$ '* ]]; then
            printf '%s\n' "${line#\$ }" >> "$work/commands"
            : > "$work/expected.$count"
            count=$((count + 1))
        elif [[ $count -gt 0 ]]; then
            printf '%s\n' "$line" >> "$work/expected.$((count - 1))"
        fi
    done < "$path"
done
echo "examples: $blocks blocks, $([[ $failed -eq 0 ]] && echo "all as printed" || echo "some differ")"
exit "$failed"
