#!/usr/bin/env bash
# Benchmark: Livery's client against python-tuf's `tuf.ngclient.Updater`, in one run, on the same
# repository served by one `livery serve` on 127.0.0.1.
#
#   1. Media: the sample tenant with the GPS audio tours (sonic-walkscape, copied from Tenants/),
#      cold cache. `livery fetch` installs what one device can ask for in one fetch: the essential
#      bundles, French, both tours with their French audio, the protected tour through a voucher
#      (8 of the release's 13 targets, the download manifest included), then extracts and installs
#      them. python-tuf refreshes, redeems a voucher the same way, and downloads the same 8 targets
#      (get_targetinfo + download_target). Both must end with the same bytes: every archive in
#      fetch's cache is compared with python-tuf's download of the same target. python-tuf's
#      refresh + every target of the release (13, delegated roles included if any) is timed too.
#   2. Refresh only: a generated tenant whose release lists 2,000 targets (1,997 library items in
#      no pack, each its own bundle, plus core, its locale and the download manifest), cold
#      metadata folder each run, nothing downloaded. `livery fetch` has no refresh-only mode, so
#      Livery runs the TUF conformance contract: `livery tuf-client init ROOT`, then `refresh`
#      (two processes, both timed). python-tuf: Updater(bootstrap=…).refresh(). Both must keep the
#      same trusted timestamp, snapshot and targets.
#
# Each client is a fresh process per run, as an app launch or a cron job would be; the rounds
# alternate the clients, and the median and best of five are printed with ratios python-tuf /
# Livery (above 1: Livery is faster). The floor, measured in the same run: each client's process
# start with nothing done (`livery version`; Python importing tuf.ngclient). python-tuf's time
# inside its process (after imports) is printed beside its wall time, and so are the CPU seconds
# (user + system) of each client: unlike wall time they do not grow when the machine is busy.
# Targets: Livery at least 3x faster than python-tuf on refresh only, no slower on the media case.
#
# Peak memory is also measured for the library alone, as an app embeds it: Examples/ClientApp's release build
# (`client-app`, LiveryClient and nothing else of Livery, linked as `make build CONFIG=release` links), which
# fetches the same targets with the same voucher, and refreshes with `--refresh`. Its target is python-tuf's peak
# in the environment python-tuf needs and no more (.venv-tuf-minimal: tuf with securesystemslib and urllib3, no
# optional packages), measured in the same rounds; python-tuf with cryptography (.venv-test) is printed beside it.
# Usage: scripts/bench-client.sh [livery binary]   (python-tuf from .venv-test and .venv-tuf-minimal, client-app:
# `make bench` makes all three)
set -euo pipefail
livery=$(realpath "${1:-.build/release/livery}")
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
python_tuf=${PYTHON_TUF:-$repo/.venv-test/bin/python}
"$python_tuf" -c "import tuf.ngclient" 2>/dev/null || { echo "bench-client: python-tuf is missing in $python_tuf (run make test-venv)" >&2; exit 1; }
python_minimal=${PYTHON_TUF_MINIMAL:-$repo/.venv-tuf-minimal/bin/python}
"$python_minimal" -c "import tuf.ngclient" 2>/dev/null || { echo "bench-client: python-tuf is missing in $python_minimal (make bench makes it)" >&2; exit 1; }
client_app=${CLIENT_APP:-$repo/Examples/ClientApp/.build/release/client-app}
[ -x "$client_app" ] || { echo "bench-client: $client_app is missing (make bench builds it)" >&2; exit 1; }
. "$repo/scripts/bench-serve.sh"
driver_pid=
cleanup() {  # also on SIGTERM or Ctrl-C: the measuring driver, then the server, then the files
    if [ -n "$driver_pid" ]; then kill -TERM "$driver_pid" 2>/dev/null || true; wait "$driver_pid" 2>/dev/null || true; fi
    stop_serve_and_clean
}
trap cleanup EXIT
cd "$work"

