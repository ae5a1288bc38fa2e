import Foundation

/// How role names and target paths become parts of URLs and file names. One function for signer,
/// server and client, agreeing byte for byte with python-tuf (`urllib.parse.quote(name, "")`):
/// every byte of the name's UTF-8 except ASCII letters, digits and `_.-~` becomes `%XX` (uppercase
/// hex), `/` included, so a hostile name (`../x`, `?`, `#`) can neither leave its folder nor change
/// a URL's meaning.
public enum TUFName {
    public static func quoted(_ name: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(name.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The unversioned file a client keeps a role's metadata in: `<quoted name>.json`.
    public static func fileName(ofRole name: String) -> String { quoted(name) + ".json" }

    /// A target path as a URL path: each `/`-separated part quoted as above, except that `/`
    /// stays a separator (targets live in folders on the server).
    public static func urlPath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { quoted(String($0)) }.joined(separator: "/")
    }
}
