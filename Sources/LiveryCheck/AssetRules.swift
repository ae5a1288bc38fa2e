import LiveryDiagnostics
import LiveryLoad

/// Example workspaces whose tenant manifest sets `assets.logo`.
enum LogoExample {
    static func files(_ logo: String, _ extra: [String: String] = [:]) -> [String: String] {
        var files = extra
        files["example/tenant.yaml"] = RuleExample.tenant(appending: "assets:\n  logo: \(logo)\n")
        return files
    }
}

struct AssetPathRule: CollectedRule {
    static let description = RuleDescription(
        id: PathRule.path, name: "Asset path", family: .assets,
        rationale: "Asset paths are relative and stay inside the tenant folder: no '..', no absolute paths, no URLs.",
        isSecurity: true,
        triggering: [
            RuleExample("parent folder", files: LogoExample.files("↓../other/logo.png")),
            RuleExample("absolute path", files: LogoExample.files("↓/etc/passwd.png")),
            RuleExample("URL", files: LogoExample.files("↓\"https://example.com/logo.png\"")),
        ],
        nonTriggering: [RuleExample("relative path", files: LogoExample.files("assets/logo.png"), binaryFiles: ["example/assets/logo.png": RuleExample.pngBytes])])
}

struct SymlinkEscapeRule: CollectedRule {
    static let description = RuleDescription(
        id: PathRule.symlinkEscape, name: "Symbolic link escape", family: .assets,
        rationale: "A symbolic link must not lead out of the tenant folder, or a build could publish any file of the machine.",
        isSecurity: true,
        triggering: [RuleExample("link to a system file", files: LogoExample.files("↓assets/logo.png"), symlinks: ["example/assets/logo.png": "/etc/hostname"])],
        nonTriggering: [RuleExample("link inside the folder", files: LogoExample.files("assets/logo.png"),
                                    binaryFiles: ["example/assets/real.png": RuleExample.pngBytes], symlinks: ["example/assets/logo.png": "real.png"])])
}

struct MissingAssetRule: CollectedRule {
    static let description = RuleDescription(
        id: PathRule.missing, name: "Missing asset", family: .assets,
        rationale: "Every referenced file exists.",
        triggering: [RuleExample("missing logo", files: LogoExample.files("↓assets/logo.png"))],
        nonTriggering: [RuleExample("present logo", files: LogoExample.files("assets/logo.png"), binaryFiles: ["example/assets/logo.png": RuleExample.pngBytes])])
}

struct NotRegularFileRule: CollectedRule {
    static let description = RuleDescription(
        id: PathRule.notRegularFile, name: "Regular file", family: .assets,
        rationale: "An asset is a regular file, not a folder or a device.",
        isSecurity: true,
        triggering: [RuleExample("a folder", files: LogoExample.files("↓assets"), binaryFiles: ["example/assets/logo.png": RuleExample.pngBytes])],
        nonTriggering: [RuleExample("a file", files: LogoExample.files("assets/logo.png"), binaryFiles: ["example/assets/logo.png": RuleExample.pngBytes])])
}

struct FileTypeRule: CollectedRule {
    static let description = RuleDescription(
        id: AssetRule.fileType, name: "File type", family: .assets,
        rationale: "The type sniffed from a file's bytes matches its extension, so apps never try to decode text as an image.",
        triggering: [
            RuleExample("a PNG that is really text", files: LogoExample.files("↓assets/logo.png", ["example/assets/logo.png": "not an image\n"])),
            RuleExample("a JPEG named .png", files: LogoExample.files("↓assets/logo.png"), binaryFiles: ["example/assets/logo.png": [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]]),
        ],
        nonTriggering: [
            RuleExample("a real PNG", files: LogoExample.files("assets/logo.png"), binaryFiles: ["example/assets/logo.png": RuleExample.pngBytes]),
            RuleExample("an SVG", files: LogoExample.files("assets/logo.svg", ["example/assets/logo.svg": "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\" height=\"1\"/>\n"])),
        ])
}

struct FieldTypeRule: CollectedRule {
    static let description = RuleDescription(
        id: AssetRule.fieldType, name: "Accepted file type", family: .assets,
        rationale: "Each asset field accepts only the file types apps can use there (e.g. a logo is an image).",
        triggering: [RuleExample("a PDF as the logo", files: LogoExample.files("↓assets/logo.pdf", ["example/assets/logo.pdf": "%PDF-1.4\n%%EOF\n"]))],
        nonTriggering: [RuleExample("a PNG logo", files: LogoExample.files("assets/logo.png"), binaryFiles: ["example/assets/logo.png": RuleExample.pngBytes])])
}

struct ImageHeaderRule: CollectedRule {
    static let description = RuleDescription(
        id: AssetRule.imageHeader, name: "Readable image header", family: .assets,
        rationale: "An image's header (PNG IHDR, JPEG frame header, WebP VP8/VP8L/VP8X, SVG size) says how big it is; an image whose header is cut short or contradicts its format fails to decode on a phone.",
        triggering: [
            RuleExample("a PNG cut short in its header", files: LogoExample.files("↓assets/logo.png"), binaryFiles: ["example/assets/logo.png": Array(RuleExample.pngBytes.prefix(20))]),
            RuleExample("a PNG claiming zero pixels", files: LogoExample.files("↓assets/logo.png"), binaryFiles: ["example/assets/logo.png": RuleExample.pngHeader(width: 0, height: 64)]),
            RuleExample("a JPEG without a frame header", files: LogoExample.files("↓assets/logo.jpg"), binaryFiles: ["example/assets/logo.jpg": [0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xD9]]),
        ],
        nonTriggering: [RuleExample("a real PNG", files: LogoExample.files("assets/logo.png"), binaryFiles: ["example/assets/logo.png": RuleExample.pngBytes])])
}

struct ImagePixelsRule: CollectedRule {
    static let description = RuleDescription(
        id: AssetRule.imagePixels, name: "Image size in pixels", family: .assets,
        rationale: "A small file can declare a huge image (a decompression bomb): 30,000 × 30,000 pixels need 3.6 GB once decoded, and the app is killed. Images may declare at most 40 megapixels; the header is read, never the pixels.",
        isSecurity: true,
        triggering: [RuleExample("30,000 × 30,000 pixels", files: LogoExample.files("↓assets/logo.png"), binaryFiles: ["example/assets/logo.png": RuleExample.pngHeader(width: 30_000, height: 30_000)])],
        nonTriggering: [RuleExample("8,000 × 5,000 pixels", files: LogoExample.files("assets/logo.png"), binaryFiles: ["example/assets/logo.png": RuleExample.pngHeader(width: 8_000, height: 5_000)])])
}
