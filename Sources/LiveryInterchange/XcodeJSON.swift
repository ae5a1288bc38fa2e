import LiveryLoad

/// Writes JSON as Xcode writes String Catalogs: keys sorted, two-space indent, `" : "` between key and
/// value, no newline at the end of the file.
///
/// Writing the same bytes Xcode writes keeps diffs stable when a catalog goes back and forth between
/// `livery l10n export` and Xcode. The writer streams into one growing byte buffer: building a tree of
/// dictionaries first and printing it recursively was a quarter of a full build's time. The caller
/// emits each object's keys in Unicode scalar order (which for UTF-8 is byte order): fixed keys are
/// written in that order, and `sorted(_:)` orders the variable ones (keys, locales, plural categories).
struct XcodeJSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Per open object: whether a member has been written yet.
    private var hasMembers: [Bool] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// Keys in the order Xcode writes them: by Unicode scalar value, compared in place.
    static func sorted<S: Sequence<String>>(_ keys: S) -> [String] {
        keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        hasMembers.append(false)
    }

    mutating func endObject() {
        let nonEmpty = hasMembers.removeLast()
        // Xcode writes an empty object as "{", an empty line and "}".
        bytes.append(UInt8(ascii: "\n"))
        if !nonEmpty { bytes.append(UInt8(ascii: "\n")) }
        indent(hasMembers.count)
        bytes.append(UInt8(ascii: "}"))
    }

    /// Starts a member of the innermost open object; its value follows.
    mutating func key(_ name: String) {
        if hasMembers[hasMembers.count - 1] { bytes.append(UInt8(ascii: ",")) }
        hasMembers[hasMembers.count - 1] = true
        bytes.append(UInt8(ascii: "\n"))
        indent(hasMembers.count)
        JSONText.appendQuoted(name, to: &bytes)
        bytes.append(contentsOf: Self.separator)
    }

    mutating func string(_ value: String) { JSONText.appendQuoted(value, to: &bytes) }

    mutating func int(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }

    /// `"name" : "value"` in the innermost open object.
    mutating func member(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    private static let separator = Array(" : ".utf8)

    private mutating func indent(_ level: Int) {
        for _ in 0..<level { bytes.append(UInt8(ascii: " ")); bytes.append(UInt8(ascii: " ")) }
    }
}
