import Foundation
import XCTest

/// A Swift source reduced to what a length check needs: its words and punctuation, each with its line. Comments are
/// left out and the text of a string literal (plain, multi-line and raw, `#"…"#`) is one `"` token, so a brace in
/// them opens or closes nothing; the code of an interpolation (`\(…)`, `\#(…)`) is kept, as it is code.
struct SwiftTokens {
    struct Token {
        var text: String
        var line: Int
    }

    private(set) var tokens: [Token] = []
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1

    init(_ source: String) {
        bytes = Array(source.utf8)
        code(untilClosingParenthesis: false)
    }

    private func byte(_ offset: Int = 0) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private mutating func emit(from start: Int) {
        tokens.append(Token(text: String(decoding: bytes[start..<index], as: UTF8.self), line: line))
    }

    /// A string literal stands as one `"` token at its last line, so a declaration can tell it ends there.
    private mutating func literal() {
        tokens.append(Token(text: "\"", line: line))
    }

    /// Code up to the end of the file or, inside an interpolation, up to the parenthesis that closes it.
    private mutating func code(untilClosingParenthesis: Bool) {
        var parentheses = 0
        while let current = byte() {
            let start = index
            switch current {
            case UInt8(ascii: "\n"):
                line += 1
                index += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "/") where byte(1) == UInt8(ascii: "/"):
                while let next = byte(), next != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where byte(1) == UInt8(ascii: "*"):
                blockComment()
            case UInt8(ascii: "\""):
                string(hashes: 0)
                literal()
            case UInt8(ascii: "#"):
                var hashes = 0
                while byte(hashes) == UInt8(ascii: "#") { hashes += 1 }
                if byte(hashes) == UInt8(ascii: "\"") {
                    index += hashes
                    string(hashes: hashes)
                    literal()
                } else {
                    // A directive or a literal (`#if`, `#filePath`).
                    index += 1
                    while let next = byte(), Self.isWordByte(next) { index += 1 }
                    emit(from: start)
                }
            case UInt8(ascii: "`"):
                index += 1
                while let next = byte(), next != UInt8(ascii: "`"), next != UInt8(ascii: "\n") { index += 1 }
                index += 1
                emit(from: start)
            case UInt8(ascii: "("):
                if untilClosingParenthesis { parentheses += 1 }
                index += 1
                emit(from: start)
            case UInt8(ascii: ")"):
                index += 1
                if untilClosingParenthesis {
                    if parentheses == 0 { return }
                    parentheses -= 1
                }
                emit(from: start)
            case UInt8(ascii: "@") where byte(1).map(Self.isWordByte) ?? false:
                index += 1
                while let next = byte(), Self.isWordByte(next) { index += 1 }
                emit(from: start)
            case _ where Self.isWordByte(current):
                while let next = byte(), Self.isWordByte(next) { index += 1 }
                emit(from: start)
            default:
                index += 1
                emit(from: start)
            }
        }
    }

    /// Whether `count` `#`s follow at `offset`: the end of a raw string's delimiter or of its escape.
    private func hashesFollow(_ count: Int, at offset: Int) -> Bool {
        (0..<count).allSatisfy { byte(offset + $0) == UInt8(ascii: "#") }
    }

    /// A `/* … */` comment; they nest.
    private mutating func blockComment() {
        var depth = 0
        while let current = byte() {
            if current == UInt8(ascii: "/"), byte(1) == UInt8(ascii: "*") {
                depth += 1
                index += 2
            } else if current == UInt8(ascii: "*"), byte(1) == UInt8(ascii: "/") {
                depth -= 1
                index += 2
                if depth == 0 { return }
            } else {
                if current == UInt8(ascii: "\n") { line += 1 }
                index += 1
            }
        }
    }

    /// A string literal from its opening quote (after any `#`s of a raw string) to the end of its closing delimiter.
    private mutating func string(hashes: Int) {
        let quote = UInt8(ascii: "\"")
        let multiLine = byte(1) == quote && byte(2) == quote
        let quotes = multiLine ? 3 : 1
        index += quotes
        while let current = byte() {
            if current == UInt8(ascii: "\\"), hashesFollow(hashes, at: 1) {
                index += 1 + hashes
                if byte() == UInt8(ascii: "(") {
                    index += 1
                    code(untilClosingParenthesis: true)
                } else {
                    // The escaped character; a backslash at the end of a line of a multi-line string joins the lines.
                    if byte() == UInt8(ascii: "\n") { line += 1 }
                    index += 1
                }
            } else if current == quote, (0..<quotes).allSatisfy({ byte($0) == quote }), hashesFollow(hashes, at: quotes) {
                index += quotes + hashes
                return
            } else {
                if current == UInt8(ascii: "\n") { line += 1 }
                index += 1
            }
        }
    }
}

