package com.livery.client.extract;

/** Caps of one extraction: entries, bytes actually decompressed, and their ratio to the archive's size (as LiveryClient's). */
public final class ExtractionLimits {
    public final int maxEntries;
    public final long maxBytes;
    /** Bytes extracted may be at most this many times the archive's size, plus 1 MiB. */
    public final long maxRatio;

    public ExtractionLimits(int maxEntries, long maxBytes, long maxRatio) {
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
        this.maxRatio = maxRatio;
    }

    /** 100,000 entries, 8 GiB, 100 times the archive. */
    public static ExtractionLimits standard() {
        return new ExtractionLimits(100_000, 8L << 30, 100);
    }

    /** The byte budget for an archive of {@code archiveSize} bytes. */
    public long budget(long archiveSize) {
        return Math.min(maxBytes, archiveSize * maxRatio + (1 << 20));
    }
}
