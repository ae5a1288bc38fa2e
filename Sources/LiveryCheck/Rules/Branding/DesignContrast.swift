import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

/// One declared contrast pair measured in one mode.
public struct ContrastMeasurement: Sendable {
    public var pair: ContrastPair
    public var mode: String
    /// Ratio and the two opaque colours after compositing.
    public var result: ContrastResult
    /// Where a translucent background was drawn: the pair's `base`, the mode's
    /// `color.background.default`, or nil (white assumed).
    public var basePath: String?
    /// Whether the background itself is translucent (so the base matters).
    public var translucentBackground: Bool

    public var meetsRequired: Bool { result.meets(pair.usage.required) }
    /// Nil for UI components, which have no AAA level.
    public var meetsEnhanced: Bool? { pair.usage.enhanced.map { result.meets($0) } }
}

/// Measures every declared `com.livery.contrast` pair of a tenant in every mode.
public enum ContrastAudit {
    /// The token a translucent background is composited over when a pair names no `base`.
    public static let defaultBase = "color.background.default"

    /// Every pair of the lineage in every mode, in declaration order then mode order; pairs
    /// whose colours do not resolve in a mode are left out (other rules report why).
    public static func measure(_ tenant: ResolvedTenant) -> [ContrastMeasurement] {
        let pairs = TenantExtensions.of(tenant).contrast
        var measurements: [ContrastMeasurement] = []
        for pair in pairs {
            for mode in tenant.tokens.keys.sorted(by: modeOrder) {
                guard let tokens = tenant.tokens[mode], let foreground = tokens.color(pair.foreground.path),
                      let background = tokens.color(pair.background.path) else { continue }
                var basePath: String? = pair.base?.path ?? (tokens.color(defaultBase) != nil ? defaultBase : nil)
                let base = basePath.flatMap(tokens.color)
                if base == nil { basePath = nil }
                let result = Contrast.ratio(foreground: foreground, background: background, base: base)
                measurements.append(ContrastMeasurement(pair: pair, mode: mode, result: result, basePath: basePath,
                                                        translucentBackground: background.effectiveAlpha < 1))
            }
        }
        return measurements
    }

    /// `default` first, then the other modes by name.
    static func modeOrder(_ a: String, _ b: String) -> Bool {
        if a == "default" || b == "default" { return a == "default" && b != "default" }
        return a < b
    }
}

/// `branding.contrast`: every declared pair meets WCAG 2.x AA for its usage in every mode.
struct ContrastRule: Rule {
    static let id: RuleID = "branding.contrast"
    static let description = RuleDescription(
        id: id, name: "WCAG contrast", family: .branding,
        rationale: "Every declared foreground/background pair meets WCAG 2.x AA in every mode (4.5:1 body text, 3:1 large text and UI components), translucent colours composited over what they are drawn on; pairs that ask for AAA must meet it; a failure acknowledged with a reason is recorded, and an acknowledgement that is no longer needed is flagged.",
        messages: [declare(Message.insufficient), declare(Message.acknowledgedPasses)],
        triggering: [
            RuleExample("light grey body text on white", files: TokenExample.files("""
                {"$extensions": {"com.livery": {"contrast": [↓{"foreground": "{color.palette.gray}", "background": "{color.palette.white}", "usage": "body"}]}},
                 "color": {"$type": "color", "palette": {
                   "gray": {"$value": {"colorSpace": "srgb", "components": [0.6118, 0.6392, 0.6863], "hex": "#9ca3af"}},
                   "white": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1], "hex": "#ffffff"}}}}}

                """)),
            RuleExample("text that passes in light mode but not in dark mode", files: TokenExample.files("""
                {"$extensions": {"com.livery": {"contrast": [↓{"foreground": "{color.text}", "background": "{color.surface}", "usage": "body"}]}},
                 "color": {"$type": "color", "palette": {
                   "ink": {"$value": {"colorSpace": "srgb", "components": [0.0667, 0.0941, 0.1529], "hex": "#111827"}},
                   "slate": {"$value": {"colorSpace": "srgb", "components": [0.2157, 0.2549, 0.3176], "hex": "#374151"}},
                   "white": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1], "hex": "#ffffff"}}},
                   "text": {"$value": "{color.palette.ink}"}, "surface": {"$value": "{color.palette.white}"}}}

                """, dark: """
                {"color": {"$type": "color", "text": {"$value": "{color.palette.slate}"}, "surface": {"$value": "{color.palette.ink}"}}}

                """)),
            RuleExample("translucent white text composited over orange", files: TokenExample.files("""
                {"$extensions": {"com.livery": {"contrast": [↓{"foreground": "{color.palette.white-70}", "background": "{color.palette.orange}", "usage": "large"}]}},
                 "color": {"$type": "color", "palette": {
                   "white-70": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1], "alpha": 0.7, "hex": "#ffffff"}},
                   "orange": {"$value": {"colorSpace": "oklch", "components": [0.65, 0.19, 45]}}}}}

                """)),
            RuleExample("an acknowledgement the colours no longer need", files: TokenExample.files("""
                {"$extensions": {"com.livery": {"contrast": [↓{"foreground": "{color.palette.ink}", "background": "{color.palette.white}", "usage": "body",
                   "acknowledged": "brand orange predates the audit"}]}},
                 "color": {"$type": "color", "palette": {
                   "ink": {"$value": {"colorSpace": "srgb", "components": [0.0667, 0.0941, 0.1529], "hex": "#111827"}},
                   "white": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1], "hex": "#ffffff"}}}}}

                """)),
        ],
        nonTriggering: [
            RuleExample("dark text on white; white UI icon on blue; a failure acknowledged with its reason", files: TokenExample.files("""
                {"$extensions": {"com.livery": {"contrast": [
                   {"foreground": "{color.palette.ink}", "background": "{color.palette.white}", "usage": "body", "level": "aaa"},
                   {"foreground": "{color.palette.white}", "background": "{color.palette.blue}", "usage": "ui"},
                   {"foreground": "{color.palette.white}", "background": "{color.palette.sky}", "usage": "body", "acknowledged": "marketing banner, reviewed 2026-03"}]}},
                 "color": {"$type": "color", "palette": {
                   "ink": {"$value": {"colorSpace": "srgb", "components": [0.0667, 0.0941, 0.1529], "hex": "#111827"}},
                   "blue": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8], "hex": "#0066cc"}},
                   "sky": {"$value": {"colorSpace": "srgb", "components": [0.2196, 0.7412, 0.9725], "hex": "#38bdf8"}},
                   "white": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1], "hex": "#ffffff"}}}}}

                """)),
        ])

