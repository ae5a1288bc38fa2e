import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryJSONRPC
import LiveryLoad
import LiveryMedia
import LiveryResolve

/// The Livery language server: takes JSON-RPC message bodies, returns the bodies to send back.
///
/// Sans-I/O (the transport is `StdioTransport`, which reads on one thread into an `Inbox` and answers on another), so
/// tests drive it with bytes; with an inbox it also answers cancelled requests with RequestCancelled and drops the
/// findings of a check whose documents changed again while it ran. Documents are synchronised whole
/// (`TextDocumentSyncKind.Full`); an open or change marks the document's tenant for checking, and `flush()` (which
/// the transport calls when no more input is waiting, and every request calls first) re-validates each marked
/// tenant once, with the tenants that extend it and the open documents' unsaved texts in place of their files,
/// and publishes the findings of every file of the tenants checked. Fast typing thus costs one check per burst.
public final class LanguageServer {
    /// An open document.
    struct OpenDocument {
        var uri: String
        var path: String
        var version: Int?
        var source: SourceDocument
    }

    /// The server's state in the protocol's lifecycle.
    enum Phase { case uninitialized, running, shuttingDown }

    private(set) var phase = Phase.uninitialized
    /// Set once `exit` arrives: the status the process ends with (0 after `shutdown`, 1 without, as LSP asks).
    public private(set) var exitStatus: Int32?
    var documents: [String: OpenDocument] = [:]
    /// Findings last published, by absolute file path.
    var published: [String: [Diagnostic]] = [:]
    /// The tenants resolved by the last check, by tenant folder path (for hovers, definitions and completions).
    var resolved: [String: ResolvedTenant] = [:]
    /// Who extends whom, per workspace folder, kept between checks (see `TenantChecker.check`).
    var dependents: [String: TenantDependents] = [:]
    var workspaceRoot: URL?
    var documentation = RuleDocumentation(workspace: nil)
    /// What the media probes measured, kept for the session (in memory only: the editor writes no probe cache).
    let media = MediaMeasurements()
    /// Where the server writes what it does not send to the client (the transport gives standard error).
    let log: (String) -> Void
    let version: String

    public init(version: String, log: @escaping (String) -> Void = { _ in }) {
        self.version = version
        self.log = log
    }

    /// Handles one message body; returns the message bodies to send, in order.
    public func handle(_ body: [UInt8]) -> [[UInt8]] {
        switch IncomingMessage.decode(body) {
        case .failure(let error):
            return [OutgoingMessage.error(id: nil, error)]
        case .success(let message):
            switch message.kind {
            case .response:
                return []
            case .notification(let method):
                return notification(method, message)
            case .request(let id, let method):
                defer { inbox?.answered(id) }
                // Cancelled while it waited: answered at once, as LSP 3.17 asks, without the work.
                if inbox?.isCancelled(id) == true { return [Self.cancelled(id)] }
                // A request sees the findings of every change before it.
                let published = flush()
                let result = request(method, message)
                // Cancelled while it was worked on: the answer is the cancellation, not a result nobody waits for.
                if inbox?.isCancelled(id) == true { return published + [Self.cancelled(id)] }
                switch result {
                case .success(let reply): return published + [reply(id)]
                case .failure(let error): return published + [OutgoingMessage.error(id: id, error)]
                }
            }
        }
    }

    private static func cancelled(_ id: RequestID) -> [UInt8] {
        OutgoingMessage.error(id: id, ResponseError(code: .requestCancelled, message: "the request was cancelled"))
    }

    /// The client's messages as they arrive, when the server runs on `StdioTransport` (nil when a test feeds it
    /// message by message): it says which requests were cancelled and whether a newer change is waiting.
    public var inbox: Inbox?

    /// Called after a tenant is checked and before its findings are published (or dropped as stale); for tests
    /// that need a message to arrive exactly while a check runs.
    public var checkFinished: (() -> Void)?

    /// A reply to encode once the request's id is known.
    typealias Reply = (RequestID) -> [UInt8]

    private static func reply(_ value: (some Encodable)?) -> Reply {
        { id in OutgoingMessage.response(id: id, result: value) }
    }

