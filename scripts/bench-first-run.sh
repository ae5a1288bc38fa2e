#!/usr/bin/env bash
# Benchmark: the first `make run` from a clean clone, what every new user and CI runner pays first (issue 37).
# Clones the repository's committed HEAD into a temporary folder (no .build: every dependency and every module is
# compiled, as on a new machine; Swift packages come from SwiftPM's cache, Debian packages are installed already),
# times `make run` there, then times `make build` after it: the rest of the tree (livery-network with SwiftNIO,
# AsyncHTTPClient, Hummingbird, PostgresNIO), which `make run` no longer waits for. Their sum is what the first
# run cost when `livery` was one executable. Prints the first run against its 6-minute target.
# Usage: scripts/bench-first-run.sh [repository folder]   (takes 10 to 15 minutes on 2 cores)
set -euo pipefail
repo=$(cd "${1:-.}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone --quiet "$repo" "$work/livery"
cd "$work/livery"
seconds() { # wall seconds of "$@", its output to $work/log
    local start end
    start=$(date +%s.%N)
    "$@" >>"$work/log" 2>&1 || { tail -30 "$work/log" >&2; exit 1; }
    end=$(date +%s.%N)
    python3 -c "print(f'{$end - $start:.0f}')"
}
run=$(seconds make run)
rest=$(seconds make build)
python3 - "$run" "$rest" "$(git rev-parse --short HEAD)" <<'PY'
import os, sys
def summary(line):
    """A target's figure: printed, and kept for `make bench`'s closing list (BENCH_SUMMARY)."""
    print(line)
    if os.environ.get("BENCH_SUMMARY"):
        with open(os.environ["BENCH_SUMMARY"], "a") as out: out.write(line + "\n")
run, rest, commit = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
target = 360
summary(f"first make run from a clean clone of {commit}: {run // 60} min {run % 60:02d} s "
        f"({run / target:.2f}x the 6-minute target): {'met' if run <= target else 'MISSED'}")
print(f"  then make build (livery-network and the rest): {rest // 60} min {rest % 60:02d} s; "
      f"the whole tree {(run + rest) // 60} min {(run + rest) % 60:02d} s, so make run waits for {run / (run + rest):.0%} of it")
PY
