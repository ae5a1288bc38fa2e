/// What the bytes at an index of UTF-8 text hold: a well-formed character's sequence (RFC 3629: no overlong forms, no
/// surrogates, nothing above U+10FFFF) and its length, or why not. The one check the release format's JSON parser and
/// the loader's text decoder share. Inlinable: both call it for every non-ASCII character, from other modules.
public enum UTF8Sequence: Equatable, Sendable {
    /// A well-formed character of `length` bytes (1 for ASCII).
    case valid(length: Int)
    /// The first byte starts no character (a continuation byte, an overlong lead, or above U+10FFFF).
    case cannotStart
    /// The bytes end inside the character.
    case cutOff
    /// The byte at `offset` cannot continue the character.
    case cannotContinue(offset: Int)

    @inlinable
    public init<Bytes: RandomAccessCollection>(in bytes: Bytes, at index: Int) where Bytes.Element == UInt8, Bytes.Index == Int {
        let first = bytes[index]
        if first < 0x80 {
            self = .valid(length: 1)
            return
        }
        let length: Int
        // The second byte's range is narrower after these leads: that is what refuses overlong forms, surrogates
        // and code points above U+10FFFF.
        var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
        switch first {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default:
            self = .cannotStart
            return
        }
        for k in 1..<length {
            guard index + k < bytes.endIndex else {
                self = .cutOff
                return
            }
            let byte = bytes[index + k]
            guard byte >= (k == 1 ? lower : 0x80), byte <= (k == 1 ? upper : 0xBF) else {
                self = .cannotContinue(offset: index + k)
                return
            }
        }
        self = .valid(length: length)
    }
}
