import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

/// `branding.canonical`: font sizes, radii and springs come from the tenant's declared sets.
struct CanonicalScaleRule: Rule {
    static let id: RuleID = "branding.canonical"
    static let description = RuleDescription(
        id: id, name: "Canonical sizes, radii and springs", family: .branding,
        rationale: "Typography font sizes, corner radii and spring configurations are drawn from the canonical sets a tenant declares (`com.livery.canonical` at the top of a token file, inherited by creators), so screens and creators cannot drift into one-off values.",
        messages: [declare(Message.notCanonical)],
        triggering: [
            RuleExample("a 16 px body where the type scale has 15 and 17", files: TokenExample.files("""
                {"$extensions": {"com.livery": {"canonical": {"fontSizes": [15, 17, 28]}}},
                 "typography": {"$type": "typography", "body": {"$value": {"fontFamily": "Inter", "fontSize": ↓{"value": 16, "unit": "px"},
                   "fontWeight": 400, "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1.5}}}}

                """)),
            RuleExample("a component radius outside the scale", files: TokenExample.files("""
                {"$extensions": {"com.livery": {"canonical": {"radii": [0, 8, 12]}}},
                 "component": {"$type": "dimension", "card": {"radius": {"$value": ↓{"value": 10, "unit": "px"}}}}}

                """)),
            RuleExample("a spring that is not a canonical one", files: TokenExample.files("""
                {"$extensions": {"com.livery": {"canonical": {"springs": [{"damping": 15, "stiffness": 150, "mass": 1}]}}},
                 "motion": {"$type": "number", "pop": {"$value": 12, "$extensions": {"com.livery": {"spring": ↓{"damping": 12, "stiffness": 150, "mass": 1}}}}}}

                """)),
        ],
        nonTriggering: [
            RuleExample("values from the sets, also through aliases", files: TokenExample.files("""
                {"$extensions": {"com.livery": {"canonical": {"fontSizes": [15], "radii": [8], "springs": [{"damping": 15, "stiffness": 150, "mass": 1}]}}},
                 "radius": {"$type": "dimension", "md": {"$value": {"value": 0.5, "unit": "rem"}}},
                 "component": {"$type": "dimension", "card": {"radius": {"$value": "{radius.md}"}}},
                 "typography": {"$type": "typography", "body": {"$value": {"fontFamily": "Roboto", "fontSize": {"value": 15, "unit": "px"},
                   "fontWeight": 400, "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1.5}}},
                 "motion": {"$type": "number", "default": {"$value": 15, "$extensions": {"com.livery": {"spring": {"damping": 15, "stiffness": 150}}}}}}

                """)),
        ])

    enum Message {
        static func notCanonical(path: String, what: String, value: String, set: String, allowed: String, declared: String) -> DiagnosticMessage {
            DiagnosticMessage("not-canonical", "'\(path)' has \(what) \(value), not one of the canonical \(set) \(allowed)\(declared)")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        let sets = TenantExtensions.of(context.tenant).canonical
        var diagnostics: [Diagnostic] = []
        func report(_ what: String, _ value: String, of path: String, at node: Node, set: String, allowed: [String]) {
            let declared = sets.locations[set].map { " (declared at \($0))" } ?? ""
            diagnostics.append(Diagnostic(.error, Message.notCanonical(path: path, what: what, value: value, set: set, allowed: allowed.joined(separator: ", "), declared: declared),
                                          at: node.location, rule: Self.id, hint: "use a value of the set, or add it to 'canonical.\(set)'"))
        }
        for (_, tokens) in DesignTokens.modes(context.tenant) {
            for token in tokens.tokens.values where DesignTokens.own(token, context) {
                let type = tokens.types[token.path]
                if type == "typography", let sizes = sets.fontSizes, let size = tokens.values[token.path]?["fontSize"].flatMap(DTCGDimension.pixels),
                   !Self.contains(sizes, size) {
                    report("font size", "\(Self.text(size)) px", of: token.path, at: token.value["fontSize"] ?? token.value, set: "fontSizes", allowed: sizes.map(Self.text))
                }
                if type == "dimension", let radii = sets.radii, token.path.split(separator: ".").contains(where: { $0 == "radius" || $0.hasSuffix("-radius") }),
                   let size = tokens.pixels(token.path), !Self.contains(radii, size) {
                    report("radius", "\(Self.text(size)) px", of: token.path, at: token.value, set: "radii", allowed: radii.map(Self.text))
                }
                if let springs = sets.springs, let node = LiveryExtensions.of(token.extensions)?["spring"],
                   let spring = SpringConfig(tokens.liveryExtension(of: token.path)?["spring"]), !springs.contains(spring) {
                    report("spring", spring.description, of: token.path, at: node, set: "springs", allowed: springs.map(\.description))
                }
            }
        }
        return diagnostics
    }

