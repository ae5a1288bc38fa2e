import Crypto
import Foundation
import LiveryReleaseFormat
import LiveryPack
import LiveryVectors
import XCTest

/// `livery vectors`: the vectors are deterministic and self-consistent, and python-tuf (the
/// reference), `livery tuf-client` and `livery fetch` each agree with every case.json, served by a
/// real static file server on 127.0.0.1.
final class ClientVectorTests: XCTestCase {
    /// A temporary folder with the vectors written by `livery vectors` in `vectors/`; removed after the test.
    private func generate() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("livery-vectors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        let run = try LiveryProcess.run(["vectors", root.appendingPathComponent("vectors").path])
        XCTAssertEqual(run.status, 0, run.stderr)
        return root
    }

    /// Every file under `folder`, by relative path.
    private func tree(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let base = folder.standardizedFileURL.path
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let file = enumerator?.nextObject() as? URL {
            guard (try file.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            files[String(file.standardizedFileURL.path.dropFirst(base.count + 1))] = try Data(contentsOf: file)
        }
        return files
    }

    func testTwoRunsWriteIdenticalTrees() throws {
        let root = try generate()
        let again = try LiveryProcess.run(["vectors", root.appendingPathComponent("again").path])
        XCTAssertEqual(again.status, 0, again.stderr)
        let first = try tree(root.appendingPathComponent("vectors")), second = try tree(root.appendingPathComponent("again"))
        XCTAssertGreaterThan(first.count, 100)
        XCTAssertEqual(first.keys.sorted(), second.keys.sorted())
        for (path, data) in first where second[path] != data { XCTFail("\(path) differs between two runs") }
        // The library writes the same bytes as the command.
        let library = root.appendingPathComponent("library")
        try ClientVectors.write(to: library)
        XCTAssertEqual(try tree(library), first)
        // A folder that is not empty is refused.
        let refused = try LiveryProcess.run(["vectors", root.appendingPathComponent("vectors").path])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("not empty"), refused.stderr)
    }

