#!/usr/bin/env python3
"""Writes a synthetic dsh session log shaped like real ones, reproducibly.

    scripts/gen-log.py SEED MEGABYTES OUT [CWD]

Mostly `assistant/chunk` lines; a few thousand `user/message`, `tool/call` and
`tool/result` lines on the surface; a workspace baseline at the start and a
few later workspace deltas; decoy chunk lines that mention
`workspace-instructions"` or spell markers with `\\u002d` escapes inside
strings (they must be parsed and rejected). Ends with a newline.
"""
import json
import random
import sys

seed, megabytes, out = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
cwd = sys.argv[4] if len(sys.argv) > 4 else '/tmp/agentctx-bench/proj'
rng = random.Random(seed)
limit = int(megabytes * 1024 * 1024)
words = ('the quick brown fox jumps over lazy dog cargo test build run fix '
         'error module function return value string vector parse').split()
IDENTITY = json.dumps({"projectRoot": "", "projectRootMarkers": [".git"], "maxBytes": 65536,
                       "maxSourceBytes": 1048576, "instructionFileCandidates": ["AGENTS.md", "CLAUDE.md"],
                       "localInstructionFileCandidates": ["AGENTS.local.md", "CLAUDE.local.md"]},
                      separators=(',', ':'))


def text(n):
    return ' '.join(rng.choice(words) for _ in range(n))


def dump(ev):
    return json.dumps(ev, separators=(',', ':'), ensure_ascii=False) + '\n'


with open(out, 'w', encoding='utf-8') as f:
    size = 0
    seq = 0

    def emit(ev):
        global size, seq
        line = dump(ev)
        f.write(line)
        size += len(line.encode('utf-8'))
        seq += 1

    emit({"type": "session", "version": 0, "id": "bench", "createdAt": 0, "cwd": cwd})
    seq = 0
    emit({"type": "user/message", "seq": seq, "time": 0, "data": {
        "content": [{"type": "text", "text": "<system-reminder>\nInstructions from: AGENTS.md\n\nroot\n</system-reminder>"}],
        "source": {"kind": "workspace-instructions", "form": "instructions", "baseline": True,
                   "baselineIdentity": IDENTITY,
                   "changes": [{"action": "set", "scope": ".", "path": "AGENTS.md",
                                "digest": "0" * 40}]},
        "role": "user", "id": "m0"}, "surfaceOp": "append"})
    turn = 0
    while size < limit:
        turn += 1
        emit({"type": "turn/start", "seq": seq, "time": seq, "data": {"turn": turn}})
        emit({"type": "user/message", "seq": seq, "time": seq, "data": {
            "content": [{"type": "text", "text": text(20)}], "role": "user", "id": f"u{seq}"},
            "surfaceOp": "append"})
        for step in range(rng.randint(1, 4)):
            emit({"type": "step/start", "seq": seq, "time": seq, "data": {"turn": turn, "step": step}})
            for _ in range(rng.randint(50, 400)):
                r = rng.random()
                if r < 0.002:
                    chunk = 'see workspace-instructions'          # decoy: ends with instructions"
                elif r < 0.004:
                    chunk = 'a "user/message" or "surfaceOp" in text'  # decoy spelled with \" escapes
                else:
                    chunk = text(rng.randint(3, 30))
                line = {"type": "assistant/chunk", "seq": seq, "time": seq,
                        "data": {"turn": turn, "step": step, "delta": {"type": "text", "text": chunk}}}
                if r < 0.001:
                    raw = dump(line).replace('workspace-instructions', 'workspace\\u002dinstructions')
                    f.write(raw)
                    size += len(raw)
                    seq += 1
                else:
                    emit(line)
            emit({"type": "assistant/message", "seq": seq, "time": seq, "data": {
                "turn": turn, "step": step,
                "message": {"role": "assistant", "content": [{"type": "text", "text": text(40)}]}},
                "surfaceOp": "append"})
            emit({"type": "tool/call", "seq": seq, "time": seq, "data": {"name": "read", "args": {"path": "src/lib.rs"}}})
            emit({"type": "tool/result", "seq": seq, "time": seq, "data": {
                "content": [{"type": "text", "text": text(rng.randint(20, 200))}]}, "surfaceOp": "append"})
            emit({"type": "step/end", "seq": seq, "time": seq, "data": {"turn": turn, "step": step}})
        if turn % 200 == 0:
            emit({"type": "user/message", "seq": seq, "time": seq, "data": {
                "content": [{"type": "text", "text": "<system-reminder>\nAdditional instructions from: pkg/AGENTS.md\n\n...\n</system-reminder>"}],
                "source": {"kind": "workspace-instructions", "form": "instructions",
                           "changes": [{"action": "set", "scope": f"pkg{turn}", "path": f"pkg{turn}/AGENTS.md",
                                        "digest": "1" * 40}]},
                "role": "user", "id": f"w{seq}"}, "surfaceOp": "append"})
        emit({"type": "turn/end", "seq": seq, "time": seq, "data": {"turn": turn}})
