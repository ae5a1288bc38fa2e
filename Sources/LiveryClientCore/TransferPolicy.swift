import Foundation

/// The bounds of every HTTP read `HTTPRepository` makes, whatever the transport: one byte budget and one
/// deadline policy (docs/client.md#what-a-server-can-cost-a-device). The byte budget of each read is set
/// by what is read (TUF metadata by role, a target by its signed length, a range by its size, an error
/// answer by `errorBodyLimit`) and counted on the body's bytes as they arrive; the client asks for no
/// content coding and refuses one it did not ask for, so those bytes are the file's. The deadlines are
/// the TUF specification's defence against slow retrieval: an answer must start within
/// `responseTimeout`, and then each `progressWindow` must bring `minimumBytesPerWindow` bytes or the
/// rest of the body. An answer of at most `n` bytes therefore ends within `deadline(forLength: n)`.
public struct TransferPolicy: Sendable, Equatable {
    /// Seconds from sending a request to the end of the answer's header fields: connecting, TLS, and a
    /// server that never answers or sends its header a byte at a time.
    public var responseTimeout: TimeInterval
    /// The length of one progress window, in seconds.
    public var progressWindow: TimeInterval
    /// Body bytes each progress window must bring, unless the body ends in it (16 KiB in 10 s: 1.6 KB/s,
    /// far below any network an app downloads media on, far above a trickle meant to hold a device).
    public var minimumBytesPerWindow: Int
    /// An answer that is not the file asked for (an error page, a redirect) is read up to this many bytes.
    public var errorBodyLimit: Int
    /// Redirects followed for one request, at most (python-tuf's requests default is 30, curl's 50; a CDN
    /// needs one or two).
    public var maxRedirects: Int

    public init(responseTimeout: TimeInterval = 20, progressWindow: TimeInterval = 10, minimumBytesPerWindow: Int = 16 << 10,
                errorBodyLimit: Int = 64 << 10, maxRedirects: Int = 10) {
        self.responseTimeout = responseTimeout
        self.progressWindow = progressWindow
        self.minimumBytesPerWindow = max(1, minimumBytesPerWindow)
        self.errorBodyLimit = errorBodyLimit
        self.maxRedirects = maxRedirects
    }

    public static let standard = TransferPolicy()

    /// The longest an answer of at most `length` body bytes can take, from sending its request to its end
    /// (each redirect hop is another answer).
    public func deadline(forLength length: Int) -> TimeInterval {
        responseTimeout + progressWindow * Double(length / minimumBytesPerWindow + 1)
    }
}
