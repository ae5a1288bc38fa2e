package com.livery.client.install;

import com.livery.client.FetchEvent;
import com.livery.client.FetchListener;
import java.util.HashMap;
import java.util.Map;

/** Counts downloaded bytes per bundle and in all, and sends progress events at most once per percent (thread-safe). */
public final class ProgressMeter {
    private final long total;
    private final FetchListener listener;
    private final Map<String, Long> received = new HashMap<>(), lengths = new HashMap<>();
    private final Map<String, Long> lastPercent = new HashMap<>();

    public ProgressMeter(long total, FetchListener listener) {
        this.total = total;
        this.listener = listener;
    }

    public void started(String bundle, long bytes) {
        synchronized (this) {
            lengths.put(bundle, bytes);
        }
        if (listener != null) listener.onEvent(FetchEvent.started(bundle, bytes));
    }

    /** The bundle's file now holds {@code bytes} bytes. */
    public void advanced(String bundle, long bytes) {
        if (listener == null) return;
        FetchEvent event;
        synchronized (this) {
            received.put(bundle, bytes);
            long length = Math.max(lengths.getOrDefault(bundle, bytes), 1);
            long percent = Math.min(100, bytes * 100 / length);
            if (Long.valueOf(percent).equals(lastPercent.get(bundle))) return;
            lastPercent.put(bundle, percent);
            long all = 0;
            for (long v : received.values()) all += v;
            event = FetchEvent.progress(bundle, bytes, length, all, total);
        }
        listener.onEvent(event);
    }

    public void finished(String bundle) {
        if (listener != null) listener.onEvent(FetchEvent.finished(bundle));
    }
}
