#!/usr/bin/env python3
"""An independent client of Livery's delta downloads, written from docs/deltas.md alone.

    python3 delta_reconstruct.py --old OLD_TENANT_FOLDER --server BASE_URL --tenant TENANT \
        --out OUT_DIR [--bundle ID ...] [--cross-check]

OLD_TENANT_FOLDER is a copy of Output/<tenant>/ of an earlier release: the "device state". Every
public bundle of its download manifest is checked (size, SHA-256) and extracted into a scratch
folder; every bundle with a file index has its index object loaded and verified (the table
against the manifest, each page against the table, and each file's data in the old archive
against its entry).

BASE_URL/TENANT is the new release, as `livery serve` serves it. For each bundle of the new
manifest (or each --bundle): a bundle with `files`, when the device state has indexed bundles,
is installed by the steps of "What a device does" (docs/deltas.md) with HTTP range requests;
any other bundle is downloaded whole, checked and extracted. Files go to
OUT_DIR/bundles/<id>/<path>; the index object of every bundle with `files` goes to
OUT_DIR/index/<id>.files and is compared byte for byte with the server's.

This is a checker: where a device would fall back to the full download after a failed check,
it stops with exit status 1 and says why on stderr. It never falls back silently. The one
decision the format makes a device take, downloading the archive whole when the delta would
cost as much, is taken and reported ("method": "full", "reason": ...).

--cross-check additionally downloads each delta-installed bundle's archive whole (counted apart,
under "checkReceived"), checks its index against it entry by entry and compares the extracted
tree with the installed one.

Standard library only (Python 3.11).
"""
import argparse
import hashlib
import http.client
import json
import os
import posixpath
import re
import shutil
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile
import zlib

HEX64 = re.compile(r"[0-9a-f]{64}\Z")
CHUNK = 1 << 16
COALESCE_GAP = 4096  # "files whose data lie at most 4 KiB apart may be fetched in one request"
MAX_PAGE_FILES = 256


class CheckFailure(Exception):
    pass


def fail(message):
    raise CheckFailure(message)


def warn(message):
    print(f"warning: {message}", file=sys.stderr)


def sha256_hex(data):
    return hashlib.sha256(data).hexdigest()


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def strict_json(data, what):
    """Parses one JSON text, refusing duplicate keys and non-standard constants."""

    def pairs(items):
        obj = {}
        for key, value in items:
            if key in obj:
                fail(f"{what}: duplicate key {key!r}")
            obj[key] = value
        return obj

    def constant(name):
        fail(f"{what}: non-standard JSON constant {name}")

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        fail(f"{what}: not UTF-8 ({error})")
    try:
        return json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except json.JSONDecodeError as error:
        fail(f"{what}: not JSON ({error})")


def check_bundle_path(path, what):
    """Step 3: relative, no `..` component, no leading `/`, no backslash or NUL.

    Also refused (not in the docs' list, but a "relative" path that is not a plain file path):
    an empty path, an empty component (`a//b`, trailing `/`) and a `.` component."""
    if not isinstance(path, str):
        fail(f"{what}: path is not text: {path!r}")
    if path == "":
        fail(f"{what}: empty path")
    if path.startswith("/"):
        fail(f"{what}: path with a leading '/': {path!r}")
    if "\\" in path or "\x00" in path:
        fail(f"{what}: path with a backslash or NUL: {path!r}")
    for component in path.split("/"):
        if component == "..":
            fail(f"{what}: path with a '..' component: {path!r}")
        if component in ("", "."):
            fail(f"{what}: path with an empty or '.' component: {path!r}")


def check_target_path(path, what):
    """A path relative to the tenant folder (release.json's `manifest`, a bundle's `path`)."""
    check_bundle_path(path, what)
    if not path.startswith("targets/"):
        fail(f"{what}: {path!r} is not under targets/")


# ---------------------------------------------------------------------------------------------
# HTTP


