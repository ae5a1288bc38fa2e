import Foundation
import LiveryReleaseFormat

extension DownloadManifest {
    /// The manifest of the bundles a build made (sorted by id).
    public init(tenant: String, release: Int, format: ArchiveFormat, minimumClientVersion: String, built: [BuiltBundle]) {
        self.init(tenant: tenant, release: release, format: format, minimumClientVersion: minimumClientVersion, bundles: built.map {
            Bundle(id: $0.spec.id, kind: $0.spec.kind, subject: $0.spec.subject, locale: $0.spec.locale, size: $0.size, sha256: $0.sha256,
                   path: "targets/\($0.targetFileName)", policy: $0.spec.policy, access: $0.spec.access, dependencies: $0.spec.dependencies,
                   minimumClientVersion: minimumClientVersion, encryption: $0.encryption, media: $0.spec.media, installSize: $0.spec.installSize,
                   availableFrom: $0.spec.availability.from, availableUntil: $0.spec.availability.until, files: $0.files)
        }.sorted { $0.id < $1.id })
    }
}
