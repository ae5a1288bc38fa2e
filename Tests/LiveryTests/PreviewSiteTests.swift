import Foundation
import XCTest

/// `livery preview`'s site (issue 16, item 4): pages per locale with programs, library and tours, tour
/// maps drawn over the tour's own tile pack, rendered by headless Chromium (Debian `chromium`) and
/// checked pixel by pixel with Pillow.
final class PreviewSiteTests: XCTestCase {
    private func screenshot(_ page: URL, in folder: URL, size: String = "1100,1200") throws -> URL {
        let png = folder.appendingPathComponent(page.deletingPathExtension().lastPathComponent + ".png")
        let chromium = try PlatformFixtures.tool([
            "chromium", "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=" + folder.appendingPathComponent("profile").path,
            "--screenshot=" + png.path, "--window-size=" + size, page.absoluteString,
        ], timeout: 240)
        XCTAssertTrue(FileManager.default.fileExists(atPath: png.path), "chromium wrote no screenshot (status \(chromium.status)): \(chromium.stderr.suffix(2000))")
        return png
    }

    func testTourSiteHasEveryLocaleAndPlaysItsOwnMedia() throws {
        let folder = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        let result = try LiveryProcess.run(["preview", "Tenants/sonic-walkscape", "-o", site.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "", "-o names the site's folder, with no warning")
        for page in ["index.html", "brand.html", "it.html", "en.html", "fr.html"] + ["florence-renaissance", "rome-trastevere"].flatMap { tour in
            ["it", "en", "fr"].map { "tours/\(tour).\($0).html" }
        } {
            XCTAssertTrue(FileManager.default.fileExists(atPath: site.appendingPathComponent(page).path), page)
        }
        let index = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertEqual(index, try String(contentsOf: site.appendingPathComponent("it.html"), encoding: .utf8), "index is the default locale's page")
        let tour = try String(contentsOf: site.appendingPathComponent("tours/florence-renaissance.fr.html"), encoding: .utf8)
        XCTAssertTrue(tour.contains("<html lang=\"fr\""))
        XCTAssertTrue(tour.contains("Du Duomo au palais Pitti en cinq étapes."), "the French summary")
        XCTAssertTrue(tour.contains("src=\"../media/tours/florence-renaissance/audio/fr/01-duomo.mp3\""), "the stop's French audio")
        XCTAssertEqual(tour.components(separatedBy: "class=\"tile\"").count - 1, 4, "the pack's four zoom-15 tiles, inlined")
        XCTAssertFalse(tour.contains("http://") || tour.contains("https://") || tour.contains("<script"), "no network, no script")
        XCTAssertEqual(tour.components(separatedBy: "<circle class=\"trigger\"").count - 1, 5)
        // The audio a page plays is in the site, byte for byte.
        let copied = try Data(contentsOf: site.appendingPathComponent("media/tours/florence-renaissance/audio/fr/01-duomo.mp3"))
        XCTAssertEqual(copied, try Data(contentsOf: LiveryProcess.packageRoot.appendingPathComponent("Tenants/sonic-walkscape/tours/florence-renaissance/audio/fr/01-duomo.mp3")))

        // Again into the same folder: replaced. A folder that is not a preview is refused, and left alone.
        // (--site, the site's folder before --output named it as for build and generate, still works, with a warning.)
        let again = try LiveryProcess.run(["preview", "Tenants/sonic-walkscape", "--site", site.path])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stderr, "warning: --site is deprecated: use --output \(site.path)\n")
        let other = folder.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try "mine".write(to: other.appendingPathComponent("todo.txt"), atomically: true, encoding: .utf8)
        let refused = try LiveryProcess.run(["preview", "Tenants/sonic-walkscape", "--output", other.path])
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("is not an earlier preview"), refused.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: other.path), ["todo.txt"])
    }

    /// The tour page as Chromium paints it: tiles from the pack, the route line and the stop markers.
    func testTourMapPaintsTilesRouteAndStops() throws {
        let folder = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        XCTAssertEqual(try LiveryProcess.run(["preview", "Tenants/sonic-walkscape", "--output", site.path]).status, 0)
        let png = try screenshot(site.appendingPathComponent("tours/florence-renaissance.en.html"), in: folder)
        // Tile colours: the sample pack's synthetic tiles are pale blue-grey gradients (R 207–242, G 224–238, B 230–234),
        // which nothing else on the page uses. Route #E0115F, stops #1E6FD9.
        let script = """
            import sys
            from PIL import Image
            image = Image.open(sys.argv[1]).convert("RGB")
            pixels = list(image.getdata())
            tiles = sum(1 for r, g, b in pixels if 205 <= r <= 243 and 222 <= g <= 239 and 228 <= b <= 235 and not (r == g == b))
            route = sum(1 for p in pixels if p == (0xE0, 0x11, 0x5F))
            stops = sum(1 for p in pixels if p == (0x1E, 0x6F, 0xD9))
            print(tiles, route, stops)
            """
        let result = try PlatformFixtures.tool(["python3", "-c", script, png.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let counts = result.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        XCTAssertEqual(counts.count, 3, result.stdout)
        guard counts.count == 3 else { return }
        XCTAssertGreaterThan(counts[0], 20_000, "the tiles are painted (a map of about 270 × 380 pixels)")
        XCTAssertGreaterThan(counts[1], 300, "the route line is painted")
        XCTAssertGreaterThan(counts[2], 5 * 200, "five stop markers are painted")
    }

    /// Six tabs with an overflow 'More' tab (branding.tabs): the bar shows the first four and More, and the rest are marked as listed by More.
    func testSixTabsShowFourAndMoreWithTheRestInMore() throws {
        let folder = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        XCTAssertEqual(try LiveryProcess.run(["preview", "Tenants/companero", "--output", site.path]).status, 0)
        let page = try String(contentsOf: site.appendingPathComponent("en.html"), encoding: .utf8)
        let bar = try XCTUnwrap(page.components(separatedBy: "<div class=\"tabs\">").dropFirst().first?.components(separatedBy: "</div></div>").first)
        let labels = bar.components(separatedBy: "<div class=\"tab").dropFirst().map { tab in
            (tab.hasPrefix(" in-more") ? "in More: " : "") + (tab.components(separatedBy: "<span class=\"label\">").dropFirst().first?.components(separatedBy: "<")[0] ?? "")
        }
        XCTAssertEqual(labels, ["Home", "Chat", "Progress", "Programs", "More", "in More: Library", "in More: Profile"])
    }

    /// A Russian page shows Russian: its tab labels come from ru.yaml, and Chromium paints them (the
    /// screenshot differs from the English page's where the labels are).
    func testARussianPageShowsRussian() throws {
        let folder = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        XCTAssertEqual(try LiveryProcess.run(["preview", "Tenants/physio-clinic", "--output", site.path]).status, 0)
        let russian = site.appendingPathComponent("ru.html")
        let dom = try PlatformFixtures.tool(["chromium", "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
                                             "--user-data-dir=" + folder.appendingPathComponent("profile").path, "--dump-dom", russian.absoluteString], timeout: 240)
        XCTAssertTrue(dom.stdout.contains("<html lang=\"ru\""), String(dom.stdout.prefix(400)))
        XCTAssertTrue(dom.stdout.contains(">Главная<"), "the home tab's Russian label, as the browser parsed the page")
        XCTAssertFalse(dom.stdout.contains(">Home<"))
        let ru = try screenshot(russian, in: folder, size: "900,400"), en = try screenshot(site.appendingPathComponent("en.html"), in: folder, size: "900,400")
        let script = """
            import sys
            from PIL import Image, ImageChops
            a, b = Image.open(sys.argv[1]).convert("RGB"), Image.open(sys.argv[2]).convert("RGB")
            box = ImageChops.difference(a, b).getbbox()
            print(box[1] if box else -1)
            """
        let result = try PlatformFixtures.tool(["python3", "-c", script, ru.path, en.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let top = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        XCTAssertGreaterThan(top, 0, "the Russian and English pages paint differently")
    }

    /// Programs are calendars of their weeks and days; drafts and windows are marked.
    func testProgramCalendarAndDraftsInTheLocalePage() throws {
        let workspace = try BuildTests.Workspace()
        try workspace.replace("companero-lucia/library/library.yaml", "  - id: breathing\n    kind: audio\n", "  - id: breathing\n    kind: audio\n    status: draft\n")
        try workspace.replace("companero-lucia/programs/30-day-fitness-foundation.yaml", "difficulty: beginner\n",
                              "difficulty: beginner\navailableFrom: 2027-01-04T06:00:00+01:00\n")
        let result = try LiveryProcess.run(["preview", "Tenants/companero-lucia", "--output", "site"], in: workspace.root)
        XCTAssertEqual(result.status, 0, result.stderr)
        let page = try String(contentsOf: workspace.root.appendingPathComponent("site/es.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("Base de fitness en 30 días"))
        // The creator's brand sheet is hers by name, not her platform's (Compañero, whose app she is listed in).
        let sheet = try String(contentsOf: workspace.root.appendingPathComponent("site/brand.html"), encoding: .utf8)
        XCTAssertTrue(sheet.contains("<title>Lucía Moreno · brand sheet</title>") && sheet.contains("<h1>Lucía Moreno</h1>"), String(sheet.prefix(3000)))
        XCTAssertFalse(sheet.contains("<h1>Compañero</h1>"))
        XCTAssertEqual(page.components(separatedBy: "<div class=\"day\">").count - 1, 30, "one cell per day of the program")
        XCTAssertTrue(page.contains("<b>Semana 5</b> Termina con fuerza"), "the page's own words in Spanish too")
        XCTAssertTrue(page.contains("<a href=\"#item-morning-routine\">Crea tu rutina de movimiento matutina</a>"), "a lesson links to its library item, titled in Spanish")
        XCTAssertTrue(page.contains("Bebe agua <small>objetivo: 6 vasos</small>"))
        XCTAssertTrue(page.contains("<span class=\"badge\">desde 2027-01-04T05:00:00Z</span>"), "the program's window")
        XCTAssertTrue(page.contains("<li id=\"item-breathing\">Respiración tranquila <span class=\"muted\">audio · 6 s</span><span class=\"badge\">borrador: no entra en las versiones</span>"),
                      page)
    }
}

/// A Debian tool a test runs (chromium, tsc…) that is not installed skips the test, except under `make test`, which
/// installs them all and sets LIVERY_REQUIRE_TOOLS: there it fails.
final class MissingToolTests: XCTestCase {
    func testAMissingToolSkipsOutsideMakeTestAndFailsInIt() {
        let path = ["PATH": "/usr/bin:/bin"]
        XCTAssertNil(PlatformFixtures.missingTool("sh", environment: path))
        XCTAssertNil(PlatformFixtures.missingTool("/opt/anything/tool", environment: path), "a path is run as given")
        XCTAssertEqual(PlatformFixtures.missingTool("livery-no-such-tool", environment: path), .skip("livery-no-such-tool is not installed (make test-deps installs it)"))
        XCTAssertEqual(PlatformFixtures.missingTool("livery-no-such-tool", environment: path.merging(["LIVERY_REQUIRE_TOOLS": "1"]) { $1 }),
                       .fail("livery-no-such-tool is not installed (make test-deps installs it)"))
    }
}
