import Foundation

/// The kinds of manifest a tenant folder holds, and where each lives by convention.
public enum ManifestKind: String, Sendable, CaseIterable, Codable {
    case tenant, branding, voice, program, library, tour, locale, store

    /// Where files of this kind live in a tenant folder (documented in docs/tenant-folder.md).
    public var conventionalPath: String {
        switch self {
        case .tenant: return "tenant.yaml (or tenant.json)"
        case .branding: return "the token files listed under `branding` in the tenant manifest (DTCG, *.tokens.json)"
        case .voice: return "voice.yaml"
        case .program: return "programs/<program-id>.yaml"
        case .library: return "library/library.yaml"
        case .tour: return "tours/<tour-id>/tour.yaml"
        case .locale: return "locales/<locale>.yaml"
        case .store: return "store.yaml"
        }
    }

    /// The manifest kind a path inside a tenant folder has by convention, or nil for other files.
    /// Token files are not found by name: the tenant manifest lists them.
    public static func kind(ofRelativePath path: String) -> ManifestKind? {
        guard ManifestFormat(path: path) != nil else { return nil }
        let parts = path.split(separator: "/").map(String.init)
        let stem = ((parts.last ?? "") as NSString).deletingPathExtension
        switch parts.count {
        case 1 where stem == "tenant": return .tenant
        case 1 where stem == "voice": return .voice
        case 1 where stem == "store": return .store
        case 2 where parts[0] == "programs": return .program
        case 2 where parts[0] == "locales": return .locale
        case 2 where parts[0] == "library" && stem == "library": return .library
        case 3 where parts[0] == "tours" && stem == "tour": return .tour
        default: return nil
        }
    }

    /// The declared shape of this kind (branding is DTCG and is checked by the token parser).
    public var shape: Shape {
        switch self {
        case .tenant: return ManifestShapes.tenant
        case .branding: return .any
        case .voice: return ManifestShapes.voice
        case .program: return ManifestShapes.program
        case .library: return ManifestShapes.library
        case .tour: return ManifestShapes.tour
        case .locale: return ManifestShapes.locale
        case .store: return ManifestShapes.store
        }
    }

    public var title: String {
        switch self {
        case .tenant: return "Livery tenant manifest"
        case .branding: return "Livery branding (DTCG 2025.10 design tokens)"
        case .voice: return "Livery voice and tone manifest"
        case .program: return "Livery coaching program"
        case .library: return "Livery content library"
        case .tour: return "Livery audio walking tour"
        case .locale: return "Livery locale bundle"
        case .store: return "Livery store listing settings"
        }
    }
}
