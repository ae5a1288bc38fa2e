import Foundation

/// JSON-RPC 2.0 messages as the Language Server Protocol uses them, typed with Codable.
///
/// Read with Foundation's JSONDecoder: the bodies are the peer's protocol messages, not a format Livery owns,
/// and they need no source positions (the manifests' located parser is for files creators write).

/// A request id: a number or a string.
public enum RequestID: Hashable, Sendable, Codable, CustomStringConvertible {
    case int(Int)
    case string(String)

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let int = try? container.decode(Int.self) { self = .int(int) } else { self = .string(try container.decode(String.self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .int(let int): try container.encode(int)
        case .string(let string): try container.encode(string)
        }
    }

    public var description: String {
        switch self {
        case .int(let int): return String(int)
        case .string(let string): return "\"\(string)\""
        }
    }
}

/// What kind of message a body is, read before its params are decoded into the method's own type.
public struct IncomingMessage: Sendable {
    public enum Kind: Sendable, Equatable {
        case request(id: RequestID, method: String)
        case notification(method: String)
        /// A reply to a request the server sent.
        case response(id: RequestID?)
    }

    public let kind: Kind
    /// The whole body, from which `params(_:)` decodes the method's parameters.
    public let body: Data

    private struct Envelope: Decodable {
        var jsonrpc: String
        var id: RequestID?
        var hasID: Bool
        var method: String?
        var isResponse: Bool

        enum CodingKeys: String, CodingKey { case jsonrpc, id, method, result, error }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            jsonrpc = try container.decode(String.self, forKey: .jsonrpc)
            hasID = container.contains(.id)
            id = try container.decodeIfPresent(RequestID.self, forKey: .id)
            method = try container.decodeIfPresent(String.self, forKey: .method)
            isResponse = container.contains(.result) || container.contains(.error)
        }
    }

    /// Reads the envelope of `body`, or says which JSON-RPC error answers it.
    public static func decode(_ body: [UInt8]) -> Result<IncomingMessage, ResponseError> {
        let data = Data(body)
        guard (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil else {
            return .failure(ResponseError(code: .parseError, message: "the message body is not JSON"))
        }
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: data), envelope.jsonrpc == "2.0" else {
            return .failure(ResponseError(code: .invalidRequest, message: "not a JSON-RPC 2.0 message (an object with \"jsonrpc\": \"2.0\")"))
        }
        if let method = envelope.method {
            if envelope.hasID {
                guard let id = envelope.id else {
                    return .failure(ResponseError(code: .invalidRequest, message: "a request id must be a number or a string"))
                }
                return .success(IncomingMessage(kind: .request(id: id, method: method), body: data))
            }
            return .success(IncomingMessage(kind: .notification(method: method), body: data))
        }
        guard envelope.isResponse else {
            return .failure(ResponseError(code: .invalidRequest, message: "a message needs a method, or a result or error"))
        }
        return .success(IncomingMessage(kind: .response(id: envelope.id), body: data))
    }

    /// The message's `params` as `P`, or an invalid-params error naming what did not fit.
    public func params<P: Decodable>(_ type: P.Type) -> Result<P, ResponseError> {
        do {
            return .success(try JSONDecoder().decode(ParamsOf<P>.self, from: body).params)
        } catch {
            return .failure(ResponseError(code: .invalidParams, message: "invalid params: \(Self.describe(error))"))
        }
    }

    static func describe(_ error: Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?: return "missing '\(Self.path(context.codingPath + [key]))'"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .dataCorrupted(let context)?:
            return "'\(Self.path(context.codingPath))': \(context.debugDescription)"
        default: return "\(error)"
        }
    }

    private static func path(_ keys: [CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined().drop { $0 == "." }.description
    }
}

/// A JSON-RPC error object.
public struct ResponseError: Error, Sendable, Codable, Equatable {
    public enum Code: Int, Sendable {
        case parseError = -32700, invalidRequest = -32600, methodNotFound = -32601, invalidParams = -32602, internalError = -32603
        /// LSP: a request other than `initialize` arrived before it.
        case serverNotInitialized = -32002
        /// LSP: the server cannot answer (here: the document is not open).
        case requestFailed = -32803
        /// LSP: the client cancelled the request (`$/cancelRequest`) before it was answered.
        case requestCancelled = -32800
    }

    public var code: Int
    public var message: String

    public init(code: Code, message: String) {
        self.code = code.rawValue
        self.message = message
    }
}

/// Writes outgoing messages as JSON bodies.
public enum OutgoingMessage {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A successful reply; a nil result is written as `"result": null`, which LSP requires.
    public static func response(id: RequestID, result: (some Encodable)?) -> [UInt8] {
        return encode(ResultReply(id: id, result: result))
    }

    /// An error reply; `id` is null when the request's id could not be read.
    public static func error(id: RequestID?, _ error: ResponseError) -> [UInt8] {
        struct Reply: Encodable {
            var id: RequestID?
            var error: ResponseError
            enum CodingKeys: String, CodingKey { case jsonrpc, id, error }
            func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode("2.0", forKey: .jsonrpc)
                if let id { try container.encode(id, forKey: .id) } else { try container.encodeNil(forKey: .id) }
                try container.encode(error, forKey: .error)
            }
        }
        return encode(Reply(id: id, error: error))
    }

    public static func notification(method: String, params: some Encodable) -> [UInt8] {
        return encode(NotificationOut(jsonrpc: "2.0", method: method, params: params))
    }

    private static func encode(_ value: some Encodable) -> [UInt8] {
        // Every value written here is built from Swift strings and numbers, which JSONEncoder always encodes.
        (try? Array(encoder.encode(value))) ?? Array(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"encoding failed"}}"#.utf8)
    }
}

/// The `params` of a message, decoded as the method's own type.
private struct ParamsOf<P: Decodable>: Decodable { var params: P }

private struct ResultReply<R: Encodable>: Encodable {
    var id: RequestID
    var result: R?
    enum CodingKeys: String, CodingKey { case jsonrpc, id, result }
    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("2.0", forKey: .jsonrpc)
        try container.encode(id, forKey: .id)
        if let result { try container.encode(result, forKey: .result) } else { try container.encodeNil(forKey: .result) }
    }
}

private struct NotificationOut<P: Encodable>: Encodable {
    let jsonrpc: String
    let method: String
    let params: P
}
