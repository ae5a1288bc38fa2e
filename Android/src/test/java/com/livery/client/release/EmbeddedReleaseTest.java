package com.livery.client.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.livery.client.FetchRequest;
import com.livery.client.FetchResult;
import com.livery.client.LiveryException;
import com.livery.client.ReleaseInstaller;
import com.livery.client.http.HttpFetcher;
import com.livery.client.http.TransferPolicy;
import com.livery.client.install.RepositoryHttp;
import com.livery.client.install.TufRepository;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A release shipped inside the app ({@code livery embed}): a first launch with no network installs it, as {@code
 * livery fetch --embedded} does, into the same tree; the first update online is a delta from it; a tampered embedded
 * release is refused, and the fetch says both failures when the network fails too.
 */
class EmbeddedReleaseTest {
    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/");
    private static final String NOWHERE = "http://127.0.0.1:1";

    @Test
    void aFirstLaunchOfflineInstallsTheEmbeddedReleaseAndUpdatesFromItByDelta(@TempDir Path work) throws Exception {
        Path livery = LiveryTool.livery();
        EndToEndTest.copyTree(LiveryTool.repo().resolve("Tenants/sonic-walkscape"), work.resolve("Tenants/sonic-walkscape"));
        LiveryTool.run(work, livery.toString(), "build");
        LiveryTool.run(work, livery.toString(), "embed", "sonic-walkscape", "--locale", "fr", "--tour", "florence-renaissance", "-o", "embedded");
        Path embedded = work.resolve("embedded");
        Path root = embedded.resolve("metadata/1.root.json");

        // No network at all: the embedded release is installed, and kept for offline use.
        Path java = work.resolve("java-cache/sonic-walkscape");
        FetchResult first = fetch(NOWHERE, java, root, embedded);
        assertTrue(first.offline, "the server cannot be reached");
        assertEquals(1, first.release);
        assertTrue(first.problem.startsWith("refresh failed: "), first.problem);
        assertTrue(Files.exists(java.resolve("current/bundles/tour.florence-renaissance.fr/tours/florence-renaissance/audio/fr/01-duomo.mp3")));
        // livery fetch takes 20 s to give up on a refused connection (its connection pool retries until the response
        // deadline), so its offline first launch is against a server that has no release at all.
        Files.createDirectories(work.resolve("empty/.livery"));
        try (LiveryTool.Server nothing = LiveryTool.start(work, LISTENING, livery.toString(), "serve", "--port", "0", "--output", "empty")) {
            liveryFetch(work, livery, nothing.url(), "--embedded", embedded.toString(), "--root", root.toString());
        }
        assertSameTrees(work);

        // Online, release 2 changed one French audio file: the update is a delta from the embedded release.
        Path audio = work.resolve("Tenants/sonic-walkscape/tours/florence-renaissance/audio");
        Files.copy(audio.resolve("it/03-signoria.mp3"), audio.resolve("fr/03-signoria.mp3"), StandardCopyOption.REPLACE_EXISTING);
        LiveryTool.run(work, livery.toString(), "build");
        try (LiveryTool.Server server = LiveryTool.start(work, LISTENING, livery.toString(), "serve", "--port", "0")) {
            FetchResult second = fetch(server.url(), java, root, embedded);
            assertFalse(second.offline, String.valueOf(second.problem));
            assertEquals(2, second.release);
            assertEquals(List.of("tour.florence-renaissance.fr"), second.downloaded);
            assertEquals(List.of("tour.florence-renaissance.fr"), second.deltas, "a delta from the embedded release: " + second.deltaFallbacks);
            liveryFetch(work, livery, server.url(), "--embedded", embedded.toString());
            assertSameTrees(work);

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
        FetchRequest request = new FetchRequest("sonic-walkscape", new RepositoryHttp(URI.create(server + "/sonic-walkscape/"), new HttpFetcher(TransferPolicy.STANDARD)),
                cache, TufRepository.opener(Clock.systemUTC()));
        request.bootstrapRoot = Files.readAllBytes(root);
        request.locale = "fr";
        request.tours = List.of("florence-renaissance");
        request.embeddedRelease = embedded;
        return ReleaseInstaller.fetch(request);
    }

    private static void liveryFetch(Path work, Path livery, String server, String... more) throws Exception {
        List<String> command = new ArrayList<>(List.of(livery.toString(), "fetch", "sonic-walkscape", "--server", server, "--cache", "swift-cache",
                "--locale", "fr", "--tour", "florence-renaissance"));
        command.addAll(List.of(more));
        LiveryTool.run(work, command.toArray(new String[0]));
    }

    private static void assertSameTrees(Path work) throws Exception {
        assertEquals(LiveryTool.treeDigests(work.resolve("swift-cache/sonic-walkscape/current")), LiveryTool.treeDigests(work.resolve("java-cache/sonic-walkscape/current")));
        assertEquals(Files.readSymbolicLink(work.resolve("swift-cache/sonic-walkscape/current")), Files.readSymbolicLink(work.resolve("java-cache/sonic-walkscape/current")));
    }
}
