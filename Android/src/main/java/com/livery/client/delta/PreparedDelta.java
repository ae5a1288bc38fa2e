package com.livery.client.delta;

import java.util.List;

/** A delta of one bundle, worked out before any file is downloaded: the verified new index and the archive ranges to fetch. */
public final class PreparedDelta {
    public final String id;
    public final FileIndex index;
    /** The new index object (table and pages), kept in the installed release for the next delta. */
    public final byte[] object;
    public final List<Span<FileIndexEntry>> spans;
    /** Bytes received for the table and pages. */
    public final long indexBytes;

    PreparedDelta(String id, FileIndex index, byte[] object, List<Span<FileIndexEntry>> spans, long indexBytes) {
        this.id = id;
        this.index = index;
        this.object = object;
        this.spans = spans;
        this.indexBytes = indexBytes;
    }

    /** Bytes the file ranges will bring. */
    public long rangeBytes() {
        long total = 0;
        for (Span<FileIndexEntry> s : spans) total += s.length();
        return total;
    }
}
