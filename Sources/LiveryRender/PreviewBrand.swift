import Foundation
import LiveryLoad
import LiveryResolve

// The brand as the locale pages draw it: the brand colours as swatches, and each tab with its
// identity colour and its icon, drawn from an image the tenant has or shown as the symbol name it is.
extension ContentPreview {
    /// A colour drawn on a page: the colour itself and a label that reads on it.
    public struct ColourChip: Encodable, Sendable {
        public var name: String
        public var hex: String
        public var css: String
        /// `#000000` or `#FFFFFF`, whichever contrasts more with the colour.
        public var ink: String
    }

    /// Where a tab's icon image is looked for, in the tenant's folder and then its ancestors' (nearest first).
    public static let iconFolder = "assets/icons"
    static let iconExtensions = ["svg", "png"]

    static func chip(_ name: String, _ color: PlatformColor) -> ColourChip {
        ColourChip(name: name, hex: color.hex, css: color.cssHex, ink: BrandSheetContext.ink(on: color))
    }
}

extension ContentPreview.Site {
    /// The default mode's `color.brand.*` tokens, in the order they are written.
    func brandColours() -> [ContentPreview.ColourChip] {
        guard let tokens = tenant.tokens["default"] else { return [] }
        let lineage = (tenant.ancestors + [tenant.source]).map(\.displayRoot)
        let paths = tokens.values.keys.filter { $0.hasPrefix("color.brand.") && tokens.types[$0] == "color" }
        var chips: [ContentPreview.ColourChip] = []
        for path in PlatformValues.sourceOrder(paths, tokens: tokens.tokens, lineage: lineage) {
            guard let color = tokens.values[path].flatMap(PlatformColor.from) else { continue }
            chips.append(ContentPreview.chip(String(path.dropFirst("color.brand.".count)), color))
        }
        return chips
    }

    /// A tab's `color`: a token reference (`{color.brand.primary}`) in the default mode, or `#RRGGBB[AA]`.
    func tabColour(_ value: String?) -> PlatformColor? {
        guard let value else { return nil }
        if value.hasPrefix("{") && value.hasSuffix("}") {
            return tenant.tokens["default"]?.values[String(value.dropFirst().dropLast())].flatMap(PlatformColor.from)
        }
        let digits = value.dropFirst()
        guard value.hasPrefix("#"), digits.count == 6 || digits.count == 8, let number = UInt32(digits, radix: 16) else { return nil }
        let (rgb, alpha) = digits.count == 8 ? (number >> 8, Double(number & 0xFF) / 255) : (number, 1)
        return PlatformColor(red: UInt8(rgb >> 16 & 0xFF), green: UInt8(rgb >> 8 & 0xFF), blue: UInt8(rgb & 0xFF), alpha: alpha)
    }

    /// The site path of the tab icon `name` (`assets/icons/<name>.svg`, else `.png`) from the nearest of the
    /// tenant and its ancestors that has it, copied under `media/`; nil when none has it (the app draws the
    /// icon from its own set, such as SF Symbols, which a browser cannot).
    mutating func tabIcon(_ name: String) -> String? {
        guard !name.isEmpty, !name.contains("/") else { return nil }
        for source in ([tenant.source] + tenant.ancestors.reversed()) {
            for ext in ContentPreview.iconExtensions {
                let relative = "\(ContentPreview.iconFolder)/\(name).\(ext)"
                guard case .success = TenantPath.normalize(relative, baseDirectory: ""),
                      case .success(let url) = source.paths.regularFile(relative) else { continue }
                let sitePath = "media/\(ContentPreview.iconFolder)/\(name).\(ext)"
                media[sitePath] = url
                return sitePath
            }
        }
        return nil
    }
}
