import Foundation
import LiveryPublish
import LiverySign
import LiveryReleaseFormat
import XCTest

/// Channels, promotion, rollback and staged rollout (docs/output.md#channels, docs/operations.md),
/// end to end through the command line, `livery serve`, `livery fetch` and python-tuf.
final class ChannelTests: XCTestCase {
    private static let tenant = "urbannest"

    /// The samples with urbannest publishing to beta by default and declaring it.
    private func betaWorkspace() throws -> BuildTests.Workspace {
        let workspace = try BuildTests.Workspace()
        try workspace.replace("\(Self.tenant)/tenant.yaml", "  channel: stable\n", "  channel: beta\n  channels: [beta]\n")
        return workspace
    }

    private func livery(_ arguments: [String], _ workspace: BuildTests.Workspace, expect status: Int32 = 0,
                        file: StaticString = #filePath, line: UInt = #line) throws -> LiveryProcess.Output {
        let result = try LiveryProcess.run(arguments, in: workspace.root)
        XCTAssertEqual(result.status, status, "livery \(arguments.joined(separator: " "))\n\(result.stdout)\n\(result.stderr)", file: file, line: line)
        return result
    }

    private func build(_ workspace: BuildTests.Workspace, _ extra: [String] = [], expect status: Int32 = 0) throws -> LiveryProcess.Output {
        try livery(["build", "Tenants/\(Self.tenant)", "--output", "Output"] + extra, workspace, expect: status)
    }

    private func pointer(_ workspace: BuildTests.Workspace, _ channel: ReleaseChannel) throws -> ReleasePointer {
        try XCTUnwrap(ReleasePointer.read(from: Publisher.repository(tenant: Self.tenant, channel: channel, output: workspace.output)))
    }

    /// python-tuf's view of a channel: the download manifest's release and `custom`, or a staged target's, as JSON.
    private func pythonTUF(_ server: SigningTests.FileServer, _ workspace: BuildTests.Workspace, channel: ReleaseChannel, targets: [String]) throws -> [String: Any] {
        let script = """
            import json, sys
            from tuf.ngclient import Updater
            base, state, root = sys.argv[1], sys.argv[2], sys.argv[3]
            u = Updater(metadata_dir=state, metadata_base_url=base + "/metadata/", target_base_url=base + "/targets/",
                        target_dir=state, bootstrap=open(root, "rb").read())
            u.refresh()
            out = {}
            for name in sys.argv[4:]:
                info = u.get_targetinfo(name)
                if info is None:
                    out[name] = None
                    continue
                path = u.download_target(info)
                out[name] = {"custom": info.unrecognized_fields.get("custom"), "bytes": len(open(path, "rb").read())}
            print(json.dumps(out))
            """
        let folder = channel.relativeFolder.isEmpty ? "" : "/" + channel.relativeFolder
        let base = "http://127.0.0.1:\(server.port)/\(Self.tenant)\(folder)"
        let root = Publisher.repository(tenant: Self.tenant, channel: channel, output: workspace.output).appendingPathComponent("metadata/1.root.json")
        let result = try LiveryProcess.tool([SigningTests.python, "-c", script, base, try SigningTests.clientState(in: workspace.root).path, root.path] + targets)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
    }

    func testBetaIsPromotedToStableByteForByteRolledBackWithAReasonAndAQuietBuildKeepsTheRollback() throws {
        let workspace = try betaWorkspace()
        let first = try build(workspace)
        XCTAssertTrue(first.stdout.contains("\(Self.tenant): published release 1 on beta"), first.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.output.appendingPathComponent("\(Self.tenant)/release.json").path),
                       "a beta build does not touch stable")

        // Promotion: the same manifest, the same target files, a root chain shared with beta.
        // The line names the release promoted, also when it is the channel's current one (not "(current)").
        XCTAssertEqual(try livery(["promote", Self.tenant, "--from", "beta", "--to", "stable"], workspace).stdout,
                       "\(Self.tenant): promoted beta release 1 to stable as release 1 (the same manifest)\n")
        let beta = try pointer(workspace, ReleaseChannel("beta")!), stable = try pointer(workspace, .stable)
        XCTAssertEqual(beta.sha256, stable.sha256)
        let betaFolder = Publisher.repository(tenant: Self.tenant, channel: ReleaseChannel("beta")!, output: workspace.output)
        let stableFolder = workspace.output.appendingPathComponent(Self.tenant)
        let manifest = try XCTUnwrap(Publisher.currentManifest(tenant: Self.tenant, output: workspace.output)?.manifest)
        for path in [stable.manifest] + manifest.bundles.map(\.path) {
            XCTAssertEqual(try Data(contentsOf: stableFolder.appendingPathComponent(path)), try Data(contentsOf: betaFolder.appendingPathComponent(path)), path)
        }
        XCTAssertEqual(try Data(contentsOf: stableFolder.appendingPathComponent("metadata/1.root.json")),
                       try Data(contentsOf: betaFolder.appendingPathComponent("metadata/1.root.json")), "one root file serves every channel")

