import Foundation
import LiveryTUF

/// What `livery verify` found for one release.
public struct VerificationReport: Sendable {
    public var release: Int?
    /// The release being rolled out to part of the devices, if any.
    public var staged: Int?
    public var versions: [String: Int] = [:]
    public var timestampExpires: Date?
    public var targets = 0
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
