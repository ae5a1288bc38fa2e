import Foundation
import LiveryAssets
import LiveryPack
import LiveryRender
import XCTest

/// `livery generate`, `livery preview` (rendered by headless Chromium) and the core bundle's share.
final class PlatformCommandTests: XCTestCase {
    func testGenerateWritesEveryTenantsPlatformFiles() throws {
        let output = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try LiveryProcess.run(["generate", "Tenants", "--output", output.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        // 9 theme and token files, the asset catalog's Contents.json, a colour set per colour (84), and the
        // build settings: xcconfig, Gradle properties, and InfoPlist.strings and app_name.xml for en and ru (6), and
        // the icons and launch screens (41, docs/app-icons.md): iOS 9 (icon set 3 + Contents.json, launch image set
        // 3 + Contents.json, LaunchScreen.plist), Android 26 (foreground, monochrome, legacy and legacy round at 5
        // densities, the adaptive icon and its round twin, its background colour, the Play icon, splash light and
        // night), web 6 (favicon PNG and ICO, 3 manifest icons, the manifest's icons member).
        // the store listings: 8 App Store files and 4 Google Play files for each of en and ru (24); and the messages as the apps
        // compile them: one String Catalog and a strings.xml for each of en and ru (3).
        XCTAssertTrue(result.stdout.contains("physio-clinic: 168 files in"), result.stdout)
        for path in ["swiftui/Theme.swift", "compose/Theme.kt", "android/values/colors.xml", "android/values-night/colors.xml",
                     "android/values/dimens.xml", "css/tokens.css", "react-native/theme.ts", "tokens/default.tokens.json", "tokens/dark.tokens.json",
                     "swiftui/Assets.xcassets/Contents.json", "swiftui/Assets.xcassets/brandPrimary.colorset/Contents.json",
                     "ios/Tenant.xcconfig", "ios/ru.lproj/InfoPlist.strings", "android/tenant.gradle.properties", "android/values-ru/app_name.xml",
                     "fastlane/metadata/ios/ru/keywords.txt", "fastlane/metadata/android/ru-RU/short_description.txt",
                     "fastlane/metadata/android/en-US/changelogs/default.txt", "android/mipmap-xxhdpi/ic_launcher_round.png",
                     "android/mipmap-anydpi-v26/ic_launcher_round.xml", "web/favicon.ico",
                     "ios/Localizable.xcstrings", "android/values/strings.xml", "android/values-ru/strings.xml"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: output.appendingPathComponent("physio-clinic/\(path)").path), path)
        }
        // A tenant without modes gets its one document; a creator gets its base's tokens merged in.
        XCTAssertTrue(FileManager.default.fileExists(atPath: output.appendingPathComponent("sonic-walkscape/tokens/default.tokens.json").path))
        // The Sonic Walkscape document's "Export color palette to Swift Color Assets".
        XCTAssertTrue(FileManager.default.fileExists(atPath: output.appendingPathComponent("sonic-walkscape/swiftui/Assets.xcassets/paletteOrange.colorset/Contents.json").path))
        let lucia = try String(contentsOf: output.appendingPathComponent("companero-lucia/css/tokens.css"), encoding: .utf8)
        XCTAssertTrue(lucia.contains("--color-brand-primary:"), "inherited tokens are generated too")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.appendingPathComponent("companero-lucia/ios").path),
                       "a creator ships inside its platform's app: no build settings of its own")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.appendingPathComponent("companero-lucia/fastlane").path),
                       "nor store listings")
    }

    /// A workspace is generated a group of lineages at a time into a staging folder: one broken tenant
    /// means nothing is written, not even the files of tenants checked before it, and no staging folder stays.
    func testGenerateWritesNothingWhenAnyTenantFailsAndLeavesNoStagingFolder() throws {
        let root = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let tenants = root.appendingPathComponent("Tenants")
        try FileManager.default.copyItem(at: LiveryProcess.packageRoot.appendingPathComponent("Tenants"), to: tenants)
        // Seventy small tenants, so that the workspace takes two groups of lineages (64 tenants at most each).
        for i in 0..<70 {
            let folder = tenants.appendingPathComponent(String(format: "m%03d", i))
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("locales"), withIntermediateDirectories: true)
            try "id: \(folder.lastPathComponent)\nkind: brand\nname: M\(i)\nlocales:\n  default: en\n  supported: [en]\n"
                .write(to: folder.appendingPathComponent("tenant.yaml"), atomically: true, encoding: .utf8)
            try "title: \"M \(i)\"\n".write(to: folder.appendingPathComponent("locales/en.yaml"), atomically: true, encoding: .utf8)
        }
        // The last folder in order, in the second group: its broken token comes after the first group was generated.
        let broken = tenants.appendingPathComponent("zz-broken")
        try FileManager.default.copyItem(at: tenants.appendingPathComponent("urbannest"), to: broken)
        let manifest = broken.appendingPathComponent("tenant.yaml")
        try (try String(contentsOf: manifest, encoding: .utf8)).replacingOccurrences(of: "id: urbannest", with: "id: zz-broken")
            .write(to: manifest, atomically: true, encoding: .utf8)
        let tokens = try XCTUnwrap(FileManager.default.enumerator(atPath: broken.path)?.compactMap { $0 as? String }.first { $0.hasSuffix(".tokens.json") })
        try "{\"color\": {\"$type\": \"color\", \"x\": {\"$value\": \"#12\"}}}\n".write(to: broken.appendingPathComponent(tokens), atomically: true, encoding: .utf8)
        let output = root.appendingPathComponent("Generated")
        let result = try LiveryProcess.run(["generate", "Tenants", "--output", output.path], in: root)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stderr.contains("nothing was written"), result.stderr)
        XCTAssertTrue(result.stderr.contains("zz-broken/"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "no tenant's files were written")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted(), ["Tenants"], "no staging folder stays")
        // Fixed, the same command writes every tenant.
        try FileManager.default.removeItem(at: broken)
        XCTAssertEqual(try LiveryProcess.run(["generate", "Tenants", "--output", output.path], in: root).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output.appendingPathComponent("urbannest/css/tokens.css").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: output.appendingPathComponent("m069/css/tokens.css").path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted(), ["Generated", "Tenants"])
    }

    func testGenerateRefusesAnUnknownTemplatesFolder() throws {
        let result = try LiveryProcess.run(["generate", "Tenants", "--output", "/tmp/unused", "--templates", "/nonexistent"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("has no platform/ folder"), result.stderr)
    }

    func testBrandSheetIsSelfContainedAndShowsTheContrastMatrix() throws {
        let folder = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("sheet.html")
        let result = try LiveryProcess.run(["preview", "Tenants/physio-clinic", "--brand-sheet", page.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let html = try String(contentsOf: page, encoding: .utf8)
        XCTAssertFalse(html.contains("<script"), "no JavaScript")
        XCTAssertFalse(html.contains("http://") || html.contains("https://") || html.contains("@import"), "no external fetches")
        XCTAssertTrue(html.contains("mode “dark”"), "a palette per mode")
        XCTAssertTrue(html.contains("color.text.primary"))
        XCTAssertTrue(html.contains("<td class=\"ratio\">17.73:1</td>"), "gray-900 on white, rounded down")
        XCTAssertTrue(html.contains("Lively: overshoots 7 % and settles in about 0.43 s"), "the smooth slide spring, damping 18, stiffness 200")
        XCTAssertTrue(html.contains("box-shadow: 0 4px 12px 0 #00000026"), "the Standard level: 0.15, radius 6")
        let byID = try LiveryProcess.run(["preview", "physio-clinic", "--brand-sheet", "-"])
        XCTAssertEqual(byID.stdout, html, "a tenant id in Tenants/ works the same, to standard output")
        // The form from before --output named the site's folder still writes the brand sheet alone, with a warning.
        let old = try LiveryProcess.run(["preview", "physio-clinic", "--output", "-"])
        XCTAssertEqual(old.stdout, html)
        XCTAssertEqual(old.stderr, "warning: --output - for the brand sheet alone is deprecated: use --brand-sheet - (--output names the site's folder, as for build and generate)\n")
        let both = try LiveryProcess.run(["preview", "physio-clinic", "--output", "site", "--brand-sheet", "-"])
        XCTAssertEqual(both.status, 2, both.stderr)
    }

    /// Chromium (Debian `chromium`, in the Makefile's TEST_PACKAGES) renders the brand sheet to a
    /// PNG; Pillow checks its size, that it is not one flat colour, and that the brand primary
    /// (#0066CC, a palette swatch) is really painted.
    func testBrandSheetRendersInHeadlessChromium() throws {
        let folder = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("sheet.html"), png = folder.appendingPathComponent("sheet.png")
        let preview = try LiveryProcess.run(["preview", "Tenants/physio-clinic", "--brand-sheet", page.path])
        XCTAssertEqual(preview.status, 0, preview.stderr)
        let chromium = try PlatformFixtures.tool([
            "chromium", "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=" + folder.appendingPathComponent("profile").path,
            "--screenshot=" + png.path, "--window-size=1200,2000", page.absoluteString,
        ], timeout: 240)
        XCTAssertTrue(FileManager.default.fileExists(atPath: png.path), "chromium wrote no screenshot (status \(chromium.status)): \(chromium.stderr.suffix(2000))")
        let script = """
            import sys
            from PIL import Image
            image = Image.open(sys.argv[1]).convert("RGB")
            colours = image.getcolors(maxcolors=1 << 24)
            has_primary = any(rgb == (0x00, 0x66, 0xCC) for _, rgb in colours)
            print(image.size[0], image.size[1], len(colours), has_primary)
            """
        let result = try PlatformFixtures.tool(["python3", "-c", script, png.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let fields = result.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        XCTAssertEqual(fields.count, 4, result.stdout)
        guard fields.count == 4 else { return }
        XCTAssertEqual(fields[0], "1200")
        XCTAssertEqual(fields[1], "2000")
        XCTAssertGreaterThan(Int(fields[2]) ?? 0, 200, "a page of swatches and type has many colours, not one")
        XCTAssertEqual(fields[3], "True", "the brand primary swatch is painted")
    }

    func testCoreBundleCarriesPlatformFilesAndTheResolvedTokensOfEveryMode() throws {
        let folder = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ContentStore(root: folder.appendingPathComponent("store"))
        let tenant = try PlatformFixtures.sample("physio-clinic")
        let first = try BundlePlanner.plan(tenant, store: store)
        let core = try XCTUnwrap(first.first { $0.id == "core" })
        let paths = Set(core.entries.map(\.path))
        for path in ["tokens/default.tokens.json", "tokens/dark.tokens.json", "platform/swiftui/Theme.swift", "platform/compose/Theme.kt",
                     "platform/android/values/colors.xml", "platform/android/values-night/colors.xml", "platform/css/tokens.css",
                     "platform/react-native/theme.ts"] {
            XCTAssertTrue(paths.contains(path), path)
        }
        XCTAssertFalse(paths.contains { $0.contains(".xcassets/") }, "colour assets are for app builds (livery generate), not in every device's download")
        XCTAssertFalse(paths.contains { $0.hasPrefix("platform/ios/") || $0.hasSuffix("/app_name.xml") || $0.hasSuffix(".gradle.properties") },
                       "build settings are for app builds (livery generate), not in every device's download")
        XCTAssertFalse(paths.contains { $0.hasPrefix("platform/fastlane/") }, "store listings are for release pipelines (livery generate)")
        // Nor is the listing text in the app's locale files: no app reads store.* messages.
        for bundle in first where bundle.kind == .locale {
            for entry in bundle.entries {
                guard case .data(let data) = entry.content else { continue }
                let text = String(decoding: data, as: UTF8.self)
                XCTAssertFalse(text.contains("store.") || text.contains("store_") || text.contains("Rehab at Home"), "\(bundle.id) \(entry.path) carries store text")
                XCTAssertTrue(text.contains("home") || text.contains("Home"), "\(bundle.id) \(entry.path) keeps the app's text")
            }
        }
        let again = try XCTUnwrap(try BundlePlanner.plan(tenant, store: store).first { $0.id == "core" })
        XCTAssertEqual(again.entries.map(\.sha256), core.entries.map(\.sha256), "the same inputs give the same core bundle")
    }
}
