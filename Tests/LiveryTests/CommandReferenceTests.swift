import ArgumentParser
import Foundation
import LiveryCommands
import XCTest

/// docs/cli.md's command reference is every command's `--help` (CommandReference): generated, and held to the
/// command line by a test, so the page cannot drift from it.
final class CommandReferenceTests: XCTestCase {
    func testTheCommittedCommandReferenceIsWhatTheCommandsSayNow() throws {
        // livery-network's help for its commands (publish, fetch, serve…): `livery` hands cli-reference to it.
        let generated = try LiveryProcess.run(["cli-reference"])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        let page = try String(contentsOf: LiveryProcess.packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let committed = try XCTUnwrap(CommandReference.reference(in: page), "docs/cli.md has no command reference between its markers: run `make docs`")
        XCTAssertEqual(committed, generated.stdout,
                       "docs/cli.md's command reference is not what the commands' --help says now: run `make docs` "
                       + "(or `swift build && .build/debug/livery cli-reference --update docs/cli.md`) and commit docs/cli.md")
        for command in ["promote", "releases", "store verify", "fetch", "publish", "tuf-client"] {
            XCTAssertTrue(committed.contains("### `livery \(command)`"), "the reference has `livery \(command)`")
        }
        XCTAssertTrue(committed.contains("USAGE: livery fetch [<options>] <tenant> --server <server>"), "fetch's real help, not its forwarder's")
        XCTAssertFalse(committed.contains("cli-reference"), "hidden commands are left out")
    }

    /// The hand-written sections before the reference explain and give examples; every option their synopses and
    /// option tables name must be one the command's help has (a renamed or removed option fails here).
    func testTheHandWrittenSectionsNameOnlyOptionsTheCommandsHave() throws {
        let page = try String(contentsOf: LiveryProcess.packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let reference = try XCTUnwrap(CommandReference.reference(in: page))
        let start = try XCTUnwrap(page.range(of: CommandReference.begin))
        let prose = String(page[..<start.lowerBound])
        // Each reference section: its command line (`livery keys rotate`) and the options its help lists.
        var helps: [(command: String, options: Set<Substring>)] = []
        for section in reference.split(separator: "### `").dropFirst() {
            let command = String(section.prefix { $0 != "`" })
            helps.append((command, Set(section.matches(of: Self.option).map { $0.output.1 })))
        }
        var checked = 0
        for section in prose.split(separator: "\n## ").dropFirst() where section.hasPrefix("`livery") {
            let heading = section.prefix { $0 != "\n" }
            let commands = heading.matches(of: /`(livery [^`]+)`/).map { String($0.output.1) }
            // A section covers its commands and their subcommands (`livery keys` the keys subcommands).
            let known = helps.filter { help in commands.contains { help.command == $0 || help.command.hasPrefix($0 + " ") } }
                .reduce(into: Set<Substring>()) { $0.formUnion($1.options) }
            var named: [Substring] = []
            for line in section.split(separator: "\n") where line.hasPrefix("| `-") {
                named += line.split(separator: "|").first.map { $0.matches(of: Self.option).map { $0.output.1 } } ?? []
            }
            for block in section.matches(of: #/```text\n(livery [^`]*?)\n```/#) {
                named += block.output.1.matches(of: Self.option).map { $0.output.1 }
            }
            for option in named {
                checked += 1
                XCTAssertTrue(known.contains(option), "docs/cli.md's section \(heading) names \(option), which \(commands.joined(separator: ", ")) --help does not list")
            }
        }
        XCTAssertGreaterThan(checked, 100, "the synopses and option tables were found")
    }

    /// A long option where it stands alone (not inside a word such as `a--b`).
    nonisolated(unsafe) private static let option = #/(?:^|[^\w-])(--[a-z][a-z0-9-]*)/#

    private struct Tool: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "tool", abstract: "A tool.", subcommands: [Group.self, Hidden.self])
    }
    private struct Group: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "group", abstract: "A group.", subcommands: [Leaf.self])
    }
    private struct Leaf: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "leaf", abstract: "A leaf.")
        @Option(help: "How many.") var count = 1
    }
    private struct Hidden: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "hidden", shouldDisplay: false)
    }

    func testEveryVisibleCommandGetsItsHelpDepthFirstBetweenTheMarkers() {
        let reference = CommandReference.markdown(root: Tool.self)
        XCTAssertTrue(reference.hasPrefix(CommandReference.begin + "\n\n### `tool`\n\n```text\nOVERVIEW: A tool.\n"), reference)
        XCTAssertTrue(reference.hasSuffix("```\n\n" + CommandReference.end + "\n"), reference)
        let headings = reference.split(separator: "\n").filter { $0.hasPrefix("### ") }
        XCTAssertEqual(headings, ["### `tool`", "### `tool group`", "### `tool group leaf`"])
        XCTAssertTrue(reference.contains("--count <count>"), reference)
        XCTAssertFalse(reference.split(separator: "\n").contains { $0.hasSuffix(" ") }, "no trailing blanks")
    }

    func testUpdatingReplacesOnlyWhatIsBetweenTheMarkersAndAppendsWhenThereAreNone() {
        let reference = CommandReference.begin + "\nnew\n" + CommandReference.end + "\n"
        let page = "# Title\n\nprose\n\n" + CommandReference.begin + "\nold\n" + CommandReference.end + "\n\n## After\n"
        XCTAssertEqual(CommandReference.replacingReference(in: page, with: reference), "# Title\n\nprose\n\n" + reference + "\n## After\n")
        XCTAssertEqual(CommandReference.reference(in: page), CommandReference.begin + "\nold\n" + CommandReference.end + "\n")
        XCTAssertEqual(CommandReference.replacingReference(in: "# Title\n", with: reference), "# Title\n\n" + reference)
        XCTAssertNil(CommandReference.reference(in: "# Title\n"))
    }
}
