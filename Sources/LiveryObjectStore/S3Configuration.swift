import Foundation

/// `s3://bucket/prefix`: where releases go. The prefix may be empty; it never starts or ends with `/`.
public struct S3Location: Sendable, Equatable, CustomStringConvertible {
    public var bucket: String
    public var prefix: String

    public init(bucket: String, prefix: String) {
        self.bucket = bucket
        self.prefix = prefix
    }

    /// Parses `s3://bucket[/prefix]`; nil for anything else, with the reason in `error`.
    public init(parsing text: String) throws {
        guard text.hasPrefix("s3://") else { throw S3Error.configuration("'\(text)' is not an s3:// address (write s3://bucket/prefix)") }
        let rest = text.dropFirst(5)
        let bucket = String(rest.prefix { $0 != "/" })
        // S3's bucket naming rules (3–63 characters, lower-case letters, digits, dots and hyphens).
        guard (3...63).contains(bucket.count),
              bucket.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-" }),
              bucket.first != "-", bucket.first != ".", bucket.last != "-", bucket.last != "." else {
            throw S3Error.configuration("'\(bucket)' is not a bucket name (3 to 63 lower-case letters, digits, dots and hyphens)")
        }
        let prefix = rest.dropFirst(bucket.count).split(separator: "/").joined(separator: "/")
        guard !prefix.split(separator: "/").contains(where: { $0 == "." || $0 == ".." }) else {
            throw S3Error.configuration("the prefix of '\(text)' has a '.' or '..' component")
        }
        self.init(bucket: bucket, prefix: prefix)
    }

    /// The key of `relative` under the prefix.
    public func key(_ relative: String) -> String { prefix.isEmpty ? relative : prefix + "/" + relative }

    public var description: String { "s3://\(bucket)" + (prefix.isEmpty ? "" : "/\(prefix)") }
}

/// How the bucket appears in URLs.
public enum S3Addressing: String, Sendable {
    /// `https://endpoint/bucket/key`: what MinIO, Ceph and most self-hosted stores expect.
    case path
    /// `https://bucket.endpoint/key`: AWS's default.
    case virtualHost = "virtual"
}

/// The store and the credentials a command talks to it with, resolved as the AWS tools resolve
/// them: command-line options first, then environment variables, then the shared config and
/// credentials files of the chosen profile.
public struct S3Configuration: Sendable {
    public var endpoint: URL
    public var region: String
    public var credentials: AWSCredentials
    public var addressing: S3Addressing

    public init(endpoint: URL, region: String, credentials: AWSCredentials, addressing: S3Addressing) {
        self.endpoint = endpoint
        self.region = region
        self.credentials = credentials
        self.addressing = addressing
    }

