import Crypto
import Foundation
import LiveryClient
import LiveryPack
import LiveryPublish
import LiverySign
import LiveryReleaseFormat

/// What `SignerPropertyTests` checks after every step: four clients (Livery's updater and
/// python-tuf, each from the shipped root and from the state kept after the previous step) against
/// the release the signer meant to publish.
extension SignerSequence {
    /// The target names of the published release.
    func currentTargetNames() -> [String] { expectedTargets().keys.sorted() }

    /// What the release should resolve to: the download manifest and its bundles.
    func expectedTargets() -> [String: Resolved] {
        guard let (pointer, manifest) = Publisher.currentManifest(tenant: tenant, output: root.appendingPathComponent("Output")) else { return [:] }
        var targets: [String: Resolved] = [:]
        let manifestSize = (try? Data(contentsOf: release.appendingPathComponent(pointer.manifest)))?.count ?? -1
        targets[DownloadManifest.targetName] = Resolved(length: manifestSize, sha256: pointer.sha256)
        for bundle in manifest.bundles {
            let file = (bundle.path as NSString).lastPathComponent
            targets[String(file.dropFirst(bundle.sha256.count + 1))] = Resolved(length: bundle.size, sha256: bundle.sha256)
        }
        return targets
    }

    /// The top-level versions the release publishes.
    func publishedVersions() -> [String: Int] {
        let metadata = release.appendingPathComponent("metadata")
        guard let published = PublishedMetadata.read(release: release) else { return [:] }
        return ["root": RepositorySigner.latestVersion(of: .root, in: metadata) ?? 0, "timestamp": published.timestamp.signed.version,
                "snapshot": published.snapshot.signed.version, "targets": published.targets.signed.version]
    }

    /// Every target name any metadata file of the release lists, the expected ones, and one that
    /// no role lists: the names each client is asked to resolve.
    func candidateNames() throws -> [String] {
        var names = Set(expectedTargets().keys)
        names.insert("not-a-target.zip")
        let metadata = release.appendingPathComponent("metadata")
        for file in try FileManager.default.contentsOfDirectory(atPath: metadata.path) where file.hasSuffix(".json") {
            let document = try SignedMetadata(data: Data(contentsOf: metadata.appendingPathComponent(file)))
            names.formUnion(document.signed["targets"]?.objectValue?.keys ?? [:].keys)
        }
        return names.sorted()
    }

    func check() throws -> [String] {
        let expected = expectedTargets()
        let versions = publishedVersions()
        let candidates = try candidateNames()
        var outcomes: [(client: String, outcome: Result<Outcome, Error>)] = []
        outcomes.append(("livery, from 1.root.json", Result { try oursFresh() }))
        outcomes.append(("livery, kept state", Result { try oursContinuing(candidates) }))
        for (client, outcome) in try pythonTUF(candidates) { outcomes.append((client, outcome)) }
        var problems: [String] = []
        if expected.isEmpty { problems.append("no published release") }
        for (client, outcome) in outcomes {
            switch outcome {
            case .failure(let error):
                problems.append("\(client) refused the release: \(error)")
            case .success(let result):
                if result.targets != expected {
                    let missing = expected.filter { result.targets[$0.key] != $0.value }.map { "\($0.key) (\($0.value))" }.sorted()
                    let extra = result.targets.filter { expected[$0.key] != $0.value }.map { "\($0.key) (\($0.value))" }.sorted()
                    problems.append("\(client) resolved other targets: missing \(missing), unexpected \(extra)")
                }
                if result.versions != versions { problems.append("\(client) trusts versions \(result.versions.sorted { $0.key < $1.key }), published \(versions.sorted { $0.key < $1.key })") }
            }
        }
        return problems
    }

    func rootData() throws -> Data { try Data(contentsOf: release.appendingPathComponent("metadata/1.root.json")) }

    /// Livery's updater from the shipped root, whole release at once (as `livery verify` works).
    func oursFresh() throws -> Outcome {
        let source = LocalRepository(root: release)
        let trusted = try TUFUpdater.refresh(source: source, trustedRoot: rootData(), now: now)
        var targets: [String: Resolved] = [:]
        for name in trusted.targetNames {
            let data = try TUFUpdater.target(name, in: trusted, from: source)
            targets[name] = Resolved(length: data.count, sha256: SHA256.hash(data: data).hexString)
        }
        return Outcome(targets: targets, versions: Self.versions(trusted.set))
    }

