package com.livery.client.http;

import java.time.Duration;
import java.util.Objects;

/**
 * The bounds of every HTTP read the client makes, whatever the transport (docs/client.md, "What a server can
 * cost a device"). The byte budget of each read is given by its caller (TUF metadata by role, a target by its
 * signed length, a range by its size) and counted on the body as it arrives; an answer that is not the file asked
 * for (an error page, a redirect) is read up to {@link #errorBodyLimit()}. The deadlines are the TUF
 * specification's defence against slow retrieval: the status line and header fields must arrive within
 * {@link #responseTimeout()}, and then every {@link #progressWindow()} must bring
 * {@link #minimumBytesPerWindow()} bytes or the rest of the body.
 *
 * <p>Immutable; change a copy with the {@code with…} methods.
 */
public final class TransferPolicy {
    /** The defaults of the Swift client: 20 s for the header, 16 KiB per 10 s, 64 KiB error bodies, 10 redirects. */
    public static final TransferPolicy STANDARD = new TransferPolicy(Duration.ofSeconds(20), Duration.ofSeconds(10),
            16 << 10, 64 << 10, 10, Duration.ofSeconds(10));

    private final Duration responseTimeout;
    private final Duration progressWindow;
    private final int minimumBytesPerWindow;
    private final int errorBodyLimit;
    private final int maxRedirects;
    private final Duration connectTimeout;

    private TransferPolicy(Duration responseTimeout, Duration progressWindow, int minimumBytesPerWindow,
                           int errorBodyLimit, int maxRedirects, Duration connectTimeout) {
        this.responseTimeout = positive(responseTimeout, "responseTimeout");
        this.progressWindow = positive(progressWindow, "progressWindow");
        this.minimumBytesPerWindow = Math.max(1, minimumBytesPerWindow);
        if (errorBodyLimit < 0) throw new IllegalArgumentException("errorBodyLimit must not be negative");
        this.errorBodyLimit = errorBodyLimit;
        if (maxRedirects < 0) throw new IllegalArgumentException("maxRedirects must not be negative");
        this.maxRedirects = maxRedirects;
        this.connectTimeout = positive(connectTimeout, "connectTimeout");
    }

    private static Duration positive(Duration value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) throw new IllegalArgumentException(name + " must be positive");
        return value;
    }

    /** From sending a request to the end of the answer's header fields: connecting, TLS, a server that never answers. */
    public Duration responseTimeout() { return responseTimeout; }

    /** The length of one progress window. */
    public Duration progressWindow() { return progressWindow; }

    /** Body bytes each progress window must bring unless the body ends in it (16 KiB in 10 s: 1.6 KB/s). */
    public int minimumBytesPerWindow() { return minimumBytesPerWindow; }

    /** An answer that is not the file asked for (an error page, a redirect) is read up to this many bytes. */
    public int errorBodyLimit() { return errorBodyLimit; }

    /** Redirects followed for one request, at most (a CDN needs one or two). */
    public int maxRedirects() { return maxRedirects; }

    /** For the TCP (and TLS) connection alone; it also counts toward {@link #responseTimeout()}. */
    public Duration connectTimeout() { return connectTimeout; }

    public TransferPolicy withResponseTimeout(Duration value) {
        return new TransferPolicy(value, progressWindow, minimumBytesPerWindow, errorBodyLimit, maxRedirects, connectTimeout);
    }

    public TransferPolicy withProgressWindow(Duration value) {
        return new TransferPolicy(responseTimeout, value, minimumBytesPerWindow, errorBodyLimit, maxRedirects, connectTimeout);
    }

    public TransferPolicy withMinimumBytesPerWindow(int value) {
        return new TransferPolicy(responseTimeout, progressWindow, value, errorBodyLimit, maxRedirects, connectTimeout);
    }

    public TransferPolicy withErrorBodyLimit(int value) {
        return new TransferPolicy(responseTimeout, progressWindow, minimumBytesPerWindow, value, maxRedirects, connectTimeout);
    }

    public TransferPolicy withMaxRedirects(int value) {
        return new TransferPolicy(responseTimeout, progressWindow, minimumBytesPerWindow, errorBodyLimit, value, connectTimeout);
    }

    public TransferPolicy withConnectTimeout(Duration value) {
        return new TransferPolicy(responseTimeout, progressWindow, minimumBytesPerWindow, errorBodyLimit, maxRedirects, value);
    }

    /**
     * The longest an answer of at most {@code length} body bytes can take, from sending its request to its end
     * (each redirect hop is another answer): {@code responseTimeout + progressWindow × (length / minimum + 1)}.
     */
    public Duration deadline(long length) {
        return responseTimeout.plus(progressWindow.multipliedBy(length / minimumBytesPerWindow + 1));
    }

    @Override public boolean equals(Object other) {
        if (!(other instanceof TransferPolicy)) return false;
        TransferPolicy o = (TransferPolicy) other;
        return responseTimeout.equals(o.responseTimeout) && progressWindow.equals(o.progressWindow)
                && minimumBytesPerWindow == o.minimumBytesPerWindow && errorBodyLimit == o.errorBodyLimit
                && maxRedirects == o.maxRedirects && connectTimeout.equals(o.connectTimeout);
    }

    @Override public int hashCode() {
        return Objects.hash(responseTimeout, progressWindow, minimumBytesPerWindow, errorBodyLimit, maxRedirects, connectTimeout);
    }

    @Override public String toString() {
        return "TransferPolicy[response " + responseTimeout + ", " + minimumBytesPerWindow + " bytes per " + progressWindow
                + ", error bodies " + errorBodyLimit + ", redirects " + maxRedirects + ", connect " + connectTimeout + "]";
    }
}
