import Foundation

/// What a voucher unlocks: one tour, program, library item or library pack of a tenant. Written
/// `<kind>:<id>` (`tour:rome-trastevere`, `program:strength-8`, `library-item:guide`, `pack:basics`)
/// in tokens, the voucher database and the redemption answer. A bare id with no kind is a tour:
/// that is how vouchers were written before other kinds could be protected, so older databases and
/// tokens keep their meaning.
public struct VoucherSubject: Sendable, Hashable, Comparable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable, Comparable {
        case tour
        case program
        case libraryItem = "library-item"
        case pack

        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }

        /// How `livery vouchers` and the docs name it.
        public var noun: String {
            switch self {
            case .tour: return "tour"
            case .program: return "program"
            case .libraryItem: return "library item"
            case .pack: return "library pack"
            }
        }
    }

    public var kind: Kind
    public var id: String

    public init(_ kind: Kind, _ id: String) {
        self.kind = kind
        self.id = id
    }

    /// Parses `<kind>:<id>`, or a bare id (a tour); nil for an unknown kind or an empty id.
    public init?(_ text: String) {
        guard let colon = text.firstIndex(of: ":") else {
            guard !text.isEmpty else { return nil }
            self.init(.tour, text)
            return
        }
        guard let kind = Kind(rawValue: String(text[..<colon])) else { return nil }
        let id = String(text[text.index(after: colon)...])
        guard !id.isEmpty, !id.contains(":") else { return nil }
        self.init(kind, id)
    }

    /// The subject a bundle belongs to, from its manifest entry: tours and tour languages by their
    /// tour, a program by its id, a library bundle by its id (`library.<pack>` is a pack,
    /// `library-item.<item>` an item on its own). Core and locales belong to none.
    public init?(bundle id: String, kind: BundleKind?, subject: String?) {
        switch kind {
        case .tour, .tourLanguage:
            guard let subject else { return nil }
            self.init(.tour, subject)
        case .program:
            guard let subject else { return nil }
            self.init(.program, subject)
        case .libraryPack:
            if id.hasPrefix("library-item.") {
                self.init(.libraryItem, String(id.dropFirst("library-item.".count)))
            } else if id.hasPrefix("library.") {
                self.init(.pack, String(id.dropFirst("library.".count)))
            } else {
                return nil
            }
        default:
            return nil
        }
    }

    public var description: String { "\(kind.rawValue):\(id)" }

    public static func < (a: VoucherSubject, b: VoucherSubject) -> Bool { (a.kind, a.id) < (b.kind, b.id) }
}
