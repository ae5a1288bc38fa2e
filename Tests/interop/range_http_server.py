#!/usr/bin/env python3
"""`python3 -m http.server` with single byte ranges (`Range: bytes=a-b` and `bytes=a-`, answered 206 with
Content-Range), as static file servers, CDNs and object stores answer them: the client test vectors are served
with it so that clients with delta downloads (docs/deltas.md) exercise them. Usage: range_http_server.py ROOT."""
import http.server
import io
import os
import re
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    def send_head(self):
        match = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", "").strip())
        path = self.translate_path(self.path)
        if not match or not os.path.isfile(path):
            return super().send_head()
        with open(path, "rb") as f:
            data = f.read()
        start = int(match[1])
        end = min(int(match[2]) if match[2] else len(data) - 1, len(data) - 1)
        if start >= len(data) or end < start:
            self.send_error(416)
            return None
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Range", f"bytes {start}-{end}/{len(data)}")
        self.send_header("Content-Length", str(end - start + 1))
        self.end_headers()
        return io.BytesIO(data[start:end + 1])


if __name__ == "__main__":
    root = sys.argv[1]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), lambda *a, **k: Handler(*a, directory=root, **k))
    print(f"Serving HTTP on 127.0.0.1 port {server.server_address[1]}", flush=True)
    server.serve_forever()
