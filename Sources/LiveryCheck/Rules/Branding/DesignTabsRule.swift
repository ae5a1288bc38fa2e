import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

/// `branding.tabs`: 2–5 bottom tabs (more only behind a declared overflow 'More' tab), each with its identity colour, tints as declared.
struct TabIdentityRule: Rule {
    static let id: RuleID = "branding.tabs"
    static let description = RuleDescription(
        id: id, name: "Tab bar and tab identity", family: .branding,
        rationale: "A bottom tab bar (navigation and every role) has 2 to 5 tabs. More than five are allowed only when the design declares an overflow 'More' tab (`navigation.overflow`, or a role's `overflow`): the bar then shows the first four tabs and More, which lists the rest, as iOS's tab bar does; an overflow tab on a list of five or fewer is never shown (warning). When a tenant gives tabs identities (`com.livery.tab` on colour tokens), every tab's `color` is one of them, and a declared `tinted` colour equals the identity colour at the declared tint (as a translucent colour, or composited over the mode's `color.background.default`).",
        messages: [declare(Message.roleOverflowOnly), declare(Message.tabCount), declare(Message.overflowUnused), declare(Message.noIdentity), declare(Message.notIdentity), declare(Message.tintMismatch)],
        triggering: [
            RuleExample("six tabs", files: ["example/tenant.yaml": RuleExample.tenant(appending: """
                    - {id: a, icon: a, label: nav.home}
                    - {id: b, icon: b, label: nav.home}
                    - {id: c, icon: c, label: nav.home}
                    - {id: d, icon: d, label: nav.home}

                """)]),
            RuleExample("a tinted swatch that is not 15% of the identity colour", files: identity(tinted: "#e0f0ff", marker: true)),
            RuleExample("a tab without an identity colour, where tabs have identities", files: identity(tinted: "#dbf5ec", marker: false).mapValues {
                $0.replacingOccurrences(of: "- {id: profile, icon: person, label: nav.profile, color: \"{color.tab.home}\"}",
                                        with: "- ↓{id: profile, icon: person, label: nav.profile}")
            }),
            RuleExample("a tab coloured with a colour that is not a tab identity", files: identity(tinted: "#dbf5ec", marker: false).mapValues {
                $0.replacingOccurrences(of: "label: nav.profile, color: \"{color.tab.home}\"}", with: "label: nav.profile, color: ↓\"{color.palette.white}\"}")
            }),
            RuleExample("an overflow 'More' tab that two tabs never need", files: overflow(tabs: 0, marker: true)),
            RuleExample("a role's overflow 'More' tab without tabs of its own", files: ["example/tenant.yaml": RuleExample.tenant(appending: """
                roles:
                  - id: coach
                    label: nav.home
                    overflow: ↓{id: more, icon: ellipsis, label: nav.profile}

                """)]),
        ],
        nonTriggering: [
            RuleExample("two tabs with identities and a matching tint", files: identity(tinted: "#dbf5ec", marker: false)),
            RuleExample("six tabs, the last two behind a declared 'More' tab", files: overflow(tabs: 4, marker: false)),
            RuleExample("a role's six tabs use navigation's 'More' tab", files: overflow(tabs: 4, marker: false).merging([
                "example/tenant.yaml": overflow(tabs: 4, marker: false)["example/tenant.yaml"]! + """
                    roles:
                      - id: coach
                        label: nav.home
                        tabs:
                          - {id: home, icon: house, label: nav.home}
                          - {id: chat, icon: chat, label: nav.chat}
                          - {id: progress, icon: progress, label: nav.progress}
                          - {id: programs, icon: programs, label: nav.programs}
                          - {id: library, icon: library, label: nav.library}
                          - {id: profile, icon: person, label: nav.profile}

                    """]) { _, new in new }),
        ])