    enum Message {
        static func insufficient(foreground: String, background: String, ratio: String, modes: String, foregroundHex: String, backgroundHex: String, over: String, usage: String, needs: String, level: String, declaredBy: String) -> DiagnosticMessage {
            DiagnosticMessage("insufficient", "\(foreground) on \(background) is \(ratio) in \(modes) (\(foregroundHex) on \(backgroundHex)\(over)); \(usage) needs \(needs) (\(level))\(declaredBy)")
        }
        static func acknowledgedPasses(foreground: String, background: String, level: String) -> DiagnosticMessage {
            DiagnosticMessage("acknowledged-passes", "\(foreground) on \(background) is acknowledged as a contrast failure but meets \(level) in every mode")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        let measurements = ContrastAudit.measure(context.tenant)
        var diagnostics: [Diagnostic] = []
        var failedAA = Set<String>()
        // Modes that give a pair the same colours (urbannest's compact is its default with other
        // spacing) are one finding naming every mode, not one per mode.
        var findings: [(measurement: ContrastMeasurement, level: WCAGLevel, modes: [String])] = []
        for measurement in measurements {
            let pair = measurement.pair
            let level: WCAGLevel
            if !measurement.meetsRequired {
                failedAA.insert(pair.key)
                if pair.acknowledged != nil { continue }
                level = pair.usage.required
            } else if pair.requiresEnhanced, let enhanced = pair.usage.enhanced, !measurement.result.meets(enhanced) {
                level = enhanced
            } else {
                continue
            }
            if let index = findings.firstIndex(where: { $0.measurement.pair.key == pair.key && $0.level == level && $0.measurement.result == measurement.result }) {
                findings[index].modes.append(measurement.mode)
            } else {
                findings.append((measurement, level, [measurement.mode]))
            }
        }
        for item in findings {
            diagnostics.append(finding(item.measurement, level: item.level, modes: item.modes, tenant: context.tenant.id))
        }
        let measured = Set(measurements.map(\.pair.key))
        for pair in TenantExtensions.of(context.tenant).contrast where pair.acknowledged != nil && measured.contains(pair.key) && !failedAA.contains(pair.key) {
            diagnostics.append(Diagnostic(.warning, Message.acknowledgedPasses(foreground: pair.foreground.text, background: pair.background.text, level: Self.levelName(pair.usage.required)),
                                          at: pair.location, rule: Self.id, hint: "remove 'acknowledged' so a future regression is reported"))
        }
        return diagnostics
    }

    func finding(_ measurement: ContrastMeasurement, level: WCAGLevel, modes: [String], tenant: String) -> Diagnostic {
        let pair = measurement.pair, result = measurement.result
        let named = modes.map { "'\($0)'" }.joined(separator: ", ")
        let over = !measurement.translucentBackground ? "" : measurement.basePath.map { ", background over {\($0)}" } ?? ", background over white"
        let message = Message.insufficient(
            foreground: pair.foreground.text, background: pair.background.text, ratio: "\(result.formatted)", modes: "mode\(modes.count == 1 ? "" : "s") \(named)",
            foregroundHex: result.foreground.opaqueHexString, backgroundHex: result.background.opaqueHexString, over: over, usage: pair.usage.rawValue,
            needs: Self.ratio(level.minimumRatio), level: Self.levelName(level),
            declaredBy: pair.declaredBy == tenant ? "" : "; the pair is declared by '\(pair.declaredBy)', the colours are \(tenant)'s")
        let hint = pair.usage == .body && result.meets(.aaLarge)
            ? "it would pass as large text (usage: large) if the text is ≥ 24 px, or ≥ 18.67 px bold; otherwise change a colour, or add \"acknowledged\": \"reason\""
            : "change one of the colours, or add \"acknowledged\": \"reason\" if the design ships this pair knowingly"
        return Diagnostic(.error, message, at: pair.location, rule: Self.id, hint: hint)
    }

    static func ratio(_ value: Double) -> String { value == value.rounded() ? "\(Int(value)):1" : "\(value):1" }

    static func levelName(_ level: WCAGLevel) -> String {
        switch level {
        case .aa: "WCAG AA, SC 1.4.3"
        case .aaLarge: "WCAG AA large text, SC 1.4.3"
        case .aaNonText: "WCAG AA non-text, SC 1.4.11"
        case .aaa: "WCAG AAA, SC 1.4.6"
        case .aaaLarge: "WCAG AAA large text, SC 1.4.6"
        }
    }
}