    static func contains(_ set: [Double], _ value: Double) -> Bool { set.contains { abs($0 - value) < 1e-9 } }
    static func text(_ value: Double) -> String { SpringConfig.text(value) }
}

/// `branding.touch-target`: interactive component heights are at least 44 pt.
struct TouchTargetRule: Rule {
    static let id: RuleID = "branding.touch-target"
    static let minimum = 44.0
    static let description = RuleDescription(
        id: id, name: "Touch targets", family: .branding,
        rationale: "A component height (a dimension token under a `component` group named `height`) is at least 44 pt (Apple HIG, WCAG 2.5.5), unless the token or its group declares a `hitArea` of at least 44 pt or `interactive: false`; 1 px = 1 pt = 1 dp, 1 rem = 16 px.",
        messages: [declare(Message.smallHitArea), declare(Message.tooShort)],
        triggering: [
            RuleExample("a 32 px button", files: TokenExample.files("""
                {"component": {"$type": "dimension", "button": {"height": {"small": {"$value": ↓{"value": 32, "unit": "px"}}}}}}

                """)),
            RuleExample("a hit area that is still too small", files: TokenExample.files("""
                {"component": {"$type": "dimension", "chip": {"height": {"$value": {"value": 28, "unit": "px"},
                  "$extensions": {"com.livery": {"hitArea": ↓{"value": 40, "unit": "px"}}}}}}}

                """)),
        ],
        nonTriggering: [RuleExample("tall enough, a declared hit area, and a non-interactive bar", files: TokenExample.files("""
            {"component": {"$type": "dimension",
              "touch-target": {"$value": {"value": 44, "unit": "px"}},
              "button": {"height": {"large": {"$value": {"value": 3, "unit": "rem"}},
                "small": {"$value": {"value": 32, "unit": "px"}, "$extensions": {"com.livery": {"hitArea": "{component.touch-target}"}}}}},
              "progress": {"$extensions": {"com.livery": {"interactive": false}}, "height": {"$value": {"value": 4, "unit": "px"}}}}}

            """))])

    enum Message {
        static func smallHitArea(path: String, height: String, area: String, place: String) -> DiagnosticMessage {
            DiagnosticMessage("small-hit-area", "'\(path)' is \(height) pt tall and its hit area is \(area)\(place); touch targets are at least 44 pt")
        }
        static func tooShort(path: String, height: String, place: String) -> DiagnosticMessage {
            DiagnosticMessage("too-short", "'\(path)' is \(height) pt tall\(place); interactive components are at least 44 pt")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (mode, tokens) in DesignTokens.modes(context.tenant) {
            for token in tokens.tokens.values where DesignTokens.own(token, context) && tokens.types[token.path] == "dimension" {
                let parts = token.path.split(separator: ".")
                guard parts.contains("component"), parts.contains("height"), let height = tokens.pixels(token.path), height < Self.minimum else { continue }
                if DesignTokens.inherited("interactive", for: token, in: context.tenant)?.bool == false { continue }
                let place = mode == "default" ? "" : " in mode '\(mode)'"
                if let hitArea = DesignTokens.inherited("hitArea", for: token, in: context.tenant) {
                    let area = TokenReference.of(hitArea).flatMap { tokens.pixels($0.path) } ?? DTCGDimension.pixels(hitArea)
                    if let area, area >= Self.minimum { continue }
                    diagnostics.append(Diagnostic(.error, Message.smallHitArea(path: token.path, height: CanonicalScaleRule.text(height), area: area.map { CanonicalScaleRule.text($0) + " pt" } ?? "not a dimension", place: place),
                                                  at: hitArea.location, rule: Self.id))
                    continue
                }
                diagnostics.append(Diagnostic(.error, Message.tooShort(path: token.path, height: CanonicalScaleRule.text(height), place: place),
                                              at: token.value.location, rule: Self.id,
                                              hint: "make it 44 pt, declare \"$extensions\": {\"com.livery\": {\"hitArea\": \"{component.touch-target.min}\"}}, or \"interactive\": false"))
            }
        }
        return diagnostics
    }
}
