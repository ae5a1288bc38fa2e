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
            guard !members.isEmpty else { out += "{\n\n" + String(repeating: "  ", count: indent) + "}"; return }
            out += "{\n"
            let keys = members.keys.sorted { Array($0.unicodeScalars.map(\.value)).lexicographicallyPrecedes(Array($1.unicodeScalars.map(\.value))) }
            for (index, key) in keys.enumerated() {
                out += String(repeating: "  ", count: indent + 1)
                out += JSONText.quoted(key)
                out += " : "
                members[key]?.write(into: &out, indent: indent + 1)
                out += index == keys.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "}"
        }
    }
}
