import ArgumentParser
import Foundation
import LiveryVectors

struct Vectors: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vectors",
        abstract: "Write test vectors for TUF clients of Livery releases: static repositories and the outcome each must have.",
        discussion: """
            Writes one folder per case into OUT: case.json (what a conforming client must do at each step: accept, \
            or refuse with an error class, and which targets it then holds), trusted-root.json (the root to start \
            from) and steps/<n>/ (the static repository the server offers at step n: metadata/ and targets/, as \
            livery build lays out a release). index.json lists the cases and the error vocabulary. The cases cover \
            a clean release, a key rotation chain, a delegated creator role, and attacks: freeze, rollback, \
            mix-and-match, endless data, forged and duplicated signatures, delegation search, tampered, oversized and \
            zip-slip bundles. The output is the same bytes on every run. See docs/client-vectors.md.
            """
    )

    @Argument(help: "The folder to write the vectors into; it must not exist or be empty.")
    var out: String

    func run() throws {
        let folder = URL(fileURLWithPath: out)
        let cases: [VectorCase]
        do {
            cases = try ClientVectors.write(to: folder)
        } catch {
            throw Livery.Failure("\(error)")
        }
        for vector in cases {
            print("\(vector.id): \(vector.steps.count) step\(vector.steps.count == 1 ? "" : "s"), \(vector.summary)")
        }
        print("wrote \(cases.count) cases to \(folder.path)")
    }
}
