import Crypto
import Foundation
import LiveryClient
import LiveryObjectStore
import LiveryReleaseFormat
import ZIPFoundation

// The delivery half's parsers of untrusted bytes, each a target of the same harness, chosen with
// LIVERY_FUZZ_TARGET (libFuzzer runs) or `replay --target NAME` (saved inputs):
// - `s3-xml`: an object store's XML answers (`S3XML`, over LiveryXML's libxml2 reader);
// - `aws-ini`: AWS config and credentials files (`AWSIniFile`);
// - `redemption-answer`: a voucher server's answer, as the client reads it (`RedemptionAnswer`);
// - `download-manifest`: the signed download manifest (`DownloadManifest`);
// - `file-index`: a bundle's file index object (`FileIndex`, docs/deltas.md), and the delta planned from it;
// - `encrypted-bundle`: a protected bundle's ciphertext (`SegmentedAEAD.decrypt`, with a fixed key);
// - `zip-bundle`: a downloaded bundle as the client extracts it (`ArchiveExtractor`: its own read of
//   the zip's central directory, then ZIPFoundation's inflater fed entry by entry);
// - `key-file`: a signing key file (`KeyFileDocument`; KeyFileFuzz.swift), from the signing side;
// - `audit-log`, `pkcs11-uri`: an audit log and a PKCS#11 key URI (CustodyFuzz.swift);
// - `image-header`, `subtitles`, `audio-frames`: an image's header as the asset check probes it, a
//   subtitle file, an MP3 or WAV file as the media probe walks it (MediaFuzz.swift);
// - `mp4-boxes`: an MP4 or QuickTime file's box tree as the asset check measures it (MP4Fuzz.swift);
// - `lsp-framing`: what an editor writes to `livery lsp` (LSPFramingFuzz.swift).
// Each input must be accepted or refused without a crash, and what is accepted must keep its
// invariants, stated per target below.

enum FuzzTarget: String, CaseIterable {
    case releaseJSON = "release-json"
    case s3XML = "s3-xml"
    case awsIni = "aws-ini"
    case redemptionAnswer = "redemption-answer"
    case downloadManifest = "download-manifest"
    case fileIndex = "file-index"
    case encryptedBundle = "encrypted-bundle"
    case zipBundle = "zip-bundle"
    case keyFile = "key-file"
    case auditLog = "audit-log"
    case pkcs11URI = "pkcs11-uri"
    case imageHeader = "image-header"
    case subtitles
    case audioFrames = "audio-frames"
    case mp4Boxes = "mp4-boxes"
    case lspFraming = "lsp-framing"

    /// The target of a libFuzzer run: `LIVERY_FUZZ_TARGET`, default `release-json`.
    static let selected: FuzzTarget = ProcessInfo.processInfo.environment["LIVERY_FUZZ_TARGET"].flatMap(FuzzTarget.init) ?? .releaseJSON

    /// The key `encrypted-bundle` inputs are read with (the seeds are encrypted with it).
    static let fuzzKey = SymmetricKey(data: Data(repeating: 0x5A, count: 32))

    /// What went wrong with `data`, or nil.
    func check(_ data: Data) -> String? {
        switch self {
        case .releaseJSON: return checkReleaseJSON(data)
        case .s3XML: return Self.checkS3XML(data)
        case .awsIni: return Self.checkAWSIni(data)
        case .redemptionAnswer: return Self.checkRedemptionAnswer(data)
        case .downloadManifest: return Self.checkDownloadManifest(data)
        case .fileIndex: return Self.checkFileIndex(data)
        case .encryptedBundle: return Self.checkEncryptedBundle(data)
        case .zipBundle: return Self.checkZipBundle(data)
        case .keyFile: return Self.checkKeyFile(data)
        case .auditLog: return Self.checkAuditLog(data)
        case .pkcs11URI: return Self.checkPKCS11URI(data)
        case .imageHeader: return Self.checkImageHeader(data)
        case .subtitles: return Self.checkSubtitles(data)
        case .audioFrames: return Self.checkAudioFrames(data)
        case .mp4Boxes: return Self.checkMP4Boxes(data)
        case .lspFraming: return Self.checkLSPFraming(data)
        }
    }

