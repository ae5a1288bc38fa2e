import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryPack
import LiveryReleaseFormat
import XCTest

/// The release parser against LiveryLoad's `JSONParser`, an independent strict parser of the same
/// grammar: on generated documents and on byte mutations of a built release's files they must agree
/// on accept/refuse and, when both accept, on the value, byte for byte.
///
/// LiveryLoad is driven the way it reads a manifest file: `SourceText.decode` (UTF-8 check) then
/// `ManifestParser.parse(text, format: .json, …)`; a document is refused if either reports an error.
/// The differences that are meant, each checked rather than skipped:
/// - a leading byte order mark: `SourceText` drops it, the release parser refuses it (release files
///   are written by programs; a BOM is a sign of tampering or a foreign tool). The rest must agree.
/// - an integer outside `Int`'s range: LiveryLoad reads it as a float; the release parser refuses it
///   (canonical JSON signs integers only, so such a number could never verify).
/// - limits: LiveryLoad also caps files at 8 MiB (`SourceText.read`, not on this path) and 500,000
///   values, the release parser at 64 MiB and no value count; the corpus stays far under both.
///   Both refuse a value nested 64 containers deep.
/// - LiveryPack's Node → JSONValue converter drops `$schema` keys (a manifest's schema pointer); the
///   generator never writes that key.
extension ReleaseJSONParserTests {
    private enum Verdict {
        case accepted(JSONValue)
        case refused(String)
    }

    private static func releaseVerdict(_ bytes: [UInt8]) -> (Verdict, ReleaseJSONParser.SyntaxError?) {
        do { return (.accepted(try ReleaseJSONParser.parse(Data(bytes))), nil) } catch let error as ReleaseJSONParser.SyntaxError {
            return (.refused(error.description), error)
        } catch { return (.refused("\(error)"), nil) }
    }

    private static func loadVerdict(_ bytes: [UInt8]) -> Verdict {
        switch SourceText.decode(bytes, displayPath: "doc.json") {
        case .failure(.diagnostic(let diagnostic)): return .refused(diagnostic.message)
        case .success(let text):
            let (node, diagnostics) = ManifestParser.parse(text, format: .json, file: "doc.json")
            if let error = diagnostics.first(where: { $0.severity == .error }) { return .refused(error.message) }
            guard let node else { return .refused("no value") }
            return .accepted(JSONValue(node))
        }
    }

    private struct Tally {
        var documents = 0, accepted = 0, refused = 0, byteOrderMarks = 0, bigIntegers = 0
        var disagreements: [String] = []
    }

    private static func compare(_ bytes: [UInt8], _ tally: inout Tally) {
        tally.documents += 1
        let (ours, error) = releaseVerdict(bytes)
        let theirs = loadVerdict(bytes)
        switch (ours, theirs) {
        case (.accepted(let a), .accepted(let b)):
            if a == b && a.bytes == b.bytes { tally.accepted += 1 } else { disagree("different values: \(String(describing: a).prefix(300)) / \(String(describing: b).prefix(300))") }
        case (.refused, .refused):
            tally.refused += 1
        case (.refused, .accepted(let value)):
            if error?.reason == .byteOrderMark, bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                tally.byteOrderMarks += 1
                // Without the mark, the two must agree again.
                var rest = Tally()
                compare(Array(bytes.dropFirst(3)), &rest)
                tally.disagreements += rest.disagreements
            } else if error?.reason == .integerOutOfRange, containsIntegerBeyondInt(value) {
                tally.bigIntegers += 1
            } else {
                disagree("release parser refuses (\(error.map { "\($0)" } ?? "?")), LiveryLoad accepts")
            }
        case (.accepted, .refused(let message)):
            disagree("release parser accepts, LiveryLoad refuses (\(message))")
        }

