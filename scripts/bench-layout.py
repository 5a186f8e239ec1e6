#!/usr/bin/env python3
"""`wc -l` and `agentctx diff --log` on the real log as the page cache holds
it now, and in each layout bench.py can put it in (issue 28).

    python3 scripts/bench-layout.py [--work DIR] [--bin FILE] [--runs N] [--rounds N]

First the log itself, --work's mreal500.jsonl (run scripts/bench.py --only
real first), untouched, with whatever history its pages have; then a copy of
it in each layout in turn, `rounds` times: the copy is laid out (bench.py's
lay_out, or rewritten in 1 MiB writes), then `wc -l` and agentctx alternate
`runs` times; prints the medians of wall time, agentctx's user and system time,
and the ratio. What it shows: the floor moves with the layout, agentctx's
user time does not.
"""
import argparse
import os
import shutil
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--work', default=os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), 'bench-work'))
    ap.add_argument('--bin', default=bench.BIN)
    ap.add_argument('--runs', type=int, default=9)
    ap.add_argument('--rounds', type=int, default=2)
    args = ap.parse_args()
    log = os.path.join(args.work, 'mreal500.jsonl')
    if not os.path.exists(log):
        sys.exit(f'{log}: run scripts/bench.py --work {args.work} --only real first')
    wc = shutil.which('wc')
    # As bench.py runs agentctx: an empty home, no dsh home.
    bench.RUN_ENV.update((k, v) for k, v in os.environ.items() if k != 'DSH_HOME')
    bench.RUN_ENV['HOME'] = os.path.join(args.work, 'home')
    os.makedirs(bench.RUN_ENV['HOME'], exist_ok=True)
    copy = os.path.join(args.work, 'layout.jsonl')
    shutil.copyfile(log, copy)
    layouts = [('written (8 KiB writes)', copy, lambda: bench.lay_out(copy, 'written')),
               ('reread', copy, lambda: bench.lay_out(copy, 'reread')),
               ('1 MiB writes', copy, lambda: bench.rewrite(copy, 1 << 20))]
    print(f'page-cache layouts, {time.strftime("%Y-%m-%d %H:%M")}, load average '
          f'{os.getloadavg()[0]:.2f}, median of {args.runs} alternating runs', flush=True)
    try:
        runs = [('as found (the log itself)', log, lambda: None)]
        runs += layouts * args.rounds
        for name, path, prepare in runs:
            prepare()
            floor, ours = [], []
            bench.run_once([wc, '-l', path]), bench.run_once([args.bin, 'diff', '--log', path])
            for _ in range(args.runs):
                floor.append(bench.run_once([wc, '-l', path]))
                ours.append(bench.run_once([args.bin, 'diff', '--log', path]))
            med = lambda got, of: statistics.median(of(r) for r in got) * 1000
            wall = lambda r: r[0]
            print(f'{name:25s} wc -l {med(floor, wall):6.1f} ms   agentctx {med(ours, wall):6.1f} ms '
                  f'(user {med(ours, lambda r: r[1].ru_utime):6.1f}, '
                  f'system {med(ours, lambda r: r[1].ru_stime):5.1f})   '
                  f'ratio {med(ours, wall) / med(floor, wall):4.2f}x', flush=True)
    finally:
        os.remove(copy)


if __name__ == '__main__':
    main()
