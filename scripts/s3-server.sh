#!/usr/bin/env bash
# A throw-away S3-compatible object store for tests and benchmarks: a real Ceph RADOS Gateway
# (Debian's radosgw) on a single-node cluster (one monitor, one OSD with the in-memory object
# store), everything in one folder, nothing in /etc or /var, no systemd.
#
#   scripts/s3-server.sh start DIR   starts it on port 7480 (RGW's default; S3_SERVER_PORT=N for another,
#                                    0 for any free one); prints the `export AWS_…=…` lines Livery (and the
#                                    AWS tools) read, and writes the same to DIR/env: `eval "$(… start DIR)"`
#   scripts/s3-server.sh stop DIR    stops it (radosgw, osd, mon, by the PIDs recorded at start)
#   scripts/s3-server.sh install     installs the Debian packages if missing
#
# Facts behind the configuration are in PLATFORM-NOTES (S3-compatible object storage).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
packages=(ceph-mon ceph-osd radosgw ceph-common)

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

wait_for() { # seconds, description, command...
    local limit=$1 what=$2; shift 2
    local deadline=$((SECONDS + limit))
    until "$@" >/dev/null 2>&1; do
        if (( SECONDS >= deadline )); then echo "s3-server: $what did not come up within ${limit}s (logs in $dir/log)" >&2; exit 1; fi
        sleep 0.1
    done
}

# Starts a daemon with none of our open files but stdio: a caller that waits for this script through an
# inherited descriptor (Foundation's Process watches a socket its child holds) must not wait for the daemons.
detached() {
    (
        for fd in /proc/$BASHPID/fd/*; do
            n=${fd##*/}
            if (( n > 2 )); then eval "exec $n>&-" 2>/dev/null || true; fi
        done
        exec "$@" </dev/null >>"$dir/log/daemons.out" 2>&1
    )
}

case "${1:-}" in
install)
    "$here/install-packages.sh" "${packages[@]}"
    ;;
start)
    dir="${2:?usage: s3-server.sh start DIR}"
    for tool in ceph-mon ceph-osd radosgw radosgw-admin monmaptool ceph; do
        command -v "$tool" >/dev/null || { echo "s3-server: $tool is missing: run 'make test-deps' (Debian: ${packages[*]})" >&2; exit 1; }
    done
    mkdir -p "$dir"/{log,run,mon,osd}
    dir="$(cd "$dir" && pwd)"
    rgw=${S3_SERVER_PORT:-7480}
    if [[ "$rgw" == 0 ]]; then
        rgw=$(free_port)
    elif ! python3 -c 'import socket,sys; s=socket.socket(); s.bind(("127.0.0.1",int(sys.argv[1])))' "$rgw" 2>/dev/null; then
        echo "s3-server: port $rgw is taken (another store running?): stop it, or set S3_SERVER_PORT to another port (0: any free one)" >&2; exit 1
    fi
    mon_v2=$(free_port); mon_v1=$(free_port)
    fsid=$(python3 -c 'import uuid; print(uuid.uuid4())')
    conf="$dir/ceph.conf"
    cat > "$conf" <<EOF
[global]
fsid = $fsid
mon host = [v2:127.0.0.1:$mon_v2,v1:127.0.0.1:$mon_v1]
mon initial members = a
public addr = 127.0.0.1
cluster addr = 127.0.0.1
auth cluster required = none
auth service required = none
auth client required = none
ms mon client mode = crc
client mount timeout = 30
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon allow pool size one = true
mon warn on pool no redundancy = false
osd crush chooseleaf type = 0
paxos propose interval = 0.01
paxos min wait = 0.01
run dir = $dir/run
log file = $dir/log/\$name.log
pid file = $dir/run/\$name.pid
admin socket = $dir/run/\$name.asok
keyring = $dir/keyring
[mon]
mon data = $dir/mon/\$cluster-\$id
[osd]
osd data = $dir/osd/\$cluster-\$id
osd objectstore = memstore
memstore device bytes = ${S3_SERVER_BYTES:-4294967296}
[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:$rgw
rgw data = $dir/rgw
EOF
    monmaptool --create --fsid "$fsid" --addv a "[v2:127.0.0.1:$mon_v2,v1:127.0.0.1:$mon_v1]" "$dir/monmap" >/dev/null
    ceph-mon -c "$conf" --mkfs -i a --monmap "$dir/monmap" >/dev/null
    detached ceph-mon -c "$conf" -i a
    wait_for 30 "ceph-mon" ceph -c "$conf" mon stat
    cat "$dir/run/mon.a.pid" > "$dir/pids"
    uuid=$(python3 -c 'import uuid; print(uuid.uuid4())')
    id=$(ceph -c "$conf" osd new "$uuid")
    mkdir -p "$dir/osd/ceph-$id"
    ceph-osd -c "$conf" -i "$id" --mkfs --osd-uuid "$uuid" >/dev/null 2>&1
    detached ceph-osd -c "$conf" -i "$id"
    wait_for 30 "ceph-osd" bash -c "ceph -c '$conf' osd dump | grep -q '^osd.$id up'"
    cat "$dir/run/osd.$id.pid" >> "$dir/pids"
    detached radosgw -c "$conf" -n client.rgw.a
    wait_for 60 "radosgw" curl -sf -o /dev/null "http://127.0.0.1:$rgw/"
    cat "$dir/run/client.rgw.a.pid" >> "$dir/pids"
    access=$(python3 -c 'import secrets,string; print("".join(secrets.choice(string.ascii_uppercase+string.digits) for _ in range(20)))')
    secret=$(python3 -c 'import secrets; print(secrets.token_urlsafe(30))')
    radosgw-admin -c "$conf" --admin-socket "" user create --uid livery --display-name livery --access-key "$access" --secret "$secret" >/dev/null
    # The names Livery reads (docs/operations.md, "Where and as whom"); us-east-1 is the gateway's own zone group.
    printf 'export AWS_ENDPOINT_URL=http://127.0.0.1:%s\nexport AWS_ACCESS_KEY_ID=%s\nexport AWS_SECRET_ACCESS_KEY=%s\nexport AWS_REGION=us-east-1\n' \
        "$rgw" "$access" "$secret" | tee "$dir/env"
    ;;
stop)
    dir="${2:?usage: s3-server.sh stop DIR}"
    [[ -f "$dir/pids" ]] || exit 0
    # radosgw, then the osd, then the monitor (the reverse of their start).
    for pid in $(tac "$dir/pids"); do kill "$pid" 2>/dev/null || true; done
    for pid in $(tac "$dir/pids"); do
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
        kill -9 "$pid" 2>/dev/null || true
    done
    rm -f "$dir/pids"
    ;;
*)
    echo "usage: $0 start DIR | stop DIR | install" >&2; exit 2
    ;;
esac