        // A second beta release; stable stays on 1 until promoted.
        try workspace.replace("\(Self.tenant)/locales/en.yaml", "Home", "Start")
        XCTAssertTrue(try build(workspace).stdout.contains("published release 2 on beta"))
        XCTAssertEqual(try pointer(workspace, .stable).release, 1)
        XCTAssertTrue(try livery(["promote", Self.tenant, "--from", "beta", "--to", "stable", "--reason", "QA passed"], workspace).stdout.contains("as release 2"))

        // Rolling back to the current release, or to one never published, changes nothing.
        let before = BuildTests.tree(workspace.output)
        XCTAssertTrue(try livery(["rollback", Self.tenant, "--to", "2", "--reason", "x"], workspace, expect: 2).stderr.contains("is stable's current release"))
        XCTAssertTrue(try livery(["rollback", Self.tenant, "--to", "9", "--reason", "x"], workspace, expect: 2).stderr.contains("never published release 9"))
        XCTAssertTrue(try livery(["rollback", Self.tenant, "--to", "1", "--reason", "  "], workspace, expect: 2).stderr.contains("needs a reason"))
        XCTAssertEqual(BuildTests.tree(workspace.output), before)

        // The rollback: release 1's bundles as release 3, the reason signed.
        XCTAssertTrue(try livery(["rollback", Self.tenant, "--to", "1", "--reason", "Start confuses users"], workspace).stdout.contains("published as release 3"))
        let rolledBack = try XCTUnwrap(Publisher.currentManifest(tenant: Self.tenant, output: workspace.output)?.manifest)
        XCTAssertEqual(rolledBack.release, 3)
        XCTAssertEqual(rolledBack.bundles, manifest.bundles)

        // python-tuf reads both channels, with the provenance in the manifest's custom.
        let server = try SigningTests.FileServer(root: workspace.output)
        let stableView = try pythonTUF(server, workspace, channel: .stable, targets: ["download-manifest.json", "core.zip"])
        let custom = try XCTUnwrap((stableView["download-manifest.json"] as? [String: Any])?["custom"] as? [String: Any])
        XCTAssertEqual(custom["release"] as? Int, 3)
        XCTAssertEqual(custom["origin"] as? String, "rollback")
        XCTAssertEqual(custom["fromRelease"] as? Int, 1)
        XCTAssertEqual(custom["reason"] as? String, "Start confuses users")
        let betaView = try pythonTUF(server, workspace, channel: ReleaseChannel("beta")!, targets: ["download-manifest.json"])
        XCTAssertEqual(((betaView["download-manifest.json"] as? [String: Any])?["custom"] as? [String: Any])?["release"] as? Int, 2)
        let verify = try livery(["verify", "--output", "Output"], workspace)
        XCTAssertTrue(verify.stdout.contains("\(Self.tenant): release 3 verified"), verify.stdout)
        XCTAssertTrue(verify.stdout.contains("\(Self.tenant) (beta): release 2 verified"), verify.stdout)

