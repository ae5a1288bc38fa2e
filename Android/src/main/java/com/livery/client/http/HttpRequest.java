package com.livery.client.http;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One HTTP request as the client sends it: GET (POST for vouchers), header fields, an optional body. Immutable;
 * {@link #withHeader} and friends return changed copies. {@code Accept-Encoding: identity} is added by
 * {@link HttpFetcher}, not here.
 */
public final class HttpRequest {
    private final URI uri;
    private final String method;
    private final List<Header> headers;
    private final byte[] body;

    private HttpRequest(URI uri, String method, List<Header> headers, byte[] body) {
        this.uri = Objects.requireNonNull(uri, "uri");
        this.method = Objects.requireNonNull(method, "method");
        this.headers = Collections.unmodifiableList(new ArrayList<>(headers));
        this.body = body;
    }

    /** A GET of {@code uri}. */
    public static HttpRequest get(URI uri) {
        return new HttpRequest(uri, "GET", List.of(), null);
    }

    /** A POST of {@code body} (sent as {@code contentType}) to {@code uri}. */
    public static HttpRequest post(URI uri, String contentType, byte[] body) {
        return new HttpRequest(uri, "POST", List.of(new Header("Content-Type", contentType)), body.clone());
    }

    public URI uri() { return uri; }

    public String method() { return method; }

    /** The header fields, in the order they are sent. */
    public List<Header> headers() { return headers; }

    /** The body, or empty for none. */
    public Optional<byte[]> body() { return Optional.ofNullable(body).map(byte[]::clone); }

    /** The value of header {@code name} (case-insensitive), if set. */
    public Optional<String> header(String name) {
        for (int i = headers.size() - 1; i >= 0; i--) {
            if (headers.get(i).name().equalsIgnoreCase(name)) return Optional.of(headers.get(i).value());
        }
        return Optional.empty();
    }

    /** A copy with header {@code name} set to {@code value} (or removed, for null). */
    public HttpRequest withHeader(String name, String value) {
        List<Header> next = new ArrayList<>();
        String lower = name.toLowerCase(Locale.ROOT);
        for (Header h : headers) if (!h.name().toLowerCase(Locale.ROOT).equals(lower)) next.add(h);
        if (value != null) next.add(new Header(name, value));
        return new HttpRequest(uri, method, next, body);
    }

    /** A copy sent to {@code other}. */
    public HttpRequest withUri(URI other) {
        return new HttpRequest(other, method, headers, body);
    }

    /** A copy as a GET without a body (what a 303, or a 301/302 after a POST, asks for). */
    public HttpRequest asGet() {
        return new HttpRequest(uri, "GET", headers, null).withHeader("Content-Type", null);
    }

    byte[] bodyBytes() { return body; }

    @Override public String toString() { return method + " " + Urls.shown(uri); }
}
