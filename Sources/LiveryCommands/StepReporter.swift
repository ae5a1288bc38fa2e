import Foundation

/// `--verbose` step lines (`step: …` on standard output, written at once) and the tests' fail point:
/// with `LIVERY_STOP_AFTER_STEP=<step>` the process stops itself (SIGSTOP) right after saying that
/// step, so that a test's kill lands exactly there.
package enum StepReporter {
    package static func make(verbose: Bool) -> (@Sendable (String) -> Void)? {
        guard verbose else { return nil }
        let stopAt = ProcessInfo.processInfo.environment["LIVERY_STOP_AFTER_STEP"]
        return { step in
            FileHandle.standardOutput.write(Data(("step: " + step + "\n").utf8))
            // raise: to this thread, so it stops before it returns (kill(getpid()) may stop another thread first).
            if step == stopAt { raise(SIGSTOP) }
        }
    }
}