/// The bodies of a Swift file's functions, initializers, subscripts, and properties with accessors or a closure for
/// their value, each with the line of its keyword and the line of its closing brace. An accessor (`get`, `set`,
/// `didSet`) is inside its property's body, so it is never longer than the body measured.
struct SwiftBodies {
    struct Body: Equatable {
        /// The names of the enclosing types and functions and the declaration's own, joined by dots (`ReleaseInstaller.install`).
        var name: String
        var line: Int
        var lines: Int
    }

    private(set) var bodies: [Body] = []

    /// Keywords and modifiers that start the next declaration: a declaration that reaches one before a `{` has no body
    /// (a protocol's requirement, a stored property).
    static let declarationStarts: Set<String> = [
        "func", "var", "let", "init", "deinit", "subscript", "case", "struct", "class", "enum", "protocol", "actor", "extension",
        "typealias", "associatedtype", "import", "static", "public", "private", "fileprivate", "internal", "package", "open",
        "mutating", "nonmutating", "override", "final", "convenience", "required", "lazy", "weak", "unowned", "nonisolated",
        "indirect", "#if", "#else", "#elseif", "#endif",
    ]
    static let typeKeywords: Set<String> = ["struct", "class", "enum", "protocol", "actor", "extension"]
    static let operatorCharacters = Set("=+-*/%<>!&|^~?.:,([")

    private enum Scope {
        case type(String)
        case function(String)
        case code

        var isType: Bool {
            if case .type = self { true } else { false }
        }
        var name: String? {
            switch self {
            case .type(let name), .function(let name): name
            case .code: nil
            }
        }
    }

    init(_ source: String) {
        let tokens = SwiftTokens(source).tokens
        var declared: [Int: (name: String, keyword: Int, isType: Bool)] = [:]
        var scopes: [Scope] = []
        var closing: [Int: Int] = [:]
        var open: [Int] = []
        for (index, token) in tokens.enumerated() {
            if token.text == "{" { open.append(index) }
            if token.text == "}", let opening = open.popLast() { closing[opening] = index }
        }
        for (index, token) in tokens.enumerated() {
            switch token.text {
            case "{":
                if let declaration = declared[index] {
                    scopes.append(declaration.isType ? .type(declaration.name) : .function(declaration.name))
                    if !declaration.isType, let end = closing[index] {
                        bodies.append(Body(name: scopes.compactMap(\.name).joined(separator: "."), line: tokens[declaration.keyword].line,
                                           lines: tokens[end].line - tokens[declaration.keyword].line + 1))
                    }
                } else {
                    scopes.append(.code)
                }
            case "}":
                _ = scopes.popLast()
            case _ where Self.typeKeywords.contains(token.text):
                // A type's name follows its keyword (not `class func`, not a variable called `actor`).
                guard index + 1 < tokens.count, !Self.declarationStarts.contains(tokens[index + 1].text),
                      tokens[index + 1].text.first.map({ $0.isLetter || $0 == "_" }) ?? false,
                      index == 0 || (tokens[index - 1].text != "import" && tokens[index - 1].text != "."),
                      let (name, brace) = Self.typeBody(tokens, after: index) else { continue }
                declared[brace] = (name, index, true)
            case "func", "init", "subscript", "deinit":
                guard index == 0 || tokens[index - 1].text != "." else { continue }
                let (name, end) = Self.functionName(tokens, at: index)
                guard let brace = Self.body(tokens, after: end) else { continue }
                declared[brace] = (name, index, false)
            case "var", "let":
                // Properties of a type or of the file; a local variable is measured with the function around it.
                guard scopes.last?.isType ?? true, index + 1 < tokens.count, let brace = Self.propertyBody(tokens, after: index + 1) else { continue }
                declared[brace] = (tokens[index + 1].text, index, false)
            default:
                continue
            }
        }
    }

    /// The declaration's name and the index of its last token (the keyword's for `init`, `subscript` and `deinit`).
    private static func functionName(_ tokens: [SwiftTokens.Token], at keyword: Int) -> (String, Int) {
        guard tokens[keyword].text == "func" else { return (tokens[keyword].text, keyword) }
        // An operator's name is several punctuation tokens.
        var name = ""
        var index = keyword + 1
        while index < tokens.count, tokens[index].text != "(", tokens[index].text != "<" || name.isEmpty {
            name += tokens[index].text
            index += 1
        }
        return (name, index - 1)
    }

