import Foundation
import LiveryTUF

/// What `livery verify` found for one release.
public struct VerificationReport: Sendable {
    public var release: Int?
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
        // The download manifest must describe exactly the signed bundles (no mix-and-match).
        do {
            let manifest = try DownloadManifest(data: try TUFUpdater.target(DownloadManifest.targetName, in: trusted, from: source))
            report.release = manifest.release
            let bundles = manifest.bundles
            for bundle in bundles {
                guard let signed = trusted.target(bundle.targetName(format: manifest.format)) else {
                    report.problems.append("bundle '\(bundle.id)' of the download manifest is not a signed target")
                    continue
                }
                if signed.sha256 != bundle.sha256 || signed.length != bundle.size {
                    report.problems.append("bundle '\(bundle.id)' in the download manifest differs from its signed target (size or SHA-256)")
                }
            }
            if let pointerData = try? source.fetch(ReleasePointer.fileName, maxLength: 64 * 1024), let pointer = try? ReleasePointer(data: pointerData),
               pointer.sha256 != trusted.target(DownloadManifest.targetName)?.sha256 {
                report.problems.append("release.json points at a download manifest (release \(pointer.release)) that the signed metadata does not vouch for")
            }
            if bundles.count + 1 != report.targets {
                report.problems.append("the signed targets (\(report.targets)) are not exactly the manifest's \(bundles.count) bundles plus the manifest")
            }
        } catch {
            report.problems.append("download manifest: \(error)")
        }
        return report
    }
}
