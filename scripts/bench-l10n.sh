#!/usr/bin/env bash
# Benchmark: `livery validate` with the localization rules on 200 tenants × 3 locales (en, ru, fr)
# × 2,000 keys, a quarter of them plural or select messages with arguments, end to end (load,
# resolve, every rule).
#
# The issue's floor, measured in the same run: reading and JSON-parsing the same files with no
# checks. So the corpus's locale bundles are JSON files (`locales/en.json`; Livery reads `.json`
# bundles like `.yaml` ones), and the floor is Python's json module (C-accelerated) reading them.
# It is the least any tool must do to look at every message once: read the bytes and turn them
# into strings. Livery does more on top (positions for every value, the ICU parse of every
# message and every rule), so the ratio says what the checks cost. Both use the machine as they
# can: Python one core, Livery every core. Target: within 3x of the floor.
#
# The same messages are also written as YAML bundles, the format creators usually write, and
# checked too: that figure is reported against the same floor (libyaml's parse alone costs more
# than the JSON floor), but the target is the issue's, on the JSON files.
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
    y = os.path.join(root, "TenantsYAML", f"t{t:03d}")
    for folder in (d, y):
        os.makedirs(os.path.join(folder, "locales"))
        with open(os.path.join(folder, "tenant.yaml"), "w") as f:
            f.write(f"id: t{t:03d}\nkind: brand\nname: Tenant {t}\nlocales:\n  default: en\n  supported: [en, ru, fr]\n"
                    "navigation:\n  tabs:\n    - {id: home, icon: house, label: k1}\n    - {id: me, icon: person, label: k3}\n")
    for locale in ("en", "ru", "fr"):
        messages = {f"k{k}": message(locale, k) for k in range(2000)}
        with open(os.path.join(d, "locales", f"{locale}.json"), "w") as f:
            json.dump(messages, f, ensure_ascii=False, indent=0)
        with open(os.path.join(y, "locales", f"{locale}.yaml"), "w") as f:
            for key, text in messages.items():
                f.write(f"{key}: {json.dumps(text, ensure_ascii=False)}\n")
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
for path in glob.glob(sys.argv[1] + '/Tenants/*/locales/*.json'):
    with open(path, encoding='utf-8') as f:
        n += len(json.load(f))
assert n == 1200000, n
" "$work")
# Exit status 0: the corpus is clean, so every rule ran to the end and found nothing.
run=$(best "$livery" validate --strict "$work/Tenants")
run_yaml=$(best "$livery" validate --strict "$work/TenantsYAML")
# CPU seconds (user + system) as well: unlike wall time they do not grow when the machine is busy.
read -r rss cpu < <(/usr/bin/time -f "%M %U %S" "$livery" validate "$work/Tenants" 2>&1 >/dev/null | tail -1 | awk '{print $1, $2 + $3}')
floor_cpu=$(/usr/bin/time -f "%U %S" python3 -c "
import glob, json, sys
for path in glob.glob(sys.argv[1] + '/Tenants/*/locales/*.json'):
    with open(path, encoding='utf-8') as f: json.load(f)
" "$work" 2>&1 | tail -1 | awk '{print $1 + $2}')
python3 - "$(du -sb "$work/Tenants" | cut -f1)" "$floor" "$run" "$rss" "$floor_cpu" "$cpu" "$run_yaml" <<'PY'
import sys
size, floor, run, rss = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
floor_cpu, cpu, run_yaml = float(sys.argv[5]), float(sys.argv[6]), float(sys.argv[7])
print(f"corpus: 200 tenants x 3 locales x 2,000 keys = 1,200,000 messages (a quarter plural or select), {size / 1e6:.1f} MB of JSON bundles")
print(f"floor (Python json.load of the same files):   {floor:.3f} s")
verdict = "met" if run <= 3 * floor else "MISSED"
print(f"livery validate, every rule:                  {run:.3f} s  ({run / floor:.2f}x the floor, {run / 200 * 1000:.1f} ms per tenant); target 3x: {verdict}")
print(f"CPU time (user + system): floor {floor_cpu:.2f} s, livery {cpu:.2f} s ({cpu / max(floor_cpu, 0.001):.1f}x)")
print(f"peak RSS:                                     {rss / 1024:.0f} MB")
print(f"the same messages as YAML bundles:            {run_yaml:.3f} s  ({run_yaml / floor:.2f}x the JSON floor; libyaml's parse is slower than JSON's)")
PY
