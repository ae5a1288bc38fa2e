import ArgumentParser
import Foundation
import LiveryAssets
import LiveryPublish
import LiverySign
import LiveryStorage
import LiveryTUF

/// Parsing of channel names and rollout shares on the command line.
package enum ChannelArgument {
    package static func parse(_ text: String) throws -> ReleaseChannel {
        guard let channel = ReleaseChannel(text) else {
            throw ValidationError("'\(text)' is not a channel name: a lower-case letter, then lower-case letters, digits and hyphens (at most 32)")
        }
        return channel
    }

    package static func parseShare(_ text: String) throws -> RolloutStage {
        guard let points = RolloutStage.basisPoints(percent: text) else {
            throw ValidationError("'\(text)' is not a share of devices: give a percentage such as 10% or 12.5% (at most two decimals)")
        }
        guard let stage = RolloutStage(basisPoints: points) else {
            throw ValidationError("a rollout share is more than 0% and less than 100% (100% is every device: `livery rollout TENANT 100%`)")
        }
        return stage
    }
}

/// What the channel commands share: the output folder and its lock, the content store and the keys.
struct ChannelOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "The output folder.")
    var output = "Output"

    @Option(help: "The signing key store (one folder per tenant).")
    var keys = ".livery-keys"

    var outputURL: URL { URL(fileURLWithPath: output).standardizedFileURL }

    /// Runs `body` under the output lock with the content store and the tenant's keys.
    func withRelease<T>(tenant: String, _ body: (ContentStore, TenantKeys) throws -> T) throws -> T {
        let output = outputURL
        guard FileManager.default.fileExists(atPath: output.appendingPathComponent(tenant).path) else {
            throw Livery.Failure("'\(tenant)' has no releases in \(output.path): build it first")
        }
        do {
            let lock = try OutputLock(output: output) { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
            defer { withExtendedLifetime(lock) {} }
            Publisher.removeLeftovers(in: output)
            let store = try ContentStore(root: output.appendingPathComponent(".livery/store"))
            let tenantKeys = try KeyStore(root: URL(fileURLWithPath: keys)).keys(for: tenant, create: false) { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
            return try body(store, tenantKeys)
        } catch let failure as ReleaseChannels.Failure {
            throw Livery.Failure("\(tenant): \(failure.description)")
        } catch let failure as WriteFailure {
            // A full disk (or a failing one) names the tenant and the file; the channel stays as it was.
            throw Livery.Failure("\(tenant): \(failure)")
        }
    }

    static let warn: @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }

    @Flag(help: "Print each step (assembled, signed, switched) on standard output as it happens.")
    var verbose = false

    /// The steps printer for `--verbose` (`StepReporter`).
    var steps: ((String) -> Void)? { StepReporter.make(verbose: verbose) }
}

struct Promote: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "promote",
        abstract: "Publish a release of one channel on another, unchanged (e.g. a tested beta on stable).",
        discussion: """
            The same download manifest and bundles, byte for byte, signed for the target channel: nothing is \
            rebuilt. When the target channel already has a release with that number or a higher one (after a \
            rollback there), the same bundles get a new manifest with the next release number. With --rollout \
            the release goes to that share of the target channel's devices first (see `livery rollout`).
            """
    )

    @Argument(help: "The tenant id.")
    var tenant: String

    @Option(help: "The channel whose release is promoted.", transform: ChannelArgument.parse)
    var from: ReleaseChannel

    @Option(help: "The channel it is published on.", transform: ChannelArgument.parse)
    var to: ReleaseChannel

    @Option(help: "The release to promote (default: the --from channel's current release).")
    var release: Int?

    @Option(help: ArgumentHelp("Give it to this share of the --to channel's devices only.", valueName: "PERCENT"), transform: ChannelArgument.parseShare)
    var rollout: RolloutStage?

    @Option(help: "Why (recorded in the signed metadata).")
    var reason: String?

    @OptionGroup var options: ChannelOptions

    func run() throws {
        let outcome = try options.withRelease(tenant: tenant) { store, keys in
            try ReleaseChannels.promote(tenant: tenant, from: from, to: to, release: release, exposure: rollout.map { .rollout($0) } ?? .everyone,
                                        reason: reason, keys: keys, output: options.outputURL, store: store, steps: options.steps, warn: ChannelOptions.warn)
        }
        // "to 10% of stable's devices", as `livery rollout` says it (not "to stable to 10% of devices").
        let destination = rollout.map { "\($0.percentText) of \(to.name)'s devices" } ?? to.name
        let how = outcome.sameManifest ? "the same manifest" : "the same bundles, renumbered: \(to.name) had a release as new"
        // The number promoted, also when it was the channel's current one (not "(current)").
        let source = outcome.source ?? release
        print("\(tenant): promoted \(from.name) release \(source.map(String.init) ?? "?") to \(destination) as release \(outcome.release) (\(how))")
    }
}