        // The history, as JSON.
        let history = try livery(["releases", Self.tenant, "--output", "Output", "--format", "json"], workspace)
        XCTAssertTrue(history.stdout.hasSuffix("}\n") && !history.stdout.hasSuffix("\n\n"), "one JSON document, one final newline")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any])
        let channels = try XCTUnwrap(object["channels"] as? [[String: Any]])
        XCTAssertEqual(channels.map { $0["channel"] as? String }, ["stable", "beta"])
        let stableReleases = try XCTUnwrap(channels[0]["releases"] as? [[String: Any]])
        XCTAssertEqual(stableReleases.map { $0["release"] as? Int }, [3, 2, 1])
        XCTAssertEqual(stableReleases.map { $0["origin"] as? String }, ["rollback", "promotion", "promotion"])
        XCTAssertEqual(stableReleases[1]["reason"] as? String, "QA passed")
        XCTAssertEqual(stableReleases[0]["state"] as? String, "current")
        XCTAssertNotNil(stableReleases[0]["bytes"] as? Int)

        // Sources unchanged since the last build: nothing is published, beta keeps 2, stable its rollback.
        let quiet = try build(workspace)
        XCTAssertTrue(quiet.stdout.contains("unchanged (release 2 on beta"), quiet.stdout)
        XCTAssertEqual(try pointer(workspace, .stable).release, 3)
        // A promotion to a channel whose number is already higher renumbers: same bundles, next number.
        let renumbered = try livery(["promote", Self.tenant, "--from", "beta", "--to", "stable"], workspace)
        XCTAssertTrue(renumbered.stdout.contains(": promoted beta release 2 to stable as release 4 (the same bundles, renumbered"), renumbered.stdout)
        XCTAssertEqual(try XCTUnwrap(Publisher.currentManifest(tenant: Self.tenant, output: workspace.output)?.manifest).bundles,
                       try XCTUnwrap(Publisher.currentManifest(tenant: Self.tenant, channel: ReleaseChannel("beta")!, output: workspace.output)?.manifest).bundles)
    }

    /// `livery inspect` of a tenant whose builds go to another channel (as a new tenant of `livery init` builds to
    /// internal) shows that channel's release and names it, never "no release (run `livery build` first)"; a channel it
    /// lacks, or several and no stable, are refused with the channels it has.
    func testInspectShowsTheOnlyChannelATenantPublishesAndNamesTheOthers() throws {
        let workspace = try betaWorkspace()
        XCTAssertEqual(try build(workspace).status, 0)
        XCTAssertTrue(try livery(["inspect", Self.tenant, "--output", "Output"], workspace).stdout.hasPrefix("\(Self.tenant) release 1 on beta ("))
        let files = try livery(["inspect", Self.tenant, "core", "--output", "Output"], workspace).stdout
        XCTAssertTrue(files.contains("tenant.json"), files)
        XCTAssertEqual(try livery(["inspect", Self.tenant, "--channel", "stable", "--output", "Output"], workspace, expect: 2).stderr,
                       "Error: '\(Self.tenant)' has no release on stable in Output/; it has releases on beta (name one with --channel)\n")
        _ = try livery(["promote", Self.tenant, "--from", "beta", "--to", "stable"], workspace)
        XCTAssertTrue(try livery(["inspect", Self.tenant, "--output", "Output"], workspace).stdout.hasPrefix("\(Self.tenant) release 1 (zip"))
        XCTAssertTrue(try livery(["inspect", Self.tenant, "--channel", "beta", "--output", "Output"], workspace).stdout.hasPrefix("\(Self.tenant) release 1 on beta ("))

        let two = try BuildTests.Workspace()
        try two.replace("\(Self.tenant)/tenant.yaml", "  channel: stable\n", "  channel: beta\n  channels: [beta, internal]\n")
        _ = try build(two)
        _ = try build(two, ["--channel", "internal"])
        XCTAssertEqual(try livery(["inspect", Self.tenant, "--output", "Output"], two, expect: 2).stderr,
                       "Error: '\(Self.tenant)' has no stable release in Output/; it has releases on beta, internal: name one with --channel\n")
        XCTAssertEqual(try livery(["inspect", "nobody", "--output", "Output"], two, expect: 2).stderr, "Error: 'nobody' has no release in Output/ (run `livery build` first)\n")
    }

    /// `livery releases` gives each size in the unit that fits: a release of a few hundred kilobytes is not "0.2 MB".
    func testReleasesGiveSizesInTheUnitThatFits() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try build(workspace).status, 0)
        try workspace.replace("\(Self.tenant)/locales/en.yaml", "Home", "Start")
        XCTAssertEqual(try build(workspace).status, 0)
        let history = try livery(["releases", Self.tenant, "--output", "Output"], workspace).stdout
        let sizes = history.split(separator: "\n").filter { !$0.hasSuffix(":") }.compactMap { $0.firstMatch(of: #/^[*~ ] [0-9]+  [^ ]+  ([^ ]+ [^ ]+)  /#)?.1 }
        XCTAssertEqual(sizes.count, 2, history)
        for size in sizes { XCTAssertNotNil(size.wholeMatch(of: /[1-9][0-9]{0,2}\.[0-9] (KB|MB)/), history) }
    }

    /// Promoting to a share of devices says it as `livery rollout` does: "to 10% of stable's devices".
    func testPromotingToAShareNamesTheShareOfTheChannelsDevices() throws {
        let workspace = try betaWorkspace()
        XCTAssertEqual(try build(workspace).status, 0)
        _ = try livery(["promote", Self.tenant, "--from", "beta", "--to", "stable"], workspace)
        try workspace.replace("\(Self.tenant)/locales/en.yaml", "Home", "Start")
        XCTAssertEqual(try build(workspace).status, 0)
        XCTAssertEqual(try livery(["promote", Self.tenant, "--from", "beta", "--to", "stable", "--rollout", "10%"], workspace).stdout,
                       "\(Self.tenant): promoted beta release 2 to 10% of stable's devices as release 2 (the same manifest)\n")
    }

    func testAStagedRolloutReachesTheBucketedDevicesGrowsWithoutFlippingBackAndAHaltKeepsWhatWasTaken() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try build(workspace).status, 0)
        // The first release of a channel goes to everyone, even when asked for a rollout.
        try workspace.replace("\(Self.tenant)/locales/en.yaml", "Home", "Start")
        let staged = try build(workspace, ["--rollout", "30%"])
        XCTAssertTrue(staged.stdout.contains("published release 2 to 30% of devices"), staged.stdout)
        XCTAssertEqual(try pointer(workspace, .stable).release, 1, "release.json keeps naming the release every device can have")
        XCTAssertTrue(try livery(["verify", Self.tenant, "--output", "Output"], workspace).stdout.contains("release 1 (release 2 staged) verified"))

        let server = try SigningTests.FileServer(root: workspace.output)
        let view = try pythonTUF(server, workspace, channel: .stable, targets: ["download-manifest.json", RolloutStage.stagedManifestName, "staged/core.zip"])
        let stagedCustom = try XCTUnwrap((view[RolloutStage.stagedManifestName] as? [String: Any])?["custom"] as? [String: Any])
        XCTAssertEqual(stagedCustom["release"] as? Int, 2)
        XCTAssertEqual((stagedCustom["rollout"] as? [String: Any])?["basisPoints"] as? Int, 3000)
        XCTAssertNotNil(view["staged/core.zip"] as? [String: Any])

        let devices = (0..<8).map { "device-\($0)" }
        func bucket(_ id: String, release: Int) -> Int { RolloutStage.bucket(tenant: Self.tenant, channel: "stable", release: release, installID: id) }
        func fetch(_ id: String) throws -> Int {
            let result = try livery(["fetch", Self.tenant, "--server", "http://127.0.0.1:\(server.port)", "--cache", "cache-\(id)",
                                     "--root", "Output/\(Self.tenant)/metadata/1.root.json", "--install-id", id], workspace)
            let number = result.stdout.components(separatedBy: "release ").dropFirst().first?.prefix { $0.isNumber }
            return try XCTUnwrap(number.flatMap { Int($0) }, result.stdout)
        }
        var took = Set<String>()
        for share in [3000, 6000] {
            if share != 3000 { XCTAssertEqual(try livery(["rollout", Self.tenant, "60%"], workspace).status, 0) }
            for id in devices {
                let expected = bucket(id, release: 2) < share ? 2 : 1
                XCTAssertEqual(try fetch(id), expected, "\(id) at \(share) basis points, bucket \(bucket(id, release: 2))")
                if expected == 2 { took.insert(id) }
            }
        }
        // Everyone, then a new staged release that is halted: the devices that took it keep it.
        XCTAssertTrue(try livery(["rollout", Self.tenant, "100%"], workspace).stdout.contains("release 2 is stable's release for every device"))
        for id in devices { XCTAssertEqual(try fetch(id), 2) }
        try workspace.replace("\(Self.tenant)/locales/en.yaml", "Start", "Begin")
        XCTAssertTrue(try build(workspace, ["--rollout", "50%"]).stdout.contains("published release 3 to 50% of devices"))
        let third = Dictionary(uniqueKeysWithValues: try devices.map { ($0, try fetch($0)) })
        XCTAssertEqual(third.filter { $0.value == 3 }.keys.sorted(), devices.filter { bucket($0, release: 3) < 5000 })
        XCTAssertTrue(try livery(["rollout", Self.tenant, "halt"], workspace).stdout.contains("halted"))
        for id in devices { XCTAssertEqual(try fetch(id), third[id], "\(id) never goes back to an older release") }
        XCTAssertTrue(try livery(["rollout", Self.tenant, "20%"], workspace, expect: 2).stderr.contains("no release of \(Self.tenant) is being rolled out"))
        let history = try livery(["releases", Self.tenant, "--output", "Output"], workspace).stdout
        XCTAssertTrue(history.contains("halted at 50%"), history)
        XCTAssertTrue(history.contains("everyone (after 60%)"), history)
    }

    /// A build record made by `--channel beta` does not answer for the next build without `--channel`, which
    /// publishes to the tenant's own channel (the record alone once said "unchanged" and published nothing).
    func testABuildAfterAChannelOverrideStillPublishesTheTenantsOwnChannel() throws {
        let workspace = try BuildTests.Workspace()
        try workspace.replace("\(Self.tenant)/tenant.yaml", "  channel: stable\n", "  channel: stable\n  channels: [beta]\n")
        try workspace.backdate()  // stamps trusted at once: the record alone could answer
        _ = try build(workspace, ["--channel", "beta"])
        XCTAssertNotNil(Publisher.currentManifest(tenant: Self.tenant, channel: ReleaseChannel("beta")!, output: workspace.output))
        XCTAssertNil(Publisher.currentManifest(tenant: Self.tenant, output: workspace.output))
        let own = try build(workspace)
        XCTAssertTrue(own.stdout.contains("\(Self.tenant): published release"), own.stdout)
        XCTAssertNotNil(Publisher.currentManifest(tenant: Self.tenant, output: workspace.output))
        // The next build like it is answered from its record again (a tenant keeps the record of its last build).
        let again = try build(workspace)
        XCTAssertTrue(again.stdout.contains("\(Self.tenant): unchanged (release 2, inputs untouched)"), again.stdout)
    }

    func testABuildToAChannelTheTenantDoesNotDeclareIsRefusedAndPublishesNothing() throws {
        let workspace = try BuildTests.Workspace()
        let refused = try build(workspace, ["--channel", "qa"], expect: 2)
        XCTAssertTrue(refused.stderr.contains("\(Self.tenant): it does not declare the channel 'qa' (it declares stable)"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.output.appendingPathComponent(Self.tenant).path))
        XCTAssertTrue(try build(workspace, ["--channel", "Beta"], expect: 2).stderr.contains("is not a channel name"))
        XCTAssertTrue(try build(workspace, ["--rollout", "100%"], expect: 2).stderr.contains("less than 100%"))
        XCTAssertTrue(try build(workspace, ["--rollout", "12.345%"], expect: 2).stderr.contains("at most two decimals"))
    }

    func testProtectedBundlesOfAChannelAndOfAStagedReleaseStillNeedAVoucher() throws {
        let workspace = try BuildTests.Workspace()
        let tenant = "sonic-walkscape"
        try workspace.replace("\(tenant)/tenant.yaml", "  channel: stable\n", "  channel: stable\n  channels: [beta]\n")
        XCTAssertEqual(try livery(["build", "Tenants/\(tenant)", "--output", "Output", "--channel", "beta"], workspace).status, 0)
        XCTAssertEqual(try livery(["build", "Tenants/\(tenant)", "--output", "Output"], workspace).status, 0)
        try workspace.replace("\(tenant)/locales/fr.yaml", "Carte", "Plan")
        XCTAssertEqual(try livery(["build", "Tenants/\(tenant)", "--output", "Output", "--rollout", "50%"], workspace).status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        let tour = "tour.rome-trastevere.zip"
        let betaManifest = try XCTUnwrap(Publisher.currentManifest(tenant: tenant, channel: ReleaseChannel("beta")!, output: workspace.output)?.manifest)
        let staged = try XCTUnwrap(Publisher.stagedManifest(tenant: tenant, output: workspace.output)?.manifest)
        let sha = { (manifest: DownloadManifest) in try XCTUnwrap(manifest.bundles.first { $0.targetName(format: manifest.format) == tour }?.sha256) }
        let paths = ["\(tenant)/channels/beta/targets/\(try sha(betaManifest)).\(tour)", "\(tenant)/targets/staged/\(try sha(staged)).\(tour)"]
        for path in paths {
            XCTAssertTrue(FileManager.default.fileExists(atPath: workspace.output.appendingPathComponent(path).path), path)
            let status = try LiveryProcess.tool(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(server.port)/\(path)"])
            XCTAssertEqual(status.stdout, "401", path)
        }
        // A public bundle of the same places is served.
        let core = try XCTUnwrap(staged.bundle("core"))
        let open = try LiveryProcess.tool(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(server.port)/\(tenant)/targets/staged/\(core.sha256).core.zip"])
        XCTAssertEqual(open.stdout, "200")
    }

    func testDiffShowsChangedBundlesFilesMessagesTokensAndTheDownload() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try build(workspace).status, 0)
        try FileManager.default.copyItem(at: workspace.output, to: workspace.root.appendingPathComponent("Before"))
        try workspace.replace("\(Self.tenant)/locales/en.yaml", "  home: Home\n", "  home: Start\n")
        try workspace.replace("\(Self.tenant)/branding/tokens.json", "0d7377", "0d7378")
        XCTAssertEqual(try build(workspace).status, 0)
        let first = try XCTUnwrap(Publisher.currentManifest(tenant: Self.tenant, output: workspace.root.appendingPathComponent("Before")))
        let second = try XCTUnwrap(Publisher.currentManifest(tenant: Self.tenant, output: workspace.output))

        for arguments in [["1", "2"], ["Before", "Output"]] {
            let result = try livery(["diff", Self.tenant] + arguments + ["--output", "Output", "--format", "json"], workspace)
            let diff = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
            XCTAssertEqual(diff["from"] as? Int, 1)
            XCTAssertEqual(diff["to"] as? Int, 2)
            let bundles = try XCTUnwrap(diff["bundles"] as? [String: Any])
            let changed = try XCTUnwrap(bundles["changed"] as? [[String: Any]])
            XCTAssertEqual(changed.map { $0["id"] as? String }, ["core", "locale.en"])
            XCTAssertEqual((bundles["added"] as? [Any])?.count, 0)
            XCTAssertTrue((changed[1]["filesChanged"] as? [String])?.contains("locales/en.json") == true, "\(changed[1])")
            let messages = try XCTUnwrap(diff["messages"] as? [[String: String]])
            XCTAssertEqual(messages, [["locale": "en", "key": "nav.home", "old": "Home", "new": "Start"]])
            let tokens = try XCTUnwrap(diff["tokens"] as? [[String: String]])
            XCTAssertTrue(tokens.contains(["mode": "default", "key": "color.brand.primary", "old": "#0d7377", "new": "#0d7378"]), "\(tokens)")
            XCTAssertTrue(tokens.contains(["mode": "dark", "key": "color.brand.primary", "old": "#0d7377", "new": "#0d7378"]), "\(tokens)")
            // The new manifest and the two changed bundles travel; nothing else.
            let newBytes = second.manifest.bundles.filter { ["core", "locale.en"].contains($0.id) }.reduce(0) { $0 + $1.size }
            let manifestSize = try Data(contentsOf: workspace.output.appendingPathComponent("\(Self.tenant)/\(second.pointer.manifest)")).count
            XCTAssertEqual((diff["download"] as? [String: Int])?["allBundles"], manifestSize + newBytes)
            XCTAssertNotEqual(first.pointer.sha256, second.pointer.sha256)
        }
        let text = try livery(["diff", Self.tenant, "1", "2", "--output", "Output"], workspace).stdout
        XCTAssertTrue(text.contains("[en] nav.home: \"Home\" → \"Start\""), text)
        XCTAssertTrue(text.contains("[default] color.brand.primary: #0d7377 → #0d7378"), text)
        XCTAssertTrue(try livery(["diff", Self.tenant, "1", "9", "--output", "Output"], workspace, expect: 2).stderr.contains("never published release 9"))
    }

    /// Four releases of urbannest, each with a new English string (a new locale.en bundle and manifest).
    private func fourReleases() throws -> BuildTests.Workspace {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try build(workspace).status, 0)
        for (old, new) in [("Home", "Start"), ("Start", "Begin"), ("Begin", "Main")] {
            try workspace.replace("\(Self.tenant)/locales/en.yaml", "  home: \(old)\n", "  home: \(new)\n")
            XCTAssertEqual(try build(workspace).status, 0)
        }
        return workspace
    }

    func testGCKeepsTheCurrentAndPreviousReleasesAndTheHistoryAndFreesTheRest() throws {
        let workspace = try fourReleases()
        let store = workspace.output.appendingPathComponent(".livery/store")
        let before = BuildTests.tree(store.appendingPathComponent("objects"))
        let dry = try livery(["gc", "--output", "Output", "--dry-run"], workspace)
        XCTAssertTrue(dry.stdout.contains("\(Self.tenant): kept releases 3, 4"), dry.stdout)
        XCTAssertEqual(BuildTests.tree(store.appendingPathComponent("objects")), before, "a dry run removes nothing")
        let wouldRemove = dry.stdout.split(separator: "\n").filter { $0.hasPrefix("would remove ") }.map { String($0.dropFirst("would remove ".count).prefix(64)) }
        // Releases 1 and 2 of urbannest: each a manifest and a locale.en bundle; the edited en.yaml of each.
        XCTAssertGreaterThanOrEqual(wouldRemove.count, 4, dry.stdout)

        let collected = try livery(["gc", "--output", "Output"], workspace)
        let removed = collected.stdout.split(separator: "\n").filter { $0.hasPrefix("removed ") }.map { String($0.dropFirst("removed ".count).prefix(64)) }
        XCTAssertEqual(Set(removed), Set(wouldRemove))
        for sha in removed { XCTAssertFalse(FileManager.default.fileExists(atPath: store.appendingPathComponent("objects/\(sha.prefix(2))/\(sha)").path)) }
        // Kept releases are whole; history, rollback to a kept release, verify, a quiet build and a fetch all work.
        XCTAssertTrue(try livery(["releases", Self.tenant, "--output", "Output"], workspace).stdout.contains("  1  "), "history outlives the bytes")
        XCTAssertTrue(try livery(["rollback", Self.tenant, "--to", "2", "--reason", "x"], workspace, expect: 2).stderr.contains("is no longer kept"))
        XCTAssertTrue(try livery(["rollback", Self.tenant, "--to", "3", "--reason", "Main is unclear"], workspace).stdout.contains("published as release 5"))
        XCTAssertEqual(try livery(["verify", "--output", "Output"], workspace).status, 0)
        XCTAssertTrue(try build(workspace).stdout.contains("unchanged"))
        let server = try SigningTests.FileServer(root: workspace.output)
        XCTAssertEqual(try livery(["fetch", Self.tenant, "--server", "http://127.0.0.1:\(server.port)", "--cache", "cache",
                                   "--root", "Output/\(Self.tenant)/metadata/1.root.json"], workspace).status, 0)
        // Nothing left to free; --keep 1 still keeps the previous release.
        XCTAssertTrue(try livery(["gc", "--output", "Output", "--keep", "1"], workspace).stdout.contains("\(Self.tenant): kept releases 4, 5"))
        XCTAssertTrue(try livery(["gc", "--output", "Output"], workspace).stdout.contains("freed 0 bytes: 0 objects removed"))
        XCTAssertTrue(try livery(["gc", Self.tenant, "--output", "Output"], workspace, expect: 2).stderr.contains("collect it whole"))
    }

    /// gc killed (SIGKILL) right after its first, second and third removal: the output stays whole, and the next gc finishes the job.
    func testGCKilledAfterAnyRemovalLeavesEveryKeptReleaseWhole() throws {
        for killAfter in 1...3 {
            let workspace = try fourReleases()
            let running = try LiveryProcess.start(["gc", "--output", "Output"], in: workspace.root, lineByLine: true)
            var seen = 0
            while seen < killAfter, let line = running.nextLine() {
                if line.hasPrefix("removed ") { seen += 1 }
            }
            running.kill()
            XCTAssertEqual(seen, killAfter)
            XCTAssertEqual(try livery(["verify", "--output", "Output"], workspace).status, 0)
            XCTAssertTrue(try build(workspace).stdout.contains("unchanged"))
            let rest = try livery(["gc", "--output", "Output"], workspace)
            XCTAssertTrue(rest.stdout.contains("\(Self.tenant): kept releases 3, 4"), rest.stdout)
            XCTAssertEqual(try livery(["rollback", Self.tenant, "--to", "3", "--reason", "r"], workspace).status, 0)
        }
    }

    /// promote and rollback killed (SIGKILL) exactly after each step they report (`--verbose`, with the
    /// LIVERY_STOP_AFTER_STEP fail point): before the switch the channel is exactly as it was and running
    /// again finishes the job; after it, the new release is live and whole.
    func testPromoteAndRollbackKilledAtEachStepLeaveTheChannelWholeAndFinishOnTheNextRun() throws {
        for step in ["assembled", "signed", "switched"] {
            let workspace = try betaWorkspace()
            XCTAssertEqual(try build(workspace).status, 0)
            XCTAssertEqual(try livery(["promote", Self.tenant, "--from", "beta", "--to", "stable"], workspace).status, 0)
            try workspace.replace("\(Self.tenant)/locales/en.yaml", "  home: Home\n", "  home: Start\n")
            XCTAssertEqual(try build(workspace).status, 0)
            for (command, release) in [(["promote", Self.tenant, "--from", "beta", "--to", "stable"], 2), (["rollback", Self.tenant, "--to", "1", "--reason", "kill test"], 3)] {
                let before = BuildTests.tree(workspace.output.appendingPathComponent(Self.tenant))
                let running = try LiveryProcess.start(command + ["--verbose"], in: workspace.root, environment: ["LIVERY_STOP_AFTER_STEP": step], lineByLine: true)
                while let line = running.nextLine(), line != "step: \(step)" {}
                running.kill()
                XCTAssertEqual(try livery(["verify", "--output", "Output"], workspace).status, 0, "\(command[0]) killed after \(step)")
                let after = BuildTests.tree(workspace.output.appendingPathComponent(Self.tenant))
                if step == "switched" {
                    XCTAssertNotEqual(after, before, "\(command[0]) killed after the switch: the new release is live")
                } else {
                    XCTAssertEqual(after, before, "\(command[0]) killed after \(step): nothing changed")
                    XCTAssertEqual(try livery(command, workspace).status, 0, "\(command[0]) after a kill at \(step)")
                }
                XCTAssertEqual(try pointer(workspace, .stable).release, release, "\(command[0]) killed after \(step)")
            }
        }
    }

    func testRotatingAKeyGivesEveryChannelTheSameNewRoot() throws {
        let workspace = try betaWorkspace()
        XCTAssertEqual(try build(workspace).status, 0)
        XCTAssertEqual(try livery(["promote", Self.tenant, "--from", "beta", "--to", "stable"], workspace).status, 0)
        XCTAssertEqual(try livery(["keys", "rotate", Self.tenant, "timestamp", "--output", "Output"], workspace).status, 0)
        let roots = try [ReleaseChannel.stable, ReleaseChannel("beta")!].map {
            try Data(contentsOf: Publisher.repository(tenant: Self.tenant, channel: $0, output: workspace.output).appendingPathComponent("metadata/2.root.json"))
        }
        XCTAssertEqual(roots[0], roots[1])
        let verify = try livery(["verify", "--output", "Output"], workspace)
        XCTAssertTrue(verify.stdout.contains("\(Self.tenant): release 1 verified") && verify.stdout.contains("\(Self.tenant) (beta): release 1 verified"), verify.stdout)
        // The next beta build signs with the rotated key.
        try workspace.replace("\(Self.tenant)/locales/en.yaml", "Home", "Start")
        XCTAssertEqual(try build(workspace).status, 0)
        XCTAssertEqual(try livery(["verify", "--output", "Output"], workspace).status, 0)
    }
}

