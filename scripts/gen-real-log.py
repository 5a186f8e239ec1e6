#!/usr/bin/env python3
"""Writes a dsh session log shaped like the ones dsh really writes (issue 15).

    scripts/gen-real-log.py SEED MEGABYTES OUT [CWD]

Seeded and reproducible. By bytes, roughly: 40% message lines that carry a
`surfaceOp` and a large `data` value (assistant messages and tool results;
tool results hold several backslash escapes, `\\n` and `\\"`, per 100 bytes),
17% `user/message` lines, the rest `request/header` lines with a system
prompt, packed chunk rows `{"type":"text-chunks","seq0":N,"time0":N,"data":{...}}`
and single chunk/step events. Lines run from about 100 bytes to 80 KB. A
workspace baseline starts the log and a handful of workspace deltas follow.
Ends with a newline.
"""
import json
import random
import sys

seed, megabytes, out = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
cwd = sys.argv[4] if len(sys.argv) > 4 else '/tmp/agentctx-bench/proj'
rng = random.Random(seed)
limit = int(megabytes * 1024 * 1024)
WORDS = ('the quick brown fox jumps over lazy dog cargo test build run fix error module '
         'function return value string vector parse impl struct enum match self').split()
IDENTITY = json.dumps({"projectRoot": "", "projectRootMarkers": [".git"], "maxBytes": 65536,
                       "maxSourceBytes": 1048576, "instructionFileCandidates": ["AGENTS.md", "CLAUDE.md"],
                       "localInstructionFileCandidates": ["AGENTS.local.md", "CLAUDE.local.md"]},
                      separators=(',', ':'))
SYSTEM = ('You are a coding agent running in the DeepSeek Harness.\n\n'
          + ' '.join(WORDS) * 40 + f'\n\nThe DeepSeek Harness implementation checkout is at {cwd}.')


def prose(n):
    return ' '.join(rng.choice(WORDS) for _ in range(n))


# Pools of text, built once: generating 500 MiB word by word would be slow.
PROSE = [prose(rng.randint(10, 400)) for _ in range(400)]


def code_block(nbytes):
    """Source-like text: quotes and newlines, so its JSON holds several
    backslash escapes per 100 bytes."""
    lines = []
    size = 0
    while size < nbytes:
        w = rng.choice(WORDS)
        line = rng.choice([f'    let {w} = "{rng.choice(WORDS)}";', f'fn {w}() -> String {{',
                           f'    println!("{w} {{}}", {w});', '}', f'// {prose(6)}',
                           f'    assert_eq!({w}, "{w}\\t");'])
        lines.append(line)
        size += len(line) + 1
    return '\n'.join(lines)


CODE = [code_block(rng.choice([80, 300, 1500, 4000, 12000, 30000])) for _ in range(120)]


def text_of(nbytes):
    """About nbytes of prose from the pool."""
    parts, size = [], 0
    while size < nbytes:
        p = rng.choice(PROSE)
        parts.append(p)
        size += len(p) + 1
    return ' '.join(parts)[:max(nbytes, 1)]


def dump(ev):
    return json.dumps(ev, separators=(',', ':'), ensure_ascii=False) + '\n'


class Writer:
    def __init__(self, f):
        self.f = f
        self.size = 0
        self.seq = 0
        self.counts = {}

    def emit(self, ev, group):
        line = dump(ev)
        self.f.write(line)
        n = len(line.encode('utf-8'))
        self.size += n
        self.counts[group] = self.counts.get(group, 0) + n


def workspace(w, baseline, scope):
    source = {"kind": "workspace-instructions", "form": "instructions",
              "changes": [{"action": "set", "scope": scope,
                           "path": "AGENTS.md" if scope == "." else f"{scope}/AGENTS.md",
                           "digest": "%040x" % rng.getrandbits(160)}]}
    if baseline:
        source["baseline"] = True
        source["baselineIdentity"] = IDENTITY
    w.emit({"type": "user/message", "seq": w.seq, "time": w.seq, "data": {
        "content": [{"type": "text", "text": "<system-reminder>\nInstructions from: AGENTS.md\n\nroot\n</system-reminder>"}],
        "source": source, "role": "user", "id": f"w{w.seq}"}, "surfaceOp": "append"}, 'workspace')
    w.seq += 1