# The workspace: the sample media tenant as committed, and the generated 2,000-target tenant.
mkdir Tenants
cp -R "$repo/Tenants/sonic-walkscape" Tenants/
python3 - <<'PY'
import os
d = "Tenants/catalogue"
items = 1997  # + core, locale.en and the download manifest = 2,000 targets
os.makedirs(f"{d}/library/articles")
with open(f"{d}/tenant.yaml", "w") as f:
    f.write("id: catalogue\nkind: brand\nname: Catalogue\nlocales: {default: en, supported: [en]}\n")
os.makedirs(f"{d}/locales")
with open(f"{d}/locales/en.yaml", "w") as f:
    f.write("title: Catalogue\n")
with open(f"{d}/library/library.yaml", "w") as f:
    f.write("items:\n")
    for i in range(items):
        f.write(f"  - {{id: a{i:04d}, kind: article, title: {{en: Article {i}}}, media: {{en: articles/a{i:04d}.md}}}}\n")
        with open(f"{d}/library/articles/a{i:04d}.md", "w") as a:
            a.write(f"# Article {i}\n\nA short article, number {i}, with a line of text.\n")
PY
"$livery" build Tenants --output out > build.log 2>&1 || { cat build.log; exit 1; }
code=$("$livery" vouchers issue sonic-walkscape --tour rome-trastevere --devices 10000 --output out 2>vouchers.log) || { cat vouchers.log; exit 1; }

# python-tuf's side: one process per run, as Livery's.
cat > tuf_client.py <<'PY'
"""python-tuf's ngclient as the other client: `media` or `refresh`; prints its in-process seconds."""
import json, os, sys, time
start = time.perf_counter()
import urllib3
from tuf.api import exceptions
from tuf.ngclient import FetcherInterface, Updater
imported = time.perf_counter()

class BearerFetcher(FetcherInterface):
    """python-tuf's default fetcher (urllib3, pooled connections, 400 kB reads) that also sends an
    access token, as an app does for a protected tour's bundles."""
    def __init__(self, token):
        self._pool = urllib3.PoolManager(headers={"Authorization": f"Bearer {token}"})

    def _fetch(self, url):
        response = self._pool.request("GET", url, preload_content=False, timeout=urllib3.Timeout(30))
        if response.status >= 400:
            response.close()
            raise exceptions.DownloadHTTPError(f"HTTP error occurred with status {response.status}", response.status)
        return self._chunks(response)

    def _chunks(self, response):
        try:
            yield from response.stream(400000)
        finally:
            response.release_conn()

def every_target(updater):
    """Every target name in targets and in the delegated roles, walking the delegations (ngclient
    loads a delegated role only to look a name up, so its loader is called directly)."""
    names, stack, seen = [], [("targets", "root")], set()
    while stack:
        role, parent = stack.pop()
        if role in seen:
            continue
        seen.add(role)
        targets = updater._trusted_set[role] if role == "targets" else updater._load_targets(role, parent)
        names += [n for n in targets.targets if n not in names]
        if targets.delegations and targets.delegations.roles:
            stack += [(r, role) for r in reversed(list(targets.delegations.roles))]
    return names

command, server, tenant, root, metadata_dir = sys.argv[1:6]
bootstrap = open(root, "rb").read()
if command == "refresh":
    updater = Updater(metadata_dir=metadata_dir, metadata_base_url=f"{server}/{tenant}/metadata", bootstrap=bootstrap)
    updater.refresh()
