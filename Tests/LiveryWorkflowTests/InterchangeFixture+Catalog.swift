import LiveryInterchange
import LiveryTestSupport
import XCTest

/// A sample tenant's locale catalogue in a copy made by `InterchangeFixture.copyTenants`.
extension InterchangeFixture {
    static func catalog(_ root: URL, _ id: String) throws -> LocaleCatalog {
        let loaded = LocaleCatalog.load(root.appendingPathComponent("Tenants/\(id)"), displayRoot: "Tenants/\(id)")
        return try XCTUnwrap(loaded.value, loaded.diagnostics.map(\.line).joined(separator: "\n"))
    }
}
