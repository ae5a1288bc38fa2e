package com.livery.client.extract;

import com.livery.client.LiveryException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The one way the client reads bundle archives, zip or tar.zst, told apart by their first bytes. Extraction
 * never trusts the archive, even a correctly signed one: only regular files and folders; relative,
 * normalised paths; files created new under folders the extractor made; and caps on entries, the bytes
 * actually decompressed and their ratio to the archive's size.
 */
public final class ArchiveExtractor {
    private ArchiveExtractor() {}

    /** Extracts {@code archive} into {@code destination} (created; must not hold anything yet); returns the files written. */
    public static List<String> extract(Path archive, Path destination, ExtractionLimits limits) throws LiveryException {
        String name = archive.getFileName().toString();
        byte[] magic = new byte[4];
        long size;
        try (InputStream in = Files.newInputStream(archive)) {
            int n = in.readNBytes(magic, 0, 4);
            if (n < 4) magic = Arrays.copyOf(magic, n);
            size = Files.size(archive);
            Files.createDirectories(destination);
        } catch (IOException e) {
            throw new LiveryException(LiveryException.Kind.STORAGE, "cannot read " + name + ": " + e.getMessage(), e);
        }
        ExtractionSink sink = new ExtractionSink(name, destination, limits, limits.budget(size));
        if (Arrays.equals(magic, new byte[] {0x50, 0x4B, 0x03, 0x04}) || Arrays.equals(magic, new byte[] {0x50, 0x4B, 0x05, 0x06})) {
            ZipExtraction.extract(archive, size, sink);
        } else if (Arrays.equals(magic, new byte[] {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD})) {
            TarZstdExtraction.extract(archive, sink);
        } else {
            throw new UnsafeArchive(name + " is neither a zip nor a tar.zst archive");
        }
        return sink.written();
    }

    public static List<String> extract(Path archive, Path destination) throws LiveryException {
        return extract(archive, destination, ExtractionLimits.standard());
    }
}
