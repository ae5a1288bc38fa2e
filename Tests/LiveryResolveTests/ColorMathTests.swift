import Foundation
import LiveryResolve
import LiveryTestSupport
import XCTest

/// Colour math: DTCG validation, CSS Color 4 conversion and gamut mapping, WCAG contrast; checked
/// against known facts and, in bulk, against coloraide (an independent Python implementation).
final class ColorMathTests: XCTestCase {
    // MARK: Known facts

    func testWCAGKnownRatios() throws {
        XCTAssertEqual(Contrast.ratio(foreground: .black, background: .white).ratio, 21, accuracy: 1e-12)
        XCTAssertEqual(Contrast.ratio(foreground: .white, background: .white).ratio, 1, accuracy: 1e-12)

        // #777777 on white is the classic near miss: 4.48:1 fails AA body text, passes AA large.
        let grey = Contrast.ratio(foreground: try XCTUnwrap(SRGBColor(hex: "#777777")), background: .white)
        XCTAssertEqual(grey.ratio, 4.478, accuracy: 5e-4)
        XCTAssertEqual(grey.formatted, "4.47:1", "truncated, never rounded up")
        XCTAssertFalse(grey.meets(.aa))
        XCTAssertEqual(grey.levelsMet, [.aaLarge, .aaNonText])

        // The audio-tour sample palette: cream text on orange is 3.61:1, too little for body text.
        let cream = DTCGColor(.srgb, [0xf8 / 255.0, 0xf5 / 255.0, 0xf0 / 255.0], hex: "#f8f5f0")
        let orange = DTCGColor(.srgb, [0xd9 / 255.0, 0x58 / 255.0, 0x08 / 255.0], hex: "#d95808")
        let tour = Contrast.ratio(foreground: cream, background: orange)
        XCTAssertEqual(tour.ratio, 3.6096, accuracy: 1e-4)
        XCTAssertFalse(tour.meets(.aa))
        XCTAssertTrue(tour.meets(.aaLarge))
        XCTAssertFalse(tour.meets(.aaaLarge))

        // WCAG compares unrounded ratios: a hair under 4.5 fails.
        XCTAssertFalse(WCAGLevel.aa.isMet(by: 4.4999))
        XCTAssertTrue(WCAGLevel.aa.isMet(by: 4.5))
        XCTAssertEqual(WCAGLevel.aaa.minimumRatio, 7)
    }

    func testCompositing() throws {
        // 50 % black over white is mid-grey in gamma-encoded sRGB, the way browsers paint.
        let half = Contrast.composite(SRGBColor(red: 0, green: 0, blue: 0, alpha: 0.5), over: .white)
        XCTAssertEqual(half.red, 0.5, accuracy: 1e-12)
        XCTAssertEqual(half.alpha, 1, accuracy: 1e-12)

        // A translucent background is first composited over its declared base.
        let result = Contrast.ratio(foreground: .white, background: SRGBColor(red: 0, green: 0, blue: 0, alpha: 0.5), base: .black)
        XCTAssertEqual(result.background.hexString, "#000000")
        XCTAssertEqual(result.ratio, 21, accuracy: 1e-9)
        XCTAssertFalse(result.assumedWhiteBase)
        let assumed = Contrast.ratio(foreground: .white, background: SRGBColor(red: 0, green: 0, blue: 0, alpha: 0.5))
        XCTAssertTrue(assumed.assumedWhiteBase)
        XCTAssertEqual(assumed.background.hexString, "#808080")
    }

    // MARK: Validation

    func testValidationReportsComponentAndRange() {
        func problems(_ space: String, _ components: [Double?], alpha: Double? = nil, hex: String? = nil) -> [DTCGColorProblem] {
            DTCGColor.problems(colorSpace: space, components: components, alpha: alpha, hex: hex)
        }
        XCTAssertEqual(problems("hsl", [359.9, 100, 50], alpha: 0.5, hex: "#FF00AA"), [])
        XCTAssertEqual(problems("oklch", [nil, 0.2, nil]), [], "none is allowed anywhere")
        XCTAssertEqual(problems("hsl", [360, 50, 50]).first?.componentIndex, 0)
        XCTAssertTrue(problems("hsl", [360, 50, 50])[0].message.contains("[0, 360)"))
        XCTAssertEqual(problems("hsl", [10, 100.5, 50]), [.componentOutOfRange(space: .hsl, index: 1, value: 100.5, range: .percentage)])
        XCTAssertEqual(problems("lab", [101, -300, 300]).map(\.componentIndex), [0], "a and b are unbounded")
        XCTAssertEqual(problems("lch", [50, -1, 10]).map(\.componentIndex), [1])
        XCTAssertEqual(problems("srgb", [0, 1.2, .nan]).map(\.componentIndex), [1, 2])
        XCTAssertEqual(problems("srgb", [0, 1]), [.componentCount(space: .srgb, found: 2)])
        XCTAssertEqual(problems("rgb", [0, 0, 0]), [.unknownColorSpace("rgb")])
        XCTAssertEqual(problems("srgb", [0, 0, 0], alpha: 1.5), [.alphaOutOfRange(1.5)])
        for hex in ["#fff", "#ff00ff80", "ff00ff", "#gg0000", "#ff00f "] {
            XCTAssertEqual(problems("srgb", [0, 0, 0], hex: hex), [.malformedHex(hex)], hex)
        }
        XCTAssertThrowsError(try DTCGColor(validating: "hwb", components: [0, 50, 120])) { error in
            XCTAssertEqual((error as? DTCGColorProblem)?.componentIndex, 2)
            XCTAssertEqual((error as? DTCGColorProblem)?.message, "hwb blackness (component 2) is 120, outside [0, 100]")
        }
        XCTAssertEqual(DTCGColorSpace.allCases.count, 14)
    }

