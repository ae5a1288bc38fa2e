package com.livery.client.delta;

import com.livery.client.LiveryException;
import com.livery.client.digest.Sha256;
import com.livery.client.json.JsonException;
import com.livery.client.json.JsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The first line of a bundle's index object: the archive it describes and its pages (docs/deltas.md, "The table"). */
public final class FileIndexTable {
    /** One page as the table describes it. */
    public static final class Page {
        public final String sha256;
        public final long length, start;
        public final int count;

        Page(String sha256, long length, long start, int count) {
            this.sha256 = sha256;
            this.length = length;
            this.start = start;
            this.count = count;
        }
    }

    public static final long MAX_BYTES = 1L << 40;
    public static final long MAX_PAGE_BYTES = 4L << 20;
    public static final int MAX_ENTRIES = 100_000;
    public final String bundle, archiveSha256;
    public final long archiveSize;
    public final List<Page> pages;

    private FileIndexTable(String bundle, String archiveSha256, long archiveSize, List<Page> pages) {
        this.bundle = bundle;
        this.archiveSha256 = archiveSha256;
        this.archiveSize = archiveSize;
        this.pages = pages;
    }

    /** Reads a table strictly: unknown fields, another schemaVersion, pages out of archive order or past the caps are refused. */
    public static FileIndexTable parse(byte[] data, String what) throws LiveryException {
        try {
            return read(data, what);
        } catch (JsonException e) {
            throw LiveryException.malformed(e);
        }
    }

    private static FileIndexTable read(byte[] data, String what) throws JsonException {
        JsonObject o = JsonObject.parse(data, what);
        o.onlyKeys("schemaVersion", "bundle", "archive", "pages");
        if (o.integer("schemaVersion") != 1) throw new JsonException(what + ": schemaVersion is not 1 (a newer client is needed)");
        JsonObject archive = o.object("archive");
        String archiveSha = archive.string("sha256");
        if (!Sha256.isDigest(archiveSha)) throw new JsonException(what + ": archive.sha256 is malformed");
        List<?> items = o.list("pages");
        List<Page> pages = new ArrayList<>();
        long entries = 0;
        for (int i = 0; i < items.size(); i++) {
            JsonObject p = JsonObject.of(items.get(i), what + " page " + (i + 1));
            Page page = new Page(p.string("sha256"), p.integer("length", 1), p.integer("start"), (int) Math.min(Integer.MAX_VALUE, p.integer("count", 1)));
            if (!Sha256.isDigest(page.sha256)) throw new JsonException(what + " page " + (i + 1) + ": sha256 is malformed");
            if (page.start > MAX_BYTES) throw new JsonException(what + " page " + (i + 1) + " starts beyond " + MAX_BYTES);
            if (page.length > MAX_PAGE_BYTES) throw new JsonException(what + " page " + (i + 1) + " is " + page.length + " bytes (at most " + MAX_PAGE_BYTES + ")");
            if (!pages.isEmpty() && page.start <= pages.get(pages.size() - 1).start) throw new JsonException(what + ": pages are not in archive order");
            entries += page.count;
            if (entries > MAX_ENTRIES) throw new JsonException(what + " lists more than " + MAX_ENTRIES + " files");
            pages.add(page);
        }
        long size = archive.integer("size");
        if (size > MAX_BYTES) throw new JsonException(what + ": archive.size is above " + MAX_BYTES);
        return new FileIndexTable(o.string("bundle"), archiveSha, size, Collections.unmodifiableList(pages));
    }

    /** Where page {@code index} is in the index object: after the table ({@code tableSize} bytes) and the pages before it. */
    public long pageStart(int index, long tableSize) {
        long start = tableSize;
        for (int i = 0; i < index; i++) start += pages.get(i).length;
        return start;
    }

    /** The whole object's length: the table and every page. */
    public long objectLength(long tableSize) {
        return pageStart(pages.size(), tableSize);
    }
}
