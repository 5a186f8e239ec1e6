#!/usr/bin/env python3
"""Two agentctx binaries against each other and the floor, in one run (issue 28).

    python3 scripts/bench-ab.py --a OLD_BIN --b NEW_BIN [--work DIR] [--runs N]
                                [--layout written|reread]

On a loaded machine the figures of scripts/bench.py move by more than a
change is worth; here each run times the floor, then A, then B, on the
workloads scripts/bench.py made under --work (run it once first:
`--only real,zdiff,real-explain,real-sessions`), so all three meet the same
load. Prints medians of wall and CPU time (user + system) and each one's
ratio to the floor. The log is put in the page cache in the layout named
(bench.py's lay_out) before each workload.
"""
import argparse
import os
import shutil
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import RUN_ENV, lay_out, timed  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--a', required=True, help='the binary before')
    ap.add_argument('--b', required=True, help='the binary after')
    ap.add_argument('--work', default=os.path.join(ROOT, 'bench-work'))
    ap.add_argument('--runs', type=int, default=11)
    ap.add_argument('--log-mb', type=int, default=500)
    ap.add_argument('--layout', choices=('written', 'reread'), default='written',
                    help="how the page cache holds the log when it is measured (bench.py's lay_out)")
    args = ap.parse_args()
    log = os.path.join(args.work, f'mreal{args.log_mb}.jsonl')
    if not os.path.exists(log):
        raise SystemExit(f'{log}: run scripts/bench.py --work {args.work} --only real first')
    RUN_ENV.update((k, v) for k, v in os.environ.items() if k != 'DSH_HOME')
    RUN_ENV['HOME'] = os.path.join(args.work, 'home')
    wc, sh = shutil.which('wc'), shutil.which('sh')
    proj = os.path.join(args.work, 'logproj')
    workloads = [
        ('real', ['diff', '--log', log], [wc, '-l', log]),
        ('zdiff', ['diff', '--log', log + '.zstd'], [sh, '-c', f'zstd -dc "{log}.zstd" > /dev/null']),
        ('real-explain', ['explain', '--log', log], [wc, '-l', log]),
        ('real-sessions', ['sessions', '--cwd', proj, '--sessions-root',
                           os.path.join(args.work, 'sessions'), '--check-drift'], [wc, '-l', log]),
    ]
    print(f'agentctx A/B, {time.strftime("%Y-%m-%d %H:%M")}, load average {os.getloadavg()[0]:.2f}, '
          f'median of {args.runs} runs of floor, A, B in turn, log {args.layout}', flush=True)
    for name, cmd, floor in workloads:
        lay_out(log + '.zstd' if name == 'zdiff' else log, args.layout)
        got = {'floor': [], 'a': [], 'b': []}
        for _ in range(args.runs):
            got['floor'].append(timed(floor))
            got['a'].append(timed([args.a] + cmd))
            got['b'].append(timed([args.b] + cmd))
        med = {k: [statistics.median(r[i] for r in v) * 1000 for i in (0, 1)] for k, v in got.items()}
        f = med['floor']
        a, b = med['a'], med['b']
        print(f'{name:14s} floor {f[0]:7.1f} ms | A {a[0]:7.1f} ms {a[0] / f[0]:5.2f}x (CPU {a[1] / f[1]:5.2f}x)'
              f' | B {b[0]:7.1f} ms {b[0] / f[0]:5.2f}x (CPU {b[1] / f[1]:5.2f}x)', flush=True)
    print(f'load average at the end {os.getloadavg()[0]:.2f}')


if __name__ == '__main__':
    main()
