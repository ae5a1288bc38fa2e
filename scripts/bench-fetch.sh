#!/usr/bin/env bash
# Benchmark: `livery fetch` of the media tenant (scripts/bench-corpus.py: one tour with 50 audio files
# of 10 MB, 5,000 hero images in its core bundle), cold cache, through one `livery serve` on 127.0.0.1,
# in one run on the same bytes:
#   - parallel (the default, 4 downloads at once) against sequential (--parallel 1);
#   - both against the floor a shell script gets with standard tools: for each bundle the fetch
#     installs, curl to a file, sha256sum -c against the manifest, bsdtar -x (one after the other,
#     and four at once with xargs -P4), without any TUF verification; and the same four at once
#     followed by `sync`, since livery fetch makes its downloads and the installed tree durable
#     (fsync, sync) before it switches to them, which writes every byte to the disk;
#   - peak RSS of each livery run (GNU time's %M).
# The rounds alternate the variants; the best and the median of five are printed with ratios.
# Then `livery gc` over the 201-tenant corpus after ten releases of every tenant (each release one
# changed string per tenant): the time of a dry run and of the collection, what it frees, and the
# floor of listing the store (find -printf of every object's size), and peak RSS.
# Usage: scripts/bench-fetch.sh [livery binary]
set -euo pipefail
livery=$(realpath "${1:-.build/release/livery}")
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/bench-serve.sh"
cd "$work"
python3 "$here/bench-corpus.py"
"$livery" build Tenants --output Output >/dev/null 2>&1

start_serve --output Output
root=Output/media/metadata/1.root.json

# What the fetch installs: the essential bundles, the default locale, the tour and its audio.
python3 - "$(cat Output/media/release.json)" > wanted.txt <<'PY'
import json, sys
pointer = json.loads(sys.argv[1])
manifest = json.load(open(f"Output/media/{pointer['manifest']}"))
for b in manifest["bundles"]:
    if b["policy"] == "essential" or b["kind"] in ("tour", "tour-language"):
        print(b["id"], b["path"], b["sha256"], b["size"])
PY
bytes=$(awk '{s += $4} END {print s}' wanted.txt)

run_livery() {  # $1 = parallel; prints "seconds peak-KiB"
    rm -rf cache
    { /usr/bin/time -f "%e %M" "$livery" fetch media --server "$server" --cache cache --root "$root" --tour walk --parallel "$1" --progress none >/dev/null; } 2>&1 | tail -1
}
run_baseline() {  # $1 = downloads at once, $2 = "sync" to end with sync; prints seconds
    rm -rf base && mkdir base
    local start end
    start=$(date +%s.%N)
    # shellcheck disable=SC2016
    xargs -P "$1" -L 1 sh -c 'curl -sf -o "base/$2.zip" "'"$server"'/media/$1" && echo "$2  base/$2.zip" | sha256sum -c --quiet - && mkdir -p "base/$0" && bsdtar -xf "base/$2.zip" -C "base/$0"' < wanted.txt
    if [ "${2:-}" = sync ]; then sync; fi
    end=$(date +%s.%N)
    python3 -c "print(round($end - $start, 3))"
}
run_livery 4 >/dev/null  # warm-up: page cache, server
par= seq= base1= base4= base4s= par_rss= seq_rss=
for round in 1 2 3 4 5; do
    read -r t m <<< "$(run_livery 4)"; par="$par $t"; par_rss="$par_rss $m"
    read -r t m <<< "$(run_livery 1)"; seq="$seq $t"; seq_rss="$seq_rss $m"
    base1="$base1 $(run_baseline 1)"
    base4="$base4 $(run_baseline 4)"
    base4s="$base4s $(run_baseline 4 sync)"
done

