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
from bench import BIN, lay_out  # noqa: E402


def timed(argv, env):
    """Wall, user and system seconds of one run, stdout discarded."""
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, env,
                         file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit(f'{argv} failed')
    return time.perf_counter() - start, usage.ru_utime, usage.ru_stime


def big_writes(path):
    """Rewritten in place in 1 MiB writes."""
    with open(path, 'rb') as f:
        data = f.read()
    with open(path, 'wb', buffering=0) as f:
        for at in range(0, len(data), 1 << 20):
            f.write(data[at:at + (1 << 20)])
        os.fsync(f.fileno())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--work', default=os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), 'bench-work'))
    ap.add_argument('--bin', default=BIN)
    ap.add_argument('--runs', type=int, default=9)
    ap.add_argument('--rounds', type=int, default=2)
    args = ap.parse_args()
    log = os.path.join(args.work, 'mreal500.jsonl')
    if not os.path.exists(log):
        sys.exit(f'{log}: run scripts/bench.py --work {args.work} --only real first')
    wc = shutil.which('wc')
    # As bench.py runs agentctx: an empty home, no dsh home.
    env = {k: v for k, v in os.environ.items() if k != 'DSH_HOME'}
    env['HOME'] = os.path.join(args.work, 'home')
    os.makedirs(env['HOME'], exist_ok=True)
    copy = os.path.join(args.work, 'layout.jsonl')
    shutil.copyfile(log, copy)
    layouts = [('written (8 KiB writes)', copy, lambda: lay_out(copy, 'written')),
               ('reread', copy, lambda: lay_out(copy, 'reread')),
               ('1 MiB writes', copy, lambda: big_writes(copy))]
    print(f'page-cache layouts, {time.strftime("%Y-%m-%d %H:%M")}, load average '
          f'{os.getloadavg()[0]:.2f}, median of {args.runs} alternating runs', flush=True)
    try:
        runs = [('as found (the log itself)', log, lambda: None)]
        runs += layouts * args.rounds
        for name, path, prepare in runs:
            prepare()
            floor, ours = [], []
            timed([wc, '-l', path], env), timed([args.bin, 'diff', '--log', path], env)
            for _ in range(args.runs):
                floor.append(timed([wc, '-l', path], env))
                ours.append(timed([args.bin, 'diff', '--log', path], env))
            med = lambda got, i: statistics.median(r[i] for r in got) * 1000
            print(f'{name:25s} wc -l {med(floor, 0):6.1f} ms   agentctx {med(ours, 0):6.1f} ms '
                  f'(user {med(ours, 1):6.1f}, system {med(ours, 2):5.1f})   '
                  f'ratio {med(ours, 0) / med(floor, 0):4.2f}x', flush=True)
    finally:
        os.remove(copy)


if __name__ == '__main__':
    main()
