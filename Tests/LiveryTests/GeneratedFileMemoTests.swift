import Foundation
import LiveryAssets
import LiveryCheck
import LiveryPack
import LiveryResolve
import LiveryStorage
import LiveryReleaseFormat
import LiveryWorkflow
import XCTest

/// Tenants of one build with the same strings share their locale bundles' generated files
/// (`GeneratedFileMemo`): made once, with the same bytes and archives as if each tenant made its own.
final class GeneratedFileMemoTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = try PlatformFixtures.temporaryFolder()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    /// The sample `physio-clinic` copied into its own workspace under `id`, with `edit` applied to each of its locale files.
    private func tenant(_ id: String, edit: (String) -> String = { $0 }) throws -> ResolvedTenant {
        let workspace = root.appendingPathComponent("w-\(id)/Tenants")
        let folder = workspace.appendingPathComponent(id)
        if FileManager.default.fileExists(atPath: folder.path) { try FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: PlatformFixtures.root.appendingPathComponent("Tenants/physio-clinic"), to: folder)
        let manifest = folder.appendingPathComponent("tenant.yaml")
        try Data(try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: "id: physio-clinic", with: "id: \(id)").utf8).write(to: manifest)
        for locale in ["en", "ru"] {
            let file = folder.appendingPathComponent("locales/\(locale).yaml")
            try Data(edit(try String(contentsOf: file, encoding: .utf8)).utf8).write(to: file)
        }
        let result = Validator.validate(workspace: workspace, displayRoot: "Tenants", rules: .all)
        XCTAssertEqual(result.diagnostics.errorCount, 0, result.diagnostics.map(\.line).joined(separator: "\n"))
        return try XCTUnwrap(result.tenants.first { $0.id == id })
    }

    private func locales(_ specs: [BundleSpec]) -> [BundleSpec] { specs.filter { $0.kind == .locale } }

    func testATenantWithAnotherTenantsStringsGetsTheirFilesWithoutMakingThemAndTheSameBytesWhenAsked() throws {
        let store = try ContentStore(root: root.appendingPathComponent("store"))
        let templates = try PlatformFixtures.platformTemplates()
        let memo = GeneratedFileMemo()
        let first = locales(try BundlePlanner.plan(try tenant("physio-clinic"), store: store, templates: templates, memo: memo))
        let twin = locales(try BundlePlanner.plan(try tenant("physio-twin"), store: store, templates: templates, memo: memo))
        let alone = locales(try BundlePlanner.plan(try tenant("physio-twin"), store: store, templates: templates))
        XCTAssertEqual(first.map(\.id), ["locale.en", "locale.ru"])
        XCTAssertEqual(twin.map(\.id), first.map(\.id))
        for (made, shared) in zip(first, twin) {
            XCTAssertEqual(made.entries.map(\.path), ["locales/\(made.locale!).json"])
            XCTAssertEqual(shared.entries.map(\.path), made.entries.map(\.path))
            XCTAssertEqual(shared.entries.map(\.sha256), made.entries.map(\.sha256))
            XCTAssertEqual(shared.entries.map(\.size), made.entries.map(\.size))
            XCTAssertEqual(shared.key(.zip), made.key(.zip), "same files, same bundle key: the first tenant's archive is reused")
            for (entry, twinEntry) in zip(made.entries, shared.entries) {
                guard case .data(let bytes) = entry.content else { return XCTFail("the first tenant makes \(entry.path)") }
                guard case .deferred = twinEntry.content else { return XCTFail("the twin does not make \(entry.path) again") }
                XCTAssertEqual(try twinEntry.bytes(), bytes, "made again on demand, \(entry.path) has the remembered bytes")
            }
        }
        // A build without the memo makes the same bundles.
        XCTAssertEqual(alone.map { $0.key(.zip) }, twin.map { $0.key(.zip) })

        // Packed on a store of its own (nothing indexed), the twin's archives are byte for byte the first tenant's.
        let builder = try BundleBuilder(store: store)
        let other = try BundleBuilder(store: ContentStore(root: root.appendingPathComponent("store-2")))
        for (made, shared) in zip(first, twin) {
            let archive = try builder.build(made, format: .zip), again = try other.build(shared, format: .zip)
            XCTAssertTrue(again.rebuilt)
            XCTAssertEqual(again.sha256, archive.sha256)
            XCTAssertEqual(try FileDigest.sha256(of: again.object).digest, archive.sha256)
        }
    }

    func testOneChangedStringMakesEveryLocaleOfTheTenantAgain() throws {
        let store = try ContentStore(root: root.appendingPathComponent("store"))
        let templates = try PlatformFixtures.platformTemplates()
        let memo = GeneratedFileMemo()
        let first = locales(try BundlePlanner.plan(try tenant("physio-clinic"), store: store, templates: templates, memo: memo))
        let english = try String(contentsOf: PlatformFixtures.root.appendingPathComponent("Tenants/physio-clinic/locales/en.yaml"), encoding: .utf8)
        XCTAssertEqual(english.components(separatedBy: "\n  home: Home\n").count, 2, "physio-clinic's English says nav.home once")
        let edited = locales(try BundlePlanner.plan(try tenant("physio-edited") { $0.replacingOccurrences(of: "\n  home: Home\n", with: "\n  home: Start\n") },
                                                    store: store, templates: templates, memo: memo))
        for (made, changed) in zip(first, edited) {
            // The digest covers all of a tenant's locales (a locale's files may read the default locale's text), so none is shared.
            for entry in changed.entries {
                guard case .data = entry.content else { return XCTFail("\(changed.id) \(entry.path) is made, not remembered") }
            }
            if made.id == "locale.en" { XCTAssertNotEqual(changed.entries.map(\.sha256), made.entries.map(\.sha256)) }
        }
        XCTAssertEqual(memo.count, 4)
    }

    func testKeysAndTextsThatRunTogetherTheSameWayAreNotTakenForEachOther() throws {
        // `zz.a: bc` and `zz.ab: c` spell the same characters in a row; the digest length-prefixes every string.
        let store = try ContentStore(root: root.appendingPathComponent("store"))
        let templates = try PlatformFixtures.platformTemplates()
        let memo = GeneratedFileMemo()
        let first = locales(try BundlePlanner.plan(try tenant("physio-ab") { $0 + "\nzz:\n  a: bc\n" }, store: store, templates: templates, memo: memo))
        let second = locales(try BundlePlanner.plan(try tenant("physio-abc") { $0 + "\nzz:\n  ab: c\n" }, store: store, templates: templates, memo: memo))
        for (one, other) in zip(first, second) {
            XCTAssertNotEqual(one.key(.zip), other.key(.zip))
            for entry in other.entries {
                guard case .data = entry.content else { return XCTFail("\(other.id) \(entry.path) was taken from the other tenant") }
            }
        }
        XCTAssertEqual(memo.count, 4)
    }

    func testTheOldestFilesAreForgottenBeyondTheCapacity() throws {
        let store = try ContentStore(root: root.appendingPathComponent("store"))
        let templates = try PlatformFixtures.platformTemplates()
        let memo = GeneratedFileMemo(capacity: 2)
        let physio = try tenant("physio-clinic"), twin = try tenant("physio-twin")
        _ = try BundlePlanner.plan(physio, store: store, templates: templates, memo: memo)
        XCTAssertEqual(memo.count, 2)
        _ = try BundlePlanner.plan(try tenant("physio-edited") { $0.replacingOccurrences(of: "\n  home: Home\n", with: "\n  home: Start\n") }, store: store, templates: templates, memo: memo)
        XCTAssertEqual(memo.count, 2, "never more than its capacity")
        let forgotten = locales(try BundlePlanner.plan(twin, store: store, templates: templates, memo: memo))
        for spec in forgotten {
            for entry in spec.entries {
                guard case .data = entry.content else { return XCTFail("\(spec.id) \(entry.path): the first tenant's files were forgotten, so they are made") }
            }
        }
    }

    func testBytesThatDifferFromTheRememberedDigestStopThePacking() throws {
        let right = Data("{\"a\":\"b\"}".utf8)
        let entry = BundleEntry(path: "locales/en.json", sha256: FileDigest.sha256(of: right), size: right.count) { Data("{\"a\":\"c\"}".utf8) }
        XCTAssertThrowsError(try entry.bytes()) { error in
            XCTAssertTrue("\(error)".contains("internal error: 'locales/en.json' was generated twice"), "\(error)")
        }
        let spec = BundleSpec(id: "locale.en", kind: .locale, locale: "en", policy: .essential, entries: [entry])
        let builder = try BundleBuilder(store: ContentStore(root: root.appendingPathComponent("store")))
        XCTAssertThrowsError(try builder.build(spec, format: .zip))
        let honest = BundleEntry(path: "locales/en.json", sha256: FileDigest.sha256(of: right), size: right.count) { right }
        XCTAssertEqual(try honest.bytes(), right)
    }
}
