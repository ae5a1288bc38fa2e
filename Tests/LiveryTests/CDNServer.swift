import Foundation
import XCTest

/// nginx on 127.0.0.1, set up like object storage behind a CDN rather than `livery serve`: the client's
/// path `/repo/<tenant>/…` redirects (301, then a relative 308) to `/bucket/<tenant>/…`, where `bucket` is
/// served as plain files; a missing file answers 403 with an S3-style body; `max_ranges 0` (no range
/// support: a `Range` request gets the whole file) and ETags on. `/loop/…` redirects to itself, forever.
/// The access log records each request's connection serial number, for connection reuse. Stopped on deinit.
final class CDNServer {
    static let executable = "/usr/sbin/nginx"

    let folder: URL
    let port: Int
    var base: String { "http://127.0.0.1:\(port)" }

    /// `bucket` is the folder served at `/bucket/`: copies of `Output/<tenant>/` folders, as a sync would make.
    init(bucket: URL) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw XCTSkip("nginx is not installed (make test-deps installs it)")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("temp"), withIntermediateDirectories: true)
        var lastError = ""
        for _ in 0..<5 {
            let port = try Self.freePort()
            try Self.configuration(port: port, bucket: bucket, folder: folder).write(to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
            let attempt = Process()
            attempt.executableURL = URL(fileURLWithPath: Self.executable)
            attempt.arguments = ["-p", folder.path + "/", "-c", folder.appendingPathComponent("nginx.conf").path, "-e", folder.appendingPathComponent("error.log").path]
            try attempt.run()
            for _ in 0..<250 where attempt.isRunning && !Self.accepts(port: port) { Thread.sleep(forTimeInterval: 0.02) }
            if attempt.isRunning && Self.accepts(port: port) {
                self.port = port
                self.processRef = attempt
                return
            }
            if attempt.isRunning { attempt.terminate(); attempt.waitUntilExit() }
            lastError = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
        }
        throw XCTSkip("nginx could not start on 127.0.0.1: \(lastError)")
    }

    private var processRef: Process?

    deinit {
        if let process = processRef, process.isRunning {
            // SIGQUIT: nginx's graceful shutdown (single process here: master_process off).
            kill(process.processIdentifier, SIGQUIT)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// One line per request: `METHOD URI STATUS BYTES CONNECTION "RANGE"`.
    var log: [String] {
        ((try? String(contentsOf: folder.appendingPathComponent("access.log"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    static func configuration(port: Int, bucket: URL, folder: URL) -> String {
        let temp = folder.appendingPathComponent("temp").path
        return """
            daemon off;
            master_process off;
            pid \(folder.path)/nginx.pid;
            error_log \(folder.path)/error.log;
            events { worker_connections 64; }
            http {
                log_format fixture '$request_method $request_uri $status $body_bytes_sent $connection "$http_range"';
                access_log \(folder.path)/access.log fixture;
                client_body_temp_path \(temp)/body;
                proxy_temp_path \(temp)/proxy;
                fastcgi_temp_path \(temp)/fastcgi;
                uwsgi_temp_path \(temp)/uwsgi;
                scgi_temp_path \(temp)/scgi;
                default_type application/octet-stream;
                types { application/json json; application/zip zip; }
                max_ranges 0;
                etag on;
                keepalive_requests 1000;
                server {
                    listen 127.0.0.1:\(port);
                    # The path the client uses, moved (an absolute Location)…
                    location /repo/ {
                        if ($request_uri ~ ^/repo/(.*)$) { return 301 /edge/$1; }
                    }
                    # …and moved again, with a relative Location, to where the files are.
                    location /edge/ {
                        absolute_redirect off;
                        if ($request_uri ~ ^/edge/(.*)$) { return 308 /bucket/$1; }
                    }
                    location /bucket/ {
                        alias \(bucket.path)/;
                        # Object storage without public listing: a missing key is 403, not 404.
                        error_page 404 =403 /denied.xml;
                    }
                    location = /denied.xml {
                        internal;
                        default_type application/xml;
                        return 403 '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';
                    }
                    location /loop/ { return 302 $request_uri; }
                }
            }
            """
    }

    #if canImport(Glibc)
    static let streamSocket = Int32(SOCK_STREAM.rawValue)
    #else
    static let streamSocket = SOCK_STREAM
    #endif

    /// A port nothing listens on now (the kernel's choice for port 0).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, streamSocket, 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw XCTSkip("cannot find a free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on the port.
    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, streamSocket, 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
