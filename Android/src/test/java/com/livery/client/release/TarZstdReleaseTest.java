package com.livery.client.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.livery.client.FetchRequest;
import com.livery.client.FetchResult;
import com.livery.client.ReleaseInstaller;
import com.livery.client.extract.ArchiveExtractor;
import com.livery.client.http.HttpFetcher;
import com.livery.client.http.TransferPolicy;
import com.livery.client.install.RepositoryHttp;
import com.livery.client.install.TufRepository;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real tar.zst bundles: {@code livery build --archive-format tar.zst} (ustar with pax where a name needs it, zstd
 * level 19). Every public bundle extracts to what bsdtar extracts from it, and the Java client installs sonic-walkscape
 * with its voucher tour (encrypted tar.zst) into the tree {@code livery fetch} installs.
 */
class TarZstdReleaseTest {
    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/");

    @Test
    void tarZstReleaseInstallsTheTreeLiveryFetchInstalls(@TempDir Path work) throws Exception {
        Path livery = LiveryTool.livery();
        EndToEndTest.copyTree(LiveryTool.repo().resolve("Tenants/sonic-walkscape"), work.resolve("Tenants/sonic-walkscape"));
        LiveryTool.run(work, livery.toString(), "build", "--archive-format", "tar.zst");
        List<Path> bundles;
        try (Stream<Path> files = Files.list(work.resolve("Output/sonic-walkscape/targets"))) {
            bundles = files.filter(p -> p.getFileName().toString().endsWith(".tar.zst")).sorted().collect(Collectors.toList());
        }
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

        String code = LiveryTool.run(work, livery.toString(), "vouchers", "issue", "sonic-walkscape", "--tour", "rome-trastevere", "--devices", "2").trim();
        Path root = work.resolve("Output/sonic-walkscape/metadata/1.root.json");
        try (LiveryTool.Server server = LiveryTool.start(work, LISTENING, livery.toString(), "serve", "--port", "0", "--content-keys", ".livery-keys")) {
            HttpFetcher http = new HttpFetcher(TransferPolicy.STANDARD);
            FetchRequest request = new FetchRequest("sonic-walkscape", new RepositoryHttp(URI.create(server.url() + "/sonic-walkscape/"), http),
                    work.resolve("java-cache/sonic-walkscape"), TufRepository.opener(Clock.systemUTC()));
            request.bootstrapRoot = Files.readAllBytes(root);
            request.locale = "fr";
            request.tours = List.of("florence-renaissance", "rome-trastevere");
            request.vouchers = List.of(code);
            FetchResult result = ReleaseInstaller.fetch(request);
            assertFalse(result.offline, String.valueOf(result.problem));
            assertTrue(result.downloaded.contains("tour.rome-trastevere.fr"), result.downloaded.toString());
            LiveryTool.run(work, livery.toString(), "fetch", "sonic-walkscape", "--server", server.url(), "--cache", "swift-cache", "--locale", "fr",
                    "--tour", "florence-renaissance", "--tour", "rome-trastevere", "--root", root.toString(), "--voucher", code);
        }
        Map<String, String> java = LiveryTool.treeDigests(work.resolve("java-cache/sonic-walkscape/current"));
        assertTrue(java.size() > 20, "the installed tree holds " + java.size() + " files");
        assertEquals(LiveryTool.treeDigests(work.resolve("swift-cache/sonic-walkscape/current")), java);
    }
}
