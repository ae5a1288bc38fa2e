import Foundation
import LiveryPack
import LiveryReleaseFormat

/// What changed between two published releases of a tenant (`livery diff`): bundles added, removed
/// and changed; inside changed bundles, the files added, removed and changed; messages per locale
/// (from the locale bundles' `locales/<locale>.json`); token values per mode (from the core bundle's
/// `tokens/<mode>.json`); and what a device updating from the first to the second downloads.
public struct ReleaseDiff: Sendable {
    public struct BundleChange: Sendable {
        public var id: String
        public var oldSize: Int, newSize: Int
        public var filesAdded: [String] = [], filesRemoved: [String] = [], filesChanged: [String] = []
        /// Why files were not compared (an encrypted bundle without its content key).
        public var note: String?
    }

    /// A value that changed: `old` nil when added, `new` nil when removed. Values are the JSON text
    /// of the message or of the token's `$value` (a plain message is shown as its text).
    public struct ValueChange: Sendable, Equatable {
        /// The locale (messages) or the mode (tokens).
        public var scope: String
        public var key: String
        public var old: String?
        public var new: String?
    }

    public var tenant: String
    public var from: Int
    public var to: Int
    public var added: [DownloadManifest.Bundle] = []
    public var removed: [DownloadManifest.Bundle] = []
    public var changed: [BundleChange] = []
    public var messages: [ValueChange] = []
    public var tokens: [ValueChange] = []
    /// Bytes a device updating from `from` to `to` downloads: the new manifest plus the bundles
    /// whose bytes it does not have yet, for a device holding every bundle, and for one holding only
    /// the essential bundles.
    public var downloadAll = 0
    public var downloadEssential = 0
    /// The same with delta downloads (docs/deltas.md): changed bundles that have a file index cost
    /// their table, the pages and the files the device lacks (or the whole archive, when that is less).
    public var deltaAll = 0
    public var deltaEssential = 0

    /// What a device holding every bundle of `old` downloads to install `new`'s bundles: whole, and by
    /// delta; the manifest not included. `index` finds a bundle's file index object (nil: none at hand).
    public static func updateBytes(from old: [DownloadManifest.Bundle], to new: [DownloadManifest.Bundle],
                                   index: (DownloadManifest.Bundle) -> URL?) -> (whole: Int, delta: Int) {
        let have = Set(old.map(\.sha256))
        func load(_ bundle: DownloadManifest.Bundle) -> FileIndex? {
            guard let reference = bundle.files, let url = index(bundle), let data = FileManager.default.contents(atPath: url.path) else { return nil }
            return try? FileIndex(object: data, reference: reference, what: bundle.id)
        }
        lazy var base = old.compactMap(load)
        var whole = 0, delta = 0
        for bundle in new where !have.contains(bundle.sha256) {
            whole += bundle.size
            if let fresh = load(bundle), !base.isEmpty {
                delta += min(bundle.size, FileDelta.bytes(from: base, to: fresh))
            } else {
                delta += bundle.size
            }
        }
        return (whole, delta)
    }

    /// Opens an encrypted bundle for comparison; nil when its key is not at hand.
    public typealias Decrypt = (DownloadManifest.Bundle, URL) throws -> URL?

