import LiveryDiagnostics
import LiveryLoad
import LiveryMedia

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
        messages: [declare(PathMessage.empty), declare(PathMessage.absolute), declare(PathMessage.backslash), declare(PathMessage.url), declare(PathMessage.parent), declare(PathMessage.tenantFolder)],
        triggering: [
            RuleExample("parent folder", files: LogoExample.files("↓../other/logo.png")),
            RuleExample("absolute path", files: LogoExample.files("↓/etc/passwd.png")),
            RuleExample("URL", files: LogoExample.files("↓\"https://example.com/logo.png\"")),
            RuleExample("empty", files: LogoExample.files("↓\"\"")),
            RuleExample("backslash", files: LogoExample.files("↓'assets\\logo.png'")),
            RuleExample("the tenant folder itself", files: LogoExample.files("↓./")),
        ],
        nonTriggering: [RuleExample("relative path", files: LogoExample.files("assets/logo.png"), binaryFiles: ["example/assets/logo.png": RuleExample.pngBytes])])
}

struct SymlinkEscapeRule: CollectedRule {
    static let description = RuleDescription(
        id: PathRule.symlinkEscape, name: "Symbolic link escape", family: .assets,
        rationale: "A symbolic link must not lead out of the tenant folder, or a build could publish any file of the machine.",
        isSecurity: true,
        messages: [declare(PathMessage.escapes)],
        triggering: [RuleExample("link to a system file", files: LogoExample.files("↓assets/logo.png"), symlinks: ["example/assets/logo.png": "/etc/hostname"])],
        nonTriggering: [RuleExample("link inside the folder", files: LogoExample.files("assets/logo.png"),
                                    binaryFiles: ["example/assets/real.png": RuleExample.pngBytes], symlinks: ["example/assets/logo.png": "real.png"])])
}

struct MissingAssetRule: CollectedRule {
    static let description = RuleDescription(
        id: PathRule.missing, name: "Missing asset", family: .assets,
        rationale: "Every referenced file exists.",
        messages: [declare(PathMessage.missing), declare(PathMessage.brokenLink)],
        triggering: [
            RuleExample("missing logo", files: LogoExample.files("↓assets/logo.png")),
            RuleExample("a link to a file that is gone", files: LogoExample.files("↓assets/logo.png"), symlinks: ["example/assets/logo.png": "gone.png"]),
        ],
        nonTriggering: [RuleExample("present logo", files: LogoExample.files("assets/logo.png"), binaryFiles: ["example/assets/logo.png": RuleExample.pngBytes])])
}

struct NotRegularFileRule: CollectedRule {
    static let description = RuleDescription(
        id: PathRule.notRegularFile, name: "Regular file", family: .assets,
        rationale: "An asset is a regular file, not a folder or a device.",
        isSecurity: true,
        messages: [declare(PathMessage.notRegular)],
        triggering: [RuleExample("a folder", files: LogoExample.files("↓assets"), binaryFiles: ["example/assets/logo.png": RuleExample.pngBytes])],
        nonTriggering: [RuleExample("a file", files: LogoExample.files("assets/logo.png"), binaryFiles: ["example/assets/logo.png": RuleExample.pngBytes])])
}

struct FileTypeRule: CollectedRule {
    static let description = RuleDescription(
        id: AssetRule.fileType, name: "File type", family: .assets,
        rationale: "The type sniffed from a file's bytes matches its extension, so apps never try to decode text as an image.",
        messages: [declare(Message.wrongContent), declare(Message.noExtension)],
        triggering: [
            RuleExample("a PNG that is really text", files: LogoExample.files("↓assets/logo.png", ["example/assets/logo.png": "not an image\n"])),
            RuleExample("a JPEG named .png", files: LogoExample.files("↓assets/logo.png"), binaryFiles: ["example/assets/logo.png": [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]]),
            RuleExample("a logo without a file extension", files: LogoExample.files("↓assets/logo"), binaryFiles: ["example/assets/logo": RuleExample.pngBytes]),
        ],
        nonTriggering: [
            RuleExample("a real PNG", files: LogoExample.files("assets/logo.png"), binaryFiles: ["example/assets/logo.png": RuleExample.pngBytes]),
            RuleExample("an SVG", files: LogoExample.files("assets/logo.svg", ["example/assets/logo.svg": "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\" height=\"1\"/>\n"])),
        ])

