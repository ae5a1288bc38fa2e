import ArgumentParser
struct Init: ParsableCommand { static let configuration = CommandConfiguration(abstract: "x") }