    /// Resolution order (each the first that is set):
    /// - endpoint: `endpoint`, `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`, the profile's `endpoint_url`,
    ///   else AWS's `https://s3.<region>.amazonaws.com`;
    /// - region: `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's `region`, else `us-east-1`;
    /// - credentials: `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY` (+ `AWS_SESSION_TOKEN`), else the
    ///   profile's keys in the credentials file, then in the config file;
    /// - profile: `AWS_PROFILE`, else `default`; files: `AWS_SHARED_CREDENTIALS_FILE` (default
    ///   `~/.aws/credentials`) and `AWS_CONFIG_FILE` (default `~/.aws/config`);
    /// - addressing: `addressing`, the profile's `s3 = addressing_style = path|virtual`, else
    ///   virtual-host for AWS and path-style for any other endpoint.
    public static func resolve(endpoint: String?, addressing: S3Addressing?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> S3Configuration {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let profile = environment["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        let configPath = environment["AWS_CONFIG_FILE"] ?? home + "/.aws/config"
        let credentialsPath = environment["AWS_SHARED_CREDENTIALS_FILE"] ?? home + "/.aws/credentials"
        let config = try AWSIniFile(path: configPath)
        let credentialsFile = try AWSIniFile(path: credentialsPath)
        // The config file names profiles `[profile NAME]`, except `[default]`; the credentials file `[NAME]`.
        let configSection = profile == "default" ? "default" : "profile \(profile)"
        func env(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }

        let region = env("AWS_REGION") ?? env("AWS_DEFAULT_REGION") ?? config.value(configSection, "region") ?? "us-east-1"
        let credentials: AWSCredentials
        if let id = env("AWS_ACCESS_KEY_ID"), let secret = env("AWS_SECRET_ACCESS_KEY") {
            credentials = AWSCredentials(accessKeyID: id, secretAccessKey: secret, sessionToken: env("AWS_SESSION_TOKEN"))
        } else if let id = credentialsFile.value(profile, "aws_access_key_id"), let secret = credentialsFile.value(profile, "aws_secret_access_key") {
            credentials = AWSCredentials(accessKeyID: id, secretAccessKey: secret, sessionToken: credentialsFile.value(profile, "aws_session_token"))
        } else if let id = config.value(configSection, "aws_access_key_id"), let secret = config.value(configSection, "aws_secret_access_key") {
            credentials = AWSCredentials(accessKeyID: id, secretAccessKey: secret, sessionToken: config.value(configSection, "aws_session_token"))
        } else {
            throw S3Error.configuration("no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or add profile '\(profile)' to \(credentialsPath)")
        }
        let endpointText = endpoint ?? env("AWS_ENDPOINT_URL_S3") ?? env("AWS_ENDPOINT_URL") ?? config.value(configSection, "endpoint_url")
        let resolvedEndpoint: URL
        if let endpointText {
            guard let url = URL(string: endpointText), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil,
                  url.query == nil, url.path.isEmpty || url.path == "/" else {
                throw S3Error.configuration("'\(endpointText)' is not an endpoint URL (write http(s)://host[:port], without a path)")
            }
            resolvedEndpoint = url
        } else {
            resolvedEndpoint = URL(string: "https://s3.\(region).amazonaws.com")!
        }
        let style: S3Addressing
        if let addressing {
            style = addressing
        } else if let named = config.value(configSection, "s3.addressing_style"), let parsed = S3Addressing(rawValue: named) {
            style = parsed
        } else {
            style = endpointText == nil ? .virtualHost : .path
        }
        return S3Configuration(endpoint: resolvedEndpoint, region: region, credentials: credentials, addressing: style)
    }
}

/// The AWS shared config and credentials files: INI sections of `key = value`, with one level of
/// nested keys (`s3 =` followed by indented `addressing_style = path`, read as `s3.addressing_style`).
/// A missing file is an empty one. Public for the fuzz harness (`livery-json-fuzz`, target `aws-ini`).
public struct AWSIniFile {
    private var sections: [String: [String: String]] = [:]

    init(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            self.init(text: "")
            return
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw S3Error.configuration("\(path) cannot be read as UTF-8 text")
        }
        self.init(text: text)
    }

    public init(text: String) {
        var section: String?
        var parent: String?
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                let name = line.dropFirst().dropLast().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
                // `[]` names no section (Python's configparser, which the AWS CLI uses, refuses it): its keys are nobody's.
                section = name.isEmpty ? nil : name
                parent = nil
                continue
            }
            guard let section, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            let indented = raw.first == " " || raw.first == "\t"
            if indented, let parent {
                sections[section, default: [:]]["\(parent).\(key)"] = value
            } else if value.isEmpty {
                parent = key
            } else {
                parent = nil
                sections[section, default: [:]][key] = value
            }
        }
    }

    public func value(_ section: String, _ key: String) -> String? { sections[section]?[key] }

    /// Every section's keys and values (for checks of the reader itself).
    public var all: [String: [String: String]] { sections }
}

/// Where a tenant's files go in a bucket, relative to the prefix: as in `Output/<tenant>/`, except
/// voucher-protected targets, which go to `<tenant>/protected/<sha256>.<name>` instead of
/// `<tenant>/targets/…`, so that a bucket policy can let anyone read `*/targets/*` and `*/metadata/*`
/// while protected bytes need a presigned URL (docs/operations.md).
public enum RemoteLayout {
    public static let protectedFolder = "protected"
    public static func protectedKey(tenant: String, file: String) -> String { "\(tenant)/\(protectedFolder)/\(file)" }
}
