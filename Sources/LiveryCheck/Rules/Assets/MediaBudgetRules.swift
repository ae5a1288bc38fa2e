import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryMedia

struct ImageBudgetRule: Rule {
    static let description = RuleDescription(
        id: "assets.image-budget", name: "Image budgets", family: .assets,
        rationale: "Images sized for their role: the raster logo at least 512 px on its short side (launchers and stores scale it up), tour and program covers at the tenant's aspect ratio (16:9 unless `media.images.coverAspectRatio` says otherwise), and no raster image above 1 MB (`media.images.maxKilobytes`), which a phone screen never needs.",
        severity: .warning,
        messages: [declare(Message.badRatio), declare(Message.tooLarge), declare(Message.smallLogo), declare(Message.coverRatio)],
        triggering: [
            RuleExample("a 256-pixel raster logo", files: ["example/tenant.yaml": RuleExample.tenant(appending: "assets:\n  logoRaster: ↓assets/logo.png\n")],
                        binaryFiles: ["example/assets/logo.png": RuleExample.pngHeader(width: 256, height: 256)]),
            RuleExample("a cover aspect ratio that is not width:height", files: ["example/tenant.yaml": RuleExample.tenant(appending: "media:\n  images:\n    coverAspectRatio: ↓wide\n")]),
            RuleExample("a raster logo above the tenant's 1 KB budget", files: ["example/tenant.yaml": RuleExample.tenant(appending: "media:\n  images:\n    maxKilobytes: 1\nassets:\n  logoRaster: ↓assets/logo.png\n")],
                        binaryFiles: ["example/assets/logo.png": RuleExample.pngHeader(width: 1024, height: 1024) + [UInt8](repeating: 0, count: 2048)]),
            RuleExample("a square tour cover", files: TourExample.files(languages: "[en]").mapValues { $0.replacingOccurrences(of: "cover: cover.png", with: "cover: ↓cover.png") },
                        binaryFiles: TourExample.media.merging(["example/tours/walk/cover.png": RuleExample.pngHeader(width: 900, height: 900)]) { _, new in new }),
        ],
        nonTriggering: [
            RuleExample("a 1024-pixel raster logo", files: ["example/tenant.yaml": RuleExample.tenant(appending: "assets:\n  logoRaster: assets/logo.png\n")],
                        binaryFiles: ["example/assets/logo.png": RuleExample.pngHeader(width: 1024, height: 1024)]),
            RuleExample("a 16:9 tour cover", files: TourExample.files(languages: "[en]"), binaryFiles: TourExample.media),
        ])

    /// How far a cover's width-to-height may stray from the declared ratio (2 %: a pixel of rounding at any size).
    static let ratioTolerance = 0.02

    enum Message {
        static func badRatio(ratio: String) -> DiagnosticMessage {
            DiagnosticMessage("bad-ratio", "coverAspectRatio '\(ratio)' is not width:height")
        }
        static func tooLarge(path: String, megabytes: String, limit: String) -> DiagnosticMessage {
            DiagnosticMessage("too-large", "'\(path)' is \(megabytes) MB; raster images should stay under \(limit)")
        }
        static func smallLogo(width: Int, height: Int, minimum: Int) -> DiagnosticMessage {
            DiagnosticMessage("small-logo", "the raster logo is \(width) × \(height) pixels; launchers and app stores need at least \(minimum) on the short side")
        }
        static func coverRatio(width: Int, height: Int, ratioWidth: Int, ratioHeight: Int) -> DiagnosticMessage {
            DiagnosticMessage("cover-ratio", "the cover is \(width) × \(height) pixels; covers are \(ratioWidth):\(ratioHeight)")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        let id = Self.description.id
        let limits = context.mediaLimits
        var diagnostics: [Diagnostic] = []
        if let declared = context.tenant.tenant?["media"]?["images"]?["coverAspectRatio"], context.owns(declared.location),
           MediaLimits.ratio(declared.string ?? "") == nil {
            diagnostics.append(Diagnostic(.warning, Message.badRatio(ratio: declared.string ?? ""), at: declared.location, rule: id,
                                          hint: "write it as two whole numbers, such as 16:9 or 4:3"))
        }
        var seen = Set<String>()
        for reference in context.source.assets {
            guard let type = FileType(extensionOf: reference.path), FileType.rasterImages.contains(type),
                  case .success(let relative) = TenantPath.normalize(reference.path, baseDirectory: reference.baseDirectory),
                  case .success(let url) = context.source.paths.regularFile(relative) else { continue }
            if seen.insert(relative).inserted, let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? Int,
               size > limits.rasterMaximumKilobytes * 1024 {
                diagnostics.append(Diagnostic(.warning, Message.tooLarge(path: reference.path, megabytes: String(format: "%.1f", Double(size) / 1_048_576), limit: Self.kilobytes(limits.rasterMaximumKilobytes)),
                                              at: reference.location, rule: id, hint: "export it at the size the app shows it, or with more compression (WebP or JPEG quality 80)"))
            }
            let role = reference.field == ["assets", "logoRaster"] ? "logo" : reference.field == ["cover"] ? "cover" : nil
            guard let role, case .success(let facts?)? = ImageProbe.probe(fileAt: url, as: type) else { continue }
            if role == "logo", facts.shortSide < limits.logoMinimumSide {
                diagnostics.append(Diagnostic(.warning, Message.smallLogo(width: facts.width, height: facts.height, minimum: limits.logoMinimumSide),
                                              at: reference.location, rule: id, hint: "export it at 1024 × 1024 pixels (from the SVG logo, if there is one)"))
            }
            if role == "cover" {
                let wanted = Double(limits.coverAspectRatio.width) / Double(limits.coverAspectRatio.height)
                let actual = Double(facts.width) / Double(facts.height)
                if abs(actual - wanted) / wanted > Self.ratioTolerance {
                    let height = Int((Double(facts.width) / wanted).rounded())
                    diagnostics.append(Diagnostic(.warning, Message.coverRatio(width: facts.width, height: facts.height, ratioWidth: limits.coverAspectRatio.width, ratioHeight: limits.coverAspectRatio.height),
                                                  at: reference.location, rule: id, hint: "crop it to \(facts.width) × \(height)"))
                }
            }
        }
        return diagnostics
    }

