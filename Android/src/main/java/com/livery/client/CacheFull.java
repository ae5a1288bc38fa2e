package com.livery.client;

import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The cache's disk filled up during a fetch, after the space check passed (another writer took the room, or the file
 * system's overhead was more than the estimate), as LiveryClient's {@code CacheFull}. The fetch changed nothing the app
 * can see: the installed release stays as it was. Not an offline case: the app must hear that its update failed.
 */
public final class CacheFull extends LiveryException {
    private static final long serialVersionUID = 1L;
    /** What the operating system says for ENOSPC and EDQUOT (Linux and Android's bionic alike). */
    private static final String[] OUT_OF_SPACE = {"No space left on device", "Disk quota exceeded"};

    public final String tenant, cache;
    /** Free bytes after the failure, or -1 when unknown. */
    public final long available;
    /** What the fetch's plan needed (to download plus to install), or -1 when it failed before its plan (the metadata refresh). */
    public final long needed;
    /** What was being written, in the words of the error that stopped it ({@code writing <file>: No space left on device}). */
    public final String writing;
    /** The release that stays installed, or -1 for none. */
    public final long kept;

    CacheFull(String tenant, Path cache, long available, long needed, String writing, long kept, Throwable cause) {
        super(Kind.STORAGE, String.format(Locale.ROOT, "%s: the disk of %s is full (%s free): %s: free some space%s", tenant, cache,
                available < 0 ? "?" : ByteCount.text(available), writing,
                kept >= 0 ? "; release " + kept + " stays installed" : "; nothing was installed"), cause);
        this.tenant = tenant;
        this.cache = cache.toString();
        this.available = available;
        this.needed = needed;
        this.writing = writing;
        this.kept = kept;
    }

    /** Whether {@code error} (or a cause of it) is a write that found no room or no quota; a CacheFull or InsufficientSpace is not. */
    public static boolean isOutOfSpace(Throwable error) {
        if (error instanceof CacheFull || error instanceof InsufficientSpace) return false;
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (reason(t) != null) return true;
            if (t.getCause() == t) break;
        }
        return false;
    }

    /** The operating system's words for the failure in {@code t}'s own message, or null. */
    private static String reason(Throwable t) {
        String text = t instanceof FileSystemException ? ((FileSystemException) t).getReason() : t.getMessage();
        if (text == null && t instanceof FileSystemException) text = t.getMessage();
        if (text == null) return null;
        for (String words : OUT_OF_SPACE) if (text.contains(words)) return words;
        return null;
    }

    /**
     * What {@code error} was writing, in words: {@code writing <file relative to the cache>: <reason>} when a file is
     * named in its causes, else its own message.
     */
    static String writing(Throwable error, Path cache) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof FileSystemException && ((FileSystemException) t).getFile() != null && reason(t) != null) {
                Path file = Path.of(((FileSystemException) t).getFile());
                Path root = cache.toAbsolutePath().normalize();
                Path absolute = file.toAbsolutePath().normalize();
                return "writing " + (absolute.startsWith(root) ? root.relativize(absolute) : absolute) + ": " + reason(t);
            }
            if (t.getCause() == t) break;
        }
        return ReleaseInstaller.message(error);
    }
}
