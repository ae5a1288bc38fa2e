import Foundation
import LiveryJSONRPC

/// The client's messages waiting for the server: filled by the thread that reads standard input, emptied in order
/// by the thread that answers (`StdioTransport.serve`).
///
/// Reading while the server works is what makes cancellation possible: a `$/cancelRequest` is seen as soon as it
/// arrives, not after the work it cancels, and a change that arrives while a tenant is checked tells the server its
/// findings are stale before it publishes them. The reader looks only at each message's envelope (and the document a
/// change is about); everything else is the server's, on its own thread.
///
/// A class shared by two threads, its state guarded by one `NSCondition`: the package supports macOS 14, where the
/// standard library's `Mutex` is not available, and Foundation's lock is portable (Linux and Darwin).
public final class Inbox: @unchecked Sendable {
    public enum Item: Sendable {
        /// A message body, in the order the client sent it.
        case message([UInt8])
        /// The input ended: at end of file (nil), or on bytes that are not framed messages.
        case end(FramingError?)
    }

    private let condition = NSCondition()
    // Everything below is read and written only while `condition` is locked.
    private var items: [(item: Item, changed: String?)] = []
    private var head = 0
    /// Requests read and not yet answered.
    private var open = Set<RequestID>()
    private var cancelled = Set<RequestID>()
    /// Document paths with a change (open, change, close) read and not yet taken, and how many.
    private var changes: [String: Int] = [:]

    public init() {}

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    /// A message body the client sent. A `$/cancelRequest` is not queued: it marks its request, if still unanswered.
    public func post(_ body: [UInt8]) {
        var changed: String?
        var request: RequestID?
        if case .success(let message) = IncomingMessage.decode(body) {
            switch message.kind {
            case .request(let id, _):
                request = id
            case .notification("$/cancelRequest"):
                if case .success(let params) = message.params(CancelParams.self) {
                    locked { if open.contains(params.id) { cancelled.insert(params.id) } }
                }
                return
            case .notification("textDocument/didOpen"), .notification("textDocument/didChange"), .notification("textDocument/didClose"):
                if case .success(let params) = message.params(DocumentParams.self) { changed = LanguageServer.path(of: params.textDocument.uri) }
            default:
                break
            }
        }
        locked {
            if let request { open.insert(request) }
            if let changed { changes[changed, default: 0] += 1 }
            items.append((.message(body), changed))
            condition.signal()
        }
    }

    /// The input ended (no more messages will be posted).
    public func end(_ error: FramingError?) {
        locked {
            items.append((.end(error), nil))
            condition.signal()
        }
    }

    /// The next item in order; when none is waiting, nil, or with `wait` the next one to arrive.
    public func next(wait: Bool) -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count {
            guard wait else { return nil }
            condition.wait()
        }
        let (item, changed) = items[head]
        head += 1
        if head == items.count { items.removeAll(keepingCapacity: true); head = 0 }
        if let changed {
            changes[changed, default: 1] -= 1
            if changes[changed] == 0 { changes[changed] = nil }
        }
        return item
    }

    /// Whether the client cancelled request `id`.
    func isCancelled(_ id: RequestID) -> Bool { locked { cancelled.contains(id) } }

    /// Request `id` is answered: a cancellation arriving later is for nothing.
    func answered(_ id: RequestID) {
        locked {
            open.remove(id)
            cancelled.remove(id)
        }
    }

    /// Whether a change to a document in one of `folders` (absolute paths) is waiting: findings of those folders checked
    /// now are stale.
    func hasChange(inFolders folders: [String]) -> Bool {
        let prefixes = folders.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        return locked { changes.keys.contains { path in prefixes.contains { path.hasPrefix($0) } } }
    }

    private struct CancelParams: Decodable { var id: RequestID }
    private struct DocumentParams: Decodable {
        struct Document: Decodable { var uri: String }
        var textDocument: Document
    }
}
