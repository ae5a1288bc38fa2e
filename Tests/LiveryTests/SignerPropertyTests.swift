import Crypto
import Foundation
import LiveryClient
import LiveryPack
import LiveryPublish
import LiverySign
import LiveryReleaseFormat
import XCTest

/// The signing side never publishes what a client refuses (issue 11, item 5). Seeded pseudo-random
/// sequences of builds, key rotations, delegations (added, re-scoped, removed, their key taken off
/// the build machine and brought back), content changes and timestamp refreshes after hours, days
/// or months (under `faketime`) run on one sample tenant through the real `livery` executable.
/// After every step, Livery's updater and python-tuf, each both from the tenant's `1.root.json`
/// and from the metadata an app kept after the previous step, must accept the release, download
/// and verify every target, and resolve exactly the targets of the published download manifest,
/// at the published metadata versions (SignerPropertyChecks.swift). An operation the signer
/// refuses (a pattern clients read differently, a creator's key that is away) must publish nothing.
///
/// Seeds are fixed, so a failure is reproducible; it prints the seed, the steps so far and the
/// workspace it keeps. `LIVERY_SIGNER_SEEDS=7,8` and `LIVERY_SIGNER_STEPS=20` run other sequences;
/// `LIVERY_SIGNER_VERBOSE=1` prints every sequence's steps.
final class SignerPropertyTests: XCTestCase {
    static let tenant = "companero-lucia"
    /// Chosen so that their eight steps together rotate every top-level key, add and remove
    /// delegated roles (one removed while its key is away, one added again under the same name),
    /// refuse a bad pattern, change content, and let 4 hours, 7 days and 78 days pass.
    static let seeds: [UInt64] = [0x1, 0x4, 0x16]
    static let steps = 8

    func testRandomRotationsDelegationsAndReleasesAreAcceptedByBothClients() throws {
        let environment = ProcessInfo.processInfo.environment
        // Seeds are written in hex, as failures print them (`0x` optional).
        let seeds = environment["LIVERY_SIGNER_SEEDS"].map { list in
            list.split(separator: ",").compactMap { UInt64($0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "0x", with: ""), radix: 16) }
        } ?? Self.seeds
        let steps = environment["LIVERY_SIGNER_STEPS"].flatMap { Int($0) } ?? Self.steps
        for seed in seeds {
            try SignerSequence(seed: seed).run(steps: steps)
        }
    }
}

/// One seeded sequence of operations on a workspace of its own.
final class SignerSequence {
    enum Operation: CustomStringConvertible {
        case build
        case rotate(TUFRole)
        case delegate(name: String, paths: [String])
        case removeDelegation(name: String)
        case change(file: String)
        case rebuild
        case refreshTimestamp
        /// The clock moves on, then `build --refresh-timestamp` runs, as the daily job would.
        case later(hours: Int)
        /// The creator takes their delegated role's key off the build machine (docs/keys.md), or brings it back.
        case creatorKeyAway(name: String)
        case creatorKeyBack(name: String)

        var description: String {
            switch self {
            case .build: "build"
            case .rotate(let role): "keys rotate \(role.rawValue)"
            case .delegate(let name, let paths): "keys delegate \(name) " + paths.map { "--path '\($0)'" }.joined(separator: " ")
            case .removeDelegation(let name): "keys delegate \(name) --remove"
            case .change(let file): "change \(file), build"
            case .rebuild: "build (no change)"
            case .refreshTimestamp: "build --refresh-timestamp"
            case .later(let hours): "\(hours) h later (\(hours / 24) d \(hours % 24) h), build --refresh-timestamp"
            case .creatorKeyAway(let name): "move delegations/\(name).key out of the key store"
            case .creatorKeyBack(let name): "bring delegations/\(name).key back"
            }
        }
    }

    /// A target as a client resolves it.
    struct Resolved: Equatable, CustomStringConvertible {
        var length: Int
        var sha256: String
        var description: String { "\(length) \(sha256.prefix(12))" }
    }

    /// What one client made of the release after a step.
    struct Outcome {
        var targets: [String: Resolved]
        /// Top-level role versions it trusts.
        var versions: [String: Int]
    }

