import ArgumentParser
import LiveryCommands

// livery: every command but those that open connections or run a server, which livery-network runs in this
// process's place (NetworkCommand). Those are listed here under their names, so `livery --help` shows one tool.
let arguments = Array(CommandLine.arguments.dropFirst())
if let command = NetworkCommand.asked(in: arguments) { NetworkCommand.run(arguments, for: command) }

struct PublishEntry: NetworkCommandEntry {
    static let command = NetworkCommand.publish
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
}
struct GarbageCollectEntry: NetworkCommandEntry {
    static let command = NetworkCommand.gc
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
}
struct ServeEntry: NetworkCommandEntry {
    static let command = NetworkCommand.serve
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
}
struct VouchersEntry: NetworkCommandEntry {
    static let command = NetworkCommand.vouchers
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
}
struct FetchEntry: NetworkCommandEntry {
    static let command = NetworkCommand.fetch
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
}
struct TUFClientEntry: NetworkCommandEntry {
    static let command = NetworkCommand.tufClient
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
}

Livery.commands = Livery.commands(network: [.publish: PublishEntry.self, .gc: GarbageCollectEntry.self, .serve: ServeEntry.self,
                                            .vouchers: VouchersEntry.self, .fetch: FetchEntry.self, .tufClient: TUFClientEntry.self])
await Livery.runCommandLine()
