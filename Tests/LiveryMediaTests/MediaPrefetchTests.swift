import Foundation
import LiveryLoad
import LiveryMedia
import XCTest

/// `MediaMeasurements.prefetch`: the frame walks started in the background while a validation checks other assets.
/// A file is walked once whether `measure` asks for it before, during or after its walk, and `measure` answers what a
/// walk of its own would.
final class MediaPrefetchTests: XCTestCase {
    func testAPrefetchedFileIsWalkedOnceAndMeasureWaitsForItsWalk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-prefetch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Recordings long enough that `measure` is asked for most of them while their walks are still running.
        let files = try (1...8).map { index -> (url: URL, type: FileType) in
            let url = folder.appendingPathComponent("stop-\(index).mp3")
            try Data(MediaSamples.mp3(seconds: Double(20 + index), xing: index % 2 == 0)).write(to: url)
            return (url, .mp3)
        }
        let notMedia = folder.appendingPathComponent("cover.png")
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: notMedia)

        let measurements = MediaMeasurements()
        measurements.prefetch(files + [(url: notMedia, type: .png)])
        for file in files {
            let measured = try XCTUnwrap(measurements.measure(file.url, as: .mp3)).get()
            XCTAssertEqual(measured, try XCTUnwrap(MediaProbe.probe(fileAt: file.url, as: .mp3)).get(), file.url.lastPathComponent)
        }
        XCTAssertEqual(measurements.probeCount, files.count, "each file walked once: measure waited for the background walk")
        // Asked again, in the background or not, nothing is walked again.
        measurements.prefetch(files)
        for file in files { XCTAssertNotNil(measurements.measure(file.url, as: .mp3)) }
        XCTAssertEqual(measurements.probeCount, files.count)
    }
}
