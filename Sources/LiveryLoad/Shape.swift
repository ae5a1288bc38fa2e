import Foundation

/// The declared shape of a manifest value: one description that drives both structural
/// validation (with located diagnostics) and the published JSON Schema, so the two never drift.
public indirect enum Shape: Sendable {
    case string(StringFormat = .text)
    case integer(min: Int? = nil, max: Int? = nil)
    case number(min: Double? = nil, max: Double? = nil)
    case boolean
    case choice([String])
    case list(Shape, minItems: Int = 0)
    case object(ObjectShape)
    /// A mapping whose keys follow a format and whose values all have one shape.
    case dictionary(key: StringFormat, value: Shape)
    /// A path to a file inside the tenant folder, relative to the manifest, of one of the given types.
    case asset([FileType])
    /// Anything (for `$extensions`-style pass-through data).
    case any
}

/// Formats a string value must match.
public enum StringFormat: String, Sendable, CaseIterable {
    case text
    case slug
    case locale
    case messageKey
    case hexColor
    case colorOrTokenReference
    case version
    case bundleID
    case applicationID
    case currency
    case tokenReference
    case featureName
    case channel
    case dateTime

    /// A human description for messages and JSON Schema docs.
    public var summary: String {
        switch self {
        case .text: return "text"
        case .slug: return "a slug (lowercase letters, digits and single hyphens, e.g. 'city-walk-2')"
        case .locale: return "a locale identifier such as 'en', 'pt-BR' or 'zh-Hans'"
        case .messageKey: return "a message key such as 'nav.home' (letters, digits, '_', '-', dot-separated)"
        case .hexColor: return "a hex colour such as '#0066CC'"
        case .colorOrTokenReference: return "a hex colour such as '#0066CC' or a token reference such as '{color.tab.home}'"
        case .version: return "a semantic version such as '2.4.0'"
        case .bundleID: return "a reverse-DNS bundle identifier such as 'com.example.app'"
        case .applicationID: return "an Android application id such as 'com.example.app' (two or more segments, each a letter, then letters, digits and '_')"
        case .currency: return "an ISO 4217 currency code such as 'INR'"
        case .tokenReference: return "a token reference such as '{color.brand.primary}'"
        case .featureName: return "a feature name (letters, digits, '_' and '-')"
        case .channel: return "a release channel name such as 'stable', 'beta' or 'qa-team' (a lower-case letter, then lower-case letters, digits and '-', at most 32)"
        case .dateTime: return "a date and time with its UTC offset (RFC 3339), such as '2027-01-04T06:00:00+01:00' or '2027-01-04T05:00:00Z'"
        }
    }

    /// The regular expression of the format (ECMA-262 compatible, used in JSON Schema too).
    public var pattern: String? {
        switch self {
        case .text: return nil
        case .slug: return "^[a-z0-9]+(-[a-z0-9]+)*$"
        case .locale: return "^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|[0-9]{3}))?$"
        case .messageKey: return "^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$"
        case .hexColor: return "^#([0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$"
        case .colorOrTokenReference: return "^(#([0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})|\\{[^{}]+\\})$"
        case .version: return "^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)$"
        case .bundleID: return "^[A-Za-z][A-Za-z0-9-]*(\\.[A-Za-z0-9-]+)+$"
        case .applicationID: return "^[A-Za-z][A-Za-z0-9_]*(\\.[A-Za-z][A-Za-z0-9_]*)+$"
        case .currency: return "^[A-Z]{3}$"
        case .tokenReference: return "^\\{[^{}]+\\}$"
        case .featureName: return "^[A-Za-z0-9_-]+$"
        case .channel: return "^[a-z][a-z0-9-]{0,31}$"
        case .dateTime: return "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$"
        }
    }

    /// Whether `value` matches the format.
    ///
    /// The formats checked on every key of every locale bundle are matched byte by byte; the rest use
    /// their `pattern`, compiled once. A test checks both agree with `pattern` on many inputs.
    public func matches(_ value: String) -> Bool {
        switch self {
        case .text: return true
        case .slug: return Self.isSlug(value.utf8)
        case .messageKey: return Self.isMessageKey(value.utf8)
        case .featureName: return !value.isEmpty && value.utf8.allSatisfy(Self.isWordByte)
        // The pattern is the shape JSON Schema users get; the parser also refuses days and times that do not exist.
        case .dateTime: return ScheduleDate.parse(value) != nil
        default:
            guard let regex = Self.compiled[self] else { return true }
            let range = NSRange(value.startIndex..<value.endIndex, in: value)
            return regex.firstMatch(in: value, options: [], range: range) != nil
        }
    }

    private static let compiled: [StringFormat: NSRegularExpression] = Dictionary(uniqueKeysWithValues: allCases.compactMap { format in
        format.pattern.flatMap { try? NSRegularExpression(pattern: $0) }.map { (format, $0) }
    })

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x5F || byte == 0x2D
    }

    /// `^[a-z0-9]+(-[a-z0-9]+)*$`
    static func isSlug(_ bytes: String.UTF8View) -> Bool {
        var previousWasHyphen = true
        for byte in bytes {
            if byte == 0x2D {
                if previousWasHyphen { return false }
                previousWasHyphen = true
            } else if (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x7A) {
                previousWasHyphen = false
            } else {
                return false
            }
        }
        return !previousWasHyphen
    }

    /// `^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$`
    static func isMessageKey(_ bytes: String.UTF8View) -> Bool {
        var segmentLength = 0
        for byte in bytes {
            if byte == 0x2E {
                if segmentLength == 0 { return false }
                segmentLength = 0
            } else if isWordByte(byte) {
                segmentLength += 1
            } else {
                return false
            }
        }
        return segmentLength > 0
    }
}

/// The fields of an object, in the order documentation shows them.
public struct ObjectShape: Sendable {
    public var fields: [Field]
    public var description: String?

    public init(_ description: String? = nil, _ fields: [Field]) {
        self.description = description
        self.fields = fields
    }

    public func field(_ name: String) -> Field? { fields.first { $0.name == name } }
}

/// One field of an object shape.
public struct Field: Sendable {
    public var name: String
    public var shape: Shape
    public var required: Bool
    public var description: String

    public static func required(_ name: String, _ shape: Shape, _ description: String) -> Field {
        Field(name: name, shape: shape, required: true, description: description)
    }

    public static func optional(_ name: String, _ shape: Shape, _ description: String) -> Field {
        Field(name: name, shape: shape, required: false, description: description)
    }
}
