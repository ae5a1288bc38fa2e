package com.livery.client.http;

import java.net.URI;
import java.util.Locale;
import java.util.Set;

/** Which redirects the fetcher follows, and the request each one asks for. */
final class Redirects {
    static final Set<Integer> STATUSES = Set.of(301, 302, 303, 307, 308);

    private Redirects() {}

    /**
     * The request a redirect asks for, or why it is refused: more than {@code maxRedirects} hops, a target that is
     * not an http(s) URL, or https to http (a downgrade would let anyone on the path answer instead). An
     * {@code Authorization} field goes only to the origin it was meant for.
     */
    static HttpRequest next(HttpRequest request, String location, int status, int hops, TransferPolicy policy) throws TransferException {
        URI source = request.uri();
        String from = Urls.shown(source);
        if (hops > policy.maxRedirects()) throw new TransferException(from + ": more than " + policy.maxRedirects() + " redirects");
        URI target;
        try {
            target = source.resolve(URI.create(location.trim()));
        } catch (IllegalArgumentException e) {
            throw new TransferException(from + ": HTTP " + status + " redirects to '" + location + "', which is not a URL");
        }
        String scheme = target.getScheme() == null ? "" : target.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || target.getHost() == null) {
            throw new TransferException(from + ": HTTP " + status + " redirects to '" + Urls.shown(target) + "', which is not an http(s) URL");
        }
        if ("https".equalsIgnoreCase(source.getScheme()) && scheme.equals("http")) {
            throw new TransferException(from + ": refused a redirect from https to http (" + Urls.shown(target) + ")");
        }
        HttpRequest next = request.withUri(target);
        if (status == 303 || ((status == 301 || status == 302) && request.method().equals("POST"))) next = next.asGet();
        if (!origin(source).equals(origin(target))) next = next.withHeader("Authorization", null);
        return next;
    }

    private static String origin(URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        int port = uri.getPort() != -1 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
        return scheme + "://" + (uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT)) + ":" + port;
    }
}