    enum Message {
        static func wrongContent(path: String, ext: String, content: String) -> DiagnosticMessage {
            DiagnosticMessage("wrong-content", "'\(path)' is named .\(ext) but contains \(content)")
        }
        static func noExtension(path: String) -> DiagnosticMessage {
            DiagnosticMessage("no-extension", "'\(path)' has no known file extension")
        }
    }
}

struct FieldTypeRule: CollectedRule {
    static let description = RuleDescription(
        id: AssetRule.fieldType, name: "Accepted file type", family: .assets,
        rationale: "Each asset field accepts only the file types apps can use there (e.g. a logo is an image).",
        messages: [declare(Message.notAccepted)],
        triggering: [RuleExample("a PDF as the logo", files: LogoExample.files("↓assets/logo.pdf", ["example/assets/logo.pdf": "%PDF-1.4\n%%EOF\n"]))],
        nonTriggering: [RuleExample("a PNG logo", files: LogoExample.files("assets/logo.png"), binaryFiles: ["example/assets/logo.png": RuleExample.pngBytes])])

    enum Message {
        static func notAccepted(path: String, type: String, accepted: String) -> DiagnosticMessage {
            DiagnosticMessage("not-accepted", "'\(path)' is \(type), but this field accepts \(accepted)")
        }
    }
}

struct ImageHeaderRule: CollectedRule {
    static let description = RuleDescription(
        id: AssetRule.imageHeader, name: "Readable image header", family: .assets,
        rationale: "An image's header (PNG IHDR, JPEG frame header, WebP VP8/VP8L/VP8X, SVG size) says how big it is; an image whose header is cut short or contradicts its format fails to decode on a phone.",
        messages: [declare(Message.unreadable)],
        triggering: [
            RuleExample("a PNG cut short in its header", files: LogoExample.files("↓assets/logo.png"), binaryFiles: ["example/assets/logo.png": Array(RuleExample.pngBytes.prefix(20))]),
            RuleExample("a PNG claiming zero pixels", files: LogoExample.files("↓assets/logo.png"), binaryFiles: ["example/assets/logo.png": RuleExample.pngHeader(width: 0, height: 64)]),
            RuleExample("a JPEG without a frame header", files: LogoExample.files("↓assets/logo.jpg"), binaryFiles: ["example/assets/logo.jpg": [0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xD9]]),
        ],
        nonTriggering: [RuleExample("a real PNG", files: LogoExample.files("assets/logo.png"), binaryFiles: ["example/assets/logo.png": RuleExample.pngBytes])])

    enum Message {
        static func unreadable(path: String, type: String, failure: String) -> DiagnosticMessage {
            DiagnosticMessage("unreadable", "'\(path)' is not a readable \(type): it \(failure)")
        }
    }
}

struct ImagePixelsRule: CollectedRule {
    static let description = RuleDescription(
        id: AssetRule.imagePixels, name: "Image size in pixels", family: .assets,
        rationale: "A small file can declare a huge image (a decompression bomb): 30,000 × 30,000 pixels need 3.6 GB once decoded, and the app is killed. Images may declare at most 40 megapixels; the header is read, never the pixels.",
        isSecurity: true,
        messages: [declare(Message.tooManyPixels)],
        triggering: [RuleExample("30,000 × 30,000 pixels", files: LogoExample.files("↓assets/logo.png"), binaryFiles: ["example/assets/logo.png": RuleExample.pngHeader(width: 30_000, height: 30_000)])],
        nonTriggering: [RuleExample("8,000 × 5,000 pixels", files: LogoExample.files("assets/logo.png"), binaryFiles: ["example/assets/logo.png": RuleExample.pngHeader(width: 8_000, height: 5_000)])])

