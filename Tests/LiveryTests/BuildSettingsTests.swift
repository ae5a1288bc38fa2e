import Foundation
import LiveryCheck
import LiveryRender
import LiveryResolve
import LiveryWorkflow
import XCTest

/// A brand's build settings (`BuildSettings`): `ios/Tenant.xcconfig`, `InfoPlist.strings` per locale,
/// `android/tenant.gradle.properties` and `app_name.xml` per locale, read back by readers written
/// here in Python from each format's rules (xcconfig, the old-style strings format, Java properties)
/// and by xmllint, never by Livery's own code.
final class BuildSettingsTests: XCTestCase {
    /// A brand whose display name is a message key, in three locales, with a version and build number.
    static let cafe: [String: String] = [
        "cafe/tenant.yaml": """
            id: cafe
            kind: brand
            name: Cafe
            app:
              displayName: app.name
              bundleIds: {ios: com.example.cafe-app, android: com.example.cafe_app}
              version: 2.4.0
              build: 240
            locales:
              default: en
              supported: [en, ru, pt-BR]

            """,
        "cafe/locales/en.yaml": "app:\n  name: \"Tom's Café // 24/7 $5\"\n",
        "cafe/locales/ru.yaml": "app:\n  name: \"Кафе «Том» \\\\ 100%\"\n",
        "cafe/locales/pt-BR.yaml": "app:\n  name: 'Café do \"Tom\"'\n",
    ]

