#!/usr/bin/env python3
"""A static file server that misbehaves on one file, for the client's reliability tests (HostileServerTests).

Usage: hostile_http_server.py ROOT. It prints its port once it listens. A request for
/<mode>/<which>/<path> serves ROOT/<path>, with single byte ranges, except that the file <which> names is
answered the <mode> way:

which: timestamp, snapshot, targets, root (the next root version), manifest (the download manifest
target), bundle (any .zip target), index (a bundle's .files index), any (every file).

mode:
  normal          the file as it is
  endless         200 and no length, then bytes for ever (endless data)
  huge-length     200 with Content-Length 10^12, then bytes for ever
  gzip            200 with Content-Encoding: gzip and a small body that inflates to 512 MiB of zeros
  error-endless   404 and an endless body
  slow-body       the file at one byte a second (slow retrieval)
  slow-head       the status line and header at one byte a second
  tampered        the file with its bytes changed, same length (a lying server)
  redirect-loop   302 to the same address, for ever
  redirect-endless 302 to the same file in endless mode
  forbidden       403 with object storage's AccessDenied body (a bucket whose policy does not allow reads)
  unauthorized    401 with a WWW-Authenticate challenge
"""
import http.server
import os
import re
import sys
import threading
import time
import zlib

WHICH = {
    "timestamp": re.compile(r".*/metadata/timestamp\.json$"),
    "snapshot": re.compile(r".*/metadata/(\d+\.)?snapshot\.json$"),
    "targets": re.compile(r".*/metadata/(\d+\.)?targets\.json$"),
    "root": re.compile(r".*/metadata/([2-9]|\d\d+)\.root\.json$"),
    "manifest": re.compile(r".*/targets/[0-9a-f]+\.[^/]*manifest[^/]*\.json$"),
    "bundle": re.compile(r".*/targets/[^/]+\.zip$"),
    "index": re.compile(r".*/targets/[^/]+\.files$"),
    "any": re.compile(r".*"),
}

_bomb = None
_bomb_lock = threading.Lock()


def gzip_bomb():
    """512 MiB of zeros, gzip-compressed (about 0.5 MB), made once."""
    global _bomb
    with _bomb_lock:
        if _bomb is None:
            compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
            zeros = bytes(1 << 20)
            parts = [compressor.compress(zeros) for _ in range(512)]
            parts.append(compressor.flush())
            _bomb = b"".join(parts)
        return _bomb


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root = "."

    hostile = False

    def log_message(self, *args):
        pass

    def end_headers(self):
        if self.hostile:  # the connection is closed after a hostile answer, and the header says so
            self.send_header("Connection", "close")
        super().end_headers()

    def do_GET(self):
        parts = self.path.split("?")[0].lstrip("/").split("/", 2)
        if len(parts) < 3 or parts[1] not in WHICH:
            return self.plain(404, b"no such address\n")
        mode, which, rest = parts
        local = os.path.normpath(os.path.join(self.root, rest))
        hostile = mode != "normal" and WHICH[which].match("/" + rest)
        if not local.startswith(os.path.abspath(self.root)) or not os.path.isfile(local):
            # A file that is not there (the next root version a client probes for) misbehaves too.
            if not hostile or not local.startswith(os.path.abspath(self.root)):
                return self.plain(404, b"not found\n")
            data = b""
        else:
            with open(local, "rb") as f:
                data = f.read()
        if not hostile:
            return self.serve(data)
        self.hostile = True
        try:
            getattr(self, "mode_" + mode.replace("-", "_"))(data)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True

    def plain(self, status, body):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def serve(self, data):
        match = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", "").strip())
        if not match:
            return self.plain(200, data)
        start = int(match[1])
        end = min(int(match[2]) if match[2] else len(data) - 1, len(data) - 1)
        if start >= len(data) or end < start:
            return self.plain(416, b"")
        self.send_response(206)
        self.send_header("Content-Range", f"bytes {start}-{end}/{len(data)}")
        self.send_header("Content-Length", str(end - start + 1))
        self.end_headers()
        self.wfile.write(data[start:end + 1])

    def endless_body(self):
        chunk = b"x" * 65536
        while True:
            self.wfile.write(chunk)

    def mode_endless(self, data):
        self.send_response(200)
        self.end_headers()
        self.endless_body()

    def mode_huge_length(self, data):
        self.send_response(200)
        self.send_header("Content-Length", str(10 ** 12))
        self.end_headers()
        self.endless_body()

    def mode_gzip(self, data):
        body = gzip_bomb()
        self.send_response(200)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def mode_error_endless(self, data):
        self.send_response(404)
        self.end_headers()
        self.endless_body()

    def mode_slow_body(self, data):
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        for byte in data:
            self.wfile.write(bytes([byte]))
            self.wfile.flush()
            time.sleep(1)

    def mode_slow_head(self, data):
        head = f"HTTP/1.1 200 OK\r\nContent-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode()
        for byte in head:
            self.wfile.write(bytes([byte]))
            self.wfile.flush()
            time.sleep(1)
        self.wfile.write(data)

    def mode_tampered(self, data):
        self.plain(200, bytes(b ^ 0x20 for b in data))

    def mode_redirect_loop(self, data):
        self.send_response(302)
        self.send_header("Location", self.path)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def mode_redirect_endless(self, data):
        parts = self.path.lstrip("/").split("/", 1)
        self.send_response(302)
        self.send_header("Location", "/endless/" + parts[1])
        self.send_header("Content-Length", "0")
        self.end_headers()

    def mode_forbidden(self, data):
        self.plain(403, b'<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code></Error>')

    def mode_unauthorized(self, data):
        self.send_response(401)
        self.send_header("WWW-Authenticate", 'Basic realm="releases"')
        self.send_header("Content-Length", "0")
        self.end_headers()


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


if __name__ == "__main__":
    Handler.root = os.path.abspath(sys.argv[1])
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
