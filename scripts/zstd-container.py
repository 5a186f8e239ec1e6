#!/usr/bin/env python3
"""Packs a JSONL session log into dsh's session.jsonl.zstd container.

    scripts/zstd-container.py IN OUT [BATCH_KIB]

The container dsh writes: the first line (the session header) in a Zstandard
frame of its own, then frames each holding a batch of whole lines (about
BATCH_KIB KiB of text, default 256), every frame with a content checksum.
Each frame is made by the `zstd` command line tool (level 3, --check).
"""
import subprocess
import sys

src, out = sys.argv[1], sys.argv[2]
batch_bytes = (int(sys.argv[3]) if len(sys.argv) > 3 else 256) * 1024


def frame(data):
    return subprocess.run(['zstd', '-q', '-3', '--check', '-c'], input=data,
                          stdout=subprocess.PIPE, check=True).stdout


with open(src, 'rb') as f, open(out, 'wb') as w:
    w.write(frame(f.readline()))
    batch = []
    size = 0
    for line in f:
        batch.append(line)
        size += len(line)
        if size >= batch_bytes:
            w.write(frame(b''.join(batch)))
            batch, size = [], 0
    if batch:
        w.write(frame(b''.join(batch)))
