import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryReleaseFormat

// The release JSON parser's harness (`ReleaseJSONParser`, behind `JSONValue.parse`):
// - built with LIVERY_FUZZ=1 and `--sanitize=fuzzer` (`make fuzz`), a libFuzzer target: libFuzzer
//   supplies `main` and calls `LLVMFuzzerTestOneInput` with each input, and every input is also read by
//   LiveryLoad's `JSONParser` (a coverage-guided form of the differential test; the harness may link
//   libyaml and libxml2, the client may not);
// - in an ordinary build, a command: `replay FILE…` runs the same check on saved inputs (a crash
//   libFuzzer found, without the sanitizer build), and `bench FILE` times the parser against
//   Foundation's `JSONSerialization` on the same bytes (`make bench`).

/// What must hold for any input: the parser accepts or refuses it without crashing, as LiveryLoad's
/// parser does, and an accepted value survives the writers. Returns what went wrong, or nil.
func checkReleaseJSON(_ data: Data) -> String? {
    let value: JSONValue
    do {
        value = try ReleaseJSONParser.parse(data)
    } catch let error as ReleaseJSONParser.SyntaxError {
        return disagreement(Array(data), nil, error)
    } catch {
        return "ReleaseJSONParser threw \(type(of: error)), not a SyntaxError"
    }
    if let disagreement = disagreement(Array(data), value, nil) { return disagreement }
    // The deterministic writer escapes every control character: its bytes always read back as the value.
    guard let written = try? ReleaseJSONParser.parse(value.bytes) else { return "JSONValue.bytes does not re-parse: \(value)" }
    guard sameValue(written, value) else { return "JSONValue.bytes re-parses to another value: \(value) / \(written)" }
    // Canonical JSON has no fractions; anything else it encodes must read back as the same value — unless
    // a string holds a control character, which the OLPC form writes raw (as securesystemslib does), so
    // that the canonical form is then not JSON and must be refused.
    guard let canonical = try? CanonicalJSON.encode(value) else {
        return hasFraction(value) ? nil : "CanonicalJSON.encode refuses a value without fractions: \(value)"
    }
    do {
        let reread = try ReleaseJSONParser.parse(canonical)
        if hasControlCharacter(value) { return "canonical form with a raw control character was accepted: \(value)" }
        guard sameValue(reread, value) else { return "canonical form re-parses to another value: \(value) / \(reread)" }
        guard (try? CanonicalJSON.encode(reread)) == canonical else { return "canonical form is not a fixed point: \(value)" }
    } catch {
        if !hasControlCharacter(value) { return "canonical form does not re-parse (\(error)): \(value)" }
    }
    return nil
}

/// Where LiveryLoad's parser, an independent strict parser of the same grammar, reads the same bytes
/// differently from the release parser (`ours` or its `error`), or nil. The differences that are meant
/// (ReleaseJSONParserTests' differential test lists them) pass: LiveryLoad's file reader drops a leading
/// byte order mark, and reads an integer beyond `Int` as a float.
func disagreement(_ bytes: [UInt8], _ ours: JSONValue?, _ error: ReleaseJSONParser.SyntaxError?) -> String? {
    let theirs = liveryLoadReading(bytes)
    switch (ours, theirs) {
    case (nil, nil): return nil
    case (let ours?, let theirs?):
        return ours == theirs && ours.bytes == theirs.bytes ? nil : "LiveryLoad reads another value: \(ours) / \(theirs)"
    case (_?, nil): return "LiveryLoad refuses what the release parser accepts"
    case (nil, let theirs?):
        if error?.reason == .byteOrderMark, bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            let rest = Array(bytes.dropFirst(3))
            do { return disagreement(rest, try ReleaseJSONParser.parse(Data(rest)), nil) } catch {
                return disagreement(rest, nil, error as? ReleaseJSONParser.SyntaxError)
            }
        }
        if error?.reason == .integerOutOfRange, hasIntegerBeyondInt(theirs) { return nil }
        return "LiveryLoad accepts what the release parser refuses: \(error.map(String.init(describing:)) ?? "?")"
    }
}

/// LiveryLoad's reading of `bytes` as it reads a manifest file (`SourceText.decode`, then its JSON
/// parser), or nil if it reports an error.
func liveryLoadReading(_ bytes: [UInt8]) -> JSONValue? {
    guard case .success(let text) = SourceText.decode(bytes, displayPath: "input.json") else { return nil }
    let (node, diagnostics) = ManifestParser.parse(text, format: .json, file: "input.json")
    guard let node, !diagnostics.contains(where: { $0.severity == .error }) else { return nil }
    return jsonValue(node)
}

/// A located node as JSON, every key kept (LiveryPack's converter drops `$schema`).
func jsonValue(_ node: Node) -> JSONValue {
    switch node.value {
    case .null: return .null
    case .bool(let b): return .bool(b)
    case .int(let i): return .int(i)
    case .float(let d): return .double(d)
    case .string(let s): return .string(s)
    case .sequence(let items): return .array(items.map(jsonValue))
    case .mapping(let entries): return .object(Dictionary(entries.map { ($0.key, jsonValue($0.value)) }) { first, _ in first })
    }
}

func hasIntegerBeyondInt(_ value: JSONValue) -> Bool {
    switch value {
    case .double(let d): return d == d.rounded() && abs(d) >= 9.2e18
    case .array(let items): return items.contains(where: hasIntegerBeyondInt)
    case .object(let object): return object.values.contains(where: hasIntegerBeyondInt)
    default: return false
    }
}

