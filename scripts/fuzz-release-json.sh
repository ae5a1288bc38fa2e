#!/usr/bin/env bash
# Fuzzes the release format's strict JSON parser (`ReleaseJSONParser`, behind `JSONValue.parse`) with libFuzzer
# for a bounded time: each input must be accepted or refused without a crash, and an accepted value must read
# back the same from JSONValue's writer and from CanonicalJSON (Sources/livery-json-fuzz).
#
# The fuzz build (LIVERY_FUZZ=1, `--sanitize=fuzzer`) lives in its own scratch path, .build-fuzz, apart from the
# normal build. It is a debug build: Swift then checks every unsafe-buffer index, which is what AddressSanitizer
# would add (and Swift 6.3's `-sanitize=fuzzer -sanitize=address`, in that order, drops the coverage instrumentation
# libFuzzer needs, so the two are not combined). Seeds: every JSON file of a sample release built from Tenants/ with the
# debug `livery` (or $LIVERY): TUF metadata, download manifests, release pointers. The corpus grows across runs in
# .build-fuzz/corpus; a crashing input lands in .build-fuzz/crashes/ and replays without the sanitizer through
# `.build/debug/livery-json-fuzz replay FILE`. Usage: scripts/fuzz-release-json.sh [SECONDS] [extra libFuzzer flags…]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
seconds=${1:-60}
shift || true
swift=${SWIFT:-swift}
scratch=.build-fuzz

# Any debug `livery` builds the seed release; building one only if there is none keeps the test build's objects.
livery=${LIVERY:-.build/debug/livery}
[[ -x "$livery" ]] || "$swift" build --product livery
livery=$(realpath "$livery")
LIVERY_FUZZ=1 "$swift" build -c debug --scratch-path "$scratch" --product livery-json-fuzz --sanitize=fuzzer
fuzzer="$scratch/debug/livery-json-fuzz"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R Tenants "$work/"
(cd "$work" && "$livery" build Tenants --output Output > build.log 2>&1) || { cat "$work/build.log"; exit 1; }
# Seeds are this run's (each build signs with new keys); the corpus keeps what earlier runs found.
rm -rf "$scratch/seeds"
mkdir -p "$scratch/seeds" "$scratch/corpus" "$scratch/crashes"
find "$work/Output" -name '.livery*' -prune -o -name '*.json' -type f -print | while read -r file; do
    cp "$file" "$scratch/seeds/$(sha256sum "$file" | cut -c1-16).json"
done
# And small documents over the whole grammar, which mutate into interesting cases far sooner than metadata does.
i=0
while IFS= read -r line; do
    i=$((i + 1))
    printf '%s' "$line" > "$scratch/seeds/grammar-$i.json"
done <<'JSON'
{"signed":{"_type":"timestamp","version":1,"meta":{"snapshot.json":{"version":1}}},"signatures":[{"keyid":"ab","sig":"cd"}]}
[1,-2,3.5e-2,0,-0,1E+3,true,false,null]
{"a":"\"\\\/\b\f\n\r\t\u00e9\uD83D\uDE00","b":[],"c":{}}
["é","中","😀","é"]
[[[[{"k":[{}]}]]]]
" x "
9223372036854775807
JSON
echo "fuzzing for ${seconds}s with $(ls "$scratch/seeds" | wc -l) seed files (corpus: $(ls "$scratch/corpus" | wc -l) inputs)"
# Large seeds (a targets file of many kilobytes) are kept whole; new inputs up to 64 KiB.
SWIFT_BACKTRACE=enable=no "$fuzzer" "$scratch/corpus" "$scratch/seeds" \
    -max_total_time="$seconds" -max_len=65536 -dict=scripts/fuzz-release-json.dict \
    -artifact_prefix="$scratch/crashes/" -print_final_stats=1 "$@"
