#!/usr/bin/env python3
"""Benchmarks agentctx against the machine's floor, side by side (issue 7).

    python3 scripts/bench.py [--work DIR] [--runs N] [--log-mb MB] [--log-file FILE] [--dirs N]
                             [--only render|diff|real|zdiff|check]

Builds nothing: run `cargo build --release` first (scripts/bench.sh does).
Generates three seeded workloads under --work (default bench-work/), then
runs each command and its floor alternately, and prints medians and ratios:

  render  agentctx render in a directory 12 levels below the root holding
          three instruction files   vs  a trivial Rust binary (fn main(){})
  diff    agentctx diff --log on a page-cached ~500 MB dsh-shaped log
                                    vs  wc -l on the same file (+ peak RSS)
  real    agentctx diff --log on a page-cached ~500 MiB log shaped like the
          ones dsh really writes (scripts/gen-real-log.py: 40% of bytes in
          surface lines with large data, 17% user messages, escapes, packed
          chunk rows)               vs  wc -l on the same file (+ peak RSS)
  zdiff   agentctx diff --log on the real-shaped log in dsh's zstd container (a
          header frame, then ~256 KiB batch frames with checksums)
                                    vs  zstd -dc on the same file (+ peak RSS)
  check   agentctx check on a 50,000-directory tree (depth <= 30, AGENTS.md
          in 2%, CLAUDE.md in 0.5%) vs  find TREE -type d | wc -l
  check-ignore   the same tree with ignore rules: a root .gitignore and
          .agentctxignore, a nested .gitignore beside every AGENTS.md
                                    vs  find TREE -type d | wc -l
  check-base     the same tree as a git repository whose last commit changes
          100 instruction files: check --base HEAD~1 (from the tree)
                                    vs  find TREE -type d | wc -l; git ls-tree -r HEAD~1 | wc -l
                                    and git ls-tree -r HEAD~1 | wc -l alone
  render-codex  agentctx render --profile codex in the render directory
                                    vs  the trivial binary (target <= 1.5x)
  check-all     agentctx check --profile all on the 50,000-directory tree:
          dsh, codex, gemini, opencode and claude in one walk
                                    vs  find TREE -type d | wc -l (target <= 1.5x)
  render-config agentctx render --dsh-profile headless in the render directory
          with a home layer ($DSH_HOME/cordis.patch.yml setting the row) and a
          profile layer   vs  the same with no layer (target <= 1.1x)
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The binary under test: $AGENTCTX_BIN, else the release build of
# $CARGO_TARGET_DIR (or ./target).
BIN = os.environ.get('AGENTCTX_BIN') or os.path.join(
    os.environ.get('CARGO_TARGET_DIR') or os.path.join(ROOT, 'target'), 'release', 'agentctx')


def timed(argv, env=None):
    """Wall seconds of one run, output discarded."""
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, env or os.environ,
                         file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
                                       (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
    _, status = os.waitpid(pid, 0)
    elapsed = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f'{argv} exited {code}')
    return elapsed


def peak_rss(argv):
    """Peak RSS in MiB, from GNU time (a child forked by Python would carry
    Python's own peak); None when /usr/bin/time is not installed."""
    if not os.path.exists('/usr/bin/time'):
        return None
    # Write-only, as a shell's >/dev/null: agentctx takes a read-write
    # /dev/null stdout for one the runtime reopened after `>&-`, and refuses.
    with open(os.devnull, 'wb') as null:
        out = subprocess.run(['/usr/bin/time', '-f', '%M', *argv], stdout=null,
                             stderr=subprocess.PIPE, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f'{argv} exited {out.returncode}: {out.stderr.strip()}')
    return int(out.stderr.strip().splitlines()[-1]) / 1024


def compare(name, ours, floor, runs):
    ours_t, floor_t = [], []
    timed(ours), timed(floor)  # warm the page cache and the binaries
    for _ in range(runs):
        ours_t.append(timed(ours))
        floor_t.append(timed(floor))
    a, b = statistics.median(ours_t), statistics.median(floor_t)
    rss = peak_rss(ours)
    rss_text = 'n/a (install GNU time)' if rss is None else f'{rss:.1f} MiB'
    print(f'{name:12} agentctx {a * 1000:9.2f} ms   floor {b * 1000:9.2f} ms   '
          f'ratio {a / b:5.2f}x   agentctx peak RSS {rss_text}')
    return a / b


def make_trivial(work):
    src = os.path.join(work, 'trivial.rs')
    exe = os.path.join(work, 'trivial')
    if not os.path.exists(exe):
        with open(src, 'w') as f:
            f.write('fn main() {}\n')
        subprocess.run(['rustc', '-C', 'opt-level=3', '-o', exe, src], check=True)
    return exe


def make_deep(work):
    root = os.path.join(work, 'deep')
    if os.path.isdir(root):
        return root, os.path.join(root, *[f'd{i}' for i in range(12)])
    os.makedirs(os.path.join(root, '.git'))
    cwd = os.path.join(root, *[f'd{i}' for i in range(12)])
    os.makedirs(cwd)
    with open(os.path.join(root, 'AGENTS.md'), 'w') as f:
        f.write('# Root rules\n\nUse cargo.\n' * 20)
    with open(os.path.join(root, 'd0', 'd1', 'd2', 'd3', 'd4', 'd5', 'CLAUDE.md'), 'w') as f:
        f.write('# Middle rules\n' * 20)
    with open(os.path.join(cwd, 'AGENTS.local.md'), 'w') as f:
        f.write('# Local rules\n' * 20)
    return root, cwd


def generated_log(work, megabytes, name, script):
    """A seeded log of `megabytes` MiB from scripts/SCRIPT, made once under WORK."""
    path = os.path.join(work, f'{name}{megabytes}.jsonl')
    if not os.path.exists(path):
        proj = os.path.join(work, 'logproj')
        os.makedirs(os.path.join(proj, '.git'), exist_ok=True)
        with open(os.path.join(proj, 'AGENTS.md'), 'w') as f:
            f.write('root\n')
        subprocess.run([sys.executable, os.path.join(ROOT, 'scripts', script), '1',
                        str(megabytes), path, proj], check=True)
    return path


def make_log(work, megabytes):
    return generated_log(work, megabytes, 'log', 'gen-log.py')


def make_real_log(work, megabytes):
    return generated_log(work, megabytes, 'real', 'gen-real-log.py')


def make_container(log):
    path = log + '.zstd'
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(ROOT, 'scripts', 'zstd-container.py'), log,
                        path], check=True)
    return path


