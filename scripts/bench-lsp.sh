#!/usr/bin/env bash
# Benchmark: `livery lsp` diagnostics latency after a one-character change in a 2,000-message locale file
# (issue 16): a sample tenant (urbannest) whose English and Hindi bundles get 2,000 more messages each, a quarter
# of them plural messages with an argument; 50 edits, each changing one character of one English message; the
# time from sending `textDocument/didChange` to receiving that file's `publishDiagnostics`, median and worst.
#
# Floor, measured in the same run on the same files: `livery validate` of the same tenant as a process (the
# check a creator runs by hand: start, load, resolve, every rule, print). The server skips the process start
# and keeps nothing else between edits (each change re-loads and re-checks the tenant), so the ratio says
# what the protocol and the conversion of findings cost. The client is a plain Python stdio client (the
# framing by hand, as any editor's), so no LSP library's overhead is measured.
# Usage: scripts/bench-lsp.sh [livery binary]
set -euo pipefail
livery=$(realpath "${1:-.build/release/livery}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Tenants"
cp -R Tenants/urbannest "$work/Tenants/"
python3 - "$work/Tenants/urbannest/locales" <<'PY'
import sys
folder = sys.argv[1]
for locale, word in (("en", "session"), ("hi", "सत्र")):
    lines = ["", "bench:"]
    for k in range(2000):
        text = f"{{count, plural, one {{# {word}}} other {{# {word}s}}}} {k}" if k % 4 == 0 else f"{word} message number {k}"
        lines.append(f"  m{k:04d}: \"{text}\"")
    with open(f"{folder}/{locale}.yaml", "a", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
PY
python3 - "$livery" "$work/Tenants" <<'PY'
import json, statistics, subprocess, sys, time, pathlib
livery, workspace = sys.argv[1], pathlib.Path(sys.argv[2])
locale = workspace / "urbannest" / "locales" / "en.yaml"

floor = []
for _ in range(5):
    start = time.perf_counter()
    subprocess.run([livery, "validate", str(workspace / "urbannest")], stdout=subprocess.DEVNULL, check=False)
    floor.append(time.perf_counter() - start)

server = subprocess.Popen([livery, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def send(message):
    body = json.dumps(message).encode()
    server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    server.stdin.flush()
def receive():
    length = None
    while True:
        line = server.stdout.readline()
        if line in (b"\r\n", b""):
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(server.stdout.read(length))
def published(uri):
    while True:
        message = receive()
        if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
            return message["params"]["diagnostics"]

send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": workspace.as_uri(), "capabilities": {}}})
receive()
uri, text = locale.as_uri(), locale.read_text(encoding="utf-8")
send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}})
published(uri)
times = []
for edit in range(50):
    key = f"  m{(edit * 37) % 2000:04d}: \""
    at = text.index(key) + len(key)
    edited = text[:at] + "X" + text[at + 1:]
    start = time.perf_counter()
    send({"jsonrpc": "2.0", "method": "textDocument/didChange",
          "params": {"textDocument": {"uri": uri, "version": edit + 2}, "contentChanges": [{"text": edited}]}})
    published(uri)
    times.append(time.perf_counter() - start)
send({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
receive()
send({"jsonrpc": "2.0", "method": "exit"})
status = server.wait()
median, worst, base = statistics.median(times), max(times), statistics.median(floor)
print(f"livery lsp, one-character change in a 2,000-message locale file (50 edits): median {median * 1000:.1f} ms, worst {worst * 1000:.1f} ms; "
      f"floor `livery validate` of the tenant {base * 1000:.1f} ms; median {median / base:.2f}x the floor (exit status {status})")
PY
