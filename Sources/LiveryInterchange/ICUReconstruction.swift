import LiveryL10n

/// A problem turning a platform string back into ICU: which string (a plural category or substitution) and where in it.
public struct ReconstructionProblem: Error, Sendable, Equatable {
    public var message: String
    /// The plural category or substitution the problem is in, nil for the main string.
    public var part: String?
    /// Scalar offset inside that string.
    public var offset: Int
}

/// Turns platform forms back into ICU MessageFormat, using the key's signature for argument names.
///
/// The result is written in canonical style (`{n, plural, one {…} other {…}}`); an unchanged import
/// never gets here, because the importer compares platform forms first and keeps the YAML text.
public enum ICUReconstruction {
    public static func icu(from form: PlatformForm, signature: PlatformSignature) -> Result<String, ReconstructionProblem> {
        do {
            switch form {
            case .text(let text):
                if signature.shape == .verbatim { return .success(text) }
                if !signature.formatsText { return .success(MessageFormat.literal(text, poundIsSyntax: false, apostrophes: .asNeeded)) }
                return .success(try convert(text, part: nil, signature: signature, pound: nil, allowCount: false, substitutions: [:]))
            case .plural(let items):
                guard let name = signature.pluralArgument ?? (signature.slots.count == 1 ? signature.slots[0].name : nil),
                      let slot = signature.slot(name) else {
                    throw ReconstructionProblem(message: "this key has no single plural argument in the source message, so it cannot have plural variants", part: nil, offset: 0)
                }
                return .success(try plural(name, items, signature: signature, poundSlot: slot.number, allowCount: false))
            case .substituted(let main, let substitutions):
                return .success(try convert(main, part: nil, signature: signature, pound: nil, allowCount: false, substitutions: substitutions))
            }
        } catch let problem as ReconstructionProblem {
            return .failure(problem)
        } catch {
            return .failure(ReconstructionProblem(message: "\(error)", part: nil, offset: 0))
        }
    }

    private static func plural(_ name: MessageFormat.ArgumentName, _ items: [String: String], signature: PlatformSignature,
                               poundSlot: Int?, allowCount: Bool) throws -> String {
        for category in items.keys where PluralCategory(rawValue: category) == nil {
            throw ReconstructionProblem(message: "'\(category)' is not a CLDR plural category (zero, one, two, few, many, other)", part: category, offset: 0)
        }
        var out = "{\(name), plural,"
        for category in PluralCategory.allCases {
            guard let text = items[category.rawValue] else { continue }
            out += " \(category.rawValue) {" + (try convert(text, part: category.rawValue, signature: signature, pound: poundSlot, allowCount: allowCount, substitutions: [:])) + "}"
        }
        return out + "}"
    }

    /// One format string as ICU: literals escaped, specifiers as arguments (or `#` for the counted one).
    private static func convert(_ text: String, part: String?, signature: PlatformSignature, pound: Int?, allowCount: Bool,
                                substitutions: [String: PlatformForm.Substitution]) throws -> String {
        let tokens: [FormatToken]
        switch FormatString.tokenize(text, allowCount: allowCount, allowSubstitution: part == nil && !substitutions.isEmpty) {
        case .success(let found): tokens = found
        case .failure(let error): throw ReconstructionProblem(message: error.message, part: part, offset: error.offset)
        }
        let inBranch = pound != nil || allowCount
        var out = ""
        var next = 1
        for token in tokens {
            switch token {
            case .literal(let literal):
                out += MessageFormat.literal(literal, poundIsSyntax: inBranch, apostrophes: .asNeeded)
            case .count:
                out += "#"
            case .argument(let number):
                let n = number ?? next
                next = n + 1
                guard let slot = signature.slot(number: n) else {
                    throw ReconstructionProblem(message: "argument \(n) is not an argument of the source message (it has \(signature.slots.count))", part: part, offset: 0)
                }
                out += n == pound ? "#" : slot.icu
            case .substitution(let name):
                guard let substitution = substitutions[name] else {
                    throw ReconstructionProblem(message: "'%#@\(name)@' names no substitution", part: part, offset: 0)
                }
                guard let slot = signature.slot(number: substitution.argumentNumber) else {
                    throw ReconstructionProblem(message: "substitution '\(name)' counts argument \(substitution.argumentNumber), which the source message does not have", part: name, offset: 0)
                }
                out += try plural(slot.name, substitution.variants, signature: signature, poundSlot: nil, allowCount: true)
            }
        }
        return out
    }
}
