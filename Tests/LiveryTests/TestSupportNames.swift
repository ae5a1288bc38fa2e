import Foundation
import LiveryTestSupport

// The shared fixtures live in LiveryTestSupport (Tests/LiveryTestSupport). These are the names LiveryTests'
// files knew them by when they lived in this target, so those files did not change when the fixtures moved
// (other branches edit their imports). Its extension members (`Date.wholeSecondsAgo`) reach those files through
// this file's import.
typealias LiveryProcess = LiveryTestSupport.LiveryProcess
typealias PlatformFixtures = LiveryTestSupport.PlatformFixtures
typealias S3ServerFixture = LiveryTestSupport.S3ServerFixture
typealias PostgresServer = LiveryTestSupport.PostgresServer
typealias PortLine = LiveryTestSupport.PortLine
typealias SeededGenerator = LiveryTestSupport.SeededGenerator
typealias InterchangeFixture = LiveryTestSupport.InterchangeFixture

extension BuildTests {
    typealias Workspace = SampleWorkspace
}

extension SigningTests {
    typealias FileServer = LiveryFileServer
    typealias EndlessServer = LiveryTestSupport.EndlessServer

    static var python: String { PythonTUF.python }

    static func isFree(_ port: Int) -> Bool { LocalPort.isFree(port) }

    static func clientState(in root: URL, _ name: String = "tuf-state-\(UUID().uuidString)") throws -> URL {
        try PythonTUF.clientState(in: root, name)
    }

    static func pythonTUF(port: Int, tenant: String, root: URL, state: URL, targets: [String]? = nil, token: String? = nil) throws -> LiveryProcess.Output {
        try PythonTUF.run(port: port, tenant: tenant, root: root, state: state, targets: targets, token: token)
    }
}
