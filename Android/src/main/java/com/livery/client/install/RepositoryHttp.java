package com.livery.client.install;

import com.livery.client.LiveryException;
import com.livery.client.delta.RangeSource;
import com.livery.client.http.HttpAnswer;
import com.livery.client.http.HttpFetcher;
import com.livery.client.http.HttpRequest;
import com.livery.client.http.Urls;
import com.livery.client.voucher.VoucherAccessException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * A tenant's repository over HTTP for what the release layer reads itself: bundles streamed to {@code .part} files
 * and resumed with range requests, byte ranges for delta downloads, signed URLs of protected bundles. Every read goes
 * through one {@link HttpFetcher}, so the transfer policy's budgets and deadlines hold for all of them.
 */
public final class RepositoryHttp implements RangeSource {
    private final URI base;
    private final HttpFetcher http;

    /** @param base the tenant's repository, {@code <server>/<tenant>/} (or a channel's), with {@code metadata/} and {@code targets/} under it */
    public RepositoryHttp(URI base, HttpFetcher http) {
        this.base = Urls.asFolder(base);
        this.http = http;
    }

    public URI base() { return base; }
    public HttpFetcher fetcher() { return http; }
    public long bytesReceived() { return http.bytesReceived(); }

    /**
     * Downloads {@code path} (relative to the repository) or {@code absolute} into {@code part}, resuming what it holds;
     * at most {@code maxLength} bytes. Returns false for a 404. A 401, or a 403 to a token, is a
     * {@link VoucherAccessException}; a 403 without one says that the server refuses the target.
     */
    public boolean download(String path, URI absolute, Path part, long maxLength, String bearer, LongConsumer progress) throws LiveryException {
        URI uri = absolute != null ? absolute : base.resolve(path);
        HttpRequest request = HttpRequest.get(uri);
        if (bearer != null) request = request.withHeader("Authorization", "Bearer " + bearer);
        HttpAnswer answer;
        try {
            answer = http.download(request, part, maxLength, progress);
        } catch (IOException e) {
            throw new LiveryException(LiveryException.Kind.DOWNLOAD, e.getMessage(), e);
        }
        int status = answer.status();
        if (answer.isSuccess()) return true;
        // A 416 to a resume of a file already whole: the caller checks its hash in any case.
        if (status == 416) return true;
        if (status == 404) return false;
        if (status == 401 || (status == 403 && (bearer != null || absolute != null))) throw new VoucherAccessException(path, status, bearer != null || absolute != null);
        if (status == 403) {
            throw new LiveryException(LiveryException.Kind.DOWNLOAD, path + ": HTTP 403 Forbidden: the server refuses this target (access denied, or a missing object on storage that hides which keys exist)");
        }
        throw new LiveryException(LiveryException.Kind.DOWNLOAD, path + ": HTTP " + status);
    }

    @Override
    public void copyRange(String path, long start, long end, Path into) throws Exception {
        HttpRequest request = HttpRequest.get(base.resolve(path)).withHeader("Range", "bytes=" + start + "-" + (end - 1));
        Files.deleteIfExists(into);
        HttpAnswer answer = http.download(request, into, end - start, null);
        if (answer.status() != 206) {
            throw new LiveryException(LiveryException.Kind.DOWNLOAD, path + ": asked for bytes " + start + "-" + (end - 1) + ", the server answered HTTP " + answer.status()
                    + (answer.status() == 200 ? " with the whole file (no range support)" : ""));
        }
        Optional<String> range = answer.head().header("Content-Range");
        String expected = "bytes " + start + "-" + (end - 1) + "/";
        if (range.isEmpty() || !range.get().trim().startsWith(expected)) {
            throw new LiveryException(LiveryException.Kind.DOWNLOAD, path + ": asked for bytes " + start + "-" + (end - 1) + ", the server sent '" + range.orElse("no Content-Range") + "'");
        }
        if (Files.size(into) != end - start) throw new LiveryException(LiveryException.Kind.DOWNLOAD, path + ": the range came " + Files.size(into) + " bytes long, not " + (end - start));
    }
}
