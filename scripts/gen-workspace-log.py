#!/usr/bin/env python3
"""Writes a session log of many workspace events that compaction shadows
(issue 13's memory shape), reproducibly.

    scripts/gen-workspace-log.py SHADOWED VISIBLE OUT [CWD]

A baseline and SHADOWED-1 deltas (50 scopes in turn), with a compaction every
1,000 events that replaces the whole surface and one after the last; then a
baseline and VISIBLE-1 deltas that stay on the surface. One million shadowed
events make a 334 MB log. Ends with a newline.
"""
import json
import sys

shadowed, visible, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
cwd = sys.argv[4] if len(sys.argv) > 4 else '/tmp/agentctx-bench/proj'


def dump(ev):
    return json.dumps(ev, separators=(',', ':'), ensure_ascii=False) + '\n'


def event(seq, baseline, scope):
    d = scope.split('\0')[0]
    path = 'AGENTS.md' if d == '.' else d + '/AGENTS.md'
    source = {'kind': 'workspace-instructions', 'form': 'instructions',
              'changes': [{'action': 'set', 'scope': scope, 'path': path, 'digest': '%040x' % seq}]}
    if baseline:
        source['baseline'] = True
        source['baselineIdentity'] = '{}'
    return dump({'type': 'user/message', 'seq': seq,
                 'data': {'role': 'user', 'content': [{'type': 'text', 'text': '<system-reminder>'}],
                          'source': source},
                 'surfaceOp': 'append'})


with open(out, 'w', encoding='utf-8') as f:
    f.write(dump({'type': 'session', 'version': 0, 'id': 's', 'createdAt': 0, 'cwd': cwd}))
    head = seq = 0
    for k in range(shadowed):
        f.write(event(seq, k == 0, 'd%d\0AGENTS.md' % (k % 50)))
        seq += 1
        if (k + 1) % 1000 == 0 or k + 1 == shadowed:
            f.write(dump({'type': 'user/message', 'seq': seq,
                          'data': {'role': 'user', 'content': [{'type': 'text', 'text': 'Summary.'}],
                                   'source': {'kind': 'compaction'}},
                          'surfaceOp': {'op': 'replace', 'start': head, 'end': seq - 1}}))
            head = seq
            seq += 1
    for k in range(visible):
        f.write(event(seq, k == 0, '.\0AGENTS.md' if k == 0 else 'v%d\0AGENTS.md' % k))
        seq += 1
