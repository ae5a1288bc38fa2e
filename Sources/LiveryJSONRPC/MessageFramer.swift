/// The base protocol's framing of the Language Server Protocol: `Content-Length: N\r\n\r\n` then N bytes of JSON.
///
/// Hand-written: no maintained Swift JSON-RPC or LSP library resolves from this machine's package mirror
/// (sourcekit-lsp's LanguageServerProtocol and ChimeHQ's JSONRPC are not mirrored; see PLATFORM-NOTES.md), and the
/// framing is a few dozen lines. It is sans-I/O: bytes in, whole message bodies out, so tests and the fuzz target
/// feed it bytes directly. The bytes come from another process and are untrusted: every header line and every
/// body is bounded, and any malformed header is an error (after which the stream cannot be resynchronised).
public struct MessageFramer: Sendable {
    /// The most header bytes before the blank line that ends them.
    public static let maxHeaderBytes = 8 << 10
    /// The largest body accepted by default (a locale file of a million messages is well under it).
    public static let defaultMaxBodyBytes = 64 << 20

    public let maxBodyBytes: Int
    private var buffer: [UInt8] = []
    /// Where unread bytes start in `buffer` (consumed bytes are dropped in bulk, not one message at a time).
    private var start = 0
    /// The length of the body whose header has been read, while its bytes are still arriving.
    private var pendingLength: Int?

    public init(maxBodyBytes: Int = MessageFramer.defaultMaxBodyBytes) {
        self.maxBodyBytes = maxBodyBytes
    }

    /// Bytes received and not yet returned as a message.
    public var bufferedCount: Int { buffer.count - start }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole message body, or nil until more bytes arrive.
    public mutating func nextMessage() throws(FramingError) -> [UInt8]? {
        if pendingLength == nil {
            guard let (length, headerEnd) = try readHeader() else { return nil }
            start = headerEnd
            pendingLength = length
        }
        guard let length = pendingLength, buffer.count - start >= length else { return nil }
        let body = Array(buffer[start..<(start + length)])
        start += length
        pendingLength = nil
        return body
    }

    /// The Content-Length of a complete header block and the offset just after it, or nil if incomplete.
    private func readHeader() throws(FramingError) -> (Int, Int)? {
        let available = buffer.count - start
        var end: Int?
        var i = start
        while i + 3 < buffer.count && i - start < Self.maxHeaderBytes {
            if buffer[i] == 0x0D && buffer[i + 1] == 0x0A && buffer[i + 2] == 0x0D && buffer[i + 3] == 0x0A { end = i; break }
            i += 1
        }
        guard let end else {
            if available > Self.maxHeaderBytes { throw .headerTooLong(limit: Self.maxHeaderBytes) }
            return nil
        }
        var length: Int?
        for line in buffer[start..<end].split(separator: 0x0D, omittingEmptySubsequences: false) {
            // Every line but the first starts with the "\n" of the "\r\n" before it.
            let field = line.first == 0x0A ? line.dropFirst() : line[...]
            if line.first != 0x0A && line.startIndex != start { throw .malformedHeader("a header line ends in a bare carriage return") }
            guard let colon = field.firstIndex(of: UInt8(ascii: ":")) else {
                throw .malformedHeader("header line without a colon: \(Self.printable(field))")
            }
            let name = String(decoding: field[..<colon], as: UTF8.self).lowercased()
            let value = field[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
            guard !field.contains(0x0A) else { throw .malformedHeader("a header line holds a bare line feed") }
            if name == "content-length" {
                guard length == nil else { throw .malformedHeader("Content-Length given twice") }
                let digits = value.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
                guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy({ (0x30...0x39).contains($0) }),
                      let parsed = Int(String(decoding: digits, as: UTF8.self)) else {
                    throw .invalidContentLength(Self.printable(value))
                }
                guard parsed <= maxBodyBytes else { throw .bodyTooLarge(length: parsed, limit: maxBodyBytes) }
                length = parsed
            }
            // Content-Type and unknown headers are allowed and ignored (the body is always UTF-8 JSON).
        }
        guard let length else { throw .missingContentLength }
        return (length, end + 4)
    }

    private static func printable(_ bytes: some Collection<UInt8>) -> String {
        String(String(decoding: bytes.prefix(60), as: UTF8.self).unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
    }

    /// `body` framed for sending.
    public static func frame(_ body: [UInt8]) -> [UInt8] {
        Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }
}

/// Why a byte stream is not a sequence of framed messages. Each is fatal to the stream.
public enum FramingError: Error, Equatable, Sendable, CustomStringConvertible {
    case headerTooLong(limit: Int)
    case malformedHeader(String)
    case missingContentLength
    case invalidContentLength(String)
    case bodyTooLarge(length: Int, limit: Int)

    public var description: String {
        switch self {
        case .headerTooLong(let limit): return "message header is longer than \(limit) bytes"
        case .malformedHeader(let why): return "malformed message header: \(why)"
        case .missingContentLength: return "message header has no Content-Length"
        case .invalidContentLength(let value): return "Content-Length '\(value)' is not a non-negative decimal number"
        case .bodyTooLarge(let length, let limit): return "Content-Length \(length) is larger than the limit of \(limit) bytes"
        }
    }
}
