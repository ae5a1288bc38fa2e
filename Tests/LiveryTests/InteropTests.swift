import XCTest

/// Livery's schemas and samples checked by independent implementations (python-jsonschema with
/// PyYAML, and the official DTCG 2025.10 JSON Schemas), as Tests/interop/check_manifests.py describes.
final class InteropTests: XCTestCase {
    func testSamplesValidateAgainstOurSchemasAndTheOfficialDTCGSchemas() throws {
        let root = LiveryProcess.packageRoot
        let output = try LiveryProcess.tool(["python3", root.appendingPathComponent("Tests/interop/check_manifests.py").path, root.path])
        XCTAssertEqual(output.status, 0, output.stdout + output.stderr)
        XCTAssertTrue(output.stdout.contains(" 0 failures"), output.stdout)
    }
}
