import ArgumentParser
import Foundation
import LiveryClientCore
import LiveryStorage
import LiveryPublish
import LiveryReleaseFormat

struct Embed: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "embed",
        abstract: "Write a tenant's current release as an app ships it inside its binary, for a first launch with no network.",
        discussion: """
            Writes into the new folder DIR the trusted root chain, the release's current TUF metadata, its download \
            manifest, and the bundles an app with this locale, these tours and programs installs, with their file \
            indexes, laid out as the repository is. An app passes DIR as FetchRequest.embeddedRelease: LiveryClient \
            installs it into an empty cache, verified against the embedded root, and later updates download only \
            what changed since it (docs/deltas.md). The release is verified first; voucher bundles cannot be embedded.
            """
    )

    @Argument(help: "The tenant id.")
    var tenant: String

    @Option(name: .long, help: "The output folder the release is published in.")
    var output = "Output"

    @Option(help: ArgumentHelp("The channel whose release to embed (default stable).", valueName: "NAME"), transform: ChannelArgument.parse)
    var channel: ReleaseChannel = .stable

    @Option(help: "The user's locale (default: the release's default locale).")
    var locale: String?

    @Option(help: "A tour to embed, with its audio in the locale (repeatable).")
    var tour: [String] = []

    @Option(help: "A program to embed (repeatable).")
    var program: [String] = []

    @Option(name: [.customShort("o"), .customLong("to")], help: "The folder to write (must not exist).")
    var destination: String

    func run() throws {
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        let repository = Publisher.repository(tenant: tenant, channel: channel, output: outputURL)
        guard FileManager.default.fileExists(atPath: repository.appendingPathComponent(ReleasePointer.fileName).path) else {
            throw Livery.Failure("'\(tenant)' has no \(channel.name) release in \(outputURL.path) (run `livery build` first)")
        }
        let written = try EmbeddedRelease.write(repository: repository, tenant: tenant, channel: channel.name, locale: locale, tours: tour, programs: program,
                                                to: URL(fileURLWithPath: destination).standardizedFileURL)
        print("\(tenant): release \(written.selection.release) embedded in \(destination): \(written.bundles.count) bundles (\(written.bundles.joined(separator: ", "))), \(ByteCount.text(written.bytes))")
    }
}
