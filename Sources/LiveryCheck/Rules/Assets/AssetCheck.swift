import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryMedia
import LiveryParallel

/// Rule ids of findings about asset file contents.
public enum AssetRule {
    public static let fileType: RuleID = "assets.file-type"
    public static let fieldType: RuleID = "assets.field-type"
    public static let imageHeader: RuleID = "assets.image-header"
    public static let imagePixels: RuleID = "assets.image-pixels"
    public static let mediaFrames: RuleID = "assets.media-frames"
    public static let mediaStreamable: RuleID = "assets.media-streamable"
}

/// Resolves every asset reference of a tenant once: path safety, existence, and the real type
/// sniffed from the bytes against the extension and against what the field accepts.
public enum AssetCheck {
    static func run(_ source: TenantSource, media measurements: MediaMeasurements = MediaMeasurements(), limits: MediaLimits = .default) -> [Diagnostic] {
        // A frame walk reads a whole recording: the tenant's audio and video (those whose bytes are
        // what their name says) are measured on every core first, and the loop below finds them measured.
        // Their sniffed types are kept for the loop, which would otherwise read their heads again.
        var sniffed: [String: FileType?] = [:]
        var media: [(URL, FileType)] = []
        for reference in source.assets {
            guard let type = FileType(extensionOf: reference.path), FileType.media.contains(type),
                  case .success(let relative) = TenantPath.normalize(reference.path, baseDirectory: reference.baseDirectory),
                  sniffed[relative] == nil, case .success(let url) = source.paths.regularFile(relative) else { continue }
            let actual = FileSniffer.sniff(fileAt: url)
            sniffed[relative] = .some(actual)
            if actual == type { media.append((url, type)) }
        }
        _ = ParallelMap.map(media) { file in measurements.measure(file.0, as: file.1) != nil }
        var diagnostics: [Diagnostic] = []
        var probed: [String: Bool] = [:]
        for reference in source.assets {
            let relative: String
            switch TenantPath.normalize(reference.path, baseDirectory: reference.baseDirectory) {
            case .success(let path): relative = path
            case .failure(.refused(let rule, let message, let hint)):
                diagnostics.append(Diagnostic(.error, message, at: reference.location, rule: rule, hint: hint))
                continue
            }
            let url: URL
            switch source.paths.regularFile(relative) {
            case .success(let resolved): url = resolved
            case .failure(.refused(let rule, let message, let hint)):
                var hint = hint
                if rule == PathRule.missing, relative != reference.path {
                    hint = "paths are relative to the manifest's folder; this one resolves to '\(relative)' in the tenant folder"
                }
                diagnostics.append(Diagnostic(.error, message, at: reference.location, rule: rule, hint: hint))
                continue
            }
            let actual: FileType?
            var head: [UInt8]?
            if let cached = sniffed[relative] { actual = cached } else {
                head = FileSniffer.head(ofFileAt: url)
                actual = head.flatMap { FileSniffer.sniff($0) }
                sniffed[relative] = actual
            }
            let claimed = FileType(extensionOf: relative)
            if let claimed, actual != claimed, !(claimed == .mp4 && actual == .mp4) {
                let what = actual.map { "\($0.rawValue.uppercased()) data" } ?? "no known file type"
                diagnostics.append(Diagnostic(.error, FileTypeRule.Message.wrongContent(path: reference.path, ext: (relative as NSString).pathExtension, content: what),
                                              at: reference.location, rule: AssetRule.fileType,
                                              hint: actual.map { "rename it to .\($0.extensions[0]) or export it again as \(claimed.rawValue.uppercased())" }))
                continue
            }
            if claimed == nil, !reference.allowed.isEmpty {
                diagnostics.append(Diagnostic(.error, FileTypeRule.Message.noExtension(path: reference.path), at: reference.location, rule: AssetRule.fileType,
                                              hint: "expected one of: \(reference.allowed.flatMap(\.extensions).map { "." + $0 }.joined(separator: ", "))"))
                continue
            }
            if let claimed, !reference.allowed.isEmpty, !reference.allowed.contains(claimed) {
                diagnostics.append(Diagnostic(.error, FieldTypeRule.Message.notAccepted(path: reference.path, type: claimed.rawValue.uppercased(), accepted: reference.allowed.map { $0.rawValue.uppercased() }.joined(separator: ", ")),
                                              at: reference.location, rule: AssetRule.fieldType))
                continue
            }
            if let type = actual, probed[relative] == nil, let result = measurements.measure(url, as: type) {
                probed[relative] = true
                switch result {
                case .failure(let failure):
                    diagnostics.append(Diagnostic(.error, MediaFramesRule.Message.unreadable(path: reference.path, type: type.rawValue.uppercased(), failure: "\(failure)"), at: reference.location,
                                                  rule: AssetRule.mediaFrames, hint: type == .mp4 ? "export or download the file again" : "encode the recording again, or cut it where it is whole"))
                case .success(let facts) where facts.streamable == false:
                    diagnostics.append(Diagnostic(.warning, MediaStreamableRule.Message.indexAtEnd(path: reference.path),
                                                  at: reference.location, rule: AssetRule.mediaStreamable,
                                                  hint: "move the index to the front without re-encoding: ffmpeg -i IN -c copy -movflags +faststart OUT"))
                case .success:
                    break
                }
            }
            if let type = actual, probed[relative] == nil, let result = ImageProbe.probe(fileAt: url, as: type, head: head) {
                probed[relative] = true
                switch result {
                case .failure(let failure):
                    diagnostics.append(Diagnostic(.error, ImageHeaderRule.Message.unreadable(path: reference.path, type: type.rawValue.uppercased(), failure: "\(failure)"), at: reference.location,
                                                  rule: AssetRule.imageHeader, hint: "export the image again"))
                case .success(let facts?) where facts.pixels > limits.maximumPixels:
                    let megapixels = Double(facts.pixels) / 1e6
                    diagnostics.append(Diagnostic(.error, ImagePixelsRule.Message.tooManyPixels(path: reference.path, width: facts.width, height: facts.height, megapixels: String(format: "%.0f", megapixels),
                                                                                     megabytes: facts.pixels * 4 / 1_000_000),
                                                  at: reference.location, rule: AssetRule.imagePixels,
                                                  hint: String(format: "images may have at most %g megapixels: export it smaller", limits.maximumMegapixels)))
                case .success:
                    break
                }
            }
        }
        return diagnostics
    }
}
