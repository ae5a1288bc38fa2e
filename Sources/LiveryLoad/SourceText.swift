import Foundation
import LiveryDiagnostics
import LiveryEncoding

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
            guard case .valid(let length) = UTF8Sequence(in: body, at: index) else {
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
}
