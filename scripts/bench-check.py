#!/usr/bin/env python3
"""Time `agentctx check TREE` against `find TREE -type d | wc -l`.

    scripts/bench-check.py TREE [--reps 7] [--bin target/release/agentctx]

Runs each command once to warm the page cache, then REPS times each,
alternating, and prints the medians and their ratio (check / find). Check's
output goes to /dev/null; its exit status (0 or 1) is not a failure.
"""

import argparse
import statistics
import subprocess
import sys
import time


def timed(cmd, shell=False):
    start = time.perf_counter()
    proc = subprocess.run(cmd, shell=shell, stdout=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        sys.exit(f"bench-check: {cmd} exited {proc.returncode}")
    return elapsed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tree")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--bin", default="target/release/agentctx")
    args = ap.parse_args()
    check = [args.bin, "check", args.tree]
    find = f"find '{args.tree}' -type d | wc -l"
    timed(check)
    timed(find, shell=True)
    checks, finds = [], []
    for _ in range(args.reps):
        finds.append(timed(find, shell=True))
        checks.append(timed(check))
    c, f = statistics.median(checks), statistics.median(finds)
    print(f"find -type d | wc -l: median {f * 1000:.0f} ms  ({', '.join(f'{x * 1000:.0f}' for x in finds)})")
    print(f"agentctx check:       median {c * 1000:.0f} ms  ({', '.join(f'{x * 1000:.0f}' for x in checks)})")
    print(f"ratio check/find: {c / f:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
