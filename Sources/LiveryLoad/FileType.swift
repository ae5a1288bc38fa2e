import Foundation

/// The kinds of asset file Livery knows, each recognised from its bytes rather than its name.
public enum FileType: String, Sendable, CaseIterable, Codable {
    case png, jpeg, webp, gif, svg, mp3, mp4, wav, pdf, gpx, srt, vtt, mbtiles, markdown, ttf, otf, woff2

    /// File name extensions that claim this type (lowercase, without the dot).
    public var extensions: [String] {
        switch self {
        case .png: return ["png"]
        case .jpeg: return ["jpg", "jpeg"]
        case .webp: return ["webp"]
        case .gif: return ["gif"]
        case .svg: return ["svg"]
        case .mp3: return ["mp3"]
        case .mp4: return ["mp4", "m4v", "m4a", "mov"]
        case .wav: return ["wav"]
        case .pdf: return ["pdf"]
        case .gpx: return ["gpx"]
        case .srt: return ["srt"]
        case .vtt: return ["vtt"]
        case .mbtiles: return ["mbtiles"]
        case .markdown: return ["md", "markdown"]
        case .ttf: return ["ttf"]
        case .otf: return ["otf"]
        case .woff2: return ["woff2"]
        }
    }

    /// The type a file name claims by its extension, if any.
    public init?(extensionOf path: String) {
        let ext = (path as NSString).pathExtension.lowercased()
        guard let match = FileType.allCases.first(where: { $0.extensions.contains(ext) }) else { return nil }
        self = match
    }

    /// Already-compressed media, which archives store rather than deflate.
    public var isCompressed: Bool {
        switch self {
        case .png, .jpeg, .webp, .gif, .mp3, .mp4, .woff2: return true
        default: return false
        }
    }

    public static let images: [FileType] = [.png, .jpeg, .webp, .gif, .svg]
    public static let rasterImages: [FileType] = [.png, .jpeg, .webp, .gif]
    public static let fonts: [FileType] = [.ttf, .otf, .woff2]
    /// Audio and video that `MediaProbe` measures.
    public static let media: [FileType] = [.mp3, .wav, .mp4]
}
