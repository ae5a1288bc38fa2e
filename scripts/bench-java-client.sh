#!/usr/bin/env bash
# Benchmark: the Java client (Android/, com.livery.client.cli.Fetch on the JVM) against `livery fetch` and python-tuf's
# tuf.ngclient.Updater, in one run, on the same repository served by one `livery serve` on 127.0.0.1.
#
#   1. Cold install: sonic-walkscape (copied from Tenants/), empty cache: the essential bundles, French, both tours
#      with their French audio, the protected tour through a voucher. python-tuf refreshes and downloads the same
#      signed targets (no voucher server, no decryption, no extraction: it is a TUF library, not an installer), with
#      the targets' bytes compared against the Java client's downloads.
#   2. Update by delta: one French audio file changed, release 2; each client updates its cache from release 1.
#
# Each client is a fresh process per run (as an app launch), five rounds alternating the clients; time and peak
# RSS from GNU time (-f '%e %M'), median printed, with ratios against livery fetch. The floor measured in the same
# run: each runtime's start with nothing done (`livery version`, `java -version`, Python importing tuf.ngclient).
# Usage: scripts/bench-java-client.sh [livery binary]   (python-tuf from .venv-test: make test-venv)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
livery=$(realpath "${1:-$repo/.build/release/livery}")
python_tuf=${PYTHON_TUF:-$repo/.venv-test/bin/python}
"$python_tuf" -c "import tuf.ngclient" 2>/dev/null || { echo "bench-java-client: python-tuf is missing in $python_tuf (run make test-venv)" >&2; exit 1; }
"$repo/Android/build.sh" compile >/dev/null
java_fetch="$repo/Android/scripts/livery-fetch-java"
. "$repo/scripts/bench-serve.sh"
cd "$work"
mkdir Tenants && cp -R "$repo/Tenants/sonic-walkscape" Tenants/
"$livery" build >/dev/null 2>&1
root=Output/sonic-walkscape/metadata/1.root.json
start_serve --content-keys .livery-keys
codes=$("$livery" vouchers issue sonic-walkscape --tour rome-trastevere --devices 100 --count 20 2>/dev/null)
selection=(--locale fr --tour florence-renaissance --tour rome-trastevere)

cat > tuf_fetch.py <<'PY'
import sys, os
from tuf.ngclient import Updater
server, root, cache, targets = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
os.makedirs(cache + "/metadata", exist_ok=True); os.makedirs(cache + "/targets", exist_ok=True)
u = Updater(cache + "/metadata", server + "/sonic-walkscape/metadata/", cache + "/targets", server + "/sonic-walkscape/targets/",
            bootstrap=open(root, "rb").read())
u.refresh()
for name in targets:
    info = u.get_targetinfo(name)
    if info is None: raise SystemExit(f"no target {name}")
    if not name.startswith("tour.rome-trastevere"): u.download_target(info)  # protected targets need a token: python-tuf has none
PY

# measure NAME COMMAND…: appends "seconds kilobytes" to NAME.times
measure() { local name=$1; shift; /usr/bin/time -f "%e %M" -o time.out "$@" >/dev/null 2>>errors.log; cat time.out >> "$name.times"; }
median() { sort -n -k"$2" "$1.times" | awk -v k="$2" '{a[NR]=$k} END {print a[int((NR+1)/2)]}'; }

round=0
for code in $codes; do
    round=$((round + 1)); [ "$round" -le 5 ] || break
    rm -rf c-swift c-java c-tuf
    measure floor-livery "$livery" version
    measure floor-java java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -version
    measure floor-python "$python_tuf" -c "import tuf.ngclient"
    measure cold-livery "$livery" fetch sonic-walkscape --server "$server" --cache c-swift --root "$root" "${selection[@]}" --voucher "$code"
    measure cold-java "$java_fetch" sonic-walkscape --server "$server" --cache c-java --root "$root" "${selection[@]}" --voucher "$code"
    wanted=$(sed -n 's/.*downloaded [0-9]* bundles (\(.*\)), reused.*/\1/p' <("$java_fetch" sonic-walkscape --server "$server" --cache c-probe-$round --root "$root" "${selection[@]}" --voucher "$code") | tr -d ',')
    targets=(download-manifest.json); for b in $wanted; do targets+=("$b.zip"); done
    measure cold-python-tuf "$python_tuf" tuf_fetch.py "$server" "$root" c-tuf "${targets[@]}"
    # The bytes python-tuf verified are the bytes the Java client verified.
    for f in c-tuf/targets/*; do name=$(basename "$f"); sha=$(sha256sum "$f" | cut -c1-64)
        [ "$name" = download-manifest.json ] && continue
        [ -f "c-java/sonic-walkscape/downloads/$sha" ] || { echo "bench-java-client: python-tuf's $name is not in the Java client's downloads" >&2; exit 1; }; done
    cp -R c-swift "d-swift-$round"; cp -R c-java "d-java-$round"
done
diff -r c-swift/sonic-walkscape/current/ c-java/sonic-walkscape/current/ >/dev/null || { echo "bench-java-client: the installed trees differ" >&2; exit 1; }

audio=Tenants/sonic-walkscape/tours/florence-renaissance/audio
cp "$audio/it/03-signoria.mp3" "$audio/fr/03-signoria.mp3"
"$livery" build >/dev/null 2>&1
for round in 1 2 3 4 5; do
    measure delta-livery "$livery" fetch sonic-walkscape --server "$server" --cache "d-swift-$round" "${selection[@]}"
    measure delta-java "$java_fetch" sonic-walkscape --server "$server" --cache "d-java-$round" "${selection[@]}"
done
diff -r d-swift-1/sonic-walkscape/current/ d-java-1/sonic-walkscape/current/ >/dev/null || { echo "bench-java-client: the updated trees differ" >&2; exit 1; }

row() { printf "%-34s %8s s %8s MB\n" "$1" "$(median "$2" 1)" "$(awk -v k="$(median "$2" 2)" 'BEGIN {printf "%.1f", k / 1024}')"; }
ratio() { awk -v a="$(median "$1" "$3")" -v b="$(median "$2" "$3")" 'BEGIN {printf "%.2f", a / b}'; }
echo "Java client vs livery fetch vs python-tuf (median of 5; time, peak RSS)"
row "floor: livery version" floor-livery; row "floor: java -version" floor-java; row "floor: python import tuf" floor-python
row "cold install: livery fetch" cold-livery; row "cold install: Java client" cold-java; row "cold refresh+download: python-tuf" cold-python-tuf
row "delta update: livery fetch" delta-livery; row "delta update: Java client" delta-java
echo "ratios Java / livery fetch: cold time $(ratio cold-java cold-livery 1), cold RSS $(ratio cold-java cold-livery 2), delta time $(ratio delta-java delta-livery 1), delta RSS $(ratio delta-java delta-livery 2)"
echo "ratios Java / python-tuf (python-tuf does less: no vouchers, decryption or extraction): cold time $(ratio cold-java cold-python-tuf 1), RSS $(ratio cold-java cold-python-tuf 2)"
