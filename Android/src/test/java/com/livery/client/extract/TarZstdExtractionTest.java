package com.livery.client.extract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tar.zst archives made by Debian's bsdtar (libarchive, the library LiveryClient reads them with on Linux) and zstd,
 * hostile ones included: each is refused as its zip counterpart is ({@link ArchiveExtractorTest}), and nothing is
 * written outside the destination. bsdtar writes what a careful tool would refuse through an mtree description
 * ({@code @spec}: links and devices that need not exist) and {@code -P} (absolute and {@code ..} names).
 */
class TarZstdExtractionTest {
    @TempDir Path dir;

    /** Runs a tool in {@code dir}, failing on a non-zero exit. */
    private void tool(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) throw new IOException(String.join(" ", command) + " failed: " + out);
    }

    /** A tar.zst archive named {@code name} from an mtree description (bsdtar's {@code @spec} input), {@code -P}: names kept as written. */
    private Path fromSpec(String name, String... lines) throws Exception {
        Path spec = dir.resolve(name + ".mtree");
        Files.writeString(spec, "#mtree\n" + String.join("\n", lines) + "\n");
        tool("bsdtar", "--zstd", "-P", "-cf", name, "@" + spec.getFileName());
        return dir.resolve(name);
    }

    /** The refusal of extracting {@code archive} into {@link #out}({@code archive}). */
    private UnsafeArchive refused(Path archive, ExtractionLimits limits) {
        return assertThrows(UnsafeArchive.class, () -> ArchiveExtractor.extract(archive, out(archive), limits));
    }

    /** Where {@code archive} is extracted to: a folder of its own. */
    private Path out(Path archive) {
        return dir.resolve("out-" + archive.getFileName());
    }

    private UnsafeArchive refused(Path archive) {
        return refused(archive, ExtractionLimits.standard());
    }

    private static void assertSays(UnsafeArchive e, String words) {
        assertTrue(e.getMessage().contains(words), e.getMessage());
    }

    @Test
    void extractsWhatBsdtarExtractsFromTheSameArchive() throws Exception {
        Path tree = dir.resolve("tree");
        Files.createDirectories(tree.resolve("tours/florence/audio/fr"));
        Files.writeString(tree.resolve("tenant.json"), "{\"id\": \"x\"}");
        Files.write(tree.resolve("tours/florence/audio/fr/01.mp3"), new byte[300_000]);
        // A name longer than ustar's 100 + 155 bytes: bsdtar writes it in a pax header.
        String longName = "a".repeat(120) + "/" + "b".repeat(150) + "/" + "c".repeat(80) + ".json";
        Files.createDirectories(tree.resolve(longName).getParent());
        Files.writeString(tree.resolve(longName), "long");
        Files.createDirectories(tree.resolve("empty"));
        tool("bsdtar", "--zstd", "-cf", "bundle.tar.zst", "-C", "tree", "tenant.json", "tours", "empty", "a" + "a".repeat(119));
        ArchiveExtractor.extract(dir.resolve("bundle.tar.zst"), dir.resolve("java"));
        Files.createDirectories(dir.resolve("bsdtar"));
        tool("bsdtar", "-xf", "bundle.tar.zst", "-C", "bsdtar");
        assertEquals(listing(dir.resolve("bsdtar")), listing(dir.resolve("java")));
        assertEquals("long", Files.readString(dir.resolve("java").resolve(longName)));
        assertTrue(Files.isDirectory(dir.resolve("java/empty")));
    }

    @Test
    void readsGnuLongNamesAsLibarchiveDoesAndRefusesGnuLongLinks() throws Exception {
        String longName = "d".repeat(90) + "/" + "e".repeat(90) + ".txt";
        Files.createDirectories(dir.resolve("g").resolve(longName).getParent());
        Files.writeString(dir.resolve("g").resolve(longName), "gnu");
        tool("bsdtar", "--zstd", "--format", "gnutar", "-cf", "gnu.tar.zst", "-C", "g", "d".repeat(90));
        ArchiveExtractor.extract(dir.resolve("gnu.tar.zst"), dir.resolve("gnu"));
        assertEquals("gnu", Files.readString(dir.resolve("gnu").resolve(longName)));
        // A symbolic link whose target is longer than 100 bytes: GNU writes it in a 'K' entry first.
        Path archive = dir.resolve("gnulink.tar.zst");
        Files.writeString(dir.resolve("gnulink.mtree"), "#mtree\nlink type=link link=/" + "x".repeat(150) + "\n");
        tool("bsdtar", "--zstd", "--format", "gnutar", "-cf", archive.getFileName().toString(), "@gnulink.mtree");
        assertSays(refused(archive), "link");
    }

    /** Every file and folder under {@code root}, with each file's bytes (as text of their hash code and size). */
    static List<String> listing(Path root) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                String name = root.relativize(p).toString();
                out.add(Files.isDirectory(p) ? name + "/" : name + " " + Files.size(p) + " " + Arrays.hashCode(Files.readAllBytes(p)));
            }
        }
        out.sort(null);
        return out;
    }

    @Test
    void refusesAnEntryThatClimbsOutAndWritesNothingOutside() throws Exception {
        Files.writeString(dir.resolve("x"), "hello");
        Path archive = fromSpec("slip.tar.zst", "ok.txt type=file mode=0644 contents=x", "../evil type=file mode=0644 contents=x");
        assertSays(refused(archive), "climbs out");
        assertFalse(Files.exists(dir.resolve("evil")));
    }

    @Test
    void refusesAnAbsolutePath() throws Exception {
        Files.writeString(dir.resolve("x"), "hello");
        Path absolute = dir.resolve("x").toAbsolutePath();
        tool("bsdtar", "--zstd", "-P", "-cf", "abs.tar.zst", absolute.toString());
        assertSays(refused(dir.resolve("abs.tar.zst")), "absolute or unsafe path");
    }

    @Test
    void refusesSymbolicAndHardLinks() throws Exception {
        assertSays(refused(fromSpec("symlink.tar.zst", "link type=link link=/etc/passwd")), "'link' is not a regular file");
        // A hard link is written by bsdtar for a second name of the same inode.
        Files.createDirectories(dir.resolve("h"));
        Files.writeString(dir.resolve("h/f"), "data");
        Files.createLink(dir.resolve("h/g"), dir.resolve("h/f"));
        tool("bsdtar", "--zstd", "-cf", "hard.tar.zst", "-C", "h", "f", "g");
        assertSays(refused(dir.resolve("hard.tar.zst")), "'g' is not a regular file");
        assertFalse(Files.exists(out(dir.resolve("hard.tar.zst")).resolve("g")));
    }

    @Test
    void refusesDevicesAndFifos() throws Exception {
        assertSays(refused(fromSpec("char.tar.zst", "null type=char mode=0666 device=native,1,3")), "'null' is not a regular file");
        assertSays(refused(fromSpec("block.tar.zst", "loop type=block mode=0660 device=native,7,0")), "'loop' is not a regular file");
        assertSays(refused(fromSpec("fifo.tar.zst", "pipe type=fifo mode=0644")), "'pipe' is not a regular file");
    }

    @Test
    void refusesANameThatAppearsTwice() throws Exception {
        Files.writeString(dir.resolve("a.txt"), "first");
        tool("bsdtar", "-cf", "dup.tar", "a.txt");
        Files.writeString(dir.resolve("a.txt"), "second");
        tool("bsdtar", "-rf", "dup.tar", "a.txt");
        tool("zstd", "-q", "dup.tar", "-o", "dup.tar.zst");
        assertSays(refused(dir.resolve("dup.tar.zst")), "duplicate entry");
        assertEquals("first", Files.readString(out(dir.resolve("dup.tar.zst")).resolve("a.txt")), "the first copy is never replaced");
    }

    @Test
    void stopsACompressionBombPartWayAndCapsEntries() throws Exception {
        // 64 MiB of zeros compress to a few KiB: far past 100 times the archive plus 1 MiB.
        Files.write(dir.resolve("zeros"), new byte[64 << 20]);
        tool("bsdtar", "--zstd", "-cf", "bomb.tar.zst", "zeros");
        assertTrue(Files.size(dir.resolve("bomb.tar.zst")) < 64 << 10);
        assertSays(refused(dir.resolve("bomb.tar.zst")), "compression bomb");
        assertTrue(Files.size(out(dir.resolve("bomb.tar.zst")).resolve("zeros")) <= (1 << 20) + 100L * Files.size(dir.resolve("bomb.tar.zst")));

        for (String n : List.of("1", "2", "3")) Files.writeString(dir.resolve("f" + n), n);
        tool("bsdtar", "--zstd", "-cf", "three.tar.zst", "f1", "f2", "f3");
        assertSays(refused(dir.resolve("three.tar.zst"), new ExtractionLimits(2, 1 << 20, 100)), "more than 2 entries");
        assertFalse(Files.exists(out(dir.resolve("three.tar.zst")).resolve("f3")));
    }

    @Test
    void refusesTruncatedAndDamagedStreams() throws Exception {
        byte[] random = new byte[200_000];
        new java.util.Random(7).nextBytes(random);
        Files.write(dir.resolve("noise.bin"), random);
        tool("bsdtar", "--zstd", "-cf", "whole.tar.zst", "noise.bin");
        byte[] whole = Files.readAllBytes(dir.resolve("whole.tar.zst"));
        ArchiveExtractor.extract(dir.resolve("whole.tar.zst"), dir.resolve("fine"));

        // Cut inside the zstd stream: the entry's data ends early.
        Files.write(dir.resolve("cut.tar.zst"), Arrays.copyOf(whole, whole.length / 2));
        assertSays(refused(dir.resolve("cut.tar.zst")), "corrupt archive: Truncated source");
        // A complete zstd stream of a tar without its end blocks (cut after the entry).
        tool("bsdtar", "-cf", "plain.tar", "noise.bin");
        byte[] tar = Files.readAllBytes(dir.resolve("plain.tar"));
        Files.write(dir.resolve("open.tar"), Arrays.copyOf(tar, 512 + 200_000 + (512 - 200_000 % 512) % 512));
        tool("zstd", "-q", "open.tar", "-o", "open.tar.zst");
        assertSays(refused(dir.resolve("open.tar.zst")), "ends without its end blocks");
        // One byte changed in the middle of a stream with a content checksum (zstd's default): the frame does not check.
        tool("zstd", "-q", "plain.tar", "-o", "checked.tar.zst");
        byte[] damaged = Files.readAllBytes(dir.resolve("checked.tar.zst"));
        damaged[damaged.length / 2] ^= 0x55;
        Files.write(dir.resolve("damaged.tar.zst"), damaged);
        assertSays(refused(dir.resolve("damaged.tar.zst")), "corrupt archive: Restored data doesn't match checksum");
    }
}
