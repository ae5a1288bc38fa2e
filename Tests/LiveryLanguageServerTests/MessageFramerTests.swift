import Foundation
import LiveryJSONRPC
import LiveryLanguageServer
import LiveryTestSupport
import XCTest

/// The LSP framing parser on untrusted bytes: whole messages out of any chunking, a typed error for any bad header,
/// and no crash on random and mutated input.
final class MessageFramerTests: XCTestCase {
    private func frame(_ body: String) -> [UInt8] { MessageFramer.frame(Array(body.utf8)) }

    func testMessagesComeOutWholeFromAnyChunking() throws {
        let bodies = [#"{"jsonrpc":"2.0","method":"a"}"#, #"{"jsonrpc":"2.0","id":1,"method":"b","params":{"t":"é😀"}}"#, ""]
        let stream = bodies.flatMap(frame) + Array("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 2\r\n\r\n{}".utf8)
        for chunk in [1, 2, 3, 7, 64, stream.count] {
            var framer = MessageFramer()
            var out: [String] = []
            var offset = 0
            while offset < stream.count {
                framer.append(stream[offset..<min(stream.count, offset + chunk)])
                offset += chunk
                while let body = try framer.nextMessage() { out.append(String(decoding: body, as: UTF8.self)) }
            }
            XCTAssertEqual(out, bodies + ["{}"], "chunks of \(chunk)")
            XCTAssertEqual(framer.bufferedCount, 0)
        }
    }

    func testBadHeadersAreTypedErrors() {
        func error(_ text: String, maxBody: Int = MessageFramer.defaultMaxBodyBytes) -> FramingError? {
            var framer = MessageFramer(maxBodyBytes: maxBody)
            framer.append(Array(text.utf8))
            do { _ = try framer.nextMessage(); return nil } catch { return error }
        }
        XCTAssertEqual(error("Content-Lenght: 2\r\n\r\n{}"), .missingContentLength)
        XCTAssertEqual(error("Content-Length: -2\r\n\r\n{}"), .invalidContentLength("-2"))
        XCTAssertEqual(error("Content-Length: 0x10\r\n\r\n{}"), .invalidContentLength("0x10"))
        XCTAssertEqual(error("Content-Length: \r\n\r\n{}"), .invalidContentLength(""))
        XCTAssertEqual(error("Content-Length: 99999999999999999999\r\n\r\n"), .invalidContentLength("99999999999999999999"))
        XCTAssertEqual(error("Content-Length: 100\r\n\r\n", maxBody: 99), .bodyTooLarge(length: 100, limit: 99))
        XCTAssertEqual(error("Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}"), .malformedHeader("Content-Length given twice"))
        XCTAssertEqual(error("just text\r\n\r\n"), .malformedHeader("header line without a colon: just text"))
        XCTAssertEqual(error("Content-Length: 2\nX: y\r\n\r\n{}"), .malformedHeader("a header line holds a bare line feed"))
        XCTAssertEqual(error(String(repeating: "x", count: MessageFramer.maxHeaderBytes + 1)), .headerTooLong(limit: MessageFramer.maxHeaderBytes))
        XCTAssertNil(error("Content-Length: 10\r\n\r\n{\"a\""), "a truncated body waits for more bytes")
        XCTAssertNil(error("Content-Len"), "so does a truncated header")
    }

    /// Fuzz-style: random bytes and mutations of valid streams (seeded, so a failure repeats). Each run must end in
    /// messages, a wait for more bytes, or a FramingError; every body a framer returns, the server answers with valid
    /// JSON-RPC (a response or an error) or nothing. The libFuzzer target `lsp-framing` (make fuzz) runs the same harness longer.
    func testRandomAndMutatedStreamsNeverCrash() throws {
        var random = SeededGenerator(seed: 0x5EED_F00D)
        let valid = frame(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#) + frame(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
        let server = LanguageServer(version: "fuzz")
        var outcomes = [0, 0, 0]
        for round in 0..<3000 {
            var bytes: [UInt8]
            if round % 3 == 0 {
                bytes = (0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            } else {
                bytes = valid
                for _ in 0..<(1 + Int(random.next() % 4)) {
                    let at = Int(random.next() % UInt64(bytes.count))
                    switch random.next() % 4 {
                    case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next())
                    case 1: bytes.remove(at: at)
                    case 2: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
                    default: bytes = Array(bytes[..<at])
                    }
                    if bytes.isEmpty { bytes = [0] }
                }
            }
            var framer = MessageFramer(maxBodyBytes: 1 << 16)
            framer.append(bytes)
            do {
                var any = false
                while let body = try framer.nextMessage() {
                    any = true
                    for reply in server.handle(body) {
                        let object = try JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any]
                        XCTAssertEqual(object?["jsonrpc"] as? String, "2.0")
                        XCTAssertTrue(object?["result"] != nil || object?["error"] != nil || object?["method"] != nil, "\(object ?? [:])")
                    }
                }
                outcomes[any ? 0 : 1] += 1
            } catch {
                outcomes[2] += 1
                XCTAssertTrue(error is FramingError, "\(error)")
            }
        }
        XCTAssertTrue(outcomes.allSatisfy { $0 > 0 }, "every outcome is exercised: \(outcomes)")
    }
}
