import Crypto
import Foundation
import LiveryLoad
import LiveryMedia
import LiveryReleaseFormat
import LiveryAssets
import LiveryCheck
import LiveryPack
import LiveryPublish
import XCTest

/// `livery build` end to end, on copies of the sample tenants, through the real executable.
final class BuildTests: XCTestCase {
    /// Every file under `folder` (except Livery's private `.livery/`) with its SHA-256.
    static func tree(_ folder: URL) -> [String: String] {
        var out: [String: String] = [:]
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return out }
        for case let url as URL in walker {
            let relative = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
            if relative.hasPrefix(".livery") { walker.skipDescendants(); continue }
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true, let data = FileManager.default.contents(atPath: url.path) else { continue }
            out[relative] = SHA256.hash(data: data).hexString
        }
        return out
    }

    /// `livery build /path/to/Tenants/x -o /path/to/Output` run from another folder signs with the workspace's own
    /// key store (beside `Tenants/`), never a new `.livery-keys/` in the current folder; a key store with no keys for a
    /// tenant whose output holds a signed release is refused by name, saying where Livery looked, before anything is written.
    func testABuildFromAnotherFolderSignsWithTheWorkspacesKeysAndAStoreWithoutThemIsRefusedBeforeAnyWrite() throws {
        let workspace = try Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let elsewhere = workspace.root.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try workspace.replace("urbannest/locales/en.yaml", "Home", "Start")
        let tenant = workspace.tenants.appendingPathComponent("urbannest").path
        let built = try LiveryProcess.run(["build", tenant, "-o", workspace.output.path], in: elsewhere)
        XCTAssertEqual(built.status, 0, built.stdout + built.stderr)
        XCTAssertTrue(built.stdout.contains("urbannest: published release 2"), built.stdout)
        XCTAssertFalse(built.stderr.contains("development"), built.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])

        try workspace.replace("urbannest/locales/en.yaml", "Start", "Begin")
        let before = Self.tree(workspace.output)
        let wrongStore = elsewhere.appendingPathComponent("other-keys")
        let refused = try LiveryProcess.run(["build", tenant, "-o", workspace.output.path, "--keys", wrongStore.path], in: elsewhere)
        XCTAssertEqual(refused.status, 2, refused.stdout + refused.stderr)
        XCTAssertEqual(refused.stderr, "Error: 'urbannest' has a published root (\(workspace.output.path)/urbannest/metadata/1.root.json) and no keys in "
                       + "\(wrongStore.path)/: give --keys the key store that signed it (docs/keys.md); nothing was written\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: wrongStore.path), "no development keys were made")
        XCTAssertEqual(Self.tree(workspace.output), before)
    }

    /// `livery keys list TENANT…` lists only those tenants; a tenant the store has no keys for is an error naming the ones it has.
    func testKeysListTakesTenantsAndRefusesOnesWithoutKeys() throws {
        let workspace = try Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let all = try LiveryProcess.run(["keys", "list", "--output", "Output"], in: workspace.root)
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertTrue(all.stdout.contains("\ncompanero  ") || all.stdout.hasPrefix("companero  "), all.stdout)
        let one = try LiveryProcess.run(["keys", "list", "urbannest", "--output", "Output"], in: workspace.root)
        XCTAssertEqual(one.status, 0, one.stderr)
        let lines = one.stdout.split(separator: "\n")
        XCTAssertFalse(lines.isEmpty)
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("urbannest  ") }, one.stdout)
        XCTAssertEqual(lines.count, all.stdout.split(separator: "\n").filter { $0.hasPrefix("urbannest  ") }.count)
        let typo = try LiveryProcess.run(["keys", "list", "urbannets", "--output", "Output"], in: workspace.root)
        XCTAssertEqual(typo.status, 2)
        XCTAssertTrue(typo.stderr.hasPrefix("Error: no keys for 'urbannets' in ") && typo.stderr.contains(".livery-keys (it holds keys for companero, "), typo.stderr)
    }

    func testBuildPublishesEveryTenantAsATUFStyleTargetsTree() throws {
        let workspace = try Workspace()
        let output = try workspace.build()
        XCTAssertEqual(output.status, 0, output.stdout + output.stderr)
        for tenant in ["companero", "companero-lucia", "physio-clinic", "sonic-walkscape", "travel-experiences", "urbannest"] {
            let (pointer, manifest) = try XCTUnwrap(Publisher.currentManifest(tenant: tenant, output: workspace.output), tenant)
            XCTAssertEqual(manifest.release, 1)
            XCTAssertTrue(manifest.bundles.contains { $0.kind == .core && $0.policy == .essential })
            for bundle in manifest.bundles {
                let file = workspace.output.appendingPathComponent(tenant).appendingPathComponent(bundle.path)
                let data = try Data(contentsOf: file)
                XCTAssertEqual(data.count, bundle.size)
                XCTAssertEqual(SHA256.hash(data: data).hexString, bundle.sha256, "\(tenant)/\(bundle.path)")
                XCTAssertEqual(file.lastPathComponent, "\(bundle.sha256).\(bundle.id).zip")
            }
            XCTAssertTrue(pointer.manifest.hasPrefix("targets/\(pointer.sha256)."))
        }
        let sonic = try XCTUnwrap(Publisher.currentManifest(tenant: "sonic-walkscape", output: workspace.output)?.manifest)
        let rome = try XCTUnwrap(sonic.bundles.first { $0.id == "tour.rome-trastevere.it" })
        XCTAssertEqual(rome.access, .voucher)
        XCTAssertEqual(rome.dependencies, ["tour.rome-trastevere"])
        XCTAssertEqual(rome.locale, "it")
    }

    func testDownloadManifestsFollowTheirPublishedSchema() throws {
        let workspace = try Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let manifests = try ["companero-lucia", "sonic-walkscape", "physio-clinic"].map { tenant in
            let pointer = try XCTUnwrap(Publisher.currentManifest(tenant: tenant, output: workspace.output)?.pointer)
            return workspace.output.appendingPathComponent(tenant).appendingPathComponent(pointer.manifest).path
        }
        // python-jsonschema, an independent implementation, checks every manifest against the committed schema.
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            errors = [f"{path}: {e.json_path}: {e.message}" for path in sys.argv[2:] for e in jsonschema.Draft202012Validator(schema).iter_errors(json.load(open(path)))]
            print("\\n".join(errors) or "ok"); sys.exit(1 if errors else 0)
            """
        let schema = LiveryProcess.packageRoot.appendingPathComponent("schemas/download-manifest.schema.json").path
        let result = try LiveryProcess.tool(["python3", "-c", script, schema] + manifests)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
    }

    func testLessonsFromAnAncestorsLibraryArePackedIntoTheCreatorsRelease() throws {
        let workspace = try Workspace()
        // Move the creator's library up into the platform base; the creator's lessons still use it.
        try FileManager.default.moveItem(at: workspace.tenants.appendingPathComponent("companero-lucia/library"),
                                         to: workspace.tenants.appendingPathComponent("companero/library"))
        let output = try workspace.build()
        XCTAssertEqual(output.status, 0, output.stdout + output.stderr)
        let lucia = try XCTUnwrap(Publisher.currentManifest(tenant: "companero-lucia", output: workspace.output)?.manifest)
        let libraries = Set(lucia.bundles.filter { $0.kind == .libraryPack }.map(\.id))
        XCTAssertFalse(libraries.isEmpty)
        let program = try XCTUnwrap(lucia.bundles.first { $0.kind == .program })
        XCTAssertFalse(program.dependencies.isEmpty)
        XCTAssertTrue(Set(program.dependencies).isSubset(of: libraries), "\(program.dependencies) not in \(libraries)")
    }

    func testAPathMeaningTwoDifferentFilesInOneReleaseIsRefused() throws {
        let workspace = try Workspace()
        let lucia = workspace.tenants.appendingPathComponent("companero-lucia")
        try FileManager.default.moveItem(at: lucia.appendingPathComponent("library"), to: workspace.tenants.appendingPathComponent("companero/library"))
        // The creator's own library uses the same path for a different recording.
        try FileManager.default.createDirectory(at: lucia.appendingPathComponent("library/audio"), withIntermediateDirectories: true)
        try Data(MediaSamples.mp3(seconds: 4)).write(to: lucia.appendingPathComponent("library/audio/breathing.mp3"))
        try "items:\n  - id: breathing-remix\n    kind: audio\n    title: {en: Breathing remix, es: Respiración remix}\n    media: {en: audio/breathing.mp3}\n"
            .write(to: lucia.appendingPathComponent("library/library.yaml"), atomically: true, encoding: .utf8)
        let before = Self.tree(workspace.output)
        let output = try workspace.build()
        XCTAssertEqual(output.status, 2, output.stdout + output.stderr)
        XCTAssertTrue(output.stderr.contains("'library/audio/breathing.mp3' would be two different files"), output.stderr)
        XCTAssertNil(Publisher.currentManifest(tenant: "companero-lucia", output: workspace.output))
        XCTAssertEqual(Self.tree(workspace.output).filter { $0.key.hasPrefix("companero-lucia") }, before.filter { $0.key.hasPrefix("companero-lucia") })
    }

    func testBundleIdsNeverCollide() throws {
        let workspace = try Workspace()
        // A tour whose id ends like a language of another tour.
        let tours = workspace.tenants.appendingPathComponent("sonic-walkscape/tours")
        try FileManager.default.copyItem(at: tours.appendingPathComponent("florence-renaissance"), to: tours.appendingPathComponent("florence-renaissance-it"))
        try workspace.replace("sonic-walkscape/tours/florence-renaissance-it/tour.yaml", "id: florence-renaissance\nslug: florence-renaissance", "id: florence-renaissance-it\nslug: florence-renaissance-it")
        let output = try workspace.build()
        XCTAssertEqual(output.status, 0, output.stdout + output.stderr)
        let ids = try XCTUnwrap(Publisher.currentManifest(tenant: "sonic-walkscape", output: workspace.output)?.manifest).bundles.map(\.id)
        XCTAssertEqual(ids.count, Set(ids).count, "\(ids)")
        XCTAssertTrue(ids.contains("tour.florence-renaissance.it") && ids.contains("tour.florence-renaissance-it"))
    }

    func testSameInputsGiveIdenticalTargetsWhateverTheTimeZoneMtimesAndPermissions() throws {
        let first = try Workspace(), second = try Workspace()
        XCTAssertEqual(try first.build().status, 0)
        // Touch every input, change permissions, and build in another time zone and locale.
        for case let url as URL in FileManager.default.enumerator(at: second.tenants, includingPropertiesForKeys: nil)! {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_900_000_000), .posixPermissions: 0o600], ofItemAtPath: url.path)
        }
        // The content secret is an input too (encrypted bundles): the second machine has the first one's.
        let secrets = second.root.appendingPathComponent(".livery-keys/sonic-walkscape")
        try FileManager.default.createDirectory(at: secrets, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.copyItem(at: first.root.appendingPathComponent(".livery-keys/sonic-walkscape/content.key"), to: secrets.appendingPathComponent("content.key"))
        XCTAssertEqual(try second.build(environment: ["TZ": "Asia/Kolkata", "LANG": "C", "LC_ALL": "C"]).status, 0)
        // Targets are the deterministic part; metadata carries each machine's keys, signatures and expiry dates.
        let a = Self.tree(first.output).filter { $0.key.contains("/targets/") }, b = Self.tree(second.output).filter { $0.key.contains("/targets/") }
        XCTAssertFalse(a.isEmpty)
        XCTAssertEqual(a, b)
    }

    func testOneWorkerGivesTheSameFindingsAndTargetsAsEveryCore() throws {
        let first = try Workspace(), second = try Workspace()
        // A finding in several tenants, so the order of findings across tenants matters.
        for workspace in [first, second] {
            try workspace.replace("urbannest/tenant.yaml", "modules: [", "modulse: [")
            try workspace.replace("physio-clinic/tenant.yaml", "kind: brand", "kind: brnad")
        }
        let one = try LiveryProcess.run(["validate", "Tenants", "--format", "json", "--jobs", "1"], in: first.root)
        let many = try LiveryProcess.run(["validate", "Tenants", "--format", "json", "--jobs", "8"], in: second.root)
        XCTAssertEqual(one.status, 1)
        XCTAssertEqual(one.stdout, many.stdout)
        XCTAssertTrue(one.stdout.contains("structure.unknown-key") && one.stdout.contains("structure.enum"), one.stdout)
        for workspace in [first, second] {
            try workspace.replace("urbannest/tenant.yaml", "modulse: [", "modules: [")
            try workspace.replace("physio-clinic/tenant.yaml", "kind: brnad", "kind: brand")
        }
        // The content secret is an input of encrypted bundles: both builds use the first one's.
        XCTAssertEqual(try first.build(["--jobs", "1"]).status, 0)
        let secrets = second.root.appendingPathComponent(".livery-keys/sonic-walkscape")
        try FileManager.default.createDirectory(at: secrets, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.copyItem(at: first.root.appendingPathComponent(".livery-keys/sonic-walkscape/content.key"), to: secrets.appendingPathComponent("content.key"))
        XCTAssertEqual(try second.build(["--jobs", "8"]).status, 0)
        let a = Self.tree(first.output).filter { $0.key.contains("/targets/") }, b = Self.tree(second.output).filter { $0.key.contains("/targets/") }
        XCTAssertFalse(a.isEmpty)
        XCTAssertEqual(a, b)
        let zero = try LiveryProcess.run(["validate", "Tenants", "--jobs", "0"], in: first.root)
        XCTAssertEqual(zero.status, 2, "--jobs 0 is a usage error")
        XCTAssertTrue(zero.stderr.contains("--jobs must be at least 1"), zero.stderr)
    }

    func testIndependentToolsAcceptEveryBundleAndExtractionGivesBackTheInputs() throws {
        let workspace = try Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let release = workspace.output.appendingPathComponent("sonic-walkscape")
        let manifest = try XCTUnwrap(Publisher.currentManifest(tenant: "sonic-walkscape", output: workspace.output)?.manifest)
        let secretText = try String(contentsOf: workspace.root.appendingPathComponent(".livery-keys/sonic-walkscape/content.key"), encoding: .utf8)
        let secret = try XCTUnwrap(ContentSecret(raw: try XCTUnwrap(Data(hex: secretText.trimmingCharacters(in: .whitespacesAndNewlines)))))
        XCTAssertTrue(manifest.bundles.contains { $0.encryption != nil }, "the protected tour is encrypted")
        for bundle in manifest.bundles {
            var file = release.appendingPathComponent(bundle.path).path
            if let encryption = bundle.encryption {
                // Ciphertext is no archive; decrypted with the key the tenant's secret derives, it is one.
                XCTAssertNotEqual(try LiveryProcess.tool(["bsdtar", "-tf", file]).status, 0, "bsdtar reads ciphertext of \(bundle.id)")
                let plain = workspace.root.appendingPathComponent("\(bundle.id).zip")
                try SegmentedAEAD.decrypt(URL(fileURLWithPath: file), to: plain, key: secret.contentKey(keyID: encryption.keyID))
                file = plain.path
            }
            XCTAssertEqual(try LiveryProcess.tool(["unzip", "-tq", file]).status, 0, "unzip -t \(bundle.id)")
            XCTAssertEqual(try LiveryProcess.tool(["python3", "-m", "zipfile", "-t", file]).status, 0, "zipfile -t \(bundle.id)")
            XCTAssertEqual(try LiveryProcess.tool(["bsdtar", "-tf", file]).status, 0, "bsdtar -tf \(bundle.id)")
        }
        // Extract a media bundle with bsdtar: every file equals its source in the tenant folder, and nothing else is there.
        let bundle = try XCTUnwrap(manifest.bundles.first { $0.id == "tour.florence-renaissance.en" })
        let extracted = workspace.root.appendingPathComponent("extracted")
        try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
        XCTAssertEqual(try LiveryProcess.tool(["bsdtar", "-xf", release.appendingPathComponent(bundle.path).path, "-C", extracted.path]).status, 0)
        let files = Self.tree(extracted)
        XCTAssertEqual(files.count, 10, "5 stops × (audio + subtitles)")
        for (path, digest) in files {
            let source = try Data(contentsOf: workspace.tenants.appendingPathComponent("sonic-walkscape").appendingPathComponent(path))
            XCTAssertEqual(SHA256.hash(data: source).hexString, digest, path)
        }
    }

    func testTarZstdBundlesAreReadableByBsdtar() throws {
        let workspace = try Workspace()
        XCTAssertEqual(try workspace.build(["--archive-format", "tar.zst"]).status, 0)
        let manifest = try XCTUnwrap(Publisher.currentManifest(tenant: "companero-lucia", output: workspace.output)?.manifest)
        XCTAssertEqual(manifest.format, .tarZstd)
        for bundle in manifest.bundles {
            let listing = try LiveryProcess.tool(["bsdtar", "-tf", workspace.output.appendingPathComponent("companero-lucia").appendingPathComponent(bundle.path).path])
            XCTAssertEqual(listing.status, 0, bundle.id)
            XCTAssertFalse(listing.stdout.isEmpty)
        }
    }

    func testNoChangeRebuildPublishesNothing() throws {
        let workspace = try Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let before = Self.tree(workspace.output)
        let inode = FileStamp(path: workspace.output.appendingPathComponent("urbannest/release.json").path)?.inode
        let again = try workspace.build()
        XCTAssertEqual(again.status, 0)
        // "(release 1)" or "(release 1, inputs untouched)": whether the build records already trust the
        // inputs depends on how long the first build took (their racy window), which is not the point here.
        XCTAssertEqual(again.stdout.components(separatedBy: "unchanged (release 1").count - 1, 6, again.stdout)
        XCTAssertEqual(Self.tree(workspace.output), before)
        XCTAssertEqual(FileStamp(path: workspace.output.appendingPathComponent("urbannest/release.json").path)?.inode, inode, "the release folder was not replaced")
    }

    func testUntouchedTenantsAreNotEvenLoadedAndAnyChangeIsNoticed() throws {
        let workspace = try Workspace()
        try workspace.backdate()
        XCTAssertEqual(try workspace.build().status, 0)
        let again = try workspace.build()
        XCTAssertEqual(again.stdout.components(separatedBy: "inputs untouched").count - 1, 6, again.stdout)
        // A change in the platform base reaches the creator that inherits it.
        try workspace.replace("companero/locales/en.yaml", "home: Home", "home: Now")
        let inherited = try workspace.build()
        XCTAssertTrue(inherited.stdout.contains("companero: published release 2"), inherited.stdout)
        XCTAssertTrue(inherited.stdout.contains("companero-lucia: published release 2"), inherited.stdout)
        XCTAssertTrue(inherited.stdout.contains("urbannest: unchanged (release 1, inputs untouched)"), inherited.stdout)
        // A new file where manifests live is noticed too (here a voice.json beside the sample's voice.yaml, which is an error).
        try "{\"emoji\": \"none\"}\n".write(to: workspace.tenants.appendingPathComponent("urbannest/voice.json"), atomically: true, encoding: .utf8)
        let duplicate = try workspace.build()
        XCTAssertEqual(duplicate.status, 1, duplicate.stdout)
        XCTAssertTrue(duplicate.stdout.contains("[structure.duplicate-manifest]"), duplicate.stdout)
    }

    /// Inputs written moments before a build (a fresh checkout, a script, `watch --build`) are within the racy
    /// window, where a stamp cannot be trusted: the record keeps such small files by content, so the next build
    /// still answers from the records, and an edit that keeps size, mtime and inode is still seen.
    func testInputsWrittenJustBeforeABuildAreRecordedByContent() throws {
        let workspace = try Workspace()  // fresh copies: every input was written just now
        XCTAssertEqual(try workspace.build().status, 0)
        let again = try workspace.build()
        XCTAssertEqual(again.stdout.components(separatedBy: "inputs untouched").count - 1, 6, again.stdout)
        // The same size, the same inode (written in place) and the same mtime: only the content tells.
        let manifest = workspace.tenants.appendingPathComponent("urbannest/tenant.yaml")
        let modified = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: manifest.path)[.modificationDate] as? Date)
        let text = try String(contentsOf: manifest, encoding: .utf8)
        XCTAssertTrue(text.contains("name: UrbanNest\n"))
        let handle = try FileHandle(forWritingTo: manifest)
        try handle.write(contentsOf: Data(text.replacingOccurrences(of: "name: UrbanNest\n", with: "name: UrbanNesT\n").utf8))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: manifest.path)
        let edited = try workspace.build()
        XCTAssertTrue(edited.stdout.contains("urbannest: published release 2"), edited.stdout)
        XCTAssertTrue(edited.stdout.contains("companero: unchanged (release 1, inputs untouched)"), edited.stdout)
    }

    /// A no-change rebuild answers for an untouched tenant from its build record alone (issue 18): until a
    /// command replaces one of its release files, or a platform template changes.
    func testTheRecordAloneAnswersForAnUntouchedTenantUntilItsReleaseOrTheTemplatesChange() throws {
        let workspace = try Workspace()
        try workspace.backdate()
        // Templates/ beside the workspace is the one the build uses.
        let templates = workspace.root.appendingPathComponent("Templates")
        try FileManager.default.copyItem(at: LiveryProcess.packageRoot.appendingPathComponent("Templates"), to: templates)
        XCTAssertEqual(try workspace.build().status, 0)
        let again = try workspace.build()
        XCTAssertEqual(again.stdout.components(separatedBy: "inputs untouched").count - 1, 6, again.stdout)
        // A second release of urbannest, then a rollback to the first: the stable pointer is replaced, so the record
        // no longer answers alone, and the release the channel rolled back from is not published again.
        try workspace.replace("urbannest/tenant.yaml", "name: UrbanNest", "name: UrbanNest Homes")
        XCTAssertTrue(try workspace.build().stdout.contains("urbannest: published release 2"))
        let rollback = try LiveryProcess.run(["rollback", "urbannest", "--to", "1", "--reason", "test", "--output", "Output"], in: workspace.root)
        XCTAssertEqual(rollback.status, 0, rollback.stdout + rollback.stderr)
        // (A rollback publishes the old content as a new release: TUF versions only go up.)
        let rolledBack = try XCTUnwrap(Publisher.currentManifest(tenant: "urbannest", output: workspace.output)).manifest
        let afterRollback = try workspace.build()
        XCTAssertFalse(afterRollback.stdout.contains("urbannest: published"), afterRollback.stdout)
        XCTAssertTrue(afterRollback.stdout.contains("urbannest: unchanged (release"), afterRollback.stdout)
        XCTAssertEqual(try XCTUnwrap(Publisher.currentManifest(tenant: "urbannest", output: workspace.output)).manifest, rolledBack, "the rollback holds")
        // An edited template changes every tenant's core bundle: every tenant publishes.
        let css = templates.appendingPathComponent("platform/css/tokens.css.mustache")
        try (try String(contentsOf: css, encoding: .utf8) + "/* edited */\n").write(to: css, atomically: true, encoding: .utf8)
        let edited = try workspace.build()
        XCTAssertEqual(edited.status, 0, edited.stdout)
        XCTAssertEqual(edited.stdout.components(separatedBy: ": published release").count - 1, 6, edited.stdout)
    }

    func testOneStringChangeRebuildsOnlyItsLocaleBundleAndTheManifest() throws {
        let workspace = try Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let before = try XCTUnwrap(Publisher.currentManifest(tenant: "physio-clinic", output: workspace.output)?.manifest)
        try workspace.replace("physio-clinic/locales/ru.yaml", "home: Главная", "home: Домой")
        let output = try workspace.build()
        XCTAssertTrue(output.stdout.contains("physio-clinic: published release 2: 3 bundles, 1 rebuilt"), output.stdout)
        let after = try XCTUnwrap(Publisher.currentManifest(tenant: "physio-clinic", output: workspace.output)?.manifest)
        XCTAssertEqual(after.release, 2)
        let changed = Set(after.bundles.map { "\($0.id) \($0.sha256)" }).subtracting(before.bundles.map { "\($0.id) \($0.sha256)" })
        XCTAssertEqual(changed.map { String($0.split(separator: " ")[0]) }, ["locale.ru"])
        // Other tenants are untouched, and the previous release's targets stay available.
        XCTAssertTrue(output.stdout.contains("urbannest: unchanged (release 1"), output.stdout)
        for bundle in before.bundles {
            XCTAssertTrue(FileManager.default.fileExists(atPath: workspace.output.appendingPathComponent("physio-clinic").appendingPathComponent(bundle.path).path))
        }
    }

    func testFailingValidationPublishesNothing() throws {
        let workspace = try Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let before = Self.tree(workspace.output)
        try workspace.replace("urbannest/tenant.yaml", "modules:", "modulse:")
        try workspace.replace("physio-clinic/locales/ru.yaml", "home: Главная", "home: Домой")
        let output = try workspace.build()
        XCTAssertEqual(output.status, 1)
        XCTAssertTrue(output.stdout.contains("[structure.unknown-key]"), output.stdout)
        XCTAssertTrue(output.stderr.contains("nothing was published"), output.stderr)
        XCTAssertEqual(Self.tree(workspace.output), before, "not even the valid tenant's change is published")
    }

    func testConcurrentBuildsAreSerialisedByTheLock() throws {
        let workspace = try Workspace()
        let held = try OutputLock(output: workspace.output, waiting: { _ in XCTFail("the lock was free") })
        let process = try LiveryProcess.start(["build", "Tenants", "--output", "Output"], in: workspace.root)
        // The second build must wait, saying why, and publish nothing while the lock is held.
        let deadline = Date().addingTimeInterval(30)
        while !process.stderr.contains("waiting for it to finish"), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertTrue(process.stderr.contains("another livery build (process \(getpid())) is publishing"), process.stderr)
        XCTAssertTrue(process.isRunning)
        XCTAssertNil(Publisher.currentManifest(tenant: "urbannest", output: workspace.output))
        withExtendedLifetime(held) {}
        _ = consume held
        let result = process.wait()
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertNotNil(Publisher.currentManifest(tenant: "urbannest", output: workspace.output))
    }

    func testKillNineAtAnyMomentLeavesTheLastReleaseIntact() throws {
        let workspace = try Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let published = Self.tree(workspace.output)
        try workspace.replace("sonic-walkscape/locales/en.yaml", ":", ": ")
        let work = [".livery/store/tmp", ".livery/staging"].map { workspace.output.appendingPathComponent($0).path }
        var killedMidway = 0
        // Kill points from what the build says it is doing (`--verbose`, stopped there by the
        // LIVERY_STOP_AFTER_STEP fail point): sonic-walkscape's new release assembled in staging,
        // signed and flushed, and switched.
        for step in ["assembled", "signed", "switched"] {
            let process = try LiveryProcess.start(["build", "Tenants", "--output", "Output", "--verbose"], in: workspace.root,
                                                  environment: ["LIVERY_STOP_AFTER_STEP": "sonic-walkscape \(step)"], lineByLine: true)
            while let line = process.nextLine(), line != "step: sonic-walkscape \(step)" {}
            // Evidence that the kill lands while files are being written, not only before or after.
            if work.contains(where: { !((try? FileManager.default.contentsOfDirectory(atPath: $0)) ?? []).isEmpty }) { killedMidway += 1 }
            process.kill()
            let now = Self.tree(workspace.output)
            if step == "switched" {
                // After the switch: the new release is complete and valid.
                XCTAssertEqual(Publisher.currentManifest(tenant: "sonic-walkscape", output: workspace.output)?.manifest.release, 2)
                XCTAssertEqual(try LiveryProcess.run(["verify", "sonic-walkscape", "--output", "Output"], in: workspace.root).status, 0)
            } else {
                XCTAssertEqual(now, published, "killed after \(step): the live release is exactly the previous one")
            }
        }
        XCTAssertGreaterThan(killedMidway, 0, "no kill landed while the build was writing")
        let finished = try workspace.build()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        XCTAssertEqual(Publisher.currentManifest(tenant: "sonic-walkscape", output: workspace.output)?.manifest.release, 2)
        let staging = workspace.output.appendingPathComponent(".livery/staging")
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? [], [], "leftovers of killed builds are cleaned")
    }
}