    /// Accepted: a root element name; fields and records hold no element markup.
    static func checkS3XML(_ data: Data) -> String? {
        guard let xml = S3XML(data) else { return nil }
        if xml.root.isEmpty { return "S3XML accepted a document without a root name" }
        if data.count > S3XML.maximumBytes { return "S3XML accepted more than its limit" }
        return nil
    }

    /// Keys are lower case and trimmed, values trimmed, whatever the text.
    static func checkAWSIni(_ data: Data) -> String? {
        let file = AWSIniFile(text: String(decoding: data, as: UTF8.self))
        for (section, entries) in file.all {
            if section.isEmpty { return "an empty section name" }
            for (key, value) in entries {
                if key != key.lowercased() { return "key '\(key)' is not lower case" }
                if key.trimmingCharacters(in: .whitespaces) != key || value.trimmingCharacters(in: .whitespaces) != value {
                    return "key or value '\(key)' = '\(value)' is not trimmed"
                }
                if file.value(section, key) != value { return "value(\(section), \(key)) does not give the listed value" }
            }
        }
        return nil
    }

    /// Accepted: written back by its own writer, it reads as the same answer.
    static func checkRedemptionAnswer(_ data: Data) -> String? {
        guard let answer = try? RedemptionAnswer(data: data) else { return nil }
        guard let again = try? RedemptionAnswer(data: answer.json.bytes) else { return "the written answer does not read back: \(answer)" }
        return again == answer ? nil : "the answer reads back differently: \(answer) / \(again)"
    }

    /// Accepted: bundle ids unique, and written back it reads as the same manifest.
    static func checkDownloadManifest(_ data: Data) -> String? {
        guard let manifest = try? DownloadManifest(data: data) else { return nil }
        if Set(manifest.bundles.map(\.id)).count != manifest.bundles.count { return "duplicate bundle ids accepted" }
        guard let again = try? DownloadManifest(data: manifest.bytes) else { return "the written manifest does not read back" }
        return again == manifest ? nil : "the manifest reads back differently"
    }

