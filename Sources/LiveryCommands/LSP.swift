import ArgumentParser
import Foundation
import LiveryDiagnostics
import LiveryLanguageServer

struct LSP: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Run the Livery language server (Language Server Protocol over standard input and output).",
        discussion: """
            An editor starts `livery lsp` and talks to it over stdio. For every manifest an editor opens (YAML or JSON), \
            the server validates the file's tenant and every tenant that extends it on each change, with the editor's \
            unsaved text, and publishes the findings with each rule's id and a link to its documentation. It also \
            answers hovers (rule rationales, token values per mode, message texts per locale), go to definition \
            (token aliases, message keys, library items), completions (token references, message keys, rule ids, \
            library items) and quick fixes ("did you mean", a missing $type, a missing message key). \
            Editor setup: docs/cli.md#livery-lsp.
            """)

    func run() throws {
        // Findings go to the client; anything else the server has to say goes to standard error, which editors log.
        let server = LanguageServer(version: LiveryVersion.current) { FileHandle.standardError.write(Data(("livery lsp: " + $0 + "\n").utf8)) }
        throw ExitCode(StdioTransport.run(server))
    }
}
