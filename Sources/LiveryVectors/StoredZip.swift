import Foundation

/// A minimal zip writer for vector bundles: stored (uncompressed) entries in the order given, a
/// fixed DOS timestamp (2020-01-01 00:00:00, the default entry time of `livery build`), mode 0644,
/// no extra fields. Every name is written exactly as given, so a hostile entry such as `../evil`
/// reaches the archive unchanged (libarchive-based writers normalise or refuse some names).
/// The same entries always give the same bytes, whatever the environment (`SOURCE_DATE_EPOCH`
/// does not apply here, unlike `ArchiveWriter`).
enum StoredZip {
    struct Entry: Sendable {
        var path: String
        var data: Data
    }

    private static let dosTime: UInt16 = 0
    private static let dosDate: UInt16 = UInt16((2020 - 1980) << 9 | 1 << 5 | 1)

    /// Where each entry's local header and data start in `archive(entries)` (no extra fields: the
    /// data follows the 30-byte header and the name).
    static func layout(_ entries: [Entry]) -> [(header: Int, data: Int)] {
        var offset = 0
        return entries.map { entry in
            let header = offset
            let data = header + 30 + entry.path.utf8.count
            offset = data + entry.data.count
            return (header, data)
        }
    }

    static func archive(_ entries: [Entry]) -> Data {
        var out = Data()
        var central = Data()
        for entry in entries {
            let name = Data(entry.path.utf8)
            let crc = CRC32.checksum(entry.data)
            let offset = UInt32(out.count)
            // Local file header.
            out.append(le32: 0x0403_4B50)
            out.append(le16: 20)          // version needed: 2.0
            out.append(le16: 0x0800)      // flags: names are UTF-8
            out.append(le16: 0)           // method: stored
            out.append(le16: dosTime)
            out.append(le16: dosDate)
            out.append(le32: crc)
            out.append(le32: UInt32(entry.data.count))
            out.append(le32: UInt32(entry.data.count))
            out.append(le16: UInt16(name.count))
            out.append(le16: 0)           // extra field length
            out.append(name)
            out.append(entry.data)
            // Central directory record.
            central.append(le32: 0x0201_4B50)
            central.append(le16: 0x0314)  // made by: Unix, spec 2.0
            central.append(le16: 20)
            central.append(le16: 0x0800)
            central.append(le16: 0)
            central.append(le16: dosTime)
            central.append(le16: dosDate)
            central.append(le32: crc)
            central.append(le32: UInt32(entry.data.count))
            central.append(le32: UInt32(entry.data.count))
            central.append(le16: UInt16(name.count))
            central.append(le16: 0)       // extra field length
            central.append(le16: 0)       // comment length
            central.append(le16: 0)       // disk number
            central.append(le16: 0)       // internal attributes
            central.append(le32: UInt32(0o100644) << 16)  // external attributes: a regular file, rw-r--r--
            central.append(le32: offset)
            central.append(name)
        }
        let centralOffset = UInt32(out.count)
        out.append(central)
        // End of central directory.
        out.append(le32: 0x0605_4B50)
        out.append(le16: 0)
        out.append(le16: 0)
        out.append(le16: UInt16(entries.count))
        out.append(le16: UInt16(entries.count))
        out.append(le32: UInt32(central.count))
        out.append(le32: centralOffset)
        out.append(le16: 0)
        return out
    }
}

/// CRC-32 (IEEE 802.3, as zip uses it).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

extension Data {
    fileprivate mutating func append(le16 value: UInt16) {
        append(UInt8(value & 0xFF))
        append(UInt8(value >> 8))
    }

    fileprivate mutating func append(le32 value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }
}