struct Rollback: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollback",
        abstract: "Publish an earlier release's content again, as a new release, with the reason recorded.",
        discussion: """
            Clients refuse older versions, so a rollback is a roll-forward: the earlier release's bundles \
            (unchanged, from Output/ or the content store) under a new manifest with the next release number, \
            for every device of the channel, with the reason in the signed metadata (`livery releases` shows \
            it). The next `livery build` publishes again only when the tenant's sources change.
            """
    )

    @Argument(help: "The tenant id.")
    var tenant: String

    @Option(help: "The channel to roll back.", transform: ChannelArgument.parse)
    var channel: ReleaseChannel = .stable

    @Option(help: "The release whose content is published again.")
    var to: Int

    @Option(help: "Why (required; recorded in the signed metadata).")
    var reason: String

    @OptionGroup var options: ChannelOptions

    func run() throws {
        let outcome = try options.withRelease(tenant: tenant) { store, keys in
            try ReleaseChannels.rollback(tenant: tenant, channel: channel, to: to, reason: reason, keys: keys, output: options.outputURL, store: store,
                                         steps: options.steps, warn: ChannelOptions.warn)
        }
        print("\(tenant): rolled \(channel.name) back to the content of release \(to), published as release \(outcome.release)")
    }
}

struct Rollout: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollout",
        abstract: "Change the share of devices a staged release goes to: a percentage, 100% (everyone) or halt.",
        discussion: """
            A release published with --rollout goes to the devices whose bucket (from their install id, \
            docs/client.md) falls below the share; the others keep the channel's current release. A larger \
            share only adds devices. 100% makes it the channel's release for everyone; halt withdraws it \
            (devices that took it keep it until a newer release: clients never go back to an older one).
            """
    )

    @Argument(help: "The tenant id.")
    var tenant: String

    @Argument(help: "A share such as 50%, 100% (every device) or halt.")
    var share: String

    @Option(help: "The channel.", transform: ChannelArgument.parse)
    var channel: ReleaseChannel = .stable

    @OptionGroup var options: ChannelOptions

    func run() throws {
        let change: ReleaseChannels.RolloutChange
        if share == "halt" {
            change = .halt
        } else if RolloutStage.basisPoints(percent: share) == RolloutStage.scale {
            change = .complete
        } else {
            change = .share(try ChannelArgument.parseShare(share))
        }
        let release = try options.withRelease(tenant: tenant) { store, keys in
            try ReleaseChannels.changeRollout(tenant: tenant, channel: channel, to: change, keys: keys, output: options.outputURL, store: store,
                                              steps: options.steps, warn: ChannelOptions.warn)
        }
        switch change {
        case .complete: print("\(tenant): release \(release) is \(channel.name)'s release for every device")
        case .halt: print("\(tenant): rollout of release \(release) on \(channel.name) halted; devices that took it keep it")
        case .share(let stage): print("\(tenant): release \(release) goes to \(stage.percentText) of \(channel.name)'s devices")
        }
    }
}

