import Foundation
import LiveryLoad
import LiveryPack
import LiveryPublish
import LiveryReleaseFormat
import XCTest

/// Drafts and availability windows (docs/schedules.md): read strictly, never packed, carried into the
/// download manifest, and shown by `livery build --as-of`.
final class ScheduleTests: XCTestCase {
    func testScheduleDatesAreReadStrictlyWithTheirOffsets() throws {
        let expected: [(String, TimeInterval)] = [
            ("2027-01-04T06:00:00+01:00", 1_799_038_800),
            ("2027-01-04T05:00:00Z", 1_799_038_800),
            ("2027-01-03T23:30:00-05:30", 1_799_038_800),
            ("2027-01-04T05:00:00.250Z", 1_799_038_800.25),
            ("2028-02-29T00:00:00Z", 1_835_395_200),
            ("1970-01-01T00:00:00Z", 0),
        ]
        for (text, seconds) in expected {
            XCTAssertEqual(ScheduleDate.parse(text)?.timeIntervalSince1970, seconds, text)
            XCTAssertTrue(StringFormat.dateTime.matches(text), text)
        }
        // What JSON Schema's pattern lets through but no calendar has: the parser refuses it.
        for text in ["2027-02-29T00:00:00Z", "2027-02-30T09:00:00+01:00", "2027-04-31T09:00:00Z", "2027-01-04T24:00:00Z", "2027-01-04T09:60:00Z",
                     "2027-01-04T09:00:60Z", "2027-13-01T09:00:00Z", "2027-00-10T09:00:00Z", "0000-01-01T00:00:00Z", "2027-01-04T09:00:00+24:00"] {
            XCTAssertNil(ScheduleDate.parse(text), text)
            XCTAssertFalse(StringFormat.dateTime.matches(text), text)
        }
        // What neither accepts: no offset, an offset without its colon, a date only, lower case, spaces, a bare fraction point.
        let pattern = try NSRegularExpression(pattern: try XCTUnwrap(StringFormat.dateTime.pattern))
        for text in ["2027-01-04T09:00:00", "2027-01-04T09:00:00+0100", "2027-01-04", "2027-01-04t09:00:00z", "2027-01-04 09:00:00Z",
                     "2027-01-04T09:00Z", "2027-01-04T09:00:00.Z", "2027-01-04T09:00:00+01", " 2027-01-04T09:00:00Z", "２０２７-01-04T09:00:00Z", ""] {
            XCTAssertNil(ScheduleDate.parse(text), text)
            XCTAssertNil(pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)), text)
        }
    }

    func testWindowsStateCoverAndUnion() throws {
        let jan = try XCTUnwrap(ScheduleDate.parse("2027-01-01T00:00:00Z")), feb = try XCTUnwrap(ScheduleDate.parse("2027-02-01T00:00:00Z"))
        let mar = try XCTUnwrap(ScheduleDate.parse("2027-03-01T00:00:00Z"))
        let window = Availability(from: jan, until: feb)
        XCTAssertEqual(window.state(at: jan.addingTimeInterval(-1)), .upcoming)
        XCTAssertEqual(window.state(at: jan), .live, "from is inclusive")
        XCTAssertEqual(window.state(at: feb), .ended, "until is exclusive")
        XCTAssertTrue(Availability.always.covers(window))
        XCTAssertFalse(window.covers(.always))
        XCTAssertTrue(Availability(from: jan, until: nil).covers(Availability(from: feb, until: mar)))
        XCTAssertFalse(Availability(from: feb, until: nil).covers(window))
        XCTAssertFalse(window.covers(Availability(from: jan, until: mar)))
        XCTAssertEqual(Availability.union([window, Availability(from: feb, until: mar)]), Availability(from: jan, until: mar))
        XCTAssertEqual(Availability.union([window, Availability(from: nil, until: feb)]), Availability(from: nil, until: feb))
        XCTAssertEqual(Availability.union([window, Availability(from: feb, until: nil)]), Availability(from: jan, until: nil))
    }

    /// A draft item and a scheduled program in a copy of the samples: what ships, what the manifest says.
    func testDraftsAreNeverPackedAndWindowsReachTheDownloadManifest() throws {
        let workspace = try BuildTests.Workspace()
        try workspace.replace("companero-lucia/library/library.yaml", "  - id: breathing\n    kind: audio\n",
                              "  - id: breathing\n    kind: audio\n    status: draft\n")
        try workspace.replace("companero-lucia/library/library.yaml", "  - id: habit-tracker\n    kind: worksheet\n",
                              "  - id: habit-tracker\n    kind: worksheet\n    availableFrom: 2027-01-01T00:00:00Z\n    availableUntil: 2027-06-01T00:00:00+02:00\n")
        try workspace.replace("companero-lucia/programs/30-day-fitness-foundation.yaml", "difficulty: beginner\n",
                              "difficulty: beginner\navailableFrom: 2027-01-04T06:00:00+01:00\n")
        let output = try workspace.build(["--unsigned"])
        XCTAssertEqual(output.status, 0, output.stdout + output.stderr)
        // The program's breathing lessons name a draft: a warning at each, and the build goes on.
        let draftLessons = output.stdout.components(separatedBy: "\n").filter { $0.contains("references.lesson-availability") && $0.contains("'breathing'") }
        XCTAssertEqual(draftLessons.count, 2, output.stdout)
        XCTAssertTrue(output.stdout.contains("lesson 'habit-tracker' of program '30-day-fitness-foundation' is shown only from 2027-01-01T00:00:00Z, after the program starts")
                      == false, "an item shown before its program starts covers it from the start")
        XCTAssertTrue(output.stdout.contains("lesson 'habit-tracker' of program '30-day-fitness-foundation' stops being shown at 2027-06-01T00:00:00+02:00, but the program is shown indefinitely"),
                      output.stdout)

        let manifest = try XCTUnwrap(Publisher.currentManifest(tenant: "companero-lucia", output: workspace.output)?.manifest)
        XCTAssertNil(manifest.bundle("library-item.breathing"), "a draft item is not packed")
        let program = try XCTUnwrap(manifest.bundle("program.30-day-fitness-foundation"))
        XCTAssertEqual(program.availableFrom.map(TUFDate.string), "2027-01-04T05:00:00Z")
        XCTAssertNil(program.availableUntil)
        XCTAssertFalse(program.dependencies.contains("library-item.breathing"))
        // The pack's window: habit-tracker's, opened by its two items that have none.
        let pack = try XCTUnwrap(manifest.bundle("library.foundation-essentials"))
        XCTAssertNil(pack.availableFrom)
        XCTAssertNil(pack.availableUntil)
        XCTAssertTrue(program.isAvailable(at: try XCTUnwrap(ScheduleDate.parse("2027-01-04T05:00:00Z"))))
        XCTAssertFalse(program.isAvailable(at: try XCTUnwrap(ScheduleDate.parse("2027-01-04T04:59:59Z"))))

        // core's library.json lists no draft, and keeps each item's own window.
        let tenant = workspace.output.appendingPathComponent("companero-lucia")
        let core = try XCTUnwrap(manifest.bundle("core"))
        let listing = try LiveryProcess.tool(["unzip", "-p", tenant.appendingPathComponent(core.path).path, "library/library.json"])
        XCTAssertEqual(listing.status, 0, listing.stderr)
        let library = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [String: Any])
        let items = try XCTUnwrap(library["items"] as? [[String: Any]])
        XCTAssertEqual(items.compactMap { $0["id"] as? String }.sorted(), ["habit-tracker", "morning-routine", "warm-up"])
        XCTAssertEqual(items.first { $0["id"] as? String == "habit-tracker" }?["availableUntil"] as? String, "2027-06-01T00:00:00+02:00")

        // The manifest with windows passes the committed schema (python-jsonschema, an independent implementation).
        let manifestPath = tenant.appendingPathComponent(try XCTUnwrap(Publisher.currentManifest(tenant: "companero-lucia", output: workspace.output)).pointer.manifest).path
        let script = """
            import json, sys, jsonschema
            errors = [e.message for e in jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).iter_errors(json.load(open(sys.argv[2])))]
            print("\\n".join(errors) or "ok"); sys.exit(1 if errors else 0)
            """
        let checked = try LiveryProcess.tool(["python3", "-c", script, LiveryProcess.packageRoot.appendingPathComponent("schemas/download-manifest.schema.json").path, manifestPath])
        XCTAssertEqual(checked.status, 0, checked.stdout + checked.stderr)
        XCTAssertTrue(try String(contentsOfFile: manifestPath, encoding: .utf8).contains("\"availableFrom\":\"2027-01-04T05:00:00Z\""))

        // Publishing the draft makes it ship: a new release with its bundle.
        try workspace.replace("companero-lucia/library/library.yaml", "    status: draft\n", "    status: published\n")
        let again = try workspace.build(["--unsigned"])
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
        let next = try XCTUnwrap(Publisher.currentManifest(tenant: "companero-lucia", output: workspace.output)?.manifest)
        XCTAssertEqual(next.release, manifest.release + 1)
        XCTAssertNotNil(next.bundle("library-item.breathing"))
    }

    func testADraftIsValidatedLikePublishedContent() throws {
        let workspace = try BuildTests.Workspace()
        try workspace.replace("companero-lucia/library/library.yaml", "  - id: breathing\n    kind: audio\n",
                              "  - id: breathing\n    kind: audio\n    status: draft\n")
        try workspace.replace("companero-lucia/library/library.yaml", "      en: audio/breathing.mp3", "      en: audio/breathin.mp3")
        try workspace.replace("companero-lucia/programs/30-day-fitness-foundation.yaml", "difficulty: beginner\n",
                              "difficulty: beginner\navailableFrom: 2027-02-30T06:00:00+01:00\n")
        let before = BuildTests.tree(workspace.output)
        let output = try workspace.build(["--unsigned"])
        XCTAssertEqual(output.status, 1, output.stdout + output.stderr)
        let lines = output.stdout.components(separatedBy: "\n")
        XCTAssertTrue(lines.contains { $0.hasSuffix("companero-lucia/library/library.yaml:41:11: error: file 'library/audio/breathin.mp3' does not exist [assets.missing]") },
                      output.stdout)
        XCTAssertTrue(lines.contains { $0.contains("programs/30-day-fitness-foundation.yaml:11:16: error: 'availableFrom' is '2027-02-30T06:00:00+01:00'") && $0.hasSuffix("[structure.format]") },
                      output.stdout)
        XCTAssertEqual(BuildTests.tree(workspace.output), before, "a failed build publishes nothing")
    }

    func testBuildAsOfShowsWhatAReleaseShowsAndPublishesNothing() throws {
        let workspace = try BuildTests.Workspace()
        try workspace.replace("companero-lucia/library/library.yaml", "  - id: breathing\n    kind: audio\n",
                              "  - id: breathing\n    kind: audio\n    status: draft\n")
        try workspace.replace("companero-lucia/library/library.yaml", "  - id: habit-tracker\n    kind: worksheet\n",
                              "  - id: habit-tracker\n    kind: worksheet\n    availableUntil: 2027-01-01T00:00:00Z\n")
        try workspace.replace("sonic-walkscape/tours/rome-trastevere/tour.yaml", "\nslug: ", "\navailableFrom: 2027-03-01T09:00:00+01:00\nslug: ")
        let output = try LiveryProcess.run(["build", "Tenants", "--output", "Output", "--as-of", "2027-01-04T06:00:00+01:00"], in: workspace.root)
        XCTAssertEqual(output.status, 0, output.stdout + output.stderr)
        let lines = output.stdout.components(separatedBy: "\n")
        func line(_ prefix: String) -> String? { lines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(prefix) }.map { $0.trimmingCharacters(in: .whitespaces) } }
        XCTAssertTrue(lines.contains("companero-lucia as of 2027-01-04T05:00:00Z:"), output.stdout)
        XCTAssertEqual(line("library item breathing")?.hasSuffix("draft: not in the release"), true, output.stdout)
        XCTAssertEqual(line("library item habit-tracker")?.hasSuffix("in the release, hidden since 2027-01-01T00:00:00Z"), true, output.stdout)
        XCTAssertEqual(line("program 30-day-fitness-foundation")?.hasSuffix("  shown"), true, output.stdout)
        XCTAssertEqual(line("tour rome-trastevere")?.hasSuffix("in the release, hidden until 2027-03-01T08:00:00Z"), true, output.stdout)
        XCTAssertEqual(line("tour florence-renaissance")?.hasSuffix("  shown"), true, output.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.output.appendingPathComponent("companero-lucia").path), "--as-of publishes nothing")

        let bad = try LiveryProcess.run(["build", "Tenants", "--as-of", "2027-01-04T06:00:00"], in: workspace.root)
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("--as-of needs a date and time with its offset"), bad.stderr)
    }

    func testDownloadManifestWindowsAreReadStrictly() throws {
        let from = try XCTUnwrap(ScheduleDate.parse("2027-01-04T05:00:00Z"))
        let bundle = DownloadManifest.Bundle(id: "program.p", kind: .program, subject: "p", locale: nil, size: 1, sha256: String(repeating: "a", count: 64),
                                             path: "targets/x.program.p.zip", policy: .onDemand, access: .public, dependencies: [], minimumClientVersion: "1.0.0",
                                             availableFrom: from, availableUntil: from.addingTimeInterval(86_400))
        let manifest = DownloadManifest(tenant: "t", release: 1, format: .zip, minimumClientVersion: "1.0.0", bundles: [bundle])
        XCTAssertEqual(try DownloadManifest(data: manifest.bytes), manifest)
        let text = String(decoding: manifest.bytes, as: UTF8.self)
        for (old, new, message) in [
            ("\"availableFrom\":\"2027-01-04T05:00:00Z\"", "\"availableFrom\":\"2027-01-04T06:00:00+01:00\"", "\"availableFrom\" must be a date"),
            ("\"availableFrom\":\"2027-01-04T05:00:00Z\"", "\"availableFrom\":1799042400", "\"availableFrom\" must be text"),
            ("\"availableUntil\":\"2027-01-05T05:00:00Z\"", "\"availableUntil\":\"2027-01-04T05:00:00Z\"", "\"availableUntil\" is not after \"availableFrom\""),
        ] {
            XCTAssertTrue(text.contains(old), text)
            XCTAssertThrowsError(try DownloadManifest(data: Data(text.replacingOccurrences(of: old, with: new).utf8)), new) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)")
            }
        }
    }
}
