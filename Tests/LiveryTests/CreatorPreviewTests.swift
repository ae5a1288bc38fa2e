import Foundation
@testable import LiveryRender
import XCTest

/// Creator previews (issue 36): a creator's overrides in their base's places, marked as hers; brand
/// colours and tab icons drawn; every word of the pages' own in the page's locale. Each page is loaded
/// in headless Chromium and read as it built it: the DOM, its text and the computed colours.
final class CreatorPreviewTests: XCTestCase {
    /// Every swatch of the first mode as the browser shows it.
    private static let swatchProbe = """
        const out = {groups: [], swatches: []};
        const mode = document.querySelector("section.mode");
        for (const heading of mode.querySelectorAll("h3")) out.groups.push(heading.textContent);
        for (const swatch of mode.querySelectorAll(".swatch")) {
          const mark = swatch.querySelector(".mark"), struck = swatch.querySelector(".was s"), was = swatch.querySelector(".was");
          out.swatches.push({
            path: swatch.querySelector("code").textContent, ours: swatch.classList.contains("ours"),
            label: swatch.getAttribute("aria-label"), mark: mark ? mark.textContent : null,
            markColour: mark ? window.getComputedStyle(mark).backgroundColor : null,
            colour: window.getComputedStyle(swatch.querySelector(".chip > div")).backgroundColor,
            struck: struck ? struck.textContent : null,
            strike: struck ? window.getComputedStyle(struck).textDecorationLine : null,
            wasColour: was ? window.getComputedStyle(was.querySelector("i")).backgroundColor : null,
            was: was ? was.textContent : null,
          });
        }
        return out;
        """

