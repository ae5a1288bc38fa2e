import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryImage
import LiveryLoad
import LiveryMedia
import LiveryRender
import LiveryResolve

/// The app icon and launch screen checks (docs/app-icons.md). One inspection per tenant reads and
/// decodes every declared image once (`AppIconInspection`); each rule returns its own findings.
/// They decode with the render stage's `AppIconSource`, so they are registered here, above the stages.
protocol AppIconCheckedRule: Rule {}

extension AppIconCheckedRule {
    func check(_ context: RuleContext) -> [Diagnostic] {
        AppIconInspection.findings(context).filter { $0.ruleID == Self.description.id }
    }
}

struct AppIconMissingRule: AppIconCheckedRule {
    static let description = RuleDescription(
        id: AppIconRule.missing, name: "App icon declared", family: .assets,
        rationale: "A brand that ships an app (it has store identifiers under app.bundleIds) declares app.icon, from which the iOS, Android and web icons and the launch screens are made; without one the app builds with a blank icon. A warning: tenants that ship no app yet still validate.",
        severity: .warning,
        messages: [declare(Message.noIcon)],
        triggering: [RuleExample("store identifiers and no icon", files: [
            "example/tenant.yaml": RuleExample.tenant(appending: "app:\n  displayName: Example\n  bundleIds: ↓{ios: com.example.app, android: com.example.app}\n"),
        ])],
        nonTriggering: [
            RuleExample("an icon", files: IconExample.files(icon: "master: assets/icon.svg\n")),
            RuleExample("a creator ships inside its platform's app", files: ["example/tenant.yaml": RuleExample.tenant(appending: "app:\n  displayName: Example\n")
                .replacingOccurrences(of: "kind: brand", with: "kind: creator")]),
        ])

    enum Message {
        static func noIcon() -> DiagnosticMessage {
            DiagnosticMessage("no-icon", "the app has store identifiers but no icon (app.icon); its icon set and launch screens cannot be made")
        }
    }
}

struct AppIconSizeRule: AppIconCheckedRule {
    static let description = RuleDescription(
        id: AppIconRule.size, name: "App icon size", family: .assets,
        rationale: "Icons are made by scaling down: the master and the iOS dark and tinted variants are square and at least 1024 × 1024 pixels (the App Store's size), Android layers square and at least 432 (108 dp at xxxhdpi); an SVG declares its size (width and height, or a viewBox).",
        messages: [declare(Message.unreadableHeader), declare(Message.notSquare), declare(Message.tooSmall)],
        triggering: [
            RuleExample("a 512-pixel master", files: IconExample.files(icon: "master: ↓assets/icon.svg\n", ["example/assets/icon.svg": IconExample.svg(512)])),
            RuleExample("a master that is not square", files: IconExample.files(icon: "master: ↓assets/icon.svg\n", ["example/assets/icon.svg": IconExample.svg(1024, 768)])),
            RuleExample("an SVG master that declares no size", files: IconExample.files(icon: "master: ↓assets/icon.svg\n", [
                "example/assets/icon.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect width=\"10\" height=\"10\"/></svg>\n",
            ])),
            RuleExample("a foreground layer of 200 pixels", files: IconExample.files(icon: "master: assets/icon.svg\nandroid:\n  foreground: ↓assets/fg.svg\n", [
                "example/assets/icon.svg": IconExample.master, "example/assets/fg.svg": IconExample.svg(200, 200, "<circle cx=\"100\" cy=\"100\" r=\"40\"/>"),
            ])),
        ],
        nonTriggering: [
            RuleExample("a 1024-pixel master", files: IconExample.files(icon: "master: assets/icon.svg\n")),
            RuleExample("a 2048-pixel master and a 432-pixel foreground", files: IconExample.files(icon: "master: assets/icon.svg\nandroid:\n  foreground: assets/fg.svg\n", [
                "example/assets/icon.svg": IconExample.svg(2048), "example/assets/fg.svg": IconExample.svg(432, 432, "<circle cx=\"216\" cy=\"216\" r=\"100\"/>"),
            ])),
        ])