struct Releases: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "releases",
        abstract: "List a tenant's releases per channel: number, date, size, rollout, origin and reason.",
        discussion: "Read from each channel's signed metadata (every version is kept), so the history survives the loss of Output/.livery."
    )

    @Argument(help: "The tenant id.")
    var tenant: String

    @Option(name: .shortAndLong, help: "The output folder.")
    var output = "Output"

    @Option(help: "text or json.")
    var format: OutputFormat = .text

    enum OutputFormat: String, ExpressibleByArgument { case text, json }

    func run() throws {
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        let store = try? ContentStore(root: outputURL.appendingPathComponent(".livery/store"))
        let histories = try ReleaseChannels.history(tenant: tenant, output: outputURL)
        guard !histories.isEmpty else { throw Livery.Failure("'\(tenant)' has no releases in \(outputURL.path)") }
        // Each release is read once: its size, and the update to it from the release before, both need it.
        var located: [String: PublishedRelease?] = [:]
        func locate(_ entry: ReleaseHistory.Entry) -> PublishedRelease? {
            if let known = located[entry.manifestSHA256] { return known }
            let release = store.flatMap { try? ReleaseChannels.locate(tenant: tenant, manifestSHA256: entry.manifestSHA256, output: outputURL, store: $0) }
            located[entry.manifestSHA256] = release
            return release
        }
        func size(_ entry: ReleaseHistory.Entry) -> Int? { locate(entry)?.manifest.bundles.reduce(0) { $0 + $1.size } }
        /// What a device holding every bundle of the channel's release before `entry` downloads to reach it: whole, and by delta.
        func update(_ entry: ReleaseHistory.Entry, in history: ReleaseHistory) -> (whole: Int, delta: Int)? {
            guard let at = history.entries.firstIndex(where: { $0.release == entry.release && $0.manifestSHA256 == entry.manifestSHA256 }), at > 0,
                  let new = locate(entry), let old = locate(history.entries[at - 1]) else { return nil }
            return ReleaseDiff.updateBytes(from: old.manifest.bundles, to: new.manifest.bundles) { bundle in
                new.manifest.bundle(bundle.id)?.sha256 == bundle.sha256 ? new.indexFiles[bundle.id] : old.indexFiles[bundle.id]
            }
        }
        func rollout(_ entry: ReleaseHistory.Entry) -> String {
            switch entry.state {
            case .staged: return entry.lastStage.map { "\($0.percentText) (in progress)" } ?? "staged"
            case .halted: return "halted at \(entry.lastStage?.percentText ?? "?")"
            case .current, .replaced: return entry.lastStage == nil ? "everyone" : "everyone (after \(entry.lastStage!.percentText))"
            }
        }
        func origin(_ entry: ReleaseHistory.Entry) -> String {
            guard let provenance = entry.provenance else { return "build" }
            switch provenance.origin {
            case .build: return "build"
            case .promotion: return "promoted from \(provenance.fromChannel ?? "?") \(provenance.fromRelease.map(String.init) ?? "")"
            case .rollback: return "rollback to \(provenance.fromRelease.map(String.init) ?? "?")"
            }
        }
        if format == .json {
            let channels: [JSONValue] = histories.map { history in
                .object(["channel": .string(history.channel.name), "releases": .array(history.entries.reversed().map { entry in
                    var object: [String: JSONValue] = [
                        "release": .int(entry.release), "manifestSha256": .string(entry.manifestSHA256), "state": .string(entry.state.rawValue),
                        "origin": .string(entry.provenance?.origin.rawValue ?? "build"),
                    ]
                    object["published"] = .string(TUFDate.string(entry.signed))
                    if let bytes = size(entry) { object["bytes"] = .int(bytes) }
                    if let update = update(entry, in: history) { object["update"] = .object(["whole": .int(update.whole), "delta": .int(update.delta)]) }
                    if let stage = entry.lastStage { object["rolloutBasisPoints"] = .int(stage.basisPoints) }
                    if let from = entry.provenance?.fromChannel { object["fromChannel"] = .string(from) }
                    if let from = entry.provenance?.fromRelease { object["fromRelease"] = .int(from) }
                    if let reason = entry.provenance?.reason { object["reason"] = .string(reason) }
                    return .object(object)
                })])
            }
            print(String(decoding: JSONValue.object(["tenant": .string(tenant), "channels": .array(channels)]).bytes, as: UTF8.self))
            return
        }
        for history in histories {
            print("\(history.channel.name):")
            for entry in history.entries.reversed() {
                let date = TUFDate.string(entry.signed)
                let bytes = size(entry).map { ByteCount.text($0) } ?? "-"
                let mark = entry.state == .current ? "*" : entry.state == .staged ? "~" : " "
                let change = update(entry, in: history).map { "  update \(ByteCount.text($0.delta)) by delta (\(ByteCount.text($0.whole)) whole)" } ?? ""
                var line = "\(mark) \(entry.release)  \(date)  \(bytes)  \(rollout(entry))  \(origin(entry))\(change)"
                if let reason = entry.provenance?.reason { line += "  \"\(reason)\"" }
                print(line)
            }
        }
    }
}

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changed between two releases: bundles, files inside them, messages per locale, token values per mode, and the download.",
        discussion: """
            A and B are release numbers of the tenant (from any of its channels; the bytes must still be in \
            the output folder or its content store), or output folders, meaning the current release of the \
            tenant on --channel in that folder. Encrypted bundles are compared when the tenant's content.key \
            is in --keys.
            """
    )

    @Argument(help: "The tenant id.")
    var tenant: String

    @Argument(help: "The older release: a number, or an output folder.")
    var from: String

    @Argument(help: "The newer release: a number, or an output folder.")
    var to: String

    @Option(help: "The channel whose current release an output folder stands for.", transform: ChannelArgument.parse)
    var channel: ReleaseChannel = .stable

    @Option(name: .shortAndLong, help: "The output folder (for release numbers).")
    var output = "Output"

    @Option(help: "The key store, to compare encrypted bundles.")
    var keys = ".livery-keys"

    @Option(help: "text or json.")
    var format: Releases.OutputFormat = .text

    func release(_ text: String) throws -> PublishedRelease {
        if let number = Int(text) {
            let folder = URL(fileURLWithPath: output).standardizedFileURL
            let store = try ContentStore(root: folder.appendingPathComponent(".livery/store"))
            let histories = try ReleaseChannels.history(tenant: tenant, output: folder)
            guard let entry = ReleaseChannels.entry(release: number, preferring: channel, in: histories) else {
                throw Livery.Failure("\(tenant) never published release \(number) in \(folder.path)")
            }
            return try ReleaseChannels.locate(tenant: tenant, manifestSHA256: entry.manifestSHA256, output: folder, store: store)
        }
        let folder = URL(fileURLWithPath: text).standardizedFileURL
        guard let current = Publisher.currentManifest(tenant: tenant, channel: channel, output: folder) else {
            throw Livery.Failure("'\(text)' is neither a release number nor an output folder with a \(channel.name) release of \(tenant)")
        }
        let store = try ContentStore(root: folder.appendingPathComponent(".livery/store"))
        return try ReleaseChannels.locate(tenant: tenant, manifestSHA256: current.pointer.sha256, output: folder, store: store)
    }

    func run() throws {
        let a: PublishedRelease, b: PublishedRelease
        do {
            (a, b) = (try release(from), try release(to))
        } catch let failure as ReleaseChannels.Failure {
            throw Livery.Failure("\(tenant): \(failure.description)")
        }
        let secret = try? KeyStore(root: URL(fileURLWithPath: keys)).contentSecret(for: tenant, create: false)
        let diff = try ReleaseDiff.compare(a, b) { bundle, url in
            guard let secret, let encryption = bundle.encryption else { return nil }
            let plain = FileManager.default.temporaryDirectory.appendingPathComponent("livery-diff-\(UUID().uuidString)")
            try SegmentedAEAD.decrypt(url, to: plain, key: secret.contentKey(keyID: encryption.keyID))
            return plain
        }
        if format == .json {
            print(String(decoding: diff.json.bytes, as: UTF8.self))
        } else {
            FileHandle.standardOutput.write(Data(diff.text.utf8))
        }
    }
}

struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Check and repair the output folder's content store and published targets.",
        subcommands: [Verify.self, Repair.self]
    )

    static func printReport(_ report: StoreDoctor.Report) {
        for problem in report.problems { print(problem) }
        print("checked \(report.objectsChecked) stored objects and \(report.targetsChecked) published targets (\(ByteCount.text(report.bytesRead))): "
              + "\(report.damaged.count) damaged, \(report.problems.count - report.damaged.count) stale")
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Re-hash every object of Output/.livery/store and every file in each channel's targets/.",
            discussion: """
                A damaged object or target (bytes that are not the SHA-256 it is named by) is listed and the exit \
                status is 1. A stale object (a tenant file edited in place after it was stored, never used again) is \
                listed but is not damage. The signed metadata is checked by `livery verify`.
                """
        )

        @Option(name: .shortAndLong, help: "The output folder.")
        var output = "Output"

        func run() throws {
            let report = try StoreDoctor.verify(output: URL(fileURLWithPath: output).standardizedFileURL)
            StoreCommand.printReport(report)
            if !report.damaged.isEmpty { throw ExitCode(1) }
        }
    }

    struct Repair: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "repair",
            abstract: "Remove damaged store objects, re-create them from the tenants' sources, and replace damaged targets.",
            discussion: """
                Damaged and stale objects are removed from the store. A damaged published target is replaced from an \
                intact copy (the store, or another channel's target with the same SHA-256); when there is none, its \
                tenant is built again from WORKSPACE (the same bytes: builds are deterministic) and the target is \
                replaced from the result. Each channel is switched atomically, as a build does. Exit status 1 when \
                something could not be repaired.
                """
        )

        @Argument(help: "The workspace the tenants are built from.", completion: .directory)
        var workspace = "Tenants"

        @Option(name: .shortAndLong, help: "The output folder.")
        var output = "Output"

        @Option(help: "The signing key store.")
        var keys = ".livery-keys"

        func run() throws {
            let outputURL = URL(fileURLWithPath: output).standardizedFileURL
            let report = try StoreDoctor.verify(output: outputURL)
            guard !report.problems.isEmpty else {
                StoreCommand.printReport(report)
                return
            }
            let target = WorkspaceTarget(workspace)
            let result = try StoreDoctor.repair(output: outputURL, report: report) { tenants in
                let store = try ContentStore(root: outputURL.appendingPathComponent(".livery/store"))
                let records = try BuildRecords(store: store)
                for tenant in tenants { try records.forget(tenant) }
                var options = BuildOptions(only: tenants, keys: KeyStore(root: URL(fileURLWithPath: keys)))
                options.format = Publisher.currentManifest(tenant: tenants.sorted()[0], output: outputURL)?.manifest.format ?? .zip
                let built = try ReleaseBuilder.build(workspace: target.workspace, displayRoot: target.displayWorkspace, output: outputURL, options: options)
                if built.validationFailed || !built.failures.isEmpty {
                    throw Livery.Failure("cannot rebuild \(tenants.sorted().joined(separator: ", ")) from \(workspace): "
                                         + (built.failures.isEmpty ? "validation failed (run `livery validate`)" : built.failures.joined(separator: "; ")))
                }
            }
            for path in result.removedObjects { print("removed \(path)") }
            for path in result.replacedTargets { print("replaced \(path)") }
            for path in result.droppedTargets { print("dropped \(path) (a previous release's; the sources now build the current one)") }
            for problem in result.unrepaired { print("NOT REPAIRED \(problem)") }
            let after = try StoreDoctor.verify(output: outputURL)
            StoreCommand.printReport(after)
            if !after.damaged.isEmpty || !result.unrepaired.isEmpty { throw ExitCode(1) }
        }
    }
}

/// `--verbose` step lines (`step: …` on standard output, written at once) and the tests' fail point:
/// with `LIVERY_STOP_AFTER_STEP=<step>` the process stops itself (SIGSTOP) right after saying that
/// step, so that a test's kill lands exactly there.
package enum StepReporter {
    package static func make(verbose: Bool) -> (@Sendable (String) -> Void)? {
        guard verbose else { return nil }
        let stopAt = ProcessInfo.processInfo.environment["LIVERY_STOP_AFTER_STEP"]
        return { step in
            FileHandle.standardOutput.write(Data(("step: " + step + "\n").utf8))
            // raise: to this thread, so it stops before it returns (kill(getpid()) may stop another thread first).
            if step == stopAt { raise(SIGSTOP) }
        }
    }
}
