// Test support only: empty in a build without XCTest (`swift build -c release` builds every target, this one too).
#if canImport(XCTest)
import Foundation

/// A hostile server on 127.0.0.1 that answers every GET with a body that never ends; stopped on deinit.
public final class EndlessServer {
    public let process: Process
    public let port: Int

    /// Binds any free port and waits for the server's own readiness line (`PortLine`).
    public init() throws {
        (process, port) = try PortLine.start(["python3", "-c", """
            import http.server, sys
            class Endless(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    self.send_response(200); self.end_headers()
                    try:
                        while True: self.wfile.write(b"x" * 65536)
                    except Exception: pass
                def log_message(self, *args): pass
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Endless)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """], what: "endless test server")
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}
#endif
