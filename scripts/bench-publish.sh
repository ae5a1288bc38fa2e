#!/usr/bin/env bash
# Benchmark: `livery publish` to a real S3-compatible store (Ceph RGW on 127.0.0.1, scripts/s3-server.sh),
# on the corpus of scripts/bench-build.sh (200 small tenants and one ~525 MB media tenant).
# Reports, in one run on the same bytes:
#   - publishing the media tenant's release against boto3 uploading the same files to the same store
#     (its default multipart transfer: 8 MB parts, 10 threads), throughput ratio (target >= 1x) and
#     livery's peak RSS (target < 100 MB);
#   - a no-change re-publish of all 201 tenants: uploads (target 0) and time (target < 2 s).
# Usage: scripts/bench-publish.sh [livery binary] [python with boto3]
set -euo pipefail
livery=$(realpath "${1:-.build/release/livery}")
python=$(realpath "${2:-.venv-test/bin/python}")
here="$(cd "$(dirname "$0")" && pwd)"
work=$(mktemp -d)
cleanup() { "$here/s3-server.sh" stop "$work/rgw" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
cd "$work"
python3 "$here/bench-corpus.py"
"$livery" build Tenants --output Output >/dev/null 2>&1
# Twelve copies of the media tenant are kept (warm-up, five rounds of two, the no-change bucket): 10 GiB of memory store.
S3_SERVER_PORT=0 S3_SERVER_BYTES=10737418240 "$here/s3-server.sh" start "$work/rgw" >/dev/null
. "$work/rgw/env"   # exports AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION
export AWS_CONFIG_FILE=/nonexistent AWS_SHARED_CREDENTIALS_FILE=/nonexistent
"$python" -c "
import boto3
s3 = boto3.client('s3')
for b in ['livery', 'warmup'] + [f'{who}-{n}' for who in ('boto3', 'livery') for n in range(1, 6)]: s3.create_bucket(Bucket=b)"
media_bytes=$(du -sb Output/media | cut -f1)
cat $(find Output/media -type f) > /dev/null

boto_upload() { # bucket
    "$python" - "$1" <<'PY'
import boto3, os, sys, time
from concurrent.futures import ThreadPoolExecutor
from boto3.s3.transfer import TransferConfig
s3 = boto3.client("s3")
files = [os.path.join(d, f) for d, _, fs in os.walk("Output/media") for f in fs]
start = time.time()
config = TransferConfig()  # boto3's defaults: multipart from 8 MB, 8 MB parts, 10 threads
with ThreadPoolExecutor(10) as pool:
    list(pool.map(lambda p: s3.upload_file(p, sys.argv[1], "raw/" + os.path.relpath(p, "Output"), Config=config), files))
print(time.time() - start)
PY
}
seconds() { local start end; start=$(date +%s.%N); "$@" >/dev/null 2>&1; end=$(date +%s.%N); python3 -c "print($end - $start)"; }

# Warm-up: one upload of the same bytes (the store allocates on first writes). Then five rounds,
# boto3 and livery alternating, each into a bucket of its own (nothing is deleted: Ceph frees deleted
# data only hours later, and its memory-backed OSD, sized for this, holds every copy). The store
# shares the machine's two cores, so single runs vary by 10 to 20 %: the best and the median of each count.
boto_upload warmup >/dev/null
boto_times=""; livery_times=""; livery_rss=0
for round in 1 2 3 4 5; do
    b=$(boto_upload "boto3-$round")
    t=$( { /usr/bin/time -f "%e %M" "$livery" publish media --output Output --to "s3://livery-$round/p" >/dev/null; } 2>&1 | tail -1)
    echo "round $round: boto3 ${b} s, livery ${t% *} s (peak RSS ${t#* } KB)" >&2
    boto_times="$boto_times $b"; livery_times="$livery_times ${t% *}"
    livery_rss=$(( ${t#* } > livery_rss ? ${t#* } : livery_rss ))
done

"$livery" publish --output Output --to s3://livery/p >/dev/null 2>&1   # every other tenant
again_out=$("$livery" publish --output Output --to s3://livery/p 2>/dev/null)
again=$(seconds "$livery" publish --output Output --to s3://livery/p)
python3 - "$media_bytes" "$boto_times" "$livery_times" "$livery_rss" "$again" "$again_out" <<'PY'
import statistics, sys
media, rss, again, out = int(sys.argv[1]), int(sys.argv[4]), float(sys.argv[5]), sys.argv[6]
botos, ourses = [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
boto, ours = min(botos), min(ourses)
mb = 1e6
print(f"store: Ceph RGW (memstore) on 127.0.0.1; media tenant release: {media / mb:.0f} MB")
print(f"boto3 upload_file x 10 threads, same files:  {boto:6.2f} s  ({media / mb / boto:.0f} MB/s), best of 5; median {statistics.median(botos):.2f} s")
print(f"livery publish, media tenant:                {ours:6.2f} s  ({media / mb / ours:.0f} MB/s), best of 5; median {statistics.median(ourses):.2f} s")
print(f"  throughput against boto3's: {boto / ours:.2f}x best to best, {statistics.median(botos) / statistics.median(ourses):.2f}x median to median (target >= 1x); "
      f"peak RSS {rss / 1024:.0f} MiB, the largest of 5 (target < 100 MB)")
print(f"no-change re-publish, all 201 tenants:       {again:6.2f} s  (target < 2 s): {out.strip()}")
PY