    enum Message {
        static func unreadableHeader(path: String, failure: String) -> DiagnosticMessage {
            DiagnosticMessage("unreadable-header", "'\(path)' \(failure)")
        }
        static func notSquare(what: String, path: String, width: Int, height: Int) -> DiagnosticMessage {
            DiagnosticMessage("not-square", "\(what) '\(path)' is \(width) × \(height) pixels; it must be square")
        }
        static func tooSmall(what: String, path: String, width: Int, height: Int, minimum: Int) -> DiagnosticMessage {
            DiagnosticMessage("too-small", "\(what) '\(path)' is \(width) × \(height) pixels; it must be at least \(minimum) × \(minimum)")
        }
    }
}

struct AppIconOpaqueRule: AppIconCheckedRule {
    static let description = RuleDescription(
        id: AppIconRule.opaque, name: "Opaque iOS icon", family: .assets,
        rationale: "The App Store refuses an app icon with transparency, and iOS draws transparent pixels black: the master (the iOS light icon) is opaque to its corners. iOS rounds the corners itself; the dark variant may be transparent.",
        messages: [declare(Message.transparent)],
        triggering: [RuleExample("a master with rounded corners", files: IconExample.files(icon: "master: ↓assets/icon.svg\n", [
            "example/assets/icon.svg": IconExample.svg(1024, 1024, "<rect width=\"1024\" height=\"1024\" rx=\"220\" fill=\"#0066cc\"/>"),
        ]))],
        nonTriggering: [
            RuleExample("a full-bleed master", files: IconExample.files(icon: "master: assets/icon.svg\n")),
            RuleExample("a transparent dark variant", files: IconExample.files(icon: "master: assets/icon.svg\ndark: assets/dark.svg\n", [
                "example/assets/icon.svg": IconExample.master, "example/assets/dark.svg": IconExample.svg(1024, 1024, "<circle cx=\"512\" cy=\"512\" r=\"300\" fill=\"#4da3ff\"/>"),
            ])),
        ])

    enum Message {
        static func transparent(path: String, alpha: String) -> DiagnosticMessage {
            DiagnosticMessage("transparent", "the master icon '\(path)' has transparent pixels (alpha down to \(alpha) of 255); iOS refuses an app icon with transparency")
        }
    }
}

struct AppIconSafeZoneRule: AppIconCheckedRule {
    static let description = RuleDescription(
        id: AppIconRule.safeZone, name: "Adaptive icon safe zone", family: .assets,
        rationale: "Android launchers mask the adaptive icon's 108 dp layers to shapes of their own, and only the central 66 dp circle is always shown: content of the foreground layer (its pixels' alpha bounding box, then the pixels themselves) stays inside it.",
        severity: .warning,
        messages: [declare(Message.outsideSafeZone)],
        triggering: [RuleExample("a foreground mark filling the layer", files: IconExample.files(icon: "master: assets/icon.svg\nandroid:\n  foreground: ↓assets/fg.svg\n", [
            "example/assets/icon.svg": IconExample.master, "example/assets/fg.svg": IconExample.svg(432, 432, "<circle cx=\"216\" cy=\"216\" r=\"200\"/>"),
        ]))],
        nonTriggering: [RuleExample("a foreground mark inside the 66 dp circle", files: IconExample.files(icon: "master: assets/icon.svg\nandroid:\n  foreground: assets/fg.svg\n", [
            "example/assets/icon.svg": IconExample.master, "example/assets/fg.svg": IconExample.svg(432, 432, "<circle cx=\"216\" cy=\"216\" r=\"120\"/>"),
        ]))])

    enum Message {
        static func outsideSafeZone(path: String, width: String, height: String, left: String, top: String, reach: String) -> DiagnosticMessage {
            DiagnosticMessage("outside-safe-zone", "the foreground layer '\(path)' has content outside the adaptive icon's safe zone (the central 66 dp circle of 108 dp): its visible pixels span \(width) × \(height) from (\(left), \(top)), and reach \(reach) dp from the centre")
        }
    }
}

