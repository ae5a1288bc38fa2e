import Foundation
import LiveryLoad

/// The limits the media rules apply, from the tenant manifest's `media:` (inherited from the tenant
/// it extends), each with a default that suits phones (docs/tours.md#media-limits).
package struct MediaLimits: Sendable {
    /// Subtitle reading speed: viewers read about 20 characters a second (Netflix and BBC guidance).
    var charactersPerSecond = 20.0
    /// Per language, where a script reads slower or faster (e.g. `ja: 8`).
    var charactersPerSecondByLanguage: [String: Double] = [:]
    var subtitleLines = 2
    var subtitleLineLength = 42
    /// A 40-megapixel RGBA image already needs 160 MB decoded, more than an app extension may use on iOS.
    var maximumMegapixels = 40.0
    /// App stores and launchers ask for 512 px and more; a smaller raster logo looks soft on a 3× screen.
    var logoMinimumSide = 512
    /// Width over height of tour and program covers.
    var coverAspectRatio = (width: 16, height: 9)
    /// A raster image above this many kilobytes is heavier than a phone screen needs.
    var rasterMaximumKilobytes = 1024
    /// The most a bundle of each kind may weigh, in megabytes, for a download on mobile data.
    /// By bundle kind as the download manifest names it (docs/download-manifest.md).
    var bundleMegabytes: [String: Double] = ["tour": 25, "tour-language": 60, "library-pack": 150, "program": 10]

    static let `default` = MediaLimits()

    /// The limits `tenant` (the merged tenant manifest) sets.
    init(_ tenant: Node?) {
        guard let media = tenant?["media"] else { return }
        if let subtitles = media["subtitles"] {
            if let value = subtitles["charactersPerSecond"]?.number { charactersPerSecond = value }
            for entry in subtitles["charactersPerSecondByLanguage"]?.entries ?? [] {
                if let value = entry.value.number { charactersPerSecondByLanguage[entry.key] = value }
            }
            if let value = subtitles["maxLines"]?.int { subtitleLines = value }
            if let value = subtitles["maxLineLength"]?.int { subtitleLineLength = value }
        }
        if let images = media["images"] {
            if let value = images["maxMegapixels"]?.number { maximumMegapixels = value }
            if let value = images["logoMinimumSide"]?.int { logoMinimumSide = value }
            if let value = images["coverAspectRatio"]?.string, let ratio = Self.ratio(value) { coverAspectRatio = ratio }
            if let value = images["maxKilobytes"]?.int { rasterMaximumKilobytes = value }
        }
        for entry in media["bundleMegabytes"]?.entries ?? [] {
            if let value = entry.value.number { bundleMegabytes[entry.key] = value }
        }
    }

    private init() {}

    /// "16:9" as (16, 9); nil unless both sides are positive integers.
    static func ratio(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else { return nil }
        return (width, height)
    }

    /// The reading speed for subtitles in `language` (its own, else its base language's, else the default).
    func charactersPerSecond(for language: String?) -> Double {
        guard let language else { return charactersPerSecond }
        if let exact = charactersPerSecondByLanguage[language] { return exact }
        let base = String(language.prefix { $0 != "-" })
        return charactersPerSecondByLanguage[base] ?? charactersPerSecond
    }

    package var maximumPixels: Int { Int(maximumMegapixels * 1_000_000) }
}

extension RuleContext {
    package var mediaLimits: MediaLimits { MediaLimits(tenant.tenant) }
}
