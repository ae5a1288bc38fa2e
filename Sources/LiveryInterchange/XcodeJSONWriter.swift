import LiveryEncoding

/// Writes JSON as Xcode writes String Catalogs and asset catalogs: keys sorted, two-space indent,
/// `" : "` between key and value (String Catalogs end without a newline; asset catalogs add one).
///
/// Writing the same bytes Xcode writes keeps diffs stable when a catalog goes back and forth between
/// `livery l10n export` and Xcode. The writer streams into one growing byte buffer: building a tree of
/// dictionaries first and printing it recursively was a quarter of a full build's time. The caller
/// emits each object's keys in Unicode scalar order (which for UTF-8 is byte order): fixed keys are
/// written in that order, and `sorted(_:)` orders the variable ones (keys, locales, plural categories).
public struct XcodeJSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// Per open object or array: whether a member has been written yet.
    private var hasMembers: [Bool] = []

    public init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Keys in the order Xcode writes them: by Unicode scalar value, compared in place.
    public static func sorted<S: Sequence<String>>(_ keys: S) -> [String] {
        keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The positions of `keys` in the order `sorted` puts them.
    public static func sortedPositions(_ keys: [String]) -> [Int] {
        keys.indices.sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
    }

    public mutating func beginObject() { begin(UInt8(ascii: "{")) }

    public mutating func endObject() { end(UInt8(ascii: "}")) }

    public mutating func beginArray() { begin(UInt8(ascii: "[")) }

    public mutating func endArray() { end(UInt8(ascii: "]")) }

    /// Starts a member of the innermost open object; its value follows.
    public mutating func key(_ name: String) {
        nextItem()
        JSONText.appendQuoted(name, to: &bytes)
        raw(" : ")
    }

    /// Starts an element of the innermost open array; its value follows.
    public mutating func element() { nextItem() }

    public mutating func string(_ value: String) { JSONText.appendQuoted(value, to: &bytes) }

    /// A string value given as UTF-8 bytes.
    public mutating func string(utf8 value: UnsafeBufferPointer<UInt8>) { JSONText.appendQuoted(utf8: value, to: &bytes) }

    /// `{"stringUnit" : {"state" : "translated", "value" : value}}` as the value of the member just
    /// started, byte for byte what `beginObject`, `key`, `member` and `endObject` write for it: a String
    /// Catalog holds one per string and plural variant, so it is written in one go.
    public mutating func translatedUnit(utf8 value: UnsafeBufferPointer<UInt8>) {
        let depth = hasMembers.count
        raw("{\n")
        indent(depth + 1)
        raw("\"stringUnit\" : {\n")
        indent(depth + 2)
        raw("\"state\" : \"translated\",\n")
        indent(depth + 2)
        raw("\"value\" : ")
        JSONText.appendQuoted(utf8: value, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        indent(depth + 1)
        raw("}\n")
        indent(depth)
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func int(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }

    /// Appends raw bytes (a final newline).
    public mutating func raw(_ byte: UInt8) { bytes.append(byte) }

    private mutating func begin(_ bracket: UInt8) {
        bytes.append(bracket)
        hasMembers.append(false)
    }

    private mutating func end(_ bracket: UInt8) {
        let nonEmpty = hasMembers.removeLast()
        // Xcode writes an empty object as "{", an empty line and "}".
        bytes.append(UInt8(ascii: "\n"))
        if !nonEmpty { bytes.append(UInt8(ascii: "\n")) }
        indent(hasMembers.count)
        bytes.append(bracket)
    }

    private mutating func nextItem() {
        if hasMembers[hasMembers.count - 1] { bytes.append(UInt8(ascii: ",")) }
        hasMembers[hasMembers.count - 1] = true
        bytes.append(UInt8(ascii: "\n"))
        indent(hasMembers.count)
    }

    /// `"name" : "value"` in the innermost open object.
    public mutating func member(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    private mutating func indent(_ level: Int) {
        // Two spaces a level, copied from one run of spaces (a catalog nests eight levels deep).
        let spaces: StaticString = "                                "
        var left = 2 * level
        while left > 0 {
            let count = min(left, spaces.utf8CodeUnitCount)
            spaces.withUTF8Buffer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<count])) }
            left -= count
        }
    }
}
