#!/usr/bin/env bash
# Benchmark: `livery build` on a synthetic corpus (docs/benchmarks.md).
#   - 200 small tenants × 3 locales × 1,000 keys, and
#   - one media tenant with ~525 MB of incompressible media: 50 audio files of 10 MB in one tour
#     language and 5,000 small images.
# Reports, in one run on the same bytes: full build, no-change rebuild and one-string-change rebuild
# times, throughput and peak RSS; the floor (every media byte once through sha256sum); a naive
# pipeline (zip -r -X, then sha256sum of the archive); and ratios against both.
# Usage: scripts/bench-build.sh [livery binary]
set -euo pipefail
livery=$(realpath "${1:-.build/release/livery}")
here="$(cd "$(dirname "$0")" && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
python3 "$here/bench-corpus.py"
media_bytes=$(du -sb Tenants/media | cut -f1)
all_bytes=$(du -sb Tenants | cut -f1)
sync
# Each measurement starts from the same state: page cache warm, no dirty pages left by the step before.
seconds() { local start end; sync; start=$(date +%s.%N); "$@" >/dev/null 2>&1; end=$(date +%s.%N); python3 -c "print($end - $start)"; }
rss() { sync; /usr/bin/time -f "%M" "$@" 2>&1 >/dev/null | tail -1; }

# Warm the page cache so every measurement reads from memory alike.
cat $(find Tenants/media -type f) > /dev/null
best3() { local best=999999 t; for _ in 1 2 3; do t=$(seconds "$@"); best=$(python3 -c "print(min($best, $t))"); done; echo "$best"; }
floor=$(best3 sh -c "find Tenants/media -type f -print0 | xargs -0 sha256sum")
naive=$(seconds sh -c "cd Tenants/media && zip -r -X -q ../../naive.zip . && sha256sum ../../naive.zip")
rm -f naive.zip
# Packaging the media tenant: a warm-up run, then the best of three, each into an empty output
# (on this VM, writing into memory the guest has not touched yet costs several times more; the
# warm-up's pages are freed and reused, as on a build machine that has run before).
"$livery" build Tenants/media --output warmup >/dev/null 2>&1; rm -rf warmup
media_build=999999
for i in 1 2 3; do
    t=$(seconds "$livery" build Tenants/media --output "out-media")
    media_build=$(python3 -c "print(min($media_build, $t))")
    [ "$i" = 3 ] || rm -rf out-media
done
media_rss=$(rss "$livery" build Tenants/media --output out-media-rss); rm -rf out-media-rss out-media
full=$(seconds "$livery" build Tenants --output out)
nochange=$(best3 "$livery" build Tenants --output out)
onestring=999999
for word in one two three; do
    sed -i "s/k500: \"en message [a-z0-9 ]*500/k500: \"en message $word 500/" Tenants/t042/locales/en.yaml
    t=$(seconds "$livery" build Tenants --output out)
    onestring=$(python3 -c "print(min($onestring, $t))")
done
full_rss=$(rss "$livery" build Tenants --output out-rss)
python3 - "$media_bytes" "$all_bytes" "$floor" "$naive" "$media_build" "$media_rss" "$full" "$nochange" "$onestring" "$full_rss" <<'PY'
import sys
media, total, floor, naive, media_build, media_rss, full, nochange, onestring, full_rss = sys.argv[1:]
media, total, full_rss, media_rss = int(media), int(total), int(full_rss), int(media_rss)
floor, naive, media_build, full, nochange, onestring = map(float, (floor, naive, media_build, full, nochange, onestring))
mb = 1e6
print(f"corpus: 201 tenants, {total / mb:.0f} MB (media tenant {media / mb:.0f} MB: 50 × 10 MB audio, 5,000 images; 600,000 messages)")
print(f"floor, sha256sum of every media byte:  {floor:6.2f} s  ({media / mb / floor:.0f} MB/s)")
print(f"naive, zip -r -X + sha256sum:          {naive:6.2f} s  ({media / mb / naive:.0f} MB/s)")
print(f"livery build, media tenant:            {media_build:6.2f} s  ({media / mb / media_build:.0f} MB/s)  "
      f"{media_build / floor:.2f}x the floor (target <= 1.5x), {naive / media_build:.1f}x faster than naive (target >= 3x), peak RSS {media_rss / 1024:.0f} MB")
print(f"livery build, all 201 tenants:         {full:6.2f} s  ({total / mb / full:.0f} MB/s), peak RSS {full_rss / 1024:.0f} MB (target < 150 MB)")
print(f"no-change rebuild, all tenants:        {nochange:6.2f} s  (target < 1 s)")
print(f"one-string change rebuild:             {onestring:6.2f} s")
PY

# Installing the media tenant through `livery serve` (127.0.0.1) with `livery fetch`, against a
# baseline in the same run: curl of the same files, sha256sum of each, and bsdtar -x of each.
"$livery" serve --output out --port 0 > serve.log 2>&1 &
serve_pid=$!
for _ in $(seq 100); do grep -q "listening on" serve.log 2>/dev/null && break; sleep 0.05; done
port=$(grep -o "127.0.0.1:[0-9]*" serve.log | head -1 | cut -d: -f2)
base="http://127.0.0.1:$port/media"
files=$(python3 - out/media <<'PY'
import json, sys, os
folder = sys.argv[1]
pointer = json.load(open(os.path.join(folder, "release.json")))
manifest = json.load(open(os.path.join(folder, pointer["manifest"])))
wanted = [b for b in manifest["bundles"] if b["policy"] == "essential" or b.get("subject") == "walk"]
print(" ".join(b["path"] for b in wanted))
PY
)
baseline_run() {
    rm -rf base-dl && mkdir base-dl
    for f in $files; do
        curl -s -o "base-dl/$(basename "$f")" "$base/$f"
        sha256sum "base-dl/$(basename "$f")" > /dev/null
        mkdir -p "base-dl/x-$(basename "$f")" && bsdtar -xf "base-dl/$(basename "$f")" -C "base-dl/x-$(basename "$f")"
    done
}
fetch_run() { rm -rf fetch-cache; "$livery" fetch media --server "http://127.0.0.1:$port" --cache fetch-cache --root out/media/metadata/1.root.json --tour walk; }
baseline_run; fetch_run >/dev/null  # warm-up
baseline=$(best3 baseline_run)
fetched=$(best3 fetch_run)
rm -rf fetch-cache
fetch_rss=$(rss "$livery" fetch media --server "http://127.0.0.1:$port" --cache fetch-cache --root out/media/metadata/1.root.json --tour walk)
kill -TERM $serve_pid; wait $serve_pid 2>/dev/null || true
python3 - "$baseline" "$fetched" "$fetch_rss" <<'PY'
import sys
baseline, fetched, rss = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
print(f"baseline, curl + sha256sum + bsdtar -x:  {baseline:6.2f} s")
print(f"livery fetch, media tenant (+ tour):    {fetched:6.2f} s  {fetched / baseline:.2f}x the baseline (target <= 1.3x), peak RSS {rss / 1024:.0f} MB (target < 100 MB)")
PY