/// The bucketing every client must compute identically (docs/client.md#staged-rollout).
final class RolloutBucketTests: XCTestCase {
    func testSharesParseInHundredthsOfAPercent() {
        XCTAssertEqual(RolloutStage.basisPoints(percent: "10%"), 1000)
        XCTAssertEqual(RolloutStage.basisPoints(percent: "12.5%"), 1250)
        XCTAssertEqual(RolloutStage.basisPoints(percent: "0.01"), 1)
        XCTAssertEqual(RolloutStage.basisPoints(percent: "100%"), 10_000)
        for bad in ["", "%", "abc", "101%", "1.234%", "-5%", "1e1", "10 %x", ".5", "5."] {
            XCTAssertNil(RolloutStage.basisPoints(percent: bad), bad)
        }
        XCTAssertNil(RolloutStage(percent: "0%"))
        XCTAssertNil(RolloutStage(percent: "100%"))
        XCTAssertEqual(RolloutStage(percent: "12.5%")?.percentText, "12.5%")
        XCTAssertEqual(RolloutStage(basisPoints: 5)?.percentText, "0.05%")
        XCTAssertEqual(RolloutStage(basisPoints: 3000)?.percentText, "30%")
    }

    /// 100,000 install ids: every share within 0.5 percentage points, and a growing share never drops a device.
    func testTheShareHoldsOverAHundredThousandDevicesAndNoDeviceFlipsBack() {
        let ids = (0..<100_000).map { "install-\($0)" }
        let buckets = ids.map { RolloutStage.bucket(tenant: "sonic-walkscape", channel: "stable", release: 7, installID: $0) }
        var previous = Set<Int>()
        for share in [100, 500, 1000, 2500, 5000, 7500, 9900] {
            let stage = RolloutStage(basisPoints: share)!
            let taking = Set(ids.indices.filter { stage.includes(tenant: "sonic-walkscape", channel: "stable", release: 7, installID: ids[$0]) })
            XCTAssertEqual(taking, Set(buckets.indices.filter { buckets[$0] < share }))
            let measured = Double(taking.count) / Double(ids.count) * 100
            XCTAssertEqual(measured, Double(share) / 100, accuracy: 0.5, "share \(share)")
            XCTAssertTrue(previous.isSubset(of: taking), "a device left the rollout as it grew to \(share)")
            previous = taking
        }
        // Another release starts with another first group: the two 10 % groups overlap as independent draws do (1 %, not 10 %).
        let other = ids.indices.filter { RolloutStage.bucket(tenant: "sonic-walkscape", channel: "stable", release: 8, installID: ids[$0]) < 1000 }
        XCTAssertEqual(Double(Set(other).intersection(ids.indices.filter { buckets[$0] < 1000 }).count), 1000, accuracy: 300)
    }

