import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryMedia

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
        var sniffed = measureMedia(source, measurements)
        var diagnostics: [Diagnostic] = []
        var probed: [String: Bool] = [:]
        // Audio and video last: their frame walks, started by `measureMedia`, run meanwhile. (Each group keeps its order,
        // and a file's references all fall in one group, so the same reference reports a finding; findings are sorted later.)
        let isMedia = { (reference: AssetReference) in FileType(extensionOf: reference.path).map { FileType.media.contains($0) } ?? false }
        for reference in source.assets.filter({ !isMedia($0) }) + source.assets.filter(isMedia) {
            guard let (relative, url) = resolve(reference, in: source, &diagnostics) else { continue }
            let actual: FileType?
            var head: [UInt8]?
            if let cached = sniffed[relative] { actual = cached } else {
                head = FileSniffer.head(ofFileAt: url)
                actual = head.flatMap { FileSniffer.sniff($0) }
                sniffed[relative] = actual
            }
            if let finding = typeFinding(reference, relative: relative, actual: actual) {
                diagnostics.append(finding)
                continue
            }
            guard let type = actual, probed[relative] == nil else { continue }
            if let finding = probe(reference, url: url, as: type, head: head, measurements, limits, probed: &probed[relative]) {
                diagnostics.append(finding)
            }
        }
        return diagnostics
    }

    /// A frame walk reads a whole recording: the tenant's audio and video (those whose bytes are what their name
    /// says) start being measured in the background (`MediaMeasurements.prefetch`, on every core) while the loop of
    /// `run` checks the other assets, and it finds them measured, or waits for them, when it comes to them.
    /// Their sniffed types are returned for that loop, which would otherwise read their heads again.
    private static func measureMedia(_ source: TenantSource, _ measurements: MediaMeasurements) -> [String: FileType?] {
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
        measurements.prefetch(media.map { (url: $0.0, type: $0.1) })
        return sniffed
    }

    /// The reference's path in the tenant folder and its file, or nil with the finding for a path that leaves the
    /// folder or names no regular file.
    private static func resolve(_ reference: AssetReference, in source: TenantSource, _ diagnostics: inout [Diagnostic]) -> (relative: String, url: URL)? {
        let relative: String
        switch TenantPath.normalize(reference.path, baseDirectory: reference.baseDirectory) {
        case .success(let path): relative = path
        case .failure(.refused(let rule, let message, let hint)):
            diagnostics.append(Diagnostic(.error, message, at: reference.location, rule: rule, hint: hint))
            return nil
        }
        switch source.paths.regularFile(relative) {
        case .success(let url): return (relative, url)
        case .failure(.refused(let rule, let message, let hint)):
            var hint = hint
            if rule == PathRule.missing, relative != reference.path {
                hint = "paths are relative to the manifest's folder; this one resolves to '\(relative)' in the tenant folder"
            }
            diagnostics.append(Diagnostic(.error, message, at: reference.location, rule: rule, hint: hint))
            return nil
        }
    }

    /// The finding for a file whose bytes are not what its extension says, that has no extension, or whose type the
    /// field does not accept.
    private static func typeFinding(_ reference: AssetReference, relative: String, actual: FileType?) -> Diagnostic? {
        let claimed = FileType(extensionOf: relative)
        if let claimed, actual != claimed, !(claimed == .mp4 && actual == .mp4) {
            let what = actual.map { "\($0.rawValue.uppercased()) data" } ?? "no known file type"
            return Diagnostic(.error, FileTypeRule.Message.wrongContent(path: reference.path, ext: (relative as NSString).pathExtension, content: what),
                              at: reference.location, rule: AssetRule.fileType,
                              hint: actual.map { "rename it to .\($0.extensions[0]) or export it again as \(claimed.rawValue.uppercased())" })
        }
        if claimed == nil, !reference.allowed.isEmpty {
            return Diagnostic(.error, FileTypeRule.Message.noExtension(path: reference.path), at: reference.location, rule: AssetRule.fileType,
                              hint: "expected one of: \(reference.allowed.flatMap(\.extensions).map { "." + $0 }.joined(separator: ", "))")
        }
        if let claimed, !reference.allowed.isEmpty, !reference.allowed.contains(claimed) {
            return Diagnostic(.error, FieldTypeRule.Message.notAccepted(path: reference.path, type: claimed.rawValue.uppercased(), accepted: reference.allowed.map { $0.rawValue.uppercased() }.joined(separator: ", ")),
                              at: reference.location, rule: AssetRule.fieldType)
        }
        return nil
    }

    /// The finding of the media or image probe that reads a file of this type, if any does (`probed` set to true
    /// when one did): a recording that does not read to its end or keeps its index at the end, an image whose header
    /// does not read or that has too many pixels.
    private static func probe(_ reference: AssetReference, url: URL, as type: FileType, head: [UInt8]?, _ measurements: MediaMeasurements,
                      _ limits: MediaLimits, probed: inout Bool?) -> Diagnostic? {
        if let result = measurements.measure(url, as: type) {
            probed = true
            switch result {
            case .failure(let failure):
                return Diagnostic(.error, MediaFramesRule.Message.unreadable(path: reference.path, type: type.rawValue.uppercased(), failure: "\(failure)"), at: reference.location,
                                  rule: AssetRule.mediaFrames, hint: type == .mp4 ? "export or download the file again" : "encode the recording again, or cut it where it is whole")
            case .success(let facts) where facts.streamable == false:
                return Diagnostic(.warning, MediaStreamableRule.Message.indexAtEnd(path: reference.path),
                                  at: reference.location, rule: AssetRule.mediaStreamable,
                                  hint: "move the index to the front without re-encoding: ffmpeg -i IN -c copy -movflags +faststart OUT")
            case .success:
                return nil
            }
        }
        if let result = ImageProbe.probe(fileAt: url, as: type, head: head) {
            probed = true
            switch result {
            case .failure(let failure):
                return Diagnostic(.error, ImageHeaderRule.Message.unreadable(path: reference.path, type: type.rawValue.uppercased(), failure: "\(failure)"), at: reference.location,
                                  rule: AssetRule.imageHeader, hint: "export the image again")
            case .success(let facts?) where facts.pixels > limits.maximumPixels:
                let megapixels = Double(facts.pixels) / 1e6
                return Diagnostic(.error, ImagePixelsRule.Message.tooManyPixels(path: reference.path, width: facts.width, height: facts.height, megapixels: String(format: "%.0f", megapixels),
                                                                     megabytes: facts.pixels * 4 / 1_000_000),
                                  at: reference.location, rule: AssetRule.imagePixels,
                                  hint: String(format: "images may have at most %g megapixels: export it smaller", limits.maximumMegapixels))
            case .success:
                return nil
            }
        }
        return nil
    }
}
