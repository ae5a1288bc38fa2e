package com.livery.client.install;

import com.livery.client.http.Exchange;
import com.livery.client.http.Header;
import com.livery.client.http.HttpRequest;
import com.livery.client.http.ResponseHead;
import com.livery.client.http.Transport;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

/**
 * A repository in a folder, read through the client's HTTP layer: a {@code file:} URL under {@code root} answers 200
 * with the file, or 206 with one range ({@code Range: bytes=a-b} or {@code bytes=a-}: file indexes and delta downloads),
 * anything missing 404. Every read is then held to the same byte budgets and verified as a download is. Used for a release shipped inside the app
 * ({@link com.livery.client.EmbeddedRelease}); the counterpart of LiveryClient's {@code LocalRepository}.
 */
public final class FolderTransport implements Transport {
    private final Path root;

    public FolderTransport(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** The base URL of the repository in the folder, to give {@link RepositoryHttp}. */
    public URI base() {
        return root.toUri();
    }

    @Override
    public Exchange start(HttpRequest request) throws IOException {
        URI uri = request.uri();
        Path file = null;
        if ("file".equals(uri.getScheme()) && request.method().equals("GET")) {
            Path asked = Path.of(uri).toAbsolutePath().normalize();
            // Nothing outside the folder, and no link followed out of it.
            if (asked.startsWith(root) && Files.isRegularFile(asked, LinkOption.NOFOLLOW_LINKS)) file = asked;
        }
        return new FileExchange(file, request.header("Range").orElse(null));
    }

    private static final class FileExchange implements Exchange {
        private final Path file;
        private final String range;
        private long start, end;
        private InputStream body;

        FileExchange(Path file, String range) {
            this.file = file;
            this.range = range;
        }

        @Override
        public ResponseHead awaitHead() throws IOException {
            if (file == null) return new ResponseHead(404, List.of(new Header("Content-Length", "0")));
            long size = Files.size(file);
            start = 0;
            end = size;
            if (range == null) return new ResponseHead(200, List.of(new Header("Content-Length", Long.toString(size))));
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("bytes=(\\d{1,18})-(\\d{0,18})").matcher(range.trim());
            if (!m.matches() || Long.parseLong(m.group(1)) >= size) {
                end = 0;
                return new ResponseHead(416, List.of(new Header("Content-Length", "0"), new Header("Content-Range", "bytes */" + size)));
            }
            start = Long.parseLong(m.group(1));
            end = m.group(2).isEmpty() ? size : Math.min(size, Long.parseLong(m.group(2)) + 1);
            if (end <= start) {
                end = 0;
                return new ResponseHead(416, List.of(new Header("Content-Length", "0"), new Header("Content-Range", "bytes */" + size)));
            }
            return new ResponseHead(206, List.of(new Header("Content-Length", Long.toString(end - start)),
                    new Header("Content-Range", "bytes " + start + "-" + (end - 1) + "/" + size)));
        }

        @Override
        public synchronized InputStream body() throws IOException {
            if (body == null) {
                if (file == null || end <= start) {
                    body = InputStream.nullInputStream();
                } else {
                    InputStream in = Files.newInputStream(file);
                    in.skipNBytes(start);
                    body = new BoundedInput(in, end - start);
                }
            }
            return body;
        }

        @Override
        public void abort() {
            close();
        }

        @Override
        public synchronized void close() {
            try {
                if (body != null) body.close();
            } catch (IOException ignored) {
                // A file closed twice or already gone: nothing to release.
            }
        }
    }

    /** The next {@code left} bytes of a stream, then its end. */
    private static final class BoundedInput extends java.io.FilterInputStream {
        private long left;

        BoundedInput(InputStream in, long left) {
            super(in);
            this.left = left;
        }

        @Override
        public int read() throws IOException {
            if (left <= 0) return -1;
            int b = super.read();
            if (b >= 0) left--;
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (left <= 0) return -1;
            int n = super.read(buffer, offset, (int) Math.min(length, left));
            if (n > 0) left -= n;
            return n;
        }
    }
}
