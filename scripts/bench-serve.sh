# Sourced by the benchmarks that download through `livery serve` (bench-client, bench-fetch, bench-delta,
# bench-java-client), after they set `livery`: a work folder removed at exit with the server stopped first, and
# `start_serve ARGS…`, which runs `livery serve --port 0 ARGS…` from the current folder and sets `serve_pid` and
# `server` (http://127.0.0.1:PORT) once it listens, or stops the benchmark with the server's log.
work=$(mktemp -d)
serve_pid=
stop_serve_and_clean() {
    if [ -n "$serve_pid" ]; then kill -TERM "$serve_pid" 2>/dev/null || true; wait "$serve_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap stop_serve_and_clean EXIT
start_serve() {
    "$livery" serve --port 0 "$@" > serve.log 2>&1 &
    serve_pid=$!
    until grep -q "listening on" serve.log 2>/dev/null; do
        kill -0 "$serve_pid" 2>/dev/null || { echo "$(basename "$0"): livery serve did not start" >&2; cat serve.log >&2; exit 1; }
        sleep 0.05
    done
    server="http://127.0.0.1:$(grep -o '127.0.0.1:[0-9]*' serve.log | head -1 | cut -d: -f2)"
}