        func disagree(_ why: String) {
            let shown = bytes.count > 300 ? Array(bytes.prefix(300)) : bytes
            tally.disagreements.append("\(why)\n    input (\(bytes.count) bytes): \(String(decoding: shown, as: UTF8.self).debugDescription)\n    hex: \(shown.map { String(format: "%02x", $0) }.joined())")
        }
    }

    private static func containsIntegerBeyondInt(_ value: JSONValue) -> Bool {
        switch value {
        case .double(let d): return d == d.rounded() && abs(d) >= 9.2e18
        case .array(let items): return items.contains(where: containsIntegerBeyondInt)
        case .object(let object): return object.values.contains(where: containsIntegerBeyondInt)
        default: return false
        }
    }

    /// Every JSON file of a freshly built release of the sample tenants: TUF metadata, download manifests, release pointers.
    private static func releaseFiles(in workspace: BuildTests.Workspace) throws -> [URL] {
        let walker = try XCTUnwrap(FileManager.default.enumerator(at: workspace.output, includingPropertiesForKeys: nil))
        var files: [URL] = []
        for case let url as URL in walker {
            if url.lastPathComponent.hasPrefix(".livery") { walker.skipDescendants(); continue }
            if url.pathExtension == "json" { files.append(url) }
        }
        return files.sorted { $0.path < $1.path }
    }

    func testAgreesWithLiveryLoadsParserOnGeneratedAndMutatedDocuments() throws {
        let workspace = try BuildTests.Workspace()
        let build = try workspace.build()
        XCTAssertEqual(build.status, 0, build.stdout + build.stderr)
        let files = try Self.releaseFiles(in: workspace)
        XCTAssertTrue(files.contains { $0.path.hasSuffix("/metadata/timestamp.json") } && files.contains { $0.lastPathComponent == "release.json" }, "\(files)")

        var tally = Tally()
        var random = SeededGenerator(seed: 0x11_7E57_150)
        // The release's own files, as written and mutated.
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            XCTAssertNoThrow(try ReleaseJSONParser.parse(Data(bytes)), file.path)
            Self.compare(bytes, &tally)
            for _ in 0..<40 { Self.compare(JSONMutator.mutate(bytes, using: &random), &tally) }
        }
        // Hand-picked edges and generated documents, as generated and mutated.
        for text in ["\u{FEFF}{}", "\u{FEFF}{\"a\":1,\"a\":2}", "[9223372036854775808]", "{\"\u{E9}\":1,\"e\u{301}\":2}", "[1e-400]", "[-0]", "\"\\u0000\""] {
            Self.compare(Array(text.utf8), &tally)
        }
        var generator = JSONDocumentGenerator(seed: 0xD1FF)
        for round in 0..<3_000 {
            let document = generator.document(faulty: round % 3 == 0)
            Self.compare(document, &tally)
            if round % 2 == 0 { Self.compare(JSONMutator.mutate(document, using: &random), &tally) }
        }

        print("ReleaseJSONParser differential: \(tally.documents) documents (\(files.count) release files), \(tally.accepted) accepted and \(tally.refused) refused by both; "
              + "documented differences: \(tally.byteOrderMarks) byte order marks, \(tally.bigIntegers) integers beyond Int; \(tally.disagreements.count) disagreements")
        XCTAssertTrue(tally.disagreements.isEmpty, tally.disagreements.prefix(10).joined(separator: "\n"))
        // The corpus exercises both sides and every documented difference.
        XCTAssertGreaterThan(tally.accepted, 1_500)
        XCTAssertGreaterThan(tally.refused, 1_500)
        XCTAssertGreaterThan(tally.byteOrderMarks, 0)
        XCTAssertGreaterThan(tally.bigIntegers, 0)
    }
}

/// Byte-level mutations of a document: the bit flips, cuts, splices and stray tokens a fuzzer makes,
/// plus one that repeats a key in its object.
private enum JSONMutator {
    private static let tokens: [[UInt8]] = ["\"", "\\", ",", ":", "{", "}", "[", "]", " ", "\n", "0", "-", "e", ".", "1e400", "\\u", "\\uD800", "\\uDC00",
                                            "99999999999999999999", "null", "tru", "\u{FEFF}", "\u{E9}", "e\u{301}"].map { Array($0.utf8) }
        + [[0x00], [0x01], [0x0C], [0x7F], [0x80], [0xC3], [0xFF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF]]

