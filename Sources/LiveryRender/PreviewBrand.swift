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

    static func chip(_ name: String, _ color: SRGBColor) -> ColourChip {
        ColourChip(name: name, hex: color.hex(alpha: .omitted), css: color.hex(alpha: .lastUnlessOpaque), ink: BrandSheetContext.ink(on: color))
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
            guard let color = tokens.values[path].flatMap(SRGBColor.init(tokenValue:)) else { continue }
            chips.append(ContentPreview.chip(String(path.dropFirst("color.brand.".count)), color))
        }
        return chips
    }

    /// A tab's `color`: a token reference (`{color.brand.primary}`) in the default mode, or `#RRGGBB[AA]`.
    func tabColour(_ value: String?) -> SRGBColor? {
        guard let value else { return nil }
        if value.hasPrefix("{") && value.hasSuffix("}") {
            return tenant.tokens["default"]?.values[String(value.dropFirst().dropLast())].flatMap(SRGBColor.init(tokenValue:))
        }
        // `#RRGGBB` or `#RRGGBBAA` only: CSS's short forms are not a tab colour.
        guard value.utf8.count == 7 || value.utf8.count == 9 else { return nil }
        return SRGBColor(hex: value)?.eightBit
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
