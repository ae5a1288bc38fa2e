#!/usr/bin/env bash
# Benchmark: `livery validate` with the localization rules on 200 tenants × 3 locales (en, ru, fr)
# × 2,000 keys, a quarter of them plural or select messages with arguments, end to end (load,
# resolve, every rule).
#
# The floor, measured in the same run: the same messages written as JSON files (one per bundle)
# and read and parsed by Python's json module (C-accelerated), with no checks. It is the least any
# tool must do to look at every message once: read the bytes and turn them into strings. Livery
# does more on top (YAML rather than JSON, positions, the ICU parse of every message and every rule),
# so the ratio says what the checks cost. Both use the machine as they can: Python one core,
# Livery every core. Target: within 3x of the floor.
# Usage: scripts/bench-l10n.sh [livery binary]
set -euo pipefail
livery=${1:-.build/release/livery}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import json, os, sys
root = sys.argv[1]
words = {
    "en": ("session", "sessions", "Hello", "Your booking"),
    "ru": ("занятие", "занятия", "Привет", "Ваша запись"),
    "fr": ("séance", "séances", "Bonjour", "Votre réservation"),
}
def message(locale, k):
    one, many, hello, booking = words[locale]
    kind = k % 8
    if kind == 0:
        if locale == "ru":
            return f"{{count, plural, =0 {{Нет занятий}} one {{# {one}}} few {{# {many}}} many {{# занятий}} other {{# {many}}}}} №{k}"
        if locale == "fr":
            return f"{{count, plural, =0 {{Aucune séance}} one {{# {one}}} many {{# de {many}}} other {{# {many}}}}} n°{k}"
        return f"{{count, plural, =0 {{No sessions}} one {{# {one}}} other {{# {many}}}}} no. {k}"
    if kind == 4:
        return f"{{role, select, doctor {{{booking} {k} (doctor)}} patient {{{booking} {k}, {{name}}}} other {{{booking} {k}}}}}"
    if kind % 2:
        return f"{hello}, {{name}}! {booking} {k} is on {{date, date, medium}}."
    return f"{booking} {k}: <b>{hello}</b>"
for t in range(200):
    d = os.path.join(root, "Tenants", f"t{t:03d}")
    j = os.path.join(root, "json", f"t{t:03d}")
    os.makedirs(os.path.join(d, "locales"))
    os.makedirs(j)
    with open(os.path.join(d, "tenant.yaml"), "w") as f:
        f.write(f"id: t{t:03d}\nkind: brand\nname: Tenant {t}\nlocales:\n  default: en\n  supported: [en, ru, fr]\n"
                "navigation:\n  tabs:\n    - {id: home, icon: house, label: k1}\n    - {id: me, icon: person, label: k3}\n")
    for locale in ("en", "ru", "fr"):
        messages = {f"k{k}": message(locale, k) for k in range(2000)}
        with open(os.path.join(d, "locales", f"{locale}.yaml"), "w") as f:
            for key, text in messages.items():
                f.write(f"{key}: {json.dumps(text, ensure_ascii=False)}\n")
        with open(os.path.join(j, f"{locale}.json"), "w") as f:
            json.dump(messages, f, ensure_ascii=False, indent=0)
PY
best() { # best wall time of three runs of "$@", in seconds
    local best=999999
    for _ in 1 2 3; do
        local start end
        start=$(date +%s.%N); "$@" >/dev/null; end=$(date +%s.%N)
        best=$(python3 -c "print(min($best, $end - $start))")
    done
    echo "$best"
}
floor=$(best python3 -c "
import glob, json, sys
n = 0
for path in glob.glob(sys.argv[1] + '/json/*/*.json'):
    with open(path, encoding='utf-8') as f:
        n += len(json.load(f))
assert n == 1200000, n
" "$work")
# Exit status 0: the corpus is clean, so every rule ran to the end and found nothing.
run=$(best "$livery" validate --strict "$work/Tenants")
# CPU seconds (user + system) as well: unlike wall time they do not grow when the machine is busy.
read -r rss cpu < <(/usr/bin/time -f "%M %U %S" "$livery" validate "$work/Tenants" 2>&1 >/dev/null | tail -1 | awk '{print $1, $2 + $3}')
floor_cpu=$(/usr/bin/time -f "%U %S" python3 -c "
import glob, json, sys
for path in glob.glob(sys.argv[1] + '/json/*/*.json'):
    with open(path, encoding='utf-8') as f: json.load(f)
" "$work" 2>&1 | tail -1 | awk '{print $1 + $2}')
python3 - "$(du -sb "$work/Tenants" | cut -f1)" "$floor" "$run" "$rss" "$floor_cpu" "$cpu" <<'PY'
import sys
size, floor, run, rss = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
floor_cpu, cpu = float(sys.argv[5]), float(sys.argv[6])
print(f"corpus: 200 tenants x 3 locales x 2,000 keys = 1,200,000 messages (a quarter plural or select), {size / 1e6:.1f} MB of YAML")
print(f"floor (Python json.load of the same messages): {floor:.3f} s")
print(f"livery validate, every rule:                  {run:.3f} s  ({run / floor:.1f}x the floor, {run / 200 * 1000:.1f} ms per tenant)")
print(f"CPU time (user + system): floor {floor_cpu:.2f} s, livery {cpu:.2f} s ({cpu / max(floor_cpu, 0.001):.1f}x)")
print(f"peak RSS:                                     {rss / 1024:.0f} MB")
PY