    /// The minimal tenant with `extra` more tabs and an overflow 'More' tab (and its label).
    static func overflow(tabs extra: Int, marker: Bool) -> [String: String] {
        let names = ["programs", "library", "progress", "chat"]
        var files = RuleExample.base
        files["example/tenant.yaml"] = RuleExample.tenant(appending: names.prefix(extra).map { "    - {id: \($0), icon: \($0), label: nav.\($0)}\n" }.joined()
            + "  overflow: \(marker ? "↓" : ""){id: more, icon: ellipsis, label: nav.more}\n")
        files["example/locales/en.yaml"] = files["example/locales/en.yaml"]! + names.prefix(extra).map { "  \($0): \($0.prefix(1).uppercased() + $0.dropFirst())\n" }.joined() + "  more: More\n"
        return files
    }

    /// An example tenant whose two tabs use the emerald identity, with a 15% tinted swatch.
    static func identity(tinted: String, marker: Bool) -> [String: String] {
        let color = SRGBColor(hex: tinted) ?? .white
        var files = TokenExample.files("""
            {"color": {"$type": "color", "palette": {
               "emerald": {"$value": {"colorSpace": "srgb", "components": [0.0627, 0.7255, 0.5059], "hex": "#10b981"}},
               "emerald-tint": {"$value": {"colorSpace": "srgb", "components": [\(color.red), \(color.green), \(color.blue)], "hex": "\(tinted)"}},
               "white": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1], "hex": "#ffffff"}}},
              "background": {"default": {"$value": "{color.palette.white}"}},
              "tab": {"home": {"$value": "{color.palette.emerald}",
                "$extensions": {"com.livery": {"tab": {"tint": 0.15, "header": "{color.palette.emerald}", "tinted": \(marker ? "↓" : "")"{color.palette.emerald-tint}"}}}}}}}

            """)
        files["example/tenant.yaml"] = files["example/tenant.yaml"]!
            .replacingOccurrences(of: "label: nav.home}", with: "label: nav.home, color: \"{color.tab.home}\"}")
            .replacingOccurrences(of: "label: nav.profile}", with: "label: nav.profile, color: \"{color.tab.home}\"}")
        return files
    }

    enum Message {
        static func roleOverflowOnly(role: String) -> DiagnosticMessage {
            DiagnosticMessage("role-overflow-only", "role '\(role)' declares an overflow 'More' tab but no tabs of its own; it uses navigation's")
        }
        static func tabCount(owner: String, count: Int, noun: String, overflow: String) -> DiagnosticMessage {
            DiagnosticMessage("tab-count", "\(owner) has \(count) \(noun); a bottom tab bar holds 2 to 5\(overflow)")
        }
        static func overflowUnused(owner: String, count: Int) -> DiagnosticMessage {
            DiagnosticMessage("overflow-unused", "\(owner) declares an overflow 'More' tab, but its \(count) tabs fit the bar, so More is never shown")
        }
        static func noIdentity(tab: String, owner: String) -> DiagnosticMessage {
            DiagnosticMessage("no-identity", "tab '\(tab)' of \(owner) has no identity colour")
        }
        static func notIdentity(tab: String, reference: String) -> DiagnosticMessage {
            DiagnosticMessage("not-identity", "tab '\(tab)' uses '\(reference)', which is not a tab identity (a colour token with com.livery.tab)")
        }
        static func tintMismatch(path: String, tinted: String, what: String, expected: String, mode: String) -> DiagnosticMessage {
            DiagnosticMessage("tint-mismatch", "'\(path)' declares the tinted colour \(tinted) but \(what) is \(expected) in mode '\(mode)'")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let tenant = context.source.tenant?.node
        var lists: [(String, Node)] = []
        // Each tab list with the overflow tab it may use, and the overflow it declares itself (a role inherits navigation's).
        var overflows: [(used: Node?, own: Node?)] = []
        let navigationOverflow = tenant?["navigation"]?["overflow"]
        if let tabs = tenant?["navigation"]?["tabs"] {
            lists.append(("navigation", tabs))
            overflows.append((navigationOverflow, navigationOverflow))
        }
        for role in tenant?["roles"]?.items ?? [] {
            if let tabs = role["tabs"] {
                lists.append(("role '\(role["id"]?.string ?? "?")'", tabs))
                overflows.append((role["overflow"] ?? navigationOverflow, role["overflow"]))
            } else if let own = role["overflow"] {
                diagnostics.append(Diagnostic(.warning, Message.roleOverflowOnly(role: role["id"]?.string ?? "?"),
                                              at: own.location, rule: Self.id, hint: "move it to navigation.overflow, or give the role its tabs"))
            }
        }
        for ((owner, list), overflow) in zip(lists, overflows) {
            guard let items = list.items else { continue }
            if items.count < 2 || (items.count > 5 && overflow.used == nil) {
                diagnostics.append(Diagnostic(.error, Message.tabCount(owner: owner, count: items.count, noun: items.count == 1 ? "tab" : "tabs",
                                                                 overflow: items.count > 5 ? ", or more behind a declared overflow 'More' tab" : ""),
                                              at: list.location, rule: Self.id,
                                              hint: items.count > 5 ? "declare overflow: {id: more, icon: ellipsis, label: nav.more} beside the tabs (the bar shows the first four and More), or move the rest into a screen" : nil))
            } else if items.count <= 5, let own = overflow.own {
                diagnostics.append(Diagnostic(.warning, Message.overflowUnused(owner: owner, count: items.count),
                                              at: own.location, rule: Self.id, hint: "remove overflow, or keep it only with six tabs or more"))
            }
        }
        guard let base = context.tenant.tokens["default"] else { return diagnostics }
        let identities = Set(base.tokens.values.filter { LiveryExtensions.of($0.extensions)?["tab"] != nil }.map(\.path))
        guard !identities.isEmpty else { return diagnostics }
        var used = Set<String>()
        for (owner, list) in lists {
            for tab in list.items ?? [] {
                let name = tab["id"]?.string ?? "?"
                guard let color = tab["color"] else {
                    diagnostics.append(Diagnostic(.error, Message.noIdentity(tab: name, owner: owner), at: tab.location, rule: Self.id,
                                                  hint: "add color: \"{\(identities.sorted()[0])}\""))
                    continue
                }
                guard let reference = TokenReference.of(color), base.tokens[reference.path] != nil else { continue }  // branding.token-reference reports these
                guard identities.contains(reference.path) else {
                    diagnostics.append(Diagnostic(.error, Message.notIdentity(tab: name, reference: reference.text),
                                                  at: color.location, rule: Self.id, hint: DidYouMean.hint(for: reference.path, among: identities)))
                    continue
                }
                used.insert(reference.path)
            }
        }
        for path in used.sorted() { diagnostics += tint(of: path, context) }
        return diagnostics
    }