else:  # media: redeem a voucher, refresh, download the targets named (or "all")
    code, target_dir, names = sys.argv[6], sys.argv[7], sys.argv[8:]
    response = urllib3.request("POST", f"{server}/{tenant}/vouchers/redeem",
                               body=json.dumps({"code": code, "device": os.urandom(16).hex()}),
                               headers={"Content-Type": "application/json"})
    assert response.status == 200, (response.status, response.data)
    token = json.loads(response.data)["token"]
    updater = Updater(metadata_dir=metadata_dir, metadata_base_url=f"{server}/{tenant}/metadata",
                      target_dir=target_dir, target_base_url=f"{server}/{tenant}/targets",
                      fetcher=BearerFetcher(token), bootstrap=bootstrap)
    updater.refresh()
    if names == ["all"]:
        names = every_target(updater)
    for name in names:
        info = updater.get_targetinfo(name)
        if info is None:
            sys.exit(f"python-tuf: {name} is not a target")
        updater.download_target(info)
print(f"{time.perf_counter() - imported:.4f} {time.perf_counter() - start:.4f} {len(names) if command == 'media' else 0}")
PY

# One livery serve for everything.
start_serve --output out

# The measurements, in the background so that a signal reaches the trap at once.
python3 - "$livery" "$python_tuf" "$server" "$code" "$python_minimal" "$client_app" <<'PY' &
import filecmp, json, os, resource, shutil, statistics, subprocess, sys, time
livery, python_tuf, server, code, python_minimal, client_app = sys.argv[1:]
packages = subprocess.run([python_minimal, "-m", "pip", "list", "--format=freeze", "--disable-pip-version-check"],
                          stdout=subprocess.PIPE, text=True).stdout.split()
def summary(line):
    """A target's figure: printed, and kept for `make bench`'s closing list (BENCH_SUMMARY)."""
    print(line)
    if os.environ.get("BENCH_SUMMARY"):
        with open(os.environ["BENCH_SUMMARY"], "a") as out: out.write(line + "\n")

runs = 5
media_root = "out/sonic-walkscape/metadata/1.root.json"
catalogue_root = "out/catalogue/metadata/1.root.json"

def fresh(*folders):
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)

def run(command, rss_file=None):
    """Runs a client; returns its standard output (a failure stops the benchmark). With `rss_file`, GNU
    time writes the client's peak RSS (KB) there."""
    if rss_file:
        command = ["/usr/bin/time", "-f", "%M", "-o", rss_file] + command
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit(f"bench-client: {' '.join(command)} failed ({result.returncode}):\n{result.stderr}")
    return result.stdout

def cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime

def timed(prepare, *commands):
    """Wall seconds of the commands run one after the other, after prepare() (not timed); their
    outputs, each with its own seconds; their CPU seconds (user + system); and the largest peak RSS
    (KB) of the commands (GNU time's process start is in the wall time, the same for both clients)."""
    prepare()
    start, used, outputs, peak = time.perf_counter(), cpu(), [], 0
    for command in commands:
        begin = time.perf_counter()
        outputs.append((run(command, "peak-rss.txt"), time.perf_counter() - begin))
        peak = max(peak, int(open("peak-rss.txt").read().split()[-1]))
    return time.perf_counter() - start, outputs, cpu() - used, peak

def measure(clients):
    """clients: name -> (prepare, commands); the rounds alternate them. Returns name -> [(seconds, outputs)]."""
    results = {name: [] for name in clients}
    for name, (prepare, commands) in clients.items():  # warm-up: page cache, server, voucher database
        timed(prepare, *commands)
    for _ in range(runs):
        for name, (prepare, commands) in clients.items():
            results[name].append(timed(prepare, *commands))
    return results

def median(samples): return statistics.median(s[0] for s in samples)
def best(samples): return min(s[0] for s in samples)
def cpu_median(samples): return statistics.median(s[2] for s in samples)
def rss_median(samples): return statistics.median(s[3] for s in samples) / 1024
def inside(samples): return statistics.median(float(s[1][-1][0].split()[0]) for s in samples)
def step(samples, i): return statistics.median(s[1][i][1] for s in samples)

# The floor: each client's process start, nothing done.
floor = measure({"livery": (lambda: None, [[livery, "version"]]),
                 "app": (lambda: None, [[client_app, "--help"]]),
                 "python": (lambda: None, [[python_tuf, "-c", "import urllib3, tuf.ngclient"]]),
                 "python-minimal": (lambda: None, [[python_minimal, "-c", "import urllib3, tuf.ngclient"]])})