struct AppIconDecodeRule: AppIconCheckedRule {
    static let description = RuleDescription(
        id: AppIconRule.decode, name: "Decodable icon", family: .assets,
        rationale: "Every icon image decodes in full (libvips with libpng and librsvg, as the icon set is made): a PNG whose header is fine but whose pixel data is missing or corrupt, or an SVG librsvg cannot draw, would leave the app without an icon.",
        messages: [declare(Message.undecodable)],
        triggering: [RuleExample("a PNG with a header and no pixel data", files: IconExample.files(icon: "master: ↓assets/icon.png\n", [:]),
                                 binaryFiles: ["example/assets/icon.png": RuleExample.pngHeader(width: 1024, height: 1024)])],
        nonTriggering: [RuleExample("an SVG master", files: IconExample.files(icon: "master: assets/icon.svg\n"))])

    enum Message {
        static func undecodable(path: String, failure: String) -> DiagnosticMessage {
            DiagnosticMessage("undecodable", "'\(path)' \(failure)")
        }
    }
}

struct LaunchScreenColorRule: AppIconCheckedRule {
    static let description = RuleDescription(
        id: AppIconRule.launchColor, name: "Launch screen colours", family: .branding,
        rationale: "The launch screens and the adaptive icon's background take their colours from colour tokens (by default {color.background.default} for the screen and {color.brand.primary} behind the icon; app.launchScreen and app.icon.android.backgroundColor choose others), so they follow the brand in light and dark; each must be a colour token of the tenant.",
        messages: [declare(Message.notColour), declare(Message.noAsset)],
        triggering: [
            RuleExample("a launch background naming no token", files: IconExample.files(icon: "master: assets/icon.svg\n", launch: "  launchScreen:\n    background: ↓\"{color.background.missing}\"\n")),
            RuleExample("default tokens the tenant lacks", files: IconExample.files(icon: "master: ↓assets/icon.svg\n").merging([
                "example/branding/tokens.json": IconExample.tokens.replacingOccurrences(of: "\"background\": {\"default\"", with: "\"surface\": {\"default\""),
            ]) { _, new in new }),
            RuleExample("a launch background whose colour asset name another token takes", files: IconExample.files(icon: "master: ↓assets/icon.svg\n").merging([
                "example/branding/tokens.json": IconExample.tokens.replacingOccurrences(
                    of: "\"background\": {\"default\": {\"$value\": \"{color.palette.white}\"}}",
                    with: "\"background\": {\"default\": {\"$value\": \"{color.palette.white}\"}},\n    \"background-default\": {\"$value\": \"{color.palette.blue}\"}"),
            ]) { _, new in new }),
        ],
        nonTriggering: [
            RuleExample("the default tokens", files: IconExample.files(icon: "master: assets/icon.svg\n")),
            RuleExample("chosen tokens", files: IconExample.files(icon: "master: assets/icon.svg\nandroid:\n  backgroundColor: \"{color.palette.white}\"\n",
                                                                 launch: "  launchScreen:\n    background: \"{color.brand.primary}\"\n    iconBackground: \"{color.palette.white}\"\n")),
        ])

    enum Message {
        static func notColour(what: String, path: String) -> DiagnosticMessage {
            DiagnosticMessage("not-a-colour", "\(what) '{\(path)}' is not a colour token of this tenant; the launch screens and the adaptive icon need it")
        }
        static func noAsset(path: String) -> DiagnosticMessage {
            DiagnosticMessage("no-colour-asset", "the launch screen colour '{\(path)}' has no colour asset of its own (its name clashes with another colour's)")
        }
    }
}

/// Reads and decodes a tenant's declared icon images once and makes every icon finding.
/// What decoding one declared icon image found, for the icon rules: kept per file as it is (the
/// probe cache holds it between runs), so validating again does not decode an unchanged icon.
struct IconFacts: Codable {
    struct SafeZoneExcess: Codable {
        var left: Int, top: Int, width: Int, height: Int, reach: Int
    }

    /// The image could not be opened for a reason another rule reports.
    var skip = false
    var openFailure: String?
    var openFailureIsHeader = false
    var width = 0
    var height = 0
    var decodeFailure: String?
    var minimumAlpha: Int?
    var safeZone: SafeZoneExcess?

