/// A small workspace of tenant folders on which a rule is (or is not) expected to report.
///
/// Files are keyed by path under `Tenants/`. Unless `replacesBase` is set, they are laid over
/// `RuleExample.base`, a minimal valid tenant named `example`. A `↓` in a text file marks the
/// exact line and column where the finding must be reported; it is removed before writing.
public struct RuleExample: Sendable {
    public var files: [String: String]
    public var binaryFiles: [String: [UInt8]]
    /// Symbolic links to create: path under `Tenants/` → link target as written.
    public var symlinks: [String: String]
    public var removes: [String]
    public var note: String
    /// Where the example is written, so a failing example points at itself rather than at the test.
    public var sourceFile: StaticString
    public var sourceLine: UInt

    public init(_ note: String, files: [String: String] = [:], binaryFiles: [String: [UInt8]] = [:], symlinks: [String: String] = [:], removes: [String] = [],
                sourceFile: StaticString = #filePath, sourceLine: UInt = #line) {
        self.note = note
        self.sourceFile = sourceFile
        self.sourceLine = sourceLine
        self.files = files
        self.binaryFiles = binaryFiles
        self.symlinks = symlinks
        self.removes = removes
    }

    /// The minimal valid tenant every example starts from.
    public static let base: [String: String] = [
        "example/tenant.yaml": """
            id: example
            kind: brand
            name: Example
            locales:
              default: en
              supported: [en]
            navigation:
              tabs:
                - {id: home, icon: house, label: nav.home}
                - {id: profile, icon: person, label: nav.profile}

            """,
        "example/locales/en.yaml": """
            nav:
              home: Home
              profile: Profile

            """,
    ]

    /// The minimal tenant manifest with extra lines appended (at top level).
    public static func tenant(appending lines: String) -> String {
        base["example/tenant.yaml"]! + lines
    }

    /// 1×1 PNG bytes, for examples that need a real image.
    /// A PNG's signature and header chunk claiming `width` × `height` pixels, then its end: what
    /// the image probe reads (no decoder ever sees these bytes in a check).
    public static func pngHeader(width: Int, height: Int) -> [UInt8] {
        func be(_ value: Int) -> [UInt8] { [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + Array("IHDR".utf8) + be(width) + be(height) + [8, 6, 0, 0, 0]
            + [0, 0, 0, 0] + be(0) + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
    }

    public static let pngBytes: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
        0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0,
        0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF, 0x89, 0x99, 0x3D, 0x1D, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
        0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]
}
