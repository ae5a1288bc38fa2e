import LiveryCommands

// livery-network: the whole command line, with the commands that open connections or run a server (NetworkCommand).
// `livery` runs it in its place for those; run directly, it behaves as `livery`.
Livery.commands = Livery.commands(network: [.publish: Publish.self, .gc: GarbageCollect.self, .serve: Serve.self, .vouchers: Vouchers.self,
                                            .fetch: Fetch.self, .tufClient: TUFClient.self])
Livery.publishStep = Publish.afterBuild
await Livery.runCommandLine()