    static func mutate(_ input: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let at = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<7, using: &random) {
            case 0 where !bytes.isEmpty: bytes[at] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
            case 1: bytes.insert(contentsOf: tokens.randomElement(using: &random)!, at: at)
            case 2 where !bytes.isEmpty: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...8, using: &random)))
            case 3 where !bytes.isEmpty: bytes[at] = tokens.randomElement(using: &random)![0]
            case 4 where !bytes.isEmpty:
                let length = Int.random(in: 1...min(64, bytes.count - at), using: &random)
                let slice = bytes[at..<at + length]
                bytes.insert(contentsOf: slice, at: Int.random(in: 0...bytes.count, using: &random))
            case 5: bytes = Array(bytes.prefix(at))
            default: bytes = repeatKey(bytes, using: &random)
            }
        }
        return bytes
    }

    /// Inserts `"key":0,` just after a `{` whose first key is `key`: the object then has that key twice.
    static func repeatKey(_ bytes: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
        let opens = bytes.indices.filter { bytes[$0] == UInt8(ascii: "{") }
        guard let open = opens.randomElement(using: &random) else { return bytes }
        var i = open + 1
        while i < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\""), let close = bytes[(i + 1)...].firstIndex(of: UInt8(ascii: "\"")) else { return bytes }
        var out = bytes
        out.insert(contentsOf: Array(bytes[i...close]) + Array(":0,".utf8), at: open + 1)
        return out
    }
}

/// Random JSON documents: every value kind, escapes, raw UTF-8, edge numbers, random whitespace, keys
/// from a small pool (so some objects repeat one), nesting around the depth limit, and, when asked,
/// one or two faults of the kinds the release parser refuses.
private struct JSONDocumentGenerator {
    private var random: SeededGenerator
    private var out: [UInt8] = []
    private var faultsLeft = 0

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    mutating func document(faulty: Bool) -> [UInt8] {
        out = []
        faultsLeft = faulty ? Int.random(in: 1...2, using: &random) : 0
        if faulty && chance(20) { out += [0xEF, 0xBB, 0xBF] }
        space()
        if chance(15) {
            // Around the depth limit: the innermost value sits 60 to 66 containers deep.
            let depth = Int.random(in: 60...66, using: &random)
            let objects = (0..<depth).map { _ in chance(2) }
            for object in objects { out += Array((object ? "{\"k\":" : "[").utf8) }
            value(depth: 8)
            for object in objects.reversed() { out.append(UInt8(ascii: object ? "}" : "]")) }
        } else {
            value(depth: 0)
        }
        space()
        if fault() { emit([" {}", "x", "]", ",", "\u{0}", "1"].randomElement(using: &random)!) }
        return out
    }

    private mutating func chance(_ oneIn: Int) -> Bool { Int.random(in: 0..<oneIn, using: &random) == 0 }

    /// True (and one fault used up) now and then while faults are left.
    private mutating func fault() -> Bool {
        guard faultsLeft > 0, chance(12) else { return false }
        faultsLeft -= 1
        return true
    }

    private mutating func emit(_ text: String) { out += Array(text.utf8) }