    /// Livery's updater continuing from the metadata folder it kept (as `livery fetch` keeps its
    /// cache): a lazy target search per candidate name, then the whole release for comparison.
    func oursContinuing(_ candidates: [String]) throws -> Outcome {
        let source = LocalRepository(root: release)
        let updater = try TUFUpdater(source: source, store: MetadataFolder(oursState), bootstrapRoot: rootData(), now: now)
        try updater.refresh()
        var targets: [String: Resolved] = [:]
        for name in candidates {
            guard let (target, _) = try updater.targetInfo(name) else { continue }
            let data = try updater.download(target)
            targets[name] = Resolved(length: data.count, sha256: SHA256.hash(data: data).hexString)
        }
        try updater.loadAllDelegatedRoles()
        let whole = try TrustedMetadata(updater.trusted)
        guard whole.targetNames == targets.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) else {
            throw TUFError("the lazy search found \(targets.keys.sorted()), the whole release lists \(whole.targetNames)")
        }
        return Outcome(targets: targets, versions: Self.versions(updater.trusted))
    }

    static func versions(_ set: TrustedMetadataSet) -> [String: Int] {
        ["root": set.root.signed.version, "timestamp": set.timestamp?.signed.version ?? 0, "snapshot": set.snapshot?.signed.version ?? 0,
         "targets": set.targets[TUFRole.targets.rawValue]?.signed.version ?? 0]
    }

    /// python-tuf's `Updater`, reading the release folder through a fetcher of its own, from the
    /// shipped root (a new folder) and from the folder it kept after the previous step.
    func pythonTUF(_ candidates: [String]) throws -> [(String, Result<Outcome, Error>)] {
        let fresh = root.appendingPathComponent("python-fresh-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: fresh) }
        let request = JSONValue.object([
            "release": .string(release.path), "root": .string(release.appendingPathComponent("metadata/1.root.json").path),
            "candidates": .array(candidates.map(JSONValue.string)),
            "clients": .array([.string(fresh.path), .string(pythonState.path)]),
        ])
        let input = root.appendingPathComponent("python-request.json")
        try request.bytes.write(to: input)
        let result = try LiveryProcess.tool(fakeTime + [SigningTests.python, "-c", Self.pythonScript, input.path])
        guard result.status == 0, let answer = try? JSONValue.parse(Data(result.stdout.utf8)), let clients = answer.arrayValue, clients.count == 2 else {
            throw TUFError("python-tuf did not run: \(result.stdout) \(result.stderr)")
        }
        return zip(["python-tuf, from 1.root.json", "python-tuf, kept state"], clients).map { name, client in
            guard client["ok"]?.boolValue == true else { return (name, .failure(TUFError(client["error"]?.stringValue ?? "?"))) }
            var targets: [String: Resolved] = [:]
            for (target, entry) in client["targets"]?.objectValue ?? [:] {
                let pair = entry.arrayValue ?? []
                targets[target] = Resolved(length: pair.first?.intValue ?? -1, sha256: pair.last?.stringValue ?? "")
            }
            let versions = (client["versions"]?.objectValue ?? [:]).compactMapValues(\.intValue)
            return (name, .success(Outcome(targets: targets, versions: versions)))
        }
    }

    static let pythonScript = """
        import json, os, shutil, sys, tempfile, urllib.parse
        from tuf.api import exceptions
        from tuf.ngclient import FetcherInterface, Updater

        request = json.load(open(sys.argv[1]))
        base = "file://" + urllib.parse.quote(request["release"])

        class FolderFetcher(FetcherInterface):
            def _fetch(self, url):
                path = urllib.parse.unquote(urllib.parse.urlparse(url).path)
                try:
                    with open(path, "rb") as f:
                        data = f.read()
                except FileNotFoundError:
                    raise exceptions.DownloadHTTPError(f"{path} not found", 404)
                return iter([data])

        def run(metadir):
            os.makedirs(metadir, exist_ok=True)
            downloads = tempfile.mkdtemp()
            kept = os.path.exists(os.path.join(metadir, "root.json"))
            bootstrap = None if kept else open(request["root"], "rb").read()
            updater = Updater(metadata_dir=metadir, metadata_base_url=base + "/metadata/", target_dir=downloads,
                              target_base_url=base + "/targets/", fetcher=FolderFetcher(), bootstrap=bootstrap)
            updater.refresh()
            targets = {}
            for name in request["candidates"]:
                info = updater.get_targetinfo(name)
                if info is None:
                    continue
                path = updater.download_target(info, os.path.join(downloads, urllib.parse.quote(name, "")))
                with open(path, "rb") as f:
                    length = len(f.read())
                targets[name] = [length, info.hashes.get("sha256")]
            trusted = updater._trusted_set
            versions = {"root": trusted.root.version, "timestamp": trusted.timestamp.version,
                        "snapshot": trusted.snapshot.version, "targets": trusted.targets.version}
            shutil.rmtree(downloads)
            return {"ok": True, "targets": targets, "versions": versions}

        answers = []
        for metadir in request["clients"]:
            try:
                answers.append(run(metadir))
            except Exception as error:
                answers.append({"ok": False, "error": f"{type(error).__name__}: {error}"})
        print(json.dumps(answers))
        """
}
