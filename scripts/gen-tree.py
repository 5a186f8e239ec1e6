#!/usr/bin/env python3
"""Generate a synthetic repository tree for timing `agentctx check`.

    scripts/gen-tree.py SEED N OUT [--max-depth 30] [--agents 0.02] [--claude 0.005]

Creates OUT (which must not exist) holding a `.git` directory and N
directories in total (OUT included), each at most --max-depth levels below
OUT. Every directory gets an AGENTS.md with probability --agents and a
CLAUDE.md with probability --claude (independently), a few hundred bytes
each. The same SEED and arguments always give the same tree.
"""

import argparse
import os
import random
import sys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("n", type=int, help="directories in total, OUT included")
    ap.add_argument("out")
    ap.add_argument("--max-depth", type=int, default=30)
    ap.add_argument("--agents", type=float, default=0.02)
    ap.add_argument("--claude", type=float, default=0.005)
    args = ap.parse_args()
    if os.path.exists(args.out):
        print(f"gen-tree: {args.out} exists", file=sys.stderr)
        return 2

    rng = random.Random(args.seed)
    os.makedirs(os.path.join(args.out, ".git"))
    # (path, depth) of every directory; a new one hangs below a random
    # earlier one, half the time one of the most recent (deep chains).
    dirs = [(args.out, 0)]
    children = [0]
    for i in range(1, args.n):
        while True:
            if rng.random() < 0.5:
                j = rng.randrange(max(0, len(dirs) - 8), len(dirs))
            else:
                j = rng.randrange(len(dirs))
            parent, depth = dirs[j]
            if depth < args.max_depth:
                break
        path = os.path.join(parent, f"d{children[j]:03d}")
        children[j] += 1
        os.mkdir(path)
        dirs.append((path, depth + 1))
        children.append(0)

    files = 0
    for k, (path, depth) in enumerate(dirs):
        for name, p in (("AGENTS.md", args.agents), ("CLAUDE.md", args.claude)):
            if rng.random() < p:
                words = rng.randrange(20, 80)
                text = f"# Rules for level {depth} ({name} {k})\n\n" + " ".join(
                    rng.choice(["use", "the", "build", "tests", "pnpm", "never", "commit", "lint"])
                    for _ in range(words)
                ) + "\n"
                with open(os.path.join(path, name), "w") as f:
                    f.write(text)
                files += 1
    deepest = max(d for _, d in dirs)
    print(f"gen-tree: {len(dirs)} directories (deepest {deepest}), {files} instruction files in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