    private mutating func space() {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: emit(" ")
        case 1: emit("\n  ")
        case 2: emit("\r\n\t")
        case 3 where fault(): emit(["\u{C}", "\u{A0}", "\u{B}", "/* */"].randomElement(using: &random)!)
        default: break
        }
    }

    private mutating func value(depth: Int) {
        let containers = depth < 5 ? 4 : 0
        switch Int.random(in: 0..<(8 + containers), using: &random) {
        case 0: emit("null")
        case 1: emit(chance(2) ? "true" : "false")
        case 2, 3: number()
        case 4, 5, 6: string()
        case 7: if fault() { emit(["tru", "nul", "'a'", "NaN", "Infinity", "+1", ".5", "01", "-", "undefined"].randomElement(using: &random)!) } else { string() }
        case 8, 9: array(depth: depth)
        default: object(depth: depth)
        }
    }

    private mutating func array(depth: Int) {
        emit("[")
        let count = Int.random(in: 0...5, using: &random)
        for index in 0..<count {
            space()
            value(depth: depth + 1)
            space()
            if index < count - 1 { emit(fault() ? "" : ",") }
        }
        if count > 0, fault() { emit(",") }
        emit(fault() ? "}" : "]")
    }

    private static let keyPool = ["a", "b", "version", "_type", "keyid", "\u{E9}", "e\u{301}", "k\\u00e9y", "\\u00e9", "sig", "meta", "x y", "\u{1F600}"]

    private mutating func object(depth: Int) {
        emit("{")
        let count = Int.random(in: 0...5, using: &random)
        for index in 0..<count {
            space()
            // Keys mostly unique, sometimes from a small pool (so now and then repeated).
            if chance(4) { emit("\"\(Self.keyPool.randomElement(using: &random)!)\"") } else { string() }
            space()
            emit(fault() ? "" : ":")
            space()
            value(depth: depth + 1)
            space()
            if index < count - 1 { emit(fault() ? "" : ",") }
        }
        if count > 0, fault() { emit(",") }
        emit("}")
    }

    private static let pieces = ["a", "Z", "0", " ", "release", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u0041", "\\u00e9", "\\u4E2d", "\\u0000",
                                 "\\u001f", "\\uD83D\\uDE00", "\\uffff", "\u{E9}", "\u{FC}", "\u{4E2D}", "\u{1F600}", "\u{7F}", "\u{FFFF}", "\u{10FFFF}", "e\u{301}"]

    private mutating func string() {
        emit("\"")
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            if fault() {
                switch Int.random(in: 0..<6, using: &random) {
                case 0: out.append(UInt8.random(in: 0..<0x20, using: &random))
                case 1: emit(["\\uD800", "\\uDC00", "\\uDBFF\\u0041", "\\uD800\\uD800"].randomElement(using: &random)!)
                case 2: emit(["\\x", "\\U0041", "\\u12", "\\'"].randomElement(using: &random)!)
                case 3: out += [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0x80], [0xF4, 0x90, 0x80, 0x80]].randomElement(using: &random)!
                case 4: emit("\n")
                default: out = Array(out.prefix(Int.random(in: 0...out.count, using: &random))); return
                }
            } else {
                emit(Self.pieces.randomElement(using: &random)!)
            }
        }
        emit("\"")
    }

    private mutating func number() {
        if fault() {
            emit(["9223372036854775808", "-9223372036854775809", "123456789012345678901234567890", "1e400", "-1e309", "1.", "1e", "0x1F", "--1", "1.e3"]
                .randomElement(using: &random)!)
            return
        }
        switch Int.random(in: 0..<8, using: &random) {
        case 0: emit(String(Int.random(in: -1_000...1_000, using: &random)))
        case 1: emit(String(Int.random(in: .min ... .max, using: &random)))
        case 2: emit(["0", "-0", "9223372036854775807", "-9223372036854775808", "1", "-1"].randomElement(using: &random)!)
        case 3: emit("\(Int.random(in: -99...99, using: &random)).\(Int.random(in: 0...99_999, using: &random))")
        case 4: emit("\(Int.random(in: 0...9, using: &random))\(chance(2) ? "e" : "E")\(["", "+", "-"].randomElement(using: &random)!)\(Int.random(in: 0...320, using: &random))")
        case 5: emit(["0.0", "-0.0", "1e308", "4.9e-324", "1e-400", "2.2250738585072014e-308", "0.1", "1.7976931348623157e308", "1.0"].randomElement(using: &random)!)
        case 6: emit(String(Double.random(in: -1e6...1e6, using: &random)))
        default: emit(String(Int.random(in: 0...100, using: &random)))
        }
    }
}
