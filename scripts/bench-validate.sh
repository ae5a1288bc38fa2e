#!/usr/bin/env bash
# Benchmark: `livery validate` on a synthetic workspace of 200 tenants × 3 locales × 1,000 keys.
# Prints the time against a floor measured in the same run on the same bytes (reading every
# manifest byte once with cat), and the peak memory. Usage: scripts/bench-validate.sh [livery binary]
set -euo pipefail
livery=${1:-.build/release/livery}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import os, sys
root = os.path.join(sys.argv[1], "Tenants")
for t in range(200):
    d = os.path.join(root, f"t{t:03d}")
    os.makedirs(os.path.join(d, "locales"))
    with open(os.path.join(d, "tenant.yaml"), "w") as f:
        f.write(f"id: t{t:03d}\nkind: brand\nname: Tenant {t}\nlocales:\n  default: en\n  supported: [en, fr, de]\n"
                "navigation:\n  tabs:\n    - {id: home, icon: house, label: k0}\n    - {id: me, icon: person, label: k1}\n")
    for locale in ("en", "fr", "de"):
        with open(os.path.join(d, "locales", f"{locale}.yaml"), "w") as f:
            # Each locale's plural categories as CLDR gives them (French also has `many`).
            many = " many {# items}" if locale == "fr" else ""
            for k in range(1000):
                f.write(f'k{k}: "{locale} message {k}: {{count, plural, one {{# item}}{many} other {{# items}}}}"\n')
PY
bytes=$(du -sb "$work/Tenants" | cut -f1)
best() { # best wall time of three runs of "$@", in seconds
    local best=999999
    for _ in 1 2 3; do
        local start end
        start=$(date +%s.%N); "$@" >/dev/null; end=$(date +%s.%N)
        best=$(python3 -c "print(min($best, $end - $start))")
    done
    echo "$best"
}
floor=$(best sh -c "find '$work/Tenants' -type f -exec cat {} + > /dev/null")
run=$(best "$livery" validate "$work/Tenants")
rss=$(/usr/bin/time -f "%M" "$livery" validate "$work/Tenants" 2>&1 >/dev/null | tail -1)
python3 - "$bytes" "$floor" "$run" "$rss" <<'PY'
import sys
size, floor, run, rss = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
print(f"corpus: 200 tenants, 600,000 messages, {size / 1e6:.1f} MB")
print(f"floor (cat every byte once): {floor:.3f} s")
print(f"livery validate:             {run:.3f} s  ({size / 1e6 / run:.0f} MB/s, {run / floor:.1f}x the floor, {run / 200 * 1000:.1f} ms per tenant)")
print(f"peak RSS:                    {rss / 1024:.0f} MB")
PY