    private func request(_ method: String, _ message: IncomingMessage) -> Result<Reply, ResponseError> {
        if method == "initialize" {
            return message.params(InitializeParams.self).map { params in
                initialize(params)
                return Self.reply(InitializeResult(serverInfo: ServerInfo(name: "livery", version: version)))
            }
        }
        guard phase != .uninitialized else {
            return .failure(ResponseError(code: .serverNotInitialized, message: "the first request must be 'initialize'"))
        }
        if phase == .shuttingDown {
            return .failure(ResponseError(code: .invalidRequest, message: "the server is shutting down"))
        }
        switch method {
        case "shutdown":
            phase = .shuttingDown
            return .success(Self.reply(Optional<String>.none))
        case "textDocument/hover":
            return message.params(TextDocumentPositionParams.self).flatMap { params in document(params.textDocument.uri).map { Self.reply(hover(params.position, in: $0)) } }
        case "textDocument/definition":
            return message.params(TextDocumentPositionParams.self).flatMap { params in document(params.textDocument.uri).map { Self.reply(definition(params.position, in: $0)) } }
        case "textDocument/completion":
            return message.params(TextDocumentPositionParams.self).flatMap { params in document(params.textDocument.uri).map { Self.reply(completion(params.position, in: $0)) } }
        case "textDocument/codeAction":
            return message.params(CodeActionParams.self).flatMap { params in document(params.textDocument.uri).map { Self.reply(codeActions(params.range, in: $0)) } }
        default:
            return .failure(ResponseError(code: .methodNotFound, message: "'\(method)' is not supported"))
        }
    }

    private func document(_ uri: String) -> Result<OpenDocument, ResponseError> {
        guard let document = documents[uri] else {
            return .failure(ResponseError(code: .requestFailed, message: "'\(uri)' is not open"))
        }
        return .success(document)
    }

    private func notification(_ method: String, _ message: IncomingMessage) -> [[UInt8]] {
        if method == "exit" {
            exitStatus = phase == .shuttingDown ? 0 : 1
            return []
        }
        // Before `initialize`, notifications are dropped (LSP); after `shutdown`, only `exit` counts.
        guard phase == .running else { return [] }
        switch method {
        case "textDocument/didOpen":
            guard case .success(let params) = message.params(DidOpenTextDocumentParams.self) else { return invalid(method, message) }
            guard let path = Self.path(of: params.textDocument.uri) else { return [] }
            documents[params.textDocument.uri] = OpenDocument(uri: params.textDocument.uri, path: path, version: params.textDocument.version,
                                                              source: SourceDocument(params.textDocument.text))
            return pending(path)
        case "textDocument/didChange":
            guard case .success(let params) = message.params(DidChangeTextDocumentParams.self) else { return invalid(method, message) }
            guard var document = documents[params.textDocument.uri] else { return [] }
            var text = document.source.text
            for change in params.contentChanges {
                if let range = change.range {
                    // A client that ignores the advertised full sync: apply the edit.
                    text = Self.apply(TextEdit(range: range, newText: change.text), to: SourceDocument(text))
                } else {
                    text = change.text
                }
            }
            document.source = SourceDocument(text)
            document.version = params.textDocument.version
            documents[params.textDocument.uri] = document
            return pending(document.path)
        case "textDocument/didClose":
            guard case .success(let params) = message.params(DidCloseTextDocumentParams.self) else { return invalid(method, message) }
            guard let document = documents.removeValue(forKey: params.textDocument.uri) else { return [] }
            // The file on disk counts again.
            return pending(document.path)
        case "textDocument/didSave", "initialized", "$/setTrace", "workspace/didChangeConfiguration":
            return []
        case "$/cancelRequest":
            // Read by the inbox as it arrives (`Inbox.post`); a server fed message by message answers in order, so
            // there is never a request left to cancel.
            return []
        default:
            return []
        }
    }

    private func invalid(_ method: String, _ message: IncomingMessage) -> [[UInt8]] {
        log("ignored an invalid '\(method)' notification")
        return []
    }

