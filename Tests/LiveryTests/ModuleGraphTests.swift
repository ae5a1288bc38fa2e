import Foundation
import XCTest

/// Package.swift's targets as SwiftPM reads them (`swift package dump-package`), with each target's declared
/// dependencies: other targets by name, and products with their package.
struct PackageGraph {
    struct Target {
        var name: String
        var isTest: Bool
        var targets: [String]
        var products: [(package: String, name: String)]
        /// The folder Package.swift gives (`path:`), or nil for the default (`Sources/<name>`, `Tests/<name>`).
        var path: String? = nil

        /// The target's folder, relative to the package.
        var folder: String { path ?? "\(isTest ? "Tests" : "Sources")/\(name)" }
    }

    var targets: [String: Target]
    /// The package's products and the targets each is made of.
    var products: [String: [String]] = [:]

    /// The package's graph, read once per test run (three tests read it).
    static func load() throws -> PackageGraph { try read.get() }
    private static let read = Result { try dump() }

    private static func dump() throws -> PackageGraph {
        // A scratch folder of its own: `swift test` holds the lock of the package's .build while this runs.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("livery-dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let dump = try LiveryProcess.tool(["swift", "package", "dump-package", "--package-path", LiveryProcess.packageRoot.path, "--scratch-path", scratch.path])
        guard dump.status == 0 else { throw XCTSkip("swift package dump-package failed: \(dump.stderr)") }
        // Each dependency is {"byName"|"target": [name, condition]} or {"product": [name, package, …]}.
        let manifest = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var targets: [String: Target] = [:]
        for entry in try XCTUnwrap(manifest["targets"] as? [[String: Any]]) {
            let name = try XCTUnwrap(entry["name"] as? String)
            var target = Target(name: name, isTest: entry["type"] as? String == "test", targets: [], products: [], path: entry["path"] as? String)
            for dependency in entry["dependencies"] as? [[String: [Any]]] ?? [] {
                if let product = dependency["product"], let productName = product.first as? String {
                    target.products.append((product.dropFirst().first as? String ?? "", productName))
                } else if let named = dependency["byName"] ?? dependency["target"], let dependencyName = named.first as? String {
                    target.targets.append(dependencyName)
                }
            }
            targets[name] = target
        }
        var products: [String: [String]] = [:]
        for entry in try XCTUnwrap(manifest["products"] as? [[String: Any]]) {
            products[try XCTUnwrap(entry["name"] as? String)] = entry["targets"] as? [String] ?? []
        }
        return PackageGraph(targets: targets, products: products)
    }

    /// The targets `root` depends on, directly or not (itself included), and the packages their products come from.
    func closure(of root: String) -> (targets: Set<String>, packages: Set<String>) {
        var seen: Set<String> = [], packages: Set<String> = [], queue = [root]
        while let name = queue.popLast() {
            guard seen.insert(name).inserted, let target = targets[name] else { continue }
            packages.formUnion(target.products.map(\.package))
            queue.append(contentsOf: target.targets)
        }
        return (seen, packages)
    }
}

/// The shape of the package (docs/architecture.md): the stages in pipeline order, every arrow between Livery's
/// modules pointing down it, and every module a file imports declared in Package.swift.
final class ModuleGraphTests: XCTestCase {
    /// Each library module's stage, earliest first: a module may depend on modules of its own stage or earlier ones.
    /// The client side (LiveryClientCore, LiveryClient) stands apart: it may use the foundation and the release format only.
    static let stages: [(name: String, modules: [String])] = [
        ("foundation", ["LiveryDiagnostics", "LiveryEncoding", "LiveryStorage", "LiverySQLite", "LiveryImage", "LiveryJSONRPC", "LiveryParallel", "LiveryXML",
                        "CYAML", "CXML2", "CArchive", "CDeflate", "CSQLite", "CVips", "CPKCS11", "CLiverySystem", "CArchiveReader"]),
        // The release format: what the signer writes, the server serves and the client reads (LiveryReleaseFormat), below every
        // stage that makes a part of a release (pack's download manifest, publish's release.json).
        ("format", ["LiveryReleaseFormat"]),
        ("load", ["LiveryLoad", "LiveryL10n"]),
        // The asset files the manifests name, measured from their headers: below every stage that reads them (check, render, pack).
        ("media", ["LiveryMedia"]),
        ("resolve", ["LiveryResolve"]),
        ("check", ["LiveryCheck"]),
        ("assets", ["LiveryAssets"]),
        ("render", ["LiveryRender", "LiveryInterchange"]),
        ("pack", ["LiveryPack"]),
        ("sign", ["LiverySign", "LiveryVectors"]),
        ("publish and serve", ["LiveryPublish", "LiveryObjectStore", "LiveryServe"]),
        ("composition", ["LiveryWorkflow", "LiveryRemoteWorkflow", "LiveryLanguageServer", "LiveryCommands", "livery", "livery-network", "livery-cldr", "livery-json-fuzz"]),
    ]
    static let client: Set<String> = ["LiveryClientCore", "LiveryClient"]
    /// What the client may use: the foundation's encoding and storage helpers and the release format (metadata, signatures).
    static let clientMayUse: Set<String> = ["LiveryEncoding", "LiveryStorage", "LiveryReleaseFormat", "CArchiveReader", "LiveryClientCore"]

