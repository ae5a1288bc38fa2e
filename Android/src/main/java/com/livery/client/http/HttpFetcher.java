package com.livery.client.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * Every HTTP read of the client, held to one {@link TransferPolicy} whatever the {@link Transport}: a byte budget per
 * read counted as the body arrives (an announced {@code Content-Length} over it is refused before reading), the
 * response deadline and minimum progress, {@code Accept-Encoding: identity} on every request and no content coding
 * taken, redirects followed here (never by the transport), range answers checked to start where asked, error bodies
 * capped. Memory stays bounded: bodies go to a file or to a buffer no larger than their budget.
 *
 * <p>Thread-safe: one fetcher can serve many threads (each call is its own exchange).
 */
public final class HttpFetcher {
    private final Transport transport;
    private final TransferPolicy policy;
    private final AtomicLong received = new AtomicLong();

    public HttpFetcher(Transport transport, TransferPolicy policy) {
        this.transport = Objects.requireNonNull(transport, "transport");
        this.policy = Objects.requireNonNull(policy, "policy");
    }

    /** HttpURLConnection with {@code policy}'s timeouts. */
    public HttpFetcher(TransferPolicy policy) {
        this(new UrlConnectionTransport(policy), policy);
    }

    public TransferPolicy policy() { return policy; }

    public Transport transport() { return transport; }

    /** Body bytes received by this fetcher so far, every answer included (for progress and delta measurements). */
    public long bytesReceived() { return received.get(); }

    /**
     * Sends {@code request} and reads its answer into memory: a 200 or 206 body of at most {@code limit} bytes
     * (more is a {@link BodyTooLongException}), any other status with its body cut at the error limit. Redirects are
     * followed; the answer returned is the last hop's.
     */
    public HttpAnswer fetch(HttpRequest request, long limit) throws TransferException {
        return perform(request, new MemorySink(), limit, limit);
    }

    /**
     * Downloads {@code request}'s file into {@code file}, continuing a previous attempt: if the file has bytes, they
     * are asked for from there on ({@code Range: bytes=N-}); a 206 answer must start at N (its
     * {@code Content-Range}) and is appended, a 200 answer (a server without ranges) replaces the file. At most
     * {@code maxLength} bytes in all. {@code progress} (may be null) hears the file's size after each write.
     * Returns the last answer; a status other than 200 or 206 leaves the file as it was (a 416 with a full file
     * means it was complete). When the file already holds {@code maxLength} bytes nothing is sent and the answer
     * is an empty 206: the caller checks the file's hash in any case.
     */
    public HttpAnswer download(HttpRequest request, Path file, long maxLength, LongConsumer progress) throws TransferException, IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            long existing = channel.size();
            if (existing > maxLength) {
                channel.truncate(0);
                existing = 0;
            }
            if (existing == maxLength && existing > 0) {
                return new HttpAnswer(new ResponseHead(206, java.util.List.of()), new byte[0], 0);
            }
            HttpRequest asked = existing > 0 ? request.withHeader("Range", "bytes=" + existing + "-") : request;
            if (progress != null) progress.accept(existing);
            return perform(asked, new FileSink(channel, existing, file, progress), maxLength - existing, maxLength);
        }
    }

    private HttpAnswer perform(HttpRequest request, BodySink sink, long rangeLimit, long wholeLimit) throws TransferException {
        HttpRequest current = request.withHeader("Accept-Encoding", "identity");
        int hops = 0;
        boolean retried = false;
        while (true) {
            HttpAnswer answer;
            try {
                answer = new Transfer(current, policy, received).run(transport, sink, rangeLimit, wholeLimit);
            } catch (Transfer.LostBeforeAnswer lost) {
                // A kept-alive connection the server closed just as it was reused fails before any answer: a GET is
                // sent once more (nothing was received, so nothing is undone). A refusal of the policy is never this.
                if (!retried && current.method().equals("GET")) {
                    retried = true;
                    continue;
                }
                throw lost.failure;
            }
            Optional<String> location = answer.head().header("Location");
            if (!Redirects.STATUSES.contains(answer.status()) || location.isEmpty()) return answer;
            hops += 1;
            current = Redirects.next(current, location.get(), answer.status(), hops, policy);
        }
    }

    private static final class MemorySink implements BodySink {
        private ByteArrayOutputStream out = new ByteArrayOutputStream();

        @Override public void begin(ResponseHead head) {
            out = new ByteArrayOutputStream();
        }

        @Override public void write(byte[] bytes, int offset, int length) {
            out.write(bytes, offset, length);
        }

        @Override public byte[] bytes() { return out.toByteArray(); }
    }

    private static final class FileSink implements BodySink {
        private final FileChannel channel;
        private final long offset;
        private final Path file;
        private final LongConsumer progress;
        private long size;

        FileSink(FileChannel channel, long offset, Path file, LongConsumer progress) {
            this.channel = channel;
            this.offset = offset;
            this.file = file;
            this.progress = progress;
        }

        @Override public void begin(ResponseHead head) throws IOException {
            if (head.status() == 206 && offset > 0) {
                Optional<String> range = head.header("Content-Range");
                if (!rangeStart(range.orElse("")).equals(Optional.of(offset))) {
                    throw new TransferException(file.getFileName() + ": asked for the bytes from " + offset + " on, the server sent '"
                            + range.orElse("no Content-Range") + "'");
                }
                channel.position(offset);
                size = offset;
            } else {
                // A 200 is the whole file: it replaces what a previous attempt left.
                channel.truncate(0);
                channel.position(0);
                size = 0;
            }
        }

        @Override public void write(byte[] bytes, int offset, int length) throws IOException {
            ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
            while (buffer.hasRemaining()) channel.write(buffer);
            size += length;
            if (progress != null) progress.accept(size);
        }

        @Override public byte[] bytes() { return new byte[0]; }
    }

    /** The first byte of a {@code Content-Range: bytes a-b/n} value. */
    static Optional<Long> rangeStart(String value) {
        String spec = value.trim();
        int space = spec.lastIndexOf(' ');
        if (space >= 0) spec = spec.substring(space + 1);
        int dash = spec.indexOf('-');
        return dash <= 0 ? Optional.empty() : Transfer.parseLong(spec.substring(0, dash));
    }

    /** Whether {@code file} exists and how long it is (0 when it does not), for callers deciding on a resume. */
    public static long partialLength(Path file) throws IOException {
        return Files.exists(file) ? Files.size(file) : 0;
    }
}
