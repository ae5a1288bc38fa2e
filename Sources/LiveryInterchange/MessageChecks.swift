import LiveryDiagnostics
import LiveryL10n

/// The checks an imported translation must pass before it is written: ICU syntax, placeholders, plural categories.
enum MessageChecks {
    /// Findings for `text`, a new value of `key` in `locale`; `start` is where the text begins in the imported file.
    static func check(_ text: String, key: String, locale: String, source: String?, at start: SourceLocation, textIsVerbatim: Bool) -> [Diagnostic] {
        let message: MessageFormat
        switch MessageFormat.parse(text) {
        case .success(let parsed): message = parsed
        case .failure(let error):
            // Only text copied verbatim into the file maps onto positions in it; otherwise point at the value.
            let location = textIsVerbatim ? error.position.location(in: start) : start
            return [Diagnostic(.error, "'\(key)' is not valid ICU MessageFormat: \(error.message)", at: location, rule: InterchangeRule.icuSyntax,
                               hint: "a literal '{' or '}' is written '{' … '}' in apostrophes, such as '{'")]
        }
        var diagnostics: [Diagnostic] = []
        if let source, case .success(let original) = MessageFormat.parse(source) {
            let wanted = Set(original.argumentUses.map(\.name.description))
            let have = Set(message.argumentUses.map(\.name.description))
            for name in wanted.subtracting(have).sorted() {
                diagnostics.append(Diagnostic(.error, "'\(key)' drops the placeholder {\(name)} of the source message", at: start, rule: InterchangeRule.placeholder,
                                              hint: "keep {\(name)} in the translation; the app passes it in every language"))
            }
            for name in have.subtracting(wanted).sorted() {
                diagnostics.append(Diagnostic(.error, "'\(key)' uses {\(name)}, which the source message does not have", at: start, rule: InterchangeRule.placeholder,
                                              hint: DidYouMean.hint(for: name, among: wanted)))
            }
        }
        for selection in message.selections where selection.type.isPlural {
            let position = textIsVerbatim ? selection.position.location(in: start) : start
            if !selection.hasOther {
                diagnostics.append(Diagnostic(.error, "the plural {\(selection.name)} of '\(key)' has no 'other' case, which ICU requires", at: position, rule: InterchangeRule.plural))
            }
            let rules = selection.type == .plural ? PluralRules.cardinal(locale) : PluralRules.ordinal(locale)
            guard let rules else { continue }
            let used = Set(rules.categories.map(\.rawValue))
            for option in selection.options {
                guard case .keyword(let word) = option.selector, !used.contains(word) else { continue }
                let at = textIsVerbatim ? option.position.location(in: start) : start
                diagnostics.append(Diagnostic(.error, "'\(word)' is not a plural category of \(locale) (CLDR: \(rules.categories.map(\.rawValue).joined(separator: ", ")))",
                                              at: at, rule: InterchangeRule.plural, hint: "remove the '\(word)' case"))
            }
            let missing = rules.categories.map(\.rawValue).filter { category in !selection.keywords.contains(category) }
            if !missing.isEmpty && selection.hasOther {
                diagnostics.append(Diagnostic(.warning, "the plural {\(selection.name)} of '\(key)' has no \(missing.joined(separator: ", ")) case for \(locale); 'other' is used instead",
                                              at: position, rule: InterchangeRule.plural))
            }
        }
        return diagnostics
    }
}
