#!/usr/bin/env bash
# Writes Android/build/tuf-client.jsa, a dynamic class-data-sharing archive (JDK 13+: -XX:ArchiveClassesAtExit) of
# the classes one conformance-client run loads, from a download over a small python-tuf repository
# (cds-training-repo.py) served on 127.0.0.1. The conformance suite starts the client hundreds of times, and the
# archive cuts each start's CPU time by about a third (docs in Android/README.md). Needs a Python with python-tuf:
# PYTHON, else the conformance suite's .venv-conformance. Without one, or if the run fails, no archive is written
# and the client starts without it.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="$here/build"
python="${PYTHON:-$here/../.venv-conformance/bin/python}"
rm -f "$build/tuf-client.jsa"
if ! "$python" -c "import tuf.api.metadata, securesystemslib.signer" 2>/dev/null; then
    echo "make-cds-archive: no Python with python-tuf at $python: the client runs without a class-data archive" >&2
    exit 0
fi
work="$(mktemp -d)"
server=""
cleanup() { [[ -n "$server" ]] && kill "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
"$python" "$here/scripts/cds-training-repo.py" "$work/repo"
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$work/repo" > "$work/server.log" 2>&1 &
server=$!
port=""
for _ in $(seq 100); do
    port="$(grep -oE 'port [0-9]+' "$work/server.log" | grep -oE '[0-9]+' || true)"
    [[ -n "$port" ]] && break
    sleep 0.05
done
[[ -n "$port" ]] || { echo "make-cds-archive: the training server did not start" >&2; exit 1; }
classpath="$build/livery-client.jar:/usr/share/java/jackson-core.jar"
client=(java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$classpath" com.livery.client.tuf.cli.TufConformanceClient --metadata-dir "$work/metadata")
"${client[@]}" init "$work/repo/root.json"
url="http://127.0.0.1:$port"
java -XX:ArchiveClassesAtExit="$build/tuf-client.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
    -cp "$classpath" com.livery.client.tuf.cli.TufConformanceClient --metadata-dir "$work/metadata" --metadata-url "$url/metadata" \
    --target-base-url "$url/targets" --target-dir "$work/targets" --target-name dir/file.txt download
test -f "$build/tuf-client.jsa"
