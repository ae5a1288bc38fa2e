package com.livery.client.http;

import java.util.Collections;
import java.util.List;
import java.util.Optional;

/** An answer's status and header fields, before its body. */
public final class ResponseHead {
    private final int status;
    private final List<Header> headers;

    public ResponseHead(int status, List<Header> headers) {
        this.status = status;
        this.headers = Collections.unmodifiableList(List.copyOf(headers));
    }

    public int status() { return status; }

    public List<Header> headers() { return headers; }

    /** The last value of header {@code name} (case-insensitive), if the answer has it. */
    public Optional<String> header(String name) {
        for (int i = headers.size() - 1; i >= 0; i--) {
            if (headers.get(i).name().equalsIgnoreCase(name)) return Optional.of(headers.get(i).value().trim());
        }
        return Optional.empty();
    }

    @Override public String toString() { return "HTTP " + status; }
}