def chunks(w, turn, step, kind):
    """A packed row standing for >= 3 chunk events, or a few single ones."""
    n = rng.randint(3, 40)
    if rng.random() < 0.8:
        field = {"text-chunks": "text", "reasoning-chunks": "text", "tool-call-chunks": "args"}[kind]
        w.emit({"type": kind, "seq0": w.seq, "time0": w.seq, "data": {
            "turn": turn, "step": step, field: [text_of(rng.randint(20, 400)) for _ in range(n)]}}, 'rows')
    else:
        for k in range(n):
            w.emit({"type": "assistant/chunk", "seq": w.seq + k, "time": w.seq + k, "data": {
                "turn": turn, "step": step, "delta": {"type": "text", "text": text_of(rng.randint(5, 120))}}},
                'chunks')
    w.seq += n


def turn_events(w, turn):
    w.emit({"type": "turn/start", "seq": w.seq, "time": w.seq, "data": {"turn": turn}}, 'other')
    w.seq += 1
    body = text_of(rng.choice([60, 200, 800, 3000, 12000]))
    w.emit({"type": "user/message", "seq": w.seq, "time": w.seq, "data": {
        "content": [{"type": "text", "text": body}], "role": "user", "id": f"u{w.seq}"},
        "surfaceOp": "append"}, 'user')
    w.seq += 1
    for step in range(rng.randint(1, 6)):
        w.emit({"type": "request/header", "seq": w.seq, "time": w.seq, "data": {
            "turn": turn, "step": step, "header": {"model": "deepseek", "system": SYSTEM,
                                                    "tools": [{"name": n} for n in WORDS[:12]]}}}, 'header')
        w.seq += 1
        for kind in rng.sample(["reasoning-chunks", "text-chunks", "tool-call-chunks"], rng.randint(1, 3)):
            chunks(w, turn, step, kind)
        w.emit({"type": "assistant/message", "seq": w.seq, "time": w.seq, "data": {
            "turn": turn, "step": step, "message": {"role": "assistant", "content": [
                {"type": "text", "text": text_of(rng.choice([100, 400, 1500, 5000]))}]}},
            "surfaceOp": "append"}, 'surface')
        w.seq += 1
        w.emit({"type": "tool/call", "seq": w.seq, "time": w.seq, "data": {
            "name": "read", "args": {"path": "src/lib.rs"}}}, 'other')
        w.seq += 1
        w.emit({"type": "tool/result", "seq": w.seq, "time": w.seq, "data": {
            "callId": f"c{w.seq}", "content": [{"type": "text", "text": rng.choice(CODE)}],
            "meta": {"exit": 0, "lines": [1, 2, 3], "nested": {"a": [{"b": None}]}}},
            "surfaceOp": "append"}, 'surface')
        w.seq += 1
        if rng.random() < 0.3:
            w.emit({"type": "tool/result", "seq": w.seq, "time": w.seq, "data": {
                "callId": f"c{w.seq}", "content": [{"type": "text", "text": rng.choice(CODE)}]},
                "surfaceOp": "append"}, 'surface')
            w.seq += 1
        w.emit({"type": "step/end", "seq": w.seq, "time": w.seq, "data": {"turn": turn, "step": step}}, 'other')
        w.seq += 1
    if rng.random() < 0.4:
        # A long user message: pasted logs or files.
        w.emit({"type": "user/message", "seq": w.seq, "time": w.seq, "data": {
            "content": [{"type": "text", "text": text_of(rng.choice([20000, 60000, 78000]))}],
            "role": "user", "id": f"u{w.seq}"}, "surfaceOp": "append"}, 'user')
        w.seq += 1
    w.emit({"type": "turn/end", "seq": w.seq, "time": w.seq, "data": {"turn": turn}}, 'other')
    w.seq += 1


def main():
    with open(out, 'w', encoding='utf-8') as f:
        w = Writer(f)
        w.emit({"type": "session", "version": 0, "id": "bench", "createdAt": 0, "cwd": cwd}, 'other')
        workspace(w, True, ".")
        turn = 0
        deltas = 0
        while w.size < limit:
            turn += 1
            turn_events(w, turn)
            # A handful of workspace events over the whole log.
            if deltas < 5 and w.size > (deltas + 1) * limit / 6:
                deltas += 1
                workspace(w, False, f"pkg{deltas}")
    share = ', '.join(f'{k} {v * 100 / w.size:.0f}%' for k, v in sorted(w.counts.items()))
    print(f'{out}: {w.size} bytes, {turn} turns, seq {w.seq}; by bytes: {share}', file=sys.stderr)


main()
