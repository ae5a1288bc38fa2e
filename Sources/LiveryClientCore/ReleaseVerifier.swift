import Crypto
import Foundation
import LiveryReleaseFormat

/// What `livery verify` found for one release.
public struct VerificationReport: Sendable {
    public var release: Int?
    /// The release being rolled out to part of the devices, if any.
    public var staged: Int?
    public var versions: [String: Int] = [:]
    public var timestampExpires: Date?
    public var targets = 0
    /// File indexes checked against their archives (docs/deltas.md).
    public var indexes = 0
    public var problems: [String] = []

    public var isValid: Bool { problems.isEmpty }
}

/// Verifies a published release exactly as a client would: the TUF metadata chain from a trusted
/// root, every target's length and SHA-256, and the download manifest against the signed targets.
public enum ReleaseVerifier {
    public static func verify(_ source: any RepositorySource, trustedRoot: Data? = nil, now: Date = Date()) -> VerificationReport {
        var report = VerificationReport()
        let root: Data
        do {
            guard let bootstrap = try trustedRoot ?? source.fetch("metadata/1.root.json", maxLength: TUFUpdater.Limits().root) else {
                report.problems.append("no metadata/1.root.json: the release is not signed (build without --unsigned)")
                return report
            }
            root = bootstrap
        } catch {
            report.problems.append("\(error)")
            return report
        }
        let trusted: TrustedMetadata
        do {
            trusted = try TUFUpdater.refresh(source: source, trustedRoot: root, now: now)
        } catch {
            report.problems.append("\(error)")
            return report
        }
        report.versions = trusted.versions.filter { TUFRole(rawValue: $0.key) != nil }
        report.timestampExpires = trusted.set.timestamp?.signed.expires
        report.targets = trusted.targetNames.count
        for name in trusted.targetNames {
            do { _ = try TUFUpdater.target(name, in: trusted, from: source) } catch { report.problems.append("\(error)") }
        }
        // The download manifest must describe exactly the signed bundles (no mix-and-match); so must
        // the manifest of a release being rolled out, under `staged/`.
        var expected = 0
        for (prefix, name) in [("", DownloadManifest.targetName), (RolloutStage.targetPrefix, RolloutStage.stagedManifestName)] {
            guard prefix.isEmpty || trusted.target(name) != nil else { continue }
            let what = prefix.isEmpty ? "the download manifest" : "the staged download manifest"
            do {
                let manifest = try DownloadManifest(data: try TUFUpdater.target(name, in: trusted, from: source))
                if prefix.isEmpty { report.release = manifest.release } else { report.staged = manifest.release }
                for bundle in manifest.bundles {
                    guard let signed = trusted.target(prefix + bundle.targetName(format: manifest.format)) else {
                        report.problems.append("bundle '\(bundle.id)' of \(what) is not a signed target")
                        continue
                    }
                    if signed.sha256 != bundle.sha256 || signed.length != bundle.size {
                        report.problems.append("bundle '\(bundle.id)' in \(what) differs from its signed target (size or SHA-256)")
                    } else if let reference = bundle.files {
                        // The file index must describe the signed archive exactly: a device installs what it says.
                        do {
                            let path = "targets/\(prefix)\(reference.sha256).\(bundle.id).files"
                            guard let object = try source.fetch(path, maxLength: 256 << 20) else { throw TUFError("\(path) is missing") }
                            let index = try FileIndex(object: object, reference: reference, what: "the file index of \(bundle.id)")
                            let archive = try TUFUpdater.target(prefix + bundle.targetName(format: manifest.format), in: trusted, from: source)
                            try FileIndexCheck.check(index, bundle: bundle, archive: archive)
                            report.indexes += 1
                        } catch {
                            report.problems.append("bundle '\(bundle.id)' of \(what): \(error)")
                        }
                    }
                }
                expected += manifest.bundles.count + 1
            } catch {
                report.problems.append("\(what): \(error)")
            }
        }
        if let pointerData = try? source.fetch(ReleasePointer.fileName, maxLength: 64 * 1024), let pointer = try? ReleasePointer(data: pointerData),
           pointer.sha256 != trusted.target(DownloadManifest.targetName)?.sha256 {
            report.problems.append("release.json points at a download manifest (release \(pointer.release)) that the signed metadata does not vouch for")
        }
        if expected != report.targets {
            report.problems.append("the signed targets (\(report.targets)) are not exactly the manifests' bundles plus the manifests (\(expected))")
        }
        return report
    }
}

/// Checks a bundle's file index against its archive, file by file (`livery verify`).
enum FileIndexCheck {
    static func check(_ index: FileIndex, bundle: DownloadManifest.Bundle, archive: Data) throws {
        guard index.table.bundle == bundle.id, index.table.archiveSHA256 == bundle.sha256, index.table.archiveSize == bundle.size, archive.count == bundle.size else {
            throw TUFError("its file index describes another archive")
        }
        var seen = Set<String>()
        for entry in index.absoluteEntries {
            guard seen.insert(try ArchiveExtractor.normalise(entry.path)).inserted else { throw TUFError("its file index lists '\(entry.path)' twice") }
            guard entry.offset + entry.length <= archive.count else { throw TUFError("its file index puts '\(entry.path)' outside the archive") }
            let data = archive.subdata(in: entry.offset..<(entry.offset + entry.length))
            var bytes = Data()
            switch entry.method {
            case .stored: bytes = data
            case .deflate:
                _ = try BoundedInflate.inflate(length: data.count, chunkSize: 1 << 16, skipCRC32: true, what: "the deflate data of '\(entry.path)'",
                                               read: { data.subdata(in: $0..<($0 + $1)) }) { chunk in
                    bytes.append(chunk)
                    if bytes.count > entry.size { throw TUFError("'\(entry.path)' inflates past its size") }
                }
            }
            guard bytes.count == entry.size, SHA256.hash(data: bytes).hexString == entry.sha256 else {
                throw TUFError("'\(entry.path)' in the archive does not match its file index entry")
            }
        }
        // Every file of the archive is indexed: the index lists as many files as the archive's central directory.
        let directory = try ZipCentralDirectory(archive: archive, name: bundle.id, maxEntries: 1_000_000)
        guard directory.records.count == seen.count else { throw TUFError("its file index lists \(seen.count) files, the archive holds \(directory.records.count)") }
    }
}
