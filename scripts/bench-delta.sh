#!/usr/bin/env bash
# Benchmark: delta downloads (docs/deltas.md) on the media tenant of scripts/bench-corpus.py (one tour
# language of 50 stops x 10 MB audio, 5,000 small images in core), through one `livery serve` on
# 127.0.0.1. A device installs the essential bundles and the tour, then the tenant changes and the
# device updates, twice from the same installed state: by delta (the default) and whole
# (`livery fetch --no-delta`, what every update cost before deltas). For each change it prints the
# bytes of the files that changed, the bytes each update received (TUF metadata and manifest
# included), the ratio, the time to install and the client's peak RSS:
#   - one stop's audio re-recorded (10 MB);
#   - one of the 5,000 images replaced (2 KB);
#   - one string changed;
#   - a device that skipped nine releases, each re-recording one audio file and replacing one image.
# The target (issue 33): received <= 1.1 x the changed files' sizes + 64 KiB per release for the
# file-level cases; the one-string case no larger than the whole download; peak RSS <= 100 MB.
# Usage: scripts/bench-delta.sh [livery binary]
set -euo pipefail
livery=$(realpath "${1:-.build/release/livery}")
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/bench-serve.sh"
cd "$work"
python3 "$here/bench-corpus.py"
# Only the media tenant matters here.
find Tenants -mindepth 1 -maxdepth 1 -name 't[0-9]*' -exec rm -rf {} +
"$livery" build Tenants --output Output >/dev/null 2>&1

start_serve --output Output
root=Output/media/metadata/1.root.json

fetch() {  # $1 = cache, $2.. = extra options; prints "seconds peak-KiB bytes-received"
    local cache=$1; shift
    local out
    out=$( { /usr/bin/time -f "TIME %e %M" "$livery" fetch media --server "$server" --cache "$cache" --root "$root" --tour walk --progress none "$@" > "$cache.out"; } 2>&1 )
    local t m
    read -r t m <<< "$(echo "$out" | grep '^TIME' | tail -1 | cut -d' ' -f2-)"
    local bytes
    bytes=$(grep -o '[0-9]* bytes received' "$cache.out" | cut -d' ' -f1)
    echo "$t $m $bytes"
}
rebuild() {
    "$livery" build Tenants --output Output > build.log 2>&1 || { echo "bench-delta: the build failed:" >&2; tail -20 build.log >&2; exit 1; }
}
# A new 10 MB recording of stop $1 (MPEG frames with random audio data, as bench-corpus.py writes them).
rerecord() {
    python3 - "$1" <<'PY'
import os, sys
frame_length, frames = 417, (10 << 20) // 417
data = bytearray(os.urandom(frame_length * frames))
for i in range(0, len(data), frame_length): data[i:i + 4] = b"\xff\xfb\x90\x44"
open(f"Tenants/media/tours/walk/audio/{int(sys.argv[1]):02d}.mp3", "wb").write(b"ID3\x04\x00\x00\x00\x00\x00\x00" + bytes(data))
PY
}
# A new image in place of img$1 (same PNG header, new random data).
reimage() {
    python3 - "$1" <<'PY'
import os, sys
path = f"Tenants/media/assets/images/img{int(sys.argv[1]):04d}.png"
head = open(path, "rb").read()[:33]
open(path, "wb").write(head + os.urandom(2000 + int(sys.argv[1]) % 1000))
PY
}
size_of() { stat -c %s "$1"; }

# The device's first install (kept as it is, and copied with hard links before each update: the
# client never changes an installed file, it makes new ones).
fetch device >/dev/null
results=()
measure() {  # $1 = case name, $2 = bytes of the changed files, $3 = releases since the device's
    rm -rf d-delta d-full
    cp -al device d-delta; cp -al device d-full
    local delta full
    delta=$(fetch d-delta)
    full=$(fetch d-full --no-delta)
    cmp -s <(cd d-delta/media/current && find bundles -type f -print0 | sort -z | xargs -0 sha256sum) \
           <(cd d-full/media/current && find bundles -type f -print0 | sort -z | xargs -0 sha256sum) \
        || { echo "bench-delta: $1: the delta install differs from the full one" >&2; exit 1; }
    results+=("$1|$2|$3|$delta|$full")
}

rerecord 17; rebuild
measure "one stop's audio re-recorded" "$(size_of Tenants/media/tours/walk/audio/17.mp3)" 1
rm -rf device; mv d-delta device
reimage 2345; rebuild
measure "one of 5,000 images replaced" "$(size_of Tenants/media/assets/images/img2345.png)" 1
rm -rf device; mv d-delta device
printf 'title: "Media, edited"\n' > Tenants/media/locales/en.yaml; rebuild
measure "one string changed" 16 1
rm -rf device; mv d-delta device
changed=0
for i in 1 2 3 4 5 6 7 8 9; do
    rerecord $((20 + i)); reimage $((100 + i * 400)); rebuild
    changed=$((changed + $(size_of Tenants/media/tours/walk/audio/$((20 + i)).mp3) + $(size_of Tenants/media/assets/images/img$(printf %04d $((100 + i * 400))).png)))
done
measure "nine releases skipped (1 audio + 1 image each)" "$changed" 9

python3 - "${results[@]}" <<'PY'
import sys
print("delta downloads, media tenant (essential bundles + tour walk), livery serve on 127.0.0.1; bytes include TUF metadata and the manifest")
print(f"{'change':48s} {'changed':>11s} {'delta':>11s} {'whole':>11s} {'delta/chg':>9s} {'budget':>11s} {'ok':>3s} {'delta s':>8s} {'whole s':>8s} {'RSS MiB':>8s}")
for row in sys.argv[1:]:
    name, changed, releases, delta, full = row.split("|")
    changed, releases = int(changed), int(releases)
    dt, dm, db = delta.split(); ft, fm, fb = full.split()
    db, fb = int(db), int(fb)
    budget = 1.1 * changed + 65536 * releases
    ok = db <= budget if "string" not in name else db <= fb
    print(f"{name:48s} {changed:11,d} {db:11,d} {fb:11,d} {db / changed:8.1f}x {int(budget):11,d} {'yes' if ok else 'NO':>3s} {float(dt):8.2f} {float(ft):8.2f} {max(int(dm), int(fm)) / 1024:8.0f}")
print("  budget: 1.1 x changed + 64 KiB per release (the one-string case: no more than the whole download); whole: livery fetch --no-delta from the same installed state")
PY