/// Equal as JSON: numbers by value (a whole double reads back as an integer), text byte for byte.
func sameValue(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.int(let x), .int(let y)): return x == y
    case (.double(let x), .double(let y)): return x == y
    case (.int(let i), .double(let d)), (.double(let d), .int(let i)): return Int(exactly: d) == i
    case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(sameValue)
    case (.object(let x), .object(let y)):
        let xKeys = x.keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        let yKeys = y.keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        return xKeys == yKeys && x.allSatisfy { key, value in y[key].map { sameValue(value, $0) } ?? false }
    default: return false
    }
}

func hasFraction(_ value: JSONValue) -> Bool {
    switch value {
    case .double(let d): return d != d.rounded() || abs(d) >= 9.007e15
    case .array(let items): return items.contains(where: hasFraction)
    case .object(let object): return object.values.contains(where: hasFraction)
    default: return false
    }
}

func hasControlCharacter(_ value: JSONValue) -> Bool {
    func control(_ s: String) -> Bool { s.utf8.contains { $0 < 0x20 } }
    switch value {
    case .string(let s): return control(s)
    case .array(let items): return items.contains(where: hasControlCharacter)
    case .object(let object): return object.contains { control($0.key) || hasControlCharacter($0.value) }
    default: return false
    }
}

#if LIVERY_FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReleaseJSON(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    // A copy in its own allocation, so a read past the end is caught by the sanitizers.
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    if let failure = FuzzTarget.selected.check(data) {
        FileHandle.standardError.write(Data("\(FuzzTarget.selected.rawValue) check failed: \(failure)\n".utf8))
        abort()
    }
    return 0
}
#else
@main
enum ReleaseJSONHarness {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "replay" where arguments.count > 3 && arguments[1] == "--target":
            guard let target = FuzzTarget(rawValue: arguments[2]) else {
                print("unknown target '\(arguments[2])'; targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
                exit(2)
            }
            exit(replay(arguments.dropFirst(3), target: target))
        case "replay" where arguments.count > 1: exit(replay(arguments.dropFirst()))
        case "seeds" where arguments.count == 2: exit(writeSeeds(arguments[1]))
        case "bench" where arguments.count > 1: exit(bench(arguments[1], iterations: arguments.count > 2 ? Int(arguments[2]) ?? 0 : 0))
        default:
            print("""
                usage: livery-json-fuzz replay [--target T] FILE…  check saved inputs (e.g. crashes from `make fuzz`)
                       livery-json-fuzz seeds DIR           write the delivery targets' seeds into DIR/<target>/
                targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")) (default release-json; LIVERY_FUZZ_TARGET in fuzz builds)
                       livery-json-fuzz bench FILE [RUNS]   time the release JSON parser against JSONSerialization
                (built with LIVERY_FUZZ=1 and --sanitize=fuzzer it is the libFuzzer target of `make fuzz`)
                """)
            exit(2)
        }
    }

    static func writeSeeds(_ folder: String) -> Int32 {
        do {
            for (target, inputs) in try FuzzTarget.seeds() {
                let directory = URL(fileURLWithPath: folder).appendingPathComponent(target.rawValue)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                for (index, input) in inputs.enumerated() { try input.write(to: directory.appendingPathComponent("seed-\(index + 1)")) }
            }
            return 0
        } catch {
            print("cannot write seeds: \(error)")
            return 1
        }
    }

    static func replay(_ paths: ArraySlice<String>, target: FuzzTarget = .releaseJSON) -> Int32 {
        var failures: Int32 = 0
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot read")
                failures += 1
                continue
            }
            if let failure = target.check(data) {
                print("\(path): \(failure)")
                failures += 1
            } else if target == .releaseJSON {
                let verdict = (try? ReleaseJSONParser.parse(data)).map { _ in "accepted" } ?? "refused"
                print("\(path): ok (\(verdict))")
            } else {
                print("\(path): ok")
            }
        }
        return failures == 0 ? 0 : 1
    }

    /// Best time of `runs` rounds of `work`, in seconds.
    static func best(_ runs: Int, _ work: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            work()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return best
    }

    static func bench(_ path: String, iterations: Int) -> Int32 {
        guard let data = FileManager.default.contents(atPath: path) else {
            print("\(path): cannot read")
            return 1
        }
        do { _ = try ReleaseJSONParser.parse(data) } catch {
            print("\(path): \(error)")
            return 1
        }
        // Enough rounds for about a second of the slowest parser; best of them.
        let runs = iterations > 0 ? iterations : max(5, min(200, 40_000_000 / max(data.count, 1)))
        var sink = 0
        let strict = best(runs) { sink &+= (try? ReleaseJSONParser.parse(data)).map { _ in 1 } ?? 0 }
        let floor = best(runs) { sink &+= (try? JSONSerialization.jsonObject(with: data)).map { _ in 1 } ?? 0 }
        let decoder = best(runs) { sink &+= (try? JSONDecoder().decode(JSONValue.self, from: data)).map { _ in 1 } ?? 0 }
        func ms(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1e3) }
        func mbs(_ seconds: Double) -> String { String(format: "%.0f MB/s", Double(data.count) / seconds / 1e6) }
        print("release JSON parser, \(data.count) bytes (best of \(runs)): \(ms(strict)) (\(mbs(strict))); "
              + "JSONSerialization \(ms(floor)) (\(mbs(floor))); ratio \(String(format: "%.2f", strict / floor))× the floor; "
              + "JSONDecoder into JSONValue (the parser it replaces) \(ms(decoder)), \(String(format: "%.1f", decoder / strict))× slower")
        return sink == -1 ? 1 : 0  // uses every result, so no round is optimised away
    }
}
#endif