class Server:
    def __init__(self, base, tenant):
        self.base = base.rstrip("/") + "/" + urllib.parse.quote(tenant, safe="")
        self.received = 0  # body bytes received for the installation
        self.check_received = 0  # body bytes received only to check the result (not counted above)
        self.requests = 0
        self.check_requests = 0

    def _url(self, relative):
        check_bundle_path(relative, "request")
        return self.base + "/" + urllib.parse.quote(relative, safe="/")

    def _open(self, relative, first=None, last=None, check=False):
        request = urllib.request.Request(self._url(relative), headers={"Accept-Encoding": "identity"})
        if first is not None:
            request.add_header("Range", f"bytes={first}-{last}")
        if check:
            self.check_requests += 1
        else:
            self.requests += 1
        try:
            return urllib.request.urlopen(request, timeout=60)
        except urllib.error.HTTPError as error:
            what = f" bytes {first}-{last}" if first is not None else ""
            fail(f"GET {relative}{what}: HTTP {error.code} {error.reason}")
        except urllib.error.URLError as error:
            fail(f"GET {relative}: {error.reason}")

    def _read(self, response, n, check):
        try:
            data = response.read(n)
        except (http.client.HTTPException, OSError) as error:
            fail(f"GET {response.url}: the answer broke off: {error!r}")
        if check:
            self.check_received += len(data)
        else:
            self.received += len(data)
        return data

    def get(self, relative, expected_size=None, check=False):
        """The whole file (status 200), of `expected_size` bytes if given."""
        with self._open(relative, check=check) as response:
            if response.status != 200:
                fail(f"GET {relative}: status {response.status}, expected 200")
            length = response.headers.get("Content-Length")
            if expected_size is not None and length is not None and int(length) != expected_size:
                fail(f"GET {relative}: Content-Length {length}, expected {expected_size}")
            parts = []
            total = 0
            while True:
                chunk = self._read(response, CHUNK, check)
                if not chunk:
                    break
                total += len(chunk)
                if expected_size is not None and total > expected_size:
                    fail(f"GET {relative}: more than the expected {expected_size} bytes")
                parts.append(chunk)
            data = b"".join(parts)
            if expected_size is not None and len(data) != expected_size:
                fail(f"GET {relative}: {len(data)} bytes, expected {expected_size}")
            return data

    def get_to_file(self, relative, destination, expected_size, expected_sha256):
        """Streams the whole file to `destination`, checking its size and SHA-256."""
        digest = hashlib.sha256()
        total = 0
        with self._open(relative) as response, open(destination, "xb") as out:
            if response.status != 200:
                fail(f"GET {relative}: status {response.status}, expected 200")
            length = response.headers.get("Content-Length")
            if length is not None and int(length) != expected_size:
                fail(f"GET {relative}: Content-Length {length}, expected {expected_size}")
            while True:
                chunk = self._read(response, CHUNK, False)
                if not chunk:
                    break
                total += len(chunk)
                if total > expected_size:
                    fail(f"GET {relative}: more than the signed {expected_size} bytes")
                digest.update(chunk)
                out.write(chunk)
        if total != expected_size:
            fail(f"GET {relative}: {total} bytes, the manifest says {expected_size}")
        if digest.hexdigest() != expected_sha256:
            fail(f"GET {relative}: SHA-256 {digest.hexdigest()}, the manifest says {expected_sha256}")

    def get_range(self, relative, first, last, total=None):
        """Opens `Range: bytes=first-last` and checks the answer is exactly that range.

        Returns a RangeBody to read the bytes from (its `finish` checks nothing follows)."""
        response = self._open(relative, first, last)
        what = f"GET {relative} bytes {first}-{last}"
        if response.status != 206:
            response.close()
            if response.status == 200:
                fail(f"{what}: answered with the whole file (200) instead of the range")
            fail(f"{what}: status {response.status}, expected 206")
        content_range = response.headers.get("Content-Range")
        match = re.fullmatch(r"bytes (\d+)-(\d+)/(\d+|\*)", (content_range or "").strip())
        if match is None:
            response.close()
            fail(f"{what}: Content-Range {content_range!r} cannot be read")
        if int(match.group(1)) != first or int(match.group(2)) != last:
            response.close()
            fail(f"{what}: Content-Range {content_range!r} is not the range asked for")
        if total is not None and match.group(3) != "*" and int(match.group(3)) != total:
            response.close()
            fail(f"{what}: Content-Range {content_range!r}: the file is not {total} bytes")
        length = response.headers.get("Content-Length")
        if length is not None and int(length) != last - first + 1:
            response.close()
            fail(f"{what}: Content-Length {length}, expected {last - first + 1}")
        return RangeBody(self, response, what, last - first + 1,
                         None if match.group(3) == "*" else int(match.group(3)))

    def get_range_bytes(self, relative, first, last, total=None):
        body = self.get_range(relative, first, last, total)
        with body:
            data = body.read_exactly(last - first + 1)
            body.finish()
        return data, body.total


class RangeBody:
    def __init__(self, server, response, what, length, total):
        self.server = server
        self.response = response
        self.what = what
        self.remaining = length
        self.total = total

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.response.close()

    def read_exactly(self, n):
        if n > self.remaining:
            fail(f"{self.what}: internal error: reading past the range")
        parts = []
        while n > 0:
            chunk = self.server._read(self.response, min(n, CHUNK), False)
            if not chunk:
                fail(f"{self.what}: the answer ended {n} bytes early (wrong length)")
            parts.append(chunk)
            n -= len(chunk)
            self.remaining -= len(chunk)
        return b"".join(parts)

    def stream(self, n):
        """Yields the next n bytes in chunks."""
        while n > 0:
            chunk = self.read_exactly(min(n, CHUNK))
            n -= len(chunk)
            yield chunk

    def finish(self):
        if self.remaining:
            self.read_exactly(self.remaining)
        extra = self.server._read(self.response, 1, False)
        if extra:
            fail(f"{self.what}: more bytes than the range asked for (wrong length)")