# gc: ten releases of every tenant, then collect.
for i in $(seq 1 10); do
    for f in Tenants/*/locales/*.yaml; do printf '\nbenchRelease%s: "release %s"\n' "$i" "$i" >> "$f"; done
    "$livery" build Tenants --output Output > build-$i.log 2>&1 || { echo "bench-fetch: release $i did not build:" >&2; tail -20 build-$i.log >&2; exit 1; }
done
store_objects=$(find Output/.livery/store/objects -type f | wc -l)
store_bytes=$(du -sb Output/.livery/store/objects | cut -f1)
floor_start=$(date +%s.%N); find Output/.livery/store/objects -type f -printf '%s\n' > /dev/null; floor_end=$(date +%s.%N)
dry=$( { /usr/bin/time -f "%e %M" "$livery" gc --output Output --dry-run > gc-dry.txt; } 2>&1 | tail -1)
real=$( { /usr/bin/time -f "%e %M" "$livery" gc --output Output > gc.txt; } 2>&1 | tail -1)
after_bytes=$(du -sb Output/.livery/store/objects | cut -f1)
"$livery" verify --output Output > /dev/null || { echo "bench-fetch: the output does not verify after gc" >&2; exit 1; }

python3 - "$bytes" "$par" "$seq" "$base1" "$base4" "$par_rss" "$seq_rss" "$store_objects" "$store_bytes" "$after_bytes" "$floor_start" "$floor_end" "$dry" "$real" "$(tail -1 gc.txt)" "$base4s" <<'PY'
import statistics, sys
mb = 1e6
size = int(sys.argv[1])
par, seq, b1, b4 = ([float(x) for x in sys.argv[i].split()] for i in (2, 3, 4, 5))
par_rss, seq_rss = (max(int(x) for x in sys.argv[i].split()) for i in (6, 7))
objects, before, after = int(sys.argv[8]), int(sys.argv[9]), int(sys.argv[10])
floor = float(sys.argv[12]) - float(sys.argv[11])
dry_t, dry_m = sys.argv[13].split(); gc_t, gc_m = sys.argv[14].split()
def line(name, xs): return f"{name:48s} {min(xs):6.2f} s best ({size / mb / min(xs):5.0f} MB/s), median {statistics.median(xs):6.2f} s"
print(f"media tenant fetch (essential + tour walk): {size / mb:.0f} MB in {len(open('wanted.txt').read().split(chr(10))) - 1} bundles, livery serve on 127.0.0.1")
print(line("livery fetch, 4 downloads at once (default)", par))
print(line("livery fetch --parallel 1", seq))
print(line("curl + sha256sum + bsdtar, one at a time", b1))
print(line("curl + sha256sum + bsdtar, four at once", b4))
b4s = [float(x) for x in sys.argv[16].split()]
print(line("the same, four at once, then sync (durable)", b4s))
print(f"  parallel against sequential: {min(seq) / min(par):.2f}x best, {statistics.median(seq) / statistics.median(par):.2f}x median")
print(f"  against the shell floor (same concurrency): {min(b4) / min(par):.2f}x best, {statistics.median(b4) / statistics.median(par):.2f}x median (above 1: livery is faster; it also verifies TUF metadata)")
print(f"  against the durable shell floor (then sync): {min(b4s) / min(par):.2f}x best, {statistics.median(b4s) / statistics.median(par):.2f}x median")
print(f"  peak RSS: parallel {par_rss / 1024:.0f} MiB, sequential {seq_rss / 1024:.0f} MiB")
print(f"gc after 10 releases of 201 tenants: {objects} objects, {before / mb:.0f} MB; freed {(before - after) / mb:.0f} MB")
print(f"  dry run {float(dry_t):.2f} s ({int(dry_m) / 1024:.0f} MiB), collection {float(gc_t):.2f} s ({int(gc_m) / 1024:.0f} MiB); "
      f"floor (list every object with find) {floor:.2f} s: {float(gc_t) / max(floor, 1e-3):.1f}x the floor")
print(f"  {sys.argv[15]}")
PY
