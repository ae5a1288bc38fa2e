package com.livery.client;

import java.util.Locale;

/**
 * A size as people read it, in decimal units as disks and downloads are sold, as LiveryClient's {@code ByteCount}
 * writes it: {@code 812 bytes}, {@code 52.3 KB}, {@code 1.2 MB}, {@code 3.4 GB}. The unit follows the size, so 52 KB
 * never reads {@code 0.1 MB}, nor a few hundred bytes {@code 0.0 MB}.
 */
final class ByteCount {
    private ByteCount() {}

    static String text(long bytes) {
        if (bytes < 1000) return bytes == 1 ? "1 byte" : bytes + " bytes";
        if (bytes < 1_000_000) return String.format(Locale.ROOT, "%.1f KB", bytes / 1e3);
        if (bytes < 1_000_000_000) return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
        return String.format(Locale.ROOT, "%.1f GB", bytes / 1e9);
    }
}
