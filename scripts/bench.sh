#!/usr/bin/env bash
# Builds the release binary and runs the benchmarks (see scripts/bench.py).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked
exec python3 scripts/bench.py "$@"
