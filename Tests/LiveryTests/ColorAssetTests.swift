import Foundation
import LiveryCheck
import LiveryLoad
import LiveryRender
import LiveryResolve
import XCTest

/// Xcode colour assets (`swiftui/Assets.xcassets/<name>.colorset/Contents.json`): checked by Python
/// against JSON Schemas written from Apple's asset catalog format and against the resolved token
/// documents, colour conversions against coloraide, and the sample the Sonic Walkscape document
/// asks for ("Export color palette to Swift Color Assets").
final class ColorAssetTests: XCTestCase {
    static let schemas = PlatformFixtures.snapshots.appendingPathComponent("asset-catalog")

    /// Writes `files` under `folder/<tenant>/`.
    func write(_ files: [GeneratedFile], tenant: String, into folder: URL) throws {
        for file in files {
            let url = folder.appendingPathComponent(tenant).appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.contents.write(to: url)
        }
    }

    /// Every colour of every sample, as Python reads the generated files: each `Contents.json` is
    /// valid against the schemas, the sets are exactly the colour tokens of the resolved document
    /// (named by a Python spelling of the naming rule), and each appearance holds that mode's value.
    func testEverySampleColourIsAColourSetInAppleFormatWithEachModesValue() throws {
        let root = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let templates = try PlatformFixtures.platformTemplates()
        var tenants: [String] = []
        for tenant in PlatformFixtures.samples {
            let (files, diagnostics) = PlatformFiles.generate(tenant, templates: templates)
            XCTAssertEqual(diagnostics.filter { $0.severity == .error }, [], tenant.id)
            try write(files, tenant: tenant.id, into: root)
            tenants.append(tenant.id)
        }
        let script = #"""
            import json, pathlib, re, sys
            import jsonschema
            schemas, root = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
            colorset = jsonschema.Draft202012Validator(json.loads((schemas / "colorset.schema.json").read_text()))
            catalog = jsonschema.Draft202012Validator(json.loads((schemas / "catalog.schema.json").read_text()))
            problems, sets = [], 0

            def colours(node, path):
                for key, value in node.items():
                    if key.startswith("$") or not isinstance(value, dict): continue
                    if "$value" in value:
                        if value.get("$type") == "color": yield path + [key], value["$value"]
                    else:
                        yield from colours(value, path + [key])

            def words(text):
                found = []
                for part in re.split(r"[^A-Za-z0-9]+", text):
                    found += [w.lower() for w in re.split(r"(?<=[a-z])(?=[A-Z])", part) if w]
                return found

            def name(parts):
                ws = words(".".join(parts))
                text = ws[0] + "".join(w[:1].upper() + w[1:] for w in ws[1:])
                return "_" + text if text[:1].isdigit() else text

            def expected(value):
                space = value["colorSpace"]
                if space not in ("srgb", "display-p3"): return None
                comps = [0.0 if c == "none" else float(c) for c in value["components"]]
                return {"color-space": space, "components": {k: "%.3f" % v for k, v in zip(["red", "green", "blue", "alpha"], comps + [float(value.get("alpha", 1))])}}

            for tenant in sys.argv[3:]:
                base = root / tenant
                folder = base / "swiftui" / "Assets.xcassets"
                top = json.loads((folder / "Contents.json").read_text())
                problems += [f"{tenant}: catalog: {e.message}" for e in catalog.iter_errors(top)]
                default = dict((tuple(p), v) for p, v in colours(json.loads((base / "tokens/default.tokens.json").read_text()), []))
                dark_file = base / "tokens/dark.tokens.json"
                dark = dict((tuple(p), v) for p, v in colours(json.loads(dark_file.read_text()), [])) if dark_file.exists() else default
                paths = sorted(default)
                common = list(paths[0][:-1])
                for p in paths:
                    while common and not (len(p) > len(common) and list(p[:len(common)]) == common): common.pop()
                names = {name(list(p[len(common):])): p for p in paths}
                found = sorted(d.name[:-len(".colorset")] for d in folder.iterdir() if d.name.endswith(".colorset"))
                if found != sorted(names):
                    problems.append(f"{tenant}: sets {sorted(set(found) ^ set(names))} differ from the colour tokens")
                for asset, path in names.items():
                    file = folder / f"{asset}.colorset" / "Contents.json"
                    if not file.exists(): continue
                    sets += 1
                    document = json.loads(file.read_text())
                    problems += [f"{file}: {e.json_path}: {e.message}" for e in colorset.iter_errors(document)]
                    by = {tuple((a["appearance"], a["value"]) for a in c.get("appearances", [])): c["color"] for c in document["colors"]}
                    for key in [(), (("luminosity", "light"),), (("luminosity", "dark"),)]:
                        if key not in by: problems.append(f"{file}: no {key or 'any'} appearance")
                    if any(c["idiom"] != "universal" for c in document["colors"]): problems.append(f"{file}: an idiom other than universal")
                    for key, mode in [((), default), ((("luminosity", "light"),), default), ((("luminosity", "dark"),), dark)]:
                        want = expected(mode[path])
                        if want is not None and by.get(key) != want:
                            problems.append(f"{file}: {key or 'any'} is {by.get(key)}, the token is {want}")
                    raw = file.read_text()
                    if raw != json.dumps(document, indent=2, sort_keys=True, separators=(",", " : ")) + "\n":
                        problems.append(f"{file}: not in Xcode's layout (sorted keys, two-space indents, ' : ')")
            print("\n".join(problems) or f"ok {sets}")
            sys.exit(1 if problems else 0)
            """#
        let result = try PlatformFixtures.tool(["python3", "-c", script, Self.schemas.path, root.path] + tenants)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("ok "), result.stdout)
        XCTAssertGreaterThan(Int(result.stdout.dropFirst(3).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 300, "every sample's colours")
    }

    /// The seed document's request: the sonic-walkscape sample's palette as colour assets, byte for byte.
    func testSonicWalkscapeExportsItsPaletteToColourAssets() throws {
        let tenant = try PlatformFixtures.sample("sonic-walkscape")
        let files = ColorAssets.files(tenant)
        let names = Set(files.map(\.path))
        for colour in ["paletteNight", "palettePlum", "paletteOrange", "paletteYellow", "paletteCream", "brandPrimary", "backgroundDefault", "componentGlassDefault"] {
            XCTAssertTrue(names.contains("swiftui/Assets.xcassets/\(colour).colorset/Contents.json"), colour)
        }
        XCTAssertEqual(files.first?.path, "swiftui/Assets.xcassets/Contents.json")
        XCTAssertEqual(String(decoding: try XCTUnwrap(files.first).contents, as: UTF8.self), """
            {
              "info" : {
                "author" : "livery",
                "version" : 1
              }
            }

            """)
        // cream-70: #f8f5f0 at 70 %. A dark-first tenant without a dark mode: dark is the same colour.
        let cream = try XCTUnwrap(files.first { $0.path.hasSuffix("/paletteCream70.colorset/Contents.json") })
        let components = ["        \"color-space\" : \"srgb\",", "        \"components\" : {", "          \"alpha\" : \"0.700\",", "          \"blue\" : \"0.941\",",
                          "          \"green\" : \"0.961\",", "          \"red\" : \"0.973\"", "        }"].joined(separator: "\n")
        let text = String(decoding: cream.contents, as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: components).count - 1, 3, text)
        XCTAssertTrue(text.contains("\"appearance\" : \"luminosity\",\n          \"value\" : \"dark\""), text)
        XCTAssertFalse(text.contains("contrast"), "no high-contrast mode, no high-contrast appearances")
    }

    /// Colour spaces: sRGB and Display P3 kept, other spaces converted to sRGB, or to Display P3
    /// when out of sRGB (values checked against coloraide); modes give dark and high contrast.
    func testColourSpacesAndAppearancesFollowTheTokens() throws {
        let tokens = ##"""
            {"color": {"$type": "color",
              "plain": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8], "hex": "#0066cc"}},
              "wide": {"$value": {"colorSpace": "display-p3", "components": [1, 0.2, 0.1], "alpha": 0.5}},
              "calm": {"$value": {"colorSpace": "oklch", "components": [0.6, 0.1, 250]}},
              "vivid": {"$value": {"colorSpace": "oklch", "components": [0.7, 0.25, 145]}},
              "laser": {"$value": {"colorSpace": "rec2020", "components": [0, 1, 0]}}}}
            """##
        let dark = ##"{"color": {"$type": "color", "plain": {"$value": {"colorSpace": "srgb", "components": [0.2, 0.6, 1], "hex": "#3399ff"}}}}"##
        let high = ##"{"color": {"$type": "color", "plain": {"$value": {"colorSpace": "srgb", "components": [0, 0.2, 0.4], "hex": "#003366"}}}}"##
        let darkHigh = ##"{"color": {"$type": "color", "plain": {"$value": {"colorSpace": "srgb", "components": [0.6, 0.8, 1], "hex": "#99ccff"}}}}"##
        let workspace = try ExampleWorkspace(RuleExample("colour assets", files: [
            "example/branding/tokens.json": tokens, "example/branding/dark.tokens.json": dark,
            "example/branding/high.tokens.json": high, "example/branding/dark-high.tokens.json": darkHigh,
            "example/tenant.yaml": RuleExample.tenant(appending: """
                branding:
                  tokens: [branding/tokens.json]
                  modes:
                    dark: [branding/dark.tokens.json]
                    high-contrast: [branding/high.tokens.json]
                    dark-high-contrast: [branding/dark.tokens.json, branding/dark-high.tokens.json]

                """),
        ]))
        let validation = workspace.validate()
        XCTAssertEqual(validation.diagnostics.filter { $0.severity == .error }.map(\.line), [])
        let tenant = try XCTUnwrap(validation.tenants.first { $0.id == "example" })
        let files = ColorAssets.files(tenant)
        XCTAssertEqual(files.map(\.path), ["Contents.json", "calm.colorset/Contents.json", "laser.colorset/Contents.json", "plain.colorset/Contents.json",
                                           "vivid.colorset/Contents.json", "wide.colorset/Contents.json"].map { "swiftui/Assets.xcassets/" + $0 })

        func entries(_ name: String) throws -> [(appearances: [String], space: String, rgba: [Double])] {
            let file = try XCTUnwrap(files.first { $0.path.hasSuffix("/\(name).colorset/Contents.json") })
            let document = try XCTUnwrap(JSONSerialization.jsonObject(with: file.contents) as? [String: Any])
            return (document["colors"] as? [[String: Any]] ?? []).map { entry in
                let appearances = (entry["appearances"] as? [[String: String]] ?? []).map { "\($0["appearance"]!)=\($0["value"]!)" }
                let color = entry["color"] as? [String: Any] ?? [:]
                let components = color["components"] as? [String: String] ?? [:]
                return (appearances, color["color-space"] as? String ?? "", ["red", "green", "blue", "alpha"].map { Double(components[$0] ?? "") ?? -1 })
            }
        }
        let plain = try entries("plain")
        XCTAssertEqual(plain.map(\.appearances), [[], ["luminosity=light"], ["luminosity=dark"], ["contrast=high"],
                                                  ["luminosity=light", "contrast=high"], ["luminosity=dark", "contrast=high"]])
        XCTAssertEqual(plain.map(\.rgba), [[0, 0.4, 0.8, 1], [0, 0.4, 0.8, 1], [0.2, 0.6, 1, 1], [0, 0.2, 0.4, 1], [0, 0.2, 0.4, 1], [0.6, 0.8, 1, 1]])
        // A colour no mode changes keeps its value in every appearance.
        let wide = try entries("wide")
        XCTAssertEqual(Set(wide.map(\.space)), ["display-p3"])
        XCTAssertEqual(Set(wide.map(\.rgba)), [[1, 0.2, 0.1, 0.5]])
        let calm = try XCTUnwrap(entries("calm").first), vivid = try XCTUnwrap(entries("vivid").first), laser = try XCTUnwrap(entries("laser").first)
        XCTAssertEqual(calm.space, "srgb", "inside sRGB")
        XCTAssertEqual(vivid.space, "display-p3", "outside sRGB, inside Display P3")
        XCTAssertEqual(laser.space, "display-p3", "outside both: mapped into Display P3")
        XCTAssertTrue(laser.rgba.allSatisfy { (0...1).contains($0) }, "\(laser.rgba)")

        // coloraide converts the two in-gamut colours independently; three places, so within 0.0005 (plus float noise).
        let python = LiveryProcess.packageRoot.appendingPathComponent(".venv-test/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            return XCTFail("\(python.path) is missing: run `make test-deps` (it installs coloraide into .venv-test)")
        }
        let oracle = try PlatformFixtures.tool([python.path, "-c", """
            from coloraide import Color
            calm = Color("oklch", [0.6, 0.1, 250]).convert("srgb")
            vivid = Color("oklch", [0.7, 0.25, 145])
            print(calm.in_gamut("srgb"), vivid.in_gamut("srgb"), vivid.convert("display-p3").in_gamut(),
                  " ".join("%.6f" % c for c in calm.coords()), " ".join("%.6f" % c for c in vivid.convert("display-p3").coords()))
            """])
        XCTAssertEqual(oracle.status, 0, oracle.stderr)
        let fields = oracle.stdout.split(separator: " ").map(String.init)
        XCTAssertEqual(Array(fields.prefix(3)), ["True", "False", "True"], oracle.stdout)
        let numbers = fields.dropFirst(3).compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        XCTAssertEqual(numbers.count, 6, oracle.stdout)
        for (ours, theirs) in zip(calm.rgba.prefix(3) + vivid.rgba.prefix(3), numbers) {
            XCTAssertEqual(ours, theirs, accuracy: 0.000_51, "calm \(calm.rgba), vivid \(vivid.rgba) against coloraide \(numbers)")
        }
    }
}
