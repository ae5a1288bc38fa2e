import Crypto
import Foundation
import LiveryObjectStore
import LiverySign
import LiveryReleaseFormat

/// Where the releases a voucher server grants access to live, and so what its signed URLs point at.
public enum ReleaseStore: Sendable {
    /// The folder `livery serve` serves (`Output/`): signed URLs are paths on this server (`SignedURL`).
    case folder
    /// A bucket `livery publish` published to: signed URLs are S3 presigned GETs of the protected
    /// copies (`<prefix>/<tenant>/protected/<file>`), which the bucket serves only with a valid signature.
    case bucket(S3Client, S3Location)
}

/// The current release's access rules of each tenant in a bucket, read from its signed metadata
/// (`timestamp.json`, the snapshot it names, the targets files that snapshot names) and read again
/// when `timestamp.json` changes, which is checked at most every `interval` seconds per tenant.
final class BucketReleaseAccess: @unchecked Sendable {
    let client: S3Client
    let location: S3Location
    let interval: TimeInterval
    private let lock = NSLock()
    // Guarded by `lock`.
    private var cached: [String: (checked: Date, etag: String?, access: ReleaseAccess?)] = [:]

    init(client: S3Client, location: S3Location, interval: TimeInterval = 10) {
        self.client = client
        self.location = location
        self.interval = interval
    }

    func access(tenant: String) async throws -> ReleaseAccess? {
        let now = Date()
        let known = lock.withLock { cached[tenant] }
        if let known, now.timeIntervalSince(known.checked) < interval { return known.access }
        let base = location.key("\(tenant)/metadata/")
        guard let timestamp = try await client.get(bucket: location.bucket, key: base + "timestamp.json", limit: 1 << 20) else {
            lock.withLock { cached[tenant] = (now, nil, nil) }
            return nil
        }
        if let known, known.etag == timestamp.etag {
            lock.withLock { cached[tenant] = (now, known.etag, known.access) }
            return known.access
        }
        var files = ["timestamp.json": timestamp.data]
        let version = try Metadata<Timestamp>(data: timestamp.data).signed.snapshot.version
        let snapshotName = "\(version).snapshot.json"
        guard let snapshot = try await client.get(bucket: location.bucket, key: base + snapshotName, limit: 16 << 20) else {
            throw TUFError(.repository, "s3://\(location.bucket)/\(base)\(snapshotName) is missing")
        }
        files[snapshotName] = snapshot.data
        for (file, entry) in try Metadata<Snapshot>(data: snapshot.data).signed.meta where file.hasSuffix(".json") {
            let name = PublishedMetadata.fileName(role: String(file.dropLast(".json".count)), version: entry.version)
            files[name] = try await client.get(bucket: location.bucket, key: base + name, limit: 64 << 20)?.data
        }
        let published = try PublishedMetadata.load { files[$0] }
        let access = try ReleaseAccess.read(published, metadata: nil)
        lock.withLock { cached[tenant] = (now, timestamp.etag, access) }
        return access
    }
}

/// The tenants' content secrets (`<folder>/<tenant>/content.key`, the key store's layout), read on
/// first use and kept.
final class ContentSecrets: @unchecked Sendable {
    let store: KeyStore?
    private let lock = NSLock()
    private var known: [String: ContentSecret] = [:]

    init(folder: URL?) {
        store = folder.map(KeyStore.init(root:))
    }

    func secret(tenant: String) throws -> ContentSecret? {
        if let secret = lock.withLock({ known[tenant] }) { return secret }
        guard let secret = try store?.contentSecret(for: tenant, create: false) else { return nil }
        lock.withLock { known[tenant] = secret }
        return secret
    }
}

extension VoucherState {
    /// The answer to a redemption, or to a token asking for fresh URLs: the subject's bundles in the
    /// current release, a signed URL for each, and the content key of each encrypted one sealed for
    /// `deviceKey` (none without a device key: a client that sends none cannot decrypt).
    func answer(tenant: String, token: String, subject: VoucherSubject, expires: Date, deviceKey: Curve25519.KeyAgreement.PublicKey?,
                tokenSecret: SymmetricKey) async throws -> RedemptionAnswer {
        let now = Date()
        let access = try await access(tenant: tenant)
        let bundles = access?.subjects[subject]?.bundles ?? []
        let urlsExpire = min(now.addingTimeInterval(SignedURL.lifetime), expires)
        var urls: [String: String] = [:]
        var keys: [WrappedContentKey] = []
        for bundle in bundles {
            guard let delivery = access?.deliveries[bundle] else { continue }
            switch releases {
            case .folder:
                urls[bundle] = SignedURL(path: "/\(tenant)/targets/\(delivery.file)", expires: urlsExpire).reference(signedWith: tokenSecret)
            case .bucket(let client, let location):
                let seconds = max(1, Int(urlsExpire.timeIntervalSince(now).rounded(.down)))
                urls[bundle] = client.presignedGET(bucket: location.bucket, key: location.key(RemoteLayout.protectedKey(tenant: tenant, file: delivery.file)),
                                                   expires: seconds, date: now).absoluteString
            }
            if let encryption = delivery.encryption, let deviceKey {
                guard encryption.scheme == BundleEncryption.scheme else { throw VoucherFailure("bundle '\(bundle)' of '\(tenant)' uses the unknown encryption \(encryption.scheme)") }
                guard let secret = try contentSecrets.secret(tenant: tenant) else {
                    throw VoucherFailure("no content secret for '\(tenant)' (content.key in the --content-keys folder): its encrypted bundles cannot be unlocked")
                }
                keys.append(try WrappedContentKey.wrap(secret.contentKey(keyID: encryption.keyID), bundle: bundle, keyID: encryption.keyID, for: deviceKey))
            }
        }
        return RedemptionAnswer(token: token, subject: subject, bundles: bundles, expires: expires, urls: urls,
                                urlsExpire: urls.isEmpty ? nil : urlsExpire, keys: keys)
    }
}
