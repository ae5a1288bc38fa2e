package com.livery.client.delta;

/** One file of a bundle's index: its path, digest and size once extracted, and where its data is in the archive. */
public final class FileIndexEntry {
    public final String path, sha256;
    public final long size, offset, length;
    /** "stored" or "deflate". */
    public final boolean deflated;

    public FileIndexEntry(String path, String sha256, long size, long offset, long length, boolean deflated) {
        this.path = path;
        this.sha256 = sha256;
        this.size = size;
        this.offset = offset;
        this.length = length;
        this.deflated = deflated;
    }

    /** The same entry with its offset counted from the archive's first byte. */
    FileIndexEntry absolute(long pageStart) {
        return new FileIndexEntry(path, sha256, size, offset + pageStart, length, deflated);
    }
}