    public static func compare(_ a: PublishedRelease, _ b: PublishedRelease, decrypt: Decrypt = { _, _ in nil }) throws -> ReleaseDiff {
        var diff = ReleaseDiff(tenant: b.manifest.tenant, from: a.manifest.release, to: b.manifest.release)
        let old = Dictionary(a.manifest.bundles.map { ($0.id, $0) }, uniquingKeysWith: { x, _ in x })
        let new = Dictionary(b.manifest.bundles.map { ($0.id, $0) }, uniquingKeysWith: { x, _ in x })
        diff.added = b.manifest.bundles.filter { old[$0.id] == nil }
        diff.removed = a.manifest.bundles.filter { new[$0.id] == nil }
        let have = Set(a.manifest.bundles.map(\.sha256))
        let fresh = b.manifest.bundles.filter { !have.contains($0.sha256) }
        let manifestBytes = a.manifestFile.sha256 == b.manifestFile.sha256 ? 0 : b.manifestFile.size
        diff.downloadAll = manifestBytes + fresh.reduce(0) { $0 + $1.size }
        diff.downloadEssential = manifestBytes + fresh.filter { $0.policy == .essential }.reduce(0) { $0 + $1.size }
        let indexOf = { (release: PublishedRelease) in { (bundle: DownloadManifest.Bundle) in release.indexFiles[bundle.id] } }
        func index(_ bundle: DownloadManifest.Bundle) -> URL? { b.manifest.bundle(bundle.id)?.sha256 == bundle.sha256 ? indexOf(b)(bundle) : indexOf(a)(bundle) }
        diff.deltaAll = manifestBytes + updateBytes(from: a.manifest.bundles, to: b.manifest.bundles, index: index).delta
        diff.deltaEssential = manifestBytes + updateBytes(from: a.manifest.bundles.filter { $0.policy == .essential },
                                                          to: b.manifest.bundles.filter { $0.policy == .essential }, index: index).delta

        func keep(_ path: String) -> Bool {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            return parts.count == 2 && (parts[0] == "locales" || parts[0] == "tokens") && path.hasSuffix(".json") && !path.hasSuffix(".tokens.json")
        }
        func contents(_ release: PublishedRelease, _ bundle: DownloadManifest.Bundle) throws -> [String: ArchiveListing.Content]? {
            guard let url = release.bundleFiles[bundle.id] else { return nil }
            guard bundle.encryption != nil else { return try ArchiveListing.contents(of: url, keep: keep) }
            guard let plain = try decrypt(bundle, url) else { return nil }
            defer { try? FileManager.default.removeItem(at: plain) }
            return try ArchiveListing.contents(of: plain, keep: keep)
        }
        for bundle in b.manifest.bundles {
            guard let before = old[bundle.id] else {
                // A new bundle's messages and tokens are all new.
                if let after = try contents(b, bundle) { diff.compareValues([:], after) }
                continue
            }
            guard before.sha256 != bundle.sha256 else { continue }
            var change = BundleChange(id: bundle.id, oldSize: before.size, newSize: bundle.size)
            if let was = try contents(a, before), let now = try contents(b, bundle) {
                change.filesAdded = now.keys.filter { was[$0] == nil }.sorted()
                change.filesRemoved = was.keys.filter { now[$0] == nil }.sorted()
                change.filesChanged = now.keys.filter { was[$0] != nil && was[$0]?.sha256 != now[$0]?.sha256 }.sorted()
                diff.compareValues(was, now)
            } else {
                change.note = "encrypted: files not compared (the tenant's content.key is not at hand)"
            }
            diff.changed.append(change)
        }
        for bundle in diff.removed {
            if let was = try contents(a, bundle) { diff.compareValues(was, [:]) }
        }
        diff.messages.sort { ($0.scope, $0.key) < ($1.scope, $1.key) }
        diff.tokens.sort { ($0.scope, $0.key) < ($1.scope, $1.key) }
        return diff
    }

    /// Messages of `locales/<locale>.json` and token values of `tokens/<mode>.json`, old against new.
    private mutating func compareValues(_ was: [String: ArchiveListing.Content], _ now: [String: ArchiveListing.Content]) {
        for path in Set(was.keys).union(now.keys).sorted() where was[path]?.data != nil || now[path]?.data != nil {
            guard was[path]?.sha256 != now[path]?.sha256 else { continue }
            let isToken = path.hasPrefix("tokens/")
            let scope = String(path.split(separator: "/").last?.dropLast(".json".count) ?? "")
            let before = Self.flat(was[path]?.data, tokens: isToken), after = Self.flat(now[path]?.data, tokens: isToken)
            for key in Set(before.keys).union(after.keys).sorted() where before[key] != after[key] {
                let change = ValueChange(scope: scope, key: key, old: before[key], new: after[key])
                if isToken { tokens.append(change) } else { messages.append(change) }
            }
        }
    }

