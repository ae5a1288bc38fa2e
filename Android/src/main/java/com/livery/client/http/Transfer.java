package com.livery.client.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One exchange held to the policy: the byte budget on every read as it returns, the response deadline and the
 * minimum progress on the watchdog's ticks, whichever comes first. A refusal aborts the exchange, so the reading
 * thread wakes up and reports the refusal rather than the broken connection it caused.
 */
final class Transfer {
    /** The exchange failed before any answer arrived (nothing was received: a GET may be sent once more). */
    static final class LostBeforeAnswer extends Exception {
        private static final long serialVersionUID = 1L;
        final TransferException failure;

        LostBeforeAnswer(TransferException failure) {
            super(failure.getMessage(), null, false, false);
            this.failure = failure;
        }
    }

    private final HttpRequest request;
    private final TransferPolicy policy;
    private final String name;
    private final AtomicLong counter;
    private final Object lock = new Object();
    // Guarded by lock.
    private boolean headSeen;
    private boolean finished;
    private TransferException failure;
    private long windowStart;
    private long windowBytes;
    private final long started = System.nanoTime();
    private Exchange exchange;
    /** Set by the reading thread when an error body was cut off. */
    private boolean dropConnection;

    Transfer(HttpRequest request, TransferPolicy policy, AtomicLong counter) {
        this.request = request;
        this.policy = policy;
        this.name = Urls.shown(request.uri());
        this.counter = counter;
    }

    /**
     * Runs the exchange. A 200 or 206 body goes to {@code sink} up to its limit ({@code rangeLimit} for 206,
     * {@code wholeLimit} for 200); any other body is read up to the policy's error limit and kept in the answer.
     */
    HttpAnswer run(Transport transport, BodySink sink, long rangeLimit, long wholeLimit) throws TransferException, LostBeforeAnswer {
        Exchange started;
        try {
            started = transport.start(request);
        } catch (IOException e) {
            throw new LostBeforeAnswer(new TransferException(name + ": " + describe(e), e));
        }
        synchronized (lock) {
            exchange = started;
        }
        long tick = Math.max(10, Math.min(1000, Math.min(policy.progressWindow().toMillis(), policy.responseTimeout().toMillis()) / 4));
        ScheduledFuture<?> watch = Watchdog.every(tick, this::tick);
        boolean clean = false;
        try {
            ResponseHead head;
            try {
                head = started.awaitHead();
            } catch (IOException e) {
                synchronized (lock) {
                    if (failure != null) throw failure;
                }
                throw new LostBeforeAnswer(refusalOr(e));
            }
            synchronized (lock) {
                if (failure != null) throw failure;
                headSeen = true;
                windowStart = System.nanoTime();
                windowBytes = 0;
            }
            HttpAnswer answer = head.status() == 200 || head.status() == 206
                    ? readFile(started, head, sink, head.status() == 206 ? rangeLimit : wholeLimit)
                    : readOther(started, head);
            clean = !dropConnection;
            return answer;
        } finally {
            watch.cancel(false);
            synchronized (lock) {
                finished = true;
            }
            if (clean) started.close(); else started.abort();
        }
    }

    private HttpAnswer readFile(Exchange exchange, ResponseHead head, BodySink sink, long limit) throws TransferException {
        Optional<String> coding = head.header("Content-Encoding");
        if (coding.isPresent() && !coding.get().isEmpty() && !coding.get().equalsIgnoreCase("identity")) {
            // A coding would have to be undone before any length could be checked, and TUF's lengths and hashes are
            // the file's own: the client asks for none and takes none (a decompression bomb is one answer away).
            throw new TransferException(name + ": the server sent the file with Content-Encoding '" + coding.get()
                    + "', which the client did not ask for (it sends Accept-Encoding: identity): serve the files as they are");
        }
        Optional<Long> declared = head.header("Content-Length").flatMap(Transfer::parseLong);
        if (declared.isPresent() && declared.get() > limit) {
            throw new BodyTooLongException(name + ": the server announces " + declared.get() + " bytes, more than the " + limit + " expected", limit);
        }
        long received = 0;
        try {
            sink.begin(head);
            InputStream in = exchange.body();
            byte[] buffer = new byte[64 << 10];
            while (true) {
                // One byte more than the budget allows is enough to know the budget is exceeded.
                int want = (int) Math.min(buffer.length, limit - received + 1);
                int n = in.read(buffer, 0, want);
                if (n < 0) break;
                received += n;
                counted(n);
                if (received > limit) {
                    throw new BodyTooLongException(name + " sent more than the " + limit + " bytes expected (endless data)", limit);
                }
                sink.write(buffer, 0, n);
            }
        } catch (BodyTooLongException e) {
            throw e;
        } catch (IOException e) {
            throw refusalOr(e);
        }
        return new HttpAnswer(head, sink.bytes(), received);
    }