    static func kilobytes(_ value: Int) -> String { value % 1024 == 0 ? "\(value / 1024) MB" : "\(value) KB" }
}

struct BundleBudgetRule: Rule {
    static let description = RuleDescription(
        id: "content.bundle-budget", name: "Bundle size budgets", family: .content,
        rationale: "Each tour, tour language, library pack and program is one download, often on mobile data: its files together stay under a budget per kind (tour 25 MB, tour language 60 MB, library pack 150 MB, program 10 MB), which a tenant can change under `media.bundleMegabytes`.",
        severity: .warning,
        messages: [declare(Message.overBudget)],
        triggering: [RuleExample("a tour language over a 0.1 MB budget", files: TourExample.files(languages: "[en]").merging([
            "example/tenant.yaml": RuleExample.tenant(appending: "media:\n  bundleMegabytes: {tour-language: 0.1}\n"),
            "example/tours/walk/tour.yaml": TourExample.files(languages: "[en]")["example/tours/walk/tour.yaml"]!.replacingOccurrences(of: "id: walk", with: "id: ↓walk"),
        ]) { _, new in new }, binaryFiles: TourExample.media.merging(["example/tours/walk/en.mp3": MediaSamples.mp3(seconds: 30)]) { _, new in new })],
        nonTriggering: [RuleExample("a small tour", files: TourExample.files(languages: "[en]"), binaryFiles: TourExample.media)])

    enum Message {
        static func overBudget(name: String, megabytes: String, kind: String, budget: String) -> DiagnosticMessage {
            DiagnosticMessage("over-budget", "\(name) is \(megabytes) MB; a \(kind) bundle should stay under \(budget) MB for a download on mobile data")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        let limits = context.mediaLimits
        var diagnostics: [Diagnostic] = []
        func bytes(_ nodes: [Node?], in directory: String) -> Int {
            var paths = Set<String>()
            for node in nodes.compactMap({ $0 }) {
                for value in node.items ?? node.entries?.map(\.value) ?? [node] {
                    guard let path = value.string, case .success(let relative) = TenantPath.normalize(path, baseDirectory: directory) else { continue }
                    paths.insert(relative)
                }
            }
            return paths.reduce(0) { total, relative in
                guard case .success(let url) = context.source.paths.regularFile(relative),
                      let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? Int else { return total }
                return total + size
            }
        }
        func check(_ kind: String, _ name: String, _ size: Int, at node: Node) {
            guard let budget = limits.bundleMegabytes[kind], Double(size) > budget * 1_048_576 else { return }
            diagnostics.append(Diagnostic(.warning, Message.overBudget(name: name, megabytes: String(format: "%.1f", Double(size) / 1_048_576), kind: kind, budget: String(format: "%g", budget)),
                                          at: node.location, rule: Self.description.id,
                                          hint: "encode audio at 64 kbit/s mono and video at the size phones show it, or split it (media.bundleMegabytes changes the budget)"))
        }
        for tour in context.source.manifests(.tour) {
            guard let idNode = tour.node["id"], let id = idNode.string else { continue }
            let stops = tour.node["stops"]?.items ?? []
            check("tour", "tour '\(id)' (cover, map, route, tiles, stop images)",
                  bytes([tour.node["cover"], tour.node["map"], tour.node["route"], tour.node["tiles"]] + stops.map { $0["image"] }, in: tour.directory), at: idNode)
            for language in (tour.node["languages"]?.items ?? []).compactMap(\.string) {
                check("tour-language", "tour '\(id)' in '\(language)'", bytes(stops.flatMap { [$0["audio"]?[language], $0["subtitles"]?[language]] }, in: tour.directory), at: idNode)
            }
        }
        for library in context.source.manifests(.library) {
            let items = Dictionary((library.node["items"]?.items ?? []).compactMap { item in item["id"]?.string.map { ($0, item) } }) { a, _ in a }
            var packed = Set<String>()
            for pack in library.node["packs"]?.items ?? [] {
                guard let idNode = pack["id"], let id = idNode.string else { continue }
                let members = (pack["items"]?.items ?? []).compactMap(\.string)
                packed.formUnion(members)
                check("library-pack", "pack '\(id)'", bytes(members.flatMap { [items[$0]?["media"], items[$0]?["subtitles"]] }, in: library.directory), at: idNode)
            }
            for (id, item) in items where !packed.contains(id) {
                check("library-pack", "item '\(id)'", bytes([item["media"], item["subtitles"]], in: library.directory), at: item["id"] ?? item)
            }
        }
        for program in context.source.manifests(.program) {
            guard let idNode = program.node["id"], let id = idNode.string else { continue }
            check("program", "program '\(id)'", bytes([program.node["cover"]], in: program.directory), at: idNode)
        }
        return diagnostics
    }
}