# 1. Media.
fetch = [livery, "fetch", "sonic-walkscape", "--server", server, "--cache", "fetch-cache", "--root", media_root,
         "--locale", "fr", "--tour", "florence-renaissance", "--tour", "rome-trastevere", "--voucher", code]
run(fetch); fresh("fetch-cache")
targets = json.load(open("out/sonic-walkscape/metadata/" + max(
    (f for f in os.listdir("out/sonic-walkscape/metadata") if f.endswith(".targets.json")), key=lambda f: int(f.split(".")[0]))))["signed"]["targets"]
by_hash = {info["hashes"]["sha256"]: name for name, info in targets.items()}
def fetched():
    folder = "fetch-cache/sonic-walkscape/downloads"
    return {by_hash[f]: os.path.join(folder, f) for f in os.listdir(folder) if f in by_hash}
run(fetch)
same = sorted(fetched()) + ["download-manifest.json"]  # the bundles one fetch downloads, and the manifest
fresh("fetch-cache")
tuf_same = [python_tuf, "tuf_client.py", "media", server, "sonic-walkscape", media_root, "tuf-meta", code, "tuf-targets"] + same
tuf_all = [python_tuf, "tuf_client.py", "media", server, "sonic-walkscape", media_root, "tuf-meta-all", code, "tuf-all", "all"]
def tuf_dirs(meta, dl):
    def prepare():
        fresh(meta, dl); os.makedirs(meta); os.makedirs(dl)
    return prepare
app_fetch = [client_app, server, "sonic-walkscape", media_root, "app-cache",
             "--locale", "fr", "--tour", "florence-renaissance", "--tour", "rome-trastevere", "--voucher", code]
tuf_minimal = [python_minimal] + tuf_same[1:6] + ["tuf-meta-minimal", code, "tuf-targets-minimal"] + same
media = measure({"livery": (lambda: fresh("fetch-cache"), [fetch]),
                 "app": (lambda: fresh("app-cache"), [app_fetch]),
                 "python": (tuf_dirs("tuf-meta", "tuf-targets"), [tuf_same]),
                 "python-minimal": (tuf_dirs("tuf-meta-minimal", "tuf-targets-minimal"), [tuf_minimal]),
                 "python-all": (tuf_dirs("tuf-meta-all", "tuf-all"), [tuf_all])})
# Same verified bytes: every archive fetch kept against python-tuf's download of the same target.
from urllib.parse import quote
mine = fetched()
mine["download-manifest.json"] = "fetch-cache/sonic-walkscape/current/download-manifest.json"
if sorted(mine) != sorted(same):
    sys.exit(f"bench-client: livery fetch downloaded {sorted(mine)}, expected {same}")
for name, path in mine.items():
    theirs = os.path.join("tuf-targets", quote(name, safe=""))
    if not filecmp.cmp(path, theirs, shallow=False):
        sys.exit(f"bench-client: {name}: livery fetch and python-tuf downloaded different bytes")
every = int(media["python-all"][-1][1][-1][0].split()[2])
if every < len(targets) or len(os.listdir("tuf-all")) != every:
    sys.exit(f"bench-client: python-tuf downloaded {len(os.listdir('tuf-all'))} targets, expected {every} (targets lists {len(targets)})")
app_downloads = sorted(f for f in os.listdir("app-cache/downloads") if f in by_hash)
if app_downloads != sorted(os.path.basename(p) for n, p in mine.items() if n != "download-manifest.json"):
    sys.exit(f"bench-client: client-app downloaded {app_downloads}, livery fetch {sorted(mine)}")
for name in same:
    if not filecmp.cmp(os.path.join("tuf-targets", quote(name, safe="")), os.path.join("tuf-targets-minimal", quote(name, safe="")), shallow=False):
        sys.exit(f"bench-client: {name}: the two python-tuf environments downloaded different bytes")
