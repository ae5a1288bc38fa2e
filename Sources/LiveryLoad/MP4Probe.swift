import Foundation

/// Walks the MP4/MOV box tree. (Not written yet: every file is refused.)
enum MP4Probe {
    static func probe(_ reader: ByteReader) throws -> MediaFacts {
        throw ProbeFailure("cannot be measured yet")
    }
}
