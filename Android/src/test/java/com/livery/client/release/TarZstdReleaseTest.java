package com.livery.client.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.livery.client.FetchRequest;
import com.livery.client.FetchResult;
import com.livery.client.ReleaseInstaller;
import com.livery.client.extract.ArchiveExtractor;
import com.livery.client.testsupport.LiveryTool;
import com.livery.client.testsupport.SampleRelease;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real tar.zst bundles: {@code livery build --archive-format tar.zst} (ustar with pax where a name needs it, zstd
 * level 19). Every public bundle extracts to what bsdtar extracts from it, and the Java client installs sonic-walkscape
 * with its voucher tour (encrypted tar.zst) into the tree {@code livery fetch} installs.
 */
class TarZstdReleaseTest {

    @Test
    void tarZstReleaseInstallsTheTreeLiveryFetchInstalls(@TempDir Path work) throws Exception {
        SampleRelease sample = SampleRelease.copied(work);
        sample.livery("build", "--archive-format", "tar.zst");
        List<Path> bundles = sample.targets(".tar.zst");
        int publicBundles = 0;
        for (Path bundle : bundles) {
            // Protected bundles are ciphertext (they start with Livery's own header, not zstd's magic number).
            byte[] head = new byte[4];
            try (var in = Files.newInputStream(bundle)) {
                in.readNBytes(head, 0, 4);
            }
            if (!(head[0] == 0x28 && head[1] == (byte) 0xB5 && head[2] == 0x2F && head[3] == (byte) 0xFD)) continue;
            publicBundles++;
            Path java = work.resolve("x-java/" + bundle.getFileName()), bsdtar = work.resolve("x-bsdtar/" + bundle.getFileName());
            ArchiveExtractor.extract(bundle, java);
            Files.createDirectories(bsdtar);
            LiveryTool.run(work, "bsdtar", "-xf", bundle.toString(), "-C", bsdtar.toString());
            assertEquals(LiveryTool.treeDigests(bsdtar), LiveryTool.treeDigests(java), bundle.getFileName().toString());
        }
        assertTrue(publicBundles >= 8, publicBundles + " public tar.zst bundles");

        String code = sample.livery("vouchers", "issue", "sonic-walkscape", "--tour", "rome-trastevere", "--devices", "2").trim();
        Path root = sample.root();
        try (LiveryTool.Server server = sample.serve("--content-keys", ".livery-keys")) {
            FetchRequest request = SampleRelease.request(server.url(), sample.javaCache(), root);
            request.tours = List.of("florence-renaissance", "rome-trastevere");
            request.vouchers = List.of(code);
            FetchResult result = ReleaseInstaller.fetch(request);
            assertFalse(result.offline, String.valueOf(result.problem));
            assertTrue(result.downloaded.contains("tour.rome-trastevere.fr"), result.downloaded.toString());
            sample.liveryFetch(server.url(), "--locale", "fr", "--tour", "florence-renaissance", "--tour", "rome-trastevere", "--root", root.toString(), "--voucher", code);
        }
        sample.assertSameInstalledTrees();
    }
}
