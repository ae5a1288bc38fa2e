import LiveryLoad

/// JSON as Xcode writes String Catalogs: keys sorted, two-space indent, `" : "` between key and value.
///
/// Writing the same bytes Xcode writes keeps diffs stable when a catalog goes back and forth
/// between `livery l10n export` and Xcode.
indirect enum XcodeJSON: Equatable {
    case string(String)
    case int(Int)
    case object([String: XcodeJSON])

    /// The document text (Xcode ends the file without a newline).
    var text: String {
        var out = ""
        write(into: &out, indent: 0)
        return out
    }

    private func write(into out: inout String, indent: Int) {
        switch self {
        case .string(let s): out += JSONText.quoted(s)
        case .int(let n): out += String(n)
        case .object(let members):
            guard !members.isEmpty else { out += "{\n\n" + Self.indentation(indent) + "}"; return }
            out += "{\n"
            // By Unicode scalar value, which for UTF-8 is byte order: compared in place, without copying.
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                out += Self.indentation(indent + 1)
                out += JSONText.quoted(key)
                out += " : "
                members[key]?.write(into: &out, indent: indent + 1)
                out += index == keys.count - 1 ? "\n" : ",\n"
            }
            out += Self.indentation(indent) + "}"
        }
    }

    private static let indentations = (0..<16).map { String(repeating: "  ", count: $0) }

    private static func indentation(_ level: Int) -> String {
        level < indentations.count ? indentations[level] : String(repeating: "  ", count: level)
    }
}
