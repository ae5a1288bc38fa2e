import Foundation
import LiveryAssets
import LiveryCheck
import LiveryLoad
import LiveryPack
import LiveryPublish
import LiveryReleaseFormat
import XCTest

/// Measurements end to end: the probe cache that makes a warm re-validate probe nothing, the
/// playing times in the download manifest, and what `livery inspect` shows.
final class MediaMeasurementTests: XCTestCase {
    func testAWarmRevalidateProbesNothingAndAChangedFileIsProbedAgain() throws {
        let workspace = try BuildTests.Workspace()
        try workspace.backdate()
        try FileManager.default.createDirectory(at: workspace.output, withIntermediateDirectories: true)
        func validate() throws -> String {
            let result = try LiveryProcess.run(["validate", "Tenants", "--output", "Output", "--stats"], in: workspace.root)
            XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
            return result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // 27 stop recordings, a video and an audio track (the warm-up clip is named twice, measured once).
        XCTAssertEqual(try validate(), "media: 29 files measured: 29 probed, 0 from the probe cache")
        XCTAssertEqual(try validate(), "media: 29 files measured: 0 probed, 29 from the probe cache")
        let audio = workspace.tenants.appendingPathComponent("sonic-walkscape/tours/florence-renaissance/audio/en/01-duomo.mp3")
        try FileManager.default.setAttributes([.modificationDate: Date.wholeSecondsAgo(3600)], ofItemAtPath: audio.path)
        XCTAssertEqual(try validate(), "media: 29 files measured: 1 probed, 28 from the probe cache")
        // Without an output folder nothing is remembered, and nothing is written.
        let elsewhere = try LiveryProcess.run(["validate", "Tenants", "--output", "Nowhere", "--stats"], in: workspace.root)
        XCTAssertEqual(elsewhere.stderr.trimmingCharacters(in: .whitespacesAndNewlines), "media: 29 files measured: 29 probed, 0 from the probe cache")
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.root.appendingPathComponent("Nowhere").path))
    }

    func testACachedRefusalIsStillAnError() throws {
        let workspace = try BuildTests.Workspace()
        let audio = workspace.tenants.appendingPathComponent("sonic-walkscape/tours/florence-renaissance/audio/en/01-duomo.mp3")
        let bytes = try Data(contentsOf: audio)
        try bytes.prefix(bytes.count / 2).write(to: audio)
        try workspace.backdate()
        try FileManager.default.createDirectory(at: workspace.output, withIntermediateDirectories: true)
        for _ in 0..<2 {
            let result = try LiveryProcess.run(["validate", "Tenants/sonic-walkscape", "--output", "Output"], in: workspace.root)
            XCTAssertEqual(result.status, 1)
            XCTAssertTrue(result.stdout.contains("'audio/en/01-duomo.mp3' is not a readable MP3: it is cut short"), result.stdout)
        }
    }

    func testTheDownloadManifestCarriesMeasuredPlayingTimes() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let sonic = try XCTUnwrap(Publisher.currentManifest(tenant: "sonic-walkscape", output: workspace.output)?.manifest)
        let english = try XCTUnwrap(sonic.bundle("tour.florence-renaissance.en")?.media)
        XCTAssertEqual(Set(english.stops.keys), ["duomo", "orsanmichele", "signoria", "ponte-vecchio", "pitti"])
        XCTAssertEqual(english.milliseconds, english.stops.values.reduce(0, +))
        // The probe's measurement, to the millisecond: 255 frames of 576 samples at 22,050 Hz.
        XCTAssertEqual(english.stops["duomo"], 6661)
        XCTAssertNil(sonic.bundle("tour.florence-renaissance")?.media, "the shared tour bundle holds no audio")
        let lucia = try XCTUnwrap(Publisher.currentManifest(tenant: "companero-lucia", output: workspace.output)?.manifest)
        let pack = try XCTUnwrap(lucia.bundle("library.foundation-essentials")?.media)
        XCTAssertEqual(pack.items, ["warm-up": 3000])
        XCTAssertEqual(pack.milliseconds, 3000)
        let breathing = try XCTUnwrap(lucia.bundle("library-item.breathing")?.media)
        XCTAssertEqual(breathing.items.keys.sorted(), ["breathing"])
        XCTAssertEqual(Double(breathing.milliseconds) / 1000, 5.9, accuracy: 0.05)
        // Each bundle says what its files take once extracted: every file rounded up to a 4 KiB block.
        for bundle in sonic.bundles {
            // Encrypted archives are listed after decryption elsewhere (VoucherTests); here they must say it too.
            guard bundle.encryption == nil else { XCTAssertNotNil(bundle.installSize, bundle.id); continue }
            let entries = try ArchiveListing.entries(of: workspace.output.appendingPathComponent("sonic-walkscape").appendingPathComponent(bundle.path))
            XCTAssertEqual(bundle.installSize, entries.reduce(0) { $0 + ($1.size + 4095) / 4096 * 4096 }, bundle.id)
        }
        XCTAssertGreaterThan(try XCTUnwrap(sonic.bundle("core")?.installSize), 2 * (sonic.bundle("core")?.size ?? 0), "text extracts to more than its archive")
        // A manifest with the fields reads back the same; one with a wrong field type is refused.
        XCTAssertEqual(try DownloadManifest(data: sonic.bytes), sonic)
        let broken = String(decoding: sonic.bytes, as: UTF8.self).replacingOccurrences(of: "\"duomo\":6661", with: "\"duomo\":\"long\"")
        XCTAssertThrowsError(try DownloadManifest(data: Data(broken.utf8)))
    }

    func testInspectShowsWhatTheProbesMeasured() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let release = try LiveryProcess.run(["inspect", "sonic-walkscape", "--output", "Output"], in: workspace.root)
        XCTAssertEqual(release.status, 0, release.stderr)
        XCTAssertTrue(release.stdout.contains("plays"), release.stdout)
        let line = try XCTUnwrap(release.stdout.split(separator: "\n").first { $0.hasPrefix("tour.florence-renaissance.en ") })
        XCTAssertTrue(line.contains(" 0:34.1 "), String(line))
        let bundle = try LiveryProcess.run(["inspect", "sonic-walkscape", "tour.florence-renaissance.en", "--output", "Output"], in: workspace.root)
        XCTAssertEqual(bundle.status, 0, bundle.stderr)
        let audio = try XCTUnwrap(bundle.stdout.split(separator: "\n").first { $0.contains("audio/en/01-duomo.mp3") })
        XCTAssertTrue(audio.hasSuffix("0:06.6 mp3 22.05 kHz mono 32 kbit/s"), String(audio))
        let subtitles = try XCTUnwrap(bundle.stdout.split(separator: "\n").first { $0.contains("subtitles/en/01-duomo.srt") })
        XCTAssertTrue(subtitles.hasSuffix("2 cues, until 0:06.2"), String(subtitles))
        let core = try LiveryProcess.run(["inspect", "sonic-walkscape", "tour.florence-renaissance", "--output", "Output"], in: workspace.root)
        XCTAssertTrue(core.stdout.contains("400×225 JPEG"), core.stdout)
        XCTAssertTrue(core.stdout.contains("tiles zoom 14–15 png bounds 11.248,43.7632,11.25811,43.7751, 5 of 5 stops covered at zoom 14–15"), core.stdout)
        let tourLine = try XCTUnwrap(core.stdout.split(separator: "\n").first { $0.hasSuffix("tour.json") || $0.contains("/tour.json ") })
        XCTAssertTrue(tourLine.hasSuffix("-"), String(tourLine))
    }

    func testTenantLimitsChangeTheMediaRules() throws {
        let workspace = try BuildTests.Workspace()
        // Italian read at 12 characters a second: the Italian subtitles become too fast; the others do not.
        try workspace.replace("sonic-walkscape/tenant.yaml", "assets:\n", "media:\n  subtitles: {charactersPerSecondByLanguage: {it: 12}}\n  images: {logoMinimumSide: 2048, maxMegapixels: 0.5}\nassets:\n")
        let result = try LiveryProcess.run(["validate", "Tenants/sonic-walkscape"], in: workspace.root)
        let readability = result.stdout.split(separator: "\n").filter { $0.hasSuffix("[content.subtitle-readability]") }
        XCTAssertFalse(readability.isEmpty, result.stdout)
        XCTAssertTrue(readability.allSatisfy { $0.contains("/subtitles/it/") && $0.contains("viewers read about 12") }, readability.joined(separator: "\n"))
        XCTAssertTrue(result.stdout.contains("the raster logo is 1024 × 1024 pixels; launchers and app stores need at least 2048"), result.stdout)
        XCTAssertTrue(result.stdout.contains("images may have at most 0.5 megapixels"), result.stdout)
        XCTAssertEqual(result.status, 1)
    }
}
