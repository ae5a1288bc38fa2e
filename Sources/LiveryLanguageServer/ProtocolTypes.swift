import LiveryJSONRPC

// The Language Server Protocol 3.17 structures the server reads and writes, as typed Codable values.
// Only the fields Livery uses are declared; JSONDecoder ignores the rest of what a client sends.

/// A position in a document: zero-based line, and character offset in UTF-16 code units (LSP's default encoding).
public struct Position: Codable, Hashable, Sendable, Comparable {
    public var line: Int
    public var character: Int
    public init(line: Int, character: Int) { self.line = line; self.character = character }
    public static func < (a: Position, b: Position) -> Bool { (a.line, a.character) < (b.line, b.character) }
}

public struct Range: Codable, Hashable, Sendable {
    public var start: Position
    public var end: Position
    public init(start: Position, end: Position) { self.start = start; self.end = end }
    public func contains(_ position: Position) -> Bool { start <= position && position <= end }
}

public struct Location: Codable, Hashable, Sendable {
    public var uri: String
    public var range: Range
}

public struct TextDocumentIdentifier: Codable, Sendable { public var uri: String }

public struct TextDocumentItem: Codable, Sendable {
    public var uri: String
    public var languageId: String?
    public var version: Int?
    public var text: String
}

public struct VersionedTextDocumentIdentifier: Codable, Sendable {
    public var uri: String
    public var version: Int?
}

public struct DidOpenTextDocumentParams: Codable, Sendable { public var textDocument: TextDocumentItem }

/// A change: with a range, an edit of that range (incremental sync); without, the whole new text.
public struct TextDocumentContentChangeEvent: Codable, Sendable {
    public var range: Range?
    public var text: String
}

public struct DidChangeTextDocumentParams: Codable, Sendable {
    public var textDocument: VersionedTextDocumentIdentifier
    public var contentChanges: [TextDocumentContentChangeEvent]
}

public struct DidCloseTextDocumentParams: Codable, Sendable { public var textDocument: TextDocumentIdentifier }
public struct DidSaveTextDocumentParams: Codable, Sendable { public var textDocument: TextDocumentIdentifier }

public struct TextDocumentPositionParams: Codable, Sendable {
    public var textDocument: TextDocumentIdentifier
    public var position: Position
}

public struct WorkspaceFolder: Codable, Sendable {
    public var uri: String
    public var name: String?
}

public struct InitializeParams: Codable, Sendable {
    public var processId: Int?
    public var rootUri: String?
    public var rootPath: String?
    public var workspaceFolders: [WorkspaceFolder]?
}

public struct ServerCapabilities: Codable, Sendable {
    public struct TextDocumentSync: Codable, Sendable {
        public var openClose = true
        /// 1: the whole document on every change.
        public var change = 1
        public var save = true
    }
    public struct CompletionOptions: Codable, Sendable {
        public var triggerCharacters = ["{", ".", " "]
    }
    public struct CodeActionOptions: Codable, Sendable {
        public var codeActionKinds = ["quickfix"]
    }
    public var positionEncoding = "utf-16"
    public var textDocumentSync = TextDocumentSync()
    public var hoverProvider = true
    public var definitionProvider = true
    public var completionProvider = CompletionOptions()
    public var codeActionProvider = CodeActionOptions()
}

public struct ServerInfo: Codable, Sendable {
    public var name: String
    public var version: String
}

public struct InitializeResult: Codable, Sendable {
    public var capabilities = ServerCapabilities()
    public var serverInfo: ServerInfo
}

public enum DiagnosticSeverity: Int, Codable, Sendable {
    case error = 1, warning = 2, information = 3, hint = 4
}

public struct CodeDescription: Codable, Hashable, Sendable { public var href: String }

public struct DiagnosticRelatedInformation: Codable, Hashable, Sendable {
    public var location: Location
    public var message: String
}

public struct LSPDiagnostic: Codable, Hashable, Sendable {
    public var range: Range
    public var severity: DiagnosticSeverity
    public var code: String
    public var codeDescription: CodeDescription
    public var source = "livery"
    public var message: String
    public var relatedInformation: [DiagnosticRelatedInformation]?
}

public struct PublishDiagnosticsParams: Codable, Sendable {
    public var uri: String
    public var version: Int?
    public var diagnostics: [LSPDiagnostic]
}

public struct MarkupContent: Codable, Sendable {
    public var kind = "markdown"
    public var value: String
}

public struct Hover: Codable, Sendable {
    public var contents: MarkupContent
    public var range: Range?
}

public enum CompletionItemKind: Int, Codable, Sendable {
    case text = 1, property = 10, value = 12, enumMember = 20, color = 16, constant = 21, reference = 18
}

public struct CompletionItem: Codable, Sendable {
    public var label: String
    public var kind: CompletionItemKind
    public var detail: String?
    /// Replaces the word being typed (from where it starts to the cursor).
    public var textEdit: TextEdit?
}

public struct CompletionList: Codable, Sendable {
    public var isIncomplete = false
    public var items: [CompletionItem]
}

public struct TextEdit: Codable, Hashable, Sendable {
    public var range: Range
    public var newText: String
}

public struct WorkspaceEdit: Codable, Sendable {
    public var changes: [String: [TextEdit]]
}

public struct CodeActionContext: Codable, Sendable {
    public var diagnostics: [LSPDiagnostic]
}

public struct CodeActionParams: Codable, Sendable {
    public var textDocument: TextDocumentIdentifier
    public var range: Range
    public var context: CodeActionContext
}

public struct CodeAction: Codable, Sendable {
    public var title: String
    public var kind = "quickfix"
    public var diagnostics: [LSPDiagnostic]?
    public var isPreferred: Bool?
    public var edit: WorkspaceEdit
}
