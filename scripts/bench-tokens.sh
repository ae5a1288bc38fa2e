#!/usr/bin/env bash
# Benchmark: `livery tokens check` (parse + resolve + validate every value) on the two synthetic
# token sets of Style Dictionary's published performance budgets:
#   A. 9,000 tokens, 6,000 of them references (budget 500 ms; Livery's target 50 ms), and
#   B. 30,000 tokens, 29,700 of them references in chains 100 deep (budget 5 s; target 500 ms).
# Prints each time (best of five, wall clock, release build, process start included) against the
# target, and against a floor measured in the same run on the same bytes: `jq empty` (read and
# parse the JSON, no checks), with the peak RSS. Usage: scripts/bench-tokens.sh [livery binary]
set -euo pipefail
livery=$(realpath "${1:-.build/release/livery}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
def color(i):
    r, g, b = (i * 37) % 256, (i * 91) % 256, (i * 53) % 256
    return {"colorSpace": "srgb", "components": [round(r / 255, 4), round(g / 255, 4), round(b / 255, 4)], "hex": f"#{r:02x}{g:02x}{b:02x}"}
# A: 3,000 values (colours, dimensions, typography), then 6,000 references to them.
a = {"palette": {"$type": "color"}, "space": {"$type": "dimension"}, "type": {"$type": "typography"}, "alias": {}}
for i in range(1000):
    a["palette"][f"c{i}"] = {"$value": color(i)}
    a["space"][f"s{i}"] = {"$value": {"value": i % 64, "unit": "px"}}
    a["type"][f"t{i}"] = {"$value": {"fontFamily": ["Inter", "sans-serif"], "fontSize": {"value": 12 + i % 20, "unit": "px"},
                                     "fontWeight": 400, "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1.4}}
for i in range(6000):
    group, prefix = [("palette", "c"), ("space", "s"), ("type", "t")][i % 3]
    a["alias"][f"a{i}"] = {"$value": "{%s.%s%d}" % (group, prefix, (i // 3) % 1000)}
# B: 300 values, each the end of a chain of 99 references; 29,700 references in all.
b = {"base": {"$type": "color"}}
for c in range(300):
    b["base"][f"v{c}"] = {"$value": color(c)}
    previous = f"base.v{c}"
    group = b.setdefault(f"chain{c}", {})
    for depth in range(99):
        group[f"d{depth}"] = {"$value": "{%s}" % previous}
        previous = f"chain{c}.d{depth}"
# 300 values + 300 × 99 references = 30,000 tokens, 29,700 of them references.
for name, doc in (("a", a), ("b", b)):
    with open(os.path.join(work, f"{name}.tokens.json"), "w") as f: json.dump(doc, f, indent=1)
PY
best() { # best wall time (seconds) of five runs of "$@"
    python3 - "$@" <<'PY'
import subprocess, sys, time
best = 1e9
for _ in range(5):
    start = time.perf_counter()
    subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
    best = min(best, time.perf_counter() - start)
print(f"{best:.4f}")
PY
}
rss() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
report() { # name, file, target seconds, budget seconds
    local time floor
    "$livery" tokens check "$work/$2" > "$work/out.txt" || { cat "$work/out.txt"; exit 1; }
    time=$(best "$livery" tokens check "$work/$2")
    floor=$(best jq empty "$work/$2")
    python3 - "$1" "$time" "$floor" "$3" "$4" "$(rss "$livery" tokens check "$work/$2")" "$(tail -1 "$work/out.txt")" <<'PY'
import sys
name, t, floor, target, budget, rss, summary = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6]), sys.argv[7]
print(f"{name}: {t*1000:.1f} ms ({summary}); floor jq empty {floor*1000:.1f} ms, {t/floor:.2f}x the floor; "
      f"target {target*1000:.0f} ms: {'met' if t <= target else 'MISSED'} ({t/target:.2f}x); "
      f"Style Dictionary budget {budget*1000:.0f} ms: {budget/t:.1f}x inside; peak RSS {rss/1024:.0f} MB")
PY
}
report "A. 9,000 tokens, 6,000 references" a.tokens.json 0.05 0.5
report "B. 30,000 tokens, 29,700 references chained 100 deep" b.tokens.json 0.5 5
