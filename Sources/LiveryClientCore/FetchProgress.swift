import Foundation
import LiveryReleaseFormat

/// What a fetch reports as it goes (`FetchRequest.onEvent`, `ReleaseInstaller.events(_:)`, and
/// `livery fetch --progress json`).
public enum FetchEvent: Sendable {
    /// Before any download: what must be downloaded and installed, the free space (nil: unknown),
    /// and each bundle to download: whole or by delta, and the bytes it will bring.
    case plan(needed: SpaceNeeded, available: Int64?, downloads: [PlannedDownload])
    /// A bundle's download began (or resumed).
    case started(bundle: String, bytes: Int)
    /// Bytes of a bundle on disk so far, and of all downloads together. Sent at most once per
    /// percent of the bundle (and at its end), so a large tour does not flood the listener.
    case progress(bundle: String, received: Int, total: Int, allReceived: Int64, allTotal: Int64)
    /// A bundle was downloaded and verified.
    case finished(bundle: String)
    /// The release is installed (or already was).
    case installed(FetchResult)

    /// The event as one JSON object (`livery fetch --progress json` writes one per line).
    public var json: JSONValue {
        switch self {
        case .plan(let needed, let available, let downloads):
            var object: [String: JSONValue] = ["event": .string("plan"), "download": .int(Int(needed.download)), "install": .int(Int(needed.install)),
                                               "bundles": .array(downloads.map {
                                                   .object(["bundle": .string($0.bundle), "bytes": .int($0.bytes), "method": .string($0.method.rawValue), "size": .int($0.archiveBytes)])
                                               })]
            if let available { object["available"] = .int(Int(available)) }
            return .object(object)
        case .started(let bundle, let bytes):
            return .object(["event": .string("started"), "bundle": .string(bundle), "bytes": .int(bytes)])
        case .progress(let bundle, let received, let total, let allReceived, let allTotal):
            return .object(["event": .string("progress"), "bundle": .string(bundle), "received": .int(received), "total": .int(total),
                            "allReceived": .int(Int(allReceived)), "allTotal": .int(Int(allTotal))])
        case .finished(let bundle):
            return .object(["event": .string("finished"), "bundle": .string(bundle)])
        case .installed(let result):
            var object: [String: JSONValue] = ["event": .string("installed"), "release": .int(result.release), "path": .string(result.installed.path),
                                               "downloaded": .array(result.downloaded.map(JSONValue.string)), "reused": .array(result.reused.map(JSONValue.string)),
                                               "offline": .bool(result.offline), "staged": .bool(result.staged)]
            if let problem = result.problem { object["problem"] = .string(problem) }
            return .object(object)
        }
    }
}

/// Counts downloaded bytes per bundle and in all, and sends progress events (thread-safe: parallel
/// downloads report from their own threads).
final class ProgressMeter: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var received: [String: Int] = [:]
    private var lengths: [String: Int] = [:]
    private var lastPercent: [String: Int] = [:]
    private let total: Int64
    private let onEvent: (@Sendable (FetchEvent) -> Void)?

    init(total: Int64, onEvent: (@Sendable (FetchEvent) -> Void)?) {
        self.total = total
        self.onEvent = onEvent
    }

    func started(_ bundle: String, bytes: Int) {
        lock.withLock { lengths[bundle] = bytes }
        onEvent?(.started(bundle: bundle, bytes: bytes))
    }

    /// The bundle's file now holds `bytes` bytes.
    func advanced(_ bundle: String, to bytes: Int) {
        guard let onEvent else { return }
        let event: FetchEvent? = lock.withLock {
            received[bundle] = bytes
            let length = max(lengths[bundle] ?? bytes, 1)
            let percent = min(100, bytes * 100 / length)
            guard percent != lastPercent[bundle] else { return nil }
            lastPercent[bundle] = percent
            return .progress(bundle: bundle, received: bytes, total: length, allReceived: Int64(received.values.reduce(0, +)), allTotal: total)
        }
        if let event { onEvent(event) }
    }

    func finished(_ bundle: String) {
        onEvent?(.finished(bundle: bundle))
    }
}

/// Runs `work` for every item, at most `width` at once, each on a thread of its own (downloads block
/// on the network, not on the CPU), and returns each outcome in the items' order.
enum ParallelDownloads {
    private final class State: @unchecked Sendable {
        let lock = NSLock()
        // Guarded by `lock`.
        var next = 0
        var outcomes: [Result<Void, Error>?]
        init(count: Int) { outcomes = Array(repeating: nil, count: count) }
    }

    static func run<Item: Sendable>(_ items: [Item], width: Int, _ work: @escaping @Sendable (Item) throws -> Void) -> [Result<Void, Error>] {
        guard !items.isEmpty else { return [] }
        let state = State(count: items.count)
        let group = DispatchGroup()
        for _ in 0..<min(width, items.count) {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                while true {
                    let index: Int? = state.lock.withLock {
                        guard state.next < items.count else { return nil }
                        defer { state.next += 1 }
                        return state.next
                    }
                    guard let index else { return }
                    let outcome = Result { try work(items[index]) }
                    state.lock.withLock { state.outcomes[index] = outcome }
                }
            }
        }
        group.wait()
        return state.outcomes.map { $0 ?? .failure(TUFError("a download did not run")) }
    }
}

/// The tours and programs this cache keeps installed across updates (`selection.json`), changed by
/// `FetchRequest.addTours`/`removeTours` (and programs).
struct Selection: Sendable, Equatable {
    var tours: Set<String> = []
    var programs: Set<String> = []

    static func file(_ cache: URL) -> URL { cache.appendingPathComponent("selection.json") }

    static func load(cache: URL) throws -> Selection {
        guard let data = FileManager.default.contents(atPath: file(cache).path) else { return Selection() }
        guard case .object(let object) = try? JSONValue.parse(data) else { return Selection() }
        func names(_ key: String) -> Set<String> {
            guard case .array(let items)? = object[key] else { return [] }
            return Set(items.compactMap { if case .string(let text) = $0 { return text } else { return nil } })
        }
        return Selection(tours: names("tours"), programs: names("programs"))
    }

    func applying(_ request: FetchRequest) -> Selection {
        Selection(tours: tours.union(request.addTours).subtracting(request.removeTours),
                  programs: programs.union(request.addPrograms).subtracting(request.removePrograms))
    }

    /// Writes the selection to `file` (a staged copy that `ReleaseInstaller.commit` renames into place).
    func write(to file: URL) throws {
        let json = JSONValue.object(["tours": .array(tours.sorted().map(JSONValue.string)), "programs": .array(programs.sorted().map(JSONValue.string))])
        try json.bytes.write(to: file)
    }
}

extension ReleaseInstaller {
    /// A fetch as an asynchronous sequence of its events, ending with `.installed` (or throwing what
    /// the fetch throws). The fetch runs on a thread of its own; `request.onEvent` is replaced.
    public static func events(_ request: FetchRequest) -> AsyncThrowingStream<FetchEvent, Error> {
        AsyncThrowingStream { continuation in
            var request = request
            request.onEvent = { continuation.yield($0) }
            let work = request
            Thread.detachNewThread {
                do {
                    _ = try fetch(work)
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
        }
    }
}