# ---------------------------------------------------------------------------------------------
# Writing files: exclusively, never following links, never more than the entry's size


def make_parents(root, path):
    """Creates the folders of `path` under `root`, refusing anything that is not a plain folder."""
    current = root
    for component in path.split("/")[:-1]:
        current = os.path.join(current, component)
        try:
            os.mkdir(current)
        except FileExistsError:
            if os.path.islink(current) or not os.path.isdir(current):
                fail(f"cannot create {path!r}: {component!r} exists and is not a folder")
    return os.path.join(root, *path.split("/"))


def create_exclusive(root, path):
    target = make_parents(root, path)
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    except FileExistsError:
        fail(f"cannot create {path!r}: it exists already (a path given twice?)")
    except OSError as error:
        fail(f"cannot create {path!r}: {error}")
    return os.fdopen(fd, "wb")


class EntrySink:
    """Writes one file from its archive data (stored or raw DEFLATE), bounded by its size,
    and checks its length and SHA-256 against the entry at the end (step 5)."""

    def __init__(self, out, entry, what):
        self.out = out
        self.entry = entry
        self.what = what
        self.digest = hashlib.sha256()
        self.written = 0
        self.inflater = zlib.decompressobj(-15) if entry["method"] == "deflate" else None

    def _emit(self, data):
        if self.written + len(data) > self.entry["size"]:
            fail(f"{self.what}: the data gives more than the entry's {self.entry['size']} bytes")
        self.written += len(data)
        self.digest.update(data)
        self.out.write(data)

    def feed(self, chunk):
        if self.inflater is None:
            self._emit(chunk)
            return
        if self.inflater.eof:
            if chunk:
                fail(f"{self.what}: bytes after the end of the DEFLATE stream")
            return
        data = chunk
        while True:
            # max_length = what may still come + 1: one byte too many is enough to refuse.
            out = self.inflater.decompress(data, self.entry["size"] - self.written + 1)
            self._emit(out)
            data = self.inflater.unconsumed_tail
            if not data:
                break
        if self.inflater.eof and self.inflater.unused_data:
            fail(f"{self.what}: bytes after the end of the DEFLATE stream")

    def finish(self):
        if self.inflater is not None:
            self._emit(self.inflater.flush())
            if not self.inflater.eof:
                fail(f"{self.what}: the DEFLATE stream is truncated")
            if self.inflater.unused_data:
                fail(f"{self.what}: bytes after the end of the DEFLATE stream")
        if self.written != self.entry["size"]:
            fail(f"{self.what}: {self.written} bytes, the entry says {self.entry['size']}")
        if self.digest.hexdigest() != self.entry["sha256"]:
            fail(f"{self.what}: SHA-256 {self.digest.hexdigest()}, the entry says {self.entry['sha256']}")


