/// Characters that draw nothing but change what text is: zero-width characters (an id or key that
/// looks like another but is not) and bidirectional controls (text that displays in another order
/// than it is stored: the "Trojan Source" trick, CVE-2021-42574).
public enum InvisibleCharacters {
    public static let bidiControls: Set<UInt32> = [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
    static let zeroWidth: Set<UInt32> = [0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD, 0x180E]

    static let names: [UInt32: String] = [
        0x200B: "ZERO WIDTH SPACE", 0x200C: "ZERO WIDTH NON-JOINER", 0x200D: "ZERO WIDTH JOINER", 0x2060: "WORD JOINER",
        0xFEFF: "ZERO WIDTH NO-BREAK SPACE", 0x00AD: "SOFT HYPHEN", 0x180E: "MONGOLIAN VOWEL SEPARATOR",
        0x202A: "LEFT-TO-RIGHT EMBEDDING", 0x202B: "RIGHT-TO-LEFT EMBEDDING", 0x202C: "POP DIRECTIONAL FORMATTING",
        0x202D: "LEFT-TO-RIGHT OVERRIDE", 0x202E: "RIGHT-TO-LEFT OVERRIDE", 0x2066: "LEFT-TO-RIGHT ISOLATE",
        0x2067: "RIGHT-TO-LEFT ISOLATE", 0x2068: "FIRST STRONG ISOLATE", 0x2069: "POP DIRECTIONAL ISOLATE",
    ]

    /// "U+202E RIGHT-TO-LEFT OVERRIDE".
    public static func name(_ scalar: Unicode.Scalar) -> String {
        "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4) + (names[scalar.value].map { " " + $0 } ?? "")
    }

    /// The offsets (in Unicode scalars) and scalars of the bidirectional controls in `text`. Text
    /// without the lead byte those controls share in UTF-8 (E2) is passed over at byte speed.
    public static func bidiControls(in text: String) -> [(offset: Int, scalar: Unicode.Scalar)] {
        guard text.utf8.contains(0xE2) else { return [] }
        return text.unicodeScalars.enumerated().filter { bidiControls.contains($0.element.value) }.map { ($0.offset, $0.element) }
    }

    /// A hint for an id or key holding an invisible character, or nil: "it contains U+200B ZERO
    /// WIDTH SPACE after 'ho', which draws nothing: delete it".
    public static func hint(for text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        guard let index = scalars.firstIndex(where: { zeroWidth.contains($0.value) || bidiControls.contains($0.value) }) else { return nil }
        var before = String.UnicodeScalarView()
        before.append(contentsOf: scalars[..<index])
        let place = index == 0 ? "at its start" : "after '\(String(before))'"
        return "it contains \(name(scalars[index])) \(place), which draws nothing but makes it a different name: delete it"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
