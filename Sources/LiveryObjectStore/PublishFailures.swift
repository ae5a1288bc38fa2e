import Foundation

/// The failures of one publish, one line per cause: tenants that failed for the same reason (the same
/// store error code and message, the same network failure) share a line that names them, so six tenants
/// refused for one reason read as one problem, not six.
public enum PublishFailures {
    /// Lines sorted by their first tenant. `failures` pairs each tenant (or channel repository) with its error.
    public static func lines(_ failures: [(tenant: String, error: any Error)]) -> [String] {
        var groups: [(cause: String, tenants: [String], whole: String, request: String)] = []
        for (tenant, error) in failures.sorted(by: { $0.tenant < $1.tenant }) {
            let (cause, request) = Self.cause(of: error, tenant: tenant)
            if let index = groups.firstIndex(where: { $0.cause == cause }) {
                groups[index].tenants.append(tenant)
            } else {
                groups.append((cause, [tenant], "\(error)", request))
            }
        }
        return groups.map { group in
            guard group.tenants.count > 1 else { return "\(group.tenants[0]): \(group.whole)" }
            return "\(group.cause), for \(group.tenants.count) tenants (\(group.tenants.joined(separator: ", "))); the first request refused: \(group.request)"
        }
    }

    /// The part of an error that does not depend on the tenant, and the request it came from. An error of
    /// no known kind is its own cause (its text names the tenant's files).
    static func cause(of error: any Error, tenant: String) -> (cause: String, request: String) {
        switch error as? S3Error {
        case .status(let status, let code, let message, let request)?:
            return ("HTTP \(status)" + (code.isEmpty ? "" : " \(code)") + (message.isEmpty ? "" : ": \(message)"), request)
        case .network(let text, let request)?:
            return (text, request)
        default:
            return ("\(tenant): \(error)", "")
        }
    }
}
