/// One piece of a platform format string.
enum FormatToken: Equatable {
    case literal(String)
    /// `%1$d`, `%@`: a 1-based argument number, or nil for the next argument in order.
    case argument(Int?)
    /// `%arg` in an Xcode substitution variant: the counted number itself.
    case count
    /// `%#@name@` in an Xcode main string: a substitution.
    case substitution(String)
}

/// A format string that could not be read, with the scalar offset of the problem.
struct FormatStringError: Error, Equatable {
    var message: String
    var offset: Int
}

/// Reads printf-style format strings as Android (`java.util.Formatter`) and Apple (`String(format:)`) write them.
enum FormatString {
    private static let conversions: Set<Unicode.Scalar> = ["@", "d", "i", "u", "o", "x", "X", "f", "F", "e", "E", "g", "G", "a", "A", "c", "s", "S", "p"]
    private static let lengthModifiers: Set<Unicode.Scalar> = ["h", "l", "q", "z", "t", "j", "L"]
    private static let flags: Set<Unicode.Scalar> = ["-", "+", " ", "#", "0", "'", ","]

    /// Splits `text` into literals and specifiers; `%%` is a literal `%`.
    static func tokenize(_ text: String, allowCount: Bool, allowSubstitution: Bool) -> Result<[FormatToken], FormatStringError> {
        let scalars = Array(text.unicodeScalars)
        var tokens: [FormatToken] = []
        var literal = ""
        var i = 0
        func flush() {
            if !literal.isEmpty { tokens.append(.literal(literal)); literal = "" }
        }
        while i < scalars.count {
            guard scalars[i] == "%" else {
                literal.unicodeScalars.append(scalars[i])
                i += 1
                continue
            }
            let start = i
            i += 1
            guard i < scalars.count else { return .failure(FormatStringError(message: "a lone '%' ends the text; write '%%' for a percent sign", offset: start)) }
            if scalars[i] == "%" { literal += "%"; i += 1; continue }
            if allowCount, scalars[i...].starts(with: "arg".unicodeScalars) {
                flush(); tokens.append(.count); i += 3; continue
            }
            if scalars[i] == "#", i + 1 < scalars.count, scalars[i + 1] == "@" {
                guard allowSubstitution else { return .failure(FormatStringError(message: "a '%#@…@' substitution is only allowed in a String Catalog's main string", offset: start)) }
                var j = i + 2
                var name = ""
                while j < scalars.count, scalars[j] != "@" { name.unicodeScalars.append(scalars[j]); j += 1 }
                guard j < scalars.count, !name.isEmpty else { return .failure(FormatStringError(message: "'%#@' starts a substitution that has no closing '@'", offset: start)) }
                flush(); tokens.append(.substitution(name)); i = j + 1; continue
            }
            // %[n$][flags][width][.precision][length]conversion
            var number: Int?
            var j = i
            var digits = ""
            while j < scalars.count, scalars[j].properties.numericType == .decimal, scalars[j].isASCII { digits.unicodeScalars.append(scalars[j]); j += 1 }
            if !digits.isEmpty, j < scalars.count, scalars[j] == "$" {
                guard let n = Int(digits), n >= 1 else { return .failure(FormatStringError(message: "argument numbers start at 1 (%1$…)", offset: start)) }
                number = n
                i = j + 1
            }
            while i < scalars.count, flags.contains(scalars[i]) { i += 1 }
            while i < scalars.count, scalars[i].isASCII, scalars[i].properties.numericType == .decimal { i += 1 }
            if i < scalars.count, scalars[i] == "." {
                i += 1
                while i < scalars.count, scalars[i].isASCII, scalars[i].properties.numericType == .decimal { i += 1 }
            }
            while i < scalars.count, lengthModifiers.contains(scalars[i]) { i += 1 }
            guard i < scalars.count, conversions.contains(scalars[i]) else {
                return .failure(FormatStringError(message: "'%' starts no known format specifier; write '%%' for a percent sign", offset: start))
            }
            i += 1
            flush()
            tokens.append(.argument(number))
        }
        flush()
        return .success(tokens)
    }
}
