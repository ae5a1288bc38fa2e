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
