// livery-cldr: regenerates LiveryL10n's plural rule table (and the test fixture of CLDR's own
// samples) from CLDR's plurals.xml and ordinals.xml. `make cldr` runs it from the package root.
//
//     livery-cldr [--cldr <supplemental folder>] [--package <package root>] [--cldr-version <v>]
import CXML2
import Foundation
import LiveryL10n
import LiveryStorage

struct Options {
    var supplemental = "/usr/share/unicode/cldr/common/supplemental"
    var packageRoot = FileManager.default.currentDirectoryPath
    var cldrVersion: String?

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw GeneratorError("\(flag) needs a value") }
            switch flag {
            case "--cldr": options.supplemental = value
            case "--package": options.packageRoot = value
            case "--cldr-version": options.cldrVersion = value
            default: throw GeneratorError("unknown option \(flag) (use --cldr, --package, --cldr-version)")
            }
        }
        return options
    }
}

func generate(_ options: Options) throws {
    xmlInitParser()
    let folder = URL(fileURLWithPath: options.supplemental, isDirectory: true)
    var cardinal = try CLDRPluralReader.read(folder.appendingPathComponent("plurals.xml"), expectedType: "cardinal")
    var ordinal = try CLDRPluralReader.read(folder.appendingPathComponent("ordinals.xml"), expectedType: "ordinal")
    if let version = options.cldrVersion {
        cardinal.cldrVersion = version
        ordinal.cldrVersion = version
    }
    guard cardinal.cldrVersion == ordinal.cldrVersion else {
        throw GeneratorError("plurals.xml is CLDR \(cardinal.cldrVersion) but ordinals.xml is CLDR \(ordinal.cldrVersion)")
    }
    // Refuse data our parser cannot read rather than commit a table that fails at run time.
    for file in [cardinal, ordinal] {
        for group in file.groups {
            var rules: [(PluralCategory, String)] = []
            for rule in group.rules {
                guard let category = PluralCategory(rawValue: rule.category) else {
                    throw GeneratorError("\(file.kind) \(group.locales[0]): unknown category '\(rule.category)'")
                }
                rules.append((category, rule.condition))
            }
            do {
                _ = try PluralRules(rules)
            } catch {
                throw GeneratorError("\(file.kind) \(group.locales.joined(separator: " ")): \(error)")
            }
        }
    }
    let root = URL(fileURLWithPath: options.packageRoot, isDirectory: true)
    let tableURL = root.appendingPathComponent("Sources/LiveryL10n/PluralRulesTable.swift")
    let samplesURL = root.appendingPathComponent("Tests/LiveryL10nTests/Fixtures/plural-samples.txt")
    guard FileManager.default.fileExists(atPath: tableURL.deletingLastPathComponent().path) else {
        throw GeneratorError("\(root.path) is not the Livery package root (no Sources/LiveryL10n); pass --package")
    }
    let table = TableWriter.swiftTable(cardinal: cardinal, ordinal: ordinal)
    try AtomicFile.write(Data(table.source.utf8), to: tableURL, mode: 0o666, durable: false)
    try FileManager.default.createDirectory(at: samplesURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    try AtomicFile.write(Data(TableWriter.samples(cardinal: cardinal, ordinal: ordinal).utf8), to: samplesURL, mode: 0o666, durable: false)
    let cardinalCount = cardinal.groups.reduce(0) { $0 + $1.locales.count }
    let ordinalCount = ordinal.groups.reduce(0) { $0 + $1.locales.count }
    print("CLDR \(cardinal.cldrVersion): \(cardinalCount) cardinal and \(ordinalCount) ordinal locales, \(table.ruleSetCount) distinct rule sets")
    print("wrote \(tableURL.path)")
    print("wrote \(samplesURL.path)")
}

do {
    try generate(try Options.parse(Array(CommandLine.arguments.dropFirst())))
} catch {
    FileHandle.standardError.write(Data("livery-cldr: \(error)\n".utf8))
    exit(1)
}