    static func resolve(_ files: [String: String]) throws -> (ResolvedTenant, URL) {
        let root = try PlatformFixtures.temporaryFolder()
        for (path, text) in files {
            let url = root.appendingPathComponent("Tenants/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let result = Validator.validate(workspace: root.appendingPathComponent("Tenants"), displayRoot: "Tenants", rules: .all)
        XCTAssertEqual(result.diagnostics.filter { $0.severity == .error }.map(\.line), [])
        return (try XCTUnwrap(result.tenants.first), root)
    }

    static func write(_ files: [GeneratedFile], to folder: URL) throws {
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.contents.write(to: url)
        }
    }

    /// Reads every build-settings file of a folder as Xcode, Foundation, Gradle and aapt2 would, and prints JSON.
    static let readers = #"""
import json, os, re, sys
root = sys.argv[1]

def xcconfig(path):
    # Xcode: '//' starts a comment anywhere; NAME = VALUE, blanks around the value trimmed; $(NAME) expands
    # (DOLLAR is '$', an empty $() is nothing).
    out = {}
    for line in open(path, encoding='utf-8').read().split('\n'):
        line = line.split('//', 1)[0]
        if not line.strip() or line.lstrip().startswith('#include'):
            continue
        name, value = line.split('=', 1)
        value = value.strip(' \t')
        value = re.sub(r'\$\(([A-Za-z_]*)\)', lambda m: {'': '', 'DOLLAR': '$'}[m.group(1)], value)
        out[name.strip()] = value
    return out

def strings(path):
    # The old-style (OpenStep) strings format: /* */ and // comments, "key" = "value"; with \\ \" \n \t \r \Uxxxx.
    text, i, out = open(path, encoding='utf-8').read(), 0, {}
    def skip():
        nonlocal i
        while i < len(text):
            if text[i].isspace(): i += 1
            elif text.startswith('/*', i): i = text.index('*/', i) + 2
            elif text.startswith('//', i): i = text.find('\n', i) + 1 or len(text)
            else: break
    def quoted():
        nonlocal i
        assert text[i] == '"', (path, i, text[i:i+10])
        i += 1; s = ''
        while text[i] != '"':
            if text[i] == '\\':
                c = text[i + 1]
                if c == 'U': s += chr(int(text[i+2:i+6], 16)); i += 6; continue
                s += {'n': '\n', 't': '\t', 'r': '\r', '"': '"', '\\': '\\'}[c]; i += 2
            else:
                s += text[i]; i += 1
        i += 1
        return s
    while True:
        skip()
        if i >= len(text): return out
        key = quoted(); skip(); assert text[i] == '='; i += 1; skip()
        value = quoted(); skip(); assert text[i] == ';', (path, text[i:]); i += 1
        assert key not in out
        out[key] = value

def properties(path):
    # java.util.Properties.load: ISO 8859-1, '#'/'!' comments, key then '=' ':' or blanks, backslash escapes.
    out = {}
    for line in open(path, encoding='latin-1').read().split('\n'):
        line = line.lstrip(' \t\f')
        if not line or line[0] in '#!':
            continue
        assert not line.endswith('\\'), 'no continuation lines expected'
        def unescape(s):
            r, i = '', 0
            while i < len(s):
                if s[i] == '\\':
                    c = s[i + 1]
                    if c == 'u': r += chr(int(s[i+2:i+6], 16)); i += 6; continue
                    r += {'n': '\n', 't': '\t', 'r': '\r', 'f': '\f'}.get(c, c); i += 2
                else:
                    r += s[i]; i += 1
            return r
        m = re.match(r'((?:[^\\=: \t\f]|\\.)*)[ \t\f]*[=:]?[ \t\f]*(.*)$', line)
        # Java strings are UTF-16: a \\u-escaped pair of surrogates is one character.
        whole = lambda s: unescape(s).encode('utf-16', 'surrogatepass').decode('utf-16')
        out[whole(m.group(1))] = whole(m.group(2))
    return out

def android(text):
    # aapt2's string escapes; the XML itself was parsed by xmllint.
    r, i = '', 0
    while i < len(text):
        if text[i] == '\\':
            c = text[i + 1]
            if c == 'u': r += chr(int(text[i+2:i+6], 16)); i += 6; continue
            r += {'n': '\n', 't': '\t'}.get(c, c); i += 2
        else:
            r += text[i]; i += 1
    return r

import subprocess
result = {}
for folder, _, names in sorted(os.walk(root)):
    for name in sorted(names):
        path = os.path.join(folder, name); rel = os.path.relpath(path, root)
        if name.endswith('.xcconfig'): result[rel] = xcconfig(path)
        elif name == 'InfoPlist.strings': result[rel] = strings(path)
        elif name.endswith('.properties'): result[rel] = properties(path)
        elif name == 'app_name.xml':
            subprocess.run(['xmllint', '--noout', path], check=True)
            raw = subprocess.run(['xmllint', '--xpath', 'string(/resources/string[@name="app_name"])', path], check=True, capture_output=True, text=True).stdout
            count = subprocess.run(['xmllint', '--xpath', 'count(/resources/*)', path], check=True, capture_output=True, text=True).stdout
            # xmllint ends --xpath output with a newline of its own.
            result[rel] = {'app_name': android(raw[:-1] if raw.endswith('\n') else raw), 'elements': count.strip()}
print(json.dumps(result, ensure_ascii=False, sort_keys=True))
"""#

    static func read(_ folder: URL) throws -> [String: [String: String]] {
        let output = try PlatformFixtures.tool(["python3", "-c", readers, folder.path])
        XCTAssertEqual(output.status, 0, output.stderr)
        return try JSONDecoder().decode([String: [String: String]].self, from: Data(output.stdout.utf8))
    }

    func testDisplayNameKeyGivesEveryLocaleItsNameInEveryFormatReadBackByIndependentReaders() throws {
        let (tenant, root) = try Self.resolve(Self.cafe)
        defer { try? FileManager.default.removeItem(at: root) }
        let files = BuildSettings.files(tenant)
        let out = root.appendingPathComponent("out")
        try Self.write(files, to: out)
        let read = try Self.read(out)
        let en = "Tom's Café // 24/7 $5", ru = "Кафе «Том» \\ 100%", pt = "Café do \"Tom\""
        XCTAssertEqual(read["ios/Tenant.xcconfig"], [
            "PRODUCT_BUNDLE_IDENTIFIER": "com.example.cafe-app", "INFOPLIST_KEY_CFBundleDisplayName": en,
            "MARKETING_VERSION": "2.4.0", "CURRENT_PROJECT_VERSION": "240", "ASSETCATALOG_COMPILER_APPICON_NAME": "AppIcon",
        ])
        XCTAssertEqual(read["ios/en.lproj/InfoPlist.strings"], ["CFBundleDisplayName": en, "CFBundleName": en])
        XCTAssertEqual(read["ios/ru.lproj/InfoPlist.strings"], ["CFBundleDisplayName": ru, "CFBundleName": ru])
        XCTAssertEqual(read["ios/pt-BR.lproj/InfoPlist.strings"], ["CFBundleDisplayName": pt, "CFBundleName": pt])
        XCTAssertEqual(read["android/tenant.gradle.properties"], ["applicationId": "com.example.cafe_app", "versionName": "2.4.0", "versionCode": "240"])
        // Android's resource folders: the default locale in values/, a region as -rBR.
        XCTAssertEqual(read["android/values/app_name.xml"], ["app_name": en, "elements": "1"])
        XCTAssertEqual(read["android/values-ru/app_name.xml"], ["app_name": ru, "elements": "1"])
        XCTAssertEqual(read["android/values-pt-rBR/app_name.xml"], ["app_name": pt, "elements": "1"])
        XCTAssertEqual(read.count, 8, "\(read.keys.sorted())")
        // A '%' in a name is not a format specifier.
        let russian = String(decoding: try XCTUnwrap(files.first { $0.path == "android/values-ru/app_name.xml" }).contents, as: UTF8.self)
        XCTAssertTrue(russian.contains("formatted=\"false\""), russian)
        // The same inputs give the same bytes.
        XCTAssertEqual(BuildSettings.files(tenant), files)
    }

    func testXcconfigValuesWithCommentsReferencesAndBlanksReadBackAsWritten() throws {
        let folder = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let values = ["https://example.com", "a///b", "$(HOME)", "cost $5 // or less", " padded ", "plain", "a/b/c", "/", "//"]
        let text = values.enumerated().map { "VALUE_\($0.offset) = \(BuildSettings.xcconfigValue($0.element)) // a comment" }.joined(separator: "\n") + "\n"
        try Data(text.utf8).write(to: folder.appendingPathComponent("Values.xcconfig"))
        let read = try Self.read(folder)["Values.xcconfig"]
        XCTAssertEqual(read, Dictionary(uniqueKeysWithValues: values.enumerated().map { ("VALUE_\($0.offset)", $0.element) }), text)
        XCTAssertFalse(BuildSettings.xcconfigValue("https://example.com").contains("//"))
    }

    func testPropertiesAndStringsEscapesReadBackAsWritten() throws {
        let folder = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let values = [" lead", "a=b:c#d!e", "back\\slash", "line\nbreak", "Café ☕ 𝄞", "tab\there"]
        let properties = values.enumerated().map { "key\($0.offset)=\(BuildSettings.propertiesValue($0.element))" }.joined(separator: "\n") + "\n"
        XCTAssertTrue(properties.unicodeScalars.allSatisfy(\.isASCII), "Properties.load reads ISO 8859-1: everything else is \\u-escaped")
        try Data(properties.utf8).write(to: folder.appendingPathComponent("v.properties"))
        let strings = values.enumerated().map { "\"key\($0.offset)\" = \"\(BuildSettings.stringsLiteral($0.element))\";" }.joined(separator: "\n") + "\n"
        let lproj = folder.appendingPathComponent("x.lproj")
        try FileManager.default.createDirectory(at: lproj, withIntermediateDirectories: true)
        try Data(strings.utf8).write(to: lproj.appendingPathComponent("InfoPlist.strings"))
        let read = try Self.read(folder)
        let expected = Dictionary(uniqueKeysWithValues: values.enumerated().map { ("key\($0.offset)", $0.element) })
        XCTAssertEqual(read["v.properties"], expected)
        XCTAssertEqual(read["x.lproj/InfoPlist.strings"], expected)
    }

    func testSamplesGetBuildSettingsForBrandsOnlyWithTheirStoreIdentifiers() throws {
        for tenant in PlatformFixtures.samples {
            let files = BuildSettings.files(tenant)
            if tenant.tenant?["kind"]?.string == "creator" {
                XCTAssertEqual(files, [], "\(tenant.id) ships inside its platform's app")
                continue
            }
            let identity = try XCTUnwrap(AppIdentity.of(tenant), tenant.id)
            let xcconfig = String(decoding: try XCTUnwrap(files.first { $0.path == BuildSettings.xcconfig }).contents, as: UTF8.self)
            XCTAssertTrue(xcconfig.contains("PRODUCT_BUNDLE_IDENTIFIER = \(try XCTUnwrap(identity.iosBundleID))\n"), xcconfig)
            XCTAssertFalse(xcconfig.contains("MARKETING_VERSION"), "no app.version: the app project's own version stays")
            XCTAssertEqual(files.filter { $0.path.hasSuffix("InfoPlist.strings") }.count, tenant.supportedLocales.count, tenant.id)
            XCTAssertEqual(files.filter { $0.path.hasSuffix("app_name.xml") }.count, tenant.supportedLocales.count, tenant.id)
        }
    }

    func testALiteralDisplayNameIsTheSameInEveryLocale() throws {
        var files = Self.cafe
        files["cafe/tenant.yaml"] = files["cafe/tenant.yaml"]!.replacingOccurrences(of: "displayName: app.name", with: "displayName: app.nam")
        let (tenant, root) = try Self.resolve(files)
        defer { try? FileManager.default.removeItem(at: root) }
        let identity = try XCTUnwrap(AppIdentity.of(tenant))
        XCTAssertNil(identity.displayNameKey, "no bundle has app.nam: a literal")
        XCTAssertEqual(identity.localizedNames.map(\.locale), ["en", "ru", "pt-BR"])
        XCTAssertEqual(Set(identity.localizedNames.map(\.name)), ["app.nam"])
    }
}