    /// Accepted (its first line taken as the signed table): the typed index writes back to an object that
    /// reads back the same; every file lies within the limits; planning a delta from it to itself and
    /// from nothing costs what it must.
    static func checkFileIndex(_ data: Data) -> String? {
        guard let newline = data.firstIndex(of: 0x0A) else { return nil }
        let table = data[data.startIndex...newline]
        let reference = FileIndexReference(sha256: SHA256.hash(data: table).hexString, size: table.count)
        // The strict read (digests checked) must never crash; past it, the lines are also read one by one without
        // the page digests (which a fuzzer cannot forge), as a signer's own bytes would be, to reach the planner.
        let strict = try? FileIndex(object: data, reference: reference, what: "fuzz")
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: true)
        guard let parsedTable = try? FileIndexTable(data: Data(lines[0]), what: "fuzz") else { return strict == nil ? nil : "a strict index whose table does not read" }
        let pages = lines.dropFirst().compactMap { try? FileIndexPage(data: Data($0), what: "fuzz") }
        guard pages.count == parsedTable.pages.count, zip(parsedTable.pages, pages).allSatisfy({ $0.count == $1.entries.count }) else { return nil }
        let index = strict ?? FileIndex(table: parsedTable, pages: pages)
        guard let again = try? FileIndex(object: index.objectBytes, reference: index.reference, what: "again"), again == index else {
            return "an accepted index does not read back from what it writes"
        }
        let entries = index.absoluteEntries
        if entries.count != index.table.entryCount { return "the pages hold another number of files than the table says" }
        if entries.contains(where: { $0.offset < 0 || $0.offset > 2 * FileIndex.maxBytes }) { return "an offset out of bounds was accepted" }
        if FileDelta.bytes(from: [index], to: index) != index.tableBytes.count { return "a delta to the same index costs more than its table" }
        let files = FileDelta.filesToFetch(entries) { _ in false }
        if files.reduce(0, { $0 + $1.items.count }) != entries.count { return "a file is missing from the planned ranges" }
        return nil
    }

    /// Opened: encrypting the plaintext again with the header's segment size gives the same bytes
    /// (so no other ciphertext opens to it: the format has one spelling per plaintext and key).
    static func checkEncryptedBundle(_ data: Data) -> String? {
        guard let plain = try? SegmentedAEAD.decrypt(data, key: fuzzKey) else { return nil }
        let size = data.prefix(12).suffix(4).reduce(0) { $0 << 8 | Int($1) }
        guard let sealed = try? SegmentedAEAD.encrypt(plain, key: fuzzKey, segmentSize: size) else { return "an opened ciphertext's segment size is refused" }
        return sealed == data ? nil : "a ciphertext that is not the encryption of what it opens to was accepted"
    }

    /// Accepted: every file written is a regular file inside the destination, and no more bytes than
    /// the extractor's byte cap were written.
    static func checkZipBundle(_ data: Data) -> String? {
        let fm = FileManager.default
        let work = fm.temporaryDirectory.appendingPathComponent("livery-fuzz-zip-\(getpid())")
        try? fm.removeItem(at: work)
        defer { try? fm.removeItem(at: work) }
        let archive = work.appendingPathComponent("bundle.zip"), destination = work.appendingPathComponent("out")
        do {
            try fm.createDirectory(at: work, withIntermediateDirectories: true)
            try data.write(to: archive)
        } catch { return "cannot write the input: \(error)" }
        var limits = ArchiveExtractor.Limits()
        limits.maxBytes = 4 << 20
        guard (try? ArchiveExtractor.extract(archive, into: destination, limits: limits)) != nil else { return nil }
        var total = 0
        let base = destination.standardizedFileURL.resolvingSymlinksInPath().path
        let keys: Set<URLResourceKey> = [.isSymbolicLinkKey, .isRegularFileKey, .isDirectoryKey, .fileSizeKey]
        guard let walker = fm.enumerator(at: destination, includingPropertiesForKeys: Array(keys)) else { return "the destination cannot be read" }
        for case let url as URL in walker {
            guard let values = try? url.resourceValues(forKeys: keys) else { return "an extracted path cannot be read" }
            if values.isSymbolicLink == true { return "a symbolic link was extracted: \(url.path)" }
            guard values.isRegularFile == true || values.isDirectory == true else { return "something other than a file or folder was extracted: \(url.path)" }
            guard url.standardizedFileURL.resolvingSymlinksInPath().path.hasPrefix(base + "/") else { return "a file outside the destination: \(url.path)" }
            total += values.fileSize ?? 0
        }
        return total <= limits.maxBytes ? nil : "\(total) bytes extracted, over the \(limits.maxBytes)-byte cap"
    }

    /// A small zip made by ZIPFoundation: a folder, a stored file and a deflated one.
    static func zipSeed() throws -> Data {
        let archive = try Archive(accessMode: .create)
        let text = Data(String(repeating: "Livery bundle text. ", count: 200).utf8)
        let empty: Provider = { (_: Int64, _: Int) in Data() }
        let tenant: Provider = { (_: Int64, _: Int) in Data(#"{"id":"fuzz"}"#.utf8) }
        let locale: Provider = { (position: Int64, size: Int) in text.subdata(in: Int(position)..<min(Int(position) + size, text.count)) }
        try archive.addEntry(with: "locales/", type: .directory, uncompressedSize: Int64(0), provider: empty)
        try archive.addEntry(with: "tenant.json", type: .file, uncompressedSize: Int64(13), provider: tenant)
        try archive.addEntry(with: "locales/en.json", type: .file, uncompressedSize: Int64(text.count), compressionMethod: .deflate, provider: locale)
        guard let data = archive.data else { throw TUFError("ZIPFoundation kept no archive in memory") }
        return data
    }

    /// Seeds for the delivery targets (written by `seeds DIR`).
    static func seeds() throws -> [FuzzTarget: [Data]] {
        let phone = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: Data(repeating: 3, count: 32))
        let wrapped = try WrappedContentKey.wrap(SymmetricKey(data: Data(repeating: 9, count: 32)), bundle: "tour.t", keyID: String(repeating: "ab", count: 16),
                                                  for: phone.publicKey)
        let answer = RedemptionAnswer(token: "eyJ0.x", subject: VoucherSubject(.tour, "t"), bundles: ["tour.t", "tour.t.en"], expires: Date(timeIntervalSince1970: 1_800_000_000),
                                      urls: ["tour.t": "/x/targets/ab.tour.t.zip?lv-exp=1&lv-sig=AA"], urlsExpire: Date(timeIntervalSince1970: 1_799_000_000), keys: [wrapped])
        let manifest = DownloadManifest(tenant: "x", release: 3, format: .zip, minimumClientVersion: "1.0.0", bundles: [
            .init(id: "core", kind: .core, subject: nil, locale: nil, size: 10, sha256: String(repeating: "0", count: 64), path: "targets/0.core.zip",
                  policy: .essential, access: .public, dependencies: [], minimumClientVersion: "1.0.0"),
            .init(id: "tour.t", kind: .tour, subject: "t", locale: nil, size: 99, sha256: String(repeating: "1", count: 64), path: "targets/1.tour.t.zip",
                  policy: .onDemand, access: .voucher, dependencies: ["core"], minimumClientVersion: "1.0.0", encryption: BundleEncryption(keyID: String(repeating: "cd", count: 16))),
        ])
        let xml = [
            #"<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message><RequestId>tx1</RequestId></Error>"#,
            #"<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><IsTruncated>true</IsTruncated><NextContinuationToken>abc</NextContinuationToken><Contents><Key>a/b.json</Key><Size>12</Size><ETag>&quot;e1&quot;</ETag></Contents><Contents><Key>a/c</Key><Size>0</Size></Contents></ListBucketResult>"#,
            #"<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k</Key><UploadId>2~abc</UploadId></InitiateMultipartUploadResult>"#,
        ]
        let ini = [
            "[default]\naws_access_key_id = AKIA\naws_secret_access_key = s3cr3t\nregion=eu-west-1\n",
            "[profile ci]\nendpoint_url = http://127.0.0.1:7480\ns3 =\n  addressing_style = path\n  signature_version = s3v4\n; comment\n# another\n[ profile  spaced ]\nkey=value = more\n",
        ]
        let plain = Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        return [
            .s3XML: xml.map { Data($0.utf8) },
            .awsIni: ini.map { Data($0.utf8) },
            .redemptionAnswer: [answer.json.bytes, RedemptionAnswer(token: "t", subject: VoucherSubject(.pack, "p"), bundles: [], expires: Date(timeIntervalSince1970: 0)).json.bytes],
            .downloadManifest: [manifest.bytes],
            .fileIndex: [FileIndex.paginate(bundle: "core", archiveSHA256: String(repeating: "a", count: 64), archiveSize: 1 << 20, entries: (0..<150).map { i in
                (entry: FileIndexEntry(path: "assets/img\(i).png", sha256: String(repeating: String(i % 10), count: 64), size: 2000 + i, offset: i * 2100 + 60,
                                       length: i % 3 == 0 ? 1500 : 2000 + i, method: i % 3 == 0 ? .deflate : .stored), header: i * 2100)
            }).objectBytes],
            .encryptedBundle: [try SegmentedAEAD.encrypt(plain, key: fuzzKey, segmentSize: 1024), try SegmentedAEAD.encrypt(Data(), key: fuzzKey, segmentSize: 1024),
                               try SegmentedAEAD.encrypt(plain.prefix(1024), key: fuzzKey, segmentSize: 1024)],
            .zipBundle: [try zipSeed()],
            .keyFile: try keyFileSeeds(),
            .auditLog: try custodySeeds().audit,
            .pkcs11URI: try custodySeeds().uris,
            .imageHeader: imageSeeds(),
            .subtitles: subtitleSeeds(),
            .audioFrames: audioSeeds(),
            .mp4Boxes: mp4Seeds(),
            .lspFraming: lspFramingSeeds(),
        ]
    }
}