for role in ("root", "timestamp", "snapshot", "targets"):
    if not filecmp.cmp(f"fetch-cache/sonic-walkscape/metadata/{role}.json", f"tuf-meta/{role}.json", shallow=False):
        sys.exit(f"bench-client: the two clients trust different {role} metadata")
same_bytes = sum(targets[n]["length"] for n in same)
all_bytes = sum(info["length"] for info in targets.values())

# 2. Refresh only, 2,000 targets.
catalogue_targets = json.load(open("out/catalogue/metadata/1.targets.json"))["signed"]["targets"]
if len(catalogue_targets) != 2000:
    sys.exit(f"bench-client: the generated tenant's release lists {len(catalogue_targets)} targets, not 2,000")
metadata_url = f"{server}/catalogue/metadata"
refresh = measure({
    "livery": (lambda: fresh("tuf-client-meta"), [[livery, "tuf-client", "--metadata-dir", "tuf-client-meta", "init", catalogue_root],
                                                  [livery, "tuf-client", "--metadata-dir", "tuf-client-meta", "--metadata-url", metadata_url, "refresh"]]),
    "app": (lambda: fresh("app-meta"), [[client_app, "--refresh", server, "catalogue", catalogue_root, "app-meta"]]),
    "python": (lambda: (fresh("tuf-refresh-meta"), os.makedirs("tuf-refresh-meta")),
               [[python_tuf, "tuf_client.py", "refresh", server, "catalogue", catalogue_root, "tuf-refresh-meta"]]),
    "python-minimal": (lambda: (fresh("tuf-refresh-minimal"), os.makedirs("tuf-refresh-minimal")),
                       [[python_minimal, "tuf_client.py", "refresh", server, "catalogue", catalogue_root, "tuf-refresh-minimal"]])})
for role in ("timestamp", "snapshot", "targets"):
    if not (filecmp.cmp(f"app-meta/{role}.json", f"tuf-refresh-meta/{role}.json", shallow=False) and
            filecmp.cmp(f"tuf-refresh-minimal/{role}.json", f"tuf-refresh-meta/{role}.json", shallow=False)):
        sys.exit(f"bench-client: after the refresh client-app and the python-tuf environments trust different {role} metadata")
    if not filecmp.cmp(f"tuf-client-meta/{role}.json", f"tuf-refresh-meta/{role}.json", shallow=False):
        sys.exit(f"bench-client: after the refresh the two clients trust different {role} metadata")
targets_size = os.path.getsize("tuf-refresh-meta/targets.json")

def line(label, samples, extra=""):
    print(f"  {label:<46} {median(samples):6.3f} s median, {best(samples):6.3f} s best, CPU {cpu_median(samples):.3f} s, "
          f"peak RSS {rss_median(samples):.0f} MB{extra}")

print(f"floor, process start: livery version {median(floor['livery']):.3f} s (CPU {cpu_median(floor['livery']):.3f} s, {rss_median(floor['livery']):.0f} MB); "
      f"python-tuf, Python + import tuf.ngclient {median(floor['python']):.3f} s (CPU {cpu_median(floor['python']):.3f} s, {rss_median(floor['python']):.0f} MB)")
print(f"  client-app --help {median(floor['app']):.3f} s ({rss_median(floor['app']):.0f} MB, binary {os.path.getsize(client_app) / 1e6:.0f} MB); "
      f"python-tuf minimal import {median(floor['python-minimal']):.3f} s ({rss_median(floor['python-minimal']):.0f} MB); "
      f"livery binary {os.path.getsize(livery) / 1e6:.0f} MB")
