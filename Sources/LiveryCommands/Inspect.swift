import ArgumentParser
import Foundation
import LiveryLoad
import LiveryMedia
import LiveryPack
import LiveryPublish
import LiverySign
import LiveryReleaseFormat

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a published release or one of its bundles.",
        discussion: """
            `livery inspect <tenant>` lists the bundles of the tenant's current release (on stable, or on \
            --channel; a tenant that has published on one other channel only is shown there) with their kind, \
            locale, policy, access, size and SHA-256. `livery inspect <tenant> <bundle>` lists the files in \
            that bundle with what Livery measured in each (audio and video length and format, image size, \
            subtitle cues), an encrypted one decrypted with the tenant's content.key from --keys. \
            `livery inspect <archive file>` lists any bundle archive.
            """
    )

    @Argument(help: "A tenant id (its release in the output folder), or a bundle archive file.")
    var target: String

    @Argument(help: "A bundle id of the release, to list its files.")
    var bundle: String?

    @Option(name: .shortAndLong, help: "The output folder.")
    var output = "Output"

    @Option(help: ArgumentHelp("The channel whose current release to show (default stable; for a tenant that has published on one other channel only, that one).",
                               valueName: "NAME"), transform: ChannelArgument.parse)
    var channel: ReleaseChannel?

    @Option(help: "The key store holding the tenant's content.key, to list an encrypted bundle's files.")
    var keys = ".livery-keys"

    func run() throws {
        if FileManager.default.fileExists(atPath: target), bundle == nil, !FileManager.default.fileExists(atPath: output + "/" + target) {
            try list(URL(fileURLWithPath: target))
            return
        }
        let outputURL = URL(fileURLWithPath: output)
        let published = Publisher.channels(tenant: target, output: outputURL)
        let channel = try self.channel ?? Self.defaultChannel(tenant: target, published: published, output: output)
        guard let (pointer, manifest) = Publisher.currentManifest(tenant: target, channel: channel, output: outputURL) else {
            // "Run `livery build`" only when nothing is published: a tenant whose builds go to another channel has releases.
            guard !published.isEmpty else { throw Livery.Failure("'\(target)' has no release in \(output)/ (run `livery build` first)") }
            throw Livery.Failure("'\(target)' has no release on \(channel.name) in \(output)/; it has releases on \(published.map(\.name).joined(separator: ", ")) (name one with --channel)")
        }
        if let bundle {
            guard let entry = manifest.bundles.first(where: { $0.id == bundle }) else {
                throw Livery.Failure("release \(manifest.release) of '\(target)' has no bundle '\(bundle)'; it has: \(manifest.bundles.map(\.id).joined(separator: ", "))")
            }
            let file = Publisher.repository(tenant: target, channel: channel, output: outputURL).appendingPathComponent(entry.path)
            guard let encryption = entry.encryption else {
                try list(file)
                return
            }
            guard let secret = try KeyStore(root: URL(fileURLWithPath: keys)).contentSecret(for: target, create: false) else {
                throw Livery.Failure("bundle '\(bundle)' is encrypted, and \(keys)/\(target)/content.key, which unlocks it, is not here (give the key store with --keys)")
            }
            let plain = FileManager.default.temporaryDirectory.appendingPathComponent("livery-inspect-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: plain) }
            do {
                try SegmentedAEAD.decrypt(file, to: plain, key: secret.contentKey(keyID: encryption.keyID))
            } catch {
                throw Livery.Failure("bundle '\(bundle)' does not decrypt with \(keys)/\(target)/content.key: \(error)")
            }
            try list(plain)
            return
        }
        var out = "\(manifest.tenant) release \(manifest.release)\(channel.isStable ? "" : " on \(channel.name)") (\(manifest.format.rawValue), minimum client \(manifest.minimumClientVersion))\n"
        out += "manifest \(pointer.manifest)\n\n"
        let rows = manifest.bundles.map { b in
            [b.id, b.kind.rawValue, b.locale ?? "-", b.policy.rawValue, b.access.rawValue + (b.encryption == nil ? "" : ", encrypted"), Self.size(b.size),
             b.media.map { Self.playingTime($0.milliseconds) } ?? "-", String(b.sha256.prefix(12)), b.dependencies.isEmpty ? "-" : b.dependencies.joined(separator: ",")]
        }
        out += Self.table(["bundle", "kind", "locale", "policy", "access", "size", "plays", "sha256", "depends on"], rows)
        out += "\n\(manifest.bundles.count) bundle\(manifest.bundles.count == 1 ? "" : "s"), \(Self.size(manifest.bundles.reduce(0) { $0 + $1.size })) in all\n"
        FileHandle.standardOutput.write(Data(out.utf8))
    }

    /// Without --channel: stable, unless the tenant has published on one other channel only (a new tenant of
    /// `livery init` builds to `internal` until it is promoted), which is then the one to show.
    static func defaultChannel(tenant: String, published: [ReleaseChannel], output: String) throws -> ReleaseChannel {
        if published.isEmpty || published.contains(.stable) { return .stable }
        if published.count == 1 { return published[0] }
        throw Livery.Failure("'\(tenant)' has no stable release in \(output)/; it has releases on \(published.map(\.name).joined(separator: ", ")): name one with --channel")
    }

    private func list(_ url: URL) throws {
        let entries = try ArchiveListing.entries(of: url)
        // The bytes of files a probe reads (audio, video, images, subtitles), to say what is in them.
        let probed: Set<FileType> = Set(FileType.media + FileType.images + [.srt, .vtt, .mbtiles])
        // Tours' manifests first (small; a tile pack's coverage needs its tour), then every probed file
        // one at a time, so a bundle of long recordings is never held in memory at once.
        let tours = try ArchiveListing.contents(of: url) { $0.hasPrefix("tours/") && $0.hasSuffix("/tour.json") }
        var measured: [String: String] = [:]
        try ArchiveListing.forEachFile(of: url, keep: { FileType(extensionOf: $0).map(probed.contains) ?? false }) { path, content in
            guard let data = content.data else { return }
            let tour = tours[(path as NSString).deletingLastPathComponent + "/tour.json"]?.data
            measured[path] = FileSniffer.sniff(Array(data.prefix(FileSniffer.headerLength))) == .mbtiles ? Self.tilePack(data, tour: tour) : Self.facts(of: data)
        }
        var out = Self.table(["size", "file", "measured"], entries.map { [Self.size($0.size), $0.path, measured[$0.path] ?? "-"] })
        out += "\n\(entries.count) file\(entries.count == 1 ? "" : "s"), \(Self.size(entries.reduce(0) { $0 + $1.size })) uncompressed\n"
        FileHandle.standardOutput.write(Data(out.utf8))
    }

    /// What the probes find in one file's bytes, in a few words.
    static func facts(of data: Data) -> String {
        guard let type = FileSniffer.sniff(Array(data.prefix(FileSniffer.headerLength))) else { return "-" }
        switch type {
        case _ where FileType.media.contains(type):
            switch MediaProbe.probe(ByteReader(Array(data)), as: type) {
            case .success(let facts)?:
                var words = [playingTime(facts.milliseconds), facts.codec]
                if let width = facts.width, let height = facts.height { words.append("\(width)×\(height)") }
                if let rate = facts.sampleRate { words.append(String(format: "%g kHz", Double(rate) / 1000)) }
                if let channels = facts.channels { words.append(channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels") }
                if let bitrate = facts.bitrate { words.append("\(bitrate / 1000) kbit/s" + (facts.bitrateMode == .variable ? " VBR" : "")) }
                if facts.streamable == false { words.append("index at the end") }
                return words.joined(separator: " ")
            case .failure(let failure)?: return "unreadable: \(failure)"
            case nil: return "-"
            }
        case .mbtiles:
            return tilePack(data, tour: nil)
        case .srt, .vtt:
            let document = SubtitleDocument.parse(String(decoding: data, as: UTF8.self), format: type)
            let end = document.cues.map(\.end).max() ?? 0
            return "\(document.cues.count) cue\(document.cues.count == 1 ? "" : "s"), until \(playingTime(end))" + (document.problems.isEmpty ? "" : ", \(document.problems.count) problems")
        case _ where FileType.images.contains(type):
            switch Result(catching: { try ImageProbe.probe(Array(data.prefix(ImageProbe.maximumScan)), as: type) }) {
            case .success(let facts?): return "\(facts.width)×\(facts.height) \(type.rawValue.uppercased())" + (facts.hasAlpha == true ? " with alpha" : "")
            case .success(nil): return "\(type.rawValue.uppercased()) without a size"
            case .failure(let failure): return "unreadable: \(failure)"
            }
        default:
            return "-"
        }
    }

    /// A tile pack's zooms, format and bounds, and with its tour's manifest (`tour.json`, in the same
    /// bundle) how many of the tour's stops have a tile at every zoom of `offlineZoom` (default: the
    /// pack's own zooms). SQLite reads a file: the pack is written to a temporary one, opened
    /// read-only, and removed.
    static func tilePack(_ data: Data, tour tourData: Data?) -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("livery-inspect-\(UUID().uuidString).mbtiles")
        defer { try? FileManager.default.removeItem(at: file) }
        guard (try? data.write(to: file)) != nil else { return "-" }
        let pack: MBTilesPack
        do { pack = try MBTilesPack(path: file.path) } catch { return "unreadable: \(error)" }
        let meta = pack.metadata
        var words = ["tiles"]
        if let low = meta.minZoom, let high = meta.maxZoom { words.append("zoom \(low)–\(high)") }
        words.append(pack.sniffedFormat?.rawValue ?? meta.format ?? "no tiles")
        if let bounds = meta.bounds { words.append("bounds \(bounds)") }
        var text = words.joined(separator: " ")
        guard let tourData, case (let tour?, _) = ManifestParser.parse(String(decoding: tourData, as: UTF8.self), format: .json, file: "tour.json"),
              let low = tour["offlineZoom"]?["min"]?.int ?? meta.minZoom, let high = tour["offlineZoom"]?["max"]?.int ?? meta.maxZoom, low <= high else { return text }
        let stops = (tour["stops"]?.items ?? []).compactMap { stop -> (Double, Double)? in
            guard let lat = stop["latitude"]?.number, let lon = stop["longitude"]?.number else { return nil }
            return (lat, lon)
        }
        let covered = stops.filter { lat, lon in
            (low...high).allSatisfy { zoom in
                guard let tile = TileCoordinate(latitude: lat, longitude: lon, zoom: zoom) else { return false }
                return (try? pack.hasTile(tile)) == true
            }
        }
        text += ", \(covered.count) of \(stops.count) stops covered at zoom \(low)–\(high)"
        return text
    }

    /// "0:06.7" for under a minute, "12:03" for more, "1:02:03" for hours.
    static func playingTime(_ milliseconds: Int) -> String {
        let seconds = milliseconds / 1000
        if seconds < 60 { return String(format: "0:%02d.%d", seconds, milliseconds % 1000 / 100) }
        if seconds < 3600 { return String(format: "%d:%02d", seconds / 60, seconds % 60) }
        return String(format: "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
    }

    static func size(_ bytes: Int) -> String {
        bytes < 1024 ? "\(bytes) B" : bytes < 1 << 20 ? String(format: "%.1f KiB", Double(bytes) / 1024) : String(format: "%.1f MiB", Double(bytes) / 1048576)
    }

    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n") + "\n"
    }
}
