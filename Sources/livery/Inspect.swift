import ArgumentParser
import Foundation
import LiveryPack
import LiveryPublish

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "x")
    func run() throws {}
}