print(f"  python-tuf minimal environment: {' '.join(p for p in packages if not p.startswith(('pip==', 'setuptools==')))}")
print(f"1. media tenant (sonic-walkscape), cold cache, median of {runs} (best):")
line(f"livery fetch: {len(same)} targets, extract, install", media["livery"])
line(f"python-tuf: the same {len(same)} targets", media["python"], f" ({inside(media['python']):.3f} s inside the process)")
line(f"python-tuf: every target ({every})", media["python-all"], f" ({inside(media['python-all']):.3f} s inside the process)")
line(f"client-app (LiveryClient alone): the same", media["app"])
line(f"python-tuf minimal: the same {len(same)} targets", media["python-minimal"])
ratio = median(media["python"]) / median(media["livery"])
print(f"  {same_bytes:,} bytes in the {len(same)} targets ({all_bytes:,} in all {len(targets)}), the same verified bytes in both clients")
print(f"  ratio python-tuf / livery fetch, same targets: {ratio:.2f}x (best {best(media['python']) / best(media['livery']):.2f}x, "
      f"CPU {cpu_median(media['python']) / cpu_median(media['livery']):.2f}x); target: no slower (>= 1x): {'met' if ratio >= 1 else 'MISSED'}")
rss = rss_median(media["python"]) / rss_median(media["livery"])
print(f"  peak RSS python-tuf / livery fetch, same targets: {rss:.2f}x; target: livery at or below python-tuf (>= 1x): {'met' if rss >= 1 else 'MISSED'}")
rss = rss_median(media["python-minimal"]) / rss_median(media["app"])
print(f"  peak RSS python-tuf minimal / client-app (the library in an app): {rss:.2f}x; target >= 1x: {'met' if rss >= 1 else 'MISSED'}"
      f" (python-tuf with cryptography / client-app {rss_median(media['python']) / rss_median(media['app']):.2f}x)")
summary(f"client library peak memory, media fetch: python-tuf minimal / client-app {rss:.2f}x "
        f"({rss_median(media['python-minimal']):.0f} / {rss_median(media['app']):.0f} MB; target >= 1x): {'met' if rss >= 1 else 'MISSED'}")
print(f"2. refresh only, {len(catalogue_targets):,} targets (targets.json {targets_size / 1e3:.0f} kB), cold metadata folder, median of {runs} (best):")
line("livery tuf-client init + refresh", refresh["livery"],
     f" (init {step(refresh['livery'], 0):.3f} s + refresh {step(refresh['livery'], 1):.3f} s)")
line("python-tuf Updater.refresh()", refresh["python"], f" ({inside(refresh['python']):.3f} s inside the process)")
line("client-app --refresh (LiveryClient alone)", refresh["app"])
line("python-tuf minimal Updater.refresh()", refresh["python-minimal"])
ratio = median(refresh["python"]) / median(refresh["livery"])
print(f"  ratio python-tuf / livery: {ratio:.2f}x (best {best(refresh['python']) / best(refresh['livery']):.2f}x, "
      f"CPU {cpu_median(refresh['python']) / cpu_median(refresh['livery']):.2f}x); target: >= 3x: {'met' if ratio >= 3 else 'MISSED'}")
rss = rss_median(refresh["python"]) / rss_median(refresh["livery"])
print(f"  peak RSS python-tuf / livery (the larger of init and refresh): {rss:.2f}x; target: livery at or below python-tuf (>= 1x): {'met' if rss >= 1 else 'MISSED'}")
rss = rss_median(refresh["python-minimal"]) / rss_median(refresh["app"])
print(f"  peak RSS python-tuf minimal / client-app (the library in an app): {rss:.2f}x; target >= 1x: {'met' if rss >= 1 else 'MISSED'}"
      f" (python-tuf with cryptography / client-app {rss_median(refresh['python']) / rss_median(refresh['app']):.2f}x)")
summary(f"client library peak memory, refresh only: python-tuf minimal / client-app {rss:.2f}x "
        f"({rss_median(refresh['python-minimal']):.0f} / {rss_median(refresh['app']):.0f} MB; target >= 1x): {'met' if rss >= 1 else 'MISSED'}")
PY
driver_pid=$!
wait "$driver_pid"
driver_pid=
