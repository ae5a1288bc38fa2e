package com.livery.client.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.livery.client.FetchEvent;
import com.livery.client.FetchRequest;
import com.livery.client.FetchResult;
import com.livery.client.ReleaseInstaller;
import com.livery.client.testsupport.LiveryTool;
import com.livery.client.testsupport.SampleRelease;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The end-to-end test: {@code livery build} of the sample tenants, {@code livery serve}, the Java client installs
 * sonic-walkscape with a voucher-protected (encrypted) tour beside {@code livery fetch}, updates by delta after a
 * one-file change, and the installed trees are byte-identical to livery fetch's after each step; then offline.
 */
class EndToEndTest {
    @Test
    void javaClientInstallsAndUpdatesTheSameTreeAsLiveryFetch(@TempDir Path work) throws Exception {
        SampleRelease sample = SampleRelease.everyTenantCopied(work);
        sample.livery("build");
        String code = sample.livery("vouchers", "issue", "sonic-walkscape", "--tour", "rome-trastevere", "--devices", "2").trim();
        Path root = sample.root();
        String[] selection = {"--locale", "fr", "--tour", "florence-renaissance", "--tour", "rome-trastevere"};
        try (LiveryTool.Server server = sample.serve("--content-keys", ".livery-keys")) {
            List<FetchEvent> events = Collections.synchronizedList(new ArrayList<>());
            FetchResult first = javaFetch(server.url(), sample.javaCache(), root, List.of(code), events);
            assertFalse(first.offline, String.valueOf(first.problem));
            assertEquals(1, first.release);
            assertTrue(first.downloaded.contains("tour.rome-trastevere.fr"), first.downloaded.toString());
            assertEquals(FetchEvent.Type.PLAN, events.get(0).type);
            assertTrue(events.stream().anyMatch(e -> e.type == FetchEvent.Type.PROGRESS));
            assertEquals(FetchEvent.Type.INSTALLED, events.get(events.size() - 1).type);
            sample.liveryFetch(server.url(), concat(selection, "--root", root.toString(), "--voucher", code));
            sample.assertSameInstalledTrees();

            // One French audio file changes: release 2, one bundle rebuilt, which both clients take by delta.
            sample.changeFrenchAudio("it");
            sample.livery("build");
            FetchResult second = javaFetch(server.url(), sample.javaCache(), root, List.of(), null);
            assertEquals(2, second.release);
            assertEquals(List.of("tour.florence-renaissance.fr"), second.downloaded);
            assertEquals(List.of("tour.florence-renaissance.fr"), second.deltas);
            sample.liveryFetch(server.url(), selection);
            sample.assertSameInstalledTrees();
        }
        // The server is gone: the installed release stays in use.
        FetchResult offline = javaFetch("http://127.0.0.1:1", sample.javaCache(), root, List.of(), null);
        assertTrue(offline.offline);
        assertEquals(2, offline.release);
        assertTrue(offline.problem.startsWith("refresh failed: "), offline.problem);
    }

    private static FetchResult javaFetch(String server, Path cache, Path root, List<String> vouchers, List<FetchEvent> events) throws Exception {
        FetchRequest request = SampleRelease.request(server, cache, root);
        request.tours = List.of("florence-renaissance", "rome-trastevere");
        request.vouchers = vouchers;
        if (events != null) request.listener = events::add;
        return ReleaseInstaller.fetch(request);
    }

    private static String[] concat(String[] first, String... more) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(List.of(more));
        return all.toArray(new String[0]);
    }
}
