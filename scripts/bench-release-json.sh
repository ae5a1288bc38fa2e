#!/usr/bin/env bash
# Benchmark: the release format's strict JSON parser (`ReleaseJSONParser`, behind `JSONValue.parse`, which reads every
# release file a client downloads) against Foundation's `JSONSerialization` (the floor: a parser with no duplicate-key,
# UTF-8 or number checks, building Foundation objects) on the same bytes, in the same run. The document is a
# release's targets metadata grown to 2,000 targets: the largest targets metadata of the sample tenants' release,
# its entries cloned under new names and hashes (the shape of a real release with 2,000 bundles). Also prints
# JSONDecoder into JSONValue, the reader the strict parser replaced.
# Usage: scripts/bench-release-json.sh [livery binary] [livery-json-fuzz binary] (release builds)
set -euo pipefail
cd "$(dirname "$0")/.."
livery=$(realpath "${1:-.build/release/livery}")
harness=$(realpath "${2:-$(dirname "$livery")/livery-json-fuzz}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R Tenants "$work/"
(cd "$work" && "$livery" build Tenants --output Output > build.log 2>&1) || { cat "$work/build.log"; exit 1; }
python3 - "$work" <<'PY'
import glob, hashlib, json, os, sys
work = sys.argv[1]
largest = max(glob.glob(os.path.join(work, "Output", "*", "metadata", "*targets.json")), key=os.path.getsize)
doc = json.load(open(largest, encoding="utf-8"))
entries = list(doc["signed"]["targets"].items())
targets = {}
for i in range(2000):
    name, info = entries[i % len(entries)]
    info = json.loads(json.dumps(info))
    digest = hashlib.sha256(f"{name}-{i}".encode()).hexdigest()
    info["hashes"] = {"sha256": digest}
    info["length"] = info.get("length", 0) + i
    stem, dot, ext = name.rpartition(".")
    targets[f"{stem or name}-{i:04d}{dot}{ext if stem else ''}"] = info
doc["signed"]["targets"] = targets
with open(os.path.join(work, "targets-2000.json"), "w", encoding="utf-8") as f:
    json.dump(doc, f, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
print(f"targets metadata: {os.path.relpath(largest, work)} ({len(entries)} targets) grown to 2,000 targets")
PY
"$harness" bench "$work/targets-2000.json"
