#!/usr/bin/env bash
# Benchmark: what measuring audio and video costs. On the media tenant of scripts/bench-corpus.py (one tour
# of 50 stops with 10 MB of MP3 frames each, 5,000 images), in one run on the same bytes:
#   - validate with an empty probe cache (every MP3 frame walked) against validate with a warm one
#     (nothing probed: the measurements come from Output/.livery/probes.sqlite), best of 3 each;
#   - a full build with an empty probe cache against a full build whose store and records are new but
#     whose probe cache is warm, best of 3 each.
# The difference is what probing adds; the ratio is reported against the warm run (target: at most 10%).
# Usage: scripts/bench-media.sh [livery binary]
set -euo pipefail
livery=$(realpath "${1:-.build/release/livery}")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
python3 "$here/bench-corpus.py"
find Tenants -mindepth 1 -maxdepth 1 -name 't*' -exec rm -rf {} +
seconds() { python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$@"; }
timed() { local start end; start=$(date +%s.%N); "$@" >/dev/null 2>"$work/stderr" || { cat "$work/stderr"; exit 1; }; end=$(date +%s.%N); seconds "$start" "$end"; }
best() { python3 -c "import sys; print(min(map(float, sys.argv[1:])))" "$@"; }

cold_validate=() warm_validate=() cold_build=() warm_build=()
for _ in 1 2 3; do
    rm -rf Output && mkdir Output
    cold_validate+=("$(timed "$livery" validate Tenants/media --output Output)")
    warm_validate+=("$(timed "$livery" validate Tenants/media --output Output --stats)")
    warm_stats=$(cat "$work/stderr")
    rm -rf Output
    cold_build+=("$(timed "$livery" build Tenants/media --output Output)")
    # A new store and new records (a full build), the probe cache kept.
    find Output -mindepth 1 -maxdepth 1 ! -name .livery -exec rm -rf {} +
    find Output/.livery -mindepth 1 -maxdepth 1 ! -name probes.sqlite -exec rm -rf {} +
    warm_build+=("$(timed "$livery" build Tenants/media --output Output)")
done
python3 - "$(best "${cold_validate[@]}")" "$(best "${warm_validate[@]}")" "$(best "${cold_build[@]}")" "$(best "${warm_build[@]}")" "$warm_stats" <<'PY'
import os, sys
def summary(line):
    """A target's figure: printed, and kept for `make bench`'s closing list (BENCH_SUMMARY)."""
    print(line)
    if os.environ.get("BENCH_SUMMARY"):
        with open(os.environ["BENCH_SUMMARY"], "a") as out: out.write(line + "\n")
cv, wv, cb, wb, stats = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
print("media tenant: 50 MP3s of 10 MB (1.26 million frames), 5,000 images")
print(f"validate: {cv:.2f} s probing every file, {wv:.2f} s from the probe cache: probing adds {100 * (cv - wv) / wv:.1f}% (target at most 10%)")
summary(f"measuring media during validation: +{100 * (cv - wv) / wv:.1f}% ({cv:.2f} s / {wv:.2f} s; target <= 10%): {'met' if cv - wv <= 0.1 * wv else 'MISSED'}")
print(f"build:    {cb:.2f} s probing every file, {wb:.2f} s from the probe cache: probing adds {100 * (cb - wb) / wb:.1f}% (target at most 10%)")
print(f"warm re-validate: {stats.strip()}")
PY
