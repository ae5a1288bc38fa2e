#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LiveryJSONRPC

/// Runs a language server over standard input and output, as editors start one.
public enum StdioTransport {
    /// Serves until `exit`, the end of input, or bytes that are not framed messages (answered with a JSON-RPC
    /// parse error, then the stream is closed: it cannot be resynchronised). Returns the process's exit status.
    public static func run(_ server: LanguageServer, input: Int32 = 0, output: Int32 = 1) -> Int32 {
        var framer = MessageFramer()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return server.exitStatus ?? 1 }
            framer.append(chunk[..<count])
            while true {
                let body: [UInt8]
                do {
                    guard let next = try framer.nextMessage() else {
                        // Every message that has arrived is handled: check what changed in this burst.
                        for message in server.flush() { send(message, to: output) }
                        break
                    }
                    body = next
                } catch {
                    send(OutgoingMessage.error(id: nil, ResponseError(code: .parseError, message: error.description)), to: output)
                    return 1
                }
                for reply in server.handle(body) { send(reply, to: output) }
                if let status = server.exitStatus { return status }
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