    init(url: URL, isSVG: Bool, role: String, minimumSide: Int) {
        let source: AppIconSource
        do {
            source = try AppIconSource(url: url, isSVG: isSVG)
        } catch let failure as AppIconSource.Failure {
            openFailure = failure.description
            openFailureIsHeader = failure.isHeader
            return
        } catch {
            skip = true
            return
        }
        width = source.width
        height = source.height
        guard width == height, width >= minimumSide else { return }
        // Pixels are looked at for the master (transparency) and the foreground (safe zone); any other SVG only has to
        // draw, which librsvg shows as well at 128 pixels as at 1024 for a fraction of the memory and time.
        let needsPixels = role == "master" || role == "android.foreground" || !source.isSVG
        let decoded: RasterImage
        do {
            decoded = needsPixels ? try source.natural() : try source.render(side: 128)
        } catch {
            decodeFailure = "\(error)"
            return
        }
        if role == "master", let lowest = try? decoded.minimumAlpha() { minimumAlpha = Int(lowest) }
        if role == "android.foreground", let outside = AppIconInspection.safeZoneExcess(decoded) {
            safeZone = SafeZoneExcess(left: outside.box.left, top: outside.box.top, width: outside.box.width, height: outside.box.height, reach: outside.reach)
        }
    }
}

enum AppIconInspection {
    static func findings(_ context: RuleContext) -> [Diagnostic] {
        context.sharedFindings("app-icon") { inspect(context) }
    }

    static func inspect(_ context: RuleContext) -> [Diagnostic] {
        guard let manifest = context.tenant.tenant, manifest["kind"]?.string == "brand", let app = manifest["app"] else { return [] }
        var diagnostics: [Diagnostic] = []
        func report(_ severity: Severity, _ message: DiagnosticMessage, at node: Node, rule: RuleID, hint: String? = nil) {
            guard context.owns(node.location) else { return }  // an ancestor's own validation reports it
            diagnostics.append(Diagnostic(severity, message, at: node.location, rule: rule, hint: hint))
        }
        guard let declaration = AppIconDeclaration.of(context.tenant) else {
            if app["icon"] == nil, let ids = app["bundleIds"] {
                report(.warning, AppIconMissingRule.Message.noIcon(), at: ids, rule: AppIconRule.missing,
                       hint: "draw a square master icon of at least 1024 × 1024 pixels (SVG or PNG) and add app.icon.master (docs/app-icons.md)")
            }
            return diagnostics
        }
        let limits = context.mediaLimits
        for image in declaration.images {
            guard let url = image.url else { continue }  // assets.path, assets.missing and friends report it
            let claimed: FileType = image.isSVG ? .svg : .png
            // A file whose bytes are another type, whose header is unreadable or which declares too many pixels is reported by the asset rules.
            guard FileSniffer.sniff(fileAt: url) == claimed, case .success(let header)? = ImageProbe.probe(fileAt: url, as: claimed),
                  (header?.pixels ?? 0) <= limits.maximumPixels else { continue }
            // Decoding is the costly part: its facts are kept per file (and in the probe cache) until the file changes.
            let facts = context.media.answer("app-icon-1:\(image.role):\(image.minimumSide)", for: url) {
                IconFacts(url: url, isSVG: image.isSVG, role: image.role, minimumSide: image.minimumSide)
            }
            if facts.skip { continue }
            if let failure = facts.openFailure {
                report(.error, facts.openFailureIsHeader ? AppIconSizeRule.Message.unreadableHeader(path: image.path, failure: failure) : AppIconDecodeRule.Message.undecodable(path: image.path, failure: failure),
                       at: image.node, rule: facts.openFailureIsHeader ? AppIconRule.size : AppIconRule.decode)
                continue
            }
            let what = image.role == "master" ? "the master icon" : "the \(image.role) icon image"
            if facts.width != facts.height {
                report(.error, AppIconSizeRule.Message.notSquare(what: what, path: image.path, width: facts.width, height: facts.height), at: image.node, rule: AppIconRule.size,
                       hint: "export it on a square canvas of at least \(image.minimumSide) × \(image.minimumSide)")
                continue
            }
            if facts.width < image.minimumSide {
                report(.error, AppIconSizeRule.Message.tooSmall(what: what, path: image.path, width: facts.width, height: facts.height, minimum: image.minimumSide),
                       at: image.node, rule: AppIconRule.size, hint: "export it at \(image.minimumSide) × \(image.minimumSide) or larger (or as SVG with that size)")
                continue
            }
            if let failure = facts.decodeFailure {
                report(.error, AppIconDecodeRule.Message.undecodable(path: image.path, failure: failure), at: image.node, rule: AppIconRule.decode, hint: "export the image again")
                continue
            }
            if let lowest = facts.minimumAlpha, lowest < 255 {
                report(.error, AppIconOpaqueRule.Message.transparent(path: image.path, alpha: "\(lowest)"),
                       at: image.node, rule: AppIconRule.opaque, hint: "fill the whole square with the background; iOS rounds the corners itself")
            }
            if let outside = facts.safeZone {
                report(.warning, AppIconSafeZoneRule.Message.outsideSafeZone(path: image.path, width: "\(outside.width)", height: "\(outside.height)", left: "\(outside.left)",
                                                                         top: "\(outside.top)", reach: "\(outside.reach)"),
                       at: image.node, rule: AppIconRule.safeZone, hint: "shrink the mark to fit a circle of \(facts.width * 66 / 108) pixels in diameter at the centre; launchers may cut off the rest")
            }
        }
        var tokens = [declaration.launchBackground, declaration.launchIconBackground]
        if declaration.background == nil { tokens.append(declaration.backgroundColor) }
        let base = context.tenant.tokens["default"]
        // Two defaults may name the same token ({color.brand.primary} behind the icon and as the adaptive icon's
        // background): one finding for it at one place.
        var reported = Set<String>()
        for token in tokens where base?.types[token.path] != "color" {
            guard reported.insert(token.path + "|" + (token.node.map { "\($0.location)" } ?? "default")).inserted else { continue }
            let what = token.node == nil ? "the default colour token" : "the colour token"
            report(.error, LaunchScreenColorRule.Message.notColour(what: what, path: token.path),
                   at: token.node ?? declaration.master.node, rule: AppIconRule.launchColor,
                   hint: token.node == nil ? "add the token, or choose one with app.launchScreen.background / iconBackground and app.icon.android.backgroundColor" : "name a colour token, as in {color.brand.primary}")
        }
        // The colour asset the iOS launch screen names must exist (its name may clash with another colour's).
        if base?.types[declaration.launchBackground.path] == "color", ColorAssets.assetName(ofToken: declaration.launchBackground.path, in: context.tenant) == nil {
            report(.error, LaunchScreenColorRule.Message.noAsset(path: declaration.launchBackground.path),
                   at: declaration.launchBackground.node ?? declaration.master.node, rule: AppIconRule.launchColor)
        }
        return diagnostics
    }

