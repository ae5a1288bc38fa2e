package com.livery.client.delta;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** One range request: bytes {@code [start, end)} of a file on the server, covering {@code items}. */
public final class Span<T> {
    /** Bytes between two wanted ranges fetched rather than asked for separately (a zip's local header lies between two files' data). */
    public static final long GAP = 4096;
    public final long start;
    public long end;
    public final List<T> items = new ArrayList<>();

    Span(long start, long end) {
        this.start = start;
        this.end = end;
    }

    public long length() { return end - start; }

    /** A wanted range and what it is for. */
    public static final class Wanted<T> {
        final long start, end;
        final T item;

        public Wanted(long start, long end, T item) {
            this.start = start;
            this.end = end;
            this.item = item;
        }
    }

    /** Joins ranges at most {@code gap} bytes apart into one request each. */
    public static <T> List<Span<T>> coalesce(List<Wanted<T>> wanted, long gap) {
        List<Wanted<T>> sorted = new ArrayList<>(wanted);
        sorted.sort(Comparator.comparingLong(w -> w.start));
        List<Span<T>> spans = new ArrayList<>();
        for (Wanted<T> w : sorted) {
            Span<T> last = spans.isEmpty() ? null : spans.get(spans.size() - 1);
            if (last != null && w.start <= last.end + gap) {
                last.end = Math.max(last.end, w.end);
                last.items.add(w.item);
            } else {
                Span<T> span = new Span<>(w.start, w.end);
                span.items.add(w.item);
                spans.add(span);
            }
        }
        return spans;
    }
}