    let seed: UInt64
    var random: SeededGenerator
    let root: URL
    var tenant: String { SignerPropertyTests.tenant }
    var release: URL { root.appendingPathComponent("Output/\(tenant)") }
    var keysFolder: URL { root.appendingPathComponent(".livery-keys") }
    /// The states an app keeps between steps: Livery's updater and python-tuf's.
    var oursState: URL { root.appendingPathComponent("client-livery") }
    var pythonState: URL { root.appendingPathComponent("client-python-tuf") }
    var log: [String] = []
    var delegations: [String: [String]] = [:]
    /// Delegated roles whose key is off the build machine.
    var away: Set<String> = []
    var edits = 0
    /// How far the sequence's clock is ahead of the real one: livery and python-tuf run under
    /// libfaketime with this offset, and Livery's updater is given the same time.
    var clock: TimeInterval = 0
    var now: Date { Date().addingTimeInterval(clock) }
    var failed = false

    /// Files whose change alters one bundle each: Lucía's locale, her program, a library article,
    /// and the base tenant's locale she inherits.
    static let editable = ["companero-lucia/locales/en.yaml", "companero-lucia/locales/es.yaml", "companero-lucia/programs/30-day-fitness-foundation.yaml",
                           "companero-lucia/library/articles/morning-routine.en.md", "companero/locales/en.yaml"]
    static let roleNames = ["companero-lucia", "lucia-library", "guest", "z9"]
    /// Patterns clients read alike, the docs' examples, and ones the signer must refuse.
    static let patterns = ["program.*", "library.*", "library-item.*", "tour.*", "locale.es.zip", "locale.*.zip", "*.zip", "core.zip", "?ore.zip",
                           "program.*.zip", "library.*.zip", "nothing.*", "*/*", "program.[0-9]*", "[!d]*.zip", "[a-z]*.zip", "locale.e?.zip",
                           "[^d]*.zip", "[[:lower:]]*.zip", "\\*.zip",
                           "*", "download-*", "/core.zip", "../core.zip", "library.*/..", "*.json", "download-manifest.json"]

    init(seed: UInt64) throws {
        self.seed = seed
        random = SeededGenerator(seed: seed)
        root = FileManager.default.temporaryDirectory.appendingPathComponent("livery-signer-\(String(seed, radix: 16))-\(UUID().uuidString.prefix(8))")
        let tenants = root.appendingPathComponent("Tenants")
        try FileManager.default.createDirectory(at: tenants, withIntermediateDirectories: true)
        for id in ["companero", "companero-lucia"] {
            try FileManager.default.copyItem(at: LiveryProcess.packageRoot.appendingPathComponent("Tenants/\(id)"), to: tenants.appendingPathComponent(id))
        }
        try FileManager.default.createDirectory(at: oursState, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: pythonState, withIntermediateDirectories: true)
    }

    deinit {
        // A failing sequence keeps its workspace for a look at the metadata.
        if !failed { try? FileManager.default.removeItem(at: root) }
    }

    func run(steps: Int) throws {
        for step in 0..<steps {
            let operation = step == 0 ? .build : nextOperation()
            var problems: [String] = []
            switch try perform(operation) {
            case .done(let note): log.append("\(step + 1). \(operation)\(note.isEmpty ? "" : " → \(note)")")
            case .refused(let note): log.append("\(step + 1). \(operation) → refused: \(note)")
            case .failed(let message):
                log.append("\(step + 1). \(operation) → FAILED")
                problems.append("\(operation) failed: \(message)")
            }
            problems += try check()
            if !problems.isEmpty {
                failed = true
                XCTFail("""
                    signer property: seed 0x\(String(seed, radix: 16)) failed after step \(step + 1) (workspace kept in \(root.path))
                    steps:
                      \(log.joined(separator: "\n  "))
                    problems:
                      \(problems.joined(separator: "\n  "))
                    """)
                return
            }
        }
        if ProcessInfo.processInfo.environment["LIVERY_SIGNER_VERBOSE"] != nil {
            print("seed 0x\(String(seed, radix: 16)):\n  " + log.joined(separator: "\n  "))
        }
    }

    // MARK: - Operations