    /// How the visible content of a foreground layer reaches past the 66 dp safe circle: nil when its
    /// alpha bounding box fits in the circle, or when the box does not but every visible pixel does (a
    /// round mark). Pixels count as visible above alpha 32, and a pixel of anti-aliasing is allowed.
    static func safeZoneExcess(_ image: RasterImage) -> (box: RasterImage.Box, reach: Int)? {
        let threshold: UInt8 = 32
        guard image.hasAlpha, let box = try? image.alphaBoundingBox(threshold: threshold), let pixels = try? image.pixels() else { return nil }
        let side = Double(image.width)
        let centre = side / 2, radius = side * Double(AppIcons.safeZoneDP) / Double(AppIcons.layerDP) / 2 + 1
        func distance(_ x: Double, _ y: Double) -> Double { ((x - centre) * (x - centre) + (y - centre) * (y - centre)).squareRoot() }
        let corners = [(box.left, box.top), (box.left + box.width, box.top), (box.left, box.top + box.height), (box.left + box.width, box.top + box.height)]
        if corners.allSatisfy({ distance(Double($0.0), Double($0.1)) <= radius }) { return nil }
        var farthest = 0.0
        for y in box.top..<(box.top + box.height) {
            for x in box.left..<(box.left + box.width) where pixels[(y * image.width + x) * 4 + 3] > threshold {
                // The pixel's far corner from the centre.
                let dx = abs(Double(x) + 0.5 - centre) + 0.5, dy = abs(Double(y) + 0.5 - centre) + 0.5
                farthest = max(farthest, (dx * dx + dy * dy).squareRoot())
            }
        }
        guard farthest > radius else { return nil }
        return (box, Int((farthest / side * Double(AppIcons.layerDP)).rounded()))
    }
}
