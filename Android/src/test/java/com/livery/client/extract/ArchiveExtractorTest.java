package com.livery.client.extract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The extractor's refusals, each with a small zip made here (byte-patched where ZipOutputStream will not write the hostile thing). */
class ArchiveExtractorTest {
    @TempDir Path dir;

    private Path zip(String name, byte[]... entries) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream out = new ZipOutputStream(bytes)) {
            for (int i = 0; i < entries.length; i += 2) {
                out.putNextEntry(new ZipEntry(new String(entries[i])));
                out.write(entries[i + 1]);
                out.closeEntry();
            }
        }
        Path file = dir.resolve(name);
        Files.write(file, bytes.toByteArray());
        return file;
    }

    @Test
    void extractsRegularFilesAndFolders() throws Exception {
        Path archive = zip("ok.zip", "a/b.txt".getBytes(), "hello".getBytes(), "c.txt".getBytes(), new byte[1000]);
        List<String> written = ArchiveExtractor.extract(archive, dir.resolve("out"));
        assertEquals(List.of("a/b.txt", "c.txt"), written);
        assertEquals("hello", Files.readString(dir.resolve("out/a/b.txt")));
    }

    @Test
    void refusesZipSlipAndWritesNothingOutside() throws Exception {
        Path archive = zip("slip.zip", "../evil".getBytes(), "x".getBytes());
        UnsafeArchive e = assertThrows(UnsafeArchive.class, () -> ArchiveExtractor.extract(archive, dir.resolve("out")));
        assertTrue(e.getMessage().contains("climbs out"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("evil")));
    }

    @Test
    void refusesAbsolutePathsAndBackslashes() throws Exception {
        assertThrows(UnsafeArchive.class, () -> ArchiveExtractor.extract(zip("abs.zip", "/etc/x".getBytes(), "x".getBytes()), dir.resolve("o1")));
        assertThrows(UnsafeArchive.class, () -> ArchiveExtractor.extract(zip("bs.zip", "a\\b".getBytes(), "x".getBytes()), dir.resolve("o2")));
    }

    @Test
    void refusesDuplicateEntries() throws Exception {
        // ZipOutputStream refuses duplicates, so the second name is patched in: "b.txt" becomes "a.txt".
        Path archive = zip("dup.zip", "a.txt".getBytes(), "1".getBytes(), "b.txt".getBytes(), "2".getBytes());
        byte[] bytes = Files.readAllBytes(archive);
        String text = new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1).replace("b.txt", "a.txt");
        Files.write(archive, text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        UnsafeArchive e = assertThrows(UnsafeArchive.class, () -> ArchiveExtractor.extract(archive, dir.resolve("out")));
        assertTrue(e.getMessage().contains("duplicate"), e.getMessage());
    }

    @Test
    void refusesSymbolicLinks() throws Exception {
        Path archive = zip("link.zip", "link".getBytes(), "/etc/passwd".getBytes());
        byte[] bytes = Files.readAllBytes(archive);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (int at = bytes.length - 22; at >= 0; at--) {
            if (b.getInt(at) == 0x02014B50) {
                b.putShort(at + 4, (short) (3 << 8 | 20));        // made by Unix
                b.putInt(at + 38, 0120777 << 16);                  // S_IFLNK
                break;
            }
        }
        Files.write(archive, bytes);
        UnsafeArchive e = assertThrows(UnsafeArchive.class, () -> ArchiveExtractor.extract(archive, dir.resolve("out")));
        assertTrue(e.getMessage().contains("not a regular file"), e.getMessage());
    }

    @Test
    void stopsACompressionBombPartWay() throws Exception {
        Path archive = zip("bomb.zip", "zeros".getBytes(), new byte[4 << 20]);
        ExtractionLimits tight = new ExtractionLimits(100, 1 << 20, 100);
        UnsafeArchive e = assertThrows(UnsafeArchive.class, () -> ArchiveExtractor.extract(archive, dir.resolve("out"), tight));
        assertTrue(e.getMessage().contains("compression bomb"), e.getMessage());
        assertTrue(Files.size(dir.resolve("out/zeros")) <= 1 << 20);
    }

    @Test
    void refusesTooManyEntriesFromTheEndRecord() throws Exception {
        Path archive = zip("many.zip", "a".getBytes(), "1".getBytes(), "b".getBytes(), "2".getBytes(), "c".getBytes(), "3".getBytes());
        assertThrows(UnsafeArchive.class, () -> ArchiveExtractor.extract(archive, dir.resolve("out"), new ExtractionLimits(2, 1 << 20, 100)));
        assertFalse(Files.exists(dir.resolve("out/a")));
    }

    @Test
    void refusesWhatIsNeitherZipNorTarZst() throws Exception {
        Path file = dir.resolve("junk");
        Files.write(file, "not an archive".getBytes());
        assertThrows(UnsafeArchive.class, () -> ArchiveExtractor.extract(file, dir.resolve("out")));
    }
}
