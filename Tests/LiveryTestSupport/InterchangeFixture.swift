// Test support only: empty in a build without XCTest (`swift build -c release` builds every target, this one too).
#if canImport(XCTest)
import Foundation
import XCTest

/// A copy of the sample tenants in a temporary folder, and the tools the interchange tests call (LiveryInterchangeTests
/// and the journeys in LiveryTests); reading a copy's locale catalogue is each target's `InterchangeFixture.catalog`,
/// as this target uses no module of Livery's.
public enum InterchangeFixture {
    public static let tenantIDs = ["companero", "companero-lucia", "physio-clinic", "sonic-walkscape", "travel-experiences", "urbannest"]
    public static let xliffSchema = "/usr/share/php/Symfony/Component/Translation/Resources/schemas/xliff-core-2.0.xsd"

    /// A fresh copy of `Tenants/` (removed by the caller's `addTeardownBlock`).
    public static func copyTenants(_ test: XCTestCase) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("livery-interchange-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: LiveryProcess.packageRoot.appendingPathComponent("Tenants"), to: root.appendingPathComponent("Tenants"))
        test.addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        return root
    }

    /// Every file under `folder` with its bytes: equal snapshots mean nothing changed, not even a new file.
    public static func snapshot(_ folder: URL) -> [String: Data] {
        var out: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            out[url.path] = (try? Data(contentsOf: url)) ?? Data()
        }
        return out
    }

    /// Runs a tool, returning its exit status and combined output.
    @discardableResult
    public static func tool(_ arguments: [String], input: Data? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let stdin = Pipe()
        if input != nil { process.standardInput = stdin }
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input); try stdin.fileHandleForWriting.close() }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    public static func write(_ data: Data, _ root: URL, _ name: String) throws -> URL {
        let url = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        return url
    }
}
#endif
