import Foundation
import LiveryLoad
import LiveryParallel

/// What the media probes measured in a validation run, by absolute path: each audio and video file
/// is probed once however many manifests, locales or tenants refer to it, and not at all when the
/// probe cache already holds its measurement. The build reads durations from here for the download
/// manifest; rules read them to check declarations and subtitles.
public final class MediaMeasurements: @unchecked Sendable {
    /// Bump when a probe's answers change, so cached answers of the old probes are not used.
    public static let probeVersion = 3

    /// One file's outcome, as kept in the probe cache.
    struct Record: Codable {
        /// The type the file was probed as (a file named .mp3 may hold MP4).
        var type: String
        var facts: MediaFacts?
        var failure: ProbeFailure?
    }

    private let cache: ProbeCache?
    // Guarded by `lock`.
    // Each kept with the file's stamp when measured: a long-lived instance (`livery watch`, `livery lsp`)
    // measures a file again once it changes.
    private var outcomes: [String: (stamp: FileStamp?, type: FileType, outcome: Result<MediaFacts, ProbeFailure>)] = [:]
    private var answers: [String: (stamp: FileStamp, record: String)] = [:]
    private var answersComputed = 0
    private var answersKept = 0
    private var probes = 0
    private var hits = 0
    private let lock = NSLock()
    /// Files a background walk (`prefetch`) has taken and not finished; guarded by the condition itself, which
    /// `measure` waits on for such a file.
    private var inFlight: Set<String> = []
    private let flight = NSCondition()

    /// Measurements kept in `cache` between runs, or only for this run.
    public init(cache: ProbeCache? = nil) {
        self.cache = cache
    }

    /// Measurements cached in the probe cache of the output folder `output` (`<output>/.livery/probes.sqlite`),
    /// when it can be opened; otherwise kept for this run only.
    public convenience init(output: URL) {
        let folder = output.appendingPathComponent(".livery")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.init(cache: try? ProbeCache(path: folder.appendingPathComponent("probes.sqlite").path, version: Self.probeVersion))
    }

    /// How many files were actually probed (not found in the cache) so far.
    public var probeCount: Int { lock.withLock { probes } }
    /// How many files' measurements came from the probe cache so far.
    public var cacheHitCount: Int { lock.withLock { hits } }

    /// Starts measuring `files` on a thread of its own (the files side by side, on every core) and returns at once, so
    /// that a validation checks the tenant's other assets meanwhile: a frame walk reads every byte of a recording, and
    /// that read was most of what measuring media added to a validation (docs/benchmarks.md). `measure` of a file
    /// still being walked waits for it.
    public func prefetch(_ files: [(url: URL, type: FileType)]) {
        let taken: [(url: URL, type: FileType, path: String)] = flight.withLock {
            files.compactMap { file in
                let path = file.url.standardizedFileURL.path
                guard FileType.media.contains(file.type), inFlight.insert(path).inserted else { return nil }
                return (file.url, file.type, path)
            }
        }
        guard !taken.isEmpty else { return }
        // A thread, not a dispatch queue: it never waits for anything, so a caller blocked in `measure` cannot hold up
        // the walk it waits for, however busy the dispatch pool is.
        Thread { [self] in
            _ = ParallelMap.map(taken) { file in
                _ = measureNow(file.url, as: file.type, path: file.path)
                flight.withLock {
                    inFlight.remove(file.path)
                    flight.broadcast()
                }
            }
        }.start()
    }

    /// The outcome of probing the file at `url` as `type`; nil for a type that is not audio or video.
    public func measure(_ url: URL, as type: FileType) -> Result<MediaFacts, ProbeFailure>? {
        guard FileType.media.contains(type) else { return nil }
        let path = url.standardizedFileURL.path
        flight.withLock { while inFlight.contains(path) { flight.wait() } }
        return measureNow(url, as: type, path: path)
    }

    private func measureNow(_ url: URL, as type: FileType, path: String) -> Result<MediaFacts, ProbeFailure>? {
        let stamp = FileStamp(path: path)
        if let known = lock.withLock({ outcomes[path] }), known.type == type, known.stamp == stamp, stamp != nil { return known.outcome }
        if let stamp, let text = cache?.record(for: path, stamp: stamp), let record = try? JSONDecoder().decode(Record.self, from: Data(text.utf8)),
           record.type == type.rawValue,
           let outcome = record.facts.map({ Result<MediaFacts, ProbeFailure>.success($0) }) ?? record.failure.map({ .failure($0) }) {
            lock.withLock {
                outcomes[path] = (stamp, type, outcome)
                hits += 1
            }
            return outcome
        }
        guard let outcome = MediaProbe.probe(fileAt: url, as: type) else { return nil }
        lock.withLock {
            outcomes[path] = (stamp, type, outcome)
            probes += 1
        }
        if let stamp, let cache {
            let record: Record
            switch outcome {
            case .success(let facts): record = Record(type: type.rawValue, facts: facts)
            case .failure(let failure): record = Record(type: type.rawValue, failure: failure)
            }
            if let data = try? JSONEncoder().encode(record) { cache.remember(String(decoding: data, as: UTF8.self), for: path, stamp: stamp) }
        }
        return outcome
    }

    /// The answer of another costly check of the file at `url` (`check` names it and its version, e.g.
    /// `app-icon-1:master:1024`), kept like the measurements: for this run, and in the probe cache
    /// between runs, until the file changes. `compute` runs when there is no answer for the file as it is.
    public func answer<T: Codable>(_ check: String, for url: URL, compute: () -> T) -> T {
        let path = url.standardizedFileURL.path
        let key = check + "|" + path
        guard let stamp = FileStamp(path: path) else { return compute() }
        let decoder = JSONDecoder()
        if let known = lock.withLock({ answers[key] }), known.stamp == stamp, let value = try? decoder.decode(T.self, from: Data(known.record.utf8)) {
            lock.withLock { answersKept += 1 }
            return value
        }
        if let text = cache?.record(for: key, stamp: stamp), let value = try? decoder.decode(T.self, from: Data(text.utf8)) {
            lock.withLock {
                answers[key] = (stamp, text)
                answersKept += 1
            }
            return value
        }
        let value = compute()
        lock.withLock { answersComputed += 1 }
        if let data = try? JSONEncoder().encode(value) {
            let text = String(decoding: data, as: UTF8.self)
            lock.withLock { answers[key] = (stamp, text) }
            cache?.remember(text, for: key, stamp: stamp)
        }
        return value
    }

    /// How many answers (`answer(_:for:compute:)`) were worked out, and how many were kept from before.
    public var answerCounts: (computed: Int, kept: Int) { lock.withLock { (answersComputed, answersKept) } }

    /// Writes new measurements to the probe cache (errors only lose the cache).
    public func flush() {
        try? cache?.flush()
    }
}
