import Foundation

/// The failures of one publish, one line per cause: tenants that failed for the same reason (the same
/// store error code and message, the same network failure, a store holding another build's releases) share
/// a line that names them, so six tenants refused for one reason read as one problem, not six.
public enum PublishFailures {
    /// Lines sorted by their first tenant. `failures` pairs each tenant (or channel repository) with its error.
    public static func lines(_ failures: [(tenant: String, error: any Error)]) -> [String] {
        var groups: [(cause: Cause, tenants: [String], whole: String)] = []
        for (tenant, error) in failures.sorted(by: { $0.tenant < $1.tenant }) {
            let cause = Self.cause(of: error, tenant: tenant)
            if let index = groups.firstIndex(where: { $0.cause.text == cause.text }) {
                groups[index].tenants.append(tenant)
            } else {
                groups.append((cause, [tenant], "\(error)"))
            }
        }
        return groups.map { group in
            guard group.tenants.count > 1 else { return "\(group.tenants[0]): \(group.whole)" }
            return "\(group.cause.text), for \(group.tenants.count) tenants (\(group.tenants.joined(separator: ", ")))\(group.cause.advice.map { ": \($0)" } ?? ""); "
                + group.cause.first
        }
    }

    /// What several tenants' failures share: the text that does not depend on the tenant (the key they are grouped
    /// by), what to do about it, and the first tenant's own detail.
    struct Cause {
        var text: String
        var advice: String?
        var first: String
    }

    /// The part of an error that does not depend on the tenant, and the first tenant's detail. An error of
    /// no known kind is its own cause (its text names the tenant's files).
    static func cause(of error: any Error, tenant: String) -> Cause {
        if let foreign = error as? ForeignRelease {
            return Cause(text: ForeignRelease.sharedCause, advice: ForeignRelease.sharedAdvice, first: "the first: \(foreign.finding)")
        }
        switch error as? S3Error {
        case .status(let status, let code, let message, let request)?:
            return Cause(text: "HTTP \(status)" + (code.isEmpty ? "" : " \(code)") + (message.isEmpty ? "" : ": \(message)"), first: "the first request refused: \(request)")
        case .network(let text, let request)?:
            return Cause(text: text, first: "the first request refused: \(request)")
        default:
            return Cause(text: "\(tenant): \(error)", first: "")
        }
    }
}
