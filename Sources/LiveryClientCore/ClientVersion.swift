import Foundation
import LiveryStorage
import LiveryReleaseFormat

/// An app version as `minimumClientVersion` writes it: `X.Y.Z`, three whole numbers, compared
/// number by number (so 1.10.0 is newer than 1.9.3). Nothing else is accepted: no pre-release or
/// build suffix, which the download manifest's schema does not allow either.
public struct ClientVersion: Comparable, CustomStringConvertible, Sendable {
    public var major: Int, minor: Int, patch: Int

    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var numbers: [Int] = []
        for part in parts {
            // Digits only, no sign, no leading zero (as the schema's pattern): one spelling per version.
            guard !part.isEmpty, part.count <= 9, part.allSatisfy({ $0.isASCII && $0.isNumber }), part == "0" || part.first != "0", let n = Int(part) else { return nil }
            numbers.append(n)
        }
        (major, minor, patch) = (numbers[0], numbers[1], numbers[2])
    }

    public static func < (a: ClientVersion, b: ClientVersion) -> Bool { (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch) }
    public var description: String { "\(major).\(minor).\(patch)" }
}

/// The release, or a bundle the app asked for, needs a newer app than this one: nothing was
/// installed, and the installed release (if any) stays. The app should tell its user to update.
public struct AppUpdateRequired: Error, CustomStringConvertible, Sendable {
    public var tenant: String
    public var release: Int
    /// The bundles that need it; empty when the whole release does.
    public var bundles: [String]
    public var required: ClientVersion
    public var app: ClientVersion
    /// The release that stays installed, if any.
    public var kept: Int?

    public var description: String {
        let what = bundles.isEmpty ? "\(tenant) release \(release)" : "\(bundles.joined(separator: ", ")) of \(tenant) release \(release)"
        return "\(what) needs app version \(required) or newer (this app is \(app)): update the app"
            + (kept.map { "; release \($0) stays installed" } ?? "")
    }
}

extension ReleaseInstaller {
    /// Throws `AppUpdateRequired` when the manifest, or one of the `wanted` bundles, asks for a newer
    /// app than `app`; a `minimumClientVersion` that is not `X.Y.Z` is a malformed manifest.
    public static func checkAppVersion(_ app: ClientVersion, manifest: DownloadManifest, wanted: [String], kept: Int?) throws {
        func required(_ text: String, _ what: String) throws -> ClientVersion {
            guard let version = ClientVersion(text) else {
                throw TUFError(.malformed, "\(DownloadManifest.targetName): \(what) minimumClientVersion '\(text)' is not X.Y.Z")
            }
            return version
        }
        let release = try required(manifest.minimumClientVersion, "the release's")
        guard app >= release else {
            throw AppUpdateRequired(tenant: manifest.tenant, release: manifest.release, bundles: [], required: release, app: app, kept: kept)
        }
        var needing: [(String, ClientVersion)] = []
        for id in wanted {
            guard let bundle = manifest.bundle(id) else { continue }
            let version = try required(bundle.minimumClientVersion, "bundle '\(id)'s")
            if app < version { needing.append((id, version)) }
        }
        if let highest = needing.map(\.1).max() {
            throw AppUpdateRequired(tenant: manifest.tenant, release: manifest.release, bundles: needing.map(\.0), required: highest, app: app, kept: kept)
        }
    }
}

/// What a fetch needs on the cache's disk before it starts: the bundles still to download (by their
/// signed lengths) and room to install the release (each bundle's `installSize` from the download
/// manifest, its files rounded up to 4 KiB blocks; the archive's size for manifests without it; an
/// encrypted bundle is also decrypted beside it).
public struct SpaceNeeded: Sendable, Equatable {
    public var download: Int64
    public var install: Int64
    public var total: Int64 { download + install }
}

/// The cache's disk cannot hold what the fetch needs: nothing was downloaded, the installed release stays.
public struct InsufficientSpace: Error, CustomStringConvertible, Sendable {
    public var tenant: String
    public var release: Int
    public var needed: SpaceNeeded
    public var available: Int64
    public var cache: String
    /// The release that stays installed, if any.
    public var kept: Int?

    public var description: String {
        "\(tenant) release \(release) needs \(ByteCount.text(needed.total)) on the disk of \(cache) (\(ByteCount.text(needed.download)) to download, "
            + "\(ByteCount.text(needed.install)) to install), and \(ByteCount.text(available)) is free: free some space"
            + (kept.map { "; release \($0) stays installed" } ?? "; nothing was installed")
    }
}

extension ReleaseInstaller {
    /// Free bytes for an unprivileged writer on the file system holding `folder` (POSIX `statvfs`, on Linux and Apple platforms alike).
    public static func availableSpace(at folder: URL) -> Int64? {
        var info = statvfs()
        guard statvfs(folder.path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}

/// The cache's disk filled up during a fetch, after the space check passed (another writer took the room, or the
/// file system's overhead was more than the estimate). The fetch changed nothing the app can see.
public struct CacheFull: Error, CustomStringConvertible, Sendable {
    public var tenant: String
    public var cache: String
    /// Free bytes after the failure.
    public var available: Int64?
    /// What was being written, in the words of the error that stopped it.
    public var writing: String
    /// The release that stays installed, if any.
    public var kept: Int?

    public var description: String {
        "\(tenant): the disk of \(cache) is full (\(available.map(ByteCount.text) ?? "?") free): \(writing): free some space"
            + (kept.map { "; release \($0) stays installed" } ?? "; nothing was installed")
    }

    /// What `error` was writing, in words: the file (relative to `cache`) when Foundation names it, else the error's own text.
    static func writing(_ error: Error, cache: URL) -> String {
        let ns = error as NSError
        let reason = String(cString: strerror((ns.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(EDQUOT) ? EDQUOT : ENOSPC))
        guard let path = ns.userInfo[NSFilePathErrorKey] as? String ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path else { return "\(error)" }
        let root = cache.standardizedFileURL.path + "/"
        return "writing \(path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path): \(reason)"
    }

    /// Whether `error` is a write that found no room (ENOSPC) or no quota (EDQUOT): typed, as the build side's
    /// `WriteFailure` reads Foundation's errors; libarchive and our own wrappers pass them on as text, so the
    /// operating system's wording is looked for too, and `WriteFailure`'s own (a metadata or target write that
    /// failed, passed on inside a TUF error's text).
    public static func isOutOfSpace(_ error: Error) -> Bool {
        if error is CacheFull || error is InsufficientSpace { return false }
        if let failure = WriteFailure(error, path: ""), failure.kind == .noSpace || failure.kind == .quota { return true }
        let text = String(describing: error)
        return [String(cString: strerror(ENOSPC)), String(cString: strerror(EDQUOT)), WriteFailure.Kind.noSpace.phrase, WriteFailure.Kind.quota.phrase,
                "enough space", "out of space"]
            .contains { text.localizedCaseInsensitiveContains($0) }
    }
}