    /// A flat JSON object's entries as text: a message's text, or a token's `$value` as canonical JSON.
    static func flat(_ data: Data?, tokens: Bool) -> [String: String] {
        guard let data, case .object(let object)? = try? JSONValue.parse(data) else { return [:] }
        var out: [String: String] = [:]
        for (key, value) in object {
            var shown = value
            if tokens, case .object(let token) = value, let inner = token["$value"] { shown = inner }
            // A colour reads best as its hex (the components are in the JSON form, and in the bundle).
            if tokens, case .object(let color) = shown, case .string(let hex)? = color["hex"], color["colorSpace"] != nil { shown = .string(hex) }
            if case .string(let text) = shown {
                out[key] = text
            } else {
                out[key] = String(decoding: shown.bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        return out
    }

    public var json: JSONValue {
        func bundle(_ b: DownloadManifest.Bundle) -> JSONValue { .object(["id": .string(b.id), "kind": .string(b.kind.rawValue), "size": .int(b.size)]) }
        func value(_ change: ValueChange, scopeName: String) -> JSONValue {
            var object: [String: JSONValue] = [scopeName: .string(change.scope), "key": .string(change.key)]
            if let old = change.old { object["old"] = .string(old) }
            if let new = change.new { object["new"] = .string(new) }
            return .object(object)
        }
        return .object([
            "tenant": .string(tenant), "from": .int(from), "to": .int(to),
            "bundles": .object([
                "added": .array(added.map(bundle)), "removed": .array(removed.map(bundle)),
                "changed": .array(changed.map { change in
                    var object: [String: JSONValue] = [
                        "id": .string(change.id), "oldSize": .int(change.oldSize), "newSize": .int(change.newSize),
                        "filesAdded": .array(change.filesAdded.map(JSONValue.string)), "filesRemoved": .array(change.filesRemoved.map(JSONValue.string)),
                        "filesChanged": .array(change.filesChanged.map(JSONValue.string)),
                    ]
                    if let note = change.note { object["note"] = .string(note) }
                    return .object(object)
                }),
            ]),
            "messages": .array(messages.map { value($0, scopeName: "locale") }),
            "tokens": .array(tokens.map { value($0, scopeName: "mode") }),
            "download": .object(["allBundles": .int(downloadAll), "essential": .int(downloadEssential)]),
            "deltaDownload": .object(["allBundles": .int(deltaAll), "essential": .int(deltaEssential)]),
        ])
    }

    public var text: String {
        var lines = ["\(tenant): release \(from) → \(to)"]
        func size(_ n: Int) -> String { n < 1024 ? "\(n) B" : n < 1 << 20 ? String(format: "%.1f KiB", Double(n) / 1024) : String(format: "%.1f MiB", Double(n) / 1_048_576) }
        if added.isEmpty && removed.isEmpty && changed.isEmpty { lines.append("no bundle changed") }
        for b in added { lines.append("+ \(b.id) (\(size(b.size)))") }
        for b in removed { lines.append("- \(b.id) (\(size(b.size)))") }
        for c in changed {
            lines.append("~ \(c.id) (\(size(c.oldSize)) → \(size(c.newSize)))")
            for f in c.filesAdded { lines.append("    + \(f)") }
            for f in c.filesRemoved { lines.append("    - \(f)") }
            for f in c.filesChanged { lines.append("    ~ \(f)") }
            if let note = c.note { lines.append("    (\(note))") }
        }
        func show(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "(none)" }
        if !messages.isEmpty { lines.append("messages:") }
        for m in messages { lines.append("  [\(m.scope)] \(m.key): \(show(m.old)) → \(show(m.new))") }
        if !tokens.isEmpty { lines.append("tokens:") }
        for t in tokens { lines.append("  [\(t.scope)] \(t.key): \(t.old ?? "(none)") → \(t.new ?? "(none)")") }
        lines.append("download from \(from) to \(to): \(size(downloadAll)) with every bundle installed, \(size(downloadEssential)) with the essential bundles only")
        lines.append("  by delta (only the changed files): \(size(deltaAll)) with every bundle installed, \(size(deltaEssential)) with the essential bundles only")
        return lines.joined(separator: "\n") + "\n"
    }
}
