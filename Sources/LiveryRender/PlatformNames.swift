/// Token names as each platform spells them. Every platform file is generated from these, so a
/// name that is valid in one language is valid in all of them, and the same token is findable by
/// the same words everywhere.
public enum PlatformNames {
    /// Words of a token path below its category: `button.primary.background-pressed` →
    /// `[button, primary, background, pressed]`. Anything but ASCII letters and digits separates words,
    /// so names stay portable across compilers (`ñ` and emoji are dropped, not transliterated).
    public static func words(_ path: String) -> [String] {
        var words: [String] = [], current = ""
        for scalar in path.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                // A lower-to-upper change starts a word, so `brandPrimary` and `brand-primary` agree.
                if scalar.properties.isUppercase, let last = current.unicodeScalars.last, last.properties.isLowercase {
                    words.append(current)
                    current = ""
                }
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.lowercased() }
    }

    /// `brandPrimary`; a name starting with a digit gets a leading underscore (`_2xl`), which Swift,
    /// Kotlin and TypeScript all accept.
    public static func camelCase(_ words: [String]) -> String {
        guard let first = words.first else { return "_" }
        let name = first + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return name.first?.isNumber == true ? "_" + name : name
    }

    /// `BrandPrimary`, for types.
    public static func pascalCase(_ words: [String]) -> String {
        let name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return name.first?.isNumber == true ? "_" + name : (name.isEmpty ? "_" : name)
    }

    /// A Swift identifier: keywords in backticks (`` `default` ``).
    public static func swift(_ words: [String]) -> String {
        let name = camelCase(words)
        return swiftKeywords.contains(name) ? "`\(name)`" : name
    }

    /// A Kotlin identifier: hard keywords in backticks, which Kotlin allows (`` `object` ``).
    public static func kotlin(_ words: [String]) -> String {
        let name = camelCase(words)
        return kotlinKeywords.contains(name) ? "`\(name)`" : name
    }

    /// A TypeScript object key: the camelCase name (reserved words are valid property names in
    /// object literals and after a dot, so they need no escaping).
    public static func typeScript(_ words: [String]) -> String { camelCase(words) }

    /// A CSS custom property: `--color-brand-primary` (full path, lowercase, hyphens).
    public static func css(category: String, _ words: [String]) -> String {
        "--" + ([category] + words).joined(separator: "-")
    }

    /// An Android resource name: `color_brand_primary`. Resource names become Java fields in `R`,
    /// so they take the category as a prefix, which also keeps them clear of Java keywords and digits.
    public static func android(category: String, _ words: [String]) -> String {
        ([category] + words).joined(separator: "_")
    }

    static let swiftKeywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal",
        "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough",
        "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "as", "false", "is", "nil",
        "self", "super", "throws", "true", "try", "Any", "Self", "Type", "Protocol", "some", "any", "await", "async",
    ]

    static let kotlinKeywords: Set<String> = [
        "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface", "is", "null",
        "object", "package", "return", "super", "this", "throw", "true", "try", "typealias", "typeof", "val", "var", "when", "while",
    ]
}