    /** An answer that is not the file: its body is kept up to the error limit; past it the connection is dropped. */
    private HttpAnswer readOther(Exchange exchange, ResponseHead head) throws TransferException {
        ByteArrayOutputStream kept = new ByteArrayOutputStream();
        long received = 0;
        boolean whole = true;
        try {
            InputStream in = exchange.body();
            byte[] buffer = new byte[8 << 10];
            while (true) {
                int want = (int) Math.min(buffer.length, policy.errorBodyLimit() - received + 1);
                int n = in.read(buffer, 0, want);
                if (n < 0) break;
                received += n;
                counted(n);
                if (received > policy.errorBodyLimit()) {
                    kept.write(buffer, 0, n - (int) (received - policy.errorBodyLimit()));
                    whole = false;
                    break;
                }
                kept.write(buffer, 0, n);
            }
        } catch (IOException e) {
            synchronized (lock) {
                if (failure != null) throw failure;
            }
            // The error page broke off: its status is what matters.
            whole = false;
        }
        // A cut-off body is returned, but its exchange is aborted (run's finally) rather than closed: a transport
        // must never be asked to drain an endless body for the connection's sake.
        dropConnection = !whole;
        return new HttpAnswer(head, kept.toByteArray(), Math.min(received, policy.errorBodyLimit()));
    }

    private void counted(int n) {
        counter.addAndGet(n);
        synchronized (lock) {
            windowBytes += n;
        }
    }

    /** The policy's refusal if the watchdog aborted the exchange, else the transport's failure in words. */
    private TransferException refusalOr(IOException e) {
        synchronized (lock) {
            if (failure != null) return failure;
        }
        if (e instanceof TransferException) return (TransferException) e;
        return new TransferException(name + ": " + describe(e), e);
    }

    private void tick() {
        Exchange abort = null;
        synchronized (lock) {
            if (finished || failure != null) return;
            long now = System.nanoTime();
            if (!headSeen) {
                if (now - started >= policy.responseTimeout().toNanos()) {
                    failure = new TransferException(name + ": no answer within " + seconds(policy.responseTimeout().toMillis()) + " s (slow retrieval)");
                }
            } else if (now - windowStart >= policy.progressWindow().toNanos()) {
                if (windowBytes < policy.minimumBytesPerWindow()) {
                    failure = new TransferException(name + ": " + windowBytes + " bytes in " + seconds(policy.progressWindow().toMillis())
                            + " s, fewer than the " + policy.minimumBytesPerWindow() + " the client requires (slow retrieval)");
                }
                windowStart = now;
                windowBytes = 0;
            }
            if (failure != null) abort = exchange;
        }
        if (abort != null) abort.abort();
    }

    private static String seconds(long millis) {
        return millis % 1000 == 0 ? Long.toString(millis / 1000) : String.format(Locale.ROOT, "%.1f", millis / 1000.0);
    }

    static String describe(IOException e) {
        if (e instanceof java.net.ConnectException) return "connection refused";
        if (e instanceof java.net.SocketTimeoutException) return "timed out";
        if (e instanceof java.net.UnknownHostException) return "unknown host " + e.getMessage();
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    static Optional<Long> parseLong(String text) {
        try {
            return Optional.of(Long.parseLong(text.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