    // MARK: Conversion

    func testRoundTripThroughXYZ() {
        var generator = ColorSampleGenerator(seed: 7)
        for space in DTCGColorSpace.allCases {
            for _ in 0..<20 {
                // Round trips are checked inside sRGB, where every space is well defined.
                let original = DTCGColor(.srgb, [generator.unit(), generator.unit(), generator.unit()])
                let there = original.converted(to: space)
                let back = there.converted(to: .srgb).resolvedComponents
                let error = back - original.resolvedComponents
                let difference = max(abs(error.x), abs(error.y), abs(error.z))
                XCTAssertLessThan(difference, 1e-9, "\(space.rawValue): \(there.components)")
            }
        }
        XCTAssertNil(DTCGColor(.srgb, [0.5, 0.5, 0.5]).converted(to: .oklch).components[2], "grey has a powerless hue")
        XCTAssertNil(DTCGColor(.srgb, [1, 1, 1]).converted(to: .hsl).components[0])
    }

    func testHexStringsAndFallbackCheck() throws {
        XCTAssertEqual(DTCGColor(.srgb, [1, 0, 1]).hexString, "#ff00ff")
        XCTAssertEqual(DTCGColor(.srgb, [0, 0, 0], alpha: 0.5).hexString, "#00000080")
        XCTAssertEqual(DTCGColor(.oklch, [1, 0, nil]).hexString, "#ffffff")
        XCTAssertEqual(DTCGColor(.hsl, [nil, 0, 100]).hexString, "#ffffff", "none hue is 0 for conversion")

        let exact = try XCTUnwrap(DTCGColor(.srgb, [1, 0, 1], hex: "#FF00FF").checkHexFallback())
        XCTAssertTrue(exact.matches)
        XCTAssertEqual(exact.computed, "#ff00ff")
        let offByOne = try XCTUnwrap(DTCGColor(.srgb, [1, 0, 1], hex: "#fe01fe").checkHexFallback())
        XCTAssertTrue(offByOne.matches)
        XCTAssertEqual(offByOne.largestDifference, 1)
        XCTAssertFalse(try XCTUnwrap(DTCGColor(.srgb, [1, 0, 1], hex: "#fd00ff").checkHexFallback()).matches)
        // hsl(330 100% 50%) is a rose, not #ff00ff (that is hue 300): the check catches such slips.
        let rose = try XCTUnwrap(DTCGColor(.hsl, [330, 100, 50], hex: "#ff00ff").checkHexFallback())
        XCTAssertFalse(rose.matches)
        XCTAssertEqual(rose.computed, "#ff0080")
        XCTAssertEqual(DTCGColor(.lab, [60.17, 93.54, -60.5], hex: "#ff00ff").checkHexFallback()?.matches, true)
        // Out of gamut: a clipped fallback and a CSS-mapped one are both accepted.
        let p3Red = try XCTUnwrap(DTCGColor(.displayP3, [1, 0, 0], hex: "#ff0000").checkHexFallback())
        XCTAssertFalse(p3Red.isInGamut)
        XCTAssertTrue(p3Red.matches)
        XCTAssertEqual(p3Red.computedClipped, "#ff0000")
        XCTAssertEqual(p3Red.computed, "#ff0b0c")
        XCTAssertNil(DTCGColor(.srgb, [0, 0, 0]).checkHexFallback())
    }

    // MARK: Against coloraide