    /// A type's name (an extension's may have dots) and the index of the brace that opens its body.
    private static func typeBody(_ tokens: [SwiftTokens.Token], after keyword: Int) -> (String, Int)? {
        var name = ""
        var index = keyword + 1
        while index < tokens.count, tokens[index].text == "." || name.isEmpty || name.hasSuffix(".") {
            name += tokens[index].text
            index += 1
        }
        guard let brace = body(tokens, after: index - 1) else { return nil }
        return (name, brace)
    }

    /// The brace opening the body of the declaration whose name ends at `name`, or nil if it has none.
    private static func body(_ tokens: [SwiftTokens.Token], after name: Int) -> Int? {
        var depth = 0
        for index in (name + 1)..<tokens.count {
            switch tokens[index].text {
            case "(", "[": depth += 1
            case ")", "]": depth -= 1
            case "{" where depth == 0: return index
            case "}" where depth == 0: return nil
            case let text where depth == 0 && declarationStarts.contains(text): return nil
            default: continue
            }
        }
        return nil
    }

    /// The brace opening a property's accessors or the closure that makes its value, or nil for a stored property whose
    /// declaration ends (at a line that does not continue it) before any brace. `name` is the index of the property's name.
    private static func propertyBody(_ tokens: [SwiftTokens.Token], after name: Int) -> Int? {
        var depth = 0
        for index in (name + 1)..<tokens.count {
            let text = tokens[index].text
            if depth == 0, tokens[index].line > tokens[index - 1].line,
               !operatorCharacters.contains(tokens[index - 1].text.last!), !operatorCharacters.contains(text.first!) {
                return nil
            }
            switch text {
            case "(", "[": depth += 1
            case ")", "]": depth -= 1
            case "{" where depth == 0: return index
            case "}" where depth == 0: return nil
            case _ where depth == 0 && declarationStarts.contains(text): return nil
            default: continue
            }
        }
        return nil
    }
}

/// No function in Sources/ is longer than `FunctionLengthTests.limit` lines (issue 34): a long function is split into
/// named steps. Generated tables are the exception, each listed with the reason.
final class FunctionLengthTests: XCTestCase {
    /// Lines from a declaration's keyword to its closing brace, both counted.
    static let limit = 80

    /// Bodies that may be longer, as `path: name`; each must still be long, so that the list only shrinks.
    static let allowed: Set<String> = [
        // A table of preview phrases, one entry a line for each key and language: data, not steps.
        "Sources/LiveryRender/PreviewWords.swift: PreviewWords.phrases",
    ]

    func testNoFunctionInSourcesIsLongerThanTheLimit() throws {
        let root = LiveryProcess.packageRoot
        let sources = root.appendingPathComponent("Sources")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            .map { $0.path.replacingOccurrences(of: root.path + "/", with: "") }.sorted()
        XCTAssertGreaterThan(files.count, 100, "the scan found Sources/")
        var tooLong: [String] = []
        var stillLong: Set<String> = []
        for file in files {
            let source = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for body in SwiftBodies(source).bodies where body.lines > Self.limit {
                let key = "\(file): \(body.name)"
                if Self.allowed.contains(key) {
                    stillLong.insert(key)
                } else {
                    tooLong.append("\(file):\(body.line) \(body.name) (\(body.lines) lines)")
                }
            }
        }
        XCTAssert(tooLong.isEmpty, "longer than \(Self.limit) lines: split into named steps\n" + tooLong.joined(separator: "\n"))
        let stale = Self.allowed.subtracting(stillLong)
        XCTAssert(stale.isEmpty, "no longer over \(Self.limit) lines (or gone): remove from the list\n" + stale.sorted().joined(separator: "\n"))
    }

    /// Braces in comments and in every kind of string literal count for nothing; those in interpolations and nested
    /// functions do.
    func testMeasuresBodiesPastBracesInStringsAndComments() {
        let source = #"""
        struct Table {
            // } a brace in a comment
            func plain() -> String {
                /* } nested /* } */ } */
                let text = "}\(["a": "}"].count)}"
                return text + """
                    }
                    \("}")
                    """
            }
            var computed: Int {
                get { #"}\"# .count }
            }
            static let made: [Int] = {
                [1, 2]
            }()
            let stored = 1
            func requirement()
        }
        extension Table.Inner {
            init() {
                func step() {}
            }
            static func open() -> Int {
                1
            }
        }
        """#
        XCTAssertEqual(SwiftBodies(source).bodies, [
            .init(name: "Table.plain", line: 3, lines: 8),
            .init(name: "Table.computed", line: 11, lines: 3),
            .init(name: "Table.made", line: 14, lines: 3),
            .init(name: "Table.Inner.init", line: 21, lines: 3),
            .init(name: "Table.Inner.init.step", line: 22, lines: 1),
            .init(name: "Table.Inner.open", line: 24, lines: 3),
        ])
    }
}
