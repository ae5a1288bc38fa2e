import Crypto
import Foundation
import LiveryVectors
import XCTest

struct VectorTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A vector case as an app team reads it: from its case.json, not from the generator's values.
struct VectorFile: Decodable {
    struct Step: Decodable {
        struct Held: Decodable {
            var target: String
            var length: Int
            var sha256: String
        }
        struct Request: Decodable {
            var locale: String
            var programs: [String]
        }
        var step: Int
        var repository: String
        var download: [String]
        var expect: String
        var error: String?
        var phase: String?
        var rootVersion: Int
        var holds: [Held]
        var request: Request?
        var installedRelease: Int?
        /// Installed files (`<bundle id>/<path>`) to overwrite before the step (a wrong base, delta cases).
        var corruptInstalled: [String]?
    }
    var schemaVersion: Int
    var id: String
    var summary: String
    var release: Bool
    var trustedRoot: String
    var steps: [Step]

    static func load(_ folder: URL) throws -> VectorFile {
        try JSONDecoder().decode(VectorFile.self, from: Data(contentsOf: folder.appendingPathComponent("case.json")))
    }

    /// Every case of a vectors folder, in the order of its index.json.
    static func all(in vectors: URL) throws -> [VectorFile] {
        struct Index: Decodable {
            struct Entry: Decodable { var id: String }
            var cases: [Entry]
        }
        let index = try JSONDecoder().decode(Index.self, from: Data(contentsOf: vectors.appendingPathComponent("index.json")))
        return try index.cases.map { try load(vectors.appendingPathComponent($0.id)) }
    }
}

/// What one client did at one step of a case.
struct ObservedStep {
    var accepted: Bool
    /// The error class (python-tuf's exception mapped to the vocabulary); nil when the client does not say.
    var error: String?
    var message: String
    var rootVersion: Int?
    /// Target files the client holds: target name → SHA-256.
    var files: [String: String] = [:]
    /// For an app client: the release installed and the bundles in it.
    var installedRelease: Int?
    var installedManifest: String?
    var installedBundles: Set<String> = []
}

/// Compares what a client did with what case.json says. `layer` is `tuf` for a client that
/// verifies and downloads (a refusal in the install phase is an accept for it, and what it holds
/// is checked after accepted steps only) or `app` for a client that installs releases.
enum VectorJudge {
    enum Layer { case tuf, app }

    static func mismatches(_ vector: VectorFile, _ index: Int, _ observed: ObservedStep, layer: Layer) -> [String] {
        let step = vector.steps[index]
        var problems: [String] = []
        let installRefusal = step.expect == "refuse" && step.phase == "install"
        let mustAccept = step.expect == "accept" || (layer == .tuf && installRefusal)
        if mustAccept && !observed.accepted {
            problems.append("expected accept, got refuse (\(observed.error ?? "?")): \(observed.message)")
        } else if !mustAccept && observed.accepted {
            problems.append("expected refuse \(step.error ?? "")/\(step.phase ?? ""), got accept")
        } else if !mustAccept, layer == .tuf, observed.error == nil {
            problems.append("refused without saying which error class: \(observed.message)")
        } else if !mustAccept, let expected = step.error.flatMap(VectorErrorClass.init(rawValue:)), let reported = observed.error,
                  !(VectorErrorClass(rawValue: reported).map(expected.isSatisfied(by:)) ?? false) {
            problems.append("expected refuse \(expected.rawValue), got refuse \(reported): \(observed.message)")
        }
        if let root = observed.rootVersion, root != step.rootVersion {
            problems.append("expected to trust root v\(step.rootVersion), trusts v\(root)")
        }
        switch layer {
        case .tuf:
            if step.expect == "accept" {
                for held in step.holds where observed.files[held.target] != held.sha256 {
                    problems.append("expected to hold \(held.target) \(held.sha256.prefix(12)), holds \(observed.files[held.target].map { String($0.prefix(12)) } ?? "nothing")")
                }
            }
        case .app:
            if observed.installedRelease != step.installedRelease {
                problems.append("expected release \(step.installedRelease.map(String.init) ?? "none") installed, found \(observed.installedRelease.map(String.init) ?? "none")")
            }
            if let manifest = step.holds.first(where: { $0.target == "download-manifest.json" }), observed.installedManifest != manifest.sha256 {
                problems.append("expected the installed manifest \(manifest.sha256.prefix(12)), found \(observed.installedManifest.map { String($0.prefix(12)) } ?? "none")")
            }
            for held in step.holds where held.target.hasSuffix(".zip") && !observed.installedBundles.contains(held.sha256) {
                problems.append("expected \(held.target) \(held.sha256.prefix(12)) installed")
            }
        }
        return problems.map { "\(vector.id) step \(step.step): \($0)" }
    }
}

/// `python3 -m http.server` (with byte ranges: Tests/interop/range_http_server.py) on 127.0.0.1 and a free port, serving `root`; stopped on deinit.
final class StaticFileServer {
    let process = Process()
    let port: Int
    private let output: URL

