import Foundation

/// A size as people read it, in decimal units as disks and downloads are sold (as `du -h --si`):
/// `812 bytes`, `52.3 KB`, `1.2 MB`, `3.4 GB`. The unit follows the size, so 52 KB never reads `0.0 MB`.
public enum ByteCount {
    public static func text(_ bytes: Int64) -> String {
        switch bytes {
        case ..<1000: return bytes == 1 ? "1 byte" : "\(bytes) bytes"
        case ..<1_000_000: return String(format: "%.1f KB", Double(bytes) / 1e3)
        case ..<1_000_000_000: return String(format: "%.1f MB", Double(bytes) / 1e6)
        default: return String(format: "%.1f GB", Double(bytes) / 1e9)
        }
    }

    public static func text(_ bytes: Int) -> String { text(Int64(bytes)) }
}
