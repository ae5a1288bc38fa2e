import Foundation
@testable import LiveryCheck
import LiveryDiagnostics
import XCTest

/// Nothing a user puts in a tenant folder may crash Livery or make it read outside the folder.
final class HostileInputTests: XCTestCase {
    func testSymlinkedTenantFolderLeadingOutsideIsRefused() throws {
        let outside = try ExampleWorkspace(RuleExample("outside"))
        let workspace = try ExampleWorkspace(RuleExample("base"))
        try FileManager.default.createSymbolicLink(at: workspace.tenants.appendingPathComponent("evil"),
                                                   withDestinationURL: outside.tenants.appendingPathComponent("example"))
        let result = workspace.validate()
        XCTAssertFalse(result.tenants.contains { $0.id == "evil" }, "a linked tenant must not be loaded")
        XCTAssertTrue(result.diagnostics.contains { $0.ruleID == "assets.symlink-escape" && $0.location.file == "Tenants/evil" }, "\(result.diagnostics.map(\.line))")
    }

    func testSymlinkedLocalesFolderIsNotListed() throws {
        let workspace = try ExampleWorkspace(RuleExample("base"), base: ["example/tenant.yaml": RuleExample.base["example/tenant.yaml"]!])
        try FileManager.default.createSymbolicLink(atPath: workspace.tenants.appendingPathComponent("example/locales").path, withDestinationPath: "/etc")
        let diagnostics = workspace.validate().diagnostics
        XCTAssertTrue(diagnostics.contains { $0.ruleID == "assets.symlink-escape" && $0.location.file == "Tenants/example/locales" }, "\(diagnostics.map(\.line))")
        XCTAssertFalse(diagnostics.contains { $0.location.file.contains("/etc/") || $0.location.file.hasPrefix("Tenants/example/locales/") })
    }

    func testATourFolderThatLinksOutsideIsNotListed() throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("livery-outside-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outside) }
        try Data("id: evil\nname: {en: Evil}\n".utf8).write(to: outside.appendingPathComponent("tour.yaml"))
        let workspace = try ExampleWorkspace(RuleExample("base"))
        try FileManager.default.createDirectory(at: workspace.tenants.appendingPathComponent("example/tours"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: workspace.tenants.appendingPathComponent("example/tours/evil").path, withDestinationPath: outside.path)
        let diagnostics = workspace.validate().diagnostics
        XCTAssertTrue(diagnostics.contains { $0.ruleID == "assets.symlink-escape" && $0.location.file == "Tenants/example/tours/evil" }, "\(diagnostics.map(\.line))")
        XCTAssertFalse(diagnostics.contains { $0.location.file.hasPrefix("Tenants/example/tours/evil/") }, "nothing in the linked folder is read")
    }

    func testAFolderThatLinksInsideTheTenantIsFollowed() throws {
        // `locales` is a link to `strings`, a folder of the tenant: its files are read through it, like any others.
        var files = RuleExample.base
        files["example/strings/en.yaml"] = files.removeValue(forKey: "example/locales/en.yaml")
        let workspace = try ExampleWorkspace(RuleExample("base"), base: files)
        try FileManager.default.createSymbolicLink(atPath: workspace.tenants.appendingPathComponent("example/locales").path, withDestinationPath: "strings")
        let result = workspace.validate()
        XCTAssertEqual(result.diagnostics.map(\.line), [])
        XCTAssertEqual(result.tenants.first { $0.id == "example" }?.locales["en"]?.message("nav.home")?.text, "Home")
    }

    func testManifestThatLinksToASystemFileIsNotRead() throws {
        let workspace = try ExampleWorkspace(RuleExample("link", symlinks: ["example/voice.yaml": "/etc/passwd"]))
        let diagnostics = workspace.validate().diagnostics
        XCTAssertEqual(diagnostics.map(\.ruleID), ["assets.symlink-escape"])
        XCTAssertEqual(diagnostics.first?.location.file, "Tenants/example/voice.yaml")
    }

    func testFIFOIsNeverOpened() throws {
        let workspace = try ExampleWorkspace(RuleExample("fifo", files: LogoExample.files("assets/logo.png")))
        let fifo = workspace.tenants.appendingPathComponent("example/assets/logo.png")
        try FileManager.default.createDirectory(at: fifo.deletingLastPathComponent(), withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(fifo.path, 0o644), 0)
        let voice = workspace.tenants.appendingPathComponent("example/voice.yaml")
        XCTAssertEqual(mkfifo(voice.path, 0o644), 0)
        // Opening either FIFO for reading would block forever; the run must finish and report both.
        let diagnostics = workspace.validate().diagnostics
        XCTAssertEqual(diagnostics.filter { $0.ruleID == "assets.not-regular-file" }.count, 2, "\(diagnostics.map(\.line))")
    }

    func testFiftyMegabyteYAMLIsRefusedUnread() throws {
        let workspace = try ExampleWorkspace(RuleExample("base"))
        let url = workspace.tenants.appendingPathComponent("example/voice.yaml")
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        let chunk = Data(String(repeating: "key: value value value value value value value\n", count: 20_000).utf8)
        for _ in 0..<(50 << 20) / chunk.count + 1 { handle.write(chunk) }
        try handle.close()
        let output = try LiveryProcess.run(["validate", "--format", "json", "Tenants"], in: workspace.root)
        XCTAssertEqual(output.status, 1)
        XCTAssertTrue(output.stdout.contains("\"rule\" : \"structure.file-size\""), output.stdout)
    }

    func testRandomBytesNeverCrashTheParsers() throws {
        // A deterministic generator so a failure can be reproduced.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
        let alphabet = Array("{}[]:,-\"'&*!|>#% \n\tabc019\\".utf8)
        for round in 0..<400 {
            let length = Int(next()) + Int(next())
            let bytes = (0..<length).map { _ in round % 2 == 0 ? alphabet[Int(next()) % alphabet.count] : next() }
            for format in [ManifestFormat.yaml, .json] {
                if case .success(let text) = SourceText.decode(bytes, displayPath: "fuzz") {
                    _ = ManifestParser.parse(text, format: format, file: "fuzz")
                }
            }
        }
    }
}

import LiveryLoad
