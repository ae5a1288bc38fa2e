import Foundation

enum MP3Probe {
    static func probe(_ reader: ByteReader) throws -> MediaFacts {
        throw ProbeFailure("cannot be measured yet")
    }
}

enum WAVProbe {
    static func probe(_ reader: ByteReader) throws -> MediaFacts {
        throw ProbeFailure("cannot be measured yet")
    }
}
