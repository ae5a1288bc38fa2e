import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryImage
import LiveryLoad
import LiveryMedia
import LiveryRender
import LiveryResolve
import LiveryWorkflow
import XCTest

/// App icons and launch screens (docs/app-icons.md), checked by independent tools: Pillow opens every
/// PNG (size, mode, alpha), `jsonschema` checks the icon and image sets against schemas written from
/// Apple's asset catalog format, `xmllint` parses the Android XML, `aapt2 compile` compiles the Android
/// resources, Python's `plistlib` loads the launch screen fragment and finds its colour among the generated
/// colour sets, and Pillow's ICO reader opens `favicon.ico`.
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
            XCTAssertEqual(xml.count, 5, "\(id): adaptive icon and its round twin, background colour, splash light and night")
            let lint = try PlatformFixtures.tool(["xmllint", "--noout"] + xml)
            XCTAssertEqual(lint.status, 0, lint.stderr)
        }
        print("app icons of \(Self.brands.count) sample brands drawn in \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
        XCTAssertFalse(RasterImage.libraryVersion.isEmpty)

        let script = #"""
            import io, json, pathlib, plistlib, struct, sys
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
                    square = png(folder / "ic_launcher.png", int(48 * scale), "RGB")
                    # The legacy round icon: the master in a circle, transparent outside it (corners and a point
                    # 10 % in along the diagonal), opaque inside (centre, and 10 % in from the top edge's middle).
                    round_icon = png(folder / "ic_launcher_round.png", int(48 * scale), "RGBA")
                    if round_icon is not None and square is not None:
                        side = round_icon.size[0]
                        inset = int(side * 0.1)
                        for x, y in [(0, 0), (side - 1, 0), (0, side - 1), (side - 1, side - 1), (inset, inset), (side - 1 - inset, side - 1 - inset)]:
                            if round_icon.getpixel((x, y))[3] != 0:
                                problems.append(f"{tenant} {density}: round icon pixel {(x, y)} alpha {round_icon.getpixel((x, y))[3]}, outside the circle")
                        for x, y in [(side // 2, side // 2), (side // 2, inset), (inset, side // 2)]:
                            red, green, blue, alpha = round_icon.getpixel((x, y))
                            if alpha != 255: problems.append(f"{tenant} {density}: round icon pixel {(x, y)} alpha {alpha}, inside the circle")
                            # The colour inside is the master's, as in the square legacy icon.
                            if max(abs(a - b) for a, b in zip((red, green, blue), square.getpixel((x, y)))) > 2:
                                problems.append(f"{tenant} {density}: round icon pixel {(x, y)} {(red, green, blue)} is not the master's {square.getpixel((x, y))}")
                    if foreground is not None and density == "xxxhdpi":
                        # Pillow's own alpha bounding box: the drawn mark lies inside the 66 dp square around the safe circle.
                        left, top, right, bottom = foreground.getchannel("A").point(lambda a: 255 if a > 32 else 0).getbbox()
                        if min(left, top) < 432 * 21 / 108 - 1 or max(right, bottom) > 432 * 87 / 108 + 1:
                            problems.append(f"{tenant}: foreground box {(left, top, right, bottom)} leaves the 66 dp square")
                png(base / "android/ic_launcher-playstore.png", 512, "RGB")
                favicon = png(base / "web/icons/favicon-32.png", 32, "RGB")
                # favicon.ico read twice: its directory by hand (the ICONDIR/ICONDIRENTRY layout) and the file by
                # Pillow's ICO reader, whose images must be the embedded PNGs: same size, mode and pixels.
                raw = (base / "web/favicon.ico").read_bytes()
                if struct.unpack_from("<HHH", raw, 0) != (0, 1, 3): problems.append(f"{tenant}: favicon.ico header {raw[:6].hex()}")
                embedded = {}
                for index in range(3):
                    width, height, colours, reserved, planes, bits, size, offset = struct.unpack_from("<BBBBHHII", raw, 6 + 16 * index)
                    if (colours, reserved, planes, bits) != (0, 0, 1, 32): problems.append(f"{tenant}: favicon.ico entry {index}: {(colours, reserved, planes, bits)}")
                    stream = raw[offset:offset + size]
                    if len(stream) != size or not stream.startswith(b"\x89PNG\r\n\x1a\n"): problems.append(f"{tenant}: favicon.ico entry {index} is no PNG stream"); continue
                    with Image.open(io.BytesIO(stream)) as image:
                        image.load()
                        if image.size != (width, height): problems.append(f"{tenant}: favicon.ico entry {index} says {width}x{height}, its PNG is {image.size}")
                        embedded[image.size] = image.copy()
                if len(raw) != 6 + 16 * 3 + sum(struct.unpack_from("<I", raw, 6 + 16 * i + 8)[0] for i in range(3)): problems.append(f"{tenant}: favicon.ico has stray bytes")
                with Image.open(base / "web/favicon.ico") as ico:
                    if ico.format != "ICO": problems.append(f"{tenant}: favicon.ico is {ico.format}")
                    if sorted(ico.info["sizes"]) != [(16, 16), (32, 32), (48, 48)] or sorted(ico.ico.sizes()) != [(16, 16), (32, 32), (48, 48)]:
                        problems.append(f"{tenant}: favicon.ico sizes {ico.info['sizes']}")
                    for size in sorted(ico.ico.sizes()):
                        frame, png_image = ico.ico.getimage(size), embedded.get(size)
                        if png_image is None: problems.append(f"{tenant}: favicon.ico has no PNG of {size}"); continue
                        if (frame.size, frame.mode) != (png_image.size, png_image.mode) or frame.mode != "RGBA":
                            problems.append(f"{tenant}: favicon.ico {size}: Pillow decodes {frame.size} {frame.mode}, the PNG is {png_image.size} {png_image.mode}")
                        if frame.tobytes() != png_image.tobytes(): problems.append(f"{tenant}: favicon.ico {size}: pixels differ from its PNG")
                        if frame.getchannel("A").getextrema() != (255, 255): problems.append(f"{tenant}: favicon.ico {size} is not opaque")
                        if size == (32, 32) and favicon is not None and frame.convert("RGB").tobytes() != favicon.tobytes():
                            problems.append(f"{tenant}: favicon.ico's 32 px image is not favicon-32.png")
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

    /// Android's own resource compiler reads every Android identity file of every sample brand as a
    /// resource (folder qualifiers, resource names, the adaptive icon and values XML, PNG decoding).
    /// `aapt2 compile` needs no Android SDK; `aapt2 link`, which resolves `@mipmap/…` and `android:`
    /// attributes, needs the platform's android.jar, which Debian does not package, so it is not run.
    func testAndroidIconResourcesCompileWithAapt2() throws {
        let root = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        for id in Self.brands {
            let resources = AppIcons.files(try PlatformFixtures.sample(id)).files.filter { $0.path.hasPrefix("android/") && $0.path.split(separator: "/").count == 3 }
            XCTAssertEqual(resources.filter { $0.path.contains("ic_launcher_round") }.count, 6, "\(id): the round XML and 5 round PNGs")
            let res = root.appendingPathComponent(id).appendingPathComponent("res"), flat = root.appendingPathComponent(id).appendingPathComponent("flat")
            try FileManager.default.createDirectory(at: flat, withIntermediateDirectories: true)
            try write(resources.map { GeneratedFile(path: String($0.path.dropFirst("android/".count)), contents: $0.contents) }, tenant: "res", into: res.deletingLastPathComponent())
            let compiled = try PlatformFixtures.tool(["aapt2", "compile", "-o", flat.path] + resources.map { res.appendingPathComponent(String($0.path.dropFirst("android/".count))).path })
            if compiled.status == 127 { return XCTFail("aapt2 is missing: run `make test-deps` (Debian's aapt)") }
            XCTAssertEqual(compiled.status, 0, "\(id): \(compiled.stdout)\(compiled.stderr)")
            let outputs = try FileManager.default.contentsOfDirectory(atPath: flat.path)
            XCTAssertEqual(outputs.count, resources.count, "\(id): one compiled resource per file: \(outputs.sorted())")
            XCTAssertTrue(outputs.contains("mipmap-anydpi-v26_ic_launcher_round.xml.flat"), "\(id): \(outputs.sorted())")
            XCTAssertTrue(outputs.contains("mipmap-xxxhdpi_ic_launcher_round.png.flat"), "\(id): \(outputs.sorted())")
        }
    }

    func testSplashThemeTakesLightAndDarkColoursFromTheTokens() throws {
        let tenant = try PlatformFixtures.sample("physio-clinic")
        let files = AppIcons.files(tenant).files
        let light = try XCTUnwrap(files.first { $0.path == "android/values/splash_theme.xml" })
        let night = try XCTUnwrap(files.first { $0.path == "android/values-night/splash_theme.xml" })
        let lightText = String(decoding: light.contents, as: UTF8.self), nightText = String(decoding: night.contents, as: UTF8.self)
        func hex(_ token: String, _ mode: String) throws -> String {
            try XCTUnwrap(tenant.tokens[mode]?.values[token].flatMap(SRGBColor.init(tokenValue:)), "\(token) in \(mode)").hex(alpha: .firstUnlessOpaque)
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
        // android:roundIcon gets the same adaptive icon (the launcher's mask shapes it) and, before Android 8, round PNGs.
        let round = try XCTUnwrap(files.first { $0.path == "android/mipmap-anydpi-v26/ic_launcher_round.xml" })
        XCTAssertEqual(round.contents, adaptive.contents)
        XCTAssertEqual(files.filter { $0.path.hasSuffix("/ic_launcher_round.png") }.map(\.path).sorted(), AppIcons.densities.map { "android/mipmap-\($0.name)/ic_launcher_round.png" }.sorted())
        XCTAssertTrue(AppIcons.isIdentityFile(AppIcons.favicon))
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

    /// The favicon container: a 256 px image is written as 0 in its entry, and images an entry cannot
    /// describe (not square, over 256 px, without alpha) are refused with an error, not written.
    func testIconContainerWritesTheDirectoryAndRefusesImagesItCannotHold() throws {
        let small = try RasterImage.solid(red: 1, green: 2, blue: 3, width: 16, height: 16)
        let large = try RasterImage.solid(red: 1, green: 2, blue: 3, width: 256, height: 256)
        let bytes = [UInt8](try IconContainer.ico([small, large]))
        XCTAssertEqual(Array(bytes[0..<6]), [0, 0, 1, 0, 2, 0])
        XCTAssertEqual(Array(bytes[6..<10]), [16, 16, 0, 0])
        XCTAssertEqual(Array(bytes[22..<26]), [0, 0, 0, 0], "256 is written as 0")
        let firstSize = Int(bytes[14]) | Int(bytes[15]) << 8 | Int(bytes[16]) << 16 | Int(bytes[17]) << 24
        let secondOffset = Int(bytes[34]) | Int(bytes[35]) << 8 | Int(bytes[36]) << 16 | Int(bytes[37]) << 24
        XCTAssertEqual(secondOffset, 6 + 32 + firstSize)
        XCTAssertEqual(Data(bytes[38..<(38 + firstSize)]), try small.pngData())
        XCTAssertThrowsError(try IconContainer.ico([]))
        XCTAssertThrowsError(try IconContainer.ico([try RasterImage.solid(red: 0, green: 0, blue: 0, width: 257, height: 257)]))
        XCTAssertThrowsError(try IconContainer.ico([try RasterImage.solid(red: 0, green: 0, blue: 0, width: 32, height: 16)]))
        XCTAssertThrowsError(try IconContainer.ico([try small.flattened()]))
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
                     "ios/LaunchScreen.plist", "web/icons/icon-maskable-512.png", "android/values-night/splash_theme.xml",
                     "android/mipmap-mdpi/ic_launcher_round.png", "android/mipmap-anydpi-v26/ic_launcher_round.xml", "web/favicon.ico"] {
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
            let result = Validator.validate(workspace: workspace.tenants, displayRoot: "Tenants", rules: .all, only: ["physio-clinic"], media: media)
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