    enum Message {
        static func tooManyPixels(path: String, width: Int, height: Int, megapixels: String, megabytes: Int) -> DiagnosticMessage {
            DiagnosticMessage("too-many-pixels", "'\(path)' declares \(width) × \(height) pixels (\(megapixels) megapixels): decoding it would take about \(megabytes) MB on a phone")
        }
    }
}

struct MediaFramesRule: CollectedRule {
    static let description = RuleDescription(
        id: AssetRule.mediaFrames, name: "Whole audio and video", family: .assets,
        rationale: "Every audio and video file is walked frame by frame (MP3 frames and tags, WAV chunks, the MP4 box tree) without decoding it: a file cut short, with bytes that are not audio in the middle, or whose header promises more than it holds plays silence, stops early or seeks to the wrong place.",
        messages: [declare(Message.unreadable)],
        triggering: [
            RuleExample("an MP3 missing its second half", files: TourExample.markingFirstAudio(),
                        binaryFiles: TourExample.media.merging(["example/tours/walk/en.mp3": Array(MediaSamples.mp3(seconds: 8).prefix(MediaSamples.frameLength * 100 + 50))]) { _, new in new }),
            RuleExample("a second of garbage in the middle of an MP3", files: TourExample.markingFirstAudio(),
                        binaryFiles: TourExample.media.merging(["example/tours/walk/en.mp3": MediaSamples.mp3(seconds: 4) + [UInt8](repeating: 0x55, count: 4000) + MediaSamples.mp3(seconds: 4, xing: false)]) { _, new in new }),
        ],
        nonTriggering: [RuleExample("a whole MP3", files: TourExample.files(languages: "[en]"), binaryFiles: TourExample.media)])

    enum Message {
        static func unreadable(path: String, type: String, failure: String) -> DiagnosticMessage {
            DiagnosticMessage("unreadable", "'\(path)' is not a readable \(type): it \(failure)")
        }
    }
}

struct MediaStreamableRule: CollectedRule {
    static let description = RuleDescription(
        id: AssetRule.mediaStreamable, name: "Streamable video", family: .assets,
        rationale: "An MP4 whose index (the moov box) comes after its media data cannot start playing until all of it has downloaded; moving the index to the front (\"fast start\") changes no frame.",
        severity: .warning,
        messages: [declare(Message.indexAtEnd)],
        triggering: [RuleExample("the index at the end", files: LibraryVideoExample.files(media: "↓warm-up.mp4"),
                                 binaryFiles: ["example/library/warm-up.mp4": MediaSamples.mp4(seconds: 3, streamable: false)])],
        nonTriggering: [RuleExample("the index at the front", files: LibraryVideoExample.files(media: "warm-up.mp4"),
                                    binaryFiles: ["example/library/warm-up.mp4": MediaSamples.mp4(seconds: 3)])])

    enum Message {
        static func indexAtEnd(path: String) -> DiagnosticMessage {
            DiagnosticMessage("index-at-end", "'\(path)' keeps its index (the moov box) after the media data: a phone must download all of it before playing")
        }
    }
}

/// Example workspaces with one library video.
enum LibraryVideoExample {
    static func files(media: String, duration: String = "3", subtitles: String? = nil) -> [String: String] {
        var files = ["example/library/library.yaml": """
            items:
              - id: warm-up
                kind: video
                title: {en: Warm-up}
                durationSeconds: \(duration)
                media: {en: \(media)}

            """]
        if let subtitles {
            files["example/library/library.yaml"]! += "    subtitles: {en: warm-up.vtt}\n"
            files["example/library/warm-up.vtt"] = subtitles
        }
        return files
    }
}