def make_tree(work, count, seed=7):
    root = os.path.join(work, f'tree{count}')
    if not os.path.isdir(root):
        subprocess.run([sys.executable, os.path.join(ROOT, 'scripts', 'gen-tree.py'), str(seed),
                        str(count), root], check=True)
    return root


def make_ignore_tree(work, count):
    """The check tree with ignore rules that skip some directories."""
    root = os.path.join(work, f'tree{count}-ignore')
    if os.path.isdir(root):
        return root
    subprocess.run([sys.executable, os.path.join(ROOT, 'scripts', 'gen-tree.py'), '7',
                    str(count), root], check=True)
    with open(os.path.join(root, '.gitignore'), 'w') as f:
        f.write('d0[0-4]9/\n*.tmp\nnode_modules/\n')
    with open(os.path.join(root, '.agentctxignore'), 'w') as f:
        f.write('d1[0-9][0-9]/\n')
    for dirpath, _, files in os.walk(root):
        if 'AGENTS.md' in files:
            with open(os.path.join(dirpath, '.gitignore'), 'w') as f:
                f.write('d005/\n!d006/\nbuild/\n')
    return root


def make_base_repo(work, count, changed=100):
    """The check tree as a git repository; HEAD changes `changed`
    instruction files of HEAD~1."""
    root = os.path.join(work, f'tree{count}-git')
    if os.path.isdir(root):
        return root
    subprocess.run([sys.executable, os.path.join(ROOT, 'scripts', 'gen-tree.py'), '7',
                    str(count), root], check=True)
    shutil.rmtree(os.path.join(root, '.git'))
    env = dict(os.environ, GIT_CONFIG_GLOBAL='/dev/null', GIT_AUTHOR_NAME='b',
               GIT_AUTHOR_EMAIL='b@example.invalid', GIT_COMMITTER_NAME='b',
               GIT_COMMITTER_EMAIL='b@example.invalid')
    git = ['git', '-C', root]
    subprocess.run(git + ['init', '-q', '-b', 'main'], check=True, env=env)
    subprocess.run(git + ['add', '-A'], check=True, env=env)
    subprocess.run(git + ['commit', '-qm', 'base'], check=True, env=env)
    names = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) if '.git' not in d
                   for f in fs if f in ('AGENTS.md', 'CLAUDE.md'))
    for path in names[::max(1, len(names) // changed)][:changed]:
        with open(path, 'a') as f:
            f.write('\nOne more rule for this pull request.\n')
    subprocess.run(git + ['commit', '-qam', 'change'], check=True, env=env)
    return root


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--work', default=os.path.join(ROOT, 'bench-work'))
    ap.add_argument('--runs', type=int, default=11)
    ap.add_argument('--log-mb', type=int, default=500)
    ap.add_argument('--log-file', help='an existing JSONL log for diff and zdiff instead of a generated one '
                    '(its container is written beside it as FILE.zstd)')
    ap.add_argument('--dirs', type=int, default=50000)
    ap.add_argument('--only')
    args = ap.parse_args()
    if not os.path.exists(BIN):
        sys.exit('build first: cargo build --release')
    os.makedirs(args.work, exist_ok=True)
    home = os.path.join(args.work, 'home')
    os.makedirs(home, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != 'DSH_HOME'}
    env['HOME'] = home
    print(f'agentctx benchmark, {time.strftime("%Y-%m-%d")}, {os.cpu_count()} cores, median of {args.runs} alternating runs')
    if args.only in (None, 'render'):
        trivial = make_trivial(args.work)
        _, cwd = make_deep(args.work)
        compare('render', [BIN, 'render', '--cwd', cwd], [trivial], args.runs * 10)
    if args.only in (None, 'diff'):
        log = args.log_file or make_log(args.work, args.log_mb)
        compare('diff', [BIN, 'diff', '--log', log], [shutil.which('wc'), '-l', log], args.runs)
    if args.only in (None, 'real'):
        log = make_real_log(args.work, args.log_mb)
        compare('real', [BIN, 'diff', '--log', log], [shutil.which('wc'), '-l', log], args.runs)
    if args.only in (None, 'zdiff'):
        container = make_container(args.log_file or make_real_log(args.work, args.log_mb))
        compare('zdiff', [BIN, 'diff', '--log', container],
                [shutil.which('zstd'), '-q', '-dc', container], args.runs)
    if args.only in (None, 'check'):
        tree = make_tree(args.work, args.dirs)
        sh = shutil.which('sh')
        compare('check', [BIN, 'check', tree], [sh, '-c', f'find "{tree}" -type d | wc -l'], args.runs)
    if args.only in (None, 'check-ignore'):
        tree = make_ignore_tree(args.work, args.dirs)
        sh = shutil.which('sh')
        compare('check-ignore', [BIN, 'check', tree],
                [sh, '-c', f'find "{tree}" -type d | wc -l'], args.runs)
    if args.only in (None, 'check-base'):
        tree = make_base_repo(args.work, args.dirs)
        sh = shutil.which('sh')
        ours = [sh, '-c', f'cd "{tree}" && "{BIN}" check --base HEAD~1']
        # The work tree must be walked and REV listed: find + ls-tree is the
        # floor of the whole; ls-tree alone is the floor of reading REV.
        compare('check-base', ours, [sh, '-c', f'find "{tree}" -type d | wc -l; '
                                              f'git -C "{tree}" ls-tree -r HEAD~1 | wc -l'], args.runs)
        compare('ls-tree', ours, [sh, '-c', f'git -C "{tree}" ls-tree -r HEAD~1 | wc -l'], args.runs)
        compare('check-git', [sh, '-c', f'cd "{tree}" && "{BIN}" check'],
                [sh, '-c', f'find "{tree}" -type d | wc -l'], args.runs)
    if args.only in (None, 'render-codex'):
        trivial = make_trivial(args.work)
        _, cwd = make_deep(args.work)
        compare('render-codex', [BIN, 'render', '--profile', 'codex', '--cwd', cwd], [trivial],
                args.runs * 10)
    if args.only in (None, 'render-config'):
        _, cwd = make_deep(args.work)
        layered = os.path.join(args.work, 'home-layered', '.dsh')
        os.makedirs(os.path.join(layered, 'profiles', 'headless'), exist_ok=True)
        with open(os.path.join(layered, 'cordis.patch.yml'), 'w') as f:
            f.write('# a user layer\n- id: agent-instructions\n  config:\n    maxBytes: 32768\n'
                    '    instructionFileCandidates: [AGENTS.md, CLAUDE.md]\n')
        with open(os.path.join(layered, 'profiles', 'headless', 'cordis.patch.yml'), 'w') as f:
            f.write('- id: agent-instructions\n  config: {maxBytes: 65536}\n')
        plain = os.path.join(args.work, 'home-plain', '.dsh')
        os.makedirs(plain, exist_ok=True)
        env_bin = shutil.which('env')
        compare('render-config',
                [env_bin, f'DSH_HOME={layered}', BIN, 'render', '--dsh-profile', 'headless', '--cwd', cwd],
                [env_bin, f'DSH_HOME={plain}', BIN, 'render', '--dsh-profile', 'headless', '--cwd', cwd],
                args.runs * 10)
    if args.only in (None, 'check-all'):
        tree = make_tree(args.work, args.dirs)
        sh = shutil.which('sh')
        compare('check-all', [BIN, 'check', '--profile', 'all', tree],
                [sh, '-c', f'find "{tree}" -type d | wc -l'], args.runs)


if __name__ == '__main__':
    main()