    init(root: URL) throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("static-server-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // http.server with byte ranges, so that delta downloads run (the delta-* cases).
        process.arguments = ["python3", "-u", LiveryProcess.packageRoot.appendingPathComponent("Tests/interop/range_http_server.py").path, root.path]
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        var found = 0
        for _ in 0..<500 {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"port (\d+)"#, options: .regularExpression) {
                found = Int(text[range].dropFirst("port ".count)) ?? 0
                break
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        port = found
        XCTAssertGreaterThan(port, 0, "python3 -m http.server did not start")
    }

    var base: String { "http://127.0.0.1:\(port)" }

    deinit {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: output)
    }
}

/// Runs the vectors' steps through each client and records what it did.
enum VectorClients {
    /// python-tuf 7's `Updater`, one client state per case; every case in one Python process.
    static func pythonTUF(_ cases: [VectorFile], vectorsURL: String, vectors: URL, work: URL) throws -> [String: [ObservedStep]] {
        let script = #"""
            import hashlib, json, os, sys, urllib.parse
            from tuf.api import exceptions
            from tuf.ngclient import Updater
            base, vectors, work, ids = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
            def classify(e):
                for cls, name in [(exceptions.DownloadLengthMismatchError, "DownloadLengthMismatch"), (exceptions.UnsignedMetadataError, "BadSignature"),
                                  (exceptions.BadVersionNumberError, "BadVersionNumber"), (exceptions.ExpiredMetadataError, "ExpiredMetadata"),
                                  (exceptions.LengthOrHashMismatchError, "LengthOrHashMismatch"), (exceptions.RepositoryError, "RepositoryError")]:
                    if isinstance(e, cls):
                        return name
                return "Unexpected " + type(e).__name__
            results = {}
            for case_id in ids:
                folder = os.path.join(vectors, case_id)
                case = json.load(open(os.path.join(folder, "case.json")))
                metadir, targetdir = os.path.join(work, case_id, "metadata"), os.path.join(work, case_id, "targets")
                os.makedirs(metadir)
                os.makedirs(targetdir)
                steps = []
                for step in case["steps"]:
                    url = base + "/" + case_id + "/" + step["repository"]
                    bootstrap = open(os.path.join(folder, case["trustedRoot"]), "rb").read() if step["step"] == 1 else None
                    seen = {"accepted": True, "error": None, "message": ""}
                    try:
                        updater = Updater(metadata_dir=metadir, metadata_base_url=url + "/metadata/", target_dir=targetdir,
                                          target_base_url=url + "/targets/", bootstrap=bootstrap)
                        updater.refresh()
                        for name in step["download"]:
                            info = updater.get_targetinfo(name)
                            if info is None:
                                seen = {"accepted": False, "error": "TargetNotFound", "message": name + " is not found"}
                                break
                            updater.download_target(info)
                    except Exception as e:
                        seen = {"accepted": False, "error": classify(e), "message": type(e).__name__ + ": " + str(e)}
                    try:
                        seen["rootVersion"] = json.load(open(os.path.join(metadir, "root.json")))["signed"]["version"]
                    except OSError:
                        seen["rootVersion"] = None
                    seen["files"] = {urllib.parse.unquote(n): hashlib.sha256(open(os.path.join(targetdir, n), "rb").read()).hexdigest()
                                     for n in os.listdir(targetdir)}
                    steps.append(seen)
                results[case_id] = steps
            print(json.dumps(results))
            """#
        let output = try LiveryProcess.tool([SigningTests.python, "-c", script, vectorsURL, vectors.path, work.path] + cases.map(\.id))
        guard output.status == 0 else { throw VectorTestFailure("python-tuf runner failed: \(output.stderr)") }
        struct Seen: Decodable {
            var accepted: Bool
            var error: String?
            var message: String
            var rootVersion: Int?
            var files: [String: String]
        }
        let decoded = try JSONDecoder().decode([String: [Seen]].self, from: Data(output.stdout.utf8))
        return decoded.mapValues { steps in
            steps.map { ObservedStep(accepted: $0.accepted, error: $0.error, message: $0.message, rootVersion: $0.rootVersion, files: $0.files) }
        }
    }

    /// `livery tuf-client` (docs/conformance.md): init with the trusted root, then `download` of the step's targets.
    static func liveryTUFClient(_ vector: VectorFile, vectorsURL: String, vectors: URL, work: URL) throws -> [ObservedStep] {
        let metadata = work.appendingPathComponent("\(vector.id)/metadata"), targets = work.appendingPathComponent("\(vector.id)/targets")
        try FileManager.default.createDirectory(at: targets, withIntermediateDirectories: true)
        let initialized = try LiveryProcess.run(["tuf-client", "--metadata-dir", metadata.path, "init", vectors.appendingPathComponent("\(vector.id)/\(vector.trustedRoot)").path])
        return try vector.steps.map { step in
            let url = "\(vectorsURL)/\(vector.id)/\(step.repository)"
            let run = initialized.status != 0 ? initialized
                : try LiveryProcess.run(["tuf-client", "--metadata-dir", metadata.path, "--metadata-url", "\(url)/metadata", "--target-base-url", "\(url)/targets",
                                         "--target-dir", targets.path] + step.download.flatMap { ["--target-name", $0] } + ["download"])
            return ObservedStep(accepted: run.status == 0, error: run.status == 0 ? nil : errorClass(ofTUFClient: run.stderr),
                                message: run.stderr.trimmingCharacters(in: .whitespacesAndNewlines),
                                rootVersion: rootVersion(metadata.appendingPathComponent("root.json")), files: hashes(in: targets))
        }
    }

    /// The vocabulary's class of a `livery tuf-client` failure, read from its `tuf-client: <Kind>: …`
    /// line (Livery's `TUFError.Kind` names, which follow python-tuf's exceptions).
    static func errorClass(ofTUFClient stderr: String) -> String? {
        guard let line = stderr.split(separator: "\n").last(where: { $0.hasPrefix("tuf-client: ") }) else { return nil }
        let kind = line.dropFirst("tuf-client: ".count).prefix { $0 != ":" }
        switch kind {
        case "UnsignedMetadataError": return "BadSignature"
        case "BadVersionNumberError": return "BadVersionNumber"
        case "ExpiredMetadataError": return "ExpiredMetadata"
        case "LengthOrHashMismatchError": return "LengthOrHashMismatch"
        case "DownloadLengthMismatchError": return "DownloadLengthMismatch"
        case "TargetNotFound": return "TargetNotFound"
        case "RepositoryError", "DeserializationError", "WrongRoleType": return "RepositoryError"
        default: return nil
        }
    }

    /// `livery fetch` of tenant `vectors` from `<app>/<case>/<step>/vectors/`, one cache per case.
    static func liveryFetch(_ vector: VectorFile, appURL: String, vectors: URL, work: URL) throws -> [ObservedStep] {
        let cache = work.appendingPathComponent("\(vector.id)/cache")
        let tenant = cache.appendingPathComponent("vectors")
        return try vector.steps.map { step in
            for path in step.corruptInstalled ?? [] {
                // Installed files may be hard links shared with other releases: a new file takes the name.
                let file = tenant.appendingPathComponent("current/bundles/\(path)").resolvingSymlinksInPath()
                unlink(file.path)
                try Data("overwritten by the vector harness\n".utf8).write(to: file)
            }
            let request = step.request.map { ["--locale", $0.locale] + $0.programs.flatMap { ["--program", $0] } } ?? []
            let run = try LiveryProcess.run(["fetch", "vectors", "--server", "\(appURL)/\(vector.id)/\(step.step)", "--cache", cache.path,
                                             "--root", vectors.appendingPathComponent("\(vector.id)/\(vector.trustedRoot)").path] + request)
            // exit 0 with a warning is the offline fallback: the new release was refused and the old one kept.
            var observed = ObservedStep(accepted: run.status == 0 && !run.stderr.contains("warning:"), error: nil,
                                        message: (run.stderr + run.stdout).trimmingCharacters(in: .whitespacesAndNewlines),
                                        rootVersion: rootVersion(tenant.appendingPathComponent("metadata/root.json")) ?? 1)
            let current = tenant.appendingPathComponent("current")
            if let manifest = try? Data(contentsOf: current.appendingPathComponent("download-manifest.json")) {
                observed.installedManifest = SHA256.hash(data: manifest).map { String(format: "%02x", $0) }.joined()
                let object = (try? JSONSerialization.jsonObject(with: manifest)) as? [String: Any]
                observed.installedRelease = object?["release"] as? Int
                for bundle in object?["bundles"] as? [[String: Any]] ?? [] {
                    guard let id = bundle["id"] as? String, let sha = bundle["sha256"] as? String,
                          FileManager.default.fileExists(atPath: current.appendingPathComponent("bundles/\(id)").path) else { continue }
                    // A verified archive in downloads/, or (installed by delta) the kept index of that archive.
                    let table = (try? Data(contentsOf: current.appendingPathComponent("index/\(id).files")))?.split(separator: 0x0A).first
                    let indexed = table.flatMap { (try? JSONSerialization.jsonObject(with: Data($0))) as? [String: Any] }?["archive"] as? [String: Any]
                    guard FileManager.default.fileExists(atPath: tenant.appendingPathComponent("downloads/\(sha)").path) || indexed?["sha256"] as? String == sha else { continue }
                    observed.installedBundles.insert(sha)
                }
            }
            return observed
        }
    }

    static func rootVersion(_ file: URL) -> Int? {
        guard let data = try? Data(contentsOf: file), let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        return (object["signed"] as? [String: Any])?["version"] as? Int
    }

    /// SHA-256 of each file in `folder`, by target name (file names are percent-encoded target names).
    static func hashes(in folder: URL) -> [String: String] {
        var result: [String: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)) else { continue }
            result[name.removingPercentEncoding ?? name] = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
        }
        return result
    }
}
