package com.livery.client.install;

/** A bundle a fetch downloads, as its plan says: whole or by delta, the bytes it brings, and its archive's size. */
public final class PlannedDownload {
    public final String bundle;
    /** "full" or "delta". */
    public final String method;
    public final long bytes, archiveBytes;

    public PlannedDownload(String bundle, String method, long bytes, long archiveBytes) {
        this.bundle = bundle;
        this.method = method;
        this.bytes = bytes;
        this.archiveBytes = archiveBytes;
    }
}
