#!/usr/bin/env bash
# Benchmark: how Livery scales with the number of tenants (issue 18; figures in docs/benchmarks.md).
# For 200 and 2,000 tenants (and 10,000 with BENCH_SCALE=full), each tenant 3 locales × 300 plural
# messages as scripts/bench-build.sh writes them, one table of time and peak RSS for `validate`, a full
# `build`, a no-change rebuild and a one-string-change rebuild, with the build/validate ratio measured
# in the same run on the same bytes (each the best of three runs), and throughput in tenants per second.
# Two corpora of each size: "shared", where every tenant has the same strings (as bench-build.sh writes
# them; a build makes their locale bundles' files once, GeneratedFileMemo), and "distinct", where each
# message names its tenant, so that no tenant shares a generated file or an archive with another.
# Usage: scripts/bench-scale.sh [livery binary]   (BENCH_SCALE=full adds the 10,000-tenant rows;
# BENCH_SIZES="200 2000" overrides the list, BENCH_STRINGS="shared" the corpora)
set -euo pipefail
livery=$(realpath "${1:-.build/release/livery}")
sizes=${BENCH_SIZES:-"200 2000"}
variants=${BENCH_STRINGS:-"shared distinct"}
[ "${BENCH_SCALE:-}" = full ] && sizes="$sizes 10000"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One measurement: wall seconds and peak RSS (KB) of "$@", from a synced page cache.
# (CPU seconds, user + system, are printed too: over wall time they say how many cores were used.)
measure() { sync; /usr/bin/time -f "%e %M %U %S" -o "$work/time" "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }; cat "$work/time"; }
# The fastest of a file of measurements (one per line, wall seconds first).
best() { sort -n -k1,1 "$@" | head -1; }
rows=()
for variant in $variants; do
for n in $sizes; do
    root="$work/$variant$n"
    python3 - "$root" "$n" "$variant" <<'PY'
import os, sys
root, count, distinct = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "distinct"
for t in range(count):
    d = os.path.join(root, "Tenants", f"t{t:05d}")
    os.makedirs(os.path.join(d, "locales"))
    with open(os.path.join(d, "tenant.yaml"), "w") as f:
        f.write(f"id: t{t:05d}\nkind: brand\nname: Tenant {t}\nlocales:\n  default: en\n  supported: [en, fr, de]\n"
                "navigation:\n  tabs:\n    - {id: home, icon: house, label: k0}\n    - {id: me, icon: person, label: k1}\n")
    for locale in ("en", "fr", "de"):
        many = " many {# items}" if locale == "fr" else ""  # French plurals also have `many` (CLDR)
        with open(os.path.join(d, "locales", f"{locale}.yaml"), "w") as f:
            of = f" of {t}" if distinct else ""
            f.write("".join(f'k{k}: "{locale} message {k}{of}: {{count, plural, one {{# item}}{many} other {{# items}}}}"\n' for k in range(300)))
PY
    cd "$root"
    find Tenants -type f -exec cat {} + > /dev/null   # warm the page cache
    # Best of three for validate and for the full build, the ratio's two sides measured alike (the peak RSS printed is
    # the highest of the three). Each full build is a new user's first: into an empty Output/ of its own, making each
    # tenant's development signing keys (the keys of the build before are moved aside, not deleted: see below).
    : > "$work/v" && : > "$work/b"
    for round in 1 2 3; do
        measure "$livery" validate Tenants >> "$work/v"
        [ "$round" = 1 ] || mv .livery-keys ".livery-keys.$round"
        measure "$livery" build Tenants --output "Output.$round" >> "$work/b"
    done
    mv Output.3 Output
    read -r v_s _ v_u v_sy < <(best "$work/v"); v_kb=$(sort -n -k2,2 "$work/v" | tail -1 | cut -d' ' -f2)
    read -r b_s _ b_u b_sy < <(best "$work/b"); b_kb=$(sort -n -k2,2 "$work/b" | tail -1 | cut -d' ' -f2)
    read -r n_s n_kb n_u n_sy < <(measure "$livery" build Tenants --output Output)
    sed -i 's/k150: "en message 150/k150: "en message changed 150/' Tenants/t00042/locales/en.yaml
    grep -q 'message changed 150' Tenants/t00042/locales/en.yaml || { echo "the one-string change did not apply" >&2; exit 1; }
    read -r o_s o_kb o_u o_sy < <(measure "$livery" build Tenants --output Output)
    rows+=("$variant $n $v_s $v_kb $b_s $b_kb $n_s $n_kb $o_s $o_kb $v_u $v_sy $b_u $b_sy")
    # Each corpus stays until the end (about 2 GB with the 10,000 row): on ext4 without a journal (this
    # machine's disk), a new inode is not taken from those freed in the last minute or more, and every
    # one skipped costs a read of the inode table, so deleting one corpus just before the next build
    # made that build's file creation several times slower than a user's.
    cd "$work"
done
done
python3 - "${rows[@]}" <<'PY'
import os, sys

def summary(line):
    """A target's figure: printed, and kept for `make bench`'s closing list (BENCH_SUMMARY)."""
    print(line)
    if os.environ.get("BENCH_SUMMARY"):
        with open(os.environ["BENCH_SUMMARY"], "a") as out: out.write(line + "\n")
print(f"scale: tenants × 3 locales × 300 plural messages, release build, {__import__('os').cpu_count()} cores")
print(f"{'strings':>8} | {'tenants':>8} | {'validate':>15} | {'full build':>15} | {'build/validate':>14} | {'tenants/s':>9} | {'no-change':>15} | {'one string':>15}")
base = {}
for row in sys.argv[1:]:
    variant, n, vs, vk, bs, bk, ns, nk, os_, ok, vu, vsy, bu, bsy = row.split()
    n = int(n); vs, bs, ns, os_ = map(float, (vs, bs, ns, os_)); vk, bk, nk, ok = (int(x) / 1024 for x in (vk, bk, nk, ok))
    rate = n / bs if bs else float("inf")
    if variant not in base: base[variant] = (vk, rate)
    cell = lambda s, mb: f"{s:6.2f} s {mb:4.0f} MB"
    print(f"{variant:>8} | {n:>8} | {cell(vs, vk)} | {cell(bs, bk)} | {bs / vs:13.1f}x | {rate:9.0f} | {cell(ns, nk)} | {cell(os_, ok)}")
    print(f"{'':>8}   {'':>8}   cores used: validate {(float(vu) + float(vsy)) / vs:.2f}, build {(float(bu) + float(bsy)) / bs:.2f}")
    summary(f"full build of {n:,} tenants, {variant} strings: {bs / vs:.1f}x validate ({bs:.2f} s / {vs:.2f} s; target <= 2.5x): {'met' if bs / vs <= 2.5 else 'MISSED'}")
    if n != 200:
        print(f"{'':>8}   {'':>8}   validate RSS {vk / base[variant][0]:.2f}x the first row (target <= 1.5x), build rate {rate / base[variant][1]:.2f}x (target >= 0.9x)")
PY
