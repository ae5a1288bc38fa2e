import ArgumentParser
import Foundation

/// How a command's failure ends the process: the one mapping from an error to what standard error shows and the
/// exit status, for both executables (`Livery.runCommandLine`, which livery and livery-network run). The statuses
/// are docs/diagnostics.md#exit-codes-and---strict's: 0 clean (help, `--version`), 1 findings at error level, 2 a
/// usage or any other error (the message, and the usage for a mistake in the arguments), 3 a release that needs a
/// newer app (`livery fetch`, docs/client.md).
package struct ErrorReport: Equatable, Sendable {
    /// What goes to standard error, followed by a newline; nil when the command already said everything (its
    /// findings, or `fetch refused: …`) and the status alone is left.
    package var message: String?
    package var status: Int32
    /// Help, a version or another clean exit, which ArgumentParser prints itself (to standard output, status 0).
    package var isCleanExit: Bool

    package init(message: String?, status: Int32, isCleanExit: Bool = false) {
        self.message = message
        self.status = status
        self.isCleanExit = isCleanExit
    }

    /// The report of `error`, thrown by parsing the command line or by a command's `run`.
    package init(_ error: any Error) {
        if let code = error as? ExitCode, code == .findings || code == .appUpdateRequired {
            self.init(message: nil, status: code.rawValue)
        } else if Livery.exitCode(for: error) == .success {
            self.init(message: nil, status: 0, isCleanExit: true)
        } else {
            // Every other error: its own text (a typed error's description: a TUF error, a file's `ReadFailure` or
            // `WriteFailure`, the key store's `KeyStoreError`, a key file's `KeyFileError`, `Livery.Failure`), or
            // ArgumentParser's message with the usage.
            self.init(message: Livery.fullMessage(for: error), status: 2)
        }
    }
}

extension ExitCode {
    /// Findings at error level: the command printed them, and ends with this status.
    package static let findings = ExitCode(1)
    /// `livery fetch`: the release needs a newer app than this one.
    package static let appUpdateRequired = ExitCode(3)
}
