import Foundation

/// Example workspaces of a brand with an app icon: store identifiers, colour tokens for the launch
/// screen, and the icon's SVG files.
public enum IconExample {
    public static let tokens = """
        {
          "color": {
            "$type": "color",
            "palette": {
              "blue": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8], "hex": "#0066cc"}},
              "white": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1], "hex": "#ffffff"}}
            },
            "brand": {"primary": {"$value": "{color.palette.blue}"}},
            "background": {"default": {"$value": "{color.palette.white}"}}
          }
        }

        """

    /// A square SVG of `width` × `height` with `body` inside.
    public static func svg(_ width: Int, _ height: Int? = nil, _ body: String? = nil) -> String {
        let height = height ?? width
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\">"
            + (body ?? "<rect width=\"\(width)\" height=\"\(height)\" fill=\"#0066cc\"/>") + "</svg>\n"
    }

    public static let master = svg(1024)

    /// `files` with an icon added to the `app:` of its tenant manifest (after `bundleIds`), and the
    /// colour tokens and image it needs: for other rules' examples of brands that ship an app.
    public static func adding(to files: [String: String]) -> [String: String] {
        var files = files
        guard var manifest = files["example/tenant.yaml"], let range = manifest.range(of: "  bundleIds:") else { return files }
        let lineEnd = manifest[range.upperBound...].range(of: "\n  [a-z]|\n[a-z]|\n$", options: .regularExpression)?.lowerBound ?? manifest.endIndex
        manifest.insert(contentsOf: "\n  icon:\n    master: assets/icon.svg", at: lineEnd)
        files["example/tenant.yaml"] = manifest + "branding:\n  tokens: [branding/tokens.json]\n"
        files["example/branding/tokens.json"] = tokens
        files["example/assets/icon.svg"] = master
        return files
    }

    /// A brand tenant whose `app:` holds `icon` (YAML lines indented under `icon:`), plus `extra` files.
    public static func files(icon: String?, launch: String = "", _ extra: [String: String] = ["example/assets/icon.svg": master]) -> [String: String] {
        var files = extra
        let iconLines = icon.map { "  icon:\n" + $0.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n") } ?? ""
        files["example/tenant.yaml"] = RuleExample.tenant(appending: """
            app:
              displayName: Example
              bundleIds: {ios: com.example.app, android: com.example.app}
            \(iconLines)\(launch)
            branding:
              tokens: [branding/tokens.json]

            """)
        files["example/branding/tokens.json"] = tokens
        return files
    }
}
