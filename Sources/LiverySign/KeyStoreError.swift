/// What the key store cannot do for a reason of its own: neither TUF's (a role's rules, a threshold of
/// signatures: `TUFError`), nor a key file's (`KeyFileError`, `KeyConfigurationError`), nor a file the system
/// cannot read or write (`ReadFailure`, `WriteFailure`). Typed so that a caller can tell a tenant without keys
/// from an unusable key without reading the sentence; the sentence is the message a command ends with.
public struct KeyStoreError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// The tenant has no keys in the store (and none were to be made).
        case noKeys
        /// `livery keys init` for a tenant that already has keys.
        case keysExist
        /// A rotation left a `<role>.key.new` behind.
        case interruptedRotation
        /// A key that cannot be opened, or that is not the key recorded for it.
        case unusableKey
        /// A delegation record that is not one, a key that is not its role's, a role the tenant does not have.
        case delegation
        /// `content.key` holds no content secret.
        case contentSecret
        /// The audit log cannot record signatures, so nothing signed is published.
        case auditLog
    }

    public var kind: Kind
    /// What it concerns: the tenant, the key's URI or the file, as the message names it.
    public var subject: String
    public var description: String

    public init(_ kind: Kind, _ subject: String, _ description: String) {
        self.kind = kind
        self.subject = subject
        self.description = description
    }
}