    func testAgainstColoraide() throws {
        let colors = Self.sampleColors()
        var generator = ColorSampleGenerator(seed: 2025_10_28)
        let opaque = colors.indices.filter { colors[$0].alpha == nil }
        let pairs = (0..<300).map { _ in [opaque[generator.index(opaque.count)], opaque[generator.index(opaque.count)]] }
        let translucent = colors.indices.filter { colors[$0].alpha != nil }
        let layers = (0..<60).map { _ in
            [translucent[generator.index(translucent.count)], colors.indices.randomElement(using: &generator)!, opaque[generator.index(opaque.count)]]
        }
        let request: [String: Any] = [
            "colors": colors.map { color -> [String: Any] in
                ["space": color.colorSpace.rawValue, "components": color.components.map { $0 ?? NSNull() as Any }, "alpha": color.effectiveAlpha]
            },
            "pairs": pairs, "layers": layers,
        ]
        let reply = try Self.runColoraide(JSONSerialization.data(withJSONObject: request))
        let theirColors = try XCTUnwrap(reply["colors"] as? [[String: [Double]]])
        XCTAssertEqual(theirColors.count, colors.count)

        var worstInGamut = 0.0, worstMapped = 0.0, mappedCount = 0
        var inGamut: [Bool] = []
        for (color, theirs) in zip(colors, theirColors) {
            let label = "\(color.colorSpace.rawValue) \(color.components)"
            let unmapped = color.unmappedSRGB
            inGamut.append(unmapped.isInGamut())
            let ours = [unmapped.red, unmapped.green, unmapped.blue]
            for (a, b) in zip(ours, try XCTUnwrap(theirs["srgb"])) {
                // Out of gamut, channels can be large and coloraide's ProPhoto matrix (primaries from
                // ROMM, B = 0.0366, 0.0001) differs slightly from CSS Color 4's (B = 0.036598, 0.000105).
                XCTAssertEqual(a, b, accuracy: inGamut.last! ? 1e-4 : 1e-3 * max(1, abs(b)), label)
            }
            let mapped = color.srgb()
            let delta = zip([mapped.red, mapped.green, mapped.blue], try XCTUnwrap(theirs["fit"])).map { abs($0 - $1) }.max()!
            if inGamut.last! {
                worstInGamut = max(worstInGamut, delta)
                XCTAssertLessThan(delta, 1e-4, label)
            } else {
                mappedCount += 1
                worstMapped = max(worstMapped, delta)
                XCTAssertLessThan(delta, 1 / 255, "gamut mapping of \(label)")
            }
        }
        XCTAssertGreaterThan(mappedCount, 100, "the sample must exercise gamut mapping")

        // WCAG's luminance uses four-digit coefficients (0.2126, 0.7152, 0.0722), coloraide the exact Y
        // row of the sRGB matrix: that alone moves a ratio by up to 1.21e-3 (cyan on dark red), hence
        // 1.5e-3. Pairs with a gamut-mapped colour also inherit the mapping's small differences.
        let ratios = try XCTUnwrap(reply["contrast"] as? [Double])
        var worstRatio = 0.0, worstMappedRatio = 0.0
        for (pair, theirs) in zip(pairs, ratios) {
            let ours = Contrast.ratio(foreground: colors[pair[0]], background: colors[pair[1]]).ratio
            let exact = inGamut[pair[0]] && inGamut[pair[1]]
            if exact { worstRatio = max(worstRatio, abs(ours - theirs)) } else { worstMappedRatio = max(worstMappedRatio, abs(ours - theirs)) }
            XCTAssertEqual(ours, theirs, accuracy: exact ? 1.5e-3 : 1e-2, "\(colors[pair[0]]) on \(colors[pair[1]])")
        }
        let composited = try XCTUnwrap(reply["layers"] as? [[String: Any]])
        for (layer, theirs) in zip(layers, composited) {
            var base = colors[layer[2]]
            base.alpha = nil
            let ours = Contrast.ratio(foreground: colors[layer[0]], background: colors[layer[1]], base: base)
            let exact = layer.allSatisfy { inGamut[$0] }
            XCTAssertEqual(ours.ratio, try XCTUnwrap(theirs["ratio"] as? Double), accuracy: exact ? 1.5e-3 : 1e-2)
            for (key, color) in [("foreground", ours.foreground), ("background", ours.background)] {
                let expected = try XCTUnwrap(theirs[key] as? [Double])
                for (a, b) in zip([color.red, color.green, color.blue], expected) {
                    XCTAssertEqual(a, b, accuracy: exact ? 1e-4 : 1 / 255, "\(key) of \(layer.map { colors[$0] })")
                }
            }
        }
        print("coloraide: \(colors.count) colours, in-gamut max |Δ| \(worstInGamut), \(mappedCount) gamut-mapped max |Δ| \(worstMapped), contrast max |Δ| \(worstRatio) (with a mapped colour \(worstMappedRatio))")
    }

