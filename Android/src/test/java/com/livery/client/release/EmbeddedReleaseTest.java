package com.livery.client.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.livery.client.FetchRequest;
import com.livery.client.FetchResult;
import com.livery.client.LiveryException;
import com.livery.client.ReleaseInstaller;
import com.livery.client.testsupport.LiveryTool;
import com.livery.client.testsupport.SampleRelease;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A release shipped inside the app ({@code livery embed}): a first launch with no network installs it, as {@code
 * livery fetch --embedded} does, into the same tree; the first update online is a delta from it; a tampered embedded
 * release is refused, and the fetch says both failures when the network fails too.
 */
class EmbeddedReleaseTest {
    private static final String NOWHERE = "http://127.0.0.1:1";

    @Test
    void aFirstLaunchOfflineInstallsTheEmbeddedReleaseAndUpdatesFromItByDelta(@TempDir Path work) throws Exception {
        SampleRelease sample = SampleRelease.copied(work);
        sample.livery("build");
        sample.livery("embed", "sonic-walkscape", "--locale", "fr", "--tour", "florence-renaissance", "-o", "embedded");
        Path embedded = work.resolve("embedded");
        Path root = embedded.resolve("metadata/1.root.json");

        // No network at all: the embedded release is installed, and kept for offline use.
        Path java = sample.javaCache();
        FetchResult first = fetch(NOWHERE, java, root, embedded);
        assertTrue(first.offline, "the server cannot be reached");
        assertEquals(1, first.release);
        assertTrue(first.problem.startsWith("refresh failed: "), first.problem);
        assertTrue(Files.exists(java.resolve("current/bundles/tour.florence-renaissance.fr/tours/florence-renaissance/audio/fr/01-duomo.mp3")));
        // livery fetch takes 20 s to give up on a refused connection (its connection pool retries until the response
        // deadline), so its offline first launch is against a server that has no release at all.
        Files.createDirectories(work.resolve("empty/.livery"));
        try (LiveryTool.Server nothing = sample.serve("--output", "empty")) {
            liveryFetch(sample, nothing.url(), "--embedded", embedded.toString(), "--root", root.toString());
        }
        assertSameInstalledTrees(sample);

        // Online, release 2 changed one French audio file: the update is a delta from the embedded release.
        sample.changeFrenchAudio("it");
        sample.livery("build");
        try (LiveryTool.Server server = sample.serve()) {
            FetchResult second = fetch(server.url(), java, root, embedded);
            assertFalse(second.offline, String.valueOf(second.problem));
            assertEquals(2, second.release);
            assertEquals(List.of("tour.florence-renaissance.fr"), second.downloaded);
            assertEquals(List.of("tour.florence-renaissance.fr"), second.deltas, "a delta from the embedded release: " + second.deltaFallbacks);
            liveryFetch(sample, server.url(), "--embedded", embedded.toString());
            assertSameInstalledTrees(sample);

            // A tampered embedded release is refused: offline the fetch fails naming both failures; online it installs.
            Path bundle;
            try (Stream<Path> files = Files.list(embedded.resolve("targets"))) {
                bundle = files.filter(p -> p.toString().endsWith(".core.zip")).findFirst().orElseThrow();
            }
            byte[] bytes = Files.readAllBytes(bundle);
            bytes[bytes.length / 2] ^= 1;
            Files.write(bundle, bytes);
            Path fresh = work.resolve("fresh-cache/sonic-walkscape");
            LiveryException e = assertThrows(LiveryException.class, () -> fetch(NOWHERE, fresh, root, embedded));
            assertTrue(e.getMessage().startsWith("refresh failed: "), e.getMessage());
            assertTrue(e.getMessage().contains("(and the release embedded in the app was not installed: "), e.getMessage());
            assertTrue(e.getMessage().contains("core.zip"), e.getMessage());
            assertFalse(Files.exists(fresh.resolve("current")));
            FetchResult online = fetch(server.url(), fresh, root, embedded);
            assertEquals(2, online.release);
            assertFalse(online.offline);
        }
    }

    private static FetchResult fetch(String server, Path cache, Path root, Path embedded) throws Exception {
        FetchRequest request = SampleRelease.request(server, cache, root);
        request.tours = List.of("florence-renaissance");
        request.embeddedRelease = embedded;
        return ReleaseInstaller.fetch(request);
    }

    private static void liveryFetch(SampleRelease sample, String server, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("--locale", "fr", "--tour", "florence-renaissance"));
        args.addAll(List.of(more));
        sample.liveryFetch(server, args.toArray(new String[0]));
    }

    /** The same installed tree under the same release link (the embedded release holds few files, so no count). */
    private static void assertSameInstalledTrees(SampleRelease sample) throws Exception {
        assertEquals(LiveryTool.treeDigests(sample.swiftCache().resolve("current")), LiveryTool.treeDigests(sample.javaCache().resolve("current")));
        assertEquals(Files.readSymbolicLink(sample.swiftCache().resolve("current")), Files.readSymbolicLink(sample.javaCache().resolve("current")));
    }
}
