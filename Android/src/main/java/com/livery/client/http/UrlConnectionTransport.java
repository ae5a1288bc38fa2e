package com.livery.client.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URLConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The default {@link Transport}: {@link HttpURLConnection}, present on every Android version and JVM (Android's is
 * OkHttp inside). Redirects are turned off and caches unused; because every request carries an explicit
 * {@code Accept-Encoding} (the fetcher sends {@code identity}), Android's connection does not add gzip and unzip the
 * body behind the caller's back, which it does when the field is left unset.
 */
public final class UrlConnectionTransport implements Transport {
    private final int connectTimeoutMillis;
    private final int readTimeoutMillis;

    /** A transport whose connections time out as {@code policy} says (the fetcher's own watchdog acts first). */
    public UrlConnectionTransport(TransferPolicy policy) {
        connectTimeoutMillis = (int) Math.min(Integer.MAX_VALUE,
                Math.min(policy.connectTimeout().toMillis(), policy.responseTimeout().toMillis()));
        // A backstop only: one read blocked this long means a progress window without a byte has passed, which the
        // fetcher's watchdog refuses (and aborts) first.
        long read = Math.max(policy.responseTimeout().toMillis(), 2 * policy.progressWindow().toMillis()) + 1000;
        readTimeoutMillis = (int) Math.min(Integer.MAX_VALUE, read);
    }

    /** With {@link TransferPolicy#STANDARD}'s timeouts. */
    public UrlConnectionTransport() {
        this(TransferPolicy.STANDARD);
    }

    @Override public Exchange start(HttpRequest request) throws IOException {
        URLConnection opened = request.uri().toURL().openConnection();
        if (!(opened instanceof HttpURLConnection)) throw new IOException("not an http(s) URL: " + Urls.shown(request.uri()));
        HttpURLConnection connection = (HttpURLConnection) opened;
        connection.setInstanceFollowRedirects(false);
        connection.setUseCaches(false);
        connection.setConnectTimeout(connectTimeoutMillis);
        connection.setReadTimeout(readTimeoutMillis);
        connection.setRequestMethod(request.method());
        for (Header header : request.headers()) connection.setRequestProperty(header.name(), header.value());
        return new ConnectionExchange(connection, request.bodyBytes());
    }

    private static final class ConnectionExchange implements Exchange {
        private final HttpURLConnection connection;
        private final byte[] body;
        private InputStream stream;
        private volatile boolean aborted;

        ConnectionExchange(HttpURLConnection connection, byte[] body) {
            this.connection = connection;
            this.body = body;
        }

        @Override public ResponseHead awaitHead() throws IOException {
            if (body != null) {
                connection.setDoOutput(true);
                connection.setFixedLengthStreamingMode(body.length);
                try (OutputStream out = connection.getOutputStream()) {
                    out.write(body);
                }
            }
            int status = connection.getResponseCode();
            if (aborted) throw new IOException("aborted");
            if (status < 0) throw new IOException("not a valid HTTP answer");
            List<Header> headers = new ArrayList<>();
            for (Map.Entry<String, List<String>> field : connection.getHeaderFields().entrySet()) {
                // The null key is the status line.
                if (field.getKey() == null) continue;
                for (String value : field.getValue()) headers.add(new Header(field.getKey(), value));
            }
            return new ResponseHead(status, headers);
        }

        @Override public InputStream body() throws IOException {
            if (stream == null) {
                InputStream raw = connection.getResponseCode() >= 400 ? connection.getErrorStream() : connection.getInputStream();
                stream = raw != null ? raw : InputStream.nullInputStream();
            }
            return stream;
        }

        @Override public void abort() {
            aborted = true;
            // disconnect() closes the socket, which ends a read blocked in another thread.
            connection.disconnect();
        }

        @Override public void close() {
            if (stream == null) {
                connection.disconnect();
                return;
            }
            try {
                // Closing a stream read to its end hands the connection back for reuse (keep-alive).
                stream.close();
            } catch (IOException e) {
                connection.disconnect();
            }
        }
    }
}