    /// Compares a declared `tinted` colour with the identity colour at `tint`, in every mode.
    func tint(of path: String, _ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (mode, tokens) in DesignTokens.modes(context.tenant) {
            guard let token = tokens.tokens[path], DesignTokens.own(token, context),
                  let written = LiveryExtensions.of(token.extensions)?["tab"]?["tinted"],
                  let tab = tokens.liveryExtension(of: path)?["tab"], let tint = tab["tint"]?.number,
                  let identity = tokens.color(path)?.srgb(), let tinted = tab["tinted"].flatMap(DTCGColor.init(node:))?.srgb() else { continue }
            let expected: SRGBColor, what: String
            if tinted.alpha < 1 {
                expected = SRGBColor(red: identity.red, green: identity.green, blue: identity.blue, alpha: tint)
                what = "\(identity.opaqueHexString) at \(Int((tint * 100).rounded()))%"
            } else {
                let background = tokens.color(ContrastAudit.defaultBase)?.srgb() ?? .white
                expected = Contrast.composite(SRGBColor(red: identity.red, green: identity.green, blue: identity.blue, alpha: tint), over: background)
                what = "\(identity.opaqueHexString) at \(Int((tint * 100).rounded()))% over \(background.opaqueHexString)"
            }
            let a = expected.bytes, b = tinted.bytes
            let off = max(abs(a.red - b.red), abs(a.green - b.green), abs(a.blue - b.blue), abs(a.alpha - b.alpha))
            guard off > 1 else { continue }
            diagnostics.append(Diagnostic(.error, Message.tintMismatch(path: path, tinted: tinted.hexString, what: what, expected: expected.hexString, mode: mode),
                                          at: written.location, rule: Self.id, hint: "alias a colour of \(expected.hexString), or change 'tint'"))
        }
        return diagnostics
    }
}