    func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }

    func nextOperation() -> Operation {
        switch random.next() % 24 {
        case 22, 23:
            if let name = away.sorted().first { return .creatorKeyBack(name: name) }
            if let name = delegations.keys.sorted().first(where: { !away.contains($0) }) { return .creatorKeyAway(name: name) }
            return .rebuild
        case 0..<5: return .rotate(pick(TUFRole.allCases))
        case 5..<10: return .delegate(name: pick(Self.roleNames), paths: (0...(random.next() % 2)).map { _ in randomPattern() })
        case 10..<13: return delegations.isEmpty ? .delegate(name: pick(Self.roleNames), paths: [randomPattern()]) : .removeDelegation(name: pick(delegations.keys.sorted()))
        case 13..<17: return .change(file: pick(Self.editable))
        case 17: return .rebuild
        case 18: return .refreshTimestamp
        default: return .later(hours: delay())
        }
    }

    /// Hours until the next refresh: within the day (the timestamp's lifetime), past the snapshot's
    /// re-signing point (56 h before its 7 days end), or past the targets' and delegated roles'
    /// (30 days before their 90 end); never past the root's expiry, which only a rotation renews.
    func delay() -> Int {
        var hours = switch random.next() % 4 {
        case 0, 1: 1 + Int(random.next() % 23)
        case 2: 100 + Int(random.next() % 80)
        default: 24 * 60 + Int(random.next() % (24 * 20))
        }
        let rootFile = release.appendingPathComponent("metadata/\(RepositorySigner.latestVersion(of: .root, in: release.appendingPathComponent("metadata")) ?? 1).root.json")
        if let expires = (try? SignedMetadata(data: Data(contentsOf: rootFile)))?.expires {
            let left = Int(expires.timeIntervalSince(now) / 3600) - 48
            if hours > left { hours = max(1, min(left, 23)) }
        }
        return hours
    }

    /// A pattern from the list, a target name of the release as it is, or one with characters
    /// turned into `?` and a head or tail turned into `*`.
    func randomPattern() -> String {
        let names = currentTargetNames()
        switch random.next() % 4 {
        case 0 where !names.isEmpty: return pick(names)
        case 1 where !names.isEmpty:
            var characters = Array(pick(names))
            for _ in 0...(random.next() % 2) { characters[Int(random.next() % UInt64(characters.count))] = "?" }
            let cut = Int(random.next() % UInt64(characters.count))
            switch random.next() % 3 {
            case 0: return String(characters[..<cut]) + "*"
            case 1: return "*" + String(characters[cut...])
            default: return String(characters)
            }
        default: return pick(Self.patterns)
        }
    }

    /// What an operation did: a note for the log, and whether it went wrong.
    enum Step {
        case done(String)
        /// Refused as it should be (a pattern clients read differently, a creator's key that is away); nothing published.
        case refused(String)
        case failed(String)
    }

    func keyFile(_ name: String, offline: Bool) -> URL {
        offline ? root.appendingPathComponent("offline/\(name).key") : keysFolder.appendingPathComponent("\(tenant)/delegations/\(name).key")
    }

    /// Runs one operation.
    func perform(_ operation: Operation) throws -> Step {
        let build = ["build", "Tenants", "--output", "Output"]
        let command: [String]
        var notes: [String] = []
        switch operation {
        case .build, .rebuild: command = build
        case .refreshTimestamp: command = build + ["--refresh-timestamp"]
        case .later(let hours):
            clock += TimeInterval(hours) * 3600
            // A creator brings their key back before their role's metadata expires (the build warns).
            let published = PublishedMetadata.read(release: release)
            for name in away.sorted() where (published?.delegated[name]?.signed.expires ?? .distantPast) < now.addingTimeInterval(26 * 3600) {
                try move(name, offline: false)
                notes.append("\(name).key brought back first")
            }
            command = build + ["--refresh-timestamp"]
        case .creatorKeyAway(let name):
            try move(name, offline: true)
            return .done("")
        case .creatorKeyBack(let name):
            try move(name, offline: false)
            return .done("")
        case .rotate(let role): command = ["keys", "rotate", tenant, role.rawValue, "--output", "Output"]
        case .delegate(let name, let paths): command = ["keys", "delegate", tenant, name, "--output", "Output"] + paths.flatMap { ["--path", $0] }
        case .removeDelegation(let name): command = ["keys", "delegate", tenant, name, "--remove", "--output", "Output"]
        case .change(let file):
            edits += 1
            try edit(file, revision: edits)
            command = build
        }
        let before = BuildTests.tree(release)
        let pointer = ReleasePointer.read(from: release)
        let result = try livery(command)
        let said = (result.stdout + result.stderr).split(separator: "\n").filter { $0.hasPrefix("\(tenant):") || $0.hasPrefix("Error:") }
        notes += said.map(String.init)
        if result.status != 0 {
            let refusal = result.stderr.contains("is not a target path pattern every client reads alike") || result.stderr.contains("would let the delegated role sign")
                || result.stderr.contains("is not a relative target path pattern") || (!away.isEmpty && result.stderr.contains("key is not in the key store"))
            guard refusal else { return .failed("exit \(result.status): \(result.stdout)\(result.stderr)") }
            // Whatever is refused publishes nothing; a refresh still re-signs the release that stays live.
            switch operation {
            case .refreshTimestamp, .later:
                guard ReleasePointer.read(from: release) == pointer else { return .failed("refused, yet a new release was published: \(result.stderr)") }
            default:
                guard BuildTests.tree(release) == before else { return .failed("refused, yet the release changed: \(result.stderr)") }
            }
            if case .delegate(let name, let paths) = operation, away.contains(name) { delegations[name] = paths }  // the record changed, the release did not
            return .refused(notes.joined(separator: "; "))
        }
        switch operation {
        case .delegate(let name, let paths): delegations[name] = paths
        case .removeDelegation(let name):
            delegations[name] = nil
            away.remove(name)  // its key stays where it is: removing the role retires it
        default: break
        }
        return .done(notes.joined(separator: "; "))
    }

    /// Moves a delegated role's key out of the key store or back.
    func move(_ name: String, offline: Bool) throws {
        try FileManager.default.createDirectory(at: root.appendingPathComponent("offline"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: keyFile(name, offline: !offline), to: keyFile(name, offline: offline))
        if offline { away.insert(name) } else { away.remove(name) }
    }

    /// Changes one line (or appends one, for Markdown) so that the file's bundle changes.
    func edit(_ file: String, revision: Int) throws {
        let url = root.appendingPathComponent("Tenants/\(file)")
        var text = try String(contentsOf: url, encoding: .utf8)
        if file.hasSuffix(".md") {
            text += "\nRevision \(revision).\n"
        } else {
            let (prefix, line): (String, String) = switch file {
            case "companero-lucia/locales/en.yaml": ("  sendMessage:", "  sendMessage: Send a message (\(revision))")
            case "companero-lucia/locales/es.yaml": ("  sendMessage:", "  sendMessage: Enviar un mensaje (\(revision))")
            case "companero/locales/en.yaml": ("  home:", "  home: Home (\(revision))")
            default: ("title: {en:", "title: {en: \"30-Day Fitness Foundation (\(revision))\", es: \"Base de fitness en 30 días (\(revision))\"}")
            }
            var lines = text.components(separatedBy: "\n")
            let index = try XCTUnwrap(lines.firstIndex { $0.hasPrefix(prefix) }, "\(prefix) not in \(file)")
            lines[index] = line
            text = lines.joined(separator: "\n")
        }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// Runs livery in the workspace at the sequence's time. (Through Debian's `faketime`: with only
    /// `LD_PRELOAD` and `FAKETIME` set, a Swift program sees no command-line arguments.)
    func livery(_ arguments: [String]) throws -> LiveryProcess.Output {
        guard clock != 0 else { return try LiveryProcess.run(arguments, in: root) }
        return try LiveryProcess.tool(["-C", root.path] + fakeTime + [LiveryProcess.executable.path] + arguments)
    }

    /// The `faketime` prefix of a command for the sequence's clock (nothing while it is the real one).
    var fakeTime: [String] { clock == 0 ? [] : ["faketime", "-f", "+\(Int(clock))"] }
}
