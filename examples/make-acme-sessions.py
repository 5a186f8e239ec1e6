#!/usr/bin/env python3
"""Adds stored dsh sessions to the demo repository of make-acme.sh.

Run it after `bash examples/make-acme.sh`, with agentctx on PATH (or the
binary in $AGENTCTX) and the `zstd` command installed. It writes sessions
s-0412 and s-0415 of /tmp/acme/packages/app where dsh keeps them
(/tmp/acme-home/.dsh/sessions/--tmp-acme-packages-app--/ID/session.jsonl.zstd:
a header frame, then one frame of events), each a turn as dsh logs one (the
prompt typed, the baseline a session there receives now, the title, the
answer), and s-0416, a blank session (opened, nothing typed yet), then adds
a line to packages/app/AGENTS.md so that the two conversations drift. Run
make-acme.sh again to start over.
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


def lines(sid, created, prompt, title):
    """The session's header line and its events, as dsh writes them; a
    session with no prompt is blank (no turn has started)."""
    header = {"type": "session", "version": 0, "id": sid, "createdAt": created, "cwd": CWD}
    events = []
    if prompt:
        at = created + 60000
        events = [
            {"type": "turn/start", "seq": 0, "time": at, "data": {"turn": 1}},
            {"type": "user/message", "seq": 1, "time": at, "surfaceOp": "append",
             "data": {"role": "user", "id": "u1", "source": {"kind": "user"},
                      "content": [{"type": "text", "text": prompt}]}},
            {"type": "user/message", "seq": 2, "time": at, "surfaceOp": "append",
             "data": {"role": "user", "id": "u2", "source": rendered["source"],
                      "content": [{"type": "text", "text": rendered["parts"][0]}]}},
            {"type": "session/title", "seq": 3, "time": at + 1,
             "data": {"title": title, "messageSeqs": [1], "source": {"kind": "fallback"}}},
            {"type": "assistant/message", "seq": 4, "time": at + 5000, "surfaceOp": "append",
             "data": {"turn": 1, "step": 1, "message": {"role": "assistant", "content": [
                 {"type": "text", "text": "Done."}]}}},
        ]
    dump = lambda v: json.dumps(v, separators=(",", ":")) + "\n"
    return dump(header), "".join(dump(e) for e in events)


def zstd(text):
    """One Zstandard frame with a content checksum."""
    return subprocess.run(
        ["zstd", "-q", "-c", "--check"], input=text.encode(), check=True, capture_output=True
    ).stdout


SESSIONS = [
    ("s-0412", 1764500000000, "Move the UI strings to src/i18n.", "Move the UI strings"),
    ("s-0415", 1764600000000, "Add a test for the login form.", "Add a login form test"),
    ("s-0416", 1764700000000, None, None),
]
for sid, created, prompt, title in SESSIONS:
    os.makedirs(f"{STORE}/{sid}", exist_ok=True)
    path = f"{STORE}/{sid}/session.jsonl.zstd"
    header, events = lines(sid, created, prompt, title)
    with open(path, "wb") as f:
        f.write(zstd(header) + (zstd(events) if events else b""))
    os.utime(path, (created / 1000 + 65, created / 1000 + 65))

with open(CWD + "/AGENTS.md", "a") as f:
    f.write("- Run `pnpm test` before every push.\n")
