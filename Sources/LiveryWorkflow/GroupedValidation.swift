import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryResolve

/// Validates a workspace a group of whole lineages at a time, so that memory holds one group and not the
/// workspace, and hands each group's wanted tenants to the command that shows or writes something for them
/// (`build --as-of`, `generate`).
public enum GroupedValidation {
    /// Validates the tenants in `only` (every tenant when nil) with every stage's rules, and gives `eachGroup` the
    /// wanted tenants of each group, until a finding at error level: from then on, the rest is only checked, since a
    /// command shows or writes nothing for a workspace with errors. Returns every finding, those `eachGroup` made and
    /// those about refused folders included, and how many tenants were checked.
    public static func run(workspace: URL, displayRoot: String, only: Set<String>?, strict: Bool = false,
                           eachGroup: ([ResolvedTenant]) throws -> [Diagnostic]) rethrows -> (diagnostics: [Diagnostic], checked: Int) {
        let discovered = WorkspaceFolders(discovering: workspace)
        var diagnostics: [Diagnostic] = []
        var checked = 0
        for group in Validator.groups(of: discovered, only: only) {
            let names = Set(group.map(\.lastPathComponent))
            let result = Validator.validate(workspace: workspace, displayRoot: displayRoot, rules: .all, only: only?.intersection(names) ?? names,
                                            strict: strict, discovered: discovered)
            checked += result.checked.count
            diagnostics += result.diagnostics
            guard diagnostics.errorCount == 0 else { continue }
            diagnostics += try eachGroup(result.tenants.filter { names.contains($0.id) && (only?.contains($0.id) ?? true) })
        }
        // A folder the loader refuses (a symbolic link out of the workspace) is reported as `validate` reports it.
        let refused = discovered.refusedDiagnostics(displayRoot: displayRoot, only: only)
        return (diagnostics + refused, checked + refused.count)
    }
}
