package com.livery.client.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.livery.client.FetchEvent;
import com.livery.client.FetchRequest;
import com.livery.client.FetchResult;
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
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The end-to-end test: {@code livery build} of the sample tenants, {@code livery serve}, the Java client installs
 * sonic-walkscape with a voucher-protected (encrypted) tour beside {@code livery fetch}, updates by delta after a
 * one-file change, and the installed trees are byte-identical to livery fetch's after each step; then offline.
 */
class EndToEndTest {
    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/");

    @Test
    void javaClientInstallsAndUpdatesTheSameTreeAsLiveryFetch(@TempDir Path work) throws Exception {
        Path livery = LiveryTool.livery();
        copyTree(LiveryTool.repo().resolve("Tenants"), work.resolve("Tenants"));
        LiveryTool.run(work, livery.toString(), "build");
        String code = LiveryTool.run(work, livery.toString(), "vouchers", "issue", "sonic-walkscape", "--tour", "rome-trastevere", "--devices", "2").trim();
        Path root = work.resolve("Output/sonic-walkscape/metadata/1.root.json");
        List<String> selection = List.of("--locale", "fr", "--tour", "florence-renaissance", "--tour", "rome-trastevere");
        try (LiveryTool.Server server = LiveryTool.start(work, LISTENING, livery.toString(), "serve", "--port", "0", "--content-keys", ".livery-keys")) {
            List<FetchEvent> events = Collections.synchronizedList(new ArrayList<>());
            FetchResult first = javaFetch(server.url(), work.resolve("java-cache/sonic-walkscape"), root, List.of(code), events);
            assertFalse(first.offline, String.valueOf(first.problem));
            assertEquals(1, first.release);
            assertTrue(first.downloaded.contains("tour.rome-trastevere.fr"), first.downloaded.toString());
            assertEquals(FetchEvent.Type.PLAN, events.get(0).type);
            assertTrue(events.stream().anyMatch(e -> e.type == FetchEvent.Type.PROGRESS));
            assertEquals(FetchEvent.Type.INSTALLED, events.get(events.size() - 1).type);
            liveryFetch(work, livery, server.url(), selection, "--root", root.toString(), "--voucher", code);
            assertSameTrees(work);

            // One French audio file changes: release 2, one bundle rebuilt, which both clients take by delta.
            Path audio = work.resolve("Tenants/sonic-walkscape/tours/florence-renaissance/audio");
            Files.copy(audio.resolve("it/03-signoria.mp3"), audio.resolve("fr/03-signoria.mp3"), StandardCopyOption.REPLACE_EXISTING);
            LiveryTool.run(work, livery.toString(), "build");
            FetchResult second = javaFetch(server.url(), work.resolve("java-cache/sonic-walkscape"), root, List.of(), null);
            assertEquals(2, second.release);
            assertEquals(List.of("tour.florence-renaissance.fr"), second.downloaded);
            assertEquals(List.of("tour.florence-renaissance.fr"), second.deltas);
            liveryFetch(work, livery, server.url(), selection);
            assertSameTrees(work);
        }
        // The server is gone: the installed release stays in use.
        FetchResult offline = javaFetch("http://127.0.0.1:1", work.resolve("java-cache/sonic-walkscape"), root, List.of(), null);
        assertTrue(offline.offline);
        assertEquals(2, offline.release);
        assertTrue(offline.problem.startsWith("refresh failed: "), offline.problem);
    }

    private static FetchResult javaFetch(String server, Path cache, Path root, List<String> vouchers, List<FetchEvent> events) throws Exception {
        HttpFetcher http = new HttpFetcher(TransferPolicy.STANDARD);
        FetchRequest request = new FetchRequest("sonic-walkscape", new RepositoryHttp(URI.create(server + "/sonic-walkscape/"), http), cache,
                TufRepository.opener(Clock.systemUTC()));
        request.bootstrapRoot = Files.readAllBytes(root);
        request.locale = "fr";
        request.tours = List.of("florence-renaissance", "rome-trastevere");
        request.vouchers = vouchers;
        if (events != null) request.listener = events::add;
        return ReleaseInstaller.fetch(request);
    }

    private static void liveryFetch(Path work, Path livery, String server, List<String> selection, String... more) throws Exception {
        List<String> command = new ArrayList<>(List.of(livery.toString(), "fetch", "sonic-walkscape", "--server", server, "--cache", "swift-cache"));
        command.addAll(selection);
        command.addAll(List.of(more));
        LiveryTool.run(work, command.toArray(new String[0]));
    }

    private static void assertSameTrees(Path work) throws Exception {
        Map<String, String> java = LiveryTool.treeDigests(work.resolve("java-cache/sonic-walkscape/current"));
        Map<String, String> swift = LiveryTool.treeDigests(work.resolve("swift-cache/sonic-walkscape/current"));
        assertTrue(java.size() > 20, "the installed tree holds " + java.size() + " files");
        assertEquals(swift, java);
        assertEquals(Files.readSymbolicLink(work.resolve("swift-cache/sonic-walkscape/current")), Files.readSymbolicLink(work.resolve("java-cache/sonic-walkscape/current")));
    }

    static void copyTree(Path from, Path to) throws Exception {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(target);
                else Files.copy(p, target);
            }
        }
    }
}
