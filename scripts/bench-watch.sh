#!/usr/bin/env bash
# Benchmark: `livery watch` on a copy of the sample tenants. Measures the time from a save (a new
# file renamed over a locale bundle, as editors save) to the printed status line, for one-file
# changes that add and then remove a finding, against a cold `livery validate` of the same tenant
# in the same run (process start, load, check). Target: under 100 ms from save to findings.
# Usage: scripts/bench-watch.sh [livery binary] [rounds]
set -euo pipefail
livery=$(realpath "${1:-.build/release/livery}")
rounds=${2:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r Tenants "$work/Tenants"
python3 - "$livery" "$work" "$rounds" <<'PY'
import os, statistics, subprocess, sys, time
livery, work, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.chdir(work)
bundle = os.path.join("Tenants", "physio-clinic", "locales", "en.yaml")
text = open(bundle, encoding="utf-8").read()
broken = text.replace("  home: Home\n", "  home: \"{count, plural, one {#}}\"\n", 1)
assert broken != text

def cold():
    start = time.perf_counter()
    subprocess.run([livery, "validate", "Tenants/physio-clinic"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start

colds = sorted(cold() for _ in range(max(5, rounds // 2)))
watch = subprocess.Popen([livery, "watch", "Tenants"], stdout=subprocess.PIPE, text=True, bufsize=1)
first = watch.stdout.readline()
assert first.startswith("watching "), first
latencies, inside = [], []
for i in range(rounds):
    body = broken if i % 2 == 0 else text
    temporary = bundle + ".tmp"
    with open(temporary, "w", encoding="utf-8") as f:
        f.write(body)
    start = time.perf_counter()
    os.rename(temporary, bundle)
    while True:
        line = watch.stdout.readline()
        if " ms: " in line:
            break
    latencies.append(time.perf_counter() - start)
    inside.append(float(line.split(" in ")[1].split(" ms")[0]))
    assert (" 0 errors" not in line) == (i % 2 == 0), line
    time.sleep(0.05)
watch.kill()
latencies.sort()
median = statistics.median(latencies)
p90 = latencies[int(len(latencies) * 0.9) - 1]
floor = statistics.median(colds)
print(f"livery watch, one-file change in physio-clinic ({rounds} saves, alternately adding and removing a finding):")
print(f"  save to printed findings: median {median*1000:.1f} ms, p90 {p90*1000:.1f} ms, best {latencies[0]*1000:.1f} ms "
      f"(of which the check itself: median {statistics.median(inside):.0f} ms; the rest is the 15 ms quiet period and printing)")
print(f"  cold `livery validate Tenants/physio-clinic` in the same run: median {floor*1000:.1f} ms")
print(f"  watch / cold validate: {median/floor:.2f}x; target < 100 ms: {'met' if median < 0.1 else 'MISSED'} ({median/0.1:.2f}x the target)")
PY
