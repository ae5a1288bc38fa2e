import Foundation
import LiveryCheck
import LiveryWorkflow

/// Where a rule's documentation is: its section of the generated rule reference, docs/rules.md.
struct RuleDocumentation {
    /// The rule reference file: `$LIVERY_DOCS/rules.md`, else `docs/rules.md` beside the workspace (a checkout of
    /// the project holds `Tenants/` and `docs/`), else the checkout Livery was built from.
    let reference: URL

    init(workspace: URL?) {
        var candidates: [URL] = []
        if let configured = ProcessInfo.processInfo.environment["LIVERY_DOCS"], !configured.isEmpty {
            candidates.append(URL(fileURLWithPath: configured).appendingPathComponent("rules.md"))
        }
        if let workspace { candidates.append(workspace.deletingLastPathComponent().appendingPathComponent("docs/rules.md")) }
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(checkout.appendingPathComponent("docs/rules.md"))
        reference = candidates.first { FileManager.default.fileExists(atPath: $0.path) } ?? candidates.last!
    }

    /// The link to a rule's section. The anchor is the heading's slug as GitHub and VS Code make it: the
    /// heading "`structure.unknown-key`" loses its backticks and dots.
    func href(for ruleID: String) -> String {
        reference.absoluteString + "#" + Self.anchor(for: ruleID)
    }

    static func anchor(for ruleID: String) -> String {
        String(ruleID.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" }.map(Character.init))
    }

    /// Every rule's description by id.
    static let descriptions: [String: RuleDescription] = Dictionary(RuleSet.all.descriptions.map { ($0.id.rawValue, $0) }, uniquingKeysWith: { a, _ in a })
}
