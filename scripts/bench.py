#!/usr/bin/env python3
"""Benchmarks agentctx against the machine's floor, side by side (issue 7).

    python3 scripts/bench.py [--work DIR] [--bin FILE] [--runs N] [--log-mb MB] [--log-file FILE]
                             [--dirs N] [--real-script FILE] [--only NAME[,NAME...]]
                             [--layout written|reread]

Builds nothing: run `cargo build --release` first (scripts/bench.sh does);
the binary is target/release/agentctx, under $CARGO_TARGET_DIR when that is
set, or --bin, and what runs is a copy of it in --work (see render-built).
Generates the seeded workloads under --work (default bench-work/), then
runs each command and its floor alternately, and prints
medians of wall time and of CPU time (user + system, from the child's
rusage), both ratios, and agentctx's peak RSS:

  render  agentctx render in a directory 12 levels below the root holding
          three instruction files   vs  a trivial Rust binary (fn main(){})
          (the target is on CPU time: start-up is the work)
  render-built   the same with the binary where the linker wrote it
          (target/release): every other workload runs a copy of it in
          --work, written in one pass as an install writes it, because the
          page cache holds a freshly linked file in pieces that cost a
          4 MB binary about 10 more page faults at each start (issue 28:
          render 1.52x against the copy's 1.35x, same bytes)
  diff    agentctx diff --log on a page-cached ~500 MB dsh-shaped log
                                    vs  wc -l on the same file
  real    agentctx diff --log on a page-cached ~500 MiB log shaped like the
          logs dsh really writes: make-real-log.py (issue 28; --real-script,
          default ../shared/logs/make-real-log.py beside the repository)
          repeats the 4,901 events of dsh's session fixtures, mostly short
          lines (streamed assistant/chunk lines of ~200 bytes)
                                    vs  wc -l on the same file
  zdiff   agentctx diff --log on that log in dsh's zstd container, as
          make-real-log.py writes it (a header frame, then one frame per
          4,000 lines, checksums)   vs  zstd -dc on the same file
  real-explain   agentctx explain --log on the real log
                                    vs  wc -l on the same file
  real-sessions  agentctx sessions --check-drift with the real log as the
          one session of its cwd    vs  wc -l on the log
  real-gen, zdiff-gen   the earlier real-shaped log (scripts/gen-real-log.py:
          lines from 100 bytes to 80 KB) and its container
          (scripts/zstd-container.py, ~256 KiB frames), as measured before
          issue 28                  vs  wc -l, zstd -dc
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

The real log and its container are put in the page cache afresh before
each of real, zdiff, real-explain and real-sessions (--layout: written, in
8 KiB writes as make-real-log.py writes it, by default; or reread, dropped
and read back): the page cache's history of a file moves wc -l's time by
2x and more (see lay_out), and agentctx's parsing not at all.

The targets (issue 28): real <= 2.5x wc -l (goal 1.5x), zdiff <= 1.3x
zstd -dc, peak RSS <= 64 MiB, real-explain and real-sessions <= 3x wc -l,
render <= 1.5x the trivial binary in CPU time.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get('CARGO_TARGET_DIR') or os.path.join(ROOT, 'target')
# The binary under test: --bin, else $AGENTCTX_BIN, else the release build of
# $CARGO_TARGET_DIR (or ./target).
BIN = os.environ.get('AGENTCTX_BIN') or os.path.join(TARGET, 'release', 'agentctx')
REAL_SCRIPT = os.path.join(os.path.dirname(ROOT), 'shared', 'logs', 'make-real-log.py')


# The environment of the measured runs (set by main).
RUN_ENV = {}


def run_once(argv):
    """Wall seconds and the rusage of one run, output discarded."""
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, RUN_ENV or os.environ,
                         file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
                                       (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
    _, status, usage = os.wait4(pid, 0)
    elapsed = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f'{argv} exited {code}')
    return elapsed, usage


def timed(argv):
    """Wall and CPU seconds (user + system) of one run, output discarded."""
    elapsed, usage = run_once(argv)
    return elapsed, usage.ru_utime + usage.ru_stime


def peak_rss(argv):
    """Peak RSS in MiB, from GNU time (a child forked by Python would carry
    Python's own peak); None when /usr/bin/time is not installed."""
    if not os.path.exists('/usr/bin/time'):
        return None
    # Write-only, as a shell's >/dev/null: agentctx takes a read-write
    # /dev/null stdout for one the runtime reopened after `>&-`, and refuses.
    with open(os.devnull, 'wb') as null:
        out = subprocess.run(['/usr/bin/time', '-f', '%M', *argv], stdout=null,
                             stderr=subprocess.PIPE, text=True, env=RUN_ENV or None)
    if out.returncode not in (0, 1):
        sys.exit(f'{argv} exited {out.returncode}: {out.stderr.strip()}')
    return int(out.stderr.strip().splitlines()[-1]) / 1024


def compare(name, ours, floor, runs):
    """Runs `ours` and `floor` alternately; prints the medians (wall and CPU)
    and their ratios, and `ours`'s peak RSS."""
    ours_t, floor_t = [], []
    timed(ours), timed(floor)  # warm the page cache and the binaries
    for _ in range(runs):
        ours_t.append(timed(ours))
        floor_t.append(timed(floor))
    wall = [statistics.median(t[0] for t in ts) for ts in (ours_t, floor_t)]
    cpu = [statistics.median(t[1] for t in ts) for ts in (ours_t, floor_t)]
    rss = peak_rss(ours)
    rss_text = 'n/a (install GNU time)' if rss is None else f'{rss:.1f} MiB'
    ratio = lambda a, b: f'{a / b:5.2f}x' if b > 0 else '  n/a'
    print(f'{name:13} agentctx {wall[0] * 1000:9.2f} ms   floor {wall[1] * 1000:9.2f} ms   '
          f'ratio {ratio(*wall)}   CPU {cpu[0] * 1000:8.2f} vs {cpu[1] * 1000:8.2f} ms '
          f'({ratio(*cpu)})   peak RSS {rss_text}', flush=True)
    return wall[0] / wall[1]


def install_copy(src, dst):
    """`src` copied to `dst` in one pass, as an install writes a binary (see
    render-built: how a file was written decides its page faults)."""
    with open(src, 'rb') as i, open(dst + '.new', 'wb') as o:
        shutil.copyfileobj(i, o, 1 << 20)
    os.chmod(dst + '.new', 0o755)
    os.replace(dst + '.new', dst)


def make_trivial(work):
    src = os.path.join(work, 'trivial.rs')
    exe = os.path.join(work, 'trivial')
    if not os.path.exists(exe):
        with open(src, 'w') as f:
            f.write('fn main() {}\n')
        subprocess.run(['rustc', '-C', 'opt-level=3', '-o', exe + '.built', src], check=True)
        install_copy(exe + '.built', exe)
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


def make_gen_real_log(work, megabytes):
    """The earlier real-shaped log (scripts/gen-real-log.py, issue 15)."""
    return generated_log(work, megabytes, 'real', 'gen-real-log.py')


def log_project(work):
    """The log's cwd: a project with a .git and an AGENTS.md."""
    proj = os.path.join(work, 'logproj')
    os.makedirs(os.path.join(proj, '.git'), exist_ok=True)
    with open(os.path.join(proj, 'AGENTS.md'), 'w') as f:
        f.write('root\n')
    return proj


def make_real_log(work, megabytes, script):
    """make-real-log.py's log of `megabytes` MiB (issue 28) and, beside it,
    its zstd container (FILE.zstd), made once under WORK."""
    path = os.path.join(work, f'mreal{megabytes}.jsonl')
    if not (os.path.exists(path) and os.path.exists(path + '.zstd')):
        if not os.path.exists(script):
            sys.exit(f'{script}: not found (make-real-log.py makes the real workloads; '
                     f'pass --real-script FILE)')
        subprocess.run([sys.executable, script, path, str(megabytes), log_project(work)],
                       check=True, stdout=subprocess.DEVNULL)
    return path


def project_key(cwd):
    """dsh's projectKey of an ASCII path (docs/sessions.md)."""
    slug = re.sub(r'[/\\:]+', '-', cwd)
    slug = re.sub(r'[^A-Za-z0-9._-]', lambda m: f'~{ord(m.group()):04X}', slug).lstrip('-')
    return f'--{(slug or "root")[:251]}--'


def lay_out(path, layout):
    """Puts `path` in the page cache afresh, right before it is measured
    (issue 28). How the page cache holds a file decides `wc -l`'s time, and
    agentctx's parsing not at all: on the 2-core VM the same 500 MiB took
    44 to 132 ms on 2026-12-03, the slowest on the log make-real-log.py had
    written hours before (this VM's kernel also runs DAMON's proactive
    reclaim, which pages out what was not read for a minute: the log's
    pages may have been paged out and read back in part since). Left
    alone, a log drifts; laid out afresh, the floor is the kernel's copy of
    the bytes and not their history.

    written: rewritten in place in 8 KiB writes, as make-real-log.py
             (Python's buffered writer) writes it
    reread:  dropped from the page cache and read back in 1 MiB reads, as a
             log read back from disk is held"""
    if layout == 'written':
        rewrite(path, 8192)
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        while os.read(fd, 1 << 20):
            pass
    finally:
        os.close(fd)


def rewrite(path, size):
    """`path` written again in place in writes of `size` bytes: truncated,
    not replaced, so the inode (and the sessions root's link to it) stays;
    then written back, not by a kernel thread during the runs."""
    with open(path, 'rb') as f:
        data = f.read()
    with open(path, 'wb', buffering=0) as f:
        for at in range(0, len(data), size):
            f.write(data[at:at + size])
        os.fsync(f.fileno())


def make_sessions_root(work, log):
    """A sessions root whose one session of the log's cwd is `log`."""
    root = os.path.join(work, 'sessions')
    session = os.path.join(root, project_key(log_project(work)), 'real')
    os.makedirs(session, exist_ok=True)
    dest = os.path.join(session, 'session.jsonl')
    if not os.path.exists(dest):
        try:
            os.link(log, dest)
        except OSError:
            shutil.copyfile(log, dest)
    return root


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
    ap.add_argument('--log-file', help='an existing JSONL log for diff and zdiff-gen instead of a generated one '
                    '(its container is written beside it as FILE.zstd)')
    ap.add_argument('--dirs', type=int, default=50000)
    ap.add_argument('--bin', default=BIN, help='the agentctx binary (default: the release build)')
    ap.add_argument('--real-script', default=REAL_SCRIPT,
                    help='make-real-log.py, which makes the real workloads')
    ap.add_argument('--only', help='workloads to run, comma-separated (default: all)')
    ap.add_argument('--layout', choices=('written', 'reread'), default='written',
                    help='how the page cache holds the real log (and its container) when '
                         'real, zdiff, real-explain and real-sessions run (see lay_out)')
    args = ap.parse_args()
    built = args.bin
    if not os.path.exists(built):
        sys.exit(f'{built}: build first: cargo build --release')
    only = set(args.only.split(',')) if args.only else None

    def run(name):
        return only is None or name in only

    os.makedirs(args.work, exist_ok=True)
    # Measured as installed: a copy written in one pass (see render-built).
    agentctx = os.path.join(args.work, 'agentctx')
    install_copy(built, agentctx)
    home = os.path.join(args.work, 'home')
    os.makedirs(home, exist_ok=True)
    # Every measured run sees an empty home: no user-global instructions,
    # no dsh home (the tools that make the workloads keep the real one).
    RUN_ENV.update((k, v) for k, v in os.environ.items() if k != 'DSH_HOME')
    RUN_ENV['HOME'] = home
    wc, zstd, sh = shutil.which('wc'), shutil.which('zstd'), shutil.which('sh')
    print(f'agentctx benchmark, {time.strftime("%Y-%m-%d %H:%M")}, {os.cpu_count()} cores, '
          f'load average {os.getloadavg()[0]:.2f}, median of {args.runs} alternating runs, '
          f'real log {args.layout}', flush=True)
    if run('render'):
        trivial = make_trivial(args.work)
        _, cwd = make_deep(args.work)
        compare('render', [agentctx, 'render', '--cwd', cwd], [trivial], args.runs * 10)
    if run('render-built'):
        trivial = make_trivial(args.work)
        _, cwd = make_deep(args.work)
        compare('render-built', [built, 'render', '--cwd', cwd], [trivial], args.runs * 10)
    if run('diff'):
        log = args.log_file or make_log(args.work, args.log_mb)
        compare('diff', [agentctx, 'diff', '--log', log], [wc, '-l', log], args.runs)
    if run('real') or run('zdiff') or run('real-explain') or run('real-sessions'):
        log = make_real_log(args.work, args.log_mb, args.real_script)
        if run('real'):
            lay_out(log, args.layout)
            compare('real', [agentctx, 'diff', '--log', log], [wc, '-l', log], args.runs)
        if run('zdiff'):
            container = log + '.zstd'
            lay_out(container, args.layout)
            compare('zdiff', [agentctx, 'diff', '--log', container], [zstd, '-q', '-dc', container],
                    args.runs)
        if run('real-explain'):
            lay_out(log, args.layout)
            compare('real-explain', [agentctx, 'explain', '--log', log], [wc, '-l', log], args.runs)
        if run('real-sessions'):
            root = make_sessions_root(args.work, log)
            lay_out(log, args.layout)
            compare('real-sessions', [agentctx, 'sessions', '--cwd', log_project(args.work),
                                      '--sessions-root', root, '--check-drift'],
                    [wc, '-l', log], args.runs)
    if run('real-gen'):
        log = make_gen_real_log(args.work, args.log_mb)
        compare('real-gen', [agentctx, 'diff', '--log', log], [wc, '-l', log], args.runs)
    if run('zdiff-gen'):
        container = make_container(args.log_file or make_gen_real_log(args.work, args.log_mb))
        compare('zdiff-gen', [agentctx, 'diff', '--log', container], [zstd, '-q', '-dc', container],
                args.runs)
    if run('check'):
        tree = make_tree(args.work, args.dirs)
        compare('check', [agentctx, 'check', tree], [sh, '-c', f'find "{tree}" -type d | wc -l'],
                args.runs)
    if run('check-ignore'):
        tree = make_ignore_tree(args.work, args.dirs)
        compare('check-ignore', [agentctx, 'check', tree],
                [sh, '-c', f'find "{tree}" -type d | wc -l'], args.runs)
    if run('check-base'):
        tree = make_base_repo(args.work, args.dirs)
        ours = [sh, '-c', f'cd "{tree}" && "{agentctx}" check --base HEAD~1']
        # The work tree must be walked and REV listed: find + ls-tree is the
        # floor of the whole; ls-tree alone is the floor of reading REV.
        compare('check-base', ours, [sh, '-c', f'find "{tree}" -type d | wc -l; '
                                              f'git -C "{tree}" ls-tree -r HEAD~1 | wc -l'], args.runs)
        compare('ls-tree', ours, [sh, '-c', f'git -C "{tree}" ls-tree -r HEAD~1 | wc -l'], args.runs)
        compare('check-git', [sh, '-c', f'cd "{tree}" && "{agentctx}" check'],
                [sh, '-c', f'find "{tree}" -type d | wc -l'], args.runs)
    if run('render-codex'):
        trivial = make_trivial(args.work)
        _, cwd = make_deep(args.work)
        compare('render-codex', [agentctx, 'render', '--profile', 'codex', '--cwd', cwd], [trivial],
                args.runs * 10)
    if run('render-config'):
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
                [env_bin, f'DSH_HOME={layered}', agentctx, 'render', '--dsh-profile', 'headless', '--cwd', cwd],
                [env_bin, f'DSH_HOME={plain}', agentctx, 'render', '--dsh-profile', 'headless', '--cwd', cwd],
                args.runs * 10)
    if run('check-all'):
        tree = make_tree(args.work, args.dirs)
        compare('check-all', [agentctx, 'check', '--profile', 'all', tree],
                [sh, '-c', f'find "{tree}" -type d | wc -l'], args.runs)


if __name__ == '__main__':
    main()
