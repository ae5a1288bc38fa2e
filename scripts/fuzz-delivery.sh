#!/usr/bin/env bash
# Fuzzes the delivery half's parsers of untrusted bytes with libFuzzer, each for a bounded time: an object
# store's XML answers (s3-xml), AWS config files (aws-ini), a voucher server's redemption answer
# (redemption-answer), the download manifest (download-manifest), a bundle's file index (file-index), a protected bundle's ciphertext
# (encrypted-bundle), a downloaded zip bundle as the client extracts it (zip-bundle), and, from the signing side, a key
# file (key-file), an audit log (audit-log) and a PKCS#11 key URI (pkcs11-uri); and an image header as the asset
# check probes it (image-header), a subtitle file (subtitles) and an MP3 or WAV file as the media probe walks it
# (audio-frames), an MP4 or QuickTime box tree (mp4-boxes), and what an editor writes to `livery lsp` (lsp-framing). Each is a target of the same harness as the release JSON parser
# (Sources/livery-json-fuzz/DeliveryFuzz.swift says what each must hold), chosen with LIVERY_FUZZ_TARGET.
#
# Same build as scripts/fuzz-release-json.sh (.build-fuzz, debug, --sanitize=fuzzer). Seeds come from the
# ordinary build's harness (`livery-json-fuzz seeds`); each target's corpus grows in .build-fuzz/corpus-<target>,
# crashes land in .build-fuzz/crashes/<target>-… and replay with
# `.build/debug/livery-json-fuzz replay --target <target> FILE`.
# Usage: scripts/fuzz-delivery.sh [SECONDS per target] [extra libFuzzer flags…]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
swift=${SWIFT:-swift}
scratch=.build-fuzz

harness=.build/debug/livery-json-fuzz
[[ -x "$harness" ]] || "$swift" build --product livery-json-fuzz
LIVERY_FUZZ=1 "$swift" build -c debug --scratch-path "$scratch" --product livery-json-fuzz --sanitize=fuzzer
fuzzer="$scratch/debug/livery-json-fuzz"

rm -rf "$scratch/delivery-seeds"
"$harness" seeds "$scratch/delivery-seeds"
mkdir -p "$scratch/crashes"
for target in s3-xml aws-ini redemption-answer download-manifest file-index encrypted-bundle zip-bundle key-file audit-log pkcs11-uri image-header subtitles audio-frames mp4-boxes lsp-framing; do
    mkdir -p "$scratch/corpus-$target"
    echo "fuzzing $target for ${seconds}s (corpus: $(ls "$scratch/corpus-$target" | wc -l) inputs)"
    LIVERY_FUZZ_TARGET=$target SWIFT_BACKTRACE=enable=no "$fuzzer" "$scratch/corpus-$target" "$scratch/delivery-seeds/$target" \
        -max_total_time="$seconds" -max_len=65536 -artifact_prefix="$scratch/crashes/$target-" -print_final_stats=1 "$@"
done