    /// Arrows against the stage order that are known and not yet moved (none left: the rule registry went to the
    /// composition layer, the release format below pack). The test fails on any, and when one listed here goes, so
    /// that the list only shrinks.
    static let knownAgainstTheFlow: Set<String> = [
    ]
    /// Declarations only a signer needs (making keys' signatures, building metadata to sign), which must not be in
    /// what an app embedding the client links: they live in LiverySign.
    static let signerOnly = #"\b(protocol MetadataSigner|struct Ed25519Signer|struct P256Signer|enum TUFDocument|func sign\(with|Signing\.PrivateKey)\b"#

    /// The shared test fixtures (Tests/LiveryTestSupport): a regular target that only test targets depend on, and that
    /// depends on no module of Livery's, so no product links it and a stage's tests reach no later stage through it.
    static let testSupport = "LiveryTestSupport"
    /// The test target of the end-to-end journeys through the built binaries (and of the tests not yet moved to a stage's
    /// target): it may use every module. Every other test target is named for the module it tests, `<Module>Tests`.
    static let journeyTests = "LiveryTests"

    /// Modules of the platform, not of a package.
    static let system: Set<String> = ["Foundation", "FoundationNetworking", "FoundationEssentials", "Glibc", "Musl", "Darwin", "Dispatch",
                                      "XCTest", "Android", "os", "Synchronization", "WinSDK", "ucrt"]
    /// Products whose modules have other names than the product.
    static let productModules: [String: [String]] = ["_NIOFileSystem": ["_NIOFileSystem", "NIOFileSystem"]]

    func testEveryArrowPointsDownThePipeline() throws {
        let graph = try PackageGraph.load()
        var stageOf: [String: Int] = [:]
        for (index, stage) in Self.stages.enumerated() { for module in stage.modules { stageOf[module] = index } }
        var against: Set<String> = []
        for target in graph.targets.values where !target.isTest {
            if target.name == Self.testSupport {
                XCTAssertEqual(target.targets, [], "\(target.name) holds fixtures over Foundation and XCTest: it depends on no module of Livery's")
                continue
            }
            if Self.client.contains(target.name) {
                for dependency in target.targets where !Self.clientMayUse.contains(dependency) {
                    XCTFail("\(target.name) -> \(dependency): the client may use only \(Self.clientMayUse.sorted())")
                }
                continue
            }
            guard let from = stageOf[target.name] else {
                XCTFail("\(target.name) has no stage: add it to ModuleGraphTests.stages and docs/architecture.md")
                continue
            }
            for dependency in target.targets {
                if Self.client.contains(dependency) {
                    XCTAssertEqual(Self.stages[from].name, "composition", "\(target.name) -> \(dependency): only the composition layer uses the client")
                    continue
                }
                guard let to = stageOf[dependency] else { XCTFail("\(dependency) has no stage"); continue }
                if to > from { against.insert("\(target.name) -> \(dependency)") }
            }
        }
        XCTAssertEqual(against.subtracting(Self.knownAgainstTheFlow).sorted(), [], "arrows against the pipeline (stage order in docs/architecture.md)")
        XCTAssertEqual(Self.knownAgainstTheFlow.subtracting(against).sorted(), [], "moved: take these out of knownAgainstTheFlow")
    }

