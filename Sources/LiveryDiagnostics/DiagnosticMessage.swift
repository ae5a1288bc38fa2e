/// One message a rule can say: a stable id, unique within the rule (`not-slug`), and a template whose
/// numbered placeholders `{0}`, `{1}`… stand for the message's arguments (SARIF 2.1.0 §3.11.5: a literal
/// `{` or `}` is written `{{` or `}}`). Rules list theirs in `RuleDescription.messages`; `livery rules`
/// prints them and SARIF carries them as the rule's `messageStrings` (§3.49.11).
public struct MessageTemplate: Hashable, Sendable {
    public var id: String
    public var text: String

    public init(id: String, text: String) {
        self.id = id
        self.text = text
    }

    /// The template with its placeholders replaced by `arguments` (`{{` and `}}` become `{` and `}`);
    /// nil when a placeholder has no argument or a brace is unpaired.
    public func filled(with arguments: [String]) -> String? {
        var out = "", scalars = Array(text.unicodeScalars), index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "{" || scalar == "}", index + 1 < scalars.count, scalars[index + 1] == scalar {
                out.unicodeScalars.append(scalar)
                index += 2
            } else if scalar == "{" {
                var digits = "", end = index + 1
                while end < scalars.count, ("0"..."9").contains(scalars[end]) { digits.unicodeScalars.append(scalars[end]); end += 1 }
                guard end < scalars.count, scalars[end] == "}", let number = Int(digits), number < arguments.count else { return nil }
                out += arguments[number]
                index = end + 1
            } else if scalar == "}" {
                return nil
            } else {
                out.unicodeScalars.append(scalar)
                index += 1
            }
        }
        return out
    }

    /// How many placeholders the template has (the highest number plus one).
    public var placeholderCount: Int {
        var count = 0, scalars = Array(text.unicodeScalars), index = 0
        while index < scalars.count {
            if scalars[index] == "{", index + 1 < scalars.count, scalars[index + 1] == "{" { index += 2; continue }
            if scalars[index] == "{" {
                var digits = "", end = index + 1
                while end < scalars.count, ("0"..."9").contains(scalars[end]) { digits.unicodeScalars.append(scalars[end]); end += 1 }
                if let number = Int(digits) { count = max(count, number + 1) }
                index = end
            } else {
                index += 1
            }
        }
        return count
    }
}

/// A finding's message as a rule constructs it: the id of the rule's message, its template and its
/// arguments. Built by a rule's typed constructor, whose body is the message written as an ordinary
/// interpolated string: each interpolation becomes an argument, the literal text the template.
///
///     enum Message {
///         static func notSlug(value: String, field: String) -> DiagnosticMessage {
///             DiagnosticMessage("not-slug", "'\(value)' is not a valid \(field)")
///         }
///     }
///
/// The text a finding shows is the template filled with the arguments: the same text the interpolated
/// string would have made.
public struct DiagnosticMessage: Hashable, Sendable {
    public var id: String
    public var template: MessageTemplate { MessageTemplate(id: id, text: templateText) }
    public var arguments: [String]
    /// The rendered message.
    public var text: String
    private var templateText: String

    public init(_ id: String, _ text: Text) {
        self.id = id
        templateText = text.template
        arguments = text.arguments
        self.text = text.rendered
    }

    /// An interpolated string split into its literal text (the template) and its interpolations (the arguments).
    public struct Text: ExpressibleByStringInterpolation, Sendable {
        var template = "", arguments: [String] = [], rendered = ""

        public init(stringLiteral value: String) {
            var interpolation = Interpolation(literalCapacity: value.utf8.count, interpolationCount: 0)
            interpolation.appendLiteral(value)
            self.init(stringInterpolation: interpolation)
        }

        public init(stringInterpolation: Interpolation) {
            template = stringInterpolation.template
            arguments = stringInterpolation.arguments
            rendered = stringInterpolation.rendered
        }

        public struct Interpolation: StringInterpolationProtocol, Sendable {
            var template = "", arguments: [String] = [], rendered = ""

            public init(literalCapacity: Int, interpolationCount: Int) {
                template.reserveCapacity(literalCapacity + 3 * interpolationCount)
            }

            public mutating func appendLiteral(_ literal: String) {
                rendered += literal
                for character in literal {
                    template.append(character)
                    if character == "{" || character == "}" { template.append(character) }
                }
            }

            /// Renders `value` exactly as a `String` interpolation does.
            public mutating func appendInterpolation<T>(_ value: T) {
                let text = "\(value)"
                template += "{\(arguments.count)}"
                arguments.append(text)
                rendered += text
            }
        }
    }
}

/// A type a message constructor can take as an argument: it has a value to stand in for an argument
/// when the constructor is called only to learn its template (`declare`).
public protocol MessageArgument {
    static var placeholder: Self { get }
}

extension String: MessageArgument { public static var placeholder: String { "" } }
extension Substring: MessageArgument { public static var placeholder: Substring { "" } }
extension Character: MessageArgument { public static var placeholder: Character { " " } }
extension Int: MessageArgument { public static var placeholder: Int { 0 } }
extension Int64: MessageArgument { public static var placeholder: Int64 { 0 } }
extension UInt64: MessageArgument { public static var placeholder: UInt64 { 0 } }
extension Double: MessageArgument { public static var placeholder: Double { 0 } }
extension Bool: MessageArgument { public static var placeholder: Bool { false } }
extension RuleID: MessageArgument { public static var placeholder: RuleID { "" } }
extension Severity: MessageArgument { public static var placeholder: Severity { .error } }
extension Array: MessageArgument { public static var placeholder: [Element] { [] } }
extension Optional: MessageArgument { public static var placeholder: Wrapped? { nil } }

/// The template of a message constructor, learnt by calling it with placeholder arguments: how a rule
/// declares the messages its typed constructors make (`messages: [declare(Message.notSlug), …]`).
/// A constructor makes one template whatever its arguments (`RuleExampleTests` checks every finding's
/// text against its declared template).
public func declare<each Argument: MessageArgument>(_ constructor: (repeat each Argument) -> DiagnosticMessage) -> MessageTemplate {
    constructor(repeat (each Argument).placeholder).template
}