    private func initialize(_ params: InitializeParams) {
        phase = .running
        let root = params.workspaceFolders?.first.flatMap { Self.path(of: $0.uri) } ?? params.rootUri.flatMap(Self.path(of:)) ?? params.rootPath
        workspaceRoot = root.map { URL(fileURLWithPath: $0) }
        documentation = RuleDocumentation(workspace: workspaceRoot.map(Self.tenantsFolder(in:)))
    }

    /// `Tenants/` when the editor opened the project's checkout, else the folder itself.
    static func tenantsFolder(in root: URL) -> URL {
        let tenants = root.appendingPathComponent("Tenants")
        return FileManager.default.fileExists(atPath: tenants.path) ? tenants : root
    }

    // MARK: Paths and URIs

    /// The file path of a `file:` URI, or nil for other schemes.
    static func path(of uri: String) -> String? {
        guard let url = URL(string: uri), url.isFileURL else { return nil }
        return url.standardizedFileURL.path
    }

    /// The URI to publish for a file: the one the client opened it with, else a `file:` URI.
    func uri(for path: String) -> String {
        documents.values.first { $0.path == path }?.uri ?? URL(fileURLWithPath: path).absoluteString
    }

    /// The text of a file: an open document's, else the file's, read only when it is a file of a tenant folder through
    /// links that stay inside it (`readableFile`): a manifest that links outside is refused by the loader, and its
    /// findings must not make the server read the file it links to.
    func source(of path: String) -> SourceDocument? {
        if let open = documents.values.first(where: { $0.path == path }) { return open.source }
        guard let file = Self.readableFile(path), let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return SourceDocument(String(decoding: data, as: UTF8.self))
    }

    /// The file at `path` if it may be read: in a tenant folder that is not a link out of its workspace, and a
    /// regular file whose every link stays inside that folder (the loader's check, `TenantPath.regularFile`).
    static func readableFile(_ path: String) -> URL? {
        guard let folder = TenantChecker.tenantFolder(containing: path) else { return nil }
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        guard standardized.hasPrefix(folder.path + "/"),
              let workspace = TenantPath.realpath(folder.deletingLastPathComponent().path), let real = TenantPath.realpath(folder.path),
              real.hasPrefix(workspace == "/" ? "/" : workspace + "/"),
              case .success(let file) = TenantPath(root: folder).regularFile(String(standardized.dropFirst(folder.path.count + 1))) else { return nil }
        return file
    }

    var overlay: SourceOverlay {
        var overlay = SourceOverlay()
        for document in documents.values { overlay.set(document.source.text, forFileAt: document.path) }
        return overlay
    }

    // MARK: Diagnostics

    /// Files changed since the last check, in the order they changed.
    private var dirty: [String] = []

    private func pending(_ path: String) -> [[UInt8]] {
        if !dirty.contains(path) { dirty.append(path) }
        return []
    }

    /// Checks the tenants of the documents changed since the last check, each tenant once; returns the
    /// publishDiagnostics notifications.
    public func flush() -> [[UInt8]] {
        var checked = Set<String>()
        var messages: [[UInt8]] = []
        let paths = dirty
        dirty = []
        for path in paths {
            guard let folder = TenantChecker.tenantFolder(containing: path), checked.insert(folder.path).inserted else { continue }
            messages += recheck(path)
        }
        return messages
    }

