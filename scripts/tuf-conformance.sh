#!/usr/bin/env bash
# The TUF project's client conformance suite (tuf-conformance, not on PyPI: vendored beside the project
# in ../shared/vendor, see its SOURCE.md) against `livery tuf-client` or the Android (Java) client.
#   tuf-conformance.sh --install      creates .venv-conformance with the suite and its pinned python-tuf
#   tuf-conformance.sh LIVERY [ARGS]  runs the suite against `LIVERY tuf-client` (ARGS go to pytest, e.g. -k rollback)
#   tuf-conformance.sh --java [ARGS]  runs it against the Java client (Android/scripts/tuf-conformance-client),
#                                     compiling it first (Android/build.sh cds: classes and a class-data archive)
# Expected failures, each explained in docs/conformance.md, would be listed in
# <client script>.xfails beside each client's script (the suite's own mechanism); there are none.
set -euo pipefail
cd "$(dirname "$0")/.."
project="$PWD"
suite=""
for candidate in "${TUF_CONFORMANCE:-}" ../shared/vendor/tuf-conformance /work/shared/vendor/tuf-conformance; do
    if [[ -n "$candidate" && -f "$candidate/tuf_conformance/conftest.py" ]]; then suite="$(cd "$candidate" && pwd)"; break; fi
done
if [[ -z "$suite" ]]; then
    echo "tuf-conformance: the suite is not beside the project (../shared/vendor/tuf-conformance); set TUF_CONFORMANCE to its folder" >&2
    exit 1
fi
venv="$project/.venv-conformance"
if [[ "${1:-}" == "--install" ]]; then
    if ! "$venv/bin/python" -c "import tuf_conformance, pytest" 2>/dev/null; then
        python3 -m venv "$venv"
        # Built from a copy: pip must not write into the vendored folder.
        copy="$(mktemp -d)"
        trap 'rm -rf "$copy"' EXIT
        cp -R "$suite/." "$copy/"
        "$venv/bin/pip" install --quiet --disable-pip-version-check "$copy"
    fi
    exit 0
fi
if [[ "${1:-}" == "--java" ]]; then
    shift
    # The suite starts the client once per command (hundreds of times): the archive cuts each JVM start.
    "$project/Android/build.sh" cds >/dev/null
    client="$project/Android/scripts/tuf-conformance-client"
else
    export LIVERY="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
    shift
    client="$project/scripts/tuf-conformance-client"
fi
command -v faketime >/dev/null || { echo "tuf-conformance: faketime is missing (Debian package faketime)" >&2; exit 1; }
# The suite's folder is read-only to us: no cache, no bytecode written into it.
cd "$suite"
exec env PYTHONDONTWRITEBYTECODE=1 "$venv/bin/pytest" tuf_conformance -p no:cacheprovider -q --entrypoint "$client" "$@"