def copy_verified(source, root, path, size, sha256, what):
    """Copies a file the device has, checking its length and SHA-256 (a wrong base is refused)."""
    digest = hashlib.sha256()
    total = 0
    try:
        fd = os.open(source, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError as error:
        fail(f"{what}: cannot open the device's copy {source}: {error}")
    with os.fdopen(fd, "rb") as src, create_exclusive(root, path) as out:
        while True:
            chunk = src.read(CHUNK)
            if not chunk:
                break
            total += len(chunk)
            if total > size:
                fail(f"{what}: the device's copy is longer than the entry's {size} bytes (wrong base)")
            digest.update(chunk)
            out.write(chunk)
    if total != size:
        fail(f"{what}: the device's copy has {total} bytes, the entry says {size} (wrong base)")
    if digest.hexdigest() != sha256:
        fail(f"{what}: the device's copy has SHA-256 {digest.hexdigest()}, the entry says {sha256} (wrong base)")


def extract_zip(archive, destination, what):
    """A full extraction: every path checked as in step 3, each once, files created exclusively."""
    os.makedirs(os.path.dirname(destination), exist_ok=True)
    if not os.path.isdir(destination) or os.listdir(destination):
        os.mkdir(destination)  # a new folder (or the empty one made for the install)
    seen = set()
    count = 0
    try:
        with zipfile.ZipFile(archive) as z:
            for info in z.infolist():
                name = info.filename
                if info.is_dir():
                    check_bundle_path(name.rstrip("/"), f"{what}: archive folder")
                    continue
                check_bundle_path(name, f"{what}: archive entry")
                if name in seen:
                    fail(f"{what}: the archive has {name!r} twice")
                seen.add(name)
                with z.open(info) as src, create_exclusive(destination, name) as out:
                    total = 0
                    while True:
                        chunk = src.read(CHUNK)  # zipfile checks the CRC-32 at the end
                        if not chunk:
                            break
                        total += len(chunk)
                        out.write(chunk)
                if total != info.file_size:
                    fail(f"{what}: {name!r} extracted to {total} bytes, the archive says {info.file_size}")
                count += 1
    except (zipfile.BadZipFile, zlib.error, EOFError) as error:
        fail(f"{what}: cannot extract the archive: {error}")
    return count


# ---------------------------------------------------------------------------------------------
# Download manifests and index objects


def load_manifest(data, sha256, tenant, what):
    if sha256_hex(data) != sha256:
        fail(f"{what}: SHA-256 {sha256_hex(data)}, release.json says {sha256}")
    manifest = strict_json(data, what)
    if not isinstance(manifest, dict) or manifest.get("schemaVersion") != 1:
        fail(f"{what}: schemaVersion is not 1")
    if manifest.get("tenant") != tenant:
        fail(f"{what}: tenant {manifest.get('tenant')!r}, expected {tenant!r}")
    bundles = manifest.get("bundles")
    if not isinstance(bundles, list):
        fail(f"{what}: no bundles list")
    ids = set()
    for bundle in bundles:
        bid = bundle.get("id") if isinstance(bundle, dict) else None
        if not isinstance(bid, str) or not bid or bid in ids:
            fail(f"{what}: a bundle without an id, or an id given twice: {bid!r}")
        ids.add(bid)
        if not HEX64.match(str(bundle.get("sha256"))) or not is_int(bundle.get("size")) or bundle["size"] < 0:
            fail(f"{what}: bundle {bid}: bad sha256 or size")
        check_target_path(bundle.get("path"), f"{what}: bundle {bid}")
        files = bundle.get("files")
        if files is not None:
            if (not isinstance(files, dict) or not HEX64.match(str(files.get("sha256")))
                    or not is_int(files.get("size")) or files["size"] <= 0):
                fail(f"{what}: bundle {bid}: bad files object {files!r}")
            if bundle.get("access") != "public" or "encryption" in bundle:
                fail(f"{what}: bundle {bid} has an index but is not a public bundle")
            if manifest.get("format") != "zip":
                fail(f"{what}: bundle {bid} has an index but the release's format is {manifest.get('format')!r}")
    return manifest


def index_path(bundle):
    """`targets/<files.sha256>.<bundle id>.files`, in the same folder as the bundle's archive."""
    folder = posixpath.dirname(bundle["path"])
    return f"{folder}/{bundle['files']['sha256']}.{bundle['id']}.files"


def parse_line(data, what):
    """One line of the index object: one JSON text followed by one newline."""
    if not data.endswith(b"\n"):
        fail(f"{what}: does not end with a newline")
    if b"\n" in data[:-1]:
        fail(f"{what}: holds more than one line")
    return strict_json(data[:-1], what)


def parse_table(data, bundle):
    """Step 1, after the digest: the table names this bundle and its signed archive."""
    bid = bundle["id"]
    what = f"{bid}: index table"
    if len(data) != bundle["files"]["size"] or sha256_hex(data) != bundle["files"]["sha256"]:
        fail(f"{what}: {len(data)} bytes with SHA-256 {sha256_hex(data)}, the manifest says "
             f"{bundle['files']['size']} bytes with {bundle['files']['sha256']}")
    table = parse_line(data, what)
    if not isinstance(table, dict):
        fail(f"{what}: not an object")
    if table.get("schemaVersion") != 1 or not is_int(table.get("schemaVersion")):
        fail(f"{what}: schemaVersion {table.get('schemaVersion')!r}, only 1 is known")
    if table.get("bundle") != bid:
        fail(f"{what}: names bundle {table.get('bundle')!r}")
    archive = table.get("archive")
    if (not isinstance(archive, dict) or archive.get("sha256") != bundle["sha256"]
            or not is_int(archive.get("size")) or archive.get("size") != bundle["size"]):
        fail(f"{what}: archive {archive!r} is not the signed {bundle['sha256']} / {bundle['size']}")
    pages = table.get("pages")
    if not isinstance(pages, list) or not pages:
        fail(f"{what}: no pages")
    position = len(data)
    for number, page in enumerate(pages):
        if (not isinstance(page, dict) or not HEX64.match(str(page.get("sha256")))
                or not all(is_int(page.get(k)) for k in ("count", "length", "start"))
                or page["count"] < 1 or page["length"] < 1 or page["start"] < 0):
            fail(f"{what}: page {number} is not a valid page: {page!r}")
        page["position"] = position  # where its line starts in the index object
        position += page["length"]
    table["objectSize"] = position
    return table


def parse_page(data, page, number, bid):
    """Step 2: a page's line checked against the table (length, SHA-256, count)."""
    what = f"{bid}: index page {number}"
    if len(data) != page["length"]:
        fail(f"{what}: {len(data)} bytes, the table says {page['length']}")
    if sha256_hex(data) != page["sha256"]:
        fail(f"{what}: SHA-256 {sha256_hex(data)}, the table says {page['sha256']}")
    body = parse_line(data, what)
    entries = body.get("entries") if isinstance(body, dict) else None
    if not isinstance(entries, list):
        fail(f"{what}: no entries list")
    if len(entries) != page["count"]:
        fail(f"{what}: {len(entries)} entries, the table's count is {page['count']}")
    parsed = []
    for raw in entries:
        if (not isinstance(raw, list) or len(raw) != 6 or not isinstance(raw[0], str)
                or not isinstance(raw[1], str) or not HEX64.match(raw[1])
                or not all(is_int(v) and v >= 0 for v in raw[2:5]) or raw[5] not in ("stored", "deflate")):
            fail(f"{what}: not a valid entry: {raw!r}")
        path, sha256, size, offset, length, method = raw
        if method == "stored" and length != size:
            fail(f"{what}: stored entry {path!r} with length {length} != size {size}")
        parsed.append({"path": path, "sha256": sha256, "size": size, "offset": offset,
                       "length": length, "method": method, "start": page["start"],
                       "data": page["start"] + offset})
    return parsed


def check_entries(entries, archive_size, bid):
    """Step 3: every path, each once; each file's data inside the archive."""
    seen = set()
    for entry in entries:
        check_bundle_path(entry["path"], f"{bid}: index entry")
        if entry["path"] in seen:
            fail(f"{bid}: index lists {entry['path']!r} twice")
        seen.add(entry["path"])
        if entry["data"] + entry["length"] > archive_size:
            fail(f"{bid}: {entry['path']!r}: data {entry['data']}+{entry['length']} past the archive's {archive_size} bytes")


def check_page_rule(table, pages_entries, bid):
    """The documented cutting rule ("clients never need this rule"): only warned about."""
    for number, entries in enumerate(pages_entries):
        last = number == len(pages_entries) - 1
        for position, entry in enumerate(entries):
            low = hashlib.sha256(entry["path"].encode("utf-8")).digest()[0] < 4
            is_end = position == len(entries) - 1
            if low and not is_end:
                warn(f"{bid}: page {number} goes on after {entry['path']!r}, whose path's SHA-256 begins below 4")
        if not last and entries:
            low = hashlib.sha256(entries[-1]["path"].encode("utf-8")).digest()[0] < 4
            if not low and len(entries) != MAX_PAGE_FILES:
                warn(f"{bid}: page {number} ends after {entries[-1]['path']!r} with {len(entries)} files, not by the rule")
        if len(entries) > MAX_PAGE_FILES:
            warn(f"{bid}: page {number} has {len(entries)} files, more than {MAX_PAGE_FILES}")


def cross_check_archive(table, entries, archive_path, bid):
    """Checks the index against the archive itself (what `livery verify` does): same files in
    the same order, each page's start at its first file's local header, each entry's data
    offset, length, size and method as the zip says, and each file's data against its digest."""
    what = f"{bid}: index against archive"
    with open(archive_path, "rb") as f, zipfile.ZipFile(f) as z:
        infos = sorted((i for i in z.infolist() if not i.is_dir()), key=lambda i: i.header_offset)
        names = [i.filename for i in infos]
        if names != [e["path"] for e in entries]:
            fail(f"{what}: the index's paths (in order) are not the archive's files (in archive order)")
        first_index = 0
        for page in table["pages"]:
            if infos[first_index].header_offset != page["start"]:
                fail(f"{what}: a page starts at {page['start']}, its first file's local header is at {infos[first_index].header_offset}")
            first_index += page["count"]
        for info, entry in zip(infos, entries):
            f.seek(info.header_offset)
            header = f.read(30)
            if len(header) != 30 or header[:4] != b"PK\x03\x04":
                fail(f"{what}: no local header for {info.filename!r}")
            data_offset = (info.header_offset + 30 + int.from_bytes(header[26:28], "little")
                           + int.from_bytes(header[28:30], "little"))
            method = {0: "stored", 8: "deflate"}.get(info.compress_type)
            if (data_offset != entry["data"] or info.compress_size != entry["length"]
                    or info.file_size != entry["size"] or method != entry["method"]):
                fail(f"{what}: {info.filename!r}: the archive has data at {data_offset}, {info.compress_size} bytes, "
                     f"size {info.file_size}, method {method}; the index says {entry['data']}, {entry['length']}, "
                     f"{entry['size']}, {entry['method']}")
            f.seek(entry["data"])
            data = f.read(entry["length"])
            check = hashlib.sha256()
            if entry["method"] == "deflate":
                inflater = zlib.decompressobj(-15)
                out = inflater.decompress(data) + inflater.flush()
                if not inflater.eof or inflater.unused_data:
                    fail(f"{what}: {info.filename!r}: the data is not exactly one DEFLATE stream")
            else:
                out = data
            check.update(out)
            if len(out) != entry["size"] or check.hexdigest() != entry["sha256"]:
                fail(f"{what}: {info.filename!r}: the data does not give the entry's size and digest")


def verify_index_object(data, bundle):
    """A whole index object (the device's kept copy, or one fetched whole), verified as steps
    1-3 verify the parts: returns (table, [page bytes], [entries per page])."""
    size = bundle["files"]["size"]
    table = parse_table(data[:size], bundle)
    if len(data) != table["objectSize"]:
        fail(f"{bundle['id']}: index object of {len(data)} bytes, the table makes it {table['objectSize']}")
    pages, pages_entries = [], []
    for number, page in enumerate(table["pages"]):
        line = data[page["position"]:page["position"] + page["length"]]
        pages_entries.append(parse_page(line, page, number, bundle["id"]))
        pages.append(line)
    entries = [e for p in pages_entries for e in p]
    check_entries(entries, bundle["size"], bundle["id"])
    return table, pages, pages_entries


# ---------------------------------------------------------------------------------------------
# The device state: the old release


class DeviceState:
    def __init__(self, folder, tenant, scratch):
        self.pages = {}  # page sha256 -> the page's line (bytes)
        self.files = {}  # content sha256 -> [(extracted file, size, bundle id, path)]
        self.indexed = []  # ids of the old bundles with an index
        self.release = None
        release = strict_json(self._read(folder, "release.json"), "old release.json")
        if release.get("tenant") != tenant:
            fail(f"old release.json: tenant {release.get('tenant')!r}, expected {tenant!r}")
        self.release = release.get("release")
        check_target_path(release.get("manifest"), "old release.json")
        manifest = load_manifest(self._read(folder, release["manifest"]), release.get("sha256"), tenant,
                                 "old download manifest")
        for bundle in manifest["bundles"]:
            bid = bundle["id"]
            if "encryption" in bundle:
                continue  # ciphertext: cannot be opened without the content key, and has no index
            if manifest.get("format") != "zip":
                continue
            archive = os.path.join(folder, *bundle["path"].split("/"))
            if os.path.getsize(archive) != bundle["size"]:
                fail(f"old {bid}: archive of {os.path.getsize(archive)} bytes, the manifest says {bundle['size']}")
            if file_sha256(archive) != bundle["sha256"]:
                fail(f"old {bid}: the archive's SHA-256 is not the manifest's")
            destination = os.path.join(scratch, "old", bid)
            extract_zip(archive, destination, f"old {bid}")
            if "files" not in bundle:
                continue
            data = self._read(folder, index_path(bundle))
            table, pages, pages_entries = verify_index_object(data, bundle)
            entries = [e for p in pages_entries for e in p]
            cross_check_archive(table, entries, archive, f"old {bid}")
            for page, line in zip(table["pages"], pages):
                self.pages[page["sha256"]] = line
            for entry in entries:
                self.files.setdefault(entry["sha256"], []).append(
                    (os.path.join(destination, *entry["path"].split("/")), entry["size"], bid, entry["path"]))
            self.indexed.append(bid)

    @staticmethod
    def _read(folder, relative):
        path = os.path.join(folder, *relative.split("/"))
        try:
            with open(path, "rb") as f:
                return f.read()
        except OSError as error:
            fail(f"old release: cannot read {relative}: {error}")


def file_sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


# ---------------------------------------------------------------------------------------------
# Installing the new release


def coalesce(items, key_first, key_last, gap):
    """Groups items sorted by position whose spans lie at most `gap` bytes apart."""
    groups = []
    for item in items:
        if groups and key_first(item) - (key_last(groups[-1][-1]) + 1) <= gap:
            groups[-1].append(item)
        else:
            groups.append([item])
    return groups


class Installer:
    def __init__(self, server, state, out, scratch, cross_check):
        self.server = server
        self.state = state
        self.out = out
        self.scratch = scratch
        self.cross_check = cross_check
        os.makedirs(os.path.join(out, "bundles"), exist_ok=True)
        os.makedirs(os.path.join(out, "index"), exist_ok=True)

    def _staging(self, bid):
        folder = os.path.join(self.out, f".staging-{bid}")
        if os.path.lexists(folder):
            fail(f"{folder} exists: use an empty --out folder")
        os.mkdir(folder)
        return folder

    def _publish(self, staging, bid, index_object):
        target = os.path.join(self.out, "bundles", bid)
        if os.path.lexists(target):
            fail(f"{target} exists: use an empty --out folder")
        if index_object is not None:
            with open(os.path.join(self.out, "index", f"{bid}.files"), "xb") as f:
                f.write(index_object)
        os.rename(staging, target)

    def _compare_index_with_server(self, bundle, index_object):
        served = self.server.get(index_path(bundle), check=True)
        if served != index_object:
            fail(f"{bundle['id']}: the reassembled index object differs from the server's")

    # -- delta ------------------------------------------------------------------------------

    def delta(self, bundle):
        bid = bundle["id"]
        ipath = index_path(bundle)
        before, requests = self.server.received, self.server.requests

        # 1. The table: bytes 0 ... files.size - 1 of the index object.
        table_bytes, object_total = self.server.get_range_bytes(ipath, 0, bundle["files"]["size"] - 1)
        table = parse_table(table_bytes, bundle)
        if object_total is not None and object_total != table["objectSize"]:
            fail(f"{bid}: the server's index object has {object_total} bytes, the table makes it {table['objectSize']}")

        # 2. The pages the device lacks, adjacent ones in one request.
        lines = [self.state.pages.get(page["sha256"]) for page in table["pages"]]
        missing = [n for n, line in enumerate(lines) if line is None]
        page_bytes = 0
        for group in coalesce(missing, lambda n: n, lambda n: n, 0):
            first_page, last_page = table["pages"][group[0]], table["pages"][group[-1]]
            first = first_page["position"]
            last = last_page["position"] + last_page["length"] - 1
            data, _ = self.server.get_range_bytes(ipath, first, last, table["objectSize"])
            page_bytes += len(data)
            for n in group:
                page = table["pages"][n]
                lines[n] = data[page["position"] - first:page["position"] - first + page["length"]]
        pages_entries = [parse_page(line, page, n, bid)
                         for n, (line, page) in enumerate(zip(lines, table["pages"]))]
        index_object = table_bytes + b"".join(lines)
        entries = [e for p in pages_entries for e in p]

        # 3. Every path, and each file's data inside the archive.
        check_entries(entries, bundle["size"], bid)
        check_page_rule(table, pages_entries, bid)

        # 4. Decide: files the device has by content digest, the others by range.
        reused = [e for e in entries if e["sha256"] in self.state.files]
        fetched = sorted((e for e in entries if e["sha256"] not in self.state.files), key=lambda e: e["data"])
        groups = coalesce([e for e in fetched if e["length"] > 0],
                          lambda e: e["data"], lambda e: e["data"] + e["length"] - 1, COALESCE_GAP)
        range_bytes = sum(g[-1]["data"] + g[-1]["length"] - g[0]["data"] for g in groups)
        cost = len(table_bytes) + page_bytes + range_bytes
        if cost >= bundle["size"]:
            result = self.full(bundle, index_object=index_object)
            result.update(received=self.server.received - before, requests=self.server.requests - requests,
                          reason=f"table, pages and ranges come to {cost} bytes, the archive is {bundle['size']}")
            return result

        # 5. Install into a new folder.
        staging = self._staging(bid)
        for group in groups:
            first = group[0]["data"]
            last = group[-1]["data"] + group[-1]["length"] - 1
            with self.server.get_range(bundle["path"], first, last, bundle["size"]) as body:
                position = first
                for entry in group:
                    if entry["data"] < position:
                        fail(f"{bid}: {entry['path']!r}: its data overlaps the previous file's")
                    for _ in body.stream(entry["data"] - position):
                        pass  # the bytes between two files' data (descriptor, next local header)
                    what = f"{bid}: {entry['path']!r} (fetched)"
                    with create_exclusive(staging, entry["path"]) as out:
                        sink = EntrySink(out, entry, what)
                        for chunk in body.stream(entry["length"]):
                            sink.feed(chunk)
                        sink.finish()
                    position = entry["data"] + entry["length"]
                body.finish()
        for entry in fetched:
            if entry["length"] == 0:  # no data to fetch (not made by deflate, but a stored empty file)
                with create_exclusive(staging, entry["path"]) as out:
                    sink = EntrySink(out, entry, f"{bid}: {entry['path']!r} (empty)")
                    sink.finish()
        for entry in reused:
            source = self.state.files[entry["sha256"]][0]
            copy_verified(source[0], staging, entry["path"], entry["size"], entry["sha256"],
                          f"{bid}: {entry['path']!r} (from the device's {source[2]}: {source[3]!r})")

        # 7. Keep the new index object (checked against the server's), and switch.
        self._publish(staging, bid, index_object)
        self._compare_index_with_server(bundle, index_object)
        result = {"method": "delta", "received": self.server.received - before,
                  "requests": self.server.requests - requests, "archiveSize": bundle["size"],
                  "files": len(entries), "fetchedFiles": len(fetched), "reusedFiles": len(reused),
                  "fetchedPages": len(missing), "pages": len(table["pages"])}
        if self.cross_check:
            self._cross_check(bundle, table, entries)
        return result

    def _cross_check(self, bundle, table, entries):
        bid = bundle["id"]
        archive = os.path.join(self.scratch, f"check-{bid}.zip")
        saved, saved_requests = self.server.received, self.server.requests
        self.server.get_to_file(bundle["path"], archive, bundle["size"], bundle["sha256"])
        self.server.check_received += self.server.received - saved
        self.server.check_requests += self.server.requests - saved_requests
        self.server.received, self.server.requests = saved, saved_requests
        cross_check_archive(table, entries, archive, bid)
        extracted = os.path.join(self.scratch, f"check-{bid}")
        extract_zip(archive, extracted, f"{bid} (cross-check)")
        difference = compare_trees(extracted, os.path.join(self.out, "bundles", bid))
        if difference:
            fail(f"{bid}: the delta install differs from the archive's extraction: {difference}")

    # -- full -------------------------------------------------------------------------------

    def full(self, bundle, index_object=None):
        bid = bundle["id"]
        before, requests = self.server.received, self.server.requests
        archive = os.path.join(self.scratch, f"{bid}.zip")
        if os.path.lexists(archive):
            os.remove(archive)
        self.server.get_to_file(bundle["path"], archive, bundle["size"], bundle["sha256"])
        staging = self._staging(bid)
        count = extract_zip(archive, staging, bid)
        if "files" in bundle:
            if index_object is None:
                # "A device that installed a bundle whole also fetches its index object (the
                # table, then the rest by range)".
                ipath = index_path(bundle)
                table_bytes, object_total = self.server.get_range_bytes(ipath, 0, bundle["files"]["size"] - 1)
                table = parse_table(table_bytes, bundle)
                if object_total is not None and object_total != table["objectSize"]:
                    fail(f"{bid}: the server's index object has {object_total} bytes, the table makes it {table['objectSize']}")
                rest, _ = self.server.get_range_bytes(ipath, len(table_bytes), table["objectSize"] - 1, table["objectSize"])
                index_object = table_bytes + rest
            table, _, pages_entries = verify_index_object(index_object, bundle)
            cross_check_archive(table, [e for p in pages_entries for e in p], archive, bid)
            check_page_rule(table, pages_entries, bid)
        self._publish(staging, bid, index_object)
        if index_object is not None:
            self._compare_index_with_server(bundle, index_object)
        return {"method": "full", "received": self.server.received - before,
                "requests": self.server.requests - requests, "archiveSize": bundle["size"], "files": count}


def compare_trees(a, b):
    def listing(root):
        found = {}
        for folder, dirs, files in os.walk(root):
            for name in files:
                path = os.path.join(folder, name)
                found[os.path.relpath(path, root)] = file_sha256(path)
            for name in dirs:
                path = os.path.join(folder, name)
                found.setdefault(os.path.relpath(path, root) + "/", "dir")
        return found

    left, right = listing(a), listing(b)
    if left == right:
        return None
    only_left = sorted(set(left) - set(right))
    only_right = sorted(set(right) - set(left))
    changed = sorted(k for k in set(left) & set(right) if left[k] != right[k])
    return f"only in the archive {only_left[:5]}, only installed {only_right[:5]}, different {changed[:5]}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required=True, help="a copy of Output/<tenant>/ of an earlier release")
    parser.add_argument("--server", required=True, help="the base URL of `livery serve` (without the tenant)")
    parser.add_argument("--tenant", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--bundle", action="append", default=[], help="only this bundle (repeatable)")
    parser.add_argument("--cross-check", action="store_true",
                        help="also download each delta bundle whole and compare (not counted in received)")
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="delta-reconstruct-")
    try:
        state = DeviceState(args.old, args.tenant, scratch)
        server = Server(args.server, args.tenant)
        release = strict_json(server.get("release.json"), "release.json")
        if release.get("tenant") != args.tenant:
            fail(f"release.json: tenant {release.get('tenant')!r}, expected {args.tenant!r}")
        check_target_path(release.get("manifest"), "release.json")
        manifest = load_manifest(server.get(release["manifest"]), release.get("sha256"), args.tenant,
                                 "download manifest")
        by_id = {b["id"]: b for b in manifest["bundles"]}
        for bid in args.bundle:
            if bid not in by_id:
                fail(f"--bundle {bid}: the new release has no such bundle")
        wanted = args.bundle or [b["id"] for b in manifest["bundles"]]

        for bid in wanted:
            for taken in (os.path.join(args.out, "bundles", bid), os.path.join(args.out, "index", f"{bid}.files")):
                if os.path.lexists(taken):
                    fail(f"{taken} exists: use an empty --out folder")
        os.makedirs(args.out, exist_ok=True)
        installer = Installer(server, state, args.out, scratch, args.cross_check)
        results, skipped = {}, {}
        for bid in wanted:
            bundle = by_id[bid]
            if "encryption" in bundle or bundle.get("access") != "public":
                reason = "a voucher bundle: needs a voucher token and the content key"
                if args.bundle:
                    fail(f"--bundle {bid}: {reason}")
                skipped[bid] = reason
                continue
            if manifest.get("format") != "zip":
                fail(f"{bid}: the release's format is {manifest.get('format')!r}; this checker extracts zip only")
            if "files" in bundle and state.indexed:
                results[bid] = installer.delta(bundle)
            else:
                results[bid] = installer.full(bundle)
        report = {"bundles": results, "received": server.received,
                  "requests": server.requests, "checkReceived": server.check_received,
                  "checkRequests": server.check_requests,
                  "oldRelease": state.release, "newRelease": release.get("release")}
        if skipped:
            report["skipped"] = skipped
        print(json.dumps(report, sort_keys=True))
        return 0
    except CheckFailure as error:
        # Step 6: the folder being installed is discarded (a device would now download the
        # bundle whole; this checker stops instead).
        if os.path.isdir(args.out):
            for name in os.listdir(args.out):
                if name.startswith(".staging-"):
                    shutil.rmtree(os.path.join(args.out, name), ignore_errors=True)
        print(f"delta_reconstruct: FAILED: {error}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
