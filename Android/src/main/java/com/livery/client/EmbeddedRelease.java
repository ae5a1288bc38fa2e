package com.livery.client;

import com.livery.client.http.HttpFetcher;
import com.livery.client.install.FolderTransport;
import com.livery.client.install.RepositoryHttp;
import com.livery.client.install.TufRepository;
import com.livery.client.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/**
 * A release shipped inside the app ({@code livery embed}, docs/deltas.md "A release inside the app"): a subset of the
 * tenant's repository laid out as the repository is, with {@code embedded.json} naming the locale, tours and programs
 * it holds. {@link FetchRequest#embeddedRelease} installs it into an empty cache before the first fetch, with no
 * network, as LiveryClient's {@code EmbeddedRelease.seed} does: every file is verified as a download is (signatures
 * against the embedded or bootstrap root, lengths and hashes), except the metadata's expiry, which guards against a
 * network replaying old metadata and means nothing for files inside the app's own package. The fetch then goes on as
 * usual, with the embedded release as the base of its deltas; offline, the embedded release stays in use.
 *
 * <p>On Android the folder must be a real directory (copy it out of the APK's assets once, or ship it in a folder the
 * app can read as files).
 */
public final class EmbeddedRelease {
    public static final String SELECTION_FILE = "embedded.json";

    /** What the embedded release holds for the app ({@code embedded.json}). */
    public static final class Selection {
        public final String tenant, channel, locale;
        public final long release;
        public final List<String> tours, programs;

        Selection(String tenant, String channel, long release, String locale, List<String> tours, List<String> programs) {
            this.tenant = tenant;
            this.channel = channel;
            this.release = release;
            this.locale = locale;
            this.tours = List.copyOf(tours);
            this.programs = List.copyOf(programs);
        }

        public static Selection read(Path embedded) throws Exception {
            JsonObject o = JsonObject.parse(Files.readAllBytes(embedded.resolve(SELECTION_FILE)), SELECTION_FILE);
            return new Selection(o.string("tenant"), o.string("channel"), o.integer("release", 1), o.optionalString("locale"), o.strings("tours"), o.strings("programs"));
        }
    }

    private EmbeddedRelease() {}

    /**
     * Installs the embedded release into {@code request}'s cache when no release is installed there yet. Returns null
     * when it did (or there was nothing to do), else why it could not, for the fetch's error should the network fail too.
     */
    static String seed(FetchRequest request, Path embedded) {
        if (ReleaseInstaller.installedRelease(request.cache) != null) return null;
        try {
            Selection selection = Selection.read(embedded);
            if (!selection.tenant.equals(request.tenant)) throw new LiveryException(LiveryException.Kind.REQUEST, "it is " + selection.tenant + "'s, not " + request.tenant + "'s");
            FolderTransport folder = new FolderTransport(embedded);
            HttpFetcher files = new HttpFetcher(folder, request.repository.fetcher().policy());
            // Files of the app's own package: verified against the root, not against the clock.
            FetchRequest seed = new FetchRequest(request.tenant, new RepositoryHttp(folder.base(), files), request.cache,
                    TufRepository.opener(Clock.fixed(Instant.EPOCH, ZoneOffset.UTC)));
            seed.bootstrapRoot = request.bootstrapRoot != null ? request.bootstrapRoot : Files.readAllBytes(embedded.resolve("metadata/1.root.json"));
            seed.locale = selection.locale;
            seed.tours = selection.tours;
            seed.programs = selection.programs;
            seed.appVersion = request.appVersion;
            seed.channel = request.channel;
            seed.installId = request.installId;
            seed.takesStagedRelease = false;
            FetchResult result = ReleaseInstaller.fetchOrKeep(seed);
            if (result.offline) throw new LiveryException(LiveryException.Kind.REFRESH, result.problem != null ? result.problem : "it does not verify");
            return null;
        } catch (Exception e) {
            return "the release embedded in the app was not installed: " + ReleaseInstaller.message(e);
        }
    }
}