    func testEveryCaseIsSelfConsistentAndCoversTheIssuesList() throws {
        let vectors = try generate().appendingPathComponent("vectors")
        let cases = try VectorFile.all(in: vectors)
        let expectedIDs: Set<String> = [
            "clean-release", "key-rotation-chain", "delegated-creator", "expired-timestamp", "expired-snapshot", "expired-targets",
            "timestamp-rollback", "snapshot-rollback", "targets-rollback", "targets-role-removed-from-snapshot", "duplicate-signature-keyids",
            "duplicate-signature-keyids-threshold-1",
            "timestamp-changed-same-version", "delegated-role-not-in-snapshot", "delegation-path-not-covered", "terminating-delegation",
            "mix-and-match", "endless-snapshot", "tampered-bundle", "zip-slip-bundle", "bundle-over-signed-length", "root-signed-by-unknown-key",
            "wrong-role-type",
        ]
        XCTAssertTrue(expectedIDs.isSubset(of: Set(cases.map(\.id))), "missing: \(expectedIDs.subtracting(cases.map(\.id)))")
        let folders = try FileManager.default.contentsOfDirectory(atPath: vectors.path).filter { !$0.hasSuffix(".json") && !$0.hasSuffix(".md") }
        XCTAssertEqual(Set(folders), Set(cases.map(\.id)), "index.json lists every case folder")
        let index = try JSONSerialization.jsonObject(with: Data(contentsOf: vectors.appendingPathComponent("index.json"))) as? [String: Any]
        XCTAssertEqual((index?["errors"] as? [[String: Any]])?.compactMap { $0["class"] as? String }, VectorErrorClass.allCases.map(\.rawValue))
        var zips: [URL] = []
        for vector in cases {
            let folder = vectors.appendingPathComponent(vector.id)
            XCTAssertEqual(vector.schemaVersion, 1)
            XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent(vector.trustedRoot)),
                           try Data(contentsOf: folder.appendingPathComponent("steps/1/metadata/1.root.json")), vector.id)
            for step in vector.steps {
                let repository = folder.appendingPathComponent(step.repository)
                XCTAssertTrue(FileManager.default.fileExists(atPath: repository.appendingPathComponent("metadata/timestamp.json").path), "\(vector.id) \(step.step)")
                if step.expect == "refuse" {
                    XCTAssertNotNil(VectorErrorClass(rawValue: step.error ?? ""), "\(vector.id): unknown error class \(step.error ?? "none")")
                    XCTAssertTrue(["refresh", "download", "install"].contains(step.phase ?? ""), vector.id)
                } else {
                    // What an accepted step holds is on the server, under its consistent-snapshot name, with that length and digest.
                    for held in step.holds {
                        let slash = held.target.lastIndex(of: "/").map { held.target.index(after: $0) } ?? held.target.startIndex
                        let file = repository.appendingPathComponent("targets/\(held.target[..<slash])\(held.sha256).\(held.target[slash...])")
                        let data = try Data(contentsOf: file)
                        XCTAssertEqual(data.count, held.length, "\(vector.id) \(held.target)")
                        XCTAssertEqual(SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined(), held.sha256, "\(vector.id) \(held.target)")
                    }
                }
                guard vector.release else { continue }
                XCTAssertNotNil(step.request, vector.id)
                // Every manifest is a Livery download manifest listing the bundles on the server.
                for manifestFile in try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("targets").path)
                where manifestFile.hasSuffix(".download-manifest.json") {
                    let manifest = try XCTUnwrap(DownloadManifest.parse(Data(contentsOf: repository.appendingPathComponent("targets/\(manifestFile)"))), manifestFile)
                    XCTAssertEqual(manifest.tenant, "vectors")
                    // The archives as signed (the tampered and oversized ones are not zips any more).
                    for bundle in manifest.bundles {
                        let archive = repository.appendingPathComponent(bundle.path)
                        if let data = try? Data(contentsOf: archive), SHA256.hash(data: data).map({ String(format: "%02x", $0) }).joined() == bundle.sha256 { zips.append(archive) }
                    }
                }
            }
        }
        // An independent zip reader opens every bundle the manifests list; the zip-slip bundle carries `../evil`.
        let check = try LiveryProcess.tool(["python3", "-c", """
            import sys, zipfile
            names = set()
            for path in sys.argv[1:]:
                with zipfile.ZipFile(path) as z:
                    assert z.testzip() is None, path
                    names.update(z.namelist())
            print(sorted(names))
            """] + Set(zips.map(\.path)).sorted())
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stdout.contains("'../evil'"), check.stdout)
        XCTAssertTrue(check.stdout.contains("'tenant.json'"), check.stdout)
    }

    /// Runs `run` over the vectors served on 127.0.0.1 and fails with every disagreement with case.json.
    private func agree(_ client: String, layer: VectorJudge.Layer, releaseCasesOnly: Bool = false,
                       _ run: (_ cases: [VectorFile], _ server: StaticFileServer, _ root: URL) throws -> [String: [ObservedStep]]) throws {
        let root = try generate()
        let vectors = root.appendingPathComponent("vectors")
        // `livery fetch` asks for <server>/<tenant>/: app/<case>/<step>/vectors → the step's repository.
        let cases = try VectorFile.all(in: vectors).filter { !releaseCasesOnly || $0.release }
        for vector in cases {
            for step in vector.steps {
                let link = root.appendingPathComponent("app/\(vector.id)/\(step.step)/vectors")
                try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(at: link, withDestinationURL: vectors.appendingPathComponent("\(vector.id)/\(step.repository)"))
            }
        }
        let server = try StaticFileServer(root: root)
        let observed = try run(cases, server, root)
        var problems: [String] = []
        var table: [String] = []
        for vector in cases {
            let steps = observed[vector.id] ?? []
            guard steps.count == vector.steps.count else {
                problems.append("\(vector.id): \(steps.count) of \(vector.steps.count) steps ran")
                continue
            }
            var caseProblems: [String] = []
            for (index, step) in steps.enumerated() {
                caseProblems += VectorJudge.mismatches(vector, index, step, layer: layer)
            }
            let outcomes = steps.map { $0.accepted ? "accept" : "refuse \($0.error ?? "")".trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
            table.append("\(caseProblems.isEmpty ? "agrees   " : "DISAGREES") \(vector.id): \(outcomes)")
            problems += caseProblems
        }
        print("\(client) against the vectors:\n" + table.joined(separator: "\n"))
        XCTAssertTrue(problems.isEmpty, "\(client) disagrees with \(problems.count) expectation(s):\n" + problems.joined(separator: "\n"))
    }

    /// The delta cases are not only accepted or refused as case.json says: `livery fetch` takes the clean one by
    /// delta (only the changed files) and falls back to the whole archive where the index or its base does not verify.
    func testLiveryFetchTakesTheDeltaVectorsByDeltaAndFallsBackWhereTheyLie() throws {
        let root = try generate()
        let vectors = root.appendingPathComponent("vectors")
        let server = try StaticFileServer(root: root)
        let agreed = try ["delta-clean", "delta-tampered-index", "delta-wrong-base"].map { id -> (String, [ObservedStep]) in
            let vector = try VectorFile.load(vectors.appendingPathComponent(id))
            for step in vector.steps {
                let link = root.appendingPathComponent("app/\(id)/\(step.step)/vectors")
                try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(at: link, withDestinationURL: vectors.appendingPathComponent("\(id)/\(step.repository)"))
            }
            return (id, try VectorClients.liveryFetch(vector, appURL: "\(server.base)/app", vectors: vectors, work: root.appendingPathComponent("fetch")))
        }
        let outcome = Dictionary(uniqueKeysWithValues: agreed)
        let clean = try XCTUnwrap(outcome["delta-clean"]?.last)
        XCTAssertTrue(clean.accepted && clean.message.contains("by delta: core"), clean.message)
        for id in ["delta-tampered-index", "delta-wrong-base"] {
            let step = try XCTUnwrap(outcome[id]?.last)
            XCTAssertTrue(step.accepted, "\(id): \(step.message)")
            XCTAssertFalse(step.message.contains("by delta"), "\(id): \(step.message)")
            XCTAssertEqual(step.installedRelease, 2, "\(id): \(step.message)")
        }
        XCTAssertTrue(outcome["delta-wrong-base"]?.last?.message.contains("core: its delta was refused") == true, outcome["delta-wrong-base"]?.last?.message ?? "")
    }

    func testPythonTUFAgreesWithEveryVector() throws {
        try agree("python-tuf", layer: .tuf) { cases, server, root in
            let work = root.appendingPathComponent("python-tuf")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            return try VectorClients.pythonTUF(cases, vectorsURL: "\(server.base)/vectors", vectors: root.appendingPathComponent("vectors"), work: work)
        }
    }

    func testLiveryTUFClientAgreesWithEveryVector() throws {
        try agree("livery tuf-client", layer: .tuf) { cases, server, root in
            var observed: [String: [ObservedStep]] = [:]
            for vector in cases {
                observed[vector.id] = try VectorClients.liveryTUFClient(vector, vectorsURL: "\(server.base)/vectors", vectors: root.appendingPathComponent("vectors"),
                                                                        work: root.appendingPathComponent("tuf-client"))
            }
            return observed
        }
    }

    func testLiveryFetchAgreesWithEveryReleaseVector() throws {
        try agree("livery fetch", layer: .app, releaseCasesOnly: true) { cases, server, root in
            var observed: [String: [ObservedStep]] = [:]
            for vector in cases {
                observed[vector.id] = try VectorClients.liveryFetch(vector, appURL: "\(server.base)/app", vectors: root.appendingPathComponent("vectors"),
                                                                    work: root.appendingPathComponent("fetch"))
            }
            return observed
        }
    }
}
