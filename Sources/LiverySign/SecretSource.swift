import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a secret (a PKCS#11 PIN, a key file's passphrase) comes from. Never a command-line
/// argument: arguments are visible to every user of the machine in `ps` and land in shell history.
///
/// Written as a URI, as RFC 7512's `pin-source` is:
/// - `env:NAME`: an environment variable;
/// - `file:PATH`: the first line of a file (which must not be readable by other users);
/// - `fd:N`: the first line read from an open file descriptor (a pipe from a secret manager);
/// - `prompt`: asked on the terminal (`/dev/tty`) with echo off.
public enum SecretSource: Sendable, Equatable, CustomStringConvertible {
    case environment(String)
    case file(String)
    case descriptor(Int32)
    case prompt

    /// Reads `env:NAME`, `file:PATH` (also `file:///PATH`), `fd:N` or `prompt`.
    public init(parsing text: String) throws {
        if text == "prompt" {
            self = .prompt
        } else if text.hasPrefix("env:"), text.count > 4 {
            self = .environment(String(text.dropFirst(4)))
        } else if text.hasPrefix("fd:"), let fd = Int32(text.dropFirst(3)), fd >= 0 {
            self = .descriptor(fd)
        } else if text.hasPrefix("file://"), text.count > 7 {
            self = .file(String(text.dropFirst(7)).removingPercentEncoding ?? String(text.dropFirst(7)))
        } else if text.hasPrefix("file:"), text.count > 5 {
            self = .file(String(text.dropFirst(5)).removingPercentEncoding ?? String(text.dropFirst(5)))
        } else {
            throw SecretSourceError("'\(text)' is not a secret source: use env:NAME, file:PATH, fd:N or prompt")
        }
    }

    public var description: String {
        switch self {
        case .environment(let name): return "env:\(name)"
        case .file(let path): return "file:\(path)"
        case .descriptor(let fd): return "fd:\(fd)"
        case .prompt: return "prompt"
        }
    }

    /// The secret, without its line end. `what` names it in the prompt and in errors ("the PIN of token 'livery'").
    public func read(what: String) throws -> String {
        switch self {
        case .environment(let name):
            guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else {
                throw SecretSourceError("\(what) should be in the environment variable \(name), which is not set")
            }
            return value
        case .file(let path):
            var info = stat()
            guard stat(path, &info) == 0 else { throw SecretSourceError("\(what) should be in \(path), which cannot be read: \(String(cString: strerror(errno)))") }
            guard info.st_mode & 0o077 == 0 else {
                throw SecretSourceError("\(path) holds \(what) but other users can read it: run `chmod 600 \(path)`")
            }
            guard let data = FileManager.default.contents(atPath: path) else { throw SecretSourceError("\(what) should be in \(path), which cannot be read") }
            return Self.firstLine(data)
        case .descriptor(let fd):
            // Tenants publish in parallel: one reader at a time on a shared descriptor or terminal.
            let data = Self.interaction.withLock { Self.readLine(fd) }
            guard !data.isEmpty else { throw SecretSourceError("\(what) should be readable from file descriptor \(fd), which gave nothing") }
            return Self.firstLine(data)
        case .prompt:
            return try Self.interaction.withLock { try Self.ask("Enter \(what): ") }
        }
    }

    /// Held while a secret is read from a descriptor or the terminal, so that prompts never interleave.
    private static let interaction = NSLock()

    /// The bytes before the first line end, without a CR before it. Bytes, not Characters: Swift
    /// reads "\r\n" as one Character, which a split on "\n" would not find.
    static func firstLine(_ data: Data) -> String {
        var line = data.prefix { $0 != 0x0A }
        if line.last == 0x0D { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
    }

    /// Asks on the controlling terminal with echo off; fails when there is none (CI, a service).
    static func ask(_ prompt: String) throws -> String {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else { throw SecretSourceError("\(prompt.dropLast(2)) is needed and there is no terminal to ask on: give it with env:NAME, file:PATH or fd:N") }
        defer { close(tty) }
        _ = prompt.withCString { write(tty, $0, strlen($0)) }
        var saved = termios()
        let isTerminal = tcgetattr(tty, &saved) == 0
        if isTerminal {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(tty, TCSAFLUSH, &silent)
        }
        defer {
            if isTerminal { _ = tcsetattr(tty, TCSAFLUSH, &saved) }
            _ = "\n".withCString { write(tty, $0, 1) }
        }
        return firstLine(readLine(tty))
    }

    /// One line from `fd`, a byte at a time so nothing after the line end is consumed (a pipe may
    /// carry more), at most 64 KiB.
    static func readLine(_ fd: Int32) -> Data {
        var data = Data()
        var byte: UInt8 = 0
        while data.count < 65_536 {
            let n = Foundation.read(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            guard n > 0, byte != 0x0A else { break }
            data.append(byte)
        }
        return data
    }
}

public struct SecretSourceError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
