#!/usr/bin/env python3
"""Adds two stored dsh sessions to the demo repository of make-acme.sh.

Run it after `bash examples/make-acme.sh`, with agentctx on PATH (or the
binary in $AGENTCTX) and the `zstd` command installed. It writes sessions
s-0412 and s-0415 of /tmp/acme/packages/app where dsh keeps them
(/tmp/acme-home/.dsh/sessions/--tmp-acme-packages-app--/ID/session.jsonl.zstd:
a header frame, then one frame of events), each holding the baseline a
session there receives now, then adds a line to packages/app/AGENTS.md so
that both drift. Run make-acme.sh again to start over.
"""
import json
import os
import subprocess

AGENTCTX = os.environ.get("AGENTCTX", "agentctx")
HOME = "/tmp/acme-home"
CWD = "/tmp/acme/packages/app"
STORE = HOME + "/.dsh/sessions/--tmp-acme-packages-app--"
ENV = {**os.environ, "HOME": HOME}
ENV.pop("DSH_HOME", None)

rendered = json.loads(
    subprocess.run(
        [AGENTCTX, "render", "--format", "json", "--color", "never"],
        cwd=CWD, env=ENV, check=True, capture_output=True,
    ).stdout
)


def lines(sid, created):
    """The session's header line and its three events, as dsh writes them."""
    header = {"type": "session", "version": 0, "id": sid, "createdAt": created, "cwd": CWD}
    events = [
        {"type": "user/message", "seq": 0, "time": created, "surfaceOp": "append",
         "data": {"role": "user", "id": "u0", "source": rendered["source"],
                  "content": [{"type": "text", "text": rendered["parts"][0]}]}},
        {"type": "user/message", "seq": 1, "time": created + 1000, "surfaceOp": "append",
         "data": {"role": "user", "id": "u1",
                  "content": [{"type": "text", "text": "Move the UI strings to src/i18n."}]}},
        {"type": "assistant/message", "seq": 2, "time": created + 5000, "surfaceOp": "append",
         "data": {"turn": 0, "step": 0, "message": {"role": "assistant", "content": [
             {"type": "text", "text": "Done; the strings live in src/i18n now."}]}}},
    ]
    dump = lambda v: json.dumps(v, separators=(",", ":")) + "\n"
    return dump(header), "".join(dump(e) for e in events)


def zstd(text):
    """One Zstandard frame with a content checksum."""
    return subprocess.run(
        ["zstd", "-q", "-c", "--check"], input=text.encode(), check=True, capture_output=True
    ).stdout


for sid, created in [("s-0412", 1764500000000), ("s-0415", 1764600000000)]:
    os.makedirs(f"{STORE}/{sid}", exist_ok=True)
    path = f"{STORE}/{sid}/session.jsonl.zstd"
    header, events = lines(sid, created)
    with open(path, "wb") as f:
        f.write(zstd(header) + zstd(events))
    os.utime(path, (created / 1000, created / 1000))

with open(CWD + "/AGENTS.md", "a") as f:
    f.write("- Run `pnpm test` before every push.\n")
