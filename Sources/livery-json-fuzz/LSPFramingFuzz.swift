import Foundation
import LiveryJSONRPC

// `lsp-framing`: the bytes an editor (or anything else) writes to `livery lsp`'s standard input, as the
// language server's framer (`MessageFramer`) and JSON-RPC envelope reader (`IncomingMessage`) read them.
// Refused: only with a `FramingError` (the stream ends) or a JSON-RPC error value (the message is answered).
// Accepted: the same messages, or the same error, whether the bytes arrive at once or in two pieces split
// anywhere; every body is a slice of the input no larger than the framer's limit.
extension FuzzTarget {
    static func checkLSPFraming(_ data: Data) -> String? {
        let bytes = [UInt8](data)
        func run(_ pieces: [ArraySlice<UInt8>]) -> (bodies: [[UInt8]], error: FramingError?) {
            var framer = MessageFramer(maxBodyBytes: 1 << 16)
            var bodies: [[UInt8]] = []
            for piece in pieces {
                framer.append(piece)
                do {
                    while let body = try framer.nextMessage() { bodies.append(body) }
                } catch {
                    return (bodies, error)
                }
            }
            return (bodies, nil)
        }
        let whole = run([bytes[...]])
        let split = bytes.isEmpty ? 0 : Int(bytes[0]) % bytes.count
        let pieces = run([bytes[..<split], bytes[split...]])
        guard whole.bodies == pieces.bodies, whole.error == pieces.error else {
            return "the framer's outcome depends on how the bytes arrive: \(whole.bodies.count) bodies, \(String(describing: whole.error)) against \(pieces.bodies.count), \(String(describing: pieces.error))"
        }
        if whole.bodies.reduce(0, { $0 + $1.count }) > bytes.count { return "the framer returned more bytes than it was given" }
        for body in whole.bodies {
            if body.count > 1 << 16 { return "a body over the limit was accepted" }
            if case .failure(let error) = IncomingMessage.decode(body), ![-32700, -32600].contains(error.code) {
                return "an unreadable envelope gave error code \(error.code)"
            }
        }
        return nil
    }

    static func lspFramingSeeds() -> [Data] {
        let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":"file:///w","capabilities":{}}}"#
        let open = #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///w/t/tenant.yaml","languageId":"yaml","version":1,"text":"id: t\n"}}}"#
        return [
            Data(MessageFramer.frame(Array(initialize.utf8)) + MessageFramer.frame(Array(open.utf8))),
            Data(("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 2\r\n\r\n{}").utf8),
            Data("Content-Length: 40\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"result\":null}".utf8),
        ]
    }
}
