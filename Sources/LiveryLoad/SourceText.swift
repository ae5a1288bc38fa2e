import Foundation
import LiveryDiagnostics

/// Reads a text file defensively: bounded size, no binary, valid UTF-8, BOM removed.
public enum SourceText {
    public enum Failure: Error, Sendable {
        case diagnostic(Diagnostic)
    }

    /// Reads at most `limits.maxFileBytes` from `url`; a larger file is refused without reading the rest.
    public static func read(_ url: URL, displayPath: String, limits: LoadLimits = .default) -> Result<String, Failure> {
        if let unsaved = limits.overlay.text(forFileAt: url.path) {
            // An editor's text is checked like the file's bytes would be: size, NUL bytes (it is already valid Unicode).
            return unsaved.utf8.count > limits.maxFileBytes ? .failure(.diagnostic(Diagnostic(
                .error, LoadMessage.tooLarge(mebibytes: limits.maxFileBytes / (1 << 20)),
                at: .start(of: displayPath), rule: LoadRule.fileSize))) : decode(Array(unsaved.utf8), displayPath: displayPath)
        }
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            return .failure(.diagnostic(Diagnostic(.error, LoadMessage.unreadable(), at: .start(of: displayPath), rule: LoadRule.encoding)))
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: limits.maxFileBytes + 1)) ?? Data()
        if data.count > limits.maxFileBytes {
            return .failure(.diagnostic(Diagnostic(
                .error, LoadMessage.tooLarge(mebibytes: limits.maxFileBytes / (1 << 20)),
                at: .start(of: displayPath), rule: LoadRule.fileSize,
                hint: "split the content across several manifests, or move media into asset files")))
        }
        return decode(Array(data), displayPath: displayPath)
    }

    /// Decodes UTF-8 text, pointing at the first NUL byte or invalid sequence if there is one.
    public static func decode(_ bytes: [UInt8], displayPath: String) -> Result<String, Failure> {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        if body.starts(with: [0xFF, 0xFE]) || body.starts(with: [0xFE, 0xFF]) {
            return .failure(.diagnostic(Diagnostic(.error, LoadMessage.utf16(),
                                                   at: .start(of: displayPath), rule: LoadRule.encoding,
                                                   hint: "re-save the file as UTF-8")))
        }
        // The common case, valid text without NUL, is checked by the standard library's validating decoder;
        // only a file that fails it is walked byte by byte to say where.
        if !body.withUnsafeBufferPointer({ $0.baseAddress.map { memchr($0, 0, body.count) != nil } ?? false }), let text = String(validating: body, as: UTF8.self) {
            return .success(text)
        }
        var line = 1, column = 1
        var index = body.startIndex
        while index < body.endIndex {
            let byte = body[index]
            if byte == 0 {
                return .failure(.diagnostic(Diagnostic(
                    .error, LoadMessage.nulByte(),
                    at: SourceLocation(file: displayPath, line: line, column: column), rule: LoadRule.encoding)))
            }
            let length = sequenceLength(body, at: index)
            guard length > 0 else {
                return .failure(.diagnostic(Diagnostic(
                    .error, LoadMessage.invalidByte(byte: String(format: "0x%02X", byte)),
                    at: SourceLocation(file: displayPath, line: line, column: column), rule: LoadRule.encoding,
                    hint: "re-save the file as UTF-8")))
            }
            if byte == 0x0A { line += 1; column = 1 } else { column += 1 }
            index += length
        }
        return .success(String(decoding: body, as: UTF8.self))
    }

    /// The length of the well-formed UTF-8 sequence starting at `i`, or 0 if it is malformed.
    private static func sequenceLength(_ b: ArraySlice<UInt8>, at i: Int) -> Int {
        let first = b[i]
        if first < 0x80 { return 1 }
        let length: Int
        var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
        switch first {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return 0
        }
        guard i + length <= b.endIndex else { return 0 }
        for k in 1..<length {
            let byte = b[i + k]
            let (lo, hi) = k == 1 ? (lower, upper) : (UInt8(0x80), UInt8(0xBF))
            if byte < lo || byte > hi { return 0 }
        }
        return length
    }
}
