import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryImage
import LiveryLoad
import LiveryRender
import LiveryResolve
import XCTest

/// App icons and launch screens (docs/app-icons.md), checked by independent tools: Pillow opens every
/// PNG (size, mode, alpha), `jsonschema` checks the icon and image sets against schemas written from
/// Apple's asset catalog format, `xmllint` parses the Android XML, and Python's `plistlib` loads the
/// launch screen fragment and finds its colour among the generated colour sets.
final class AppIconTests: XCTestCase {
    static let schemas = PlatformFixtures.snapshots.appendingPathComponent("asset-catalog")
    static let brands = ["companero", "physio-clinic", "sonic-walkscape", "travel-experiences", "urbannest"]

    func write(_ files: [GeneratedFile], tenant: String, into folder: URL) throws {
        for file in files {
            let url = folder.appendingPathComponent(tenant).appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.contents.write(to: url)
        }
    }

    func testEverySampleBrandGetsEveryIconAtItsSizeCheckedByPillowSchemasXmllintAndPlistlib() throws {
        let root = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let started = Date()
        for id in Self.brands {
            let tenant = try PlatformFixtures.sample(id)
            let (files, diagnostics) = AppIcons.files(tenant)
            XCTAssertEqual(diagnostics, [], id)
            XCTAssertFalse(files.isEmpty, "\(id) declares an icon")
            try write(files + ColorAssets.files(tenant), tenant: id, into: root)
            // The Android XML, parsed by libxml2's own command-line tool.
            let xml = files.map(\.path).filter { $0.hasSuffix(".xml") }.map { root.appendingPathComponent(id).appendingPathComponent($0).path }
            XCTAssertEqual(xml.count, 4, "\(id): adaptive icon, background colour, splash light and night")
            let lint = try PlatformFixtures.tool(["xmllint", "--noout"] + xml)
            XCTAssertEqual(lint.status, 0, lint.stderr)
        }
        print("app icons of \(Self.brands.count) sample brands drawn in \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
        XCTAssertFalse(RasterImage.libraryVersion.isEmpty)

        let script = #"""
            import json, pathlib, plistlib, sys
            import jsonschema
            from PIL import Image
            schemas, root = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
            problems = []
            appiconset = jsonschema.Draft202012Validator(json.loads((schemas / "appiconset.schema.json").read_text()))
            imageset = jsonschema.Draft202012Validator(json.loads((schemas / "imageset.schema.json").read_text()))

            def png(path, size, mode):
                if not path.exists():
                    problems.append(f"{path}: missing"); return None
                with Image.open(path) as image:
                    image.load()
                    if image.format != "PNG": problems.append(f"{path}: {image.format}, not PNG")
                    if image.size != (size, size): problems.append(f"{path}: {image.size}, expected {size}x{size}")
                    if mode and image.mode != mode: problems.append(f"{path}: mode {image.mode}, expected {mode}")
                    if image.info.keys() - {"dpi", "gamma"}: problems.append(f"{path}: metadata {sorted(image.info)}")
                    return image.copy()

            for tenant in sys.argv[3:]:
                base = root / tenant
                catalog = base / "swiftui/Assets.xcassets"
                contents = json.loads((catalog / "AppIcon.appiconset/Contents.json").read_text())
                for error in appiconset.iter_errors(contents): problems.append(f"{tenant} AppIcon: {error.message}")
                images = contents["images"]
                if [i.get("appearances", [{}])[0].get("value") for i in images] != [None, "dark", "tinted"]:
                    problems.append(f"{tenant}: appearances {images}")
                # The opaque icon has no alpha channel at all (RGB), as the App Store requires.
                png(catalog / "AppIcon.appiconset/AppIcon.png", 1024, "RGB")
                for image in images:
                    if "filename" in image: png(catalog / "AppIcon.appiconset" / image["filename"], 1024, None)
                launch = json.loads((catalog / "LaunchLogo.imageset/Contents.json").read_text())
                for error in imageset.iter_errors(launch): problems.append(f"{tenant} LaunchLogo: {error.message}")
                for image in launch["images"]:
                    png(catalog / "LaunchLogo.imageset" / image["filename"], 160 * int(image["scale"][0]), "RGBA")
                for density, scale in [("mdpi", 1), ("hdpi", 1.5), ("xhdpi", 2), ("xxhdpi", 3), ("xxxhdpi", 4)]:
                    folder = base / f"android/mipmap-{density}"
                    foreground = png(folder / "ic_launcher_foreground.png", int(108 * scale), "RGBA")
                    png(folder / "ic_launcher_monochrome.png", int(108 * scale), "RGBA")
                    png(folder / "ic_launcher.png", int(48 * scale), "RGB")
                    if foreground is not None and density == "xxxhdpi":
                        # Pillow's own alpha bounding box: the drawn mark lies inside the 66 dp square around the safe circle.
                        left, top, right, bottom = foreground.getchannel("A").point(lambda a: 255 if a > 32 else 0).getbbox()
                        if min(left, top) < 432 * 21 / 108 - 1 or max(right, bottom) > 432 * 87 / 108 + 1:
                            problems.append(f"{tenant}: foreground box {(left, top, right, bottom)} leaves the 66 dp square")
                png(base / "android/ic_launcher-playstore.png", 512, "RGB")
                png(base / "web/icons/favicon-32.png", 32, "RGB")
                png(base / "web/icons/icon-192.png", 192, "RGB")
                png(base / "web/icons/icon-512.png", 512, "RGB")
                png(base / "web/icons/icon-maskable-512.png", 512, "RGB")
                manifest = json.loads((base / "web/manifest-icons.json").read_text())
                for icon in manifest["icons"]:
                    if not (base / "web" / icon["src"]).exists(): problems.append(f"{tenant}: manifest names missing {icon['src']}")
                if sorted(i["purpose"] for i in manifest["icons"]) != ["any", "any", "any", "maskable"]:
                    problems.append(f"{tenant}: purposes {manifest['icons']}")
                with open(base / "ios/LaunchScreen.plist", "rb") as handle:
                    plist = plistlib.load(handle)
                screen = plist["UILaunchScreen"]
                if screen["UIImageName"] != "LaunchLogo": problems.append(f"{tenant}: UIImageName {screen['UIImageName']}")
                if not (catalog / f"{screen['UIColorName']}.colorset/Contents.json").exists():
                    problems.append(f"{tenant}: UIColorName {screen['UIColorName']} has no colour set")
            print("\n".join(problems))
            sys.exit(1 if problems else 0)
            """#
        let result = try PlatformFixtures.tool(["python3", "-c", script, Self.schemas.path, root.path] + Self.brands)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
    }

    func testSplashThemeTakesLightAndDarkColoursFromTheTokens() throws {
        let tenant = try PlatformFixtures.sample("physio-clinic")
        let files = AppIcons.files(tenant).files
        let light = try XCTUnwrap(files.first { $0.path == "android/values/splash_theme.xml" })
        let night = try XCTUnwrap(files.first { $0.path == "android/values-night/splash_theme.xml" })
        let lightText = String(decoding: light.contents, as: UTF8.self), nightText = String(decoding: night.contents, as: UTF8.self)
        func hex(_ token: String, _ mode: String) throws -> String {
            AppIcons.androidHex(try XCTUnwrap(tenant.tokens[mode]?.values[token].flatMap(PlatformColor.from), "\(token) in \(mode)"))
        }
        XCTAssertTrue(lightText.contains("<item name=\"windowSplashScreenBackground\">\(try hex("color.background.default", "default"))</item>"), lightText)
        XCTAssertTrue(nightText.contains("<item name=\"windowSplashScreenBackground\">\(try hex("color.background.default", "dark"))</item>"), nightText)
        XCTAssertTrue(lightText.contains("<item name=\"windowSplashScreenIconBackgroundColor\">\(try hex("color.brand.primary", "default"))</item>"), lightText)
        XCTAssertTrue(lightText.contains("<item name=\"windowSplashScreenAnimatedIcon\">@mipmap/ic_launcher_foreground</item>"), lightText)
        XCTAssertNotEqual(lightText, nightText, "physio-clinic has a dark mode")
        // Every file is recognised as an identity file (for app build pipelines), so a bundle filter can leave them out.
        XCTAssertEqual(files.filter { !$0.path.hasPrefix(ColorAssets.catalog + "/") && !AppIcons.isIdentityFile($0.path) }.map(\.path), [])
        XCTAssertFalse(AppIcons.isIdentityFile("android/values/colors.xml"))
        let adaptive = try XCTUnwrap(files.first { $0.path == "android/mipmap-anydpi-v26/ic_launcher.xml" })
        XCTAssertTrue(String(decoding: adaptive.contents, as: UTF8.self).contains("<monochrome android:drawable=\"@mipmap/ic_launcher_monochrome\"/>"))
    }

    func testTwoRunsWriteIdenticalBytes() throws {
        for id in ["physio-clinic", "sonic-walkscape"] {
            let tenant = try PlatformFixtures.sample(id)
            let first = AppIcons.files(tenant).files, second = AppIcons.files(tenant).files
            XCTAssertEqual(first.map(\.path), second.map(\.path), id)
            XCTAssertEqual(first, second, "\(id): the same inputs must give the same bytes")
            // No PNG carries a time or text chunk.
            for file in first where file.path.hasSuffix(".png") {
                let bytes = [UInt8](file.contents)
                for chunk in ["tIME", "tEXt", "iTXt", "zTXt", "eXIf"] {
                    XCTAssertNil(Self.find(Array(chunk.utf8), in: bytes), "\(file.path) holds a \(chunk) chunk")
                }
            }
        }
    }

    /// The two Android paths no sample takes: a master alone (the foreground is the master shrunk to the
    /// 72 dp the mask shows, on a transparent layer, over the brand colour) and a background image layer.
    func testAdaptiveLayersFromTheMasterAloneAndFromABackgroundImage() throws {
        let ring = IconExample.svg(432, 432, "<circle cx=\"216\" cy=\"216\" r=\"100\" fill=\"#ffffff\"/>")
        let alone = try ExampleWorkspace(RuleExample("master only", files: IconExample.files(icon: "master: assets/icon.svg\n")))
        let aloneResult = alone.validate()
        XCTAssertEqual(aloneResult.diagnostics.map(\.line), [])
        let files = AppIcons.files(try XCTUnwrap(aloneResult.tenants.first)).files
        let layer = try RasterImage.decode(try XCTUnwrap(files.first { $0.path == "android/mipmap-mdpi/ic_launcher_foreground.png" }).contents, as: .png)
        XCTAssertEqual([layer.width, layer.height], [108, 108])
        XCTAssertEqual(try layer.alphaBoundingBox(threshold: 128), RasterImage.Box(left: 18, top: 18, width: 72, height: 72), "the master fills the central 72 dp")
        let colour = try XCTUnwrap(files.first { $0.path == "android/values/ic_launcher_background.xml" })
        XCTAssertTrue(String(decoding: colour.contents, as: UTF8.self).contains("<color name=\"ic_launcher_background\">#0066CC</color>"))

        let layered = try ExampleWorkspace(RuleExample("background image", files: IconExample.files(
            icon: "master: assets/icon.svg\nandroid:\n  foreground: assets/fg.svg\n  background: assets/bg.svg\n",
            ["example/assets/icon.svg": IconExample.master, "example/assets/fg.svg": ring, "example/assets/bg.svg": IconExample.svg(432)])))
        let layeredResult = layered.validate()
        XCTAssertEqual(layeredResult.diagnostics.map(\.line), [])
        let layeredFiles = AppIcons.files(try XCTUnwrap(layeredResult.tenants.first)).files
        XCTAssertNil(layeredFiles.first { $0.path == "android/values/ic_launcher_background.xml" }, "the background is an image")
        let background = try XCTUnwrap(layeredFiles.first { $0.path == "android/mipmap-xxxhdpi/ic_launcher_background.png" })
        XCTAssertEqual(try RasterImage.decode(background.contents, as: .png).width, 432)
        let adaptive = String(decoding: try XCTUnwrap(layeredFiles.first { $0.path == "android/mipmap-anydpi-v26/ic_launcher.xml" }).contents, as: UTF8.self)
        XCTAssertTrue(adaptive.contains("<background android:drawable=\"@mipmap/ic_launcher_background\"/>"), adaptive)
        // The launch image is the foreground layer, the ring in the middle of a transparent square.
        let logo = try RasterImage.decode(try XCTUnwrap(layeredFiles.first { $0.path.hasSuffix("LaunchLogo@3x.png") }).contents, as: .png)
        XCTAssertEqual(logo.width, 480)
        XCTAssertEqual(try logo.minimumAlpha(), 0)
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    /// A corrupt PNG (a sound header, then garbage where the pixels should be) and a PNG whose header
    /// declares 30,000 × 30,000 pixels: `livery generate` reports each at the manifest line naming it,
    /// does not crash and writes nothing.
    func testHostileMasterIconsGiveALocatedErrorAndGenerateWritesNothing() throws {
        // A real 1024 × 1024 PNG (made by libvips) whose compressed pixel data is overwritten half way through.
        var garbage = [UInt8](try RasterImage.solid(red: 0, green: 102, blue: 204, width: 1024, height: 1024).pngData())
        let idat = try XCTUnwrap(Self.find(Array("IDAT".utf8), in: garbage))
        let length = Int(garbage[idat - 4]) << 24 | Int(garbage[idat - 3]) << 16 | Int(garbage[idat - 2]) << 8 | Int(garbage[idat - 1])
        for index in (idat + 4 + length / 2)..<(idat + 4 + length) { garbage[index] = 0xA5 }
        let cases: [(String, [UInt8], RuleID)] = [
            ("corrupt pixel data", Array(garbage), AppIconRule.decode),
            ("a 30,000-pixel header", RuleExample.pngHeader(width: 30_000, height: 30_000), "assets.image-pixels"),
        ]
        for (name, bytes, rule) in cases {
            let example = RuleExample(name, files: IconExample.files(icon: "master: ↓assets/icon.png\n", [:]), binaryFiles: ["example/assets/icon.png": bytes])
            let workspace = try ExampleWorkspace(example)
            let found = workspace.validate().diagnostics.filter { $0.ruleID == rule }
            XCTAssertEqual(found.map(\.location), workspace.markers, "\(name): \(workspace.validate().diagnostics.map(\.line))")
            let output = workspace.root.appendingPathComponent("generated")
            let run = try LiveryProcess.run(["generate", "Tenants", "-o", output.path, "--templates", PlatformFixtures.templates.path], in: workspace.root)
            XCTAssertEqual(run.status, 1, name + run.stdout + run.stderr)
            XCTAssertTrue(run.stderr.contains("Tenants/example/tenant.yaml:\(workspace.markers[0].line):\(workspace.markers[0].column): error:"), run.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "\(name): nothing is written")
        }
        // The decoder itself refuses the corrupt bytes with an error value, not a crash.
        XCTAssertThrowsError(try RasterImage.decode(Data(garbage), as: .png))
    }

    func testGenerateWritesTheIconsOfTheSamplesWithTheSameBytesInTwoProcesses() throws {
        let output = try PlatformFixtures.temporaryFolder(), again = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output); try? FileManager.default.removeItem(at: again) }
        let run = try LiveryProcess.run(["generate", "Tenants/urbannest", "-o", output.path])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let second = try LiveryProcess.run(["generate", "Tenants/urbannest", "-o", again.path])
        XCTAssertEqual(second.status, 0, second.stdout + second.stderr)
        let paths = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: output.appendingPathComponent("urbannest").path)).sorted()
        XCTAssertEqual(paths, try FileManager.default.subpathsOfDirectory(atPath: again.appendingPathComponent("urbannest").path).sorted())
        for path in paths where AppIcons.isIdentityFile(path) || path.contains(".appiconset/") || path.contains(".imageset/") {
            let first = FileManager.default.contents(atPath: output.appendingPathComponent("urbannest/" + path).path)
            XCTAssertEqual(first, FileManager.default.contents(atPath: again.appendingPathComponent("urbannest/" + path).path), path)
        }
        for path in ["swiftui/Assets.xcassets/AppIcon.appiconset/AppIcon-tinted.png", "android/mipmap-xxxhdpi/ic_launcher_foreground.png",
                     "ios/LaunchScreen.plist", "web/icons/icon-maskable-512.png", "android/values-night/splash_theme.xml"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: output.appendingPathComponent("urbannest/" + path).path), path)
        }
    }
}

/// The icon checks decode each image once per file as it is: a second validation with the same probe
/// cache decodes nothing and finds the same, and a changed icon is decoded again.
final class AppIconCacheTests: XCTestCase {
    func testIconFactsAreKeptUntilTheFileChanges() throws {
        let workspace = try BuildTests.Workspace()
        // Files changed within the racy window are never answered from the cache (FileStamp.racyWindowNanoseconds).
        try workspace.backdate()
        let cachePath = workspace.root.appendingPathComponent("probes.sqlite").path
        func validate() throws -> (diagnostics: [Diagnostic], computed: Int, kept: Int) {
            let media = MediaMeasurements(cache: try ProbeCache(path: cachePath, version: MediaMeasurements.probeVersion))
            let result = Validator.validate(workspace: workspace.tenants, displayRoot: "Tenants", only: ["physio-clinic"], media: media)
            let counts = media.answerCounts
            return (result.diagnostics, counts.computed, counts.kept)
        }
        let first = try validate()
        XCTAssertGreaterThan(first.computed, 0, "the first validation decodes the icons")
        XCTAssertEqual(first.kept, 0)
        let second = try validate()
        XCTAssertEqual(second.computed, 0, "nothing decoded again")
        XCTAssertEqual(second.kept, first.computed)
        XCTAssertEqual(second.diagnostics, first.diagnostics)
        // A master with transparency now: decoded again, and found.
        let icon = workspace.tenants.appendingPathComponent("physio-clinic/assets/icon.svg")
        let text = try String(contentsOf: icon, encoding: .utf8)
        let hole = text.replacingOccurrences(of: "</svg>", with: "<rect width=\"64\" height=\"64\" fill=\"#ffffff\" fill-opacity=\"0\"/></svg>")
        try hole.replacingOccurrences(of: "<svg ", with: "<svg style=\"background:none\" ").write(to: icon, atomically: true, encoding: .utf8)
        let third = try validate()
        XCTAssertEqual(third.computed, 1, "only the changed file is decoded again")
    }
}
