// Test support only: empty in a build without XCTest (`swift build -c release` builds every target, this one too).
#if canImport(XCTest)
import Foundation
import XCTest

/// A temporary folder with a copy of the samples in `Tenants/` and an empty `Output/`.
public final class SampleWorkspace {
    public let root: URL
    public var tenants: URL { root.appendingPathComponent("Tenants") }
    public var output: URL { root.appendingPathComponent("Output") }

    public init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("livery-build-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: LiveryProcess.packageRoot.appendingPathComponent("Tenants"), to: tenants)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    public func build(_ extra: [String] = [], environment: [String: String] = [:]) throws -> LiveryProcess.Output {
        // Keys go to <root>/.livery-keys, the default relative to the working folder.
        try LiveryProcess.run(["build", "Tenants", "--output", "Output"] + extra, in: root, environment: environment)
    }

    /// Moves every input's mtime a day back, so build records trust them at once (no racy window).
    public func backdate() throws {
        for case let url as URL in FileManager.default.enumerator(at: tenants, includingPropertiesForKeys: nil)! {
            try FileManager.default.setAttributes([.modificationDate: Date.wholeSecondsAgo(86_400)], ofItemAtPath: url.path)
        }
    }

    /// Gives the tenant's MP3 at `path` an ID3v1 tag titled `title` (bytes no release had, still a valid
    /// recording: a re-recorded stop for the delta tests); returns its new bytes.
    @discardableResult
    public func retag(_ path: String, _ title: String) throws -> Data {
        let audio = tenants.appendingPathComponent(path)
        var bytes = try Data(contentsOf: audio)
        bytes.append(Data(("TAG" + title.padding(toLength: 125, withPad: " ", startingAt: 0)).utf8))
        unlink(audio.path)  // a new file: the output's objects may be hard links to it
        try bytes.write(to: audio)
        return bytes
    }

    public func replace(_ path: String, _ old: String, _ new: String) throws {
        let url = tenants.appendingPathComponent(path)
        let text = try String(contentsOf: url, encoding: .utf8)
        XCTAssertTrue(text.contains(old), "\(old) not in \(path)")
        try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
    }
}

public extension Date {
    /// `seconds` before now, on a whole second, for backdating test files. A clean-clone CI run once saw
    /// `setAttributes(.modificationDate)` fail with EINVAL on a fresh copy of a sample file; it did not
    /// happen again in thousands of tries, and the cause is not known. A whole second leaves no fraction
    /// for Foundation to convert.
    static func wholeSecondsAgo(_ seconds: TimeInterval) -> Date {
        Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - seconds).rounded(.down))
    }
}
#endif
