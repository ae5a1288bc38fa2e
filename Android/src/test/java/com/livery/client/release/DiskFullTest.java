package com.livery.client.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.livery.client.CacheFull;
import com.livery.client.FetchResult;
import com.livery.client.InsufficientSpace;
import com.livery.client.LiveryException;
import com.livery.client.ReleaseInstaller;
import com.livery.client.extract.ArchiveExtractor;
import com.livery.client.testsupport.LiveryTool;
import com.livery.client.testsupport.SampleRelease;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk at any point of an update, as LiveryClient's DiskSpaceTests: the cache lives on a 2 MiB tmpfs, release 1
 * is installed, release 2 changes a French string, and a filler file leaves 0, 4, 8, … KiB free before each attempt.
 * Each attempt is refused by the space estimate ({@link InsufficientSpace}), fails part-way with {@link CacheFull}
 * (never an offline keep), or installs; whenever it does not install, release 1 is byte-identical and still current.
 */
class DiskFullTest {

    @Test
    void aFullDiskAtAnyPointOfAnUpdateIsCacheFullAndLeavesReleaseOneAsItWas(@TempDir Path work) throws Exception {
        SampleRelease sample = SampleRelease.copied(work);
        sample.livery("build");
        Path small = work.resolve("small");
        Files.createDirectories(small);
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", small.toString()).redirectErrorStream(true).start();
        String said = new String(mount.getInputStream().readAllBytes());
        boolean root = "0".equals(LiveryTool.run(work, "id", "-u").trim());
        Assumptions.assumeTrue(root, "mounting a small tmpfs needs root");
        assertEquals(0, mount.waitFor(), "mount a 2 MiB tmpfs: " + said);
        try (LiveryTool.Server server = sample.serve()) {
            Path cache = small.resolve("cache/sonic-walkscape");
            Path root1 = sample.root();
            FetchResult first = fetch(server.url(), cache, root1);
            assertEquals(1, first.release);
            Path pristine = work.resolve("pristine");
            LiveryTool.run(work, "cp", "-a", small.resolve("cache").toString(), pristine.toString());
            Path link = Files.readSymbolicLink(cache.resolve("current"));
            Map<String, String> release1 = LiveryTool.treeDigests(cache.resolve("current"));

            Path strings = work.resolve("Tenants/sonic-walkscape/locales/fr.yaml");
            Files.writeString(strings, Files.readString(strings).replace("map: Carte", "map: Plan"));
            // And the voice rules (in core): the update then needs more room than a page or two of the disk (core's whole
            // install size, by the estimate). With the string alone, a locale bundle of a few kilobytes, no free space lies
            // between "the metadata fits" and "everything fits" for the estimate to refuse.
            Path voice = work.resolve("Tenants/sonic-walkscape/voice.yaml");
            String rules = Files.readString(voice);
            assertTrue(rules.contains("  maxWords: 3\n"), rules);
            Files.writeString(voice, rules.replace("  maxWords: 3\n", "  maxWords: 4\n"));
            sample.livery("build");

            Path filler = small.resolve("filler");
            List<String> outcomes = new ArrayList<>();
            int successes = 0;
            for (int kib = 0; kib <= 600 && successes < 2; kib += 4) {
                LiveryTool.run(work, "rm", "-rf", small.resolve("cache").toString(), filler.toString());
                LiveryTool.run(work, "cp", "-a", pristine.toString(), small.resolve("cache").toString());
                long free = Files.getFileStore(small).getUsableSpace();
                if (free > kib * 1024L) Files.write(filler, new byte[(int) (free - kib * 1024L)]);
                try {
                    FetchResult result = fetch(server.url(), cache, root1);
                    assertFalse(result.offline, kib + " KiB free: a full disk is not an offline case: " + result.problem);
                    assertEquals(2, result.release, kib + " KiB free");
                    assertTrue(Files.exists(cache.resolve("current/.complete")));
                    successes++;
                    outcomes.add(kib + " KiB: installed");
                    continue;
                } catch (InsufficientSpace e) {
                    outcomes.add(kib + " KiB: refused by the estimate");
                    assertTrue(e.getMessage().endsWith("free some space; release 1 stays installed"), e.getMessage());
                } catch (CacheFull e) {
                    outcomes.add(kib + " KiB: failed part-way");
                    assertTrue(e.getMessage().startsWith("sonic-walkscape: the disk of " + cache + " is full ("), e.getMessage());
                    assertTrue(e.getMessage().endsWith(": free some space; release 1 stays installed"), e.getMessage());
                    assertTrue(e.writing.contains("No space left on device"), e.writing);
                    assertEquals(1, e.kept);
                    assertTrue(e.available >= 0 && e.available < 64 << 10, "free after the failure: " + e.available);
                } catch (Exception e) {
                    fail(kib + " KiB free: neither InsufficientSpace nor CacheFull: " + e, e);
                }
                // Release 1 exactly as it was: still current, the same files, the same selection, nothing staged left.
                assertEquals(link, Files.readSymbolicLink(cache.resolve("current")), kib + " KiB free");
                assertEquals(release1, LiveryTool.treeDigests(cache.resolve("current")), kib + " KiB free: release 1 byte-identical");
                assertEquals(SampleRelease.names(pristine.resolve("sonic-walkscape/releases")), SampleRelease.names(cache.resolve("releases")), kib + " KiB free");
                assertEquals(Files.exists(pristine.resolve("sonic-walkscape/selection.json")), Files.exists(cache.resolve("selection.json")));
            }
            assertEquals(2, successes, "the update fits in the end: " + outcomes);
            assertTrue(outcomes.stream().anyMatch(o -> o.endsWith("refused by the estimate")), outcomes.toString());
            assertTrue(outcomes.stream().anyMatch(o -> o.endsWith("failed part-way")), outcomes.toString());
            System.out.println("disk-full sweep: " + String.join(", ", outcomes));

            // Extraction onto the full disk: a storage failure naming the file, never taken for a bad archive (zip and tar.zst).
            LiveryTool.run(work, "bsdtar", "--zstd", "-cf", "assets.tar.zst", "-C", "Tenants/sonic-walkscape", "assets");
            Path zip = sample.targets(".core.zip").get(0);
            for (Path archive : List.of(zip, work.resolve("assets.tar.zst"))) {
                Files.deleteIfExists(filler);
                Files.write(filler, new byte[(int) Files.getFileStore(small).getUsableSpace()]);
                LiveryException e = assertThrows(LiveryException.class, () -> ArchiveExtractor.extract(archive, small.resolve("x-" + archive.getFileName())));
                assertEquals(LiveryException.Kind.STORAGE, e.kind(), e.getMessage());
                assertTrue(CacheFull.isOutOfSpace(e) && e.getMessage().contains("cannot write '"), e.getMessage());
            }
        } finally {
            LiveryTool.run(work, "umount", small.toString());
        }
    }


    private static FetchResult fetch(String server, Path cache, Path root) throws Exception {
        return ReleaseInstaller.fetch(SampleRelease.request(server, cache, root));
    }
}