    /// The client's closure (what an app embedding LiveryClientCore links) holds no signer: not LiverySign, and no
    /// file of its modules declares signer-only code (`signerOnly`).
    func testTheClientLinksNoSignerOnlyCode() throws {
        let graph = try PackageGraph.load()
        let pattern = try NSRegularExpression(pattern: Self.signerOnly)
        for client in Self.client.sorted() {
            let closure = graph.closure(of: client).targets
            XCTAssertFalse(closure.contains("LiverySign"), "\(client) links LiverySign")
            XCTAssertTrue(closure.contains("LiveryReleaseFormat"), "\(client) reads the release format")
            var found: [String] = []
            for target in closure.sorted() {
                let folder = LiveryProcess.packageRoot.appendingPathComponent("Sources").appendingPathComponent(target)
                guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { continue }
                for case let file as URL in files where file.pathExtension == "swift" {
                    let text = try String(contentsOf: file, encoding: .utf8)
                    for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                        found.append("\(target)/\(file.lastPathComponent): \((text as NSString).substring(with: match.range))")
                    }
                }
            }
            XCTAssertEqual(found, [], "signer-only code in what \(client) links")
        }
        // The pattern does find what it looks for where it lives.
        let signer = try String(contentsOf: LiveryProcess.packageRoot.appendingPathComponent("Sources/LiverySign/MetadataSigner.swift"), encoding: .utf8)
        XCTAssertGreaterThan(pattern.numberOfMatches(in: signer, range: NSRange(signer.startIndex..., in: signer)), 0)
    }

    /// A module a file imports is one its target declares (a target, or a product's module), the target's own, or
    /// the platform's: nothing is reached through another target's dependencies.
    func testEveryImportIsDeclared() throws {
        let graph = try PackageGraph.load()
        let root = LiveryProcess.packageRoot
        let pattern = try NSRegularExpression(pattern: #"^(?:@testable |@_exported |@preconcurrency )?(?:public |package |internal |private |fileprivate )?import (?:(?:struct|class|enum|func|protocol|typealias|var|let) )?([A-Za-z_][A-Za-z0-9_]*)"#,
                                              options: .anchorsMatchLines)
        var undeclared: [String] = []
        for target in graph.targets.values.sorted(by: { $0.name < $1.name }) {
            let folder = root.appendingPathComponent(target.folder)
            var allowed = Set(target.targets).union(Self.system).union([target.name])
            for product in target.products { allowed.formUnion(Self.productModules[product.name] ?? [product.name]) }
            guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files {
                // Fixtures are inputs of the tests (generated SwiftUI, sample apps), not the target's code.
                if file.lastPathComponent == "Fixtures" { files.skipDescendants(); continue }
                guard file.pathExtension == "swift", let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
                // The imports at the head of the file (with comments and #if around them): further down, a line
                // that reads like one is in a string (the Python the tests run).
                for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    if let match = pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)), let range = Range(match.range(at: 1), in: line) {
                        let module = String(line[range])
                        if !allowed.contains(module) { undeclared.append("\(target.name): \(file.lastPathComponent) imports \(module)") }
                        continue
                    }
                    let preamble = trimmed.isEmpty || ["//", "/*", "*", "#if", "#else", "#elseif", "#endif"].contains { trimmed.hasPrefix($0) }
                    if !preamble { break }
                }
            }
        }
        XCTAssertEqual(undeclared, [], "declare these in Package.swift")
    }

    /// A stage's test target (`<Module>Tests`) may use only that module's stage and earlier ones (the client's: the client
    /// and the stages through sign, whose output it reads) and LiveryTestSupport, so that its tests run in process with no later stage to lean on;
    /// LiveryTests, the journeys through the binaries, may use everything.
    func testEveryTestTargetUsesOnlyItsStageAndEarlierOnes() throws {
        let graph = try PackageGraph.load()
        var stageOf: [String: Int] = [:]
        for (index, stage) in Self.stages.enumerated() { for module in stage.modules { stageOf[module] = index } }
        for target in graph.targets.values.sorted(by: { $0.name < $1.name }) where target.isTest && target.name != Self.journeyTests {
            let module = String(target.name.dropLast("Tests".count))
            guard target.name.hasSuffix("Tests"), let tested = graph.targets[module], !tested.isTest else {
                XCTFail("\(target.name): name a test target for the module it tests (<Module>Tests), or put its tests in \(Self.journeyTests)")
                continue
            }
            for dependency in target.targets where dependency != Self.testSupport {
                if Self.client.contains(module) {
                    // The client reads what the build side signed: its tests may make that input with the stages through sign.
                    let through = Self.stages.firstIndex { $0.name == "sign" } ?? 0
                    XCTAssertTrue(Self.client.union(Self.clientMayUse).contains(dependency) || stageOf[dependency].map { $0 <= through } == true,
                                  "\(target.name) -> \(dependency): the client's tests may use the client and the stages through sign")
                } else if Self.client.contains(dependency) {
                    XCTFail("\(target.name) -> \(dependency): only the composition layer uses the client")
                } else if let from = stageOf[module], let to = stageOf[dependency] {
                    XCTAssertLessThanOrEqual(to, from, "\(target.name) -> \(dependency): a later stage (\(Self.stages[to].name)) than \(module)'s (\(Self.stages[from].name))")
                } else {
                    XCTFail("\(target.name) -> \(dependency): no stage for one of them")
                }
            }
        }
    }

    /// LiveryTestSupport is test code: no product is made of it or of a target that depends on it.
    func testNoProductLinksTheTestSupport() throws {
        let graph = try PackageGraph.load()
        XCTAssertNotNil(graph.targets[Self.testSupport])
        XCTAssertFalse(graph.products.isEmpty)
        for (product, targets) in graph.products.sorted(by: { $0.key < $1.key }) {
            for target in targets {
                XCTAssertFalse(graph.closure(of: target).targets.contains(Self.testSupport), "product \(product) (\(target)) links \(Self.testSupport)")
            }
        }
        for target in graph.targets.values where !target.isTest {
            XCTAssertFalse(target.targets.contains(Self.testSupport), "\(target.name) depends on \(Self.testSupport): only test targets may")
        }
    }
}
