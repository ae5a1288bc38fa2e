import ArgumentParser
import CArchive
import CXML2
import LiveryPack

struct Version: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "version", abstract: "Print Livery's version and the versions of the C libraries it uses.")

    func run() {
        print("livery \(Livery.version)")
        print("libarchive \(String(cString: archive_version_details()))")
        // Zip bundles are deflated by libdeflate (zlib for files over 4 MiB): their bytes depend on both versions.
        print("zip: \(ZipContainer.writer)")
        print("libxml2 \(String(cString: livery_xml_version()))")
    }
}