    /// The same buckets from Python's hashlib, an implementation that shares nothing with ours.
    func testBucketsMatchAnIndependentImplementation() throws {
        let cases = [("sonic-walkscape", "stable", 7, "install-1"), ("urbannest", "beta", 12, "5F3C2A9E-0B1D-4C7E-9A8B-77E1D2C3B4A5"), ("a", "qa-team", 1, "x")]
        let script = """
            import hashlib, sys
            t, c, r, i = sys.argv[1:5]
            d = hashlib.sha256(("livery-rollout-v1\\n%s\\n%s\\n%s\\n%s" % (t, c, r, i)).encode()).digest()
            print(int.from_bytes(d[:8], "big") % 10000)
            """
        for (tenant, channel, release, id) in cases {
            let python = try LiveryProcess.tool(["python3", "-c", script, tenant, channel, String(release), id])
            XCTAssertEqual(python.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                           String(RolloutStage.bucket(tenant: tenant, channel: channel, release: release, installID: id)), python.stderr)
        }
    }

    /// The client vectors' rollout-buckets.json, recomputed case by case with Python's hashlib.
    func testTheVectorsRolloutBucketsAreWhatAnIndependentImplementationComputes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-vectors-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        XCTAssertEqual(try LiveryProcess.run(["vectors", folder.path]).status, 0)
        let script = """
            import hashlib, json, sys
            document = json.load(open(sys.argv[1], encoding="utf-8"))
            wrong = []
            for case in document["cases"]:
                message = "livery-rollout-v1\\n%s\\n%s\\n%d\\n%s" % (case["tenant"], case["channel"], case["release"], case["installId"])
                bucket = int.from_bytes(hashlib.sha256(message.encode("utf-8")).digest()[:8], "big") % 10000
                takes = {share: bucket < int(share) for share in case["takesStaged"]}
                if bucket != case["bucket"] or takes != case["takesStaged"]:
                    wrong.append(case)
            print(len(document["cases"]), json.dumps(wrong))
            """
        let python = try LiveryProcess.tool(["python3", "-c", script, folder.appendingPathComponent("rollout-buckets.json").path])
        XCTAssertEqual(python.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "8 []", python.stderr)
    }

    func testProvenanceAndRolloutRoundTripThroughTargetCustom() throws {
        let provenance = ReleaseProvenance(channel: "stable", origin: .rollback, fromChannel: "stable", fromRelease: 3, reason: "crash on launch")
        let custom = TargetCustom.downloadManifest(release: 5, provenance: provenance, rollout: RolloutStage(basisPoints: 2500))
        let read = try TargetCustom(json: custom.json)
        XCTAssertEqual(read, custom)
        XCTAssertEqual(read.provenance?.reason, "crash on launch")
        // Strict: an unknown origin, a bad channel or an impossible share is malformed.
        for (key, value) in [("origin", JSONValue.string("magic")), ("channel", .string("Beta")), ("rollout", .object(["basisPoints": .int(10_000)]))] {
            guard case .object(var fields) = custom.json else { return XCTFail() }
            fields[key] = value
            XCTAssertThrowsError(try TargetCustom(json: .object(fields)), key) { XCTAssertEqual(($0 as? TUFError)?.kind, .malformed) }
        }
    }
}