    /// A few hundred colours over every space (fixed seed), with the edge cases written out.
    static func sampleColors() -> [DTCGColor] {
        var generator = ColorSampleGenerator(seed: 42)
        var colors: [DTCGColor] = [
            DTCGColor(.hsl, [0, 100, 50]), DTCGColor(.hsl, [359.9, 100, 50]), DTCGColor(.hsl, [nil, 0, 100]),
            DTCGColor(.hsl, [120, nil, 50]), DTCGColor(.hwb, [359.9, 0, 0]), DTCGColor(.hwb, [200, 70, 60]),
            DTCGColor(.hwb, [nil, nil, nil]), DTCGColor(.lch, [50, 0, nil]), DTCGColor(.lch, [100, 0, 0]),
            DTCGColor(.lch, [0, 0, 0]), DTCGColor(.lch, [60, 150, 359.9]), DTCGColor(.oklch, [0.7, 0.37, 145]),
            DTCGColor(.oklch, [1, 0.2, 30]), DTCGColor(.oklch, [0, 0.2, 30]), DTCGColor(.oklch, [0.5, nil, 0]),
            DTCGColor(.oklab, [nil, 0.1, -0.1]), DTCGColor(.lab, [100, 0, 0]), DTCGColor(.lab, [60.17, 93.54, -60.5]),
            DTCGColor(.displayP3, [1, 0, 0]), DTCGColor(.displayP3, [0, 1, 0]), DTCGColor(.displayP3, [0, 0, 1]),
            DTCGColor(.rec2020, [1, 0, 0]), DTCGColor(.rec2020, [0, 1, 0]), DTCGColor(.rec2020, [0, 0, 1]),
            DTCGColor(.rec2020, [0.01, 0.5, 0.99]), DTCGColor(.a98RGB, [0, 1, 0]), DTCGColor(.prophotoRGB, [0.01, 0.02, 1]),
            DTCGColor(.prophotoRGB, [1, 1, 1]), DTCGColor(.xyzD65, [0.9504559, 1, 1]), DTCGColor(.xyzD50, [0.9642956, 1, 0.8251046]),
            DTCGColor(.xyzD65, [0, 0, 0]), DTCGColor(.srgbLinear, [0.2, nil, 1]), DTCGColor(.srgb, [nil, 0.5, nil], alpha: 0.25),
            DTCGColor(.srgb, [0, 0, 0], alpha: 0), DTCGColor(.displayP3, [0.2, 0.9, 0.1], alpha: 0.6),
        ]
        for space in DTCGColorSpace.allCases {
            for index in 0..<22 {
                var components = generator.components(in: space)
                if index % 11 == 5 { components[generator.index(3)] = nil }
                let alpha: Double? = index % 4 == 3 ? (generator.unit() * 100).rounded() / 100 : nil
                colors.append(DTCGColor(space, components, alpha: alpha))
            }
        }
        return colors
    }

    /// Runs the coloraide oracle once; a missing coloraide is a failure with the fix, not a skip.
    static func runColoraide(_ request: Data) throws -> [String: Any] {
        let root = LiveryProcess.packageRoot
        let python = root.appendingPathComponent(".venv-test/bin/python")
        let script = root.appendingPathComponent("Tests/LiveryTests/Fixtures/color/coloraide_oracle.py")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw OracleError("\(python.path) is missing: run `make test-deps` (it installs coloraide into .venv-test)")
        }
        let process = Process()
        process.executableURL = python
        process.arguments = [script.path]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(request)
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 3 { throw OracleError("coloraide is missing from .venv-test: run `make test-deps`") }
        guard process.terminationStatus == 0 else { throw OracleError("coloraide oracle failed: \(message)") }
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    struct OracleError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// SplitMix64: a tiny deterministic generator, so the sample is the same on every run and platform.
struct ColorSampleGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func index(_ count: Int) -> Int { Int(next() % UInt64(count)) }

    /// Components spread over the space's useful span: the schema's ranges where bounded, else
    /// coloraide's reference ranges (lab a/b ±125, lch chroma 150, Oklab ±0.4, OkLCh chroma 0.4),
    /// wide enough to leave sRGB, P3 and rec2020 often.
    mutating func components(in space: DTCGColorSpace) -> [Double?] {
        let spans: [(Double, Double)] = switch space {
        case .hsl, .hwb: [(0, 360), (0, 100), (0, 100)]
        case .lab: [(0, 100), (-125, 125), (-125, 125)]
        case .lch: [(0, 100), (0, 150), (0, 360)]
        case .oklab: [(0, 1), (-0.4, 0.4), (-0.4, 0.4)]
        case .oklch: [(0, 1), (0, 0.4), (0, 360)]
        default: [(0, 1), (0, 1), (0, 1)]
        }
        // Hue is [0, 360): the top of the span is never drawn because unit() < 1.
        return spans.map { $0.0 + ($0.1 - $0.0) * unit() }
    }
}
