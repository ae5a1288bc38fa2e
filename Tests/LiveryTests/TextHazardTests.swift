import Foundation
import LiveryLoad
import LiveryMedia
import XCTest

/// Invisible characters (docs/rules.md): a zero-width character in an id or a message key is named in
/// the error, and bidirectional controls in a left-to-right locale are refused where they stand.
final class TextHazardTests: XCTestCase {
    func testInvisibleCharactersInIdsAndKeysAreNamedAndBidiControlsLocated() throws {
        let workspace = try BuildTests.Workspace()
        try workspace.replace("companero/tenant.yaml", "id: companero\n", "id: compa\u{200B}nero\n")
        try workspace.replace("companero/locales/en.yaml", "  home: Home", "  ho\u{200D}me: Home")
        try workspace.replace("physio-clinic/locales/en.yaml", "nav:\n", "zz: \"Total: \u{202E}01$\"\nnav:\n")
        let result = try LiveryProcess.run(["validate", "Tenants/companero", "Tenants/physio-clinic"], in: workspace.root)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.contains("it contains U+200B ZERO WIDTH SPACE after 'compa', which draws nothing but makes it a different name: delete it"), result.stdout)
        XCTAssertTrue(result.stdout.contains("it contains U+200D ZERO WIDTH JOINER after 'ho'"), result.stdout)
        XCTAssertTrue(result.stdout.contains("'zz' contains U+202E RIGHT-TO-LEFT OVERRIDE, which reorders how the text displays [localization.bidi-controls]"), result.stdout)
        XCTAssertTrue(result.stdout.contains("physio-clinic/locales/en.yaml:2:13:"), result.stdout)
        XCTAssertEqual(InvisibleCharacters.bidiControls(in: "plain ascii and ünïcode").count, 0)
        XCTAssertNil(InvisibleCharacters.hint(for: "companero"))
    }
}

/// The subtitle reader on the inputs players and editors really produce, and on hostile ones.
final class SubtitleParserTests: XCTestCase {
    func testSubRipWithBOMAndCRLFAndWebVTTWithHoursOptional() {
        let srt = SubtitleDocument.parse("\u{FEFF}1\r\n00:00:01,000 --> 00:00:02,500\r\n<i>Hello</i>\r\n\r\n2\r\n01:00:00,000 --> 01:00:01,000\r\nLater\r\n", format: .srt)
        XCTAssertEqual(srt.problems, [])
        XCTAssertEqual(srt.cues.map(\.start), [1000, 3_600_000])
        XCTAssertEqual(srt.cues.first?.displayedLines, ["Hello"])
        let vtt = SubtitleDocument.parse("WEBVTT\nKind: captions\n\nSTYLE\n::cue { color: yellow }\n\n00:01.000 --> 00:02.000 position:10%,line-left size:80%\n{not a tag} <c.big>Hi</c>\n", format: .vtt)
        XCTAssertEqual(vtt.problems, [])
        XCTAssertEqual(vtt.cues.first?.displayedLines, ["{not a tag} Hi"])
    }

    func testHostileTimestampsAndShapesAreProblemsNotCrashes() {
        for text in ["1\n99999999999999999999:00:00,000 --> 00:00:01,000\nx\n", "1\n00:61:00,000 --> 00:62:00,000\nx\n", "1\n00:00:00,000 -->\n",
                     "1\n-->\n", "\n\n\n", "1\n", "x\ny\nz\n", "1\n00:00:00,0000 --> 00:00:01,000\nx\n", "1\n٠٠:٠٠:٠٠,٠٠٠ --> 00:00:01,000\nx\n"] {
            let document = SubtitleDocument.parse(text, format: .srt)
            XCTAssertTrue(document.cues.allSatisfy { $0.start >= 0 && $0.end >= 0 }, text)
            if !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { XCTAssertFalse(document.problems.isEmpty, text) }
        }
        for text in ["WEBVTTX\n\n00:00.000 --> 00:01.000\nx\n", "WEBVTT\n00:00.000 --> 00:01.000\nx\n", "WEBVTT\n\n00:00.000 --> 00:01.000 line:\nx\n",
                     "WEBVTT\n\n00:00.000 --> 00:01.000 size:150%\nx\n", "WEBVTT\n\nid only\n"] {
            XCTAssertFalse(SubtitleDocument.parse(text, format: .vtt).problems.isEmpty, text)
        }
    }
}

extension SubtitleParserTests {
    /// Found by the `subtitles` fuzz target: a lone cue number was reported on the line after the file's last.
    func testALoneCueNumberIsReportedOnItsOwnLine() {
        let document = SubtitleDocument.parse("00", format: .srt)
        XCTAssertEqual(document.problems.map(\.line), [1, 1])
    }

    /// Found by the `subtitles` fuzz target: a cue setting whose value is only a comma crashed the reader.
    func testACueSettingOfOnlyACommaIsAProblemNotACrash() {
        for setting in ["position:,", "line:,", "position:,center", "line:,start"] {
            let document = SubtitleDocument.parse("WEBVTT\n\n00:00.000 --> 00:02.000 \(setting)\nx\n", format: .vtt)
            XCTAssertEqual(document.problems.count, 1, setting)
        }
    }

    func testASubRipFileWithWindowsLineEndsIsSniffedAsSubRip() {
        XCTAssertEqual(FileSniffer.sniff(Array("1\r\n00:00:00,000 --> 00:00:01,000\r\nHello\r\n".utf8)), .srt)
        XCTAssertEqual(FileSniffer.sniff(Array("1\n00:00:00,000 --> 00:00:01,000\nHello\n".utf8)), .srt)
    }
}

/// Files saved with Windows line ends (CRLF) get the same excerpts and columns as any other.
final class WindowsLineEndTests: XCTestCase {
    func testExcerptsAndXMLColumnsInCRLFFiles() throws {
        let workspace = try BuildTests.Workspace()
        func windows(_ path: String, _ change: (String) -> String) throws {
            let url = workspace.tenants.appendingPathComponent(path)
            let text = change(try String(contentsOf: url, encoding: .utf8)).replacingOccurrences(of: "\n", with: "\r\n")
            try Data(text.utf8).write(to: url)
        }
        try windows("urbannest/tenant.yaml") { $0.replacingOccurrences(of: "id: urbannest\n", with: "id: urbannest\nfeaturs: 1\n") }
        try windows("companero/assets/logo.svg") { $0.replacingOccurrences(of: "</svg>", with: "  <script>alert(1)</script>\n</svg>") }
        let result = try LiveryProcess.run(["validate", "Tenants/urbannest", "Tenants/companero"], in: workspace.root)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.contains("Tenants/urbannest/tenant.yaml:4:1: error: unknown key 'featurs' in the manifest [structure.unknown-key]\n    featurs: 1\n    ^\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains(":3: error: SVG contains a <script> element [assets.svg-safety]\n      <script>alert(1)</script>\n      ^\n"), result.stdout)
        XCTAssertEqual("a\r\nb\nc\r\n".sourceLines, ["a", "b", "c", ""])
    }
}
