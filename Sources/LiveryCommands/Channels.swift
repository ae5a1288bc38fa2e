import ArgumentParser
import Foundation
import LiveryPublish
import LiveryReleaseFormat

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

/// What the channel commands share: the output folder, the keys, and `--verbose`.
struct ChannelOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "The output folder.")
    var output = "Output"

    @Option(help: "The signing key store (one folder per tenant).")
    var keys = ".livery-keys"

    @Flag(help: "Print each step (assembled, signed, switched) on standard output as it happens.")
    var verbose = false

    /// The session a channel operation runs in; warnings go to standard error, steps to standard output (`StepReporter`).
    var session: ChannelSession {
        ChannelSession(output: URL(fileURLWithPath: output).standardizedFileURL, keys: URL(fileURLWithPath: keys), steps: StepReporter.make(verbose: verbose)) {
            FileHandle.standardError.write(Data(($0 + "\n").utf8))
        }
    }
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
        print(try options.session.promote(tenant: tenant, from: from, to: to, release: release, rollout: rollout, reason: reason).summary)
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
        print(try options.session.rollback(tenant: tenant, channel: channel, to: to, reason: reason).summary)
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
        print(try options.session.changeRollout(tenant: tenant, channel: channel, to: change).summary)
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
        let listing = try ReleaseListing.read(tenant: tenant, output: URL(fileURLWithPath: output).standardizedFileURL)
        if format == .json { FileHandle.standardOutput.write(listing.json) } else { FileHandle.standardOutput.write(Data(listing.text.utf8)) }
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

    func run() throws {
        let diff = try ReleaseDiff.compare(tenant: tenant, from: ReleaseSelector(from), to: ReleaseSelector(to), channel: channel,
                                           output: URL(fileURLWithPath: output).standardizedFileURL, keys: URL(fileURLWithPath: keys))
        if format == .json { FileHandle.standardOutput.write(diff.json.bytes) } else { FileHandle.standardOutput.write(Data(diff.text.utf8)) }
    }
}
