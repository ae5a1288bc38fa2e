package com.livery.client.http;

import java.io.IOException;

/**
 * How the client talks to servers: plug in OkHttp, Cronet or a test double by implementing this. The client's
 * byte budgets and deadlines ({@link TransferPolicy}) are enforced above it by {@link HttpFetcher}, on what the
 * transport hands over, so every transport is held to the same bounds. A transport must:
 * <ul>
 *   <li>not follow redirects (the fetcher follows them, at most {@link TransferPolicy#maxRedirects()}, never
 *       from https to http);</li>
 *   <li>not decode content codings (send the request's {@code Accept-Encoding} as given; hand over the body's
 *       bytes as they came);</li>
 *   <li>read from the network only as the body stream is read (no read-ahead of unbounded size), so memory stays
 *       bounded whatever a server sends;</li>
 *   <li>let {@link Exchange#abort()} be called from any thread at any time, unblocking a waiting
 *       {@link Exchange#awaitHead()} or body read.</li>
 * </ul>
 * The default is {@link UrlConnectionTransport} (HttpURLConnection, on every Android version and JVM).
 */
public interface Transport {
    /**
     * Starts {@code request} and returns its exchange at once, without waiting for the network (the fetcher's
     * deadlines start now, and it may abort the exchange while it connects).
     */
    Exchange start(HttpRequest request) throws IOException;
}
