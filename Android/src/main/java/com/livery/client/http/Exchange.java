package com.livery.client.http;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;

/**
 * One request and its answer on a {@link Transport}. {@link HttpFetcher} calls {@link #awaitHead()} once, then reads
 * {@link #body()} (or not), then {@link #close()} (when the body was read to its end, the connection may be kept for
 * another request) or {@link #abort()} (the connection must be dropped).
 */
public interface Exchange extends Closeable {
    /** Sends the request (and its body) and waits for the status line and header fields. */
    ResponseHead awaitHead() throws IOException;

    /** The body's bytes as the server sent them, error answers included; an empty stream when there is none. */
    InputStream body() throws IOException;

    /** Drops the exchange and its connection. Callable from any thread, at any time, more than once. */
    void abort();

    /** Ends an exchange whose body was read to its end (or that had none). */
    @Override void close();
}
