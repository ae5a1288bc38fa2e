import ArgumentParser
import Foundation
import LiveryCheck
import LiveryWorkflow

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List every validation rule with its id, severity and rationale.",
        discussion: "Tenants can change a rule's severity under `rules:` in tenant.yaml, except for security rules."
    )

    @Flag(help: "Also print each rule's triggering and non-triggering examples.")
    var examples = false

    @Flag(help: "Print the Markdown rule reference (docs/rules.md).")
    var markdown = false

    @Option(help: "Only the rules of one family (structure, references, branding, localization, voice, content, assets).")
    var family: String?

    func run() throws {
        if markdown {
            FileHandle.standardOutput.write(Data(RuleReference.markdown(.all).utf8))
            return
        }
        var out = ""
        for rule in RuleSet.all.descriptions where family == nil || rule.family.rawValue == family {
            let security = rule.isSecurity ? " security" : ""
            out += "\(rule.id)  [\(rule.severity.rawValue)\(security)]  \(rule.name)\n    \(rule.rationale)\n"
            if examples {
                for example in rule.triggering { out += "    triggers: \(example.note)\n" + Self.show(example) }
                for example in rule.nonTriggering { out += "    passes:   \(example.note)\n" + Self.show(example) }
            }
        }
        for finding in RuleSet.all.toolFindings where family == nil || finding.family == family {
            out += "\(finding.id)  [\(finding.severity.rawValue), outside validation]\n    \(finding.rationale)\n"
        }
        FileHandle.standardOutput.write(Data(out.utf8))
    }

    static func show(_ example: RuleExample) -> String {
        example.files.sorted { $0.key < $1.key }.filter { $0.value.utf8.count < 2000 }.map { path, text in
            "        \(path):\n" + text.split(separator: "\n", omittingEmptySubsequences: false).map { "          \($0)" }.joined(separator: "\n") + "\n"
        }.joined()
    }
}
