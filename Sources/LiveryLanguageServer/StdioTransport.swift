#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LiveryJSONRPC

/// Runs a language server over standard input and output, as editors start one.
///
/// Two threads: one reads and frames the client's messages into an `Inbox` as they arrive, the other (the caller's)
/// answers them in order and is the only one that writes. So a `$/cancelRequest` is seen while the request it cancels
/// waits or is being worked on, and a change arriving during a check makes that check's findings stale (dropped).
public enum StdioTransport {
    /// Serves until `exit`, the end of input, or bytes that are not framed messages (answered with a JSON-RPC
    /// parse error, then the stream is closed: it cannot be resynchronised). Returns the process's exit status.
    public static func run(_ server: LanguageServer, input: Int32 = 0, output: Int32 = 1) -> Int32 {
        let inbox = Inbox()
        let reader = Thread { read(input, into: inbox) }
        reader.name = "livery lsp: reader"
        reader.start()
        return serve(server, inbox: inbox) { send($0, to: output) }
    }

    /// Reads framed messages from `input` into `inbox` until the input ends or is not framed.
    public static func read(_ input: Int32, into inbox: Inbox) {
        var framer = MessageFramer()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return inbox.end(nil) }
            framer.append(chunk[..<count])
            do {
                while let body = try framer.nextMessage() { inbox.post(body) }
            } catch {
                return inbox.end(error)
            }
        }
    }

    /// Answers the messages of `inbox` in order with `server`, writing with `send`; checks what changed whenever no
    /// more input is waiting (a burst of changes costs one check). Returns the exit status.
    public static func serve(_ server: LanguageServer, inbox: Inbox, send: ([UInt8]) -> Void) -> Int32 {
        server.inbox = inbox
        while true {
            var next = inbox.next(wait: false)
            if next == nil {
                // Every message that has arrived is handled: check what changed in this burst.
                for message in server.flush() { send(message) }
                next = inbox.next(wait: true)
            }
            switch next {
            case .message(let body)?:
                for reply in server.handle(body) { send(reply) }
                if let status = server.exitStatus { return status }
            case .end(let error?)?:
                send(OutgoingMessage.error(id: nil, ResponseError(code: .parseError, message: error.description)))
                return 1
            case .end(nil)?, nil:
                return server.exitStatus ?? 1
            }
        }
    }

    private static func send(_ body: [UInt8], to output: Int32) {
        let framed = MessageFramer.frame(body)
        var written = 0
        while written < framed.count {
            let n = framed[written...].withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            written += n
        }
    }
}

/// The C library's `read(2)`, named apart from `StdioTransport.read(_:into:)`.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
