#!/usr/bin/env bash
# Benchmark: voucher redemptions (POST /<tenant>/vouchers/redeem, each a fresh one-device code, so
# every request writes) through `livery serve`, on
#   1. SQLite, one instance (the default database file), and
#   2. PostgreSQL, two instances sharing one database (a throw-away PostgreSQL 15 cluster in a
#      temporary folder, Debian's `postgresql`), requests alternating between them.
# A Python load generator (threads, one keep-alive http.client connection each) prints redemptions
# per second and p50/p99 latency for each, the PostgreSQL/SQLite ratio, and the floor measured in the
# same run: the same POST with a device id the endpoint refuses (400) before any database work, so
# HTTP, routing and the JSON body without the voucher store.
# Usage: scripts/bench-vouchers.sh [livery binary] (release build; run as root or as a user that can
# run initdb). REQUESTS and THREADS override the load (default 2000 redemptions, 8 threads).
set -euo pipefail
livery=$(realpath "${1:-.build/release/livery}")
requests=${REQUESTS:-2000}
threads=${THREADS:-8}
bin=/usr/lib/postgresql/15/bin
[[ -x $bin/initdb ]] || { echo "PostgreSQL 15 is not installed ($bin/initdb): run make test-deps" >&2; exit 1; }

work=$(mktemp -d /tmp/livery-bench-vouchers.XXXXXX)
# The postgres user must reach $work/pg (traverse only; mktemp makes the folder 0700).
chmod 711 "$work"
as_owner() { if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
# Servers started inside $(…) (a subshell) record their PIDs in a file, not in a variable of this shell.
cleanup() {
    local pid
    if [[ -f $work/pids ]]; then
        while read -r pid; do kill -TERM "$pid" 2>/dev/null || true; done < "$work/pids"
        while read -r pid; do while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done; done < "$work/pids"
    fi
    [[ -d $work/pg/data ]] && as_owner "$bin/pg_ctl" -D "$work/pg/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# A built copy of the sample tenants (sonic-walkscape's rome-trastevere tour is protected).
cp -R "$(dirname "$0")/../Tenants" "$work/Tenants"
(cd "$work" && "$livery" build Tenants --output Output >/dev/null 2>&1)

# serve <log> [--vouchers URL]: starts `livery serve` on a free port, prints the port.
serve() {
    local log=$1; shift
    "$livery" serve --output "$work/Output" --port 0 "$@" >"$log" 2>&1 &
    echo $! >> "$work/pids"
    for _ in $(seq 500); do
        if grep -q 'listening on' "$log"; then sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$log" | head -1; return; fi
        sleep 0.02
    done
    echo "livery serve did not start: $(cat "$log")" >&2; exit 1
}

# issue <file> [--vouchers URL]: REQUESTS one-device codes into <file>.
issue() {
    local file=$1; shift
    (cd "$work" && "$livery" vouchers issue sonic-walkscape --tour rome-trastevere --count "$requests" --devices 1 "$@" >"$file" 2>/dev/null)
}

# load <name> <kind: redeem|floor> <codes file or -> <port>...: prints one JSON line of results.
load() {
    python3 - "$@" "$threads" <<'PY'
import http.client, json, sys, threading, time
name, kind, codes_file, *ports, threads = sys.argv[1:]
threads = int(threads)
codes = open(codes_file).read().split() if codes_file != "-" else ["AAAA-AAAA-AAAA-AAAA-AAAA"] * 4000
lock, latencies, statuses = threading.Lock(), [], {}
queue = list(enumerate(codes))
def worker(number):
    connection = http.client.HTTPConnection("127.0.0.1", int(ports[number % len(ports)]), timeout=30)
    while True:
        with lock:
            if not queue: return
            index, code = queue.pop()
        # The floor's empty device id is refused (400) before the store is asked.
        body = json.dumps({"code": code, "device": f"device-{index}" if kind == "redeem" else ""})
        start = time.perf_counter()
        connection.request("POST", "/sonic-walkscape/vouchers/redeem", body, {"Content-Type": "application/json"})
        response = connection.getresponse(); response.read()
        elapsed = time.perf_counter() - start
        with lock:
            latencies.append(elapsed); statuses[response.status] = statuses.get(response.status, 0) + 1
started = time.perf_counter()
workers = [threading.Thread(target=worker, args=(n,)) for n in range(threads)]
for w in workers: w.start()
for w in workers: w.join()
total = time.perf_counter() - started
latencies.sort()
pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
print(json.dumps({"name": name, "rate": len(latencies) / total, "p50": pick(0.50), "p99": pick(0.99), "statuses": statuses}))
PY
}

# 1. SQLite, one instance.
issue "$work/sqlite-codes.txt"
sqlite_port=$(serve "$work/serve-sqlite.log")
floor=$(load "floor: the same POST refused before the store (400)" floor - "$sqlite_port")
sqlite=$(load "SQLite, 1 instance" redeem "$work/sqlite-codes.txt" "$sqlite_port")

# 2. PostgreSQL, two instances on one database.
mkdir -p "$work/pg"
[[ $(id -u) -eq 0 ]] && chown postgres:postgres "$work/pg"
as_owner "$bin/initdb" -D "$work/pg/data" -A trust -U postgres --no-sync -E UTF8 --locale C >/dev/null
pg_port=$(free_port)
as_owner "$bin/pg_ctl" -D "$work/pg/data" -l "$work/pg/server.log" -w \
    -o "-k $work/pg -c listen_addresses=127.0.0.1 -p $pg_port -c max_connections=200" start >/dev/null
as_owner "$bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres livery
url="postgres://postgres@127.0.0.1:$pg_port/livery?sslmode=disable"
issue "$work/pg-codes.txt" --vouchers "$url"
port_a=$(serve "$work/serve-pg-a.log" --vouchers "$url")
port_b=$(serve "$work/serve-pg-b.log" --vouchers "$url")
postgres=$(load "PostgreSQL, 2 instances" redeem "$work/pg-codes.txt" "$port_a" "$port_b")

python3 - "$floor" "$sqlite" "$postgres" "$requests" "$threads" <<'PY'
import json, sys
floor, sqlite, postgres = (json.loads(a) for a in sys.argv[1:4])
requests, threads = sys.argv[4], sys.argv[5]
for r, status, count in ((floor, "400", 4000), (sqlite, "200", int(requests)), (postgres, "200", int(requests))):
    if r["statuses"] != {status: count}:
        sys.exit(f"{r['name']}: expected {count} answers {status}, got {r['statuses']}")
print(f"voucher redemptions ({requests} one-device codes, {threads} client threads, keep-alive):")
for r in (floor, sqlite, postgres):
    print(f"  {r['name']}: {r['rate']:.0f}/s, p50 {r['p50']:.2f} ms, p99 {r['p99']:.2f} ms; {r['rate'] / floor['rate']:.2f}x the floor's rate")
print(f"  PostgreSQL (2 instances) / SQLite (1 instance): {postgres['rate'] / sqlite['rate']:.2f}x the rate, "
      f"{postgres['p50'] / sqlite['p50']:.2f}x the p50, {postgres['p99'] / sqlite['p99']:.2f}x the p99")
print("  (release build, this machine's cores shared by the servers, PostgreSQL and the load generator)")
PY
