package com.livery.client;

import com.livery.client.install.PlannedDownload;
import com.livery.client.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a fetch reports as it goes, as LiveryClient's {@code FetchEvent}: {@code PLAN} before any download,
 * {@code STARTED}, {@code PROGRESS} (at most once per percent of a bundle), {@code FINISHED} per bundle, and
 * {@code INSTALLED} with the result.
 */
public final class FetchEvent {
    public enum Type { PLAN, STARTED, PROGRESS, FINISHED, INSTALLED }

    public final Type type;
    /** The bundle of STARTED, PROGRESS and FINISHED. */
    public final String bundle;
    /** PLAN: bytes to download and to install, free space (-1: unknown), and each download. */
    public final long download, install, available;
    public final List<PlannedDownload> downloads;
    /** STARTED: the bundle's bytes; PROGRESS: received and total for the bundle, and for all downloads. */
    public final long received, total, allReceived, allTotal;
    /** INSTALLED: the result. */
    public final FetchResult result;

    private FetchEvent(Type type, String bundle, long download, long install, long available, List<PlannedDownload> downloads,
                       long received, long total, long allReceived, long allTotal, FetchResult result) {
        this.type = type;
        this.bundle = bundle;
        this.download = download;
        this.install = install;
        this.available = available;
        this.downloads = downloads == null ? List.of() : List.copyOf(downloads);
        this.received = received;
        this.total = total;
        this.allReceived = allReceived;
        this.allTotal = allTotal;
        this.result = result;
    }

    public static FetchEvent plan(long download, long install, long available, List<PlannedDownload> downloads) {
        return new FetchEvent(Type.PLAN, null, download, install, available, downloads, 0, 0, 0, 0, null);
    }

    public static FetchEvent started(String bundle, long bytes) {
        return new FetchEvent(Type.STARTED, bundle, 0, 0, 0, null, 0, bytes, 0, 0, null);
    }

    public static FetchEvent progress(String bundle, long received, long total, long allReceived, long allTotal) {
        return new FetchEvent(Type.PROGRESS, bundle, 0, 0, 0, null, received, total, allReceived, allTotal, null);
    }

    public static FetchEvent finished(String bundle) {
        return new FetchEvent(Type.FINISHED, bundle, 0, 0, 0, null, 0, 0, 0, 0, null);
    }

    public static FetchEvent installed(FetchResult result) {
        return new FetchEvent(Type.INSTALLED, null, 0, 0, 0, null, 0, 0, 0, 0, result);
    }

    /** The event as one line of JSON, in the form {@code livery fetch --progress json} writes. */
    public String json() {
        Map<String, Object> o = new TreeMap<>();
        o.put("event", type.name().toLowerCase(java.util.Locale.ROOT));
        switch (type) {
            case PLAN:
                o.put("download", download);
                o.put("install", install);
                if (available >= 0) o.put("available", available);
                List<Object> items = new ArrayList<>();
                for (PlannedDownload d : downloads) {
                    Map<String, Object> item = new TreeMap<>();
                    item.put("bundle", d.bundle);
                    item.put("bytes", d.bytes);
                    item.put("method", d.method);
                    item.put("size", d.archiveBytes);
                    items.add(item);
                }
                o.put("bundles", items);
                break;
            case STARTED:
                o.put("bundle", bundle);
                o.put("bytes", total);
                break;
            case PROGRESS:
                o.put("bundle", bundle);
                o.put("received", received);
                o.put("total", total);
                o.put("allReceived", allReceived);
                o.put("allTotal", allTotal);
                break;
            case FINISHED:
                o.put("bundle", bundle);
                break;
            case INSTALLED:
                o.put("release", result.release);
                o.put("path", result.installed.toString());
                o.put("downloaded", new ArrayList<>(result.downloaded));
                o.put("reused", new ArrayList<>(result.reused));
                o.put("offline", result.offline);
                o.put("staged", result.staged);
                if (result.problem != null) o.put("problem", result.problem);
                break;
        }
        return new String(Json.write(o), StandardCharsets.UTF_8).trim();
    }
}