    /// Re-validates the tenant of `path` and the tenants extending it; returns the publishDiagnostics notifications.
    func recheck(_ path: String) -> [[UInt8]] {
        guard let folder = TenantChecker.tenantFolder(containing: path) else { return [] }
        let workspace = folder.deletingLastPathComponent()
        var known = dependents[workspace.path]
        let outcome = TenantChecker.check(tenant: folder.lastPathComponent, workspace: workspace, overlay: overlay, media: media, dependents: &known)
        dependents[workspace.path] = known
        for tenant in outcome.tenants { resolved[tenant.source.root.standardizedFileURL.path] = tenant }
        checkFinished?()
        // A change to a document of these tenants arrived while they were checked: the findings are of a text the
        // editor no longer has. Dropped, not published, and checked again after that change (which may be in a tenant
        // extending this one, whose own check would not cover this tenant).
        if inbox?.hasChange(inFolders: outcome.checkedFolders) == true {
            log("dropped the findings of \(folder.lastPathComponent): a newer change is waiting")
            _ = pending(path)
            return []
        }
        var byFile = Dictionary(grouping: outcome.diagnostics, by: \.location.file)
        let prefixes = outcome.checkedFolders.map { $0 + "/" }
        // Files that had findings and now have none are published empty, which clears them in the editor.
        for file in published.keys where byFile[file] == nil && prefixes.contains(where: { file.hasPrefix($0) }) {
            byFile[file] = []
        }
        // An open document with no findings is published too, so the client knows it was checked.
        for document in documents.values where byFile[document.path] == nil && prefixes.contains(where: { document.path.hasPrefix($0) }) {
            byFile[document.path] = []
        }
        var messages: [[UInt8]] = []
        for (file, diagnostics) in byFile.sorted(by: { $0.key < $1.key }) {
            if diagnostics.isEmpty { published[file] = nil } else { published[file] = diagnostics }
            messages.append(publish(file, diagnostics))
        }
        return messages
    }

    private func publish(_ file: String, _ diagnostics: [Diagnostic]) -> [UInt8] {
        let source = self.source(of: file) ?? SourceDocument("")
        let converted = diagnostics.map { lspDiagnostic($0, in: source) }
        let version = documents.values.first { $0.path == file }?.version
        return OutgoingMessage.notification(method: "textDocument/publishDiagnostics",
                                            params: PublishDiagnosticsParams(uri: uri(for: file), version: version, diagnostics: converted))
    }

    func lspDiagnostic(_ diagnostic: Diagnostic, in source: SourceDocument) -> LSPDiagnostic {
        var message = diagnostic.message
        if let hint = diagnostic.hint { message += "\n" + hint }
        let severity: DiagnosticSeverity
        switch diagnostic.severity {
        case .error: severity = .error
        case .warning: severity = .warning
        case .note: severity = .information
        }
        // Where a broken construct began, or the base's error a creator's finding follows from.
        let related = diagnostic.related.map { related in
            DiagnosticRelatedInformation(location: Location(uri: uri(for: related.location.file),
                                                            range: (self.source(of: related.location.file) ?? SourceDocument("")).range(at: related.location)),
                                         message: related.message)
        }
        return LSPDiagnostic(range: source.range(at: diagnostic.location), severity: severity,
                             code: diagnostic.ruleID.rawValue, codeDescription: CodeDescription(href: documentation.href(for: diagnostic.ruleID.rawValue)),
                             message: message, relatedInformation: related.isEmpty ? nil : related)
    }

    /// The findings published for an open document, with their ranges.
    func findings(in document: OpenDocument) -> [(diagnostic: Diagnostic, range: Range)] {
        (published[document.path] ?? []).map { ($0, document.source.range(at: $0.location)) }
    }

    /// The tenant a document belongs to, as the last check resolved it.
    func tenant(of document: OpenDocument) -> ResolvedTenant? {
        guard let folder = TenantChecker.tenantFolder(containing: document.path) else { return nil }
        if resolved[folder.standardizedFileURL.path] == nil { _ = recheck(document.path) }
        return resolved[folder.standardizedFileURL.path]
    }

    // MARK: Edits

    /// `document`'s text with `edit` applied.
    static func apply(_ edit: TextEdit, to document: SourceDocument) -> String {
        let scalars = Array(document.text.unicodeScalars)
        func offset(_ position: Position) -> Int {
            // Scalar offset of the line's start: every line before it, plus its line end.
            var offset = 0, line = 0
            while line < position.line && offset < scalars.count {
                if scalars[offset] == "\n" { line += 1 }
                offset += 1
            }
            return min(scalars.count, offset + document.scalarIndex(position))
        }
        let from = offset(edit.range.start), to = max(offset(edit.range.start), offset(edit.range.end))
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[..<from])
        text += edit.newText
        text.unicodeScalars.append(contentsOf: scalars[to...])
        return text
    }
}
