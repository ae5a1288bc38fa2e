import ArgumentParser
import Foundation
import LiveryStorage

/// The per-command reference of docs/cli.md, made from the commands' own `--help` (ArgumentParser's help screens),
/// so the page cannot disagree with the command line. It sits between two markers; the prose around them is
/// written by hand. `livery cli-reference` prints it, `make docs` writes it, and CommandReferenceTests fails when
/// the page holds another one.
package enum CommandReference {
    package static let begin = "<!-- BEGIN command reference: generated from each command's --help by `make docs`; do not edit -->"
    package static let end = "<!-- END command reference -->"
    /// Fixed, so that the text does not follow the width of the terminal it was made on.
    package static let columns = 100

    /// Every visible command under `root`, depth first in the order `--help` lists them, each with its help screen;
    /// from `begin` to `end`, with a final newline.
    package static func markdown(root: any ParsableCommand.Type) -> String {
        var sections: [String] = []
        func visit(_ command: any ParsableCommand.Type, path: [String]) {
            for child in command.configuration.subcommands where child.configuration.shouldDisplay {
                let name = path + [child.configuration.commandName ?? ""]
                sections.append("### `\(name.joined(separator: " "))`\n\n```text\n\(help(root, for: child))\n```\n")
                visit(child, path: name)
            }
        }
        visit(root, path: [root.configuration.commandName ?? ""])
        return ([begin, "", "### `\(root.configuration.commandName ?? "")`\n\n```text\n\(help(root, for: root))\n```\n"] + sections + [end])
            .joined(separator: "\n") + "\n"
    }

    /// `command`'s help screen, without trailing blanks (ArgumentParser pads some lines).
    static func help(_ root: any ParsableCommand.Type, for command: any ParsableCommand.Type) -> String {
        root.helpMessage(for: command, includeHidden: false, columns: columns)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                var line = line
                while line.last == " " { line.removeLast() }
                return String(line)
            }
            .joined(separator: "\n")
            .trimmingCharacters(in: .newlines)
    }

    /// The reference `document` holds, from `begin` to `end` (with the newline after it); nil when it has none.
    package static func reference(in document: String) -> String? {
        guard let start = document.range(of: begin), let stop = document.range(of: end, range: start.upperBound..<document.endIndex) else { return nil }
        let after = document[stop.upperBound...].hasPrefix("\n") ? document.index(after: stop.upperBound) : stop.upperBound
        return String(document[start.lowerBound..<after])
    }

    /// `document` with its reference replaced by `reference`, or with `reference` added at its end when it has none.
    package static func replacingReference(in document: String, with reference: String) -> String {
        guard let old = Self.reference(in: document), let range = document.range(of: old) else {
            return document + (document.hasSuffix("\n\n") || document.isEmpty ? "" : document.hasSuffix("\n") ? "\n" : "\n\n") + reference
        }
        return document.replacingCharacters(in: range, with: reference)
    }
}

/// `livery cli-reference`: prints docs/cli.md's command reference, or writes it into the page (`make docs`).
/// Hidden: it is for the repository, not for users. livery-network runs it (NetworkCommand.asked), since only it
/// has the network commands' real help.
struct CLIReference: ParsableCommand {
    static let name = "cli-reference"
    static let configuration = CommandConfiguration(
        commandName: name,
        abstract: "Print the command reference of docs/cli.md, made from every command's --help.",
        shouldDisplay: false
    )

    @Option(help: ArgumentHelp("Write it into this Markdown file instead, between its markers (at the end when it has none).", valueName: "FILE"))
    var update: String?

    func run() throws {
        let reference = CommandReference.markdown(root: Livery.self)
        guard let update else {
            FileHandle.standardOutput.write(Data(reference.utf8))
            return
        }
        let file = URL(fileURLWithPath: update)
        let document = try String(contentsOf: file, encoding: .utf8)
        try AtomicFile.write(Data(CommandReference.replacingReference(in: document, with: reference).utf8), to: file, mode: 0o666, durable: false)
    }
}
