import Foundation
import LiveryCheck
import LiveryDiagnostics
@testable import LiveryLanguageServer
import LiveryLoad
import LiveryResolve
import XCTest

/// A file the loader refuses because it is a symbolic link out of its tenant folder is never read: no line of the
/// file it links to reaches `livery validate` (text, JSON, SARIF), `livery build` or the language server, while the
/// finding is still reported where the link is. (Untrusted tenant folders are checked in CI, whose logs are public.)
final class RefusedFileTests: XCTestCase {
    /// A folder outside every tenant holding files whose every line carries a unique marker.
    final class Secret {
        let folder: URL
        let marker = "SECRET-\(UUID().uuidString)"

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-secret-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // YAML and JSON-looking first lines: whatever a reader expects, the first line is the marker.
            for name in ["secret.yaml", "en.yaml", "tour.yaml", "tokens.json"] {
                try Data("\(marker): first line\n\(marker)-2: second line\n".utf8).write(to: file(name))
            }
        }

        func file(_ name: String) -> URL { folder.appendingPathComponent(name) }

        deinit { try? FileManager.default.removeItem(at: folder) }
    }

    /// Runs `livery validate Tenants` in each format; none may show the marker, each must exit 1.
    private func validateInEveryFormat(_ workspace: ExampleWorkspace, _ secret: Secret, file: StaticString = #filePath, line: UInt = #line) throws -> [String: String] {
        var outputs: [String: String] = [:]
        for format in ["text", "json", "sarif"] {
            let output = try LiveryProcess.run(["validate", "Tenants", "--format", format, "--no-color"], in: workspace.root)
            XCTAssertEqual(output.status, 1, "\(format): \(output.stdout)\(output.stderr)", file: file, line: line)
            XCTAssertFalse((output.stdout + output.stderr).contains(secret.marker), "\(format) shows the linked file's content:\n\(output.stdout)\(output.stderr)",
                           file: file, line: line)
            outputs[format] = output.stdout
        }
        return outputs
    }

    /// The finding at `path` is still reported with its rule and location in every format.
    private func assertReported(_ outputs: [String: String], at path: String, line: Int = 1, column: Int = 1, rule: String = "assets.symlink-escape",
                                file: StaticString = #filePath, sourceLine: UInt = #line) {
        XCTAssertTrue(outputs["text"]?.contains("\(path):\(line):\(column): error: ") == true && outputs["text"]?.contains("[\(rule)]") == true,
                      outputs["text"] ?? "", file: file, line: sourceLine)
        XCTAssertTrue(outputs["json"]?.contains("\"file\" : \"\(path)\"") == true && outputs["json"]?.contains("\"rule\" : \"\(rule)\"") == true,
                      outputs["json"] ?? "", file: file, line: sourceLine)
        XCTAssertTrue(outputs["sarif"]?.contains("\"uri\" : \"\(path)\"") == true && outputs["sarif"]?.contains("\"ruleId\" : \"\(rule)\"") == true,
                      outputs["sarif"] ?? "", file: file, line: sourceLine)
    }

    func testAManifestThatLinksOutsideIsReportedWithoutALineOfItsTarget() throws {
        let secret = try Secret()
        let workspace = try ExampleWorkspace(RuleExample("linked manifest", symlinks: ["example/voice.yaml": secret.file("secret.yaml").path]))
        let outputs = try validateInEveryFormat(workspace, secret)
        assertReported(outputs, at: "Tenants/example/voice.yaml")
        XCTAssertTrue(outputs["text"]!.contains("'voice.yaml' is a symbolic link that leads outside the tenant folder [assets.symlink-escape]\n    hint: "),
                      "no excerpt between the finding and its hint:\n\(outputs["text"]!)")
    }

    func testALocaleBundleThatLinksOutsideIsReportedWithoutALineOfItsTarget() throws {
        let secret = try Secret()
        let workspace = try ExampleWorkspace(RuleExample("linked locale", symlinks: ["example/locales/ru.yaml": secret.file("en.yaml").path]))
        assertReported(try validateInEveryFormat(workspace, secret), at: "Tenants/example/locales/ru.yaml")
    }

    func testATokenFileThatLinksOutsideIsReportedWithoutALineOfItsTarget() throws {
        let secret = try Secret()
        let workspace = try ExampleWorkspace(RuleExample("linked token file",
                                                         files: ["example/tenant.yaml": RuleExample.tenant(appending: "branding:\n  tokens: [branding/tokens.json]\n")],
                                                         symlinks: ["example/branding/tokens.json": secret.file("tokens.json").path]))
        let outputs = try validateInEveryFormat(workspace, secret)
        // Reported where the tenant manifest names the file, the line shown being the manifest's own.
        assertReported(outputs, at: "Tenants/example/tenant.yaml", line: 12, column: 12)
        XCTAssertTrue(outputs["text"]!.contains("    tokens: [branding/tokens.json]\n"), outputs["text"]!)
    }

    func testAFolderThatLinksOutsideIsReportedWithoutReadingAnythingInIt() throws {
        let secret = try Secret()
        let workspace = try ExampleWorkspace(RuleExample("linked folders", symlinks: ["example/locales": secret.folder.path, "example/tours/evil": secret.folder.path]))
        let outputs = try validateInEveryFormat(workspace, secret)
        assertReported(outputs, at: "Tenants/example/locales")
        assertReported(outputs, at: "Tenants/example/tours/evil")
    }

    func testExcerptsComeOnlyFromFilesInsideTheTenant() throws {
        let secret = try Secret()
        let workspace = try ExampleWorkspace(RuleExample("linked manifest", symlinks: ["example/voice.yaml": secret.file("secret.yaml").path]))
        let sources = ExcerptSources(workspace: workspace.tenants, displayRoot: "Tenants")
        XCTAssertNil(sources.file(displayedAs: "Tenants/example/voice.yaml"), "a link out of the tenant")
        XCTAssertNil(sources.file(displayedAs: "Tenants/example/locales"), "a folder")
        XCTAssertNil(sources.file(displayedAs: "Tenants/example/../../\(secret.folder.lastPathComponent)/secret.yaml"), "a path that climbs out")
        XCTAssertNil(sources.file(displayedAs: "Tenants/nobody/tenant.yaml"), "not a tenant of the workspace")
        let texts = sources.texts(of: ["Tenants/example/voice.yaml", "Tenants/example/tenant.yaml"])
        XCTAssertEqual(Array(texts.keys), ["Tenants/example/tenant.yaml"])
        XCTAssertTrue(texts["Tenants/example/tenant.yaml"]?.hasPrefix("id: example\n") == true)
    }

    func testBuildReportsALinkedManifestWithoutALineOfItsTarget() throws {
        let secret = try Secret()
        let workspace = try ExampleWorkspace(RuleExample("linked manifest", symlinks: ["example/voice.yaml": secret.file("secret.yaml").path,
                                                                                      "example/locales/ru.yaml": secret.file("en.yaml").path]))
        for format in ["text", "json", "sarif"] {
            let output = try LiveryProcess.run(["build", "Tenants", "--output", "Output", "--unsigned", "--format", format], in: workspace.root)
            XCTAssertEqual(output.status, 1, output.stdout + output.stderr)
            XCTAssertFalse((output.stdout + output.stderr).contains(secret.marker), "\(format):\n\(output.stdout)\(output.stderr)")
            XCTAssertTrue(output.stdout.contains("Tenants/example/voice.yaml") && output.stdout.contains("assets.symlink-escape"), output.stdout)
            XCTAssertTrue(output.stdout.contains("Tenants/example/locales/ru.yaml"), output.stdout)
        }
    }

    func testTheLanguageServerNeverReadsAFileThatLinksOutside() throws {
        let secret = try Secret()
        let workspace = try ExampleWorkspace(RuleExample("linked files", symlinks: ["example/voice.yaml": secret.file("secret.yaml").path,
                                                                                   "example/assets/logo.png": secret.file("tokens.json").path]))
        let tenant = workspace.tenants.appendingPathComponent("example")
        XCTAssertNil(LanguageServer.readableFile(tenant.appendingPathComponent("voice.yaml").path))
        XCTAssertNil(LanguageServer.readableFile(tenant.appendingPathComponent("locales/../voice.yaml").path))
        XCTAssertEqual(LanguageServer.readableFile(tenant.appendingPathComponent("locales/en.yaml").path)?.lastPathComponent, "en.yaml")
        let server = LanguageServer(version: "test")
        _ = server.handle(Array(try JSONSerialization.data(withJSONObject: ["jsonrpc": "2.0", "id": 1, "method": "initialize",
                                                                            "params": ["processId": NSNull(), "rootUri": workspace.tenants.absoluteString, "capabilities": [String: Any]()]])))
        // The text the server would convert a finding's position in: none, not the outside file's.
        XCTAssertNil(server.source(of: tenant.appendingPathComponent("voice.yaml").path))
        XCTAssertNotNil(server.source(of: tenant.appendingPathComponent("tenant.yaml").path))
        // An asset path that links outside is neither probed for a hover nor offered as a definition.
        let loaded = TenantLoader.load(tenant, displayRoot: tenant.path)
        let (resolved, _) = TenantResolver.resolve([loaded])
        let example = try XCTUnwrap(resolved.first)
        XCTAssertNil(LanguageServer.assetFile("assets/logo.png", from: tenant.appendingPathComponent("tenant.yaml").path, in: example))
        XCTAssertEqual(LanguageServer.assetFile("locales/en.yaml", from: tenant.appendingPathComponent("tenant.yaml").path, in: example),
                       tenant.appendingPathComponent("locales/en.yaml").path)
    }
}
