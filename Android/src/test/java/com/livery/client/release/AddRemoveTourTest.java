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
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Adding and removing a tour without a release change (docs/client.md, "Adding and removing tours and programs"): the
 * installed release gets the tour from its own manifest while the server already offers the next release, with no
 * metadata refresh; the remembered selection follows every later update; a removal takes the bundles out of the
 * installed release and their downloads out of the cache. After each step the Java cache is byte-identical to the
 * one {@code livery fetch --add-tour / --remove-tour} makes; adding to a release the server no longer has fails and
 * leaves the installed release as it was.
 */
class AddRemoveTourTest {
    private static final String TOUR = "florence-renaissance";

    @Test
    void aTourIsAddedToAndRemovedFromTheInstalledReleaseAsLiveryFetchDoes(@TempDir Path work) throws Exception {
        SampleRelease sample = SampleRelease.copied(work);
        sample.livery("build");
        Path root = sample.root();
        Path java = sample.javaCache(), swift = sample.swiftCache();
        Path strings = work.resolve("Tenants/sonic-walkscape/locales/fr.yaml");
        try (LiveryTool.Server server = sample.serve()) {
            FetchResult first = fetch(server, java, root, r -> { });
            assertEquals(1, first.release);
            sample.liveryFetch(server.url(), "--locale", "fr", "--root", root.toString());
            // Release 2 is on the server: the add does not take it, nor look at the metadata.
            Files.writeString(strings, Files.readString(strings).replace("map: Carte", "map: Plan"));
            sample.livery("build");

            int before = server.log().length();
            FetchResult added = fetch(server, java, root, r -> r.addTours = List.of(TOUR));
            String requests = server.log().substring(before);
            assertEquals(1, added.release);
            assertFalse(added.offline);
            assertEquals(List.of("tour." + TOUR, "tour." + TOUR + ".fr"), added.downloaded.stream().sorted().collect(Collectors.toList()));
            assertTrue(added.reused.containsAll(List.of("core", "locale.fr", "locale.it")), added.reused.toString());
            assertFalse(requests.contains("/metadata/"), "no refresh: " + requests);
            // The two archives, and the file index of the indexed one (kept for its next delta): nothing but targets.
            assertEquals(2, SampleRelease.occurrences(requests, ".zip 200"), requests);
            assertEquals(SampleRelease.occurrences(requests, "\n"), SampleRelease.occurrences(requests, "GET /sonic-walkscape/targets/"), requests);
            assertTrue(Files.readString(java.resolve("selection.json")).contains(TOUR));
            sample.liveryFetch(server.url(), "--locale", "fr", "--add-tour", TOUR);
            assertSameCaches(java, swift);

            // The next update keeps the remembered tour.
            FetchResult updated = fetch(server, java, root, r -> { });
            assertEquals(2, updated.release);
            assertTrue(updated.reused.containsAll(List.of("tour." + TOUR, "tour." + TOUR + ".fr")), updated.reused.toString());
            sample.liveryFetch(server.url(), "--locale", "fr");
            assertSameCaches(java, swift);

            // Removed: out of the installed release 2, and its downloads out of the cache.
            String tourSha = sha256Of(java, "tour." + TOUR);
            assertTrue(Files.exists(java.resolve("downloads/" + tourSha)));
            FetchResult removed = fetch(server, java, root, r -> r.removeTours = List.of(TOUR));
            assertEquals(2, removed.release);
            assertEquals(List.of(), removed.downloaded);
            assertFalse(Files.exists(java.resolve("current/bundles/tour." + TOUR)));
            assertFalse(Files.exists(java.resolve("downloads/" + tourSha)), "the removed tour's download goes");
            assertFalse(Files.readString(java.resolve("selection.json")).contains(TOUR));
            sample.liveryFetch(server.url(), "--locale", "fr", "--remove-tour", TOUR);
            assertSameCaches(java, swift);

            // Two releases later, in which the tour's French audio changed, release 2's tour files are gone from the server:
            // adding the tour to release 2 fails, and nothing changes.
            for (String language : List.of("it", "en")) {
                sample.changeFrenchAudio(language);
                sample.livery("build");
            }
            Map<String, String> release2 = LiveryTool.treeDigests(java.resolve("current"));
            Path link = Files.readSymbolicLink(java.resolve("current"));
            LiveryException e = assertThrows(LiveryException.class, () -> fetch(server, java, root, r -> r.addTours = List.of(TOUR)));
            assertTrue(e.getMessage().endsWith("(the installed release 2 may no longer be on the server: fetch the current release first)"), e.getMessage());
            assertEquals(link, Files.readSymbolicLink(java.resolve("current")));
            assertEquals(release2, LiveryTool.treeDigests(java.resolve("current")));
            assertFalse(Files.readString(java.resolve("selection.json")).contains(TOUR), "the failed add is not remembered");
        }
    }

    /** The SHA-256 of bundle {@code id} in the installed release's manifest (its download's name). */
    private static String sha256Of(Path cache, String id) throws Exception {
        return com.livery.client.manifest.DownloadManifest.parse(Files.readAllBytes(cache.resolve("current/download-manifest.json"))).bundle(id).sha256;
    }


    private static FetchResult fetch(LiveryTool.Server server, Path cache, Path root, Consumer<FetchRequest> more) throws Exception {
        FetchRequest request = SampleRelease.request(server.url(), cache, root);
        more.accept(request);
        return ReleaseInstaller.fetch(request);
    }


    /** The same installed tree, the same releases kept, the same downloads and the same remembered selection. */
    private static void assertSameCaches(Path java, Path swift) throws Exception {
        assertEquals(LiveryTool.treeDigests(swift.resolve("current")), LiveryTool.treeDigests(java.resolve("current")));
        assertEquals(Files.readSymbolicLink(swift.resolve("current")), Files.readSymbolicLink(java.resolve("current")));
        assertEquals(SampleRelease.names(swift.resolve("releases")), SampleRelease.names(java.resolve("releases")));
        assertEquals(SampleRelease.names(swift.resolve("downloads")), SampleRelease.names(java.resolve("downloads")));
        assertEquals(Files.readString(swift.resolve("selection.json")), Files.readString(java.resolve("selection.json")));
    }

}