    private func swatches(_ tenant: String, in folder: URL) throws -> (groups: [String], swatches: [[String: Any]]) {
        let site = folder.appendingPathComponent(tenant)
        let result = try LiveryProcess.run(["preview", "Tenants/" + tenant, "-o", site.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let found = try XCTUnwrap(PlatformFixtures.inspect(site.appendingPathComponent("brand.html"), in: folder, probe: Self.swatchProbe) as? [String: Any])
        return (found["groups"] as? [String] ?? [], found["swatches"] as? [[String: Any]] ?? [])
    }

    /// Lucía Moreno's sheet lists each colour once, the base's colours in Compañero's own order, hers marked
    /// with her name and the value of Compañero's she replaces struck through beside it.
    func testACreatorsOverridesStandInTheBasesPlacesMarkedAsHers() throws {
        let folder = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = try swatches("companero", in: folder), creator = try swatches("companero-lucia", in: folder)
        let basePaths = base.swatches.compactMap { $0["path"] as? String }, paths = creator.swatches.compactMap { $0["path"] as? String }
        XCTAssertFalse(basePaths.isEmpty)
        XCTAssertEqual(Set(paths).count, paths.count, "each colour once: \(paths)")
        XCTAssertEqual(Set(creator.groups).count, creator.groups.count, "each group once: \(creator.groups)")
        XCTAssertEqual(creator.groups, base.groups, "her additions join the base's groups")
        XCTAssertEqual(paths.filter(basePaths.contains), basePaths, "the base's colours in the base's order")
        XCTAssertEqual(paths.filter { !basePaths.contains($0) }, ["color.palette.coral", "color.palette.sand", "color.component.streak.flame", "color.component.streak.track"])
        XCTAssertFalse(base.swatches.contains { $0["ours"] as? Bool == true || $0["struck"] is String }, "a brand's own sheet marks nothing")

        func swatch(_ path: String) throws -> [String: Any] { try XCTUnwrap(creator.swatches.first { $0["path"] as? String == path }, path) }
        let primary = try swatch("color.palette.primary")
        XCTAssertEqual(primary["ours"] as? Bool, true)
        XCTAssertEqual(primary["mark"] as? String, "Lucía Moreno")
        XCTAssertEqual(primary["label"] as? String, "primary: set by Lucía Moreno")
        XCTAssertEqual(primary["colour"] as? String, "rgb(194, 69, 47)", "her deep coral, #C2452F")
        XCTAssertEqual(primary["struck"] as? String, "#007BFF", "Compañero's primary, replaced")
        XCTAssertEqual(primary["strike"] as? String, "line-through")
        XCTAssertEqual(primary["wasColour"] as? String, "rgb(0, 123, 255)", "and drawn")
        XCTAssertEqual(primary["markColour"] as? String, "rgb(179, 84, 30)")
        let coral = try swatch("color.palette.coral")
        XCTAssertEqual(coral["mark"] as? String, "Lucía Moreno · new")
        XCTAssertEqual(coral["label"] as? String, "coral: added by Lucía Moreno")
        XCTAssertNil(coral["struck"] as? String, "nothing of the base's to replace")
        // An inherited alias that reaches her colour is not hers, but says what it was and through what it changed.
        let brand = try swatch("color.brand.primary")
        XCTAssertEqual(brand["ours"] as? Bool, false)
        XCTAssertEqual(brand["struck"] as? String, "#007BFF")
        XCTAssertTrue((brand["was"] as? String ?? "").hasSuffix("through color.palette.primary"), "\(brand)")
        let accent = try swatch("color.palette.accent")
        XCTAssertEqual(accent["ours"] as? Bool, false)
        XCTAssertNil(accent["struck"] as? String, "a colour she leaves alone is shown as the base's, unmarked")
    }

    /// Tab icons are drawn from assets/icons/<name>.svg or .png of the tenant or, nearest first, its ancestors;
    /// an icon with only a symbol name is a placeholder saying so. The brand colours and each tab's colour are drawn.
    func testBrandColoursAndTabIconsAreDrawn() throws {
        let workspace = try BuildTests.Workspace()
        func icon(_ tenant: String, _ name: String, fill: String) throws {
            let url = workspace.tenants.appendingPathComponent("\(tenant)/assets/icons/\(name)")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"28\" height=\"28\"><rect width=\"28\" height=\"28\" fill=\"\(fill)\"/></svg>".utf8).write(to: url)
        }
        try icon("companero", "house.svg", fill: "#13A88A")
        try icon("companero-lucia", "house.svg", fill: "#7A1FA2")
        let png = workspace.tenants.appendingPathComponent("companero/assets/icons/chart.line.uptrend.xyaxis.png")
        let drawn = try PlatformFixtures.tool(["python3", "-c", "import sys\nfrom PIL import Image\nImage.new('RGB', (28, 28), (0x1F, 0x6F, 0xB2)).save(sys.argv[1])", png.path])
        XCTAssertEqual(drawn.status, 0, drawn.stderr)
        let result = try LiveryProcess.run(["preview", "Tenants/companero-lucia", "--output", "site"], in: workspace.root)
        XCTAssertEqual(result.status, 0, result.stderr)
        let site = workspace.root.appendingPathComponent("site"), page = site.appendingPathComponent("en.html")
        XCTAssertEqual(try Data(contentsOf: site.appendingPathComponent("media/assets/icons/house.svg")),
                       try Data(contentsOf: workspace.tenants.appendingPathComponent("companero-lucia/assets/icons/house.svg")), "her own house, not the base's")

        let probe = """
            const style = (element, property) => element ? window.getComputedStyle(element)[property] : null;
            const chips = [...document.querySelectorAll(".chips .chip")].map(chip => ({
              name: chip.querySelector("b").textContent, background: style(chip, "backgroundColor"), ink: style(chip, "color")}));
            const tabs = [...document.querySelectorAll(".tab")].map(tab => {
              const image = tab.querySelector("img.icon"), symbol = tab.querySelector(".icon.symbol");
              return {label: tab.querySelector(".label").textContent, line: style(tab, "borderTopColor"), labelColour: style(tab.querySelector(".label"), "color"),
                      image: image ? image.getAttribute("src") : null, drawn: image ? image.complete && image.naturalWidth > 0 : false,
                      symbol: symbol ? symbol.textContent : null, note: symbol ? symbol.getAttribute("aria-label") : null};
            });
            return {headings: [...document.querySelectorAll("h2")].map(h => h.textContent), chips, tabs};
            """
        let found = try XCTUnwrap(PlatformFixtures.inspect(page, in: workspace.root, probe: probe) as? [String: Any])
        XCTAssertEqual((found["headings"] as? [String])?.first, "Brand colours")
        let chips = found["chips"] as? [[String: String]] ?? []
        XCTAssertEqual(chips.map { $0["name"] ?? "" }, ["primary", "primary-pressed", "primary-subtle", "secondary", "secondary-subtle", "accent"])
        XCTAssertEqual(chips.first?["background"], "rgb(194, 69, 47)", "her primary, drawn")
        XCTAssertEqual(chips.first?["ink"], "rgb(255, 255, 255)", "white reads on deep coral")
        XCTAssertEqual(chips.last?["background"], "rgb(232, 90, 69)", "her accent is coral")
        XCTAssertEqual(chips.first { $0["name"] == "primary-subtle" }?["ink"], "rgb(0, 0, 0)", "black reads on the pale tint")

        let tabs = found["tabs"] as? [[String: Any]] ?? []
        func tab(_ label: String) throws -> [String: Any] { try XCTUnwrap(tabs.first { $0["label"] as? String == label }, label) }
        let home = try tab("Home"), chat = try tab("Chat"), progress = try tab("Progress")
        XCTAssertEqual(home["image"] as? String, "media/assets/icons/house.svg")
        XCTAssertEqual(home["drawn"] as? Bool, true)
        XCTAssertEqual(progress["image"] as? String, "media/assets/icons/chart.line.uptrend.xyaxis.png", "the base's icon, inherited")
        XCTAssertEqual(progress["drawn"] as? Bool, true)
        XCTAssertNil(chat["image"] as? String)
        XCTAssertEqual(chat["symbol"] as? String, "bubble.left.and.bubble.right", "a symbol name alone is shown as the name")
        XCTAssertEqual(chat["note"] as? String, "bubble.left.and.bubble.right: a system symbol; no image in assets/icons/ to draw")
        XCTAssertEqual(home["line"] as? String, "rgb(194, 69, 47)", "home's colour is {color.brand.primary}, hers")
        XCTAssertEqual(home["labelColour"] as? String, "rgb(194, 69, 47)")
        XCTAssertEqual(progress["line"] as? String, "rgb(232, 90, 69)", "progress's is {color.brand.accent}")

        // Painted, not only in the DOM: her house icon's purple and the base's progress blue.
        let shot = workspace.root.appendingPathComponent("en.png")
        let chromium = try PlatformFixtures.tool([
            "chromium", "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=" + workspace.root.appendingPathComponent("profile").path, "--screenshot=" + shot.path, "--window-size=1100,700", page.absoluteString,
        ], timeout: 240)
        XCTAssertTrue(FileManager.default.fileExists(atPath: shot.path), "chromium wrote no screenshot (status \(chromium.status)): \(chromium.stderr.suffix(2000))")
        let count = """
            import sys
            from PIL import Image
            pixels = list(Image.open(sys.argv[1]).convert("RGB").getdata())
            print(sum(1 for p in pixels if p == (0x7A, 0x1F, 0xA2)), sum(1 for p in pixels if p == (0x1F, 0x6F, 0xB2)))
            """
        let counted = try PlatformFixtures.tool(["python3", "-c", count, shot.path])
        let numbers = counted.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        XCTAssertEqual(numbers.count, 2, counted.stdout + counted.stderr)
        XCTAssertGreaterThan(numbers.first ?? 0, 600, "her house icon (28 × 28) is painted")
        XCTAssertGreaterThan(numbers.last ?? 0, 600, "the inherited progress icon is painted")
    }

    /// The preview's own words on a Spanish page are Spanish: none of the English table's words that Spanish
    /// says otherwise is left in its headings, labels and badges; the page says it is Spanish.
    func testASpanishPageHasNoEnglishHeadings() throws {
        let workspace = try BuildTests.Workspace()
        try workspace.replace("companero-lucia/library/library.yaml", "  - id: breathing\n    kind: audio\n", "  - id: breathing\n    kind: audio\n    status: draft\n")
        let result = try LiveryProcess.run(["preview", "Tenants/companero-lucia", "--output", "site"], in: workspace.root)
        XCTAssertEqual(result.status, 0, result.stderr)
        let probe = """
            const texts = selector => [...document.querySelectorAll(selector)].map(element => element.textContent.trim());
            return {lang: document.documentElement.lang, headings: texts("h2"),
                    words: texts("h1, h2, h3, nav a, .week > b, .day > b, .item small, .tab small, .badge, ul.library .muted, .program > p.muted")};
            """
        let found = try XCTUnwrap(PlatformFixtures.inspect(workspace.root.appendingPathComponent("site/es.html"), in: workspace.root, probe: probe) as? [String: Any])
        XCTAssertEqual(found["lang"] as? String, "es")
        XCTAssertEqual(found["headings"] as? [String], ["Colores de marca", "Pestañas", "Programas", "Biblioteca"])
        let shown = (found["words"] as? [String] ?? []).joined(separator: "\n")
        XCTAssertTrue(shown.contains("Semana 1") && shown.contains("Día 30") && shown.contains("objetivo: 6 vasos") && shown.contains("hoja de marca")
                      && shown.contains("borrador: no entra en las versiones") && shown.contains("en «Más»") && shown.contains("30 días · principiante"), shown)
        // Every word of the table that Spanish says differently, with its placeholders taken out: none is on the page.
        for key in PreviewWords.Key.allCases {
            guard case .text(let english) = PreviewWords.phrase(key, "en"), case .text(let spanish) = PreviewWords.phrase(key, "es"), english != spanish else { continue }
            for fragment in english.replacingOccurrences(of: "\\{[a-z]+\\}", with: "\n", options: .regularExpression).split(separator: "\n")
                .map({ $0.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters)) }) where fragment.count >= 3 {
                XCTAssertNil(shown.range(of: "\\b\(NSRegularExpression.escapedPattern(for: fragment))\\b", options: .regularExpression),
                             "“\(fragment)” (\(key)) on the Spanish page:\n\(shown)")
            }
        }
        for english in ["target 6 glasses", "Week", "Day 1", "lesson", "binary", "check-in", "beginner", "draft: not in releases", "in More", "brand sheet"] {
            XCTAssertFalse(shown.contains(english), english)
        }
    }

    /// The brand sheet speaks the tenant's default locale: Sonic Walkscape's is Italian.
    func testTheBrandSheetIsInTheTenantsDefaultLocale() throws {
        let folder = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        XCTAssertEqual(try LiveryProcess.run(["preview", "Tenants/sonic-walkscape", "-o", site.path]).status, 0)
        let probe = """
            const texts = selector => [...document.querySelectorAll(selector)].map(element => element.textContent.trim());
            return {lang: document.documentElement.lang, headings: texts("h2"), columns: texts("th"), springs: texts(".spring p:not(.params)"),
                    verdicts: texts("td .pass, td .fail")};
            """
        let found = try XCTUnwrap(PlatformFixtures.inspect(site.appendingPathComponent("brand.html"), in: folder, probe: probe) as? [String: Any])
        XCTAssertEqual(found["lang"] as? String, "it")
        XCTAssertEqual(found["headings"] as? [String], ["Tavolozza modalità «default»", "Scala tipografica", "Spaziature", "Raggi", "Ombre", "Molle"])
        XCTAssertEqual(found["columns"] as? [String], ["Esempio", "Primo piano", "Sfondo", "Uso", "Rapporto", "AA", "AAA"])
        XCTAssertTrue((found["springs"] as? [String] ?? []).allSatisfy { $0.contains("si assesta in circa") }, "\(found["springs"] ?? "")")
        XCTAssertTrue((found["verdicts"] as? [String] ?? []).allSatisfy { $0 == "superato" || $0 == "non superato" })
        let tour = try String(contentsOf: site.appendingPathComponent("tours/florence-renaissance.fr.html"), encoding: .utf8)
        XCTAssertTrue(tour.contains("Florence · 18 min · 1.16 km · 5 étapes"), "a French tour page's facts")
        XCTAssertTrue(tour.contains("démarre à 120 m"))
        XCTAssertTrue(tour.contains("tuiles hors ligne au zoom 15"))
    }

    /// The table is whole: every word in every language, with the English placeholders; an unknown language reads English.
    func testEveryPreviewWordHasEveryLanguage() {
        func placeholders(_ phrase: PreviewWords.Phrase) -> Set<String> {
            let texts: [String]
            switch phrase {
            case .text(let text): texts = [text]
            case .plural(let forms): texts = Array(forms.values)
            }
            return Set(texts.flatMap { text in
                text.matches(of: #/\{[a-z]+\}/#).map { String(text[$0.range]) }
            })
        }
        for key in PreviewWords.Key.allCases {
            let phrases = PreviewWords.phrases(key)
            XCTAssertEqual(Set(phrases.keys), Set(PreviewWords.languages), "\(key)")
            guard let english = phrases["en"] else { continue }
            for (language, phrase) in phrases {
                XCTAssertEqual(placeholders(phrase), placeholders(english), "\(key) in \(language)")
                if case .plural(let forms) = phrase { XCTAssertNotNil(forms[.other], "\(key) in \(language) needs its 'other' form") }
            }
        }
        XCTAssertEqual(PreviewWords(locale: "es-419").language, "es")
        XCTAssertEqual(PreviewWords(locale: "fr_CA").language, "fr")
        XCTAssertEqual(PreviewWords(locale: "pt-BR").language, "en")
        XCTAssertEqual(PreviewWords(locale: "ru")(.days, count: 21), "21 день")
        XCTAssertEqual(PreviewWords(locale: "ru")(.days, count: 3), "3 дня")
        XCTAssertEqual(PreviewWords(locale: "ru")(.days, count: 30), "30 дней")
        XCTAssertEqual(PreviewWords(locale: "en")(.minutes, count: 1), "1 minute")
    }
}
