#!/usr/bin/env bash
# Benchmark: signing with keys held in a PKCS#11 token (SoftHSM2) against key files, in one run on
# the same corpus (docs/keys.md#what-an-hsm-costs). Every tenant gets real keys first (`livery keys
# init`): file keys in one key store, and in the other the same file root key with targets, snapshot
# and timestamp in the token (one key per role shared by all tenants: the cost per signature is the
# same as with a key per tenant, and 603 keys would only slow the setup). Reports:
#   - the full build of the 201-tenant corpus (scripts/bench-corpus.py) with each store, best of 3
#     into an empty output (target: the HSM build at most 1.3x the file-key build), and of its 200
#     small tenants alone, where signing is a larger share;
#   - `livery timestamp refresh` of all 201 tenants (signing and little else), best of 3 each.
# Usage: scripts/bench-keys.sh [livery binary]
set -euo pipefail
livery=$(realpath "${1:-.build/release/livery}")
here="$(cd "$(dirname "$0")" && pwd)"
module=/usr/lib/softhsm/libsofthsm2.so
[ -e "$module" ] || { echo "bench-keys: SoftHSM2 is not installed (make test-deps)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
python3 "$here/bench-corpus.py"
mkdir -p hsm/tokens
printf "directories.tokendir = %s/hsm/tokens\nobjectstore.backend = file\nlog.level = ERROR\n" "$work" > hsm/softhsm2.conf
export SOFTHSM2_CONF="$work/hsm/softhsm2.conf" LIVERY_BENCH_PIN=1234
softhsm2-util --init-token --free --label bench --pin 1234 --so-pin 5678 >/dev/null
for role in targets snapshot timestamp; do
    pkcs11-tool --module "$module" --token-label bench --login --pin 1234 --keypairgen --key-type EC:edwards25519 --label "$role" >/dev/null 2>&1
done
uri() { echo "pkcs11:token=bench;object=$1?module-path=$module&pin-source=env:LIVERY_BENCH_PIN"; }
tenants=$(ls Tenants)
setup_start=$(date +%s.%N)
for t in $tenants; do
    "$livery" keys init "$t" --keys files >/dev/null
    "$livery" keys init "$t" --keys hsm --key "targets=$(uri targets)" --key "snapshot=$(uri snapshot)" --key "timestamp=$(uri timestamp)" >/dev/null
done
setup_end=$(date +%s.%N)
# The 200 small tenants alone, as a workspace of their own.
mkdir -p small && cp -r Tenants/t* small/
seconds() { local start end; sync; start=$(date +%s.%N); "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; "$@" >&2 || true; exit 1; }; end=$(date +%s.%N); python3 -c "print($end - $start)"; }
best3() { local best=999999 t; for _ in 1 2 3; do t=$(seconds "$@"); best=$(python3 -c "print(min($best, $t))"); done; echo "$best"; }
# A full build into an empty output folder, best of 3; the folder is emptied outside the timing.
fresh3() { local out=$1 best=999999 t; shift; for _ in 1 2 3; do rm -rf "$out"; sync; t=$(seconds "$@" --output "$out"); best=$(python3 -c "print(min($best, $t))"); done; echo "$best"; }
# Warm the page cache and the content-independent parts of a build once.
"$livery" build Tenants --output warm --keys files >/dev/null 2>&1; rm -rf warm
small_files=$(fresh3 out-sf "$livery" build small --keys files)
small_hsm=$(fresh3 out-sh "$livery" build small --keys hsm)
full_files=$(fresh3 out-files "$livery" build Tenants --keys files)
full_hsm=$(fresh3 out-hsm "$livery" build Tenants --keys hsm)
"$livery" verify --output out-hsm >/dev/null
refresh_files=$(best3 "$livery" timestamp refresh --output out-files --keys files)
refresh_hsm=$(best3 "$livery" timestamp refresh --output out-hsm --keys hsm)
python3 - "$setup_start" "$setup_end" "$small_files" "$small_hsm" "$full_files" "$full_hsm" "$refresh_files" "$refresh_hsm" <<'PY'
import sys
s0, s1, sf, sh, ff, fh, rf, rh = map(float, sys.argv[1:])
print(f"keys init of 201 tenants, both stores:   {s1 - s0:6.2f} s")
print(f"build, 200 small tenants, file keys:     {sf:6.2f} s")
print(f"build, 200 small tenants, HSM keys:      {sh:6.2f} s  ({sh / sf:.2f}x the file-key build)")
print(f"build, all 201 tenants, file keys:       {ff:6.2f} s")
print(f"build, all 201 tenants, HSM keys:        {fh:6.2f} s  ({fh / ff:.2f}x the file-key build; target <= 1.3x)")
print(f"timestamp refresh, 201 tenants, files:   {rf:6.2f} s  ({rf / 201 * 1000:.2f} ms per tenant)")
print(f"timestamp refresh, 201 tenants, HSM:     {rh:6.2f} s  ({rh / 201 * 1000:.2f} ms per tenant, {rh / rf:.2f}x)")
PY
